package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// A lobby change is answered by updating the lobby message (type 7). If
// that answer never reaches Discord — every callback answers 500 until the
// 3 s window closes, or the process dies between the commit and the answer
// — the change must still show: it commits output the store owes, which
// redraws the lobby message, at once or replayed after a restart.
//
// lostLobbyAnswer makes the callbacks of the next click fail; with kill the
// bot also dies before its output does anything, as if killed between the
// commit and the answer. Then the bot restarts. It reports whether the bot
// was killed (only output work is, and before the fix none was owed).
func lostLobbyAnswer(t *testing.T, h *harness, kill bool, click func()) bool {
	t.Helper()
	h.fake.Faults(fakediscord.Faults{Seed: 1, ServerError: 1, Routes: []string{"POST " + fakediscord.RouteCallback}})
	if kill {
		h.crashAt = func(step string) bool { return true }
	}
	click()
	h.bot.Idle()
	h.fake.Faults(fakediscord.Faults{})
	h.crashAt = nil
	killed := h.killed
	if killed {
		h.killed = false
		h.fake.Killed()
	}
	h.restart()
	return killed
}

// A cancelled lobby whose answer was lost kept its Join/Start/Cancel
// buttons for ever, even after a restart, though the game was gone.
func TestLobbyCancelAnswerLost(t *testing.T) {
	for _, kill := range []bool{false, true} {
		t.Run(map[bool]string{false: "failed", true: "killed"}[kill], func(t *testing.T) {
			h := newHarness(t)
			ann := h.fake.AddUser("Ann")
			ann.Command(h.ch, "game", newGame("duel"))
			lobby := h.tableID()
			killed := lostLobbyAnswer(t, h, kill, func() { ann.Click(h.table(), h.table().ButtonID("Cancel")) })
			if g, _ := h.db.Game(h.ch); g != nil {
				t.Fatal("the lobby was not cancelled")
			}
			m := h.fake.Message(h.ch, lobby)
			if len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "closed") || !strings.Contains(m.Text(), "Ann cancelled") {
				t.Fatalf("the cancelled lobby reads:\n%s\n[%s]", m.Text(), m.ButtonsLine())
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Fatalf("%d outputs still owed", len(owed))
			}
			if kill && !killed {
				t.Error("the kill never came: the change owed no output")
			}
		})
	}
}

// A Join whose answer was lost seated Bea in the store, but the lobby
// message never showed her, not even after a restart.
func TestLobbyJoinAnswerLost(t *testing.T) {
	for _, kill := range []bool{false, true} {
		t.Run(map[bool]string{false: "failed", true: "killed"}[kill], func(t *testing.T) {
			h := newHarness(t)
			ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
			ann.Command(h.ch, "game", newGame("duel"))
			killed := lostLobbyAnswer(t, h, kill, func() { bea.Click(h.table(), h.table().ButtonID("Join")) })
			if len(h.record().Seats) != 2 {
				t.Fatal("Bea was not seated")
			}
			if m := h.table(); !strings.Contains(m.Text(), "Bea") {
				t.Fatalf("the store seats Bea, the lobby reads:\n%s", m.Text())
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Fatalf("%d outputs still owed", len(owed))
			}
			if kill && !killed {
				t.Error("the kill never came: the change owed no output")
			}
		})
	}
}

// When the answer does reach Discord it has already drawn the lobby: the
// output each lobby change now owes must then ask Discord for nothing more
// than the answer itself.
func TestLobbyAnsweredChangesCostOnlyTheAnswer(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("duel"))
	lobby := h.tableID()
	for _, step := range []struct {
		who    *fakediscord.User
		button string
		want   string // in the lobby after
	}{
		{bea, "Join", "Bea"},
		{bea, "Leave", ""},
		{ann, "Add a computer", "🤖"},
		{ann, "Remove a computer", ""},
		{ann, "Cancel", "Ann cancelled"},
	} {
		h.fake.ResetRESTCounts()
		if r := step.who.Click(h.table(), h.table().ButtonID(step.button)); r == nil || r.Type != 7 {
			t.Fatalf("%s answered %+v", step.button, r)
		}
		h.bot.Idle()
		c := h.fake.RESTCounts()
		t.Logf("%s: global %d, exempt %d %v", step.button, c.Global, c.Exempt, c.ByRoute)
		if c.Global != 0 || c.Exempt != 1 {
			t.Errorf("%s cost %d requests besides the answer (%v)", step.button, c.Global+c.Exempt-1, c.ByRoute)
		}
		if text := h.fake.Message(h.ch, lobby).Text(); step.want != "" && !strings.Contains(text, step.want) {
			t.Fatalf("after %s the lobby reads:\n%s", step.button, text)
		}
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed", len(owed))
	}
}
