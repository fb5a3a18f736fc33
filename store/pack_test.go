package store

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// bigGame is a record well past packOver, as a big table's is.
func bigGame(id, channel string) *Game {
	var hist []string
	for i := range 60 {
		hist = append(hist, `{"Stage":`+strings.Repeat("1", i%3+1)+`,"Card":"QH","Result":"lost","Took":-1}`)
	}
	return &Game{ID: id, Kind: "life", Channel: channel, Guild: "1574618322723405824", Status: Playing,
		Seats: []Seat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bea"}},
		State: json.RawMessage(`{"History":[` + strings.Join(hist, ",") + `]}`)}
}

func rawRecord(t *testing.T, s *Store, channel string) []byte {
	t.Helper()
	var v []byte
	s.db.View(func(tx *bolt.Tx) error {
		v = bytes.Clone(tx.Bucket(bucketGames).Get([]byte(channel)))
		return nil
	})
	return v
}

// A big record is stored deflated, and every way of reading it, from this
// process's cache or from the file after a restart, sees the same game.
func TestBigRecordsAreStoredPacked(t *testing.T) {
	s, path := openTemp(t)
	g := bigGame("big1", "c1")
	js, _ := json.Marshal(g)
	if err := s.Commit(g, []Entry{{}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	small := &Game{ID: "small", Kind: "duel", Channel: "c2", Guild: "1574618322723405824", Status: Playing, State: json.RawMessage(`{}`)}
	if err := s.Save(small); err != nil {
		t.Fatal(err)
	}
	v := rawRecord(t, s, "c1")
	if len(v) == 0 || v[0] != packedMark || len(v) > len(js)/3 {
		t.Fatalf("a %d-byte record is stored as %d bytes starting %q; want it deflated to under a third", len(js), len(v), v[:min(len(v), 8)])
	}
	if v := rawRecord(t, s, "c2"); len(v) == 0 || v[0] != '{' {
		t.Fatalf("a small record is stored as %q, want plain JSON", v)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Game("c1")
	if err != nil || got == nil || got.ID != "big1" || !bytes.Equal(got.State, g.State) {
		t.Fatalf("read back after reopening: %v, %v", got, err)
	}
	if found, open, err := s.Find("big1"); err != nil || !open || found == nil || !bytes.Equal(found.State, g.State) {
		t.Fatalf("Find: %v open %v: %v", found, open, err)
	}
	running, err := s.Running()
	if err != nil || len(running) != 2 {
		t.Fatalf("Running: %d games, %v", len(running), err)
	}
	// The next move's write checks the packed record's head.
	got.Version++
	if err := s.Commit(got, []Entry{{}}, nil, nil); err != nil {
		t.Fatalf("a move on a packed record: %v", err)
	}
	other := bigGame("big2", "c1")
	if err := s.Commit(other, nil, nil, nil); err == nil {
		t.Fatal("another game took the channel of a packed record")
	}

	// Resharding reads the packed record's guild, and copies it as it is.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	targets := []string{filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")}
	rep, err := Reshard([]string{path}, targets)
	if err != nil || rep.Total("games") != 2 {
		t.Fatalf("reshard: %+v, %v", rep, err)
	}
	for _, p := range targets {
		t2, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if g, _ := t2.Game("c1"); g != nil && (g.ID != "big1" || !bytes.Equal(g.State, got.State)) {
			t.Fatalf("the resharded packed record reads as %v", g)
		}
		t2.Close()
	}
}

// Records written by builds before packing are plain JSON of any size, and
// still read.
func TestPlainBigRecordsStillRead(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	g := bigGame("old1", "c1")
	g.Schema = Schema
	js, _ := json.Marshal(g)
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketGames).Put([]byte("c1"), js) }); err != nil {
		t.Fatal(err)
	}
	got, err := s.Game("c1")
	if err != nil || got == nil || !bytes.Equal(got.State, g.State) {
		t.Fatalf("a plain big record read as %v, %v", got, err)
	}
	got.Version++
	if err := s.Commit(got, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if v := rawRecord(t, s, "c1"); v[0] != packedMark {
		t.Fatal("the next write did not pack the record")
	}
}

// A damaged packed record is an error, never a game made of garbage.
func TestDamagedPackedRecordIsAnError(t *testing.T) {
	if _, err := decodeGame([]byte{packedMark, 0xff, 0x01, 0x02}); err == nil {
		t.Fatal("a damaged packed record decoded")
	}
	// Nor does a small record that would inflate without bound.
	var buf bytes.Buffer
	buf.WriteByte(packedMark)
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(bytes.Repeat([]byte(" "), maxUnpacked+10))
	w.Close()
	if _, err := decodeGame(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("a %d-byte record inflating past %d bytes: %v", buf.Len(), maxUnpacked, err)
	}
}
