package lnf

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// The oracle below is a second, independent reading of the rule text and
// RULINGS.md; it shares no code with the game beyond the State fields.

// oMatches: same number, or same colour for a coloured card (grey never
// matches by colour).
func oMatches(c, top Card) bool {
	return c.Num == top.Num || c.Color != Grey && c.Color == top.Color
}

// oPlayable: c matches the top card and, if wild, no coloured card in hand does.
func oPlayable(hand []Card, top Card, c Card) bool {
	if !oMatches(c, top) {
		return false
	}
	if c.Color != Grey {
		return true
	}
	for _, o := range hand {
		if o.Color != Grey && oMatches(o, top) {
			return false
		}
	}
	return true
}

// oMoves lists, sorted, the action keys the rules allow seat now.
func oMoves(s *State, seat int) []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	hand := s.Hands[seat]
	switch s.Phase {
	case PhaseExchange:
		if s.Decided[seat] {
			return nil
		}
		for _, c := range hand {
			add("swap=" + c.Code())
		}
		add("ready")
	case PhasePlay:
		if seat != s.Turn {
			return nil
		}
		top := s.Pile.Discard[len(s.Pile.Discard)-1]
		if s.Drawn != nil {
			if oPlayable(hand, top, *s.Drawn) {
				add("play=" + s.Drawn.Code())
			}
			add("pass")
			break
		}
		for _, c := range hand {
			if oPlayable(hand, top, c) {
				add("play=" + c.Code())
			}
		}
		if len(out) == 0 {
			add("draw")
		}
	}
	slices.Sort(out)
	return out
}

// oSaid: the typed line is the card's, ignoring case, punctuation and
// spacing, with "2", "3", "4" as good as their words.
func oSaid(c Card, text string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	got := strings.NewReplacer("2", "two", "3", "three", "4", "four").Replace(b.String())
	want := map[Card]string{DrawTwo: "drawtwo", DrawThree: "drawthree", DrawFour: "drawfour", GameOver: "gameover"}[c]
	return got == "lifeisnotfairbut"+want
}

// minus is hand without one copy of c; have reports whether c was there.
func minus(hand []Card, c Card) (rest []Card, have bool) {
	i := slices.Index(hand, c)
	if i < 0 {
		return slices.Clone(hand), false
	}
	return slices.Delete(slices.Clone(hand), i, i+1), true
}

// sameCards compares two card lists as multisets.
func sameCards(a, b []Card) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, less)
	slices.SortFunc(b, less)
	return slices.Equal(a, b)
}

// oCheckStep checks one applied move against the oracle: b is the state
// before, s after.
func oCheckStep(t *testing.T, b, s *State, seat int, a games.Action) {
	t.Helper()
	n := len(b.Names)
	nextOf := func(x int) int { return (x + 1) % n }
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s by %s (seat %d of %d): %s", a.Key(), b.Names[seat], seat, n, fmt.Sprintf(format, args...))
	}
	if count(s) != 76 {
		fail("%d cards in the game", count(s))
	}
	for o := range n { // nobody else's hand moves, bar a Draw N victim
		if o != seat && !(a.Verb == VerbPlay && o == nextOf(seat)) && !slices.Equal(b.Hands[o], s.Hands[o]) {
			fail("seat %d's hand changed", o)
		}
	}
	switch a.Verb {
	case VerbSwap, VerbReady:
		want := b.Hands[seat]
		if a.Verb == VerbSwap {
			rest, _ := minus(want, card(t, a.Arg(0)))
			want = append(rest, b.Pile.Draw[len(b.Pile.Draw)-1]) // the deck's top card
		}
		if !sameCards(s.Hands[seat], want) || !s.Decided[seat] {
			fail("hand %s, want %s", codes(s.Hands[seat]), codes(want))
		}
		if !slices.Contains(b.Decided[:seat], false) && !slices.Contains(b.Decided[seat+1:], false) {
			// Everyone has decided: one coloured card is turned, the player after the dealer starts.
			top := s.Pile.Discard[len(s.Pile.Discard)-1]
			if s.Phase != PhasePlay || s.Turn != 1 || len(s.Pile.Discard) != 1 || top.Wild() {
				fail("start: phase %s turn %d discard %s", s.Phase, s.Turn, codes(s.Pile.Discard))
			}
		} else if s.Phase != PhaseExchange {
			fail("play began before everyone decided")
		}
	case VerbPass:
		if !slices.Equal(s.Hands[seat], b.Hands[seat]) || s.Turn != nextOf(seat) || s.Drawn != nil {
			fail("turn %d", s.Turn)
		}
	case VerbDraw:
		pool := len(b.Pile.Draw) + len(b.Pile.Discard) - 1
		if pool == 0 {
			if !slices.Equal(s.Hands[seat], b.Hands[seat]) || s.Turn != nextOf(seat) {
				fail("nothing to draw, yet hand %s turn %d", codes(s.Hands[seat]), s.Turn)
			}
			break
		}
		i := slices.IndexFunc(s.Hands[seat], func(c Card) bool { rest, _ := minus(s.Hands[seat], c); return sameCards(rest, b.Hands[seat]) })
		if i < 0 {
			fail("hand %s after drawing from %s", codes(s.Hands[seat]), codes(b.Hands[seat]))
		}
		d := s.Hands[seat][i]
		if len(b.Pile.Draw) > 0 && d != b.Pile.Draw[len(b.Pile.Draw)-1] {
			fail("drew %s, not the deck's top card", d.Code())
		}
		top := b.Pile.Discard[len(b.Pile.Discard)-1]
		if oPlayable(s.Hands[seat], top, d) {
			if s.Turn != seat || s.Drawn == nil || *s.Drawn != d {
				fail("the drawn %s fits but turn %d drawn %v", d.Code(), s.Turn, s.Drawn)
			}
		} else if s.Turn != nextOf(seat) || s.Drawn != nil {
			fail("the drawn %s doesn't fit but turn %d", d.Code(), s.Turn)
		}
	case VerbPlay:
		c := card(t, a.Arg(0))
		rest, _ := minus(b.Hands[seat], c)
		if !slices.Equal(s.Hands[seat], rest) {
			fail("hand %s", codes(s.Hands[seat]))
		}
		top := s.Pile.Discard[len(s.Pile.Discard)-1]
		bTop := b.Pile.Discard[len(b.Pile.Discard)-1]
		victim := nextOf(seat)
		if victim != seat && !slices.Equal(b.Hands[victim], s.Hands[victim]) && !(c.Draws() > 0 && oSaid(c, a.Text)) {
			fail("the next player's hand changed")
		}
		switch {
		case !c.Wild():
			if top != c || len(s.Pile.Discard) != len(b.Pile.Discard)+1 {
				fail("top %s", top.Code())
			}
		case !oSaid(c, a.Text): // dead: under the top card, nothing else
			want := append(slices.Clone(b.Pile.Discard[:len(b.Pile.Discard)-1]), c, bTop)
			if !slices.Equal(s.Pile.Discard, want) || !slices.Equal(s.Pile.Draw, b.Pile.Draw) || s.Ended == endGameOver {
				fail("dead card: discard %s", codes(s.Pile.Discard))
			}
		case c.GameOver:
			if !s.Over() || s.Ender != seat || s.Ended != endGameOver {
				fail("Game Over didn't end the game")
			}
			return
		default: // Draw N: the next player draws N (what the deck has) and loses the turn
			pool := len(b.Pile.Draw) + len(b.Pile.Discard)
			got := len(s.Hands[victim]) - len(b.Hands[victim])
			if got != min(c.Draws(), pool) {
				fail("victim drew %d of %d, pool %d", got, c.Draws(), pool)
			}
			// The deck's top card is turned onto the Draw card, wild or not;
			// the Draw card stays on top only when no card was left.
			if len(rest) > 0 && top == c {
				if len(s.Pile.Draw) > 0 || len(s.Pile.Discard) > 1 {
					fail("nothing turned up with cards left: draw %s", codes(s.Pile.Draw))
				}
			} else if len(rest) > 0 && s.Pile.Discard[len(s.Pile.Discard)-2] != c {
				fail("the turned card isn't on the Draw card: %s", codes(s.Pile.Discard))
			}
			if len(rest) > 0 && (s.Turn != nextOf(victim) || s.Drawn != nil) {
				fail("turn %d, want %d", s.Turn, nextOf(victim))
			}
		}
		if len(rest) == 0 {
			if !s.Over() || s.Ender != seat || s.Ended != endOut {
				fail("the last card didn't end the game")
			}
		} else if s.Over() {
			fail("the game ended with cards left")
		} else if c.Draws() == 0 || !oSaid(c, a.Text) {
			if s.Turn != nextOf(seat) || s.Drawn != nil {
				fail("turn %d, want %d", s.Turn, nextOf(seat))
			}
		}
	}
}

// oCheckScores: going out 20, Game Over 20 less the cards left (our
// reading), everyone else 10 less the numbers left; the highest wins.
func oCheckScores(t *testing.T, s *State) {
	t.Helper()
	want := make([]int, len(s.Names))
	best := -1 << 30
	for seat, h := range s.Hands {
		switch {
		case seat == s.Ender && s.Ended == endOut:
			want[seat] = 20
		case seat == s.Ender:
			want[seat] = 20 - len(h)
		default:
			want[seat] = 10
			for _, c := range h {
				want[seat] -= c.Num
			}
		}
		best = max(best, want[seat])
	}
	for _, r := range s.Results() {
		if r.Score != want[r.Seat] || r.Winner != (want[r.Seat] == best) {
			t.Fatalf("seat %d scored %d (winner %v), want %d (best %d)", r.Seat, r.Score, r.Winner, want[r.Seat], best)
		}
	}
}

// TestRandomPlayAgainstTheRules plays seeded random games for 2–8 players
// and checks every step against the oracle: what the views offer, what
// the game refuses, what each move does, and the final scores.
func TestRandomPlayAgainstTheRules(t *testing.T) {
	ends, seen := map[string]int{}, map[string]int{}
	for seed := uint64(1); seed <= 140; seed++ { // not shortened: the coverage check below needs them all
		n := 2 + int(seed%7)
		s := newGame(t, n, seed*7919)
		r := games.NewRNG(seed)
		for step := 0; !s.Over(); step++ {
			if step > 3000 {
				t.Fatalf("seed %d: not over after %d steps", seed, step)
			}
			var moves []gamestest.Move
			for seat := range n {
				v := s.Hand(seat)
				if got, want := slices.Sorted(slices.Values(keys(v))), oMoves(s, seat); !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d seat %d: offered %v, rules allow %v", seed, step, seat, got, want)
				}
				moves = append(moves, gamestest.Offered(&r, v, seat, sayLine)...)
			}
			// Every other card in the mover's hand, and drawing with a card that fits, is refused.
			if s.Phase == PhasePlay {
				allowed := oMoves(s, s.Turn)
				for _, c := range s.Hands[s.Turn] {
					if !slices.Contains(allowed, "play="+c.Code()) {
						refused(t, s, s.Turn, "", play(c.Code(), c.line()))
					}
				}
				if !slices.Contains(allowed, "draw") {
					refused(t, s, s.Turn, "", games.Act(VerbDraw))
				}
			}
			m := moves[r.Intn(len(moves))]
			before := clone(t, s)
			must(t, s, m.Seat, m.Action)
			oCheckStep(t, before, s, m.Seat, m.Action)
			switch {
			case m.Action.Verb == VerbDraw && len(s.Hands[m.Seat]) == len(before.Hands[m.Seat]):
				seen["nothing to draw"]++
			case m.Action.Verb != VerbPlay:
				seen[m.Action.Verb]++
			case !card(t, m.Action.Arg(0)).Wild():
				seen["coloured"]++
			case !oSaid(card(t, m.Action.Arg(0)), m.Action.Text):
				seen["dead"]++
			case s.Pile.Discard[len(s.Pile.Discard)-1].Wild() && !s.Over():
				seen["draw N, nothing to turn"]++
			default:
				seen["said "+card(t, m.Action.Arg(0)).Code()]++
			}
		}
		oCheckScores(t, s)
		ends[s.Ended]++
	}
	for _, k := range []string{"swap", "ready", "draw", "pass", "coloured", "dead", "said W2", "said W3", "said W4", "said WG"} {
		if seen[k] == 0 {
			t.Errorf("no game saw %q: %v", k, seen)
		}
	}
	if ends[endOut] == 0 || ends[endGameOver] == 0 {
		t.Errorf("endings %v", ends)
	}
	t.Logf("%v %v", ends, seen)
}

// "A color match is impossible": a grey card left on top (no coloured card
// was left to turn) takes only its own number, never another grey card by
// colour.
func TestGreyNeverMatchesByColour(t *testing.T) {
	s := rigged(t, "W2", "", "W3 W4 B5", "G1", "Y2")
	if got := codes(s.legal(0)); got != "" {
		t.Fatalf("Ann may play %s on a grey 2", got)
	}
	refused(t, s, 0, "only goes on a card with the same number", play("W3", "life is not fair but draw three"))
	refused(t, s, 0, "doesn't match", play("B5", ""))
	must(t, s, 0, games.Act(VerbDraw)) // nothing to draw: the turn passes
	// Game Over has a 2 on it, so it may go on the grey 2.
	s = rigged(t, "W2", "", "WG W4 B5", "G1", "Y2")
	if got := codes(s.legal(0)); got != "WG" {
		t.Fatalf("Ann may play %s", got)
	}
	must(t, s, 0, play("WG", "life is not fair, but game over"))
	if !s.Over() || s.Ended != endGameOver {
		t.Fatal("Game Over on a grey 2 didn't end the game")
	}
}

// "The special Game Over card has a number two on it and can be played on
// top of a card of any color which has a two on it", and like every wild
// only when nothing coloured fits.
func TestGameOverOnlyOnATwo(t *testing.T) {
	for _, top := range []string{"R2", "G2", "B2", "Y2"} {
		s := rigged(t, top, "R1", "WG B5", "G1")
		if top == "B2" {
			s.Hands[0] = cards(t, "R5 WG") // nothing coloured fits
		}
		must(t, s, 0, play("WG", "Life is not fair, but game over"))
		if !s.Over() || s.Ender != 0 {
			t.Fatalf("Game Over on %s didn't end the game", top)
		}
	}
	for _, top := range []string{"R3", "G4", "Y1", "B9"} {
		s := rigged(t, top, "R1", "WG R5", "G1")
		s.Hands[0] = cards(t, "WG") // only the wild, and it doesn't match
		refused(t, s, 0, "only goes on a card with the same number", play("WG", "life is not fair but game over"))
	}
	s := rigged(t, "Y2", "R1", "WG Y7", "G1")
	refused(t, s, 0, "Wild cards only when nothing else fits: you can play 🟨 Yellow 7", play("WG", "life is not fair but game over"))
	s = rigged(t, "Y2", "R1", "WG R2", "G1")
	refused(t, s, 0, "Wild cards only when nothing else fits: you can play 🟥 Red 2", play("WG", "life is not fair but game over"))
}

// Play goes round the table from the player after the dealer, for every
// table size the game allows.
func TestTurnOrderForEveryPlayerCount(t *testing.T) {
	for n := minPlayers; n <= maxPlayers; n++ {
		s := newGame(t, n, uint64(n))
		for seat := range n {
			if len(s.Hands[seat]) != handSize {
				t.Fatalf("%d players: seat %d holds %d cards", n, seat, len(s.Hands[seat]))
			}
			must(t, s, seat, games.Act(VerbReady))
		}
		if s.Turn != 1 || count(s) != 76 || len(s.Pile.Draw) != 76-4*n-1 {
			t.Fatalf("%d players: turn %d, deck %d", n, s.Turn, len(s.Pile.Draw))
		}
		// Everyone plays a red card in turn: 1, 2, …, n−1, 0, 1.
		hands := make([]string, n)
		for i := range hands {
			hands[i] = "R5 R6"
		}
		s = rigged(t, "R9", "B1", hands...)
		s.Turn = 1
		for i := range n + 1 {
			want := (1 + i) % n
			if s.Turn != want {
				t.Fatalf("%d players, move %d: seat %d to play, want %d", n, i, s.Turn, want)
			}
			refused(t, s, (want+1)%n, "turn", play("R5", ""))
			must(t, s, want, play(s.Hands[want][0].Code(), ""))
		}
	}
}

// A Draw card from the last seat hits the first, and the second plays next.
func TestDrawNWrapsAroundTheTable(t *testing.T) {
	s := rigged(t, "Y3", "R1 R2 B7 B8 B9", "G1 G2", "G3", "G4", "W3 R5")
	s.Turn = 3
	must(t, s, 3, play("W3", "Life is not fair, but draw three"))
	if codes(s.Hands[0]) != "G1 G2 B7 B8 B9" || len(s.Hands[1]) != 1 || len(s.Hands[2]) != 1 {
		t.Fatalf("hands %v", s.Hands)
	}
	if top, _ := s.top(); top != card(t, "R2") || s.Turn != 1 {
		t.Fatalf("top %v, turn %d", top, s.Turn)
	}
}
