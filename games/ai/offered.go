package ai

import (
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Offered lists the actions a view's enabled controls can send: one per
// button, and for each select menu one random selection within its bounds.
// A button that asks for typed words gets text(r, action) as its Text
// (nil: no text).
func Offered(r *games.RNG, v games.View, text func(*games.RNG, games.Action) string) []games.Action {
	var out []games.Action
	for _, b := range v.Buttons {
		if b.Disabled {
			continue
		}
		a := b.Action
		a.Args = slices.Clone(a.Args)
		if b.Ask != nil && text != nil {
			a.Text = text(r, a)
		}
		out = append(out, a)
	}
	for _, c := range v.Choices {
		if a, ok := RandomSelection(r, c); ok {
			out = append(out, a)
		}
	}
	return out
}

// RandomSelection is a uniformly sized random selection from a select menu,
// within its Min and Max, as the action it sends.
func RandomSelection(r *games.RNG, c games.Choice) (games.Action, bool) {
	if len(c.Options) == 0 {
		return games.Action{}, false
	}
	opts := slices.Clone(c.Options)
	games.Shuffle(r, opts)
	hi := min(max(c.Max, 1), len(opts))
	lo := min(max(c.Min, 0), hi)
	n := lo + r.Intn(hi-lo+1)
	a := games.Action{Verb: c.Verb}
	for _, o := range opts[:n] {
		a.Args = append(a.Args, o.Value)
	}
	return a, true
}

// Random plays uniformly at random among the controls its hand view
// offers. It is the baseline every other policy is measured against, and
// the computer player of any game that has no better one.
var Random Policy = Func(func(r *games.RNG, _, hand games.View, _ int) (games.Action, bool) {
	acts := Offered(r, hand, nil)
	if len(acts) == 0 {
		return games.Action{}, false
	}
	return acts[r.Intn(len(acts))], true
})

// Has reports whether the view offers an enabled button with this verb,
// and returns the first.
func Has(v games.View, verb string) (games.Action, bool) {
	for _, b := range v.Buttons {
		if !b.Disabled && b.Action.Verb == verb {
			return b.Action, true
		}
	}
	return games.Action{}, false
}

// Buttons lists the enabled buttons with this verb.
func Buttons(v games.View, verb string) []games.Button {
	var out []games.Button
	for _, b := range v.Buttons {
		if !b.Disabled && b.Action.Verb == verb {
			out = append(out, b)
		}
	}
	return out
}

// Menu returns the select menu with this verb.
func Menu(v games.View, verb string) (games.Choice, bool) {
	for _, c := range v.Choices {
		if c.Verb == verb {
			return c, true
		}
	}
	return games.Choice{}, false
}
