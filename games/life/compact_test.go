package life

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// TestCompactViews plays six-player lives to the end, with role play, with
// every advanced rule and without role play, and checks that every table
// reads in one screen, every hand stays small and the final table states
// the winner and each score with every term that makes it up.
func TestCompactViews(t *testing.T) {
	seeds := 12
	if raceOn || testing.Short() {
		seeds = 4
	}
	big := gamestest.CheckCompact(t, Rules, gamestest.Compact{
		Seeds:   seeds,
		Options: []map[string]int{nil, {"snake_eyes": 1, "swap": 1}, {"roleplay": 0}},
		Final:   checkFinalTable,
	})
	t.Logf("largest table %d lines, largest hand %d lines", big.TableLines, big.HandLines)
}

func checkFinalTable(t testing.TB, g games.Game) {
	t.Helper()
	s := g.(*State)
	v := s.Table()
	text := gamestest.Text(v)
	if !strings.Contains(v.Description, "🏆") || !strings.Contains(v.Description, "points") {
		t.Errorf("the final table doesn't state the result:\n%s", gamestest.Render(v))
	}
	for _, r := range s.Results() {
		cards := 0
		for _, sl := range s.Boards[r.Seat] {
			if sl.Up {
				cards += sl.Card.PipValue()
			}
		}
		want := scorePts(cards) + " on the face-up cards"
		if s.Roleplay {
			given, received := 0, 0
			for _, a := range s.Awards {
				if a.From == r.Seat {
					given++
				}
				if a.To == r.Seat {
					received++
				}
			}
			if cards+received-(startMarkers-given) != r.Score {
				t.Fatalf("seat %d: the terms don't add up to the score %d", r.Seat, r.Score)
			}
			want = fmt.Sprintf("%s = %d on cards + %d 🎭 received − %d 🎭 not given",
				scorePts(r.Score), cards, received, startMarkers-given)
		}
		name := v.Fields[r.Seat].Name
		if !strings.Contains(name, s.Players[r.Seat]) || !strings.Contains(name, want) {
			t.Errorf("seat %d's line %q lacks %q", r.Seat, name, want)
		}
		if r.Winner != strings.HasPrefix(name, "🏆") {
			t.Errorf("seat %d (winner %v) is marked %q", r.Seat, r.Winner, name)
		}
	}
	// Every score is on the table once: in its seat's line.
	if n := strings.Count(text, " pts ") + strings.Count(text, " pt "); n != len(s.Players) {
		t.Errorf("%d scores on a table of %d:\n%s", n, len(s.Players), gamestest.Render(v))
	}
}
