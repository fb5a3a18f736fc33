// Package duel is Card Duel: two players build a secret hand from a pool of
// 26 cards and trade attacks until one of them has taken enough damage.
package duel

import (
	"cmp"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Option names and bounds.
const (
	OptHandLimit = "hand_limit"
	OptLife      = "life"

	DefaultHandLimit = 30
	DefaultLife      = 22
	minHandLimit     = 10
	maxHandLimit     = 60
	minLife          = 5
	maxLife          = 60
)

// Phases of a duel.
const (
	PhaseBuild = "build" // both players choose their hands in secret
	PhasePlay  = "play"  // exchanges
	PhaseOver  = "over"
)

// Steps of an exchange.
const (
	StepAttack = "attack" // the offense plays a card
	StepDefend = "defend" // the defense answers
	StepDamage = "damage" // the attack got through: the offense deals damage
)

// Action verbs.
const (
	VerbPickA     = "picka"     // args: card codes, the new picks within the low half of the pool
	VerbPickB     = "pickb"     // args: card codes, the new picks within the high half of the pool
	VerbClear     = "clear"     // drop every tentative pick
	VerbLock      = "lock"      // lock in the tentative picks as the hand (final)
	VerbHand      = "hand"      // arg: card code, play that card from the hand
	VerbDeck      = "deck"      // play the top card of the deck
	VerbReshuffle = "reshuffle" // deck empty: shuffle the discard pile into a new deck and play its top card
)

// poolSize is how many cards each player is dealt; halfSize is one select menu.
const (
	poolSize = 26
	halfSize = poolSize / 2
)

// Rules registers Card Duel.
var Rules = games.Rules{
	ID:         "duel",
	Name:       "Card Duel",
	MinPlayers: 2,
	MaxPlayers: 2,
	Options: []games.Option{
		{Name: OptHandLimit, Label: "Hand limit", Description: "Most points a hand may be worth when it is built (default 30)",
			Kind: games.IntOption, Default: DefaultHandLimit, Min: minHandLimit, Max: maxHandLimit},
		{Name: OptLife, Label: "Life", Description: "Damage that kills a player (default 22)",
			Kind: games.IntOption, Default: DefaultLife, Min: minLife, Max: maxLife},
	},
	Summary: summary,
	New:     New,
	Load:    games.LoadJSON[State],
	Version: 1,
	Blurb:   "Two players build a secret hand, then trade attacks until one takes too much damage",
}

// Player is one side of the duel. Piles keep their top card last.
type Player struct {
	Pool    []games.Card `json:",omitempty"` // the 26 dealt cards, sorted by value, while building
	Picks   []games.Card `json:",omitempty"` // tentative hand while building (private)
	Locked  bool
	Hand    []games.Card // sorted by value
	Deck    []games.Card
	Discard []games.Card
	Damage  []games.Card // damage cards placed in front of this player, out of play for good
}

// State is a whole Card Duel.
type State struct {
	Names     []string
	HandLimit int
	Life      int
	RNG       games.RNG
	Phase     string
	Players   []Player
	Offense   int         // seat on offense
	Step      string      // during play: StepAttack, StepDefend or StepDamage
	Attack    *games.Card // the attack card on the table, if any
	Defense   *games.Card // the defense card on the table, if any
	Last      string      // what the last finished exchange came to, for the table
	Winner    int         // seat of the winner once over, else -1
	End       string      // how the duel ended
}

// New deals a duel.
func New(s games.Setup) (games.Game, error) {
	if len(s.Players) != 2 {
		return nil, games.Refuse("Card Duel needs exactly 2 players.")
	}
	st := &State{
		Names:     slices.Clone(s.Players),
		HandLimit: s.Opt(OptHandLimit, DefaultHandLimit),
		Life:      s.Opt(OptLife, DefaultLife),
		RNG:       games.NewRNG(s.Seed),
		Phase:     PhaseBuild,
		Players:   make([]Player, 2),
		Winner:    -1,
	}
	if st.HandLimit < minHandLimit || st.HandLimit > maxHandLimit {
		return nil, games.Refuse("%s must be between %d and %d.", OptHandLimit, minHandLimit, maxHandLimit)
	}
	if st.Life < minLife || st.Life > maxLife {
		return nil, games.Refuse("%s must be between %d and %d.", OptLife, minLife, maxLife)
	}
	deck := games.StandardDeck(0)
	games.Shuffle(&st.RNG, deck)
	for seat := range st.Players {
		pool := slices.Clone(deck[seat*poolSize : (seat+1)*poolSize])
		sortCards(pool)
		st.Players[seat].Pool = pool
	}
	return st, nil
}

// ToAct lists the seats the duel waits for.
func (s *State) ToAct() []int {
	switch s.Phase {
	case PhaseBuild:
		var out []int
		for seat, p := range s.Players {
			if !p.Locked {
				out = append(out, seat)
			}
		}
		return out
	case PhasePlay:
		return []int{s.actor()}
	}
	return nil
}

// Over reports whether someone has won.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// Results scores each seat with the damage it dealt to the other.
func (s *State) Results() []games.Result {
	out := make([]games.Result, len(s.Players))
	for seat := range s.Players {
		out[seat] = games.Result{
			Seat:   seat,
			Score:  total(s.Players[1-seat].Damage),
			Winner: s.Phase == PhaseOver && s.Winner == seat,
		}
	}
	return out
}

// actor is the seat whose move it is during play.
func (s *State) actor() int {
	if s.Step == StepDefend {
		return 1 - s.Offense
	}
	return s.Offense
}

func value(c games.Card) int { return c.PipValue() }

func total(cs []games.Card) int {
	n := 0
	for _, c := range cs {
		n += value(c)
	}
	return n
}

// sortCards orders cards by value, then rank, then suit: the order hands and
// pools are shown in, and the order "first card of a value" refers to.
func sortCards(cs []games.Card) {
	slices.SortFunc(cs, func(a, b games.Card) int {
		return cmp.Or(cmp.Compare(value(a), value(b)), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Suit, b.Suit))
	})
}
