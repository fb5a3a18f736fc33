package main

import (
	"sync"
	"time"
)

// pauseWatch notes how late a ticker's wake-ups come in this process. A
// gap far past the tick is a time nothing here ran: the host stopped the
// machine, or the runtime stopped the world. Every answer under way then
// waits as long, so a p99 that jumps from one run to the next can be told
// apart: slow code shows no such gaps.
type pauseWatch struct {
	mu   sync.Mutex
	gaps []pause // wake-ups later than pauseNoted, in order
	stop chan struct{}
}

type pause struct {
	at  time.Time // the wake-up that ended it
	gap time.Duration
}

const (
	pauseTick  = 2 * time.Millisecond
	pauseNoted = 10 * time.Millisecond // the scheduler's own delays stay under it
	pauseLong  = 50 * time.Millisecond
)

func startPauseWatch() *pauseWatch {
	w := &pauseWatch{stop: make(chan struct{})}
	go func() {
		t := time.NewTicker(pauseTick)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				now := time.Now() // the tick carries when it was due, not when it ran
				if gap := now.Sub(last); gap > pauseNoted {
					w.mu.Lock()
					w.gaps = append(w.gaps, pause{now, gap})
					w.mu.Unlock()
				}
				last = now
			}
		}
	}()
	return w
}

func (w *pauseWatch) close() { close(w.stop) }

// Pauses sums up the gaps that ended within a window.
type Pauses struct {
	Longest   time.Duration // the longest gap between wake-ups (0: none over pauseNoted)
	Long      int           // gaps over pauseLong
	LongTotal time.Duration // their total
}

func (w *pauseWatch) within(from, to time.Time) Pauses {
	w.mu.Lock()
	defer w.mu.Unlock()
	var p Pauses
	for _, g := range w.gaps {
		if g.at.Before(from) || g.at.After(to) {
			continue
		}
		p.Longest = max(p.Longest, g.gap)
		if g.gap > pauseLong {
			p.Long++
			p.LongTotal += g.gap
		}
	}
	return p
}
