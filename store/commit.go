package store

import (
	"errors"

	bolt "go.etcd.io/bbolt"
)

// Writes from every channel go through one committer, which puts all the
// writes waiting at that moment into one transaction: one fsync for many
// moves, each still durable before its caller returns. There is no
// waiting to fill a batch: an idle store commits a lone write at once.
type write struct {
	fn   func(*bolt.Tx) error
	done chan error
	// after, if set, runs in the committer once the write's transaction
	// has ended (err nil: committed), in commit order.
	after func(err error)
}

// queued bounds the writes waiting for the committer; a writer that does
// not wait for its commit (Done) must not wait for the queue either.
const queued = 4096

// maxBatch bounds a transaction, so one slow commit cannot grow unbounded.
const maxBatch = 256

func (s *Store) startCommitter() {
	s.writes = make(chan write, queued)
	s.stopped = make(chan struct{})
	go func() {
		defer close(s.stopped)
		for w := range s.writes {
			batch := []write{w}
		more:
			for len(batch) < maxBatch {
				select {
				case w, ok := <-s.writes:
					if !ok {
						break more
					}
					batch = append(batch, w)
				default:
					break more
				}
			}
			s.commitBatch(batch)
		}
	}()
}

// errRetryAlone marks a batch that failed because of one write: each is
// then committed on its own, so one bad write fails only its caller.
var errRetryAlone = errors.New("retry writes one by one")

func (s *Store) commitBatch(batch []write) {
	if len(batch) == 1 {
		batch[0].finish(s.db.Update(batch[0].fn))
		return
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, w := range batch {
			if err := w.fn(tx); err != nil {
				return errRetryAlone
			}
		}
		return nil
	})
	if errors.Is(err, errRetryAlone) {
		for _, w := range batch {
			w.finish(s.db.Update(w.fn))
		}
		return
	}
	for _, w := range batch {
		w.finish(err)
	}
}

func (w write) finish(err error) {
	if w.after != nil {
		w.after(err)
	}
	w.done <- err
}

// update commits fn in the next transaction. fn may run twice (alone,
// after a batch failed), so it must not keep changes to its inputs from a
// run whose transaction did not commit: callers reset what they touch.
func (s *Store) update(fn func(*bolt.Tx) error) error {
	return s.updateThen(fn, nil)
}

// updateThen is update with a hook run by the committer when the
// transaction has ended, before update returns.
func (s *Store) updateThen(fn func(*bolt.Tx) error, after func(error)) error {
	w := write{fn: fn, done: make(chan error, 1), after: after}
	s.writes <- w
	return <-w.done
}

// enqueue hands fn to the committer without waiting for its commit: it
// rides on the next group commit.
func (s *Store) enqueue(fn func(*bolt.Tx) error, after func(error)) {
	s.writes <- write{fn: fn, done: make(chan error, 1), after: after}
}
