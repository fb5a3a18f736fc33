package duel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// TestCompactViews plays duels to the end, the longest with the most life
// and the biggest hands, and checks that every table reads in one screen,
// every hand stays small and the final table states the result.
func TestCompactViews(t *testing.T) {
	big := gamestest.CheckCompact(t, Rules, gamestest.Compact{
		Seeds:   seedsFor(16),
		Options: []map[string]int{nil, {OptLife: maxLife, OptHandLimit: maxHandLimit}},
		Final:   checkFinalTable,
	})
	t.Logf("largest table %d lines, largest hand %d lines", big.TableLines, big.HandLines)
}

// checkFinalTable: who won and by how much damage, and each score (damage
// dealt) with every damage card that makes it up.
func checkFinalTable(t testing.TB, g games.Game) {
	t.Helper()
	s := g.(*State)
	v := s.Table()
	w, l := s.Winner, 1-s.Winner
	dealt, taken := total(s.Players[l].Damage), total(s.Players[w].Damage)
	want := []string{
		fmt.Sprintf("**%s wins the duel, %d damage to %d.**", s.Names[w], dealt, taken),
		"Score = damage dealt:",
		fmt.Sprintf("%s **%d**", s.Names[w], dealt),
		fmt.Sprintf("%s **%d**", s.Names[l], taken),
	}
	for _, c := range append(append([]games.Card{}, s.Players[0].Damage...), s.Players[1].Damage...) {
		want = append(want, fmt.Sprintf("%s %d", c, value(c)))
	}
	for _, x := range want {
		if !strings.Contains(v.Description, x) {
			t.Errorf("the final table lacks %q:\n%s", x, gamestest.Render(v))
		}
	}
	for _, r := range s.Results() {
		if !strings.Contains(v.Description, fmt.Sprintf("%s **%d**", s.Names[r.Seat], r.Score)) {
			t.Errorf("the final table doesn't show %s's score %d:\n%s", s.Names[r.Seat], r.Score, gamestest.Render(v))
		}
	}
}
