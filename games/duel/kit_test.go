package duel

import (
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

func TestConformance(t *testing.T) {
	gamestest.Run(t, Rules, gamestest.Config{
		Seeds:   seedsFor(40),
		Options: []map[string]int{nil, {OptLife: 10, OptHandLimit: 15}},
		Secrets: func(g games.Game, seat int) []string {
			p := g.(*State).Players[seat]
			var out []string
			for _, pile := range [][]games.Card{p.Hand, p.Pool, p.Picks} {
				for _, c := range pile {
					out = append(out, c.String())
				}
			}
			return out
		},
	})
}

func seedsFor(n int) int {
	if raceOn || testing.Short() {
		return n / 4
	}
	return n
}
