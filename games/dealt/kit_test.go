package dealt

import (
	"regexp"
	"slices"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

func TestConformance(t *testing.T) {
	gamestest.Run(t, Rules, gamestest.Config{
		Seeds:    seedsFor(30),
		Players:  []int{3, 4, 5},
		Options:  []map[string]int{nil, {OptChips: 3}},
		MaxSteps: 20000,
		Secrets:  handSecrets,
		Check:    checkNoMarkedCardsElsewhere,
	})
}

func seedsFor(n int) int {
	if raceOn || testing.Short() {
		return max(n/5, 2)
	}
	return n
}

// handSecrets: each card in a hand (and a drawn card waiting for a place) as
// its owner sees it, with its copy mark, which no other view may show. A 1
// is left out: "🔴1" is a prefix of "🔴12", which another player may hold;
// checkNoMarkedCardsElsewhere covers it exactly.
func handSecrets(g games.Game, seat int) []string {
	var out []string
	for _, c := range private(g.(*State), seat) {
		if c.Face != 1 {
			out = append(out, c.String())
		}
	}
	return out
}

func private(s *State, seat int) []Card {
	cs := slices.Clone(s.Players[seat].Hand)
	if d := s.Drawing; d != nil && d.Seat == seat {
		cs = append(cs, d.Card)
	}
	return cs
}

var markedCard = regexp.MustCompile(`(🔴|🔵|🟢|🟡)(12|11|10|[1-9]|X|Redraw|Stop)`)

// checkNoMarkedCardsElsewhere reads every marked card out of each view and
// checks it is the viewer's own: the table shows no marked card at all.
func checkNoMarkedCardsElsewhere(t testing.TB, g games.Game) {
	t.Helper()
	s := g.(*State)
	if m := markedCard.FindString(gamestest.Text(s.Table())); m != "" {
		t.Fatalf("the table shows the marked card %s", m)
	}
	for seat := range s.Players {
		mine := map[string]bool{}
		for _, c := range private(s, seat) {
			mine[c.String()] = true
		}
		for _, m := range markedCard.FindAllString(gamestest.Text(s.Hand(seat)), -1) {
			if !mine[m] {
				t.Fatalf("seat %d sees %s, which is not in their hand", seat, m)
			}
		}
	}
}
