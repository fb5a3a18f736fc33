package bot_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
	"github.com/cardtable/cardbot/store"
)

// Audit of a game night (several games in a row in one channel, with the
// server's standings from /game stats) and of computer players.

// nightCPUNow: computers move at once, right behind what made them due.
func nightCPUNow(h *harness) { h.computerBeat = time.Nanosecond }

// nightCPUOnCue: a computer's turn waits for the test's clock.
func nightCPUOnCue(h *harness) { h.computerBeat = time.Hour }

// nightOffers reports whether one of v's enabled controls sends a: a button's
// action (with any typed text), or a selection its menu allows.
func nightOffers(v games.View, a games.Action) bool {
	for _, b := range v.Buttons {
		if !b.Disabled && b.Action.Key() == a.Key() && (b.Ask != nil || a.Text == "") {
			return true
		}
	}
	for _, c := range v.Choices {
		if c.Verb != a.Verb {
			continue
		}
		hi := min(max(c.Max, 1), len(c.Options))
		if n := len(a.Args); n < min(c.Min, hi) || n > hi {
			continue
		}
		ok := true
		for k, arg := range a.Args {
			ok = ok && !slices.Contains(a.Args[:k], arg) && slices.ContainsFunc(c.Options, func(o games.ChoiceOption) bool { return o.Value == arg })
		}
		if ok {
			return true
		}
	}
	return false
}

// nightCheckCPUMoves replays a finished or running game's log and checks
// every move a computer seat made: it was the seat's turn, one of its own
// controls offered it, and it is what its policy chose (not the bot's
// fallback after a refusal). It returns how many there were.
func nightCheckCPUMoves(t *testing.T, h *harness, rec *store.Game) int {
	t.Helper()
	var rules games.Rules
	for _, r := range bot.Catalog() {
		if r.ID == rec.Kind {
			rules = r
		}
	}
	log, err := h.db.History(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.New(rec.Setup())
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for k, e := range log {
		in := e.Input
		if in.Kind == games.InMove && in.Seat >= 0 && in.Seat < len(rec.Seats) && rec.Seats[in.Seat].Computer != "" && !rec.Seats[in.Seat].Away {
			moves++
			hand := g.Hand(in.Seat)
			if !slices.Contains(g.ToAct(), in.Seat) {
				t.Fatalf("%s move %d: %s played %q out of turn", rec.Kind, k, rec.Seats[in.Seat].Name, in.Action.Key())
			}
			if !nightOffers(hand, in.Action) {
				t.Fatalf("%s move %d: %s played %q, which its hand does not offer:\n%+v", rec.Kind, k, rec.Seats[in.Seat].Name, in.Action.Key(), hand)
			}
			p := bot.Computers().For(rec.Kind)[rec.Seats[in.Seat].Computer]
			r := ai.SeedFor(rec.Seed, k, in.Seat)
			want, ok := ai.Step(g, in.Seat, p, &r)
			if !ok || want.Action.Key() != in.Action.Key() || want.Action.Text != in.Action.Text {
				t.Fatalf("%s move %d: %s played %q %q, but its policy chooses %q %q: a refused choice was replaced", rec.Kind, k, rec.Seats[in.Seat].Name, in.Action.Key(), in.Action.Text, want.Action.Key(), want.Action.Text)
			}
		}
		if _, err := games.Step(g, in); err != nil {
			t.Fatalf("%s move %d does not replay: %v", rec.Kind, k, err)
		}
	}
	return moves
}

// nightNoCPUMention fails if any message in the channel mentions a
// computer seat: a bot cannot be pinged.
func nightNoCPUMention(t *testing.T, h *harness, channel string) {
	t.Helper()
	for _, m := range h.fake.Messages(channel) {
		if strings.Contains(m.Content, "<@computer") || strings.Contains(m.Text(), "<@computer") {
			t.Fatalf("a message mentions a computer seat: %q", m.Content)
		}
	}
}

// One person with as many computers as each game seats plays it to the
// end: the computers never stall the table (after each of the person's
// moves the game waits for the person again), play only moves their own
// hand offers and that their policy chose, are never pinged nor given a
// hand, and stay out of the server's stats.
func TestNightAuditComputersFillEveryTable(t *testing.T) {
	for _, tc := range []struct {
		game      string
		computers int
		opts      []fakediscord.Option
	}{
		{"duel", 1, nil},
		{"life", 5, []fakediscord.Option{fakediscord.Bool("roleplay", false)}},
		{"lnf", 7, nil},
		{"lnf", 1, nil},
		{"dealt", 4, nil},
	} {
		t.Run(fmt.Sprintf("%s+%d", tc.game, tc.computers), func(t *testing.T) {
			h := newHarness(t, nightCPUNow)
			ann := h.fake.AddUser("Ann")
			ann.Command(h.ch, "game", newGame(tc.game, tc.opts...))
			for range tc.computers {
				if r := ann.Click(h.table(), h.table().ButtonID("Add a computer")); r == nil || r.Type != 7 {
					t.Fatalf("Add a computer answered %+v", r)
				}
			}
			if tc.game != "lnf" || tc.computers == 7 {
				before := h.snapshot()
				mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Add a computer")), "The table is full")
				if h.snapshot() != before {
					t.Fatal("a refused Add a computer changed the lobby")
				}
			}
			ann.Click(h.table(), h.table().ButtonID("Start"))
			rec := h.record()
			if len(rec.Seats) != tc.computers+1 || rec.Status != store.Playing {
				t.Fatalf("started with %d seats, %s", len(rec.Seats), rec.Status)
			}
			if tc.game == "duel" {
				buildCheapHand(t, h, ann, 30)
			}
			playAlone(t, h, ann, 3000)
			ended, err := h.db.Ended(rec.ID)
			if err != nil || ended == nil || ended.How != "finished" {
				t.Fatalf("the game ended as %+v (%v)", ended, err)
			}
			final := ended.Final
			if n := nightCheckCPUMoves(t, h, final); n == 0 {
				t.Fatal("no computer made a move")
			}
			for _, s := range final.Seats[1:] {
				if s.HandToken != "" || h.fake.Pings(s.User) != 0 {
					t.Fatalf("computer seat %s has a hand token %q or %d pings", s.Name, s.HandToken, h.fake.Pings(s.User))
				}
			}
			nightNoCPUMention(t, h, h.ch)
			st, _ := h.db.Stats(h.fake.GuildID())
			if len(st) != 1 || st[ann.ID] == nil || st[ann.ID].Games[tc.game].Played != 1 {
				t.Fatalf("stats: %+v", st)
			}
			if h.errors.Load() != 0 {
				t.Fatalf("the bot logged %d errors", h.errors.Load())
			}
		})
	}
}

// nightCPUInputs counts the moves logged for computer seats of a game.
func nightCPUInputs(t *testing.T, h *harness, rec *store.Game) int {
	t.Helper()
	log, err := h.db.History(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range log {
		if e.Input.Kind == games.InMove && e.Input.Seat > 0 && rec.Seats[e.Input.Seat].Computer != "" {
			n++
		}
	}
	return n
}

// nightCPUTimers lists the computer turns the game has pending.
func nightCPUTimers(rec *store.Game) []string {
	var keys []string
	for key, at := range rec.Timers {
		if strings.HasPrefix(key, "bot:cpu:") && at != 0 {
			keys = append(keys, key)
		}
	}
	return keys
}

// A computer's turn is a deadline in the store: a restart while it waits
// loses it not, and firing it once makes exactly one move, even when the
// process dies between that move's commit and its output, or restarts
// again after it.
func TestNightAuditComputerTurnAcrossRestarts(t *testing.T) {
	h := newHarness(t, nightCPUOnCue)
	ann := h.fake.AddUser("Ann")
	ann.Command(h.ch, "game", newGame("duel"))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	buildCheapHand(t, h, ann, 30)
	turn := func(what string) {
		t.Helper()
		rec := h.record()
		if keys := nightCPUTimers(rec); len(keys) != 1 || !slices.Contains(rec.Waiting, 1) {
			t.Fatalf("%s: the computer's pending turns %v, waiting for %v", what, keys, rec.Waiting)
		}
	}
	turn("after the start")
	h.restart()
	turn("after a restart")
	if n := nightCPUInputs(t, h, h.record()); n != 0 {
		t.Fatalf("the computer moved %d times before its turn came", n)
	}

	// Its turn comes: one move, not two, and another restart adds none.
	h.tick(time.Hour)
	rec := h.record()
	if n := nightCPUInputs(t, h, rec); n != 1 {
		t.Fatalf("after one turn the computer made %d moves", n)
	}
	h.restart()
	h.tick(time.Minute)
	if n := nightCPUInputs(t, h, h.record()); n != 1 {
		t.Fatalf("a restart made the computer move again (%d moves)", n)
	}

	// Killed in the output of its next move: the move is kept, shown
	// once after the restart, and not made again.
	for k := 1; k <= 3; k++ {
		before := nightCPUInputs(t, h, h.record())
		if !slices.Contains(h.record().Waiting, 1) {
			t.Fatalf("waiting for %v, not the computer", h.record().Waiting)
		}
		at := h.killAtStep(k)
		h.tick(time.Hour)
		h.crashAt = nil
		if !h.killed {
			t.Fatalf("the computer's move had no output step %d", k)
		}
		t.Logf("killed at %s", *at)
		h.killed = false
		h.fake.Killed()
		h.restart()
		h.tick(0)
		rec := h.record()
		if n := nightCPUInputs(t, h, rec); n != before+1 {
			t.Fatalf("killed at %s: %d computer moves, want %d", *at, n, before+1)
		}
		if d := h.fake.Duplicates(h.ch); len(d) != 0 {
			t.Fatalf("killed at %s: %q posted twice", *at, d[0].Content)
		}
		if owed, _ := h.db.Pending(); len(owed) != 0 {
			t.Fatalf("killed at %s: %d outputs still owed after the restart", *at, len(owed))
		}
		if last := rec.Log[len(rec.Log)-1]; !strings.Contains(h.table().Text(), last) {
			t.Fatalf("killed at %s: the table does not show the last move %q:\n%s", *at, last, h.table().Text())
		}
		// Let Ann move if it is her turn, so the computer is due again.
		for slices.Contains(h.record().Waiting, 0) {
			playOn(t, h, []*fakediscord.User{ann})
		}
	}
	if h.errors.Load() != 0 {
		t.Fatalf("the bot logged %d errors", h.errors.Load())
	}
}

// nightPlayToEnd plays the channel's game to its end, each move by whoever is
// to move among users (computers move by themselves), and returns its id.
func nightPlayToEnd(t *testing.T, h *harness, users []*fakediscord.User, limit int) string {
	t.Helper()
	id := h.record().ID
	for moves := 0; playOn(t, h, users); moves++ {
		if moves > limit {
			t.Fatalf("the game of %s did not end in %d moves", h.record().Kind, limit)
		}
	}
	return id
}

// nightTally is one person's line of the standings.
type nightTally struct{ won, played int }

// nightResultsOf replays an ended game from its log and adds what its own rules
// say of each person (not computer) seat to want.
func nightResultsOf(t *testing.T, h *harness, gameID string, want map[string]*nightTally) {
	t.Helper()
	e, err := h.db.Ended(gameID)
	if err != nil || e == nil || e.How != "finished" {
		t.Fatalf("game %s ended as %+v (%v)", gameID, e, err)
	}
	var rules games.Rules
	for _, r := range bot.Catalog() {
		if r.ID == e.Kind {
			rules = r
		}
	}
	log, err := h.db.History(gameID)
	if err != nil {
		t.Fatal(err)
	}
	var in []games.Input
	for _, x := range log {
		in = append(in, x.Input)
	}
	g, err := games.Replay(rules, e.Final.Setup(), in)
	if err != nil || !g.Over() {
		t.Fatalf("game %s replays to an unfinished game (%v)", gameID, err)
	}
	for _, r := range g.Results() {
		s := e.Final.Seats[r.Seat]
		if s.Computer != "" && !s.Away {
			continue
		}
		if want[s.Name] == nil {
			want[s.Name] = &nightTally{}
		}
		want[s.Name].played++
		if r.Winner {
			want[s.Name].won++
		}
	}
}

// nightStanding is one row of /game stats as shown.
type nightStanding struct {
	rank        int
	name        string
	won, played int
}

var nightStandingRow = regexp.MustCompile(`^(\d+)\\\. \*\*(.+?)\*\* — (\d+) won of (\d+) \(`)

// nightStandings asks /game stats as u and reads its rows.
func nightStandings(t *testing.T, h *harness, u *fakediscord.User) []nightStanding {
	t.Helper()
	r := u.Command(h.ch, "game", fakediscord.Sub("stats"))
	if r == nil || !r.Ephemeral || r.Message == nil {
		t.Fatalf("/game stats answered %+v", r)
	}
	var rows []nightStanding
	for _, line := range strings.Split(r.Message.Text(), "\n") {
		m := nightStandingRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := nightStanding{name: m[2]}
		s.rank, _ = strconv.Atoi(m[1])
		s.won, _ = strconv.Atoi(m[3])
		s.played, _ = strconv.Atoi(m[4])
		rows = append(rows, s)
	}
	return rows
}

// nightCheckStandings compares /game stats with the tallies the games' own
// results give: every person once, right counts, best first, and people
// with the same record sharing a rank.
func nightCheckStandings(t *testing.T, h *harness, u *fakediscord.User, want map[string]*nightTally) []nightStanding {
	t.Helper()
	rows := nightStandings(t, h, u)
	if len(rows) != len(want) {
		t.Fatalf("/game stats lists %d people, want %d: %+v", len(rows), len(want), rows)
	}
	for k, r := range rows {
		w := want[r.name]
		if w == nil || w.won != r.won || w.played != r.played {
			t.Fatalf("/game stats shows %s with %d won of %d, want %+v", r.name, r.won, r.played, w)
		}
		rank := 1
		for _, o := range rows {
			if o.won > r.won || o.won == r.won && o.played > r.played {
				rank++
			}
		}
		if r.rank != rank {
			t.Fatalf("/game stats ranks %s (%d won of %d) %d, want %d: %+v", r.name, r.won, r.played, r.rank, rank, rows)
		}
		if k > 0 && rows[k-1].rank > r.rank {
			t.Fatalf("/game stats is out of order: %+v", rows)
		}
	}
	return rows
}

// A game night: five games of four kinds in one channel, people coming and
// going between them, a computer at one table, a restart mid-game and one
// game ended early. The standings count each finished game once for each
// person in it, by its own rules' results, across kinds; the computer and
// the game ended early count for nothing; a tie shares its rank.
func TestNightAuditStandingsAcrossANight(t *testing.T) {
	h := newHarness(t, nightCPUNow)
	ann, bea, cy, di := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Di")
	everyone := []*fakediscord.User{ann, bea, cy, di}
	want := map[string]*nightTally{}
	mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("stats")), "No games have been finished")

	// Two lives told alone: each wins their own, and the two are tied.
	for _, u := range []*fakediscord.User{ann, bea} {
		u.Command(h.ch, "game", newGame("life"))
		u.Click(h.table(), h.table().ButtonID("Start"))
		nightResultsOf(t, h, nightPlayToEnd(t, h, everyone, 200), want)
	}
	if rows := nightCheckStandings(t, h, cy, want); len(rows) != 2 || rows[0].rank != 1 || rows[1].rank != 1 {
		t.Fatalf("Ann and Bea, each 1 won of 1, are not tied: %+v", rows)
	}

	// A duel, then its rematch, where Bea makes way for Cy.
	ann.Command(h.ch, "game", newGame("duel"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	first := nightPlayToEnd(t, h, everyone, 2000)
	nightResultsOf(t, h, first, want)
	posts, _ := h.db.Posts(first)
	final := h.fake.Message(h.ch, posts.Table)
	mustRefuse(t, cy.Click(final, final.ButtonID("Rematch")), "Only the players of that game")
	if r := bea.Click(final, final.ButtonID("Rematch")); r == nil || !strings.Contains(r.Content, "rematch lobby") {
		t.Fatalf("Rematch answered %+v", r)
	}
	mustRefuse(t, ann.Click(final, final.ButtonID("Rematch")), "already open")
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("Join")), "The table is full")
	bea.Click(h.table(), h.table().ButtonID("Leave"))
	cy.Click(h.table(), h.table().ButtonID("Join"))
	if got := seatNames(h.record()); got != "Ann,Cy" {
		t.Fatalf("the rematch seats %s", got)
	}
	ann.Click(h.table(), h.table().ButtonID("Start"))
	mustRefuse(t, bea.Click(final, final.ButtonID("Rematch")), "Another game is running")
	mustRefuse(t, di.Command(h.ch, "game", newGame("lnf")), "already a game of Card Duel")
	nightResultsOf(t, h, nightPlayToEnd(t, h, everyone, 2000), want)

	// Life is not fair with a computer at the table: it plays, it is not
	// ranked.
	cy.Command(h.ch, "game", newGame("lnf"))
	ann.Click(h.table(), h.table().ButtonID("Join"))
	di.Click(h.table(), h.table().ButtonID("Join"))
	cy.Click(h.table(), h.table().ButtonID("Add a computer"))
	cy.Click(h.table(), h.table().ButtonID("Start"))
	lnfGame := nightPlayToEnd(t, h, everyone, 2000)
	nightResultsOf(t, h, lnfGame, want)
	if e, _ := h.db.Ended(lnfGame); nightCheckCPUMoves(t, h, e.Final) == 0 {
		t.Fatal("the computer never moved")
	}

	// Dealt!, with a restart in the middle; nobody walks out of it.
	di.Command(h.ch, "game", newGame("dealt"))
	ann.Click(h.table(), h.table().ButtonID("Join"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	di.Click(h.table(), h.table().ButtonID("Start"))
	for range 10 {
		playOn(t, h, everyone)
	}
	h.restart()
	before := h.snapshot()
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("leave")), "can't leave a game in progress")
	if h.snapshot() != before {
		t.Fatal("a refused /game leave changed the game")
	}
	dealtGame := nightPlayToEnd(t, h, everyone, 2000)
	nightResultsOf(t, h, dealtGame, want)

	// A life ended early counts for no one.
	ann.Command(h.ch, "game", newGame("life"))
	di.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	playOn(t, h, everyone)
	mustRefuse(t, di.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host")
	if r := h.endGame(ann, h.ch); r == nil || !strings.Contains(r.Content, "You ended the game") {
		t.Fatalf("ending the game answered %+v", r)
	}

	h.restart()
	rows := nightCheckStandings(t, h, di, want)
	played := 0
	for _, r := range rows {
		played += r.played
	}
	if played != 2+2+2+3+3 {
		t.Fatalf("the standings count %d seats played, want 12: %+v", played, rows)
	}
	// After the restart the last game's Rematch still seats its players.
	posts, _ = h.db.Posts(dealtGame)
	final = h.fake.Message(h.ch, posts.Table)
	if r := ann.Click(final, final.ButtonID("Rematch")); r == nil || !strings.Contains(r.Content, "rematch lobby") {
		t.Fatalf("Rematch after the restart answered %+v", r)
	}
	if got := seatNames(h.record()); got != "Di,Ann,Bea" || h.record().Host != di.ID {
		t.Fatalf("the rematch seats %s, hosted by %s", got, h.record().Host)
	}
	if h.errors.Load() != 0 {
		t.Fatalf("the bot logged %d errors", h.errors.Load())
	}
}

// Only the host seats or unseats computers; a game without computer
// players, a full table, an empty list and a started game each refuse
// with a reason, to the clicker alone, and change nothing.
func TestNightAuditWhoSeatsComputers(t *testing.T) {
	h := newHarness(t, nightCPUNow)
	ann, bea, cy, di := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Di")
	mod := h.fake.AddAdmin("Mo")

	// Improv has no computer players: no buttons, and a forged click is
	// refused.
	ann.Command(h.ch, "game", newGame("improv"))
	if h.table().ButtonID("Add a computer") != "" {
		t.Fatalf("an Improv lobby offers computers:\n%s", h.table().ButtonsLine())
	}
	id, v := h.gameRef()
	before := h.snapshot()
	mustRefuse(t, forge(ann, h.table(), fmt.Sprintf("lobby:%s:%d:addcpu", id, v)), "has no computer players")
	if h.snapshot() != before {
		t.Fatal("a forged Add a computer changed the Improv lobby")
	}
	h.endGame(ann, h.ch)

	ann.Command(h.ch, "game", newGame("dealt"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	before = h.snapshot()
	mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Remove a computer")), "no computer player to remove")
	for _, u := range []*fakediscord.User{bea, cy, mod} {
		for _, label := range []string{"Add a computer", "Remove a computer"} {
			mustRefuse(t, u.Click(h.table(), h.table().ButtonID(label)), "Only the host, Ann, can add or remove computer players")
		}
	}
	if h.snapshot() != before {
		t.Fatal("a refused click changed the lobby")
	}

	// The host adds two, a person joins after them, and Remove takes the
	// last computer, never a person.
	// A double click (the second on the same view) adds one, not two; so
	// for Remove.
	for _, label := range []string{"Add a computer", "Remove a computer", "Add a computer"} {
		view := h.table()
		if r := ann.Click(view, view.ButtonID(label)); r == nil || r.Type != 7 {
			t.Fatalf("%s answered %+v", label, r)
		}
		before := h.snapshot()
		mustRefuse(t, ann.Click(view, view.ButtonID(label)), "out of date")
		if h.snapshot() != before {
			t.Fatalf("a double click of %s changed the lobby to %s", label, seatNames(h.record()))
		}
	}
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	cy.Click(h.table(), h.table().ButtonID("Join"))
	if got := seatNames(h.record()); got != "Ann,Bea,🤖 Robin 1,🤖 Robin 2,Cy" {
		t.Fatalf("seats %s", got)
	}
	before = h.snapshot()
	mustRefuse(t, di.Click(h.table(), h.table().ButtonID("Join")), "The table is full")
	mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Add a computer")), "The table is full")
	if h.snapshot() != before {
		t.Fatal("a refused click changed the full lobby")
	}
	ann.Click(h.table(), h.table().ButtonID("Remove a computer"))
	if got := seatNames(h.record()); got != "Ann,Bea,🤖 Robin 1,Cy" {
		t.Fatalf("after Remove a computer: %s", got)
	}
	if text := h.table().Text(); strings.Count(text, "🤖") != 1 || !strings.Contains(text, "Players (4/5)") {
		t.Fatalf("the lobby reads:\n%s", text)
	}
	// A stale Add a computer from before the start, after it: refused.
	id, v = h.gameRef()
	ann.Click(h.table(), h.table().ButtonID("Start"))
	before = h.snapshot()
	mustRefuse(t, forge(ann, h.table(), fmt.Sprintf("lobby:%s:%d:addcpu", id, v)), "already started")
	mustRefuse(t, forge(ann, h.table(), fmt.Sprintf("lobby:%s:%d:dropcpu", id, v)), "already started")
	if h.snapshot() != before {
		t.Fatal("a stale lobby click changed the running game")
	}
	if s := h.record().Seats[2]; s.Computer != ai.SensibleName {
		t.Fatalf("the computer seat plays %q, want the game's sensible player", s.Computer)
	}
}

// Bad input during a night with a computer at the table: a stranger's
// click, another player's move, a double click, a click while the computer
// is thinking, a stale hand after a restart, an unknown custom_id and an
// earlier game's buttons each get a short answer only the clicker sees (or,
// for an out-of-date hand, the hand as it is now) and change nothing.
func TestNightAuditBadClicksChangeNothing(t *testing.T) {
	h := newHarness(t, nightCPUOnCue)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	players := []*fakediscord.User{ann, bea}

	// An earlier game, cancelled in its lobby: its buttons say so.
	ann.Command(h.ch, "game", newGame("dealt"))
	oldLobby := h.table()
	ann.Click(oldLobby, oldLobby.ButtonID("Cancel"))

	ann.Command(h.ch, "game", newGame("dealt"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	// Play until the computer's turn is due.
	for moves := 0; len(nightCPUTimers(h.record())) == 0; moves++ {
		if moves > 100 {
			t.Fatal("the computer never came to move")
		}
		playOn(t, h, players)
	}
	unchanged := func(what, before string) {
		t.Helper()
		if h.snapshot() != before {
			t.Fatalf("%s changed the game", what)
		}
	}
	handOf := func(u *fakediscord.User) *fakediscord.Message {
		t.Helper()
		r := u.Click(h.table(), h.table().ButtonID("My hand"))
		if r == nil || !r.Ephemeral || r.Message == nil {
			t.Fatalf("%s's My hand answered %+v", u.Name, r)
		}
		return r.Message
	}
	// firstMove is the first control of a hand that makes a move: a
	// button, or a menu's first option (value).
	firstMove := func(m *fakediscord.Message) (id, value string) {
		for _, b := range m.Buttons() {
			if !b.Disabled && strings.HasPrefix(b.CustomID, "move:") {
				return b.CustomID, ""
			}
		}
		for _, sel := range m.Selects() {
			if !sel.Disabled && strings.HasPrefix(sel.CustomID, "move:") {
				return sel.CustomID, sel.Options[0].Value
			}
		}
		return "", ""
	}
	use := func(u *fakediscord.User, m *fakediscord.Message, id, value string) *fakediscord.Reply {
		if value == "" {
			return u.Click(m, id)
		}
		return u.Select(m, id, value)
	}

	// While the computer thinks.
	before := h.snapshot()
	mustRefuse(t, ann.Click(oldLobby, oldLobby.ButtonID("Join")), "That game has already been cancelled")
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("My hand")), "You're not playing in this game")
	mustRefuse(t, forge(cy, h.table(), "nonsense:42"), "I don't recognise that button")
	id, v := h.gameRef()
	mustRefuse(t, forge(cy, h.table(), fmt.Sprintf("lobby:%s:%d:join", id, v)), "Nobody can join")
	for _, u := range players {
		hand := handOf(u)
		if m, value := firstMove(hand); m != "" {
			mustRefuse(t, use(u, hand, m, value), "")
		}
		mustRefuse(t, forge(u, h.table(), fmt.Sprintf("move:%s:%d:stop", id, v)), "It's 🤖 Robin 1's turn")
	}
	unchanged("a click while the computer was to move", before)
	h.restart()
	unchanged("a restart while the computer was to move", before)
	h.tick(time.Hour)
	if n := nightCPUInputs(t, h, h.record()); n != 1 {
		t.Fatalf("the computer made %d moves in its turn", n)
	}

	// A person's turn: a double click makes one move; the other person's
	// forged copy of it, and the first click again after a restart, none.
	for moves := 0; !slices.ContainsFunc(h.record().Waiting, func(s int) bool { return s < 2 }); moves++ {
		if moves > 10 {
			t.Fatal("no person came to move")
		}
		h.tick(time.Hour)
	}
	rec := h.record()
	if len(rec.Waiting) != 1 {
		t.Fatalf("waiting for %v", rec.Waiting)
	}
	u, other := players[rec.Waiting[0]], players[1-rec.Waiting[0]]
	hand := handOf(u)
	move, value := firstMove(hand)
	if move == "" {
		t.Fatalf("%s has no move:\n%s", u.Name, hand.Text())
	}
	forged := move
	if value != "" {
		forged += "=" + value
	}
	before = h.snapshot()
	mustRefuse(t, forge(other, h.table(), forged), "It's "+u.Name+"'s turn")
	unchanged(other.Name+"'s copy of "+u.Name+"'s move", before)
	if r := use(u, hand, move, value); r == nil || r.Type != 7 {
		t.Fatalf("%s's move answered %+v", u.Name, r)
	}
	before = h.snapshot()
	stale := func(r *fakediscord.Reply) bool {
		return r != nil && (r.Type == 7 && strings.Contains(r.Content, "earlier moment") || r.Type != 7 && r.Ephemeral)
	}
	if r := use(u, hand, move, value); !stale(r) {
		t.Fatalf("the double click answered %+v", r)
	}
	unchanged("a double click", before)
	mustRefuse(t, forge(other, h.table(), forged), "out of date")
	unchanged(other.Name+"'s stale copy of "+u.Name+"'s move", before)
	h.restart()
	if r := use(u, hand, move, value); !stale(r) {
		t.Fatalf("a stale hand after a restart answered %+v", r)
	}
	unchanged("a stale hand after a restart", before)
	if n := len(h.fake.FailedInteractions()); n != 0 {
		t.Fatalf("%d interactions failed", n)
	}
	nightNoCPUMention(t, h, h.ch)
}

// A person plays Dealt! against two computers that move at once, while the
// process is killed in the output of every third of the person's moves
// and restarted. The game's log must be the very one an undisturbed night
// gives: no computer move lost, none made twice.
func TestNightAuditKilledMidTurnAgainstComputers(t *testing.T) {
	t.Parallel()
	play := func(kills bool) []string {
		h := newBenchHarness(t, nightCPUNow) // two in one test: newHarness would call t.Parallel twice
		ann := h.fake.AddUser("Ann")
		ann.Command(h.ch, "game", newGame("dealt"))
		ann.Click(h.table(), h.table().ButtonID("Add a computer"))
		ann.Click(h.table(), h.table().ButtonID("Add a computer"))
		ann.Click(h.table(), h.table().ButtonID("Start"))
		id := h.record().ID
		killed := 0
		for n := 0; n < 15; n++ {
			if w := h.record().Waiting; len(w) == 0 || w[0] != 0 {
				t.Fatalf("move %d: the game waits for %v, not Ann", n, w)
			}
			if kills && n%3 == 1 {
				h.killAtStep(n%4 + 1)
			}
			playOn(t, h, []*fakediscord.User{ann})
			h.crashAt = nil
			if h.killed {
				killed++
				h.killed = false
				h.fake.Killed()
				h.restart()
				if d := h.fake.Duplicates(h.ch); len(d) != 0 {
					t.Fatalf("move %d: %q posted twice", n, d[0].Content)
				}
			}
			if g, _ := h.db.Game(h.ch); g == nil {
				t.Fatal("the game ended before the test did")
			}
		}
		if kills && killed < 3 {
			t.Fatalf("only %d kills happened", killed)
		}
		if owed, _ := h.db.Pending(); len(owed) != 0 {
			t.Fatalf("%d outputs still owed", len(owed))
		}
		if n := nightCheckCPUMoves(t, h, h.record()); n == 0 {
			t.Fatal("the computers never moved")
		}
		log, _ := h.db.History(id)
		var out []string
		for _, e := range log {
			out = append(out, fmt.Sprintf("%d %s %s", e.Input.Seat, e.Input.Kind, e.Input.Action.Key()))
		}
		return out
	}
	calm, rough := play(false), play(true)
	if !slices.Equal(calm, rough) {
		for k := range min(len(calm), len(rough)) {
			if calm[k] != rough[k] {
				t.Fatalf("the logs part at input %d: %q undisturbed, %q with kills", k, calm[k], rough[k])
			}
		}
		t.Fatalf("the undisturbed log has %d inputs, the one with kills %d", len(calm), len(rough))
	}
}

// Ending a game while its computer is about to move: the computer's turn
// dies with it (the game's log stops, nothing counts), and the next game in
// the channel is not moved by the old game's deadline.
func TestNightAuditEndWhileTheComputerThinks(t *testing.T) {
	h := newHarness(t, nightCPUOnCue)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	ann.Command(h.ch, "game", newGame("duel"))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	old := h.record()
	if len(nightCPUTimers(old)) != 1 {
		t.Fatalf("the computer's turn is not pending: %v", old.Timers)
	}
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host")
	h.endGame(ann, h.ch)
	logged, _ := h.db.History(old.ID)

	// The next game of the night, opened at once: a life with a computer.
	ann.Command(h.ch, "game", newGame("life", fakediscord.Bool("roleplay", false)))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	next := h.record()
	h.restart()
	h.tick(2 * time.Hour) // past the old turn's due time; the new game waits for Ann
	if after, _ := h.db.History(old.ID); len(after) != len(logged) {
		t.Fatalf("the ended game's computer moved: %d inputs, then %d", len(logged), len(after))
	}
	if w := h.record().Waiting; len(w) != 1 || w[0] != 0 {
		t.Fatalf("the new life waits for %v, not its dealer", w)
	}
	if got := h.snapshot(); h.record().ID != next.ID || h.record().Version != next.Version {
		t.Fatalf("the old game's deadline moved the new game: %s", got)
	}
	if st, _ := h.db.Stats(h.fake.GuildID()); len(st) != 0 {
		t.Fatalf("an ended game counted: %+v", st)
	}
	mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("stats")), "No games have been finished")
}
