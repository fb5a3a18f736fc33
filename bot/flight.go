package bot

import (
	"math"
	"sync"
	"time"
)

// flight bounds the requests output jobs have in flight, by how long they
// take. Far from Discord (tens of milliseconds a round trip) the bound
// grows until output keeps up: a request then waits on the network, not on
// the CPU. When requests take much longer than the fastest of late, they
// are queueing (on the CPU the bot shares, at a saturated peer), and more
// of them would only delay the answers: the bound shrinks, down to what
// the CPU slots allow. This is the gradient rule of adaptive concurrency
// limits: limit × (least round trip ÷ recent round trips), and while
// nothing queues, a little more. "Round trips" are means of flightSamples:
// a single quick answer among slow ones (a round trip to Discord varies
// from one request to the next) would hold the bound at its least.
//
// Requests are let in first come, first served. Each channel's hand lane
// has one request at a time, so at the bound a hand waits for at most the
// hands queued before it; with a request that found room taking the place
// a woken one was given, a hand could wait behind newer ones for seconds
// (at 1,000 channels, up to 7 s: a player left without buttons).
type flight struct {
	mu       sync.Mutex
	queue    []chan struct{} // requests waiting, oldest first
	limit    float64
	in       int
	min, max float64

	// Round trips: the least mean of flightSamples over the last two
	// windows, and the recent ones since the bound last changed.
	least     [2]time.Duration
	windowEnd time.Time
	sum       time.Duration
	n         int
	now       func() time.Time
}

const (
	flightWindow  = 10 * time.Second // how long the least round trip is remembered (at least)
	flightSamples = 16               // round trips between changes of the bound
	flightSlack   = 2.0              // round trips up to this many times the least count as unqueued
)

func newFlight(least, most int) *flight {
	return &flight{limit: float64(least), min: float64(least), max: float64(most), now: time.Now}
}

// enter waits until one more request may be in flight: the room a
// leaving request makes goes to the oldest one waiting.
func (f *flight) enter() {
	f.mu.Lock()
	if len(f.queue) == 0 && f.room() {
		f.in++
		f.mu.Unlock()
		return
	}
	turn := make(chan struct{})
	f.queue = append(f.queue, turn)
	f.mu.Unlock()
	<-turn // leave counted it in
}

func (f *flight) room() bool { return float64(f.in) < math.Floor(f.limit) }

// leave ends a request that took rtt.
func (f *flight) leave(rtt time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.in--
	now := f.now()
	if now.After(f.windowEnd) {
		f.least = [2]time.Duration{0, f.least[0]}
		f.windowEnd = now.Add(flightWindow)
	}
	f.sum += rtt
	if f.n++; f.n >= flightSamples {
		recent := f.sum / time.Duration(f.n)
		if f.least[0] == 0 || recent < f.least[0] {
			f.least[0] = recent
		}
		least := f.least[0]
		if old := f.least[1]; old > 0 && old < least {
			least = old
		}
		gradient := max(0.5, min(1, flightSlack*float64(least)/float64(recent)))
		next := f.limit * gradient
		if gradient == 1 {
			next += math.Sqrt(f.limit) // room to find out whether more would queue
		}
		f.limit = max(f.min, min(f.max, 0.8*f.limit+0.2*next))
		f.sum, f.n = 0, 0
	}
	for len(f.queue) > 0 && f.room() {
		f.in++
		close(f.queue[0])
		f.queue[0] = nil
		f.queue = f.queue[1:]
	}
}
