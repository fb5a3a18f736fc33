package lnf

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

var names = []string{"Ann", "Bob", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal"}

// cards parses space-separated card codes.
func cards(t testing.TB, codes string) []Card {
	t.Helper()
	var out []Card
	for _, f := range strings.Fields(codes) {
		c, err := ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func card(t testing.TB, code string) Card { return cards(t, code)[0] }

// newGame deals a fresh game for n players.
func newGame(t testing.TB, n int, seed uint64) *State {
	t.Helper()
	g, err := New(games.Setup{Players: names[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g.(*State)
}

// rigged builds a game in play with Ann (seat 0) to move. discard and
// draw are bottom first (the top card is the last code); one hand per seat.
func rigged(t testing.TB, discard, draw string, hands ...string) *State {
	t.Helper()
	s := &State{
		Names: names[:len(hands)], Minutes: DefaultVoteMinutes, RNG: games.NewRNG(7), Phase: PhasePlay,
		Pile:    games.Pile[Card]{Draw: cards(t, draw), Discard: cards(t, discard)},
		Decided: make([]bool, len(hands)), Ender: -1, Last: "rigged",
	}
	for i, h := range hands {
		hand := cards(t, h)
		slices.SortFunc(hand, less)
		s.Hands = append(s.Hands, hand)
		s.Decided[i] = true
	}
	return s
}

// must applies an action that has to succeed.
func must(t testing.TB, s *State, seat int, a games.Action) []games.Event {
	t.Helper()
	evs, err := s.Apply(seat, a)
	if err != nil {
		t.Fatalf("seat %d: %s %q refused: %v", seat, a.Key(), a.Text, err)
	}
	return evs
}

// refused applies an action that has to be refused with a sentence
// containing want, and checks that the state did not change.
func refused(t testing.TB, s *State, seat int, want string, a games.Action) {
	t.Helper()
	before, _ := games.Encode(s)
	_, err := s.Apply(seat, a)
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s by seat %d: err = %v, want a refusal", a.Key(), seat, err)
	}
	if !strings.Contains(r.Msg, want) {
		t.Fatalf("%s by seat %d refused with %q, want it to mention %q", a.Key(), seat, r.Msg, want)
	}
	if after, _ := games.Encode(s); !bytes.Equal(before, after) {
		t.Fatalf("refused %s changed the state", a.Key())
	}
}

func play(code, line string) games.Action {
	a := games.Act(VerbPlay, code)
	a.Text = line
	return a
}

func codes(cs []Card) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Code())
	}
	return strings.Join(out, " ")
}

func keys(v games.View) []string {
	var out []string
	for _, b := range v.Buttons {
		out = append(out, b.Action.Key())
	}
	return out
}

func text(v games.View) string { return gamestest.Text(v) }

func stories(evs []games.Event) []games.Event {
	var out []games.Event
	for _, e := range evs {
		if e.Story {
			out = append(out, e)
		}
	}
	return out
}

func allText(evs []games.Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.Text + "\n")
	}
	return b.String()
}

// count is every card in the game, for conservation checks.
func count(s *State) int {
	n := len(s.Pile.Draw) + len(s.Pile.Discard)
	for _, h := range s.Hands {
		n += len(h)
	}
	return n
}

// clone is a deep copy through the saved form.
func clone(t testing.TB, s *State) *State {
	t.Helper()
	b, err := games.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Rules.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*State)
}

// results writes Results as "seat:score" with a * for winners.
func results(s *State) string {
	var out []string
	for _, r := range s.Results() {
		x := fmt.Sprintf("%d:%d", r.Seat, r.Score)
		if r.Winner {
			x += "*"
		}
		out = append(out, x)
	}
	return strings.Join(out, " ")
}
