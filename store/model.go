package store

import (
	"encoding/json"
	"time"
)

// Status of an open game.
const (
	Lobby   = "lobby"
	Playing = "playing"
)

// Game is one channel's game as the bot keeps it: who sits where, the
// table message, and the game's own state as the rules encoded it.
type Game struct {
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	Guild    string          `json:"guild"`
	Channel  string          `json:"channel"`
	Host     string          `json:"host"`
	Status   string          `json:"status"`
	Version  int             `json:"version"` // move counter, part of every custom_id
	Seats    []Seat          `json:"seats"`
	Options  map[string]int  `json:"options"`
	Seed     uint64          `json:"seed"`
	TableMsg string          `json:"table_msg"`
	PingMsg  string          `json:"ping_msg,omitempty"`
	Waiting  []int           `json:"waiting,omitempty"` // seats already pinged for the current turn
	State    json.RawMessage `json:"state,omitempty"`
	Log      []string        `json:"log,omitempty"` // the latest table lines
	// Role-play messages posted with /say: message id → seat, and the
	// reactions the game has counted on each (message id → user ids).
	RolePlay map[string]int      `json:"role_play,omitempty"`
	Counted  map[string][]string `json:"counted,omitempty"`
	// Reactions the rules refused (message id → user ids), so that a restart
	// does not count them as if given while the bot was away.
	Refused map[string][]string `json:"refused,omitempty"`
	Created time.Time           `json:"created"`
}

// Seat is one player.
type Seat struct {
	User      string `json:"user"`
	Name      string `json:"name"`
	Character string `json:"character,omitempty"`
	// The interaction that last showed this player their hand: its token
	// lets the bot refresh that ephemeral message in place for 15 minutes.
	HandToken string    `json:"hand_token,omitempty"`
	HandAt    time.Time `json:"hand_at,omitempty"`
	// The move counter at which this player's private view last changed: a
	// click from their hand is out of date only if made on an older view,
	// so one player's private choices never invalidate another's buttons.
	ViewVersion int `json:"view_version,omitempty"`
	// The move counter at which the game began waiting for this player: a
	// ping owed by an older move is for a turn they have already played.
	WaitingSince int `json:"waiting_since,omitempty"`
}

// SeatOf returns the user's seat, or -1.
func (g *Game) SeatOf(user string) int {
	for i, s := range g.Seats {
		if s.User == user {
			return i
		}
	}
	return -1
}

// Ended is what remains of a finished or cancelled game.
type Ended struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
	How     string `json:"how"`
	Final   *Game  `json:"final,omitempty"` // the record as it was when the game ended
}

// PlayerResult is one player's outcome of a finished game.
type PlayerResult struct {
	User string
	Name string
	Won  bool
}

// Stats is a server's record: user id → their tallies.
type Stats map[string]*PlayerStats

// PlayerStats is one player's tallies per game kind.
type PlayerStats struct {
	Name  string            `json:"name"`
	Games map[string]*Tally `json:"games"`
}

// Tally counts games played and won.
type Tally struct {
	Played int `json:"played"`
	Won    int `json:"won"`
}

// Output is what a committed move still owes its channel: narration to post,
// players to ping, hands and the table to redraw. It is saved with the move
// and removed once done, so a crash in between does not lose it.
type Output struct {
	Key       string   `json:"-"`
	Game      string   `json:"game"`
	Channel   string   `json:"channel"`
	Version   int      `json:"version"` // the move counter the move left
	Story     []string `json:"story,omitempty"`
	Ping      []int    `json:"ping,omitempty"`
	Hands     []int    `json:"hands,omitempty"`
	TableDone bool     `json:"table_done,omitempty"` // the answer already showed the table
	Closed    string   `json:"closed,omitempty"`     // the game was ended early: leave the table with this note and no controls
	Line      *Line    `json:"line,omitempty"`       // a role-play line to post
}

// Line is a player's in-character line, as /say posts it.
type Line struct {
	Seat int    `json:"seat"`
	Text string `json:"text"` // the whole message, attribution included
}
