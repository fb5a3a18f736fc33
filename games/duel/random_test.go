package duel

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// move is one offered control, as the bot would turn a click into an action.
type move struct {
	seat int
	act  games.Action
}

// offered lists what a seat's hand view lets it do; for a select menu it
// draws one random selection within the menu's bounds.
func offered(r *games.RNG, v games.View, seat int) []move {
	var out []move
	for _, b := range v.Buttons {
		if !b.Disabled {
			out = append(out, move{seat, b.Action})
		}
	}
	for _, c := range v.Choices {
		opts := slices.Clone(c.Options)
		games.Shuffle(r, opts)
		n := c.Min + r.Intn(c.Max-c.Min+1)
		// Small selections are likelier to fit the hand limit.
		if r.Intn(2) == 0 {
			n = min(n, c.Min+r.Intn(4))
		}
		a := games.Action{Verb: c.Verb}
		for _, o := range opts[:n] {
			a.Args = append(a.Args, o.Value)
		}
		out = append(out, move{seat, a})
	}
	return out
}

// reload round-trips a game through JSON and checks the copy is identical,
// views included (table, then the two hands).
func reload(t *testing.T, g games.Game, views []games.View) games.Game {
	t.Helper()
	b, err := games.Encode(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Rules.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := games.Encode(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) {
		t.Fatalf("JSON round trip changed the state:\n%s\n%s", b, b2)
	}
	if !reflect.DeepEqual(views[0], back.Table()) || !reflect.DeepEqual(views[1], back.Hand(0)) ||
		!reflect.DeepEqual(views[2], back.Hand(1)) || !reflect.DeepEqual(g.ToAct(), back.ToAct()) {
		t.Fatal("reloaded game shows different views")
	}
	return back
}

// secretsHidden checks that no card in a hand, pool or pick list is on the
// table. (Deck cards may have been seen before a reshuffle, so they are not checked.)
func secretsHidden(t *testing.T, s *State, tv games.View) {
	t.Helper()
	table := viewText(tv)
	for _, p := range s.Players {
		for _, pile := range [][]games.Card{p.Hand, p.Pool, p.Picks} {
			for _, c := range pile {
				if strings.Contains(table, c.String()) {
					t.Fatalf("the table shows the secret card %v:\n%s", c, table)
				}
			}
		}
	}
}

func TestRandomGames(t *testing.T) {
	seeds := 400
	if testing.Short() || raceOn {
		seeds = 40
	}
	ends, played := map[string]int{}, map[string]int{}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		opts := map[string]int{}
		if seed%3 == 0 {
			opts[OptLife] = int(5 + seed%56)
			opts[OptHandLimit] = int(10 + seed%51)
		}
		var g games.Game = newDuel(t, seed, opts)
		r := games.NewRNG(seed * 7919)
		for step := 0; ; step++ {
			if step > 5000 {
				t.Fatalf("seed %d: no end after %d moves", seed, step)
			}
			s := g.(*State)
			views := []games.View{g.Table(), g.Hand(0), g.Hand(1)}
			checkLayout(t, views[0])
			if len(views[0].Buttons)+len(views[0].Choices) != 0 {
				t.Fatal("the table offers controls")
			}
			secretsHidden(t, s, views[0])
			toAct := g.ToAct()
			var moves []move
			for seat := 0; seat < 2; seat++ {
				v := views[1+seat]
				checkLayout(t, v)
				m := offered(&r, v, seat)
				if !slices.Contains(toAct, seat) && len(m) > 0 {
					t.Fatalf("seat %d is offered %v but ToAct is %v", seat, m, toAct)
				}
				moves = append(moves, m...)
			}
			if g.Over() {
				if len(toAct) != 0 || len(moves) != 0 {
					t.Fatalf("seed %d: over but ToAct %v, %d moves", seed, toAct, len(moves))
				}
				res := g.Results()
				if !res[s.Winner].Winner || res[1-s.Winner].Winner || res[0].Score != total(s.Players[1].Damage) {
					t.Fatalf("seed %d: results %+v", seed, res)
				}
				ends[strings.Fields(s.End)[1]]++
				break
			}
			if len(moves) == 0 {
				t.Fatalf("seed %d step %d: nobody can move; ToAct %v", seed, step, toAct)
			}
			// Conservation: every card is in exactly one place.
			if n := cardsInGame(s); n != 52 {
				t.Fatalf("seed %d step %d: %d cards in the game", seed, step, n)
			}
			m := moves[r.Intn(len(moves))]
			played[m.act.Verb]++
			back := reload(t, g, views)
			evs, err := g.Apply(m.seat, m.act)
			if err != nil {
				t.Fatalf("seed %d step %d: offered move %s by %d refused: %v", seed, step, m.act.Key(), m.seat, err)
			}
			evs2, err2 := back.Apply(m.seat, m.act)
			if err2 != nil || !reflect.DeepEqual(evs, evs2) {
				t.Fatalf("seed %d step %d: reloaded game behaved differently", seed, step)
			}
			b1, _ := games.Encode(g)
			b2, _ := games.Encode(back)
			if !bytes.Equal(b1, b2) {
				t.Fatalf("seed %d step %d: reloaded game diverged", seed, step)
			}
			// Someone not to move is always refused.
			for seat := 0; seat < 2; seat++ {
				if !slices.Contains(g.ToAct(), seat) && !g.Over() {
					var rf *games.Refusal
					if _, err := g.Apply(seat, m.act); !errors.As(err, &rf) {
						t.Fatalf("seed %d: seat %d acted out of turn: %v", seed, seat, err)
					}
				}
			}
		}
	}
	if ends["took"] == 0 {
		t.Errorf("no game ended by damage: %v", ends)
	}
	for _, verb := range []string{VerbPickA, VerbPickB, VerbClear, VerbLock, VerbHand, VerbDeck, VerbReshuffle} {
		if played[verb] == 0 {
			t.Errorf("no random game played %q: %v", verb, played)
		}
	}
	t.Logf("moves played: %v; endings: %v", played, ends)
}

func cardsInGame(s *State) int {
	n := 0
	for _, p := range s.Players {
		n += len(p.Pool) + len(p.Hand) + len(p.Deck) + len(p.Discard) + len(p.Damage)
	}
	if s.Attack != nil {
		n++
	}
	if s.Defense != nil {
		n++
	}
	return n
}

func TestJSONRoundTripMidGame(t *testing.T) {
	s := playing(t, "2C 9S KS", "", "9H AD", "2D 3D 7H")
	s.Players[0].Discard = cards(t, "8D")
	s.Players[1].Damage = cards(t, "7S")
	must(t, s, 0, VerbHand, "KS")
	must(t, s, 1, VerbDeck) // 7 < 10: Ann must deal damage
	b, err := games.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Attack":"KS"`, `"Defense":"7H"`, `"Step":"damage"`, `"Damage":["7S"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("encoded state lacks %s: %s", want, b)
		}
	}
	g, err := Rules.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	back := g.(*State)
	if !reflect.DeepEqual(back.Table(), s.Table()) || !reflect.DeepEqual(back.Hand(0), s.Hand(0)) {
		t.Fatal("views differ after reload")
	}
	// Both copies continue identically, including the RNG of a reshuffle.
	for _, st := range []*State{s, back} {
		must(t, st, 0, VerbHand, "9S")
		must(t, st, 0, VerbReshuffle)
		must(t, st, 1, VerbDeck)
	}
	b1, _ := games.Encode(s)
	b2, _ := games.Encode(back)
	if !bytes.Equal(b1, b2) {
		t.Fatalf("diverged:\n%s\n%s", b1, b2)
	}
	if _, err := Rules.Load([]byte("{not json")); err == nil {
		t.Error("Load accepted garbage")
	}
}
