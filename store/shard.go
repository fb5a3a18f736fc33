package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ShardOf is the shard Discord sends a guild's events to when the bot runs
// count shards: (guild_id >> 22) % count.
func ShardOf(guild string, count int) (int, error) {
	id, err := strconv.ParseUint(guild, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("guild id %q is not a snowflake", guild)
	}
	if count < 1 {
		return 0, fmt.Errorf("shard count %d: there is at least one shard", count)
	}
	return int((id >> 22) % uint64(count)), nil
}

// ShardPath is the database file of one shard of count: the path itself
// for a single shard, otherwise the shard goes before the extension, so
// "cardbot.db" becomes "cardbot.shard-1-of-4.db" (and "games" "games.shard-1-of-4").
func ShardPath(path string, shard, count int) string {
	if count <= 1 {
		return path
	}
	ext := filepath.Ext(path)
	if strings.ContainsAny(ext, `/\`) {
		ext = ""
	}
	return fmt.Sprintf("%s.shard-%d-of-%d%s", strings.TrimSuffix(path, ext), shard, count, ext)
}

// ReshardReport says what Reshard wrote: for each target, the number of
// keys per bucket.
type ReshardReport struct {
	Targets []string
	Counts  []map[string]int
}

// Total is the number of keys of a bucket over every target.
func (r *ReshardReport) Total(bucket string) int {
	n := 0
	for _, c := range r.Counts {
		n += c[bucket]
	}
	return n
}

// Reshard copies every record of the source files (the shards of the old
// count, or one file) into len(targets) new files, each record to the file
// of the shard that owns its guild under the new count. The targets must
// not exist. Each is written as PartialPath(target) and renamed into place
// only once all are written and verified, so a run killed midway leaves no
// target a bot would start on with games missing: running it again starts
// over, or, killed among the renames, finishes them. On an error the
// partial files are removed. Sources are only read, so the bots must be
// stopped (bbolt allows one process). A bucket it does not know, or a
// record it cannot place, fails the whole run: dropping it would lose data.
func Reshard(sources, targets []string) (*ReshardReport, error) {
	if len(sources) == 0 || len(targets) == 0 {
		return nil, errors.New("reshard: no source or no target file")
	}
	if run, err := renamesLeft(targets); err != nil || run != "" {
		if err != nil {
			return nil, fmt.Errorf("reshard: %w", err)
		}
		return finishRenames(targets)
	}
	for _, t := range targets {
		if _, err := os.Stat(t); err == nil {
			return nil, fmt.Errorf("reshard: %s already exists; move it away first, resharding never overwrites a database", t)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("reshard: %w", err)
		}
	}
	var srcs []*bolt.DB
	defer func() {
		for _, db := range srcs {
			db.Close()
		}
	}()
	for _, p := range sources {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("reshard: source %s: %w", p, err)
		}
		db, err := bolt.Open(p, 0o600, &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second})
		if err != nil {
			if errors.Is(err, bolterrors.ErrTimeout) {
				return nil, fmt.Errorf("reshard: %s is in use: stop every bot process first", p)
			}
			return nil, fmt.Errorf("reshard: open %s: %w", p, err)
		}
		srcs = append(srcs, db)
	}
	ix := newOwners()
	for i, db := range srcs {
		if err := db.View(ix.learn); err != nil {
			return nil, fmt.Errorf("reshard: read %s: %w", sources[i], err)
		}
	}
	r := &resharder{ix: ix, count: len(targets), seq: map[string]uint64{}, want: make([]map[string]int, len(targets))}
	ok := false
	defer func() {
		for _, db := range r.dst {
			db.Close()
		}
		if !ok {
			for _, t := range targets {
				os.Remove(PartialPath(t))
			}
		}
	}()
	for i, t := range targets {
		// A partial file is a killed run's: this run starts it over.
		if err := os.Remove(PartialPath(t)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("reshard: %w", err)
		}
		db, err := bolt.Open(PartialPath(t), 0o600, &bolt.Options{Timeout: 2 * time.Second})
		if err != nil {
			return nil, fmt.Errorf("reshard: create %s: %w", PartialPath(t), err)
		}
		r.dst = append(r.dst, db)
		r.want[i] = map[string]int{}
		err = db.Update(func(tx *bolt.Tx) error {
			meta, err := createBuckets(tx)
			if err != nil {
				return err
			}
			return meta.Put(keyClosed, []byte{1}) // written whole and closed: no process died using it
		})
		if err != nil {
			return nil, fmt.Errorf("reshard: prepare %s: %w", t, err)
		}
	}
	for i, db := range srcs {
		if err := db.View(r.copy); err != nil {
			return nil, fmt.Errorf("reshard: copy %s: %w", sources[i], err)
		}
	}
	if err := r.flush(); err != nil {
		return nil, fmt.Errorf("reshard: %w", err)
	}
	reshardCrash("copied")
	for _, db := range r.dst {
		err := db.Update(func(tx *bolt.Tx) error {
			for name, n := range r.seq {
				if err := tx.Bucket([]byte(name)).SetSequence(n); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reshard: keep sequences: %w", err)
		}
	}
	rep := &ReshardReport{Targets: targets}
	for i, db := range r.dst {
		got := map[string]int{}
		err := db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
				got[string(name)] = b.Stats().KeyN
				return nil
			})
		})
		if err != nil {
			return nil, fmt.Errorf("reshard: verify %s: %w", targets[i], err)
		}
		for _, b := range allBuckets {
			if got[string(b)] != r.want[i][string(b)] {
				return nil, fmt.Errorf("reshard: verify %s: bucket %s holds %d records, %d were written", targets[i], b, got[string(b)], r.want[i][string(b)])
			}
		}
		rep.Counts = append(rep.Counts, got)
	}
	reshardCrash("verified")
	// Every file is whole: mark them as one run's, so a run killed among
	// the renames below is finished by the next.
	run := []byte(strconv.FormatInt(time.Now().UnixNano(), 36))
	for i, db := range r.dst {
		if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyReshardRun, run) }); err != nil {
			return nil, fmt.Errorf("reshard: finish %s: %w", targets[i], err)
		}
	}
	for _, db := range r.dst {
		db.Close()
	}
	r.dst = nil
	ok = true // from here on the partial files are kept: a rerun renames them
	for _, t := range targets {
		if err := os.Rename(PartialPath(t), t); err != nil {
			return nil, fmt.Errorf("reshard: %w (run it again to finish)", err)
		}
		reshardCrash("renamed")
	}
	return rep, nil
}

// PartialPath is where Reshard writes a target until every target is
// written and verified.
func PartialPath(target string) string { return target + ".partial" }

// keyReshardRun, in a file Reshard wrote, names the run: the files of one
// run carry the same.
var keyReshardRun = []byte("reshard-run")

// reshardCrash, for tests: called at each step of Reshard, where a test's
// child process exits as if killed.
var reshardCrash = func(step string) {}

// renamesLeft returns the run whose renames a killed Reshard left undone:
// every target is either renamed or still partial, all marked by that run,
// and at least one of each. "" if that is not so.
func renamesLeft(targets []string) (string, error) {
	var paths []string
	renamed := 0
	for _, t := range targets {
		if _, err := os.Stat(t); err == nil {
			paths, renamed = append(paths, t), renamed+1
		} else if _, err := os.Stat(PartialPath(t)); err == nil {
			paths = append(paths, PartialPath(t))
		} else {
			return "", nil
		}
	}
	if renamed == 0 || renamed == len(targets) {
		return "", nil
	}
	run := ""
	for _, p := range paths {
		r, err := runOf(p)
		if err != nil || r == "" || run != "" && r != run {
			return "", err
		}
		run = r
	}
	return run, nil
}

// runOf is the Reshard run that wrote a file ("" if none finished it).
func runOf(path string) (string, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return "", fmt.Errorf("%s is in use: stop every bot process first", path)
		}
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	run := ""
	err = db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket(bucketMeta); meta != nil {
			run = string(meta.Get(keyReshardRun))
		}
		return nil
	})
	return run, err
}

// finishRenames renames what a killed run left partial and reports what
// the targets hold.
func finishRenames(targets []string) (*ReshardReport, error) {
	for _, t := range targets {
		if _, err := os.Stat(t); err == nil {
			continue
		}
		if err := os.Rename(PartialPath(t), t); err != nil {
			return nil, fmt.Errorf("reshard: %w", err)
		}
	}
	rep := &ReshardReport{Targets: targets}
	for _, t := range targets {
		db, err := bolt.Open(t, 0o600, &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second})
		if err != nil {
			return nil, fmt.Errorf("reshard: open %s: %w", t, err)
		}
		got := map[string]int{}
		err = db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
				got[string(name)] = b.Stats().KeyN
				return nil
			})
		})
		db.Close()
		if err != nil {
			return nil, fmt.Errorf("reshard: read %s: %w", t, err)
		}
		rep.Counts = append(rep.Counts, got)
	}
	return rep, nil
}

// allBuckets is every bucket Reshard knows how to place: guilds (guild id
// → settings) and threads (thread id → {channel, game, guild}) come from
// the thread-per-game work, named here so this file builds without it.
var allBuckets = [][]byte{bucketGames, bucketPosts, bucketEnded, bucketStats, bucketOut, bucketLog, bucketTimers, bucketWatch, bucketGuilds, bucketThreads}

// createBuckets makes every bucket a file needs (allBuckets and the
// file's own meta) and returns meta.
func createBuckets(tx *bolt.Tx) (*bolt.Bucket, error) {
	for _, b := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return nil, err
		}
	}
	return tx.CreateBucketIfNotExists(bucketMeta)
}

// owners maps games and channels to their guilds, from every source, so a
// record keyed by game or channel can be placed.
type owners struct {
	gameGuild    map[string]string
	gameChannel  map[string]string
	channelGuild map[string]string
}

func newOwners() *owners {
	return &owners{gameGuild: map[string]string{}, gameChannel: map[string]string{}, channelGuild: map[string]string{}}
}

// threadRecord is the threads bucket's value.
type threadRecord struct {
	Channel string `json:"channel"`
	Game    string `json:"game"`
	Guild   string `json:"guild"`
}

func (o *owners) game(id, channel, guild string) {
	if guild != "" {
		o.gameGuild[id] = guild
		if channel != "" {
			o.channelGuild[channel] = guild
		}
	}
	if channel != "" {
		o.gameChannel[id] = channel
	}
}

func (o *owners) learn(tx *bolt.Tx) error {
	each := func(name []byte, f func(k, v []byte) error) error {
		b := tx.Bucket(name)
		if b == nil {
			return nil
		}
		return b.ForEach(f)
	}
	err := each(bucketGames, func(_, v []byte) error {
		var g Game
		if err := unpackInto(v, &g); err != nil {
			return err
		}
		o.game(g.ID, g.Channel, g.Guild)
		return nil
	})
	if err != nil {
		return err
	}
	err = each(bucketEnded, func(k, v []byte) error {
		var e Ended
		if err := json.Unmarshal(v, &e); err != nil {
			return err
		}
		guild := ""
		if e.Final != nil {
			guild = e.Final.Guild
		}
		o.game(string(k), e.Channel, guild)
		return nil
	})
	if err != nil {
		return err
	}
	err = each([]byte("threads"), func(k, v []byte) error {
		var t threadRecord
		if err := json.Unmarshal(v, &t); err != nil {
			return err
		}
		if t.Guild != "" {
			o.channelGuild[string(k)] = t.Guild
			if t.Channel != "" {
				o.channelGuild[t.Channel] = t.Guild
			}
			if t.Game != "" {
				o.gameGuild[t.Game] = t.Guild
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return each(bucketWatch, func(k, v []byte) error {
		o.game(string(k), string(v), "")
		return nil
	})
}

func (o *owners) ofGame(id string) string {
	if g := o.gameGuild[id]; g != "" {
		return g
	}
	return o.channelGuild[o.gameChannel[id]]
}

func (o *owners) ofChannel(ch, game string) string {
	if g := o.channelGuild[ch]; g != "" {
		return g
	}
	return o.ofGame(game)
}

// guildOf says which guild a record belongs to ("" if unknown).
func (o *owners) guildOf(bucket string, k, v []byte) (string, error) {
	switch bucket {
	case "games":
		var g Game
		err := unpackInto(v, &g)
		return g.Guild, err
	case "posts", "ended", "watch":
		return o.ofGame(string(k)), nil
	case "log":
		game, _, _ := strings.Cut(string(k), "/")
		return o.ofGame(game), nil
	case "outbox":
		var out Output
		err := json.Unmarshal(v, &out)
		return o.ofChannel(out.Channel, out.Game), err
	case "timers":
		d, err := decodeDue(k, v)
		return o.ofChannel(d.Channel, d.Game), err
	case "stats", "guilds":
		guild, _, _ := strings.Cut(string(k), "/") // stats: guild/user, or a whole table under the guild
		return guild, nil
	case "threads":
		var t threadRecord
		err := json.Unmarshal(v, &t)
		if t.Guild != "" {
			return t.Guild, err
		}
		return o.ofChannel(t.Channel, t.Game), err
	}
	return "", fmt.Errorf("bucket %q is unknown to this build: update store/shard.go to place its records before resharding", bucket)
}

type resharder struct {
	ix      *owners
	count   int
	dst     []*bolt.DB
	seq     map[string]uint64 // per bucket, the highest sequence of any source
	want    []map[string]int  // per target and bucket, records written
	pending [][]kv
	queued  int
}

type kv struct {
	bucket string
	k, v   []byte
}

// flushEvery bounds the records held in memory between target commits.
const flushEvery = 10000

func (r *resharder) copy(tx *bolt.Tx) error {
	if r.pending == nil {
		r.pending = make([][]kv, r.count)
	}
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		bucket := string(name)
		if bucket == string(bucketMeta) {
			return nil // the file's own state (how its last process ended), not a guild's
		}
		if !slices.ContainsFunc(allBuckets, func(k []byte) bool { return string(k) == bucket }) {
			_, err := r.ix.guildOf(bucket, nil, nil)
			return err
		}
		r.seq[bucket] = max(r.seq[bucket], b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return fmt.Errorf("bucket %s holds a nested bucket %q this build does not know", bucket, k)
			}
			guild, err := r.ix.guildOf(bucket, k, v)
			if err != nil {
				return fmt.Errorf("%s record %q: %w", bucket, k, err)
			}
			if guild == "" {
				return fmt.Errorf("%s record %q belongs to no game, channel or guild found in the sources", bucket, k)
			}
			shard, err := ShardOf(guild, r.count)
			if err != nil {
				return fmt.Errorf("%s record %q: %w", bucket, k, err)
			}
			r.pending[shard] = append(r.pending[shard], kv{bucket, bytes.Clone(k), bytes.Clone(v)})
			if r.queued++; r.queued >= flushEvery {
				return r.flush()
			}
			return nil
		})
	})
}

// flush writes the queued records, one transaction per target. A key
// already there (from another source) must hold the same value.
func (r *resharder) flush() error {
	for i, recs := range r.pending {
		if len(recs) == 0 {
			continue
		}
		err := r.dst[i].Update(func(tx *bolt.Tx) error {
			for _, rec := range recs {
				b := tx.Bucket([]byte(rec.bucket))
				if old := b.Get(rec.k); old != nil {
					if !bytes.Equal(old, rec.v) {
						return fmt.Errorf("%s record %q differs between two source files: keep one of them", rec.bucket, rec.k)
					}
					continue
				}
				if err := b.Put(rec.k, rec.v); err != nil {
					return err
				}
				r.want[i][rec.bucket]++
			}
			return nil
		})
		if err != nil {
			return err
		}
		r.pending[i] = recs[:0]
		reshardCrash("flushed")
	}
	r.queued = 0
	return nil
}
