package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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

// loadGames are the games the load can play, and seats how many players
// sit at each table: the fewest that play the game as people do (Improv's
// first seat is the GM's).
var (
	loadGames = []string{"duel", "life", "lnf", "dealt", "improv"}
	seats     = map[string]int{"duel": 2, "life": 2, "lnf": 3, "dealt": 3, "improv": 3}
)

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
	// lastBy is each seat's last move clicked, in games where several
	// players may act on the same moment (Life is not fair's opening swap,
	// Improv's stakes): a hand's move is new to its player if it is newer
	// than the last that player clicked. In a duel or a life story one
	// player moves at a time and last alone says it.
	lastBy  []int
	perSeat bool
	used    []map[string]bool // per seat, the verbs of once used since the GM opened a conflict
	rng     *rand.Rand
	heard   *watcher      // the bot changed a message of the game
	posted  chan struct{} // the bot posted or edited a message in the channel
	done    chan click    // clicks that finished

	inFlight, refusedInARow int
	shownAgainAt            int // t.last when the hands were last shown again
	shownAgain              int // times the players pressed My hand again

	sentAt time.Time // the last move clicked (zero at a game's first moment)

	// Results, read after the goroutine is done.
	lat                    []time.Duration
	gaps                   []time.Duration // a move clicked → the next move offered (next)
	refusedClicks          int             // clicks the client would not send (the message changed under the player)
	moves, stale, refused  int
	verbs                  map[string]int // moves by their verb
	games, reopened        int
	unanswered, slowClicks int // clicks the fake saw no answer to in 3 s; clicks that took over 3 s
	stalled                bool
	firstErr               error
}

func newTable(r *loadRun, n int, ch string) *table {
	t := &table{run: r, n: n, ch: ch, rng: rand.New(rand.NewPCG(uint64(n), 7)), heard: newWatcher(),
		posted: r.watch.watchChannel(ch), done: make(chan click, 16), verbs: map[string]int{}}
	for i := range seats[r.opts.game] {
		u := r.fake.AddUser(fmt.Sprintf("P%d%c", n, 'A'+i))
		t.users, t.cl = append(t.users, u), append(t.cl, u.Client())
	}
	t.perSeat = r.opts.game != "duel" && r.opts.game != "life"
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
// waitLimit passes (longer behind Discord's global limit: outputBound).
// A message from the bot in the channel starts the pauses short again; so
// the pauses can grow long while a new table waits its turn under the
// global limit, for seconds, without the players' looks (a call into the
// bot's process and a read of its store each) taking the CPU the bot is
// being measured on.
func (t *table) poll(f func() (bool, error)) error {
	const first, longest = 200 * time.Microsecond, 50 * time.Millisecond
	start := time.Now()
	pause := first
	for {
		done, err := f()
		if done || err != nil {
			return err
		}
		if limit := t.run.opts.outputBound(waitLimit); time.Since(start) > limit {
			return fmt.Errorf("nothing after %v", limit)
		}
		select {
		case <-t.run.stop:
			return errStopped
		case <-t.posted:
			pause = first
			continue
		case <-time.After(pause):
		}
		pause = min(2*pause, longest)
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
	for seat := 1; seat < len(t.users); seat++ {
		if _, err := t.clickTable(seat, "Join"); err != nil {
			return err
		}
	}
	if _, err := t.clickTable(0, "Start"); err != nil {
		return err
	}
	g := t.record()
	if g == nil || g.Status != store.Playing {
		return fmt.Errorf("channel %d: the game did not start", t.n)
	}
	t.game, t.last, t.sentAt = g.ID, 0, time.Time{}
	t.lastBy, t.used = make([]int, len(t.users)), make([]map[string]bool, len(t.users))
	for i := range t.lastBy {
		t.lastBy[i] = -1 // a hand at the game's first moment is new
		t.used[i] = map[string]bool{}
	}
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
	move
	r    *fakediscord.Reply
	err  error
	sent time.Time
	took time.Duration
}

// move is what a player does next: click a hand's button, or, with values,
// pick them from its menu.
type move struct {
	seat   int
	m      *fakediscord.Message
	button string // the button's or the menu's custom_id
	values []string
}

// next waits until a player's hand offers a move newer than the last one
// clicked, and returns it; errOver once the game has ended. It looks at
// the hands when the bot has sent one with a move (and every pollEvery in
// case it missed that), and asks the store whether the game is over when
// the table offers a rematch (and every 250 ms). Clicks that finish
// meanwhile are counted.
// pollEvery is how often a waiting player looks at its hands unasked. The
// bot's hand edits wake it; at 100 ms, 1,000 waiting tables' looks took 7 %
// of the process's CPU and the fake's lock from the bot.
const pollEvery = time.Second

func (t *table) next() (move, error) {
	start, checked := time.Now(), time.Now()
	ended := false
	for {
		if mv, ok := t.offered(); ok {
			if from := t.sentAt; !from.IsZero() && t.run.measures(from) {
				t.gaps = append(t.gaps, time.Since(from))
			}
			return mv, nil
		}
		if ended || time.Since(checked) > 250*time.Millisecond {
			checked, ended = time.Now(), false
			if g := t.record(); g == nil || g.ID != t.game {
				t.run.watch.unwatch(t.game)
				return move{}, errOver
			}
		}
		if t.inFlight == 0 && time.Since(start) > showAgain {
			return move{}, errNoMove
		}
		select {
		case <-t.run.stop:
			return move{}, errStopped
		case c := <-t.done:
			if err := t.count(c); err != nil {
				return move{}, err
			}
		case <-t.heard.wake:
		case <-t.heard.ended:
			ended = true
		case <-time.After(pollEvery):
		}
	}
}

// offered is the first move a hand offers that its player has not made:
// the first enabled button, as a player who knows the game clicks it, or
// else the first choices of a menu. Where several players may act at once,
// only the hands of the players the game waits for are looked at, so that
// what anyone may do at any time (Improv's GM hands out story-tokens) does
// not crowd out what moves the game on.
func (t *table) offered() (move, bool) {
	if !t.perSeat {
		mv, _ := t.offeredBy(nil, nil, false)
		return mv, mv.button != ""
	}
	if t.inFlight >= t.run.opts.overlap {
		// The click under way may change whose move it is, and the move
		// picked now would be stale.
		return move{}, false
	}
	g := t.record()
	if g == nil || g.ID != t.game {
		return move{}, false // over: next finds out
	}
	mv, current := t.offeredBy(g.Waiting, g.Views, false)
	if mv.button == "" && current && t.inFlight == 0 {
		// The players the game waits for see all there is and none of it
		// moves the game on (Improv's stakes can leave a side with no one
		// to oppose): the host, Improv's GM, hurries it.
		mv, _ = t.offeredBy([]int{0}, g.Views, true)
	}
	return mv, mv.button != ""
}

// offeredBy is the first move the hands of seats offer (all hands if
// seats is nil), or the zero move. With views, a hand older than its
// seat's view is passed over, its edit being on the way (a click on it
// would be stale); current tells whether every hand looked at was up to
// date and offered a move, enabled or not. Hurrying (Improv's GM filling in for the players) is offered only
// if hurry.
func (t *table) offeredBy(seats, views []int, hurry bool) (mv move, current bool) {
	moves, asks := "move:"+t.game+":", "ask:"+t.game+":"
	isMove := func(id string) bool { return strings.HasPrefix(id, moves) || strings.HasPrefix(id, asks) }
	current = true
	for i, id := range t.hands {
		if seats != nil && !slices.Contains(seats, i) {
			continue
		}
		m := t.run.fake.Controls(t.ch, id)
		if m == nil {
			current = false
			continue
		}
		buttons, selects := m.Buttons(), m.Selects()
		if !slices.ContainsFunc(buttons, func(b fakediscord.Button) bool { return isMove(b.CustomID) }) &&
			!slices.ContainsFunc(selects, func(s fakediscord.Select) bool { return isMove(s.CustomID) }) {
			current = false // a hand with no move at all: the edit that brings one is on the way
		}
		ok := func(customID string) bool {
			if !isMove(customID) {
				return false
			}
			if i < len(views) && version(customID) < views[i] {
				current = false
				return false
			}
			return t.isNew(i, customID) && t.usable(i, customID) && (hurry || verbOf(customID) != "hurry")
		}
		for _, b := range buttons {
			if !b.Disabled && ok(b.CustomID) {
				return move{seat: i, m: m, button: b.CustomID}, current
			}
		}
		if !t.perSeat {
			continue
		}
		for _, sel := range selects {
			if sel.Disabled || len(sel.Options) == 0 || !ok(sel.CustomID) {
				continue
			}
			var values []string
			// As many as the menu takes: every protagonist joins the conflict.
			for _, o := range sel.Options[:min(max(sel.Max, 1), len(sel.Options))] {
				values = append(values, o.Value)
			}
			return move{seat: i, m: m, button: sel.CustomID, values: values}, current
		}
	}
	return move{}, current
}

// isNew tells whether a move control of seat's hand is newer than what that
// player (or, one at a time, anyone) clicked last.
func (t *table) isNew(seat int, customID string) bool {
	if t.perSeat {
		return version(customID) > t.lastBy[seat]
	}
	return version(customID) > t.last
}

// clicked records that seat clicked a move (customID), or, with ok false,
// that the click did not move the game and may be made again.
func (t *table) clicked(seat int, customID string, ok bool) {
	v := version(customID)
	if ok {
		t.last = v
	} else {
		v--
		t.last = min(t.last, v)
	}
	if !t.perSeat {
		return
	}
	verb := verbOf(customID)
	switch {
	case !ok:
		t.lastBy[seat] = min(t.lastBy[seat], v)
		delete(t.used[seat], verb)
	case verb == "open": // a new conflict: everyone's story moves are new again
		for _, u := range t.used {
			clear(u)
		}
		t.lastBy[seat] = v
	default:
		t.lastBy[seat] = v
		if once[verb] {
			t.used[seat][verb] = true
		}
	}
}

// A load player moves the game on, as players who want to get on with it
// do. Where a game offers more than moves (Improv), it leaves alone what
// undoes or ends the table's work (backwards), and adds to the story only
// once a conflict what it could add again and again (once): a stake, a
// name, a token.
var (
	backwards = map[string]bool{"cancel": true, "end": true, "session": true, "kit": true, "undo": true,
		"unready": true, "unplay": true, "unstake": true, "skip": true, "leave": true}
	once = map[string]bool{"name": true, "addtal": true, "gmstake": true, "stake": true, "help": true,
		"token": true, "who": true, "rounds": true, "vs": true}
)

// usable tells whether seat's player would use the control customID.
func (t *table) usable(seat int, customID string) bool {
	if !t.perSeat {
		return true
	}
	verb := verbOf(customID)
	return !backwards[verb] && !t.used[seat][verb]
}

// verbOf is the verb of a move's custom_id (<kind>:<game>:<version>:<verb>[=args]).
func verbOf(customID string) string {
	parts := strings.SplitN(customID, ":", 4)
	if len(parts) < 4 {
		return ""
	}
	verb, _, _ := strings.Cut(parts[3], "=")
	return verb
}

// text is what a player types into a box the bot asks with: the line of a
// wild card in Life is not fair (the line said right), a stake in the
// "who: what" form a box's label asks for, else a sentence of a length the
// box allows.
func text(in fakediscord.TextInput) string {
	if card, ok := strings.CutPrefix(in.Label, "Say the line of "); ok {
		return "Life is not fair, but " + strings.ToLower(card)
	}
	s := "The hero leans in and makes the move count."
	if strings.Contains(in.Label, ":") {
		s = "Riso: get away with the money"
	}
	for len(s) < in.MinLength {
		s += " Again."
	}
	if in.MaxLength > 0 && len(s) > in.MaxLength {
		s = s[:in.MaxLength]
	}
	return s
}

// count records a finished click. A click that was not sent or not
// answered did not move the game, so its move may be clicked again.
func (t *table) count(c click) error {
	t.inFlight--
	if !t.run.measures(c.sent) { // the warm-up: keep the game going, count nothing
		if c.err != nil || c.r.Type == 0 {
			t.clicked(c.seat, c.button, false)
		}
		return nil
	}
	switch {
	case c.err != nil:
		// The hand changed under the player: the client would not send it.
		t.refusedClicks++
		t.clicked(c.seat, c.button, false)
		if t.refusedInARow++; t.refusedInARow > 20 {
			return fmt.Errorf("every click refused: %w", c.err)
		}
		return nil
	case c.r.Type == 0:
		t.unanswered++
		t.lat = append(t.lat, c.took)
		t.clicked(c.seat, c.button, false)
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
		t.verbs[verbOf(c.button)]++
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
		mv, err := t.next()
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
		t.clicked(mv.seat, mv.button, true)
		t.sentAt = time.Now()
		go func(cl *fakediscord.Client) {
			start := time.Now()
			var r *fakediscord.Reply
			var err error
			if mv.values != nil {
				r, err = cl.Select(mv.m, mv.button, mv.values...)
			} else {
				r, err = cl.Click(mv.m, mv.button)
			}
			if err == nil && r.Modal != nil { // a move typed in a box: its time is both interactions'
				typed := map[string]string{}
				for _, in := range r.Modal.Inputs {
					typed[in.CustomID] = text(in)
				}
				r, err = cl.Submit(r.Modal, typed)
			}
			t.done <- click{move: mv, r: r, err: err, sent: start, took: time.Since(start)}
		}(t.cl[mv.seat])
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
