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
type flight struct {
	mu       sync.Mutex
	cond     *sync.Cond
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
	f := &flight{limit: float64(least), min: float64(least), max: float64(most), now: time.Now}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// enter waits until one more request may be in flight.
func (f *flight) enter() {
	f.mu.Lock()
	for float64(f.in) >= math.Floor(f.limit) {
		f.cond.Wait()
	}
	f.in++
	f.mu.Unlock()
}

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
		was, least := f.limit, f.least[0]
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
		if math.Floor(f.limit) > math.Floor(was) {
			f.cond.Broadcast() // room for more than the one leaving
			return
		}
	}
	f.cond.Signal() // the one leaving makes room for one
}
