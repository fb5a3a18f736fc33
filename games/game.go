// Package games holds what every game shares: the contract the bot drives a
// game through, seeded randomness, cards and decks. Game packages import it;
// it imports nothing from the bot, the store or Discord.
package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
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
	ID         string // short and stable: stored with every game, the /game new subcommand
	Name       string
	Blurb      string // one line for /game new's description (≤ 100 characters)
	MinPlayers int    // seats at the start, the GM included
	MaxPlayers int
	// GM: seat 0 runs the game and is not a competitor: never a winner or
	// loser in the results.
	GM bool
	// Version of the state's encoding. Load refuses any other version; bump
	// it (and migrate) whenever a saved state would read differently.
	Version int
	Options []Option
	Summary string // the rules in our own words, with the rulings: what /rules shows
	New     func(Setup) (Game, error)
	Load    func([]byte) (Game, error)
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

// Seats with a special meaning where a seat number is expected.
const (
	Spectator = -1 // someone without a seat: a reaction, or a button on a game's own message
	Clock     = -2 // a deadline firing (Timer.Seat)
)

// Game is one running instance. Apply mutates the receiver; the bot always
// works on a freshly loaded copy and discards it when Apply refuses, so a
// refused action never leaves a half-applied state behind.
type Game interface {
	// Apply validates and performs one action by the player in seat (or
	// Spectator, for buttons on the game's own messages, or Clock).
	// A *Refusal error carries the sentence the player reads.
	Apply(seat int, a Action) ([]Event, error)
	// ToAct lists the seats the game is waiting for, for pings and "whose turn".
	ToAct() []int
	Over() bool
	// Table is the public view; Hand is what one seat sees privately, with
	// the controls for that seat's legal moves.
	Table() View
	Hand(seat int) View
	// Results is meaningful once Over: one entry per competing seat.
	Results() []Result
}

// Talker is implemented by games where players speak in character with
// /say. The game returns the message to post (an Event with a Ref, and the
// Emoji that count on it) and remembers whose line it is.
type Talker interface {
	Say(seat int, speaker, line string) ([]Event, error)
}

// Characters is implemented by games where a seat names its character in
// play (Improv's protagonists): /say speaks as that character unless the
// player names another. Character is "" for a seat with none yet.
type Characters interface {
	Character(seat int) string
}

// Reactor is implemented by games that count reactions on their own
// messages. seat is Spectator for someone without a seat. The bot delivers
// each user's reaction once while it stands, and its removal once.
type Reactor interface {
	React(seat int, ref, emoji string, add bool) ([]Event, error)
}

// Appealer is implemented by games where a player may appeal against
// another's rudeness (/appeal): the appeal is the action AppealVerb with the
// offender's seat as its argument and the words complained of as Text.
type Appealer interface {
	AppealVerb() string
}

// MessageActor is implemented by games whose own messages carry buttons
// (Event.Buttons). ActVerbs lists the verbs those buttons use: the only
// ones the bot takes from a click on a game message, so that a forged
// button there cannot make a move without the hand's staleness check.
type MessageActor interface {
	ActVerbs() []string
}

// Joiner is implemented by games that seat people while they run (a
// campaign). Join returns the new seat, always the next index; seats are
// never renumbered, so Leave only marks a seat as gone.
type Joiner interface {
	Join(name string) (seat int, events []Event, err error)
	Leave(seat int) ([]Event, error)
}

// Timed is implemented by games with deadlines. The bot keeps each listed
// timer from the first time it is listed, fires it once at that moment plus
// Delay (also across restarts), and forgets it once the game stops listing
// it. The rules never read a clock: a firing is just an action.
type Timed interface {
	Timers() []Timer
}

// Timer is one deadline: at Delay after it was first listed, Action is
// applied for Seat (Clock if it is nobody's move), or with Remind set the
// seat is only reminded that it is their move.
type Timer struct {
	Key    string // stable while the timer stands; a new key is a new timer
	Delay  time.Duration
	Seat   int
	Action Action
	Remind bool
}

// Result is one seat's outcome.
type Result struct {
	Seat   int
	Score  int
	Winner bool
}

// Event is something that happened, in words for the table. Story events
// are also posted in the channel as narration. An event with a Ref is a
// message the game owns: the bot posts it the first time the Ref is seen
// and edits that message when a later event carries the same Ref; Emoji are
// the reactions that reach the game's React on it, and Buttons (actions
// anyone may click, judged by the game) are shown under it.
type Event struct {
	Text    string
	Story   bool
	Ref     string   `json:",omitempty"`
	Emoji   []string `json:",omitempty"`
	Buttons []Button `json:",omitempty"`
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
// A field the state no longer has is an error, never silently dropped, and
// so is anything after the state. A state that implements Validator is
// checked, so a damaged record is refused instead of breaking a view.
func LoadJSON[T any, P interface {
	*T
	Game
}](data []byte) (Game, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the state")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the state")
	}
	g := P(&v)
	if val, ok := any(g).(Validator); ok {
		if err := val.Valid(); err != nil {
			return nil, fmt.Errorf("invalid state: %w", err)
		}
	}
	return g, nil
}

// Forgetter is implemented by games whose messages' reactions stop counting
// while the game runs (an Improv line once its conflict's award window has
// closed). Counts says whether reactions on the message ref can still reach
// the game; the bot forgets the others' refs, so a long game keeps only the
// live ones. A game without it keeps every ref until it ends.
type Forgetter interface {
	Counts(ref string) bool
}

// Validator is implemented by states that can check their own invariants
// (lengths that must agree, indexes in range), for LoadJSON.
type Validator interface {
	Valid() error
}

// Opener is implemented by games that have something to say as they begin
// (narration after the deal, an invitation to introduce characters).
type Opener interface {
	Opening() []Event
}
