package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games/life"
)

// rolePlayLine finds the channel message carrying a /say line.
func rolePlayLine(t *testing.T, h *harness, text string) *fakediscord.Message {
	t.Helper()
	for _, m := range h.fake.Messages(h.ch) {
		if strings.HasPrefix(m.Content, "🎭") && strings.Contains(m.Content, text) {
			return m
		}
	}
	t.Fatalf("no role-play message containing %q", text)
	return nil
}

// lifeState loads the running game's state as the rules see it.
func lifeState(t *testing.T, h *harness) *life.State {
	t.Helper()
	g, err := life.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*life.State)
}

// markers counts (given, received) for a seat from the saved awards.
func markers(st *life.State, seat int) (given, received int) {
	for _, a := range st.Awards {
		if a.From == seat {
			given++
		}
		if a.To == seat {
			received++
		}
	}
	return
}

func TestLifeWithRolePlayMarkersAndARestart(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, dee := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")
	users := []*fakediscord.User{ann, bea, cy}

	r := ann.Command(h.ch, "game", newGame("life"))
	if r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("/game new answered %+v", r)
	}
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	mustRefuse(t, ann.Command(h.ch, "say", fakediscord.Str("line", "Hello")), "hasn't started")
	seen := len(h.fake.Messages(h.ch))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	var invited bool
	// The lobby message itself became the opening story, with the table
	// posted below it.
	for _, m := range h.messagesSince(seen - 1) {
		if strings.Contains(m.Content, "Introduce your character with /say") && strings.Contains(m.Content, "Cy") {
			invited = true
		}
	}
	if !invited {
		t.Fatal("no invitation to introduce the characters after the deal")
	}

	// Introductions in character, attributed to player and character.
	lines := map[string]string{"Ann": "I grew up above my parents' bakery.", "Bea": "Nobody expected much of me.", "Cy": "I was born lucky."}
	chars := map[string]string{"Ann": "Ada", "Bea": "Bo", "Cy": "Cass"}
	for _, u := range users {
		r := u.Command(h.ch, "say", fakediscord.Str("line", lines[u.Name]), fakediscord.Str("character", chars[u.Name]))
		if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "going into the channel") {
			t.Fatalf("/say by %s answered %+v", u.Name, r)
		}
	}
	mustRefuse(t, dee.Command(h.ch, "say", fakediscord.Str("line", "Me too!")), "Only players")
	annLine := rolePlayLine(t, h, lines["Ann"])
	if !strings.Contains(annLine.Content, "**Ada** (Ann)") {
		t.Fatalf("line not attributed to character and player: %q", annLine.Content)
	}
	beaLine, cyLine := rolePlayLine(t, h, lines["Bea"]), rolePlayLine(t, h, lines["Cy"])

	// Markers by reaction, and the ones the rules refuse.
	bea.React(annLine, "🎭") // Bea → Ann
	v := h.record().Version
	ann.React(annLine, "🎭") // self-award: not counted
	if h.record().Version != v {
		t.Fatal("a refused self-award, taken off by the bot, changed the game")
	}
	dee.React(annLine, "🎭")  // spectator: not counted
	bea.React(annLine, "👍")  // another emoji: not counted
	cy.React(annLine, "🎭")   // Cy → Ann
	cy.Unreact(annLine, "🎭") // … taken back
	// The refused ones are taken off the message, so they don't look counted.
	if got := h.fake.Message(h.ch, annLine.ID).Reactions["🎭"]; !slices.Equal(got, []string{bea.ID}) {
		t.Fatalf("🎭 on Ann's line by %v; want only Bea's", got)
	}
	st := lifeState(t, h)
	if g, r := markers(st, 1); g != 1 || r != 0 {
		t.Fatalf("Bea gave %d received %d; want 1, 0", g, r)
	}
	if g, r := markers(st, 0); g != 0 || r != 1 {
		t.Fatalf("Ann gave %d received %d; want 0, 1", g, r)
	}
	if g, _ := markers(st, 2); g != 0 {
		t.Fatalf("Cy's taken-back marker still counts")
	}
	if !strings.Contains(h.table().Text(), "marker") {
		t.Fatalf("the table does not show markers:\n%s", h.table().Text())
	}

	// While the bot is down, Cy rewards Bea; the bot counts it on return,
	// and counts Bea's earlier award once, not twice.
	h.stop()
	cy.React(beaLine, "🎭")
	h.start()
	st = lifeState(t, h)
	if g, _ := markers(st, 2); g != 1 {
		t.Fatalf("Cy's offline award was not picked up: gave %d", g)
	}
	if _, r := markers(st, 0); r != 1 {
		t.Fatalf("Ann received %d markers after the restart; want 1", r)
	}

	// Ann gives away all three markers; a fourth is not counted.
	ann.React(beaLine, "🎭")
	ann.React(cyLine, "🎭")
	extra := ann.Command(h.ch, "say", fakediscord.Str("line", "Bo and Cass were always there for me."))
	if extra == nil || !extra.Ephemeral {
		t.Fatalf("second /say answered %+v", extra)
	}
	bea.Command(h.ch, "say", fakediscord.Str("line", "Ada, you fed me when I had nothing."))
	ann.React(rolePlayLine(t, h, "you fed me"), "🎭")
	cy.Command(h.ch, "say", fakediscord.Str("line", "Luck runs out, they said."))
	ann.React(rolePlayLine(t, h, "Luck runs out"), "🎭") // a fourth: refused by the rules
	st = lifeState(t, h)
	if g, _ := markers(st, 0); g != 3 {
		t.Fatalf("Ann gave %d markers; want exactly 3", g)
	}
	// Ann takes one back. The refused fourth reaction is still on its
	// message, but a restart must not count it as given while away.
	ann.Unreact(beaLine, "🎭")
	h.restart()
	if g, _ := markers(lifeState(t, h), 0); g != 2 {
		t.Fatalf("after taking one back and a restart Ann has given %d markers; want 2", g)
	}

	// The dealer begins; everyone plays their turns from their own hand.
	if r := bea.Click(h.table(), h.table().ButtonID("My hand")); r == nil || !r.Ephemeral || r.Message.ButtonID("Begin") != "" {
		t.Fatalf("Bea's hand before the story begins: %+v", r)
	}
	hand := ann.Click(h.table(), h.table().ButtonID("My hand"))
	if hand == nil || hand.Message.ButtonID("Begin") == "" {
		t.Fatalf("the dealer has no Begin button: %+v", hand)
	}
	ann.Click(hand.Message, hand.Message.ButtonID("Begin"))
	for _, u := range users[2:] {
		u.Click(h.table(), h.table().ButtonID("My hand"))
	}

	rec, _ := h.db.Game(h.ch)
	gameID := rec.ID
	restarted, triedForged := false, false
	for moves := 0; ; moves++ {
		if moves > 200 {
			t.Fatal("the game did not end")
		}
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			break
		}
		if moves == 8 && !restarted {
			restarted = true
			h.restart()
		}
		u, m, id := mover(h, users...)
		if u == nil {
			t.Fatalf("nobody can move; table:\n%s", h.table().Text())
		}
		if !triedForged && strings.Contains(id, ":use=") {
			triedForged = tryForbiddenMoves(t, h, users, u)
		}
		r := u.Click(m, id)
		if r == nil || r.Type != 7 {
			t.Fatalf("%s's move answered %+v", u.Name, r)
		}
	}
	if !restarted || !triedForged {
		t.Fatalf("the game ended before the restart (%v) or a face-down advantage turned up (%v)", restarted, triedForged)
	}

	// The end: a life summary per character, then the scores, counted with
	// the markers exactly as the rules say.
	// One move's story goes out as one message, so read the channel as text.
	var channel strings.Builder
	for _, m := range h.fake.Messages(h.ch) {
		channel.WriteString(m.Content + "\n")
	}
	text := channel.String()
	scores := strings.Index(text, "Final scores")
	if scores < 0 {
		t.Fatal("no final scores posted")
	}
	for _, name := range []string{"Ann", "Bea", "Cy"} {
		at := strings.Index(text, "📖 **"+name+"** started life with")
		if at < 0 || at > scores {
			t.Fatalf("%s's life story is missing or came after the scores (at %d, scores at %d)", name, at, scores)
		}
		story := text[at+len("📖"):]
		if end := strings.Index(story, "📖"); end >= 0 {
			story = story[:end]
		}
		if !strings.Contains(story, "They ") { // how they ended
			t.Fatalf("%s's life story does not say how it ended:\n%s", name, story)
		}
	}
	ended := endedLife(t, h, gameID)
	for seat, name := range []string{"Ann", "Bea", "Cy"} {
		given, received := markers(ended, seat)
		cards := 0
		for _, s := range ended.Boards[seat] {
			if s.Up {
				cards += s.Card.PipValue()
			}
		}
		want := cards + received - (3 - given)
		if ended.Score(seat) != want {
			t.Errorf("%s scored %d; cards %d + received %d − unspent %d = %d", name, ended.Score(seat), cards, received, 3-given, want)
		}
		if !strings.Contains(text[scores:], fmt.Sprintf("**%s** — %d (", name, want)) {
			t.Errorf("scores message lacks %s's %d:\n%s", name, want, text[scores:])
		}
	}
	// No awards once the game is over.
	before := len(ended.Awards)
	bea.React(cyLine, "🎭")
	if after := len(endedLife(t, h, gameID).Awards); after != before {
		t.Fatalf("an award after the end changed the count from %d to %d", before, after)
	}
}

// endedLife loads the final state of a finished game.
func endedLife(t *testing.T, h *harness, id string) *life.State {
	t.Helper()
	e, err := h.db.Ended(id)
	if err != nil || e == nil || e.Final == nil {
		t.Fatalf("game %s has not ended: %v", id, err)
	}
	g, err := life.Rules.Load(e.Final.State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*life.State)
}

// tryForbiddenMoves, on the turn of a player with a face-down advantage,
// sends moves the hand never offers: that advantage, and another player
// acting out of turn. Both are refused and change nothing. It reports
// whether the situation arose.
func tryForbiddenMoves(t *testing.T, h *harness, users []*fakediscord.User, turn *fakediscord.User) bool {
	t.Helper()
	st := lifeState(t, h)
	seat := -1
	for i, u := range users {
		if u == turn {
			seat = i
		}
	}
	down := -1
	for i, slot := range st.Boards[seat] {
		if !slot.Up {
			down = i
		}
	}
	if down < 0 {
		return false
	}
	id, v := h.gameRef()
	tokens := []string{"family", "money", "friends", "mind", "body", "heart"}
	before := fmt.Sprint(lifeState(t, h))
	mustRefuse(t, forge(turn, h.table(), fmt.Sprintf("move:%s:%d:use=%s", id, v, tokens[down])), "face down")
	other := users[(seat+1)%len(users)]
	mustRefuse(t, forge(other, h.table(), fmt.Sprintf("move:%s:%d:use=%s", id, v, tokens[0])), turn.Name)
	if after := fmt.Sprint(lifeState(t, h)); after != before {
		t.Fatal("a refused move changed the game")
	}
	return true
}

func TestSayWithoutMarkers(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("life", fakediscord.Bool("roleplay", false)))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	r := ann.Command(h.ch, "say", fakediscord.Str("line", "Once upon a time."))
	if r == nil || !r.Ephemeral || strings.Contains(r.Content, "marker") {
		t.Fatalf("/say with markers off answered %+v", r)
	}
	bea.React(rolePlayLine(t, h, "Once upon a time."), "🎭")
	if n := len(lifeState(t, h).Awards); n != 0 {
		t.Fatalf("%d awards counted with markers off", n)
	}
}

// Reactions changed while the bot was away are recounted take-backs first,
// and a moderator clearing reactions takes the awards back.
func TestMarkersRecountedAfterRestartAndModeratorClears(t *testing.T) {
	h := newHarness(t)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mo")
	ann.Command(h.ch, "game", newGame("life"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	var lines []*fakediscord.Message
	for i := 1; i <= 4; i++ {
		text := fmt.Sprintf("Bea's line number %d.", i)
		bea.Command(h.ch, "say", fakediscord.Str("line", text))
		lines = append(lines, rolePlayLine(t, h, text))
	}
	for _, m := range lines[:3] {
		ann.React(m, "🎭")
	}
	if g, _ := markers(lifeState(t, h), 0); g != 3 {
		t.Fatalf("Ann gave %d; want 3", g)
	}

	// Away: Ann takes back her first marker and gives it to the fourth line.
	h.stop()
	ann.Unreact(lines[0], "🎭")
	ann.React(lines[3], "🎭")
	h.start()
	st := lifeState(t, h)
	var on []string
	for _, a := range st.Awards {
		on = append(on, a.Ref)
	}
	if g, _ := markers(st, 0); g != 3 || slices.Contains(on, h.refOf(lines[0])) || !slices.Contains(on, h.refOf(lines[3])) {
		t.Fatalf("after the recount Ann gave %d markers, on %v", len(on), on)
	}

	mod.ClearReactions(lines[3], "🎭")
	mod.ClearReactions(lines[2], "")
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("after a moderator cleared two lines Ann has given %d; want 1", g)
	}
}

// Only the turn ping mentions anyone: a line that names a player does not.
func TestSayNeverPings(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("life", "Ann", "Bea")
	before := h.fake.Pings(ann.ID)
	bea.Command(h.ch, "say", fakediscord.Str("line", "Listen, <@"+ann.ID+">, and @everyone else!"))
	if line := rolePlayLine(t, h, "Listen"); line == nil || h.fake.Pings(ann.ID) != before {
		t.Fatalf("a /say line pinged Ann (%d → %d)", before, h.fake.Pings(ann.ID))
	}
}

// When an admin takes away the bot's right to post in a game's channel
// mid-game, the first post's 403 teaches the bot to stop posting there
// (every 403 counts toward Discord's ban on invalid requests): the moves go
// on, the table is kept up to date in place, and once an interaction shows
// the bot may post again, the story is told below as before.
func TestNoPostsWhereDiscordSaidForbidden(t *testing.T) {
	h := newHarness(t)
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
	users[0].Command(h.ch, "game", newGame("life"))
	users[1].Click(h.table(), h.table().ButtonID("Join"))
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	move := func(n int) {
		t.Helper()
		if err := lifeMove(h, users); err != nil {
			t.Fatalf("move %d: %v", n, err)
		}
	}

	h.fake.DenyPosting(h.ch)
	h.fake.ResetRESTCounts()
	var tables []string
	for n := range 8 {
		move(n)
		tables = append(tables, h.table().Text())
	}
	c := h.fake.RESTCounts()
	if c.Invalid != 1 || c.ByRoute["POST "+fakediscord.RouteMessages] != 1 {
		t.Fatalf("while the bot may not post: %d invalid requests, %d posts; want the one that taught it: %+v",
			c.Invalid, c.ByRoute["POST "+fakediscord.RouteMessages], c)
	}
	if tables[7] == tables[3] {
		t.Fatalf("the table stopped keeping up: after move 4 and after move 8\n%s", tables[7])
	}

	h.fake.AllowPosting(h.ch)
	for n := 8; n < 11; n++ {
		move(n)
	}
	c = h.fake.RESTCounts()
	if c.Invalid != 1 || c.ByRoute["POST "+fakediscord.RouteMessages] < 2 {
		t.Fatalf("once the bot may post again: %+v", c)
	}
}

// Without Manage Messages the bot cannot take a refused 🎭 off a message:
// it tries once, and after the 403 leaves the channel alone, so that
// someone toggling a self-award cannot turn it into a stream of 403s,
// which count toward Discord's ban on invalid requests.
func TestRefusedReactionsWithoutManageMessages(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("life", "Ann", "Bea")
	ann.Command(h.ch, "say", fakediscord.Str("line", "I grew up above a bakery."))
	line := rolePlayLine(t, h, "I grew up above a bakery.")
	h.fake.DenyManageMessages(h.ch)
	before := h.fake.RESTCounts().Invalid
	for range 5 {
		ann.React(line, "🎭") // self-award: refused
		ann.Unreact(line, "🎭")
	}
	if n := h.fake.RESTCounts().Invalid - before; n != 1 {
		t.Fatalf("%d invalid requests from five refused self-awards; want the one 403 that showed the permission missing", n)
	}
	if g, r := markers(lifeState(t, h), 0); g != 0 || r != 0 {
		t.Fatalf("Ann gave %d and received %d markers by reacting to herself", g, r)
	}
	// Bea's award still counts.
	bea.React(line, "🎭")
	if _, r := markers(lifeState(t, h), 0); r != 1 {
		t.Fatalf("Ann received %d markers from Bea", r)
	}
}

// A /say line posted just before a kill (killed at "done", the job's end
// never written) gets a 🎭 while the bot is down: the line was recorded
// when it was posted, so the start-up recount finds the marker.
func TestMarkerGivenWhileDownOnUnrecordedLine(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("life", "Ann", "Bea")
	sayKilledAtDone(t, h, bea, "Bea's line.")
	line := rolePlayLine(t, h, "Bea's line.")
	h.fake.Killed()
	h.stop()
	h.killed = false
	ann.React(line, "🎭") // while the bot is down
	h.start()
	h.bot.Idle()
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("after the restart Ann has given %d markers; want 1 (her 🎭 on %s is on Discord)", g, line.ID)
	}
}

// A 🎭 given as soon as the line shows, while its output job still deletes
// the old table, counts: the line is recorded before the job goes on.
func TestMarkerGivenWhileTheLinesJobRuns(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.startedWith("life", "Ann", "Bea")
	h.fake.SetSettler(nil)
	held, release := h.fake.Hold("DELETE", fakediscord.RouteMessage)
	bea.Command(h.ch, "say", fakediscord.Str("line", "Bea's line."))
	<-held
	p, _ := h.db.Posts(h.record().ID)
	recorded := len(p.Refs) > 0
	ann.React(rolePlayLine(t, h, "Bea's line."), "🎭")
	release()
	if !recorded {
		t.Fatal("the line was not recorded while its job went on")
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("Ann has given %d markers; want 1 (her 🎭 is on the line)", g)
	}
}
