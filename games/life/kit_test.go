package life

import (
	"testing"

	"github.com/cardtable/cardbot/games/gamestest"
)

func TestConformance(t *testing.T) {
	seeds := 30
	if raceOn || testing.Short() {
		seeds = 8
	}
	gamestest.Run(t, Rules, gamestest.Config{
		Seeds:   seeds,
		Players: []int{1, 3, 6},
		Options: []map[string]int{nil, {"snake_eyes": 1, "swap": 1}, {"roleplay": 0}},
	})
}
