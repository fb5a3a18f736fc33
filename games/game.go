// Package games holds what every game shares: the contract the bot drives a
// game through, seeded randomness, and playing cards. Game packages import it;
// it imports nothing from the bot, the store or Discord.
package games

import (
	"encoding/json"
	"fmt"
)

// Setup is everything a game needs to start. Seat 0 is the host: the dealer,
// or the GM in games that have one. Seats are in join order.
type Setup struct {
	Players []string       // display names, one per seat
	Options map[string]int // variant options by name; booleans are 0 or 1
	Seed    uint64
}

// Opt reads an option with a default.
func (s Setup) Opt(name string, def int) int {
	if v, ok := s.Options[name]; ok {
		return v
	}
	return def
}

// Rules describes one game and creates instances of it.
type Rules struct {
	ID         string // short and stable: stored with every game and shown in /game new
	Name       string
	MinPlayers int
	MaxPlayers int
	Options    []Option
	Summary    string // the rules in our own words, with the rulings: what /rules shows
	New        func(Setup) (Game, error)
	Load       func([]byte) (Game, error)
}

// OptionKind says how an option is typed in /game new.
type OptionKind int

const (
	IntOption OptionKind = iota
	BoolOption
)

// Option is a variant a host may set when opening a game.
type Option struct {
	Name        string // lower-case slash-command option name
	Label       string // how the lobby names it, e.g. "Hand limit"
	Description string
	Kind        OptionKind
	Default     int
	Min, Max    int // for IntOption
}

// Validate checks options against the rules' declarations and fills in defaults.
func (r Rules) Validate(opts map[string]int) (map[string]int, error) {
	out := map[string]int{}
	for name := range opts {
		if r.option(name) == nil {
			return nil, Refuse("%s has no option called %q.", r.Name, name)
		}
	}
	for _, o := range r.Options {
		v, ok := opts[o.Name]
		if !ok {
			v = o.Default
		}
		if o.Kind == IntOption && (v < o.Min || v > o.Max) {
			return nil, Refuse("%s must be between %d and %d.", o.Name, o.Min, o.Max)
		}
		if o.Kind == BoolOption && v != 0 && v != 1 {
			return nil, Refuse("%s must be true or false.", o.Name)
		}
		out[o.Name] = v
	}
	return out, nil
}

func (r Rules) option(name string) *Option {
	for i := range r.Options {
		if r.Options[i].Name == name {
			return &r.Options[i]
		}
	}
	return nil
}

// Game is one running instance. Apply mutates the receiver; the bot always
// works on a freshly loaded copy and discards it when Apply refuses, so a
// refused action never leaves a half-applied state behind.
type Game interface {
	// Apply validates and performs one action by the player in seat.
	// A *Refusal error carries the sentence the player reads.
	Apply(seat int, a Action) ([]Event, error)
	// ToAct lists the seats the game is waiting for, for pings and "whose turn".
	ToAct() []int
	Over() bool
	// Table is the public view; Hand is what one seat sees privately, with
	// the controls for that seat's legal moves.
	Table() View
	Hand(seat int) View
	// Results is meaningful once Over: one entry per seat.
	Results() []Result
}

// Reactive is implemented by games where players speak in character and
// may reward each other's lines with reactions. ref identifies the message.
type Reactive interface {
	// RolePlay reports whether reactions count (the role-play option is on).
	RolePlay() bool
	React(from, to int, ref string, add bool) ([]Event, error)
}

// Result is one seat's outcome.
type Result struct {
	Seat   int
	Score  int
	Winner bool
}

// Event is something that happened, in words for the table. Story events
// are also posted in the channel as narration.
type Event struct {
	Text  string
	Story bool
}

// Say makes a plain table event.
func Say(format string, args ...any) Event { return Event{Text: fmt.Sprintf(format, args...)} }

// Narrate makes a story event.
func Narrate(format string, args ...any) Event {
	return Event{Text: fmt.Sprintf(format, args...), Story: true}
}

// Refusal is a rejected action; Msg is shown to the player as it is.
type Refusal struct{ Msg string }

func (r *Refusal) Error() string { return r.Msg }

// Refuse builds a Refusal.
func Refuse(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

// Encode serialises a game's state; every game state is plain exported data.
func Encode(g Game) ([]byte, error) { return json.Marshal(g) }

// LoadJSON decodes into a fresh T; game packages use it as their Rules.Load.
func LoadJSON[T any, P interface {
	*T
	Game
}](data []byte) (Game, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return P(&v), nil
}

// Opener is implemented by games that have something to say as they begin
// (narration after the deal, an invitation to introduce characters).
type Opener interface {
	Opening() []Event
}
