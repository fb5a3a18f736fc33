package improv

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// TestRandomCampaigns plays long campaigns through the offered controls,
// rarely calling a conflict off or ending the campaign, with lines,
// reactions, joins and leaves mixed in, checking the invariants, the views'
// limits and a JSON round trip at every step.
func TestRandomCampaigns(t *testing.T) {
	seeds, steps := 24, 700
	if raceOn || testing.Short() {
		seeds, steps = 4, 400
	}
	seen := map[string]int{}
	for seed := 1; seed <= seeds; seed++ {
		n := 2 + seed%6
		opts := map[string]int{}
		if seed%2 == 0 {
			opts[OptLethal] = 1
		}
		if seed%4 == 0 {
			opts[OptTalentCap] = 2
		}
		g, err := New(games.Setup{Players: names[:n], Options: opts, Seed: uint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		st := g.(*State)
		r := games.NewRNG(uint64(seed) * 31)
		for step := 0; step < steps && !st.Over(); step++ {
			seen[st.Phase]++
			if st.C != nil && st.extended() && st.Phase == PhaseNarrate && st.C.Final {
				seen["final"]++
			}
			before, _ := games.Encode(st)
			var err error
			var what string
			switch x := r.Intn(40); {
			case x == 0 && len(st.Players) < maxSeats:
				what = "join"
				_, _, err = st.Join(fmt.Sprintf("J%d", step))
			case x == 1 && r.Intn(4) == 0:
				what = "leave"
				_, err = st.Leave(1 + r.Intn(len(st.Players)-1))
			case x <= 4:
				what = "say"
				_, err = st.Say(r.Intn(len(st.Players)), "x", "a line")
			case x <= 7:
				what = "react"
				_, err = st.React(r.Intn(len(st.Players)), fmt.Sprintf("line%d", max(1, st.LineNo-r.Intn(3))), "🎭", r.Intn(4) > 0)
			default:
				var moves []gamestest.Move
				for seat := range st.Players {
					for _, m := range gamestest.Offered(&r, st.Hand(seat), seat, kitText) {
						rare := m.Action.Verb == "cancel" || m.Action.Verb == "end" || m.Action.Verb == "hurry" || m.Action.Verb == "skip"
						if !rare || r.Intn(30) == 0 {
							moves = append(moves, m)
						}
					}
				}
				if len(moves) == 0 {
					continue
				}
				m := moves[r.Intn(len(moves))]
				what = m.Action.Key()
				var ev []games.Event
				ev, err = st.Apply(m.Seat, m.Action)
				if n := stories(ev); n > 1 {
					t.Fatalf("seed %d step %d %s: %d story events", seed, step, what, n)
				}
			}
			var refusal *games.Refusal
			switch {
			case errors.As(err, &refusal):
				back, lerr := Rules.Load(before)
				if lerr != nil {
					t.Fatal(lerr)
				}
				st = back.(*State)
				continue
			case err != nil:
				t.Fatalf("seed %d step %d %s: %v", seed, step, what, err)
			}
			checkInvariants(t, st)
			if err := gamestest.Fits(st.Table(), 1); err != nil {
				t.Fatalf("seed %d step %d: table: %v", seed, step, err)
			}
			for seat := range st.Players {
				if err := gamestest.Fits(st.Hand(seat), 0); err != nil {
					t.Fatalf("seed %d step %d: seat %d: %v", seed, step, seat, err)
				}
			}
			if len(st.ToAct()) == 0 && !st.Over() {
				t.Fatalf("seed %d step %d after %s: nobody to act in phase %s", seed, step, what, st.Phase)
			}
			a, _ := games.Encode(st)
			back, err := Rules.Load(a)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if b, _ := games.Encode(back); !bytes.Equal(a, b) {
				t.Fatalf("round trip changed the state")
			}
			st = back.(*State)
		}
	}
	t.Logf("steps by phase: %v", seen)
	for _, p := range []string{PhaseCards, PhaseBonus, PhaseNarrate, PhaseGifts, PhaseFate, "final"} {
		if seen[p] == 0 && !raceOn && !testing.Short() {
			t.Errorf("no random campaign reached %s", p)
		}
	}
}
