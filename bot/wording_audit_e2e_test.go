package bot_test

import (
	"strings"
	"testing"
	"time"

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

// The turn ping ends with one mark, not "Dealt!." or "but….", and /rules
// names the game after a colon ("How to play Play the Hand…" read twice).
func TestWordingPingAndRulesTitle(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("lnf", "Ann", "Bea")
	keep := func(u *fakediscord.User) {
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		u.Click(hand, hand.ButtonID("Keep my hand"))
	}
	// Bea plays first; pinged only when she has not just clicked.
	keep(bea)
	h.advance(5 * time.Minute)
	keep(ann)
	h.bot.Idle()
	text := channelText(h)
	if !strings.Contains(text, "your move in Life is not fair, but…") || strings.Contains(text, "but….") {
		t.Errorf("the turn ping:\n%s", text)
	}
	u := h.fake.AddUser("Cy")
	if r := u.Command(h.ch, "rules", fakediscord.Str("game", "life")); r == nil || !strings.Contains(r.Content, "How to play: Play the Hand You're Dealt") {
		t.Errorf("/rules life answered %+v", r)
	}
}
