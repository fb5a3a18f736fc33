package bot_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/store"
)

// startDealt3 opens and starts a three-player Dealt! game: Ann hosts
// (seat 0, the dealer), Bea (seat 1) leads, Cy is seat 2.
func startDealt3(t *testing.T, h *harness, opts ...fakediscord.Option) []*fakediscord.User {
	t.Helper()
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")}
	users[0].Command(h.ch, "game", newGame("dealt", opts...))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	return users
}

// rigDealt changes the stored game while the bot is down; every card moved
// comes from somewhere, so the deck stays whole.
func rigDealt(t *testing.T, h *harness, change func(s *dealt.State, take func(code string) dealt.Card)) {
	t.Helper()
	h.rigged = true
	h.rigStored(dealt.Rules, func(g games.Game) {
		s := g.(*dealt.State)
		take := func(code string) dealt.Card {
			c, err := dealt.ParseCard(code)
			if err != nil {
				t.Fatal(err)
			}
			lists := []*[]dealt.Card{&s.Pile.Draw, &s.Pile.Discard}
			for i := range s.Players {
				lists = append(lists, &s.Players[i].Hand, &s.Players[i].Reserve)
			}
			for _, l := range lists {
				if i := slices.Index(*l, c); i >= 0 {
					*l = slices.Delete(*l, i, i+1)
					return c
				}
			}
			t.Fatalf("card %s is nowhere", code)
			return c
		}
		change(s, take)
	})
}

// cards takes the given codes, in order.
func cards(take func(string) dealt.Card, codes ...string) []dealt.Card {
	var out []dealt.Card
	for _, c := range codes {
		out = append(out, take(c))
	}
	return out
}

// openHand is the user's fresh hand view via the table's My hand button.
func openHand(t *testing.T, h *harness, u *fakediscord.User) *fakediscord.Message {
	t.Helper()
	r := u.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || r.Message == nil || !r.Ephemeral {
		t.Fatalf("%s's My hand answered %+v", u.Name, r)
	}
	return r.Message
}

// optionWith finds the first select option whose label contains want.
func optionWith(m *fakediscord.Message, want string) (menu, value string) {
	for _, s := range m.Selects() {
		for _, o := range s.Options {
			if strings.Contains(o.Label, want) {
				return s.CustomID, o.Value
			}
		}
	}
	return "", ""
}

func handCodes(hand []dealt.Card) string {
	var out []string
	for _, c := range hand {
		out = append(out, c.Code())
	}
	return strings.Join(out, " ")
}

// A long hand's plays are split over several menus of at most 25; a play
// from the second menu is taken as offered, and a hand too long for three
// menus goes through "from card n" and back.
func TestDealtAuditLongHandMenus(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	bea := users[1]
	// Bea leads with 26 cards: 2-12 plus 1s in pairs gives many plays.
	var codes []string
	for f := 1; f <= 12; f++ {
		codes = append(codes, strconv.Itoa(f)+"a", strconv.Itoa(f)+"b")
	}
	codes = append(codes, "Xa", "Sa")
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		s.Pile.Draw = append(s.Pile.Draw, s.Players[1].Hand...)
		s.Players[1].Hand = nil
		s.Players[1].Hand = cards(take, codes...)
	})
	hand := openHand(t, h, bea)
	sels := hand.Selects()
	if len(sels) < 2 {
		t.Fatalf("a 26-card hand shows %d menus:\n%s", len(sels), hand.Text())
	}
	seen := map[string]bool{}
	for _, s := range sels {
		if len(s.Options) > 25 {
			t.Fatalf("menu %s has %d options", s.CustomID, len(s.Options))
		}
		for _, o := range s.Options {
			if seen[o.Value] {
				t.Fatalf("option %s offered twice", o.Value)
			}
			seen[o.Value] = true
		}
	}
	// The second menu's last play: whatever it is, the hand loses its cards.
	last := sels[len(sels)-1]
	var pick fakediscord.SelectOption
	for _, o := range last.Options {
		if !strings.Contains(o.Label, "Stop") && !strings.Contains(o.Label, "Redraw") {
			pick = o // a combination: it stays in the trick
		}
	}
	before := len(dealtState(t, h).Players[1].Hand)
	r := bea.Select(hand, last.CustomID, pick.Value)
	if r == nil || r.Type != 7 || strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("a play from menu %s answered %+v", last.CustomID, r)
	}
	st := dealtState(t, h)
	if len(st.Trick) != 1 || len(st.Players[1].Hand) >= before {
		t.Fatalf("play %q (%s): trick %+v, hand %d→%d", pick.Value, pick.Label, st.Trick, before, len(st.Players[1].Hand))
	}
	if !strings.Contains(h.table().Text(), "Bea: ") {
		t.Fatalf("the table does not show Bea's play:\n%s", h.table().Text())
	}
}

// A hand with more plays than three menus hold: pick the start card, then
// the play; Back returns to the start menus and changes no cards.
func TestDealtAuditFromMenusAndBack(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	bea := users[1]
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		s.Pile.Draw = append(s.Pile.Draw, s.Players[1].Hand...)
		s.Players[1].Hand = nil
		for _, i := range []int{0, 2} {
			s.Pile.Draw = append(s.Pile.Draw, s.Players[i].Hand[1:]...)
			s.Players[i].Hand = s.Players[i].Hand[:1]
		}
		// Every draw-pile card but a few, sorted so most cards start
		// several plays: more than three menus hold.
		n := len(s.Pile.Draw) - 4
		slices.SortStableFunc(s.Pile.Draw[:n], func(a, b dealt.Card) int { return a.Face - b.Face })
		s.Players[1].Hand = slices.Clone(s.Pile.Draw[:n])
		s.Pile.Draw = slices.Clone(s.Pile.Draw[n:])
	})
	hand := openHand(t, h, bea)
	menu, from := optionWith(hand, "From card 2:")
	if menu == "" {
		t.Fatalf("a long hand offers no start menus:\n%s", hand.Text())
	}
	cardsBefore := handCodes(dealtState(t, h).Players[1].Hand)
	r := bea.Select(hand, menu, from)
	if r == nil || r.Type != 7 || r.Message == nil || r.Message.ButtonID("Back") == "" {
		t.Fatalf("choosing a start answered %+v", r)
	}
	for _, s := range r.Message.Selects() {
		for _, o := range s.Options {
			if !strings.Contains(o.Description, "card 2") && !strings.Contains(o.Description, "cards 2–") {
				t.Fatalf("after choosing card 2, the play %q (%s) starts elsewhere", o.Label, o.Description)
			}
		}
	}
	// A double submission of the start menu is stale, not a second choice.
	if again := bea.Select(hand, menu, from); again == nil || !strings.Contains(again.Content, "earlier moment") {
		t.Fatalf("a second start pick from the old view answered %+v", again)
	}
	view := bea.LastEphemeral(h.ch)
	back := bea.Click(view, view.ButtonID("Back"))
	if back == nil || back.Type != 7 {
		t.Fatalf("Back answered %+v", back)
	}
	if m, _ := optionWith(bea.LastEphemeral(h.ch), "From card 2:"); m == "" {
		t.Fatalf("after Back the hand shows:\n%s", bea.LastEphemeral(h.ch).Text())
	}
	if got := handCodes(dealtState(t, h).Players[1].Hand); got != cardsBefore {
		t.Fatalf("choosing and going back changed the hand:\n%s\n%s", cardsBefore, got)
	}
}

// A reserve card taken into the hand goes where chosen, leaves the table's
// reserves, and shows in the trick; a Stop then ends the trick at once.
func TestDealtAuditReserveThenStop(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	ann, bea, cy := users[0], users[1], users[2]
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		for i := range s.Players {
			s.Pile.Draw = append(s.Pile.Draw, s.Players[i].Hand...)
			s.Pile.Draw = append(s.Pile.Draw, s.Players[i].Reserve...)
			s.Players[i].Hand, s.Players[i].Reserve = nil, nil
		}
		s.Players[1].Hand = cards(take, "12a", "1a", "2a")
		s.Players[1].Reserve = cards(take, "3a", "4a")
		s.Players[2].Hand = cards(take, "1b", "2b", "5a")
		s.Players[2].Reserve = cards(take, "7a", "8a")
		s.Players[0].Hand = cards(take, "Sa", "1c", "3b")
		s.Players[0].Reserve = cards(take, "9a", "10a")
	})
	// Bea leads the 12.
	hand := openHand(t, h, bea)
	menu, val := optionWith(hand, "12 · Solo")
	if menu == "" {
		t.Fatalf("no 12 to lead:\n%s", hand.Text())
	}
	bea.Select(hand, menu, val)
	// Cy can't beat it: her hand offers only her reserves, one menu each.
	hand = openHand(t, h, cy)
	if m, _ := optionWith(hand, "Solo"); m != "" {
		t.Fatalf("Cy is offered a play that can't beat a 12:\n%s", hand.Text())
	}
	var resMenu string
	var resVal string
	for _, s := range hand.Selects() {
		if strings.Contains(s.Placeholder, "reserve 8") {
			for _, o := range s.Options {
				if strings.HasPrefix(o.Label, "Between") && strings.Contains(o.Label, "1") && strings.Contains(o.Label, "2") {
					resMenu, resVal = s.CustomID, o.Value
				}
			}
		}
	}
	if resMenu == "" {
		t.Fatalf("no place for reserve 8 between 1 and 2:\n%s", hand.Text())
	}
	r := cy.Select(hand, resMenu, resVal)
	if r == nil || r.Type != 7 {
		t.Fatalf("taking the reserve answered %+v", r)
	}
	st := dealtState(t, h)
	if got := handCodes(st.Players[2].Hand); got != "1b 8a 2b 5a" {
		t.Fatalf("Cy's hand after taking 8 between 1 and 2: %s", got)
	}
	if got := handCodes(st.Players[2].Reserve); got != "7a" {
		t.Fatalf("Cy's reserves: %s", got)
	}
	if text := cy.LastEphemeral(h.ch).Text(); !strings.Contains(text, "4 cards") {
		t.Fatalf("Cy's hand is not up to date:\n%s", text)
	}
	table := h.table().Text()
	if !strings.Contains(table, "Cy: took a reserve card") || !strings.Contains(table, "reserve 7 ·") {
		t.Fatalf("the table after Cy's reserve:\n%s", table)
	}
	cyView := hand
	// Ann plays her Stop: the trick ends and she leads.
	hand = openHand(t, h, ann)
	menu, val = optionWith(hand, "Stop")
	if menu == "" {
		t.Fatalf("Ann is not offered her Stop:\n%s", hand.Text())
	}
	ann.Select(hand, menu, val)
	st = dealtState(t, h)
	if len(st.Trick) != 0 || st.Turn != 0 || st.Leader != 0 {
		t.Fatalf("after Ann's Stop: trick %+v, turn %d, leader %d", st.Trick, st.Turn, st.Leader)
	}
	if text := h.table().Text(); !strings.Contains(text, "Stop ends the trick") || !strings.Contains(text, "**Ann** leads a new trick") {
		t.Fatalf("the table after the Stop:\n%s", text)
	}
	// Cy's old hand view (from the finished trick) is stale and changes nothing.
	before := h.snapshot()
	if r := cy.Select(cyView, resMenu, resVal); r == nil || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("a stale reserve menu answered %+v", r)
	}
	if h.snapshot() != before {
		t.Fatal("a stale menu changed the game")
	}
}

// A Redraw led and answered by reserves gives its leader three cards, placed
// one by one: each placement's menu is current, a double click is stale, a
// restart mid-placement keeps the placement going, and others are refused.
func TestDealtAuditRedrawPlacement(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	ann, bea, cy := users[0], users[1], users[2]
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		s.Pile.Draw = append(s.Pile.Draw, s.Players[1].Hand[0])
		s.Players[1].Hand[0] = take("Ra")
	})
	hand := openHand(t, h, bea)
	menu, val := optionWith(hand, "Redraw")
	if menu == "" {
		t.Fatalf("Bea is not offered her Redraw:\n%s", hand.Text())
	}
	bea.Select(hand, menu, val)
	for _, u := range []*fakediscord.User{cy, ann} {
		hand := openHand(t, h, u)
		var m, v string
		for _, s := range hand.Selects() {
			if strings.Contains(s.Placeholder, "reserve") {
				m, v = s.CustomID, s.Options[0].Value
				break
			}
		}
		if m == "" {
			t.Fatalf("%s has no reserve to take:\n%s", u.Name, hand.Text())
		}
		if r := u.Select(hand, m, v); r == nil || r.Type != 7 {
			t.Fatalf("%s's reserve answered %+v", u.Name, r)
		}
	}
	st := dealtState(t, h)
	if st.Drawing == nil || st.Drawing.Seat != 1 || st.Drawing.Total != 3 {
		t.Fatalf("after the Redraw trick: drawing %+v", st.Drawing)
	}
	if text := h.table().Text(); !strings.Contains(text, "placing the cards a Redraw gave them (1 of 3)") {
		t.Fatalf("the table during the Redraw:\n%s", text)
	}
	for placed := 1; placed <= 3; placed++ {
		st := dealtState(t, h)
		n := len(st.Players[1].Hand)
		view := openHand(t, h, bea)
		text := view.Text()
		if !strings.Contains(text, st.Drawing.Card.String()) || !strings.Contains(text, "("+strconv.Itoa(placed)+" of 3)") {
			t.Fatalf("placement %d: the hand does not show the drawn %s:\n%s", placed, st.Drawing.Card, text)
		}
		total := 0
		for _, s := range view.Selects() {
			total += len(s.Options)
		}
		if total != n+1 {
			t.Fatalf("placement %d: %d places offered for a hand of %d", placed, total, n)
		}
		// Put it last.
		sels := view.Selects()
		last := sels[len(sels)-1]
		drawn := st.Drawing.Card
		if r := bea.Select(view, last.CustomID, last.Options[len(last.Options)-1].Value); r == nil || r.Type != 7 {
			t.Fatalf("placement %d answered %+v", placed, r)
		}
		after := dealtState(t, h)
		if h := after.Players[1].Hand; len(h) != n+1 || h[n] != drawn {
			t.Fatalf("placement %d: %s not last in %s", placed, drawn.Code(), handCodes(h))
		}
		// The same click again is stale and places nothing.
		snap := h.snapshot()
		if r := bea.Select(view, last.CustomID, last.Options[len(last.Options)-1].Value); r == nil || !strings.Contains(r.Content, "earlier moment") {
			t.Fatalf("a double placement answered %+v", r)
		}
		if h.snapshot() != snap {
			t.Fatalf("placement %d: a double click changed the game", placed)
		}
		if placed == 1 {
			h.restart()
			if dealtState(t, h).Drawing == nil {
				t.Fatal("the restart lost the placement")
			}
		}
	}
	st = dealtState(t, h)
	if st.Drawing != nil || st.Turn != 1 || len(st.Trick) != 0 {
		t.Fatalf("after the placements: drawing %+v turn %d", st.Drawing, st.Turn)
	}
	if text := bea.LastEphemeral(h.ch).Text(); !strings.Contains(text, "Your lead") {
		t.Fatalf("Bea's hand after placing all three:\n%s", text)
	}
}

// A player who can beat nothing and has no reserve is offered only "Give up
// the round"; it ends the round, the chip is shown, and the next round is
// dealt and led by them. Stale menus from the old round change nothing.
func TestDealtAuditGiveUpRoundAndNextDeal(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h, fakediscord.Bool("autoplay", false))
	_, bea, cy := users[0], users[1], users[2]
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		for i := 1; i <= 2; i++ {
			s.Pile.Draw = append(s.Pile.Draw, s.Players[i].Hand...)
			s.Pile.Draw = append(s.Pile.Draw, s.Players[i].Reserve...)
			s.Players[i].Hand, s.Players[i].Reserve = nil, nil
		}
		s.Players[1].Hand = cards(take, "12a", "12b", "12c", "1a")
		s.Players[2].Hand = cards(take, "1b", "3b", "5b")
	})
	hand := openHand(t, h, bea)
	menu, val := optionWith(hand, "Trips")
	if menu == "" {
		t.Fatalf("no trips to lead:\n%s", hand.Text())
	}
	bea.Select(hand, menu, val)
	view := openHand(t, h, cy)
	if len(view.Selects()) != 0 || len(view.Buttons()) != 1 || view.ButtonID("Give up the round") == "" {
		t.Fatalf("Cy, stuck, is offered:\n%s\n%s", view.Text(), view.ButtonsLine())
	}
	if !strings.Contains(view.Text(), "you lose this round") {
		t.Fatalf("Cy is not told why:\n%s", view.Text())
	}
	if r := cy.Click(view, view.ButtonID("Give up the round")); r == nil || r.Type != 7 {
		t.Fatalf("giving up answered %+v", r)
	}
	st := dealtState(t, h)
	if st.Round != 2 || st.Players[2].Chips != 1 || st.Players[0].Chips != 2 || st.Turn != 2 || len(st.Trick) != 0 {
		t.Fatalf("after Cy gave up: round %d chips %d/%d/%d turn %d", st.Round, st.Players[0].Chips, st.Players[1].Chips, st.Players[2].Chips, st.Turn)
	}
	for i, p := range st.Players {
		if len(p.Hand) != 10 || len(p.Reserve) != 2 {
			t.Fatalf("round 2 dealt seat %d %d cards, %d reserves", i, len(p.Hand), len(p.Reserve))
		}
	}
	table := h.table().Text()
	if !strings.Contains(table, "round 2") || !strings.Contains(table, "**Cy**: 10 cards") || !strings.Contains(table, "1 chip") || !strings.Contains(table, "**Cy** leads") {
		t.Fatalf("the table after round 1:\n%s", table)
	}
	narrated := 0
	// The narration may ride on the table's content (coalesced): once in all.
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Text(), "Round 1 ends") {
			narrated++
		}
	}
	if narrated != 1 {
		t.Fatalf("round 1's end narrated %d times", narrated)
	}
	if text := cy.LastEphemeral(h.ch).Text(); !strings.Contains(text, "10 cards") || !strings.Contains(text, "Your lead") {
		t.Fatalf("Cy's open hand after the new deal:\n%s", text)
	}
	// Bea's round-1 hand view and Cy's give-up are stale now.
	snap := h.snapshot()
	if r := bea.Select(hand, menu, val); r == nil || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("a menu from round 1 answered %+v", r)
	}
	if r := cy.Click(view, view.ButtonID("Give up the round")); r == nil || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("a give-up from round 1 answered %+v", r)
	}
	if h.snapshot() != snap {
		t.Fatal("stale round-1 controls changed the game")
	}
}

// duelState is the stored Card Duel.
func duelState(t *testing.T, h *harness) *duel.State {
	t.Helper()
	g, err := duel.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*duel.State)
}

// Hands are built in secret: neither the table, the channel nor the other
// player's views ever name a card picked; after locking in, the table shows
// only sizes, and a forged play of the other player's card is refused
// without saying whose it is.
func TestDuelAuditSecretBuild(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	annView := buildCheapHand(t, h, ann, 30)
	st := duelState(t, h)
	if !st.Players[0].Locked || len(st.Players[0].Hand) == 0 {
		t.Fatalf("Ann's lock: %+v", st.Players[0])
	}
	secret := func(where string, text string) {
		t.Helper()
		for _, c := range st.Players[0].Hand {
			if strings.Contains(text, c.String()) {
				t.Fatalf("%s names Ann's %s:\n%s", where, c, text)
			}
		}
	}
	if !strings.Contains(annView.Text(), "Picked:") {
		t.Fatalf("Ann's build view:\n%s", annView.Text())
	}
	table := h.table().Text()
	if !strings.Contains(table, "**Ann**: ✅ locked in") || !strings.Contains(table, "**Bea**: still choosing") {
		t.Fatalf("the table while Bea builds:\n%s", table)
	}
	buildCheapHand(t, h, bea, 30)
	for _, m := range h.fake.Messages(h.ch) {
		secret("a channel message", m.Text())
	}
	for _, m := range bea.Ephemerals(h.ch) {
		secret("Bea's view", m.Text())
	}
	st = duelState(t, h)
	if !strings.Contains(h.table().Text(), "Hand: "+strconv.Itoa(len(st.Players[0].Hand))+" ·") {
		t.Fatalf("the table does not show Ann's hand size %d:\n%s", len(st.Players[0].Hand), h.table().Text())
	}
	// Bea, defending later, forges a play of Ann's card; Ann forges Bea's.
	before := h.snapshot()
	id, v := h.gameRef()
	r := forge(ann, h.table(), "move:"+id+":"+strconv.Itoa(v)+":hand="+st.Players[1].Hand[0].Code())
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "isn't in your hand") || strings.Contains(r.Content, "Bea") {
		t.Fatalf("Ann playing Bea's card answered %+v", r)
	}
	if h.snapshot() != before {
		t.Fatal("a forged play of the other's card changed the game")
	}
}

// Empty hands make every move forced. With autoplay on the bot plays the
// whole duel out, posts the result once and offers a Rematch; with it off
// the attacker is offered only the deck and nothing moves until clicked.
func TestDuelAuditAutoplayAndRematch(t *testing.T) {
	for _, auto := range []bool{true, false} {
		t.Run(strconv.FormatBool(auto), func(t *testing.T) {
			h := newHarness(t)
			ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
			openDuel(t, h, ann, bea, fakediscord.Int("life", 5), fakediscord.Bool("autoplay", auto))
			ann.Click(h.table(), h.table().ButtonID("Start"))
			for _, u := range []*fakediscord.User{ann, bea} {
				view := openHand(t, h, u)
				if r := u.Click(view, view.ButtonID("Lock in hand")); r == nil || r.Type != 7 {
					t.Fatalf("%s's empty lock answered %+v", u.Name, r)
				}
			}
			if !auto {
				st := duelState(t, h)
				hand := ann.LastEphemeral(h.ch)
				if st.Phase != duel.PhasePlay || len(hand.Buttons()) != 1 || hand.ButtonID("Top of deck") == "" {
					t.Fatalf("phase %v; Ann's hand with autoplay off:\n%s\n%s", st.Phase, hand.Text(), hand.ButtonsLine())
				}
				for moves := 0; ; moves++ {
					if rec, _ := h.db.Game(h.ch); rec == nil {
						break
					}
					if moves > 200 {
						t.Fatal("the duel did not end")
					}
					u, hand, id := mover(h, ann, bea)
					if u == nil {
						t.Fatalf("nobody may move:\n%s", h.table().Text())
					}
					if r := u.Click(hand, id); r == nil || r.Type != 7 {
						t.Fatalf("move %d answered %+v", moves, r)
					}
				}
			}
			if rec, _ := h.db.Game(h.ch); rec != nil {
				t.Fatalf("the duel did not end by itself:\n%s", h.table().Text())
			}
			var final *fakediscord.Message
			results := 0
			for _, m := range h.fake.Messages(h.ch) {
				if m.ButtonID("Rematch") != "" {
					final = m // the table: it shows the result, as it should
					continue
				}
				results += strings.Count(m.Text(), "wins the duel")
			}
			if results != 1 || final == nil {
				t.Fatalf("the result was narrated %d times; table with Rematch: %v", results, final != nil)
			}
			st, _ := h.db.Stats(h.fake.GuildID())
			if st[ann.ID].Games["duel"].Won+st[bea.ID].Games["duel"].Won != 1 || st[ann.ID].Games["duel"].Played != 1 {
				t.Fatalf("stats: %+v %+v", st[ann.ID].Games["duel"], st[bea.ID].Games["duel"])
			}
			again := final.ButtonID("Rematch")
			if again == "" {
				t.Fatalf("the finished table offers no Rematch:\n%s %s", final.Text(), final.ButtonsLine())
			}
			mustRefuse(t, cy.Click(final, again), "Only the players")
			if r := bea.Click(final, again); r == nil || !strings.Contains(r.Content, "rematch lobby") {
				t.Fatalf("Bea's Rematch answered %+v", r)
			}
			// A second click on the same Rematch opens no second lobby.
			r := ann.Click(final, again)
			if r == nil || strings.Contains(r.Content, "rematch lobby is opening") {
				t.Fatalf("a second Rematch answered %+v", r)
			}
			lobby := h.record()
			if lobby.Status != store.Lobby || seatNames(lobby) != "Ann,Bea" && seatNames(lobby) != "Bea,Ann" || lobby.NoAutoplay == auto {
				t.Fatalf("the rematch lobby: %+v", lobby)
			}
		})
	}
}
