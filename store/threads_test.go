package store

import (
	"encoding/json"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Settings default to threads on; a game moved to a thread is found from
// the thread until its ended record is compacted.
func TestThreadsAndSettings(t *testing.T) {
	s, path := openTemp(t)
	if set, err := s.Settings("g1"); err != nil || set.NoThreads {
		t.Fatalf("default settings %+v, %v", set, err)
	}
	if err := s.SetSettings("g1", Settings{NoThreads: true}); err != nil {
		t.Fatal(err)
	}
	g := &Game{ID: "game1", Channel: "c1", Guild: "g1", Status: Playing, State: json.RawMessage(`{}`)}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPosts("game1", "c1", func(p *Posts) { p.Table = "lobby" }); err != nil {
		t.Fatal(err)
	}
	err := s.MoveToThread("lobby", Thread{Channel: "c1", Game: "game1", Guild: "g1"}, func(p *Posts) { p.Thread, p.Table = "lobby", "" })
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if set, _ := s.Settings("g1"); !set.NoThreads {
		t.Fatal("the server's settings were lost")
	}
	if th, err := s.ThreadOf("lobby"); err != nil || th == nil || th.Channel != "c1" || th.Game != "game1" {
		t.Fatalf("ThreadOf = %+v, %v", th, err)
	}
	if th, _ := s.ThreadOf("c1"); th != nil {
		t.Fatalf("a channel taken for a thread: %+v", th)
	}
	if p, _ := s.Posts("game1"); p.Thread != "lobby" || p.Table != "" {
		t.Fatalf("posts %+v", p)
	}
	if err := s.End(g, "finished", nil); err != nil {
		t.Fatal(err)
	}
	e, _ := s.Ended("game1")
	e.At = time.Now().Add(-48 * time.Hour)
	v, _ := json.Marshal(e)
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketEnded).Put([]byte("game1"), v) }); err != nil {
		t.Fatal(err)
	}
	if c, _, err := s.Prune(time.Now(), 24*time.Hour, 0); err != nil || c != 1 {
		t.Fatalf("compacted %d: %v", c, err)
	}
	if th, _ := s.ThreadOf("lobby"); th != nil {
		t.Fatal("a compacted game's thread still speaks for its channel")
	}
}
