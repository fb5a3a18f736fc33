package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// Moves faster than the table may be edited are drawn on it together: far
// fewer edits than moves, and the table ends showing the last move. Idle
// (and Close) draw a put-off edit at once, so no test waits for it.
func TestFastMovesShareTableEdits(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.tableEvery = time.Hour })
	ann, bea := duelTable(t, h, h.ch, 0)
	users := map[string]*fakediscord.User{ann.ID: ann, bea.ID: bea}
	h.fake.ResetRESTCounts()

	h.fake.SetSettler(nil) // nothing waits for the output lane between moves
	const moves = 20
	for n := 0; n < moves; n++ {
		rec := h.record()
		if len(rec.Waiting) != 1 {
			t.Fatalf("move %d: waiting for %v", n, rec.Waiting)
		}
		u := users[rec.Seats[rec.Waiting[0]].User]
		table := h.table()
		r := u.Click(table, table.ButtonID("My hand"))
		if r == nil || r.Message == nil {
			t.Fatalf("move %d: My hand answered %+v", n, r)
		}
		played := false
		for _, b := range r.Message.Buttons() {
			if !b.Disabled {
				if r := u.Click(r.Message, b.CustomID); r == nil || r.Type != 7 {
					t.Fatalf("move %d answered %+v", n, r)
				}
				played = true
				break
			}
		}
		if !played {
			t.Fatalf("move %d: %s's hand offers no move:\n%s", n, u.Name, r.Message.Text())
		}
	}
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)

	// Each move would edit the table (a global request); a story, now and
	// then, is an edit and a post.
	if n := h.fake.RESTCounts().Global; n == 0 || n > moves/2 {
		t.Fatalf("%d moves made %d requests against the global limit; want at least one, at most %d", moves, n, moves/2)
	}
	p, err := h.db.Posts(h.record().ID)
	if err != nil || p.Drawn != h.record().Version {
		t.Fatalf("the table shows move %d of %d (%v)", p.Drawn, h.record().Version, err)
	}
	shown := h.table().Text()
	ann.Command(h.ch, "game", fakediscord.Sub("table")) // a fresh drawing of the latest state
	if fresh := h.table().Text(); fresh != shown {
		t.Fatalf("the table does not show the latest state:\n%s\nfresh:\n%s", shown, fresh)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after Idle", len(owed))
	}
}

// playLife plays a whole game of life, every move as fast as the answers
// come (nothing waits for the output lane), and returns the channel's
// lines outside the table and how many requests counted against the
// global limit while it ran. With endAfter, the host ends the game with
// /game end after that many moves. With killAt, the bot dies at the
// killAt-th story message its output jobs come to, and a new process goes
// on.
func playLife(t *testing.T, every time.Duration, endAfter, killAt int) ([]string, int) {
	h := newBenchHarness(t, func(h *harness) { h.tableEvery = every })
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
	users[0].Command(h.ch, "game", newGame("life"))
	users[1].Click(h.table(), h.table().ButtonID("Join"))
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	h.fake.ResetRESTCounts()
	h.fake.SetSettler(nil)
	if killAt > 0 {
		// Each move's output is done before the next move (so the kill
		// falls where it is counted), and fast moves' stories still wait.
		h.fake.SetSettler(func() { h.bot.Settle() })
	}
	stories := 0
	h.crashAt = func(step string) bool {
		if step == "story" {
			stories++
			return stories == killAt
		}
		return false
	}
	restartIfKilled := func() {
		h.bot.Idle()
		if h.killed {
			h.killed = false
			h.fake.Killed()
			h.restart()
		}
	}
	moves := 0
	for ; moves < 300; moves++ {
		if killAt > 0 && h.killed {
			restartIfKilled()
		}
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			break
		}
		if endAfter > 0 && moves == endAfter {
			r := users[0].Command(h.ch, "game", fakediscord.Sub("end"))
			if r == nil || r.Message == nil || r.Message.ButtonID("End the game") == "" {
				t.Fatalf("/game end answered %+v", r)
			}
			if r := users[0].Click(r.Message, r.Message.ButtonID("End the game")); r == nil || r.Type == 0 {
				t.Fatalf("End the game answered %+v", r)
			}
			break
		}
		u := users[rec.Waiting[0]]
		r := u.Command(h.ch, "game", fakediscord.Sub("hand"))
		if r == nil || r.Message == nil {
			t.Fatalf("move %d: /game hand answered %+v", moves, r)
		}
		pressFirst(t, u, r.Message, "a line")
	}
	restartIfKilled()
	if killAt > 0 && stories < killAt {
		t.Fatalf("the game came to %d story messages, not %d", stories, killAt)
	}
	if moves < 10 || moves == 300 || (endAfter > 0 && moves != endAfter) {
		t.Fatalf("the game took %d moves", moves)
	}
	global := h.fake.RESTCounts().Global
	h.fake.SetSettler(h.bot.Idle)
	all := h.fake.Messages(h.ch)
	var lines []string
	for _, m := range all[:len(all)-1] { // the last is the final table
		for _, l := range strings.Split(m.Content, "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	t.Logf("%d moves, %d requests against the global limit, %d messages", moves, global, len(all))
	return lines, global
}

// Life tells a story with most moves: put off, the stories of fast moves go
// out together, with no line lost, doubled or out of order.
func TestFastMovesShareStoryMessages(t *testing.T) {
	t.Parallel()
	each, eachGlobal := playLife(t, -time.Nanosecond, 0, 0)
	folded, foldedGlobal := playLife(t, time.Hour, 0, 0)
	if len(each) < 10 {
		t.Fatalf("the game told %d lines", len(each))
	}
	sameStory(t, "folded", folded, each)
	if foldedGlobal*3 > eachGlobal {
		t.Fatalf("folded stories made %d requests against the global limit, move by move %d", foldedGlobal, eachGlobal)
	}
}

// A game ended while the stories of its last moves wait for the table's
// next edit still tells them, before its closed table.
func TestGameEndedTellsTheStoriesPutOff(t *testing.T) {
	t.Parallel()
	each, _ := playLife(t, -time.Nanosecond, 12, 0)
	folded, _ := playLife(t, time.Hour, 12, 0)
	if len(each) < 6 {
		t.Fatalf("12 moves told %d lines", len(each))
	}
	sameStory(t, "ended with stories put off", folded, each)
}

// The bot dies before each story message in turn of a game whose fast
// moves' stories go out together, some in more than one message: the new
// process tells what is left of the story, every line once and in order.
func TestKilledMidStoryTellsTheRestOnce(t *testing.T) {
	t.Parallel()
	want, _ := playLife(t, -time.Nanosecond, 0, 0)
	for killAt := 1; killAt <= 5; killAt++ {
		got, _ := playLife(t, time.Hour, 0, killAt)
		sameStory(t, fmt.Sprintf("killed at story message %d", killAt), got, want)
	}
}

// sameStory fails the test unless got tells the lines of want, in order.
func sameStory(t *testing.T, how string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s, the channel tells:\n%s\n\nmove by move:\n%s", how, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Many busy tables share the bot's global budget for table draws: they are
// drawn in turn, no more often than the budget allows, and each ends
// showing its latest state.
func TestBusyTablesShareTheGlobalBudget(t *testing.T) {
	const rate, channels, moves = 4.0, 4, 15
	h := newHarness(t, func(h *harness) { h.tableEvery, h.tableRate = time.Millisecond, rate })
	type table struct {
		ch       string
		ann, bea *fakediscord.User
	}
	var tables []table
	for n := range channels {
		ch := h.fake.NewChannel(fmt.Sprintf("duel-%d", n))
		h.fake.DenyThreads(ch)
		ann, bea := duelTable(t, h, ch, n)
		tables = append(tables, table{ch, ann, bea})
	}
	h.bot.Idle()
	h.fake.ResetRESTCounts()
	h.fake.SetSettler(nil)
	start := time.Now()
	for n := range moves * channels {
		tb := tables[n%channels]
		if !move(h, tb.ch, tb.ann, tb.bea) {
			t.Fatalf("move %d: the duel in %s ended early", n, tb.ch)
		}
	}
	elapsed := time.Since(start)
	global := h.fake.RESTCounts().Global
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)

	// A second's worth at once, then one draw per 1/rate.
	if most := int(rate + rate*elapsed.Seconds()); global > most {
		t.Fatalf("%d moves in %v made %d requests against the global limit; the budget allows %d", moves*channels, elapsed, global, most)
	}
	for _, tb := range tables {
		rec, _ := h.db.Game(tb.ch)
		p, err := h.db.Posts(rec.ID)
		if err != nil || p.Drawn != rec.Version {
			t.Fatalf("%s: the table shows move %d of %d (%v)", tb.ch, p.Drawn, rec.Version, err)
		}
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after Idle", len(owed))
	}
}

// Lobbies opened in many channels at once are posts, bound by Discord's
// global limit of 50 requests a second: they go out in turn, every one of
// them, and Discord (the fake holds bots to its limit) answers none 429.
// Before, only table edits waited for the budget, and a burst of posts
// went out together: 429s, which count toward Discord's ban on invalid
// requests.
func TestPostsFromManyChannelsStayWithinTheGlobalLimit(t *testing.T) {
	const channels = 70
	h := newHarness(t)
	var chs []string
	for n := range channels {
		ch := h.fake.NewChannel(fmt.Sprintf("lobby-%d", n))
		h.fake.DenyThreads(ch)
		chs = append(chs, ch)
	}
	h.bot.Idle()
	h.fake.ResetRESTCounts()
	var wg sync.WaitGroup
	for n, ch := range chs {
		u := h.fake.AddUser(fmt.Sprintf("Host%d", n))
		wg.Go(func() { u.Command(ch, "game", newGame("duel")) })
	}
	wg.Wait()
	h.bot.Idle()
	c := h.fake.RESTCounts()
	if c.GlobalLimited != 0 || c.Invalid != 0 {
		t.Fatalf("%d requests went past the global limit (%d invalid in all)", c.GlobalLimited, c.Invalid)
	}
	if posts := c.ByRoute["POST "+fakediscord.RouteMessages]; posts < channels {
		t.Fatalf("%d lobbies posted for %d channels", posts, channels)
	}
	for _, ch := range chs {
		rec, err := h.db.Game(ch)
		if err != nil || rec == nil {
			t.Fatalf("%s: no lobby stored (%v)", ch, err)
		}
		p, _ := h.db.Posts(rec.ID)
		if m := h.fake.Message(ch, p.Table); m == nil || m.ButtonID("Join") == "" {
			t.Fatalf("%s: the lobby is not in the channel", ch)
		}
	}
}

// A kill after a flush posted the stories and table of moves put off, but
// before it recorded them, with a later move committed meanwhile: the
// flush's nonces are its last move's, so after the restart that move's
// replay must post its own table (Discord hands back the dead process's
// copy) rather than wait for a flush of its own under another move's
// nonce. Either way the channel ends with one table, not a stale copy with
// live buttons beside the new one.
// lifeHarness opens a game of life with tables drawn at most hourly, and
// returns a move: the first control of the waiting player's hand. A move
// may run off the test's goroutine, so it returns what went wrong.
func lifeHarness(t *testing.T) (*harness, func() error) {
	h := newBenchHarness(t, func(h *harness) { h.tableEvery = time.Hour })
	users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
	users[0].Command(h.ch, "game", newGame("life"))
	users[1].Click(h.table(), h.table().ButtonID("Join"))
	users[0].Click(h.table(), h.table().ButtonID("Start"))
	return h, func() error { return lifeMove(h, users) }
}

// lifeMove makes the next move of a game of Play the Hand You're Dealt:
// the waiting player opens their hand and presses its first live button,
// writing a line where a move asks for one.
func lifeMove(h *harness, users []*fakediscord.User) error {
	rec, err := h.db.Game(h.ch)
	if err != nil || rec == nil || len(rec.Waiting) == 0 {
		return fmt.Errorf("no move to make: %v", err)
	}
	u := users[rec.Waiting[0]]
	hand := u.Command(h.ch, "game", fakediscord.Sub("hand"))
	if hand == nil || hand.Message == nil {
		return fmt.Errorf("/game hand answered %+v", hand)
	}
	for _, b := range hand.Message.Buttons() {
		if b.Disabled {
			continue
		}
		r := u.Click(hand.Message, b.CustomID)
		if r != nil && r.Modal != nil {
			r = u.Submit(r.Modal, map[string]string{"text": "a line"})
		}
		if r == nil || r.Type == 0 {
			return fmt.Errorf("%q answered %+v", b.Label, r)
		}
		return nil
	}
	return fmt.Errorf("%s's hand offers no move", u.Name)
}

// storyLines are the lines of the channel's messages above its last (the
// table), top to bottom.
func storyLines(h *harness) []string {
	all := h.fake.Messages(h.ch)
	var lines []string
	for _, m := range all[:len(all)-1] {
		for _, l := range strings.Split(m.Content, "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	return lines
}

func TestKillAfterAFlushLeavesOneTable(t *testing.T) {
	t.Parallel()
	// The same four moves without a kill, for the story they tell.
	calm, calmMove := lifeHarness(t)
	for range 4 {
		if err := calmMove(); err != nil {
			t.Fatal(err)
		}
	}
	calm.bot.Idle()
	want := storyLines(calm)

	h, move := lifeHarness(t)
	if err := move(); err != nil { // its output draws the table: the clock starts
		t.Fatal(err)
	}
	// The next moves' outputs are put off (they draw nothing); the first
	// to draw a table is the flush, which then ends ("done").
	drawn, flushed := false, make(chan error, 1)
	h.crashAt = func(step string) bool {
		drawn = drawn || step == "table"
		if !drawn || step != "done" {
			return false
		}
		flushed <- move() // its output queues behind the flush, and dies with it
		return true
	}
	h.fake.SetSettler(nil)
	for range 2 { // put off: the table was drawn just now
		if err := move(); err != nil {
			t.Fatal(err)
		}
	}
	h.bot.Idle() // runs the flush now
	h.crashAt = nil
	if !h.killed {
		t.Fatal("the flush never ended")
	}
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	hands := func() []*fakediscord.Message {
		var ms []*fakediscord.Message
		for _, m := range h.fake.Messages(h.ch) {
			if m.ButtonID("My hand") != "" {
				ms = append(ms, m)
			}
		}
		return ms
	}
	if ms := hands(); len(ms) != 1 || ms[0].ID != h.tableID() {
		t.Fatalf("before the restart: %d tables, want the flush's one, recorded as soon as it was posted", len(ms))
	}
	// The flush marked the outputs whose story it told done once it was
	// out (how many it took depends on timing); its last output, and the
	// move queued behind it, are owed.
	if owed, _ := h.db.Pending(); len(owed) < 2 {
		t.Fatalf("%d outputs owed at the kill, want at least the flush's last and the move behind it", len(owed))
	}
	h.killed = false
	h.fake.SetSettler(h.bot.Idle)
	h.restart()
	ms := hands()
	if len(ms) != 1 {
		var where []string
		for _, m := range ms {
			where = append(where, fmt.Sprintf("%s (nonce %s)", m.ID, m.Nonce))
		}
		t.Fatalf("after the restart the channel has %d tables: %s", len(ms), strings.Join(where, ", "))
	}
	if ms[0].ID != h.tableID() {
		t.Fatalf("the table left is %s, the store's is %s", ms[0].ID, h.tableID())
	}
	if all := h.fake.Messages(h.ch); all[len(all)-1].ID != ms[0].ID {
		t.Fatalf("the table is not the channel's last message: %q is below it", all[len(all)-1].Content)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after the restart", len(owed))
	}
	if got := storyLines(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the story after the restart:\n%s\n\nwithout the kill:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A channel whose table edit waits on Discord (held here, as a post waits
// its turn under the global limit) does not hold its players back: each
// move's hands are redrawn in the channel's hand lane, so the game goes on
// while the table catches up, and the table then shows the last move.
func TestHandsGoOnWhileTheTableWaits(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.tableEvery = time.Millisecond })
	users := duelPlayers(t, h)
	h.bot.Idle()
	held, release := h.fake.Hold("PATCH", fakediscord.RouteMessage)
	defer release()
	h.fake.SetBarrier(false)
	h.fake.SetSettler(nil)
	moves := func(u *fakediscord.User) string {
		var ids []string
		if m := u.LastEphemeral(h.ch); m != nil {
			for _, b := range m.Buttons() {
				if !b.Disabled {
					ids = append(ids, b.CustomID)
				}
			}
		}
		return strings.Join(ids, " ")
	}
	passed := 0
	for n := 0; passed < 3; n++ {
		if n == 20 {
			t.Fatal("20 moves and the turn passed fewer than 3 times")
		}
		mover := h.record().Waiting[0]
		other := 1 - mover
		was := moves(users[other])
		if !pressFirst(t, users[mover], users[mover].LastEphemeral(h.ch), "") {
			t.Fatalf("move %d: nothing to press", n)
		}
		if n == 0 {
			select {
			case <-held: // the first move's table edit, held from here on
			case <-time.After(10 * time.Second):
				t.Fatal("the first move's table edit never came")
			}
		}
		if h.record().Waiting[0] != other {
			continue // the mover goes again: the answer drew their hand
		}
		// The other player's hand offers their move, though the table waits.
		passed++
		deadline := time.After(10 * time.Second)
		for {
			changed := h.fake.Changes()
			if now := moves(users[other]); now != "" && now != was {
				break
			}
			select {
			case <-changed:
			case <-deadline:
				t.Fatalf("move %d: %s's hand was not redrawn while the table edit waited", n, users[other].Name)
			}
		}
	}
	release()
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	rec := h.record()
	if p, err := h.db.Posts(rec.ID); err != nil || p.Drawn != rec.Version {
		t.Fatalf("the table shows move %d of %d (%v)", p.Drawn, rec.Version, err)
	}
}
