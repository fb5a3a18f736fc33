package ai

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Policy names every game understands.
const (
	RandomName   = "random"   // Random, offered for every game
	SensibleName = "sensible" // by convention, a game's best computer player
)

// Entry is one game a host can seat computers in: its rules and the
// policies its package offers (nil: only Random).
type Entry struct {
	Rules    games.Rules
	Policies map[string]Policy
}

// Catalog lists games with their computer players. It lives with whoever
// hosts games, next to the list of Rules, so this package depends on no game:
//
//	ai.Catalog{{Rules: duel.Rules, Policies: duel.Policies}, {Rules: lnf.Rules}}
type Catalog []Entry

// Entry finds a game by its Rules.ID.
func (c Catalog) Entry(gameID string) (Entry, bool) {
	for _, e := range c {
		if e.Rules.ID == gameID {
			return e, true
		}
	}
	return Entry{}, false
}

// For returns every policy a game has, "random" included (nil for an
// unknown game).
func (c Catalog) For(gameID string) map[string]Policy {
	e, ok := c.Entry(gameID)
	if !ok {
		return nil
	}
	out := map[string]Policy{RandomName: Random}
	for name, p := range e.Policies {
		out[name] = p
	}
	return out
}

// Names lists a game's policy names, sorted.
func (c Catalog) Names(gameID string) []string {
	var out []string
	for name := range c.For(gameID) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Lookup finds one policy by name.
func (c Catalog) Lookup(gameID, name string) (Policy, error) {
	ps := c.For(gameID)
	if ps == nil {
		return nil, fmt.Errorf("no game %q (have %s)", gameID, strings.Join(c.IDs(), ", "))
	}
	p, ok := ps[name]
	if !ok {
		return nil, fmt.Errorf("%s has no policy %q (have %s)", gameID, name, strings.Join(c.Names(gameID), ", "))
	}
	return p, nil
}

// Default is the computer player a host should seat: the game's
// "sensible" policy if it has one, otherwise Random.
func (c Catalog) Default(gameID string) Policy {
	if p, ok := c.For(gameID)[SensibleName]; ok {
		return p
	}
	return Random
}

// IDs lists the games in catalog order.
func (c Catalog) IDs() []string {
	out := make([]string, 0, len(c))
	for _, e := range c {
		out = append(out, e.Rules.ID)
	}
	return slices.Clip(out)
}
