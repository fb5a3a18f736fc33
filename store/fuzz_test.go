package store

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzDecodeGame: whatever bytes the games bucket holds, decodeGame
// returns a record of this build's schema or an error, never a panic, and a
// record it accepts saves and reads back the same.
func FuzzDecodeGame(f *testing.F) {
	g := &Game{
		Schema: Schema, ID: "abcdefgh", Kind: "duel", Guild: "g1", Channel: "c1", Host: "u1", Status: Playing, Version: 7,
		Seats:      []Seat{{User: "u1", Name: "Ann", ViewVersion: 3}, {User: "u2", Name: "Bob", Left: true, HandAt: time.Unix(1700000000, 0).UTC()}},
		StartSeats: 2, Options: map[string]int{"life": 22}, Seed: 1<<63 + 5, StateVersion: 1,
		State:   json.RawMessage(`{"Names":["Ann","Bob"],"Phase":"build"}`),
		Waiting: []int{1}, Log: []string{"Ann attacks."}, Steps: 9,
		Reacts: map[string][]string{"line1 🎭": {"u2"}}, Timers: map[string]int64{"turn": 1700000000000},
		Created: time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600)),
	}
	full, err := json.Marshal(g)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add(bytes.Replace(full, []byte(`"schema":2`), []byte(`"schema":1`), 1))
	for _, s := range []string{
		`{"schema":2}`, `{"schema":2,"id":"x","state":null}`, `{"schema":99,"id":"abc","channel":"c1"}`, `{"SCHEMA":2}`,
		`{"schema":2,"created":"0001-01-01T00:00:00Z"}`, `{"schema":2,"seats":[{"hand_at":"2025-01-02T03:04:05+23:59"}]}`,
		`{"schema":2,"state":{"a":[1,2,{}]},"timers":{"t":-1}}`, `null`, `{}`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := decodeGame(data)
		if err != nil {
			if g != nil {
				t.Fatalf("refused (%v) but returned %+v", err, g)
			}
			return
		}
		if g == nil {
			if data != nil {
				t.Fatalf("%q read as no record at all", data)
			}
			return
		}
		if g.Schema != Schema {
			t.Fatalf("accepted a record of schema %d: %q", g.Schema, data)
		}
		saved, err := json.Marshal(g)
		if err != nil {
			t.Fatalf("a record read from %q cannot be saved: %v", data, err)
		}
		again, err := decodeGame(saved)
		if err != nil {
			t.Fatalf("a record read from %q saves as %s, which reads back as %v", data, saved, err)
		}
		if resaved, _ := json.Marshal(again); !bytes.Equal(saved, resaved) {
			t.Fatalf("a record does not read back the same:\n%s\n%s", saved, resaved)
		}
	})
}
