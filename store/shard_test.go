package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cardtable/cardbot/games"
)

func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		guild string
		count int
		want  int
	}{
		{"0", 1, 0},
		{strconv.FormatUint(5<<22|12345, 10), 2, 1},
		{strconv.FormatUint(5<<22|12345, 10), 3, 2},
		{"81384788765712384", 4, 81384788765712384 >> 22 % 4}, // a real-looking snowflake
	} {
		if got, err := ShardOf(c.guild, c.count); err != nil || got != c.want {
			t.Errorf("ShardOf(%s, %d) = %d, %v; want %d", c.guild, c.count, got, err, c.want)
		}
	}
	if _, err := ShardOf("general", 2); err == nil {
		t.Error("ShardOf accepted a guild id that is no snowflake")
	}
}

func TestShardPath(t *testing.T) {
	for _, c := range []struct {
		path         string
		shard, count int
		want         string
	}{
		{"cardbot.db", 0, 1, "cardbot.db"},
		{"cardbot.db", 1, 4, "cardbot.shard-1-of-4.db"},
		{"/var/lib/cardbot/games", 0, 2, "/var/lib/cardbot/games.shard-0-of-2"},
		{"data.d/games", 1, 2, "data.d/games.shard-1-of-2"},
	} {
		if got := ShardPath(c.path, c.shard, c.count); got != c.want {
			t.Errorf("ShardPath(%q, %d, %d) = %q; want %q", c.path, c.shard, c.count, got, c.want)
		}
	}
}

// guildOn is a guild id that count shards route to shard.
func guildOn(shard, count, n int) string {
	return strconv.FormatUint(uint64(shard+count*n)<<22|uint64(n), 10)
}

// fillShardSource writes, for each guild, an open game with a timer, a
// log, owed output and watched posts, an ended game with results, and a
// settings and a thread record in the buckets other builds add.
func fillShardSource(t *testing.T, path string, guilds []string) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, guild := range guilds {
		ch := fmt.Sprintf("%d", 900+i)
		old := &Game{ID: "old" + guild, Kind: "duel", Guild: guild, Channel: ch, Status: Playing, Seats: []Seat{{User: "u1", Name: "Ann"}}}
		if err := s.Save(old); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(old, []Entry{{Input: games.Input{Seat: 0}}}, nil, &Ending{How: "won", Results: []PlayerResult{{User: "u1", Name: "Ann", Won: true, Score: 3}}}); err != nil {
			t.Fatal(err)
		}
		g := &Game{ID: "g" + guild, Kind: "duel", Guild: guild, Channel: ch, Status: Playing, Seats: []Seat{{User: "u1", Name: "Ann"}},
			Timers: map[string]int64{"turn": time.Now().Add(time.Hour).UnixMilli()}}
		if err := s.Save(g); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(g, []Entry{{Input: games.Input{Seat: 0}}, {Input: games.Input{Seat: 0}}}, &Output{Game: g.ID, Channel: ch, Version: 1}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPosts(g.ID, ch, func(p *Posts) { p.Table = "m1"; p.Emoji = map[string][]string{"r": {"🎭"}} }); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		gb, _ := tx.CreateBucketIfNotExists([]byte("guilds"))
		tb, _ := tx.CreateBucketIfNotExists([]byte("threads"))
		for i, guild := range guilds {
			gb.Put([]byte(guild), []byte(`{"threads":true}`))
			rec, _ := json.Marshal(threadRecord{Channel: fmt.Sprintf("%d", 900+i), Game: "g" + guild, Guild: guild})
			tb.Put(fmt.Appendf(nil, "%d", 800+i), rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dump is a file's every bucket, key and value.
func dump(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]map[string]string{}
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if bytes.Equal(name, bucketMeta) {
				return nil // each file's own, not resharded
			}
			m := map[string]string{}
			b.ForEach(func(k, v []byte) error { m[string(k)] = string(v); return nil })
			out[string(name)] = m
			return nil
		})
	})
	return out
}

func shardFiles(dir string, count int) []string {
	var out []string
	for i := range count {
		out = append(out, ShardPath(filepath.Join(dir, "cardbot.db"), i, count))
	}
	return out
}

func TestReshardPlacesEveryRecordByGuild(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "cardbot.db")
	guilds := []string{guildOn(0, 6, 1), guildOn(1, 6, 2), guildOn(2, 6, 3), guildOn(3, 6, 4), guildOn(4, 6, 5), guildOn(5, 6, 6)}
	fillShardSource(t, src, guilds)
	orig := dump(t, src)
	for _, b := range allBuckets {
		if len(orig[string(b)]) == 0 {
			t.Fatalf("the source has nothing in bucket %s: the test would not cover it", b)
		}
	}

	// 1 → 2 → 3 → 1: each step puts every guild's records in its shard's
	// file, and the round trip gives back the original, byte for byte.
	from := []string{src}
	for _, count := range []int{2, 3, 1} {
		to := shardFiles(dir, count)
		if count == 1 {
			to = []string{filepath.Join(dir, "again.db")}
		}
		rep, err := Reshard(from, to)
		if err != nil {
			t.Fatalf("reshard to %d: %v", count, err)
		}
		if rep.Total("games") != len(guilds) || rep.Total("ended") != len(guilds) {
			t.Errorf("reshard to %d: %d games and %d ended in the report, want %d each", count, rep.Total("games"), rep.Total("ended"), len(guilds))
		}
		union := map[string]map[string]string{}
		for i, p := range to {
			d := dump(t, p)
			for bucket, recs := range d {
				if union[bucket] == nil {
					union[bucket] = map[string]string{}
				}
				for k, v := range recs {
					union[bucket][k] = v
				}
				if rep.Counts[i][bucket] != len(recs) {
					t.Errorf("report says %d %s in %s, the file holds %d", rep.Counts[i][bucket], bucket, p, len(recs))
				}
			}
			// Every record names its guild somewhere: it must be this shard's.
			for bucket, recs := range d {
				for k, v := range recs {
					for _, guild := range guilds {
						if shard, _ := ShardOf(guild, count); shard != i && (strings.Contains(k, guild) || strings.Contains(v, guild)) {
							t.Errorf("%s: %s record %q of guild %s belongs to shard %d", p, bucket, k, guild, shard)
						}
					}
				}
			}
		}
		for bucket, recs := range orig {
			if !maps.Equal(recs, union[bucket]) {
				t.Errorf("reshard to %d: bucket %s differs from the source over all files", count, bucket)
			}
		}
		from = to
	}

	// The files work: the moved game goes on, and new output does not
	// reuse a copied output's key.
	s, err := Open(from[0])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g, err := s.Game("900")
	if err != nil || g == nil {
		t.Fatalf("moved game: %v, %v", g, err)
	}
	before, _ := s.Pending()
	if err := s.Commit(g, []Entry{{Input: games.Input{Seat: 0}}}, &Output{Game: g.ID, Channel: g.Channel}, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Pending()
	if len(after) != len(before)+1 {
		t.Errorf("owed output: %d before a commit, %d after; a new key overwrote a copied one", len(before), len(after))
	}
	if log, _ := s.History(g.ID); len(log) != 3 {
		t.Errorf("moved game's log has %d entries after one more, want 3", len(log))
	}
}

func TestReshardRefuses(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "cardbot.db")
	fillShardSource(t, src, []string{guildOn(0, 2, 1), guildOn(1, 2, 2)})
	targets := shardFiles(dir, 2)

	if err := os.WriteFile(targets[1], []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Reshard([]string{src}, targets); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("reshard over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(targets[1]); string(b) != "keep me" {
		t.Error("reshard touched an existing target")
	}
	if _, err := os.Stat(targets[0]); err == nil {
		t.Error("a refused reshard left a target behind")
	}
	os.Remove(targets[1])

	addRaw := func(path, bucket, k, v string) {
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.Update(func(tx *bolt.Tx) error {
			b, _ := tx.CreateBucketIfNotExists([]byte(bucket))
			return b.Put([]byte(k), []byte(v))
		})
	}
	for _, c := range []struct {
		name, bucket, key, value, want string
	}{
		{"an unknown bucket", "badges", "k", "v", `bucket "badges" is unknown`},
		{"a record of no known game", "posts", "nobody", "{}", `belongs to no game`},
		{"a guild that is no snowflake", "stats", "general", "{}", `not a snowflake`},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "bad.db")
			fillShardSource(t, bad, []string{guildOn(0, 2, 1)})
			addRaw(bad, c.bucket, c.key, c.value)
			out := shardFiles(t.TempDir(), 2)
			if _, err := Reshard([]string{bad}, out); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v; want one containing %q", err, c.want)
			}
			for _, p := range out {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("a failed reshard left %s behind", p)
				}
			}
		})
	}

	t.Run("two sources disagreeing", func(t *testing.T) {
		d := t.TempDir()
		a, b := filepath.Join(d, "a.db"), filepath.Join(d, "b.db")
		guild := guildOn(0, 2, 1)
		fillShardSource(t, a, []string{guild})
		addRaw(b, "stats", guild+"/u1", `{"name":"Ann","games":{}}`)
		if _, err := Reshard([]string{a, b}, shardFiles(d, 2)); err == nil || !strings.Contains(err.Error(), "differs between two source files") {
			t.Fatalf("err = %v", err)
		}
	})
}
