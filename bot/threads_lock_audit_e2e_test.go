package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// A moderator locks a game's thread mid-game, then unlocks it: clicks in
// the thread are answered, to the clicker alone, with why nothing changed;
// moves made from the channel meanwhile are kept; the bot asks Discord no
// more than once or twice per lock (a restart included) instead of once
// per move; after the unlock the next move draws the table up to date.
func TestThreadLockMidGame(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := duelTable(t, h, h.ch, 0)
	users := []*fakediscord.User{ann, bea}
	th := threadOf(t, h)
	h.bot.Idle()
	h.fake.ResetRESTCounts()
	h.fake.LockThread(th.ID)
	version := h.record().Version

	r := ann.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || !r.Ephemeral || r.Message == nil || !strings.Contains(r.Message.Content, "locked") {
		t.Fatalf("My hand in the locked thread answered %+v", r)
	}
	moves := 0
	for n := 0; n < 4; n++ {
		if !playIn(t, h, h.ch, h.ch, users...) {
			break
		}
		moves++
		h.bot.Idle()
	}
	if got := h.record().Version; got < version+moves {
		t.Fatalf("version %d after %d moves from %d: moves were lost", got, moves, version)
	}
	if n := h.fake.LockedRefusals(); n > 2 {
		t.Fatalf("%d requests refused in the locked thread over %d moves (by route %v)", n, moves, h.fake.RESTCounts().ByRoute)
	}

	if c := h.fake.RESTCounts(); c.Invalid > 1 {
		t.Fatalf("%d invalid requests over the lock (by route %v)", c.Invalid, c.ByRoute)
	}

	h.fake.UnlockThread(th.ID)
	if !playIn(t, h, h.ch, th.ID, users...) {
		t.Fatal("the game cannot go on after the unlock")
	}
	h.bot.Idle()
	g := h.record()
	if p, _ := h.db.Posts(g.ID); p.Drawn < g.Version {
		t.Fatalf("after the unlock the table shows move %d of %d", p.Drawn, g.Version)
	}
	tables := 0
	for _, m := range h.fake.Messages(th.ID) {
		if m.ButtonID("My hand") != "" {
			tables++
		}
	}
	if tables != 1 {
		t.Fatalf("%d tables with a My hand button in the thread, want 1", tables)
	}
}

// A restart while the thread is locked: the new process is refused once
// or twice at most, then backs off, and the game goes on after the unlock.
func TestThreadLockRestartWhileLocked(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := duelTable(t, h, h.ch, 0)
	users := []*fakediscord.User{ann, bea}
	th := threadOf(t, h)
	h.bot.Idle()
	h.fake.LockThread(th.ID)
	h.fake.ResetRESTCounts()
	h.restart()
	before := h.fake.LockedRefusals()
	for n := 0; n < 3 && playIn(t, h, h.ch, h.ch, users...); n++ {
		h.bot.Idle()
	}
	if n := h.fake.LockedRefusals() - before; n > 2 {
		t.Fatalf("%d requests refused in the locked thread after a restart (by route %v)", n, h.fake.RESTCounts().ByRoute)
	}
	h.fake.UnlockThread(th.ID)
	if !playIn(t, h, h.ch, th.ID, users...) {
		t.Fatal("the game cannot go on after the unlock")
	}
	h.bot.Idle()
	g := h.record()
	if p, _ := h.db.Posts(g.ID); p.Drawn < g.Version {
		t.Fatalf("after the unlock the table shows move %d of %d", p.Drawn, g.Version)
	}
}
