package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func fullGame() *Game {
	return &Game{Schema: Schema, ID: "abc", Kind: "duel", Channel: "c1", Guild: "g1", Status: Playing, Version: 3,
		Seats: []Seat{{User: "u1", Name: "Ann", HandToken: "t"}}, Options: map[string]int{"life": 20},
		State: json.RawMessage(`{"x":1}`), Waiting: []int{0}, Log: []string{"dealt"},
		Reacts: map[string][]string{"r 🎭": {"u1"}}, Timers: map[string]int64{"bot:idle": 1}, Created: time.Unix(1, 0),
		Tail: []Entry{{At: time.Unix(2, 0)}}}
}

// A field clone shares with the original would let a reader's change
// reach every later reader; this fails when Game grows one clone misses.
func TestCloneCoversEveryField(t *testing.T) {
	known := map[string]bool{"Seats": true, "Options": true, "State": true, "Waiting": true, "Log": true, "Reacts": true, "Timers": true, "Tail": true}
	typ := reflect.TypeOf(Game{})
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			if !known[f.Name] {
				t.Errorf("Game.%s holds a reference: make clone copy it, then list it here", f.Name)
			}
		}
	}
	g := fullGame()
	c := g.clone()
	if !reflect.DeepEqual(g, c) {
		t.Fatalf("clone differs:\n%+v\n%+v", g, c)
	}
	c.Seats[0].Name, c.Options["life"], c.State[5] = "X", 1, '2'
	c.Waiting[0], c.Log[0], c.Reacts["r 🎭"][0], c.Timers["bot:idle"] = 9, "x", "u9", 9
	c.Tail[0].At = time.Unix(3, 0)
	if !reflect.DeepEqual(g, fullGame()) {
		t.Fatalf("changing the clone changed the original: %+v", g)
	}
}

// The cached record is never handed out: what one reader changes, the
// next read does not see; a commit replaces it, and an end drops it.
func TestGameCacheDoesNotLeakChanges(t *testing.T) {
	s, path := openTemp(t)
	g := fullGame()
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	g.Seats[0].Name = "changed after save"
	a, _ := s.Game("c1")
	a.Seats[0].Name, a.Log[0], a.Version = "changed by a reader", "x", 99
	b, _ := s.Game("c1")
	if b.Seats[0].Name != "Ann" || b.Log[0] != "dealt" || b.Version != 3 {
		t.Fatalf("a reader's or the writer's change leaked: %+v", b)
	}
	b.Version = 4
	if err := s.Commit(b, []Entry{{}}, &Output{Game: b.ID, Channel: b.Channel}, nil); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Game("c1"); c.Version != 4 || c.Steps != 1 {
		t.Fatalf("after a commit: version %d steps %d", c.Version, c.Steps)
	}
	s.Close()
	s, err := Open(path) // what the cache showed is what was written
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, _ := s.Game("c1")
	if c.Version != 4 || c.Seats[0].Name != "Ann" {
		t.Fatalf("after reopening: %+v", c)
	}
	if err := s.End(c, "finished", nil); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Game("c1"); c != nil || err != nil {
		t.Fatalf("an ended game is still the channel's: %+v, %v", c, err)
	}
}

// Done does not wait for its commit, but Posts shows its ids at once, and
// Close writes them.
func TestDoneIsSeenAtOnceAndKeptByClose(t *testing.T) {
	s, path := openTemp(t)
	g := fullGame()
	out := &Output{Game: g.ID, Channel: g.Channel}
	if err := s.Commit(g, nil, out, nil); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 50; n++ {
		if err := s.Done(out, func(p *Posts) { p.Table, p.Drawn = "m1", max(p.Drawn, n) }); err != nil {
			t.Fatal(err)
		}
		if p, _ := s.Posts(g.ID); p.Drawn != n || p.Table != "m1" {
			t.Fatalf("after Done %d, Posts shows %+v", n, p)
		}
	}
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p, _ := s.Posts(g.ID); p.Drawn != 50 || p.Table != "m1" {
		t.Fatalf("after reopening, Posts is %+v", p)
	}
	if owed, _ := s.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after Done", len(owed))
	}
}

// GameIf hands out a copy only when the record is wanted, cached or not,
// and its copy is the caller's as Game's is.
func TestGameIf(t *testing.T) {
	s, path := openTemp(t)
	if err := s.Save(fullGame()); err != nil {
		t.Fatal(err)
	}
	newer := func(g *Game) bool { return g.Version > 3 }
	check := func(when string) {
		t.Helper()
		if g, err := s.GameIf("c1", newer); g != nil || err != nil {
			t.Fatalf("%s: version 3 was wanted only if newer, got %+v, %v", when, g, err)
		}
		g, err := s.GameIf("c1", func(g *Game) bool { return g.Version == 3 })
		if err != nil || g == nil || g.Seats[0].Name != "Ann" {
			t.Fatalf("%s: the wanted record was not handed out: %+v, %v", when, g, err)
		}
		g.Seats[0].Name = "changed by a reader"
		if again, _ := s.Game("c1"); again.Seats[0].Name != "Ann" {
			t.Fatalf("%s: a change to GameIf's record leaked", when)
		}
		if g, err := s.GameIf("c9", func(*Game) bool { return true }); g != nil || err != nil {
			t.Fatalf("%s: a channel without a game gave %+v, %v", when, g, err)
		}
	}
	check("cached")
	s.Close()
	s, err := Open(path) // nothing cached: read from the file
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("read from the file")
}
