package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games/dealt"
)

func dealtState(t *testing.T, h *harness) *dealt.State {
	t.Helper()
	g, err := dealt.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*dealt.State)
}

// Dealt! through Discord: three players over several rounds to the loser,
// with a restart in the middle of a trick, and a five-player game to its end.
func TestDealtPlayedToItsLoser(t *testing.T) {
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			h := newHarness(t)
			var users []*fakediscord.User
			for i := range n {
				users = append(users, h.fake.AddUser(string(rune('A'+i))+"nn"))
			}
			users[0].Command(h.ch, "game", newGame("dealt"))
			for _, u := range users[1:] {
				u.Click(h.table(), h.table().ButtonID("Join"))
			}
			users[0].Click(h.table(), h.table().ButtonID("Start"))
			if text := h.table().Text(); !strings.Contains(text, "Round 1") && !strings.Contains(text, "round 1") {
				t.Fatalf("the table does not show the round:\n%s", text)
			}
			restarted, rounds := false, 0
			for move := 0; ; move++ {
				if move > 3000 {
					t.Fatal("the game did not end")
				}
				if rec, _ := h.db.Game(h.ch); rec != nil {
					st := dealtState(t, h)
					rounds = st.Round
					if !restarted && len(st.Trick) >= 2 && st.Round >= 2 {
						before := h.snapshot()
						h.restart()
						if h.snapshot() != before {
							t.Fatal("the restart changed the game")
						}
						restarted = true
					}
				}
				if !playOn(t, h, users) {
					break
				}
			}
			if !restarted || rounds < 2 {
				t.Fatalf("restarted mid-trick: %v; rounds played: %d", restarted, rounds)
			}
			st, _ := h.db.Stats(h.fake.GuildID())
			losers := 0
			for _, u := range users {
				tally := st[u.ID].Games["dealt"]
				if tally.Played != 1 {
					t.Fatalf("%s's stats: %+v", u.Name, tally)
				}
				if tally.Won == 0 {
					losers++
				}
			}
			if losers == 0 || losers == n {
				t.Fatalf("%d of %d players lost", losers, n)
			}
		})
	}
}
