package bot_test

import (
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// A 429 on an interaction endpoint is waited out and the request sent
// again: the click is still answered with the updated hand (through more
// 429s than one request's own tries: the answer is tried again while
// Discord's window is open), the other player's hand still refreshed, and
// no retry comes before retry_after (the fake would count it invalid).
func TestInteractionRequestsWaitOutA429(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	before := h.record().Version
	h.fake.Inject(fakediscord.Fault{Method: "POST", Route: fakediscord.RouteCallback, Status: 429, Times: 5, RetryAfter: 30 * time.Millisecond})
	h.fake.Inject(fakediscord.Fault{Method: "PATCH", Route: fakediscord.RouteWebhookMessage, Status: 429, Times: 2, RetryAfter: 30 * time.Millisecond})

	// The player to move clicks their only button.
	mover, other := ann, bea
	if len(h.record().Waiting) > 0 && h.record().Waiting[0] == 1 {
		mover, other = bea, ann
	}
	hand := mover.LastEphemeral(h.ch)
	var button string
	for _, b := range hand.Buttons() {
		if !b.Disabled {
			button = b.CustomID
			break
		}
	}
	if button == "" {
		t.Fatalf("%s's hand offers no move:\n%s", mover.Name, hand.Text())
	}
	r := mover.Click(hand, button)
	if r == nil || r.Type != 7 {
		t.Fatalf("the click through five 429s answered %+v; want the hand updated", r)
	}
	if v := h.record().Version; v != before+1 {
		t.Fatalf("version %d after the move; want %d", v, before+1)
	}
	if n := h.fake.PendingFaults(); n != 0 {
		t.Fatalf("%d of the injected 429s were never hit", n)
	}
	c := h.fake.RESTCounts()
	if c.Invalid != 0 {
		t.Fatalf("%d requests came before their retry_after ran out", c.Invalid)
	}
	if c.ByRoute["POST "+fakediscord.RouteCallback] < 6 {
		t.Fatalf("callbacks: %v; want the answer sent six times", c.ByRoute)
	}
	// The other player's hand shows the state after the move, as a fresh
	// one does.
	open := other.LastEphemeral(h.ch)
	fresh := other.Command(h.ch, "game", fakediscord.Sub("hand"))
	if open == nil || fresh == nil || fresh.Message == nil || open.Text() != fresh.Message.Text() {
		t.Fatalf("%s's open hand after the 429s:\n%v\nfresh:\n%v", other.Name, open, fresh)
	}
}

// A 429 asking for longer than the bot's own pause between tries is waited
// out in full before the answer is sent again; one asking for longer than
// a request waits at all is given up on, never answered by asking early:
// each early request draws another 429, which counts toward Discord's ban
// on invalid requests.
func TestLongRetryAftersAreNeverCutShort(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	before := h.record().Version
	// The answer: three 429s of 400 ms use up one request's tries, so the
	// answer is tried again, 400 ms later rather than after its own 100 ms.
	h.fake.Inject(fakediscord.Fault{Method: "POST", Route: fakediscord.RouteCallback, Status: 429, Times: 3, RetryAfter: 400 * time.Millisecond})
	// The other hand's refresh: a 429 of 6 s, more than a request waits.
	h.fake.Inject(fakediscord.Fault{Method: "PATCH", Route: fakediscord.RouteWebhookMessage, Status: 429, Times: 1, RetryAfter: 6 * time.Second})
	start := h.fake.RESTCounts()
	if !move(h, h.ch, ann, bea) {
		t.Fatal("no move offered")
	}
	h.bot.Idle()
	if v := h.record().Version; v != before+1 {
		t.Fatalf("version %d after the move; want %d", v, before+1)
	}
	c := h.fake.RESTCounts()
	if n := c.Invalid - start.Invalid; n != 0 {
		t.Fatalf("%d requests came before their retry_after ran out", n)
	}
	route := "POST " + fakediscord.RouteCallback
	if n := c.ByRoute[route] - start.ByRoute[route]; n != 4 {
		t.Fatalf("the answer was sent %d times; want four", n)
	}
	if n := h.fake.PendingFaults(); n != 0 {
		t.Fatalf("%d of the injected 429s were never hit", n)
	}
}
