package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// What moderators do around a game played in its thread, and what players
// then meet. See threads_e2e_test.go for the thread's own life.

// resultsIn counts the messages in a channel that announce a game's end.
func resultsIn(h *harness, channel string) int {
	n := 0
	for _, m := range h.fake.Messages(channel) {
		if strings.Contains(m.Content, "is over") {
			n++
		}
	}
	return n
}

// playIn makes the next move of channel ch's game from where: the waiting
// player's /game hand there, and its first live control. False once the
// channel has no game.
func playIn(t *testing.T, h *harness, ch, where string, users ...*fakediscord.User) bool {
	t.Helper()
	rec, err := h.db.Game(ch)
	if err != nil {
		t.Fatal(err)
	}
	if rec == nil {
		return false
	}
	if len(rec.Waiting) == 0 {
		t.Fatalf("the game in %s waits for nobody", ch)
	}
	u := seated(t, rec, users, rec.Waiting[0])
	r := u.Command(where, "game", fakediscord.Sub("hand"))
	if r == nil || r.Message == nil {
		t.Fatalf("%s's /game hand answered %+v", u.Name, r)
	}
	if !pressFirst(t, u, r.Message, "Life is not fair, but draw two") {
		t.Fatalf("%s has nothing to do:\n%s", u.Name, r.Message.Text())
	}
	return true
}

// A moderator deletes the lobby while the bot is down, after Start was
// answered but before the game's thread was started: the thread cannot be
// started from a deleted message, so the game is played in the channel,
// with the table posted anew, and the deleted lobby is asked about once.
func TestThreadModLobbyDeletedBeforeItsThreadStarts(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mo")
	users := []*fakediscord.User{ann, bea}
	lobby := joinIn(t, h, "duel", users)
	h.crashAt = func(step string) bool { return step == "thread" }
	startIn(t, h, users)
	h.crashAt = nil
	if !h.killed {
		t.Fatal("the start's output never reached the thread step")
	}
	h.stop()
	mod.DeleteMessage(h.fake.Message(h.ch, lobby))
	h.fake.ResetRESTCounts()
	h.start()
	h.bot.Idle()
	if c := h.fake.RESTCounts(); c.NotFound > 1 {
		t.Fatalf("%d requests answered 404 about the one deleted lobby (by route %v)", c.NotFound, c.ByRoute)
	}
	if th := h.fake.Threads(h.ch); len(th) != 0 {
		t.Fatalf("threads %+v from a deleted lobby", th)
	}
	if h.where() != h.ch || h.tableID() == lobby || h.table().ButtonID("My hand") == "" {
		t.Fatalf("no table in the channel after the lobby was deleted")
	}
	if !playOn(t, h, users) {
		t.Fatal("the game cannot go on")
	}
}

// A moderator deletes the channel a game's thread belongs to: the game
// closes, and neither its deadlines nor the players' hands make requests
// about the channel or the thread (deleted with it) afterwards.
func TestThreadModParentChannelDeletedMidGame(t *testing.T) {
	t.Run("while the bot runs", func(t *testing.T) {
		h := newHarness(t, withThreads)
		duelTable(t, h, h.ch, 0)
		th := threadOf(t, h)
		gameID := h.record().ID
		h.fake.DeleteChannel(h.ch)
		h.bot.Idle()
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatalf("the game of a deleted channel is still %s", g.Status)
		}
		if e, _ := h.db.Ended(gameID); e == nil || !strings.Contains(e.How, "deleted") {
			t.Fatalf("ending recorded: %+v", e)
		}
		before := h.fake.RESTCounts()
		h.tick(11 * time.Minute)
		h.tick(8 * 24 * time.Hour)
		if c := h.fake.RESTCounts(); c.NotFound != before.NotFound || c.Invalid != before.Invalid {
			t.Fatalf("%d 404s and %d invalid requests after the channel (and thread %s) went", c.NotFound-before.NotFound, c.Invalid-before.Invalid, th.ID)
		}
	})
	t.Run("while the bot is down", func(t *testing.T) {
		h := newHarness(t, withThreads)
		duelTable(t, h, h.ch, 0)
		h.stop()
		h.fake.DeleteChannel(h.ch)
		h.start()
		before := h.fake.RESTCounts().NotFound
		h.tick(11 * time.Minute) // the absent player's move, whose output finds it gone
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatalf("the game of the deleted channel is still %s", g.Status)
		}
		h.tick(8 * 24 * time.Hour)
		if n := h.fake.RESTCounts().NotFound - before; n > 1 {
			t.Fatalf("%d requests answered 404 after the thread was found gone", n)
		}
	})
}

// A moderator deletes the game's thread while the bot is down: nothing
// tells the bot, so the first output there finds it gone, closes the game
// and asks no more; the channel is free for a new game at once.
func TestThreadModThreadDeletedWhileDown(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := duelTable(t, h, h.ch, 0)
	th := threadOf(t, h)
	h.stop()
	h.fake.DeleteThread(th.ID)
	h.start()
	before := h.fake.RESTCounts().NotFound
	_ = ann
	h.tick(11 * time.Minute) // the absent player's move, whose output finds it gone
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the game of the deleted thread is still %s", g.Status)
	}
	h.tick(8 * 24 * time.Hour)
	if n := h.fake.RESTCounts().NotFound - before; n > 1 {
		t.Fatalf("%d requests answered 404 after the thread was found gone", n)
	}
	if r := bea.Command(h.ch, "game", newGame("life")); r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("/game new in the channel answered %+v", r)
	}
}

// An Improv campaign rests a week and its thread archives; meanwhile a
// moderator took the bot's Send Messages away. Every move still counts,
// but the bot cannot reopen the thread to redraw the table: it must not
// try again on every move, each try a 403 Discord counts against it. With
// the permission back, the next move reopens the thread and redraws it.
func TestThreadModArchivedThreadWhereTheBotMayNotPost(t *testing.T) {
	h := newHarness(t, withThreads)
	gm, _ := improvCampaign(h, "Bea")
	th := threadOf(t, h)
	h.tick(time.Hour)
	h.tick(8 * 24 * time.Hour)
	if !h.fake.Archived(th.ID) {
		t.Fatal("the fake did not archive a thread idle for 8 days")
	}
	h.fake.DenyPosting(h.ch)
	h.fake.ResetRESTCounts()
	version := h.record().Version
	moves := 0
	for _, step := range []struct {
		u     *fakediscord.User
		label string
	}{{gm, "Open a conflict"}} {
		r := step.u.Command(h.ch, "game", fakediscord.Sub("hand"))
		if r == nil || r.Message == nil || r.Message.ButtonID(step.label) == "" {
			t.Fatalf("/game hand answered %+v", r)
		}
		if r := step.u.Click(r.Message, r.Message.ButtonID(step.label)); r == nil || r.Type == 0 {
			t.Fatalf("%q answered %+v", step.label, r)
		}
		moves++
		h.bot.Idle()
	}
	// The GM picks who is in the conflict, from the hand in the channel.
	for n := 0; n < 3; n++ {
		r := gm.Command(h.ch, "game", fakediscord.Sub("hand"))
		if r == nil || r.Message == nil || len(r.Message.Selects()) == 0 {
			break
		}
		sel := r.Message.Selects()[0]
		if r := gm.Select(r.Message, sel.CustomID, sel.Options[0].Value); r == nil || r.Type == 0 {
			t.Fatalf("the GM's choice answered %+v", r)
		}
		moves++
		h.bot.Idle()
	}
	if got := h.record().Version; got < version+moves {
		t.Fatalf("version %d after %d moves from %d: moves were lost", got, moves, version)
	}
	if c := h.fake.RESTCounts(); c.Invalid > 1 {
		t.Fatalf("%d invalid requests over %d moves in an archived thread the bot may not reopen (by route %v)", c.Invalid, moves, c.ByRoute)
	}
	// The permission back, the GM goes on from the channel, not the thread.
	h.fake.AllowPosting(h.ch)
	r := gm.Command(h.ch, "game", fakediscord.Sub("hand"))
	if r == nil || r.Message == nil {
		t.Fatalf("/game hand answered %+v", r)
	}
	if !pressFirst(t, gm, r.Message, "Riso: get away with the money") {
		t.Fatalf("the GM has nothing to do:\n%s", r.Message.Text())
	}
	h.bot.Idle()
	if h.fake.Archived(th.ID) {
		t.Fatal("the thread is still archived with the permission back")
	}
	g := h.record()
	if p, _ := h.db.Posts(g.ID); p.Drawn < g.Version {
		t.Fatalf("with the permission back the table shows move %d of %d", p.Drawn, g.Version)
	}
}

// A moderator turns threads off while a game plays in its thread: the
// game stays there to its end (a restart included), and the next game is
// played in the channel. Only a moderator may change the setting.
func TestThreadModSettingsChangedWhileAGameRuns(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := duelTable(t, h, h.ch, 0)
	mod := h.fake.AddAdmin("Mo")
	th := threadOf(t, h)
	mustRefuse(t, ann.Command(th.ID, "game", fakediscord.Sub("settings", fakediscord.Bool("threads", false))), "Manage Channel")
	if r := mod.Command(th.ID, "game", fakediscord.Sub("settings", fakediscord.Bool("threads", false))); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "Threads are off") {
		t.Fatalf("settings in the thread answered %+v", r)
	}
	h.restart()
	inChannel := len(h.fake.Messages(h.ch))
	version := h.record().Version
	for n := 0; n < 4; n++ {
		playIn(t, h, h.ch, th.ID, ann, bea)
	}
	h.bot.Idle()
	if h.record().Version < version+4 {
		t.Fatal("moves were lost")
	}
	if h.where() != th.ID {
		t.Fatalf("the running game left its thread for %s", h.where())
	}
	if n := len(h.fake.Messages(h.ch)); n != inChannel {
		t.Fatalf("%d messages in the channel; the running game should stay in its thread", n-inChannel)
	}
	h.endGame(mod, h.ch)
	if n := resultsIn(h, h.ch); n != 1 {
		t.Fatalf("%d results in the channel", n)
	}
	openIn(t, h, "duel", []*fakediscord.User{ann, bea})
	if th := h.fake.Threads(h.ch); len(th) != 1 || h.where() != h.ch {
		t.Fatalf("with threads off the new game is in %s (threads %+v)", h.where(), th)
	}
}

// /game end and /game remove on a game in its thread: members are refused
// from the channel too, a moderator's end from the channel closes the
// thread's table and tells the channel once, whatever step the bot is
// killed at on the way.
func TestThreadModEndFromTheChannelAcrossAKill(t *testing.T) {
	for step := 1; step <= 6; step++ {
		t.Run("kill at step "+string(rune('0'+step)), func(t *testing.T) {
			h := newHarness(t, withThreads)
			ann, bea, cy, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddAdmin("Mo")
			openIn(t, h, "duel", []*fakediscord.User{ann, bea})
			th := threadOf(t, h)
			table := h.tableID()
			before := h.snapshot()
			mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host, Ann")
			mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann))), "Only the host, Ann")
			if h.snapshot() != before {
				t.Fatal("a member's refused command changed the game")
			}
			at := h.killAtStep(step)
			if r := h.endGame(mod, h.ch); r == nil || !strings.Contains(r.Content, "You ended the game") {
				t.Fatalf("the moderator's end answered %+v", r)
			}
			h.crashAt = nil
			if h.killed {
				h.killed = false
				h.restart()
				h.bot.Idle()
			}
			t.Logf("killed at %q", *at)
			if g, _ := h.db.Game(h.ch); g != nil {
				t.Fatalf("the game is still %s", g.Status)
			}
			if n := resultsIn(h, h.ch); n != 1 {
				t.Fatalf("%d results in the channel", n)
			}
			if m := h.fake.Message(th.ID, table); m == nil || len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "ended by Mo") {
				t.Fatalf("the thread's table after the end:\n%v", m)
			}
			for _, ch := range []string{h.ch, th.ID} {
				if d := h.fake.Duplicates(ch); len(d) != 0 {
					t.Fatalf("%q posted twice", d[0].Content)
				}
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Fatal("output still owed")
			}
		})
	}
}

// A moderator hands an absent host's seat to the bot from the game's
// thread; a member may not, and the host may not hand their own seat.
func TestThreadModRemoveTheHostFromTheThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mo")
	openIn(t, h, "duel", []*fakediscord.User{ann, bea})
	th := threadOf(t, h)
	mustRefuse(t, ann.Command(th.ID, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann))), "Only someone with Manage Channel")
	r := mod.Command(th.ID, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann)))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "I play Ann's seat") {
		t.Fatalf("the moderator's remove answered %+v", r)
	}
	h.bot.Idle()
	if s := h.record().Seats[0]; s.Computer == "" || !s.Away {
		t.Fatalf("the host's seat %+v", s)
	}
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Content, "is away") {
			t.Fatal("the game's news went to the channel instead of its thread")
		}
	}
}

// Two channels, each with its game in its own thread, played at once
// across a restart: each thread holds its own game's messages only, and a
// moderator deleting one thread closes that game alone.
func TestThreadModTwoGamesInTwoChannels(t *testing.T) {
	h := newHarness(t, withThreads)
	ch2 := h.fake.NewChannel("second")
	a1, b1 := duelTable(t, h, h.ch, 1)
	a2, b2 := duelTable(t, h, ch2, 2)
	th1 := threadOf(t, h)
	th2 := h.fake.Threads(ch2)
	if len(th2) != 1 || th2[0].ID == th1.ID {
		t.Fatalf("the second channel's threads: %+v", th2)
	}
	g1, _ := h.db.Game(h.ch)
	g2, _ := h.db.Game(ch2)
	for n := 0; n < 6; n++ {
		if n == 3 {
			h.restart()
		}
		// One game from its thread, the other from its channel.
		playIn(t, h, h.ch, th1.ID, a1, b1)
		playIn(t, h, ch2, ch2, a2, b2)
	}
	h.bot.Idle()
	for _, g := range []*store.Game{g1, g2} {
		now, _ := h.db.Game(g.Channel)
		if now == nil || now.ID != g.ID || now.Version < g.Version+6 {
			t.Fatalf("game %s: moves were lost: %+v", g.ID, now)
		}
		p, _ := h.db.Posts(g.ID)
		if p.Drawn < now.Version || p.Thread == "" {
			t.Fatalf("game %s: table shows move %d of %d, in thread %q", g.ID, p.Drawn, now.Version, p.Thread)
		}
	}
	h.bot.Idle()
	for _, c := range []struct {
		thread string
		game   *store.Game
		other  string
	}{{th1.ID, g1, "Ann2"}, {th2[0].ID, g2, "Ann1"}} {
		for _, m := range h.fake.Messages(c.thread) {
			if strings.Contains(m.Text(), c.other) {
				t.Fatalf("thread %s shows the other game's player:\n%s", c.thread, m.Text())
			}
		}
		if d := h.fake.Duplicates(c.thread); len(d) != 0 {
			t.Fatalf("%q posted twice", d[0].Content)
		}
	}
	h.fake.DeleteThread(th1.ID)
	h.bot.Idle()
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the game of the deleted thread is still open")
	}
	if g, _ := h.db.Game(ch2); g == nil || g.ID != g2.ID {
		t.Fatal("the other channel's game closed with the first's thread")
	}
	if !playIn(t, h, ch2, th2[0].ID, a2, b2) {
		t.Fatal("the other game cannot go on")
	}
}

// A moderator deletes the table in the game's thread; the next move (its
// output killed at each step, then replayed) posts it anew in the thread,
// once, asks Discord about the deleted one at most once, and the channel
// stays quiet. The lobby's old buttons, clicked in the channel after the
// start, are refused to the clicker alone.
func TestThreadModTableDeletedInTheThread(t *testing.T) {
	for step := 1; step <= 5; step++ {
		t.Run("kill at step "+string(rune('0'+step)), func(t *testing.T) {
			h := newHarness(t, withThreads)
			ann, bea, cy, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddAdmin("Mo")
			users := []*fakediscord.User{ann, bea}
			lobbyID := joinIn(t, h, "life", users)
			lobby := h.fake.Message(h.ch, lobbyID) // as Cy's client still shows it
			startIn(t, h, users)
			th := threadOf(t, h)
			before := h.snapshot()
			if r := cy.Click(lobby, lobby.ButtonID("Join")); r == nil || !r.Ephemeral || r.Type != 4 {
				t.Fatalf("Join on the started lobby answered %+v", r)
			}
			if r := bea.Click(lobby, lobby.ButtonID("Start")); r == nil || !r.Ephemeral || r.Type != 4 {
				t.Fatalf("Start on the started lobby answered %+v", r)
			}
			if h.snapshot() != before {
				t.Fatal("a click on the started lobby changed the game")
			}
			inChannel := len(h.fake.Messages(h.ch))
			old := h.table()
			mod.DeleteMessage(old)
			h.fake.ResetRESTCounts()
			version := h.record().Version
			at := h.killAtStep(step)
			if err := lifeMoveIn(h, th.ID, users); err != nil {
				t.Fatal(err)
			}
			h.crashAt = nil
			if h.killed {
				h.killed = false
				h.restart()
			}
			h.bot.Idle()
			t.Logf("killed at %q", *at)
			if h.record().Version <= version {
				t.Fatal("the move was lost")
			}
			if c := h.fake.RESTCounts(); c.NotFound > 1 {
				t.Fatalf("%d requests answered 404 after one table was deleted (by route %v)", c.NotFound, c.ByRoute)
			}
			if h.tableID() == old.ID || h.where() != th.ID {
				t.Fatal("the game still names the deleted table")
			}
			tables := 0
			for _, m := range h.fake.Messages(th.ID) {
				if m.ButtonID("My hand") != "" {
					tables++
				}
			}
			if tables != 1 {
				t.Fatalf("%d tables in the thread", tables)
			}
			if d := h.fake.Duplicates(th.ID); len(d) != 0 {
				t.Fatalf("%q posted twice", d[0].Content)
			}
			if n := len(h.fake.Messages(h.ch)); n != inChannel {
				t.Fatalf("%d messages went to the channel", n-inChannel)
			}
			if err := lifeMoveIn(h, th.ID, users); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// lifeMoveIn is lifeMove with the hand opened in channel where.
func lifeMoveIn(h *harness, where string, users []*fakediscord.User) error {
	rec, err := h.db.Game(h.ch)
	if err != nil || rec == nil || len(rec.Waiting) == 0 {
		return fmt.Errorf("no move to make: %v", err)
	}
	u := users[rec.Waiting[0]]
	hand := u.Command(where, "game", fakediscord.Sub("hand"))
	if hand == nil || hand.Message == nil {
		return fmt.Errorf("/game hand answered %+v", hand)
	}
	for _, b := range hand.Message.Buttons() {
		if b.Disabled {
			continue
		}
		r := u.Click(hand.Message, b.CustomID)
		if r != nil && r.Modal != nil {
			r = u.Submit(r.Modal, map[string]string{"text": "a line"})
		}
		if r == nil || r.Type == 0 {
			return fmt.Errorf("%q answered %+v", b.Label, r)
		}
		return nil
	}
	return fmt.Errorf("%s's hand offers no move", u.Name)
}

// The channel deleted between Start and its thread (the bot down): the
// thread's start finds it gone and closes the game, rather than trying to
// post there again, a second 404.
func TestThreadModChannelDeletedBeforeItsThreadStarts(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	users := []*fakediscord.User{ann, bea}
	joinIn(t, h, "duel", users)
	gameID := h.record().ID
	h.crashAt = func(step string) bool { return step == "thread" }
	startIn(t, h, users)
	h.crashAt = nil
	if !h.killed {
		t.Fatal("the start's output never reached the thread step")
	}
	h.stop()
	h.fake.DeleteChannel(h.ch)
	h.fake.ResetRESTCounts()
	h.start()
	h.bot.Idle()
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the game of the deleted channel is still %s", g.Status)
	}
	if e, _ := h.db.Ended(gameID); e == nil || !strings.Contains(e.How, "deleted") {
		t.Fatalf("ending recorded: %+v", e)
	}
	h.tick(11 * time.Minute)
	if c := h.fake.RESTCounts(); c.NotFound > 1 {
		t.Fatalf("%d requests answered 404 about the one deleted channel (by route %v)", c.NotFound, c.ByRoute)
	}
}
