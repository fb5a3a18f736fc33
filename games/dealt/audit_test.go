package dealt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Scenario tests for rules the other tests left unplayed, and a random-play
// check of the rules that hold at every step.

// Playing cards closes the gap: the cards on either side now touch, and the
// rest of the hand keeps its order.
func TestPlayingClosesTheGapInTheHand(t *testing.T) {
	s := rigged(t, 0, "7 3 8 5", "2 | 1", "1 | 2")
	refused(t, s, 0, "Those cards don't touch", VerbPlay, "1.3_str2_8")
	must(t, s, 0, VerbPlay, "2_solo_3")
	if got := faces(s.Players[0].Hand); got != "7 8 5" {
		t.Fatalf("Ann's hand %s, want 7 8 5", got)
	}
	must(t, s, 1, VerbRes, s.Players[1].Reserve[0].Code()+".0")
	must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".0")
	if s.Leader != 0 {
		t.Fatalf("Ann's Solo 3 was highest, but %d leads", s.Leader)
	}
	must(t, s, 0, VerbPlay, "1.2_str2_8")
	if got := faces(s.Players[0].Hand); got != "5" {
		t.Fatalf("Ann's hand %s, want 5", got)
	}
}

// "Can't—or don't want to": a player who could beat the trick may take a
// reserve card instead, anywhere in their hand.
func TestTakingAReserveInsteadOfBeating(t *testing.T) {
	s := rigged(t, 0, "5 1", "9 2 | 4 6", "1 | 2")
	must(t, s, 0, VerbPlay, "1_solo_5")
	if !slices.Contains(tokens(s.Hand(1)), "1_solo_9") {
		t.Fatalf("Bea can beat the 5 with her 9: %q", tokens(s.Hand(1)))
	}
	must(t, s, 1, VerbRes, s.Players[1].Reserve[1].Code()+".1")
	if got := faces(s.Players[1].Hand); got != "9 6 2" || faces(s.Players[1].Reserve) != "4" {
		t.Fatalf("Bea's hand %s reserve %s", got, faces(s.Players[1].Reserve))
	}
	if s.Turn != 2 || len(s.Trick) != 2 {
		t.Fatalf("turn %d, trick %v", s.Turn, s.Trick)
	}
}

// An X counts as the value named for it, and the table is told.
func TestWildCountsAsTheNamedValue(t *testing.T) {
	s := rigged(t, 0, "X 1", "9 10 | 1", "11 X 11 | 2")
	evs := must(t, s, 0, VerbPlay, "1_solo_9")
	if !strings.Contains(events(evs), "Ann plays X: Solo 9 (X as 9)") {
		t.Errorf("events: %s", events(evs))
	}
	refused(t, s, 1, "A Solo 9 doesn't beat a Solo 9", VerbPlay, "1_solo_9")
	must(t, s, 1, VerbPlay, "2_solo_10")
	evs = must(t, s, 2, VerbPlay, "1.2.3_trips_11")
	if !strings.Contains(events(evs), "Cat plays 11 X 11: Trips of 11s (X as 11)") {
		t.Errorf("events: %s", events(evs))
	}
}

// A Stop needs to beat nothing (not even Trips), ends the trick before the
// others have acted, and its player leads; led, it ends the trick at once.
func TestStopBeatsNothingAndEndsTheTrick(t *testing.T) {
	s := rigged(t, 0, "12 12 12 1", "S 2 S 3", "4 5 | 6")
	must(t, s, 0, VerbPlay, "1.2.3_trips_12")
	if !slices.Contains(tokens(s.Hand(1)), "1_stop") {
		t.Fatalf("Bea isn't offered her Stop against Trips: %q", tokens(s.Hand(1)))
	}
	evs := must(t, s, 1, VerbPlay, "1_stop")
	if len(s.Trick) != 0 || s.Leader != 1 || s.Turn != 1 || faces(s.Players[2].Hand) != "4 5" || len(s.Pile.Discard) != 4 {
		t.Fatalf("after the Stop: trick %v leader %d, Cat %s, discards %d", s.Trick, s.Leader, faces(s.Players[2].Hand), len(s.Pile.Discard))
	}
	if !strings.Contains(events(evs), "Bea's Stop ends the trick: Bea leads the next trick") {
		t.Errorf("events: %s", events(evs))
	}
	// Bea leads her other Stop: nobody else acts, and she leads again.
	must(t, s, 1, VerbPlay, "2_stop")
	if len(s.Trick) != 0 || s.Leader != 1 || s.Turn != 1 || faces(s.Players[1].Hand) != "2 3" {
		t.Fatalf("after the led Stop: trick %v leader %d, Bea %s", s.Trick, s.Leader, faces(s.Players[1].Hand))
	}
}

// Both Redraws in a trick with combinations: the highest draws six.
func TestBothRedrawsGiveTheHighestSix(t *testing.T) {
	s := rigged(t, 0, "5 1", "R 1", "7 1", "R 1")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbPlay, "1_solo_7")
	evs := must(t, s, 3, VerbPlay, "1_redraw")
	if !strings.Contains(events(evs), "Cat's Solo 7 was highest: Cat draws 6 cards") {
		t.Errorf("events: %s", events(evs))
	}
	for s.Drawing != nil {
		if s.Drawing.Seat != 2 || s.Drawing.Total != 6 {
			t.Fatalf("drawing %+v", s.Drawing)
		}
		must(t, s, 2, VerbPut, "0")
	}
	if len(s.Players[2].Hand) != 7 || s.Leader != 2 || s.Turn != 2 {
		t.Fatalf("Cat's hand %d, leader %d", len(s.Players[2].Hand), s.Leader)
	}
}

// The highest combination of a trick with a Redraw was its player's last
// card: they draw all the same and lead (not the second-highest), and the
// round goes on though only one other player held cards at the trick's end.
func TestRedrawRefillsTheHighestWhoWentOut(t *testing.T) {
	s := rigged(t, 0, "5 1", "9", "R")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_9")
	must(t, s, 2, VerbPlay, "1_redraw")
	if s.Drawing == nil || s.Drawing.Seat != 1 || s.Round != 1 {
		t.Fatalf("drawing %+v, round %d", s.Drawing, s.Round)
	}
	for s.Drawing != nil {
		must(t, s, 1, VerbPut, "0")
	}
	if s.Round != 1 || len(s.Players[1].Hand) != 3 || s.Leader != 1 || s.Players[0].Chips != 2 {
		t.Fatalf("round %d, Bea's hand %d, leader %d", s.Round, len(s.Players[1].Hand), s.Leader)
	}
}

// A Redraw with too few cards left: the discards (this trick's cards
// included) are shuffled into a new draw pile part-way through.
func TestRedrawReshufflesTheDiscards(t *testing.T) {
	s := rigged(t, 0, "5 1", "R 1", "7 1")
	s.Pile.Discard, s.Pile.Draw = slices.Clone(s.Pile.Draw[:len(s.Pile.Draw)-1]), slices.Clone(s.Pile.Draw[len(s.Pile.Draw)-1:])
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbPlay, "1_solo_7")
	if s.Drawing == nil || s.Drawing.Seat != 2 || len(s.Pile.Draw) != 0 {
		t.Fatalf("drawing %+v, pile %d", s.Drawing, len(s.Pile.Draw))
	}
	evs := must(t, s, 2, VerbPut, "0")
	if !strings.Contains(events(evs), "The draw pile ran out: the discards are shuffled into a new one.") || len(s.Pile.Discard) != 0 {
		t.Fatalf("events: %s, discards %d", events(evs), len(s.Pile.Discard))
	}
	for s.Drawing != nil {
		must(t, s, 2, VerbPut, "0")
	}
	if len(s.Players[2].Hand) != 4 || s.Leader != 2 {
		t.Fatalf("Cat's hand %d, leader %d", len(s.Players[2].Hand), s.Leader)
	}
	if err := s.Valid(); err != nil {
		t.Fatal(err)
	}
}

// Five players: an empty hand is safe though reserves are left, such a
// player is skipped, and the last one holding cards pays, leads, and the
// new round deals 7 cards and 2 reserves each from all 54.
func TestReservesDontKeepYouInTheRound(t *testing.T) {
	s := rigged(t, 0, "5 | 1 2", "6 | 3 4", " | 7 8", "7 | 9 10", "1 3 | 11 12")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_6")
	if s.Turn != 3 {
		t.Fatalf("Cat holds only reserves and is skipped, but turn is %d", s.Turn)
	}
	must(t, s, 3, VerbPlay, "1_solo_7")
	if s.Round != 1 || s.Turn != 4 {
		t.Fatalf("Eve must still answer the trick: round %d, turn %d", s.Round, s.Turn)
	}
	evs := must(t, s, 4, VerbRes, s.Players[4].Reserve[0].Code()+".0")
	if !strings.Contains(events(evs), "Eve is the last player holding cards. Eve gives up a chip and has 1 left") {
		t.Errorf("events: %s", events(evs))
	}
	var chips []int
	for _, p := range s.Players {
		chips = append(chips, p.Chips)
		if len(p.Hand) != 7 || len(p.Reserve) != 2 {
			t.Errorf("new round: hand %d reserve %d", len(p.Hand), len(p.Reserve))
		}
	}
	if !slices.Equal(chips, []int{2, 2, 2, 2, 1}) || s.Round != 2 || s.Leader != 4 || len(s.Pile.Draw) != 54-5*9 || len(s.Pile.Discard) != 0 {
		t.Fatalf("chips %v, round %d, leader %d, pile %d/%d", chips, s.Round, s.Leader, len(s.Pile.Draw), len(s.Pile.Discard))
	}
}

// Everyone still in runs out in one trick, the last of them with a Stop:
// all but the highest combination pay, and the host leads the next round.
func TestEveryoneOutWithAStopAllButTheHighestPay(t *testing.T) {
	s := rigged(t, 1, "S", "5", "9")
	must(t, s, 1, VerbPlay, "1_solo_5")
	must(t, s, 2, VerbPlay, "1_solo_9")
	evs := must(t, s, 0, VerbPlay, "1_stop")
	chips := []int{s.Players[0].Chips, s.Players[1].Chips, s.Players[2].Chips}
	if !slices.Equal(chips, []int{1, 1, 2}) || s.Round != 2 || s.Leader != 0 {
		t.Fatalf("chips %v, round %d, leader %d: %s", chips, s.Round, s.Leader, events(evs))
	}
}

// A Stop that cuts the trick short can leave one player holding cards who
// never acted: the round ends there and they pay.
func TestStopLeavingOneHolderEndsTheRound(t *testing.T) {
	s := rigged(t, 0, "5", "S", "3 3 | 1")
	must(t, s, 0, VerbPlay, "1_solo_5")
	evs := must(t, s, 1, VerbPlay, "1_stop")
	if s.Round != 2 || s.Players[2].Chips != 1 || s.Leader != 2 {
		t.Fatalf("round %d, Cat's chips %d, leader %d: %s", s.Round, s.Players[2].Chips, s.Leader, events(evs))
	}
}

// A chip owed by a player with none ends the game at three chips too.
func TestThreeChipGameEndsOnTheFourthLoss(t *testing.T) {
	g, err := New(games.Setup{Players: names[:3], Seed: 5, Options: map[string]int{OptChips: 3}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.(*State)
	for lost := 1; lost <= 4; lost++ {
		// Rig the new round: Bea leads a Pair of 8s Cat can't beat, Cat has no reserve.
		x := rigged(t, 1, "1 | 2", "8 8 1", "3 4 1")
		x.Chips, x.Round = 3, s.Round
		for i := range x.Players {
			x.Players[i].Chips = s.Players[i].Chips
		}
		s = x
		must(t, s, 1, VerbPlay, "1.2_pair_8")
		must(t, s, 2, VerbLose)
		if over := lost == 4; s.Over() != over || s.Players[2].Chips != max(3-lost, 0) {
			t.Fatalf("after loss %d: over %v, Cat's chips %d", lost, s.Over(), s.Players[2].Chips)
		}
	}
	if !slices.Equal(s.Losers, []int{2}) {
		t.Fatalf("losers %v", s.Losers)
	}
}

// TestRandomPlayKeepsTheRules plays seeded random games (3–5 players) and
// checks at every step what the rules require of any move: the actor holds
// cards and hasn't acted in the trick; a hand only loses a block of touching
// cards or gains one card where its owner put it; a combination is made of
// its cards and beats the trick; giving up happens only with nothing else to
// do; a round's payers give one chip each and the sole payer (else the
// host) leads the fresh deal.
func TestRandomPlayKeepsTheRules(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		for seed := range uint64(seedsFor(20)) {
			g, err := New(games.Setup{Players: names[:n], Seed: seed, Options: map[string]int{OptChips: 2 + int(seed%2)}})
			if err != nil {
				t.Fatal(err)
			}
			s := g.(*State)
			r := games.NewRNG(seed + 1000)
			for step := 0; !s.Over(); step++ {
				if step > 20000 {
					t.Fatalf("%d players, seed %d: no end after %d steps", n, seed, step)
				}
				checkStep(t, s, &r, fmt.Sprintf("%d players, seed %d, step %d", n, seed, step))
			}
		}
	}
}

func checkStep(t *testing.T, s *State, r *games.RNG, where string) {
	t.Helper()
	seat := s.actor()
	if s.Drawing == nil && (!s.holds(seat) || s.acted(seat)) {
		t.Fatalf("%s: seat %d acts with %d cards, acted %v", where, seat, len(s.Players[seat].Hand), s.acted(seat))
	}
	verb, arg := randomAction(s, seat, r)
	top := s.toBeat()
	round := s.Round
	hands := make([][]Card, len(s.Players))
	chips := make([]int, len(s.Players))
	for i, p := range s.Players {
		hands[i], chips[i] = slices.Clone(p.Hand), p.Chips
	}
	var reserveCard Card
	if verb == VerbRes {
		reserveCard, _ = ParseCard(strings.Split(arg, ".")[0])
	}
	var drawn Card
	if s.Drawing != nil {
		drawn = s.Drawing.Card
	}
	if verb == VerbLose && (len(s.Players[seat].Reserve) > 0 || canAnswer(hands[seat], top)) {
		t.Fatalf("%s: seat %d may give up holding %s, reserves %s, against %v", where, seat, faces(hands[seat]), faces(s.Players[seat].Reserve), top)
	}
	args := []string{arg}
	if verb == VerbLose {
		args = nil
	}
	evs := must(t, s, seat, verb, args...)
	if err := s.Valid(); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if s.Round != round || s.Over() {
		var paid []int
		for i, p := range s.Players {
			switch d := chips[i] - p.Chips; {
			case d == 1:
				paid = append(paid, i)
			case d == 0 && slices.Contains(s.Losers, i):
				paid = append(paid, i) // owed a chip with none left
			case d != 0:
				t.Fatalf("%s: seat %d went from %d to %d chips", where, i, chips[i], p.Chips)
			}
		}
		if len(paid) == 0 || verb == VerbLose && !slices.Equal(paid, []int{seat}) {
			t.Fatalf("%s: %v paid after %s by %d", where, paid, verb, seat)
		}
		if !s.Over() {
			lead := 0
			if len(paid) == 1 {
				lead = paid[0]
			}
			if s.Leader != lead || s.Turn != lead || len(s.Trick) != 0 {
				t.Fatalf("%s: new round led by %d, want %d", where, s.Leader, lead)
			}
		}
		return
	}
	for i, p := range s.Players {
		want := hands[i]
		if i == seat {
			switch verb {
			case VerbPlay:
				m, ok := playedMove(hands[i], arg)
				if !ok {
					t.Fatalf("%s: seat %d played %s from %s", where, i, arg, faces(hands[i]))
				}
				if m.Special == 0 && (!madeOf(hands[i][m.Pos:m.Pos+m.Len()], m.Combo) || top != nil && !outranks(m.Combo, *top)) {
					t.Fatalf("%s: %s from %s against %v", where, arg, faces(hands[i]), top)
				}
				want = slices.Delete(slices.Clone(want), m.Pos, m.Pos+m.Len())
			case VerbRes:
				g, _ := strconv.Atoi(strings.Split(arg, ".")[1])
				want = slices.Insert(slices.Clone(want), g, reserveCard)
			case VerbPut:
				g, _ := strconv.Atoi(arg)
				want = slices.Insert(slices.Clone(want), g, drawn)
			}
		}
		if !slices.Equal(p.Hand, want) {
			t.Fatalf("%s: after %s %s seat %d holds %s, want %s", where, verb, arg, i, faces(p.Hand), faces(want))
		}
	}
	if len(s.Trick) == 0 && s.Drawing == nil && !s.holds(s.Leader) {
		t.Fatalf("%s: after %s %s by %d, seat %d leads with no cards: %s", where, verb, arg, seat, s.Leader, events(evs))
	}
}

// randomAction picks one of the actor's moves: a legal play, a reserve card
// to a random place, a random place for a drawn card, or giving up.
func randomAction(s *State, seat int, r *games.RNG) (string, string) {
	p := s.Players[seat]
	if s.Drawing != nil {
		return VerbPut, strconv.Itoa(r.Intn(len(p.Hand) + 1))
	}
	var opts [][2]string
	for _, m := range s.moves(seat) {
		opts = append(opts, [2]string{VerbPlay, m.Token()})
	}
	if len(s.Trick) > 0 {
		for _, c := range p.Reserve {
			opts = append(opts, [2]string{VerbRes, fmt.Sprintf("%s.%d", c.Code(), r.Intn(len(p.Hand)+1))})
		}
	}
	if len(opts) == 0 {
		return VerbLose, ""
	}
	o := opts[r.Intn(len(opts))]
	return o[0], o[1]
}

// playedMove reads a play token's positions back against the hand.
func playedMove(hand []Card, tok string) (Move, bool) {
	t, ok := parseToken(tok)
	if !ok || t.pos[len(t.pos)-1] >= len(hand) {
		return Move{}, false
	}
	return Move{Pos: t.pos[0], Combo: Combo{t.kind, t.top}, Special: t.special}, true
}

// madeOf checks, independently of wilds, that the cards are the
// combination: the values it needs, each number card filling one and an X
// any one left.
func madeOf(cs []Card, c Combo) bool {
	size := map[Kind]int{Solo: 1, Straight2: 2, Pair: 2, Straight3: 3, Trips: 3}[c.Kind]
	if len(cs) != size || c.Top > 12 {
		return false
	}
	need := map[int]int{}
	for i := range size {
		v := c.Top
		if c.Kind == Straight2 || c.Kind == Straight3 {
			v = c.Top - i
		}
		if v < 1 {
			return false
		}
		need[v]++
	}
	for _, x := range cs {
		switch {
		case x.Face == Wild:
		case x.Face >= 1 && x.Face <= 12 && need[x.Face] > 0:
			need[x.Face]--
		default:
			return false
		}
	}
	return true
}

// outranks is the text's order: Solo, 2-Straight, Pair, 3-Straight, Trips,
// then the higher value within a kind.
func outranks(a, b Combo) bool {
	order := []Kind{Solo, Straight2, Pair, Straight3, Trips}
	ia, ib := slices.Index(order, a.Kind), slices.Index(order, b.Kind)
	return ia > ib || ia == ib && a.Top > b.Top
}

// canAnswer: some run of touching cards beats best, or a Stop or Redraw is
// in hand.
func canAnswer(hand []Card, best *Combo) bool {
	for i, c := range hand {
		if c.Special() {
			return true
		}
		for _, k := range []Kind{Solo, Straight2, Pair, Straight3, Trips} {
			size := map[Kind]int{Solo: 1, Straight2: 2, Pair: 2, Straight3: 3, Trips: 3}[k]
			for top := 1; top <= 12 && i+size <= len(hand); top++ {
				if madeOf(hand[i:i+size], Combo{k, top}) && (best == nil || outranks(Combo{k, top}, *best)) {
					return true
				}
			}
		}
	}
	return false
}

// Every run of 1–3 faces offers exactly the combinations madeOf (written
// apart from wilds) finds, and a lone Stop or Redraw offers only itself.
func TestMovesAreExactlyTheCombinations(t *testing.T) {
	kinds := []Kind{Solo, Straight2, Pair, Straight3, Trips}
	var walk func(hand []Card)
	walk = func(hand []Card) {
		if len(hand) > 0 {
			var want, got []Move
			for _, k := range kinds {
				for top := 1; top <= 12; top++ {
					if k.Size() == len(hand) && madeOf(hand, Combo{k, top}) {
						want = append(want, Move{Combo: Combo{k, top}})
					}
				}
			}
			if len(hand) == 1 && hand[0].Special() {
				want = append(want, Move{Special: hand[0].Face})
			}
			for _, m := range movesFor(hand, nil) {
				if m.Pos == 0 && m.Len() == len(hand) {
					got = append(got, m)
				}
			}
			if !slices.Equal(want, got) {
				t.Fatalf("%s: moves %v, want %v", faces(hand), got, want)
			}
		}
		if len(hand) < 3 {
			for f := 1; f <= Stop; f++ {
				walk(append(slices.Clone(hand), Card{Face: f}))
			}
		}
	}
	walk(nil)
}

// "If all players take one of their Reserve Cards (or if one of them plays
// the second Redraw Card or a Stop Card), you take the Redraw Card(s)":
// both Redraws and then a Stop, the leader draws six and leads.
func TestRedrawLeadThenSecondRedrawThenStop(t *testing.T) {
	s := rigged(t, 0, "R 1 | 2", "R 3 | 4", "S 5 | 6")
	must(t, s, 0, VerbPlay, "1_redraw")
	must(t, s, 1, VerbPlay, "1_redraw")
	must(t, s, 2, VerbPlay, "1_stop")
	if s.Drawing == nil || s.Drawing.Seat != 0 || s.Drawing.Total != 6 {
		t.Fatalf("drawing %+v, want Ann drawing 6", s.Drawing)
	}
	for s.Drawing != nil {
		must(t, s, 0, VerbPut, "0")
	}
	if len(s.Players[0].Hand) != 7 || s.Leader != 0 || s.Turn != 0 || s.Round != 1 {
		t.Fatalf("Ann's hand %d, leader %d, round %d", len(s.Players[0].Hand), s.Leader, s.Round)
	}
}
