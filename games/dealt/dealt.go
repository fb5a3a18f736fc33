// Package dealt is Dealt!: climbing tricks with a hand you may never
// reorder. Play touching cards that beat the trick, or take one of your two
// face-up reserve cards into your hand; the last player left holding cards
// gives up a chip, and whoever owes a chip with none left loses the game.
package dealt

import (
	"slices"

	"github.com/cardtable/cardbot/games"
)

// OptChips is the only option: chips each player starts with.
const OptChips = "chips"

const minPlayers, maxPlayers = 3, 5

// Rules registers Dealt!.
var Rules = games.Rules{
	ID:         "dealt",
	Name:       "Dealt!",
	Blurb:      "Beat the trick with touching cards from a hand you can't reorder; don't be the last one holding",
	MinPlayers: minPlayers,
	MaxPlayers: maxPlayers,
	Version:    1,
	Options: []games.Option{{
		Name: OptChips, Label: "Chips", Description: "Chips each player starts with: 2 (short game) or 3",
		Kind: games.IntOption, Default: 2, Min: 2, Max: 3,
	}},
	Summary: summary,
	New:     New,
	Load:    games.LoadJSON[State],
}

// What a play in a trick was.
const (
	PlayCombo   = "combo"
	PlayReserve = "reserve" // took a reserve card instead of playing
	PlayStop    = "stop"
	PlayRedraw  = "redraw"
)

// Play is one player's action in the current trick.
type Play struct {
	Seat  int
	What  string
	Cards []Card // the cards played; for a reserve, the card taken
	Kind  Kind   `json:",omitempty"`
	Top   int    `json:",omitempty"`
}

// Combo is what a combination play ranks as.
func (p Play) Combo() Combo { return Combo{p.Kind, p.Top} }

// Player is one seat. The hand keeps the order it was dealt and built in.
type Player struct {
	Hand    []Card
	Reserve []Card // face up, public
	Chips   int
}

// Draw is a Redraw being resolved: Seat places Card, then Left more.
type Draw struct {
	Seat  int
	Card  Card // drawn and waiting for a place; only Seat sees it
	Left  int  // still to draw after Card
	Total int
}

// State is a whole game of Dealt!.
type State struct {
	Names   []string
	Chips   int // each player's starting chips
	RNG     games.RNG
	Round   int
	Players []Player
	Pile    games.Pile[Card]
	Leader  int // who opened the current trick
	Turn    int // whose action the trick waits for
	Trick   []Play
	Drawing *Draw `json:",omitempty"`
	// The player to act's half-made choice, for views that need two steps:
	// a start position (1-based) or a reserve card about to be placed.
	From   int      `json:",omitempty"`
	Taking string   `json:",omitempty"`
	Last   []string `json:",omitempty"` // what the last move did, for the table
	Losers []int    `json:",omitempty"` // set once the game is over
}

// New deals the first round; the player left of the dealer (the host) leads.
func New(setup games.Setup) (games.Game, error) {
	n := len(setup.Players)
	if n < minPlayers || n > maxPlayers {
		return nil, games.Refuse("Dealt! needs 3 to 5 players.")
	}
	chips := setup.Opt(OptChips, 2)
	if chips < 2 || chips > 3 {
		return nil, games.Refuse("%s must be between 2 and 3.", OptChips)
	}
	s := &State{
		Names:   slices.Clone(setup.Players),
		Chips:   chips,
		RNG:     games.NewRNG(setup.Seed),
		Players: make([]Player, n),
	}
	for i := range s.Players {
		s.Players[i].Chips = chips
	}
	s.deal(1)
	return s, nil
}

// handSize: 10 cards each, 7 with five players.
func (s *State) handSize() int {
	if len(s.Players) == 5 {
		return 7
	}
	return 10
}

// deal shuffles all 54 cards for a new round that starter opens.
func (s *State) deal(starter int) {
	s.Round++
	s.Pile = games.NewPile(&s.RNG, Deck())
	for i := range s.Players {
		s.Players[i].Hand = s.Pile.Deal(&s.RNG, s.handSize())
	}
	for i := range s.Players {
		s.Players[i].Reserve = s.Pile.Deal(&s.RNG, 2)
	}
	s.Trick, s.Drawing, s.From, s.Taking = nil, nil, 0, ""
	s.Leader, s.Turn = starter, starter
}

// Over reports whether someone owed a chip they didn't have.
func (s *State) Over() bool { return len(s.Losers) > 0 }

// ToAct is the player placing redrawn cards, or the one the trick waits for.
func (s *State) ToAct() []int {
	if s.Over() {
		return nil
	}
	return []int{s.actor()}
}

func (s *State) actor() int {
	if s.Drawing != nil {
		return s.Drawing.Seat
	}
	return s.Turn
}

// Results: chips left; everyone but the losers wins.
func (s *State) Results() []games.Result {
	out := make([]games.Result, len(s.Players))
	for i, p := range s.Players {
		out[i] = games.Result{Seat: i, Score: p.Chips, Winner: s.Over() && !slices.Contains(s.Losers, i)}
	}
	return out
}

// holds reports whether a seat still has cards in hand (and so is still in
// the round; reserves don't count).
func (s *State) holds(seat int) bool { return len(s.Players[seat].Hand) > 0 }

// holders lists the seats with cards in hand.
func (s *State) holders() []int {
	var out []int
	for i := range s.Players {
		if s.holds(i) {
			out = append(out, i)
		}
	}
	return out
}

// best is the highest combination in the current trick, or nil. Every
// combination beats the one before it, so it is the last one played.
func best(trick []Play) *Play {
	for i := len(trick) - 1; i >= 0; i-- {
		if trick[i].What == PlayCombo {
			return &trick[i]
		}
	}
	return nil
}

// toBeat is the combination the player to act must beat, or nil.
func (s *State) toBeat() *Combo {
	if b := best(s.Trick); b != nil {
		c := b.Combo()
		return &c
	}
	return nil
}

// acted reports whether a seat has already acted in the current trick.
func (s *State) acted(seat int) bool {
	return slices.ContainsFunc(s.Trick, func(p Play) bool { return p.Seat == seat })
}

// rightOf is the nearest seat to the right of seat still holding cards:
// play passes left (to the next seat), so the right-hand neighbour is the
// previous one.
func (s *State) rightOf(seat int) int {
	n := len(s.Players)
	for i := 1; i < n; i++ {
		if o := (seat - i + n) % n; s.holds(o) {
			return o
		}
	}
	return seat
}
