package duel

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// cards parses space-separated card codes.
func cards(t testing.TB, codes string) []games.Card {
	t.Helper()
	var out []games.Card
	for _, f := range strings.Fields(codes) {
		c, err := games.ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func card(t testing.TB, code string) games.Card { return cards(t, code)[0] }

// newDuel deals a duel for Ann (seat 0) and Bob (seat 1).
func newDuel(t testing.TB, seed uint64, opts map[string]int) *State {
	t.Helper()
	g, err := New(games.Setup{Players: []string{"Ann", "Bob"}, Options: opts, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g.(*State)
}

// playing builds a duel already in play, Ann on offense and about to attack.
// Decks are given bottom first (the top card is the last code).
func playing(t testing.TB, annHand, annDeck, bobHand, bobDeck string) *State {
	t.Helper()
	s := &State{
		Names: []string{"Ann", "Bob"}, HandLimit: DefaultHandLimit, Life: DefaultLife,
		RNG: games.NewRNG(7), Phase: PhasePlay, Step: StepAttack, Winner: -1,
		Players: []Player{
			{Locked: true, Hand: cards(t, annHand), Deck: cards(t, annDeck)},
			{Locked: true, Hand: cards(t, bobHand), Deck: cards(t, bobDeck)},
		},
	}
	for i := range s.Players {
		sortCards(s.Players[i].Hand)
	}
	return s
}

// must applies an action that has to succeed.
func must(t testing.TB, s *State, seat int, verb string, args ...string) []games.Event {
	t.Helper()
	evs, err := s.Apply(seat, games.Act(verb, args...))
	if err != nil {
		t.Fatalf("%s: %s %v refused: %v", s.Names[seat], verb, args, err)
	}
	return evs
}

// refused applies an action that has to be refused with a sentence
// containing want, and checks that the state did not change.
func refused(t testing.TB, s *State, seat int, want string, verb string, args ...string) {
	t.Helper()
	before, _ := games.Encode(s)
	_, err := s.Apply(seat, games.Act(verb, args...))
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s %v by seat %d: err = %v, want a refusal", verb, args, seat, err)
	}
	if !strings.Contains(r.Msg, want) {
		t.Fatalf("%s %v by seat %d refused with %q, want it to mention %q", verb, args, seat, r.Msg, want)
	}
	after, _ := games.Encode(s)
	if !bytes.Equal(before, after) {
		t.Fatalf("refused %s %v changed the state", verb, args)
	}
}

// pick sets a seat's tentative picks to exactly cs through the two menus.
func pick(t testing.TB, s *State, seat int, cs []games.Card) {
	t.Helper()
	p := &s.Players[seat]
	for h, verb := range []string{VerbPickA, VerbPickB} {
		var args []string
		for _, c := range cs {
			if contains(p.half(h), c) {
				args = append(args, c.Code())
			}
		}
		must(t, s, seat, verb, args...)
	}
}

func contains(cs []games.Card, c games.Card) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// buttons lists the enabled button labels of a view.
func labels(v games.View) []string {
	var out []string
	for _, b := range v.Buttons {
		if !b.Disabled {
			out = append(out, b.Label)
		}
	}
	return out
}

func verbs(v games.View) []string {
	var out []string
	for _, b := range v.Buttons {
		if !b.Disabled {
			out = append(out, b.Action.Key())
		}
	}
	return out
}

func events(evs []games.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Story {
			b.WriteString("[story] ")
		}
		b.WriteString(e.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func hasStory(evs []games.Event) bool {
	for _, e := range evs {
		if e.Story {
			return true
		}
	}
	return false
}

// viewText is everything a view shows as text.
func viewText(v games.View) string {
	var b strings.Builder
	fmt.Fprintln(&b, v.Title, v.Description, v.Footer)
	for _, f := range v.Fields {
		fmt.Fprintln(&b, f.Name, f.Value)
	}
	for _, x := range v.Buttons {
		fmt.Fprintln(&b, x.Label)
	}
	return b.String()
}

// checkLayout fails when a view breaks Discord's limits or the bot's budget.
func checkLayout(t testing.TB, v games.View) {
	t.Helper()
	n := utf8.RuneCountInString
	if n(v.Title) > 256 || n(v.Description) > 4096 || n(v.Footer) > 2048 || len(v.Fields) > 25 {
		t.Fatalf("view too big: %+v", v)
	}
	for _, f := range v.Fields {
		if f.Name == "" || n(f.Name) > 256 || f.Value == "" || n(f.Value) > 1024 {
			t.Fatalf("bad field %q: %q", f.Name, f.Value)
		}
	}
	if rows := len(v.Choices) + (len(v.Buttons)+4)/5; rows > 5 {
		t.Fatalf("%d rows (%d choices, %d buttons)", rows, len(v.Choices), len(v.Buttons))
	}
	for _, b := range v.Buttons {
		if b.Label == "" || n(b.Label) > 80 {
			t.Fatalf("bad button label %q", b.Label)
		}
		checkKey(t, b.Action)
	}
	for _, c := range v.Choices {
		if len(c.Options) == 0 || len(c.Options) > 25 || c.Min < 0 || c.Max < c.Min || c.Max > len(c.Options) || n(c.Placeholder) > 150 {
			t.Fatalf("bad choice %+v", c)
		}
		all := games.Action{Verb: c.Verb}
		for _, o := range c.Options {
			if o.Label == "" || n(o.Label) > 100 || n(o.Value) > 100 || n(o.Description) > 100 {
				t.Fatalf("bad option %+v", o)
			}
			all.Args = append(all.Args, o.Value)
		}
		all.Args = all.Args[:c.Max]
		checkKey(t, all)
	}
}

func checkKey(t testing.TB, a games.Action) {
	t.Helper()
	k := a.Key()
	if len(k) > 60 {
		t.Fatalf("action key %q is %d chars", k, len(k))
	}
	back, err := games.ParseAction(k)
	if err != nil || !reflect.DeepEqual(back.Args, a.Args) && len(a.Args) > 0 || back.Verb != a.Verb {
		t.Fatalf("action %q does not round-trip: %v %v", k, back, err)
	}
}
