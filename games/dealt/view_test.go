package dealt

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// crowded rigs Ann with the first n cards of an order full of X's, pairs and
// trips (the most plays per card), two reserves, and one card each for Bea
// and Cat. With follow set, Bea has led a Solo 1 and Ann must answer.
func crowded(t *testing.T, n int, follow bool) *State {
	t.Helper()
	order := []string{"X", "X", "S", "R"}
	for v := 1; v <= 12; v++ {
		for range 4 {
			order = append(order, fmt.Sprint(v))
		}
	}
	order = append(order, "S", "R")
	at := func(i, k int) string { return strings.Join(order[i:i+k], " ") }
	s := rigged(t, 0, at(0, n)+" | "+at(n, 2), at(n+2, 1), at(n+3, 1))
	if follow {
		s.Trick = []Play{{Seat: 1, What: PlayCombo, Cards: s.Players[1].Hand, Kind: Solo, Top: 1}}
		s.Players[1].Hand = nil
		s.Leader, s.Turn = 1, 0
	}
	return s
}

func clone(t *testing.T, s *State) *State {
	t.Helper()
	b, err := games.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Rules.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*State)
}

func fits(t *testing.T, s *State, what string) {
	t.Helper()
	if err := gamestest.Fits(s.Hand(0), 0); err != nil {
		t.Fatalf("%s: hand view: %v", what, err)
	}
	if err := gamestest.Fits(s.Table(), 1); err != nil {
		t.Fatalf("%s: table: %v", what, err)
	}
	for _, c := range s.Hand(0).Choices {
		for _, o := range c.Options {
			if k := (games.Action{Verb: c.Verb, Args: []string{o.Value}}).Key(); len(k) > 60 {
				t.Fatalf("%s: action %q is too long", what, k)
			}
		}
	}
}

// reachable follows every control of Ann's view, one step into from/take,
// and returns the plays and reserve places it leads to.
func reachable(t *testing.T, s *State, what string) (plays, places []string) {
	t.Helper()
	v := s.Hand(0)
	for _, c := range v.Choices {
		for _, o := range c.Options {
			switch baseVerb(c.Verb) {
			case VerbPlay:
				plays = append(plays, o.Value)
			case VerbRes:
				places = append(places, o.Value)
			case VerbFrom, VerbTake:
				sub := clone(t, s)
				must(t, sub, 0, c.Verb, o.Value)
				fits(t, sub, what+" after "+c.Verb+"="+o.Value)
				p, q := reachable(t, sub, what)
				plays, places = append(plays, p...), append(places, q...)
			}
		}
	}
	for _, b := range v.Buttons {
		if b.Action.Verb == VerbTake {
			sub := clone(t, s)
			must(t, sub, 0, VerbTake, b.Action.Args...)
			fits(t, sub, what+" after take")
			if !slices.ContainsFunc(sub.Hand(0).Buttons, func(b games.Button) bool { return b.Action.Verb == VerbBack }) {
				t.Fatalf("%s: no way back from choosing a reserve", what)
			}
			_, q := reachable(t, sub, what)
			places = append(places, q...)
		}
	}
	return plays, places
}

// TestEveryHandSizeFitsAndOffersExactlyTheLegalMoves: every hand size the
// deck allows (up to 50 with two reserves and two other players), leading
// and following, fits Discord, and every legal play and every reserve place
// is offered, directly or one step in.
func TestEveryHandSizeFitsAndOffersExactlyTheLegalMoves(t *testing.T) {
	for n := 1; n <= 50; n++ {
		for _, follow := range []bool{false, true} {
			s := crowded(t, n, follow)
			what := fmt.Sprintf("%d cards, follow %v", n, follow)
			fits(t, s, what)
			plays, places := reachable(t, s, what)
			var want []string
			for _, m := range s.moves(0) {
				want = append(want, m.Token())
			}
			slices.Sort(plays)
			slices.Sort(want)
			if !slices.Equal(plays, want) {
				t.Fatalf("%s: offered %d plays, legal %d", what, len(plays), len(want))
			}
			if wantPlaces := 0; follow {
				wantPlaces = 2 * (n + 1)
				if len(places) != wantPlaces || len(slices.Compact(slices.Sorted(slices.Values(places)))) != wantPlaces {
					t.Fatalf("%s: %d reserve places offered, want %d", what, len(places), wantPlaces)
				}
			} else if len(places) != 0 {
				t.Fatalf("%s: the leader is offered reserves", what)
			}
			// Placing a redrawn card: every gap, within the limits.
			d := clone(t, s)
			d.Trick, d.Drawing = nil, &Draw{Seat: 0, Card: d.Players[0].Reserve[0], Left: 2, Total: 3}
			d.Players[0].Reserve = d.Players[0].Reserve[1:]
			fits(t, d, what+" drawing")
			gaps := 0
			for _, c := range d.Hand(0).Choices {
				if baseVerb(c.Verb) != VerbPut {
					t.Fatalf("%s: drawing offers %s", what, c.Verb)
				}
				gaps += len(c.Options)
			}
			if gaps != n+1 {
				t.Fatalf("%s: %d places for a drawn card, want %d", what, gaps, n+1)
			}
		}
	}
}

// TestLayouts logs how the controls are laid out at sizes worth knowing,
// and pins the shapes the design promises.
func TestLayouts(t *testing.T) {
	shape := func(v games.View) string {
		var parts []string
		for _, c := range v.Choices {
			parts = append(parts, fmt.Sprintf("%s(%d)", c.Verb, len(c.Options)))
		}
		for _, b := range v.Buttons {
			parts = append(parts, "["+b.Label+"]")
		}
		return strings.Join(parts, " ")
	}
	for _, c := range []struct {
		n      int
		follow bool
		want   string
	}{
		{10, true, "play(25) play2(25) play3(6) res(11) res2(11)"}, // as dealt, answering a Solo 1
		{24, true, "from(24) res(25) res2(25)"},                    // 25 places: still one menu a reserve
		{24, false, "from(24)"},
		{25, true, "from(25) [Take reserve 6…] [Take reserve 6…]"}, // 26 places: two menus a reserve
		{50, true, "from(25) from2(25) [Take reserve 12…] [Take reserve 12…]"},
	} {
		s := crowded(t, c.n, c.follow)
		got := shape(s.Hand(0))
		t.Logf("%2d cards, follow %-5v: %s", c.n, c.follow, got)
		if got != c.want {
			t.Errorf("%d cards: layout %s, want %s", c.n, got, c.want)
		}
	}
}

func TestTwoStepPlayAndBack(t *testing.T) {
	s := crowded(t, 30, true)
	v := s.Hand(0)
	if len(v.Choices) == 0 || baseVerb(v.Choices[0].Verb) != VerbFrom {
		t.Fatalf("30 cards should start with a start-position menu: %+v", v.Choices)
	}
	refused(t, s, 0, "No play of yours starts there", VerbFrom, "99")
	refused(t, s, 1, "It's Ann's turn", VerbFrom, "1")
	must(t, s, 0, VerbFrom, "1") // X X S: Solos and Pairs and 2-Straights of X
	v = s.Hand(0)
	if !strings.Contains(v.Description, "starting at card 1") || v.Buttons[0].Action.Verb != VerbBack {
		t.Fatalf("after from: %q %+v", v.Description, v.Buttons)
	}
	n := 0
	for _, c := range v.Choices {
		n += len(c.Options)
	}
	// Against a Solo 1: X alone as 2…12 (11), X X as 12 Pairs and 11
	// 2-Straights; X X Stop makes nothing.
	if n != 11+12+11 {
		t.Fatalf("%d plays from card 1", n)
	}
	must(t, s, 0, VerbBack)
	if s.From != 0 || baseVerb(s.Hand(0).Choices[0].Verb) != VerbFrom {
		t.Fatal("back didn't return to the first step")
	}
	must(t, s, 0, VerbFrom, "1")
	evs := must(t, s, 0, VerbPlay, "1.2_pair_12")
	if s.From != 0 || !strings.Contains(events(evs), "Ann plays X X: Pair of 12s (both X as 12)") {
		t.Fatalf("from %d: %s", s.From, events(evs))
	}
}

func TestTakeReserveInTwoSteps(t *testing.T) {
	s := crowded(t, 30, true)
	code := s.Players[0].Reserve[1].Code()
	must(t, s, 0, VerbTake, code)
	v := s.Hand(0)
	if len(v.Choices) != 2 || len(v.Choices[0].Options)+len(v.Choices[1].Options) != 31 {
		t.Fatalf("places for a reserve in a 30-card hand: %+v", v.Choices)
	}
	if !strings.Contains(v.Choices[1].Placeholder, "places 26–31 of 31") {
		t.Errorf("placeholder %q", v.Choices[1].Placeholder)
	}
	must(t, s, 0, VerbBack)
	refused(t, s, 0, "no choice to go back from", VerbBack)
	if s.Taking != "" {
		t.Fatal("back kept the reserve choice")
	}
	must(t, s, 0, VerbTake, code)
	must(t, s, 0, VerbRes, code+".30")
	if s.Taking != "" || len(s.Players[0].Hand) != 31 || s.Players[0].Hand[30].Code() != code || len(s.Players[0].Reserve) != 1 {
		t.Fatalf("after taking: taking %q, hand %d", s.Taking, len(s.Players[0].Hand))
	}
}

func TestHandView(t *testing.T) {
	s := rigged(t, 0, "7 X 12 S | 3 11", "5 | 1", "1 | 2")
	v := s.Hand(0)
	row := v.Fields[0].Value
	if row != "`1` 🔴7 · `2` 🔴X · `3` 🔴12 · `4` 🔴Stop" {
		t.Errorf("hand row %q", row)
	}
	// Reserves and chips are public: on the table, not again in the hand.
	if len(v.Fields) != 1 || strings.Contains(gamestest.Text(v), "chips") {
		t.Errorf("the hand repeats the table: %+v", v.Fields)
	}
	if !strings.Contains(v.Description, "Your lead") {
		t.Errorf("description %q", v.Description)
	}
	// Labels say what is played and how X counts.
	found := false
	for _, o := range v.Choices[0].Options {
		if o.Value == "1.2_str2_8" {
			found = o.Label == "🔴7 🔴X · 2-Straight 7-8" && o.Description == "cards 1–2 (X as 8)"
		}
	}
	if !found {
		t.Errorf("no clear option for 7 X as 7-8: %+v", v.Choices[0].Options)
	}
	if b := s.Hand(1); len(b.Choices)+len(b.Buttons) != 0 || !strings.Contains(b.Description, "Ann") {
		t.Errorf("Bea's view while waiting: %q", b.Description)
	}
	for _, bad := range []int{-1, 3, 99} {
		if v := s.Hand(bad); !strings.Contains(v.Description, "not playing") {
			t.Errorf("Hand(%d) = %q", bad, v.Description)
		}
	}
}

func TestTableIsCompact(t *testing.T) {
	s := rigged(t, 0, "5 1", "6 1 | 2", "7 1 | 3", "8 1 | 4", "R 9 | 5")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_6")
	must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".0")
	must(t, s, 3, VerbPlay, "1_solo_8")
	v := s.Table()
	text := gamestest.Text(v)
	if lines := strings.Count(text, "\n") + 1; lines > 20 {
		t.Errorf("table is %d lines:\n%s", lines, text)
	}
	for _, want := range []string{"Eve** to beat **Solo 8** (Dan)", "Dan: 8 — Solo 8 ⭐", "Cat: took a reserve card", "**Ann**: 1 card · no reserves · 2 chips"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	// Dan's play is in the trick: it is not told again.
	if strings.Contains(text, "Just now") {
		t.Errorf("the table repeats the last move:\n%s", text)
	}
	if err := gamestest.Fits(v, 1); err != nil {
		t.Error(err)
	}
	// Once the trick is over, what ended it is told.
	must(t, s, 4, VerbPlay, "1_redraw")
	for s.Drawing != nil {
		must(t, s, s.Drawing.Seat, VerbPut, "0")
	}
	text = gamestest.Text(s.Table())
	if !strings.Contains(text, "*Just now:* ") || !strings.Contains(text, "leads the next trick") {
		t.Errorf("the table doesn't say how the trick ended:\n%s", text)
	}
	if gamestest.Lines(s.Table()) > 20 {
		t.Errorf("the table takes %d lines:\n%s", gamestest.Lines(s.Table()), gamestest.Render(s.Table()))
	}
}
