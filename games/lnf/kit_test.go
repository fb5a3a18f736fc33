package lnf

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

func seedsFor(n int) int {
	if raceOn || testing.Short() {
		return n / 4
	}
	return n
}

func TestConformance(t *testing.T) {
	gamestest.Run(t, Rules, gamestest.Config{
		Seeds:   seedsFor(40),
		Players: []int{2, 3, 5, 8},
		Options: []map[string]int{nil, {OptVoteMinutes: 10}},
		Secrets: secrets,
		Text:    sayLine,
	})
}

// secrets are the cards only seat holds: every wild in its hand, and each
// coloured card whose twin is still face down in the deck (so no other
// hand, nor the table, may show that name).
func secrets(g games.Game, seat int) []string {
	s := g.(*State)
	var out []string
	for _, c := range s.Hands[seat] {
		if c.Wild() || slices.Contains(s.Pile.Draw, c) {
			out = append(out, c.String())
		}
	}
	return out
}

// sayLine answers a wild card's text box: the right line, in a random
// style, half the time; otherwise the kit's usual mix.
func sayLine(r *games.RNG, a games.Action) string {
	c, err := ParseCard(a.Arg(0))
	if err != nil || r.Intn(2) == 0 {
		return []string{"", "hello", "life is not fair, but draw two", "Life is not fair but game over!", "x"}[r.Intn(5)]
	}
	line := c.line()
	switch r.Intn(3) {
	case 0:
		line = strings.ToUpper(line) + "!!"
	case 1:
		line = strings.NewReplacer("two", "2", "three", "3", "four", "4", ",", "...").Replace(line)
	}
	return line
}
