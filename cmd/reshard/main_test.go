package main

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/store"
)

// guildOn is a guild id that count shards route to shard.
func guildOn(shard, count int) string { return strconv.FormatUint(uint64(count+shard)<<22, 10) }

func TestReshardCommand(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "cardbot.db")
	db, err := store.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	guilds := []string{guildOn(0, 2), guildOn(1, 2)}
	for i, g := range guilds {
		if err := db.Save(&store.Game{ID: "game" + g, Kind: "duel", Guild: g, Channel: strconv.Itoa(100 + i), Status: store.Lobby}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	var out bytes.Buffer
	if err := run(&out, []string{"-db", base, "-from", "1", "-to", "2"}); err != nil {
		t.Fatalf("reshard: %v\n%s", err, out.String())
	}
	for _, want := range []string{"cardbot.shard-0-of-2.db", "cardbot.shard-1-of-2.db", "SHARD_COUNT=2", base} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	for shard, g := range guilds {
		s, err := store.Open(store.ShardPath(base, shard, 2))
		if err != nil {
			t.Fatal(err)
		}
		running, _ := s.Running()
		s.Close()
		if len(running) != 1 || running[0].Guild != g {
			t.Errorf("shard %d holds %d games (%v); want guild %s's only", shard, len(running), running, g)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-db", base, "-from", "1", "-to", "2"}, "already exists"},
		{[]string{"-db", base, "-from", "3", "-to", "1"}, "cardbot.shard-0-of-3.db is missing"},
		{[]string{"-db", base, "-to", "2"}, "give the old and new shard counts"},
		{[]string{"-db", base, "-from", "2", "-to", "2"}, "give the old and new shard counts"},
	} {
		if err := run(&bytes.Buffer{}, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error containing %q", c.args, err, c.want)
		}
	}
}
