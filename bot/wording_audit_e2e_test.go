package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// What players read around a game: the refusal names the host as an aside
// ("the host, Ann, or"), several players' deadlines are joined with "and",
// and the end confirmation reads plainly.
func TestWordingAroundAGame(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("duel", "Ann", "Bea")
	// Both build at once: one deadline for two players.
	if text := h.table().Text(); !strings.Contains(text, "The bot moves for **Ann** and **Bea** <t:") {
		t.Errorf("the table's deadline line:\n%s", text)
	}
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host, Ann, or someone with Manage Channel can end this game.")
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann))),
		"Only the host, Ann, or someone with Manage Channel can take a player out of this game.")
	r := ann.Command(h.ch, "game", fakediscord.Sub("end"))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "End the game of Card Duel for everyone? It won't count in the stats.") {
		t.Errorf("/game end answered %+v", r)
	}
}
