package store

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// auditKillEnv, set in a child process of TestAuditReshardKilledMidway,
// names the step of Reshard where that child dies (os.Exit: no deferred
// clean-up runs, as with a kill).
const auditKillEnv = "CARDBOT_AUDIT_RESHARD_KILL_AT"

// A reshard killed at any step leaves no target a bot would start on with
// games missing; run again, it completes, and every record is in exactly
// one file, the one of its guild's shard.
func TestAuditReshardKilledMidway(t *testing.T) {
	if step := os.Getenv(auditKillEnv); step != "" {
		dir := os.Getenv(auditKillEnv + "_DIR")
		reshardCrash = func(at string) {
			if at == step {
				os.Exit(3)
			}
		}
		_, err := Reshard([]string{filepath.Join(dir, "cardbot.db")}, shardFiles(dir, 2))
		t.Fatalf("the child was not killed at %q (reshard: %v)", step, err)
	}
	guilds := []string{guildOn(0, 2, 1), guildOn(1, 2, 2), guildOn(0, 2, 3)}
	for _, step := range []string{"flushed", "copied", "verified", "renamed"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "cardbot.db")
			fillShardSource(t, src, guilds)
			orig := dump(t, src)
			// What each shard's file holds after a clean run of a copy.
			clean := t.TempDir()
			b, err := os.ReadFile(src)
			if err == nil {
				err = os.WriteFile(filepath.Join(clean, "cardbot.db"), b, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Reshard([]string{filepath.Join(clean, "cardbot.db")}, shardFiles(clean, 2)); err != nil {
				t.Fatal(err)
			}
			var want []map[string]map[string]string
			for _, p := range shardFiles(clean, 2) {
				want = append(want, dump(t, p))
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestAuditReshardKilledMidway$", "-test.count=1")
			cmd.Env = append(os.Environ(), auditKillEnv+"="+step, auditKillEnv+"_DIR="+dir)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 3 {
				t.Fatalf("the child reshard was not killed at %s: %v\n%s", step, err, out)
			}
			// What the kill left: a target a bot would start on is whole.
			for i, p := range shardFiles(dir, 2) {
				if _, err := os.Stat(p); err == nil && !sameDump(dump(t, p), want[i]) {
					t.Fatalf("killed at %s: %s exists but lacks records of its shard; a bot would start on it with games missing", step, p)
				}
			}
			rep, err := Reshard([]string{src}, shardFiles(dir, 2))
			if err != nil {
				t.Fatalf("killed at %s, the rerun failed: %v", step, err)
			}
			if rep.Total("games") != len(guilds) {
				t.Errorf("the rerun reports %d games, want %d", rep.Total("games"), len(guilds))
			}
			seen := map[string]string{} // bucket/key → file
			for i, p := range shardFiles(dir, 2) {
				d := dump(t, p)
				if !sameDump(d, want[i]) {
					t.Errorf("killed at %s: after the rerun %s differs from a clean run's", step, p)
				}
				for bucket, recs := range d {
					for k := range recs {
						if other, ok := seen[bucket+"/"+k]; ok {
							t.Errorf("%s record %q is in %s and %s", bucket, k, other, p)
						}
						seen[bucket+"/"+k] = p
					}
				}
				if _, err := os.Stat(PartialPath(p)); err == nil {
					t.Errorf("killed at %s: %s is left after the rerun", step, PartialPath(p))
				}
			}
			for bucket, recs := range orig {
				for k := range recs {
					if seen[bucket+"/"+k] == "" {
						t.Errorf("killed at %s: %s record %q was lost", step, bucket, k)
					}
				}
			}
			// Once done, a third run refuses: it never overwrites.
			if _, err := Reshard([]string{src}, shardFiles(dir, 2)); err == nil || !strings.Contains(err.Error(), "already exists") {
				t.Errorf("a run over finished targets: %v", err)
			}
		})
	}
}

func sameDump(a, b map[string]map[string]string) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// A database a running bot holds is not read: the reshard says to stop
// the bots, and writes nothing.
func TestAuditReshardRefusesAHeldDatabase(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "cardbot.db")
	fillShardSource(t, src, []string{guildOn(0, 2, 1)})
	held, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	_, err = Reshard([]string{src}, shardFiles(dir, 2))
	if err == nil || !strings.Contains(err.Error(), "in use: stop every bot process first") {
		t.Fatalf("reshard of a held database: %v", err)
	}
	for _, p := range shardFiles(dir, 2) {
		for _, f := range []string{p, PartialPath(p)} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("a refused reshard left %s", f)
			}
		}
	}
}

// A record bigger than the store reads back inflated (maxUnpacked) is
// still stored so it reads back: a game that grew that big must not
// leave its channel unreadable.
func TestAuditRecordOverTheSizeBoundReadsBack(t *testing.T) {
	s, path := openTemp(t)
	big := json.RawMessage(`{"pad":"` + strings.Repeat("ab", maxUnpacked/2) + `"}`) // compresses well
	g := &Game{ID: "huge", Kind: "duel", Guild: guildOn(0, 1, 1), Channel: "c1", Status: Playing, State: big,
		Seats: []Seat{{User: "u1", Name: "Ann"}}}
	if err := s.Commit(g, []Entry{{Input: games.Input{Seat: 0}}}, nil, nil); err != nil {
		t.Fatalf("commit: %v", err)
	}
	s.Close()
	s, err := Open(path) // a fresh process: nothing cached
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Game("c1")
	if err != nil || got == nil || len(got.State) != len(big) {
		t.Fatalf("the big record does not read back: %v", err)
	}
	if _, err := s.Running(); err != nil {
		t.Fatalf("listing the games fails on the big record: %v", err)
	}
	// And a move on it commits and reads back too.
	got.Version++
	if err := s.Commit(got, []Entry{{Input: games.Input{Seat: 0}}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if h, err := s.History("huge"); err != nil || len(h) != 2 {
		t.Fatalf("history of the big game: %d entries, %v", len(h), err)
	}
}
