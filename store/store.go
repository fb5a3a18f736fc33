// Package store keeps games and per-server results in a bbolt file. Every
// write is one transaction, committed (fsynced) before it returns, so a move
// the bot has acknowledged survives a crash.
package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

var (
	bucketGames  = []byte("games")  // channel id → running or lobby Game
	bucketPosts  = []byte("posts")  // game id → Posts (the output lane's alone)
	bucketEnded  = []byte("ended")  // game id → Ended, so old buttons get a precise answer
	bucketStats  = []byte("stats")  // guild id/user id → PlayerStats
	bucketOut    = []byte("outbox") // outKey → Output still owed
	bucketLog    = []byte("log")    // game id/sequence → Entry
	bucketTimers = []byte("timers") // due (8 bytes, big-endian Unix ms) + channel + 0 + key → game id (older builds: Due)
	bucketWatch  = []byte("watch")  // game id → channel, for open games with messages whose reactions count
	bucketMeta   = []byte("meta")   // keyClosed, keyCrashes
)

var (
	keyClosed  = []byte("closed")  // present while the file is closed by Close
	keyCrashes = []byte("crashes") // []int64 Unix ms: see Crashes
)

// crashMemory is how long Crashes remembers a crash: longer than an
// interaction token lives.
const crashMemory = time.Hour

// ErrSchema is returned for a record written by a newer (or unknown) build.
var ErrSchema = errors.New("stored game has an unknown schema version")

// ErrDamaged is returned for a game record that does not decode.
var ErrDamaged = errors.New("stored game record is damaged")

// Store is the bot's database.
type Store struct {
	db      *bolt.DB
	writes  chan write
	stopped chan struct{}
	cache   *cache
	heads   heads
	// transactions counts the committer's write transactions.
	transactions atomic.Uint64
	crashes      []time.Time      // see Crashes
	now          func() time.Time // when a game ends; tests move it
}

// Open opens (or creates) the database file.
func Open(path string) (*Store, error) {
	var lastWrite time.Time
	if fi, err := os.Stat(path); err == nil {
		lastWrite = fi.ModTime()
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("open database %s: another process is using it", path)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	var crashes []time.Time
	err = db.Update(func(tx *bolt.Tx) error {
		used := tx.Bucket(bucketGames) != nil
		meta, err := createBuckets(tx)
		if err != nil {
			return err
		}
		crashed := used && meta.Get(keyClosed) == nil && !lastWrite.IsZero()
		if crashes, err = noteCrash(meta, crashed, lastWrite); err != nil {
			return err
		}
		return meta.Delete(keyClosed)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("prepare database %s: %w", path, err)
	}
	s := &Store{db: db, cache: newCache(), crashes: crashes, now: time.Now}
	s.startCommitter()
	return s, nil
}

// Close finishes the writes under way and closes the file.
func (s *Store) Close() error {
	close(s.writes)
	<-s.stopped
	err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyClosed, []byte{1}) })
	return errors.Join(err, s.db.Close())
}

// noteCrash keeps the file's list of recent crashes: those within
// crashMemory, and lastWrite if the previous process crashed.
func noteCrash(meta *bolt.Bucket, crashed bool, lastWrite time.Time) ([]time.Time, error) {
	var ms []int64
	if v := meta.Get(keyCrashes); v != nil {
		if err := json.Unmarshal(v, &ms); err != nil {
			return nil, err
		}
	}
	if crashed {
		ms = append(ms, lastWrite.UnixMilli())
	}
	ms = slices.DeleteFunc(ms, func(m int64) bool { return time.Since(time.UnixMilli(m)) >= crashMemory })
	v, err := json.Marshal(ms)
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for _, m := range ms {
		out = append(out, time.UnixMilli(m))
	}
	return out, meta.Put(keyCrashes, v)
}

// Crashes are the recent ends (within the hour) of processes that used the
// file and stopped without Close (killed, or the machine went down): when
// each last wrote it. What such a process did in its last moments may be
// half done: committed, but never told to Discord.
func (s *Store) Crashes() []time.Time { return s.crashes }

// Game returns the game open in a channel, or nil. The record is the
// caller's own copy, to change and save.
func (s *Store) Game(channel string) (*Game, error) {
	g, writes := s.cache.game(channel)
	if g != nil {
		return g, nil
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		g, err = decodeGame(tx.Bucket(bucketGames).Get([]byte(channel)))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load game in channel %s: %w", channel, err)
	}
	if g != nil {
		s.cache.fill(g, writes)
	}
	return g, nil
}

// GameIf is Game for a caller that wants the record only in some state:
// when the channel's record is cached, if reports whether it is wanted
// before any copy is made (if must not keep or change it).
func (s *Store) GameIf(channel string, want func(*Game) bool) (*Game, error) {
	if g, cached := s.cache.gameIf(channel, want); cached {
		return g, nil
	}
	g, err := s.Game(channel)
	if err != nil || g == nil || !want(g) {
		return nil, err
	}
	return g, nil
}

// decodeGame reads a record, refusing one of another schema.
func decodeGame(v []byte) (*Game, error) {
	if v == nil {
		return nil, nil
	}
	g := new(Game)
	if err := unpackInto(v, g); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	if g.Schema != Schema {
		return nil, fmt.Errorf("%w: game %s has schema %d, this build reads %d", ErrSchema, g.ID, g.Schema, Schema)
	}
	return g, nil
}

// get decodes one record, or returns nil if the key is absent.
func get[T any](s *Store, bucket []byte, key string) (*T, error) {
	var out *T
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get([]byte(key))
		if v == nil {
			return nil
		}
		out = new(T)
		return json.Unmarshal(v, out)
	})
	return out, err
}

// Save commits a game with no input to log (a lobby's seats, a hand token).
func (s *Store) Save(g *Game) error {
	g.Schema = Schema
	if err := s.updateThen(func(tx *bolt.Tx) error { return s.saveTx(tx, g) }, s.cache.committed(g, false)); err != nil {
		return fmt.Errorf("save game %s: %w", g.ID, err)
	}
	return nil
}

// Ending is how a game ended, for Commit.
type Ending struct {
	How     string
	Results []PlayerResult
}

// Commit saves a change together with the inputs that made it (appended to
// the game's log) and the output it owes the channel, in one transaction,
// so a crash before that output is done leaves it pending; with end set
// the game ends in the same transaction. It sets out.Key.
func (s *Store) Commit(g *Game, in []Entry, out *Output, end *Ending) error {
	if end == nil {
		return s.commitEncoded(g, in, out)
	}
	undo := g.logUndo()
	err := s.updateThen(func(tx *bolt.Tx) error {
		undo() // a retry starts over
		if err := appendLog(tx, g, in); err != nil {
			return err
		}
		if err := s.endTx(tx, g, end.How, end.Results); err != nil || out == nil {
			return err
		}
		return putOutput(tx, out)
	}, s.cache.committed(g, true))
	if err != nil {
		undo()
		return fmt.Errorf("commit game %s: %w", g.ID, err)
	}
	return nil
}

// logUndo returns what puts g's log counters back as they are now: a
// commit changes them before it knows it committed.
func (g *Game) logUndo() func() {
	steps, tail := g.Steps, g.Tail
	return func() { g.Steps, g.Tail = steps, tail }
}

// logBatch is how many inputs a record's Tail holds before they move to
// the log bucket: few enough that a record stays within a page.
const logBatch = 8

// commitEncoded is Commit for a game that goes on: everything is encoded
// before the transaction, so the one committer goroutine only writes and
// the encoding of many channels' moves runs in parallel.
func (s *Store) commitEncoded(g *Game, in []Entry, out *Output) error {
	undo := g.logUndo()
	first := g.logged()
	var logs [][]byte
	var err error
	if g.Tail = append(slices.Clip(g.Tail), in...); len(g.Tail) >= logBatch {
		logs, err = encodeEntries(g.Tail)
		g.Tail = nil
	}
	g.Steps, g.Schema = g.Steps+len(in), Schema
	var rec, owed []byte
	if err == nil {
		rec, err = encodeGame(g)
		rec = packRecord(g, rec)
	}
	if err == nil && out != nil {
		owed, err = json.Marshal(out)
	}
	if err != nil {
		undo()
		return fmt.Errorf("commit game %s: %w", g.ID, err)
	}
	err = s.updateThen(func(tx *bolt.Tx) error {
		if err := putLog(tx, g.ID, first, logs); err != nil {
			return err
		}
		if err := s.putRecord(tx, g, rec); err != nil || out == nil {
			return err
		}
		return putOwed(tx, out, owed)
	}, s.cache.committed(g, false))
	if err != nil {
		undo()
		return fmt.Errorf("commit game %s: %w", g.ID, err)
	}
	return nil
}

func logKey(game string, n int) []byte { return fmt.Appendf(nil, "%s/%010d", game, n) }

// appendLog puts the record's Tail and then in into the log bucket.
func appendLog(tx *bolt.Tx, g *Game, in []Entry) error {
	all := append(slices.Clip(g.Tail), in...)
	logs, err := encodeEntries(all)
	if err != nil {
		return err
	}
	first := g.logged()
	if err := putLog(tx, g.ID, first, logs); err != nil {
		return err
	}
	g.Steps, g.Tail = first+len(all), nil
	return nil
}

// logged is how many of g's inputs are in the log bucket: the log index
// of its Tail's first.
func (g *Game) logged() int { return g.Steps - len(g.Tail) }

func encodeEntries(es []Entry) ([][]byte, error) {
	out := make([][]byte, len(es))
	for i, e := range es {
		v, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// putLog puts encoded entries into game's log from index first on.
func putLog(tx *bolt.Tx, game string, first int, logs [][]byte) error {
	b := tx.Bucket(bucketLog)
	for i, v := range logs {
		if err := b.Put(logKey(game, first+i), v); err != nil {
			return err
		}
	}
	return nil
}

// History is a game's log, in order.
func (s *Store) History(game string) ([]Entry, error) {
	var out []Entry
	prefix := []byte(game + "/")
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketLog).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			out = append(out, e)
		}
		// An open game's latest inputs are in its record's Tail (an ended
		// game's went to the log when it ended).
		g, open, err := findTx(tx, game)
		if open {
			out = append(out, g.Tail...)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read log of game %s: %w", game, err)
	}
	return out, nil
}

// stored returns the channel's record if it is game id, and whether the
// channel holds another game.
func (s *Store) stored(b *bolt.Bucket, channel, id string) (cur *head, other bool, err error) {
	v := b.Get([]byte(channel))
	if v == nil {
		return nil, false, nil
	}
	cur = s.heads.get(channel, v)
	if cur == nil {
		cur = new(head)
		if err := unpackInto(v, cur); err != nil {
			return nil, false, err
		}
	}
	if cur.Schema != Schema {
		return nil, false, fmt.Errorf("%w: game %s has schema %d, this build reads %d", ErrSchema, cur.ID, cur.Schema, Schema)
	}
	if cur.ID != id {
		return nil, true, nil
	}
	return cur, false, nil
}

// heads remembers, per channel, the record the committer last put and its
// head, so the next write's check decodes no JSON. A hit needs the stored
// bytes to equal the remembered ones, so a write made another way, or one
// rolled back, costs only a decode.
type heads struct {
	mu sync.Mutex
	m  map[string]headOf
}

type headOf struct {
	rec []byte
	h   *head
}

// maxHeads bounds the remembered records (the busy channels').
const maxHeads = 4096

func (h *heads) get(channel string, v []byte) *head {
	h.mu.Lock()
	defer h.mu.Unlock()
	if k, ok := h.m[channel]; ok && bytes.Equal(k.rec, v) {
		return k.h
	}
	return nil
}

// put remembers rec, which must not change afterwards, as channel's.
func (h *heads) put(channel string, rec []byte, hd *head) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil || len(h.m) >= maxHeads {
		h.m = map[string]headOf{}
	}
	h.m[channel] = headOf{rec, hd}
}

// head is the part of a stored record a write checks against: which game
// holds the channel, and its timers. Decoding only this keeps the state,
// seats and log of a commit from being parsed again inside the transaction.
type head struct {
	Schema int              `json:"schema"`
	ID     string           `json:"id"`
	Timers map[string]int64 `json:"timers,omitempty"`
}

func (s *Store) saveTx(tx *bolt.Tx, g *Game) error {
	g.Schema = Schema
	rec, err := encodeGame(g)
	if err != nil {
		return err
	}
	return s.putRecord(tx, g, packRecord(g, rec))
}

// putRecord stores a record, encoded and packed, after checking the channel still
// holds this game, and brings the due-time index in line with its timers.
func (s *Store) putRecord(tx *bolt.Tx, g *Game, rec []byte) error {
	b := tx.Bucket(bucketGames)
	cur, other, err := s.stored(b, g.Channel, g.ID)
	if err != nil {
		return err
	}
	if other {
		return fmt.Errorf("channel %s holds another game", g.Channel)
	}
	var was map[string]int64
	if cur != nil {
		was = cur.Timers
	}
	if err := indexTimers(tx, g, was, g.Timers); err != nil {
		return err
	}
	if err := b.Put([]byte(g.Channel), rec); err != nil {
		return err
	}
	s.heads.put(g.Channel, rec, &head{Schema: g.Schema, ID: g.ID, Timers: maps.Clone(g.Timers)})
	return nil
}

func timerKey(channel, key string, at int64) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(at))
	k = append(k, channel...)
	k = append(k, 0)
	return append(k, key...)
}

// indexTimers brings the due-time index in line with a game's timers.
func indexTimers(tx *bolt.Tx, g *Game, was, now map[string]int64) error {
	b := tx.Bucket(bucketTimers)
	for key, at := range was {
		if now[key] != at {
			if err := b.Delete(timerKey(g.Channel, key, at)); err != nil {
				return err
			}
		}
	}
	for key, at := range now {
		if was[key] == at || at == 0 { // 0: fired, kept only so it is not set again
			continue
		}
		if err := b.Put(timerKey(g.Channel, key, at), []byte(g.ID)); err != nil {
			return err
		}
	}
	return nil
}

// DueBy lists the timers due at or before t, earliest first, and when the
// next later one is due (zero if none).
func (s *Store) DueBy(t time.Time) (due []Due, next time.Time, err error) {
	limit := t.UnixMilli()
	err = s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketTimers).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			at := int64(binary.BigEndian.Uint64(k[:8]))
			if at > limit {
				next = time.UnixMilli(at)
				return nil
			}
			d, err := decodeDue(k, v)
			if err != nil {
				return err
			}
			due = append(due, d)
		}
		return nil
	})
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("list timers: %w", err)
	}
	return due, next, nil
}

// decodeDue reads one entry of the timer index. The key says when, which
// channel and which timer; the value is the game's id. Builds before that
// stored the whole Due as JSON, a quarter of a busy table's footprint.
func decodeDue(k, v []byte) (Due, error) {
	if len(v) > 0 && v[0] == '{' {
		var d Due
		err := json.Unmarshal(v, &d)
		return d, err
	}
	if len(k) < 8 {
		return Due{}, fmt.Errorf("timer index key %q is damaged", k)
	}
	channel, key, ok := bytes.Cut(k[8:], []byte{0})
	if !ok {
		return Due{}, fmt.Errorf("timer index key %q is damaged", k)
	}
	return Due{Channel: string(channel), Game: string(v), Key: string(key), At: int64(binary.BigEndian.Uint64(k[:8]))}, nil
}

// DropTimer removes a timer its game no longer wants from the index.
func (s *Store) DropTimer(d Due) error {
	return s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTimers).Delete(timerKey(d.Channel, d.Key, d.At))
	})
}

// Posts returns the ids of a game's messages (empty if none yet), as the
// latest write left them, committed or not.
func (s *Store) Posts(game string) (*Posts, error) {
	if p := s.cache.pendingPosts(game); p != nil {
		return p, nil
	}
	return s.storedPosts(game)
}

func (s *Store) storedPosts(game string) (*Posts, error) {
	p, err := get[Posts](s, bucketPosts, game)
	if err != nil {
		return nil, fmt.Errorf("load messages of game %s: %w", game, err)
	}
	if p == nil {
		p = &Posts{}
	}
	return p, nil
}

func patchPosts(tx *bolt.Tx, game, channel string, f func(*Posts)) error {
	b := tx.Bucket(bucketPosts)
	p := &Posts{}
	if v := b.Get([]byte(game)); v != nil {
		if err := json.Unmarshal(v, p); err != nil {
			return err
		}
	}
	had := len(p.Emoji) > 0
	f(p)
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := b.Put([]byte(game), v); err != nil {
		return err
	}
	if !had && len(p.Emoji) > 0 && channel != "" {
		return tx.Bucket(bucketWatch).Put([]byte(game), []byte(channel))
	}
	return nil
}

// Watched lists the open games (id → channel) with messages whose
// reactions count, for the recount at start-up.
func (s *Store) Watched() (map[string]string, error) {
	out := map[string]string{}
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketWatch).ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	})
	return out, err
}

// SetPosts records message ids of a game. Only the output lane calls it.
// The outputs done, if any, leave the outbox in the same write.
func (s *Store) SetPosts(game, channel string, f func(*Posts), done ...*Output) error {
	after, err := s.cache.patchPosts(game, f, func() (*Posts, error) { return s.storedPosts(game) })
	if err == nil {
		err = s.updateThen(func(tx *bolt.Tx) error {
			for _, out := range done {
				if out.Key == "" {
					continue
				}
				if err := tx.Bucket(bucketOut).Delete([]byte(out.Key)); err != nil {
					return err
				}
			}
			return patchPosts(tx, game, channel, f)
		}, after)
	}
	if err != nil {
		return fmt.Errorf("save messages of game %s: %w", game, err)
	}
	return nil
}

// Running lists every game that is open (lobby or in play).
func (s *Store) Running() ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			g, err := decodeGame(v)
			if err != nil {
				return err
			}
			out = append(out, g)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	return out, nil
}

// End closes a game in one transaction: it frees the channel, remembers how
// the game ended, and adds its results (if any) to the server's stats. A
// newer game in the channel is left alone.
func (s *Store) End(g *Game, how string, results []PlayerResult) error {
	undo := g.logUndo()
	err := s.updateThen(func(tx *bolt.Tx) error {
		undo() // a retry starts over
		return s.endTx(tx, g, how, results)
	}, s.cache.committed(g, true))
	if err != nil {
		undo()
		return fmt.Errorf("end game %s: %w", g.ID, err)
	}
	return nil
}

func (s *Store) endTx(tx *bolt.Tx, g *Game, how string, results []PlayerResult) error {
	games := tx.Bucket(bucketGames)
	cur, other, err := s.stored(games, g.Channel, g.ID)
	if err != nil || other {
		return err // another game has begun since
	}
	if cur != nil {
		if err := indexTimers(tx, g, cur.Timers, nil); err != nil {
			return err
		}
	}
	if err := appendLog(tx, g, nil); err != nil { // the tail, so the history is whole
		return err
	}
	g.Schema, g.Timers = Schema, nil
	end, err := json.Marshal(Ended{ID: g.ID, Kind: g.Kind, Channel: g.Channel, How: how, At: s.now().UTC(), Final: g})
	if err != nil {
		return err
	}
	if err := games.Delete([]byte(g.Channel)); err != nil {
		return err
	}
	if err := tx.Bucket(bucketWatch).Delete([]byte(g.ID)); err != nil {
		return err
	}
	if err := tx.Bucket(bucketEnded).Put([]byte(g.ID), end); err != nil {
		return err
	}
	if len(results) == 0 {
		return nil
	}
	return addResults(tx.Bucket(bucketStats), g.Guild, g.Kind, results)
}

// outKey orders owed output by when it was owed, whatever its channel, so
// each commit adds to the last page of the outbox and the outputs done
// empty its first: keyed by channel first, a group commit of n channels'
// moves rewrote up to 2n of its pages. Databases written before kept
// "channel/sequence" keys, which sort before these and are read alike.
func outKey(seq uint64, channel string) string {
	return fmt.Sprintf("o/%020d/%s", seq, channel)
}

// OutputSeq is the sequence number an output's key holds (see outKey).
func OutputSeq(key string) uint64 {
	var seq string
	if rest, ok := strings.CutPrefix(key, "o/"); ok {
		seq, _, _ = strings.Cut(rest, "/")
	} else {
		seq = key[strings.LastIndexByte(key, '/')+1:]
	}
	n, _ := strconv.ParseUint(seq, 10, 64)
	return n
}

func putOutput(tx *bolt.Tx, out *Output) error {
	v, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return putOwed(tx, out, v)
}

// Owe commits output that no change of the game comes with (a table posted
// anew on request), so a crash before it is done replays it like any
// other. It sets out.Key.
func (s *Store) Owe(out *Output) error {
	if err := s.update(func(tx *bolt.Tx) error { return putOutput(tx, out) }); err != nil {
		return fmt.Errorf("owe output of game %s: %w", out.Game, err)
	}
	return nil
}

// putOwed puts out, encoded as v, into the outbox and sets its key.
func putOwed(tx *bolt.Tx, out *Output, v []byte) error {
	b := tx.Bucket(bucketOut)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	out.Key = outKey(seq, out.Channel)
	return b.Put([]byte(out.Key), v)
}

// Done removes output that has been carried out and, in the same
// transaction, records the message ids it changed (f may be nil). It does
// not wait for that commit, which rides on the next group commit (Close
// still makes it): Posts returns the ids at once, and a crash before the
// commit only replays the output, whose messages carry nonces.
func (s *Store) Done(out *Output, f func(*Posts)) error {
	var after func(error)
	if f != nil {
		var err error
		after, err = s.cache.patchPosts(out.Game, f, func() (*Posts, error) { return s.storedPosts(out.Game) })
		if err != nil {
			return fmt.Errorf("finish output of game %s: %w", out.Game, err)
		}
	}
	s.enqueue(func(tx *bolt.Tx) error {
		if out.Key != "" {
			if err := tx.Bucket(bucketOut).Delete([]byte(out.Key)); err != nil {
				return err
			}
		}
		if f == nil {
			return nil
		}
		return patchPosts(tx, out.Game, out.Channel, f)
	}, after)
	return nil
}

// Pending lists the output still owed, per channel in the order it was owed.
func (s *Store) Pending() ([]*Output, error) {
	// Done marks still on their way count as written.
	if err := s.update(func(*bolt.Tx) error { return nil }); err != nil {
		return nil, fmt.Errorf("list pending output: %w", err)
	}
	var out []*Output
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOut).ForEach(func(k, v []byte) error {
			o := new(Output)
			if err := json.Unmarshal(v, o); err != nil {
				return err
			}
			o.Key = string(k)
			out = append(out, o)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list pending output: %w", err)
	}
	return out, nil
}

// Ended looks up a finished game by id; nil if unknown.
func (s *Store) Ended(id string) (*Ended, error) {
	e, err := get[Ended](s, bucketEnded, id)
	if err != nil {
		return nil, fmt.Errorf("load ended game %s: %w", id, err)
	}
	return e, nil
}

// Find returns a game by id, open or ended, with whether it is still open.
func (s *Store) Find(id string) (*Game, bool, error) {
	var found *Game
	open := false
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		found, open, err = findTx(tx, id)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("find game %s: %w", id, err)
	}
	return found, open, nil
}

// findTx is Find within tx. Open games are keyed by channel, so it looks
// through them, decoding only records that name the id.
func findTx(tx *bolt.Tx, id string) (found *Game, open bool, err error) {
	if v := tx.Bucket(bucketEnded).Get([]byte(id)); v != nil {
		var e Ended
		if err := json.Unmarshal(v, &e); err != nil {
			return nil, false, err
		}
		return e.Final, false, nil
	}
	named := []byte(`"id":"` + id + `"`)
	err = tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
		if v, err := recordJSON(v); err != nil || !bytes.Contains(v, named) {
			return err
		}
		g, err := decodeGame(v)
		if err == nil && g.ID == id {
			found, open = g, true
		}
		return err
	})
	return found, open, err
}

// Stats returns a server's results, keyed by user id.
func (s *Store) Stats(guild string) (Stats, error) {
	var st Stats
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		st, err = readStats(tx.Bucket(bucketStats), guild)
		return err
	})
	return st, err
}

// statsKey: each player's tallies have a key of their own, so a game's end
// rewrites its players' few bytes, not the whole server's table.
func statsKey(guild, user string) []byte { return []byte(guild + "/" + user) }

// readStats reads a server's results, including a table stored whole
// under the bare guild id by builds before statsKey.
func readStats(b *bolt.Bucket, guild string) (Stats, error) {
	st := Stats{}
	if v := b.Get([]byte(guild)); v != nil {
		if err := json.Unmarshal(v, &st); err != nil {
			return nil, err
		}
	}
	prefix := statsKey(guild, "")
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		p := &PlayerStats{}
		if err := json.Unmarshal(v, p); err != nil {
			return nil, err
		}
		st[string(k[len(prefix):])] = p
	}
	return st, nil
}

func addResults(b *bolt.Bucket, guild, kind string, results []PlayerResult) error {
	if old := b.Get([]byte(guild)); old != nil {
		// A table from before statsKey: split it up first.
		st, err := readStats(b, guild)
		if err != nil {
			return err
		}
		for user, p := range st {
			if err := putStats(b, guild, user, p); err != nil {
				return err
			}
		}
		if err := b.Delete([]byte(guild)); err != nil {
			return err
		}
	}
	for _, r := range results {
		p := &PlayerStats{}
		if v := b.Get(statsKey(guild, r.User)); v != nil {
			if err := json.Unmarshal(v, p); err != nil {
				return err
			}
		}
		if p.Games == nil {
			p.Games = map[string]*Tally{}
		}
		p.Name = r.Name
		t := p.Games[kind]
		if t == nil {
			t = &Tally{}
			p.Games[kind] = t
		}
		if t.Played == 0 || r.Score > t.Best {
			t.Best = r.Score
		}
		t.Played++
		t.Points += r.Score
		if r.Won {
			t.Won++
		}
		if err := putStats(b, guild, r.User, p); err != nil {
			return err
		}
	}
	return nil
}

func putStats(b *bolt.Bucket, guild, user string, p *PlayerStats) error {
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return b.Put(statsKey(guild, user), v)
}

// Each calls f for every game the database holds, open or ended.
func (s *Store) Each(f func(g *Game, open bool) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			g, err := decodeGame(v)
			if err != nil {
				return err
			}
			return f(g, true)
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketEnded).ForEach(func(_, v []byte) error {
			var e Ended
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			if e.Final == nil {
				return nil
			}
			return f(e.Final, false)
		})
	})
}

// Prune keeps the file from growing for ever: an ended game older than
// compactAfter keeps only who played, how it ended, its seed and its log
// (the state and the bot's message ids go), and one older than keep goes
// entirely, log included (keep 0: never). Freed pages are reused by bbolt.
// It reports how many games it compacted and deleted.
func (s *Store) Prune(now time.Time, compactAfter, keep time.Duration) (compacted, deleted int, err error) {
	type job struct {
		id     string
		remove bool
	}
	var jobs []job
	err = s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketEnded).ForEach(func(k, v []byte) error {
			var e Ended
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			switch age := now.Sub(e.At); {
			case e.At.IsZero():
			case keep > 0 && age > keep:
				jobs = append(jobs, job{string(k), true})
			case age > compactAfter && e.Final != nil && e.Final.State != nil:
				jobs = append(jobs, job{string(k), false})
			}
			return nil
		})
	})
	if err != nil {
		return 0, 0, fmt.Errorf("prune: %w", err)
	}
	for len(jobs) > 0 {
		n := min(len(jobs), 200)
		batch := jobs[:n]
		jobs = jobs[n:]
		err := s.update(func(tx *bolt.Tx) error {
			for _, j := range batch {
				if err := pruneTx(tx, j.id, j.remove); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return compacted, deleted, fmt.Errorf("prune: %w", err)
		}
		for _, j := range batch {
			if j.remove {
				deleted++
			} else {
				compacted++
			}
		}
	}
	return compacted, deleted, nil
}

func pruneTx(tx *bolt.Tx, id string, remove bool) error {
	if err := forgetThread(tx, id); err != nil {
		return err
	}
	if err := tx.Bucket(bucketPosts).Delete([]byte(id)); err != nil {
		return err
	}
	ended := tx.Bucket(bucketEnded)
	if remove {
		c := tx.Bucket(bucketLog).Cursor()
		prefix := []byte(id + "/")
		var keys [][]byte
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			keys = append(keys, bytes.Clone(k))
		}
		for _, k := range keys {
			if err := tx.Bucket(bucketLog).Delete(k); err != nil {
				return err
			}
		}
		return ended.Delete([]byte(id))
	}
	var e Ended
	if err := json.Unmarshal(ended.Get([]byte(id)), &e); err != nil {
		return err
	}
	e.Final.State, e.Final.Log, e.Final.Reacts, e.Final.Waiting = nil, nil, nil, nil
	for i := range e.Final.Seats {
		e.Final.Seats[i].HandToken = ""
	}
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return ended.Put([]byte(id), v)
}
