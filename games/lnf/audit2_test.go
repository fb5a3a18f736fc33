package lnf

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Second audit against rule text 001 and its rulings: combinations the
// other tests do not reach (effects at the end of the deck, 8 seats,
// appeals meeting a drawn card, scoring with wild cards left).

// Draw N with exactly N cards in the deck: the victim takes them all, and
// the card turned afterwards comes from the discards reshuffled under the
// Draw card, which stays face up until covered.
func TestAudit2DrawNEmptiesTheDeckThenTurnUpReshuffles(t *testing.T) {
	s := rigged(t, "G5 B6 R2", "Y8 Y9", "W2 B5", "G1", "Y3")
	must(t, s, 0, play("W2", "Life is not fair, but draw two"))
	if codes(s.Hands[1]) != "G1 Y8 Y9" || s.Turn != 2 {
		t.Fatalf("Bob %s, turn %d", codes(s.Hands[1]), s.Turn)
	}
	d := s.Pile.Discard
	if len(d) != 2 || d[0] != DrawTwo || !slices.Contains(cards(t, "G5 B6 R2"), d[1]) || len(s.Pile.Draw) != 2 {
		t.Fatalf("discard %s, draw %s", codes(d), codes(s.Pile.Draw))
	}
	if count(s) != 9 {
		t.Fatalf("%d cards", count(s))
	}
}

// Draw N with a deck shorter than N: the discards but the Draw card are
// shuffled in mid-draw, the victim still gets N, and what is left is turned.
func TestAudit2DrawNReshufflesMidDraw(t *testing.T) {
	s := rigged(t, "G5 B6 R3", "Y8", "W3 B5", "G1", "Y4")
	must(t, s, 0, play("W3", "life is not fair but draw 3"))
	h := s.Hands[1]
	if len(h) != 4 || !slices.Contains(h, card(t, "Y8")) || !slices.Contains(h, card(t, "G1")) {
		t.Fatalf("Bob %s", codes(h))
	}
	d := s.Pile.Discard
	if len(d) != 2 || d[0] != DrawThree || d[1].Wild() || len(s.Pile.Draw) != 0 || s.Turn != 2 {
		t.Fatalf("discard %s, draw %s, turn %d", codes(d), codes(s.Pile.Draw), s.Turn)
	}
}

// 8 seats: a Draw card from the last seat hits the first and the second
// plays; from the seventh it hits the last and the first plays.
func TestAudit2DrawNAtAnEightSeatTable(t *testing.T) {
	hands := []string{"G1", "G2", "G3", "G4", "G5", "G6", "W2 B5", "W4 R5"}
	s := rigged(t, "Y4", "R1 R6 R7 R8 R9 B1 B2 B3", hands...)
	s.Turn = 7
	must(t, s, 7, play("W4", "life is not fair, but draw four"))
	if codes(s.Hands[0]) != "R9 G1 B1 B2 B3" || s.Turn != 1 {
		t.Fatalf("Ann %s, turn %d", codes(s.Hands[0]), s.Turn)
	}
	if top, _ := s.top(); top != card(t, "R8") {
		t.Fatalf("top %v", top)
	}
	s = rigged(t, "Y2", "R1 R6 R7 R8", hands...)
	s.Turn = 6
	must(t, s, 6, play("W2", "life is not fair, but draw two"))
	if len(s.Hands[7]) != 4 || s.Turn != 0 {
		t.Fatalf("Hal %s, turn %d", codes(s.Hands[7]), s.Turn)
	}
}

// 8 seats: six judges; "a strict majority of the votes cast": one lone
// "rude" when the clock closes is enough, 3–3 is not, and the sixth vote
// closes the appeal at once.
func TestAudit2AppealMajorityOfVotesCastAtEightSeats(t *testing.T) {
	hands := []string{"R7 R1", "G1", "G2", "G3", "G4", "G5", "G6", "G7"}
	s := rigged(t, "R2", "Y1 Y2 Y3 Y4 Y5 Y6", hands...)
	must(t, s, 0, appealAct("1", "nice move, genius"))
	must(t, s, 5, vote("1", "yes"))
	must(t, s, games.Clock, games.Act(VerbClose, "1"))
	if len(s.Hands[1]) != 3 {
		t.Fatalf("Bob %s after a 1–0 vote", codes(s.Hands[1]))
	}
	must(t, s, 2, appealAct("3", ""))
	for i, v := range []string{"yes", "no", "yes", "no", "yes"} {
		must(t, s, []int{0, 1, 4, 5, 6}[i], vote("2", v))
	}
	if !s.Appeals[1].Open {
		t.Fatal("closed before every judge voted")
	}
	must(t, s, 7, vote("2", "no"))
	if s.Appeals[1].Open || len(s.Hands[3]) != 1 {
		t.Fatalf("open %v, Dot %s after 3–3", s.Appeals[1].Open, codes(s.Hands[3]))
	}
}

// An appeal penalty can make a drawn wild card unplayable (a coloured card
// now fits): the player may only keep it and pass.
func TestAudit2PenaltyBlocksTheDrawnWildCard(t *testing.T) {
	s := rigged(t, "B3", "B7 R1 W3", "R5 G6", "G1", "Y2")
	must(t, s, 0, games.Act(VerbDraw))
	if s.Drawn == nil || *s.Drawn != DrawThree || codes(s.legal(0)) != "W3" {
		t.Fatalf("drawn %v, legal %s", s.Drawn, codes(s.legal(0)))
	}
	must(t, s, 1, appealAct("0", "mean words"))
	must(t, s, 2, vote("1", "yes")) // Ann draws R1 and B7; B7 fits
	if len(s.Hands[0]) != 5 || codes(s.legal(0)) != "" {
		t.Fatalf("Ann %s, legal %s", codes(s.Hands[0]), codes(s.legal(0)))
	}
	if k := keys(s.Hand(0)); !slices.Equal(k, []string{"pass"}) {
		t.Fatalf("offered %v", k)
	}
	refused(t, s, 0, "Wild cards only when nothing else fits", play("W3", "life is not fair but draw three"))
	refused(t, s, 0, "You drew", play("B7", ""))
	must(t, s, 0, games.Act(VerbPass))
	if s.Turn != 1 || len(s.Hands[1]) != 1 {
		t.Fatalf("turn %d, Bob %s", s.Turn, codes(s.Hands[1]))
	}
}

// "If he does not have such a card he must draw": a wild card on its own
// number is such a card, so with it (and nothing coloured fitting) the
// player plays rather than draws.
func TestAudit2PlayableWildForbidsDrawing(t *testing.T) {
	s := rigged(t, "B3", "Y1", "W3 R5 W4", "G1", "Y2")
	if codes(s.legal(0)) != "W3" {
		t.Fatalf("legal %s", codes(s.legal(0)))
	}
	refused(t, s, 0, "only draw when nothing fits", games.Act(VerbDraw))
	if k := keys(s.Hand(0)); !slices.Equal(k, []string{"play=W3"}) {
		t.Fatalf("offered %v", k)
	}
}

// A drawn Game Over played at once ends the game; its player scores 20
// less the cards left (wild cards included), the others 10 less the
// numbers, a wild counting its number.
func TestAudit2DrawnGameOverEndsAndScoresWildsLeft(t *testing.T) {
	s := rigged(t, "Y2", "R1 WG", "R5 W4", "W2 W3 B1", "G9")
	must(t, s, 0, games.Act(VerbDraw))
	evs := must(t, s, 0, play("WG", "Life is not fair, but game over"))
	if !s.Over() || s.Ended != endGameOver || s.Ender != 0 {
		t.Fatalf("over %v ended %q", s.Over(), s.Ended)
	}
	if got, want := results(s), "0:18* 1:4 2:1"; got != want {
		t.Fatalf("results %s, want %s", got, want)
	}
	if !strings.Contains(allText(evs), "Ann**: 20 − 2 = 18 (played Game Over)") {
		t.Fatalf("events %s", allText(evs))
	}
	// Going out: the Game Over left in a hand counts its 2.
	s = rigged(t, "R2", "Y1", "R7", "WG W4 Y1", "G9")
	must(t, s, 0, play("R7", ""))
	if got, want := results(s), "0:20* 1:3 2:1"; got != want {
		t.Fatalf("results %s, want %s", got, want)
	}
}

// A dead Draw card draws nothing and skips nobody, even with an empty deck
// and at a two-seat table: the other player moves next on the old top.
func TestAudit2DeadDrawCardSkipsNobody(t *testing.T) {
	s := rigged(t, "R2", "", "W2 B5", "G1")
	must(t, s, 0, play("W2", "life is not fair but draw three"))
	if s.Turn != 1 || len(s.Hands[1]) != 1 || codes(s.Pile.Discard) != "W2 R2" || len(s.Pile.Draw) != 0 || s.Over() {
		t.Fatalf("turn %d, Bob %s, discard %s", s.Turn, codes(s.Hands[1]), codes(s.Pile.Discard))
	}
}

// Draw N as the last card with an empty deck: the victim draws what the
// reshuffled discards give, and the game ends with the player out.
func TestAudit2LastCardDrawNFromAnEmptyDeck(t *testing.T) {
	s := rigged(t, "R2", "", "W2", "G1", "Y3")
	must(t, s, 0, play("W2", "life is not fair but draw two"))
	if !s.Over() || s.Ended != endOut || codes(s.Hands[1]) != "R2 G1" {
		t.Fatalf("over %v, Bob %s", s.Over(), codes(s.Hands[1]))
	}
	if got, want := results(s), "0:20* 1:7 2:7"; got != want {
		t.Fatalf("results %s, want %s", got, want)
	}
}

// Two seats: each Draw card gives the turn straight back, so the same
// player may chain a second one on the card turned up.
func TestAudit2TwoSeatsDrawCardsChain(t *testing.T) {
	s := rigged(t, "G2", "Y1 Y5 Y6 Y7 B3 Y8 Y9", "W2 W3 R9", "G1")
	must(t, s, 0, play("W2", "life is not fair but draw two"))
	if s.Turn != 0 || len(s.Hands[1]) != 3 {
		t.Fatalf("turn %d, Bob %s", s.Turn, codes(s.Hands[1]))
	}
	if top, _ := s.top(); top != card(t, "B3") || codes(s.legal(0)) != "W3" {
		t.Fatalf("top %v, legal %s", top, codes(s.legal(0)))
	}
	must(t, s, 0, play("W3", "life is not fair but draw three"))
	if s.Turn != 0 || len(s.Hands[1]) != 6 || codes(s.Pile.Draw) != "" {
		t.Fatalf("turn %d, Bob %s, draw %s", s.Turn, codes(s.Hands[1]), codes(s.Pile.Draw))
	}
}

// /rules must state the numbers the rule text and rulings fix.
func TestAudit2SummaryStatesTheKeyRules(t *testing.T) {
	for _, want := range []string{"2 to 8 players", "76 cards", "1–9 twice", "Draw Two (2), Draw Three (3), Draw Four (4) and Game Over (2)",
		"4 secret cards", "scores 20", "20 minus the number of cards", "10 minus the numbers", "draw two cards", "3 or more players",
		"strict majority", "when none of your coloured cards fits", "misses their turn", "the card is dead"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

// 8 seats, everyone swaps: hands stay at 4, the swapped card is back in
// the deck, no card is lost, one coloured card starts the pile and the
// seat after the dealer plays first.
func TestAudit2EightSeatsAllSwapThenSeatOneStarts(t *testing.T) {
	s := newGame(t, 8, 42)
	for seat := 7; seat >= 0; seat-- { // the exchange order doesn't matter
		old := s.Hands[seat][0]
		must(t, s, seat, games.Act(VerbSwap, old.Code()))
		if len(s.Hands[seat]) != handSize || count(s) != 76 {
			t.Fatalf("seat %d holds %d, %d cards", seat, len(s.Hands[seat]), count(s))
		}
	}
	top, ok := s.top()
	if s.Phase != PhasePlay || s.Turn != 1 || !ok || top.Wild() || len(s.Pile.Discard) != 1 || len(s.Pile.Draw) != 76-32-1 {
		t.Fatalf("phase %s turn %d top %v draw %d", s.Phase, s.Turn, top, len(s.Pile.Draw))
	}
	clone(t, s) // the saved game passes Valid
}
