package bot_test

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// harness runs the real bot against the fake Discord, with a database that
// outlives restarts.
type harness struct {
	t      testing.TB
	fake   *fakediscord.Server
	dbPath string
	db     *store.Store
	bot    *bot.Bot
	ch     string
	games  []games.Rules
	seed   atomic.Uint64 // games opened get seeds 1, 2, 3…: every run plays the same games
	skew   atomic.Int64  // how far the bot's clock is ahead of the real one
	errors atomic.Int64  // lines the bot logged at level ERROR
	// crashAt, when set, is asked before each step of output work; true
	// kills the bot there (see bot.Config.Crash). killed records it.
	crashAt func(step string) bool
	killed  bool
	// rigged marks a test that changes a stored game by hand, which its
	// log then no longer replays to: the replay check is left out.
	rigged bool
	// answerWithin, when set, is how long the bot lets an interaction wait
	// before deferring it.
	answerWithin time.Duration
	// computerBeat, when set, is computer players' pause before moving.
	computerBeat time.Duration
	// threads lets the bot start a thread per game in the test channel;
	// without it the bot may not, and games stay in the channel.
	threads bool
	// tableEvery, when set, is the least time between two table edits.
	tableEvery time.Duration
	// tableRate, when set, is the process's requests a second against
	// the global limit.
	tableRate float64
}

// withThreads: games in the test channel move into threads of their own.
func withThreads(h *harness) { h.threads = true }

// now is the bot's clock: real time moved on by advance.
func (h *harness) now() time.Time { return time.Now().Add(time.Duration(h.skew.Load())) }

// advance moves the bot's clock (and the fake Discord's) forward.
func (h *harness) advance(d time.Duration) {
	h.skew.Add(int64(d))
	h.fake.Advance(d)
}

func (h *harness) nextSeed() uint64 { return h.seed.Add(1) }

// Each test has its own fake Discord and database, so they run in parallel.
func newHarness(t *testing.T, opts ...func(*harness)) *harness {
	t.Helper()
	t.Parallel()
	return newBenchHarness(t, opts...)
}

func newBenchHarness(t testing.TB, opts ...func(*harness)) *harness {
	t.Helper()
	h := &harness{t: t, fake: fakediscord.New(t), dbPath: filepath.Join(t.TempDir(), "bot.db"), games: bot.Catalog()}
	h.ch = h.fake.ChannelID()
	for _, opt := range opts {
		opt(h)
	}
	if !h.threads {
		h.fake.DenyThreads(h.ch)
	}
	h.fake.SetSettler(func() {
		if h.bot != nil {
			h.bot.Idle()
		}
	})
	h.start()
	t.Cleanup(func() {
		h.stop()
		if !h.rigged {
			h.checkReplays()
		}
	})
	return h
}

// checkReplays replays every game the test played from its seed and log
// and checks it reaches the state the bot stored.
func (h *harness) checkReplays() {
	db, err := store.Open(h.dbPath)
	if err != nil {
		h.t.Fatal(err)
	}
	defer db.Close()
	err = db.Each(func(g *store.Game, open bool) error {
		if g.Status != store.Playing || g.State == nil {
			return nil
		}
		var rules games.Rules
		for _, r := range h.games {
			if r.ID == g.Kind {
				rules = r
			}
		}
		log, err := db.History(g.ID)
		if err != nil {
			return err
		}
		var in []games.Input
		for _, e := range log {
			in = append(in, e.Input)
		}
		again, err := games.Replay(rules, g.Setup(), in)
		if err != nil {
			return err
		}
		if b, _ := games.Encode(again); string(b) != string(g.State) {
			return fmt.Errorf("game %s (%s) replays to another state:\n%s\n%s", g.ID, g.Kind, b, g.State)
		}
		return nil
	})
	if err != nil {
		h.t.Error(err)
	}
}

func (h *harness) start() {
	h.t.Helper()
	db, err := store.Open(h.dbPath)
	if err != nil {
		h.t.Fatal(err)
	}
	cfg := bot.Config{Token: fakediscord.BotToken, APIURL: h.fake.APIURL(), DBPath: h.dbPath, GuildID: h.fake.GuildID(), Seeds: h.nextSeed, Now: h.now, AnswerWithin: h.answerWithin, ComputerBeat: h.computerBeat, TableEvery: h.tableEvery, GlobalRate: h.tableRate,
		Crash: func(step string) bool {
			if h.crashAt != nil && h.crashAt(step) {
				h.killed = true
				return true
			}
			return false
		}}
	b, err := bot.New(cfg, db, slog.New(slog.NewTextHandler(testWriter{h.t, &h.errors}, nil)), h.games)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		h.t.Fatal(err)
	}
	b.Idle() // the start-up recount and table redraw
	h.db, h.bot = db, b
}

func (h *harness) stop() {
	if h.bot == nil {
		return
	}
	if err := h.bot.Close(); err != nil {
		h.t.Errorf("close bot: %v", err)
	}
	h.db.Close()
	h.bot = nil
}

// rigStored changes the channel's stored game while the bot is down: change
// edits the state rules load, which is saved (it must load again) before
// the bot starts anew.
func (h *harness) rigStored(rules games.Rules, change func(g games.Game)) {
	h.t.Helper()
	h.stop()
	db, err := store.Open(h.dbPath)
	if err != nil {
		h.t.Fatal(err)
	}
	rec, _ := db.Game(h.ch)
	g, err := rules.Load(rec.State)
	if err != nil {
		h.t.Fatal(err)
	}
	change(g)
	if rec.State, err = games.Encode(g); err != nil {
		h.t.Fatal(err)
	}
	if _, err := rules.Load(rec.State); err != nil {
		h.t.Fatalf("rigged state invalid: %v", err)
	}
	if err := db.Save(rec); err != nil {
		h.t.Fatal(err)
	}
	db.Close()
	h.start()
}

// killAtStep makes the bot die at the nth step of output work it reaches
// (Config.Crash), and returns where that was.
func (h *harness) killAtStep(n int) *string {
	steps, at := 0, new(string)
	h.crashAt = func(step string) bool {
		if steps++; steps == n {
			*at = step
		}
		return steps == n
	}
	return at
}

// restart stops the bot process and starts a new one on the same database,
// as after a deploy or a crash between moves.
func (h *harness) restart() {
	h.t.Helper()
	h.stop()
	h.start()
}

// record is the channel's game as the store holds it.
func (h *harness) record() *store.Game {
	h.t.Helper()
	g, err := h.db.Game(h.ch)
	if err != nil || g == nil {
		h.t.Fatalf("no game in channel: %v", err)
	}
	return g
}

// table is the channel's current table message.
func (h *harness) table() *fakediscord.Message {
	h.t.Helper()
	id := h.tableID()
	m := h.fake.Message(h.where(), id)
	if m == nil {
		h.t.Fatalf("table message %q not found", id)
	}
	return m
}

// tableID is the id of the channel's game's table message.
func (h *harness) tableID() string {
	h.t.Helper()
	p, err := h.db.Posts(h.record().ID)
	if err != nil {
		h.t.Fatal(err)
	}
	return p.Table
}

// where is the channel the game's messages are in: its thread, if it
// moved into one.
func (h *harness) where() string {
	h.t.Helper()
	p, err := h.db.Posts(h.record().ID)
	if err != nil {
		h.t.Fatal(err)
	}
	if p.Thread != "" {
		return p.Thread
	}
	return h.ch
}

// newGame is /game new <game> with options.
func newGame(game string, opts ...fakediscord.Option) fakediscord.Option {
	return fakediscord.Group("new", fakediscord.Sub(game, opts...))
}

// snapshot is the game's committed record, for "nothing changed" checks.
func (h *harness) snapshot() string {
	h.t.Helper()
	g := h.record()
	return fmt.Sprintf("%s|%d|%s|%s", g.State, g.Version, strings.Join(g.Log, "|"), seatNames(g))
}

func seatNames(g *store.Game) string {
	var names []string
	for _, s := range g.Seats {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

// messagesSince returns the public messages posted after the first n.
func (h *harness) messagesSince(n int) []*fakediscord.Message {
	all := h.fake.Messages(h.ch)
	if n > len(all) {
		return nil
	}
	return all[n:]
}

type testWriter struct {
	t      testing.TB
	errors *atomic.Int64 // lines logged at level ERROR
}

func (w testWriter) Write(p []byte) (int, error) {
	if w.errors != nil && strings.Contains(string(p), "level=ERROR") {
		w.errors.Add(1)
	}
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// mustRefuse asserts an ephemeral answer containing want.
func mustRefuse(t *testing.T, r *fakediscord.Reply, want string) {
	t.Helper()
	if r == nil {
		t.Fatalf("no reply; want refusal %q", want)
	}
	if !r.Ephemeral || !strings.Contains(r.Content, want) {
		t.Fatalf("reply (ephemeral=%v) %q; want ephemeral refusal containing %q", r.Ephemeral, r.Content, want)
	}
}

// startedWith opens a game of kind in the channel, hosted by a new user
// named host, with a second user named other joined, and starts it.
func (h *harness) startedWith(kind, host, other string) (*fakediscord.User, *fakediscord.User) {
	a, b := h.fake.AddUser(host), h.fake.AddUser(other)
	a.Command(h.ch, "game", newGame(kind))
	b.Click(h.table(), h.table().ButtonID("Join"))
	a.Click(h.table(), h.table().ButtonID("Start"))
	return a, b
}

// forge clicks a button with a custom_id the bot never offered to this
// user, as a modified client could: the bot must judge it on its own.
func forge(u *fakediscord.User, m *fakediscord.Message, customID string) *fakediscord.Reply {
	for r := range m.Components {
		if len(m.Components[r].Buttons) > 0 {
			m.Components[r].Buttons[0].CustomID = customID
			m.Components[r].Buttons[0].Disabled = false
			return u.Click(m, customID)
		}
	}
	return nil
}

// gameRef is the running game's id and move counter, for forged custom_ids.
func (h *harness) gameRef() (string, int) {
	h.t.Helper()
	g := h.record()
	return g.ID, g.Version
}

// refOf is the game's own name for one of its messages.
func (h *harness) refOf(m *fakediscord.Message) string {
	h.t.Helper()
	p, err := h.db.Posts(h.record().ID)
	if err != nil {
		h.t.Fatal(err)
	}
	ref, ok := p.RefOf(m.ID)
	if !ok {
		h.t.Fatalf("message %s is not one of the game's", m.ID)
	}
	return ref
}

// endGame is /game end and its confirmation; it returns the answer to the
// confirmation (or the refusal of the command).
func (h *harness) endGame(u *fakediscord.User, channel string) *fakediscord.Reply {
	h.t.Helper()
	r := u.Command(channel, "game", fakediscord.Sub("end"))
	if r == nil || r.Message == nil || r.Message.ButtonID("End the game") == "" {
		return r
	}
	return u.Click(r.Message, r.Message.ButtonID("End the game"))
}
