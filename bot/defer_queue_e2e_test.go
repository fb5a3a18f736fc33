package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Discord's 3 s run from the click, not from when the click's channel gets
// to it: a click queued behind an answer Discord is slow to take is
// acknowledged in time all the same, and its answer follows.
func TestClickQueuedBehindASlowAnswerIsDeferredInTime(t *testing.T) {
	h, lobby, bea, cy := queuedLobby(t)
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
	bothSeated(t, h, bea, cy)
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}

// An answer Discord has not taken within its 3 s is given up on, so the
// clicks queued behind it in the channel are answered: here Bea's answer
// never gets through, and Cy's click behind it is acknowledged, then
// answered, while it is still held.
func TestAnswerDiscordNeverTakesHoldsUpNobody(t *testing.T) {
	h, lobby, bea, cy := queuedLobby(t)
	h.fake.ExpectFailure("no response to interaction within 3s (component interaction by Bea)")
	held, release := h.fake.Hold("POST", fakediscord.RouteCallback)
	defer release()
	go bea.Click(lobby, lobby.ButtonID("Join"))
	<-held
	if r := cy.Click(lobby, lobby.ButtonID("Join")); r == nil || r.Type != 6 {
		t.Fatalf("Cy's click answered %+v; want a deferred update", r)
	}
	// Cy's join is committed, then drawn by the edit answering Cy's click.
	guard := time.After(10 * time.Second) // the bot's own request timeout is 20 s
	for {
		changed := h.fake.Changes() // before looking: no change is missed
		if h.record().SeatOf(cy.ID) >= 0 && strings.Contains(h.table().Text(), "Cy") {
			break
		}
		select {
		case <-changed:
		case <-guard:
			t.Fatalf("Cy's join waited behind Bea's answer, which Discord never took; the lobby:\n%s", h.table().Text())
		}
	}
}

// queuedLobby opens Ann's lobby with interactions deferred after 300 ms;
// Bea and Cy are about to join, one behind the other.
func queuedLobby(t *testing.T) (h *harness, lobby *fakediscord.Message, bea, cy *fakediscord.User) {
	h = newHarness(t, func(h *harness) { h.answerWithin = 300 * time.Millisecond })
	ann := h.fake.AddUser("Ann")
	bea, cy = h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	ann.Command(h.ch, "game", newGame("lnf"))
	h.fake.SetSettler(nil) // settling would wait for the answer held
	return h, h.table(), bea, cy
}

// bothSeated settles the queued lobby's joins (the settler back on) and
// checks that Bea and Cy both have a seat.
func bothSeated(t *testing.T, h *harness, bea, cy *fakediscord.User) {
	t.Helper()
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	if rec := h.record(); rec.SeatOf(bea.ID) < 0 || rec.SeatOf(cy.ID) < 0 {
		t.Fatalf("seats after both joins: %+v", rec.Seats)
	}
}
