package duel

import (
	"testing"

	"github.com/cardtable/cardbot/games"
)

// BenchmarkMoveWithReload is the rules' share of one move as the bot makes
// it: decode the saved state, apply the move, render both views, encode.
func BenchmarkMoveWithReload(b *testing.B) {
	g, err := New(games.Setup{Players: []string{"Ann", "Bea"}, Seed: 1, Options: map[string]int{OptLife: 60}})
	if err != nil {
		b.Fatal(err)
	}
	for seat := 0; seat < 2; seat++ {
		if _, err := g.Apply(seat, games.Act(VerbLock)); err != nil {
			b.Fatal(err)
		}
	}
	saved, _ := games.Encode(g)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := Rules.Load(saved)
		if err != nil {
			b.Fatal(err)
		}
		seat := g.ToAct()[0]
		if _, err := g.Apply(seat, g.Hand(seat).Buttons[0].Action); err != nil {
			b.Fatal(err)
		}
		g.Table()
		if saved, err = games.Encode(g); err != nil {
			b.Fatal(err)
		}
		if g.Over() {
			b.StopTimer()
			g, _ = New(games.Setup{Players: []string{"Ann", "Bea"}, Seed: uint64(i), Options: map[string]int{OptLife: 60}})
			g.Apply(0, games.Act(VerbLock))
			g.Apply(1, games.Act(VerbLock))
			saved, _ = games.Encode(g)
			b.StartTimer()
		}
	}
}

// BenchmarkClone is the copy the bot makes of a channel's committed state
// before each move.
func BenchmarkClone(b *testing.B) {
	g, err := New(games.Setup{Players: []string{"Ann", "Bea"}, Seed: 1, Options: map[string]int{OptLife: 60}})
	if err != nil {
		b.Fatal(err)
	}
	for seat := range 2 {
		if _, err := g.Apply(seat, games.Act(VerbLock)); err != nil {
			b.Fatal(err)
		}
	}
	for range 20 { // some cards in discards and damage
		seat := g.ToAct()[0]
		if _, err := g.Apply(seat, g.Hand(seat).Buttons[0].Action); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := games.Clone(g); err != nil {
			b.Fatal(err)
		}
	}
}
