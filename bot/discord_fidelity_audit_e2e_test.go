package bot_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Discord's global 429 carries no route headers (only Retry-After,
// X-RateLimit-Global and X-RateLimit-Scope), so discordgo's limiter, which
// waits on X-RateLimit-Reset-After, never learns of it and other channels'
// requests go on, each earning a 429 of its own (an invalid request). The
// bot must hold every request bound by the global limit until retry_after.
func TestDiscordFidelityGlobal429HoldsEveryChannel(t *testing.T) {
	h := newHarness(t)
	other := h.fake.NewChannel("second")
	h.fake.DenyThreads(other)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	h.fake.Inject(fakediscord.Fault{Method: "POST", Route: "/channels/" + h.ch + "/messages", Status: http.StatusTooManyRequests,
		Global: true, RetryAfter: 1500 * time.Millisecond})
	h.fake.ResetRESTCounts()
	done := make(chan struct{})
	go func() {
		defer close(done)
		ann.Command(h.ch, "game", newGame("duel")) // its lobby post meets the global 429
	}()
	for deadline := time.Now().Add(10 * time.Second); h.fake.PendingFaults() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the lobby was never posted")
		}
	}
	// Within retry_after: this lobby's post must wait for it, not draw a 429.
	r := bea.Command(other, "game", newGame("duel"))
	<-done
	if r == nil {
		t.Fatal("/game new in the second channel was not answered")
	}
	h.bot.Idle()
	if c := h.fake.RESTCounts(); c.Invalid != 0 {
		t.Fatalf("%d invalid requests (429s) after a global 429: requests went on during its retry_after", c.Invalid)
	}
	for _, ch := range []string{h.ch, other} {
		if g, _ := h.db.Game(ch); g == nil {
			t.Fatalf("no lobby in %s", ch)
		} else if p, _ := h.db.Posts(g.ID); p.Table == "" || h.fake.Message(ch, p.Table) == nil {
			t.Fatalf("the lobby of %s was never posted", ch)
		}
	}
}

// An admin locks the channel mid-game (the bot loses View Channel): every
// edit of the table answers 403 Missing Access, an invalid request. The
// game goes on through the interaction endpoints, which need no channel
// permission, but the bot must not try the table again on every move; once
// an interaction shows the access back, the table catches up.
func TestDiscordFidelityLockedChannelIsNotEditedOnEveryMove(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	h.fake.DenyAccess(h.ch)
	h.fake.ResetRESTCounts()
	version := h.record().Version
	moves := 0
	for ; moves < 8 && move(h, h.ch, ann, bea); moves++ {
		h.advance(2 * time.Second) // past the table's coalescing
	}
	h.bot.Idle()
	if moves < 4 {
		t.Fatalf("only %d moves could be played in the locked channel", moves)
	}
	if got := h.record().Version; got < version+moves {
		t.Fatalf("version %d after %d moves from %d: moves were lost", got, moves, version)
	}
	if c := h.fake.RESTCounts(); c.Invalid > 2 {
		t.Fatalf("%d invalid requests (403s) over %d moves in a channel the bot may not view (by route %v)", c.Invalid, moves, c.ByRoute)
	}
	h.fake.AllowAccess(h.ch)
	if g, _ := h.db.Game(h.ch); g == nil {
		t.Skip("the game ended meanwhile")
	}
	if !move(h, h.ch, ann, bea) {
		t.Skip("the game ended meanwhile")
	}
	h.advance(2 * time.Second)
	h.bot.Idle()
	if g, _ := h.db.Game(h.ch); g != nil {
		p, _ := h.db.Posts(g.ID)
		if p.Drawn < g.Version {
			t.Fatalf("with access back the table shows move %d of %d", p.Drawn, g.Version)
		}
	}
}

// The bot's token is reset (its owner pressed Reset Token): every request
// made with it answers 401, an invalid request, and none will succeed
// again. Discord asks a bot to stop making requests once its token is
// invalid; the moves still answered through interaction tokens must not
// each add a 401 of their own.
func TestDiscordFidelityRevokedTokenStopsRequests(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	h.fake.RevokeToken()
	h.fake.ResetRESTCounts()
	moves := 0
	for ; moves < 6 && move(h, h.ch, ann, bea); moves++ {
		h.advance(2 * time.Second) // past the table's coalescing
	}
	h.tick(11 * time.Minute) // reminders and moves for the absent
	if moves < 3 {
		t.Fatalf("only %d moves could be played", moves)
	}
	if c := h.fake.RESTCounts(); c.Invalid > 1 {
		t.Fatalf("%d invalid requests (401s) after the token was revoked (by route %v)", c.Invalid, c.ByRoute)
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("%d interactions failed, first %+v", len(f), f[0])
	}
}
