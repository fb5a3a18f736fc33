package dealt

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestDeckHas54DistinctCards(t *testing.T) {
	d := Deck()
	if len(d) != 54 {
		t.Fatalf("%d cards", len(d))
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, c := range d {
		code := c.Code()
		if seen[code] {
			t.Fatalf("two cards coded %s", code)
		}
		seen[code] = true
		count[c.Label()]++
		back, err := ParseCard(code)
		if err != nil || back != c {
			t.Fatalf("ParseCard(%q) = %v, %v", code, back, err)
		}
	}
	for v := 1; v <= 12; v++ {
		if n := count[Card{Face: v}.Label()]; n != 4 {
			t.Errorf("%d copies of %d", n, v)
		}
	}
	if count["X"] != 2 || count["Redraw"] != 2 || count["Stop"] != 2 {
		t.Errorf("specials: %v", count)
	}
	for _, bad := range []string{"", "7", "7e", "0a", "13a", "07a", "Xc", "Sc", "Za", "7:a"} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) accepted", bad)
		}
	}
}

func TestCardJSONIsItsCode(t *testing.T) {
	in := []Card{{7, 1}, {12, 3}, {Wild, 0}, {Stop, 1}}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `["7b","12d","Xa","Sb"]` {
		t.Fatalf("json = %s, %v", b, err)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil || !slices.Equal(in, out) {
		t.Fatalf("round trip = %v, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`["7z"]`), &out); err == nil {
		t.Error("a bad code was accepted")
	}
}

func TestRanking(t *testing.T) {
	cases := []struct {
		hi, lo Combo
	}{
		{Combo{Solo, 12}, Combo{Solo, 8}},           // the worked example: 12 beats 8
		{Combo{Straight2, 5}, Combo{Solo, 12}},      // every 2-Straight beats every Solo
		{Combo{Straight2, 6}, Combo{Straight2, 5}},  // 5-6 beats 5-4
		{Combo{Pair, 1}, Combo{Straight2, 12}},      // a Pair beats a 2-Straight
		{Combo{Straight3, 3}, Combo{Pair, 12}},      // every 3-Straight beats every Pair
		{Combo{Straight3, 8}, Combo{Pair, 11}},      // 6-7-8 beats the Pair of 11s
		{Combo{Trips, 1}, Combo{Straight3, 12}},     // Trips beat everything else
		{Combo{Trips, 9}, Combo{Trips, 8}},          // same kind: higher value
		{Combo{Straight3, 10}, Combo{Straight3, 9}}, // straights by their top card
		{Combo{Pair, 9}, Combo{Pair, 8}},
	}
	for _, c := range cases {
		if !c.hi.Beats(c.lo) || c.lo.Beats(c.hi) {
			t.Errorf("%s should beat %s and not the other way round", c.hi, c.lo)
		}
	}
	if (Combo{Solo, 8}).Beats(Combo{Solo, 8}) || (Combo{Pair, 5}).Beats(Combo{Pair, 5}) {
		t.Error("an equal combination beats")
	}
}

// makes lists every combination a group of faces can be, as "kind top".
func makes(t *testing.T, fs string) []string {
	t.Helper()
	hand := rigged(t, 0, fs, "", "").Players[0].Hand
	var out []string
	for _, m := range movesFor(hand, nil) {
		if m.Pos == 0 && m.Len() == len(hand) && m.Special == 0 {
			out = append(out, m.Combo.String())
		}
	}
	return out
}

func TestCombinations(t *testing.T) {
	cases := []struct {
		faces string
		want  []string
	}{
		{"8", []string{"Solo 8"}},
		{"5 4", []string{"2-Straight 4-5"}},
		{"4 5", []string{"2-Straight 4-5"}},
		{"7 7", []string{"Pair of 7s"}},
		{"7 9", nil},
		{"12 1", nil},                             // straights never wrap
		{"8 10 9", []string{"3-Straight 8-9-10"}}, // any order inside the group
		{"9 8 10", []string{"3-Straight 8-9-10"}},
		{"4 4 4", []string{"Trips of 4s"}},
		{"4 4 5", nil},
		{"11 12 1", nil},
		{"X 12", []string{"2-Straight 11-12", "Pair of 12s"}}, // no 12-1
		{"1 X", []string{"2-Straight 1-2", "Pair of 1s"}},     // no 12-1 either
		{"X 9", []string{"2-Straight 8-9", "2-Straight 9-10", "Pair of 9s"}},
		{"7 X 9", []string{"3-Straight 7-8-9"}},
		{"7 8 X", []string{"3-Straight 6-7-8", "3-Straight 7-8-9"}},
		{"11 X 12", []string{"3-Straight 10-11-12"}},
		{"5 X 5", []string{"Trips of 5s"}}, // X in trips
		{"X 3 X", []string{"3-Straight 1-2-3", "3-Straight 2-3-4", "3-Straight 3-4-5", "Trips of 3s"}},
		{"S", nil},
		{"7 S", nil}, // Stop is never part of a combination
		{"R 7", nil},
	}
	for _, c := range cases {
		if got := makes(t, c.faces); !slices.Equal(got, c.want) {
			t.Errorf("%s makes %q, want %q", c.faces, got, c.want)
		}
	}
}

func TestWildDeclarationsAreSeparatePlays(t *testing.T) {
	count := func(fs string, k Kind) int {
		hand := rigged(t, 0, fs, "", "").Players[0].Hand
		n := 0
		for _, m := range movesFor(hand, nil) {
			if m.Pos == 0 && m.Combo.Kind == k {
				n++
			}
		}
		return n
	}
	if n := count("X", Solo); n != 12 {
		t.Errorf("a lone X: %d Solos, want 12 (X as 1 … 12)", n)
	}
	if n := count("X X", Pair); n != 12 {
		t.Errorf("X X: %d Pairs, want 12", n)
	}
	if n := count("X X", Straight2); n != 11 {
		t.Errorf("X X: %d 2-Straights, want 11 (1-2 … 11-12)", n)
	}
	hand := rigged(t, 0, "X 10", "", "").Players[0].Hand
	var got []string
	for _, m := range movesFor(hand, &Combo{Pair, 9}) {
		got = append(got, m.Token()+xNote(hand[m.Pos:m.Pos+m.Len()], m.Combo))
	}
	// Against a Pair of 9s only higher plays remain: X alone can't, 10 alone
	// can't; X 10 as a Pair of 10s can, and nothing else.
	if !slices.Equal(got, []string{"1.2_pair_10 (X as 10)"}) {
		t.Errorf("plays against a Pair of 9s: %q", got)
	}
}

func TestMovesOnlyTakeTouchingCards(t *testing.T) {
	// 7 and 8 are split by a 3: no 2-Straight 7-8 exists.
	hand := rigged(t, 0, "7 3 8 S 9 9", "", "").Players[0].Hand
	var got []string
	for _, m := range movesFor(hand, nil) {
		got = append(got, m.Token())
	}
	want := []string{"1_solo_7", "2_solo_3", "3_solo_8", "4_stop", "5_solo_9", "5.6_pair_9", "6_solo_9"}
	if !slices.Equal(got, want) {
		t.Errorf("moves %q, want %q", got, want)
	}
}

func TestTokensRoundTrip(t *testing.T) {
	for _, m := range []Move{{Pos: 0, Combo: Combo{Solo, 7}}, {Pos: 11, Combo: Combo{Straight3, 12}}, {Pos: 4, Special: Stop}, {Pos: 0, Special: Redraw}} {
		tk, ok := parseToken(m.Token())
		if !ok || tk.pos[0] != m.Pos || len(tk.pos) != m.Len() || tk.kind != m.Combo.Kind || tk.top != m.Combo.Top || tk.special != m.Special {
			t.Errorf("%s parsed as %+v", m.Token(), tk)
		}
	}
	for _, bad := range []string{"", "x", "1", "1_", "1_pair", "1_duo_3", "0_solo_3", "1.2.3.4_solo_3", "1_stop_3", "a_solo_1"} {
		if _, ok := parseToken(bad); ok {
			t.Errorf("parseToken(%q) accepted", bad)
		}
	}
}
