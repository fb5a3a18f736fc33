package store

import (
	"encoding/json"
	"time"

	"github.com/cardtable/cardbot/games"
)

// Schema is the layout version of a stored game record. A record of
// another version is refused, never half-read.
const Schema = 2

// Status of an open game.
const (
	Lobby   = "lobby"
	Playing = "playing"
)

// Game is one channel's game as the bot keeps it: who sits where and the
// game's own state as the rules encoded it. Only the channel's move lane
// writes it; the ids of the bot's messages live apart, in Posts.
type Game struct {
	Schema  int    `json:"schema"`
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Guild   string `json:"guild"`
	Channel string `json:"channel"`
	Host    string `json:"host"`
	Status  string `json:"status"`
	Version int    `json:"version"` // move counter, part of every custom_id
	Seats   []Seat `json:"seats"`
	// StartSeats is how many seats the game was dealt with; later seats
	// joined while it ran (the log records those joins).
	StartSeats   int             `json:"start_seats,omitempty"`
	Options      map[string]int  `json:"options"`
	NoAutoplay   bool            `json:"no_autoplay,omitempty"` // the host turned off forced moves playing themselves
	Threaded     bool            `json:"threaded,omitempty"`    // started where it may have a thread of its own
	Seed         uint64          `json:"seed"`
	StateVersion int             `json:"state_version,omitempty"`
	State        json.RawMessage `json:"state,omitempty"`
	Waiting      []int           `json:"waiting,omitempty"` // seats already pinged for the current turn
	Log          []string        `json:"log,omitempty"`     // the latest table line (older records kept more)
	Steps        int             `json:"steps,omitempty"`   // inputs in the game's log so far, Tail included
	// Tail: the log's latest inputs, not yet in the log bucket. They go
	// there logBatch at a time, so most moves rewrite only their record:
	// a log entry a move cost a page of the log in every group commit.
	Tail []Entry `json:"tail,omitempty"`
	// Reacts: for each game message ref and emoji ("ref emoji"), the users
	// whose reaction has reached the game, so a repeated event or the
	// recount at start-up delivers each reaction once.
	Reacts map[string][]string `json:"reacts,omitempty"`
	// Timers: the game's deadlines by key, with when each is due (Unix ms).
	Timers  map[string]int64 `json:"timers,omitempty"`
	Created time.Time        `json:"created"`
}

// Seat is one player.
type Seat struct {
	User      string `json:"user"`
	Name      string `json:"name"`
	Character string `json:"character,omitempty"`
	Left      bool   `json:"left,omitempty"` // left a game that lets people come and go
	// Computer names the policy of a seat the bot plays; empty for a person.
	Computer string `json:"computer,omitempty"`
	// Away: a player the host took out; the bot plays the seat (Computer)
	// until they act in it again.
	Away bool `json:"away,omitempty"`
	// The interaction that last showed this player their hand: its token
	// lets the bot refresh that ephemeral message in place for 15 minutes.
	HandToken string    `json:"hand_token,omitempty"`
	HandAt    time.Time `json:"hand_at,omitempty"`
	// The move counter at which this player's private view last changed: a
	// click from their hand is out of date only if made on an older view,
	// so one player's private choices never invalidate another's buttons.
	ViewVersion int `json:"view_version,omitempty"`
	// The move counter of this player's own latest move: a text box
	// opened before it is out of date, one opened before others' moves
	// only is not (typing takes a while).
	Moved int `json:"moved,omitempty"`
	// The move counter at which the game began waiting for this player: a
	// ping owed by an older move is for a turn they have already played.
	WaitingSince int `json:"waiting_since,omitempty"`
}

// SeatOf returns the user's seat, or -1.
func (g *Game) SeatOf(user string) int {
	for i, s := range g.Seats {
		if s.User == user && !s.Left {
			return i
		}
	}
	return -1
}

// Setup is what the game was dealt with, for a replay from its log.
func (g *Game) Setup() games.Setup {
	n := g.StartSeats
	if n == 0 || n > len(g.Seats) {
		n = len(g.Seats)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = g.Seats[i].Name
	}
	return games.Setup{Players: names, Options: g.Options, Seed: g.Seed}
}

// Posts are the ids of the messages the bot posted for a game. Only the
// channel's output lane writes them, so no move can undo them.
type Posts struct {
	Table string            `json:"table,omitempty"`
	Drawn int               `json:"drawn,omitempty"` // the move counter the table message shows
	Ping  string            `json:"ping,omitempty"`  // the latest standalone turn ping
	Refs  map[string]string `json:"refs,omitempty"`  // the game's own messages: ref → message id
	// Emoji that count on a game message, by ref: reactions with others
	// never reach the game.
	Emoji map[string][]string `json:"emoji,omitempty"`
	// Thread is the thread the game moved into at its start (its id is the
	// lobby message's, which stays in the channel); NoThread: starting one
	// was refused, so the game stays in the channel.
	Thread   string `json:"thread,omitempty"`
	NoThread bool   `json:"no_thread,omitempty"`
	// Result is the message that tells the channel how a game in a thread
	// ended.
	Result string `json:"result,omitempty"`
	// Stale are messages replaced by a newer table (the old table, a turn
	// ping), recorded with it and deleted next: a crash in between leaves
	// them to the next output to delete.
	Stale []string `json:"stale,omitempty"`
	// Told is "<output key> <n>": the first n story lines of that output
	// are out, so a replay of it does not tell them again.
	Told string `json:"told,omitempty"`
}

// RefOf returns the game ref of a message id, if it is one of the game's.
func (p *Posts) RefOf(message string) (string, bool) {
	for ref, id := range p.Refs {
		if id == message {
			return ref, true
		}
	}
	return "", false
}

// Ended is what remains of a finished or cancelled game.
type Ended struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	Channel string    `json:"channel"`
	How     string    `json:"how"`
	At      time.Time `json:"at,omitempty"`
	// Final is the record as it was when the game ended; once compacted it
	// keeps who played, the options and the seed, not the state, which the
	// log replays.
	Final *Game `json:"final,omitempty"`
}

// PlayerResult is one player's outcome of a finished game.
type PlayerResult struct {
	User  string
	Name  string
	Won   bool
	Score int
}

// Stats is a server's record: user id → their tallies.
type Stats map[string]*PlayerStats

// PlayerStats is one player's tallies per game kind.
type PlayerStats struct {
	Name  string            `json:"name"`
	Games map[string]*Tally `json:"games"`
}

// Tally counts games played and won, and the points scored.
type Tally struct {
	Played int `json:"played"`
	Won    int `json:"won"`
	Points int `json:"points,omitempty"`
	Best   int `json:"best,omitempty"`
}

// Output is what a committed change still owes its channel: the game's
// messages to post or edit, players to ping, hands and the table to
// redraw. It is saved with the change and removed once done, so a crash in
// between does not lose it; its messages carry nonces derived from Key, so
// doing it twice posts nothing twice.
type Output struct {
	Key     string        `json:"-"`
	Game    string        `json:"game"`
	Channel string        `json:"channel"`
	Version int           `json:"version"` // the move counter the change left
	Events  []games.Event `json:"events,omitempty"`
	Ping    []int         `json:"ping,omitempty"`
	Hands   []int         `json:"hands,omitempty"`
	Closed  string        `json:"closed,omitempty"` // the game was ended early: leave the table with this note and no controls
	// Repost: the table is posted anew at the bottom (/game table), not
	// edited in place.
	Repost bool `json:"repost,omitempty"`
}

// Entry is one input in a game's log.
type Entry struct {
	At    time.Time   `json:"at"`
	Input games.Input `json:"in"`
}

// Due is a timer that has come due.
type Due struct {
	Channel string `json:"channel"`
	Game    string `json:"game"`
	Key     string `json:"key"`
	At      int64  `json:"at"` // Unix ms
}
