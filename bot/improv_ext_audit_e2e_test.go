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

// Improv's extended rules through Discord: the options, the GM's token
// limits round by round, story-tokens to the pool, the bank and out of
// play, awards per round, victory piles, gifts, the Hand of Fate, mooks,
// and bad input and restarts in between.

// extCampaign opens a campaign with options; players are named Kit,
// Diana, Jason… in join order.
func extCampaign(h *harness, opts []fakediscord.Option, names ...string) (*fakediscord.User, []*fakediscord.User) {
	h.t.Helper()
	gm := h.fake.AddUser("Ann")
	if r := gm.Command(h.ch, "game", newGame("improv", opts...)); r == nil || !strings.Contains(r.Content, "You are the GM") {
		h.t.Fatalf("/game new improv answered %+v", r)
	}
	var players []*fakediscord.User
	for _, n := range names {
		p := h.fake.AddUser(n)
		p.Click(h.table(), h.table().ButtonID("Join"))
		players = append(players, p)
	}
	gm.Click(h.table(), h.table().ButtonID("Start"))
	for n, p := range players {
		h.press(p, "Name your protagonist", []string{"Kit", "Diana", "Jason"}[n])
	}
	return gm, players
}

// playCard plays c (by its code, so one Joker is told from the other)
// from u's card menu.
func playCard(t *testing.T, h *harness, u *fakediscord.User, c games.Card) {
	t.Helper()
	hand := h.handOf(u)
	for _, sel := range hand.Selects() {
		if strings.HasSuffix(sel.CustomID, ":play") {
			if r := u.Select(hand, sel.CustomID, c.Code()); r == nil || r.Type != 7 {
				t.Fatalf("%s's %v answered %+v", u.Name, c, r)
			}
			return
		}
	}
	t.Fatalf("%s has no card menu:\n%s", u.Name, hand.Text())
}

// pickCard is a card of hand that ok accepts, the highest when high, else
// the lowest; ok false for all fails the test.
func pickCard(t *testing.T, hand []games.Card, high bool, ok func(games.Card) bool) games.Card {
	t.Helper()
	cs := slices.Clone(hand)
	slices.SortFunc(cs, func(a, b games.Card) int { return a.Rank - b.Rank })
	if high {
		slices.Reverse(cs)
	}
	for _, c := range cs {
		if ok == nil || ok(c) {
			return c
		}
	}
	t.Fatalf("no card to play in %v", hand)
	return games.Card{}
}

func sideNamed(t *testing.T, st *improv.State, name string) int {
	t.Helper()
	for i, sd := range st.C.Sides {
		if sd.Name == name || (sd.Seat > 0 && st.Character(sd.Seat) == name) {
			return i
		}
	}
	t.Fatalf("no side %q", name)
	return -1
}

// narrate runs the narration in progress: each narrator says a line,
// said is called after it (for awards), then Done narrating.
func narrate(t *testing.T, h *harness, everyone []*fakediscord.User, said func(u *fakediscord.User, line *fakediscord.Message)) {
	t.Helper()
	st := improvState(t, h)
	round, final := st.C.Round, st.C.Final
	for step := 0; ; step++ {
		st := improvState(t, h)
		if st.Phase != improv.PhaseNarrate || st.C.Round != round || st.C.Final != final || step > 12 {
			return
		}
		u := userAt(h, h.record().Waiting[0], everyone)
		text := fmt.Sprintf("%s narrates round %d, turn %d.", u.Name, round, st.C.Turn)
		if r := u.Command(h.ch, "say", fakediscord.Str("line", text)); r == nil || !r.Ephemeral {
			t.Fatalf("/say answered %+v", r)
		}
		if said != nil {
			said(u, rolePlayLine(t, h, text))
		}
		h.press(u, "Done narrating", "")
	}
}

// award reacts 🎭 as u on line and waits for the bot.
func award(h *harness, u *fakediscord.User, line *fakediscord.Message) {
	u.React(line, "🎭")
	h.bot.Idle()
}

// reactedBy reports whether u's 🎭 still stands on the message.
func reactedBy(h *harness, m *fakediscord.Message, u *fakediscord.User) bool {
	return slices.Contains(h.fake.Message(h.ch, m.ID).Reactions["🎭"], u.ID)
}

func tokensInPlay(st *improv.State) int {
	n := st.Pool + st.Bank + st.Spent
	for _, x := range st.Tokens {
		n += x
	}
	return n
}

// The GM chooses an extended conflict's length in the setup menu, with the
// campaign's options (talent cap 2, lethal Hand of Fate) set at /game new.
// The GM may place 1 + 1 per protagonist tokens a round and, over a
// 4-round conflict, 2 + 2 per protagonist + 2 — but no more than the 6
// held when the cards began: the token taken from the bank mid-conflict
// can't be spent. GM tokens go to the pool, a player's to the bank when
// the colours match, else out of play. Awards are one per player per
// round, for lines of that round's narration.
func TestImprovExtAuditTokenEconomyRoundByRound(t *testing.T) {
	h := newHarness(t)
	gm, players := extCampaign(h, []fakediscord.Option{fakediscord.Int("talent_cap", 2), fakediscord.Bool("lethal_fate", true)}, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	if foot := h.table().Text(); !strings.Contains(foot, "talent cap 2 per session · lethal Hand of Fate") {
		t.Fatalf("the table does not show the options:\n%s", foot)
	}
	if r := bea.Command(h.ch, "rules"); r == nil || !strings.Contains(r.Content, "Extended conflicts") || !strings.Contains(r.Content, "2 + 2 per protagonist") {
		t.Errorf("/rules answered %+v", r)
	}
	h.press(bea, "Add or change a talent", "Luck 5")
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	refused(t, h, "Bea's rounds", "Only the GM (Ann)", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "rounds=3") })
	refused(t, h, "seven rounds", "2 to 6 rounds", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "rounds=7") })
	seen := posted(h)
	h.choose(gm, "rounds", "4 rounds")
	if said := saidSince(h, seen) + h.table().Text(); !strings.Contains(said, "extended conflict of 4 rounds") {
		t.Errorf("the channel was not told the length:\n%s", said)
	}
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Stakes declared", "")
	refused(t, h, "rounds after the setup", "still at its stakes", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "rounds=2") })
	if hand := h.handOf(gm); !strings.Contains(hand.Text(), "2 story-tokens + 2 per protagonist + 2 per round beyond 3, at most the 6 you hold") {
		t.Errorf("the GM's screen at the stakes:\n%s", hand.Text())
	}
	improvStakes(h, players, "stops Riso", "Riso")
	h.press(gm, "Start the card play", "")
	if title := h.table().Text(); !strings.Contains(title, "conflict 1 (round 1 of 4): playing cards") {
		t.Errorf("the table title:\n%s", title)
	}

	// Round 1: the GM places its 3 a round, once per click.
	st := improvState(t, h)
	playCard(t, h, gm, pickCard(t, st.Hands[0], false, nil))
	playCard(t, h, bea, pickCard(t, st.Hands[1], true, nil))
	playCard(t, h, cy, pickCard(t, st.Hands[2], true, nil))
	hand := h.handOf(gm)
	tok := buttonOn(t, hand, "+1 story-token on Riso's card")
	gm.Click(hand, tok)
	if r := gm.Click(hand, tok); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("the token button pressed twice answered %+v", r)
	}
	h.press(gm, "+1 story-token", "")
	h.press(gm, "+1 story-token", "")
	if h.handOf(gm).ButtonID("+1 story-token") != "" {
		t.Error("the GM is offered a fourth token in round 1")
	}
	refused(t, h, "a fourth GM token in a round", "at most 3 story-tokens in a round", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "token") })
	if hand := h.handOf(gm); !strings.Contains(hand.Text(), "3 of 6 story-tokens left to use this conflict, at most 3 a round") {
		t.Errorf("the GM's screen after 3 tokens:\n%s", hand.Text())
	}
	h.choose(bea, "usetal", "Luck")
	refused(t, h, "a second talent in the round", "one talent per player per round", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "usetal=0") })
	seen = posted(h)
	for _, u := range everyone {
		h.press(u, "Ready", "")
	}
	said := saidSince(h, seen)
	if !strings.Contains(said, "round 1 of 4 — the cards are revealed") || !strings.Contains(said, "the GM's 3 → the pool") ||
		!strings.Contains(said, "Kit checks off Luck (4 left; 1 of 2 this session)") {
		t.Errorf("round 1's reveal:\n%s", said)
	}
	st = improvState(t, h)
	if st.Tokens[0] != 3 || st.Pool != 5 || st.Phase != improv.PhaseNarrate {
		t.Fatalf("after round 1: GM %d, pool %d, phase %s", st.Tokens[0], st.Pool, st.Phase)
	}
	// Cy awards Kit's line; a second award in the round is refused and
	// its 🎭 taken off.
	var beaLine, cyLine1 *fakediscord.Message
	narrate(t, h, everyone, func(u *fakediscord.User, line *fakediscord.Message) {
		switch u {
		case bea:
			beaLine = line
			award(h, cy, line)
			text := "Kit adds a quip."
			bea.Command(h.ch, "say", fakediscord.Str("line", text))
			again := rolePlayLine(t, h, text)
			award(h, cy, again)
			if reactedBy(h, again, cy) || improvState(t, h).Tokens[1] != 1 {
				t.Errorf("Cy's second award in round 1 stands (Kit holds %d)", improvState(t, h).Tokens[1])
			}
		case cy:
			cyLine1 = line
		}
	})
	st = improvState(t, h)
	if st.Tokens[1] != 1 || st.Pool != 4 || !reactedBy(h, beaLine, cy) || st.C.Round != 2 {
		t.Fatalf("after round 1's awards: Kit %d, pool %d, round %d", st.Tokens[1], st.Pool, st.C.Round)
	}

	// Round 2: Kit's card matches Riso's colour; Kit's token goes to
	// the bank. The GM's 3 more reach the limit of 6.
	g, k := games.Card{}, games.Card{}
	for _, c := range st.Hands[0] {
		for _, d := range st.Hands[1] {
			if c.Rank != games.Joker && d.Rank != games.Joker && c.Red() == d.Red() {
				g, k = c, d
			}
		}
	}
	if g.Rank == 0 {
		t.Fatalf("no colour match between %v and %v", st.Hands[0], st.Hands[1])
	}
	playCard(t, h, gm, g)
	playCard(t, h, bea, k)
	playCard(t, h, cy, pickCard(t, st.Hands[2], true, nil))
	for range 3 {
		h.press(gm, "+1 story-token", "")
	}
	h.press(bea, "+1 story-token on Kit's card", "")
	h.choose(bea, "usetal", "Luck")
	seen = posted(h)
	for _, u := range everyone {
		h.press(u, "Ready", "")
	}
	said = saidSince(h, seen)
	if !strings.Contains(said, "the GM's 3 → the pool · Kit's 1 → the bank (colours match)") {
		t.Errorf("round 2's tokens:\n%s", said)
	}
	st = improvState(t, h)
	if st.Bank != 1 || st.Tokens[0] != 0 || st.Tokens[1] != 0 || st.Pool != 7 {
		t.Fatalf("after round 2: bank %d, GM %d, Kit %d, pool %d", st.Bank, st.Tokens[0], st.Tokens[1], st.Pool)
	}
	seen = posted(h)
	h.press(gm, "Take the bank (1)", "")
	if said := saidSince(h, seen) + h.table().Text(); !strings.Contains(said, "The GM takes 1 story-token from the bank (now holding 1)") {
		t.Errorf("the bank taken:\n%s", said)
	}
	// Round 2's narration: a 🎭 on round 1's line no longer counts; on
	// this round's, Bea and Cy each award once more.
	narrate(t, h, everyone, func(u *fakediscord.User, line *fakediscord.Message) {
		switch u {
		case bea:
			award(h, cy, line)
		case cy:
			before := improvState(t, h)
			award(h, bea, cyLine1)
			if after := improvState(t, h); after.Tokens[2] != before.Tokens[2] || after.Pool != before.Pool {
				t.Error("Bea's 🎭 on round 1's line counted in round 2")
			}
			award(h, bea, line)
		}
	})
	st = improvState(t, h)
	if st.Tokens[1] != 1 || st.Tokens[2] != 1 || st.Pool != 5 || st.C.Round != 3 {
		t.Fatalf("after round 2's awards: Kit %d, Diana %d, pool %d, round %d", st.Tokens[1], st.Tokens[2], st.Pool, st.C.Round)
	}

	// Round 3: the GM holds the bank's token but has used its 6; Kit is
	// at the session's cap; Diana's token on a card of the other colour
	// goes out of play.
	g, d := games.Card{}, games.Card{}
	for _, c := range st.Hands[0] {
		for _, e := range st.Hands[2] {
			if c.Rank != games.Joker && e.Rank != games.Joker && c.Red() != e.Red() {
				g, d = c, e
			}
		}
	}
	if g.Rank == 0 {
		t.Fatalf("no colour mismatch between %v and %v", st.Hands[0], st.Hands[2])
	}
	playCard(t, h, gm, g)
	playCard(t, h, bea, pickCard(t, st.Hands[1], false, nil))
	playCard(t, h, cy, d)
	if hand := h.handOf(gm); hand.ButtonID("+1 story-token") != "" || !strings.Contains(hand.Text(), "0 of 6 story-tokens left") {
		t.Errorf("the GM's screen at its limit:\n%s\n%s", hand.Text(), hand.ButtonsLine())
	}
	refused(t, h, "a GM token past the limit", "at most 6 story-tokens in this extended conflict", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "token") })
	if hasMenu(h.handOf(bea), "usetal") {
		t.Error("Kit is offered a talent past the session's cap")
	}
	refused(t, h, "a talent past the cap", "the cap", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "usetal=0") })
	h.press(cy, "+1 story-token on Diana's card", "")
	seen = posted(h)
	for _, u := range everyone {
		h.press(u, "Ready", "")
	}
	if said := saidSince(h, seen); !strings.Contains(said, "Diana's 1 → out of play (colours differ)") {
		t.Errorf("round 3's tokens:\n%s", said)
	}
	st = improvState(t, h)
	if st.Spent != 1 || st.Bank != 0 || tokensInPlay(st) != 8 {
		t.Fatalf("after round 3: spent %d, bank %d, %d tokens in all", st.Spent, st.Bank, tokensInPlay(st))
	}
	final := map[*fakediscord.User]*fakediscord.Message{}
	for step := 0; improvState(t, h).C != nil; step++ {
		st := improvState(t, h)
		if step > 30 {
			t.Fatalf("stuck in %s", st.Phase)
		}
		if st.Phase == improv.PhaseNarrate {
			narrate(t, h, everyone, func(u *fakediscord.User, line *fakediscord.Message) { final[u] = line })
			continue
		}
		plainMove(h, st.Phase, userAt(h, h.record().Waiting[0], everyone))
	}
	st = improvState(t, h)
	if tokensInPlay(st) != 8 || st.Tokens[0] != 1 || st.Conflicts != 1 {
		t.Fatalf("after the conflict: %d tokens in all, GM %d", tokensInPlay(st), st.Tokens[0])
	}
	// The final narration's lines earn awards until the next conflict
	// opens; that conflict is simple, its GM limit 1 + 1 per protagonist.
	pool, diana := st.Pool, st.Tokens[2]
	award(h, bea, final[cy])
	if st := improvState(t, h); st.Tokens[2] != diana+1 || st.Pool != pool-1 {
		t.Fatalf("Bea's award after the conflict: Diana %d (was %d), pool %d (was %d)", st.Tokens[2], diana, st.Pool, pool)
	}
	h.press(gm, "Open a conflict", "")
	kitTokens := improvState(t, h).Tokens[1]
	award(h, cy, final[bea])
	if st := improvState(t, h); st.Tokens[1] != kitTokens {
		t.Error("an award on the last conflict's line counted once the next one opened")
	}
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.press(gm, "Add a GM stake", "Riso: get away")
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "stops Riso", "Riso")
	h.press(gm, "Start the card play", "")
	if hand := h.handOf(gm); !strings.Contains(hand.Text(), "1 of 3 story-tokens left to use this conflict.") {
		t.Errorf("the GM's screen in a simple conflict:\n%s", hand.Text())
	}
	h.press(gm, "Call off the conflict", "")
}

// noBlankLead fails if a message in the channel opens with a blank line,
// as a round's opening joined to nothing did.
func noBlankLead(t *testing.T, h *harness) {
	t.Helper()
	for _, m := range h.fake.Messages(h.ch) {
		if m.Content != strings.TrimLeft(m.Content, " \n") {
			t.Errorf("a message opens with a blank line: %q", m.Content)
		}
	}
}

// readyAll marks everyone in the bonuses ready, in seat order.
func readyAll(t *testing.T, h *harness, everyone []*fakediscord.User) string {
	t.Helper()
	seen := posted(h)
	for _, seat := range h.record().Waiting {
		h.press(userAt(h, seat, everyone), "Ready", "")
	}
	return saidSince(h, seen)
}

// pileOf is side i's victory pile with the cards given to it.
func pileOf(st *improv.State, i int) []games.Card {
	return append(slices.Clone(st.C.Sides[i].Pile), st.C.Sides[i].Got...)
}

// pilesBeat is the book's final comparison: more cards, then the highest
// values in turn.
func pilesBeat(a, b []games.Card) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	a, b = slices.Clone(a), slices.Clone(b)
	desc := func(x, y games.Card) int { return y.Rank - x.Rank }
	slices.SortFunc(a, desc)
	slices.SortFunc(b, desc)
	for k := range a {
		if a[k].Rank != b[k].Rank {
			return a[k].Rank - b[k].Rank
		}
	}
	return 0
}

// Victory piles round by round, then the gifts through the menus: the GM
// has the Goons give their card to Riso; Kit gives his to Diana, once, a
// double click counting once; Diana can't pass on the card she was given,
// and takes her own gift back; a restart in the middle loses no gift. The
// final victory goes by the size of the piles, then their highest cards,
// and the final narration runs losers first.
func TestImprovExtAuditVictoryPilesAndGifts(t *testing.T) {
	h := newHarness(t)
	gm, players := extCampaign(h, nil, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	h.press(bea, "Add or change a talent", "Luck 3")
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.choose(gm, "rounds", "3 rounds")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	h.press(gm, "Add a GM stake", "Goons: cover Riso")
	h.press(gm, "Stakes declared", "")
	h.press(bea, "Write your stake", "Kit stops Riso")
	h.choose(bea, "vs", "Oppose Riso")
	h.press(cy, "Write your stake", "Diana holds off the goons")
	h.choose(cy, "vs", "Oppose Goons")
	h.press(gm, "Start the card play", "")
	st := improvState(t, h)
	riso, goons, kit, diana := sideNamed(t, st, "Riso"), sideNamed(t, st, "Goons"), sideNamed(t, st, "Kit"), sideNamed(t, st, "Diana")

	// Round 1: Kit beats Riso, the Goons beat Diana.
	playCard(t, h, gm, pickCard(t, st.Hands[0], false, nil)) // Riso
	playCard(t, h, gm, pickCard(t, improvState(t, h).Hands[0], true, nil))
	playCard(t, h, bea, pickCard(t, st.Hands[1], true, nil))
	playCard(t, h, cy, pickCard(t, st.Hands[2], false, nil))
	h.choose(bea, "usetal", "Luck") // the seed deals Kit low cards
	said := readyAll(t, h, everyone)
	st = improvState(t, h)
	if len(st.C.Sides[kit].Pile) != 1 || len(st.C.Sides[goons].Pile) != 1 || len(st.C.Sides[riso].Pile)+len(st.C.Sides[diana].Pile) != 0 {
		t.Fatalf("after round 1 the piles are %+v\n%s", st.C.Sides, said)
	}
	if !strings.Contains(said, "Kit keeps the "+st.C.Sides[kit].Pile[0].String()) || !strings.Contains(said, "discarded: Riso and Diana") {
		t.Errorf("round 1's victory cards:\n%s", said)
	}
	narrate(t, h, everyone, nil)
	// Round 2: Riso beats Kit, Diana beats the Goons.
	st = improvState(t, h)
	if !strings.Contains(h.table().Text(), "🏆 "+st.C.Sides[kit].Pile[0].String()) {
		t.Errorf("the table does not show Kit's victory card:\n%s", h.table().Text())
	}
	playCard(t, h, gm, pickCard(t, st.Hands[0], true, nil))
	playCard(t, h, gm, pickCard(t, improvState(t, h).Hands[0], false, nil))
	playCard(t, h, bea, pickCard(t, st.Hands[1], false, nil))
	playCard(t, h, cy, pickCard(t, st.Hands[2], true, nil))
	readyAll(t, h, everyone)
	narrate(t, h, everyone, nil)
	st = improvState(t, h)
	for _, i := range []int{riso, goons, kit, diana} {
		if len(st.C.Sides[i].Pile) != 1 {
			t.Fatalf("after round 2 the piles are %+v", st.C.Sides)
		}
	}
	// Round 3: whatever falls; the GM's second card from the deck.
	playCard(t, h, gm, st.Hands[0][0])
	h.choose(gm, "play", "Top of the deck")
	h.choose(bea, "play")
	h.choose(cy, "play")
	said = readyAll(t, h, everyone)
	st = improvState(t, h)
	if st.Phase != improv.PhaseGifts || !strings.Contains(said, "the last round is over.** Victory piles:") || strings.Contains(said, "Round 3 narration") {
		t.Fatalf("after round 3: phase %s\n%s", st.Phase, said)
	}

	// The GM's gift: from the Goons, to Riso.
	refused(t, h, "Bea choosing the GM's giver", "Only the GM (Ann)", func() *fakediscord.Reply { return forgeOn(h, bea, "move", fmt.Sprint("from=", goons)) })
	h.choose(gm, "from", "Goons gives")
	h.choose(gm, "to", "Give to Riso")
	gcard := st.C.Sides[goons].Pile[len(st.C.Sides[goons].Pile)-1]
	seen := posted(h)
	h.choose(gm, "give", gcard.String())
	if said := saidSince(h, seen) + h.table().Text(); !strings.Contains(said, "Goons gives the "+gcard.String()+" to Riso") {
		t.Errorf("the GM's gift was not told:\n%s", said)
	}
	if hasMenu(h.handOf(gm), "from") {
		t.Error("the GM is still offered the Goons as a giver")
	}
	h.handOf(bea)
	h.handOf(cy)
	handsCurrent(t, h, "after the GM's gift", everyone...)
	// Kit gives to Diana; the same menu used twice counts once.
	h.choose(bea, "to", "Give to Diana")
	hand := h.handOf(bea)
	kcard := improvState(t, h).C.Sides[kit].Pile[0]
	if r := selectIn(t, bea, hand, "give"); r == nil || r.Type != 7 {
		t.Fatalf("Kit's gift answered %+v", r)
	}
	if r := selectIn(t, bea, hand, "give"); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("Kit's gift made twice answered %+v", r)
	}
	refused(t, h, "Kit's second gift", "only one victory card", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "give="+kcard.Code()) })
	h.restart()
	st = improvState(t, h)
	if len(st.C.Gifts) != 2 || !slices.Contains(st.C.Sides[diana].Got, kcard) || len(st.C.Sides[kit].Pile) != len(pileOf(st, kit))-len(st.C.Sides[kit].Got) {
		t.Fatalf("after the restart the gifts are %+v", st.C.Gifts)
	}
	// Diana can't give what she was given; she gives her own, then takes
	// it back.
	refused(t, h, "Diana passing on Kit's card", "isn't one of Diana's own victory cards", func() *fakediscord.Reply { return forgeOn(h, cy, "move", "give="+kcard.Code()) })
	h.choose(cy, "to", "Give to Kit")
	h.choose(cy, "give")
	if n := len(improvState(t, h).C.Gifts); n != 3 {
		t.Fatalf("%d gifts after Diana's", n)
	}
	h.press(cy, "Take back my gift", "")
	st = improvState(t, h)
	if len(st.C.Gifts) != 2 || len(st.C.Sides[kit].Got) != 0 {
		t.Fatalf("after Diana took her gift back: %+v", st.C.Gifts)
	}
	h.press(bea, "Done giving", "")
	h.press(bea, "Not done giving", "")
	refused(t, h, "the narration before the gifts are done", "victory cards are being given", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "done") })
	h.press(bea, "Done giving", "")
	h.press(cy, "Done giving", "")
	st = improvState(t, h)
	if st.Phase != improv.PhaseGifts {
		t.Fatal("the gifts closed without the GM")
	}
	seen = posted(h)
	h.press(gm, "Done giving", "")
	said = saidSince(h, seen)
	st = improvState(t, h)
	if st.Phase != improv.PhaseNarrate || !st.C.Final || !strings.Contains(h.table().Text(), "narration (final)") {
		t.Fatalf("after the gifts: phase %s\n%s", st.Phase, h.table().Text())
	}
	for _, e := range [][2]int{{kit, riso}, {diana, goons}} {
		w, l := e[0], e[1]
		if pilesBeat(pileOf(st, w), pileOf(st, l)) < 0 {
			w, l = l, w
		}
		if want := "**" + st.C.Sides[w].Name + "** beats **" + st.C.Sides[l].Name + "** (victory cards)"; pilesBeat(pileOf(st, w), pileOf(st, l)) != 0 && !strings.Contains(said, want) {
			t.Errorf("the final victory does not say %q:\n%s", want, said)
		}
	}
	// The gifts are told with the piles they changed, for the narrators.
	if want := "🎁 **Gifts:** Goons gave the " + gcard.String() + " to Riso · Kit gave the " + kcard.String() + " to Diana"; !strings.Contains(said, want) {
		t.Errorf("the final victory does not tell the gifts (%q):\n%s", want, said)
	}
	// Losers first: each narrator's pile is no bigger than the next's.
	for k := 0; k+1 < len(st.C.Order); k++ {
		a, b := st.C.Order[k].Sides[0], st.C.Order[k+1].Sides[0]
		if pilesBeat(pileOf(st, a), pileOf(st, b)) > 0 {
			t.Errorf("the final narration has %s before %s", st.C.Sides[a].Name, st.C.Sides[b].Name)
		}
	}
	refused(t, h, "a gift in the final narration", "being narrated", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "give="+kcard.Code()) })
	narrate(t, h, everyone, nil)
	noBlankLead(t, h)
	if st := improvState(t, h); st.C != nil || len(st.Hands[0]) != 5 || len(st.Hands[1]) != 4 || len(st.Hands[2]) != 4 {
		t.Fatalf("after the conflict: open %v, hands %v", st.C != nil, st.Hands)
	}
}

func mustCard(t *testing.T, code string) games.Card {
	t.Helper()
	c, err := games.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rigDeal sets the hands (seat → codes) and stacks top on the deck, the
// first code drawn first; the cards come from wherever they were, and the
// hands' old cards go under the deck. The replay check is left out.
func rigDeal(t *testing.T, h *harness, hands map[int][]string, top []string) {
	t.Helper()
	h.rigged = true
	h.rigStored(improv.Rules, func(g games.Game) {
		st := g.(*improv.State)
		take := func(c games.Card) {
			for seat := range st.Hands {
				st.Hands[seat], _ = games.Remove(st.Hands[seat], c)
			}
			st.Deck.Draw, _ = games.Remove(st.Deck.Draw, c)
			st.Deck.Discard, _ = games.Remove(st.Deck.Discard, c)
		}
		for seat, codes := range hands {
			st.Deck.Draw = append(slices.Clone(st.Hands[seat]), st.Deck.Draw...)
			st.Hands[seat] = nil
			for _, code := range codes {
				c := mustCard(t, code)
				take(c)
				st.Hands[seat] = append(st.Hands[seat], c)
			}
		}
		for i := len(top) - 1; i >= 0; i-- {
			c := mustCard(t, top[i])
			take(c)
			st.Deck.Draw = append(st.Deck.Draw, c)
		}
	})
}

// The Hand of Fate in an extended conflict (lethal: equal totals call
// it). Kit loses it and stays in, seriously harmed; in round 2 he loses it
// again and is destroyed, while Diana loses hers and leaves the fight,
// her victory card removed. Only the loser is offered the choice, once;
// it survives a restart. Destroyed, Kit plays no more cards and uses no
// talent but still puts a story-token on Jason's card, and at the end
// gives Jason a random card from the deck, having none of his own.
func TestImprovExtAuditHandOfFate(t *testing.T) {
	h := newHarness(t)
	gm, players := extCampaign(h, []fakediscord.Option{fakediscord.Bool("lethal_fate", true)}, "Bea", "Cy", "Dee")
	bea, cy, dee := players[0], players[1], players[2]
	everyone := []*fakediscord.User{gm, bea, cy, dee}
	h.press(bea, "Add or change a talent", "Luck 2")
	openRiso(h, gm, players, "3 rounds", "Riso: gun down Vinny")
	rigDeal(t, h, map[int][]string{
		0: {"9S", "7S", "2C", "4D", "5D", "6D"},
		1: {"9H", "7H", "8C", "8D"},
		2: {"KH", "7D", "8H", "8S"},
		3: {"3C", "QD", "AD", "5C"},
	}, []string{"2H", "AC", "3H", "KC", "4H", "QC"})
	st := improvState(t, h)
	riso, kit, diana, jason := sideNamed(t, st, "Riso"), sideNamed(t, st, "Kit"), sideNamed(t, st, "Diana"), sideNamed(t, st, "Jason")
	// Round 1: Kit ties Riso at 9.
	for u, code := range map[*fakediscord.User]string{gm: "9S", bea: "9H", cy: "KH", dee: "3C"} {
		playCard(t, h, u, mustCard(t, code))
	}
	said := readyAll(t, h, everyone)
	if !strings.Contains(said, "✋ **The Hand of Fate!** Kit and Riso are tied. Fate draws 2♥ for Kit and A♣ for Riso.") ||
		!strings.Contains(said, "✋ **Kit** lost to the Hand of Fate: leave the fight") {
		t.Fatalf("round 1's reveal:\n%s", said)
	}
	st = improvState(t, h)
	if st.Phase != improv.PhaseFate || !slices.Equal(h.record().Waiting, []int{1}) {
		t.Fatalf("after round 1: phase %s, waiting %v", st.Phase, h.record().Waiting)
	}
	for _, u := range []*fakediscord.User{gm, cy} {
		if h.handOf(u).ButtonID("stays in") != "" {
			t.Errorf("%s is offered Kit's choice", u.Name)
		}
		refused(t, h, u.Name+"'s fate choice", "no choice to make", func() *fakediscord.Reply { return forgeOn(h, u, "move", "fatestay") })
	}
	refused(t, h, "a card during the choice", "Hand of Fate's losers are choosing", func() *fakediscord.Reply { return forgeOn(h, dee, "move", "play=5C") })
	hand := h.handOf(bea)
	stay := buttonOn(t, hand, "Kit stays in, seriously harmed")
	buttonOn(t, hand, "Kit leaves the fight (eliminated)")
	seen := posted(h)
	bea.Click(hand, stay)
	if r := bea.Click(hand, stay); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("the choice made twice answered %+v", r)
	}
	said = saidSince(h, seen)
	st = improvState(t, h)
	if sd := st.C.Sides[kit]; !sd.Harmed || sd.Out != "" || !strings.Contains(said, "🩹 **Kit** stays in the fight, seriously harmed") ||
		!strings.Contains(said, "Round 1 narration") || count(h, "stays in the fight") != 1 {
		t.Fatalf("after staying in: %+v\n%s", sd, said)
	}
	h.handOf(cy)
	h.handOf(dee)
	handsCurrent(t, h, "after Kit's choice", everyone...)
	if !strings.Contains(h.handOf(bea).Text(), "seriously harmed") {
		t.Errorf("Kit's hand does not say he is harmed:\n%s", h.handOf(bea).Text())
	}
	if p := st.C.Sides; len(p[riso].Pile) != 1 || len(p[diana].Pile) != 1 || len(p[kit].Pile) != 0 {
		t.Fatalf("round 1's piles: %+v", p)
	}
	narrate(t, h, everyone, nil)

	// Round 2: Kit and Diana both tie Riso at 7 and lose.
	for u, code := range map[*fakediscord.User]string{gm: "7S", bea: "7H", cy: "7D", dee: "QD"} {
		playCard(t, h, u, mustCard(t, code))
	}
	said = readyAll(t, h, everyone)
	if !strings.Contains(said, "💀 **Kit** loses to the Hand of Fate a second time and is **destroyed**") ||
		!strings.Contains(said, "✋ **Diana** lost to the Hand of Fate") || strings.Contains(said, "✋ **Kit** and") {
		t.Fatalf("round 2's reveal:\n%s", said)
	}
	h.restart() // with Diana's choice open
	if w := h.record().Waiting; !slices.Equal(w, []int{2}) {
		t.Fatalf("after the restart the choice waits for %v", w)
	}
	seen = posted(h)
	h.press(cy, "Diana leaves the fight", "")
	said = saidSince(h, seen)
	st = improvState(t, h)
	if !strings.Contains(said, "🩸 **Diana** is eliminated") || st.C.Sides[diana].Out != "eliminated" || len(st.C.Sides[diana].Pile) != 0 ||
		!slices.Contains(st.Deck.Discard, mustCard(t, "KH")) || st.C.Sides[kit].Out != "destroyed" {
		t.Fatalf("after Diana left the fight: %+v\n%s", st.C.Sides, said)
	}
	if tbl := h.table().Text(); !strings.Contains(tbl, "*destroyed*") || !strings.Contains(tbl, "*eliminated*") {
		t.Errorf("the table does not show who is out:\n%s", tbl)
	}
	narrate(t, h, everyone, nil)

	// Round 3: Riso against Jason alone. Kit, destroyed, plays no card
	// and has no talent to use, but helps Jason with a story-token.
	st = improvState(t, h)
	if st.C.Round != 3 || !slices.Equal(h.record().Waiting, []int{0, 3}) {
		t.Fatalf("round 3 waits for %v", h.record().Waiting)
	}
	refused(t, h, "Kit's card", "no card to play", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "play=8C") })
	playCard(t, h, gm, mustCard(t, "2C"))
	playCard(t, h, dee, mustCard(t, "AD"))
	h.rigStored(improv.Rules, func(g games.Game) { // a token for Kit, from the pool
		st := g.(*improv.State)
		st.Pool--
		st.Tokens[1]++
	})
	if hand := h.handOf(bea); hasMenu(hand, "usetal") || hand.ButtonID("Ready") != "" {
		t.Errorf("destroyed Kit is offered a talent or Ready:\n%s", hand.ButtonsLine())
	}
	refused(t, h, "destroyed Kit's talent", "out of the fight", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "usetal=0") })
	h.choose(bea, "aim", "Jason")
	h.press(bea, "+1 story-token on Jason's card", "")
	said = readyAll(t, h, everyone)
	st = improvState(t, h)
	if !strings.Contains(said, "Kit's 1 → out of play (colours differ)") || st.Spent != 1 || st.Phase != improv.PhaseGifts {
		t.Fatalf("round 3's reveal (phase %s):\n%s", st.Phase, said)
	}
	// The gifts: Kit has no card of his own, so a random one.
	hand = h.handOf(bea)
	if !hasMenu(hand, "give") || hasMenu(hand, "to") || !strings.Contains(hand.Text(), "destroyed") {
		t.Fatalf("destroyed Kit's gift:\n%s\n%s", hand.Text(), hand.ButtonsLine())
	}
	h.choose(bea, "give", "random card from the deck")
	st = improvState(t, h)
	if g := st.C.Gifts; len(g) != 1 || g[0].From != kit || g[0].To != jason || !g[0].Deck || len(st.C.Sides[jason].Got) != 1 {
		t.Fatalf("Kit's gift: %+v", st.C.Gifts)
	}
	for _, u := range []*fakediscord.User{bea, dee, gm} {
		h.press(u, "Done giving", "")
	}
	said = saidSince(h, seen)
	gift := improvState(t, h).C.Sides[jason].Got[0]
	for _, want := range []string{"**Riso** beats **Kit** (out of the fight)", "Kit gave a random card from the deck (" + gift.String() + ") to Jason", "**Riso** beats **Diana** (out of the fight)",
		"**Jason** beats **Riso** (victory cards)", "• **Kit**: — — destroyed", "• **Diana**: — — eliminated"} {
		if !strings.Contains(said, want) {
			t.Errorf("the final victory does not say %q:\n%s", want, said)
		}
	}
	narrate(t, h, everyone, nil)
	if st := improvState(t, h); st.C != nil || tokensInPlay(st) != 12 {
		t.Fatalf("after the conflict: open %v, %d tokens", st.C != nil, tokensInPlay(st))
	}
}

// untilTurn presses Done narrating for each narrator before u.
func untilTurn(t *testing.T, h *harness, everyone []*fakediscord.User, u *fakediscord.User) {
	t.Helper()
	for step := 0; userAt(h, h.record().Waiting[0], everyone) != u; step++ {
		if step > 8 || improvState(t, h).Phase != improv.PhaseNarrate {
			t.Fatalf("%s's turn to narrate never came", u.Name)
		}
		h.press(userAt(h, h.record().Waiting[0], everyone), "Done narrating", "")
	}
}

// Mooks with a stake: a protagonist whose total beat the group's card
// this round takes one out while narrating, once a round, never the last
// one; not the GM, not out of turn, not with a lower total, not in the
// final narration. A restart between two take-outs loses neither.
func TestImprovExtAuditMooksWithAStake(t *testing.T) {
	h := newHarness(t)
	gm, players := extCampaign(h, nil, "Bea", "Cy")
	bea, cy := players[0], players[1]
	everyone := []*fakediscord.User{gm, bea, cy}
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)")
	h.choose(gm, "rounds", "3 rounds")
	h.press(gm, "Add a GM stake", "Riso: get away with the money")
	refused(t, h, "25 mooks", "2 to 20 of them", func() *fakediscord.Reply { return submitIn(h, gm, "Add a GM stake", "Goons (25 mooks): cover Riso") })
	h.press(gm, "Add a GM stake", "Goons (3 mooks): cover Riso")
	h.press(gm, "Stakes declared", "")
	h.press(bea, "Write your stake", "Kit stops Riso")
	h.choose(bea, "vs", "Oppose Riso")
	h.press(cy, "Write your stake", "Diana holds off the goons")
	h.choose(cy, "vs", "Oppose Goons")
	h.press(gm, "Start the card play", "")
	if tbl := h.table().Text(); !strings.Contains(tbl, "**Goons** (3 mooks): cover Riso") {
		t.Errorf("the table does not count the mooks:\n%s", tbl)
	}
	rigDeal(t, h, map[int][]string{0: {"5S", "6S", "3S", "4S", "2D"}, 1: {"KH", "QH", "9C", "9D"}, 2: {"2H", "JH", "8C", "8D"}}, []string{"7S"})
	mooks := func() int { return improvState(t, h).C.Sides[1].Mooks }
	for _, p := range [][2]string{{"5S", "6S"}} {
		playCard(t, h, gm, mustCard(t, p[0]))
		playCard(t, h, gm, mustCard(t, p[1]))
	}
	playCard(t, h, bea, mustCard(t, "KH"))
	playCard(t, h, cy, mustCard(t, "2H"))
	readyAll(t, h, everyone)
	// Round 1, Diana first (2 against the Goons' 6).
	if w := h.record().Waiting; !slices.Equal(w, []int{2}) {
		t.Fatalf("round 1's narration begins with %v", w)
	}
	if h.handOf(cy).ButtonID("Take out one of the Goons") != "" {
		t.Error("Diana, beaten by the Goons, is offered a mook")
	}
	refused(t, h, "Diana's mook with a lower total", "has to beat the Goons' card", func() *fakediscord.Reply { return forgeOn(h, cy, "move", "mook=1") })
	refused(t, h, "Kit's mook out of turn", "while you narrate", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "mook=1") })
	h.press(cy, "Done narrating", "")
	refused(t, h, "the GM's mook", "Only a protagonist", func() *fakediscord.Reply { return forgeOn(h, gm, "move", "mook=1") })
	untilTurn(t, h, everyone, bea)
	refused(t, h, "a mook of Riso", "isn't a group of mooks", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "mook=0") })
	hand := h.handOf(bea)
	out := buttonOn(t, hand, "Take out one of the Goons")
	bea.Click(hand, out)
	if r := bea.Click(hand, out); r == nil || !strings.Contains(r.Content, stale) {
		t.Fatalf("the take-out pressed twice answered %+v", r)
	}
	if mooks() != 2 || !strings.Contains(h.table().Text(), "Kit takes out one of the Goons (2 left)") {
		t.Fatalf("after Kit's take-out: %d mooks\n%s", mooks(), h.table().Text())
	}
	refused(t, h, "Kit's second mook", "already taken out a mook this round", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "mook=1") })
	h.press(bea, "Done narrating", "")

	// Round 2: Diana (J) and Kit (Q) both beat the Goons' 4.
	playCard(t, h, gm, mustCard(t, "3S"))
	playCard(t, h, gm, mustCard(t, "4S"))
	playCard(t, h, bea, mustCard(t, "QH"))
	playCard(t, h, cy, mustCard(t, "JH"))
	readyAll(t, h, everyone)
	untilTurn(t, h, everyone, cy)
	h.press(cy, "Take out one of the Goons", "")
	h.restart()
	if mooks() != 1 {
		t.Fatalf("after Diana's take-out and a restart: %d mooks", mooks())
	}
	h.press(cy, "Done narrating", "")
	untilTurn(t, h, everyone, bea)
	if h.handOf(bea).ButtonID("Take out one of the Goons") != "" {
		t.Error("Kit is offered the last of the Goons")
	}
	refused(t, h, "the last mook", "The last of the Goons stays standing", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "mook=1") })
	h.press(bea, "Done narrating", "")

	// Round 3, the last: no round narration, so no mooks.
	playCard(t, h, gm, mustCard(t, "2D"))
	h.choose(gm, "play", "Top of the deck")
	playCard(t, h, bea, mustCard(t, "9C"))
	playCard(t, h, cy, mustCard(t, "8C"))
	readyAll(t, h, everyone)
	// Diana (J♥ 8♣) gives her 8♣ to Kit: one card each against the
	// Goons' 6♠, and her Jack wins it.
	h.choose(cy, "to", "Give to Kit")
	h.choose(cy, "give", "8♣")
	seen := posted(h)
	for improvState(t, h).Phase == improv.PhaseGifts {
		h.press(userAt(h, h.record().Waiting[0], everyone), "Done giving", "")
	}
	if st := improvState(t, h); st.Phase != improv.PhaseNarrate || !st.C.Final {
		t.Fatalf("no final narration: %s", st.Phase)
	}
	said := saidSince(h, seen)
	for _, want := range []string{"• **Diana**: J♥\n", "• **Goons**: 6♠\n", "**Diana** beats **Goons** (victory cards)", "**Kit** beats **Riso** (victory cards)"} {
		if !strings.Contains(said, want) {
			t.Errorf("the final victory does not say %q:\n%s", want, said)
		}
	}
	untilTurn(t, h, everyone, bea)
	refused(t, h, "a mook in the final narration", "during the round narrations", func() *fakediscord.Reply { return forgeOn(h, bea, "move", "mook=1") })
	narrate(t, h, everyone, nil)
	if improvState(t, h).C != nil {
		t.Fatal("the conflict did not end")
	}
}

// Players leave an extended conflict at awkward moments. Kit's player
// leaves while choosing after losing the Hand of Fate: Kit stays in,
// harmed, is skipped in the narration and plays on from the deck. Diana's
// player leaves during the gifts after giving a card: the gift stands and
// the gifts don't wait for her. Meanwhile players can't use the GM's
// hurry, a blank help line is refused, and hands kept over a restart
// still work.
func TestImprovExtAuditPlayersLeaveMidConflict(t *testing.T) {
	h := newHarness(t)
	gm, players := extCampaign(h, []fakediscord.Option{fakediscord.Bool("lethal_fate", true)}, "Bea", "Cy", "Dee")
	bea, cy, dee := players[0], players[1], players[2]
	everyone := []*fakediscord.User{gm, bea, cy, dee}
	h.press(dee, "Add or change a talent", "Medic 2")
	openRiso(h, gm, players, "2 rounds", "Riso: gun down Vinny")
	rigDeal(t, h, map[int][]string{
		0: {"9S", "2C", "4D", "5D", "6D", "7C"},
		1: {"9H", "8C", "8D", "8H"},
		2: {"KH", "QD", "3H", "3S"},
		3: {"3C", "AD", "5C", "6C"},
	}, []string{"2H", "AC", "5H"})
	for u, code := range map[*fakediscord.User]string{gm: "9S", bea: "9H", cy: "KH", dee: "3C"} {
		playCard(t, h, u, mustCard(t, code))
	}
	readyAll(t, h, everyone)
	st := improvState(t, h)
	if st.Phase != improv.PhaseFate || !slices.Equal(st.C.FateWait, []int{1}) {
		t.Fatalf("no Hand of Fate for Kit: %s %v", st.Phase, st.C.FateWait)
	}
	refused(t, h, "Dee's hurry", "Only the GM (Ann)", func() *fakediscord.Reply { return forgeOn(h, dee, "move", "hurry") })
	refused(t, h, "Dee choosing for Kit", "no choice to make", func() *fakediscord.Reply { return forgeOn(h, dee, "move", "fateout") })
	beaHand := h.handOf(bea)
	seen := posted(h)
	if r := bea.Command(h.ch, "game", fakediscord.Sub("leave")); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "left") {
		t.Fatalf("Bea's leave answered %+v", r)
	}
	said := saidSince(h, seen)
	st = improvState(t, h)
	kit := sideNamed(t, st, "Kit")
	if sd := st.C.Sides[kit]; !sd.Harmed || sd.Out != "" || st.Phase != improv.PhaseNarrate || !strings.Contains(said, "🩹 **Kit** stays in the fight") {
		t.Fatalf("after Bea left during her choice: %+v, phase %s\n%s", sd, st.Phase, said)
	}
	if r := bea.Click(beaHand, buttonOn(t, beaHand, "Kit stays in")); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "not playing") {
		t.Errorf("Bea's choice after leaving answered %+v", r)
	}
	if _, order, _ := strings.Cut(said, "Round 1 narration"); strings.Contains(order, "(Bea)") {
		t.Errorf("the narration order names Bea, who left:\n%s", said)
	}
	h.restart()
	for improvState(t, h).Phase == improv.PhaseNarrate {
		u := userAt(h, h.record().Waiting[0], everyone)
		if u == bea {
			t.Fatal("Bea, who left, is due to narrate")
		}
		h.press(u, "Done narrating", "")
	}

	// Round 2, the last: Kit's card comes from the deck once the rest
	// are down; Jason helps Diana with his talent.
	playCard(t, h, gm, mustCard(t, "2C"))
	playCard(t, h, cy, mustCard(t, "QD"))
	playCard(t, h, dee, mustCard(t, "AD"))
	st = improvState(t, h)
	if sd := st.C.Sides[kit]; st.Phase != improv.PhaseBonus || sd.Card == nil || *sd.Card != mustCard(t, "5H") || !sd.Deck {
		t.Fatalf("Kit's card after Bea left: %+v (phase %s)", sd, st.Phase)
	}
	h.choose(dee, "aim", "Diana")
	h.choose(dee, "usetal", "Medic")
	refused(t, h, "a blank help line", "The line is empty", func() *fakediscord.Reply { return submitIn(h, dee, "Say how Jason helps", "   ") })
	h.press(dee, "Say how Jason helps", "Jason covers Diana")
	if st := improvState(t, h); len(st.C.Bonuses) != 1 || st.C.Bonuses[0].Help != "Jason covers Diana" {
		t.Fatalf("Jason's help: %+v", st.C.Bonuses)
	}
	said = readyAll(t, h, everyone)
	if !strings.Contains(said, "Diana** — Q♦ + 1 talent = **15**") || !strings.Contains(said, "Jason checks off Medic") {
		t.Errorf("round 2's reveal:\n%s", said)
	}
	st = improvState(t, h)
	jason := sideNamed(t, st, "Jason")
	if st.Phase != improv.PhaseGifts || slices.Contains(h.record().Waiting, 1) {
		t.Fatalf("the gifts: phase %s, waiting %v", st.Phase, h.record().Waiting)
	}
	refused(t, h, "Cy's hurry", "Only the GM (Ann)", func() *fakediscord.Reply { return forgeOn(h, cy, "move", "hurry") })
	h.choose(cy, "to", "Give to Jason")
	h.choose(cy, "give", "K♥")
	seen = posted(h)
	cy.Command(h.ch, "game", fakediscord.Sub("leave"))
	st = improvState(t, h)
	if len(st.C.Gifts) != 1 || !slices.Contains(st.C.Sides[jason].Got, mustCard(t, "KH")) || slices.Contains(h.record().Waiting, 2) {
		t.Fatalf("after Cy left during the gifts: gifts %+v, waiting %v", st.C.Gifts, h.record().Waiting)
	}
	h.press(dee, "Done giving", "")
	h.press(gm, "Done giving", "")
	said = saidSince(h, seen)
	st = improvState(t, h)
	if !st.C.Final || !strings.Contains(said, "• **Jason**: A♦ K♥") || !strings.Contains(said, "• **Diana**: Q♦") {
		t.Fatalf("the final victory:\n%s", said)
	}
	if _, order, _ := strings.Cut(said, "Final narration"); strings.Contains(order, "(Bea)") || strings.Contains(order, "(Cy)") {
		t.Errorf("the final narration names players who left:\n%s", said)
	}
	narrate(t, h, everyone, nil)
	st = improvState(t, h)
	if st.C != nil || len(st.Hands[0]) != 4 || tokensInPlay(st) != 12 {
		t.Fatalf("after the conflict: open %v, GM hand %d, %d tokens", st.C != nil, len(st.Hands[0]), tokensInPlay(st))
	}
}

// openRiso opens a conflict of Bea, Cy and Dee against the GM's Riso over
// rounds ("3 rounds"), with the GM's stakes; every player saves Vinny.
func openRiso(h *harness, gm *fakediscord.User, players []*fakediscord.User, rounds string, gmStakes ...string) {
	h.press(gm, "Open a conflict", "")
	h.choose(gm, "who", "(Bea)", "(Cy)", "(Dee)")
	h.choose(gm, "rounds", rounds)
	for _, stake := range gmStakes {
		h.press(gm, "Add a GM stake", stake)
	}
	h.press(gm, "Stakes declared", "")
	improvStakes(h, players, "saves Vinny", "Riso")
	h.press(gm, "Start the card play", "")
}
