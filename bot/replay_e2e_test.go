package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Kills and restarts around output: every message an output job creates is
// recorded as soon as it exists, so a replay edits it instead of creating
// it again, even once Discord has forgotten the nonce (a few minutes).

// Every output dies at its "done" step (its work is out, its Done not
// written), and the bot restarts: the replay must not ask Discord for
// anything it already did (deleting the old table again is a 404).
func TestKillAtDoneOfEveryMoveAsksNothingTwice(t *testing.T) {
	for _, kind := range []string{"duel", "dealt", "lnf"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			n := map[string]int{"duel": 2, "dealt": 3, "lnf": 3}[kind]
			var users []*fakediscord.User
			for i := range n {
				users = append(users, h.fake.AddUser(string(rune('A'+i))+"x"))
			}
			openIn(t, h, kind, users)
			for mv := 0; mv < 10; mv++ {
				h.crashAt = func(step string) bool { return step == "done" }
				if !playOn(t, h, users) {
					break
				}
				h.bot.Idle()
				h.crashAt = nil
				if h.killed {
					h.killed = false
					h.restart()
				}
			}
			if d := h.fake.Duplicates(h.ch); len(d) != 0 {
				for _, m := range h.fake.Messages(h.ch) {
					t.Logf("msg %s nonce=%q %.60q [%s]", m.ID, m.Nonce, m.Text(), m.ButtonsLine())
				}
				t.Fatalf("%d messages posted twice", len(d))
			}
			c := h.fake.RESTCounts()
			t.Logf("NotFound=%d Invalid=%d", c.NotFound, c.Invalid)
			if c.NotFound != 0 {
				t.Fatalf("%d requests answered 404", c.NotFound)
			}
		})
	}
}

// Kills at every step of output in turn, in every game, with the fake
// told of each kill (Killed): after each restart the table must show the
// state a fresh /game table shows, and be the one table. Folded, every
// move after the first puts its table edit and story off (TableEvery an
// hour) and the kills fall in the jobs that tell them together.
func TestKillAtEveryOutputStepLeavesTheFreshTable(t *testing.T) {
	for _, folded := range []bool{false, true} {
		for _, kind := range []string{"duel", "dealt", "lnf", "life"} {
			name := kind
			if folded {
				name += "/folded"
			}
			t.Run(name, func(t *testing.T) { killAtEveryStep(t, kind, folded) })
		}
	}
}

func killAtEveryStep(t *testing.T, kind string, folded bool) {
	h := newHarness(t, func(h *harness) {
		if folded {
			h.tableEvery = time.Hour
		}
	})
	n := map[string]int{"duel": 2, "dealt": 3, "lnf": 3, "life": 3}[kind]
	var users []*fakediscord.User
	for i := range n {
		users = append(users, h.fake.AddUser(string(rune('A'+i))+"x"))
	}
	openIn(t, h, kind, users)
	settle := func() { h.bot.Idle() }
	if folded {
		settle = func() { h.bot.Settle() }
		h.fake.SetSettler(settle)
	}
	target := 1
	for mv := 0; mv < 24; mv++ {
		steps := 0
		at := ""
		h.crashAt = func(step string) bool {
			steps++
			if steps == target {
				at = step
				return true
			}
			return false
		}
		if !playOn(t, h, users) {
			break
		}
		settle()
		h.crashAt = nil
		if !h.killed {
			continue
		}
		h.bot.Idle()
		h.killed = false
		target = target%7 + 1
		h.fake.Killed()
		h.restart()
		if g, _ := h.db.Game(h.ch); g == nil {
			break
		}
		before := embedsText(h.table())
		users[0].Command(h.ch, "game", fakediscord.Sub("table"))
		settle()
		if after := embedsText(h.table()); after != before {
			t.Fatalf("move %d killed at %q: after the restart the table showed\n%s\nbut the state is\n%s", mv, at, before, after)
		}
	}
	h.bot.Idle()
	if d := h.fake.Duplicates(h.ch); len(d) != 0 {
		t.Fatalf("%d duplicates: %q", len(d), d[0].Content)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("owed: %d", len(owed))
	}
}

func embedsText(m *fakediscord.Message) string {
	var b strings.Builder
	for _, e := range m.Embeds {
		b.WriteString(e.Title + "|" + e.Description + "|")
		for _, f := range e.Fields {
			b.WriteString(f.Name + "=" + f.Value + ";")
		}
		if e.Footer != nil {
			b.WriteString("|" + e.Footer.Text)
		}
	}
	return b.String()
}

// A /say line's output is out but its Done not yet written when the process
// dies; the bot is down three minutes (Discord remembers an enforce_nonce
// nonce only a few): the game message the dead process posted was
// recorded, so the replay does not post it again.
func TestReplayAfterTheNonceIsForgottenPostsNothingTwice(t *testing.T) {
	h := newHarness(t)
	_, bea := h.startedWith("life", "Ann", "Bea")
	sayKilledAtDone(t, h, bea, "Bea's line.")
	h.downFor(3*time.Minute, "the line's output")
	h.bot.Idle()
	n, tables := 0, 0
	for _, m := range h.fake.Messages(h.ch) {
		t.Logf("msg %s nonce=%q %.70q [%s]", m.ID, m.Nonce, m.Text(), m.ButtonsLine())
		if strings.Contains(m.Content, "Bea's line.") {
			n++
		}
		if m.ButtonID("My hand") != "" {
			tables++
		}
	}
	if n != 1 || tables != 1 {
		t.Fatalf("after a 3-minute downtime the line is in the channel %d times, %d tables", n, tables)
	}
}

// The reminder's output dies at "done"; the bot stays down until the move
// for the absent player is due (five minutes more). After the restart the
// move is made once and nothing is posted twice.
func TestReminderKilledThenDownUntilTheMoveIsDue(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	absent := []*fakediscord.User{ann, bea}[h.record().Waiting[0]]
	pings := h.fake.Pings(absent.ID)
	version := h.record().Version
	h.crashAt = func(step string) bool { return step == "done" }
	h.tick(6 * time.Minute)
	h.downFor(5*time.Minute, "the reminder's output")
	h.tick(0)
	h.tick(time.Minute)
	if v := h.record().Version; v != version+1 {
		t.Fatalf("version %d, want %d (one move made for %s)", v, version+1, absent.Name)
	}
	for _, m := range h.fake.Messages(h.ch) {
		t.Logf("msg %s nonce=%q %.90q [%s]", m.ID, m.Nonce, m.Text(), m.ButtonsLine())
	}
	if d := h.fake.Duplicates(h.ch); len(d) != 0 {
		t.Fatalf("%d messages posted twice", len(d))
	}
	t.Logf("pings of %s: %d", absent.Name, h.fake.Pings(absent.ID)-pings)
	tables := 0
	for _, m := range h.fake.Messages(h.ch) {
		if m.ButtonID("My hand") != "" {
			tables++
		}
	}
	if tables != 1 {
		t.Fatalf("%d tables with live buttons", tables)
	}
}

// sayKilledAtDone has u say line, and kills the bot at its output's "done"
// step: the line is out, the job's end never written.
// downFor is the process killed (a test's crashAt, which it clears) and
// down for d, longer than Discord remembers a nonce, then started again.
func (h *harness) downFor(d time.Duration, what string) {
	h.t.Helper()
	h.crashAt = nil
	if !h.killed {
		h.t.Fatalf("%s was not killed", what)
	}
	h.killed = false
	h.fake.Killed()
	h.stop()
	h.advance(d)
	h.start()
}

func sayKilledAtDone(t *testing.T, h *harness, u *fakediscord.User, line string) {
	t.Helper()
	h.crashAt = func(step string) bool { return step == "done" }
	u.Command(h.ch, "say", fakediscord.Str("line", line))
	h.bot.Idle()
	h.crashAt = nil
	if !h.killed {
		t.Fatal("the output was not killed")
	}
}

// A game in a thread ends; its output posts the result in the channel and
// dies at "done", and the bot is down three minutes (Discord has forgotten
// the result's nonce): the result was recorded as soon as it was posted,
// so the replay does not post it again.
func TestResultPostedOnceAfterAKillAtDone(t *testing.T) {
	h := newHarness(t, withThreads)
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
	openIn(t, h, "life", users)
	result := false
	h.crashAt = func(step string) bool {
		result = result || step == "result"
		return result && step == "done"
	}
	for mv := 0; mv < 300 && !h.killed; mv++ {
		if !playOn(t, h, users) {
			break
		}
	}
	h.downFor(3*time.Minute, "the game's last output")
	h.bot.Idle()
	n := 0
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Text(), "is over") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the result is in the channel %d times", n)
	}
}
