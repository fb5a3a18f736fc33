// Command history prints a stored game's history move by move, from the
// bot's database: who did what, when, and what the table said, replayed
// from the game's seed and log through its rules.
//
//	go run ./cmd/history [-db cardbot.db] [GAME_ID]
//
// Without a game id it lists the games the database holds.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

func main() {
	path := flag.String("db", envOr("DATABASE_PATH", bot.DefaultDBPath), "the bot's database file")
	flag.Parse()
	if err := run(os.Stdout, *path, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run(w io.Writer, path, id string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("no database at %s (set -db or DATABASE_PATH)", path)
	}
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer db.Close()
	if id == "" {
		return list(w, db)
	}
	return show(w, db, id)
}

func list(w io.Writer, db *store.Store) error {
	recs, err := db.Running()
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		fmt.Fprintln(w, "No open games. Give the id of an ended game (from its table's old buttons, or the log) to see its history.")
	}
	for _, r := range recs {
		fmt.Fprintf(w, "%s  %-8s %-8s channel %s  %d seats, move %d\n", r.ID, r.Kind, r.Status, r.Channel, len(r.Seats), r.Version)
	}
	return nil
}

func show(w io.Writer, db *store.Store, id string) error {
	rec, open, err := db.Find(id)
	if err != nil {
		return err
	}
	if rec == nil {
		return fmt.Errorf("no game %q in this database", id)
	}
	var rules games.Rules
	for _, r := range bot.Catalog() {
		if r.ID == rec.Kind {
			rules = r
		}
	}
	if rules.ID == "" {
		return fmt.Errorf("game %s is of a kind this build does not know: %q", id, rec.Kind)
	}
	state := "ended"
	if open {
		state = "open"
	}
	setup := rec.Setup()
	fmt.Fprintf(w, "%s — game %s (%s), seed %d, options %v\n", rules.Name, rec.ID, state, rec.Seed, rec.Options)
	fmt.Fprintf(w, "Seats at the start: %s\n", strings.Join(setup.Players, ", "))
	log, err := db.History(id)
	if err != nil {
		return err
	}
	if rec.Status == store.Lobby {
		fmt.Fprintln(w, "The game never started.")
		return nil
	}
	g, err := rules.New(setup)
	if err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	names := append([]string(nil), setup.Players...)
	for n, e := range log {
		if e.Input.Kind == games.InJoin {
			names = append(names, e.Input.Name)
		}
		events, err := games.Step(g, e.Input)
		fmt.Fprintf(w, "%4d  %s  %-12s %s\n", n+1, e.At.Format("2006-01-02 15:04:05"), who(names, e.Input.Seat), e.Input.Label())
		if err != nil {
			return fmt.Errorf("move %d does not replay: %w", n+1, err)
		}
		for _, ev := range events {
			if line, _, _ := strings.Cut(ev.Text, "\n"); line != "" {
				fmt.Fprintf(w, "            %s\n", line)
			}
		}
	}
	got, err := games.Encode(g)
	if err != nil {
		return err
	}
	if rec.State == nil { // compacted: the log is all that is kept
		fmt.Fprintf(w, "Replayed %d moves from the seed.\n", len(log))
		return nil
	}
	if string(got) != string(rec.State) {
		return errors.New("the replay does not reach the stored state")
	}
	fmt.Fprintf(w, "Replayed %d moves from the seed to the stored state.\n", len(log))
	return nil
}

func who(names []string, seat int) string {
	switch {
	case seat == games.Clock:
		return "(deadline)"
	case seat == games.Spectator:
		return "(spectator)"
	case seat >= 0 && seat < len(names):
		return names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}
