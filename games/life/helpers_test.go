package life

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

var names = []string{"Ann", "Bea", "Cy", "Dov", "Eli", "Fay"}

// newGame deals a game for n players with the given options.
func newGame(t *testing.T, n int, opts map[string]int, seed uint64) *State {
	t.Helper()
	g, err := New(games.Setup{Players: names[:n], Options: opts, Seed: seed})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g.(*State)
}

// started deals and opens Childhood.
func started(t *testing.T, n int, opts map[string]int) *State {
	t.Helper()
	st := newGame(t, n, opts, 7)
	apply(t, st, 0, "begin")
	return st
}

func card(t *testing.T, code string) games.Card {
	t.Helper()
	c, err := games.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// setBoard gives seat six advantages; a leading "-" marks a face-down card.
func setBoard(t *testing.T, st *State, seat int, codes ...string) {
	t.Helper()
	if len(codes) != 6 {
		t.Fatalf("setBoard needs 6 cards, got %d", len(codes))
	}
	for i, code := range codes {
		up := !strings.HasPrefix(code, "-")
		st.Boards[seat][i] = Slot{Card: card(t, strings.TrimPrefix(code, "-")), Up: up}
	}
}

// setChallenge replaces the current challenge card.
func setChallenge(t *testing.T, st *State, code string) {
	t.Helper()
	c := card(t, code)
	st.Challenge = &c
}

// diceSeeds caches, for each pair of dice, an RNG seed whose next two D6
// rolls are that pair.
var diceSeeds = map[[2]int]uint64{}

// forceDice sets the state's RNG so that the next roll is d1, d2. This is
// the test hook: the RNG is part of the exported state, and the seed is
// found by search.
func forceDice(t *testing.T, st *State, d1, d2 int) {
	t.Helper()
	key := [2]int{d1, d2}
	seed, ok := diceSeeds[key]
	if !ok {
		for s := uint64(1); ; s++ {
			r := games.NewRNG(s)
			if r.D6() == d1 && r.D6() == d2 {
				seed = s
				break
			}
			if s > 1e6 {
				t.Fatalf("no seed for dice %v", key)
			}
		}
		diceSeeds[key] = seed
	}
	st.RNG = games.NewRNG(seed)
}

// forceRoll picks dice summing to total (the first pair found).
func forceRoll(t *testing.T, st *State, total int) {
	t.Helper()
	for a := 1; a <= 6; a++ {
		if b := total - a; b >= 1 && b <= 6 && !(a == 1 && b == 1 && st.SnakeEyes) {
			forceDice(t, st, a, b)
			return
		}
	}
	t.Fatalf("no dice make %d", total)
}

func apply(t *testing.T, st *State, seat int, verb string, args ...string) []games.Event {
	t.Helper()
	ev, err := st.Apply(seat, games.Act(verb, args...))
	if err != nil {
		t.Fatalf("%s %s by seat %d refused: %v", verb, strings.Join(args, ","), seat, err)
	}
	return ev
}

// refused checks that the move is refused with a Refusal and changes nothing.
func refused(t *testing.T, st *State, seat int, verb string, args ...string) string {
	t.Helper()
	before := encode(t, st)
	ev, err := st.Apply(seat, games.Act(verb, args...))
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s %v by seat %d: want a refusal, got events %v, err %v", verb, args, seat, ev, err)
	}
	if after := encode(t, st); !bytes.Equal(before, after) {
		t.Fatalf("refused %s changed the state:\n%s\n%s", verb, before, after)
	}
	return r.Msg
}

func encode(t *testing.T, g games.Game) []byte {
	t.Helper()
	b, err := games.Encode(g)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func reload(t *testing.T, st *State) *State {
	t.Helper()
	g, err := Rules.Load(encode(t, st))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return g.(*State)
}

func texts(ev []games.Event) string {
	var parts []string
	for _, e := range ev {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, "\n")
}

// lastChapter is the seat's latest history entry.
func lastChapter(t *testing.T, st *State, seat int) Chapter {
	t.Helper()
	h := st.History[seat]
	if len(h) == 0 {
		t.Fatalf("seat %d has no history", seat)
	}
	return h[len(h)-1]
}

// playOut finishes the game taking the first offered move (no swaps).
func playOut(t *testing.T, st *State) []games.Event {
	t.Helper()
	var all []games.Event
	for steps := 0; !st.Over(); steps++ {
		if steps > 500 {
			t.Fatal("game did not end")
		}
		seat := st.ToAct()[0]
		var move *games.Action
		for _, b := range st.Hand(seat).Buttons {
			if b.Action.Verb != "swap" {
				a := b.Action
				move = &a
				break
			}
		}
		if move == nil {
			t.Fatalf("seat %d to act has no control", seat)
		}
		ev, err := st.Apply(seat, *move)
		if err != nil {
			t.Fatalf("offered %s refused: %v", move.Key(), err)
		}
		all = append(all, ev...)
	}
	return all
}
