package bot_test

import (
	"bytes"
	"testing"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// The output lane draws from the state the move lane committed, shared and
// unguarded, while the move lane draws its answer from it too: this holds
// only while drawing a state (its views, whose turn, its timers) never
// changes it.
func TestViewsDoNotChangeState(t *testing.T) {
	for _, rules := range bot.Catalog() {
		t.Run(rules.ID, func(t *testing.T) {
			t.Parallel()
			gamestest.Run(t, rules, gamestest.Config{Seeds: 3, MaxSteps: 400, Endless: true, Check: func(t testing.TB, g games.Game) {
				before, _ := games.Encode(g)
				g.Table()
				for s := range 8 {
					g.Hand(s)
				}
				g.ToAct()
				if g.Over() {
					g.Results()
				}
				if tm, ok := g.(games.Timed); ok {
					tm.Timers()
				}
				if after, _ := games.Encode(g); !bytes.Equal(before, after) {
					t.Fatalf("drawing the state changed it:\n%s\n%s", before, after)
				}
			}})
		})
	}
}
