package bot_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/store"
)

var (
	lifeAuditNames = []string{"Ann", "Bea", "Cy", "Dee", "Eve", "Fay"}
	lifeStages     = []string{"Childhood", "Adolescence", "Romance", "Career", "Achievement", "Old age"}
)

// lifeAuditGame opens a game of n players (Ann hosts and deals) with the
// options given, and starts it.
func lifeAuditGame(t *testing.T, h *harness, n int, opts ...fakediscord.Option) []*fakediscord.User {
	t.Helper()
	var users []*fakediscord.User
	for _, name := range lifeAuditNames[:n] {
		users = append(users, h.fake.AddUser(name))
	}
	users[0].Command(h.ch, "game", newGame("life", opts...))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	if r := users[0].Click(h.table(), h.table().ButtonID("Start")); r == nil || h.record().Status != store.Playing {
		t.Fatalf("Start answered %+v", r)
	}
	return users
}

// lifeHand opens u's hand from the table: an ephemeral only u sees.
func lifeHand(t *testing.T, h *harness, u *fakediscord.User) *fakediscord.Message {
	t.Helper()
	r := u.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || !r.Ephemeral || r.Message == nil {
		t.Fatalf("%s's My hand answered %+v", u.Name, r)
	}
	return r.Message
}

// lifeBegin: the dealer opens Childhood from their hand.
func lifeBegin(t *testing.T, h *harness, dealer *fakediscord.User) {
	t.Helper()
	hand := lifeHand(t, h, dealer)
	id := hand.ButtonID("Begin")
	if id == "" {
		t.Fatalf("the dealer's hand has no Begin:\n%s", hand.Text())
	}
	if r := dealer.Click(hand, id); r == nil || r.Type != 7 {
		t.Fatalf("Begin answered %+v", r)
	}
}

// lifeButton finds the enabled button of a hand whose custom_id ends in
// the action (e.g. "use=body", "keep"), or "".
func lifeButton(m *fakediscord.Message, action string) string {
	for _, b := range m.Buttons() {
		if !b.Disabled && strings.HasSuffix(b.CustomID, ":"+action) {
			return b.CustomID
		}
	}
	return ""
}

var needsRe = regexp.MustCompile(`needs (?:exactly (\d+)|(\d+)–(\d+))`)

// pickLife chooses a move as a careful player would: Begin or Roll when
// that is all there is; facing a challenge, the advantage with the widest
// winning range (the first when none can win); after a win, bringing a
// lost advantage back, else keeping.
func pickLife(m *fakediscord.Message) string {
	id, best := "", -1
	for _, b := range m.Buttons() {
		if b.Disabled {
			continue
		}
		switch {
		case strings.HasSuffix(b.CustomID, ":begin"), strings.HasSuffix(b.CustomID, ":roll"):
			return b.CustomID
		case strings.Contains(b.CustomID, ":replace=") && strings.Contains(b.Label, "lost"):
			return b.CustomID
		case strings.Contains(b.CustomID, ":use="):
			w := 0
			if sm := needsRe.FindStringSubmatch(b.Label); sm != nil {
				w = 1
				if sm[1] == "" {
					lo, _ := strconv.Atoi(sm[2])
					hi, _ := strconv.Atoi(sm[3])
					w = hi - lo + 1
				}
			}
			if w > best {
				id, best = b.CustomID, w
			}
		}
	}
	if id == "" {
		id = lifeButton(m, "keep")
	}
	return id
}

// lifeTurn makes the waiting player's move from a freshly opened hand and
// returns who moved and the custom_id clicked.
func lifeTurn(t *testing.T, h *harness, users []*fakediscord.User) (*fakediscord.User, string) {
	t.Helper()
	w := lifeState(t, h).ToAct()
	if len(w) != 1 {
		t.Fatalf("waiting for %v", w)
	}
	u := users[w[0]]
	hand := lifeHand(t, h, u)
	id := pickLife(hand)
	if id == "" {
		t.Fatalf("%s's hand offers no move:\n%s", u.Name, hand.Text())
	}
	if r := u.Click(hand, id); r == nil || r.Type != 7 {
		t.Fatalf("%s's %s answered %+v", u.Name, id, r)
	}
	return u, id
}

// lifePlayOut plays turns until the game ends and returns its id.
func lifePlayOut(t *testing.T, h *harness, users []*fakediscord.User) string {
	t.Helper()
	id := h.record().ID
	for n := 0; ; n++ {
		if rec, _ := h.db.Game(h.ch); rec == nil {
			return id
		}
		if n > 100 {
			t.Fatalf("the game did not end; table:\n%s", h.table().Text())
		}
		lifeTurn(t, h, users)
	}
}

// rigLife changes the stored game while the bot is down.
func rigLife(t *testing.T, h *harness, change func(s *life.State)) {
	t.Helper()
	h.rigged = true
	h.rigStored(life.Rules, func(g games.Game) { change(g.(*life.State)) })
}

// rigDice sets the game's random source so that its next two dice are
// d1 and d2.
func rigDice(t *testing.T, s *life.State, d1, d2 int) {
	t.Helper()
	r := s.RNG
	for range 100000 {
		try := r
		if try.D6() == d1 && try.D6() == d2 {
			s.RNG = r
			return
		}
		r.Uint64()
	}
	t.Fatalf("no state rolls %d and %d", d1, d2)
}

func lifeCard(t *testing.T, code string) games.Card {
	t.Helper()
	c, err := games.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lifeRoll is one roll as the channel tells it.
type lifeRoll struct {
	who            string
	d1, d2, total  int
	challenge, adv int // adv is -1 for a roll with nothing face up
	outcome, at    string
}

var (
	drawRe  = regexp.MustCompile(`^🃏 .*?\*\*([A-Za-z]+)\*\*.*?(?:\((\d+)\)\.|worth (\d+)\.)$`)
	rollRe  = regexp.MustCompile(`^🎲 (\d) \+ (\d) = \*\*(\d+)\*\* against the \S+ \((\d+)\)(?:, with (\w+) \S+ \((\d+)\))?\.$`)
	roundRe = regexp.MustCompile(`^\*\*— Round (\d) of 6: ([A-Za-z ]+) —\*\*$`)
)

// lifeStory reads the channel's narration: the round headers in order, who
// was drawn a challenge in order, and every roll with its outcome.
func lifeStory(t *testing.T, h *harness) (rounds []string, draws []string, rolls []lifeRoll) {
	t.Helper()
	lines := strings.Split(channelText(h), "\n")
	who := ""
	for i, l := range lines {
		if m := roundRe.FindStringSubmatch(l); m != nil {
			rounds = append(rounds, m[1]+" "+m[2])
		}
		if m := drawRe.FindStringSubmatch(l); m != nil {
			who = m[1]
			draws = append(draws, who)
		}
		if m := rollRe.FindStringSubmatch(l); m != nil {
			r := lifeRoll{who: who, adv: -1}
			r.d1, _ = strconv.Atoi(m[1])
			r.d2, _ = strconv.Atoi(m[2])
			r.total, _ = strconv.Atoi(m[3])
			r.challenge, _ = strconv.Atoi(m[4])
			if m[6] != "" {
				r.adv, _ = strconv.Atoi(m[6])
			}
			if i+1 < len(lines) {
				next := lines[i+1]
				switch {
				case strings.HasPrefix(next, "**Success!**"):
					r.outcome = "won"
				case strings.HasPrefix(next, "**Failure"):
					r.outcome = "lost"
				case strings.HasPrefix(next, "💀 **Snake eyes.**"):
					r.outcome = "died"
				}
			}
			r.at = l
			rolls = append(rolls, r)
		}
	}
	return rounds, draws, rolls
}

// checkRollsFollowTheRules checks every narrated roll against rule 7: a
// win exactly when challenge ≤ 2d6 ≤ advantage (never with nothing face
// up), and with snake eyes a 1 and 1 kills.
func checkRollsFollowTheRules(t *testing.T, rolls []lifeRoll, snakeEyes bool) {
	t.Helper()
	for _, r := range rolls {
		want := "lost"
		switch {
		case snakeEyes && r.d1 == 1 && r.d2 == 1:
			want = "died"
		case r.adv >= 0 && r.challenge <= r.total && r.total <= r.adv:
			want = "won"
		}
		if r.d1+r.d2 != r.total || r.outcome != want {
			t.Errorf("%s's roll %q is told as %q; the rules make it %q", r.who, r.at, r.outcome, want)
		}
	}
}

// checkEndedLives rebuilds each board from its deal and its history (a
// lost advantage turns face down, a taken challenge comes in face up) and
// checks the final boards, the rolls the channel told, and each score as
// the rules count it, on the final scores message.
func checkEndedLives(t *testing.T, h *harness, st *life.State, rolls []lifeRoll) {
	t.Helper()
	// Every card of the one deck is still somewhere, once.
	all := slices.Concat(st.Pile.Draw, st.Pile.Discard)
	for seat := range st.Players {
		for _, sl := range st.Boards[seat] {
			all = append(all, sl.Card)
		}
	}
	seen := map[games.Card]bool{}
	for _, c := range all {
		seen[c] = true
	}
	if len(all) != 52 || len(seen) != 52 || st.Challenge != nil {
		t.Fatalf("at the end %d cards, %d different, challenge %v; want the 52 of one deck", len(all), len(seen), st.Challenge)
	}
	text := channelText(h)
	scores := strings.LastIndex(text, "🏁 **Final scores**")
	if scores < 0 {
		t.Fatal("no final scores in the channel")
	}
	for seat, name := range st.Players {
		var told []lifeRoll
		for _, r := range rolls {
			if r.who == name {
				told = append(told, r)
			}
		}
		var b [6]life.Slot
		for i, c := range st.Start[seat] {
			b[i] = life.Slot{Card: c, Up: true}
		}
		n := 0
		for _, ch := range st.History[seat] {
			if ch.Result == "skipped" {
				continue
			}
			if n >= len(told) || told[n].total != ch.Dice[0]+ch.Dice[1] || told[n].outcome != strings.Replace(ch.Result, "bare", "lost", 1) {
				t.Fatalf("%s's chapter %d (%+v) is not the roll the channel told (%+v)", name, n, ch, told)
			}
			n++
			switch {
			case ch.Result == "lost":
				b[ch.Adv].Up = false
			case ch.Result == "won" && ch.Took >= 0:
				b[ch.Took] = life.Slot{Card: *ch.Card, Up: true}
			}
		}
		if n != len(told) {
			t.Fatalf("%s: the channel told %d rolls, the history has %d", name, len(told), n)
		}
		if b != st.Boards[seat] {
			t.Fatalf("%s's final board %v does not follow from the deal and the history %v", name, st.Boards[seat], b)
		}
		cards, up := 0, 0
		for _, sl := range b {
			if sl.Up {
				cards += sl.Card.PipValue()
				up++
			}
		}
		score := cards
		if st.Roleplay {
			given, received := markers(st, seat)
			score += received - (3 - given)
		}
		if st.Score(seat) != score {
			t.Errorf("%s scores %d; the face-up cards and markers make %d", name, st.Score(seat), score)
		}
		shown := fmt.Sprint(score)
		if score < 0 {
			shown = fmt.Sprint("−", -score)
		}
		if !strings.Contains(text[scores:], fmt.Sprintf("**%s** — %s (", name, shown)) {
			t.Errorf("the final scores lack %s's %d:\n%s", name, score, text[scores:])
		}
		if !strings.Contains(text[scores:], fmt.Sprintf("%d advantage", up)) {
			t.Errorf("the final scores do not count %s's %d face-up advantages", name, up)
		}
	}
}

// finalScores is the message with the final scores.
func finalScores(t *testing.T, h *harness) string {
	t.Helper()
	for _, m := range h.fake.Messages(h.ch) {
		if i := strings.Index(m.Content, "🏁 **Final scores**"); i >= 0 {
			return m.Content[i:]
		}
	}
	t.Fatal("no final scores in the channel")
	return ""
}

// Solo play: one player deals, opens Childhood and lives six rounds; each
// roll is told and judged by rule 7, the life story and the score follow
// the history, and a lone player, pinged once, is told they finish rather
// than that they beat anyone.
func TestLifeAuditSoloLife(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 1, fakediscord.Bool("roleplay", false))
	ann := users[0]
	if text := h.table().Text(); !strings.Contains(text, "Ann** (the dealer) opens Childhood") {
		t.Fatalf("the solo table does not wait for the dealer:\n%s", text)
	}
	lifeBegin(t, h, ann)
	id := lifePlayOut(t, h, users)

	rounds, draws, rolls := lifeStory(t, h)
	if want := []string{"1 Childhood", "2 Adolescence", "3 Romance", "4 Career", "5 Achievement", "6 Old age"}; !slices.Equal(rounds, want) {
		t.Fatalf("the rounds told: %q; want %q", rounds, want)
	}
	if len(draws) != 6 || len(rolls) != 6 {
		t.Fatalf("a solo life drew %d challenges and rolled %d times; want 6 and 6", len(draws), len(rolls))
	}
	checkRollsFollowTheRules(t, rolls, false)
	st := endedLife(t, h, id)
	for i, ch := range st.History[0] {
		if ch.Stage != i {
			t.Fatalf("chapter %d is in %s", i, lifeStages[ch.Stage])
		}
	}
	checkEndedLives(t, h, st, rolls)
	text := channelText(h)
	if want := fmt.Sprintf("🏆 **Ann** finishes with %d points.", st.Score(0)); !strings.Contains(text, want) {
		t.Fatalf("no %q at the end:\n%s", want, text)
	}
	if !strings.Contains(text, "📖 **Ann** started life with") {
		t.Fatal("no life story for Ann")
	}
	if n := h.fake.Pings(ann.ID); n != 1 {
		t.Fatalf("Ann, alone at the table, was pinged %d times; want once, when the game began", n)
	}
}

// Six players: a seventh cannot join; each round's challenges go left of
// the dealer first and the dealer last; every roll is judged by rule 7;
// each hand is private to its owner; each player is pinged once per turn
// that is theirs; the scores and winners are as the rules count them.
func TestLifeAuditSixPlayersSixRounds(t *testing.T) {
	h := newHarness(t)
	var users []*fakediscord.User
	for _, name := range lifeAuditNames {
		users = append(users, h.fake.AddUser(name))
	}
	gus := h.fake.AddUser("Gus")
	users[0].Command(h.ch, "game", newGame("life"))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	mustRefuse(t, gus.Click(h.table(), h.table().ButtonID("Join")), "at most 6 players")
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	if len(h.record().Seats) != 6 {
		t.Fatalf("%d seats", len(h.record().Seats))
	}

	// Private hands: each one only its owner sees, holding their own life.
	bh := lifeHand(t, h, users[1])
	if bh.VisibleTo != users[1].ID || !strings.Contains(bh.Text(), "Bea — your life") {
		t.Fatalf("Bea's hand is visible to %q:\n%s", bh.VisibleTo, bh.Text())
	}
	for _, u := range users {
		if u != users[1] {
			for _, m := range u.Ephemerals(h.ch) {
				if strings.Contains(m.Text(), "Bea — your life") {
					t.Fatalf("%s sees Bea's hand", u.Name)
				}
			}
		}
	}
	mustRefuse(t, gus.Click(h.table(), h.table().ButtonID("My hand")), "not playing")

	pings := make([]int, 6)
	for i, u := range users {
		pings[i] = h.fake.Pings(u.ID)
	}
	h.advance(2 * time.Minute)
	lifeBegin(t, h, users[0])
	turns := make([]int, 6)
	id := h.record().ID
	for n := 0; ; n++ {
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			break
		}
		if n > 100 {
			t.Fatal("the game did not end")
		}
		h.advance(2 * time.Minute) // nobody is still watching an open hand
		lifeTurn(t, h, users)
	}
	rounds, draws, rolls := lifeStory(t, h)
	if len(rounds) != 6 {
		t.Fatalf("rounds told: %q", rounds)
	}
	var want []string
	for range 6 {
		want = append(want, "Bea", "Cy", "Dee", "Eve", "Fay", "Ann")
	}
	if !slices.Equal(draws, want) {
		t.Fatalf("challenges went to %q; want each round left of the dealer first, Ann last", draws)
	}
	checkRollsFollowTheRules(t, rolls, false)
	st := endedLife(t, h, id)
	checkEndedLives(t, h, st, rolls)
	for _, r := range rolls {
		turns[slices.Index(lifeAuditNames, r.who)]++
	}
	for i, u := range users {
		// One ping as each turn comes to them; a won roll's decision is
		// the same turn.
		if got := h.fake.Pings(u.ID) - pings[i]; got != turns[i] {
			t.Errorf("%s was pinged %d times for %d turns", u.Name, got, turns[i])
		}
	}
	if h.fake.Pings(gus.ID) != 0 {
		t.Error("a spectator was pinged")
	}
	var winners []string
	for _, r := range st.Results() {
		if r.Winner {
			winners = append(winners, "**"+st.Players[r.Seat]+"**")
		}
	}
	if fs := finalScores(t, h); len(winners) != 1 || !strings.Contains(fs, "🏆 "+winners[0]+" wins") {
		t.Fatalf("the winner line does not name %v:\n%s", winners, fs)
	}
}

// forgeLife clicks, on the table, a move the bot never offered u there.
func forgeLife(t *testing.T, h *harness, u *fakediscord.User, action string) *fakediscord.Reply {
	t.Helper()
	id, v := h.gameRef()
	return forge(u, h.table(), fmt.Sprintf("move:%s:%d:%s", id, v, action))
}

// Moves out of turn, someone else's moves, a spectator's, and moves the
// hand does not offer are each refused in private with the reason, and
// change nothing.
func TestLifeAuditWrongTurnAndOthersMoves(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3)
	ann, bea, cy := users[0], users[1], users[2]
	gus := h.fake.AddUser("Gus")
	snap := h.snapshot()

	// Before the story begins.
	mustRefuse(t, forgeLife(t, h, bea, "begin"), "Ann, the dealer, opens the first chapter")
	mustRefuse(t, forgeLife(t, h, bea, "use=body"), "hasn't begun yet")
	if hand := lifeHand(t, h, bea); hand.ButtonID("Begin") != "" || !strings.Contains(hand.Text(), "Waiting for **Ann**") {
		t.Fatalf("Bea's hand before the story:\n%s", hand.Text())
	}
	if h.snapshot() != snap {
		t.Fatal("a refused move before the story changed the game")
	}

	lifeBegin(t, h, ann)
	snap = h.snapshot()
	cyHand := lifeHand(t, h, cy)
	if lifeButton(cyHand, "use=family") != "" || !strings.Contains(cyHand.Text(), "▶ **Bea**'s turn") {
		t.Fatalf("Cy's hand on Bea's turn:\n%s%s", cyHand.Text(), cyHand.ButtonsLine())
	}
	mustRefuse(t, forgeLife(t, h, cy, "use=family"), "It's Bea's turn")
	mustRefuse(t, forgeLife(t, h, ann, "keep"), "It's Bea's turn")
	mustRefuse(t, forgeLife(t, h, ann, "begin"), "already begun")
	mustRefuse(t, forgeLife(t, h, bea, "replace=body"), "haven't beaten a challenge")
	mustRefuse(t, forgeLife(t, h, bea, "keep"), "haven't beaten a challenge")
	mustRefuse(t, forgeLife(t, h, bea, "use=luck"), "Choose one of your advantages")
	mustRefuse(t, forgeLife(t, h, bea, "roll"), "still have an advantage face up")
	mustRefuse(t, forgeLife(t, h, bea, "swap"), "swap isn't in play")
	mustRefuse(t, forgeLife(t, h, bea, "cheat"), "isn't a move")
	mustRefuse(t, forgeLife(t, h, gus, "use=family"), "not playing")
	mustRefuse(t, gus.Click(h.table(), h.table().ButtonID("My hand")), "not playing")
	if h.snapshot() != snap {
		t.Fatal("a refused move changed the game")
	}
	if w := h.record().Waiting; len(w) != 1 || w[0] != 1 {
		t.Fatalf("after the refusals the game waits for %v, not Bea", w)
	}
}

// A double click rolls once: the second click, made on the hand as it was,
// gets the hand as it is now, in private, and changes nothing; so does a
// second Begin.
func TestLifeAuditDoubleClicks(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 2)
	ann, bea := users[0], users[1]
	hand := lifeHand(t, h, ann)
	begin := hand.ButtonID("Begin")
	ann.Click(hand, begin)
	snap := h.snapshot()
	if r := ann.Click(hand, begin); r == nil || !r.Ephemeral || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("the second Begin answered %+v", r)
	}
	if h.snapshot() != snap {
		t.Fatal("a second Begin changed the game")
	}

	hand = lifeHand(t, h, bea)
	use := pickLife(hand)
	if r := bea.Click(hand, use); r == nil || r.Type != 7 {
		t.Fatalf("Bea's roll answered %+v", r)
	}
	snap = h.snapshot()
	r := bea.Click(hand, use)
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("the second click answered %+v", r)
	}
	if h.snapshot() != snap {
		t.Fatal("the second click changed the game")
	}
	if st := lifeState(t, h); len(st.History[1]) != 1 {
		t.Fatalf("Bea has %d chapters after a double click; want 1", len(st.History[1]))
	}
	if _, _, rolls := lifeStory(t, h); len(rolls) != 1 {
		t.Fatalf("%d rolls told after a double click", len(rolls))
	}
}

// A restart leaves open hands working: a button from before it still
// plays if nothing changed, hands the bot redrew across it play, and only
// a button the game has moved past is stale.
func TestLifeAuditButtonsAcrossARestart(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3)
	ann, bea, cy := users[0], users[1], users[2]
	lifeBegin(t, h, ann)
	cyHand := lifeHand(t, h, cy) // opened on Bea's turn
	beaHand := lifeHand(t, h, bea)
	use := pickLife(beaHand)
	h.restart()
	if r := bea.Click(beaHand, use); r == nil || r.Type != 7 {
		t.Fatalf("Bea's button from before the restart answered %+v", r)
	}
	if st := lifeState(t, h); len(st.History[1]) != 1 {
		t.Fatalf("Bea's roll across the restart made %d chapters", len(st.History[1]))
	}
	if lifeState(t, h).ToAct()[0] == 1 { // Bea won: she decides
		bh := h.fake.Message(h.ch, beaHand.ID)
		h.restart()
		if r := bea.Click(bh, lifeButton(bh, "keep")); r == nil || r.Type != 7 {
			t.Fatalf("Keep after a restart answered %+v", r)
		}
	}
	snap := h.snapshot()
	if r := bea.Click(beaHand, use); r == nil || !strings.Contains(r.Content, "earlier moment") || h.snapshot() != snap {
		t.Fatalf("Bea's spent button answered %+v", r)
	}
	// Cy's hand, opened before the restart, was redrawn for his turn.
	h.restart()
	now := h.fake.Message(h.ch, cyHand.ID)
	if now == nil || !strings.Contains(now.Text(), "Your Childhood challenge") {
		t.Fatalf("Cy's open hand was not redrawn for his turn:\n%v", now)
	}
	if r := cy.Click(now, pickLife(now)); r == nil || r.Type != 7 {
		t.Fatalf("Cy's redrawn hand answered %+v", r)
	}
	if st := lifeState(t, h); len(st.History[2]) != 1 {
		t.Fatalf("Cy has %d chapters", len(st.History[2]))
	}
}

// The bot is killed at each step of a roll's output: after the restart the
// roll stands once, is told once, the table is there once, and play goes on.
func TestLifeAuditKilledWhileTellingARoll(t *testing.T) {
	for _, step := range []string{"begin", "hands", "story", "table", "done"} {
		t.Run(step, func(t *testing.T) {
			h := newHarness(t)
			users := lifeAuditGame(t, h, 3)
			lifeBegin(t, h, users[0])
			hand := lifeHand(t, h, users[1])
			killAt(t, h, step, func() { users[1].Click(hand, pickLife(hand)) })
			h.bot.Idle()
			st := lifeState(t, h)
			if len(st.History[1]) != 1 {
				t.Fatalf("killed at %s: Bea has %d chapters", step, len(st.History[1]))
			}
			if d := h.fake.Duplicates(h.ch); len(d) != 0 {
				t.Fatalf("killed at %s: %q posted twice", step, d[0].Content)
			}
			if _, _, rolls := lifeStory(t, h); len(rolls) != 1 {
				t.Fatalf("killed at %s: %d rolls told", step, len(rolls))
			}
			tables := 0
			for _, m := range h.fake.Messages(h.ch) {
				if m.ButtonID("My hand") != "" {
					tables++
				}
			}
			if tables != 1 {
				t.Fatalf("killed at %s: %d tables", step, tables)
			}
			lifeTurn(t, h, users)
			lifeTurn(t, h, users)
			if st := lifeState(t, h); len(st.History[1])+len(st.History[2]) < 2 {
				t.Fatalf("killed at %s: play did not go on", step)
			}
		})
	}
}

// Snake eyes (advanced rule): Bea rolls 1 and 1 in Childhood and dies on
// the spot with nothing flipped; the table and her hand say so, her later
// turns are skipped, her cards score as they lay, and she still gives and
// earns markers with her role play.
func TestLifeAuditSnakeEyesKillsAndTheDeadStillRolePlay(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3, fakediscord.Bool("snake_eyes", true))
	ann, bea, cy := users[0], users[1], users[2]
	lifeBegin(t, h, ann)
	rigLife(t, h, func(s *life.State) { rigDice(t, s, 1, 1) })
	board := lifeState(t, h).Boards[1]
	hand := lifeHand(t, h, bea)
	if r := bea.Click(hand, pickLife(hand)); r == nil || r.Type != 7 {
		t.Fatalf("Bea's roll answered %+v", r)
	}
	st := lifeState(t, h)
	if st.Boards[1] != board {
		t.Fatalf("snake eyes changed Bea's board: %v → %v", board, st.Boards[1])
	}
	text := channelText(h)
	if !strings.Contains(text, "💀 **Snake eyes.**") || !strings.Contains(text, "*Tell us how it happened.*") {
		t.Fatalf("the death is not told:\n%s", text)
	}
	if !strings.Contains(h.table().Text(), "💀 Bea (died in Childhood)") {
		t.Fatalf("the table does not show Bea's death:\n%s", h.table().Text())
	}
	if bh := lifeHand(t, h, bea); !strings.Contains(bh.Text(), "Your character died in Childhood") || lifeButton(bh, "use=family") != "" {
		t.Fatalf("Bea's hand after her death:\n%s", bh.Text())
	}

	// Dead, Bea speaks as a memory and rewards Cy; Ann rewards her.
	bea.Command(h.ch, "say", fakediscord.Str("line", "I went out like a candle."))
	cy.Command(h.ch, "say", fakediscord.Str("line", "We buried her by the river."))
	ann.React(rolePlayLine(t, h, "like a candle"), "🎭")
	bea.React(rolePlayLine(t, h, "by the river"), "🎭")
	if g, r := markers(lifeState(t, h), 1); g != 1 || r != 1 {
		t.Fatalf("dead Bea gave %d and received %d markers; want 1 and 1", g, r)
	}

	id := lifePlayOut(t, h, users)
	_, draws, rolls := lifeStory(t, h)
	if n := strings.Count(strings.Join(draws, ","), "Bea"); n != 1 {
		t.Fatalf("Bea was drawn %d challenges; her later turns should be skipped", n)
	}
	checkRollsFollowTheRules(t, rolls, true)
	st = endedLife(t, h, id)
	if st.Boards[1] != board {
		t.Fatal("Bea's board changed after her death")
	}
	checkEndedLives(t, h, st, rolls)
	if fs := finalScores(t, h); !strings.Contains(fs, fmt.Sprintf("**Bea** — %d (cards %d, markers +1 −2;", st.Score(1), st.Score(1)+1)) {
		t.Fatalf("Bea's final score does not count her markers:\n%s", fs)
	}
	if !strings.Contains(channelText(h), "They died in Childhood with 6 advantages still standing") {
		t.Fatal("Bea's life story does not end with her death")
	}
}

// The Romance/Career swap (advanced rule): Bea swaps before Romance; the
// table shows it; in round 3 she faces Career and in round 4 Romance, while
// the others keep the usual order; once Romance has begun it is too late.
func TestLifeAuditRomanceCareerSwap(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3, fakediscord.Bool("swap", true), fakediscord.Bool("roleplay", false))
	ann, bea := users[0], users[1]
	hand := lifeHand(t, h, bea)
	if r := bea.Click(hand, hand.ButtonID("Swap my Romance and Career")); r == nil || r.Type != 7 ||
		!strings.Contains(r.Message.Text(), "You face Career before Romance") {
		t.Fatalf("the swap answered %+v", r)
	}
	if !strings.Contains(h.table().Text(), "🔀 Career before Romance") {
		t.Fatalf("the table does not show Bea's swap:\n%s", h.table().Text())
	}
	lifeBegin(t, h, ann)
	for lifeState(t, h).Round < 2 {
		lifeTurn(t, h, users)
	}
	mustRefuse(t, forgeLife(t, h, bea, "swap"), "Too late")
	if hand := lifeHand(t, h, bea); hand.ButtonID("Swap") != "" {
		t.Fatal("the swap is still offered in Romance")
	}
	id := lifePlayOut(t, h, users)
	// Who faced which stage in rounds 3 and 4, from the challenge lines.
	stageOf := map[string][]string{}
	round := 0
	for _, l := range strings.Split(channelText(h), "\n") {
		if m := roundRe.FindStringSubmatch(l); m != nil {
			round, _ = strconv.Atoi(m[1])
		}
		if m := drawRe.FindStringSubmatch(l); m != nil && (round == 3 || round == 4) {
			for _, s := range []string{"Romance", "Career"} {
				if strings.Contains(l, s) {
					stageOf[m[1]] = append(stageOf[m[1]], s)
				}
			}
		}
	}
	if got := stageOf["Bea"]; !slices.Equal(got, []string{"Career", "Romance"}) {
		t.Fatalf("Bea faced %v in rounds 3 and 4; want Career then Romance", got)
	}
	if got := stageOf["Cy"]; !slices.Equal(got, []string{"Romance", "Career"}) {
		t.Fatalf("Cy faced %v in rounds 3 and 4", got)
	}
	st := endedLife(t, h, id)
	if st.History[1][2].Stage != 3 || st.History[1][3].Stage != 2 {
		t.Fatalf("Bea's chapters 3 and 4 are in stages %d and %d", st.History[1][2].Stage, st.History[1][3].Stage)
	}
}

// Role-play markers: three each, given with 🎭 on other players' /say
// lines only; a fourth is refused and taken off; one taken back can be
// given again; 🎭 on the bot's narration is no award. The end counts +1
// per marker received and −1 per marker never given.
func TestLifeAuditMarkersToTheFinalScore(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3)
	ann, bea, cy := users[0], users[1], users[2]
	ann.Command(h.ch, "say", fakediscord.Str("line", "Ada grew up above a bakery."))
	var cyLines []*fakediscord.Message
	for i := 1; i <= 4; i++ {
		text := fmt.Sprintf("Cass, take %d.", i)
		cy.Command(h.ch, "say", fakediscord.Str("line", text), fakediscord.Str("character", "Cass"))
		cyLines = append(cyLines, rolePlayLine(t, h, text))
	}
	l1 := rolePlayLine(t, h, "bakery")
	bea.React(l1, "🎭")
	bea.React(cyLines[0], "🎭")
	bea.React(cyLines[1], "🎭")
	if hand := lifeHand(t, h, bea); strings.Contains(hand.Text(), "to give") {
		t.Fatalf("Bea gave all three and her hand still offers markers:\n%s", hand.Text())
	}
	snap := h.snapshot()
	bea.React(cyLines[2], "🎭") // a fourth
	if slices.Contains(reactors(h, h.ch, cyLines[2], "🎭"), bea.ID) {
		t.Fatal("Bea's refused fourth 🎭 was left on the line, looking counted")
	}
	var story *fakediscord.Message
	for _, m := range h.fake.Messages(h.ch) {
		if strings.HasPrefix(m.Content, "🎴") { // the cast, after the deal
			story = m
		}
	}
	if story == nil {
		t.Fatal("no opening narration")
	}
	ann.React(story, "🎭") // the bot's narration, not a player's line
	if h.snapshot() != snap {
		t.Fatal("a fourth marker or a 🎭 on the narration changed the game")
	}
	bea.Unreact(l1, "🎭")
	if hand := lifeHand(t, h, bea); !strings.Contains(hand.Text(), "You have 1 marker to give") {
		t.Fatalf("Bea took one back; her hand:\n%s", hand.Text())
	}
	bea.React(cyLines[3], "🎭")
	st := lifeState(t, h)
	if g, _ := markers(st, 1); g != 3 {
		t.Fatalf("Bea has given %d; want 3", g)
	}
	if _, r := markers(st, 2); r != 3 {
		t.Fatalf("Cy received %d; want 3", r)
	}
	if _, r := markers(st, 0); r != 0 {
		t.Fatalf("Ann kept the marker Bea took back")
	}
	if !strings.Contains(h.table().Text(), "Cy — ") || !strings.Contains(h.table().Text(), "+ 3 🎭 received − 3 🎭 not given") {
		t.Fatalf("the table does not show Cy's markers:\n%s", h.table().Text())
	}

	lifeBegin(t, h, ann)
	id := lifePlayOut(t, h, users)
	_, _, rolls := lifeStory(t, h)
	st = endedLife(t, h, id)
	checkEndedLives(t, h, st, rolls)
	fs := finalScores(t, h)
	for _, want := range []string{"**Ann** — ", "markers +0 −3;", "**Bea** — ", "markers +0 −0;", "**Cy** — ", "markers +3 −3;"} {
		if !strings.Contains(fs, want) {
			t.Fatalf("the final scores lack %q:\n%s", want, fs)
		}
	}
}

// /say's text boxes: Discord's client will not send a line over 1,500
// characters or a name over 60, as the bot declared; the longest line with
// the longest name full of markdown goes out whole, within a message; an
// empty line is refused.
func TestLifeAuditSayTextLimits(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 2)
	bea := users[1]
	var refusal *fakediscord.Refusal
	if _, err := bea.Client().Command(h.ch, "say", fakediscord.Str("line", strings.Repeat("a", 1501))); !errors.As(err, &refusal) {
		t.Fatalf("a 1,501-character line was sent: %v", err)
	}
	if _, err := bea.Client().Command(h.ch, "say", fakediscord.Str("line", "Hi."), fakediscord.Str("character", strings.Repeat("b", 61))); !errors.As(err, &refusal) {
		t.Fatalf("a 61-character name was sent: %v", err)
	}
	mustRefuse(t, bea.Command(h.ch, "say", fakediscord.Str("line", "   ")), "empty")

	line := strings.Repeat("Ah, the long summer. ", 75)[:1500]
	name := strings.Repeat("*_", 30)
	if r := bea.Command(h.ch, "say", fakediscord.Str("line", line), fakediscord.Str("character", name)); r == nil || !r.Ephemeral {
		t.Fatalf("the longest line answered %+v", r)
	}
	m := rolePlayLine(t, h, "Ah, the long summer.")
	if !strings.HasSuffix(m.Content, ": "+line) || utf8.RuneCountInString(m.Content) > 2000 {
		t.Fatalf("the line went out cut or too long (%d characters): %q", utf8.RuneCountInString(m.Content), m.Content)
	}
	if !strings.Contains(m.Content, `\*\_`) {
		t.Fatalf("the character's name was not escaped: %q", m.Content)
	}
}

// A player cannot walk out of a running life, but the host can take an
// idle one out: the bot plays their turns so the table never waits on
// them, and they take their seat back by opening their hand.
func TestLifeAuditPlayerLeavesMidGame(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.computerBeat = time.Nanosecond })
	users := lifeAuditGame(t, h, 3)
	ann, bea, cy := users[0], users[1], users[2]
	lifeBegin(t, h, ann)
	snap := h.snapshot()
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("leave")), "can't leave a game in progress")
	mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea))), "Only the host")
	if h.snapshot() != snap {
		t.Fatal("a refused leave or remove changed the game")
	}
	if r := ann.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea))); r == nil || !strings.Contains(r.Content, "I play Bea's seat") {
		t.Fatalf("/game remove answered %+v", r)
	}
	h.bot.Idle()
	if s := h.record().Seats[1]; !s.Away || s.Computer == "" {
		t.Fatalf("Bea's seat after /game remove: %+v", s)
	}
	if st := lifeState(t, h); len(st.History[1]) != 1 || st.ToAct()[0] != 2 {
		t.Fatalf("the bot did not play Bea's turn: %d chapters, waiting for %v", len(st.History[1]), st.ToAct())
	}
	// A full round without her, then she comes back.
	for lifeState(t, h).Round < 1 || lifeState(t, h).ToAct()[0] != 2 {
		if w := h.record().Waiting; w[0] == 1 {
			t.Fatal("the game waits for Bea, whom the bot plays")
		}
		lifeTurn(t, h, users)
	}
	if n := len(lifeState(t, h).History[1]); n != 2 {
		t.Fatalf("Bea has %d chapters after two rounds' turns", n)
	}
	lifeHand(t, h, bea)
	if s := h.record().Seats[1]; s.Away || s.Computer != "" {
		t.Fatalf("Bea did not get her seat back: %+v", s)
	}
	id := lifePlayOut(t, h, users)
	if st := endedLife(t, h, id); len(st.History[1]) != 6 {
		t.Fatalf("Bea lived %d chapters", len(st.History[1]))
	}
}

// A character with nothing face up still draws and rolls (rule 7; the
// ruling): with only one thing to do, the bot rolls for them, the story
// tells it, and the challenge fails.
func TestLifeAuditNothingFaceUpStillRolls(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 3)
	rigLife(t, h, func(s *life.State) {
		for i := range s.Boards[1] {
			s.Boards[1][i].Up = false
		}
	})
	before := h.fake.Pings(users[1].ID)
	lifeBegin(t, h, users[0])
	st := lifeState(t, h)
	if len(st.History[1]) != 1 || st.History[1][0].Result != "bare" || st.ToAct()[0] != 2 {
		t.Fatalf("Bea's bare turn: %+v, waiting for %v", st.History[1], st.ToAct())
	}
	text := channelText(h)
	if !strings.Contains(text, "Bea can only roll and see what the dice say") || !strings.Contains(text, "Bea has nothing left to lean on, but rolls all the same.") {
		t.Fatalf("the bare roll is not told:\n%s", text)
	}
	_, _, rolls := lifeStory(t, h)
	if len(rolls) != 1 || rolls[0].adv != -1 || rolls[0].outcome != "lost" {
		t.Fatalf("the bare roll told as %+v", rolls)
	}
	if h.fake.Pings(users[1].ID) != before {
		t.Fatal("Bea was pinged for a turn with nothing to decide")
	}
}

// A won challenge may replace any advantage, face down included: the
// taken card comes in face up, the old one goes to the discards, and the
// story says the lost advantage is back. Keeping discards the challenge.
func TestLifeAuditWinReplacesALostAdvantage(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 2, fakediscord.Bool("roleplay", false))
	ann, bea := users[0], users[1]
	lifeBegin(t, h, ann)
	var challenge games.Card
	rigLife(t, h, func(s *life.State) {
		s.Boards[1][0].Up = false                                     // Family lost
		s.Boards[1][4] = life.Slot{Card: lifeCard(t, "KS"), Up: true} // Body K♠
		s.Pile.Draw = append(s.Pile.Draw, *s.Challenge)
		c := lifeCard(t, "7H")
		if i := slices.Index(s.Pile.Draw, c); i >= 0 {
			s.Pile.Draw = slices.Delete(s.Pile.Draw, i, i+1)
		}
		s.Challenge, challenge = &c, c
		rigDice(t, s, 3, 5)
	})
	hand := lifeHand(t, h, bea)
	if r := bea.Click(hand, lifeButton(hand, "use=body")); r == nil || r.Type != 7 || !strings.Contains(r.Message.Text(), "you beat it!") {
		t.Fatalf("Bea's winning roll answered %+v", r)
	}
	hand = h.fake.Message(h.ch, hand.ID)
	if id := hand.ButtonID("Replace Family (🂠 lost"); id == "" || lifeButton(hand, "keep") == "" {
		t.Fatalf("after a win Bea's hand offers:\n%s", hand.ButtonsLine())
	}
	old := lifeState(t, h).Boards[1][0].Card
	discards := len(lifeState(t, h).Pile.Discard)
	if r := bea.Click(hand, lifeButton(hand, "replace=family")); r == nil || r.Type != 7 {
		t.Fatalf("the replace answered %+v", r)
	}
	st := lifeState(t, h)
	if st.Boards[1][0] != (life.Slot{Card: challenge, Up: true}) {
		t.Fatalf("Bea's Family is %+v; want the %s face up", st.Boards[1][0], challenge)
	}
	if len(st.Pile.Discard) != discards+1 || st.Pile.Discard[len(st.Pile.Discard)-1] != old {
		t.Fatalf("the replaced %s is not on the discards: %v", old, st.Pile.Discard)
	}
	if !strings.Contains(h.table().Text(), "Family **7♥**") {
		t.Fatalf("the table does not show Bea's new Family:\n%s", h.table().Text())
	}
	text := channelText(h)
	if !strings.Contains(text, "**Success!**") || !strings.Contains(text, "Family") || !strings.Contains(text, "7♥") {
		t.Fatalf("the win is not told:\n%s", text)
	}
	if !strings.Contains(text, "back") && !strings.Contains(text, "restores") && !strings.Contains(text, "finds a new Family") {
		t.Fatalf("the story does not say the lost Family is back:\n%s", text)
	}

	// Ann wins too, and keeps her cards: the challenge goes to the discards.
	rigLife(t, h, func(s *life.State) {
		s.Boards[0][4] = life.Slot{Card: lifeCard(t, "AS"), Up: true}
		rigDice(t, s, 6, 5)
		if s.Challenge.PipValue() > 11 {
			t.Fatal("no challenge above 11")
		}
	})
	ch := *lifeState(t, h).Challenge
	board := lifeState(t, h).Boards[0]
	hand = lifeHand(t, h, ann)
	ann.Click(hand, lifeButton(hand, "use=body"))
	hand = h.fake.Message(h.ch, hand.ID)
	if r := ann.Click(hand, lifeButton(hand, "keep")); r == nil || r.Type != 7 {
		t.Fatalf("Keep answered %+v", r)
	}
	st = lifeState(t, h)
	if st.Boards[0] != board || st.Pile.Discard[len(st.Pile.Discard)-1] != ch {
		t.Fatalf("keeping changed Ann's board or did not discard the %s", ch)
	}
}

// A tie on score and face-up advantages is a shared win, said so at the
// end and counted in the server's stats for both; on score alone, the
// most advantages face up wins.
func TestLifeAuditTiesAtTheEnd(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprint("shared=", shared), func(t *testing.T) {
			h := newHarness(t)
			users := lifeAuditGame(t, h, 3, fakediscord.Bool("roleplay", false))
			lifeBegin(t, h, users[0])
			rigLife(t, h, func(s *life.State) {
				set := func(seat int, codes ...string) {
					for i, code := range codes {
						s.Boards[seat][i] = life.Slot{Card: lifeCard(t, strings.TrimPrefix(code, "-")), Up: !strings.HasPrefix(code, "-")}
					}
				}
				// Ann, the dealer, rolls last: her one card cannot win.
				set(0, "-2C", "-3C", "-4C", "-5C", "-6C", "2D")
				set(1, "KH", "QH", "JH", "TH", "-2H", "-3H") // 40, four up
				if shared {
					set(2, "KS", "QS", "JS", "TS", "-2S", "-3S") // 40, four up
				} else {
					set(2, "AS", "AD", "9S", "9D", "-4S", "-5S") // 40, four up
					set(1, "KH", "QH", "JH", "4H", "3H", "3D")   // 40, six up
				}
				s.Round, s.Turn = 5, 2
				c := lifeCard(t, "KC")
				s.Challenge = &c
				rigDice(t, s, 6, 6)
			})
			lifeTurn(t, h, users)
			if rec, _ := h.db.Game(h.ch); rec != nil {
				t.Fatal("the game did not end after the dealer's last roll")
			}
			fs := finalScores(t, h)
			stats, _ := h.db.Stats(h.fake.GuildID())
			won := func(u *fakediscord.User) int {
				if p := stats[u.ID]; p != nil && p.Games["life"] != nil {
					return p.Games["life"].Won
				}
				return -1
			}
			if shared {
				if !strings.Contains(fs, "🏆 **Bea** and **Cy** share the win with 40 points and 4 advantages face up each.") {
					t.Fatalf("no shared win:\n%s", fs)
				}
				if won(users[1]) != 1 || won(users[2]) != 1 || won(users[0]) != 0 {
					t.Fatalf("stats: Ann %d, Bea %d, Cy %d wins", won(users[0]), won(users[1]), won(users[2]))
				}
				return
			}
			if !strings.Contains(fs, "🏆 **Bea** wins the tie on 40 points with the most advantages still face up.") {
				t.Fatalf("the tie-break is not told:\n%s", fs)
			}
			if won(users[1]) != 1 || won(users[2]) != 0 {
				t.Fatalf("stats: Bea %d, Cy %d wins", won(users[1]), won(users[2]))
			}
		})
	}
}

// Markers never given can put a score below zero: the final scores and the
// winner line write it as the table does, with a real minus sign.
func TestLifeAuditNegativeScoresAtTheEnd(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 2)
	lifeBegin(t, h, users[0])
	rigLife(t, h, func(s *life.State) {
		for i := range 6 {
			s.Boards[0][i].Up = false
			s.Boards[1][i].Up = i == 0
		}
		s.Boards[1][0].Card = lifeCard(t, "2C")
		s.Round, s.Turn = 5, 1 // the dealer's last turn
	})
	lifeTurn(t, h, users) // Ann can only roll
	if rec, _ := h.db.Game(h.ch); rec != nil {
		t.Fatal("the game did not end")
	}
	fs := finalScores(t, h)
	for _, want := range []string{"**Bea** — −1 (cards 2, markers +0 −3;", "**Ann** — −3 (cards 0, markers +0 −3;", "🏆 **Bea** wins with −1 points."} {
		if !strings.Contains(fs, want) {
			t.Errorf("the final scores lack %q:\n%s", want, fs)
		}
	}
}

// The bot is killed while it tells the end of the game: after the restart
// the life stories and the final scores are in the channel once, and each
// player's result is counted once in the server's stats.
func TestLifeAuditKilledWhileTellingTheEnd(t *testing.T) {
	for _, step := range []string{"story", "table", "done"} {
		t.Run(step, func(t *testing.T) {
			h := newHarness(t)
			users := lifeAuditGame(t, h, 2, fakediscord.Bool("roleplay", false))
			lifeBegin(t, h, users[0])
			rigLife(t, h, func(s *life.State) { s.Round, s.Turn = 5, 1 })
			killAt(t, h, step, func() { lifeTurn(t, h, users) })
			h.bot.Idle()
			if rec, _ := h.db.Game(h.ch); rec != nil {
				t.Fatalf("killed at %s: the game is still running", step)
			}
			text := channelText(h)
			for _, once := range []string{"🏁 **Final scores**", "📖 **Ann** started life", "📖 **Bea** started life"} {
				if n := strings.Count(text, once); n != 1 {
					t.Fatalf("killed at %s: %q told %d times", step, once, n)
				}
			}
			stats, _ := h.db.Stats(h.fake.GuildID())
			for _, u := range users {
				if p := stats[u.ID]; p == nil || p.Games["life"] == nil || p.Games["life"].Played != 1 {
					t.Fatalf("killed at %s: %s's stats %+v", step, u.Name, p)
				}
			}
		})
	}
}

// A restart between a won roll and the choice it gives keeps the choice:
// the winner's open hand still takes the challenge card into their life.
func TestLifeAuditRestartBetweenAWinAndItsChoice(t *testing.T) {
	h := newHarness(t)
	users := lifeAuditGame(t, h, 2)
	bea := users[1]
	lifeBegin(t, h, users[0])
	rigLife(t, h, func(s *life.State) {
		s.Boards[1][5] = life.Slot{Card: lifeCard(t, "AH"), Up: true}
		if s.Challenge.PipValue() > 11 {
			t.Fatal("no challenge above 11")
		}
		rigDice(t, s, 5, 6)
	})
	ch := *lifeState(t, h).Challenge
	hand := lifeHand(t, h, bea)
	bea.Click(hand, lifeButton(hand, "use=heart"))
	h.restart()
	hand = h.fake.Message(h.ch, hand.ID)
	if lifeButton(hand, "replace=money") == "" {
		t.Fatalf("after the restart Bea's hand offers:\n%s", hand.ButtonsLine())
	}
	if r := bea.Click(hand, lifeButton(hand, "replace=money")); r == nil || r.Type != 7 {
		t.Fatalf("the replace after the restart answered %+v", r)
	}
	if st := lifeState(t, h); st.Boards[1][1] != (life.Slot{Card: ch, Up: true}) || st.ToAct()[0] != 0 {
		t.Fatalf("Bea's Money is %+v, waiting for %v", st.Boards[1][1], st.ToAct())
	}
}
