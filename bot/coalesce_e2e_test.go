package bot_test

import (
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Moves faster than the table may be edited are drawn on it together: far
// fewer edits than moves, and the table ends showing the last move. Idle
// (and Close) draw a put-off edit at once, so no test waits for it.
func TestFastMovesShareTableEdits(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.tableEvery = time.Hour })
	ann, bea := duelTable(t, h, h.ch, 0)
	users := map[string]*fakediscord.User{ann.ID: ann, bea.ID: bea}
	h.fake.ResetRESTCounts()

	h.fake.SetSettler(nil) // nothing waits for the output lane between moves
	const moves = 20
	for n := 0; n < moves; n++ {
		rec := h.record()
		if len(rec.Waiting) != 1 {
			t.Fatalf("move %d: waiting for %v", n, rec.Waiting)
		}
		u := users[rec.Seats[rec.Waiting[0]].User]
		table := h.table()
		r := u.Click(table, table.ButtonID("My hand"))
		if r == nil || r.Message == nil {
			t.Fatalf("move %d: My hand answered %+v", n, r)
		}
		played := false
		for _, b := range r.Message.Buttons() {
			if !b.Disabled {
				if r := u.Click(r.Message, b.CustomID); r == nil || r.Type != 7 {
					t.Fatalf("move %d answered %+v", n, r)
				}
				played = true
				break
			}
		}
		if !played {
			t.Fatalf("move %d: %s's hand offers no move:\n%s", n, u.Name, r.Message.Text())
		}
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)

	// Each move would edit the table (a global request); a story, now and
	// then, is an edit and a post.
	if n := h.fake.RESTCounts().Global; n == 0 || n > moves/2 {
		t.Fatalf("%d moves made %d requests against the global limit; want at least one, at most %d", moves, n, moves/2)
	}
	p, err := h.db.Posts(h.record().ID)
	if err != nil || p.Drawn != h.record().Version {
		t.Fatalf("the table shows move %d of %d (%v)", p.Drawn, h.record().Version, err)
	}
	shown := h.table().Text()
	ann.Command(h.ch, "game", fakediscord.Sub("table")) // a fresh drawing of the latest state
	if fresh := h.table().Text(); fresh != shown {
		t.Fatalf("the table does not show the latest state:\n%s\nfresh:\n%s", shown, fresh)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after Idle", len(owed))
	}
}
