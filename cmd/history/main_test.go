package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/store"
)

// A game committed move by move, as the bot does, prints its history and
// is replayed to the stored state.
func TestHistoryReplaysAStoredGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := &store.Game{ID: "abcdefgh", Kind: "life", Channel: "c1", Status: store.Playing, Seed: 7, StartSeats: 2,
		Seats: []store.Seat{{User: "1", Name: "Ann"}, {User: "2", Name: "Bea"}}, Options: map[string]int{"roleplay": 1, "snake_eyes": 0, "swap": 0}}
	g, err := life.Rules.New(rec.Setup())
	if err != nil {
		t.Fatal(err)
	}
	save := func(in []games.Input) {
		rec.State, _ = games.Encode(g)
		var entries []store.Entry
		for _, x := range in {
			entries = append(entries, store.Entry{Input: x})
		}
		if err := db.Commit(rec, entries, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	save(nil)
	moves := []games.Input{
		{Seat: 0, Action: games.Act("begin")},
		{Kind: games.InSay, Seat: 1, Name: "Bea", Action: games.Action{Text: "Hello."}},
		{Kind: games.InReact, Seat: 0, Ref: "line1", Emoji: "🎭", Add: true},
	}
	for _, in := range moves {
		if _, err := games.Step(g, in); err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		save([]games.Input{in})
	}
	db.Close()

	var out strings.Builder
	if err := run(&out, path, "abcdefgh"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{"Play the Hand You're Dealt — game abcdefgh (open), seed 7", "Ann, Bea", "Ann          begin",
		`Bea          says "Hello."`, "reacts 🎭 on line1", "Replayed 3 moves"} {
		if !strings.Contains(text, want) {
			t.Errorf("history lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if err := run(&out, path, ""); err != nil || !strings.Contains(out.String(), "abcdefgh  life") {
		t.Fatalf("list: %v\n%s", err, out.String())
	}
	if err := run(&out, path, "nosuchid"); err == nil {
		t.Fatal("an unknown game id printed no error")
	}
}
