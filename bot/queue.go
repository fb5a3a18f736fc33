package bot

import (
	"context"
	"sync"
	"time"
)

// lanes runs jobs one at a time per key (a channel id) and different keys
// in parallel, so moves in one channel are serialized in arrival order. It
// also counts unfinished jobs, which shutdown and tests wait for.
type lanes struct {
	mu      sync.Mutex
	idle    *sync.Cond
	pending int
	closed  bool
	queues  map[string][]func()
	held    []heldJob // events that arrived before start-up work was queued
	holding bool
	later   map[*int]laterJob // jobs waiting for their time, counted in pending
	tables  tableClocks       // the output lanes' table edits (coalesce.go)
	states  states            // the states last committed, for the output lanes
	// spare hands a new lane to a runner whose last lane ran dry. A fresh
	// goroutine starts on a small stack and grows it in every job (JSON
	// and HTTP run deep); runners kept a while keep theirs.
	spare chan heldJob
}

// runnerIdle is how long a runner whose lane ran dry waits for another.
const runnerIdle = 5 * time.Second

type laterJob struct {
	heldJob
	timer *time.Timer
}

type heldJob struct {
	key string
	job func()
}

// newLanes returns lanes that hold incoming events until release, so that
// start-up work queued meanwhile runs first in each channel.
func newLanes() *lanes {
	l := &lanes{queues: map[string][]func(){}, holding: true, later: map[*int]laterJob{}, spare: make(chan heldJob)}
	l.idle = sync.NewCond(&l.mu)
	return l
}

// release lets held and future events run, in the order they arrived.
func (l *lanes) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.holding = false
	for _, h := range l.held {
		l.pushLocked(h.key, h.job)
	}
	l.held = nil
}

// accept queues a job arriving from outside (a gateway event), unless the
// lanes are closing: it reports whether it did.
func (l *lanes) accept(key string, job func()) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return false
	case l.holding:
		l.held = append(l.held, heldJob{key, job})
	default:
		l.pushLocked(key, job)
	}
	return true
}

// push queues follow-up work of a running job. It is taken even while
// closing: its parent is still pending, so wait has not returned.
func (l *lanes) push(key string, job func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pushLocked(key, job)
}

func (l *lanes) pushLocked(key string, job func()) {
	l.pending++
	if q, running := l.queues[key]; running {
		l.queues[key] = append(q, job)
		return
	}
	l.queues[key] = nil
	select {
	case l.spare <- heldJob{key, job}:
	default:
		go l.runner(key, job)
	}
}

// runner runs lanes one after another, until none comes for runnerIdle.
func (l *lanes) runner(key string, job func()) {
	idle := time.NewTimer(runnerIdle)
	defer idle.Stop()
	for {
		l.run(key, job)
		idle.Reset(runnerIdle)
		select {
		case h := <-l.spare:
			key, job = h.key, h.job
		case <-idle.C:
			return
		}
	}
}

func (l *lanes) run(key string, job func()) {
	for {
		job()
		l.mu.Lock()
		l.pending--
		q := l.queues[key]
		if len(q) == 0 {
			delete(l.queues, key)
			l.idle.Broadcast()
			l.mu.Unlock()
			return
		}
		job, l.queues[key] = q[0], q[1:]
		l.mu.Unlock()
	}
}

// after queues job in lane key once d has passed, or sooner if wait is
// called meanwhile: a job put off is still work under way.
func (l *lanes) after(key string, d time.Duration, job func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending++
	id := new(int)
	l.later[id] = laterJob{heldJob{key, job}, time.AfterFunc(d, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.dueLocked(id)
	})}
}

// dueLocked moves a job put off into its lane, once.
func (l *lanes) dueLocked(id *int) {
	j, ok := l.later[id]
	if !ok {
		return
	}
	delete(l.later, id)
	j.timer.Stop()
	l.pending-- // pushLocked counts it again
	l.pushLocked(j.key, j.job)
}

// wait blocks until every pushed job has finished. Jobs put off run at
// once: waiting is for "all done", which must not take real time (tests,
// shutdown).
func (l *lanes) wait() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.pending > 0 {
		for id := range l.later {
			l.dueLocked(id)
		}
		if l.pending > 0 {
			l.idle.Wait()
		}
	}
}

// settle blocks until every pushed job has finished but those put off.
func (l *lanes) settle() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.pending > len(l.later) {
		l.idle.Wait()
	}
}

// close makes accept drop new events, for shutdown.
func (l *lanes) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// slots lets a few output jobs (table and hand edits, which have no
// deadline) compute at once, so under load the CPU goes to answers first
// (an answer has 3 s). A job gives its slot up while it waits on Discord
// (a request under way: see metered) and takes one again for what it does
// with the answer; with tens of milliseconds to Discord, holding slots
// through requests let a few dozen output jobs start a second, whatever
// the CPU. A job that keeps its slot longer than hold gives it up too: it
// is waiting on something else (a rate limit, the disk).
type slots struct {
	c      chan struct{}
	flight *flight // requests of output jobs in flight (flight.go)
	hold   time.Duration
}

// maxFlight bounds the requests of output jobs in flight however far
// Discord is: as many as the HTTP client keeps connections for.
const maxFlight = 256

// outputHold is how long an output job keeps its slot.
const outputHold = 50 * time.Millisecond

func newSlots(n int, hold time.Duration) slots {
	return slots{c: make(chan struct{}, n), flight: newFlight(n, maxFlight), hold: hold}
}

// slot is one job's turn.
type slot struct {
	s     slots
	mu    sync.Mutex
	has   bool
	timer *time.Timer
}

// take waits for a slot.
func (s slots) take() *slot {
	s.c <- struct{}{}
	h := &slot{s: s, has: true}
	h.timer = time.AfterFunc(s.hold, h.release)
	return h
}

// release gives the slot up, if it is held.
func (h *slot) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.has {
		h.has = false
		<-h.s.c
	}
}

// retake waits for a slot again, after a wait on Discord.
func (h *slot) retake() {
	h.s.c <- struct{}{}
	h.mu.Lock()
	h.has = true
	h.mu.Unlock()
	h.timer.Reset(h.s.hold)
}

// done ends the job's turn.
func (h *slot) done() {
	h.timer.Stop()
	h.release()
}

// unslotted runs wait, a wait on the disk, with the slot of ctx's job
// given up meanwhile, as its requests do: holding a slot through a
// commit (milliseconds) would keep other channels' output jobs waiting.
func unslotted(ctx context.Context, wait func()) {
	if h := slotOf(ctx); h != nil {
		h.release()
		defer h.retake()
	}
	wait()
}

type slotKey struct{}

// withSlot marks requests made with ctx as a job's waits on Discord.
func withSlot(ctx context.Context, h *slot) context.Context {
	return context.WithValue(ctx, slotKey{}, h)
}

func slotOf(ctx context.Context) *slot {
	h, _ := ctx.Value(slotKey{}).(*slot)
	return h
}
