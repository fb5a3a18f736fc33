package dealt

import (
	"slices"
	"testing"
)

// Rule scenarios from the rule text (and the rulings) that the other tests
// leave unplayed.

// Redraw in a trick ended by a Stop: as with a Redraw lead answered by a
// Stop, the Redraw is still resolved by the trick's highest combination,
// whose player draws three and leads; the player the Stop cut off never acts.
func TestScenarioStopAfterRedrawTheHighestStillDrawsAndLeads(t *testing.T) {
	s := rigged(t, 0, "5 1", "R 2", "S 3", "4 | 6")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbPlay, "1_stop")
	if s.Drawing == nil || s.Drawing.Seat != 0 || s.Drawing.Total != 3 {
		t.Fatalf("drawing %+v, want Ann drawing 3", s.Drawing)
	}
	for s.Drawing != nil {
		must(t, s, 0, VerbPut, "0")
	}
	if len(s.Players[0].Hand) != 4 || s.Leader != 0 || s.Turn != 0 || len(s.Trick) != 0 {
		t.Fatalf("Ann's hand %d, leader %d, turn %d", len(s.Players[0].Hand), s.Leader, s.Turn)
	}
	if faces(s.Players[3].Hand) != "4" || faces(s.Players[3].Reserve) != "6" {
		t.Fatalf("Dan was cut off by the Stop but his cards changed: %s | %s", faces(s.Players[3].Hand), faces(s.Players[3].Reserve))
	}
}

// Starting the next trick: the highest combination went out, and so did the
// second-highest; the highest combination of a player still holding cards
// leads (not the right-hand neighbour, who only took a reserve).
func TestScenarioNextHighestStillHoldingLeads(t *testing.T) {
	s := rigged(t, 0, "3 1", "5", "7", "1 | 2")
	must(t, s, 0, VerbPlay, "1_solo_3")
	must(t, s, 1, VerbPlay, "1_solo_5")
	must(t, s, 2, VerbPlay, "1_solo_7")
	must(t, s, 3, VerbRes, s.Players[3].Reserve[0].Code()+".0")
	if s.Round != 1 || s.Leader != 0 || s.Turn != 0 {
		t.Fatalf("round %d, leader %d, turn %d; want Ann (Solo 3) to lead", s.Round, s.Leader, s.Turn)
	}
}

// Redraw with the draw pile empty (common ruling): the discards, this
// trick's cards included, become the new pile; once both are empty the rest
// of the draw is skipped and the drawer still leads.
func TestScenarioRedrawWithTooFewCardsAnywhere(t *testing.T) {
	s := rigged(t, 0, "9 1", "R 2", "3 | 4")
	// Everything not dealt sits in Cat's hand: no draw pile, no discards.
	s.Players[2].Hand = append(s.Players[2].Hand, s.Pile.Draw...)
	s.Pile.Draw = nil
	must(t, s, 0, VerbPlay, "1_solo_9")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".0")
	if s.Drawing == nil || s.Drawing.Seat != 0 {
		t.Fatalf("drawing %+v, want Ann drawing", s.Drawing)
	}
	var drawn []Card
	for s.Drawing != nil {
		drawn = append(drawn, s.Drawing.Card)
		must(t, s, 0, VerbPut, "0")
	}
	slices.SortFunc(drawn, func(a, b Card) int { return a.Face - b.Face })
	if faces(drawn) != "9 Redraw" || len(s.Players[0].Hand) != 3 || s.Leader != 0 || s.Round != 1 {
		t.Fatalf("drew %s, Ann's hand %d, leader %d, round %d", faces(drawn), len(s.Players[0].Hand), s.Leader, s.Round)
	}
	if err := s.Valid(); err != nil {
		t.Fatal(err)
	}
}
