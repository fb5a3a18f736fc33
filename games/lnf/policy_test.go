package lnf

import (
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

func sensibleGames() int {
	if raceOn || testing.Short() {
		return 300
	}
	return 2000
}

// TestSensibleBeatsRandom: two players, seats alternating, fixed seeds.
// The game is mostly luck of the draw (nobody chooses much), so the margin
// is modest but clear. Measured: 57.6% [55.4%, 59.7%] over 2000 games.
func TestSensibleBeatsRandom(t *testing.T) {
	tl, err := ai.HeadToHead(Rules, nil, Sensible, ai.Random, sensibleGames(), 1)
	if err != nil {
		t.Fatal(err)
	}
	rate, lo, hi := tl.RateA()
	t.Logf("sensible vs random: %.1f%% [%.1f%%, %.1f%%], random %.1f%%, over %d games, %.1f moves a game",
		100*rate, 100*lo, 100*hi, 100*float64(tl.WinsB)/float64(tl.Games), tl.Games, float64(tl.Moves)/float64(tl.Games))
	if tl.Games >= 2000 && (rate < 0.55 || lo <= 0.5) || lo <= 0.45 || rate <= 0.5 {
		t.Errorf("sensible wins %.1f%% [%.1f%%, %.1f%%] against random; want ≥ 55%% with the interval above 50%%", 100*rate, 100*lo, 100*hi)
	}
	if tl.RefusedA != 0 || tl.Unfinished != 0 {
		t.Errorf("sensible had %d moves refused; %d games unfinished", tl.RefusedA, tl.Unfinished)
	}
}

// TestSensibleAtAFullerTable: one sensible player among three random ones
// (seat rotating) wins clearly more than its fair quarter (checked on the
// full run; the race detector's short run only checks for refusals).
// Measured: 28.5% [26.3%, 30.9%] over 1500 games.
func TestSensibleAtAFullerTable(t *testing.T) {
	n := sensibleGames() * 3 / 4
	wins, refused, unfinished := 0, 0, 0
	for i := range n {
		seats := []ai.Policy{ai.Random, ai.Random, ai.Random, ai.Random}
		me := i % 4
		seats[me] = Sensible
		o, err := ai.Play(Rules, games.Setup{Players: names[:4], Seed: uint64(1000 + i)}, seats, 20000)
		if err != nil {
			t.Fatal(err)
		}
		refused += o.Refused[me]
		if !o.Finished {
			unfinished++
			continue
		}
		if o.Results[me].Winner {
			wins++
		}
	}
	lo, hi := ai.Wilson(wins, n)
	t.Logf("sensible among three random: %.1f%% [%.1f%%, %.1f%%] over %d games (fair share 25%%)", 100*float64(wins)/float64(n), 100*lo, 100*hi, n)
	if n >= 1000 && lo <= 0.25 {
		t.Errorf("sensible wins %.1f%% [%.1f%%, %.1f%%] at a table of four; want the interval above 25%%", 100*float64(wins)/float64(n), 100*lo, 100*hi)
	}
	if refused != 0 || unfinished != 0 {
		t.Errorf("sensible had %d moves refused; %d games unfinished", refused, unfinished)
	}
}

// TestSensibleSelfPlay: sensible players never make a refused move, at any
// table size.
func TestSensibleSelfPlay(t *testing.T) {
	for n := minPlayers; n <= maxPlayers; n++ {
		seats := make([]ai.Policy, n)
		for i := range seats {
			seats[i] = Sensible
		}
		for seed := range uint64(sensibleGames() / 60) {
			o, err := ai.Play(Rules, games.Setup{Players: names[:n], Seed: seed}, seats, 20000)
			if err != nil {
				t.Fatal(err)
			}
			for s, r := range o.Refused {
				if r != 0 {
					t.Errorf("%d players, seed %d: seat %d had %d moves refused", n, seed, s, r)
				}
			}
			if !o.Finished {
				t.Errorf("%d players, seed %d: unfinished", n, seed)
			}
		}
	}
}

func sensibleMove(t *testing.T, s *State, seat int) games.Action {
	t.Helper()
	a, ok := Sensible.Choose(nil, s.Table(), s.Hand(seat), seat)
	if !ok {
		t.Fatalf("seat %d: sensible has no move", seat)
	}
	return a
}

func TestSensiblePlaysTheHighestCard(t *testing.T) {
	s := rigged(t, "R5", "B1 B2 B3", "R2 G5 R9 Y7", "B4 B6")
	if a := sensibleMove(t, s, 0); a.Key() != "play=R9" || a.Text != "" {
		t.Errorf("played %s %q, want the red 9", a.Key(), a.Text)
	}
	if _, ok := Sensible.Choose(nil, s.Table(), s.Hand(1), 1); ok {
		t.Error("a move out of turn")
	}
}

func TestSensibleSaysTheLine(t *testing.T) {
	for _, tc := range []struct{ top, wild, line string }{
		{"R2", "W2", "Life is not fair, but draw two"},
		{"G3", "W3", "Life is not fair, but draw three"},
		{"B4", "W4", "Life is not fair, but draw four"},
		{"R2", "WG", "Life is not fair, but game over"},
	} {
		s := rigged(t, tc.top, "B1 B2 B3 B5 B6 B7", tc.wild+" Y9", "B8 B9")
		a := sensibleMove(t, s, 0)
		if a.Key() != "play="+tc.wild || a.Text != tc.line {
			t.Errorf("on %s: played %s %q, want %s with %q", tc.top, a.Key(), a.Text, tc.wild, tc.line)
			continue
		}
		must(t, s, 0, a)
		switch {
		case tc.wild == "WG":
			if !s.Over() || s.Ender != 0 {
				t.Errorf("Game Over with its line did not end the game")
			}
		case len(s.Hands[1]) != 2+card(t, tc.wild).Num:
			t.Errorf("%s with its line: Bob holds %d cards", tc.wild, len(s.Hands[1]))
		}
	}
	// Game Over over Draw Two: it wins outright.
	s := rigged(t, "R2", "B1 B2 B3", "W2 WG Y9", "B8 B9")
	if a := sensibleMove(t, s, 0); a.Key() != "play=WG" || a.Text != "Life is not fair, but game over" {
		t.Errorf("played %s %q, want Game Over", a.Key(), a.Text)
	}
}

func TestSensiblePlaysTheDrawnCard(t *testing.T) {
	// Nothing fits: draw, then play the card drawn when it fits.
	s := rigged(t, "R5", "B1 R7", "G1 Y9", "B4 B6")
	if a := sensibleMove(t, s, 0); a.Key() != VerbDraw {
		t.Fatalf("with nothing that fits: %s", a.Key())
	}
	must(t, s, 0, games.Act(VerbDraw))
	if a := sensibleMove(t, s, 0); a.Key() != "play=R7" {
		t.Errorf("drew a red 7 on a red 5: %s", a.Key())
	}
	// A card drawn that doesn't fit is kept.
	s = rigged(t, "R5", "R7 B1", "G1 Y9", "B4 B6")
	if a := sensibleMove(t, s, 0); a.Key() != VerbDraw {
		t.Fatalf("with nothing that fits: %s", a.Key())
	}
	must(t, s, 0, games.Act(VerbDraw))
	if s.Turn != 1 {
		t.Errorf("drew a blue 1 on a red 5 and kept the turn")
	}
}

func TestSensibleExchange(t *testing.T) {
	for seed := range uint64(40) {
		s := newGame(t, 2, seed)
		a := sensibleMove(t, s, 0)
		high := 0
		for _, c := range s.Hands[0] {
			if !c.Wild() {
				high = max(high, c.Num)
			}
		}
		switch {
		case high >= swapHigh && (a.Verb != VerbSwap || card(t, a.Arg(0)).Num != high):
			t.Errorf("seed %d: hand %s, highest %d: %s, want it swapped", seed, codes(s.Hands[0]), high, a.Key())
		case high < swapHigh && a.Verb != VerbReady:
			t.Errorf("seed %d: hand %s: %s, want it kept", seed, codes(s.Hands[0]), a.Key())
		}
		must(t, s, 0, a)
	}
}
