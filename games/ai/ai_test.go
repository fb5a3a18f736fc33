package ai

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// take is a toy game: players in turn take 1 or 2 tokens from a pile; who
// takes the last one wins. A move of 3 is shown but disabled.
type take struct {
	Left, Turn, Winner int
	Seats              int
	Pause, Paused      bool // with the pause option, play stops at 5 left until a timer fires
}

var takeRules = games.Rules{
	ID: "take", Name: "Take", MinPlayers: 2, MaxPlayers: 3,
	Options: []games.Option{{Name: "pile", Kind: games.IntOption, Default: 10, Min: 1, Max: 99}},
	New: func(s games.Setup) (games.Game, error) {
		return &take{Left: s.Opt("pile", 10) + int(s.Seed%3), Winner: -1, Seats: len(s.Players), Pause: s.Opt("pause", 0) == 1}, nil
	},
}

func (g *take) Timers() []games.Timer {
	if !g.Paused {
		return nil
	}
	return []games.Timer{{Key: "remind", Seat: g.Turn, Remind: true}, {Key: "resume", Seat: games.Clock, Action: games.Act("resume")}}
}

func (g *take) Apply(seat int, a games.Action) ([]games.Event, error) {
	if a.Verb == "resume" && seat == games.Clock && g.Paused {
		g.Paused, g.Pause = false, false
		return nil, nil
	}
	if g.Paused {
		return nil, games.Refuse("Paused.")
	}
	defer func() { g.Paused = g.Pause && g.Left <= 5 && !g.Over() }()
	n, err := strconv.Atoi(a.Arg(0))
	if seat != g.Turn || a.Verb != "take" || err != nil || n < 1 || n > 2 || n > g.Left {
		return nil, games.Refuse("No.")
	}
	g.Left -= n
	if g.Left == 0 {
		g.Winner = seat
	}
	g.Turn = (g.Turn + 1) % g.Seats
	return nil, nil
}

func (g *take) ToAct() []int {
	if g.Over() {
		return nil
	}
	return []int{g.Turn}
}
func (g *take) Over() bool        { return g.Winner >= 0 }
func (g *take) Table() games.View { return games.View{Description: fmt.Sprintf("Left: %d", g.Left)} }
func (g *take) Hand(seat int) games.View {
	if seat != g.Turn || g.Over() || g.Paused {
		return games.View{}
	}
	return games.View{Buttons: []games.Button{
		{Label: "1", Action: games.Act("take", "1")},
		{Label: "2", Action: games.Act("take", "2")},
		{Label: "3", Action: games.Act("take", "3"), Disabled: true},
	}}
}
func (g *take) Results() []games.Result {
	var out []games.Result
	for s := range g.Seats {
		out = append(out, games.Result{Seat: s, Winner: s == g.Winner})
	}
	return out
}

// perfect takes what leaves a multiple of 3 (two players).
var perfect = Func(func(_ *games.RNG, table, hand games.View, _ int) (games.Action, bool) {
	if len(hand.Buttons) == 0 {
		return games.Action{}, false
	}
	left, _ := IntAfter(table.Description, "Left:")
	n := max(left%3, 1)
	return games.Act("take", strconv.Itoa(min(n, left))), true
})

// stubborn always asks for a move the game refuses.
var stubborn = Func(func(*games.RNG, games.View, games.View, int) (games.Action, bool) {
	return games.Act("take", "9"), true
})

func TestParseCardName(t *testing.T) {
	for _, c := range games.StandardDeck(0) {
		got, err := ParseCardName(c.String())
		if err != nil || got != c {
			t.Errorf("%s: %v %v", c, got, err)
		}
	}
	if c, err := ParseCardName("🃏 Joker"); err != nil || c.Rank != games.Joker {
		t.Errorf("joker: %v %v", c, err)
	}
	for _, bad := range []string{"", "1♠", "11♠", "Z♥", "7", "♠"} {
		if _, err := ParseCardName(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	cs := []games.Card{{Rank: 7, Suit: games.Spades}, {Rank: 10, Suit: games.Hearts}, {Rank: games.Ace, Suit: games.Clubs}}
	if got := CardNames(games.CardList(cs)); !slices.Equal(got, cs) {
		t.Errorf("CardNames: %v", got)
	}
	if got := CardNames("**" + games.CardList(cs[:1]) + "** (7 left)"); !slices.Equal(got, cs[:1]) {
		t.Errorf("CardNames in bold: %v", got)
	}
	if got := CardNames(games.CardList(nil)); len(got) != 0 {
		t.Errorf("CardNames of none: %v", got)
	}
}

func TestReadHelpers(t *testing.T) {
	if n, ok := IntAfter("Hand: 3 cards\nDeck: **12** cards", "Deck:"); !ok || n != 12 {
		t.Errorf("IntAfter: %d %v", n, ok)
	}
	if _, ok := IntAfter("Deck: none", "Deck:"); ok {
		t.Error("IntAfter read a number from none")
	}
	if l, ok := Line("a: 1\nb: 2", "b:"); !ok || l != "b: 2" {
		t.Errorf("Line: %q", l)
	}
	v := games.View{Fields: []games.Field{{Name: "Hand (3)", Value: "x"}}}
	if f, ok := FieldWithPrefix(v, "Hand"); !ok || f.Value != "x" {
		t.Error("FieldWithPrefix")
	}
	sum := 0.0
	for t := 2; t <= 12; t++ {
		sum += TwoDice(t, t)
	}
	cases := map[[2]int]float64{{2, 12}: 1, {7, 7}: 6.0 / 36, {10, 11}: 5.0 / 36, {0, 2}: 1.0 / 36, {8, 7}: 0, {3, 2}: 0}
	for k, want := range cases {
		if got := TwoDice(k[0], k[1]); math.Abs(got-want) > 1e-12 {
			t.Errorf("TwoDice%v = %v, want %v", k, got, want)
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("TwoDice sums to %v", sum)
	}
}

func TestOfferedAndRandom(t *testing.T) {
	v := games.View{
		Buttons: []games.Button{
			{Label: "a", Action: games.Act("a")},
			{Label: "b", Action: games.Act("b"), Disabled: true},
			{Label: "say", Action: games.Act("say"), Ask: &games.Ask{Title: "?"}},
		},
		Choices: []games.Choice{{Verb: "pick", Min: 1, Max: 3, Options: []games.ChoiceOption{
			{Value: "1", Label: "1"}, {Value: "2", Label: "2"}, {Value: "3", Label: "3"}, {Value: "4", Label: "4"}}}},
	}
	r := games.NewRNG(1)
	sizes := map[int]bool{}
	for range 200 {
		acts := Offered(&r, v, func(*games.RNG, games.Action) string { return "hi" })
		if len(acts) != 3 || acts[0].Verb != "a" || acts[1].Text != "hi" || acts[2].Verb != "pick" {
			t.Fatalf("offered %v", acts)
		}
		n := len(acts[2].Args)
		if n < 1 || n > 3 || len(slices.Compact(slices.Sorted(slices.Values(acts[2].Args)))) != n {
			t.Fatalf("selection %v", acts[2].Args)
		}
		sizes[n] = true
	}
	if len(sizes) != 3 {
		t.Errorf("selection sizes seen: %v", sizes)
	}
	seen := map[string]int{}
	for range 300 {
		a, ok := Random.Choose(&r, games.View{}, v, 0)
		if !ok {
			t.Fatal("random found nothing")
		}
		seen[a.Verb]++
	}
	if len(seen) != 3 || seen["b"] != 0 {
		t.Errorf("random chose %v", seen)
	}
	if _, ok := Random.Choose(&r, games.View{}, games.View{}, 0); ok {
		t.Error("random moved with no controls")
	}
	if _, ok := Has(v, "b"); ok {
		t.Error("Has found a disabled button")
	}
	if m, ok := Menu(v, "pick"); !ok || len(m.Options) != 4 {
		t.Error("Menu")
	}
}

func TestCatalog(t *testing.T) {
	c := Catalog{{Rules: takeRules, Policies: map[string]Policy{SensibleName: perfect}}, {Rules: games.Rules{ID: "other"}}}
	if got := c.Names("take"); !slices.Equal(got, []string{RandomName, SensibleName}) {
		t.Errorf("names %v", got)
	}
	if got := c.Names("other"); !slices.Equal(got, []string{RandomName}) {
		t.Errorf("names %v", got)
	}
	if c.For("nope") != nil {
		t.Error("policies for an unknown game")
	}
	if _, err := c.Lookup("take", "clever"); err == nil {
		t.Error("looked up an unknown policy")
	}
	if _, err := c.Lookup("nope", RandomName); err == nil {
		t.Error("looked up an unknown game")
	}
	if p, err := c.Lookup("take", SensibleName); err != nil || reflect.ValueOf(p).Pointer() != reflect.ValueOf(perfect).Pointer() {
		t.Errorf("lookup: %v", err)
	}
	if reflect.ValueOf(c.Default("take")).Pointer() != reflect.ValueOf(perfect).Pointer() ||
		reflect.ValueOf(c.Default("other")).Pointer() != reflect.ValueOf(Random).Pointer() {
		t.Error("Default")
	}
	if !slices.Equal(c.IDs(), []string{"take", "other"}) {
		t.Errorf("IDs %v", c.IDs())
	}
}

func TestStep(t *testing.T) {
	g, _ := takeRules.New(games.Setup{Players: []string{"a", "b"}, Seed: 0})
	r := games.NewRNG(1)
	in, ok := Step(g, 0, perfect, &r)
	if !ok || in.Kind != games.InMove || in.Seat != 0 || in.Action.Key() != "take=1" {
		t.Fatalf("step %+v %v", in, ok)
	}
	if _, err := games.Step(g, in); err != nil {
		t.Fatal(err)
	}
	if _, ok := Step(g, 0, Random, &r); ok {
		t.Error("random moved out of turn")
	}
	a, b := SeedFor(1, 5, 0), SeedFor(1, 5, 0)
	if a != b || SeedFor(1, 6, 0) == a || SeedFor(1, 5, 1) == a || SeedFor(2, 5, 0) == a {
		t.Error("SeedFor must depend on the seed, the log length and the seat, and nothing else")
	}
}

func TestPlay(t *testing.T) {
	setup := games.Setup{Players: []string{"a", "b"}, Seed: 1}
	o, err := Play(takeRules, setup, []Policy{perfect, Random}, 1000)
	if err != nil || !o.Finished || !o.Results[0].Winner || o.Moves < 4 {
		t.Fatalf("perfect play from 11: %+v %v", o, err)
	}
	again, _ := Play(takeRules, setup, []Policy{perfect, Random}, 1000)
	if !reflect.DeepEqual(o, again) {
		t.Error("the same setup played differently")
	}
	// Refused moves are counted and replaced by random ones.
	o, err = Play(takeRules, setup, []Policy{stubborn, Random}, 1000)
	if err != nil || !o.Finished || o.Refused[0] == 0 || o.Refused[1] != 0 {
		t.Fatalf("stubborn: %+v %v", o, err)
	}
	// The move limit leaves a game unfinished.
	o, _ = Play(takeRules, games.Setup{Players: []string{"a", "b"}, Options: map[string]int{"pile": 99}}, []Policy{Random, Random}, 3)
	if o.Finished || o.Moves != 3 || o.Results != nil {
		t.Fatalf("limit: %+v", o)
	}
	// A timer fires when nobody has a move.
	o, err = Play(takeRules, games.Setup{Players: []string{"a", "b"}, Options: map[string]int{"pause": 1}, Seed: 1}, []Policy{perfect, Random}, 1000)
	if err != nil || !o.Finished || !o.Results[0].Winner || o.Refused[0]+o.Refused[1] != 0 {
		t.Fatalf("paused game: %+v %v", o, err)
	}
	// Nobody with a move: stuck.
	none := Func(func(*games.RNG, games.View, games.View, int) (games.Action, bool) { return games.Action{}, false })
	if o, err := Play(takeRules, setup, []Policy{none, none}, 100); err != nil || o.Finished || o.Moves != 0 {
		t.Fatalf("stuck: %+v %v", o, err)
	}
}

func TestHeadToHeadAndWilson(t *testing.T) {
	tl, err := HeadToHead(takeRules, nil, perfect, Random, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	rate, lo, hi := tl.RateA()
	if tl.Games != 200 || tl.WinsA+tl.WinsB != 200 || rate < 0.8 || lo > rate || hi < rate {
		t.Errorf("perfect vs random: %+v (%.2f [%.2f, %.2f])", tl, rate, lo, hi)
	}
	lo, hi = Wilson(50, 100)
	if math.Abs(lo-0.4038) > 1e-4 || math.Abs(hi-0.5962) > 1e-4 {
		t.Errorf("Wilson(50, 100) = [%.4f, %.4f]", lo, hi)
	}
	if lo, hi = Wilson(0, 10); lo != 0 || math.Abs(hi-0.2775) > 1e-4 {
		t.Errorf("Wilson(0, 10) = [%.4f, %.4f]", lo, hi)
	}
}
