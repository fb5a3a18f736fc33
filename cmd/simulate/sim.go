package main

import (
	"fmt"
	"maps"
	"sync"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// job is one game to play: its number within its option set, and the options.
type job struct {
	i    int
	opts map[string]int
}

// outcome is one played game, as the reports count it.
type outcome struct {
	policy   []int // policy index per seat
	won      []bool
	moves    int
	finished bool
	refused  []int // per seat
}

// gameSeed is game i's seed: the same for every option set and every
// scheduling of the workers.
func gameSeed(base uint64, i int) uint64 {
	r := games.NewRNG(base)
	r.S += uint64(i) * 0xd1b54a32d192ed03
	return r.Uint64()
}

// seatPolicies assigns policies to seats for game i: the list repeated to
// fill the seats makes a line-up, which turns by one seat per game when
// rotating, so every seat plays every place in the line-up equally often.
func seatPolicies(cfg config, i int) []int {
	out := make([]int, cfg.players)
	turn := 0
	if cfg.rotate {
		turn = i % cfg.players
	}
	for s := range out {
		out[s] = (s + turn) % cfg.players % len(cfg.policies)
	}
	return out
}

// playAll plays the jobs on cfg.workers goroutines; outcomes come back in
// job order, whatever the scheduling.
func playAll(cfg config, jobs []job) ([]outcome, error) {
	entry, _ := catalog.Entry(cfg.game)
	pols := make([]ai.Policy, len(cfg.policies))
	for k, name := range cfg.policies {
		p, err := catalog.Lookup(cfg.game, name)
		if err != nil {
			return nil, err
		}
		pols[k] = p
	}
	players := make([]string, cfg.players)
	for s := range players {
		players[s] = fmt.Sprintf("P%d", s+1)
	}
	out := make([]outcome, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				out[k], errs[k] = playOne(cfg, entry.Rules, players, pols, jobs[k])
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func playOne(cfg config, rules games.Rules, players []string, pols []ai.Policy, j job) (outcome, error) {
	opts, err := rules.Validate(maps.Clone(j.opts))
	if err != nil {
		return outcome{}, fmt.Errorf("options %v: %w", j.opts, err)
	}
	o := outcome{policy: seatPolicies(cfg, j.i), won: make([]bool, cfg.players)}
	seats := make([]ai.Policy, cfg.players)
	for s, k := range o.policy {
		seats[s] = pols[k]
	}
	setup := games.Setup{Players: players, Options: opts, Seed: gameSeed(cfg.seed, j.i)}
	res, err := ai.Play(rules, setup, seats, cfg.maxMoves)
	if err != nil {
		return outcome{}, err
	}
	o.moves, o.finished, o.refused = res.Moves, res.Finished, res.Refused
	for _, r := range res.Results {
		if r.Winner && r.Seat >= 0 && r.Seat < cfg.players {
			o.won[r.Seat] = true
		}
	}
	return o, nil
}
