package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/lnf"
	"github.com/cardtable/cardbot/store"
)

// lnfAuditGame starts a game of n players (Ann, Bea, Cy, Dee…) where
// everyone keeps their hand.
func lnfAuditGame(t *testing.T, h *harness, n int) []*fakediscord.User {
	t.Helper()
	names := []string{"Ann", "Bea", "Cy", "Dee"}
	var users []*fakediscord.User
	for _, name := range names[:n] {
		users = append(users, h.fake.AddUser(name))
	}
	users[0].Command(h.ch, "game", newGame("lnf"))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	for _, u := range users {
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		u.Click(hand, hand.ButtonID("Keep my hand"))
	}
	return users
}

func lnfCard(t *testing.T, code string) lnf.Card {
	t.Helper()
	c, err := lnf.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rigLnf changes the stored game while the bot is down. The hands named
// are replaced (old cards go back to the deck), and top is put face up;
// every card stays accounted for.
func rigLnf(t *testing.T, h *harness, top string, hands map[int][]string, turn int) {
	t.Helper()
	h.rigged = true
	h.rigStored(lnf.Rules, func(g games.Game) {
		s := g.(*lnf.State)
		take := func(c lnf.Card) lnf.Card {
			if i := slices.Index(s.Pile.Draw, c); i >= 0 {
				s.Pile.Draw = slices.Delete(s.Pile.Draw, i, i+1)
				return c
			}
			if i := slices.Index(s.Pile.Discard, c); i >= 0 {
				s.Pile.Discard = slices.Delete(s.Pile.Discard, i, i+1)
				return c
			}
			t.Fatalf("no %s in the piles", c.Code())
			return c
		}
		for seat := range hands {
			s.Pile.Draw = append(s.Pile.Draw, s.Hands[seat]...)
			s.Hands[seat] = nil
		}
		if top != "" {
			s.Pile.Discard = append(s.Pile.Discard, take(lnfCard(t, top)))
		}
		for seat, codes := range hands {
			for _, code := range codes {
				s.Hands[seat] = append(s.Hands[seat], take(lnfCard(t, code)))
			}
			slices.SortFunc(s.Hands[seat], func(a, b lnf.Card) int { // the game's order: colour, number, Game Over last
				if a.Color != b.Color {
					return int(a.Color) - int(b.Color)
				}
				if a.Num != b.Num {
					return a.Num - b.Num
				}
				if a.GameOver == b.GameOver {
					return 0
				} else if a.GameOver {
					return 1
				}
				return -1
			})
		}
		s.Turn, s.Drawn = turn, nil
	})
}

// wildButton is the "say the line" button of a hand, or "".
func wildButton(m *fakediscord.Message) string {
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, "ask:") && !b.Disabled {
			return b.CustomID
		}
	}
	return ""
}

func channelText(h *harness) string {
	var b strings.Builder
	for _, m := range h.fake.Messages(h.ch) {
		b.WriteString(m.Text() + "\n")
	}
	return b.String()
}

// The line said right plays Draw Two: the next player draws two and loses
// their turn; the same modal opened twice and submitted twice plays once.
func TestLnfAuditWildLineRightAndDoubleSubmit(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "R2", map[int][]string{0: {"G9", "W2"}, 1: {"B5", "B6", "B7"}}, 0)
	ann, bea := users[0], users[1]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	id := wildButton(hand)
	if id == "" {
		t.Fatalf("no wild card button:\n%s", hand.Text())
	}
	r1 := ann.Click(hand, id)
	r2 := ann.Click(hand, id)
	if r1 == nil || r1.Modal == nil || r2 == nil || r2.Modal == nil {
		t.Fatalf("the wild card button answered %+v / %+v", r1, r2)
	}
	if r := ann.Submit(r1.Modal, map[string]string{"text": "  life is NOT fair, but... Draw 2!! "}); r == nil || r.Type != 7 {
		t.Fatalf("the line answered %+v", r)
	}
	s := lnfState(t, h)
	if len(s.Hands[1]) != 5 || s.Turn != 2 || len(s.Hands[0]) != 1 {
		t.Fatalf("after Draw Two: Bea holds %d, turn %d, Ann holds %d", len(s.Hands[1]), s.Turn, len(s.Hands[0]))
	}
	snap := h.snapshot()
	r := ann.Submit(r2.Modal, map[string]string{"text": "Life is not fair, but draw two"})
	if r == nil || h.snapshot() != snap {
		t.Fatalf("the second submission answered %+v and changed the game", r)
	}
	if r.Type == 4 && !r.Ephemeral {
		t.Fatalf("the second submission was answered in public: %q", r.Content)
	}
	if text := channelText(h); !strings.Contains(text, "🗣️") || !strings.Contains(text, "Bea") || !strings.Contains(text, "draws 2") {
		t.Fatalf("the channel doesn't tell Draw Two:\n%s", text)
	}
	// Bea's hand shows her five cards and that it is not her turn.
	bh := bea.Click(h.table(), h.table().ButtonID("My hand")).Message
	if !strings.Contains(bh.Text(), "(5)") || !strings.Contains(bh.Text(), "Cy") {
		t.Fatalf("Bea's hand after drawing two:\n%s", bh.Text())
	}
	if !strings.Contains(h.table().Text(), "Bea** — 5 cards") {
		t.Fatalf("table:\n%s", h.table().Text())
	}
}

// A wrong line makes the card dead: nobody draws, the top card stays, the
// turn passes.
func TestLnfAuditWildLineWrongIsDead(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "R2", map[int][]string{0: {"G9", "W2"}, 1: {"B5", "B6", "R7"}}, 0)
	ann := users[0]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	r := ann.Click(hand, wildButton(hand))
	long := "Life is not fair, but draw three " + strings.Repeat("x", 100-len("Life is not fair, but draw three "))
	if r = ann.Submit(r.Modal, map[string]string{"text": long}); r == nil || r.Type != 7 {
		t.Fatalf("the wrong line answered %+v", r)
	}
	s := lnfState(t, h)
	top := s.Pile.Discard[len(s.Pile.Discard)-1]
	if len(s.Hands[1]) != 3 || s.Turn != 1 || top != lnfCard(t, "R2") || len(s.Hands[0]) != 1 {
		t.Fatalf("after a dead card: Bea holds %d, turn %d, top %s", len(s.Hands[1]), s.Turn, top.Code())
	}
	if text := channelText(h); !strings.Contains(text, "dead") {
		t.Fatalf("the channel doesn't say the card is dead:\n%s", text)
	}
}

// A modal opened before a restart still plays after it, and one opened
// before another player's appeal still counts.
func TestLnfAuditWildLineAfterRestartAndOthersMove(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "R2", map[int][]string{0: {"G9", "W2"}, 2: {"B5", "B6", "B7"}}, 0)
	ann, bea, cy := users[0], users[1], users[2]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	r := ann.Click(hand, wildButton(hand))
	h.restart()
	bea.Say(h.ch, "meh")
	if a := cy.Command(h.ch, "appeal", fakediscord.UserOpt("player", bea)); a == nil || !a.Ephemeral {
		t.Fatalf("Cy's appeal answered %+v", a)
	}
	if r = ann.Submit(r.Modal, map[string]string{"text": "Life is not fair, but draw two"}); r == nil || r.Type != 7 {
		t.Fatalf("the line after a restart answered %+v", r)
	}
	if s := lnfState(t, h); len(s.Hands[1]) == 0 || s.Turn != 2 || len(s.Hands[0]) != 1 {
		t.Fatalf("Draw Two after a restart: turn %d, Ann holds %d", s.Turn, len(s.Hands[0]))
	}
}

// A player who votes on an appeal while their wild card's text box is
// open still gets their card played: the vote did not touch their hand.
func TestLnfAuditWildLineAfterOwnVote(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "R2", map[int][]string{0: {"G9", "W2"}}, 0)
	ann, bea, cy := users[0], users[1], users[2]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	r := ann.Click(hand, wildButton(hand))
	bea.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy))
	appeal := appealMessage(t, h)
	if v := ann.Click(appeal, appeal.ButtonID("Fair enough")); v == nil || !v.Ephemeral {
		t.Fatalf("Ann's vote answered %+v", v)
	}
	if r = ann.Submit(r.Modal, map[string]string{"text": "Life is not fair, but draw two"}); r == nil {
		t.Fatal("no answer")
	}
	if s := lnfState(t, h); len(s.Hands[0]) != 1 {
		t.Errorf("Ann's line after her vote was not played (reply %q); she holds %d", r.Content+r.Message.Text(), len(s.Hands[0]))
	}
}

func appealMessage(t *testing.T, h *harness) *fakediscord.Message {
	t.Helper()
	var appeal *fakediscord.Message
	for _, m := range h.fake.Messages(h.ch) {
		if m.ButtonID("Rude — draw two") != "" {
			appeal = m
		}
	}
	if appeal == nil {
		t.Fatal("no appeal message with vote buttons")
	}
	return appeal
}

// The appeal: only the other players vote, a vote can change, a second
// appeal against the same player waits, a tie costs nothing, and a
// non-player can't vote.
func TestLnfAuditAppealVotes(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 4)
	ann, bea, cy, dee := users[0], users[1], users[2], users[3]
	eve := h.fake.AddUser("Eve")
	mustRefuse(t, eve.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy)), "Only players")
	mustRefuse(t, ann.Command(h.ch, "appeal", fakediscord.UserOpt("player", eve)), "player in this game")
	ann.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy))
	mustRefuse(t, bea.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy)), "already an open appeal")
	appeal := appealMessage(t, h)
	mustRefuse(t, ann.Click(appeal, appeal.ButtonID("Rude — draw two")), "You made this appeal")
	mustRefuse(t, cy.Click(appeal, appeal.ButtonID("Fair enough")), "about you")
	mustRefuse(t, eve.Click(appeal, appeal.ButtonID("Fair enough")), "")
	before := len(lnfState(t, h).Hands[2])
	bea.Click(appeal, appeal.ButtonID("Rude — draw two"))
	appeal = h.fake.Message(h.ch, appeal.ID)
	if !strings.Contains(appeal.Text(), "1 rude, 0 fair enough (1 of 2 voted)") {
		t.Fatalf("appeal after one vote:\n%s", appeal.Text())
	}
	bea.Click(appeal, appeal.ButtonID("Fair enough")) // changes her mind
	appeal = h.fake.Message(h.ch, appeal.ID)
	if !strings.Contains(appeal.Text(), "0 rude, 1 fair enough (1 of 2 voted)") {
		t.Fatalf("appeal after a changed vote:\n%s", appeal.Text())
	}
	dee.Click(appeal, appeal.ButtonID("Rude — draw two")) // 1–1: closes at once, a tie
	appeal = h.fake.Message(h.ch, appeal.ID)
	if len(appeal.Buttons()) != 0 || len(lnfState(t, h).Hands[2]) != before {
		t.Fatalf("a tied appeal: buttons %v, Cy holds %d (was %d)\n%s", appeal.Buttons(), len(lnfState(t, h).Hands[2]), before, appeal.Text())
	}
	// Now a second appeal against Cy may be made, and a one-sided vote closes
	// when its minute is up.
	if r := bea.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy)); r == nil || !r.Ephemeral || strings.Contains(r.Content, "already") {
		t.Fatalf("the second appeal answered %+v", r)
	}
	second := appealMessage(t, h)
	if second.ID == appeal.ID {
		t.Fatal("the second appeal reused the first's message")
	}
	ann.Click(second, second.ButtonID("Rude — draw two"))
	h.tick(61 * time.Second)
	if got := len(lnfState(t, h).Hands[2]); got != before+2 {
		t.Fatalf("Cy holds %d after losing the second appeal; want %d", got, before+2)
	}
	if m := h.fake.Message(h.ch, second.ID); len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "rude, 1–0") {
		t.Fatalf("the closed second appeal:\n%s", m.Text())
	}
	verdicts := 0
	for _, m := range h.fake.Messages(h.ch) {
		if strings.HasPrefix(m.Content, "⚖️ The table finds Cy rude") {
			verdicts++
		}
	}
	if verdicts != 1 {
		t.Fatalf("the verdict was posted %d times:\n%s", verdicts, channelText(h))
	}
}

// Two players: appeals need a third to judge.
func TestLnfAuditAppealNeedsThree(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 2)
	mustRefuse(t, users[0].Command(h.ch, "appeal", fakediscord.UserOpt("player", users[1])), "at least 3")
}

// Nothing fits: draw; a drawn card that fits may be played at once or kept;
// no other card may be played meanwhile.
func TestLnfAuditDrawThenPlayOrPass(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 2)
	rigLnf(t, h, "R5", map[int][]string{0: {"G9", "B8"}, 1: {"R3"}}, 0)
	h.stop()
	// The deck's top card is a red 7, which fits.
	db, _ := store.Open(h.dbPath)
	rec, _ := db.Game(h.ch)
	g, _ := lnf.Rules.Load(rec.State)
	s := g.(*lnf.State)
	r7 := lnfCard(t, "R7")
	i := slices.Index(s.Pile.Draw, r7)
	s.Pile.Draw = append(slices.Delete(s.Pile.Draw, i, i+1), r7)
	rec.State, _ = games.Encode(g)
	db.Save(rec)
	db.Close()
	h.start()
	ann := users[0]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	if len(hand.Buttons()) != 1 || hand.ButtonID("Draw a card") == "" {
		t.Fatalf("a hand where nothing fits:\n%s", hand.Text())
	}
	r := ann.Click(hand, hand.ButtonID("Draw a card"))
	if r == nil || r.Type != 7 || !strings.Contains(r.Message.Text(), "You drew") {
		t.Fatalf("the draw answered %+v", r)
	}
	hand = r.Message
	var play string
	for _, b := range hand.Buttons() {
		if strings.HasPrefix(b.Label, "Play") {
			if play != "" {
				t.Fatalf("more than the drawn card is offered: %s", hand.ButtonsLine())
			}
			play = b.Label
		}
	}
	if play == "" || hand.ButtonID("Keep it and pass") == "" {
		t.Fatalf("after drawing a fitting card: %s\n%s", hand.ButtonsLine(), hand.Text())
	}
	if r = ann.Click(hand, hand.ButtonID("Keep it and pass")); r == nil || r.Type != 7 {
		t.Fatalf("pass answered %+v", r)
	}
	if s := lnfState(t, h); s.Turn != 1 || len(s.Hands[0]) != 3 || s.Drawn != nil {
		t.Fatalf("after keeping the card: turn %d, Ann holds %d", s.Turn, len(s.Hands[0]))
	}
	if !strings.Contains(r.Message.Text(), "Bea") || len(r.Message.Buttons()) != 0 {
		t.Fatalf("Ann's hand after passing: %s\n%s", r.Message.ButtonsLine(), r.Message.Text())
	}
}

// Swap before the first turn: one card, once; the hand then waits.
func TestLnfAuditSwap(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("lnf"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	var swap string
	for _, b := range hand.Buttons() {
		if strings.HasPrefix(b.Label, "Swap") {
			swap = b.CustomID
			break
		}
	}
	r := ann.Click(hand, swap)
	if r == nil || r.Type != 7 || !strings.Contains(r.Message.Text(), "Waiting for Bea") || len(r.Message.Buttons()) != 0 {
		t.Fatalf("the swap answered %+v", r)
	}
	after := lnfState(t, h).Hands[0]
	if len(after) != 4 {
		t.Fatalf("Ann's hand after the swap: %v", after)
	}
	snap := h.snapshot()
	r = ann.Click(hand, swap) // the old hand's button
	if r == nil || h.snapshot() != snap || (r.Type == 4 && !r.Ephemeral) {
		t.Fatalf("a second swap answered %+v", r)
	}
	if !strings.Contains(h.table().Text(), "✅ **Ann**") {
		t.Fatalf("table:\n%s", h.table().Text())
	}
	bh := bea.Click(h.table(), h.table().ButtonID("My hand")).Message
	bea.Click(bh, bh.ButtonID("Keep my hand"))
	if s := lnfState(t, h); s.Phase != lnf.PhasePlay || s.Turn != 1 {
		t.Fatalf("after the exchange: phase %s, turn %d", s.Phase, s.Turn)
	}
}

// Game Over said right ends the game at once; scores posted once; the
// table shows the final scores, and stats count the game.
func TestLnfAuditGameOver(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "Y2", map[int][]string{0: {"R9", "G9", "WG"}, 1: {"B1"}, 2: {"B5", "B9"}}, 0)
	ann := users[0]
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	r := ann.Click(hand, wildButton(hand))
	if r == nil || r.Modal == nil {
		t.Fatalf("Game Over answered %+v\n%s", r, hand.Text())
	}
	if r = ann.Submit(r.Modal, map[string]string{"text": "Life is not fair, but GAME OVER!"}); r == nil {
		t.Fatal("no answer")
	}
	rec, _ := h.db.Game(h.ch)
	if rec != nil && rec.Status == store.Playing {
		t.Fatalf("the game is still on after Game Over")
	}
	text := channelText(h)
	if n := strings.Count(text, "🛑"); n != 1 {
		t.Fatalf("Game Over told %d times:\n%s", n, text)
	}
	// Ann: 20 − 2 cards = 18; Bea: 10 − 1 = 9; Cy: 10 − 14 = −4.
	for _, want := range []string{"18", "9", "−4"} {
		if !strings.Contains(text, want) {
			t.Fatalf("scores missing %s:\n%s", want, text)
		}
	}
	st, _ := h.db.Stats(h.fake.GuildID())
	for _, u := range users {
		if st[u.ID] == nil || st[u.ID].Games["lnf"].Played != 1 {
			t.Fatalf("%s's stats: %+v", u.Name, st[u.ID])
		}
	}
}

// Leaving a running game is refused, and changes nothing.
func TestLnfAuditLeaveMidGameRefused(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	snap := h.snapshot()
	mustRefuse(t, users[2].Command(h.ch, "game", fakediscord.Sub("leave")), "can't leave")
	if h.snapshot() != snap {
		t.Fatal("a refused leave changed the game")
	}
}

// Going out while an appeal is open: the appeal closes without a penalty
// and loses its buttons, its timer does nothing later, and the scores are
// posted once.
func TestLnfAuditGoOutWithOpenAppeal(t *testing.T) {
	h := newHarness(t)
	users := lnfAuditGame(t, h, 3)
	rigLnf(t, h, "R2", map[int][]string{0: {"R3"}, 1: {"B4", "Y5"}, 2: {"G1"}}, 0)
	ann, bea, cy := users[0], users[1], users[2]
	bea.Command(h.ch, "appeal", fakediscord.UserOpt("player", cy))
	appeal := appealMessage(t, h)
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	if r := ann.Click(hand, hand.ButtonID("Play 🟥 Red 3")); r == nil || r.Type != 7 {
		t.Fatalf("the last card answered %+v\n%s", r, hand.ButtonsLine())
	}
	if rec, _ := h.db.Game(h.ch); rec != nil && rec.Status == store.Playing {
		t.Fatal("the game is still on after Ann went out")
	}
	if m := h.fake.Message(h.ch, appeal.ID); len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "no penalty") {
		t.Fatalf("the appeal after the end:\n%s", m.Text())
	}
	n := len(h.fake.Messages(h.ch))
	h.tick(2 * time.Minute)
	if extra := h.messagesSince(n); len(extra) != 0 {
		t.Fatalf("after the end the appeal's minute posted %q", extra[0].Text())
	}
	ends := 0
	for _, m := range h.fake.Messages(h.ch) {
		if strings.HasPrefix(m.Content, "🏁") {
			ends++
			// Ann 20; Bea 10 − 9 = 1; Cy 10 − 1 = 9.
			for _, want := range []string{"Ann", "20", "Bea", "Cy", "9"} {
				if !strings.Contains(m.Content, want) {
					t.Fatalf("the end misses %q:\n%s", want, m.Content)
				}
			}
		}
	}
	if ends != 1 {
		t.Fatalf("the end was posted %d times:\n%s", ends, channelText(h))
	}
}

// Computers never vote on appeals: one only computers could judge is
// refused at once rather than left to lapse after its minute. With a
// person to judge, it goes ahead.
func TestLnfAuditAppealsWithComputers(t *testing.T) {
	for _, people := range []int{2, 3} {
		t.Run(fmt.Sprint(people, " people"), func(t *testing.T) {
			h := newHarness(t, nightCPUOnCue)
			var users []*fakediscord.User
			for _, name := range []string{"Ann", "Bea", "Cy"}[:people] {
				users = append(users, h.fake.AddUser(name))
			}
			users[0].Command(h.ch, "game", newGame("lnf"))
			for _, u := range users[1:] {
				u.Click(h.table(), h.table().ButtonID("Join"))
			}
			users[0].Click(h.table(), h.table().ButtonID("Add a computer"))
			users[0].Click(h.table(), h.table().ButtonID("Start"))
			rec := h.record()
			cpu := len(rec.Seats) - 1
			if rec.Seats[cpu].Computer == "" {
				t.Fatalf("seats %v: no computer last", seatNames(rec))
			}
			versions := rec.Version
			r := users[0].Command(h.ch, "appeal", fakediscord.UserOpt("player", users[1]))
			if people == 2 {
				mustRefuse(t, r, "Only computer players are left to judge")
				if h.record().Version != versions {
					t.Error("a refused appeal changed the game")
				}
				return
			}
			if !strings.Contains(r.Message.Text(), "Your appeal is before the table") {
				t.Fatalf("an appeal Cy can judge: %q", r.Message.Text())
			}
		})
	}
}
