package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShardConfig(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{"DISCORD_TOKEN": "abc", "DATABASE_PATH": "/data/cardbot.db"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		kv        []string
		id, count int
		auto      bool
		path      string
	}{
		{nil, 0, 1, false, "/data/cardbot.db"},
		{[]string{"SHARD_ID", "0"}, 0, 1, false, "/data/cardbot.db"},
		{[]string{"SHARD_COUNT", "1"}, 0, 1, false, "/data/cardbot.db"},
		{[]string{"SHARD_ID", "3", "SHARD_COUNT", "4"}, 3, 4, false, "/data/cardbot.shard-3-of-4.db"},
		{[]string{"SHARD_ID", "1", "SHARD_COUNT", " Auto "}, 1, 0, true, "/data/cardbot.db"},
	} {
		got, err := ConfigFromEnv(env(c.kv...))
		if err != nil || got.ShardID != c.id || got.ShardCount != c.count || got.ShardAuto != c.auto || got.DBPath != c.path {
			t.Errorf("%v: shard %d of %d (auto %v) in %s, %v; want %d of %d (auto %v) in %s",
				c.kv, got.ShardID, got.ShardCount, got.ShardAuto, got.DBPath, err, c.id, c.count, c.auto, c.path)
		}
	}
	for _, c := range []struct {
		kv   []string
		want string
	}{
		{[]string{"SHARD_ID", "2", "SHARD_COUNT", "2"}, "SHARD_ID is 2 but SHARD_COUNT is 2: shards are numbered 0 to 1"},
		{[]string{"SHARD_ID", "1"}, "SHARD_COUNT is not set"},
		{[]string{"SHARD_ID", "-1", "SHARD_COUNT", "2"}, "SHARD_ID must be a whole number"},
		{[]string{"SHARD_ID", "one", "SHARD_COUNT", "2"}, "SHARD_ID must be a whole number"},
		{[]string{"SHARD_COUNT", "0"}, "SHARD_COUNT must be a whole number of shards (1 or more) or auto"},
		{[]string{"SHARD_COUNT", "many"}, "SHARD_COUNT must be"},
	} {
		if _, err := ConfigFromEnv(env(c.kv...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error containing %q", c.kv, err, c.want)
		}
	}
}

// A process must not start on an empty file while its games sit in the
// files of another shard count: that would hide them.
func TestResolveShardsRefusesACountChangedWithoutReshard(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "cardbot.db")
	cfg := func(id, count string) Config {
		c, err := ConfigFromEnv(func(k string) string {
			return map[string]string{"DISCORD_TOKEN": "abc", "DATABASE_PATH": base, "SHARD_ID": id, "SHARD_COUNT": count}[k]
		})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	touch := func(p string) {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A fresh start, and a second shard of the same count beside the first.
	for _, c := range []Config{cfg("", ""), cfg("0", "2")} {
		if err := c.ResolveShards(); err != nil {
			t.Fatalf("fresh start: %v", err)
		}
	}
	touch(filepath.Join(dir, "cardbot.shard-0-of-2.db"))
	if c := cfg("1", "2"); c.ResolveShards() != nil {
		t.Fatal("the second shard refused to start beside the first")
	}
	c := cfg("0", "3")
	err := c.ResolveShards()
	if err == nil || !strings.Contains(err.Error(), "changed from 2 to 3") || !strings.Contains(err.Error(), "cmd/reshard -db "+base+" -from 2 -to 3") {
		t.Fatalf("2 → 3 without a reshard: %v", err)
	}
	c = cfg("", "")
	if err := c.ResolveShards(); err == nil || !strings.Contains(err.Error(), "-from 2 -to 1") {
		t.Fatalf("2 → 1 without a reshard: %v", err)
	}
	touch(base)
	c = cfg("0", "2")
	if err := c.ResolveShards(); err != nil {
		t.Fatalf("its own file exists: %v", err)
	}
	c = cfg("1", "4")
	if err := c.ResolveShards(); err == nil || !strings.Contains(err.Error(), "-to 4") {
		t.Fatalf("1 → 4 without a reshard: %v", err)
	}
}
