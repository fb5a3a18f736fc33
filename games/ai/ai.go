// Package ai is the contract for computer players. A computer seat sees
// exactly what a person in that seat sees — the public table and its own
// hand, as views — and answers with the action a click on one of its
// controls would send. It never reads a game's state, so it cannot cheat,
// and it keeps no memory between moves, so a bot restart loses nothing.
//
// A game offers its computer players as a map in its own package:
//
//	var Policies = map[string]ai.Policy{"sensible": Sensible{}}
//
// and whoever hosts games (the bot, cmd/simulate) lists them in a Catalog
// next to the game's Rules. This package imports no game package.
package ai

import (
	"github.com/cardtable/cardbot/games"
)

// Policy chooses a move for seat from what that seat may see: the public
// table and the seat's own hand view. The action is one a control of those
// views sends (a button's action, or a selection from a menu), so a game
// never has to refuse it. ok is false when it has nothing to do (not its
// turn, or no control it wants to use). r is for tie-breaks and mixed
// strategies; a policy keeps no other state, so a restart changes nothing.
type Policy interface {
	Choose(r *games.RNG, table, hand games.View, seat int) (a games.Action, ok bool)
}

// Func adapts a function to a Policy.
type Func func(r *games.RNG, table, hand games.View, seat int) (games.Action, bool)

// Choose calls f.
func (f Func) Choose(r *games.RNG, table, hand games.View, seat int) (games.Action, bool) {
	return f(r, table, hand, seat)
}

// Step builds the input the computer in seat would send now: its policy
// reads the views the seat is shown and picks a move. ok is false when the
// policy has nothing to do. The input is an ordinary move, logged and
// replayed like a person's; the policy's randomness never needs replaying.
func Step(g games.Game, seat int, p Policy, r *games.RNG) (games.Input, bool) {
	a, ok := p.Choose(r, g.Table(), g.Hand(seat), seat)
	if !ok {
		return games.Input{}, false
	}
	return games.Input{Kind: games.InMove, Seat: seat, Action: a}, true
}

// SeedFor derives the random source for a computer's move from the game's
// seed, the number of inputs logged so far and the seat, so the same game
// at the same point always gets the same computer move, whoever hosts it.
func SeedFor(gameSeed uint64, logged, seat int) games.RNG {
	r := games.NewRNG(gameSeed ^ 0x5eed_c0de_a11c_e5e5)
	r.S += uint64(logged)*0x9e3779b97f4a7c15 + uint64(seat+3)*0xbf58476d1ce4e5b9
	r.Uint64()
	return r
}
