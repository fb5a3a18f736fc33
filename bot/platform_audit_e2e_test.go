package bot_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// Each game's lobby holds between its minimum and maximum of seats: Start
// below the minimum, a Join past the maximum, a second Join and the host's
// Leave are refused to the clicker alone and change nothing; Start at
// exactly the minimum deals the game.
func TestAuditLobbySeatLimitsOfEveryGame(t *testing.T) {
	for _, tc := range []struct {
		game     string
		min, max int
	}{{"duel", 2, 2}, {"life", 1, 6}, {"improv", 2, 7}, {"lnf", 2, 8}, {"dealt", 3, 5}} {
		t.Run(tc.game, func(t *testing.T) {
			h := newHarness(t)
			var users []*fakediscord.User
			for n := range tc.max + 1 {
				users = append(users, h.fake.AddUser(fmt.Sprintf("P%d", n)))
			}
			host := users[0]
			host.Command(h.ch, "game", newGame(tc.game))
			join := func(u *fakediscord.User) {
				t.Helper()
				if r := u.Click(h.table(), h.table().ButtonID("Join")); r == nil || r.Type != 7 || !strings.Contains(r.Message.Text(), u.Name) {
					t.Fatalf("%s's Join answered %+v", u.Name, r)
				}
			}
			for _, u := range users[1:max(1, tc.min-1)] { // one short of the minimum
				join(u)
			}
			if tc.min > 1 {
				before := h.snapshot()
				want := fmt.Sprintf("needs at least %d players; %d joined so far", tc.min, tc.min-1)
				if tc.game == "improv" { // the GM alone: a player is missing, not two
					want = "needs at least 1 player besides the GM; 0 joined so far"
				}
				mustRefuse(t, host.Click(h.table(), h.table().ButtonID("Start")), want)
				if h.snapshot() != before || h.record().Status != store.Lobby {
					t.Fatal("a refused Start changed the lobby")
				}
			}
			for _, u := range users[len(h.record().Seats):tc.max] {
				join(u)
			}
			if text := h.table().Text(); !strings.Contains(text, fmt.Sprintf("Players (%d/%d)", tc.max, tc.max)) {
				t.Fatalf("the full lobby reads:\n%s", text)
			}
			before := h.snapshot()
			mustRefuse(t, users[tc.max].Click(h.table(), h.table().ButtonID("Join")), "The table is full")
			if tc.max > 1 {
				mustRefuse(t, users[1].Click(h.table(), h.table().ButtonID("Join")), "already at this table")
			}
			mustRefuse(t, host.Click(h.table(), h.table().ButtonID("Leave")), "You're the host")
			mustRefuse(t, host.Command(h.ch, "game", fakediscord.Sub("leave")), "You're the host")
			if h.snapshot() != before {
				t.Fatal("a refused click changed the lobby")
			}
			// Down to the minimum, then Start deals the game.
			for len(h.record().Seats) > tc.min {
				u := users[len(h.record().Seats)-1]
				if r := u.Click(h.table(), h.table().ButtonID("Leave")); r == nil || r.Type != 7 {
					t.Fatalf("%s's Leave answered %+v", u.Name, r)
				}
			}
			if r := host.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 {
				t.Fatalf("Start with %d seats answered %+v", tc.min, r)
			}
			if rec := h.record(); rec.Status != store.Playing || rec.StartSeats != tc.min {
				t.Fatalf("after Start: %s with %d seats", rec.Status, rec.StartSeats)
			}
			if f := h.fake.FailedInteractions(); len(f) != 0 {
				t.Fatalf("failed interactions: %+v", f)
			}
		})
	}
}

// Someone else's game: a plain member may not cancel, end or remove
// anyone; a moderator (Manage Channel, here through Administrator) may
// cancel a lobby and end a running game, and the table says who did it.
func TestAuditModeratorsAndMembersOnSomeoneElsesGame(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddAdmin("Mo")
	openDuel(t, h, ann, bea)
	lobby := h.table()
	before := h.snapshot()
	mustRefuse(t, cy.Click(lobby, lobby.ButtonID("Cancel")), "Only the host or someone with Manage Channel")
	mustRefuse(t, bea.Click(lobby, lobby.ButtonID("Cancel")), "Only the host or someone with Manage Channel")
	mustRefuse(t, cy.Click(lobby, lobby.ButtonID("Start")), "Only the host, Ann")
	mustRefuse(t, mod.Click(lobby, lobby.ButtonID("Start")), "Only the host, Ann")
	mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host, Ann")
	mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea))), "Only the host, Ann")
	if h.snapshot() != before {
		t.Fatal("a member's refused click changed the lobby")
	}
	// The moderator cancels the lobby from its own button.
	gameID := h.record().ID
	if r := mod.Click(lobby, lobby.ButtonID("Cancel")); r == nil || r.Type != 7 || !strings.Contains(r.Content, "Mo cancelled this lobby") {
		t.Fatalf("the moderator's Cancel answered %+v", r)
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the cancelled lobby still holds the channel")
	}
	if e, _ := h.db.Ended(gameID); e == nil || e.How != "been cancelled" {
		t.Fatalf("ending recorded: %+v", e)
	}
	mustRefuse(t, bea.Click(lobby, lobby.ButtonID("Join")), "already been cancelled")

	// A running game: Ann asks to end it, but the moderator ends it first
	// and Cy opens a lobby; Ann's confirmation must not end Cy's lobby.
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	table := h.tableID()
	confirm := ann.Command(h.ch, "game", fakediscord.Sub("end"))
	if confirm == nil || confirm.Message == nil || confirm.Message.ButtonID("End the game") == "" {
		t.Fatalf("/game end answered %+v", confirm)
	}
	before = h.snapshot()
	mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host, Ann")
	mustRefuse(t, forge(cy, h.table(), confirm.Message.ButtonID("End the game")), "Only the host, Ann")
	if h.snapshot() != before {
		t.Fatal("a member's refused end changed the game")
	}
	if r := h.endGame(mod, h.ch); r == nil || !strings.Contains(r.Content, "You ended the game of Card Duel") {
		t.Fatalf("the moderator's end answered %+v", r)
	}
	if m := h.fake.Message(h.ch, table); m == nil || !strings.Contains(m.Text(), "ended by Mo") || len(m.Buttons()) != 0 {
		t.Fatalf("the ended table reads:\n%s", m.Text())
	}
	cy.Command(h.ch, "game", newGame("life"))
	cysLobby := h.record().ID
	mustRefuse(t, ann.Click(confirm.Message, confirm.Message.ButtonID("End the game")), "already been ended by Mo")
	if g, _ := h.db.Game(h.ch); g == nil || g.ID != cysLobby || g.Status != store.Lobby {
		t.Fatalf("Ann's stale confirmation touched Cy's lobby: %+v", g)
	}
}

// A host can take a player out of the lobby (a stranger filling the last
// seat of a duel), as PRODUCT's host control says; so can a moderator. A
// member cannot, and the host's own seat is not taken this way.
func TestAuditHostRemovesAPlayerFromTheLobby(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, dee, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee"), h.fake.AddAdmin("Mo")
	openDuel(t, h, ann, bea)
	remove := func(by, who *fakediscord.User) *fakediscord.Reply {
		return by.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", who)))
	}
	before := h.snapshot()
	mustRefuse(t, remove(cy, bea), "Only the host, Ann")
	mustRefuse(t, remove(ann, cy), "isn't playing")
	mustRefuse(t, remove(ann, ann), "Cancel")
	if h.snapshot() != before {
		t.Fatal("a refused /game remove changed the lobby")
	}
	r := remove(ann, bea)
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "Bea") {
		t.Fatalf("the host's /game remove in the lobby answered %+v", r)
	}
	if rec := h.record(); rec.Status != store.Lobby || seatNames(rec) != "Ann" {
		t.Fatalf("after the removal: %s, seats %s", rec.Status, seatNames(rec))
	}
	if text := h.table().Text(); strings.Contains(text, "Bea") || !strings.Contains(text, "Players (1/2)") {
		t.Fatalf("the lobby after the removal reads:\n%s", text)
	}
	// The free seat is taken by someone else; a moderator can remove too.
	cy.Click(h.table(), h.table().ButtonID("Join"))
	if r := remove(mod, cy); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "Cy") {
		t.Fatalf("the moderator's /game remove answered %+v", r)
	}
	dee.Click(h.table(), h.table().ButtonID("Join"))
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 || seatNames(h.record()) != "Ann,Dee" {
		t.Fatalf("Start after the removals answered %+v; seats %s", r, seatNames(h.record()))
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}

// One game per channel, while a member may play in two channels at once:
// each channel's commands and buttons reach its own game only.
func TestAuditOneGamePerChannelAndOnePlayerInTwo(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	other := h.fake.NewChannel("second")
	openDuel(t, h, ann, bea)
	before := h.snapshot()
	mustRefuse(t, cy.Command(h.ch, "game", newGame("life")), "already a game of Card Duel")
	mustRefuse(t, ann.Command(h.ch, "game", newGame("duel")), "already a game of Card Duel")
	if h.snapshot() != before {
		t.Fatal("a refused /game new changed the lobby")
	}
	ann.Click(h.table(), h.table().ButtonID("Start"))
	mustRefuse(t, cy.Command(h.ch, "game", newGame("lnf")), "already a game of Card Duel")
	if rec := h.record(); rec.Status != store.Playing || rec.Kind != "duel" {
		t.Fatalf("the channel's game is now %s %s", rec.Kind, rec.Status)
	}

	// Ann opens a second game in another channel while her duel runs.
	if r := ann.Command(other, "game", newGame("life")); r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("a second game for Ann answered %+v", r)
	}
	g2, _ := h.db.Game(other)
	p2, _ := h.db.Posts(g2.ID)
	lobby2 := h.fake.Message(other, p2.Table)
	bea.Click(lobby2, lobby2.ButtonID("Join"))
	lobby2 = h.fake.Message(other, p2.Table)
	ann.Click(lobby2, lobby2.ButtonID("Start"))
	duelBefore := h.snapshot()

	r := ann.Command(other, "game", fakediscord.Sub("hand"))
	if r == nil || r.Message == nil || !strings.Contains(r.Message.Text(), "only you can see this") || len(r.Message.Selects()) != 0 {
		t.Fatalf("/game hand in the second channel answered %+v", r)
	}
	r = ann.Command(h.ch, "game", fakediscord.Sub("hand"))
	if r == nil || r.Message == nil || len(r.Message.Selects()) == 0 {
		t.Fatalf("/game hand in the duel's channel answered %+v", r)
	}
	// A life move in the second channel leaves the duel as it was.
	g2, _ = h.db.Game(other)
	if len(g2.Waiting) == 0 {
		t.Fatal("the second game waits for nobody")
	}
	u := []*fakediscord.User{ann, bea}[g2.Waiting[0]]
	hand := u.Command(other, "game", fakediscord.Sub("hand"))
	for _, b := range hand.Message.Buttons() {
		if !b.Disabled {
			u.Click(hand.Message, b.CustomID)
			break
		}
	}
	if g, _ := h.db.Game(other); g.Version == g2.Version {
		t.Fatal("the move in the second channel was not made")
	}
	if h.snapshot() != duelBefore {
		t.Fatal("a move in another channel changed the duel")
	}
	if r := h.endGame(ann, other); r == nil || !strings.Contains(r.Content, "You ended the game of Play the Hand") {
		t.Fatalf("ending the second game answered %+v", r)
	}
	if h.record().Kind != "duel" {
		t.Fatal("ending the second channel's game touched the duel")
	}
}

// Buttons survive a restart: the lobby's, and a finished game's Rematch;
// those of a game that ended answer what became of it.
func TestAuditButtonsAcrossRestarts(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	ann.Command(h.ch, "game", newGame("life", fakediscord.Bool("roleplay", false)))
	lobby := h.table()
	h.restart()
	if r := bea.Click(lobby, lobby.ButtonID("Join")); r == nil || r.Type != 7 || !strings.Contains(r.Content, "Bea") {
		t.Fatalf("Join after a restart answered %+v", r)
	}
	h.restart()
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 {
		t.Fatalf("Start after a restart answered %+v", r)
	}
	gameID := h.record().ID
	midTable := h.table() // as a player who scrolled up last saw it
	users := []*fakediscord.User{ann, bea}
	for n := 0; ; n++ {
		if n > 200 {
			t.Fatal("the game did not end")
		}
		if g, _ := h.db.Game(h.ch); g == nil {
			break
		}
		if n == 3 {
			h.restart()
		}
		if err := lifeMove(h, users); err != nil {
			t.Fatal(err)
		}
	}
	h.restart()
	posts, _ := h.db.Posts(gameID)
	final := h.fake.Message(h.ch, posts.Table)
	if final == nil || final.ButtonID("Rematch") == "" {
		t.Fatal("the finished table has no Rematch")
	}
	mustRefuse(t, bea.Click(midTable, midTable.ButtonID("My hand")), "That game has already finished")
	mustRefuse(t, cy.Click(final, final.ButtonID("Rematch")), "Only the players")
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("a refused rematch opened a lobby")
	}
	if r := bea.Click(final, final.ButtonID("Rematch")); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "rematch lobby") {
		t.Fatalf("Bea's Rematch answered %+v", r)
	}
	rec := h.record()
	if rec.Status != store.Lobby || seatNames(rec) != "Ann,Bea" || rec.Host != ann.ID || rec.Options["roleplay"] != 0 {
		t.Fatalf("the rematch lobby: %s, seats %s, host %s, options %v", rec.Status, seatNames(rec), rec.Host, rec.Options)
	}
	before := h.snapshot()
	h.restart()
	mustRefuse(t, ann.Click(final, final.ButtonID("Rematch")), "already open")
	if h.snapshot() != before || h.record().ID != rec.ID {
		t.Fatal("a second Rematch changed the lobby")
	}
	// The old lobby message became the old game's table; the new lobby works.
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 || h.record().Status != store.Playing {
		t.Fatalf("Start of the rematch answered %+v", r)
	}
	mustRefuse(t, ann.Click(final, final.ButtonID("Rematch")), "Another game is running")
}

// Display names are the users' own text: in the lobby, the table and the
// story they must neither ping anyone (allowed_mentions) nor format the
// bot's text (markdown is escaped), nor pass for a mention of someone else.
func TestAuditNamesNeitherPingNorFormat(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("**Ann"), h.fake.AddUser("@everyone")
	cy := h.fake.AddUser("<@" + ann.ID + ">")
	dee := h.fake.AddUser("# Dee `x` ||y|| ~~z~~ _w_ [l](https://example.com)")
	users := []*fakediscord.User{ann, bea, cy, dee}
	ann.Command(h.ch, "game", newGame("life", fakediscord.Bool("roleplay", false)))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	lobbyText := h.table().Text()
	ann.Click(h.table(), h.table().ButtonID("Start"))
	for n := range 8 {
		if err := lifeMove(h, users); err != nil {
			t.Fatalf("move %d: %v", n, err)
		}
	}
	h.bot.Idle()
	ids := []string{ann.ID, bea.ID, cy.ID, dee.ID}
	for _, m := range h.fake.Messages(h.ch) {
		if m.AuthorID != h.fake.BotUserID() {
			continue
		}
		am := m.AllowedMentions
		if am == nil || slices.Contains(am.Parse, discordgo.AllowedMentionTypeEveryone) || slices.Contains(am.Parse, discordgo.AllowedMentionTypeRoles) || slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) {
			t.Fatalf("message %q lets mentions through: %+v", m.Text(), am)
		}
		for _, u := range am.Users {
			if !slices.Contains(ids, u) || !strings.Contains(m.Content, "<@"+u+">") {
				t.Fatalf("message %q may ping %s", m.Text(), u)
			}
		}
	}
	// Cy's name, "<@Ann's id>", would show as a mention of Ann.
	raw := "<@" + ann.ID + ">"
	for _, text := range []string{lobbyText, h.table().Text()} {
		for _, want := range []string{`\*\*Ann`, `\<@` + ann.ID + `>`, `\# Dee \` + "`x\\`" + ` \|\|y\|\| \~\~z\~\~ \_w\_ \[l\](https://example.com)`} {
			if !strings.Contains(text, want) {
				t.Fatalf("%q is not escaped in:\n%s", want, text)
			}
		}
	}
	for _, m := range h.fake.Messages(h.ch) {
		if m.AuthorID == h.fake.BotUserID() && strings.Contains(strings.ReplaceAll(m.Text(), `\<@`, ""), raw) {
			t.Fatalf("Cy's name reads as a mention of Ann in:\n%s", m.Text())
		}
	}
	told := false
	for _, m := range h.fake.Messages(h.ch) {
		if m.AuthorID != h.fake.BotUserID() {
			continue
		}
		if md := markdownText(m); strings.Contains(md, "**Ann") || strings.Contains(md, "||y||") {
			t.Fatalf("a name formats the story:\n%s", md)
		}
		told = told || strings.Contains(m.Content, `\*\*Ann`)
		// A footer shows its text as is: the name as its owner wrote it.
		for _, e := range m.Embeds {
			if e.Footer != nil && strings.Contains(e.Footer.Text, `\`) {
				t.Fatalf("footer %q shows an escape", e.Footer.Text)
			}
		}
	}
	if !told {
		t.Fatal("no story message names Ann")
	}
}

// Names as long as Discord allows (32 characters) at a full table of the
// largest game: the lobby, the table and the thread name stay within
// Discord's limits (the fake refuses anything past them) and show every
// seat.
func TestAuditLongNamesAtAFullTable(t *testing.T) {
	h := newHarness(t, withThreads)
	var users []*fakediscord.User
	for n := range 8 {
		users = append(users, h.fake.AddUser(fmt.Sprintf("%d%s", n, strings.Repeat("W", 31))))
	}
	joinIn(t, h, "lnf", users)
	text := h.table().Text()
	for _, u := range users {
		if !strings.Contains(text, u.Name) {
			t.Fatalf("the lobby leaves out %s:\n%s", u.Name, text)
		}
	}
	startIn(t, h, users)
	th := threadOf(t, h)
	if n := len([]rune(th.Name)); n > 100 || !strings.HasPrefix(th.Name, "Life is not fair") {
		t.Fatalf("thread name %q (%d characters)", th.Name, n)
	}
	text = h.table().Text()
	for _, u := range users {
		if !strings.Contains(text, u.Name) {
			t.Fatalf("the table leaves out %s:\n%s", u.Name, text)
		}
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
}

// A moderator deletes the lobby before anyone clicks: the channel still
// holds the game, so /game new says so; /game table brings the lobby back
// (asking Discord about the deleted message at most once), and it works.
func TestAuditLobbyDeletedBeforeAnyClick(t *testing.T) {
	h := newHarness(t)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mo")
	ann.Command(h.ch, "game", newGame("duel"))
	old := h.table()
	mod.DeleteMessage(old)
	mustRefuse(t, bea.Command(h.ch, "game", newGame("life")), "already a game of Card Duel")
	h.restart()
	if r := bea.Command(h.ch, "game", fakediscord.Sub("table")); r == nil || !r.Ephemeral {
		t.Fatalf("/game table answered %+v", r)
	}
	if h.tableID() == old.ID {
		t.Fatal("the game still names the deleted lobby")
	}
	lobbies := 0
	for _, m := range h.fake.Messages(h.ch) {
		if m.ButtonID("Join") != "" {
			lobbies++
		}
	}
	if lobbies != 1 {
		t.Fatalf("%d lobbies in the channel", lobbies)
	}
	if r := bea.Click(h.table(), h.table().ButtonID("Join")); r == nil || r.Type != 7 {
		t.Fatalf("Join on the lobby posted anew answered %+v", r)
	}
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 || h.record().Status != store.Playing {
		t.Fatalf("Start answered %+v", r)
	}
	if n := h.fake.RESTCounts().NotFound; n > 1 {
		t.Fatalf("%d requests answered 404", n)
	}
}

// Commands that need a game, in a channel without one, say so privately
// and post nothing.
func TestAuditCommandsWithoutAGame(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddAdmin("Mo")
	for _, run := range []func() *fakediscord.Reply{
		func() *fakediscord.Reply { return ann.Command(h.ch, "game", fakediscord.Sub("table")) },
		func() *fakediscord.Reply { return ann.Command(h.ch, "game", fakediscord.Sub("hand")) },
		func() *fakediscord.Reply { return ann.Command(h.ch, "game", fakediscord.Sub("end")) },
		func() *fakediscord.Reply { return bea.Command(h.ch, "game", fakediscord.Sub("end")) },
		func() *fakediscord.Reply { return ann.Command(h.ch, "game", fakediscord.Sub("leave")) },
		func() *fakediscord.Reply {
			return bea.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann)))
		},
		func() *fakediscord.Reply { return ann.Command(h.ch, "say", fakediscord.Str("line", "Hello")) },
		func() *fakediscord.Reply { return ann.Command(h.ch, "appeal", fakediscord.UserOpt("player", bea)) },
	} {
		mustRefuse(t, run(), "There's no game in this channel")
	}
	for _, m := range h.fake.Messages(h.ch) {
		if !m.Ephemeral {
			t.Fatalf("posted %q", m.Text())
		}
	}
}

// Every command is offered in servers only (Discord then never sends one
// from a DM), and each game's number options carry their range, so a
// value out of range never reaches the bot: the client refuses it.
func TestAuditCommandsAreForServersAndOptionsKeepTheirRange(t *testing.T) {
	h := newHarness(t)
	for _, c := range h.fake.Commands(h.fake.GuildID()) {
		if c.Contexts == nil || !slices.Equal(*c.Contexts, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}) {
			t.Errorf("/%s is offered in contexts %v", c.Name, c.Contexts)
		}
	}
	ann := h.fake.AddUser("Ann")
	for _, r := range h.games {
		for _, o := range r.Options {
			if o.Min == o.Max {
				continue
			}
			for _, v := range []int{o.Min - 1, o.Max + 1} {
				_, err := ann.Client().Command(h.ch, "game", newGame(r.ID, fakediscord.Int(o.Name, v)))
				var refused *fakediscord.Refusal
				if !errors.As(err, &refused) {
					t.Errorf("/game new %s %s:%d was sent (%v)", r.ID, o.Name, v, err)
				}
			}
		}
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("a lobby opened with options out of range: %+v", g.Options)
	}
}

// A character name given with /say is shown in bold before the line, as a
// display name is: its markdown must not spill into the line, and a
// thread's name (plain text) shows names without escapes.
func TestAuditCharacterAndThreadNamesStayPlain(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("_Ann_"), h.fake.AddUser("Bea")
	openIn(t, h, "life", []*fakediscord.User{ann, bea})
	if th := threadOf(t, h); th.Name != "Play the Hand You're Dealt · _Ann_, Bea" {
		t.Fatalf("thread name %q", th.Name)
	}
	where := h.where()
	ann.Command(where, "say", fakediscord.Str("line", "I *grew up* fast."), fakediscord.Str("character", "Ada** <@"+bea.ID+">"))
	var line *fakediscord.Message
	for _, m := range h.fake.Messages(where) {
		if strings.Contains(m.Content, "grew up") {
			line = m
		}
	}
	if line == nil {
		t.Fatal("the line was not posted")
	}
	if want := `**Ada\*\* \<@` + bea.ID + `>** (\_Ann\_)`; !strings.Contains(line.Content, want) || !strings.Contains(line.Content, "I *grew up* fast.") {
		t.Fatalf("the line reads %q; want the speaker %q and the line as written", line.Content, want)
	}
}

// Commands from the game's thread reach the game of the channel it came
// from; once the game ends there, the thread says where to open a new one.
func TestAuditCommandsInTheGamesThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	openIn(t, h, "duel", []*fakediscord.User{ann, bea})
	th := threadOf(t, h).ID
	before := h.snapshot()
	mustRefuse(t, cy.Command(th, "game", fakediscord.Sub("end")), "Only the host, Ann")
	mustRefuse(t, cy.Command(th, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea))), "Only the host, Ann")
	mustRefuse(t, cy.Command(th, "game", fakediscord.Sub("hand")), "not playing")
	mustRefuse(t, bea.Command(th, "game", fakediscord.Sub("leave")), "can't leave a game in progress")
	mustRefuse(t, cy.Command(th, "game", newGame("life")), "already a game of Card Duel")
	if r := cy.Command(th, "rules"); r == nil || !strings.Contains(r.Content, "How to play: Card Duel") {
		t.Fatalf("/rules in the thread answered %+v", r)
	}
	old := h.tableID()
	mustRefuse(t, cy.Command(th, "game", fakediscord.Sub("table")), "<#"+th+">")
	all := h.fake.Messages(th)
	if last := all[len(all)-1]; last.ID != h.tableID() || last.ID == old || h.fake.Message(th, old) != nil {
		t.Fatal("the table was not moved to the bottom of the thread")
	}
	if h.snapshot() != before {
		t.Fatal("the thread's commands changed the game")
	}
	if r := h.endGame(ann, th); r == nil || !strings.Contains(r.Content, "You ended the game") {
		t.Fatalf("/game end in the thread answered %+v", r)
	}
	mustRefuse(t, bea.Command(th, "game", fakediscord.Sub("table")), "This thread's game is over")
	mustRefuse(t, bea.Command(th, "game", newGame("life")), "/game new in <#"+h.ch+">")
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the channel still holds %s", g.Status)
	}
}

// Rematch where the bot may no longer post: refused with what the bot
// needs, as /game new is, instead of promising a lobby that never shows.
func TestAuditRematchWhereTheBotMayNotPost(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("life", "Ann", "Bea")
	gameID := h.record().ID
	for n := 0; ; n++ {
		if n > 200 {
			t.Fatal("the game did not end")
		}
		if g, _ := h.db.Game(h.ch); g == nil {
			break
		}
		if err := lifeMove(h, []*fakediscord.User{ann, bea}); err != nil {
			t.Fatal(err)
		}
	}
	posts, _ := h.db.Posts(gameID)
	final := h.fake.Message(h.ch, posts.Table)
	h.fake.DenyPosting(h.ch)
	h.fake.ResetRESTCounts()
	mustRefuse(t, bea.Click(final, final.ButtonID("Rematch")), "I need Send Messages in this channel")
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("a lobby nobody can see holds the channel: %s", g.Status)
	}
	if c := h.fake.RESTCounts(); c.Invalid != 0 {
		t.Fatalf("%d invalid requests: %+v", c.Invalid, c)
	}
	h.fake.AllowPosting(h.ch)
	if r := bea.Click(final, final.ButtonID("Rematch")); r == nil || !strings.Contains(r.Content, "rematch lobby") {
		t.Fatalf("Rematch once the bot may post answered %+v", r)
	}
}

// markdownText is what of m Discord renders as markdown: its content and
// its embeds but for their footers, which show text as is.
func markdownText(m *fakediscord.Message) string {
	parts := []string{m.Content}
	for _, e := range m.Embeds {
		parts = append(parts, e.Title, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
	}
	return strings.Join(parts, "\n")
}
