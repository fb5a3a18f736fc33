package bot_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

func TestCommandsAreRegisteredFromTheCatalogue(t *testing.T) {
	h := newHarness(t)
	cmds := h.fake.Commands(h.fake.GuildID())
	names := map[string]bool{}
	for _, c := range cmds {
		names[c.Name] = true
	}
	if len(cmds) != 5 || !names["game"] || !names["rules"] || !names["say"] || !names["appeal"] || !names["Appeal rudeness"] {
		t.Fatalf("registered %v", names)
	}
	// /game new <game>: one subcommand per game, each with only its own options.
	perGame := map[string]string{}
	for _, c := range cmds {
		if c.Name != "game" {
			continue
		}
		for _, group := range c.Options {
			if group.Name != "new" {
				continue
			}
			for _, game := range group.Options {
				var opts []string
				for _, o := range game.Options {
					opts = append(opts, o.Name)
				}
				perGame[game.Name] = strings.Join(opts, " ")
			}
		}
	}
	for _, r := range h.games {
		var want []string
		for _, o := range r.Options {
			want = append(want, o.Name)
		}
		want = append(want, "autoplay")
		if got, ok := perGame[r.ID]; !ok || got != strings.Join(want, " ") {
			t.Errorf("/game new %s options = %q (registered: %v); want %q", r.ID, got, ok, want)
		}
	}
	if perGame["duel"] != "hand_limit life autoplay" || perGame["life"] != "roleplay snake_eyes swap autoplay" {
		t.Fatalf("/game new options per game: %v", perGame)
	}
}

func TestUnknownButtonIsRefused(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	before := h.snapshot()
	for _, bogus := range []string{"hand:zz", "lobby:abcdefgh:0:dance", "move:abcdefgh:x:play", "totally-unknown"} {
		// as if from an older version of the bot
		mustRefuse(t, forge(bea, h.table(), bogus), "I don't recognise that button")
	}
	// A well-formed button of a game that never existed here.
	mustRefuse(t, forge(bea, h.table(), "lobby:abcdefgh:0:join"), "no longer exists")
	if after := h.snapshot(); after != before {
		t.Fatal("a refused click changed the lobby")
	}
}

func TestLobbyLeaveCancelAndPlayerCount(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("duel"))
	mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Start")), "needs at least 2 players")
	mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Leave")), "You're the host")
	mustRefuse(t, bea.Click(h.table(), h.table().ButtonID("Leave")), "haven't joined")
	bea.Click(h.table(), h.table().ButtonID("Join"))
	if r := bea.Click(h.table(), h.table().ButtonID("Leave")); r == nil || r.Type != 7 || strings.Contains(r.Content, "Bea") {
		t.Fatalf("leave answered %+v", r)
	}
	lobby := h.table()
	if r := ann.Click(lobby, lobby.ButtonID("Cancel")); r == nil || r.Type != 7 || !strings.Contains(r.Content, "Ann cancelled") {
		t.Fatalf("cancel answered %+v", r)
	}
	if len(h.fake.Message(h.ch, lobby.ID).Buttons()) != 0 {
		t.Fatal("the cancelled lobby still has buttons")
	}
	mustRefuse(t, bea.Click(lobby, lobby.ButtonID("Join")), "already been cancelled")
	// The channel is free again.
	r := bea.Command(h.ch, "game", newGame("life"))
	if r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("new game after cancel answered %+v", r)
	}
}

// /game leave in a lobby: a command cannot update a message in its answer
// (Discord takes that only from a component), so the answer is private and
// the lobby message is redrawn without the player.
func TestLobbyLeaveByCommand(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("duel"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	if !strings.Contains(h.table().Text(), "Bea") {
		t.Fatalf("Bea is not in the lobby:\n%s", h.table().Text())
	}
	r := bea.Command(h.ch, "game", fakediscord.Sub("leave"))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "You've left the lobby") {
		t.Fatalf("/game leave answered %+v", r)
	}
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		t.Fatalf("failed interactions: %+v", f)
	}
	if text := h.table().Text(); strings.Contains(text, "Bea") {
		t.Fatalf("the lobby still lists Bea:\n%s", text)
	}
	if rec := h.record(); len(rec.Seats) != 1 {
		t.Fatalf("seats %+v", rec.Seats)
	}
	// She can join again from the redrawn lobby.
	if r := bea.Click(h.table(), h.table().ButtonID("Join")); r == nil || r.Type != 7 || !strings.Contains(r.Message.Text(), "Bea") {
		t.Fatalf("joining again answered %+v", r)
	}
}

func TestRulesStatsAndTableRepost(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")

	r := ann.Command(h.ch, "rules")
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "Card Duel") || !strings.Contains(r.Content, "Play the Hand You're Dealt") {
		t.Fatalf("/rules without a game answered %+v", r)
	}
	mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("stats")), "No games have been finished")
	mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("table")), "no game in this channel")

	openDuel(t, h, ann, bea)
	r = bea.Command(h.ch, "rules")
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "How to play: Card Duel") || !strings.Contains(r.Content, "22") {
		t.Fatalf("/rules in a duel channel answered %+v", r)
	}
	old := h.table()
	r = bea.Command(h.ch, "game", fakediscord.Sub("table"))
	mustRefuse(t, r, "bottom of the channel")
	all := h.fake.Messages(h.ch)
	if last := all[len(all)-1]; last.ID != h.table().ID || last.ID == old.ID {
		t.Fatal("the table was not re-posted at the bottom")
	}
	if h.fake.Message(h.ch, old.ID) != nil {
		t.Fatal("the old table was left behind")
	}
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 {
		t.Fatalf("the re-posted table's Start answered %+v", r)
	}
}

func TestChannelsAreIndependent(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, dee := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")
	other := h.fake.NewChannel("duels")
	openDuel(t, h, ann, bea)
	r := cy.Command(other, "game", newGame("life"))
	if r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("a game in a second channel answered %+v", r)
	}
	mustRefuse(t, dee.Command(other, "game", fakediscord.Sub("end")), "Only the host, Cy")
	if r := h.endGame(ann, h.ch); r == nil || !strings.Contains(r.Content, "You ended") {
		t.Fatalf("ending the first game answered %+v", r)
	}
	if g, _ := h.db.Game(other); g == nil || g.Seats[0].Name != "Cy" {
		t.Fatal("ending one channel's game touched the other's")
	}
}

func TestSayRefusesAnEmptyLineAndGamesWithoutRolePlay(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	mustRefuse(t, ann.Command(h.ch, "say", fakediscord.Str("line", "Have at thee!")), "no role play")
	h.endGame(ann, h.ch)

	ann.Command(h.ch, "game", newGame("life"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	seen := len(h.fake.Messages(h.ch))
	mustRefuse(t, ann.Command(h.ch, "say", fakediscord.Str("line", "   ")), "Your line is empty")
	if n := len(h.fake.Messages(h.ch)); n != seen {
		t.Fatal("an empty line was posted")
	}
}

// /game stats on a busy server lists whole rows within Discord's limit and
// says how many players it left out, rather than cutting a row in two.
func TestStatsOfABusyServer(t *testing.T) {
	h := newHarness(t)
	ann := h.fake.AddUser("Ann")
	h.stop()
	db, err := store.Open(h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"duel", "life", "lnf", "dealt", "improv"}
	for p := range 30 {
		name := fmt.Sprintf("%02d%s", p, strings.Repeat("w", 30)) // 32 characters, as long as Discord allows
		for k, kind := range kinds {
			g := &store.Game{ID: fmt.Sprintf("g%02d%d", p, k), Kind: kind, Guild: h.fake.GuildID(), Channel: fmt.Sprintf("c%02d%d", p, k), Status: store.Playing}
			if err := db.Save(g); err != nil {
				t.Fatal(err)
			}
			if err := db.End(g, "finished", []store.PlayerResult{{User: fmt.Sprintf("u%02d", p), Name: name, Won: p%2 == 0, Score: 100 + p}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
	h.start()
	r := ann.Command(h.ch, "game", fakediscord.Sub("stats"))
	if r == nil || r.Message == nil || !r.Ephemeral {
		t.Fatalf("/game stats answered %+v", r)
	}
	text := r.Message.Text()
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		if m := regexp.MustCompile(`^\d+\\\. \*\*(\d\d)w+\*\* — \d+ won of 5 \(.*best \d+\)$`).FindStringSubmatch(line); m != nil {
			rows++
		}
	}
	if rows < 10 || !strings.Contains(text, fmt.Sprintf("… and %d more.", 30-rows)) {
		t.Fatalf("%d whole rows, and no count of the rest:\n%s", rows, text)
	}
}
