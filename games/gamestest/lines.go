package gamestest

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// Lines counts the lines a view takes when the bot shows it as an embed, the
// way Discord lays one out: the title is one line, the description as many
// lines as it has, each field its name plus its value's lines, and up to
// three inline fields in a row side by side, as tall as the tallest. The
// footer is one line, and is always there: the bot adds its own to every
// embed. Long lines that wrap are not counted twice, and the bot's own
// additions under a table (a log) are not counted at all.
func Lines(v games.View) int {
	n := 1 // footer
	if strings.TrimSpace(v.Title) != "" {
		n++
	}
	n += textLines(v.Description)
	row, tallest := 0, 0
	flush := func() {
		n += tallest
		row, tallest = 0, 0
	}
	for _, f := range v.Fields {
		h := 1 + max(textLines(f.Value), 1) // an empty name or value still shows as one line
		if !f.Inline {
			flush()
			n += h
			continue
		}
		if row == 3 {
			flush()
		}
		row++
		tallest = max(tallest, h)
	}
	flush()
	return n
}

// textLines is the number of lines Discord shows for a text: trailing blank
// lines are trimmed, blank lines between paragraphs count.
func textLines(s string) int {
	s = strings.TrimRight(s, " \n\t")
	if strings.TrimSpace(s) == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// Render writes a view as plain text, a line per line Discord would show
// (inline fields one after the other), for failure messages and reports.
func Render(v games.View) string {
	var b strings.Builder
	if v.Title != "" {
		fmt.Fprintf(&b, "# %s\n", v.Title)
	}
	if d := strings.TrimRight(v.Description, " \n\t"); d != "" {
		fmt.Fprintf(&b, "%s\n", d)
	}
	for _, f := range v.Fields {
		mark := ""
		if f.Inline {
			mark = " (inline)"
		}
		fmt.Fprintf(&b, "[%s]%s\n%s\n", f.Name, mark, strings.TrimRight(f.Value, " \n\t"))
	}
	if v.Footer != "" {
		fmt.Fprintf(&b, "— %s\n", v.Footer)
	}
	for _, x := range v.Buttons {
		fmt.Fprintf(&b, "(button) %s\n", x.Label)
	}
	for _, c := range v.Choices {
		fmt.Fprintf(&b, "(menu) %s: %d options\n", c.Placeholder, len(c.Options))
	}
	return b.String()
}

// Compact says how small a game's views must stay at its largest table.
type Compact struct {
	Players  int              // seats (default: the rules' maximum)
	Options  []map[string]int // option sets to cycle through (default: the defaults)
	Seeds    int              // games to play (default 12, 4 with -short)
	MaxSteps int              // bound on one game (default 3000)
	Table    int              // most lines a table may take (default 20)
	Hand     int              // most lines a hand may take (default 15)
	// Final checks the table of a finished game: its result and score
	// breakdown.
	Final func(t testing.TB, g games.Game)
}

// Largest is the biggest view a CheckCompact run met, with its size.
type Largest struct {
	TableLines, HandLines int
	Table, Hand           games.View
}

// CheckCompact plays seeded games at random through the controls the views
// offer (with lines, reactions and deadlines now and then, as Run does) and
// checks at every step that the table and every hand fit the line budgets,
// that every minus sign is '−', that the table never repeats the text of a
// recent story event (the channel already shows it as narration), and at
// the end that Final accepts the finished table. It returns the largest
// table and hand it met, for the caller to log.
func CheckCompact(t *testing.T, rules games.Rules, c Compact) Largest {
	t.Helper()
	if c.Players == 0 {
		c.Players = rules.MaxPlayers
	}
	if len(c.Options) == 0 {
		c.Options = []map[string]int{nil}
	}
	if c.Seeds == 0 {
		c.Seeds = 12
		if testing.Short() {
			c.Seeds = 4
		}
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 3000
	}
	if c.Table == 0 {
		c.Table = 20
	}
	if c.Hand == 0 {
		c.Hand = 15
	}
	var big Largest
	for seed := 1; seed <= c.Seeds; seed++ {
		opts, err := rules.Validate(c.Options[seed%len(c.Options)])
		if err != nil {
			t.Fatalf("%s options: %v", rules.ID, err)
		}
		name := fmt.Sprintf("%s/%dp/seed%d", rules.ID, c.Players, seed)
		g := playCompact(t, name, rules, c, opts, uint64(seed), &big)
		if g == nil {
			return big
		}
		if !g.Over() {
			t.Errorf("%s: not over after %d steps", name, c.MaxSteps)
			return big
		}
		if c.Final != nil {
			c.Final(t, g)
		}
	}
	return big
}

func playCompact(t *testing.T, name string, rules games.Rules, c Compact, opts map[string]int, seed uint64, big *Largest) games.Game {
	t.Helper()
	setup := games.Setup{Options: opts, Seed: seed}
	for i := range c.Players {
		setup.Players = append(setup.Players, fmt.Sprintf("Player %d", i+1))
	}
	g, err := rules.New(setup)
	if err != nil {
		t.Fatalf("%s: New: %v", name, err)
	}
	r := games.NewRNG(seed*104729 + uint64(c.Players))
	cfg := Config{Text: defaultText}
	var stories []string // the latest story events, which the channel shows as narration
	for step := 0; ; step++ {
		if !fitsBudget(t, name, step, g, c, big) {
			return nil
		}
		if g.Over() || step >= c.MaxSteps {
			return g
		}
		var joins []string
		in, ok := pick(&r, g, c.Players, cfg, &joins)
		if !ok {
			t.Errorf("%s: step %d: nothing to do but the game is not over", name, step)
			return nil
		}
		before, err := games.Encode(g)
		if err != nil {
			t.Fatalf("%s: encode: %v", name, err)
		}
		events, err := games.Step(g, in)
		var refusal *games.Refusal
		switch {
		case errors.As(err, &refusal):
			if g, err = rules.Load(before); err != nil {
				t.Fatalf("%s: reload: %v", name, err)
			}
			continue
		case err != nil:
			t.Fatalf("%s: step %d: %+v: %v", name, step, in, err)
		}
		for _, e := range events {
			if text := strings.TrimSpace(e.Text); e.Story && utf8.RuneCountInString(text) >= 20 {
				stories = append(stories[max(0, len(stories)-4):], text)
			}
		}
		table := Text(g.Table())
		for _, text := range stories {
			if strings.Contains(table, text) {
				t.Errorf("%s: step %d: the table repeats the narration %q:\n%s", name, step, text, Render(g.Table()))
				return nil
			}
		}
	}
}

// asciiMinus finds a hyphen-minus used as a minus sign or a subtraction:
// "-3", "(-3", "10 - 3". Ranges such as "1-2" are left alone.
var asciiMinus = regexp.MustCompile(`(^|[\s(=+])-\s?\d|\s-\s`)

func fitsBudget(t *testing.T, name string, step int, g games.Game, c Compact, big *Largest) bool {
	t.Helper()
	table := g.Table()
	views := []games.View{table}
	for seat := range c.Players {
		views = append(views, g.Hand(seat))
	}
	for _, v := range views {
		if m := asciiMinus.FindString(Text(v)); m != "" {
			t.Errorf("%s: step %d: %q: write minus signs as '−' (U+2212):\n%s", name, step, m, Render(v))
			return false
		}
	}
	if n := Lines(table); n > big.TableLines {
		big.TableLines, big.Table = n, table
	}
	if n := Lines(table); n > c.Table {
		t.Errorf("%s: step %d: the table takes %d lines (at most %d):\n%s", name, step, n, c.Table, Render(table))
		return false
	}
	for seat := range c.Players {
		h := g.Hand(seat)
		if n := Lines(h); n > big.HandLines {
			big.HandLines, big.Hand = n, h
		}
		if n := Lines(h); n > c.Hand {
			t.Errorf("%s: step %d: seat %d's hand takes %d lines (at most %d):\n%s", name, step, seat, n, c.Hand, Render(h))
			return false
		}
	}
	return true
}
