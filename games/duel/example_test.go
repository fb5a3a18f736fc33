package duel

import (
	"slices"
	"strings"
	"testing"
)

// TestWorkedExample replays the example game of the rule text: Ann is A (the
// dealer), Bob is B.
func TestWorkedExample(t *testing.T) {
	// A's hand 2, 2, A, 8, 7 (worth 30); A's deck from the top: 6, 10, 10, 7.
	// B holds a 6 and an 8 in hand; the top of B's deck is a 2.
	s := playing(t, "2C 2D AS 8H 7C", "3C 4D 7D TC TS 6S", "6H 8C KD", "9D 5S 2S")
	if total(s.Players[0].Hand) != 30 {
		t.Fatalf("A's hand is worth %d", total(s.Players[0].Hand))
	}
	steps := []struct {
		seat       int
		verb, card string
		say        string
	}{
		{0, VerbDeck, "", "Ann attacks with 6♠ from the top of their deck."},
		{1, VerbHand, "6H", "Bob defends with 6♥ from their hand: 6 stops 6, and Bob takes the offense."},
		{1, VerbHand, "8C", "Bob attacks with 8♣ from their hand."},
		{0, VerbDeck, "", "Ann defends with 10♠ from the top of their deck: 10 stops 8, and Ann takes the offense."},
		{0, VerbDeck, "", "Ann attacks with 10♣ from the top of their deck."},
		{1, VerbDeck, "", "Bob defends with 2♠ from the top of their deck, but 2 doesn't stop 10: Ann must deal damage."},
		{0, VerbHand, "AS", "Ann deals a heavy 11 damage to Bob with A♠ from their hand. Bob has taken 11 of 22."},
		{0, VerbDeck, "", "Ann attacks with 7♦ from the top of their deck."},
	}
	for i, st := range steps {
		var args []string
		if st.card != "" {
			args = append(args, st.card)
		}
		evs := must(t, s, st.seat, st.verb, args...)
		if got := events(evs); !strings.Contains(got, st.say) {
			t.Fatalf("step %d: events %q, want %q", i+1, got, st.say)
		}
		checkLayout(t, s.Table())
		checkLayout(t, s.Hand(0))
		checkLayout(t, s.Hand(1))
	}
	if got := total(s.Players[1].Damage); got != 11 {
		t.Fatalf("B has taken %d damage, want 11", got)
	}
	if s.Life-total(s.Players[1].Damage) != 11 {
		t.Fatal("B should be left at 11 life")
	}
	// B must now answer the 7: anything under 7 lets it through.
	if s.Offense != 0 || s.Step != StepDefend || !slices.Equal(s.ToAct(), []int{1}) || value(*s.Attack) != 7 {
		t.Fatalf("offense %d step %s attack %v", s.Offense, s.Step, s.Attack)
	}
	if !slices.Equal(s.Players[0].Hand, cards(t, "2C 2D 7C 8H")) || !slices.Equal(s.Players[0].Discard, cards(t, "6S TS TC")) {
		t.Fatalf("A: hand %v discard %v", s.Players[0].Hand, s.Players[0].Discard)
	}
	if !slices.Equal(s.Players[1].Discard, cards(t, "6H 8C 2S")) || !slices.Equal(s.Players[1].Damage, cards(t, "AS")) {
		t.Fatalf("B: discard %v damage %v", s.Players[1].Discard, s.Players[1].Damage)
	}
	v := s.Hand(1)
	if got := labels(v); !slices.Equal(got, []string{"Defend with 10 (×1)", "Top of deck (2 left)"}) {
		t.Fatalf("B's choices: %v", got)
	}
	if tv := viewText(s.Table()); !strings.Contains(tv, "Attack: **7♦** (7) by Ann") || !strings.Contains(tv, "Bob must answer it") {
		t.Errorf("table: %s", tv)
	}
}
