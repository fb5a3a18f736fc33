package bot_test

import (
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// /game table whose answer never reached Discord and whose table could not
// be posted: the bot says nothing more, for a token never answered has no
// message to amend; its @original answers 404, which Discord counts
// toward the invalid-request ban.
func TestTableRepostNeitherAnsweredNorPostedAmendsNothing(t *testing.T) {
	h := newHarness(t)
	ann, _ := duelTable(t, h, h.ch, 0)
	before := h.fake.RESTCounts().NotFound
	h.fake.Faults(fakediscord.Faults{Seed: 1, ServerError: 1, Routes: []string{"POST " + fakediscord.RouteCallback, "POST " + fakediscord.RouteMessages}})
	ann.Command(h.ch, "game", fakediscord.Sub("table"))
	h.bot.Idle()
	h.fake.Faults(fakediscord.Faults{})
	if n := h.fake.RESTCounts().NotFound - before; n != 0 {
		t.Fatalf("%d requests answered 404", n)
	}
}

// The same for /game new: the lobby that could not be posted closes, and
// its unanswered token is not amended.
func TestLobbyNeitherAnsweredNorPostedAmendsNothing(t *testing.T) {
	h := newHarness(t)
	ann := h.fake.AddUser("Ann")
	before := h.fake.RESTCounts().NotFound
	h.fake.Faults(fakediscord.Faults{Seed: 1, ServerError: 1, Routes: []string{"POST " + fakediscord.RouteCallback, "POST " + fakediscord.RouteMessages}})
	ann.Command(h.ch, "game", newGame("duel"))
	h.bot.Idle()
	h.fake.Faults(fakediscord.Faults{})
	if n := h.fake.RESTCounts().NotFound - before; n != 0 {
		t.Fatalf("%d requests answered 404", n)
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the unposted lobby is still %s", g.Status)
	}
}
