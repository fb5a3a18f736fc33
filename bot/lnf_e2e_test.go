package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/lnf"
)

func lnfState(t *testing.T, h *harness) *lnf.State {
	t.Helper()
	g, err := lnf.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*lnf.State)
}

// Four players finish a game of "Life is not fair, but…" through Discord:
// the exchange, an appeal whose vote closes after a restart, wild cards
// said right and said wrong, and the scores at the end.
func TestLifeIsNotFairPlayedToTheEnd(t *testing.T) {
	h := newHarness(t)
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")}
	ann, bea, cy, dee := users[0], users[1], users[2], users[3]
	ann.Command(h.ch, "game", newGame("lnf"))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	ann.Click(h.table(), h.table().ButtonID("Start"))
	// The exchange: Bea swaps a card, the others keep their hands.
	for n, u := range users {
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		label := "Keep my hand"
		if n == 1 {
			for _, b := range hand.Buttons() {
				if strings.HasPrefix(b.Label, "Swap") {
					label = b.Label
					break
				}
			}
		}
		if r := u.Click(hand, hand.ButtonID(label)); r == nil || r.Type != 7 {
			t.Fatalf("%s's %q answered %+v", u.Name, label, r)
		}
	}

	if text := h.table().Text(); !strings.Contains(text, "body") && !strings.Contains(text, "money") && !strings.Contains(text, "mind") && !strings.Contains(text, "relationships") {
		t.Fatalf("the table does not name the top card's area of life:\n%s", text)
	}

	// Cy is rude; Ann appeals; Bea votes; the bot is down when the vote's
	// minute runs out, and closes it when it is back.
	cy.Say(h.ch, "You all play like toddlers.")
	mustRefuse(t, cy.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy)), "yourself")
	before := len(lnfState(t, h).Hands[2])
	if r := ann.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy)); r == nil || !r.Ephemeral {
		t.Fatalf("the appeal answered %+v", r)
	}
	var appeal *fakediscord.Message
	for _, m := range h.fake.Messages(h.ch) {
		if m.ButtonID("Rude — draw two") != "" {
			appeal = m
		}
	}
	if appeal == nil {
		t.Fatal("no appeal message with vote buttons")
	}
	mustRefuse(t, cy.Click(appeal, appeal.ButtonID("Fair enough")), "")
	if r := bea.Click(appeal, appeal.ButtonID("Rude — draw two")); r == nil || r.Type == 0 {
		t.Fatalf("Bea's vote answered %+v", r)
	}
	// A double click of the same vote changes nothing.
	v := h.record().Version
	appeal = h.fake.Message(h.ch, appeal.ID)
	if r := bea.Click(appeal, appeal.ButtonID("Rude — draw two")); r == nil || r.Type == 0 || h.record().Version != v {
		t.Fatalf("Bea's second vote answered %+v; version %d, was %d", r, h.record().Version, v)
	}
	h.stop()
	h.advance(2 * time.Minute)
	h.start()
	h.bot.FireDue()
	h.bot.Idle()
	if after := len(lnfState(t, h).Hands[2]); after != before+2 {
		t.Fatalf("Cy holds %d cards after losing the appeal; want %d", after, before+2)
	}
	if m := h.fake.Message(h.ch, appeal.ID); len(m.Buttons()) != 0 {
		t.Fatalf("the closed appeal still has buttons: %s", m.Text())
	}

	// Play on, and play further games (new seeds) until two wild cards
	// were offered: one said right, one said wrong.
	wilds := 0
	playLNF(t, h, users, &wilds)
	games := 1
	for ; wilds < 2 && games < 8; games++ {
		ann.Command(h.ch, "game", newGame("lnf"))
		for _, u := range users[1:] {
			u.Click(h.table(), h.table().ButtonID("Join"))
		}
		ann.Click(h.table(), h.table().ButtonID("Start"))
		for _, u := range users {
			hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
			u.Click(hand, hand.ButtonID("Keep my hand"))
		}
		playLNF(t, h, users, &wilds)
	}
	if wilds < 2 {
		t.Fatalf("%d games offered %d wild cards", games, wilds)
	}
	var channel strings.Builder
	for _, m := range h.fake.Messages(h.ch) {
		channel.WriteString(m.Content + "\n")
	}
	text := channel.String()
	if !strings.Contains(text, "🗣️") {
		t.Fatalf("no wild card's line was posted:\n%s", text)
	}
	if !strings.Contains(text, "dead") {
		t.Fatalf("a wrong line did not make the card dead:\n%s", text)
	}
	st, _ := h.db.Stats(h.fake.GuildID())
	for _, u := range users {
		if st[u.ID] == nil || st[u.ID].Games["lnf"].Played != games {
			t.Fatalf("%s's stats: %+v", u.Name, st[u.ID])
		}
	}
	_ = dee
}

// playLNF plays the channel's game to its end: whoever is to move opens
// their hand and plays what it offers, a wild card whenever one is offered
// (its line said right the first time, wrong after).
func playLNF(t *testing.T, h *harness, users []*fakediscord.User, wilds *int) {
	t.Helper()
	for moves := 0; ; moves++ {
		if moves > 600 {
			t.Fatal("the game did not end")
		}
		rec, err := h.db.Game(h.ch)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return
		}
		if len(rec.Waiting) != 1 {
			t.Fatalf("waiting for %v", rec.Waiting)
		}
		u := users[rec.Waiting[0]]
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		var id string
		for _, b := range hand.Buttons() {
			if b.Disabled {
				continue
			}
			if strings.HasPrefix(b.CustomID, "ask:") {
				id = b.CustomID
				break
			}
			if id == "" {
				id = b.CustomID
			}
		}
		if id == "" {
			t.Fatalf("%s has nothing to click:\n%s", u.Name, hand.Text())
		}
		r := u.Click(hand, id)
		if r != nil && r.Modal != nil {
			line := "Life is not fair, but… no."
			if *wilds == 0 {
				label := r.Modal.Inputs[0].Label // "Say the line of Draw Two"
				line = "life is NOT fair, but " + strings.TrimPrefix(label, "Say the line of ") + "!"
			}
			*wilds++
			r = u.Submit(r.Modal, map[string]string{"text": line})
		}
		if r == nil || r.Type != 7 {
			t.Fatalf("%s's move answered %+v", u.Name, r)
		}
	}
}

// A player away while their only legal move is a wild card, which asks for
// its line: the bot plays it for them without one (dead, as the rules say
// of a card played without its line), and the game goes on rather than
// wait a week for them.
func TestAwayPlayerWhoseOnlyMoveIsAWildCard(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.rigged = true })
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("lnf"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	for _, u := range []*fakediscord.User{ann, bea} {
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		u.Click(hand, hand.ButtonID("Keep my hand"))
	}
	// Rigged while the bot is down: the top card is a red 2, and the player
	// to move holds Draw Two and a green 9, so the wild card is the only play.
	var turn int
	h.rigStored(lnf.Rules, func(g games.Game) {
		s := g.(*lnf.State)
		take := func(c lnf.Card) lnf.Card { // from the deck, so every card stays accounted for
			i := slices.Index(s.Pile.Draw, c)
			if i < 0 {
				t.Fatalf("no %s in the deck", c.Code())
			}
			s.Pile.Draw = slices.Delete(s.Pile.Draw, i, i+1)
			return c
		}
		turn = s.Turn
		s.Pile.Draw = append(s.Pile.Draw, s.Hands[turn]...)
		s.Pile.Discard = append(s.Pile.Discard, take(lnfCard(t, "R2")))
		s.Hands[turn] = []lnf.Card{take(lnfCard(t, "G9")), take(lnf.DrawTwo)} // in the hand's order
	})
	away := []*fakediscord.User{ann, bea}[turn]
	version := h.record().Version
	h.tick(11 * time.Minute)
	st := lnfState(t, h)
	if h.record().Version == version || st.Turn == turn || len(st.Hands[turn]) != 1 || st.Hands[turn][0] != lnfCard(t, "G9") {
		t.Fatalf("after eleven minutes: turn %d, %s holds %v\n%s", st.Turn, away.Name, st.Hands[turn], h.table().Text())
	}
	if text := h.table().Text(); !strings.Contains(text, away.Name+" was away too long") {
		t.Fatalf("the table does not say the bot moved for %s:\n%s", away.Name, text)
	}
	if other := len(st.Hands[1-turn]); other != 4 {
		t.Errorf("the wild card played without its line made the next player draw: %d cards", other)
	}
}
