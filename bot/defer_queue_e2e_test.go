package bot_test

import (
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Discord's 3 s run from the click, not from when the click's channel gets
// to it: a click queued behind an answer Discord is slow to take is
// acknowledged in time all the same, and its answer follows.
func TestClickQueuedBehindASlowAnswerIsDeferredInTime(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.answerWithin = 300 * time.Millisecond })
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	ann.Command(h.ch, "game", newGame("lnf"))
	lobby := h.table()
	h.fake.SetSettler(nil)
	held, release := h.fake.Hold("POST", fakediscord.RouteCallback)
	defer release()
	first := make(chan *fakediscord.Reply, 1)
	go func() { first <- bea.Click(lobby, lobby.ButtonID("Join")) }()
	<-held // Bea's answer is on its way, and Discord keeps it waiting
	second := make(chan *fakediscord.Reply, 1)
	go func() { second <- cy.Click(lobby, lobby.ButtonID("Join")) }()
	var r *fakediscord.Reply
	select {
	case r = <-second:
	case <-time.After(2500 * time.Millisecond): // before Bea's own 3 s run out
		release()
		r = <-second
		t.Errorf("Cy's click, queued behind Bea's, was acknowledged only once Bea's answer went through (%+v)", r)
	}
	release()
	if r == nil || r.Type != 6 {
		t.Fatalf("Cy's click answered %+v; want a deferred update", r)
	}
	if r := <-first; r == nil || r.Type != 7 {
		t.Fatalf("Bea's click answered %+v", r)
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	rec := h.record()
	if rec.SeatOf(bea.ID) < 0 || rec.SeatOf(cy.ID) < 0 {
		t.Fatalf("seats after both joins: %+v", rec.Seats)
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}
