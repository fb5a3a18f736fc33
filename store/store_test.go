package store

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func TestSaveSurvivesReopen(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Kind: "duel", Channel: "c1", Guild: "g1", Status: Playing, Version: 7,
		Seats: []Seat{{User: "u1", Name: "Ann"}}, State: json.RawMessage(`{"x":1}`)}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Game("c1")
	if err != nil || got == nil {
		t.Fatalf("Game = %v, %v", got, err)
	}
	if got.Version != 7 || string(got.State) != `{"x":1}` || got.SeatOf("u1") != 0 || got.SeatOf("u2") != -1 {
		t.Fatalf("reloaded game differs: %+v", got)
	}
	all, _ := s.Running()
	if len(all) != 1 {
		t.Fatalf("Running = %d games", len(all))
	}
}

func TestEndFreesChannelAndCountsResults(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	for i := 0; i < 2; i++ {
		g := &Game{ID: "g" + string(rune('a'+i)), Kind: "duel", Channel: "c1", Guild: "g1"}
		if err := s.Save(g); err != nil {
			t.Fatal(err)
		}
		res := []PlayerResult{{User: "u1", Name: "Ann", Won: i == 0}, {User: "u2", Name: "Bea", Won: i == 1}}
		if err := s.End(g, "won", res); err != nil {
			t.Fatal(err)
		}
	}
	if g, _ := s.Game("c1"); g != nil {
		t.Fatal("channel still holds a game after End")
	}
	if e, _ := s.Ended("ga"); e == nil || e.How != "won" || e.Final == nil || e.Final.ID != "ga" {
		t.Fatalf("Ended = %+v", e)
	}
	st, err := s.Stats("g1")
	if err != nil {
		t.Fatal(err)
	}
	if a := st["u1"].Games["duel"]; a.Played != 2 || a.Won != 1 {
		t.Fatalf("Ann's tally = %+v", a)
	}
	if other, _ := s.Stats("g2"); len(other) != 0 {
		t.Fatal("stats leaked into another server")
	}
}

func TestPatchKeepsMovesSavedMeanwhile(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	g := &Game{ID: "abc", Channel: "c1", Version: 1}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	stale := *g
	g.Version = 2
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	if found, err := s.Patch("c1", stale.ID, func(g *Game) { g.PingMsg = "m1" }); err != nil || !found {
		t.Fatal(found, err)
	}
	got, _ := s.Game("c1")
	if got.Version != 2 || got.PingMsg != "m1" {
		t.Fatalf("after patch: version %d ping %q", got.Version, got.PingMsg)
	}
	stale.Version = 3 // a move saved from a copy loaded before the patch
	if err := s.Save(&stale); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Game("c1"); got.Version != 3 || got.PingMsg != "m1" {
		t.Fatalf("a save undid the patch: version %d ping %q", got.Version, got.PingMsg)
	}
	if found, err := s.Patch("c1", "other", func(g *Game) { g.PingMsg = "m2" }); err != nil || found {
		t.Fatal(found, err)
	}
	if got, _ := s.Game("c1"); got.PingMsg != "m1" {
		t.Fatal("a patch for another game changed this one")
	}
}

func TestEndLeavesANewerGameAlone(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	old := &Game{ID: "old", Channel: "c1"}
	if err := s.Save(&Game{ID: "new", Channel: "c1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.End(old, "been cancelled", nil); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Game("c1"); g == nil || g.ID != "new" {
		t.Fatalf("ending an old game removed the channel's new one: %+v", g)
	}
}

func TestOutputIsOwedUntilDone(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Channel: "c1", Version: 1}
	first := &Output{Game: "abc", Channel: "c1", Version: 1, Story: []string{"It begins."}}
	if err := s.Commit(g, first, nil); err != nil {
		t.Fatal(err)
	}
	g.Version = 2
	last := &Output{Game: "abc", Channel: "c1", Version: 2, Story: []string{"It ends."}}
	if err := s.Commit(g, last, &Ending{How: "finished"}); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Ended("abc"); e == nil || e.Final.Version != 2 {
		t.Fatalf("the ending was not committed with its output: %+v", e)
	}
	if _, err := s.Done(first, nil); err != nil {
		t.Fatal(err)
	}
	s.Close() // a crash before the last output was done
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	owed, err := s.Pending()
	if err != nil || len(owed) != 1 || owed[0].Version != 2 || owed[0].Story[0] != "It ends." || owed[0].Key != last.Key {
		t.Fatalf("pending after restart = %+v, %v", owed, err)
	}
}

func TestSecondOpenIsRefusedClearly(t *testing.T) {
	s, path := openTemp(t)
	defer s.Close()
	if _, err := Open(path); err == nil {
		t.Fatal("opened a database another handle holds")
	}
}

// BenchmarkSave is the cost of committing one move: one bbolt transaction
// with its fsync, for a record the size of a game mid-play.
func BenchmarkSave(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := &Game{ID: "abc", Kind: "duel", Channel: "c1", Guild: "g1", Status: Playing,
		Seats: []Seat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bea"}}}
	g.State = json.RawMessage(`{"pad":"` + strings.Repeat("x", 3000) + `"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Version = i
		if err := s.Save(g); err != nil {
			b.Fatal(err)
		}
	}
}
