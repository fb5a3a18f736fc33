// Package localtable is the local table: the bot, unchanged, playing against
// the in-process Discord stand-in (bot/fakediscord), with a web page that
// shows a channel as a Discord client would and lets anyone at the machine
// act as any of its players. It is what cmd/bot runs when there is no
// DISCORD_TOKEN.
//
// The page renders what the bot sent (content, embeds, components,
// reactions) and nothing else: players click, select, fill in text boxes,
// react and run commands through the stand-in's client (fakediscord.Client),
// which sends the bot the same interactions and events Discord would.
package localtable

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// DefaultAddr is where the page is served unless LOCAL_TABLE_ADDR says
// otherwise: loopback only.
const DefaultAddr = "127.0.0.1:8080"

// Token is the bot token the stand-in accepts, for bot.Config.Token.
const Token = fakediscord.BotToken

// saveDelay gathers a burst of changes (a move's answer, table edit and
// hand refresh) into one write of the world file.
const saveDelay = 200 * time.Millisecond

// Table is the Discord stand-in of the local table and its saved world.
type Table struct {
	fake      *fakediscord.Server
	reporter  *fakediscord.LogReporter
	log       *slog.Logger
	worldPath string

	stop     chan struct{}
	saverEnd chan struct{}
	closing  sync.Once
	saveMu   sync.Mutex
}

// WorldPath is where the table keeps the stand-in's world (its channels,
// players and messages) next to the database, so that a restart resumes
// the games the database holds in the channels they are in.
func WorldPath(dbPath string) string { return dbPath + ".local-table.json" }

// Open starts the Discord stand-in with the world saved at worldPath, or a
// new one (a guild with channel #general) if there is none yet. What the
// stand-in would fail a test on is logged as a warning.
func Open(worldPath string, log *slog.Logger) (*Table, error) {
	rep := fakediscord.NewLogReporter(log.With("component", "fakediscord"))
	var fake *fakediscord.Server
	world, err := os.ReadFile(worldPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fake = fakediscord.New(rep)
	case err != nil:
		return nil, fmt.Errorf("read the local table's world: %w", err)
	default:
		if fake, err = fakediscord.Restore(rep, world); err != nil {
			return nil, fmt.Errorf("%s: %w (move it away to start a new local table)", worldPath, err)
		}
	}
	t := &Table{fake: fake, reporter: rep, log: log, worldPath: worldPath, stop: make(chan struct{}), saverEnd: make(chan struct{})}
	if err := t.save(); err != nil {
		rep.Close()
		return nil, err
	}
	go t.saver()
	return t, nil
}

// Fake is the Discord stand-in.
func (t *Table) Fake() *fakediscord.Server { return t.fake }

// APIURL is the stand-in's REST base, for bot.Config.APIURL.
func (t *Table) APIURL() string { return t.fake.APIURL() }

// GuildID is the stand-in's only guild, for bot.Config.GuildID.
func (t *Table) GuildID() string { return t.fake.GuildID() }

// saver writes the world after changes.
func (t *Table) saver() {
	defer close(t.saverEnd)
	changed := t.fake.Changes()
	for {
		select {
		case <-t.stop:
			return
		case <-changed:
		}
		select {
		case <-t.stop:
			return
		case <-time.After(saveDelay):
		}
		changed = t.fake.Changes() // before saving: a change during the save is saved next
		if err := t.save(); err != nil {
			t.log.Error("save the local table", "err", err)
		}
	}
}

// save writes the world file atomically: a crash leaves the old or the new.
func (t *Table) save() error {
	t.saveMu.Lock()
	defer t.saveMu.Unlock()
	world, err := t.fake.SaveWorld()
	if err != nil {
		return fmt.Errorf("save the local table: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.worldPath), filepath.Base(t.worldPath)+".*")
	if err != nil {
		return fmt.Errorf("save the local table: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(world); err != nil {
		tmp.Close()
		return fmt.Errorf("save the local table: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save the local table: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the local table: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.worldPath); err != nil {
		return fmt.Errorf("save the local table: %w", err)
	}
	return nil
}

// Close saves the world and stops the stand-in. Close the bot first, so
// that its last moves are in what is saved.
func (t *Table) Close() error {
	var err error
	t.closing.Do(func() {
		close(t.stop)
		<-t.saverEnd
		err = t.save()
		t.reporter.Close()
	})
	return err
}
