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

// pickInput is a random next input: mostly a move a hand view offers, now
// and then an appeal, a vote (from anyone, spectators included), a timer
// firing or table talk.
func pickInput(r *games.RNG, s *State) games.Input {
	n := len(s.Names)
	switch r.Intn(20) {
	case 0:
		a := appealAct(fmt.Sprint(r.Intn(n+1)-1), "rude words")
		return games.Input{Seat: r.Intn(n), Action: a}
	case 1, 2, 3:
		if len(s.Appeals) > 0 {
			v := []string{voteYes, voteNo}[r.Intn(2)]
			return games.Input{Seat: r.Intn(n+1) - 1, Action: vote(fmt.Sprint(1+r.Intn(len(s.Appeals))), v)}
		}
	case 4:
		if ts := s.Timers(); len(ts) > 0 {
			x := ts[r.Intn(len(ts))]
			return games.Input{Kind: games.InTimer, Seat: x.Seat, Ref: x.Key, Action: x.Action}
		}
	case 5:
		return games.Input{Kind: games.InSay, Seat: r.Intn(n), Name: "P", Action: games.Action{Text: "well played"}}
	}
	var moves []gamestest.Move
	for seat := range n {
		moves = append(moves, gamestest.Offered(r, s.Hand(seat), seat, sayLine)...)
	}
	m := moves[r.Intn(len(moves))]
	return games.Input{Seat: m.Seat, Action: m.Action}
}

func TestRandomGamesWithAppeals(t *testing.T) {
	seeds := seedsFor(200)
	stats := map[string]int{}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		n := 2 + int(seed%7)
		setup := games.Setup{Players: names[:n], Seed: seed, Options: map[string]int{OptVoteMinutes: 1 + int(seed%10)}}
		g, err := Rules.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		r := games.NewRNG(seed * 31)
		var log []games.Input
		for step := 0; !g.Over(); step++ {
			if step > 4000 {
				t.Fatalf("seed %d: not over after %d steps", seed, step)
			}
			s := g.(*State)
			if c := count(s); c != 76 {
				t.Fatalf("seed %d step %d: %d cards", seed, step, c)
			}
			for _, h := range s.Hands {
				if !slices.IsSortedFunc(h, less) {
					t.Fatalf("seed %d: unsorted hand %v", seed, h)
				}
			}
			in := pickInput(&r, s)
			before, _ := games.Encode(g)
			evs, err := games.Step(g, in)
			var refusal *games.Refusal
			if errors.As(err, &refusal) {
				if refusal.Msg == "" {
					t.Fatal("empty refusal")
				}
				if in.Kind == "" && in.Action.Verb != VerbAppeal && in.Action.Verb != VerbVote {
					t.Fatalf("seed %d: an offered move %s by %d was refused: %v", seed, in.Label(), in.Seat, err)
				}
				stats["refused "+in.Action.Verb]++
				if g, err = Rules.Load(before); err != nil {
					t.Fatal(err)
				}
				continue
			} else if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			log = append(log, in)
			txt := allText(evs)
			for key, marker := range map[string]string{"dead": "the card is dead", "drawN": "loses their turn",
				"rude": "The table finds", "fails": "appeal against", "nobody": "Nobody voted", "pass": "keeps the card they drew",
				"reshuffle": "shuffled into a new deck", "buried": "buried", "said": "🗣️ **"} {
				if strings.Contains(txt, marker) {
					stats[key]++
				}
			}
			if len(stories(evs)) > 1 && !slices.ContainsFunc(evs, func(e games.Event) bool { return e.Ref != "" }) {
				t.Fatalf("seed %d: %d story events for one move: %s", seed, len(stories(evs)), txt)
			}
			stats[in.Action.Verb]++
		}
		s := g.(*State)
		stats["end "+s.Ended]++
		if len(s.Timers()) != 0 || len(s.ToAct()) != 0 {
			t.Fatalf("seed %d: over with timers %v, ToAct %v", seed, s.Timers(), s.ToAct())
		}
		again, err := games.Replay(Rules, setup, log)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := games.Encode(g)
		b, _ := games.Encode(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: replay differs", seed)
		}
	}
	for _, key := range []string{"dead", "drawN", "rude", "fails", "nobody", "pass", "said",
		"end out", "end gameover", VerbSwap, VerbReady, VerbDraw, VerbClose, VerbVote, VerbAppeal} {
		if stats[key] == 0 {
			t.Errorf("no random game saw %q: %v", key, stats)
		}
	}
	t.Logf("%v", stats)
}

func TestSameSeedSameGame(t *testing.T) {
	a, b, c := newGame(t, 4, 99), newGame(t, 4, 99), newGame(t, 4, 100)
	ea, _ := games.Encode(a)
	eb, _ := games.Encode(b)
	ec, _ := games.Encode(c)
	if !bytes.Equal(ea, eb) || bytes.Equal(ea, ec) {
		t.Fatal("the deal doesn't follow the seed")
	}
	for _, s := range []*State{a, b} {
		must(t, s, 0, games.Act(VerbSwap, s.Hands[0][0].Code()))
		for seat := 1; seat < 4; seat++ {
			must(t, s, seat, games.Act(VerbReady))
		}
	}
	ea, _ = games.Encode(a)
	eb, _ = games.Encode(b)
	if !bytes.Equal(ea, eb) {
		t.Fatal("the same moves gave different games")
	}
	if _, err := Rules.Load([]byte(`{"Names":["a"],"Nope":1}`)); err == nil {
		t.Error("Load accepted an unknown field")
	}
}
