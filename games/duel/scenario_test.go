package duel

import (
	"slices"
	"testing"
)

// Scenario tests named after the rule they check (rule text 004 and
// RULINGS.md); they pin behaviour the other tests only reach by chance.

// Rule: the defender may answer with any card of their hand, not only one
// that stops the attack; a weaker card lets the attack through and the
// stronger card stays in hand.
func TestScenarioDefenderMayChooseAWeakerCard(t *testing.T) {
	s := playing(t, "9C 4C", "2C", "2D KD", "3D")
	must(t, s, 0, VerbHand, "9C")
	must(t, s, 1, VerbHand, "2D")
	if s.Step != StepDamage || s.Offense != 0 {
		t.Fatalf("step %s offense %d: the weaker answer should let the attack through", s.Step, s.Offense)
	}
	must(t, s, 0, VerbHand, "4C")
	if !slices.Equal(s.Players[1].Hand, cards(t, "KD")) || total(s.Players[1].Damage) != 4 {
		t.Fatalf("Bob: hand %v damage %v", s.Players[1].Hand, s.Players[1].Damage)
	}
	// The attacker whose attack got through attacks again.
	if s.Offense != 0 || s.Step != StepAttack {
		t.Fatalf("offense %d step %s", s.Offense, s.Step)
	}
}

// Rule: with an empty deck a player may play from the hand instead of
// reshuffling; the discard pile then stays a discard pile, and the played
// card joins it when the exchange ends.
func TestScenarioEmptyDeckHandPlayLeavesDiscardAlone(t *testing.T) {
	s := playing(t, "9S", "", "TD", "3D")
	s.Players[0].Discard = cards(t, "4C 5C")
	must(t, s, 0, VerbHand, "9S")
	p := s.Players[0]
	if len(p.Deck) != 0 || !slices.Equal(p.Discard, cards(t, "4C 5C")) {
		t.Fatalf("after the hand play: deck %v discard %v", p.Deck, p.Discard)
	}
	must(t, s, 1, VerbHand, "TD") // 10 stops 9: Bob takes the offense
	if s.Offense != 1 || !slices.Equal(s.Players[0].Discard, cards(t, "4C 5C 9S")) {
		t.Fatalf("offense %d, Ann's discard %v", s.Offense, s.Players[0].Discard)
	}
}

// Rule: damage cards lie in front of the player who took them and are no
// part of that player's discard pile, so a reshuffle never brings them back.
func TestScenarioTakenDamageIsNotReshuffled(t *testing.T) {
	s := playing(t, "8S", "2C", "", "")
	s.Players[1].Damage = cards(t, "KS 3S")
	s.Players[1].Discard = cards(t, "9H")
	must(t, s, 0, VerbHand, "8S")
	must(t, s, 1, VerbReshuffle) // the only card reshuffled is the 9♥
	if !slices.Equal(s.Players[1].Damage, cards(t, "KS 3S")) || len(s.Players[1].Deck) != 0 ||
		!slices.Equal(s.Players[1].Discard, cards(t, "9H")) || s.Offense != 1 {
		t.Fatalf("Bob: deck %v discard %v damage %v; offense %d",
			s.Players[1].Deck, s.Players[1].Discard, s.Players[1].Damage, s.Offense)
	}
}

// Rule: the damage card may come from a reshuffled discard pile, and the
// duel ends the moment the total damage reaches life; the exchange cards
// still go to their owners' discard piles.
func TestScenarioReshuffledDamageCardKillsAtLife(t *testing.T) {
	s := playing(t, "9C", "", "", "2D")
	s.Players[0].Discard = cards(t, "AD")
	s.Players[1].Damage = cards(t, "KS AS") // 21 of 22
	must(t, s, 0, VerbHand, "9C")
	must(t, s, 1, VerbDeck) // 2 does not stop 9
	if got := verbs(s.Hand(0)); !slices.Equal(got, []string{VerbReshuffle}) {
		t.Fatalf("Ann's controls for the damage: %v", got)
	}
	must(t, s, 0, VerbReshuffle) // A♦, her only discard: 32 taken
	if !s.Over() || s.Winner != 0 || total(s.Players[1].Damage) != 32 {
		t.Fatalf("over %v winner %d damage %v", s.Over(), s.Winner, s.Players[1].Damage)
	}
	if !slices.Equal(s.Players[0].Discard, cards(t, "9C")) || !slices.Equal(s.Players[1].Discard, cards(t, "2D")) {
		t.Fatalf("discards %v %v", s.Players[0].Discard, s.Players[1].Discard)
	}
	if res := s.Results(); !res[0].Winner || res[1].Winner || res[0].Score != 32 || res[1].Score != 0 {
		t.Fatalf("results %+v", res)
	}
}
