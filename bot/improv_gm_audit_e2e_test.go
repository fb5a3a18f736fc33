package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/improv"
)

// openAsk clicks the hand button whose label starts with label and
// returns the text box it opens, unsubmitted.
func openAsk(h *harness, u *fakediscord.User, label string) *fakediscord.Modal {
	h.t.Helper()
	hand := h.handOf(u)
	for _, b := range hand.Buttons() {
		if strings.HasPrefix(b.Label, label) && !b.Disabled {
			r := u.Click(hand, b.CustomID)
			if r == nil || r.Modal == nil {
				h.t.Fatalf("%s's %q opened no text box: %+v", u.Name, label, r)
			}
			return r.Modal
		}
	}
	h.t.Fatalf("%s has no %q button:\n%s", u.Name, label, hand.Text())
	return nil
}

// forgeOn clicks, on u's freshly opened hand, a control the bot did not
// offer: kind "move" or "ask" with the action key, at the current version.
func forgeOn(h *harness, u *fakediscord.User, kind, key string) *fakediscord.Reply {
	h.t.Helper()
	hand := h.handOf(u)
	id, v := h.gameRef()
	cid := fmt.Sprintf("%s:%s:%d:%s", kind, id, v, key)
	hand.Components = append(hand.Components, fakediscord.Row{Buttons: []fakediscord.Button{{CustomID: cid, Label: "forged"}}})
	return u.Click(hand, cid)
}

// gmLabels start the GM's own controls; gmMenus are the GM's menus.
var (
	gmLabels = []string{"Open a conflict", "New session", "Take the bank", "Adjust talents", "End the campaign",
		"Add a GM stake", "Add mooks", "Remove the last GM stake", "Stakes declared", "Start the card play",
		"Hurry", "Call off", "Reveal now", "Skip "}
	gmMenus = []string{"who", "rounds", "from"}
)

// noGMControls fails if u's hand offers any of the GM's controls.
func noGMControls(t *testing.T, h *harness, u *fakediscord.User, when string) {
	t.Helper()
	hand := h.handOf(u)
	for _, b := range hand.Buttons() {
		for _, l := range gmLabels {
			if strings.HasPrefix(b.Label, l) {
				t.Errorf("%s: %s is offered the GM's %q", when, u.Name, b.Label)
			}
		}
	}
	for _, sel := range hand.Selects() {
		for _, verb := range gmMenus {
			if strings.HasSuffix(sel.CustomID, ":"+verb) {
				t.Errorf("%s: %s is offered the GM's %q menu", when, u.Name, verb)
			}
		}
	}
}

// refused asserts that do is answered with an ephemeral refusal
// containing want, and leaves the stored game as it was.
func refused(t *testing.T, h *harness, what, want string, do func() *fakediscord.Reply) {
	t.Helper()
	before := h.snapshot()
	if r := do(); r == nil || !r.Ephemeral || !strings.Contains(r.Content, want) {
		t.Errorf("%s answered %+v; want an ephemeral refusal containing %q", what, r, want)
	}
	if h.snapshot() != before {
		t.Errorf("%s changed the game", what)
	}
}

// handShown is the newest hand u was shown in the channel.
func handShown(u *fakediscord.User, ch string) *fakediscord.Message {
	all := u.Ephemerals(ch)
	for i := len(all) - 1; i >= 0; i-- {
		m := all[i]
		if len(m.Embeds) > 0 && m.Embeds[0].Footer != nil && strings.Contains(m.Embeds[0].Footer.Text, "only you can see this") {
			return m
		}
	}
	return nil
}

// handsCurrent checks that the hand each user last saw is the one the
// campaign gives them now: the same text, buttons and menus.
func handsCurrent(t *testing.T, h *harness, when string, users ...*fakediscord.User) {
	t.Helper()
	st, rec := improvState(t, h), h.record()
	checked := 0
	for _, u := range users {
		m, seat := handShown(u, h.ch), rec.SeatOf(u.ID)
		if m == nil || seat < 0 {
			continue // never looked, or left
		}
		checked++
		v := st.Hand(seat)
		var want, got []string
		for _, b := range v.Buttons {
			want = append(want, clipLabel(b.Label))
		}
		for _, c := range v.Choices {
			want = append(want, "menu:"+c.Verb)
		}
		for _, b := range m.Buttons() {
			got = append(got, b.Label)
		}
		for _, s := range m.Selects() {
			got = append(got, "menu:"+s.CustomID[strings.LastIndex(s.CustomID, ":")+1:])
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) || m.Embeds[0].Description != v.Description {
			t.Errorf("%s: %s's hand is out of date:\nshows %v\n%s\nwant  %v\n%s", when, u.Name, got, m.Embeds[0].Description, want, v.Description)
		}
	}
	if checked == 0 {
		t.Errorf("%s: nobody has a hand open to check", when)
	}
}

func clipLabel(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// The GM's controls are the GM's alone: no player's hand shows one at any
// step, and a player who sends one anyway (a modified client) is told only
// the GM may, with nothing changed. A player sitting the conflict out has
// no conflict controls, and sending one is refused the same way.
func TestImprovAuditGMControlsAreTheGMs(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	gmMoves := map[string][]string{ // phase → GM-only moves a player tries
		improv.PhaseIdle:    {"open", "session", "bank"},
		improv.PhaseSetup:   {"who=1", "rounds=2", "declare", "unstake", "cancel"},
		improv.PhaseStakes:  {"cards", "hurry", "cancel"},
		improv.PhaseCards:   {"hurry", "cancel"},
		improv.PhaseBonus:   {"hurry", "cancel"},
		improv.PhaseNarrate: {"skip"},
	}
	outsider := map[string]map[string]string{ // phase → Cy's move → refusal
		improv.PhaseStakes: {"vs=0": "Only the protagonists taking part"},
		improv.PhaseCards:  {"play=deck": "no card to play", "unplay": "no card on the table"},
		improv.PhaseBonus:  {"ready": "Only the GM and the protagonists", "usetal=0": "Only protagonists taking part"},
	}
	check := func() {
		t.Helper()
		phase := improvState(t, h).Phase
		handsCurrent(t, h, phase, everyone...) // as the last step left them
		for _, p := range players {
			noGMControls(t, h, p, phase)
		}
		for _, key := range gmMoves[phase] {
			refused(t, h, phase+": Bea's "+key, "Only the GM (Ann)", func() *fakediscord.Reply { return forgeOn(h, bea, "move", key) })
		}
		for _, key := range []string{"gmstake", "kit", "end"} {
			refused(t, h, phase+": Bea's text box "+key, "isn't open to you", func() *fakediscord.Reply { return forgeOn(h, bea, "ask", key) })
		}
		for key, want := range outsider[phase] {
			refused(t, h, phase+": Cy's "+key, want, func() *fakediscord.Reply { return forgeOn(h, cy, "move", key) })
		}
		refused(t, h, phase+": Bea's /game end", "Only the GM, Ann", func() *fakediscord.Reply { return bea.Command(h.ch, "game", fakediscord.Sub("end")) })
	}
	h.press(bea, "Add or change a talent", "Luck 2")
	check()
	h.press(gm, "Open a conflict", "")
	check()
	h.choose(gm, "who", "(Bea)")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	check()
	// Cy sits out: no stake to write, no card, no ready.
	if hand := h.handOf(cy); hand.ButtonID("stake") != "" || hasMenu(hand, "play") || !strings.Contains(hand.Text(), "sit this conflict out") {
		t.Errorf("Cy, sitting out, is shown:\n%s\n%s", hand.Text(), hand.ButtonsLine())
	}
	h.press(bea, "Write your stake", "Kit stops Riso")
	check()
	h.press(gm, "Start the card play", "")
	check()
	h.choose(gm, "play")
	h.choose(bea, "play")
	check()
	if hasMenu(h.handOf(cy), "play") || h.handOf(cy).ButtonID("Ready") != "" {
		t.Error("Cy, sitting out, is offered a card or Ready")
	}
	h.press(gm, "Ready", "")
	h.press(bea, "Ready", "")
	check()
	for improvState(t, h).Phase == improv.PhaseNarrate {
		u := userAt(h, h.record().Waiting[0], everyone)
		h.press(u, "Done narrating", "")
	}
	check()
}

// selectIn picks, on the hand message m, the first option of u's menu for
// verb, and returns the answer.
func selectIn(t *testing.T, u *fakediscord.User, m *fakediscord.Message, verb string) *fakediscord.Reply {
	t.Helper()
	for _, sel := range m.Selects() {
		if strings.HasSuffix(sel.CustomID, ":"+verb) {
			return u.Select(m, sel.CustomID, sel.Options[0].Value)
		}
	}
	t.Fatalf("%s's hand has no %q menu:\n%s", u.Name, verb, m.Text())
	return nil
}

func buttonOn(t *testing.T, m *fakediscord.Message, label string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.Label, label) && !b.Disabled {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on:\n%s\n%s", label, m.Text(), m.ButtonsLine())
	return ""
}

const stale = "earlier moment"

// Double clicks on Ready, Reveal now and Done narrating count once; a
// card menu kept from the last conflict is refused with the hand as it is
// now; a hand opened before a restart still works after it, and is kept
// up to date by the new process.
func TestImprovAuditDoubleClicksAndStaleHands(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	setup := func() {
		risoToCards(h, gm, players, "(Bea)", "(Cy)")
	}
	setup()
	oldCards := h.handOf(bea) // Bea's card menu in conflict 1
	h.choose(gm, "play")
	h.choose(bea, "play")
	h.choose(cy, "play")

	// Bea marks ready twice on the same view: the second is out of date.
	hand := h.handOf(bea)
	ready := buttonOn(t, hand, "Ready")
	if r := bea.Click(hand, ready); r == nil || r.Type != 7 {
		t.Fatalf("Bea's ready answered %+v", r)
	}
	v := h.record().Version
	if r := bea.Click(hand, ready); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("Bea's second ready answered %+v", r)
	}
	if h.record().Version != v {
		t.Fatal("the second ready was committed")
	}
	// The GM reveals now, twice.
	hand = h.handOf(gm)
	reveal := buttonOn(t, hand, "Reveal now")
	if r := gm.Click(hand, reveal); r == nil || r.Type != 7 {
		t.Fatalf("Reveal now answered %+v", r)
	}
	st := improvState(t, h)
	if st.Phase != improv.PhaseNarrate {
		t.Fatalf("after Reveal now the phase is %s", st.Phase)
	}
	v, order := h.record().Version, fmt.Sprint(st.C.Order)
	if r := gm.Click(hand, reveal); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("the second Reveal now answered %+v", r)
	}
	if h.record().Version != v {
		t.Fatal("the second Reveal now was committed")
	}
	handsCurrent(t, h, "after the reveal", everyone...)
	// Each narrator presses Done twice.
	for improvState(t, h).Phase == improv.PhaseNarrate {
		u := userAt(h, h.record().Waiting[0], everyone)
		turn := improvState(t, h).C.Turn
		hand := h.handOf(u)
		done := buttonOn(t, hand, "Done narrating")
		u.Click(hand, done)
		v := h.record().Version
		if r := u.Click(hand, done); r == nil || !strings.Contains(r.Content, stale) {
			t.Fatalf("%s's second Done narrating answered %+v", u.Name, r)
		}
		if h.record().Version != v {
			t.Fatalf("%s's second Done narrating was committed", u.Name)
		}
		if st := improvState(t, h); st.C != nil && st.C.Turn != turn+1 {
			t.Fatalf("after %s's Done the turn is %d, want %d (order %s)", u.Name, st.C.Turn, turn+1, order)
		}
	}
	if improvState(t, h).Conflicts != 1 || improvState(t, h).C != nil {
		t.Fatal("the first conflict did not end")
	}

	// Conflict 2: the card menu from conflict 1 is refused.
	setup()
	handBefore := fmt.Sprint(improvState(t, h).Hands[1])
	r := selectIn(t, bea, oldCards, "play")
	if r == nil || !strings.Contains(r.Content, stale) || !hasMenu(r.Message, "play") {
		t.Fatalf("the old card menu answered %+v", r)
	}
	if st := improvState(t, h); fmt.Sprint(st.Hands[1]) != handBefore || st.C.Sides[1].Card != nil {
		t.Fatal("the old card menu played a card")
	}
	h.handOf(bea) // the hand Bea looks at from now on

	// A hand opened before a restart is still good after it, and the new
	// process redraws it when the GM plays.
	h.handOf(cy)
	h.restart()
	h.choose(gm, "play")
	handsCurrent(t, h, "after the restart", cy)
	if r := selectIn(t, cy, handShown(cy, h.ch), "play"); r == nil || r.Type != 7 || strings.Contains(r.Content, stale) {
		t.Fatalf("Cy's card from the hand kept over the restart answered %+v", r)
	}
	if st := improvState(t, h); st.C.Sides[2].Card == nil {
		t.Fatal("Cy's card is not down")
	}
	handsCurrent(t, h, "cards", everyone...)
}

// submitIn opens u's text box behind label and submits text; the answer.
func submitIn(h *harness, u *fakediscord.User, label, text string) *fakediscord.Reply {
	h.t.Helper()
	return u.Submit(openAsk(h, u, label), map[string]string{"text": text})
}

// Text boxes take no more than the campaign keeps; where a box's limit is
// wider than one part of it (the GM stake's NPC and stake), a part too
// long, like any bad text, is refused in a note only the writer sees that
// says the limit, and nothing changes.
func TestImprovAuditTextTooLong(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea")
	bea := players[0]
	limits := map[string]int{}
	for _, c := range []struct {
		u     *fakediscord.User
		label string
	}{{bea, "Rename your protagonist"}, {bea, "Add or change a talent"}, {gm, "Adjust talents"}, {gm, "End the campaign"}} {
		limits[c.label] = openAsk(h, c.u, c.label).Inputs[0].MaxLength
	}
	if limits["Rename your protagonist"] != 40 || limits["Add or change a talent"] != 44 || limits["End the campaign"] != 10 {
		t.Errorf("text box limits %v", limits)
	}
	long := strings.Repeat("x", 41)
	refused(t, h, "a 41-character talent", "keep it to 40", func() *fakediscord.Reply { return submitIn(h, bea, "Add or change a talent", long+" 3") })
	refused(t, h, "a talent of 11 uses", "at most 10", func() *fakediscord.Reply { return submitIn(h, bea, "Add or change a talent", "Luck 11") })
	refused(t, h, "the GM's 41-character talent", "Kit: Kung fu 4", func() *fakediscord.Reply { return submitIn(h, gm, "Adjust talents", "Kit: "+long+" 3") })
	refused(t, h, "a name of blanks", "empty", func() *fakediscord.Reply { return submitIn(h, bea, "Rename your protagonist", "   ") })
	refused(t, h, "END mistyped", "type END", func() *fakediscord.Reply { return submitIn(h, gm, "End the campaign", "ned") })

	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)")
	box := openAsk(h, gm, "Add a GM stake")
	if box.Inputs[0].MaxLength != 242 {
		t.Errorf("the GM stake box takes %d characters", box.Inputs[0].MaxLength)
	}
	refused(t, h, "a 236-character GM stake", "keep it to 200", func() *fakediscord.Reply {
		return gm.Submit(box, map[string]string{"text": "Riso: " + strings.Repeat("s", 236)})
	})
	refused(t, h, "a 41-character NPC", "keep it to 40", func() *fakediscord.Reply { return submitIn(h, gm, "Add a GM stake", long+": rob the bank") })
	refused(t, h, "a GM stake without a colon", "Riso: gun down Vinny", func() *fakediscord.Reply { return submitIn(h, gm, "Add a GM stake", "Riso robs the bank") })
	h.press(gm, "Add a GM stake", "Riso: "+strings.Repeat("s", 200)) // exactly the limit
	h.press(gm, "Stakes declared", "")
	box = openAsk(h, bea, "Write your stake")
	if box.Inputs[0].MaxLength != 200 || box.Inputs[0].Style != 2 {
		t.Errorf("the stake box: %+v", box.Inputs[0])
	}
	// A paragraph's line breaks fold into spaces.
	if r := bea.Submit(box, map[string]string{"text": "Kit stops Riso\nand saves the clerk"}); r == nil || r.Type != 7 {
		t.Fatalf("Bea's stake answered %+v", r)
	}
	if sd := improvState(t, h).C.Sides[1]; sd.Stake != "Kit stops Riso and saves the clerk" {
		t.Fatalf("Bea's stake is %q", sd.Stake)
	}
}

// The GM hurries every step of a two-round extended conflict, with one
// player's stake and no card down: the missing stake is a placeholder,
// the missing opponent the default, every card comes from the deck, the
// reveal needs no ready, the narrators are skipped, the gifts closed; at
// each step every hand shows what the step allows, and the conflict ends
// with hands refilled.
func TestImprovAuditGMHurriesEveryStep(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	for _, u := range everyone {
		h.handOf(u) // everyone watches their hand
	}
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.choose(gm, "rounds", "2 rounds")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Add a GM stake", "Goons (3 mooks): cover Riso")
	h.press(gm, "Stakes declared", "")
	h.press(bea, "Write your stake", "Kit stops Riso")
	h.choose(bea, "vs", "Oppose Riso")
	handsCurrent(t, h, "stakes", everyone...)
	if h.handOf(gm).ButtonID("Start the card play") == "" {
		t.Fatal("the GM has no Start button")
	}
	h.press(gm, "Hurry", "")
	st := improvState(t, h)
	if st.Phase != improv.PhaseCards || st.C.Sides[3].Stake != "(no stake given)" || st.C.Sides[3].Opp != 0 {
		t.Fatalf("after the hurry: phase %s, Cy's side %+v", st.Phase, st.C.Sides[3])
	}
	hurried := map[string]int{}
	for step := 0; step < 40; step++ {
		handsCurrent(t, h, fmt.Sprint("step ", step), everyone...)
		st := improvState(t, h)
		if st.C == nil {
			break
		}
		hurried[st.Phase]++
		switch st.Phase {
		case improv.PhaseCards:
			hands := fmt.Sprint(st.Hands)
			h.press(gm, "Hurry", "")
			after := improvState(t, h)
			for _, sd := range after.C.Sides {
				if sd.Name != "Goons" && (sd.Card == nil || !sd.Deck) { // nobody opposes the goons
					t.Fatalf("after the hurry %s has no deck card: %+v", sd.Name, sd)
				}
			}
			if fmt.Sprint(after.Hands) != hands {
				t.Fatal("the hurry took cards from hands")
			}
		case improv.PhaseBonus:
			h.press(gm, "Reveal now", "")
		case improv.PhaseFate:
			h.press(gm, "Hurry", "")
		case improv.PhaseGifts:
			h.press(gm, "Hurry", "")
		case improv.PhaseNarrate:
			u := userAt(h, h.record().Waiting[0], everyone)
			if u == gm {
				h.press(gm, "Done narrating", "")
			} else {
				h.press(gm, "Skip "+st.Character(h.record().SeatOf(u.ID)), "")
			}
		default:
			t.Fatalf("unexpected phase %s", st.Phase)
		}
	}
	st = improvState(t, h)
	if st.C != nil || hurried[improv.PhaseCards] != 2 || hurried[improv.PhaseBonus] != 2 {
		t.Fatalf("conflict open %v; hurried %v", st.C != nil, hurried)
	}
	if len(st.Hands[0]) != 5 || len(st.Hands[1]) != 4 || len(st.Hands[2]) != 4 {
		t.Fatalf("hands after the conflict: %v", st.Hands)
	}
	handsCurrent(t, h, "after the conflict", everyone...)
}

// cardIn reports whether c is in cards.
func cardIn(cards []games.Card, c games.Card) bool { return slices.Contains(cards, c) }

// The GM calls off an extended conflict in round 2's bonuses: this round's
// hand cards go back to their hands, the deck card back on the deck, every
// story-token on the table back to who put it there, the talent put down
// is not checked off; round 1's victory cards go to the discards, hands
// are refilled, and every open hand is redrawn without a conflict control.
func TestImprovAuditCallOffMidRound(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	h.press(bea, "Add or change a talent", "Luck 2")
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.choose(gm, "rounds", "3 rounds")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "stops Riso", "Riso")
	h.press(gm, "Start the card play", "")
	// Round 1, with Cy's 🎭 for Bea's line: Bea has a token for round 2.
	for step := 0; improvState(t, h).C.Round == 1; step++ {
		if step > 30 {
			t.Fatal("round 1 did not end")
		}
		st := improvState(t, h)
		u := userAt(h, h.record().Waiting[0], everyone)
		if st.Phase == improv.PhaseNarrate {
			text := u.Name + " narrates round 1."
			u.Command(h.ch, "say", fakediscord.Str("line", text))
			if u == bea {
				cy.React(rolePlayLine(t, h, text), "🎭")
			}
		}
		plainMove(h, st.Phase, u)
	}
	st := improvState(t, h)
	if st.Phase != improv.PhaseCards || st.Tokens[1] != 1 {
		t.Fatalf("round 2 begins in %s with Bea holding %d tokens", st.Phase, st.Tokens[1])
	}
	var piles []games.Card
	for _, sd := range st.C.Sides {
		piles = append(piles, sd.Pile...)
	}
	gmCard, beaCard := sortedHand(st.Hands[0])[0], sortedHand(st.Hands[1])[0]
	h.choose(gm, "play", gmCard.String())
	h.choose(bea, "play", beaCard.String())
	h.choose(cy, "play", "Top of the deck")
	deckCard := *improvState(t, h).C.Sides[2].Card
	h.press(gm, "+1 story-token", "")
	h.press(bea, "+1 story-token", "")
	h.choose(bea, "usetal", "Luck")
	h.press(cy, "Ready", "")
	st = improvState(t, h)
	gmTokens, discards := st.Tokens[0], len(st.Deck.Discard)
	if st.Tokens[1] != 0 || len(st.C.Bonuses) != 3 {
		t.Fatalf("before the call-off: Bea holds %d, bonuses %+v", st.Tokens[1], st.C.Bonuses)
	}
	for _, u := range everyone {
		h.handOf(u) // everyone watches their hand
	}

	h.press(gm, "Call off the conflict", "")
	st = improvState(t, h)
	if st.C != nil || st.Phase != improv.PhaseIdle || st.Conflicts != 1 {
		t.Fatalf("after the call-off: phase %s", st.Phase)
	}
	if st.Tokens[0] != gmTokens+1 || st.Tokens[1] != 1 || st.Heroes[1].Talents[0].Uses != 2 || st.Heroes[1].SessionUses != 0 {
		t.Errorf("after the call-off: GM holds %d (was %d + 1), Bea %d (want 1), Luck has %d uses, session uses %d",
			st.Tokens[0], gmTokens, st.Tokens[1], st.Heroes[1].Talents[0].Uses, st.Heroes[1].SessionUses)
	}
	if !cardIn(st.Hands[0], gmCard) || !cardIn(st.Hands[1], beaCard) {
		t.Errorf("the played cards are not back: GM %v (%v), Bea %v (%v)", st.Hands[0], gmCard, st.Hands[1], beaCard)
	}
	if len(st.Hands[0]) != 5 || len(st.Hands[1]) != 4 || len(st.Hands[2]) != 4 {
		t.Errorf("hands after the call-off: %v", st.Hands)
	}
	for _, c := range piles {
		if !cardIn(st.Deck.Discard, c) {
			t.Errorf("round 1's victory card %v is not in the discards", c)
		}
	}
	if len(st.Deck.Discard) != discards+len(piles) {
		t.Errorf("discards %d, want %d + %d victory cards", len(st.Deck.Discard), discards, len(piles))
	}
	inPlay := slices.Concat(st.Deck.Draw, st.Hands[0], st.Hands[1], st.Hands[2])
	if !cardIn(inPlay, deckCard) {
		t.Errorf("Cy's deck card %v went missing", deckCard)
	}
	handsCurrent(t, h, "after the call-off", everyone...)
	for _, u := range players {
		hand := handShown(u, h.ch)
		if hasMenu(hand, "usetal") || hand.ButtonID("Ready") != "" || hand.ButtonID("story-token") != "" {
			t.Errorf("%s's hand still offers conflict controls:\n%s", u.Name, hand.ButtonsLine())
		}
	}
	if handShown(gm, h.ch).ButtonID("Open a conflict") == "" {
		t.Error("the GM's hand does not offer a new conflict")
	}
}

func sortedHand(cs []games.Card) []games.Card {
	out := slices.Clone(cs)
	slices.SortFunc(out, func(a, b games.Card) int { return a.Rank - b.Rank })
	return out
}

// posted is the channel's messages as they read now, for saidSince.
func posted(h *harness) map[string]bool {
	seen := map[string]bool{}
	for _, m := range h.fake.Messages(h.ch) {
		seen[m.ID+"\x00"+m.Text()] = true
	}
	return seen
}

// saidSince is the text of the channel's messages posted or rewritten
// since seen, the table aside (the old table may become a story message,
// with the table posted anew below it).
func saidSince(h *harness, seen map[string]bool) string {
	var b strings.Builder
	table := h.tableID()
	for _, m := range h.fake.Messages(h.ch) {
		if !seen[m.ID+"\x00"+m.Text()] && m.ID != table {
			b.WriteString(m.Text() + "\n")
		}
	}
	return b.String()
}

// A latecomer joins while the cards are being played: dealt 4 cards, no
// story-tokens, told they sit this conflict out and shown no conflict
// control; the GM gains 3 tokens at once, the pool 1, and the GM's hand
// grows only when the conflict ends. The conflict never waits on them.
// One who joins while the GM sets up can be brought in.
func TestImprovAuditLatecomerMidConflict(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea")
	bea := players[0]
	everyone := []*fakediscord.User{gm, bea}
	risoToCards(h, gm, players, "(Bea)")
	h.choose(bea, "play")
	for _, u := range everyone {
		h.handOf(u)
	}
	before := improvState(t, h)
	waiting := fmt.Sprint(h.record().Waiting)
	seen := posted(h)
	eve := h.fake.AddUser("Eve")
	if r := eve.Click(h.table(), h.table().ButtonID("Join")); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "joined") {
		t.Fatalf("Eve's join answered %+v", r)
	}
	st := improvState(t, h)
	if len(st.Hands[2]) != 4 || st.Tokens[2] != 0 || st.Tokens[0] != before.Tokens[0]+3 || st.Pool != before.Pool+1 || len(st.Hands[0]) != len(before.Hands[0]) {
		t.Fatalf("after Eve joined: her hand %d, tokens %d; GM tokens %d (was %d), pool %d (was %d), GM hand %d (was %d)",
			len(st.Hands[2]), st.Tokens[2], st.Tokens[0], before.Tokens[0], st.Pool, before.Pool, len(st.Hands[0]), len(before.Hands[0]))
	}
	if w := fmt.Sprint(h.record().Waiting); w != waiting {
		t.Fatalf("the conflict waits for %s, was %s", w, waiting)
	}
	if said := saidSince(h, seen) + h.table().Text(); !strings.Contains(said, "Eve") || !strings.Contains(said, "sits this conflict out") {
		t.Errorf("nobody was told Eve sits this conflict out:\n%s", said)
	}
	hand := h.handOf(eve)
	if !strings.Contains(hand.Text(), "sit this conflict out") || hasMenu(hand, "play") || hand.ButtonID("Name your protagonist") == "" {
		t.Errorf("Eve's hand:\n%s\n%s", hand.Text(), hand.ButtonsLine())
	}
	noGMControls(t, h, eve, "cards")
	refused(t, h, "Eve's card", "no card to play", func() *fakediscord.Reply { return forgeOn(h, eve, "move", "play=deck") })
	handsCurrent(t, h, "after Eve joined", everyone...)
	h.press(eve, "Name your protagonist", "Vinny")

	h.choose(gm, "play")
	if improvState(t, h).Phase != improv.PhaseBonus {
		t.Fatal("the cards did not all go down")
	}
	if hand := h.handOf(eve); len(hand.Buttons()) > 2 || hand.ButtonID("Ready") != "" {
		t.Errorf("Eve, holding no token, is offered bonuses:\n%s", hand.ButtonsLine())
	}
	refused(t, h, "Eve's ready", "Only the GM and the protagonists", func() *fakediscord.Reply { return forgeOn(h, eve, "move", "ready") })
	refused(t, h, "Eve's token", "no story-tokens", func() *fakediscord.Reply { return forgeOn(h, eve, "move", "token") })
	h.press(gm, "Reveal now", "")
	for improvState(t, h).Phase == improv.PhaseNarrate {
		h.press(userAt(h, h.record().Waiting[0], everyone), "Done narrating", "")
	}
	if st := improvState(t, h); len(st.Hands[0]) != 3+2 || len(st.Hands[2]) != 4 {
		t.Fatalf("after the conflict the GM holds %d cards (want 3 + 2), Eve %d", len(st.Hands[0]), len(st.Hands[2]))
	}

	// Fin joins while the GM sets up conflict 2, and is brought in.
	h.press(gm, "Open a conflict", "")
	fin := h.fake.AddUser("Fin")
	fin.Click(h.table(), h.table().ButtonID("Join"))
	if st := improvState(t, h); len(st.Hands[0]) != 3+2 {
		t.Fatalf("Fin joined during the setup: the GM holds %d cards, want 5 until the conflict ends", len(st.Hands[0]))
	}
	h.choose(gm, "who", "(Fin)", "(Eve)")
	if st := improvState(t, h); !slices.Equal(st.C.Seats, []int{2, 3}) {
		t.Fatalf("taking part: %v", st.C.Seats)
	}
}

// A player leaves with /game leave before playing their card: their
// story-tokens go to the pool, their hand says they left and its buttons
// no longer work, the conflict stops waiting for them, and their card
// comes from the top of the deck once the others are down, and the
// narration order announced leaves them out. Another leaves on their turn
// to narrate: the next narrator is prompted. The GM can't leave, only end
// the campaign.
func TestImprovAuditPlayerLeavesMidConflict(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy", "Dee")
	bea, cy, dee := players[0], players[1], players[2]
	everyone := []*fakediscord.User{gm, bea, cy, dee}
	lines := map[string]*fakediscord.Message{}
	improvConflict(t, h, gm, players, lines)
	bea.React(lines["Cy"], "🎭")
	if improvState(t, h).Tokens[2] != 1 {
		t.Fatal("Cy's award did not count")
	}
	risoToCards(h, gm, players, "(Bea)", "(Cy)", "(Dee)")
	h.choose(bea, "play")
	for _, u := range everyone {
		h.handOf(u)
	}
	oldHand := handShown(cy, h.ch)
	pool := improvState(t, h).Pool
	if r := cy.Command(h.ch, "game", fakediscord.Sub("leave")); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "left") {
		t.Fatalf("Cy's leave answered %+v", r)
	}
	st := improvState(t, h)
	if !st.Gone[2] || st.Tokens[2] != 0 || st.Pool != pool+1 || len(st.Hands[2]) != 0 {
		t.Fatalf("after Cy left: gone %v, tokens %d, pool %d (was %d), hand %v", st.Gone[2], st.Tokens[2], st.Pool, pool, st.Hands[2])
	}
	if slices.Contains(h.record().Waiting, 2) {
		t.Fatal("the conflict still waits for Cy")
	}
	if !strings.Contains(h.table().Text(), "~~Diana (Cy)~~ left") {
		t.Errorf("the table does not show Cy left:\n%s", h.table().Text())
	}
	if hand := handShown(cy, h.ch); !strings.Contains(hand.Text(), "left this campaign") || len(hand.Buttons())+len(hand.Selects()) > 0 {
		t.Errorf("Cy's open hand after leaving:\n%s\n%s", hand.Text(), hand.ButtonsLine())
	}
	if r := selectIn(t, cy, oldHand, "play"); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "not playing") {
		t.Errorf("Cy's card menu after leaving answered %+v", r)
	}
	handsCurrent(t, h, "after Cy left", gm, bea, dee)
	h.choose(dee, "play")
	h.choose(gm, "play")
	st = improvState(t, h)
	if st.Phase != improv.PhaseBonus || st.C.Sides[2].Card == nil || !st.C.Sides[2].Deck {
		t.Fatalf("after the cards: phase %s, Cy's side %+v", st.Phase, st.C.Sides[2])
	}
	if slices.Contains(h.record().Waiting, 2) {
		t.Fatal("the reveal waits for Cy")
	}
	seen := posted(h)
	for _, u := range []*fakediscord.User{gm, bea, dee} {
		h.press(u, "Ready", "")
	}
	reveal := saidSince(h, seen)
	st = improvState(t, h)
	if st.Phase != improv.PhaseNarrate {
		t.Fatalf("no reveal: %s", st.Phase)
	}
	if _, order, ok := strings.Cut(reveal, "Narration, losers first:"); !ok || strings.Contains(order, "(Cy)") {
		t.Errorf("the narration order names Cy, who left:\n%s", reveal)
	}
	// The first player due to narrate with someone after them leaves on
	// their turn: the next narrator is prompted at once.
	left := false
	for step := 0; improvState(t, h).Phase == improv.PhaseNarrate && step < 10; step++ {
		st := improvState(t, h)
		u := userAt(h, h.record().Waiting[0], everyone)
		if u == cy {
			t.Fatal("Cy, who left, is due to narrate")
		}
		if left || u == gm || st.C.Turn == len(st.C.Order)-1 {
			h.press(u, "Done narrating", "")
			continue
		}
		seen := posted(h)
		u.Command(h.ch, "game", fakediscord.Sub("leave"))
		left = true
		seat, next := h.record().SeatOf(u.ID), h.record().Waiting[0]
		if st := improvState(t, h); st.Phase != improv.PhaseNarrate || next == seat || st.C.Order[st.C.Turn].Seat != next {
			t.Fatalf("after %s left on their turn: phase %s, waiting for %d", u.Name, st.Phase, next)
		}
		prompt := "It's the GM's turn to narrate"
		if next > 0 {
			prompt = "It's **" + st.Character(next) + "**'s turn"
		}
		if said := saidSince(h, seen); !strings.Contains(said, prompt) {
			t.Errorf("after %s left on their turn nobody was prompted (want %q):\n%s", u.Name, prompt, said)
		}
	}
	if !left {
		t.Fatal("no player narrated with someone after them")
	}
	if st := improvState(t, h); st.C != nil || st.Conflicts != 2 {
		t.Fatalf("conflict 2 did not end: %+v", st.C)
	}
	refused(t, h, "the GM's leave", "You're the GM. End the game with /game end", func() *fakediscord.Reply {
		return gm.Command(h.ch, "game", fakediscord.Sub("leave"))
	})
}

// The campaign ends two ways. The GM's "End the campaign…" is offered
// between conflicts only and asks for END; afterwards every open hand has
// no controls and the players' tokens go to the server's stats. A player
// can't end it. A server moderator who doesn't play can end it in the
// middle of a conflict: the table closes, and a player's hand buttons say
// the game has been ended.
func TestImprovAuditCampaignEnds(t *testing.T) {
	t.Run("by the GM", func(t *testing.T) {
		h := newHarness(t)
		gm, players := improvCampaign(h, "Bea", "Cy")
		everyone := append([]*fakediscord.User{gm}, players...)
		h.press(gm, "Open a conflict", "")
		if h.handOf(gm).ButtonID("End the campaign") != "" {
			t.Fatal("the GM is offered to end the campaign during a conflict")
		}
		h.press(gm, "Call off the conflict", "")
		for _, u := range everyone {
			h.handOf(u)
		}
		h.press(gm, "End the campaign", "END")
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatal("the campaign is still running")
		}
		for _, u := range everyone {
			if hand := handShown(u, h.ch); len(hand.Buttons())+len(hand.Selects()) > 0 {
				t.Errorf("%s's hand still has controls after the end:\n%s", u.Name, hand.ButtonsLine())
			}
		}
		stats, _ := h.db.Stats(h.fake.GuildID())
		if stats[gm.ID] != nil || stats[players[0].ID] == nil || stats[players[1].ID] == nil {
			t.Errorf("stats after the campaign: %+v", stats)
		}
	})
	t.Run("by a moderator", func(t *testing.T) {
		h := newHarness(t)
		gm, players := improvCampaign(h, "Bea")
		bea := players[0]
		risoToCards(h, gm, players, "(Bea)")
		hand := h.handOf(bea)
		refused(t, h, "Bea's /game end", "Only the GM, Ann", func() *fakediscord.Reply { return h.endGame(bea, h.ch) })
		mod := h.fake.AddAdmin("Mod")
		if r := h.endGame(mod, h.ch); r == nil || !strings.Contains(r.Content, "You ended the game") {
			t.Fatalf("the moderator's end answered %+v", r)
		}
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatal("the campaign is still running")
		}
		for _, m := range h.fake.Messages(h.ch) {
			if m.ButtonID("My hand") != "" || m.ButtonID("Join") != "" {
				t.Errorf("the table is still open after the end:\n%s", m.Text())
			}
		}
		if r := selectIn(t, bea, hand, "play"); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "ended by Mod") {
			t.Errorf("Bea's card after the end answered %+v", r)
		}
		stats, _ := h.db.Stats(h.fake.GuildID())
		if len(stats) != 0 {
			t.Errorf("an ended campaign counted: %+v", stats)
		}
	})
}

// The narration order the channel announces at the reveal is the order
// the campaign prompts in, one prompt per turn naming the narrator. A
// /say from someone whose turn it isn't is posted as their character's
// line and moves nothing on; their Done narrating is refused; a /say
// from someone outside the campaign is refused.
func TestImprovAuditNarrationOrderAndSay(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy", "Dee")
	everyone := append([]*fakediscord.User{gm}, players...)
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)", "(Dee)")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Add a GM stake", "Goons (4 mooks): keep the agents busy")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players[:2], "stops Riso", "Oppose Riso")
	improvStakes(h, players[2:], "holds off the goons", "Oppose Goons")
	h.press(gm, "Start the card play", "")
	for _, u := range everyone {
		h.choose(u, "play")
	}
	if improvState(t, h).Phase == improv.PhaseCards {
		h.choose(gm, "play") // the GM's second card
	}
	seen := posted(h)
	for _, u := range everyone {
		h.press(u, "Ready", "")
	}
	st, rec := improvState(t, h), h.record()
	said := saidSince(h, seen)
	_, list, ok := strings.Cut(said, "**Narration, losers first:** ")
	list, _, _ = strings.Cut(list, ".\n")
	if !ok {
		t.Fatalf("the reveal gives no narration order:\n%s", said)
	}
	announced := strings.Split(list, " → ")
	if len(announced) != len(st.C.Order) {
		t.Fatalf("announced %q; the campaign's order %+v", announced, st.C.Order)
	}
	for k, turn := range st.C.Order {
		want := "the GM (for "
		if turn.Seat > 0 {
			want = st.Character(turn.Seat) + " (" + rec.Seats[turn.Seat].Name + ")"
		}
		if !strings.HasPrefix(announced[k], want) {
			t.Errorf("turn %d announced as %q, the campaign has seat %d (%s)", k, announced[k], turn.Seat, want)
		}
	}
	spectator := h.fake.AddUser("Zed")
	refused(t, h, "a spectator's /say", "Only players", func() *fakediscord.Reply { return spectator.Command(h.ch, "say", fakediscord.Str("line", "Boo!")) })
	for k := range st.C.Order {
		st, rec := improvState(t, h), h.record()
		if st.Phase != improv.PhaseNarrate || st.C.Turn != k {
			t.Fatalf("turn %d: phase %s, turn %d", k, st.Phase, st.C.Turn)
		}
		seat := st.C.Order[k].Seat
		u := userAt(h, seat, everyone)
		if rec.Waiting[0] != seat {
			t.Fatalf("turn %d waits for %v, the order has seat %d", k, rec.Waiting, seat)
		}
		prompt := "It's the GM's turn to narrate"
		if seat > 0 {
			prompt = "It's **" + st.Character(seat) + "**'s turn to narrate (" + u.Name + ")"
		}
		if !strings.Contains(said, prompt) {
			t.Errorf("turn %d: no prompt %q in:\n%s", k, prompt, said)
		}
		// Someone else speaks up, then tries to end the turn.
		other := everyone[(slices.Index(everyone, u)+1)%len(everyone)]
		v := h.record().Version
		line := fmt.Sprintf("%s cuts in (turn %d).", other.Name, k)
		if r := other.Command(h.ch, "say", fakediscord.Str("line", line)); r == nil || !r.Ephemeral {
			t.Fatalf("%s's /say answered %+v", other.Name, r)
		}
		m := rolePlayLine(t, h, line)
		if hero := st.Character(rec.SeatOf(other.ID)); hero != "" && !strings.Contains(m.Text(), "**"+hero+"** ("+other.Name+")") {
			t.Errorf("%s's line is not spoken as %s: %s", other.Name, hero, m.Text())
		}
		if st := improvState(t, h); st.C.Turn != k || h.record().Version != v+1 {
			t.Fatalf("%s's /say moved the narration on: turn %d", other.Name, st.C.Turn)
		}
		snap := h.snapshot()
		want := "It's the GM's turn to narrate"
		if seat > 0 {
			want = "It's " + st.Character(seat) + "'s turn"
		}
		if other != gm { // the GM's hand has Skip, not Done, on a player's turn
			refused(t, h, other.Name+"'s Done out of turn", want, func() *fakediscord.Reply { return forgeOn(h, other, "move", "done") })
		}
		if h.snapshot() != snap {
			t.Fatal("a refused Done changed the campaign")
		}
		seen = posted(h)
		u.Command(h.ch, "say", fakediscord.Str("line", u.Name+" narrates."))
		h.press(u, "Done narrating", "")
		said = saidSince(h, seen)
	}
	if improvState(t, h).C != nil {
		t.Fatal("the conflict did not end after the announced order")
	}
}

// tieCards finds a card of the GM's and one of the player's whose totals
// tie (lethal: value alone) with at most one +3 on either: the GM's token
// on its own card (gmToken) or the player's talent on theirs (talent).
func tieCards(gmHand, hand []games.Card) (g, p games.Card, gmToken, talent, ok bool) {
	for _, g := range gmHand {
		for _, p := range hand {
			switch {
			case g.Rank == p.Rank:
				return g, p, false, false, true
			case g.Rank == p.Rank+3:
				return g, p, false, true, true
			case p.Rank == g.Rank+3:
				return g, p, true, false, true
			}
		}
	}
	return
}

// killAt kills the bot at the first step of output work named step, runs
// f, and restarts it; it fails if f never reached that step.
func killAt(t *testing.T, h *harness, step string, f func()) {
	t.Helper()
	h.crashAt = func(s string) bool { return s == step }
	f()
	h.crashAt = nil
	if !h.killed {
		t.Fatalf("the output never reached step %q", step)
	}
	h.killed = false
	h.fake.Killed()
	h.restart()
}

// count is how many of the channel's messages, the table aside, contain text.
func count(h *harness, text string) int {
	n := 0
	table := h.tableID()
	for _, m := range h.fake.Messages(h.ch) {
		if m.ID != table && strings.Contains(m.Text(), text) {
			n++
		}
	}
	return n
}

// The bot is killed while it posts the reveal that calls the Hand of
// Fate (lethal: equal totals), and again while it shows a victory card
// given before the final narration. Each time the new process posts what
// was owed once, the loser is offered the choice and makes it once, the
// gift stands once, and the conflict plays on to its end.
func TestImprovAuditKilledAtFateAndGifts(t *testing.T) {
	h := newHarness(t)
	gm := h.fake.AddUser("Ann")
	gm.Command(h.ch, "game", newGame("improv", fakediscord.Bool("lethal_fate", true)))
	bea := h.fake.AddUser("Bea")
	bea.Click(h.table(), h.table().ButtonID("Join"))
	gm.Click(h.table(), h.table().ButtonID("Start"))
	h.press(bea, "Name your protagonist", "Kit")
	h.press(bea, "Add or change a talent", "Luck 3")
	everyone := []*fakediscord.User{gm, bea}
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)")
	h.choose(gm, "rounds", "2 rounds")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	h.press(bea, "Write your stake", "Kit stops Riso")
	h.press(gm, "Start the card play", "")

	st := improvState(t, h)
	g, p, gmToken, talent, ok := tieCards(st.Hands[0], st.Hands[1])
	if !ok {
		t.Fatalf("no tie to be made from %v and %v", st.Hands[0], st.Hands[1])
	}
	h.choose(gm, "play", g.String())
	h.choose(bea, "play", p.String())
	if gmToken {
		h.press(gm, "+1 story-token", "")
	}
	if talent {
		h.choose(bea, "usetal", "Luck")
	}
	h.press(bea, "Ready", "")
	killAt(t, h, "story", func() { h.press(gm, "Ready", "") })
	st = improvState(t, h)
	if st.Phase != improv.PhaseFate || len(st.C.FateWait) != 1 {
		t.Fatalf("after the tie: phase %s, waiting %v", st.Phase, st.C.FateWait)
	}
	if n := count(h, "The Hand of Fate!"); n != 1 {
		t.Fatalf("the Hand of Fate was told %d times", n)
	}
	if d := h.fake.Duplicates(h.ch); len(d) > 0 {
		t.Fatalf("posted twice: %q", d[0].Content)
	}
	loserSide := st.C.FateWait[0]
	loser := userAt(h, st.C.Sides[loserSide].Seat, everyone)
	other := everyone[1-slices.Index(everyone, loser)]
	hand := h.handOf(loser)
	stay := buttonOn(t, hand, st.C.Sides[loserSide].Name+" stays in")
	if h.handOf(other).ButtonID("stays in") != "" {
		t.Errorf("%s, who won the Hand of Fate, is offered the choice", other.Name)
	}
	if other == bea {
		refused(t, h, "the winner's choice", "no choice to make", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "fatestay") })
	}
	h.restart() // and once more, cleanly, with the choice open
	if r := loser.Click(hand, stay); r == nil || r.Type != 7 {
		t.Fatalf("%s's choice from the hand kept over two restarts answered %+v", loser.Name, r)
	}
	if r := loser.Click(hand, stay); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("the choice made twice answered %+v", r)
	}
	st = improvState(t, h)
	if sd := st.C.Sides[loserSide]; !sd.Harmed || sd.Out != "" || st.Phase != improv.PhaseNarrate || count(h, "stays in the fight") != 1 {
		t.Fatalf("after staying in: %+v, phase %s, told %d times", sd, st.Phase, count(h, "stays in the fight"))
	}
	for step := 0; improvState(t, h).Phase != improv.PhaseGifts; step++ {
		st := improvState(t, h)
		if st.C == nil || step > 30 {
			t.Fatalf("no gifts step (phase %s)", st.Phase)
		}
		plainMove(h, st.Phase, userAt(h, h.record().Waiting[0], everyone))
	}
	st = improvState(t, h)
	giverSeat := h.record().Waiting[0]
	giver := userAt(h, giverSeat, everyone)
	var from int
	for i, sd := range st.C.Sides {
		if sd.Seat == giverSeat && len(sd.Pile) > 0 {
			from = i
		}
	}
	pile := len(st.C.Sides[from].Pile)
	killAt(t, h, "hands", func() { h.choose(giver, "give") })
	st = improvState(t, h)
	if len(st.C.Gifts) != 1 || len(st.C.Sides[from].Pile) != pile-1 || len(st.C.Sides[1-from].Got) != 1 || count(h, "gives the") > 1 {
		t.Fatalf("after the gift and the kill: gifts %+v, piles %+v", st.C.Gifts, st.C.Sides)
	}
	h.handOf(giver) // the gift took the giver's menu away
	for step := 0; improvState(t, h).C != nil; step++ {
		st := improvState(t, h)
		if step > 20 {
			t.Fatalf("stuck in %s", st.Phase)
		}
		plainMove(h, st.Phase, userAt(h, h.record().Waiting[0], everyone))
	}
	if n := count(h, "final victory"); n != 1 {
		t.Fatalf("the final victory was told %d times", n)
	}
	if d := h.fake.Duplicates(h.ch); len(d) > 0 {
		t.Fatalf("posted twice: %q", d[0].Content)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("output still owed: %+v", owed)
	}
}

// With one talent use per session, a protagonist who used a talent is
// not offered one in the next conflict and is refused if they send one;
// the GM can't start a new session mid-conflict, and the New session
// between conflicts gives the use back, which every open hand shows.
func TestImprovAuditNewSessionResetsTalentCap(t *testing.T) {
	h := newHarness(t)
	gm := h.fake.AddUser("Ann")
	gm.Command(h.ch, "game", newGame("improv", fakediscord.Int("talent_cap", 1)))
	bea := h.fake.AddUser("Bea")
	bea.Click(h.table(), h.table().ButtonID("Join"))
	gm.Click(h.table(), h.table().ButtonID("Start"))
	h.press(bea, "Name your protagonist", "Kit")
	h.press(bea, "Add or change a talent", "Luck 5")
	everyone := []*fakediscord.User{gm, bea}
	toBonus := func() {
		h.press(gm, "Open a conflict", "")
		h.choose(gm, "who", "(Bea)")
		h.press(gm, "Add a GM stake", "Riso: get away with the money")
		h.press(gm, "Stakes declared", "")
		h.press(bea, "Write your stake", "Kit stops Riso")
		h.press(gm, "Start the card play", "")
		h.choose(gm, "play")
		h.choose(bea, "play")
	}
	toBonus()
	h.choose(bea, "usetal", "Luck")
	h.press(gm, "Reveal now", "")
	for improvState(t, h).Phase == improv.PhaseNarrate {
		h.press(userAt(h, h.record().Waiting[0], everyone), "Done narrating", "")
	}
	if hero := improvState(t, h).Heroes[1]; hero.SessionUses != 1 || hero.Talents[0].Uses != 4 {
		t.Fatalf("after the first conflict: %+v", hero)
	}
	toBonus()
	if hasMenu(h.handOf(bea), "usetal") {
		t.Error("Bea is offered a talent past the session's cap")
	}
	refused(t, h, "a talent past the cap", "the cap", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "usetal=0") })
	refused(t, h, "a new session mid-conflict", "Finish the conflict", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "session") })
	h.press(gm, "Call off the conflict", "")
	h.handOf(bea)
	seen := posted(h)
	h.press(gm, "New session", "")
	if said := saidSince(h, seen); !strings.Contains(said, "Session 2 begins") {
		t.Errorf("the channel was not told of the new session:\n%s", said)
	}
	handsCurrent(t, h, "after the new session", everyone...)
	if hand := handShown(bea, h.ch); !strings.Contains(hand.Text(), "0 of 1 talent uses, 1 left") {
		t.Errorf("Bea's hand after the new session:\n%s", hand.Text())
	}
	toBonus()
	if !hasMenu(h.handOf(bea), "usetal") {
		t.Error("Bea is not offered her talent in the new session")
	}
	h.choose(bea, "usetal", "Luck")
}

// Words typed into a text box count when other players' moves change the
// hand it was opened from meanwhile (the hand's "Waiting for …" line): a
// stake written while another player writes theirs, a talent's help line
// written while another marks ready. Only the writer's own later move
// (a second box opened on the same view) makes a box out of date.
func TestImprovAuditTextTypedWhileOthersMove(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy")
	bea, cy := players[0], players[1]
	h.press(cy, "Add or change a talent", "Medic 2")
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	hand := h.handOf(cy)
	box := cy.Click(hand, buttonOn(t, hand, "Write your stake")).Modal
	again := cy.Click(hand, buttonOn(t, hand, "Write your stake")).Modal
	h.press(bea, "Write your stake", "Kit stops Riso")
	if r := cy.Submit(box, map[string]string{"text": "Diana saves the clerk"}); r == nil || r.Type != 7 || strings.Contains(r.Content, stale) {
		t.Fatalf("Cy's stake, typed while Bea wrote hers, answered %+v", r)
	}
	if sd := improvState(t, h).C.Sides[2]; sd.Stake != "Diana saves the clerk" {
		t.Fatalf("Cy's stake is %q", sd.Stake)
	}
	if r := cy.Submit(again, map[string]string{"text": "Diana runs"}); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("Cy's second box from before her stake answered %+v", r)
	}
	if sd := improvState(t, h).C.Sides[2]; sd.Stake != "Diana saves the clerk" {
		t.Fatalf("the second box changed Cy's stake to %q", sd.Stake)
	}
	h.press(gm, "Start the card play", "")
	for _, u := range []*fakediscord.User{gm, bea, cy} {
		h.choose(u, "play")
	}
	// Cy helps Kit with her talent: the help line is typed while Bea
	// marks ready.
	h.choose(cy, "aim", "Kit")
	h.choose(cy, "usetal", "Medic")
	box = openAsk(h, cy, "Say how Diana helps")
	h.press(bea, "Ready", "")
	if r := cy.Submit(box, map[string]string{"text": "Diana patches Kit up"}); r == nil || r.Type != 7 || strings.Contains(r.Content, stale) {
		t.Fatalf("Cy's help line, typed while Bea marked ready, answered %+v", r)
	}
	st := improvState(t, h)
	if len(st.C.Bonuses) != 1 || st.C.Bonuses[0].Help != "Diana patches Kit up" || st.C.Bonuses[0].On != 1 {
		t.Fatalf("bonuses after Cy's help: %+v", st.C.Bonuses)
	}
	handsCurrent(t, h, "after the help", gm, bea, cy)
}

// A player who leaves and later joins again may take their protagonist's
// name back: a name is taken only by someone still at the table.
func TestImprovAuditRejoinerTakesTheirNameBack(t *testing.T) {
	h := newHarness(t)
	_, players := improvCampaign(h, "Bea", "Cy")
	cy := players[1]
	cy.Command(h.ch, "game", fakediscord.Sub("leave"))
	if r := cy.Click(h.table(), h.table().ButtonID("Join")); r == nil || !strings.Contains(r.Content, "joined") {
		t.Fatalf("Cy's join answered %+v", r)
	}
	h.press(cy, "Name your protagonist", "Diana")
	if st := improvState(t, h); st.Character(3) != "Diana" {
		t.Fatalf("Cy's new protagonist is %q", st.Character(3))
	}
	refused(t, h, "a name still at the table", "already a protagonist", func() *fakediscord.Reply { return submitIn(h, cy, "Rename your protagonist", "Kit") })
}

// risoToCards opens a simple conflict of the given players against Riso's
// GM stake, each opposing him, up to the card play.
func risoToCards(h *harness, gm *fakediscord.User, players []*fakediscord.User, who ...string) {
	h.t.Helper()
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", who...)
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "stops Riso", "Riso")
	h.press(gm, "Start the card play", "")
}
