package dealt

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// TestCompactViews plays five-player games to the end, the longer ones with
// three chips each, and checks that every table reads in one screen, every
// hand stays small and the final table states who lost, who won and every
// score (chips left) as the sum that made it.
func TestCompactViews(t *testing.T) {
	big := gamestest.CheckCompact(t, Rules, gamestest.Compact{
		Seeds:    seedsFor(12),
		Options:  []map[string]int{nil, {OptChips: 3}},
		MaxSteps: 20000,
		Final:    checkFinalTable,
	})
	t.Logf("largest table %d lines, largest hand %d lines", big.TableLines, big.HandLines)
}

func checkFinalTable(t testing.TB, g games.Game) {
	t.Helper()
	s := g.(*State)
	v := s.Table()
	var won []string
	for i, r := range s.Results() {
		if r.Winner {
			won = append(won, s.Names[i])
		}
	}
	if !strings.Contains(v.Description, "🏁 **Game over.**") || !strings.Contains(v.Description, "🏆 "+andList(won)) {
		t.Errorf("the final table doesn't state the result:\n%s", gamestest.Render(v))
	}
	text := gamestest.Text(v)
	for i, p := range s.Players {
		lost := s.Chips - p.Chips
		want := fmt.Sprintf("🏆 **%s**: %d chip", s.Names[i], p.Chips)
		if slices.Contains(s.Losers, i) {
			want = fmt.Sprintf("💀 **%s**: %d chip", s.Names[i], p.Chips)
		}
		rounds := fmt.Sprintf(" = %d at the start − %d round", s.Chips, lost)
		if !strings.Contains(text, want) || !strings.Contains(text, want[strings.Index(want, "**"):]+pluralS(p.Chips)+rounds) {
			t.Errorf("the final table lacks %q…%q:\n%s", want, rounds, gamestest.Render(v))
		}
	}
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
