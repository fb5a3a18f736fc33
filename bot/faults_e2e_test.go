package bot_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// playOn makes the next move of the channel's game: whoever is to move
// opens their hand and clicks its first enabled control (a text box gets
// typed words). False once the channel has no game.
func playOn(t *testing.T, h *harness, users []*fakediscord.User) bool {
	t.Helper()
	rec, err := h.db.Game(h.ch)
	if err != nil {
		t.Fatal(err)
	}
	if rec == nil {
		return false
	}
	if len(rec.Waiting) == 0 {
		t.Fatalf("the game waits for nobody:\n%s", h.table().Text())
	}
	u := seated(t, rec, users, rec.Waiting[0])
	r := u.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || r.Message == nil {
		t.Fatalf("%s's My hand answered %+v", u.Name, r)
	}
	if pressFirst(t, u, r.Message, "Life is not fair, but draw two") {
		return true
	}
	t.Fatalf("%s has nothing to do:\n%s", u.Name, r.Message.Text())
	return false
}

// seated is the user in a seat: users are matched by id, since a
// game people may join any time (Improv) can seat them in any order.
func seated(t *testing.T, rec *store.Game, users []*fakediscord.User, seat int) *fakediscord.User {
	t.Helper()
	for _, u := range users {
		if u.ID == rec.Seats[seat].User {
			return u
		}
	}
	t.Fatalf("seat %d (%s) is nobody the test plays", seat, rec.Seats[seat].Name)
	return nil
}

// pressFirst clicks a hand's first enabled button (typing text into a text
// box it opens), or else picks the first choice of its first menu. False
// if the hand offers neither.
func pressFirst(t *testing.T, u *fakediscord.User, hand *fakediscord.Message, text string) bool {
	t.Helper()
	for _, b := range hand.Buttons() {
		if b.Disabled {
			continue
		}
		r := u.Click(hand, b.CustomID)
		if r != nil && r.Modal != nil {
			r = u.Submit(r.Modal, map[string]string{"text": text})
		}
		if r == nil || r.Type == 0 {
			t.Fatalf("%s's %q answered %+v", u.Name, b.Label, r)
		}
		return true
	}
	if sels := hand.Selects(); len(sels) > 0 {
		if r := u.Select(hand, sels[0].CustomID, sels[0].Options[0].Value); r == nil || r.Type == 0 {
			t.Fatalf("%s's choice answered %+v", u.Name, r)
		}
		return true
	}
	return false
}

// A kill at every step of a move's output: each move's output dies at its
// next step in turn, the bot restarts on the same database, and in the end
// nothing was posted twice, no move was lost and the final table shows the
// end.
func TestKillAtEveryStepOfOutput(t *testing.T) {
	h := newHarness(t)
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")}
	users[0].Command(h.ch, "game", newGame("life"))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	kills, target := map[string]int{}, 1
	for move := 0; ; move++ {
		if move > 400 {
			t.Fatal("the game did not end")
		}
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			break
		}
		before := rec.Version
		steps := 0
		h.crashAt = func(step string) bool {
			steps++
			if steps == target && move%3 == 0 { // a restart costs discordgo's one-second close
				kills[step]++
				return true
			}
			return false
		}
		if !playOn(t, h, users) {
			break
		}
		h.crashAt = nil
		if h.killed {
			h.killed = false
			h.restart()
			target = target%6 + 1
		}
		if rec, _ := h.db.Game(h.ch); rec != nil && rec.Version <= before {
			t.Fatalf("move %d was lost across the kill", move)
		}
		if owed, _ := h.db.Pending(); len(owed) != 0 {
			t.Fatalf("output still owed after the restart: %+v", owed)
		}
	}
	for _, step := range []string{"begin", "hands", "story", "table", "done"} {
		if kills[step] == 0 {
			t.Fatalf("no kill at the %q step: %v", step, kills)
		}
	}
	if d := h.fake.Duplicates(h.ch); len(d) != 0 {
		t.Fatalf("%d messages posted twice, first: %q", len(d), d[0].Content)
	}
	seen := map[string]int{}
	for _, m := range h.fake.Messages(h.ch) {
		for _, line := range strings.Split(m.Content, "\n") {
			if strings.HasPrefix(line, "📖") || strings.Contains(line, "Final scores") {
				seen[line]++
			}
		}
	}
	for line, n := range seen {
		if n != 1 {
			t.Fatalf("%q was posted %d times", line, n)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("the ending was not told whole: %v", seen)
	}
	final := h.fake.Messages(h.ch)
	var table *fakediscord.Message
	for _, m := range final {
		if len(m.Embeds) > 0 && strings.Contains(m.Text(), "Play the Hand You're Dealt") {
			table = m
		}
	}
	if table == nil || len(table.Buttons()) != 1 || !strings.Contains(table.Text(), "pts") {
		t.Fatalf("the final table is not shown:\n%v", table)
	}
}

// Whole games of every game under Discord's trouble: rate limits, 5xx on
// any route (the interaction answer included), responses lost after the
// request was applied, and every few moves a RECONNECT, an INVALID_SESSION
// or a dropped socket. No interaction the bot could have saved fails,
// nothing is posted twice and every game ends with its final table shown
// (an Improv campaign, which only its GM ends, plays 120 moves instead).
func TestWholeGamesUnderFaults(t *testing.T) {
	for _, name := range []string{"duel", "life", "lnf", "dealt", "improv", "duel in a thread", "life in a thread"} {
		t.Run(name, func(t *testing.T) {
			game, threaded := strings.CutSuffix(name, " in a thread")
			h := newHarness(t, func(h *harness) { h.threads = threaded })
			var users []*fakediscord.User
			players := map[string]int{"duel": 2, "life": 3, "lnf": 4, "dealt": 3, "improv": 4}[game]
			// An Improv campaign runs until its GM ends it: play a stretch
			// of conflicts instead.
			endless := game == "improv"
			if game == "duel" {
				users = append(users, duelPlayers(t, h)...)
			} else {
				for i := range players {
					users = append(users, h.fake.AddUser(string(rune('A'+i))+"va"))
				}
				users[0].Command(h.ch, "game", newGame(game))
				for _, u := range users[1:] {
					u.Click(h.table(), h.table().ButtonID("Join"))
				}
				users[0].Click(h.table(), h.table().ButtonID("Start"))
			}
			h.fake.Faults(fakediscord.Faults{Seed: 11, RateLimit: 0.1, ServerError: 0.04, BadGateway: 0.02, LostResponse: 0.03})
			gameID := h.record().ID
			for move := 0; ; move++ {
				if move > 3000 {
					t.Fatal("the game did not end")
				}
				if move%15 == 7 {
					gatewayFault(t, h, move/15, move%2 == 0)
				}
				if endless && move == 120 {
					break
				}
				if !playOn(t, h, users) {
					if endless {
						t.Fatal("the campaign ended by itself")
					}
					break
				}
			}
			h.bot.Idle()
			h.fake.Faults(fakediscord.Faults{})
			if f := h.fake.FailedInteractions(); len(f) != 0 {
				t.Fatalf("%d failed interactions, first: %+v", len(f), f[0])
			}
			posts, _ := h.db.Posts(gameID)
			where := h.ch
			if threaded {
				where = posts.Thread
				if where == "" || len(h.fake.Threads(h.ch)) != 1 {
					t.Fatalf("the game is not in one thread: %+v", h.fake.Threads(h.ch))
				}
			}
			for _, ch := range []string{h.ch, where} {
				if d := h.fake.Duplicates(ch); len(d) != 0 {
					t.Fatalf("%d messages posted twice, first: %q", len(d), d[0].Content)
				}
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Fatalf("output still owed: %d", len(owed))
			}
			final := h.fake.Message(where, posts.Table)
			switch {
			case endless:
				if final == nil || final.ButtonID("My hand") == "" {
					t.Fatalf("the campaign's table is missing or offers no hands: %v", final)
				}
				if n := improvState(t, h).Conflicts; n < 2 {
					t.Fatalf("%d conflicts played through; want the stretch to run through several", n)
				}
			case final == nil || len(final.Buttons()) != 1 || final.ButtonID("Rematch") == "":
				t.Fatalf("the final table is missing or offers more than a rematch: %v", final)
			}
			if c := h.fake.RESTCounts(); c.Faults == 0 {
				t.Fatal("no fault was injected")
			}
		})
	}
}

// gatewayFault makes Discord end the bot's gateway session, by kind%3: a
// RECONNECT, an INVALID_SESSION (resumable or not), or a dropped socket;
// and waits for the bot to be back.
func gatewayFault(t *testing.T, h *harness, kind int, resumable bool) {
	t.Helper()
	switch kind % 3 {
	case 0:
		h.fake.Reconnect()
	case 1:
		h.fake.InvalidSession(resumable)
	default:
		h.fake.DropSockets()
	}
	if !h.fake.AwaitConnected() {
		t.Fatal("the bot did not come back after a gateway fault")
	}
}

// duelPlayers opens a duel in the harness's channel and locks two empty
// hands, so every play comes from the deck.
func duelPlayers(t *testing.T, h *harness) []*fakediscord.User {
	ann, bea := duelTable(t, h, h.ch, 0)
	return []*fakediscord.User{ann, bea}
}

// A kill at each step of a new lobby's output: the lobby is committed with
// the output that posts it, so after the restart its message is in the
// channel exactly once and people can join and start.
func TestKillBeforeTheLobbyIsPosted(t *testing.T) {
	for target := 1; target <= 4; target++ {
		t.Run(fmt.Sprint(target), func(t *testing.T) {
			h := newHarness(t)
			ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
			killedAt := h.killAtStep(target)
			if r := ann.Command(h.ch, "game", newGame("duel")); !strings.Contains(r.Content, "opening below") {
				t.Fatalf("/game new answered %q", r.Content)
			}
			h.crashAt = nil
			if !h.killed {
				t.Fatalf("the lobby's output has fewer than %d steps", target)
			}
			t.Logf("killed at %s", *killedAt)
			h.killed = false
			h.restart()
			if d := h.fake.Duplicates(h.ch); len(d) != 0 {
				t.Fatalf("killed at %s: %q posted twice", *killedAt, d[0].Content)
			}
			lobbies := 0
			for _, m := range h.fake.Messages(h.ch) {
				if m.ButtonID("Join") != "" {
					lobbies++
				}
			}
			if lobbies != 1 {
				t.Fatalf("killed at %s: %d lobby messages in the channel", *killedAt, lobbies)
			}
			bea.Click(h.table(), h.table().ButtonID("Join"))
			if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type == 0 || h.record().Status != store.Playing {
				t.Fatalf("killed at %s: Start answered %+v", *killedAt, r)
			}
		})
	}
}

// A kill at each step of /game table's repost: the repost is owed before
// the answer, so after the restart the table is at the bottom exactly
// once, the one the store records, and the old one is gone.
func TestKillWhileTheTableIsReposted(t *testing.T) {
	for target := 1; target <= 4; target++ { // begin, hands, table, done
		t.Run(fmt.Sprint(target), func(t *testing.T) {
			h := newHarness(t)
			users := duelPlayers(t, h)
			old := h.table().ID
			killedAt := h.killAtStep(target)
			mustRefuse(t, users[1].Command(h.ch, "game", fakediscord.Sub("table")), "bottom of the channel")
			h.crashAt = nil
			if !h.killed {
				t.Fatalf("the repost's output has fewer than %d steps", target)
			}
			h.fake.Killed() // the next process may delete the old table again: Discord says 404, once
			h.killed = false
			h.restart()
			var tables []string
			all := h.fake.Messages(h.ch)
			for _, m := range all {
				if m.ButtonID("My hand") != "" {
					tables = append(tables, m.ID+" (nonce "+m.Nonce+")")
				}
			}
			if len(tables) != 1 {
				t.Fatalf("killed at %s: %d tables in the channel: %s", *killedAt, len(tables), strings.Join(tables, ", "))
			}
			if id := h.tableID(); all[len(all)-1].ID != id || id == old {
				t.Fatalf("killed at %s: the store's table %s, the channel's last message %s, the old table %s", *killedAt, id, all[len(all)-1].ID, old)
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Fatalf("killed at %s: %d outputs still owed", *killedAt, len(owed))
			}
			t.Logf("killed at %s: one table, at the bottom", *killedAt)
		})
	}
}

// Discord's 5xx at start-up, or a registration whose answer was lost, do
// not stop the bot: it registers its commands again and plays.
func TestCommandsRegisteredThroughStartupErrors(t *testing.T) {
	h := newHarness(t)
	h.stop()
	const route = "/applications/{app}/guilds/{guild}/commands"
	h.fake.FailNext("PUT", route, http.StatusInternalServerError, 2)
	h.fake.FailNextAfter("PUT", route, http.StatusBadGateway, 1)
	h.start()
	if left := h.fake.PendingFaults(); left != 0 {
		t.Fatalf("%d registration faults never met", left)
	}
	ann := h.fake.AddUser("Ann")
	if r := ann.Command(h.ch, "game", newGame("duel")); r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("/game new after the start-up errors answered %+v", r)
	}
}
