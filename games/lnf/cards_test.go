package lnf

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestDeckHas76Cards(t *testing.T) {
	d := Deck()
	if len(d) != 76 {
		t.Fatalf("%d cards", len(d))
	}
	perColor, wilds, total := map[Color]int{}, 0, 0
	for _, c := range d {
		if c.Wild() {
			wilds++
		} else {
			perColor[c.Color]++
		}
		total += c.Num
		code := c.Code()
		if len(code) > 10 || strings.ContainsAny(code, ":=, ") {
			t.Errorf("code %q is not custom_id-safe", code)
		}
		if back, err := ParseCard(code); err != nil || back != c {
			t.Errorf("ParseCard(%q) = %v, %v", code, back, err)
		}
	}
	if wilds != 4 || len(perColor) != 4 || perColor[Red] != 18 || perColor[Yellow] != 18 {
		t.Fatalf("wilds %d, colours %v", wilds, perColor)
	}
	if want := 4*2*45 + 2 + 3 + 4 + 2; total != want {
		t.Errorf("numbers add up to %d, want %d", total, want)
	}
	for _, c := range []Card{DrawTwo, DrawThree, DrawFour, GameOver} {
		if !slices.Contains(d, c) {
			t.Errorf("no %s", c)
		}
	}
	if DrawThree.Draws() != 3 || GameOver.Draws() != 0 || (Card{Red, 4, false}).Draws() != 0 {
		t.Error("Draws is wrong")
	}
	for _, bad := range []string{"", "R0", "W1", "W5", "X3", "WGG", "R10", "G"} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) accepted", bad)
		}
	}
}

func TestCardJSONIsItsCode(t *testing.T) {
	in := cards(t, "R7 Y1 W2 W3 W4 WG")
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `["R7","Y1","W2","W3","W4","WG"]` {
		t.Fatalf("json = %s", b)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil || !slices.Equal(in, out) {
		t.Fatalf("round trip = %v, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`["Q9"]`), &out); err == nil {
		t.Error("a bad code was accepted")
	}
}

func TestCardNames(t *testing.T) {
	for code, want := range map[string]string{"R7": "🟥 Red 7", "G1": "🟩 Green 1", "B9": "🟦 Blue 9", "Y5": "🟨 Yellow 5",
		"W2": "⬜ Draw Two (2)", "W3": "⬜ Draw Three (3)", "W4": "⬜ Draw Four (4)", "WG": "⬜ Game Over (2)"} {
		if got := card(t, code).String(); got != want {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
}

func TestSayingTheLine(t *testing.T) {
	cases := []struct {
		code, line string
		ok         bool
	}{
		{"W2", "Life is not fair, but draw two", true},
		{"W2", "LIFE is not fair... but, draw 2!!", true},
		{"W2", "  life   is not fair but drawtwo ", true},
		{"W2", "Life is not fair, but… Draw Two!", true},
		{"W3", "life is not fair but draw 3", true},
		{"W3", "Life is not fair, but draw three.", true},
		{"W4", "life is not fair, but draw four", true},
		{"W4", "Life is not fair, but draw 4", true},
		{"WG", "life is not fair but game over", true},
		{"WG", "Life is not fair, but GAME OVER!", true},
		{"W2", "", false},
		{"W2", "draw two", false},
		{"W2", "Life is not fair, but draw three", false},
		{"W3", "Life is not fair, but draw two", false},
		{"W2", "Life is not fair, but game over", false},
		{"WG", "Life is not fair, but draw two", false},
		{"W2", "Life isn't fair, but draw two", false},
		{"W2", "Life is fair, but draw two", false},
		{"W4", "Life is not fair, but draw 44", false},
	}
	for _, c := range cases {
		if got := card(t, c.code).saidLine(c.line); got != c.ok {
			t.Errorf("%s %q: %v, want %v", c.code, c.line, got, c.ok)
		}
	}
}

func TestFreshDeal(t *testing.T) {
	s := newGame(t, 5, 3)
	if count(s) != 76 || len(s.Pile.Discard) != 0 {
		t.Fatalf("%d cards, discard %v", count(s), s.Pile.Discard)
	}
	for seat, h := range s.Hands {
		if len(h) != 4 {
			t.Errorf("seat %d holds %d cards", seat, len(h))
		}
	}
	if !slices.Equal(s.ToAct(), []int{0, 1, 2, 3, 4}) || s.Phase != PhaseExchange {
		t.Fatalf("ToAct %v phase %s", s.ToAct(), s.Phase)
	}
	for _, n := range []int{1, 9} {
		if _, err := New(games.Setup{Players: make([]string, n)}); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
	if _, err := New(games.Setup{Players: names[:3], Options: map[string]int{OptVoteMinutes: 11}}); err == nil {
		t.Error("vote_minutes 11 accepted")
	}
}
