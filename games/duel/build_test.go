package duel

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestRulesDeclaration(t *testing.T) {
	if Rules.ID != "duel" || Rules.Name != "Card Duel" || Rules.MinPlayers != 2 || Rules.MaxPlayers != 2 {
		t.Fatalf("rules header %q %q %d-%d", Rules.ID, Rules.Name, Rules.MinPlayers, Rules.MaxPlayers)
	}
	want := map[string][3]int{OptHandLimit: {30, 10, 60}, OptLife: {22, 5, 60}}
	if len(Rules.Options) != len(want) {
		t.Fatalf("%d options", len(Rules.Options))
	}
	for _, o := range Rules.Options {
		w, ok := want[o.Name]
		if !ok || o.Kind != games.IntOption || [3]int{o.Default, o.Min, o.Max} != w {
			t.Errorf("option %+v", o)
		}
		if len(o.Description) > 100 || o.Description == "" {
			t.Errorf("option %s description %q", o.Name, o.Description)
		}
	}
	if n := len([]rune(Rules.Summary)); n > 3800 {
		t.Errorf("summary is %d characters", n)
	}
	opts, err := Rules.Validate(nil)
	if err != nil || opts[OptHandLimit] != 30 || opts[OptLife] != 22 {
		t.Fatalf("defaults %v %v", opts, err)
	}
}

func TestNewRefusesBadSetups(t *testing.T) {
	cases := []games.Setup{
		{Players: []string{"Ann"}},
		{Players: []string{"Ann", "Bob", "Cy"}},
		{Players: []string{"Ann", "Bob"}, Options: map[string]int{OptHandLimit: 9}},
		{Players: []string{"Ann", "Bob"}, Options: map[string]int{OptLife: 61}},
	}
	for _, c := range cases {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
}

func TestDealSplitsTheDeck(t *testing.T) {
	s := newDuel(t, 1, nil)
	seen := map[games.Card]bool{}
	for seat, p := range s.Players {
		if len(p.Pool) != 26 || len(p.Hand)+len(p.Deck) != 0 {
			t.Fatalf("seat %d pool %d", seat, len(p.Pool))
		}
		if !slices.IsSortedFunc(p.Pool, func(a, b games.Card) int { return value(a) - value(b) }) {
			t.Errorf("pool not sorted by value: %v", p.Pool)
		}
		for _, c := range p.Pool {
			if seen[c] {
				t.Fatalf("%v dealt twice", c)
			}
			seen[c] = true
		}
	}
	if len(seen) != 52 {
		t.Fatalf("%d distinct cards dealt", len(seen))
	}
	again := newDuel(t, 1, nil)
	if !slices.Equal(again.Players[0].Pool, s.Players[0].Pool) {
		t.Error("same seed dealt differently")
	}
	other := newDuel(t, 2, nil)
	if slices.Equal(other.Players[0].Pool, s.Players[0].Pool) {
		t.Error("different seeds dealt the same pool")
	}
	if got := s.ToAct(); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("ToAct during build = %v", got)
	}
}

// buildPool gives seat 0 a known pool: all hearts and spades, so values and
// halves are predictable.
func buildPool(t *testing.T, s *State) {
	t.Helper()
	var pool []games.Card
	for _, c := range games.StandardDeck(0) {
		if c.Suit == games.Hearts || c.Suit == games.Spades {
			pool = append(pool, c)
		}
	}
	splitDeck(s, pool)
}

// splitDeck gives Ann pool, sorted, and Bea the rest of the deck in deck
// order.
func splitDeck(s *State, pool []games.Card) {
	sortCards(pool)
	s.Players[0].Pool = pool
	var rest []games.Card
	for _, c := range games.StandardDeck(0) {
		if !contains(pool, c) {
			rest = append(rest, c)
		}
	}
	s.Players[1].Pool = rest
}

func TestHandLimitBoundary(t *testing.T) {
	cases := []struct {
		name  string
		limit int
		hand  string
		ok    bool
	}{
		{"exactly 30: three tens", 30, "KH QS JH", true},
		{"exactly 30: ace ace eight", 30, "AH AS 8H", true},
		{"31 refused", 30, "KH QS AH", false},
		{"32 refused", 30, "KH QS JH 2S", false},
		{"empty hand", 30, "", true},
		{"option raises the limit to 31", 31, "KH QS AH", true},
		{"option lowers the limit to 10", 10, "AH", false},
		{"limit 10 exactly", 10, "4H 6S", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newDuel(t, 3, map[string]int{OptHandLimit: c.limit})
			buildPool(t, s)
			hand := cards(t, c.hand)
			pick(t, s, 0, hand)
			if !slices.Equal(s.Players[0].Picks, sorted(hand)) {
				t.Fatalf("picks %v, want %v", s.Players[0].Picks, hand)
			}
			lock := s.Hand(0).Buttons[0]
			if lock.Action.Verb != VerbLock || lock.Disabled == c.ok {
				t.Fatalf("lock button %+v for a hand worth %d", lock, total(hand))
			}
			if !c.ok {
				refused(t, s, 0, "at most", VerbLock)
				return
			}
			must(t, s, 0, VerbLock)
			p := s.Players[0]
			if !p.Locked || !slices.Equal(p.Hand, sorted(hand)) || len(p.Deck) != 26-len(hand) {
				t.Fatalf("after lock: hand %v, deck %d", p.Hand, len(p.Deck))
			}
		})
	}
}

func sorted(cs []games.Card) []games.Card {
	cs = slices.Clone(cs)
	sortCards(cs)
	return cs
}

func TestPicksReplaceWithinTheirHalf(t *testing.T) {
	s := newDuel(t, 4, nil)
	buildPool(t, s)
	low, high := s.Players[0].half(0), s.Players[0].half(1)
	if len(low) != 13 || len(high) != 13 || value(low[12]) > value(high[0]) {
		t.Fatalf("halves %v | %v", low, high)
	}
	must(t, s, 0, VerbPickA, low[0].Code(), low[1].Code())
	must(t, s, 0, VerbPickB, high[12].Code())
	must(t, s, 0, VerbPickA, low[2].Code())
	if want := []games.Card{low[2], high[12]}; !slices.Equal(s.Players[0].Picks, want) {
		t.Fatalf("picks %v, want %v", s.Players[0].Picks, want)
	}
	// The menus show the current picks as defaults.
	v := s.Hand(0)
	if !v.Choices[0].Options[2].Default || v.Choices[0].Options[0].Default || !v.Choices[1].Options[12].Default {
		t.Error("menu defaults do not match the picks")
	}
	if !strings.Contains(v.Description, "worth 14 / 30") {
		t.Errorf("running total missing: %q", v.Description)
	}
	refused(t, s, 0, "isn't in that part", VerbPickA, high[0].Code())
	refused(t, s, 0, "isn't in that part", VerbPickB, s.Players[1].Pool[0].Code())
	refused(t, s, 0, "twice", VerbPickB, high[0].Code(), high[0].Code())
	refused(t, s, 0, "isn't in that part", VerbPickA, "ZZ")
	must(t, s, 0, VerbClear)
	if len(s.Players[0].Picks) != 0 {
		t.Fatal("clear left picks")
	}
}

func TestLockingIsFinalAndSecret(t *testing.T) {
	s := newDuel(t, 5, nil)
	buildPool(t, s)
	pick(t, s, 0, cards(t, "AH AS 8H"))
	table := viewText(s.Table())
	for _, c := range s.Players[0].Pool {
		if strings.Contains(table, c.String()) {
			t.Fatalf("table shows pool card %v during the build:\n%s", c, table)
		}
	}
	evs := must(t, s, 0, VerbLock)
	if strings.Contains(events(evs), "3") || !strings.Contains(events(evs), "Ann has locked in") {
		t.Errorf("lock event %q", events(evs))
	}
	if !strings.Contains(s.Table().Description, "**Ann**: ✅ locked in") || !strings.Contains(s.Table().Description, "**Bob**: still choosing") {
		t.Errorf("table: %q", s.Table().Description)
	}
	refused(t, s, 0, "already locked in", VerbLock)
	refused(t, s, 0, "already locked in", VerbPickA)
	refused(t, s, 0, "already locked in", VerbClear)
	if got := s.ToAct(); !slices.Equal(got, []int{1}) {
		t.Errorf("ToAct = %v", got)
	}
	if v := s.Hand(0); len(v.Buttons)+len(v.Choices) != 0 || !strings.Contains(v.Description, "Waiting for Bob") {
		t.Errorf("locked hand view: %q, %d controls", v.Description, len(v.Buttons)+len(v.Choices))
	}
	refused(t, s, 0, "hands are still being built (waiting for Bob)", VerbDeck)
	refused(t, s, 1, "hands are still being built", VerbHand, "2C")

	evs = must(t, s, 1, VerbLock) // Bob locks an empty hand: all 26 cards are his deck
	if !hasStory(evs) || !strings.Contains(events(evs), "The duel begins") {
		t.Fatalf("no narration of the start: %s", events(evs))
	}
	if s.Phase != PhasePlay || s.Offense != 0 || s.Step != StepAttack || !slices.Equal(s.ToAct(), []int{0}) {
		t.Fatalf("start: phase %s offense %d step %s", s.Phase, s.Offense, s.Step)
	}
	if len(s.Players[1].Hand) != 0 || len(s.Players[1].Deck) != 26 || len(s.Players[0].Deck) != 23 {
		t.Fatalf("sizes: %d/%d %d", len(s.Players[1].Hand), len(s.Players[1].Deck), len(s.Players[0].Deck))
	}
	if slices.IsSortedFunc(s.Players[1].Deck, func(a, b games.Card) int { return value(a) - value(b) }) {
		t.Error("Bob's deck was not shuffled")
	}
	refused(t, s, 1, "already built", VerbPickA)
	refused(t, s, 0, "already built", VerbLock)
	refused(t, s, 0, "isn't a Card Duel move", "dance")
	refused(t, s, 2, "not playing", VerbDeck)
	refused(t, s, -1, "not playing", VerbDeck)
}
