package bot_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/lnf"
)

const awayLine = "was away too long"

// botMoves are the moves the bot made for absent players, by seat, as the
// game's log holds them.
func botMoves(t *testing.T, h *harness) map[int]int {
	t.Helper()
	return botMovesIn(t, h, h.record().ID)
}

// botMovesIn is botMoves of game id, which may have ended.
func botMovesIn(t *testing.T, h *harness, id string) map[int]int {
	t.Helper()
	log, err := h.db.History(id)
	if err != nil {
		t.Fatal(err)
	}
	n := map[int]int{}
	for _, e := range log {
		if e.Input.Kind == games.InTimer && e.Input.Ref == "bot:act" {
			n[e.Input.Seat]++
		}
	}
	return n
}

// actAt is when the bot moves for seat (Unix ms), 0 for never.
func actAt(h *harness, seat int) int64 {
	rec := h.record()
	return rec.Timers[fmt.Sprintf("bot:act:%d:%d", seat, rec.Seats[seat].WaitingSince)]
}

var deadlineRe = regexp.MustCompile(`⏰ The bot moves for (.*) <t:(\d+):R> unless they move first\.`)

// deadlines are the table's deadline lines: who, and when (Unix s).
func deadlines(h *harness) map[string]string {
	out := map[string]string{}
	for _, m := range deadlineRe.FindAllStringSubmatch(h.table().Text(), -1) {
		out[m[1]] = m[2]
	}
	return out
}

func pingsOf(h *harness, us []*fakediscord.User) []int {
	var n []int
	for _, u := range us {
		n = append(n, h.fake.Pings(u.ID))
	}
	return n
}

// A Dealt! hand too long for one menu of plays is played by choosing its
// first card, then the play: at the deadline the bot makes a play for the
// absent player, not just open the menu (and at the next deadline close
// it again with Back, for ever).
func TestTimersAuditDealtLongHandIsPlayedAtTheDeadline(t *testing.T) {
	h := newHarness(t)
	users := startDealt3(t, h)
	rigDealt(t, h, func(s *dealt.State, take func(string) dealt.Card) {
		p := &s.Players[s.Turn]
		for len(s.Pile.Draw) > 0 {
			p.Hand = append(p.Hand, take(s.Pile.Draw[len(s.Pile.Draw)-1].Code()))
		}
		for i := range s.Players { // the others keep three cards each
			for o := &s.Players[i]; o != p && len(o.Hand) > 3; {
				p.Hand = append(p.Hand, take(o.Hand[0].Code()))
			}
		}
	})
	st := dealtState(t, h)
	seat, cards := st.Turn, len(st.Players[st.Turn].Hand)
	two := false
	for _, sel := range openHand(t, h, users[seat]).Selects() {
		two = two || strings.HasSuffix(sel.CustomID, ":"+dealt.VerbFrom) || strings.Contains(sel.CustomID, ":"+dealt.VerbFrom+"#")
		two = two || len(sel.Options) > 0 && strings.HasPrefix(sel.Options[0].Label, "From card")
	}
	if !two {
		// Opening the hand counts as watching; the clock is the turn's.
		t.Fatal("the rigged hand does not need the two-step menu: the test proves nothing")
	}
	h.tick(10*time.Minute + time.Second)
	st = dealtState(t, h)
	if st.Turn == seat || len(st.Players[seat].Hand) >= cards {
		t.Fatalf("ten minutes on, seat %d still leads with %d cards (was %d), from=%d; table:\n%s",
			seat, len(st.Players[seat].Hand), cards, st.From, h.table().Text())
	}
	if botMoves(t, h)[seat] == 0 || !strings.Contains(h.table().Text(), awayLine) {
		t.Fatalf("no move for the absent player is on record:\n%s", h.table().Text())
	}
}

// Killed at each step of the output of the bot's move for an absent player
// and started again: the move is made once, said once, and the table ends
// showing the next player's deadline, not the spent one.
func TestTimersAuditDeadlineMoveOnceAcrossKills(t *testing.T) {
	for n := 1; ; n++ {
		stop := false
		t.Run(fmt.Sprint("step", n), func(t *testing.T) {
			h := newBenchHarness(t)
			ann, bea := duelTable(t, h, h.ch, 0)
			users := []*fakediscord.User{ann, bea}
			rec := h.record()
			seat := rec.Waiting[0]
			spent := actAt(h, seat)
			h.tick(6 * time.Minute)
			pings := pingsOf(h, users)
			version := rec.Version
			at := h.killAtStep(n)
			h.advance(5 * time.Minute)
			h.bot.FireDue()
			h.bot.Idle()
			if !h.killed {
				h.crashAt = nil
				stop = true
				return
			}
			t.Logf("killed at %q", *at)
			h.downFor(time.Second, "the move's output")
			h.tick(0)
			h.restart()
			h.tick(time.Minute)
			if got := botMoves(t, h); got[seat] != 1 || len(got) != 1 {
				t.Fatalf("bot moves after a kill at %q: %v; want one for seat %d", *at, got, seat)
			}
			if v := h.record().Version; v < version+1 {
				t.Fatalf("version %d, was %d", v, version)
			}
			text := h.table().Text()
			if !strings.Contains(text, awayLine) || strings.Contains(text, fmt.Sprintf("<t:%d:R>", spent/1000)) {
				t.Fatalf("after a kill at %q the table reads:\n%s", *at, text)
			}
			next := h.record().Waiting[0]
			if d := deadlines(h); d["**"+users[next].Name+"**"] != fmt.Sprint(actAt(h, next)/1000) {
				t.Fatalf("deadlines %v; want %s's at %d", d, users[next].Name, actAt(h, next)/1000)
			}
			// Nobody is pinged twice for the move: the next player once at most.
			now := pingsOf(h, users)
			if now[seat] != pings[seat] && next != seat || now[next]-pings[next] > 1 {
				t.Fatalf("pings %v, were %v (absent seat %d, next %d)", now, pings, seat, next)
			}
			live := 0
			for _, m := range h.fake.Messages(h.ch) {
				if m.ButtonID("My hand") != "" {
					live++
				}
			}
			if live != 1 {
				t.Fatalf("%d tables with a My hand button after a kill at %q", live, *at)
			}
		})
		if stop || n > 12 {
			break
		}
	}
}

// lnfStarted is a three-player Life is not fair, but… after its swaps,
// everyone keeping their hand.
func lnfStarted(t *testing.T, h *harness) []*fakediscord.User {
	t.Helper()
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")}
	users[0].Command(h.ch, "game", newGame("lnf"))
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	return users
}

// Everyone may swap before the first turn, all at once: the table names
// everyone due, drops whoever moves, each late player is reminded once and
// played for once, and nobody who moved is pinged or played for.
func TestTimersAuditSimultaneousSwapPhase(t *testing.T) {
	h := newHarness(t)
	users := lnfStarted(t, h)
	if w := h.record().Waiting; len(w) != 3 {
		t.Fatalf("waiting for %v; want all three at the swap", w)
	}
	start := pingsOf(h, users)
	if !slices.Equal(start, []int{1, 1, 1}) {
		t.Fatalf("pings at the start %v; want one each", start)
	}
	due := actAt(h, 0)
	if d := deadlines(h); d["**Ann**, **Bea** and **Cy**"] != fmt.Sprint(due/1000) {
		t.Fatalf("deadline lines %v; want all three at %d:\n%s", d, due/1000, h.table().Text())
	}
	h.tick(3 * time.Minute)
	h.press(users[0], "Keep my hand", "")
	if d := deadlines(h); len(d) != 1 || d["**Bea** and **Cy**"] != fmt.Sprint(due/1000) {
		t.Fatalf("after Ann kept her hand the deadline lines are %v:\n%s", d, h.table().Text())
	}
	h.tick(2*time.Minute + time.Second)
	if got := pingsOf(h, users); !slices.Equal(got, []int{1, 2, 2}) {
		t.Fatalf("pings after five minutes %v; want a reminder each for Bea and Cy only", got)
	}
	h.tick(4 * time.Minute)
	if got := pingsOf(h, users); !slices.Equal(got, []int{1, 2, 2}) || len(botMoves(t, h)) != 0 {
		t.Fatalf("pings %v, bot moves %v before the deadline", got, botMoves(t, h))
	}
	hands := lnfState(t, h).Hands
	h.tick(time.Minute)
	if got := botMoves(t, h); got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("bot moves at the deadline %v; want one each for Bea and Cy", got)
	}
	st := lnfState(t, h)
	for seat := 1; seat <= 2; seat++ { // the bot keeps an absent hand; it never swaps at random
		if !slices.Equal(st.Hands[seat], hands[seat]) {
			t.Errorf("the bot changed %s's hand from %v to %v", users[seat].Name, hands[seat], st.Hands[seat])
		}
	}
	if st.Phase == lnf.PhaseExchange {
		t.Fatalf("still swapping after everyone moved:\n%s", h.table().Text())
	}
	// The first turn's player (now due) is named alone, with a fresh clock.
	next := h.record().Waiting
	if len(next) != 1 {
		t.Fatalf("waiting for %v after the swaps", next)
	}
	if d := deadlines(h); len(d) != 1 || d["**"+users[next[0]].Name+"**"] != fmt.Sprint(actAt(h, next[0])/1000) {
		t.Fatalf("deadline lines %v after the swaps:\n%s", d, h.table().Text())
	}
	if left := time.UnixMilli(actAt(h, next[0])).Sub(h.now()); left < 9*time.Minute {
		t.Fatalf("the first turn's deadline is %v away", left)
	}
}

// A player who moves a moment before the deadline keeps their turn: the
// bot's move is cancelled, across a restart too, and the next player gets
// their full ten minutes.
func TestTimersAuditMoveJustBeforeTheDeadline(t *testing.T) {
	h := newHarness(t)
	users := lnfStarted(t, h)
	for _, u := range users {
		h.press(u, "Keep my hand", "")
	}
	seat := h.record().Waiting[0]
	u := users[seat]
	due := actAt(h, seat)
	h.tick(time.Duration(due-h.now().UnixMilli())*time.Millisecond - time.Second)
	hand := h.handOf(u)
	moved := false
	for _, b := range hand.Buttons() {
		if !b.Disabled && (strings.HasPrefix(b.Label, "Play") && !strings.Contains(b.Label, "say the line") || b.Label == "Draw a card") {
			u.Click(hand, b.CustomID)
			moved = true
			break
		}
	}
	if !moved {
		t.Fatalf("%s has no plain move:\n%s", u.Name, hand.Text())
	}
	h.restart()
	h.tick(2 * time.Second)
	if got := botMoves(t, h); len(got) != 0 {
		t.Fatalf("the bot moved for %v after %s moved in time", got, u.Name)
	}
	if strings.Contains(h.table().Text(), awayLine) || strings.Contains(h.table().Text(), fmt.Sprintf("<t:%d:R>", due/1000)) {
		t.Fatalf("the table still speaks of the spent deadline:\n%s", h.table().Text())
	}
	for _, s := range h.record().Waiting {
		if left := time.UnixMilli(actAt(h, s)).Sub(h.now()); s != seat && left < 9*time.Minute {
			t.Fatalf("seat %d's deadline is only %v away", s, left)
		}
	}
}

// A game ended while a deadline stands: nothing is moved or posted after.
func TestTimersAuditEndedGameWithAPendingDeadline(t *testing.T) {
	h := newHarness(t)
	ann, _ := duelTable(t, h, h.ch, 0)
	id := h.record().ID
	h.tick(4 * time.Minute)
	if r := h.endGame(ann, h.ch); r == nil {
		t.Fatal("no answer to the end")
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the game is still running")
	}
	posts, _ := h.db.Posts(id)
	table := h.fake.Message(h.ch, posts.Table)
	text, count := table.Text(), len(h.fake.Messages(h.ch))
	if strings.Contains(text, "The bot moves for") {
		t.Fatalf("the ended game's table still shows a deadline:\n%s", text)
	}
	h.tick(2 * time.Minute)
	h.restart()
	h.tick(30 * time.Minute)
	if n := len(h.fake.Messages(h.ch)); n != count {
		t.Fatalf("%d messages posted after the end: %v", n-count, h.messagesSince(count))
	}
	if now := h.fake.Message(h.ch, posts.Table).Text(); now != text {
		t.Fatalf("the ended table changed:\n%s\nwas:\n%s", now, text)
	}
	log, _ := h.db.History(id)
	for _, e := range log {
		if e.Input.Kind == games.InTimer {
			t.Fatalf("a timer moved in the ended game: %+v", e)
		}
	}
	if due, _, _ := h.db.DueBy(h.now().Add(30 * 24 * time.Hour)); len(due) != 0 {
		t.Fatalf("timers left for the ended game: %v", due)
	}
}

// Life and Improv only remind: no deadline on the table, one reminder of
// the seat whose move it is (Improv's GM too), never a move made for
// anyone, across a restart, however long the table waits.
func TestTimersAuditRolePlayGamesOnlyRemind(t *testing.T) {
	for _, kind := range []string{"life", "improv"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			var users []*fakediscord.User
			if kind == "life" {
				a, b := h.startedWith("life", "Ann", "Bea")
				users = []*fakediscord.User{a, b}
			} else {
				gm, players := improvCampaign(h, "Gus", "Pia")
				users = append([]*fakediscord.User{gm}, players...)
			}
			rec := h.record()
			if len(rec.Waiting) == 0 {
				t.Fatal("nobody is due")
			}
			if strings.Contains(h.table().Text(), "The bot moves for") || actAt(h, rec.Waiting[0]) != 0 {
				t.Fatalf("a role-play table promises a move for a player:\n%s", h.table().Text())
			}
			start := pingsOf(h, users)
			h.tick(29 * time.Minute)
			if got := pingsOf(h, users); !slices.Equal(got, start) {
				t.Fatalf("pings %v before half an hour, were %v", got, start)
			}
			h.tick(2 * time.Minute)
			want := slices.Clone(start)
			for _, s := range rec.Waiting {
				want[s]++
			}
			if got := pingsOf(h, users); !slices.Equal(got, want) {
				t.Fatalf("pings after half an hour %v; want %v (one reminder for %v)", got, want, rec.Waiting)
			}
			h.restart()
			for range 8 {
				h.tick(30 * time.Minute)
			}
			if got := pingsOf(h, users); !slices.Equal(got, want) {
				t.Fatalf("pings after four hours %v; want still %v", got, want)
			}
			if v := h.record().Version; v != rec.Version || len(botMoves(t, h)) != 0 {
				t.Fatalf("the bot moved in %s (version %d, was %d)", kind, v, rec.Version)
			}
		})
	}
}

// A player the host took out is played by the bot: no ping, no reminder,
// no deadline named for them; the others keep theirs.
func TestTimersAuditAwayPlayerIsNeitherPingedNorNamed(t *testing.T) {
	h := newHarness(t)
	users := lnfStarted(t, h)
	h.press(users[0], "Keep my hand", "")
	cy := users[2]
	r := users[0].Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", cy)))
	if r == nil || !strings.Contains(r.Content, "I play Cy's seat") {
		t.Fatalf("remove answered %+v", r)
	}
	before, id := h.fake.Pings(cy.ID), h.record().ID
	for range 24 {
		if strings.Contains(h.table().Text(), "**Cy**") && strings.Contains(h.table().Text(), "The bot moves for") {
			for _, l := range deadlineRe.FindAllString(h.table().Text(), -1) {
				if strings.Contains(l, "**Cy**") {
					t.Fatalf("the table names the away player's deadline: %s", l)
				}
			}
		}
		h.tick(5 * time.Minute)
		if g, _ := h.db.Game(h.ch); g == nil {
			break
		}
	}
	if got := h.fake.Pings(cy.ID); got != before {
		t.Fatalf("the away player was pinged %d times", got-before)
	}
	if botMovesIn(t, h, id)[2] != 0 {
		t.Fatal("the away seat was moved for by the deadline, not its computer")
	}
}
