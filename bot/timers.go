package bot

import (
	"errors"
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
	done     chan struct{}
	inflight map[store.Due]bool
}

func newScheduler() *scheduler {
	return &scheduler{kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), inflight: map[store.Due]bool{}}
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
	defer close(b.timers.done)
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
	if rec == nil || rec.ID != d.Game || rec.Timers[d.Key] != d.At || rec.Status != store.Playing {
		if err := b.db.DropTimer(d); err != nil {
			b.log.Warn("drop timer", "err", err)
		}
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
	before := handViews(len(rec.Seats), g)
	events, err := games.Step(g, in)
	var refusal *games.Refusal
	if errors.As(err, &refusal) || err != nil {
		b.log.Warn("timer refused", "game", rec.ID, "timer", d.Key, "err", err)
		if err := b.db.Save(rec); err != nil {
			b.log.Warn("save timer", "game", rec.ID, "err", err)
		}
		return
	}
	out, err := b.commit(rec, g, []games.Input{in}, events, before, -1, shownNothing)
	if err != nil {
		b.log.Error("timer", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
}

// remind pings a seat whose move it still is.
func (b *Bot) remind(rec *store.Game, seat int) {
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	if seat >= 0 && seat < len(rec.Seats) {
		out.Ping = []int{seat}
		rec.Seats[seat].WaitingSince = rec.Version
	}
	if err := b.db.Commit(rec, nil, out, nil); err != nil {
		b.log.Warn("remind", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "remind", func() { b.publish(rec.Channel, out, 0) })
}
