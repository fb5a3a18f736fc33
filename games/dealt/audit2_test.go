package dealt

import (
	"strings"
	"testing"
)

// Second audit: combinations of rules the other tests play one at a time.

// A Redraw played mid-trick needs to beat nothing, but it doesn't lower the
// bar: the next player must still beat the highest combination, whose
// player then draws three and leads.
func TestAudit2MidTrickRedrawKeepsTheBarAndTheHighestDraws(t *testing.T) {
	s := rigged(t, 0, "8 8 1", "R 2 | 3", "12 9 9 5 | 4", "1 | 6")
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	must(t, s, 1, VerbPlay, "1_redraw")
	refused(t, s, 2, "A Solo 12 doesn't beat a Pair of 8s", VerbPlay, "1_solo_12")
	must(t, s, 2, VerbPlay, "2.3_pair_9")
	must(t, s, 3, VerbRes, s.Players[3].Reserve[0].Code()+".0")
	if s.Drawing == nil || s.Drawing.Seat != 2 || s.Drawing.Total != 3 {
		t.Fatalf("drawing %+v, want Cat drawing 3", s.Drawing)
	}
	for s.Drawing != nil {
		must(t, s, 2, VerbPut, "0")
	}
	if len(s.Players[2].Hand) != 5 || s.Leader != 2 || s.Turn != 2 || faces(s.Players[1].Hand) != "2" {
		t.Fatalf("Cat's hand %d, leader %d, Bea %s", len(s.Players[2].Hand), s.Leader, faces(s.Players[1].Hand))
	}
}

// After a Redraw lead only the first answer is free; a later player with no
// reserve who can't beat that answer loses the round at once, the Redraw is
// never resolved, and the loser leads a full fresh deal.
func TestAudit2StuckAfterARedrawLeadLosesWithoutADraw(t *testing.T) {
	s := rigged(t, 0, "R 5 | 1", "9 9 1 | 2", "2 1")
	must(t, s, 0, VerbPlay, "1_redraw")
	must(t, s, 1, VerbPlay, "1.2_pair_9")
	refused(t, s, 2, "A 2-Straight 1-2 doesn't beat a Pair of 9s", VerbPlay, "1.2_str2_2")
	must(t, s, 2, VerbLose)
	if s.Round != 2 || s.Drawing != nil || s.Leader != 2 || s.Turn != 2 || len(s.Trick) != 0 {
		t.Fatalf("round %d, drawing %+v, leader %d", s.Round, s.Drawing, s.Leader)
	}
	for i, p := range s.Players {
		if want := map[int]int{2: 1}[i]; p.Chips != 2-want || len(p.Hand) != 10 || len(p.Reserve) != 2 {
			t.Errorf("seat %d: chips %d, hand %d, reserve %d", i, p.Chips, len(p.Hand), len(p.Reserve))
		}
	}
	if len(s.Pile.Draw) != 54-3*12 || len(s.Pile.Discard) != 0 {
		t.Fatalf("pile %d/%d", len(s.Pile.Draw), len(s.Pile.Discard))
	}
	if err := s.Valid(); err != nil {
		t.Fatal(err)
	}
}

// The last two still in both go out in one trick: only the lower pays, so
// a single player gave up a chip and they (not the host) lead the next round.
func TestAudit2AllOutWithTwoLeftTheOnePayerLeadsNextRound(t *testing.T) {
	s := rigged(t, 1, " | 1 2", "5", "7", " | 3 4")
	must(t, s, 1, VerbPlay, "1_solo_5")
	if s.Turn != 2 {
		t.Fatalf("turn %d, want Cat", s.Turn)
	}
	must(t, s, 2, VerbPlay, "1_solo_7")
	chips := []int{s.Players[0].Chips, s.Players[1].Chips, s.Players[2].Chips, s.Players[3].Chips}
	if s.Round != 2 || s.Leader != 1 || s.Turn != 1 || chips[0] != 2 || chips[1] != 1 || chips[2] != 2 || chips[3] != 2 {
		t.Fatalf("round %d, leader %d, chips %v", s.Round, s.Leader, chips)
	}
}

// Five players: a Stop led as the last card hands the lead to the right,
// skipping players already out and wrapping past seat 0.
func TestAudit2FivePlayersLastCardStopLeadSkipsOutPlayersOnTheRight(t *testing.T) {
	s := rigged(t, 1, "", "S", "3 | 1", "4 | 2", "")
	evs := must(t, s, 1, VerbPlay, "1_stop")
	if s.Round != 1 || s.Leader != 3 || s.Turn != 3 || len(s.Trick) != 0 {
		t.Fatalf("round %d, leader %d: %s", s.Round, s.Leader, events(evs))
	}
	if faces(s.Players[2].Hand) != "3" || faces(s.Players[2].Reserve) != "1" {
		t.Fatalf("Cat never acted but her cards changed: %s | %s", faces(s.Players[2].Hand), faces(s.Players[2].Reserve))
	}
}

// Five players, both Redraws: the highest combination was its player's last
// card; they draw six and lead, not the second-highest.
func TestAudit2FivePlayersBothRedrawsTheHighestWhoWentOutDrawsSix(t *testing.T) {
	s := rigged(t, 0, "5 1", "R 1", "9", "R 1", "1 | 2")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbPlay, "1_solo_9")
	must(t, s, 3, VerbPlay, "1_redraw")
	must(t, s, 4, VerbRes, s.Players[4].Reserve[0].Code()+".0")
	if s.Drawing == nil || s.Drawing.Seat != 2 || s.Drawing.Total != 6 {
		t.Fatalf("drawing %+v, want Cat drawing 6", s.Drawing)
	}
	for s.Drawing != nil {
		must(t, s, 2, VerbPut, "0")
	}
	if len(s.Players[2].Hand) != 6 || s.Leader != 2 || s.Turn != 2 || s.Round != 1 {
		t.Fatalf("Cat's hand %d, leader %d, round %d", len(s.Players[2].Hand), s.Leader, s.Round)
	}
}

// The last player holding cards can't beat the trick and has no reserve,
// but has a Stop: they must play it (giving up is refused), and as the
// only one left holding cards when the trick ends they still lose.
func TestAudit2LastHolderStopStillLosesAtTrickEnd(t *testing.T) {
	s := rigged(t, 0, "5", "7", "3 S")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_7")
	refused(t, s, 2, "You can still play your Stop card", VerbLose)
	evs := must(t, s, 2, VerbPlay, "2_stop")
	if s.Round != 2 || s.Leader != 2 || s.Players[2].Chips != 1 || s.Players[0].Chips != 2 || s.Players[1].Chips != 2 {
		t.Fatalf("round %d, leader %d, chips %d: %s", s.Round, s.Leader, s.Players[2].Chips, events(evs))
	}
}

// A reserve card placed next to an X makes Trips in a later trick, the top
// kind: the next player, with no reserve, can't beat it and loses.
func TestAudit2ReservePlacedByAnXMakesTrips(t *testing.T) {
	s := rigged(t, 0, "4 1", "7 X 2 | 7 3", "4 5 | 6")
	must(t, s, 0, VerbPlay, "1_solo_4")
	must(t, s, 1, VerbRes, s.Players[1].Reserve[0].Code()+".1")
	if faces(s.Players[1].Hand) != "7 7 X 2" {
		t.Fatalf("Bea's hand %s", faces(s.Players[1].Hand))
	}
	must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".2") // 4 5 6
	if s.Leader != 0 {
		t.Fatalf("leader %d, want Ann", s.Leader)
	}
	must(t, s, 0, VerbPlay, "1_solo_1") // Ann goes out
	evs := must(t, s, 1, VerbPlay, "1.2.3_trips_7")
	if !strings.Contains(events(evs), "Trips of 7s (X as 7)") {
		t.Errorf("events: %s", events(evs))
	}
	refused(t, s, 2, "A 3-Straight 4-5-6 doesn't beat a Trips of 7s", VerbPlay, "1.2.3_str3_6")
	must(t, s, 2, VerbLose)
	if s.Round != 2 || s.Leader != 2 || s.Players[2].Chips != 1 {
		t.Fatalf("round %d, leader %d, Cat's chips %d", s.Round, s.Leader, s.Players[2].Chips)
	}
}

// Everyone out in one trick while the highest has no chips: only the others
// pay, so nobody owes and the game goes on, led by the host.
func TestAudit2ChiplessHighestInAllOutDoesNotLose(t *testing.T) {
	s := rigged(t, 1, "9", "5", "7")
	s.Players[0].Chips = 0
	must(t, s, 1, VerbPlay, "1_solo_5")
	must(t, s, 2, VerbPlay, "1_solo_7")
	must(t, s, 0, VerbPlay, "1_solo_9")
	if s.Over() || s.Round != 2 || s.Leader != 0 {
		t.Fatalf("over %v (losers %v), round %d, leader %d", s.Over(), s.Losers, s.Round, s.Leader)
	}
	if c := []int{s.Players[0].Chips, s.Players[1].Chips, s.Players[2].Chips}; c[0] != 0 || c[1] != 1 || c[2] != 1 {
		t.Fatalf("chips %v", c)
	}
}

// After a Redraw lead, a second Redraw after the free answer: the highest
// combination draws six and leads; the player after the second Redraw must
// still beat the first answer.
func TestAudit2RedrawLeadAnswerThenSecondRedrawHighestDrawsSix(t *testing.T) {
	s := rigged(t, 0, "R 1 | 2", "3 1 | 4", "R 1 | 6", "2 5 1 | 7")
	must(t, s, 0, VerbPlay, "1_redraw")
	must(t, s, 1, VerbPlay, "1_solo_3")
	must(t, s, 2, VerbPlay, "1_redraw")
	refused(t, s, 3, "A Solo 2 doesn't beat a Solo 3", VerbPlay, "1_solo_2")
	must(t, s, 3, VerbPlay, "2_solo_5")
	if s.Drawing == nil || s.Drawing.Seat != 3 || s.Drawing.Total != 6 {
		t.Fatalf("drawing %+v, want Dan drawing 6", s.Drawing)
	}
	for s.Drawing != nil {
		must(t, s, 3, VerbPut, "0")
	}
	if len(s.Players[3].Hand) != 8 || s.Leader != 3 || s.Turn != 3 {
		t.Fatalf("Dan's hand %d, leader %d", len(s.Players[3].Hand), s.Leader)
	}
}
