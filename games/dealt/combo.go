package dealt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is a combination's rank, lowest first.
type Kind int

const (
	Solo Kind = iota + 1
	Straight2
	Pair
	Straight3
	Trips
)

var kindTokens = map[Kind]string{Solo: "solo", Straight2: "str2", Pair: "pair", Straight3: "str3", Trips: "trips"}

// Size is how many cards the kind takes.
func (k Kind) Size() int {
	switch k {
	case Solo:
		return 1
	case Straight2, Pair:
		return 2
	}
	return 3
}

func (k Kind) straight() bool { return k == Straight2 || k == Straight3 }

// Combo is a combination as it ranks: its kind and its value (a straight's
// highest card, otherwise the value of its cards).
type Combo struct {
	Kind Kind
	Top  int
}

// Beats: a higher kind, or the same kind with a higher value.
func (c Combo) Beats(o Combo) bool {
	return c.Kind > o.Kind || c.Kind == o.Kind && c.Top > o.Top
}

// String names the combination: "Solo 8", "2-Straight 4-5", "Pair of 9s".
func (c Combo) String() string {
	switch c.Kind {
	case Solo:
		return fmt.Sprintf("Solo %d", c.Top)
	case Straight2:
		return fmt.Sprintf("2-Straight %d-%d", c.Top-1, c.Top)
	case Pair:
		return fmt.Sprintf("Pair of %ds", c.Top)
	case Straight3:
		return fmt.Sprintf("3-Straight %d-%d-%d", c.Top-2, c.Top-1, c.Top)
	case Trips:
		return fmt.Sprintf("Trips of %ds", c.Top)
	}
	return "?"
}

// values lists the values the combination's cards take, ascending.
func (c Combo) values() []int {
	out := make([]int, c.Kind.Size())
	for i := range out {
		if c.Kind.straight() {
			out[i] = c.Top - len(out) + 1 + i
		} else {
			out[i] = c.Top
		}
	}
	return out
}

// wilds returns the values the X cards among cs take to make c, ascending,
// and whether cs make c at all. Straights never wrap: 11-12-1 is no straight.
func wilds(cs []Card, c Combo) ([]int, bool) {
	if len(cs) != c.Kind.Size() || c.Top < 1 || c.Top > 12 || c.Kind.straight() && c.Top < len(cs) {
		return nil, false
	}
	need := c.values()
	for _, x := range cs {
		switch {
		case x.Face == Wild:
		case x.Number():
			i := slices.Index(need, x.Face)
			if i < 0 {
				return nil, false
			}
			need = slices.Delete(need, i, i+1)
		default:
			return nil, false
		}
	}
	return need, true // whatever the numbers left over is what the X cards say
}

// Move is one legal play: touching cards from the hand (Pos, 0-based, and
// the combination they make) or a lone Stop or Redraw.
type Move struct {
	Pos     int
	Combo   Combo // zero for a Stop or Redraw
	Special int   // Stop or Redraw, else 0
}

// Len is how many cards the move takes from the hand.
func (m Move) Len() int {
	if m.Special != 0 {
		return 1
	}
	return m.Combo.Kind.Size()
}

// Token is the move as a select value: 1-based positions joined by '.', then
// the combination ("3.4_pair_9") or the special ("7_stop").
func (m Move) Token() string {
	pos := make([]string, m.Len())
	for i := range pos {
		pos[i] = strconv.Itoa(m.Pos + i + 1)
	}
	p := strings.Join(pos, ".")
	switch m.Special {
	case Stop:
		return p + "_stop"
	case Redraw:
		return p + "_redraw"
	}
	return fmt.Sprintf("%s_%s_%d", p, kindTokens[m.Combo.Kind], m.Combo.Top)
}

// token is a play as it arrives, before it is checked against the hand.
type token struct {
	pos     []int // 0-based
	kind    Kind
	top     int
	special int
}

// parseToken reads a Token; only the grammar is checked here.
func parseToken(s string) (token, bool) {
	parts := strings.Split(s, "_")
	var t token
	for _, p := range strings.Split(parts[0], ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 99 {
			return t, false
		}
		t.pos = append(t.pos, n-1)
	}
	if len(t.pos) > 3 {
		return t, false
	}
	switch {
	case len(parts) == 2 && parts[1] == "stop":
		t.special = Stop
	case len(parts) == 2 && parts[1] == "redraw":
		t.special = Redraw
	case len(parts) == 3:
		for k, name := range kindTokens {
			if name == parts[1] {
				t.kind = k
			}
		}
		n, err := strconv.Atoi(parts[2])
		if t.kind == 0 || err != nil {
			return t, false
		}
		t.top = n
	default:
		return t, false
	}
	return t, true
}

// movesFor lists every play a hand allows against best (nil: anything goes),
// in hand order, each start position's plays from the lowest rank up.
func movesFor(hand []Card, best *Combo) []Move {
	var out []Move
	for i, c := range hand {
		if c.Special() {
			out = append(out, Move{Pos: i, Special: c.Face})
			continue
		}
		for k := Solo; k <= Trips; k++ {
			n := k.Size()
			if i+n > len(hand) {
				continue
			}
			for top := 1; top <= 12; top++ {
				cb := Combo{k, top}
				if _, ok := wilds(hand[i:i+n], cb); ok && (best == nil || cb.Beats(*best)) {
					out = append(out, Move{Pos: i, Combo: cb})
				}
			}
		}
	}
	return out
}
