// Package gamestest is the conformance kit every game runs: random play
// through the controls its views offer, a JSON round trip at every step,
// replay from the log, Discord's view limits, and no secret where another
// seat (or the table) could read it.
package gamestest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// Config says how to play a game at random.
type Config struct {
	Seeds   int              // games per player count (default 30)
	Players []int            // player counts to try (default: min and max)
	Options []map[string]int // option sets to cycle through (default: the defaults)
	// MaxSteps bounds one game. A game that is not over by then fails,
	// unless Endless (a campaign that runs until the GM ends it).
	MaxSteps int
	Endless  bool
	// Secrets lists strings only seat may see (its cards, say): none may
	// appear on the table or in another seat's view.
	Secrets func(g games.Game, seat int) []string
	// Text answers a button that asks for typed words (default: a rotation
	// of plausible and implausible lines).
	Text func(r *games.RNG, a games.Action) string
	// Joins: names that join a Joiner game part-way through.
	Joins []string
	// Check runs after every accepted input, for game-specific invariants.
	Check func(t testing.TB, g games.Game)
}

// Move is one control a view offers, turned into the action a click sends.
type Move struct {
	Seat   int
	Action games.Action
}

// Offered lists what a view lets seat do; a select menu contributes one
// random selection within its bounds, and an Ask button gets typed text.
func Offered(r *games.RNG, v games.View, seat int, text func(*games.RNG, games.Action) string) []Move {
	var out []Move
	for _, b := range v.Buttons {
		if b.Disabled {
			continue
		}
		a := b.Action
		if b.Ask != nil {
			a.Text = text(r, a)
		}
		out = append(out, Move{seat, a})
	}
	for _, c := range v.Choices {
		if len(c.Options) == 0 {
			continue
		}
		opts := slices.Clone(c.Options)
		games.Shuffle(r, opts)
		hi := min(max(c.Max, 1), len(opts))
		lo := min(c.Min, hi)
		n := lo + r.Intn(hi-lo+1)
		if r.Intn(2) == 0 { // small selections are likelier to be legal
			n = min(n, lo+r.Intn(3))
		}
		a := games.Action{Verb: c.Verb}
		for _, o := range opts[:n] {
			a.Args = append(a.Args, o.Value)
		}
		out = append(out, Move{seat, a})
	}
	return out
}

var lines = []string{"", "hello", "life is not fair, but draw two", "Life is not fair but game over!", "x"}

func defaultText(r *games.RNG, _ games.Action) string { return lines[r.Intn(len(lines))] }

// Run plays cfg.Seeds random games per player count and checks everything
// the kit knows about.
func Run(t *testing.T, rules games.Rules, cfg Config) {
	t.Helper()
	if cfg.Seeds == 0 {
		cfg.Seeds = 30
		if testing.Short() {
			cfg.Seeds = 8
		}
	}
	if len(cfg.Players) == 0 {
		cfg.Players = []int{rules.MinPlayers, rules.MaxPlayers}
	}
	if len(cfg.Options) == 0 {
		cfg.Options = []map[string]int{nil}
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 3000
	}
	if cfg.Text == nil {
		cfg.Text = defaultText
	}
	if rules.Version < 1 {
		t.Errorf("%s: Rules.Version must be set (≥ 1)", rules.ID)
	}
	if utf8.RuneCountInString(rules.Blurb) > 100 || rules.Blurb == "" {
		t.Errorf("%s: Blurb must be 1–100 characters, is %q", rules.ID, rules.Blurb)
	}
	for _, n := range cfg.Players {
		for seed := 1; seed <= cfg.Seeds; seed++ {
			opts, err := rules.Validate(cfg.Options[seed%len(cfg.Options)])
			if err != nil {
				t.Fatalf("%s options: %v", rules.ID, err)
			}
			name := fmt.Sprintf("%s/%dp/seed%d", rules.ID, n, seed)
			if !playOne(t, name, rules, n, uint64(seed), opts, cfg) {
				return
			}
		}
	}
}

func playOne(t *testing.T, name string, rules games.Rules, n int, seed uint64, opts map[string]int, cfg Config) bool {
	t.Helper()
	setup := games.Setup{Options: opts, Seed: seed}
	for i := range n {
		setup.Players = append(setup.Players, fmt.Sprintf("P%d", i+1))
	}
	g, err := rules.New(setup)
	if err != nil {
		t.Errorf("%s: New: %v", name, err)
		return false
	}
	r := games.NewRNG(seed*7919 + uint64(n))
	var log []games.Input
	seats := n
	joins := slices.Clone(cfg.Joins)
	for step := 0; ; step++ {
		if g.Over() {
			break
		}
		if step >= cfg.MaxSteps {
			if cfg.Endless {
				break
			}
			t.Errorf("%s: not over after %d steps; waiting for %v", name, step, g.ToAct())
			return false
		}
		if !checkViews(t, name, g, seats, cfg) {
			return false
		}
		in, ok := pick(&r, g, seats, cfg, &joins)
		if !ok {
			t.Errorf("%s: step %d: nothing to do but the game is not over (ToAct %v)", name, step, g.ToAct())
			return false
		}
		before, err := games.Encode(g)
		if err != nil {
			t.Errorf("%s: encode: %v", name, err)
			return false
		}
		// The bot's next move starts from a clone of the committed state.
		twin, err := games.Clone(g)
		if err != nil {
			t.Errorf("%s: clone: %v", name, err)
			return false
		}
		events, err := games.Step(g, in)
		if !cloneHolds(t, name, twin, g, before, in, err) {
			return false
		}
		var refusal *games.Refusal
		switch {
		case errors.As(err, &refusal):
			if refusal.Msg == "" {
				t.Errorf("%s: an empty refusal for %+v", name, in)
				return false
			}
			// The bot discards a refused copy; do the same.
			if g, err = rules.Load(before); err != nil {
				t.Errorf("%s: reload: %v", name, err)
				return false
			}
			continue
		case err != nil:
			t.Errorf("%s: step %d: %+v: error that is not a refusal: %v", name, step, in, err)
			return false
		}
		if in.Kind == games.InJoin {
			seats++
		}
		log = append(log, in)
		if !checkEvents(t, name, events) {
			return false
		}
		if g, err = roundTrip(rules, g, seats); err != nil {
			t.Errorf("%s: step %d: %v", name, step, err)
			return false
		}
		if cfg.Check != nil {
			cfg.Check(t, g)
		}
	}
	if g.Over() {
		res := g.Results()
		if len(res) == 0 {
			t.Errorf("%s: over with no results", name)
			return false
		}
		for _, x := range res {
			if rules.GM && x.Seat == 0 {
				t.Errorf("%s: the GM is in the results", name)
				return false
			}
		}
	}
	again, err := games.Replay(rules, setup, log)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	a, _ := games.Encode(g)
	b, _ := games.Encode(again)
	if !bytes.Equal(a, b) {
		t.Errorf("%s: replay from the log differs:\n%s\n%s", name, a, b)
		return false
	}
	return true
}

// pick chooses the next input: mostly a control some view offers, now and
// then a line, a reaction, a join or a due timer.
func pick(r *games.RNG, g games.Game, seats int, cfg Config, joins *[]string) (games.Input, bool) {
	if j, ok := g.(games.Joiner); ok && len(*joins) > 0 && r.Intn(20) == 0 {
		_ = j
		name := (*joins)[0]
		*joins = (*joins)[1:]
		return games.Input{Kind: games.InJoin, Seat: seats, Name: name}, true
	}
	if _, ok := g.(games.Talker); ok && r.Intn(12) == 0 {
		s := r.Intn(seats)
		return games.Input{Kind: games.InSay, Seat: s, Name: fmt.Sprintf("P%d", s+1), Action: games.Action{Text: "a line"}}, true
	}
	if _, ok := g.(games.Reactor); ok && r.Intn(8) == 0 {
		return games.Input{Kind: games.InReact, Seat: r.Intn(seats+1) - 1, Ref: fmt.Sprintf("line%d", 1+r.Intn(4)),
			Emoji: "🎭", Add: r.Intn(3) > 0}, true
	}
	if tm, ok := g.(games.Timed); ok && r.Intn(6) == 0 {
		if ts := tm.Timers(); len(ts) > 0 {
			x := ts[r.Intn(len(ts))]
			if !x.Remind {
				return games.Input{Kind: games.InTimer, Seat: x.Seat, Ref: x.Key, Action: x.Action}, true
			}
		}
	}
	var moves []Move
	for s := range seats {
		moves = append(moves, Offered(r, g.Hand(s), s, cfg.Text)...)
	}
	for _, m := range Offered(r, g.Table(), games.Spectator, cfg.Text) {
		// A table control is anyone's: try it as a random seat.
		m.Seat = r.Intn(seats)
		moves = append(moves, m)
	}
	if len(moves) == 0 {
		if tm, ok := g.(games.Timed); ok {
			for _, x := range tm.Timers() {
				if !x.Remind {
					return games.Input{Kind: games.InTimer, Seat: x.Seat, Ref: x.Key, Action: x.Action}, true
				}
			}
		}
		return games.Input{}, false
	}
	m := moves[r.Intn(len(moves))]
	return games.Input{Seat: m.Seat, Action: m.Action}, true
}

func roundTrip(rules games.Rules, g games.Game, seats int) (games.Game, error) {
	a, err := games.Encode(g)
	if err != nil {
		return nil, err
	}
	back, err := rules.Load(a)
	if err != nil {
		return nil, fmt.Errorf("load what was saved: %w\n%s", err, a)
	}
	b, err := games.Encode(back)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(a, b) {
		return nil, fmt.Errorf("JSON round trip changed the state:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(g.Table(), back.Table()) || !reflect.DeepEqual(g.ToAct(), back.ToAct()) {
		return nil, errors.New("the reloaded game shows a different table")
	}
	for s := range seats {
		if !reflect.DeepEqual(g.Hand(s), back.Hand(s)) {
			return nil, fmt.Errorf("the reloaded game shows seat %d a different hand", s)
		}
	}
	return back, nil
}

func checkViews(t *testing.T, name string, g games.Game, seats int, cfg Config) bool {
	t.Helper()
	table := g.Table()
	if err := Fits(table, 1); err != nil {
		t.Errorf("%s: table: %v", name, err)
		return false
	}
	views := make([]string, seats)
	for s := range seats {
		v := g.Hand(s)
		if err := Fits(v, 0); err != nil {
			t.Errorf("%s: hand of seat %d: %v", name, s, err)
			return false
		}
		views[s] = Text(v)
	}
	if cfg.Secrets == nil {
		return true
	}
	tableText := Text(table)
	for s := range seats {
		for _, secret := range cfg.Secrets(g, s) {
			if secret == "" {
				continue
			}
			if strings.Contains(tableText, secret) {
				t.Errorf("%s: the table shows seat %d's secret %q:\n%s", name, s, secret, tableText)
				return false
			}
			for o := range seats {
				if o != s && strings.Contains(views[o], secret) {
					t.Errorf("%s: seat %d sees seat %d's secret %q:\n%s", name, o, s, secret, views[o])
					return false
				}
			}
		}
	}
	return true
}

func checkEvents(t *testing.T, name string, events []games.Event) bool {
	t.Helper()
	for _, e := range events {
		if utf8.RuneCountInString(e.Text) > 2000 {
			t.Errorf("%s: an event longer than a Discord message (%d characters)", name, utf8.RuneCountInString(e.Text))
			return false
		}
		if strings.TrimSpace(e.Text) == "" && e.Ref == "" {
			t.Errorf("%s: an empty event", name)
			return false
		}
		if len(e.Buttons) > 20 {
			t.Errorf("%s: a message with %d buttons", name, len(e.Buttons))
			return false
		}
		for _, b := range e.Buttons {
			if err := actionFits(b.Action); err != nil {
				t.Errorf("%s: %v", name, err)
				return false
			}
		}
	}
	return true
}

// Text is everything a view shows, for secret checks.
func Text(v games.View) string {
	parts := []string{v.Title, v.Description, v.Footer}
	for _, f := range v.Fields {
		parts = append(parts, f.Name, f.Value)
	}
	for _, b := range v.Buttons {
		parts = append(parts, b.Label)
	}
	for _, c := range v.Choices {
		parts = append(parts, c.Placeholder)
		for _, o := range c.Options {
			parts = append(parts, o.Label, o.Description)
		}
	}
	return strings.Join(parts, "\n")
}

// Fits checks a view against Discord's limits as the bot renders it:
// extraButtons are the bot's own (the table's My hand).
func Fits(v games.View, extraButtons int) error {
	n := utf8.RuneCountInString
	if n(v.Title) > 256 || n(v.Description) > 4096 || n(v.Footer) > 2048 || len(v.Fields) > 25 {
		return fmt.Errorf("title, description, footer or field count over Discord's limits")
	}
	total := n(v.Title) + n(v.Description) + n(v.Footer)
	for _, f := range v.Fields {
		if n(f.Name) > 256 || n(f.Value) > 1024 {
			return fmt.Errorf("field %q over Discord's limits", f.Name)
		}
		total += n(f.Name) + n(f.Value)
	}
	if total > 6000 {
		return fmt.Errorf("embed of %d characters", total)
	}
	buttons := len(v.Buttons) + extraButtons
	rows := len(v.Choices) + (buttons+4)/5
	if rows > 5 {
		return fmt.Errorf("%d rows of controls; Discord allows 5", rows)
	}
	seen := map[string]bool{}
	for _, b := range v.Buttons {
		if n(b.Label) > 80 || b.Label == "" {
			return fmt.Errorf("button label %q", b.Label)
		}
		if err := actionFits(b.Action); err != nil {
			return err
		}
		if seen[b.Action.Key()] {
			return fmt.Errorf("two buttons with the action %q", b.Action.Key())
		}
		seen[b.Action.Key()] = true
		if b.Ask != nil && (n(b.Ask.Title) > 45 || n(b.Ask.Label) > 45 || b.Ask.MaxLen > 4000) {
			return fmt.Errorf("text box of %q over Discord's limits", b.Label)
		}
	}
	for _, c := range v.Choices {
		if len(c.Options) == 0 || len(c.Options) > 25 || n(c.Placeholder) > 150 {
			return fmt.Errorf("select %s has %d options", c.Verb, len(c.Options))
		}
		if seen[c.Verb] {
			return fmt.Errorf("two controls with the action %q", c.Verb)
		}
		seen[c.Verb] = true
		values := map[string]bool{}
		for _, o := range c.Options {
			if n(o.Label) > 100 || n(o.Description) > 100 || o.Label == "" || values[o.Value] {
				return fmt.Errorf("select %s: option %q", c.Verb, o.Label)
			}
			if _, err := games.ParseAction("x=" + o.Value); err != nil {
				return fmt.Errorf("select %s: value %q cannot travel in a custom_id", c.Verb, o.Value)
			}
			values[o.Value] = true
		}
	}
	return nil
}

// actionFits: the bot's custom_id adds at most 24 characters to an action.
func actionFits(a games.Action) error {
	if _, err := games.ParseAction(a.Key()); err != nil {
		return err
	}
	if len(a.Key()) > 76 {
		return fmt.Errorf("action %q too long for a custom_id", a.Key())
	}
	return nil
}

// cloneHolds checks that twin, cloned from g when g encoded as before,
// was not changed by g's step, and that it takes the same step the same way.
func cloneHolds(t *testing.T, name string, twin, g games.Game, before []byte, in games.Input, stepErr error) bool {
	t.Helper()
	if got, _ := games.Encode(twin); !bytes.Equal(got, before) {
		t.Errorf("%s: a step changed the clone taken before it:\n%s\n%s", name, before, got)
		return false
	}
	_, err := games.Step(twin, in)
	if (err == nil) != (stepErr == nil) {
		t.Errorf("%s: %+v: the clone's step gave %v, the game's %v", name, in, err, stepErr)
		return false
	}
	if stepErr != nil {
		return true
	}
	a, _ := games.Encode(g)
	if b, _ := games.Encode(twin); !bytes.Equal(a, b) {
		t.Errorf("%s: %+v: the clone played it differently:\n%s\n%s", name, in, a, b)
		return false
	}
	return true
}
