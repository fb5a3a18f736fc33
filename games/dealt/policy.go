package dealt

import (
	"strconv"
	"strings"
	"sync"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// Policies are Dealt!'s computer players, by name (ai.Random is always
// available besides).
var Policies = map[string]ai.Policy{
	ai.SensibleName: Sensible,
}

// Sensible keeps straights and pairs intact, spends reserves late and uses
// Stop and Redraw well. It reads only the seat's views: its hand (the
// field listing it in order), the plays its menus offer (tokens such as
// "3.4_pair_9" carry positions and combination), the places its reserve and
// redraw menus offer, and the table's trick (whose combination is on top).
//
// It judges a hand by how many plays it takes to empty it: the fewest
// touching combinations it splits into (a Stop or Redraw is a play of its
// own), the stronger the combinations the better. Then:
//   - Every play is judged by the hand it leaves. Answering, it beats with
//     the play that leaves the best hand, the cheapest combination among
//     equals, so high combinations stay for later; leading, the same with
//     the lowest combination among equals.
//   - A reserve card is taken only when no combination beats the trick, and
//     put where it leaves the best hand (next to a matching or adjacent
//     value). Before that comes a Redraw, when someone else's combination
//     tops the trick (its owner draws three), then a Stop (it sheds a card
//     and gives the lead).
//   - It never leads with a Stop or a Redraw while it holds anything else.
//   - Redrawn cards go where they leave the best hand.
var Sensible ai.Policy = ai.Func(sensible)

// Tuning: a hand's worth is −(plays to empty it) + strengthW × (the
// strength of the combinations it splits into); a reserve card taken costs
// reserveCost plays more than the hand it leaves (it is a lifeline spent);
// tieW orders equal plays by their combination's strength (answering: the
// cheapest first, leading: the lowest first).
const (
	strengthW   = 0.002
	reserveCost = 1.0
	tieW        = 0.0001
	leadLow     = true
)

// faceOf reads a card as its owner's view writes it ("🔴7", "🟢X",
// "🔵Stop"); ok is false for anything else.
func faceOf(s string) (int, bool) {
	s = strings.TrimSpace(s)
	for _, m := range copyMarks {
		s = strings.TrimPrefix(s, m)
	}
	s = strings.Trim(s, "*")
	switch s {
	case "X":
		return Wild, true
	case "Redraw":
		return Redraw, true
	case "Stop":
		return Stop, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 12 {
		return 0, false
	}
	return n, true
}

// readHand reads the seat's hand, in order, from its hand view.
func readHand(hand games.View) []int {
	f, ok := ai.FieldWithPrefix(hand, "Your hand")
	if !ok {
		return nil
	}
	var out []int
	for _, part := range strings.Split(f.Value, " · ") {
		_, card, ok := strings.Cut(part, "` ")
		if !ok {
			continue
		}
		if face, ok := faceOf(card); ok {
			out = append(out, face)
		}
	}
	return out
}

// drawnFace reads the card a Redraw gave the seat from the prompt.
func drawnFace(hand games.View) (int, bool) {
	_, rest, ok := strings.Cut(hand.Description, "place the card you drew, **")
	if !ok {
		return 0, false
	}
	name, _, ok := strings.Cut(rest, "**")
	if !ok {
		return 0, false
	}
	return faceOf(name)
}

// someoneElseOnTop reports whether the trick's top combination (marked ⭐
// on the table) belongs to another seat.
func someoneElseOnTop(table games.View, seat int) bool {
	trick, ok := ai.FieldWithPrefix(table, "Trick")
	if !ok {
		return false
	}
	players, ok := ai.FieldWithPrefix(table, "Players")
	if !ok {
		return false
	}
	lines := strings.Split(players.Value, "\n")
	if seat < 0 || seat >= len(lines) {
		return false
	}
	_, rest, _ := strings.Cut(lines[seat], "**")
	me, _, _ := strings.Cut(rest, "**")
	for _, l := range strings.Split(trick.Value, "\n") {
		if strings.HasSuffix(l, "⭐") {
			return !strings.HasPrefix(l, me+":")
		}
	}
	return false
}

// strength ranks a combination (1 for the weakest Solo up to 60).
func strength(c Combo) int { return (int(c.Kind)-1)*12 + c.Top }

// segment is the best combination cs make, with its strength (a Stop or
// Redraw alone: a free play, as strong as a high pair); ok is false when
// they make none.
func segment(cs []int) (int, bool) {
	segOnce.Do(fillSegments)
	k := 0
	for _, f := range cs {
		k = k*16 + f
	}
	v := segTable[len(cs)-1][k]
	return v, v > 0
}

// segTable caches segment: [len−1][faces as base-16 digits], 0 for none.
var (
	segOnce  sync.Once
	segTable [3][]int
)

func fillSegments() {
	for n := 1; n <= 3; n++ {
		size := 1 << (4 * n)
		segTable[n-1] = make([]int, size)
		for k := range size {
			cs := make([]int, n)
			ok := true
			for i, x := n-1, k; i >= 0; i, x = i-1, x/16 {
				cs[i] = x % 16
				ok = ok && cs[i] >= 1
			}
			if ok {
				if v, fits := segmentOf(cs); fits {
					segTable[n-1][k] = v
				}
			}
		}
	}
}

func segmentOf(cs []int) (int, bool) {
	if len(cs) == 1 && (cs[0] == Stop || cs[0] == Redraw) {
		return strength(Combo{Pair, 10}), true
	}
	cards := make([]Card, len(cs))
	for i, f := range cs {
		if f == Stop || f == Redraw {
			return 0, false
		}
		cards[i] = Card{Face: f}
	}
	best, ok := 0, false
	for k := Solo; k <= Trips; k++ {
		for top := 12; top >= 1; top-- {
			if _, fits := wilds(cards, Combo{k, top}); fits {
				best, ok = max(best, strength(Combo{k, top})), true
				break
			}
		}
	}
	return best, ok
}

// worth is how good a hand is: minus the fewest touching combinations it
// splits into, plus a little for their strength.
func worth(hand []int) float64 {
	const none = 1e9
	best := make([]float64, len(hand)+1)
	for i := 1; i <= len(hand); i++ {
		best[i] = none
		for n := 1; n <= 3 && n <= i; n++ {
			st, ok := segment(hand[i-n : i])
			if !ok || best[i-n] >= none {
				continue
			}
			if v := best[i-n] + 1 - strengthW*float64(st); v < best[i] {
				best[i] = v
			}
		}
	}
	return -best[len(hand)]
}

func without(hand []int, pos, n int) []int {
	out := append([]int{}, hand[:pos]...)
	return append(out, hand[pos+n:]...)
}

func with(hand []int, at, face int) []int {
	out := append([]int{}, hand[:at]...)
	out = append(out, face)
	return append(out, hand[at:]...)
}

// candidate is one action the view offers and how good it is.
type candidate struct {
	act   games.Action
	score float64
}

func sensible(_ *games.RNG, table, hand games.View, seat int) (games.Action, bool) {
	cards := readHand(hand)
	lead := strings.HasPrefix(hand.Description, "**Your lead.")
	var combos, specials, others []candidate
	var redraw, stop *candidate
	for _, ch := range hand.Choices {
		for _, o := range ch.Options {
			act := games.Action{Verb: ch.Verb, Args: []string{o.Value}}
			switch baseVerb(ch.Verb) {
			case VerbPlay:
				t, ok := parseToken(o.Value)
				if !ok || len(t.pos) == 0 || t.pos[0]+len(t.pos) > len(cards) {
					continue
				}
				after := worth(without(cards, t.pos[0], len(t.pos)))
				if t.special != 0 {
					c := candidate{act, after}
					specials = append(specials, c)
					if t.special == Redraw {
						redraw = &c
					} else {
						stop = &c
					}
					continue
				}
				tie := float64(strength(Combo{t.kind, t.top}))
				if lead && !leadLow {
					tie = -tie
				}
				combos = append(combos, candidate{act, after - tieW*tie})
			case VerbRes:
				code, at, _ := strings.Cut(o.Value, ".")
				c, err := ParseCard(code)
				g, err2 := strconv.Atoi(at)
				if err != nil || err2 != nil || g > len(cards) {
					continue
				}
				others = append(others, candidate{act, worth(with(cards, g, c.Face)) - reserveCost})
			case VerbPut:
				face, ok := drawnFace(hand)
				g, err := strconv.Atoi(o.Value)
				if !ok || err != nil || g > len(cards) {
					continue
				}
				others = append(others, candidate{act, worth(with(cards, g, face))})
			case VerbFrom:
				// A hand too long for the play menus: start where the best
				// play of any kind starts (the next view lists what beats).
				pos, err := strconv.Atoi(o.Value)
				if err != nil || pos < 1 || pos > len(cards) {
					continue
				}
				score := -1e9
				for n := 1; n <= 3 && pos-1+n <= len(cards); n++ {
					if _, ok := segment(cards[pos-1 : pos-1+n]); ok {
						score = max(score, worth(without(cards, pos-1, n)))
					}
				}
				combos = append(combos, candidate{act, score})
			}
		}
	}
	// Long hands: a button per reserve card opens its places.
	for _, b := range ai.Buttons(hand, VerbTake) {
		c, err := ParseCard(b.Action.Arg(0))
		if err != nil {
			continue
		}
		score := -1e9
		for g := 0; g <= len(cards); g++ {
			score = max(score, worth(with(cards, g, c.Face)))
		}
		others = append(others, candidate{b.Action, score - reserveCost})
	}
	switch {
	case len(combos) > 0:
		return pick(combos), true
	case !lead && redraw != nil && someoneElseOnTop(table, seat):
		return redraw.act, true
	case !lead && stop != nil:
		return stop.act, true
	case len(others) > 0:
		return pick(others), true
	case stop != nil:
		return stop.act, true
	case len(specials) > 0:
		return specials[0].act, true
	}
	if a, ok := ai.Has(hand, VerbLose); ok {
		return a, true
	}
	return games.Action{}, false
}

// pick is the best candidate (the first among equals).
func pick(cs []candidate) games.Action {
	best := cs[0]
	for _, c := range cs[1:] {
		if c.score > best.score {
			best = c
		}
	}
	return best.act
}
