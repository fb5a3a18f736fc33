package bot_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// A table is not deleted under a click waiting for its answer. Every click
// is deferred here; Discord asks for Eve's acknowledgement (a deferred
// update of the table she clicked) again in a second, and meanwhile a
// /say line's job posts the table anew below the line and removes the
// old one. Acknowledging a click on a deleted message is Discord's 404.
func TestTableIsNotDeletedUnderAClick(t *testing.T) {
	h := newHarness(t)
	_, players := improvCampaign(h, "Bea")
	h.answerWithin = 1
	h.restart()
	old := h.table()
	eve := h.fake.AddUser("Eve")
	h.fake.SetSettler(nil)
	held, release := h.fake.Hold("POST", fakediscord.RouteMessages) // the line, first of the job's posts
	defer release()
	players[0].Command(h.ch, "say", fakediscord.Str("line", "Kit looks up from the bar."))
	<-held
	h.fake.Inject(fakediscord.Fault{Method: "POST", Route: fakediscord.RouteCallback, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
	joined := make(chan *fakediscord.Reply, 1)
	go func() { joined <- eve.Click(old, old.ButtonID("Join")) }()
	for { // until the acknowledgement met its 429
		changed := h.fake.Changes() // before looking: no change is missed
		if h.fake.PendingFaults() == 0 {
			break
		}
		<-changed
	}
	release()
	if r := <-joined; r == nil || r.Type != 6 {
		t.Fatalf("Eve's join was answered %+v; want a deferred update", r)
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	if h.record().SeatOf(eve.ID) < 0 {
		t.Fatal("Eve did not join")
	}
	if h.fake.Message(h.ch, old.ID) != nil {
		t.Fatal("the old table was not removed once the line came below it")
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}
