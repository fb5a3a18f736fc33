package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/duel"
)

// A Dealt! player away with a long hand, a reserve card and a play that
// beats the trick: at the deadline the bot plays, once, and the reserve
// card stays theirs (the hand's first button was "Take reserve…").
func TestAbsentAuditDealtPlaysRatherThanSpendReserve(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	var lead, seat int
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		lead = s.Turn
		seat = (lead + 1) % len(s.Players)
		p := &s.Players[seat]
		for len(p.Hand) < 30 && len(s.Pile.Draw) > 0 {
			p.Hand = append(p.Hand, take(s.Pile.Draw[len(s.Pile.Draw)-1].Code()))
		}
		if len(p.Reserve) == 0 {
			p.Reserve = append(p.Reserve, take(p.Hand[len(p.Hand)-1].Code()))
		}
	})
	// The leader leads with the first play of their menu.
	hand := openHand(t, h, users[lead])
	menu := hand.Selects()[0]
	users[lead].Select(hand, menu.CustomID, menu.Options[0].Value)
	st := dealtState(t, h)
	if st.Turn != seat || len(st.Trick) != 1 {
		t.Fatalf("after the lead: turn %d, trick %v", st.Turn, st.Trick)
	}
	if !strings.Contains(openHand(t, h, users[seat]).ButtonsLine(), ":"+dealt.VerbTake+"=") {
		t.Fatalf("the long hand has no Take reserve button: the test proves nothing: %d cards, %q", len(st.Players[seat].Hand), openHand(t, h, users[seat]).ButtonsLine())
	}
	reserve, cards := len(st.Players[seat].Reserve), len(st.Players[seat].Hand)
	h.tick(10*time.Minute + time.Second)
	st = dealtState(t, h)
	if got := botMoves(t, h); got[seat] != 1 || len(got) != 1 {
		t.Fatalf("bot moves %v; want one for seat %d:\n%s", got, seat, h.table().Text())
	}
	p := st.Players[seat]
	if len(p.Reserve) != reserve || len(p.Hand) >= cards || !strings.Contains(h.table().Text(), awayLine) {
		t.Fatalf("the bot's move for the away player: reserve %d (was %d), hand %d (was %d):\n%s",
			len(p.Reserve), reserve, len(p.Hand), cards, h.table().Text())
	}
}

// A Card Duel player away with picks over the hand limit: the first
// deadline drops one pick (not Clear, the only enabled button, which
// threw them all away), the next locks the rest in; one move each.
func TestAbsentAuditDuelOverLimitPicksAreTrimmed(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	var picks []games.Card
	h.rigged = true
	h.rigStored(duel.Rules, func(g games.Game) {
		s := g.(*duel.State)
		p := &s.Players[0]
		for _, c := range p.Pool {
			if len(picks) > 2 && totalOf(picks) > s.HandLimit {
				break
			}
			picks = append(picks, c)
		}
		p.Picks = slices.Clone(picks)
	})
	r := bea.Click(h.table(), h.table().ButtonID("My hand"))
	bea.Click(r.Message, r.Message.ButtonID("Lock in hand (0/30)"))
	state := func() *duel.State {
		g, err := duel.Rules.Load(h.record().State)
		if err != nil {
			t.Fatal(err)
		}
		return g.(*duel.State)
	}
	if !state().Players[1].Locked {
		t.Fatal("Bea did not lock in: the test proves nothing")
	}
	h.tick(10*time.Minute + time.Second)
	p := state().Players[0]
	if p.Locked || len(p.Picks) != len(picks)-1 || totalOf(p.Picks) > state().HandLimit || botMoves(t, h)[0] != 1 {
		t.Fatalf("first deadline: picks %v → %v, locked %v, bot moves %v", picks, p.Picks, p.Locked, botMoves(t, h))
	}
	kept := p.Picks
	h.tick(10*time.Minute + time.Second)
	p = state().Players[0]
	if !p.Locked || len(p.Hand) != len(kept) || botMoves(t, h)[0] != 2 {
		t.Fatalf("second deadline: locked %v, hand %v (picks were %v), bot moves %v", p.Locked, p.Hand, kept, botMoves(t, h))
	}
}

func totalOf(cs []games.Card) int {
	n := 0
	for _, c := range cs {
		n += c.PipValue()
	}
	return n
}
