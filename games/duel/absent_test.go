package duel

import (
	"slices"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// away is the move the bot makes for a player who lets the deadline pass,
// as bot.defaultMove picks it: the view's Away move, else its first enabled
// button without a text box, else the first option of its first menu.
func away(t *testing.T, v games.View) games.Action {
	t.Helper()
	if v.Away != nil {
		return *v.Away
	}
	for _, b := range v.Buttons {
		if !b.Disabled && b.Ask == nil {
			return b.Action
		}
	}
	for _, c := range v.Choices {
		if len(c.Options) > 0 {
			return games.Act(c.Verb, c.Options[0].Value)
		}
	}
	t.Fatalf("no move offered: %+v", v)
	return games.Action{}
}

// A player away with picks over the hand limit is not moved by Clear, the
// only enabled button, which throws every pick away: the bot drops one
// pick that covers the excess, and the next deadline locks the rest in.
func TestAbsentOverLimitPicksAreTrimmedNotCleared(t *testing.T) {
	for seed := range uint64(20) {
		s := newDuel(t, seed, nil)
		p := &s.Players[0]
		var picks []games.Card
		for _, c := range p.Pool {
			if total(picks) > s.HandLimit {
				break
			}
			picks = append(picks, c)
		}
		pick(t, s, 0, picks)
		over := total(p.Picks) - s.HandLimit
		a := away(t, s.Hand(0))
		if a.Verb == VerbClear {
			t.Fatalf("seed %d: picks worth %d, the away move is Clear", seed, total(p.Picks))
		}
		must(t, s, 0, a.Verb, a.Args...)
		if len(p.Picks) != len(picks)-1 || total(p.Picks) > s.HandLimit {
			t.Fatalf("seed %d: picks %v (over by %d) became %v", seed, picks, over, p.Picks)
		}
		for _, c := range p.Picks {
			if !slices.Contains(picks, c) {
				t.Fatalf("seed %d: %s was never picked", seed, c)
			}
		}
		if a = away(t, s.Hand(0)); a.Verb != VerbLock {
			t.Fatalf("seed %d: once the picks fit the away move is %v, want Lock in", seed, a.Key())
		}
		kept := sorted(p.Picks)
		must(t, s, 0, a.Verb)
		if !p.Locked || !slices.Equal(p.Hand, kept) {
			t.Fatalf("seed %d: locked %v with hand %v, want %v", seed, p.Locked, p.Hand, kept)
		}
	}
}
