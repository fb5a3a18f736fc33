package lnf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// TestCompactViews plays eight-player games to the end, appeals and all,
// and checks that every table reads in one screen, every hand stays small
// and the final table states how the game ended and every score as its sum.
func TestCompactViews(t *testing.T) {
	big := gamestest.CheckCompact(t, Rules, gamestest.Compact{
		Seeds:   seedsFor(16),
		Options: []map[string]int{nil, {OptVoteMinutes: maxVoteMinutes}},
		Final:   checkFinalTable,
	})
	t.Logf("largest table %d lines, largest hand %d lines", big.TableLines, big.HandLines)
}

func checkFinalTable(t testing.TB, g games.Game) {
	t.Helper()
	s := g.(*State)
	v := s.Table()
	if !strings.Contains(v.Description, "🏁 **Game over:** "+s.Names[s.Ender]) || len(v.Fields) != 1 {
		t.Fatalf("the final table doesn't say how the game ended:\n%s", gamestest.Render(v))
	}
	lines := strings.Split(v.Fields[0].Value, "\n")
	if len(lines) != len(s.Names) {
		t.Fatalf("%d score lines for %d players:\n%s", len(lines), len(s.Names), gamestest.Render(v))
	}
	minus := func(n int) string { return strings.Replace(fmt.Sprint(n), "-", "−", 1) }
	for _, r := range s.Results() {
		line := lines[r.Seat]
		h := s.Hands[r.Seat]
		var want string
		switch {
		case r.Seat == s.Ender && s.Ended == endOut:
			want = fmt.Sprintf("**%s** (went out): **%d**", s.Names[r.Seat], outScore)
		case r.Seat == s.Ender:
			want = fmt.Sprintf("**%s** (Game Over): %d − %s = **%s**", s.Names[r.Seat], outScore, plural(len(h), "card"), minus(r.Score))
		default:
			n := 0
			for _, c := range h {
				n += c.Num
			}
			want = fmt.Sprintf("**%s**: %d − %d = **%s**", s.Names[r.Seat], keepScore, n, minus(r.Score))
		}
		if !strings.Contains(line, want) || r.Winner != strings.HasPrefix(line, "🏆") {
			t.Errorf("score line %q, want %q (winner %v)", line, want, r.Winner)
		}
	}
}
