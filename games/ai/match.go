package ai

import (
	"fmt"
	"math"

	"github.com/cardtable/cardbot/games"
)

// Tally is the result of a head-to-head series between two policies.
type Tally struct {
	Games, WinsA, WinsB int
	Shared              int // games both won (a shared win counts for each)
	Unfinished          int
	RefusedA, RefusedB  int // moves the game refused
	Moves               int // accepted moves over all games
}

// RateA is A's share of the games won, with its 95% Wilson interval.
func (t Tally) RateA() (rate, lo, hi float64) {
	lo, hi = Wilson(t.WinsA, t.Games)
	return float64(t.WinsA) / float64(max(t.Games, 1)), lo, hi
}

// HeadToHead plays n two-player games of rules between a and b, who take
// turns in seat 0 (a on even games); game i's seed derives from seed and i.
func HeadToHead(rules games.Rules, opts map[string]int, a, b Policy, n int, seed uint64) (Tally, error) {
	var t Tally
	for i := range n {
		r := games.NewRNG(seed)
		r.S += uint64(i) * 0xd1b54a32d192ed03
		setup := games.Setup{Players: []string{"A", "B"}, Options: opts, Seed: r.Uint64()}
		seats, ia := []Policy{a, b}, 0
		if i%2 == 1 {
			seats, ia = []Policy{b, a}, 1
		}
		o, err := Play(rules, setup, seats, 20000)
		if err != nil {
			return t, fmt.Errorf("game %d: %w", i, err)
		}
		t.Games++
		t.Moves += o.Moves
		t.RefusedA += o.Refused[ia]
		t.RefusedB += o.Refused[1-ia]
		if !o.Finished {
			t.Unfinished++
			continue
		}
		wa, wb := o.Results[ia].Winner, o.Results[1-ia].Winner
		if wa {
			t.WinsA++
		}
		if wb {
			t.WinsB++
		}
		if wa && wb {
			t.Shared++
		}
	}
	return t, nil
}

// Wilson is the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}
