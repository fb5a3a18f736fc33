package games

import (
	"fmt"
	"strings"
)

// Action is a player's move: a verb with arguments, plus free text for moves
// where the player types something. Verb and Args travel inside Discord
// custom_ids, so they are short tokens without ':', '=' or ','.
type Action struct {
	Verb string
	Args []string `json:",omitempty"` // omitted: every move's input is stored
	Text string   `json:",omitempty"`
}

// Act builds an action.
func Act(verb string, args ...string) Action { return Action{Verb: verb, Args: args} }

// Key is the action's compact form: "verb" or "verb=a,b".
func (a Action) Key() string {
	if len(a.Args) == 0 {
		return a.Verb
	}
	return a.Verb + "=" + strings.Join(a.Args, ",")
}

// ParseAction reads a Key back.
func ParseAction(s string) (Action, error) {
	verb, args, has := strings.Cut(s, "=")
	if !validToken(verb) {
		return Action{}, fmt.Errorf("bad action verb %q", verb)
	}
	a := Action{Verb: verb}
	if has {
		a.Args = strings.Split(args, ",")
		for _, x := range a.Args {
			if !validToken(x) {
				return Action{}, fmt.Errorf("bad action argument %q", x)
			}
		}
	}
	return a, nil
}

func validToken(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' || r == ':' || r == '=' || r == ',' {
			return false
		}
	}
	return true
}

// Arg returns argument i or "".
func (a Action) Arg(i int) string {
	if i < len(a.Args) {
		return a.Args[i]
	}
	return ""
}
