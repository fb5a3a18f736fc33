package lnf

import (
	"strings"
	"testing"
)

// Scenario tests named after the rule they check (rule text 001 and the
// 001/Common rulings); they pin cases the other tests do not reach.

// Rule: after a Draw card the deck's top card is turned onto the pile to set
// colour and number. When that card is Game Over it was turned, not played:
// the game goes on, only a 2 fits it, and a wild 2 may go on it by number.
func TestScenarioGameOverTurnedUpAfterADrawCardDoesNotEndTheGame(t *testing.T) {
	// Deck top last: Bob draws Y7 Y6 Y5 B6, then Game Over is turned up.
	s := rigged(t, "G4", "R1 WG B6 Y5 Y6 Y7", "W4 B5", "G1", "W2 R5", "Y9")
	must(t, s, 0, play("W4", "Life is not fair, but draw four"))
	if top, _ := s.top(); top != GameOver || s.Over() || s.Ender != -1 {
		t.Fatalf("top %v, over %v", top, s.Over())
	}
	if s.Turn != 2 || codes(s.legal(2)) != "W2" {
		t.Fatalf("turn %d, Cy may play %q", s.Turn, codes(s.legal(2)))
	}
	// Cy's Draw Two goes on the grey 2 and works as usual on Dot.
	must(t, s, 2, play("W2", "Life is not fair, but draw two"))
	if len(s.Hands[3]) != 3 || s.Turn != 0 || s.Over() {
		t.Fatalf("Dot holds %s, turn %d", codes(s.Hands[3]), s.Turn)
	}
	if count(s) != 13 { // every card rigged above, still in play
		t.Fatalf("cards lost: %d", count(s))
	}
}

// Rule: a rude player found so by the table draws two; when the deck is
// empty the discards but the top card become the new deck (Common ruling).
func TestScenarioAppealPenaltyFromAnEmptyDeckReshufflesTheDiscards(t *testing.T) {
	s := rigged(t, "B1 B2 R7", "", "R5", "G1", "Y2")
	must(t, s, 0, appealAct("1", "you call that a move?"))
	evs := must(t, s, 2, vote("1", "yes"))
	if codes(s.Hands[1]) != "G1 B1 B2" || codes(s.Pile.Discard) != "R7" || len(s.Pile.Draw) != 0 {
		t.Fatalf("Bob %s, discard %s, draw %s", codes(s.Hands[1]), codes(s.Pile.Discard), codes(s.Pile.Draw))
	}
	if !strings.Contains(allText(evs), "Bob draws 2") || !strings.Contains(allText(evs), reshuffleNote) {
		t.Fatalf("events: %s", allText(evs))
	}
	// Nothing at all left: the penalty draws what there is (here nothing).
	must(t, s, 1, appealAct("2", ""))
	must(t, s, 0, vote("2", "yes"))
	if len(s.Hands[2]) != 1 || codes(s.Pile.Discard) != "R7" {
		t.Fatalf("Cy %s, discard %s", codes(s.Hands[2]), codes(s.Pile.Discard))
	}
}
