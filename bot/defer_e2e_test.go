package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// When an answer cannot be ready in time, the interaction is acknowledged
// first and the answer follows as an edit: here every interaction is
// deferred, and a duel still opens, starts and plays, refusals still reach
// only their user, and the clicked hand is updated in place.
func TestDeferredAnswersStillShowEverything(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.answerWithin = 1 })
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	r := ann.Command(h.ch, "game", newGame("duel"))
	if r == nil || r.Type != 5 || !strings.Contains(r.Content, "lobby is opening") || !r.Ephemeral {
		t.Fatalf("/game new answered %+v", r)
	}
	bea.Click(h.table(), h.table().ButtonID("Join"))
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 6 || !strings.Contains(h.table().Text(), "Ann vs Bea") {
		t.Fatalf("start answered %+v; table:\n%s", r, h.table().Text())
	}
	r = cy.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || !strings.Contains(r.Content, "not playing") || !r.Ephemeral {
		t.Fatalf("a spectator's click answered %+v", r)
	}
	if strings.Contains(h.table().Text(), "not playing") {
		t.Fatal("a refusal replaced the table")
	}
	// A click in a hand: acknowledged as an update, then the hand is
	// edited in place.
	hand := ann.Click(h.table(), h.table().ButtonID("My hand"))
	if hand == nil || hand.Message == nil || len(hand.Message.Selects()) != 2 {
		t.Fatalf("Ann's hand answered %+v", hand)
	}
	menu := hand.Message.Selects()[0]
	if r := ann.Select(hand.Message, menu.CustomID, menu.Options[0].Value); r == nil || r.Type != 6 {
		t.Fatalf("the pick answered %+v", r)
	}
	view := ann.LastEphemeral(h.ch)
	if view.ID != hand.Message.ID || view.ButtonID("Lock in hand") == "" || !strings.Contains(view.Text(), "1 card") {
		t.Fatalf("the hand after the pick:\n%s", view.Text())
	}
	if r := ann.Click(view, view.ButtonID("Lock in hand")); r == nil || r.Type != 6 {
		t.Fatalf("lock answered %+v", r)
	}
	if !strings.Contains(h.table().Text(), "Ann") || !strings.Contains(ann.LastEphemeral(h.ch).Text(), "ocked") {
		t.Fatalf("after the lock, the hand reads:\n%s", ann.LastEphemeral(h.ch).Text())
	}
	// /game end's confirmation stays private, deferred too: nobody else
	// sees a button to end the game.
	r = ann.Command(h.ch, "game", fakediscord.Sub("end"))
	if r == nil || !r.Ephemeral || r.Message == nil || r.Message.ButtonID("End the game") == "" {
		t.Fatalf("a deferred /game end answered %+v", r)
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}
