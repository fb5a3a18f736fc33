package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
)

// An open game keeps at most 4 KiB in the file, however big its table:
// every game at its most seats, players with names of Discord's longest,
// played through Discord, whose interaction tokens (one kept per seat) are
// 214 characters. Its log is history and is not counted (store.Footprint).
func TestOpenGamesKeepAtMost4KiB(t *testing.T) {
	const limit = 4 << 10
	for _, r := range bot.Catalog() {
		t.Run(r.ID, func(t *testing.T) {
			h := newHarness(t)
			var users []*fakediscord.User
			if r.ID == "duel" {
				users = duelPlayers(t, h)
			} else {
				for i := range r.MaxPlayers {
					name := fmt.Sprintf("%c%s", 'A'+i, strings.Repeat("é", 31)) // 32 characters
					users = append(users, h.fake.AddUser(name))
				}
				users[0].Command(h.ch, "game", newGame(r.ID))
				for _, u := range users[1:] {
					u.Click(h.table(), h.table().ButtonID("Join"))
				}
				users[0].Click(h.table(), h.table().ButtonID("Start"))
			}
			most, moves := 0, 0
			for ; moves < 200; moves++ {
				h.bot.Idle()
				n, err := h.db.Footprint(h.ch)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break // the game ended
				}
				if n > limit {
					t.Fatalf("after %d moves the game keeps %d bytes, over %d", moves, n, limit)
				}
				most = max(most, n)
				if !playOn(t, h, users) {
					break
				}
			}
			if moves < 20 {
				t.Fatalf("only %d moves were played", moves)
			}
			t.Logf("%d seats, %d moves: at most %d bytes", len(users), moves, most)
		})
	}
}
