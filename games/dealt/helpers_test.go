package dealt

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

var names = []string{"Ann", "Bea", "Cat", "Dan", "Eve"}

// rigged builds a game in play from one spec per seat, "hand | reserve",
// faces separated by spaces ("7 X 12 S R"). Each face gets the next unused
// copy, so every card is distinct; the rest of the deck is the draw pile,
// top last, in deck order. leader opens the trick; everyone has 2 chips.
func rigged(t testing.TB, leader int, specs ...string) *State {
	t.Helper()
	s := &State{Names: names[:len(specs)], Chips: 2, RNG: games.NewRNG(1), Round: 1,
		Players: make([]Player, len(specs)), Leader: leader, Turn: leader}
	used := map[Card]bool{}
	take := func(faces string) []Card {
		var out []Card
		for _, f := range strings.Fields(faces) {
			c, err := ParseCard(f + "a")
			if err != nil {
				t.Fatalf("face %q: %v", f, err)
			}
			for used[c] {
				c.Copy++
				if c.Copy >= c.copies() {
					t.Fatalf("too many %s cards", f)
				}
			}
			used[c] = true
			out = append(out, c)
		}
		return out
	}
	for i, spec := range specs {
		hand, res, _ := strings.Cut(spec, "|")
		s.Players[i] = Player{Hand: take(hand), Reserve: take(res), Chips: 2}
	}
	for _, c := range Deck() {
		if !used[c] {
			s.Pile.Draw = append(s.Pile.Draw, c)
		}
	}
	return s
}

// faces writes cards as plain faces, for comparing hands.
func faces(cs []Card) string { return labels(cs) }

func must(t testing.TB, s *State, seat int, verb string, args ...string) []games.Event {
	t.Helper()
	evs, err := s.Apply(seat, games.Act(verb, args...))
	if err != nil {
		t.Fatalf("%s: %s %v refused: %v", s.Names[seat], verb, args, err)
	}
	return evs
}

// refused checks that an action is refused with a sentence containing want
// and leaves the state exactly as it was.
func refused(t testing.TB, s *State, seat int, want, verb string, args ...string) {
	t.Helper()
	before, _ := games.Encode(s)
	_, err := s.Apply(seat, games.Act(verb, args...))
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s %v by seat %d: err = %v, want a refusal", verb, args, seat, err)
	}
	if !strings.Contains(r.Msg, want) {
		t.Fatalf("%s %v by seat %d refused with %q, want %q", verb, args, seat, r.Msg, want)
	}
	after, _ := games.Encode(s)
	if !bytes.Equal(before, after) {
		t.Fatalf("refused %s %v changed the state", verb, args)
	}
}

func events(evs []games.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Story {
			b.WriteString("[story] ")
		}
		b.WriteString(e.Text + "\n")
	}
	return b.String()
}

func stories(evs []games.Event) int {
	n := 0
	for _, e := range evs {
		if e.Story {
			n++
		}
	}
	return n
}

// offered lists the select values and button actions a seat's view offers,
// as action keys ("play=1_solo_7").
func offered(v games.View) []string {
	var out []string
	for _, c := range v.Choices {
		for _, o := range c.Options {
			out = append(out, games.Action{Verb: c.Verb, Args: []string{o.Value}}.Key())
		}
	}
	for _, b := range v.Buttons {
		out = append(out, b.Action.Key())
	}
	return out
}

// tokens lists the play tokens a seat's view offers, whatever menu they are in.
func tokens(v games.View) []string {
	var out []string
	for _, c := range v.Choices {
		if baseVerb(c.Verb) == VerbPlay {
			for _, o := range c.Options {
				out = append(out, o.Value)
			}
		}
	}
	return out
}
