package bot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// Deadlines live in the store (indexed by due time), so they survive
// restarts; this loop wakes at the earliest, queues each due timer in its
// channel's move lane, and the firing commits the action it causes and the
// timer's removal in one transaction.
type scheduler struct {
	mu       sync.Mutex
	kick     chan struct{}
	stop     chan struct{}
	inflight map[store.Due]bool
}

func newScheduler() *scheduler {
	return &scheduler{kick: make(chan struct{}, 1), stop: make(chan struct{}), inflight: map[store.Due]bool{}}
}

// wake makes the loop look again, for a timer that may be due sooner.
func (t *scheduler) wake(time.Time) {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// idleCheck bounds how long the loop sleeps without looking, so a clock
// that jumps (a suspended machine) is noticed.
const idleCheck = 30 * time.Second

func (b *Bot) runTimers() {
	for {
		next := b.FireDue()
		wait := idleCheck
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(b.now()), 10*time.Millisecond))
		}
		tm := time.NewTimer(wait)
		select {
		case <-b.timers.stop:
			tm.Stop()
			return
		case <-b.timers.kick:
		case <-tm.C:
		}
		tm.Stop()
	}
}

// FireDue queues every timer due by now and returns when the next one is
// due. The loop calls it; tests call it after moving their clock.
func (b *Bot) FireDue() time.Time {
	due, next, err := b.db.DueBy(b.now())
	if err != nil {
		b.log.Warn("timers", "err", err)
		return time.Time{}
	}
	for _, d := range due {
		b.timers.mu.Lock()
		busy := b.timers.inflight[d]
		b.timers.inflight[d] = true
		b.timers.mu.Unlock()
		if busy {
			continue
		}
		b.lanes.push(d.Channel, func() {
			defer func() {
				b.timers.mu.Lock()
				delete(b.timers.inflight, d)
				b.timers.mu.Unlock()
			}()
			b.guard("timer", func() { b.fire(d) })
		})
	}
	return next
}

// fire carries out one due timer, if its game still wants it: the same
// check a click gets, so a timer for a turn already played does nothing.
func (b *Bot) fire(d store.Due) {
	rec, err := b.db.Game(d.Channel)
	if err != nil {
		b.log.Warn("timer", "err", err)
		return
	}
	if rec == nil || rec.ID != d.Game || rec.Timers[d.Key] != d.At {
		if err := b.db.DropTimer(d); err != nil {
			b.log.Warn("drop timer", "err", err)
		}
		return
	}
	if strings.HasPrefix(d.Key, "bot:") {
		b.fireOwn(rec, d.Key)
		return
	}
	if rec.Status != store.Playing {
		return
	}
	_, g, err := b.load(rec)
	if err != nil {
		b.log.Error("timer", "game", rec.ID, "err", err)
		return
	}
	var timer *games.Timer
	if tg, ok := g.(games.Timed); ok {
		for _, t := range tg.Timers() {
			if t.Key == d.Key {
				timer = &t
			}
		}
	}
	rec.Timers[d.Key] = 0 // fired; kept while the game still lists it, so it is not set again
	if timer == nil {
		delete(rec.Timers, d.Key)
		if err := b.db.Save(rec); err != nil {
			b.log.Warn("drop timer", "game", rec.ID, "err", err)
		}
		return
	}
	if timer.Remind {
		b.remind(rec, timer.Seat)
		return
	}
	in := games.Input{Kind: games.InTimer, Seat: timer.Seat, Ref: timer.Key, Action: timer.Action}
	before := b.viewsOf(rec, g)
	events, err := games.Step(g, in)
	var refusal *games.Refusal
	if errors.As(err, &refusal) || err != nil {
		b.log.Warn("timer refused", "game", rec.ID, "timer", d.Key, "err", err)
		if err := b.db.Save(rec); err != nil {
			b.log.Warn("save timer", "game", rec.ID, "err", err)
		}
		return
	}
	ins, events := b.autoplay(rec, g, []games.Input{in}, events)
	out, err := b.commit(rec, g, ins, events, before, -1, shownNothing)
	if err != nil {
		b.log.Error("timer", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
}

// remind pings a seat whose move it still is, as the turn's own ping.
func (b *Bot) remind(rec *store.Game, seat int) {
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	if seat >= 0 && seat < len(rec.Seats) {
		out.Ping = []int{seat}
		out.Version = rec.Seats[seat].WaitingSince
	}
	if err := b.db.Commit(rec, nil, out, nil); err != nil {
		b.log.Warn("remind", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "remind", func() { b.publish(rec.Channel, out, 0) })
}

// How long a lobby waits for its start, and a game for any move.
const (
	lobbyLife = 30 * time.Minute
	idleGame  = 7 * 24 * time.Hour
	idleRenew = time.Hour // how far an idle game's close may come early
)

// turnTimer is how long a player may keep the table waiting: a reminder
// after remind, and after act a move made for them (0: never).
type turnTimer struct{ remind, act time.Duration }

// turnTimers per game: quick games act for an absent player; role-play
// games, where a pause is part of the play, only remind.
func (b *Bot) turnTimers(kind string) turnTimer {
	if b.cfg.TurnTimers != nil {
		if t, ok := b.cfg.TurnTimers[kind]; ok {
			return turnTimer{t[0], t[1]}
		}
	}
	switch kind {
	case "duel", "dealt", "lnf":
		return turnTimer{5 * time.Minute, 10 * time.Minute}
	case "life", "improv":
		return turnTimer{30 * time.Minute, 0}
	}
	return turnTimer{}
}

// seatTimer is the key of the bot's own timer for a seat ("remind", "act"
// or "cpu"), set when the seat began to wait at since.
func seatTimer(what string, seat, since int) string {
	return fmt.Sprintf("bot:%s:%d:%d", what, seat, since)
}

// actDue is when the bot moves for a waiting seat (Unix ms; 0: never, or
// done), and whether the seat's reminder has gone out.
func actDue(rec *store.Game, seat int) (due int64, reminded bool) {
	since := rec.Seats[seat].WaitingSince
	at, ok := rec.Timers[seatTimer("remind", seat, since)]
	return max(rec.Timers[seatTimer("act", seat, since)], 0), ok && at == 0
}

// fireOwn carries out one of the bot's own timers.
func (b *Bot) fireOwn(rec *store.Game, key string) {
	parts := strings.Split(key, ":") // bot:<what>[:<seat>:<since>]
	switch parts[1] {
	case "lobby", "idle":
		if parts[1] == "lobby" && rec.Status != store.Lobby {
			return
		}
		note, how := "This lobby closed: nobody started it within 30 minutes.", "expired"
		if parts[1] == "idle" {
			note, how = "This game was closed after a week without a move.", "been closed after a week without a move"
		}
		out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Closed: note}
		if err := b.db.Commit(rec, nil, out, &store.Ending{How: how}); err != nil {
			b.log.Warn("close idle game", "game", rec.ID, "err", err)
			return
		}
		b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
		return
	}
	if len(parts) != 4 || rec.Status != store.Playing {
		return
	}
	seat, _ := strconv.Atoi(parts[2])
	since, _ := strconv.Atoi(parts[3])
	rec.Timers[key] = 0 // fired
	if seat < 0 || seat >= len(rec.Seats) {
		_ = b.db.Save(rec)
		return
	}
	current := rec.Seats[seat].WaitingSince
	if parts[1] == "cpu" {
		current = rec.Version
	}
	if seat >= len(rec.Seats) || !slices.Contains(rec.Waiting, seat) || current != since {
		if err := b.db.Save(rec); err != nil {
			b.log.Warn("save timer", "game", rec.ID, "err", err)
		}
		return // they have moved since
	}
	switch parts[1] {
	case "remind":
		b.remind(rec, seat)
	case "cpu":
		b.playComputer(rec, seat)
	default:
		b.actFor(rec, seat)
	}
}

// actFor makes a move for a player who kept the table waiting too long:
// the first legal move their hand offers, said in the table's line.
func (b *Bot) actFor(rec *store.Game, seat int) {
	_, g, err := b.load(rec)
	if err != nil {
		b.log.Error("act for absent player", "game", rec.ID, "err", err)
		return
	}
	hand := g.Hand(seat)
	a, ok := defaultMove(hand)
	if !ok {
		_ = b.db.Save(rec)
		return
	}
	in := games.Input{Kind: games.InTimer, Seat: seat, Ref: "bot:act", Action: a}
	before := b.viewsOf(rec, g)
	events, err := games.Step(g, in)
	if err != nil {
		b.log.Warn("act for absent player", "game", rec.ID, "err", err)
		_ = b.db.Save(rec)
		return
	}
	ins := []games.Input{in}
	// A choice that only opened another menu (a Dealt! hand too long for
	// one) is no move: finish it from that menu, not with its Back button,
	// or each deadline would undo the last.
	// A game's own Away move is whole: nothing to finish.
	for n := 0; n < 2 && hand.Away == nil && len(events) == 0 && slices.Contains(g.ToAct(), seat); n++ {
		v := g.Hand(seat)
		if len(v.Choices) == 0 || v.Choices[0].Verb == in.Action.Verb {
			break
		}
		a, ok := firstChoice(v)
		if !ok {
			break
		}
		next := games.Input{Kind: games.InTimer, Seat: seat, Ref: "bot:act", Action: a}
		ev, err := games.Step(g, next)
		if err != nil {
			b.log.Warn("act for absent player", "game", rec.ID, "err", err)
			break
		}
		in, events, ins = next, ev, append(ins, next)
	}
	events = append(events, games.Say("⏰ %s was away too long, so I made that move for them.", rec.Seats[seat].Name))
	ins, events = b.autoplay(rec, g, ins, events)
	out, err := b.commit(rec, g, ins, events, before, -1, shownNothing)
	if err != nil {
		b.log.Error("act for absent player", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
}

// defaultMove is the hand's Away move if the game names one, else the
// first legal move a hand offers: its first enabled
// button that needs no typed words, else the first option of its first
// menu, else a button that asks for words, with none typed (the bot does
// not speak for a player: a wild card of Life is not fair, but… played so
// is dead, and the game moves on rather than wait for them all week).
func defaultMove(v games.View) (games.Action, bool) {
	if v.Away != nil {
		return *v.Away, true
	}
	for _, btn := range v.Buttons {
		if !btn.Disabled && btn.Ask == nil {
			return btn.Action, true
		}
	}
	if a, ok := firstChoice(v); ok {
		return a, true
	}
	for _, btn := range v.Buttons {
		if !btn.Disabled {
			return btn.Action, true
		}
	}
	return games.Action{}, false
}

// firstChoice is the first option(s) of the view's first usable menu.
func firstChoice(v games.View) (games.Action, bool) {
	for _, c := range v.Choices {
		if len(c.Options) > 0 {
			n := max(c.Min, 1)
			if n > len(c.Options) {
				continue
			}
			a := games.Action{Verb: c.Verb}
			for _, o := range c.Options[:n] {
				a.Args = append(a.Args, o.Value)
			}
			return a, true
		}
	}
	return games.Action{}, false
}

// forcedMove finds a seat the game waits for whose only move is one with
// nothing to decide (a draw, a roll, giving up).
func forcedMove(g games.Game) (games.Input, string, bool) {
	for _, s := range g.ToAct() {
		if s < 0 {
			continue
		}
		v := g.Hand(s)
		if len(v.Choices) > 0 {
			continue
		}
		var only *games.Button
		n := 0
		for i := range v.Buttons {
			if !v.Buttons[i].Disabled {
				n++
				only = &v.Buttons[i]
			}
		}
		if n == 1 && only.Forced && only.Ask == nil {
			return games.Input{Seat: s, Action: only.Action}, only.Label, true
		}
	}
	return games.Input{}, "", false
}

// autoplay makes the forced moves that follow a change, says so on the
// table, and returns them with their events to be committed with it: a
// player is pinged only for a real decision.
func (b *Bot) autoplay(rec *store.Game, g games.Game, in []games.Input, events []games.Event) ([]games.Input, []games.Event) {
	for n := 0; n < 50 && !g.Over() && !rec.NoAutoplay; n++ {
		x, label, ok := forcedMove(g)
		if !ok || x.Seat >= len(rec.Seats) {
			break
		}
		ev, err := games.Step(g, x)
		if err != nil {
			b.log.Warn("forced move refused", "game", rec.ID, "err", err)
			break
		}
		events = append(events, ev...)
		events = append(events, games.Say("⚙️ %s had one move, %s, so I made it.", rec.Seats[x.Seat].Name, label))
		in = append(in, x)
	}
	return in, events
}
