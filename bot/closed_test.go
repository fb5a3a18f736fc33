package bot

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// discordgo's reconnect loop does not stop when the session is closed: a
// reconnect under way can open a session after Close. The bot closes such
// a session at once, or it would take the events meant for the process
// that replaced it.
func TestSessionOpenedAfterCloseIsClosed(t *testing.T) {
	fake := fakediscord.New(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := New(Config{Token: fakediscord.BotToken, APIURL: fake.APIURL(), DBPath: path, GuildID: fake.GuildID()},
		db, slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !fake.AwaitNoConnection() {
		return
	}
	before := fake.GatewayStats().Identifies
	if err := b.s.Open(); err != nil { // what the reconnect loop does
		t.Fatal(err)
	}
	defer b.s.Close()
	if !fake.AwaitNoConnection() {
		return
	}
	// Its old session was closed: it identified afresh, then was closed.
	if got := fake.GatewayStats().Identifies; got != before+1 {
		t.Fatalf("identifies %d, want %d", got, before+1)
	}
}
