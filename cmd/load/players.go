package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// How long a table waits for something the bot owes it before giving up.
const (
	waitLimit  = 10 * time.Second // the table message with the button the players need
	lateAnswer = 3 * time.Second  // Discord's limit for the first answer
)

var (
	errStopped = errors.New("stopped")
	errOver    = errors.New("game over")
	errNoMove  = errors.New("no hand offers a move")
)

// showAgain is how long players wait for a move before they press the
// table's My hand again, as people do when their hand seems stuck. Long
// enough that a bot merely behind on its output is not sent more work.
const showAgain = 10 * time.Second

// table is one channel and its players, driven by one goroutine.
type table struct {
	run   *loadRun
	n     int
	ch    string
	users []*fakediscord.User
	cl    []*fakediscord.Client // the users' clients: they refuse, rather than fail, a click on a message just replaced
	hands []string              // each user's hand message, once shown
	game  string                // the running game's id
	last  int                   // version of the last move clicked
	rng   *rand.Rand
	heard *watcher   // the bot changed a message of the game
	done  chan click // clicks that finished

	inFlight, refusedInARow int
	shownAgainAt            int // t.last when the hands were last shown again
	shownAgain              int // times the players pressed My hand again

	// Results, read after the goroutine is done.
	lat                    []time.Duration
	refusedClicks          int // clicks the client would not send (the message changed under the player)
	moves, stale, refused  int
	games, reopened        int
	unanswered, slowClicks int // clicks the fake saw no answer to in 3 s; clicks that took over 3 s
	stalled                bool
	firstErr               error
}

func newTable(r *loadRun, n int, ch string) *table {
	t := &table{run: r, n: n, ch: ch, rng: rand.New(rand.NewPCG(uint64(n), 7)), heard: newWatcher(),
		done: make(chan click, 16)}
	for _, who := range []string{"A", "B"} {
		u := r.fake.AddUser(fmt.Sprintf("P%d%s", n, who))
		t.users, t.cl = append(t.users, u), append(t.cl, u.Client())
	}
	return t
}

// act runs one set-up interaction, timing it as an answer.
func (t *table) act(what string, f func() (*fakediscord.Reply, error)) (*fakediscord.Reply, error) {
	start := time.Now()
	r, err := f()
	d := time.Since(start)
	if err != nil {
		t.refusedClicks++
		return nil, fmt.Errorf("channel %d: %s: %w", t.n, what, err)
	}
	if d > lateAnswer {
		t.slowClicks++
	}
	if r.Type == 0 {
		t.unanswered++
		return nil, fmt.Errorf("channel %d: %s: no answer", t.n, what)
	}
	return r, nil
}

// clickTable clicks the table's button labelled label. The bot may move
// the table (post it anew below the story and delete the old one) just as
// the player clicks; the client then refuses the click, and the player
// finds the table again.
func (t *table) clickTable(seat int, label string) (*fakediscord.Reply, error) {
	for try := 0; ; try++ {
		m, id, err := t.tableWith(label)
		if err != nil {
			return nil, err
		}
		r, err := t.act(label, func() (*fakediscord.Reply, error) { return t.cl[seat].Click(m, id) })
		var refusal *fakediscord.Refusal
		if errors.As(err, &refusal) && try < 5 {
			continue
		}
		return r, err
	}
}

// record is the channel's open game in the bot's store, or nil.
func (t *table) record() *OpenGame { return t.run.bot.game(t.ch) }

// tableWith waits until the channel's table message shows an enabled
// button labelled label, and returns that message and the button.
func (t *table) tableWith(label string) (*fakediscord.Message, string, error) {
	var seen, button string
	var msg *fakediscord.Message
	err := t.poll(func() (bool, error) {
		g := t.record()
		if g == nil {
			seen = "no game in the channel"
			return false, nil
		}
		if g.Table == "" {
			seen = "no table message yet"
			return false, nil
		}
		m := t.run.fake.Message(t.ch, g.Table)
		if m == nil {
			return false, nil
		}
		for _, b := range m.Buttons() {
			if strings.Contains(b.Label, label) && !b.Disabled {
				msg, button = m, b.CustomID
				return true, nil
			}
		}
		seen = "table without " + label
		return false, nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("channel %d: waiting for the table's %s button: %w (%s)", t.n, label, err, seen)
	}
	return msg, button, nil
}

// poll calls f with growing pauses until it is done, the run stops, or
// waitLimit passes.
func (t *table) poll(f func() (bool, error)) error {
	start := time.Now()
	pause := 200 * time.Microsecond
	for {
		done, err := f()
		if done || err != nil {
			return err
		}
		if time.Since(start) > waitLimit {
			return fmt.Errorf("nothing after %v", waitLimit)
		}
		select {
		case <-t.run.stop:
			return errStopped
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Millisecond)
	}
}

// open opens a game in the channel with two players and brings it to the
// first move: /game new, Join, Start, each player's My hand and, for a
// duel, both players lock in an empty hand (every play is from the deck).
func (t *table) open() error {
	var opts []fakediscord.Option
	if t.run.opts.game == "duel" {
		opts = append(opts, fakediscord.Int("life", 60)) // long duels: fewer set-ups
	}
	if t.run.autoplay {
		// Every move is a player's click, also one with nothing to decide
		// (in a duel of empty hands, all of them).
		opts = append(opts, fakediscord.Bool("autoplay", false))
	}
	sub := fakediscord.Sub(t.run.opts.game, opts...)
	r, err := t.act("/game new", func() (*fakediscord.Reply, error) {
		return t.cl[0].Command(t.ch, "game", fakediscord.Group("new", sub))
	})
	if err != nil {
		return err
	}
	if strings.Contains(r.Content, "already a game") {
		return fmt.Errorf("channel %d: /game new: %s", t.n, r.Content)
	}
	if _, err := t.clickTable(1, "Join"); err != nil {
		return err
	}
	if _, err := t.clickTable(0, "Start"); err != nil {
		return err
	}
	g := t.record()
	if g == nil || g.Status != store.Playing {
		return fmt.Errorf("channel %d: the game did not start", t.n)
	}
	t.game, t.last = g.ID, 0
	t.run.watch.watch(g.ID, t.heard)
	t.hands = make([]string, len(t.users))
	for seat := range t.users {
		r, err := t.clickTable(seat, "My hand")
		if err != nil {
			return err
		}
		if r.Message == nil || !r.Ephemeral {
			return fmt.Errorf("channel %d: My hand answered %q", t.n, r.Content)
		}
		t.hands[seat] = r.Message.ID
		if t.run.opts.game != "duel" {
			continue
		}
		lock := r.Message.ButtonID("Lock in hand")
		r, err = t.act("Lock in hand", func() (*fakediscord.Reply, error) { return t.cl[seat].Click(r.Message, lock) })
		if err != nil {
			return err
		}
		if r.Type != discordgo.InteractionResponseUpdateMessage {
			return fmt.Errorf("channel %d: Lock in hand answered %q", t.n, r.Content)
		}
	}
	return nil
}

// version is the move counter in a move button's custom_id
// (move:<game>:<version>:<action>).
func version(customID string) int {
	parts := strings.SplitN(customID, ":", 4)
	if len(parts) < 4 {
		return -1
	}
	v, err := strconv.Atoi(parts[2])
	if err != nil {
		return -1
	}
	return v
}

// click is one move click under way or done.
type click struct {
	button string
	r      *fakediscord.Reply
	err    error
	sent   time.Time
	took   time.Duration
}

// next waits until a player's hand offers a move newer than the last one
// clicked, and returns the player, the hand and the button; errOver once
// the game has ended. It looks at the hands when the bot has sent one with
// a move (and every pollEvery in case it missed that), and asks the store
// whether the game is over when the table offers a rematch (and every
// 250 ms). Clicks that finish meanwhile are counted.
// pollEvery is how often a waiting player looks at its hands unasked. The
// bot's hand edits wake it; at 100 ms, 1,000 waiting tables' looks took 7 %
// of the process's CPU and the fake's lock from the bot.
const pollEvery = time.Second

func (t *table) next() (int, *fakediscord.Message, string, error) {
	start, checked := time.Now(), time.Now()
	prefix := "move:" + t.game + ":"
	ended := false
	for {
		for i, id := range t.hands {
			m := t.run.fake.Controls(t.ch, id)
			if m == nil {
				continue
			}
			for _, b := range m.Buttons() {
				if !b.Disabled && strings.HasPrefix(b.CustomID, prefix) && version(b.CustomID) > t.last {
					return i, m, b.CustomID, nil
				}
			}
		}
		if ended || time.Since(checked) > 250*time.Millisecond {
			checked, ended = time.Now(), false
			if g := t.record(); g == nil || g.ID != t.game {
				t.run.watch.unwatch(t.game)
				return 0, nil, "", errOver
			}
		}
		if t.inFlight == 0 && time.Since(start) > showAgain {
			return 0, nil, "", errNoMove
		}
		select {
		case <-t.run.stop:
			return 0, nil, "", errStopped
		case c := <-t.done:
			if err := t.count(c); err != nil {
				return 0, nil, "", err
			}
		case <-t.heard.wake:
		case <-t.heard.ended:
			ended = true
		case <-time.After(pollEvery):
		}
	}
}

// count records a finished click. A click that was not sent or not
// answered did not move the game, so its move may be clicked again.
func (t *table) count(c click) error {
	t.inFlight--
	if !t.run.measures(c.sent) { // the warm-up: keep the game going, count nothing
		if c.err != nil || c.r.Type == 0 {
			t.last = min(t.last, version(c.button)-1)
		}
		return nil
	}
	switch {
	case c.err != nil:
		// The hand changed under the player: the client would not send it.
		t.refusedClicks++
		t.last = min(t.last, version(c.button)-1)
		if t.refusedInARow++; t.refusedInARow > 20 {
			return fmt.Errorf("every click refused: %w", c.err)
		}
		return nil
	case c.r.Type == 0:
		t.unanswered++
		t.lat = append(t.lat, c.took)
		t.last = min(t.last, version(c.button)-1)
		return nil
	}
	t.refusedInARow = 0
	t.lat = append(t.lat, c.took)
	if c.took > lateAnswer {
		t.slowClicks++
	}
	switch {
	case c.r.Type != discordgo.InteractionResponseUpdateMessage:
		t.refused++
	case strings.Contains(c.r.Content, "earlier moment"):
		t.stale++
	default:
		t.moves++
	}
	return nil
}

// play makes moves until the run stops: wait for the player to act, think
// if asked to, click, and look for the next move. A player clicks as soon
// as their hand shows the move: the bot's answer (or the other hand's
// redraw) is there, though the fake may still hold the previous click in
// its Sync barrier; up to -overlap clicks per table are under way at once.
// A finished game is followed by a new one in the same channel.
func (t *table) play() {
	defer func() { // the clicks under way end within the fake's bounds
		for t.inFlight > 0 {
			t.count(<-t.done)
		}
	}()
	for {
		seat, m, button, err := t.next()
		switch {
		case errors.Is(err, errStopped):
			return
		case errors.Is(err, errOver):
			t.games++
			for t.inFlight > 0 { // the game's last clicks
				t.count(<-t.done)
			}
			if t.stopping() {
				return
			}
			if err := t.open(); err != nil {
				if !errors.Is(err, errStopped) {
					t.fail(err)
				}
				return
			}
			t.reopened++
			continue
		case errors.Is(err, errNoMove) && t.shownAgainAt != t.last:
			t.shownAgainAt = t.last
			t.showHandsAgain()
			continue
		case err != nil:
			t.stalled = true
			t.fail(fmt.Errorf("channel %d: nobody can move: %w", t.n, err))
			return
		}
		if think := t.run.opts.think; think > 0 {
			d := time.Duration(float64(think) * (0.5 + t.rng.Float64()))
			select {
			case <-t.run.stop:
				return
			case <-time.After(d):
			}
		}
		for t.inFlight >= t.run.opts.overlap {
			select {
			case <-t.run.stop:
				return
			case c := <-t.done:
				if err := t.count(c); err != nil {
					t.stalled = true
					t.fail(fmt.Errorf("channel %d: %w", t.n, err))
					return
				}
			}
		}
		if t.stopping() {
			return
		}
		t.inFlight++
		t.last = version(button)
		go func(cl *fakediscord.Client) {
			start := time.Now()
			r, err := cl.Click(m, button)
			t.done <- click{button: button, r: r, err: err, sent: start, took: time.Since(start)}
		}(t.cl[seat])
	}
}

// showHandsAgain is what people do when no hand offers a move for a
// while: press My hand on the table. The first time in a run it also logs
// what the hands showed, for whoever looks into why.
func (t *table) showHandsAgain() {
	t.shownAgain++
	if t.run.firstStuck.CompareAndSwap(false, true) {
		var views []string
		for i, id := range t.hands {
			if m := t.run.fake.Message(t.ch, id); m != nil {
				first, _, _ := strings.Cut(m.Text(), "\n")
				views = append(views, fmt.Sprintf("seat %d: %q [%s]", i, first, m.ButtonsLine()))
			}
		}
		g := t.record()
		state := "no game"
		if g != nil {
			state = fmt.Sprintf("game %s version %d status %s waiting %v", g.ID, g.Version, g.Status, g.Waiting)
		}
		t.run.log.Warn("no hand offered a move for 10 s; the players press My hand again", "channel", t.n,
			"last_clicked_version", t.last, "store", state, "hands", strings.Join(views, "; "))
	}
	for seat := range t.users {
		r, err := t.clickTable(seat, "My hand")
		if err != nil || r.Message == nil {
			continue
		}
		t.hands[seat] = r.Message.ID
	}
}

func (t *table) stopping() bool {
	select {
	case <-t.run.stop:
		return true
	default:
		return false
	}
}

func (t *table) fail(err error) {
	if t.firstErr == nil {
		t.firstErr = err
	}
}
