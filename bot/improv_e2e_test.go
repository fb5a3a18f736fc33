package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games/improv"
)

func improvState(t *testing.T, h *harness) *improv.State {
	t.Helper()
	g, err := improv.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*improv.State)
}

// handOf opens a player's hand from the table.
func (h *harness) handOf(u *fakediscord.User) *fakediscord.Message {
	h.t.Helper()
	r := u.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || r.Message == nil {
		h.t.Fatalf("%s's hand answered %+v", u.Name, r)
	}
	return r.Message
}

// press clicks the hand button whose label starts with label, typing text
// into the text box it opens, if any; it fails the test on a refusal.
func (h *harness) press(u *fakediscord.User, label, text string) {
	h.t.Helper()
	hand := h.handOf(u)
	id := ""
	for _, b := range hand.Buttons() {
		if strings.HasPrefix(b.Label, label) && !b.Disabled {
			id = b.CustomID
		}
	}
	if id == "" {
		h.t.Fatalf("%s has no %q button:\n%s", u.Name, label, hand.Text())
	}
	r := u.Click(hand, id)
	if r != nil && r.Modal != nil {
		r = u.Submit(r.Modal, map[string]string{"text": text})
	}
	if r == nil || r.Type != 7 {
		h.t.Fatalf("%s's %q answered %+v", u.Name, label, r)
	}
}

// choose picks, in the hand's menu for verb, the options whose labels
// contain want (or the first option when want is empty).
func (h *harness) choose(u *fakediscord.User, verb string, want ...string) {
	h.t.Helper()
	hand := h.handOf(u)
	for _, sel := range hand.Selects() {
		if !strings.HasSuffix(sel.CustomID, ":"+verb) {
			continue
		}
		var values []string
		for _, o := range sel.Options {
			for _, w := range want {
				if strings.Contains(o.Label, w) {
					values = append(values, o.Value)
				}
			}
		}
		if len(want) == 0 {
			values = []string{sel.Options[0].Value}
		}
		if r := u.Select(hand, sel.CustomID, values...); r == nil || r.Type != 7 {
			h.t.Fatalf("%s's %s %v answered %+v", u.Name, verb, values, r)
		}
		return
	}
	h.t.Fatalf("%s has no %q menu:\n%s", u.Name, verb, hand.Text())
}

// conflict runs one simple conflict through Discord: the GM's stake, the
// players' stakes, the cards, a GM token, the reveal and the narration in
// the order the bot gives, each narrator speaking with /say.
func improvConflict(t *testing.T, h *harness, gm *fakediscord.User, players []*fakediscord.User, lines map[string]*fakediscord.Message) {
	t.Helper()
	improvConflictGMPlays(t, h, gm, players, lines)
}

// improvConflictGMPlays is improvConflict with the GM's card picked by the
// label of its option (the first option when want is empty).
func improvConflictGMPlays(t *testing.T, h *harness, gm *fakediscord.User, players []*fakediscord.User, lines map[string]*fakediscord.Message, want ...string) {
	t.Helper()
	h.press(gm, "Open a conflict", "")
	var names []string
	for _, p := range players {
		names = append(names, "("+p.Name+")")
	}
	h.choose(gm, "who", names...)
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "stops Riso", "(GM)")
	h.press(gm, "Start the card play", "")
	h.choose(gm, "play", want...)
	for _, u := range players {
		h.choose(u, "play")
	}
	h.press(gm, "+1 story-token", "")
	for _, u := range append([]*fakediscord.User{gm}, players...) {
		h.press(u, "Ready", "")
	}
	if !strings.Contains(h.table().Text(), "arrat") { // narration / narrate
		t.Fatalf("after the reveal the table reads:\n%s", h.table().Text())
	}
	for step := 0; step < 20; step++ {
		rec := h.record()
		if improvState(t, h).Phase != improv.PhaseNarrate {
			return
		}
		seat := rec.Waiting[0]
		var u *fakediscord.User
		for _, c := range append([]*fakediscord.User{gm}, players...) {
			if rec.SeatOf(c.ID) == seat {
				u = c
			}
		}
		text := fmt.Sprintf("%s tells how it went (step %d).", u.Name, step)
		if r := u.Command(h.ch, "say", fakediscord.Str("line", text)); r == nil || !r.Ephemeral {
			t.Fatalf("/say answered %+v", r)
		}
		lines[u.Name] = rolePlayLine(t, h, text)
		// A player speaks as the protagonist they named, unasked.
		if hero := improvState(t, h).Character(seat); hero != "" && !strings.Contains(lines[u.Name].Text(), "**"+hero+"** ("+u.Name+")") {
			t.Errorf("%s's line is not spoken as %s:\n%s", u.Name, hero, lines[u.Name].Text())
		}
		h.press(u, "Done narrating", "")
	}
	t.Fatal("the narration did not end")
}

// A GM and three players run two conflicts of a campaign through Discord,
// with a restart in between and a fourth player joining between them.
func TestImprovCampaignAcrossARestart(t *testing.T) {
	h := newHarness(t)
	gm := h.fake.AddUser("Ann")
	players := []*fakediscord.User{h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")}
	r := gm.Command(h.ch, "game", newGame("improv"))
	if r == nil || !strings.Contains(r.Content, "You are the GM") {
		t.Fatalf("/game new improv answered %+v", r)
	}
	for _, p := range players {
		p.Click(h.table(), h.table().ButtonID("Join"))
	}
	gm.Click(h.table(), h.table().ButtonID("Start"))
	for n, p := range players {
		h.press(p, "Name your protagonist", []string{"Kit", "Diana", "Jason"}[n])
		h.press(p, "Add or change a talent", "Kung fu 3")
	}
	st := improvState(t, h)
	if st.Tokens[0] != 9 || st.Pool != 3 || len(st.Hands[0]) != 6 || len(st.Hands[1]) != 4 {
		t.Fatalf("start: GM tokens %d pool %d GM hand %d player hand %d", st.Tokens[0], st.Pool, len(st.Hands[0]), len(st.Hands[1]))
	}

	lines := map[string]*fakediscord.Message{}
	improvConflict(t, h, gm, players, lines)
	st = improvState(t, h)
	if st.Conflicts != 1 || st.Tokens[0] != 8 {
		t.Fatalf("after the first conflict: %d conflicts, GM tokens %d", st.Conflicts, st.Tokens[0])
	}
	// Cy rewards Bea's narration with 🎭: a token from the pool.
	pool, bea := st.Pool, st.Tokens[1]
	players[1].React(lines["Bea"], "🎭")
	if st := improvState(t, h); st.Tokens[1] != bea+1 || st.Pool != pool-1 {
		t.Fatalf("after the award Bea holds %d (was %d), pool %d (was %d)", st.Tokens[1], bea, st.Pool, pool)
	}
	players[0].React(lines["Bea"], "🎭") // no award to oneself: refused
	if st := improvState(t, h); st.Tokens[1] != bea+1 {
		t.Fatal("a self-award counted")
	}

	h.restart()
	eve := h.fake.AddUser("Eve")
	if r := eve.Click(h.table(), h.table().ButtonID("Join")); r == nil || !strings.Contains(r.Content, "joined") {
		t.Fatalf("Eve's join answered %+v", r)
	}
	h.press(eve, "Name your protagonist", "Vinny")
	st = improvState(t, h)
	if len(st.Players) != 5 || st.Pool != pool-1+1 {
		t.Fatalf("after Eve joined: %d seats, pool %d", len(st.Players), st.Pool)
	}
	improvConflict(t, h, gm, []*fakediscord.User{players[0], eve}, lines)
	if st := improvState(t, h); st.Conflicts != 2 || len(st.Hands[4]) != 4 {
		t.Fatalf("after the second conflict: %d conflicts, Eve holds %d cards", st.Conflicts, len(st.Hands[4]))
	}

	h.press(gm, "End the campaign", "END")
	stats, _ := h.db.Stats(h.fake.GuildID())
	if _, ok := stats[gm.ID]; ok || stats[eve.ID] == nil {
		t.Fatalf("stats after the campaign: %+v", stats)
	}
}

// A player leaves a campaign with /game leave. The GM then plays the top
// of the deck, so still holds 3 + 2 cards when the conflict ends: the
// refill brings the GM's hand down to 3 + 1 for the one player left.
func TestImprovGMHandShrinksAfterALeave(t *testing.T) {
	h := newHarness(t)
	gm, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	if r := gm.Command(h.ch, "game", newGame("improv")); r == nil || r.Type == 0 {
		t.Fatalf("/game new improv answered %+v", r)
	}
	for _, p := range []*fakediscord.User{bea, cy} {
		p.Click(h.table(), h.table().ButtonID("Join"))
	}
	gm.Click(h.table(), h.table().ButtonID("Start"))
	h.press(bea, "Name your protagonist", "Kit")
	if st := improvState(t, h); len(st.Hands[0]) != 5 {
		t.Fatalf("the GM starts with %d cards, want 3 + 2", len(st.Hands[0]))
	}
	if r := cy.Command(h.ch, "game", fakediscord.Sub("leave")); r == nil || r.Type == 0 {
		t.Fatalf("/game leave answered %+v", r)
	}
	told := false
	for _, m := range h.fake.Messages(h.ch) {
		told = told || strings.Contains(m.Text(), "the GM's hand holds 4 cards")
	}
	if !told {
		t.Error("nobody was told the GM's hand shrinks at the next refill")
	}
	improvConflictGMPlays(t, h, gm, []*fakediscord.User{bea}, map[string]*fakediscord.Message{}, "Top of the deck")
	st := improvState(t, h)
	if st.Conflicts != 1 || len(st.Hands[0]) != 4 || len(st.Hands[1]) != 4 {
		t.Fatalf("after the conflict: %d conflicts, the GM holds %d cards (want 3 + 1), Bea %d", st.Conflicts, len(st.Hands[0]), len(st.Hands[1]))
	}
}

// userAt is the user in seat.
func userAt(h *harness, seat int, users []*fakediscord.User) *fakediscord.User {
	rec := h.record()
	for _, u := range users {
		if rec.SeatOf(u.ID) == seat {
			return u
		}
	}
	h.t.Fatalf("nobody in seat %d", seat)
	return nil
}

// plainMove makes, as u, the move phase plainly asks of the one it waits
// for: Done narrating, the first card, Ready, the Hand of Fate's default,
// Done giving.
func plainMove(h *harness, phase string, u *fakediscord.User) {
	switch phase {
	case improv.PhaseNarrate:
		h.press(u, "Done narrating", "")
	case improv.PhaseCards:
		h.choose(u, "play")
	case improv.PhaseBonus:
		h.press(u, "Ready", "")
	case improv.PhaseFate:
		h.press(u, "", "")
	case improv.PhaseGifts:
		h.press(u, "Done giving", "")
	}
}

// A three-round extended conflict through Discord, with a restart in the
// middle of round 2: cards on victory piles, the rounds' narration, the
// gifts and the final narration, to the end of the conflict.
func TestImprovExtendedConflictAcrossARestart(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy", "Dee")
	everyone := append([]*fakediscord.User{gm}, players...)
	openRiso(h, gm, players, "3 rounds", "Riso: gun down Vinny and get away", "Goons (4 mooks): keep the heroes busy")
	restarted := false
	rounds := map[int]bool{}
	for step := 0; step < 300; step++ {
		st := improvState(t, h)
		if st.C == nil {
			break
		}
		rounds[st.C.Round] = true
		rec := h.record()
		if len(rec.Waiting) == 0 {
			t.Fatalf("phase %s waits for nobody:\n%s", st.Phase, h.table().Text())
		}
		u := userAt(h, rec.Waiting[0], everyone)
		switch st.Phase {
		case improv.PhaseCards:
			if !restarted && st.C.Round == 2 && u != gm {
				h.restart()
				restarted = true
			}
			h.choose(u, "play")
		case improv.PhaseBonus:
			h.press(u, "Ready", "")
		case improv.PhaseFate:
			h.press(u, "", "") // whichever the loser picks first
		case improv.PhaseGifts:
			h.press(u, "Done giving", "")
		case improv.PhaseNarrate:
			text := fmt.Sprintf("%s narrates (step %d).", u.Name, step)
			u.Command(h.ch, "say", fakediscord.Str("line", text))
			h.press(u, "Done narrating", "")
		default:
			t.Fatalf("unexpected phase %s", st.Phase)
		}
	}
	st := improvState(t, h)
	if st.C != nil || !restarted || !rounds[3] {
		t.Fatalf("conflict still open %v, restarted %v, rounds %v", st.C != nil, restarted, rounds)
	}
	var channel strings.Builder
	for _, m := range h.fake.Messages(h.ch) {
		channel.WriteString(m.Content + "\n")
	}
	if !strings.Contains(channel.String(), "Riso") {
		t.Fatal("the channel never told the conflict's result")
	}
}

// improvCampaign opens an Improv campaign with Ann as its GM and the
// named players, whose protagonists are Kit, Diana, Jason… in that order.
func improvCampaign(h *harness, names ...string) (gm *fakediscord.User, players []*fakediscord.User) {
	h.t.Helper()
	gm = h.fake.AddUser("Ann")
	gm.Command(h.ch, "game", newGame("improv"))
	for _, name := range names {
		p := h.fake.AddUser(name)
		p.Click(h.table(), h.table().ButtonID("Join"))
		players = append(players, p)
	}
	gm.Click(h.table(), h.table().ButtonID("Start"))
	for n, p := range players {
		h.press(p, "Name your protagonist", []string{"Kit", "Diana", "Jason", "Vinny", "Amanda", "Lou"}[n])
	}
	return gm, players
}

// improvStakes has each player write "<name>'s hero <goal>" and, where
// the hand asks, oppose the stake whose option mentions vs.
func improvStakes(h *harness, players []*fakediscord.User, goal, vs string) {
	h.t.Helper()
	for _, p := range players {
		h.press(p, "Write your stake", p.Name+"'s hero "+goal)
		if hasMenu(h.handOf(p), "vs") {
			h.choose(p, "vs", vs)
		}
	}
}

func hasMenu(m *fakediscord.Message, verb string) bool {
	for _, sel := range m.Selects() {
		if strings.HasSuffix(sel.CustomID, ":"+verb) {
			return true
		}
	}
	return false
}

// A campaign watches only its live lines for 🎭: once the next conflict
// opens, the last one's lines leave the posts and the record, a 🎭 on one
// awards nothing, and what the campaign keeps stays flat however many
// conflicts it runs.
func TestImprovForgetsClosedLines(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	lines := map[string]*fakediscord.Message{}
	improvConflict(t, h, gm, players, lines)
	first := lines["Bea"]
	pool := improvState(t, h).Pool
	players[1].React(first, "🎭") // counts: the window is open
	h.bot.Idle()
	if improvState(t, h).Pool != pool-1 {
		t.Fatal("the award on the open window's line did not count")
	}
	posts, _ := h.db.Posts(h.record().ID)
	ref, ok := posts.RefOf(first.ID)
	if !ok || len(posts.Emoji[ref]) == 0 || len(h.record().Reacts) == 0 {
		t.Fatalf("the open window's line is not watched: ref %q, posts %+v, reacts %v", ref, posts, h.record().Reacts)
	}

	var most int
	for c := 2; c <= 6; c++ {
		improvConflict(t, h, gm, players, lines)
		h.bot.Idle()
		n, err := h.db.Footprint(h.ch)
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, n)
	}
	posts, _ = h.db.Posts(h.record().ID)
	if _, ok := posts.Emoji[ref]; ok {
		t.Fatalf("the first conflict's line is still watched: %+v", posts.Emoji)
	}
	if _, ok := posts.Refs[ref]; ok {
		t.Fatalf("the first conflict's line is still in the posts: %+v", posts.Refs)
	}
	if len(posts.Emoji) == 0 || len(posts.Emoji) > 4 {
		t.Fatalf("%d lines watched; want the last conflict's few", len(posts.Emoji))
	}
	for key := range h.record().Reacts {
		if strings.HasPrefix(key, ref+" ") {
			t.Fatalf("the record still holds the first line's reactions: %v", h.record().Reacts)
		}
	}
	before := improvState(t, h)
	players[1].React(first, "🎭") // again, on Bea's line from the first conflict
	h.bot.Idle()
	if after := improvState(t, h); after.Pool != before.Pool || after.Tokens[1] != before.Tokens[1] {
		t.Fatalf("a 🎭 on a closed line awarded: pool %d → %d", before.Pool, after.Pool)
	}
	if most > 4<<10 {
		t.Fatalf("the campaign kept up to %d bytes", most)
	}
}

// Mooks without a stake, through Discord: the GM declares them in the
// stake box, they play no card, and a protagonist who lost the round
// still takes one out while narrating it.
func TestImprovStakelessMooksFallToAnyone(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	everyone := append([]*fakediscord.User{gm}, players...)
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.choose(gm, "rounds", "2 rounds")
	h.press(gm, "Add a GM stake", "Riso: gun down Vinny and get away")
	h.press(gm, "Add a GM stake", "Goons (4 mooks): keep the heroes busy")
	// A stake per protagonist: the box now takes stakeless mooks only.
	if id := h.handOf(gm).ButtonID("Add a GM stake"); id != "" {
		t.Fatal("the GM is offered a third stake for two protagonists")
	}
	h.press(gm, "Add mooks without a stake", "Patrons (3 mooks)")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "saves Vinny", "Riso")
	h.press(gm, "Start the card play", "")
	patrons := func() improv.Side {
		for _, sd := range improvState(t, h).C.Sides {
			if sd.Name == "Patrons" {
				return sd
			}
		}
		t.Fatal("the stakeless mooks are not in the conflict")
		return improv.Side{}
	}
	if sd := patrons(); sd.Mooks != 3 || sd.Stake != "" {
		t.Fatalf("Patrons: %d mooks, stake %q; want 3 and none", sd.Mooks, sd.Stake)
	}
	// Every protagonist narrating round 1 takes one out, whatever their
	// total: with a stake, only those who out-totalled the group could.
	tookOut := map[string]bool{}
	for step := 0; step < 200; step++ {
		st := improvState(t, h)
		if st.C == nil || st.C.Round > 1 {
			break
		}
		u := userAt(h, h.record().Waiting[0], everyone)
		switch st.Phase {
		case improv.PhaseCards:
			h.choose(u, "play")
			if patrons().Card != nil {
				t.Fatal("the stakeless mooks were dealt a card")
			}
		case improv.PhaseBonus:
			h.press(u, "Ready", "")
		case improv.PhaseFate:
			h.press(u, "", "")
		case improv.PhaseNarrate:
			if u != gm && !tookOut[u.Name] {
				if h.handOf(u).ButtonID("Take out one of the Patrons") == "" {
					t.Fatalf("%s narrates round 1 and is not offered a patron:\n%s", u.Name, h.handOf(u).ButtonsLine())
				}
				before := patrons().Mooks
				h.press(u, "Take out one of the Patrons", "")
				if after := patrons().Mooks; after != before-1 {
					t.Fatalf("%s took out a patron: %d left, want %d", u.Name, after, before-1)
				}
				tookOut[u.Name] = true
			}
			u.Command(h.ch, "say", fakediscord.Str("line", u.Name+" narrates."))
			h.press(u, "Done narrating", "")
		default:
			t.Fatalf("unexpected phase %s", st.Phase)
		}
	}
	if len(tookOut) != len(players) || patrons().Mooks != 1 {
		t.Fatalf("after round 1: %v took out a patron, %d patrons left; want both players and 1", tookOut, patrons().Mooks)
	}
}
