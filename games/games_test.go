package games

import (
	"encoding/json"
	"testing"
)

func TestCardCodesRoundTrip(t *testing.T) {
	for _, c := range StandardDeck(2) {
		got, err := ParseCard(c.Code())
		if err != nil || got != c {
			t.Fatalf("ParseCard(%q) = %v, %v; want %v", c.Code(), got, err, c)
		}
	}
	for _, bad := range []string{"", "1S", "ZS", "7Z", "X2", "10S"} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) accepted", bad)
		}
	}
}

func TestCardJSON(t *testing.T) {
	in := []Card{{Rank: 10, Suit: Hearts}, {Rank: Ace, Suit: Spades}, {Rank: Joker, Suit: 1}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `["TH","AS","X1"]` {
		t.Fatalf("json = %s", b)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out[0] != in[0] || out[2] != in[2] {
		t.Fatalf("round trip = %v", out)
	}
}

func TestPipValue(t *testing.T) {
	cases := map[int]int{2: 2, 9: 9, 10: 10, Jack: 10, Queen: 10, King: 10, Ace: 11}
	for rank, want := range cases {
		if got := (Card{Rank: rank}).PipValue(); got != want {
			t.Errorf("rank %d value %d, want %d", rank, got, want)
		}
	}
}

func TestRNGDeterministicAndUniform(t *testing.T) {
	a, b := NewRNG(42), NewRNG(42)
	for i := 0; i < 100; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed diverged")
		}
	}
	r := NewRNG(7)
	var counts [6]int
	for i := 0; i < 60000; i++ {
		counts[r.D6()-1]++
	}
	for face, n := range counts {
		if n < 9000 || n > 11000 {
			t.Errorf("face %d came up %d times in 60000 rolls", face+1, n)
		}
	}
}

func TestRNGStateSurvivesJSON(t *testing.T) {
	r := NewRNG(99)
	r.Uint64()
	b, _ := json.Marshal(r)
	var back RNG
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if r.Uint64() != back.Uint64() {
		t.Fatal("restored generator produced a different value")
	}
}

func TestPileReshufflesDiscards(t *testing.T) {
	r := NewRNG(1)
	p := Pile[Card]{Draw: []Card{{Rank: 2}}, Discard: []Card{{Rank: 3}, {Rank: 4}}}
	if c, re, ok := p.Take(&r); !ok || re || c.Rank != 2 {
		t.Fatalf("first take = %v %v %v", c, re, ok)
	}
	if _, re, ok := p.Take(&r); !ok || !re {
		t.Fatal("empty draw pile did not reshuffle the discards")
	}
	if len(p.Discard) != 0 || len(p.Draw) != 1 {
		t.Fatalf("after reshuffle draw=%v discard=%v", p.Draw, p.Discard)
	}
	p.Take(&r)
	if _, _, ok := p.Take(&r); ok {
		t.Fatal("took a card from nothing")
	}
}

func TestActionKeyRoundTrip(t *testing.T) {
	for _, a := range []Action{Act("start"), Act("play", "7S"), Act("build", "AS", "2C", "TD")} {
		back, err := ParseAction(a.Key())
		if err != nil || back.Key() != a.Key() {
			t.Fatalf("ParseAction(%q) = %v, %v", a.Key(), back, err)
		}
	}
	for _, bad := range []string{"", "=x", "play=", "play=a,,b", "pl ay", "play:x"} {
		if _, err := ParseAction(bad); err == nil {
			t.Errorf("ParseAction(%q) accepted", bad)
		}
	}
}

func TestValidateOptions(t *testing.T) {
	r := Rules{Name: "Test", Options: []Option{
		{Name: "life", Kind: IntOption, Default: 22, Min: 5, Max: 99},
		{Name: "fast", Kind: BoolOption, Default: 1},
	}}
	got, err := r.Validate(map[string]int{"life": 30})
	if err != nil || got["life"] != 30 || got["fast"] != 1 {
		t.Fatalf("Validate = %v, %v", got, err)
	}
	if _, err := r.Validate(map[string]int{"life": 2}); err == nil {
		t.Error("out-of-range option accepted")
	}
	if _, err := r.Validate(map[string]int{"speed": 1}); err == nil {
		t.Error("unknown option accepted")
	}
}

// Every card, jokers included, survives JSON inside a struct; a bad code
// is refused, an escaped one read.
func TestEveryCardJSON(t *testing.T) {
	for _, c := range StandardDeck(2) {
		b, err := json.Marshal(struct{ C []Card }{[]Card{c, c}})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"C":["` + c.Code() + `","` + c.Code() + `"]}`; string(b) != want {
			t.Fatalf("%v written as %s; want %s", c, b, want)
		}
		var back struct{ C []Card }
		if err := json.Unmarshal(b, &back); err != nil || len(back.C) != 2 || back.C[0] != c || back.C[1] != c {
			t.Fatalf("%v: %s read back as %v (%v)", c, b, back.C, err)
		}
	}
	if b, err := json.Marshal(struct{ A, B *Card }{B: &Card{Rank: 10, Suit: Hearts}}); err != nil || string(b) != `{"A":null,"B":"TH"}` {
		t.Errorf("pointers to cards written as %s (%v)", b, err)
	}
	for _, bad := range []string{`"ZZ"`, `"AS "`, `7`, `"X9"`} {
		var c Card
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("%s read as %v; want an error", bad, c)
		}
	}
	var c Card
	if err := json.Unmarshal([]byte(`"\u0041S"`), &c); err != nil || c.Code() != "AS" {
		t.Errorf(`an escaped code read as %v (%v); want AS`, c, err)
	}
}
