// Package lnf is "Life is not fair, but…": a shedding card game in four
// colours for the four areas of life, where the wild cards only work if the
// player says the right line, and rudeness can be appealed to the table.
package lnf

import (
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Name is the game's name.
const Name = "Life is not fair, but…"

// Option names and bounds.
const (
	OptVoteMinutes     = "vote_minutes"
	DefaultVoteMinutes = 1
	minVoteMinutes     = 1
	maxVoteMinutes     = 10
)

// Phases of a game.
const (
	PhaseExchange = "exchange" // each player may swap one card before the first is turned
	PhasePlay     = "play"
	PhaseOver     = "over"
)

// Action verbs.
const (
	VerbSwap   = "swap"   // arg: card code; exchange that card for the top of the deck
	VerbReady  = "ready"  // keep the dealt hand
	VerbPlay   = "play"   // arg: card code; Text: the line, for a wild card
	VerbDraw   = "draw"   // nothing fits: draw a card
	VerbPass   = "pass"   // keep the card just drawn and end the turn
	VerbAppeal = "appeal" // arg: offender's seat; Text: the quoted message
	VerbVote   = "vote"   // args: appeal number, "yes" or "no"
	VerbClose  = "close"  // arg: appeal number; the Clock closes a vote
)

// verbArgs is every verb and how many arguments it takes.
var verbArgs = map[string]int{
	VerbSwap: 1, VerbReady: 0, VerbPlay: 1, VerbDraw: 0, VerbPass: 0,
	VerbAppeal: 1, VerbVote: 2, VerbClose: 1,
}

const (
	handSize   = 4
	outScore   = 20 // going out, or the base of a Game Over player's score
	keepScore  = 10 // everyone else's base
	minPlayers = 2
	maxPlayers = 8
)

var options = []games.Option{
	{Name: OptVoteMinutes, Label: "Appeal vote (minutes)", Description: "How long the table votes on a rudeness appeal (default 1)",
		Kind: games.IntOption, Default: DefaultVoteMinutes, Min: minVoteMinutes, Max: maxVoteMinutes},
}

// Rules registers the game.
var Rules = games.Rules{
	ID:         "lnf",
	Name:       Name,
	Blurb:      "Match colour or number to empty your hand; a wild card needs its line, and be kind",
	MinPlayers: minPlayers,
	MaxPlayers: maxPlayers,
	Version:    1,
	Options:    options,
	Summary:    summary,
	New:        New,
	Load:       games.LoadJSON[State],
}

// State is one game. The discard pile's last card is the top card, face up.
type State struct {
	Names   []string
	Minutes int // appeal vote length
	RNG     games.RNG
	Pile    games.Pile[Card]
	Hands   [][]Card // kept sorted
	Phase   string
	Decided []bool // exchange: who has swapped or kept
	Turn    int
	// Drawn is the card the player to move just drew and may play at once;
	// while it is set no other card may be played.
	Drawn   *Card    `json:",omitempty"`
	Last    string   // what just happened, for the table
	Appeals []Appeal `json:",omitempty"` // appeal N is Appeals[N-1]
	Ender   int      // the seat that ended the game, -1 before
	Ended   string   // how: endOut or endGameOver
}

// How a game ended.
const (
	endOut      = "out"
	endGameOver = "gameover"
)

// New deals a game.
func New(setup games.Setup) (games.Game, error) {
	n := len(setup.Players)
	if n < minPlayers || n > maxPlayers {
		return nil, games.Refuse("%s needs %d to %d players.", Name, minPlayers, maxPlayers)
	}
	opts, err := games.Rules{Name: Name, Options: options}.Validate(setup.Options)
	if err != nil {
		return nil, err
	}
	s := &State{
		Names:   slices.Clone(setup.Players),
		Minutes: opts[OptVoteMinutes],
		RNG:     games.NewRNG(setup.Seed),
		Hands:   make([][]Card, n),
		Phase:   PhaseExchange,
		Decided: make([]bool, n),
		Ender:   -1,
	}
	s.Pile = games.NewPile(&s.RNG, Deck())
	for seat := range s.Hands {
		s.Hands[seat] = s.Pile.Deal(&s.RNG, handSize)
		slices.SortFunc(s.Hands[seat], less)
	}
	s.Last = "The cards are dealt; everyone may swap one card."
	return s, nil
}

// ToAct lists the seats the game waits for: during the exchange everyone
// who hasn't decided, then the player to move.
func (s *State) ToAct() []int {
	switch s.Phase {
	case PhaseExchange:
		var out []int
		for seat, d := range s.Decided {
			if !d {
				out = append(out, seat)
			}
		}
		return out
	case PhasePlay:
		return []int{s.Turn}
	}
	return nil
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// score is a seat's score if the game ended now: whoever went out gets
// 20, whoever played Game Over 20 less the number of cards left in their
// hand (the rulings count cards, not their numbers), everyone else 10
// less the sum of their hand.
func (s *State) score(seat int) int {
	if seat == s.Ender {
		return outScore - len(s.Hands[seat])
	}
	return keepScore - sum(s.Hands[seat])
}

// Results scores every seat; the highest score wins, ties share.
func (s *State) Results() []games.Result {
	out := make([]games.Result, len(s.Names))
	best := 0
	for seat := range out {
		out[seat] = games.Result{Seat: seat, Score: s.score(seat)}
		if seat == 0 || out[seat].Score > best {
			best = out[seat].Score
		}
	}
	for i := range out {
		out[i].Winner = s.Over() && out[i].Score == best
	}
	return out
}

// Apply performs one action.
func (s *State) Apply(seat int, a games.Action) ([]games.Event, error) {
	n, known := verbArgs[a.Verb]
	if !known {
		return nil, games.Refuse("That isn't a move in this game.")
	}
	if len(a.Args) != n {
		return nil, games.Refuse("That move doesn't look right; open your hand again for fresh buttons.")
	}
	// Votes come from buttons on the channel's appeal message, where anyone
	// may click; the Clock closes votes. Both judge the seat themselves.
	switch a.Verb {
	case VerbVote:
		return s.vote(seat, a.Arg(0), a.Arg(1))
	case VerbClose:
		return s.close(seat, a.Arg(0))
	}
	if seat < 0 || seat >= len(s.Names) {
		return nil, games.Refuse("You don't have a seat in this game.")
	}
	if s.Over() {
		return nil, games.Refuse("The game is over.")
	}
	switch a.Verb {
	case VerbAppeal:
		return s.appeal(seat, a.Arg(0), a.Text)
	case VerbSwap:
		return s.swap(seat, a.Arg(0))
	case VerbReady:
		return s.ready(seat)
	case VerbPlay:
		return s.play(seat, a.Arg(0), a.Text)
	case VerbDraw:
		return s.draw(seat)
	default: // VerbPass
		return s.pass(seat)
	}
}
