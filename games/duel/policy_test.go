package duel

import (
	"slices"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// TestSensibleBeatsRandom: the sensible player must win clearly more than
// half its games against Random, seats alternating, on fixed seeds.
// Measured: 89.7% [87.7%, 91.4%] over 1000 games.
func TestSensibleBeatsRandom(t *testing.T) {
	n := 1000
	if raceOn || testing.Short() {
		n = 200
	}
	tl, err := ai.HeadToHead(Rules, nil, Sensible, ai.Random, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	rate, lo, hi := tl.RateA()
	t.Logf("sensible vs random: %.1f%% [%.1f%%, %.1f%%] over %d games, %.1f moves a game",
		100*rate, 100*lo, 100*hi, tl.Games, float64(tl.Moves)/float64(tl.Games))
	if rate < 0.6 || lo <= 0.5 {
		t.Errorf("sensible wins %.1f%% [%.1f%%, %.1f%%] against random; want ≥ 60%% with the interval above 50%%", 100*rate, 100*lo, 100*hi)
	}
	if tl.RefusedA != 0 || tl.Unfinished != 0 {
		t.Errorf("sensible had %d moves refused; %d games unfinished", tl.RefusedA, tl.Unfinished)
	}
}

// TestSensibleSelfPlay: two sensible players finish every game without a
// refused move, under the options' extremes too.
func TestSensibleSelfPlay(t *testing.T) {
	for _, opts := range []map[string]int{nil, {OptHandLimit: minHandLimit, OptLife: minLife}, {OptHandLimit: maxHandLimit, OptLife: maxLife}} {
		tl, err := ai.HeadToHead(Rules, opts, Sensible, Sensible, 40, 2)
		if err != nil {
			t.Fatal(err)
		}
		if tl.RefusedA+tl.RefusedB != 0 || tl.Unfinished != 0 {
			t.Errorf("%v: %d refused moves, %d unfinished games", opts, tl.RefusedA+tl.RefusedB, tl.Unfinished)
		}
	}
}

// policyMove asks Sensible for seat's move in s, through the seat's views only.
func policyMove(t *testing.T, s *State, seat int) games.Action {
	t.Helper()
	a, ok := Sensible.Choose(nil, s.Table(), s.Hand(seat), seat)
	if !ok {
		t.Fatalf("seat %d: sensible has no move", seat)
	}
	return a
}

func TestSensibleBuildsWithinTheLimit(t *testing.T) {
	for _, limit := range []int{minHandLimit, DefaultHandLimit, maxHandLimit} {
		s := newDuel(t, 5, map[string]int{OptHandLimit: limit})
		pool := slices.Clone(s.Players[0].Pool)
		for step := 0; !s.Players[0].Locked; step++ {
			if step > 3 {
				t.Fatalf("limit %d: not locked in after %d moves", limit, step)
			}
			a := policyMove(t, s, 0)
			must(t, s, 0, a.Verb, a.Args...)
		}
		hand := s.Players[0].Hand
		if total(hand) > limit || len(hand) == 0 {
			t.Errorf("limit %d: hand %v worth %d", limit, hand, total(hand))
		}
		// The low cards kept are the pool's lowest: the draws left in the
		// deck are as good as the limit allows.
		var low []games.Card
		for _, c := range hand {
			if float64(value(c)) < meanValue(pool) {
				low = append(low, c)
			}
		}
		if len(low) == 0 || !slices.Equal(low, pool[:len(low)]) {
			t.Errorf("limit %d: kept %v from the pool %v", limit, hand, pool)
		}
		if _, ok := Sensible.Choose(nil, s.Table(), s.Hand(0), 0); ok {
			t.Errorf("limit %d: a move after locking in", limit)
		}
	}
}

// TestSensibleReadsThePlayView pins down what the policy reads from the
// views, so a change of wording that blinds it fails here.
func TestSensibleReadsThePlayView(t *testing.T) {
	s := playing(t, "2C 9H KD", "3C 4D", "5S 5D AS", "6C 7C 8C")
	s.Life = 25
	must(t, s, 0, VerbHand, "9H")
	must(t, s, 1, VerbHand, "5S")
	v := readPlay(s.Table(), s.Hand(0), 0)
	if v.step != StepDamage || v.life != 25 || v.attack == nil || *v.attack != card(t, "9H") ||
		v.defense == nil || *v.defense != card(t, "5S") || !slices.Equal(v.hand, cards(t, "2C KD")) {
		t.Fatalf("read %+v", v)
	}
	if v.me.hand != 2 || v.me.deck != 2 || v.opp.hand != 2 || v.opp.deck != 3 {
		t.Fatalf("sides %+v %+v", v.me, v.opp)
	}
	must(t, s, 0, VerbHand, "KD")
	must(t, s, 0, VerbDeck)
	v = readPlay(s.Table(), s.Hand(1), 1)
	if v.step != StepDefend || *v.attack != card(t, "4D") || v.defense != nil || v.me.taken != 10 ||
		!slices.Equal(v.me.damage, cards(t, "KD")) || !slices.Equal(v.opp.discard, cards(t, "9H")) ||
		!slices.Equal(v.me.discard, cards(t, "5S")) {
		t.Fatalf("read %+v", v)
	}
	if slices.Contains(v.deck, card(t, "KD")) || slices.Contains(v.deck, card(t, "AS")) || !slices.Contains(v.deck, card(t, "8C")) {
		t.Fatalf("the unseen cards %v include seen ones or miss unseen ones", v.deck)
	}
}

func TestSensibleDefends(t *testing.T) {
	// A 9 is hard to stop from the deck: stop it with the cheapest card
	// that does (the 9, not the king).
	s := playing(t, "9C", "3C", "2C 9H KD", "6C 7C 8C")
	must(t, s, 0, VerbHand, "9C")
	if a := policyMove(t, s, 1); a.Key() != "hand=9H" {
		t.Errorf("against a 9: %s", a.Key())
	}
	// A 3 is almost surely stopped by the deck: keep the hand.
	s = playing(t, "3D", "3C", "2C 9H KD", "6C 7C 8C")
	must(t, s, 0, VerbHand, "3D")
	if a := policyMove(t, s, 1); a.Key() != VerbDeck {
		t.Errorf("against a 3: %s", a.Key())
	}
	// Nothing in hand stops an ace: try the deck.
	s = playing(t, "AC", "3C", "2C 9H KD", "6C 7C 8C")
	must(t, s, 0, VerbHand, "AC")
	if a := policyMove(t, s, 1); a.Key() != VerbDeck {
		t.Errorf("against an ace: %s", a.Key())
	}
}

func TestSensibleDealsDamage(t *testing.T) {
	// Bob has taken 15 of 22: the 7 kills, so it is played, not the ace.
	s := playing(t, "7D AC TC", "3C", "2C", "2D 2H")
	s.Players[1].Damage = cards(t, "TD 5D")
	must(t, s, 0, VerbHand, "TC")
	must(t, s, 1, VerbDeck)
	if a := policyMove(t, s, 0); a.Key() != "hand=7D" {
		t.Errorf("lethal damage: %s", a.Key())
	}
	// Far from lethal: the highest card, an ace, beats any draw.
	s = playing(t, "7D AC TC", "3C", "2C", "2D 2H")
	must(t, s, 0, VerbHand, "TC")
	must(t, s, 1, VerbDeck)
	if a := policyMove(t, s, 0); a.Key() != "hand=AC" {
		t.Errorf("damage: %s", a.Key())
	}
	// Only low cards in hand: the deck's expected draw is better.
	s = playing(t, "2S 3S", "3C", "2C", "2D 2H")
	s.Players[0].Deck = cards(t, "TS JS QS KS")
	must(t, s, 0, VerbDeck)
	must(t, s, 1, VerbDeck)
	if a := policyMove(t, s, 0); a.Key() != VerbDeck {
		t.Errorf("damage with a low hand: %s", a.Key())
	}
}

func TestSensibleAttacks(t *testing.T) {
	// Attacks come from the deck while the hand has no spare high cards.
	s := playing(t, "2C 3C AC", "5C 6C", "2D", "5D")
	if a := policyMove(t, s, 0); a.Key() != VerbDeck {
		t.Errorf("attack: %s", a.Key())
	}
	// Two high cards: attack with the lower, keep the ace for damage.
	s = playing(t, "2C TC AC", "5C 6C", "2D", "5D")
	if a := policyMove(t, s, 0); a.Key() != "hand=TC" {
		t.Errorf("attack with spare high cards: %s", a.Key())
	}
	// An empty deck: reshuffle the discards rather than spend the hand.
	s = playing(t, "2C", "", "2D", "5D 6D")
	s.Players[0].Discard = cards(t, "9C 8C")
	if a := policyMove(t, s, 0); a.Key() != VerbReshuffle {
		t.Errorf("attack with an empty deck: %s", a.Key())
	}
	// Not its move: no move.
	if _, ok := Sensible.Choose(nil, s.Table(), s.Hand(1), 1); ok {
		t.Error("a move while the other player attacks")
	}
}
