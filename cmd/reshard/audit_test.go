package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/store"
)

// Wrong arguments and a database a running bot holds are refused with a
// sentence saying what to do, and nothing is written.
func TestAuditReshardRefusesClearly(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "cardbot.db")
	db, err := store.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Save(&store.Game{ID: "g1", Kind: "duel", Guild: guildOn(1, 2), Channel: "100", Status: store.Lobby}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-db", base, "-from", "0", "-to", "2"}, "give the old and new shard counts"},
		{[]string{"-db", base, "-from", "-1", "-to", "2"}, "give the old and new shard counts"},
		{[]string{"-db", base, "-from", "1", "-to", "0"}, "give the old and new shard counts"},
		{[]string{"-db", base, "-from", "1", "-to", "2", "extra"}, "give the old and new shard counts"},
		{[]string{"-db", base, "-from", "one", "-to", "2"}, `invalid value "one" for flag -from`},
		{[]string{"-db", filepath.Join(dir, "nothere.db"), "-from", "1", "-to", "2"}, "nothere.db is missing"},
		// The bot still runs on the file.
		{[]string{"-db", base, "-from", "1", "-to", "2"}, "in use: stop every bot process first"},
	} {
		var out bytes.Buffer
		if err := run(&out, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error containing %q", c.args, err, c.want)
		}
		for i := range 2 {
			p := store.ShardPath(base, i, 2)
			for _, f := range []string{p, store.PartialPath(p)} {
				if _, err := os.Stat(f); err == nil {
					t.Fatalf("%v wrote %s", c.args, f)
				}
			}
		}
	}
	db.Close()
	var out bytes.Buffer
	if err := run(&out, []string{"-db", base, "-from", "1", "-to", "2"}); err != nil {
		t.Fatalf("with the bot stopped: %v", err)
	}
}
