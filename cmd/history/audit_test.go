package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/store"
)

// After the retention's compaction a finished game's history still prints
// and replays from its seed; once deleted, the command says there is no
// such game, and the server's stats are kept.
func TestAuditHistoryAfterPruning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := &store.Game{ID: "pruneme1", Kind: "life", Guild: "1", Channel: "c1", Status: store.Playing, Seed: 11, StartSeats: 2,
		Seats: []store.Seat{{User: "1", Name: "Ann"}, {User: "2", Name: "Bea"}}, Options: map[string]int{"roleplay": 1, "snake_eyes": 0, "swap": 0}}
	g, err := life.Rules.New(rec.Setup())
	if err != nil {
		t.Fatal(err)
	}
	rec.State, _ = games.Encode(g)
	if err := db.Commit(rec, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	in := games.Input{Seat: 0, Action: games.Act("begin")}
	if _, err := games.Step(g, in); err != nil {
		t.Fatal(err)
	}
	rec.State, _ = games.Encode(g)
	end := &store.Ending{How: "been ended", Results: []store.PlayerResult{{User: "1", Name: "Ann", Won: true, Score: 5}}}
	if err := db.Commit(rec, []store.Entry{{Input: in}}, nil, end); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if c, d, err := db.Prune(now.Add(48*time.Hour), 24*time.Hour, 30*24*time.Hour); err != nil || c != 1 || d != 0 {
		t.Fatalf("prune: compacted %d deleted %d, %v", c, d, err)
	}
	db.Close()

	var out strings.Builder
	if err := run(&out, path, "pruneme1"); err != nil {
		t.Fatalf("history of a compacted game: %v\n%s", err, out.String())
	}
	for _, want := range []string{"game pruneme1 (ended), seed 11", "Ann, Bea", "Ann          begin", "Replayed 1 moves from the seed."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("history of a compacted game lacks %q:\n%s", want, out.String())
		}
	}

	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, d, err := db.Prune(now.Add(31*24*time.Hour), 24*time.Hour, 30*24*time.Hour); err != nil || d != 1 {
		t.Fatalf("prune: deleted %d, %v", d, err)
	}
	st, _ := db.Stats("1")
	db.Close()
	if st["1"] == nil || st["1"].Games["life"].Won != 1 {
		t.Fatalf("the stats went with the game: %v", st)
	}
	out.Reset()
	if err := run(&out, path, "pruneme1"); err == nil || !strings.Contains(err.Error(), `no game "pruneme1"`) {
		t.Fatalf("history of a deleted game: %v", err)
	}
}
