package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games/duel"
)

// tick moves the clock and lets every deadline due by then fire.
func (h *harness) tick(d time.Duration) {
	h.advance(d)
	h.bot.FireDue()
	h.bot.Idle()
}

func TestLobbyExpiresAfterHalfAnHour(t *testing.T) {
	h := newHarness(t)
	ann := h.fake.AddUser("Ann")
	ann.Command(h.ch, "game", newGame("duel"))
	lobby := h.tableID()
	h.tick(29 * time.Minute)
	if g, _ := h.db.Game(h.ch); g == nil {
		t.Fatal("the lobby closed early")
	}
	h.stop() // also across a restart
	h.advance(2 * time.Minute)
	h.start()
	h.tick(0)
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the lobby is still open after 31 minutes")
	}
	m := h.fake.Message(h.ch, lobby)
	if len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "within 30 minutes") {
		t.Fatalf("the expired lobby reads:\n%s", m.Text())
	}
}

// An absent player is reminded, then played for; the game never waits on
// them for good.
func TestAbsentPlayerIsRemindedThenPlayedFor(t *testing.T) {
	h := newHarness(t)
	ann, bea := duelTable(t, h, h.ch, 0)
	waiting := h.record().Waiting
	if len(waiting) != 1 {
		t.Fatalf("waiting for %v", waiting)
	}
	absent := []*fakediscord.User{ann, bea}[waiting[0]]
	pings := h.fake.Pings(absent.ID)
	version := h.record().Version
	// The table shows when the bot will move for them, counted down live.
	due := func() int64 {
		for key, at := range h.record().Timers {
			if strings.HasPrefix(key, fmt.Sprintf("bot:act:%d:", h.record().Waiting[0])) {
				return at
			}
		}
		t.Fatal("no timer to move for the waiting player")
		return 0
	}
	deadline := func() string { return fmt.Sprintf("<t:%d:R>", due()/1000) }
	first := deadline()
	if text := h.table().Text(); !strings.Contains(text, "moves for **"+absent.Name+"** "+first) {
		t.Fatalf("the table does not show when the bot moves for %s (%s):\n%s", absent.Name, first, text)
	}
	if left := time.UnixMilli(due()).Sub(h.now()); left > 10*time.Minute || left < 10*time.Minute-5*time.Second {
		t.Errorf("the deadline is %v away, want ten minutes", left)
	}
	h.tick(4 * time.Minute)
	if h.fake.Pings(absent.ID) != pings {
		t.Fatal("reminded before five minutes")
	}
	h.tick(2 * time.Minute)
	if h.fake.Pings(absent.ID) != pings+1 {
		t.Fatalf("%s was pinged %d times after six minutes; want one reminder", absent.Name, h.fake.Pings(absent.ID)-pings)
	}
	// The reminder says when the bot will move for them.
	reminded := false
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Content, "<@"+absent.ID+">") && strings.Contains(m.Content, "the bot will "+first) {
			reminded = true
		}
	}
	if !reminded {
		t.Errorf("no reminder of %s says the bot moves %s", absent.Name, first)
	}
	if h.record().Version != version {
		t.Fatal("a move was made before ten minutes")
	}
	h.tick(5 * time.Minute)
	rec := h.record()
	if rec.Version != version+1 || !strings.Contains(h.table().Text(), "away too long") {
		t.Fatalf("after eleven minutes: version %d (was %d), table:\n%s", rec.Version, version, h.table().Text())
	}
	if text := h.table().Text(); strings.Contains(text, first) || !strings.Contains(text, deadline()) {
		t.Fatalf("after the move the table should show the next deadline, not %s:\n%s", first, text)
	}
	// The move was made once; firing again changes nothing more.
	h.tick(time.Minute)
	if h.record().Version != version+1 {
		t.Fatal("the absent player's move was made twice")
	}
}

// The turn's clock counts from a player's last move, not from when their
// turn began: in a duel the attacker who deals damage attacks again, and a
// player building a hand picks card after card, and neither is away.
func TestTurnClockStartsAgainWithEachMove(t *testing.T) {
	t.Run("moves in a row", func(t *testing.T) {
		h := newHarness(t)
		ann, bea := duelTable(t, h, h.ch, 0)
		inARow := 0
		for i := range 16 {
			before := h.record()
			h.tick(9 * time.Minute) // just short of the ten minutes
			if h.record().Version != before.Version {
				t.Fatalf("move %d: the bot moved for seat %v, who last moved 9 minutes ago:\n%s", i, before.Waiting, h.table().Text())
			}
			// Hands older than an interaction token's 15 minutes are no
			// longer redrawn: the player opens theirs again, as on Discord.
			for _, u := range []*fakediscord.User{ann, bea} {
				u.Click(h.table(), h.table().ButtonID("My hand"))
			}
			if !move(h, h.ch, ann, bea) {
				t.Fatal("no move offered")
			}
			if slices.Equal(h.record().Waiting, before.Waiting) {
				inARow++
			}
		}
		if inARow == 0 {
			t.Fatal("no seat moved twice in a row: the test proves nothing")
		}
		// A player who does stop is still played for.
		version := h.record().Version
		h.tick(10*time.Minute + time.Second)
		if h.record().Version != version+1 || !strings.Contains(h.table().Text(), "away too long") {
			t.Fatalf("ten idle minutes after a move, nobody moved for the player:\n%s", h.table().Text())
		}
	})
	t.Run("building a hand", func(t *testing.T) {
		h := newHarness(t)
		ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
		openDuel(t, h, ann, bea)
		ann.Click(h.table(), h.table().ButtonID("Start"))
		r := ann.Click(h.table(), h.table().ButtonID("My hand"))
		for minute := range 9 {
			h.tick(time.Minute)
			menu := r.Message.Selects()[0]
			r = ann.Select(r.Message, menu.CustomID, menu.Options[minute%3].Value)
			if r == nil || r.Type != 7 {
				t.Fatalf("pick at minute %d answered %+v", minute+1, r)
			}
		}
		locked := func() bool {
			g, err := duel.Rules.Load(h.record().State)
			if err != nil {
				t.Fatal(err)
			}
			return g.(*duel.State).Players[0].Locked
		}
		h.tick(90 * time.Second) // 10.5 minutes since Start, 1.5 since the last pick
		if locked() {
			t.Fatalf("Ann's hand was locked in for her while she was picking cards:\n%s", h.table().Text())
		}
		h.tick(9 * time.Minute) // ten idle minutes since her last pick
		if !locked() || !strings.Contains(h.table().Text(), "Ann was away too long") {
			t.Fatalf("after ten idle minutes nobody moved for Ann:\n%s", h.table().Text())
		}
	})
}

// A game nobody touches for a week closes with a note.
func TestIdleGameClosesAfterAWeek(t *testing.T) {
	h := newHarness(t)
	ann := h.fake.AddUser("Ann")
	ann.Command(h.ch, "game", newGame("life"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	gameID := h.record().ID
	h.tick(6 * 24 * time.Hour)
	if g, _ := h.db.Game(h.ch); g == nil {
		t.Fatal("closed before a week")
	}
	h.tick(2 * 24 * time.Hour)
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("still open after eight idle days")
	}
	posts, _ := h.db.Posts(gameID)
	if m := h.fake.Message(h.ch, posts.Table); m == nil || !strings.Contains(m.Text(), "a week without a move") || len(m.Buttons()) != 0 {
		t.Fatalf("the closed table reads:\n%s", m.Text())
	}
}

func TestRematchWithTheSamePlayers(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.games = append(bot.Catalog(), councilRules) })
	gm, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	gm.Command(h.ch, "game", newGame("council"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	gm.Click(h.table(), h.table().ButtonID("Start"))
	gameID := h.record().ID
	hand := gm.Click(h.table(), h.table().ButtonID("My hand"))
	gm.Click(hand.Message, hand.Message.ButtonID("End"))
	posts, _ := h.db.Posts(gameID)
	m := h.fake.Message(h.ch, posts.Table)
	mustRefuse(t, cy.Click(m, m.ButtonID("Rematch")), "Only the players")
	r := bea.Click(m, m.ButtonID("Rematch"))
	if r == nil || !strings.Contains(r.Content, "rematch lobby") {
		t.Fatalf("rematch answered %+v", r)
	}
	rec := h.record()
	if rec.Status != "lobby" || seatNames(rec) != "Ann,Bea" || rec.Host != gm.ID {
		t.Fatalf("the rematch lobby: %s seats %s", rec.Status, seatNames(rec))
	}
	mustRefuse(t, bea.Click(m, m.ButtonID("Rematch")), "already open")
	if !strings.Contains(h.table().Text(), "Bea") {
		t.Fatalf("the new lobby:\n%s", h.table().Text())
	}
}

func TestEndNeedsConfirmation(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	r := ann.Command(h.ch, "game", fakediscord.Sub("end"))
	if r == nil || !r.Ephemeral || r.Message.ButtonID("End the game") == "" {
		t.Fatalf("/game end answered %+v", r)
	}
	if g, _ := h.db.Game(h.ch); g == nil {
		t.Fatal("/game end ended the game before it was confirmed")
	}
	if r := ann.Click(r.Message, r.Message.ButtonID("End the game")); r == nil || !strings.Contains(r.Content, "You ended") {
		t.Fatalf("the confirmation answered %+v", r)
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the confirmed end left the game open")
	}
}

// At every turn of a three-player life game and of a duel, the table is the
// last message of the channel (or of the game's thread), and a player told it is their move never looks
// at an out-of-date hand.
func TestTableStaysLastAndHandsNeverLie(t *testing.T) {
	for _, name := range []string{"life", "duel", "life in a thread", "duel in a thread"} {
		t.Run(name, func(t *testing.T) {
			game, threaded := strings.CutSuffix(name, " in a thread")
			h := newHarness(t, func(h *harness) { h.threads = threaded })
			var users []*fakediscord.User
			if game == "duel" {
				users = duelPlayers(t, h)
			} else {
				users = []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")}
				users[0].Command(h.ch, "game", newGame("life"))
				for _, u := range users[1:] {
					u.Click(h.table(), h.table().ButtonID("Join"))
				}
				users[0].Click(h.table(), h.table().ButtonID("Start"))
			}
			stale, checked := 0, 0
			for move := 0; move < 400; move++ {
				rec, _ := h.db.Game(h.ch)
				if rec == nil {
					break
				}
				where := h.where()
				if threaded != (where != h.ch) {
					t.Fatalf("move %d: the game is in %s", move, where)
				}
				all := h.fake.Messages(where)
				if last := all[len(all)-1]; last.ID != h.tableID() {
					t.Fatalf("move %d: the last message is not the table but %q", move, last.Content)
				}
				// What the player to move sees in their open hand, if any,
				// against a fresh one.
				u := users[rec.Waiting[0]]
				if open := u.LastEphemeral(where); open != nil && strings.Contains(open.Text(), "only you can see this") {
					fresh := u.Command(where, "game", fakediscord.Sub("hand"))
					checked++
					if fresh == nil || fresh.Message == nil || fresh.Message.Text() != open.Text() {
						stale++
					}
				}
				if !playOn(t, h, users) {
					break
				}
			}
			if checked < 5 || stale != 0 {
				t.Fatalf("%d of %d open hands were out of date at their player's turn", stale, checked)
			}
		})
	}
}

// Forced moves play themselves: two duellists who keep no cards have only
// "Top of deck" left, so once both lock in, the duel plays itself out with
// nobody pinged for a move they could not choose. With autoplay off, each
// forced move waits for its click.
func TestForcedMovesPlayThemselves(t *testing.T) {
	for _, auto := range []bool{true, false} {
		t.Run(fmt.Sprintf("autoplay %v", auto), func(t *testing.T) {
			h := newHarness(t)
			ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
			ann.Command(h.ch, "game", newGame("duel", fakediscord.Bool("autoplay", auto)))
			bea.Click(h.table(), h.table().ButtonID("Join"))
			ann.Click(h.table(), h.table().ButtonID("Start"))
			gameID := h.record().ID
			for _, u := range []*fakediscord.User{ann, bea} {
				r := u.Click(h.table(), h.table().ButtonID("My hand"))
				u.Click(r.Message, r.Message.ButtonID("Lock in hand"))
			}
			pings := h.fake.Pings(ann.ID) + h.fake.Pings(bea.ID)
			rec, _ := h.db.Game(h.ch)
			if auto {
				if rec != nil {
					t.Fatalf("the duel waits at move %d although every move is forced", rec.Version)
				}
				e, _ := h.db.Ended(gameID)
				log, _ := h.db.History(gameID)
				if e == nil || len(log) < 10 {
					t.Fatalf("ended %v after %d logged moves", e != nil, len(log))
				}
				if pings > 2 { // the deal's ping each, for building a hand
					t.Fatalf("%d pings for forced moves", pings-2)
				}
				return
			}
			if rec == nil || len(rec.Waiting) != 1 {
				t.Fatal("with autoplay off the duel did not wait for a click")
			}
		})
	}
}

// Moves within the hour leave the idle deadline where it was (each renewal
// rewrites the timer index); a move later than that renews it.
func TestIdleDeadlineRenewsHourly(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	startDuel(t, h, ann, bea)
	move := func() { // by the seat the table waits for, from a hand drawn now (the old tokens expired)
		t.Helper()
		rec := h.record()
		u := []*fakediscord.User{ann, bea}[rec.Waiting[0]]
		hand := u.Click(h.table(), h.table().ButtonID("My hand")).Message
		for _, b := range hand.Buttons() {
			if !b.Disabled && strings.HasPrefix(b.CustomID, "move:") {
				if r := u.Click(hand, b.CustomID); r == nil || r.Type != 7 || h.record().Version == rec.Version {
					t.Fatalf("move answered %+v", r)
				}
				return
			}
		}
		t.Fatalf("%s has no move:\n%s", u.Name, hand.Text())
	}
	first := h.record().Timers["bot:idle"]
	h.advance(20 * time.Minute)
	move()
	if rec := h.record(); rec.Timers["bot:idle"] != first {
		t.Fatalf("a move 20 minutes in moved the idle deadline by %v", time.Duration(rec.Timers["bot:idle"]-first)*time.Millisecond)
	}
	h.advance(time.Hour)
	move()
	// The harness's clock is the real one, moved on: the move came a few
	// ms before this look.
	if got, want := h.record().Timers["bot:idle"], h.now().Add(7*24*time.Hour).UnixMilli(); got < want-5000 || got > want {
		t.Fatalf("a move 80 minutes in left the idle deadline at %d, want about %d", got, want)
	}
}

// A campaign rests between sessions: it is not closed for a quiet week.
func TestCampaignOutlivesAQuietWeek(t *testing.T) {
	h := newHarness(t)
	h.startedWith("improv", "Ann", "Bea")
	h.tick(10 * 24 * time.Hour)
	if g, _ := h.db.Game(h.ch); g == nil {
		t.Fatal("the campaign was closed after a quiet week")
	}
}

// A hand refresh whose response is lost is sent again; if its player has
// moved from the first copy in the meantime, the copy must not land after
// the answer that drew the newer hand: what the player holds is never
// older than the game. Every answer is deferred at once (from the restart
// on), so a click returns while the bot still works on it.
func TestRetriedHandEditNeverHidesANewerAnswer(t *testing.T) {
	h := newHarness(t)
	users := duelPlayers(t, h)
	h.answerWithin = 1
	h.restart()
	rec := h.record()
	mover, next := rec.Waiting[0], 1-rec.Waiting[0]

	// Only edits through next's hand token: the mover's own answer is left alone.
	route := "/webhooks/{app}/" + rec.Seats[next].HandToken + "/messages/{message}"
	h.fake.Inject(fakediscord.Fault{Method: "PATCH", Route: route, Status: 500, Phase: fakediscord.After})
	held, release := h.fake.Hold("PATCH", route)
	defer release()
	// Clicks end at their answers, not when the bot's work is done: that
	// work is what the hold stops.
	h.fake.SetBarrier(false)
	h.fake.SetSettler(nil)

	if !pressFirst(t, users[mover], users[mover].LastEphemeral(h.ch), "") {
		t.Fatal("no move in the mover's hand")
	}
	select {
	case <-held: // the refresh of next's hand applied, its response lost, and its retry waiting
	case <-time.After(10 * time.Second):
		t.Fatal("no retried hand refresh after the lost response")
	}
	if now := h.record(); len(now.Waiting) != 1 || now.Waiting[0] != next {
		t.Fatalf("after the move, waiting for %v, want seat %d", now.Waiting, next)
	}
	hand := users[next].LastEphemeral(h.ch)
	applied := hand.ButtonsLine()
	if !pressFirst(t, users[next], hand, "") { // from the copy that was applied
		t.Fatal("the applied copy of the hand offers no move")
	}
	// The answer may land now, before the retry, as on a slow network; a
	// bot that orders them holds it until the release, and the wait ends
	// with the window.
	window := time.NewTimer(300 * time.Millisecond)
	defer window.Stop()
wait:
	for changed := h.fake.Changes(); h.fake.Message(h.ch, hand.ID).ButtonsLine() == applied; changed = h.fake.Changes() {
		select {
		case <-changed:
		case <-window.C:
			break wait
		}
	}
	release()

	h.fake.SetBarrier(true)
	h.fake.SetSettler(func() { h.bot.Idle() })
	h.bot.Idle()
	shown := h.fake.Message(h.ch, hand.ID)
	fresh := users[next].Command(h.ch, "game", fakediscord.Sub("hand"))
	if fresh == nil || fresh.Message == nil {
		t.Fatal("no fresh hand")
	}
	if got, want := shown.ButtonsLine(), fresh.Message.ButtonsLine(); got != want {
		t.Fatalf("the hand shows %s, the game %s", got, want)
	}
}
