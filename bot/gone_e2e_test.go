package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// A moderator deletes the lobby while Bea's click on Join is on its way:
// Discord answers the update 404 Unknown Message, so the bot answers her
// with the lobby shown to her alone. Her join stands, and the lobby is
// posted anew in the channel, without asking Discord about the deleted
// message again.
func TestClickOnADeletedMessageIsAnsweredToTheClickerAlone(t *testing.T) {
	h := newHarness(t)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mod")
	ann.Command(h.ch, "game", newGame("lnf"))
	lobby := h.table()
	h.fake.SetSettler(nil) // settling would wait for the answer held
	held, release := h.fake.Hold("POST", fakediscord.RouteCallback)
	defer release()
	reply := make(chan *fakediscord.Reply, 1)
	go func() { reply <- bea.Click(lobby, lobby.ButtonID("Join")) }()
	<-held
	mod.DeleteMessage(lobby)
	release()
	r := <-reply
	if r == nil || r.Type != 4 || !r.Ephemeral {
		t.Fatalf("Bea's click on the deleted lobby answered %+v; want a message for her alone", r)
	}
	if !strings.Contains(r.Content, "was deleted") || !strings.Contains(r.Content, "Bea") {
		t.Fatalf("Bea's answer:\n%s", r.Content)
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	if h.record().SeatOf(bea.ID) < 0 {
		t.Fatal("Bea's join was lost with the lobby")
	}
	if id := h.tableID(); id == lobby.ID {
		t.Fatal("the game still names the deleted lobby as its table")
	}
	if !strings.Contains(h.table().Text(), "Bea") {
		t.Fatalf("the lobby posted anew:\n%s", h.table().Text())
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
	// The new lobby works: Ann starts the game from it.
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type == 0 {
		t.Fatalf("Start on the new lobby answered %+v", r)
	}
}

// The same, for a click already acknowledged (deferred) when the message
// goes: the bot's edit of it answers 404, and the answer comes as a
// follow-up only the clicker sees.
func TestDeferredClickOnADeletedMessageIsAnsweredToTheClickerAlone(t *testing.T) {
	h, lobby, bea, cy := queuedLobby(t)
	mod := h.fake.AddAdmin("Mod")
	held, release := h.fake.Hold("POST", fakediscord.RouteCallback)
	defer release()
	first := make(chan *fakediscord.Reply, 1)
	go func() { first <- bea.Click(lobby, lobby.ButtonID("Join")) }()
	<-held // Bea's answer waits on Discord, and Cy's click behind it
	if r := cy.Click(lobby, lobby.ButtonID("Join")); r == nil || r.Type != 6 {
		t.Fatalf("Cy's click answered %+v; want a deferred update", r)
	}
	mod.DeleteMessage(lobby)
	release()
	if r := <-first; r == nil || r.Type != 4 || !r.Ephemeral {
		t.Fatalf("Bea's click answered %+v; want a message for her alone", r)
	}
	bothSeated(t, h, bea, cy)
	got := cy.LastEphemeral(h.ch)
	if got == nil || !strings.Contains(got.Text(), "was deleted") || !strings.Contains(got.Text(), "Cy") {
		t.Fatalf("Cy's follow-up: %+v", got)
	}
	if h.tableID() == lobby.ID || !strings.Contains(h.table().Text(), "Cy") {
		t.Fatalf("the lobby posted anew:\n%s", h.table().Text())
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}

// A moderator deletes a game's table: the next move's table edit meets
// Discord's 404, and the table is posted anew below, once.
func TestTableDeletedByAModeratorIsPostedAnew(t *testing.T) {
	h := newHarness(t)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mod")
	startDuel(t, h, ann, bea)
	old := h.table()
	mod.DeleteMessage(old)
	u, hand, id := mover(h, ann, bea)
	if r := u.Click(hand, id); r == nil || r.Type == 0 {
		t.Fatalf("the move answered %+v", r)
	}
	h.bot.Idle()
	if h.tableID() == old.ID {
		t.Fatal("the game still names the deleted table")
	}
	var tables int
	for _, m := range h.fake.Messages(h.ch) {
		if m.ButtonID("My hand") != "" {
			tables++
		}
	}
	if tables != 1 {
		t.Fatalf("%d tables in the channel after the deleted one was posted anew", tables)
	}
}

// A moderator deletes the table of Play the Hand You're Dealt, then a
// player moves: the move's story would take the table's place, so it is
// posted anew, with the table below it, and the deleted table is not asked
// about again (the fake fails a second 404 on it, as Discord counts it).
func TestStoryAfterTheTableWasDeletedIsPostedAnew(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddAdmin("Mod")
	ann.Command(h.ch, "game", newGame("life"))
	for _, u := range []*fakediscord.User{bea, cy} {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	ann.Click(h.table(), h.table().ButtonID("Start"))
	players := []*fakediscord.User{ann, bea, cy}
	for _, u := range players {
		u.Click(h.table(), h.table().ButtonID("My hand"))
	}
	old := h.table()
	mod.DeleteMessage(old)
	u, hand, id := mover(h, players...)
	if r := u.Click(hand, id); r == nil || r.Type == 0 {
		t.Fatalf("the move answered %+v", r)
	}
	h.bot.Idle()
	if h.tableID() == old.ID {
		t.Fatal("the game still names the deleted table")
	}
	all := h.fake.Messages(h.ch)
	if last := all[len(all)-1]; last.ID != h.tableID() {
		t.Fatalf("the table is not the last message: %q", last.Text())
	}
}
