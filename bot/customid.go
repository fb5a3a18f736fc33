package bot

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Custom ids have one small grammar, parsed only here:
//
//	lobby:<game>:<version>:<join|leave|start|cancel|rematch|end|addcpu|dropcpu>
//	hand:<game>                       the "My hand" button; always shows the current hand
//	move:<game>:<version>:<action>    a move; a select menu's values are appended as arguments
//	ask:<game>:<version>:<action>     opens a text box for a move that needs typed text
//	text:<game>:<version>:<action>    the text box itself (modal)
//	act:<game>:0:<action>             a button under one of the game's own messages (a vote):
//	                                  anyone may press it, the game judges, it never goes stale
//
// <game> is the game's random id, so a button from an earlier game in the
// same channel is recognised as such; <version> is the move counter, so a
// click made on an out-of-date view is refused with the current one.
type customID struct {
	kind    string
	game    string
	version int
	action  games.Action
}

var lobbyActions = map[string]bool{"join": true, "leave": true, "start": true, "cancel": true, "rematch": true, "end": true, "addcpu": true, "dropcpu": true}

func (c customID) String() string {
	if c.kind == "hand" {
		return "hand:" + c.game
	}
	return c.kind + ":" + c.game + ":" + strconv.Itoa(c.version) + ":" + c.action.Key()
}

var errBadCustomID = errors.New("unrecognised custom_id")

func parseCustomID(s string) (customID, error) {
	parts := strings.Split(s, ":")
	bad := errBadCustomID // built once: every click parses one, and fmt is dear
	if len(parts) == 2 && parts[0] == "hand" && validGameID(parts[1]) {
		return customID{kind: "hand", game: parts[1]}, nil
	}
	if len(parts) != 4 || !validGameID(parts[1]) {
		return customID{}, bad
	}
	v, err := strconv.Atoi(parts[2])
	if err != nil || v < 0 {
		return customID{}, bad
	}
	a, err := games.ParseAction(parts[3])
	if err != nil {
		return customID{}, bad
	}
	c := customID{kind: parts[0], game: parts[1], version: v, action: a}
	switch c.kind {
	case "lobby":
		if !lobbyActions[a.Verb] || len(a.Args) > 0 {
			return customID{}, bad
		}
	case "move", "ask", "text", "act":
	default:
		return customID{}, bad
	}
	return c, nil
}

const gameIDAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

func newGameID() string {
	var b [8]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = gameIDAlphabet[int(b[i])%len(gameIDAlphabet)]
	}
	return string(b[:])
}

func validGameID(s string) bool {
	if len(s) != 8 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(gameIDAlphabet, r) {
			return false
		}
	}
	return true
}

// newSeed draws a game's seed from the operating system; from then on all
// randomness comes from the saved state.
func newSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
