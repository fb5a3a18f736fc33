package ai

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Outcome is how one game between computer players went.
type Outcome struct {
	Results  []games.Result
	Moves    int   // accepted inputs
	Refused  []int // per seat: moves its policy chose that the game refused
	Finished bool  // false: stopped at the move limit or stuck
}

// Play plays one game of rules with a computer in every seat (seat i uses
// seats[i]) until it is over or maxMoves inputs were accepted. The game's
// seed is setup.Seed; the computers' choices come from their own source,
// seeded from the same seed, so a game is a function of its setup alone.
//
// Each move goes to the first seat in ToAct whose policy has a move (then
// any seat that has one); when no seat has one, the first due timer of a
// Timed game fires, as if its deadline had passed. A refused move is undone by replaying the log and
// replaced by a Random one for that seat; it is counted in Refused.
func Play(rules games.Rules, setup games.Setup, seats []Policy, maxMoves int) (Outcome, error) {
	out := Outcome{Refused: make([]int, len(seats))}
	g, err := rules.New(setup)
	if err != nil {
		return out, fmt.Errorf("new %s: %w", rules.ID, err)
	}
	r := SeedFor(setup.Seed, 0, -1)
	var log []games.Input
	for stuck := 0; out.Moves < maxMoves && !g.Over(); {
		if stuck > maxStuck {
			return out, nil
		}
		in, seat, ok := next(g, seats, &r)
		if !ok {
			return out, nil // stuck: nobody has a move
		}
		_, err := games.Step(g, in)
		var refusal *games.Refusal
		if errors.As(err, &refusal) {
			if g, err = games.Replay(rules, setup, log); err != nil {
				return out, err
			}
			if seat < 0 { // a timer the game refused
				stuck++
				continue
			}
			out.Refused[seat]++
			if in, ok = Step(g, seat, Random, &r); !ok {
				return out, nil
			}
			if _, err = games.Step(g, in); errors.As(err, &refusal) {
				if g, err = games.Replay(rules, setup, log); err != nil {
					return out, err
				}
				stuck++
				continue
			}
		}
		if err != nil {
			return out, fmt.Errorf("%s seed %d move %d %+v: %w", rules.ID, setup.Seed, out.Moves, in, err)
		}
		log = append(log, in)
		out.Moves++
		stuck = 0
	}
	if g.Over() {
		out.Results, out.Finished = g.Results(), true
	}
	return out, nil
}

// maxStuck is how many refused moves in a row end a game as stuck.
const maxStuck = 100

// next asks the seats the game waits for, then any other seat, then the
// game's timers (seat -1).
func next(g games.Game, seats []Policy, r *games.RNG) (games.Input, int, bool) {
	order := slices.Clone(g.ToAct())
	for s := range seats {
		if !slices.Contains(order, s) {
			order = append(order, s)
		}
	}
	for _, s := range order {
		if s < 0 || s >= len(seats) {
			continue
		}
		if in, ok := Step(g, s, seats[s], r); ok {
			return in, s, true
		}
	}
	if tm, ok := g.(games.Timed); ok {
		for _, x := range tm.Timers() {
			if !x.Remind {
				return games.Input{Kind: games.InTimer, Seat: x.Seat, Ref: x.Key, Action: x.Action}, -1, true
			}
		}
	}
	return games.Input{}, 0, false
}
