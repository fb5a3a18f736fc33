package bot

import "sync"

// lanes runs jobs one at a time per key (a channel id) and different keys
// in parallel, so moves in one channel are serialized in arrival order. It
// also counts unfinished jobs, which shutdown and tests wait for.
type lanes struct {
	mu      sync.Mutex
	idle    *sync.Cond
	pending int
	closed  bool
	queues  map[string][]func()
}

func newLanes() *lanes {
	l := &lanes{queues: map[string][]func(){}}
	l.idle = sync.NewCond(&l.mu)
	return l
}

// accept queues a job arriving from outside (a gateway event), unless the
// lanes are closing.
func (l *lanes) accept(key string, job func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.pushLocked(key, job)
	}
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
	go l.run(key, job)
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

// wait blocks until every pushed job has finished.
func (l *lanes) wait() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.pending > 0 {
		l.idle.Wait()
	}
}

// close makes accept drop new events, for shutdown.
func (l *lanes) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}
