// Package bot is the Discord adapter: it registers the slash commands,
// routes interactions and reactions to the game of their channel, renders
// games as embeds and components, and keeps everything in the store.
package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// Bot is one connection to Discord serving every channel's game.
type Bot struct {
	cfg     Config
	log     *slog.Logger
	db      *store.Store
	s       *discordgo.Session
	catalog []games.Rules
	lanes   *lanes
	seeds   func() uint64
	now     func() time.Time
	timers  *scheduler

	mu        sync.Mutex
	appID     string
	botID     string
	ready     bool        // a READY came: a later one is a new session
	closed    atomic.Bool // Close was called
	bg        sync.WaitGroup
	killed    atomic.Bool // a test's simulated kill (Config.Crash)
	answered  tokens      // interaction tokens whose answers Discord took
	answering tokens      // hand tokens whose answers were sent, from when
	clicked   clicked     // public messages with clicks waiting for their answers (clicked.go)
	startedAt time.Time   // tokens from before were answered by an earlier process
	dead      tokens      // tokens and message ids that answered 404: never tried again
	limited   tokens      // tokens whose webhook bucket is empty, with when it refills (hooks.go)
	bars      tokens      // channels where posting answered 403, from when (publish.go)
	locked    sync.Map    // thread id: locked by a moderator, as THREAD_UPDATE said
	unmanaged tokens      // channels where removing a reaction answered 403, from when (reactions.go)
	refused   sync.Map    // refused reactions still to take off: "game key user" → mark (reactions.go)
	outputs   slots       // output jobs computing at once: one per CPU
	jobs      sync.Map    // channel id → *slot of its output job under way
	threads   sync.Map    // channel id → *store.Thread (nil: not a game's thread)
}

// invitePermissions: View Channels, Send Messages, Embed Links, Read
// Message History, Manage Messages (to take back reactions the rules
// refuse), Create Public Threads and Send Messages in Threads.
const invitePermissions = 1024 | 2048 | 16384 | 65536 | 8192 | 1<<35 | 1<<38

// interaction tokens last 15 minutes; stop using them a little earlier.
const handTokenLife = 14 * time.Minute

// ErrTokenRejected is returned when Discord does not accept the token.
var ErrTokenRejected = errors.New("DISCORD_TOKEN was rejected by Discord: open your application at https://discord.com/developers/applications, " +
	"go to Bot, press Reset Token, and put the new token in .env as DISCORD_TOKEN=<token>")

// New prepares a bot; Start connects it.
func New(cfg Config, db *store.Store, log *slog.Logger, catalog []games.Rules) (*Bot, error) {
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("create discord session: %w", err)
	}
	transport := cfg.Transport
	if transport == nil {
		transport = NewTransport()
	}
	if cfg.APIURL != "" {
		transport = newRewrite(cfg.APIURL, transport)
	}
	// Handlers only queue work, so running them inline keeps each channel's
	// events in order without blocking other channels.
	s.SyncEvents = true
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessageReactions
	s.LogLevel = discordgo.LogError
	if cfg.ShardCount > 1 { // discordgo then identifies with [id, count]
		s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	}
	b := &Bot{cfg: cfg, log: log, db: db, s: s, catalog: catalog, lanes: newLanes(), seeds: cfg.Seeds, now: cfg.Now, timers: newScheduler(),
		outputs: newSlots(runtime.GOMAXPROCS(0), outputHold)}
	b.lanes.tables.rate = cfg.globalRate()
	b.answered.life, b.answering.life, b.bars.life, b.unmanaged.life = recentLife, recentLife, barLife, barLife
	s.Client = &http.Client{Transport: &metered{next: transport, wait: b.lanes.tables.wait, hold: b.lanes.tables.hold, timeout: requestTimeout}}
	if b.seeds == nil {
		b.seeds = newSeed
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.startedAt = b.now()
	s.AddHandler(b.onReady)
	s.AddHandler(func(_ *discordgo.Session, c *discordgo.ChannelDelete) { b.vanished(c.ID) })
	s.AddHandler(func(_ *discordgo.Session, t *discordgo.ThreadDelete) { b.vanished(t.ID) })
	s.AddHandler(func(_ *discordgo.Session, t *discordgo.ThreadUpdate) { b.onThreadUpdate(t.Channel) })
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.MessageReactionAdd) {
		ch, _ := b.home(r.ChannelID)
		b.lanes.accept(ch, func() {
			b.guard("reaction", func() { b.onReaction(ch, r.MessageID, r.UserID, r.Emoji.Name, true) })
		})
	})
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.MessageReactionRemove) {
		ch, _ := b.home(r.ChannelID)
		b.lanes.accept(ch, func() {
			b.guard("reaction", func() { b.onReaction(ch, r.MessageID, r.UserID, r.Emoji.Name, false) })
		})
	})
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.MessageReactionRemoveAll) {
		ch, _ := b.home(r.ChannelID)
		b.lanes.accept(ch, func() {
			b.guard("reactions cleared", func() { b.onReactionsCleared(ch, r.MessageID, "") })
		})
	})
	// Interactions come decoded as clicks.go does it; discordgo has no type
	// for MESSAGE_REACTION_REMOVE_EMOJI, so it is read from the raw event.
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		if ev, ok := e.Struct.(*interactionEvent); ok { // see clicks.go
			received := time.Now()
			i, err := ev.decoded(e.RawData)
			if err != nil {
				b.log.Warn("undecodable interaction", "err", err)
				return
			}
			d, on := b.deferLater(i, received), clickedOn(i)
			b.clicked.enter(on)
			if !b.lanes.accept(b.homeOf(i), func() {
				defer b.clicked.leave(on)
				b.guard("interaction", func() { b.onInteraction(i, d) })
			}) {
				d.disarm() // shutting down: nobody would answer after it
				b.clicked.leave(on)
			}
			return
		}
		if e.Type != "MESSAGE_REACTION_REMOVE_EMOJI" {
			return
		}
		var r struct {
			ChannelID string          `json:"channel_id"`
			MessageID string          `json:"message_id"`
			Emoji     discordgo.Emoji `json:"emoji"`
		}
		if err := json.Unmarshal(e.RawData, &r); err != nil {
			return
		}
		ch, _ := b.home(r.ChannelID)
		b.lanes.accept(ch, func() {
			b.guard("reactions cleared", func() { b.onReactionsCleared(ch, r.MessageID, r.Emoji.Name) })
		})
	})
	return b, nil
}

// registerTries bounds the attempts at registering the commands at start.
const registerTries = 6

// registerCommands overwrites the commands in bulk, which is idempotent:
// a 5xx or a lost response at start-up is tried again, backing off from
// 200 ms (about 6 s in all), rather than ending the process; a refusal
// (a bad token, a bad command) is final.
func (b *Bot) registerCommands(app string) error {
	return retrying(registerTries, 200*time.Millisecond, func() error {
		_, err := b.s.ApplicationCommandBulkOverwrite(app, b.cfg.GuildID, commands(b.catalog))
		if err != nil {
			b.log.Warn("register commands", "err", err)
		}
		return err
	})
}

// Start connects to the gateway, registers the commands with one bulk
// overwrite (shard 0 only), then queues the output that changes committed
// before a stop still owe (a table can only be behind if its output is
// owed) and the recount of reactions given while the bot was away. Idle
// games cost nothing: none is read until its channel is touched.
func (b *Bot) Start() error {
	if err := b.s.Open(); err != nil {
		return tokenError(fmt.Errorf("connect to discord gateway: %w", err))
	}
	app := b.applicationID()
	// Commands belong to the application, not a shard: one shard registers.
	if b.cfg.ShardID == 0 {
		if err := b.registerCommands(app); err != nil {
			b.s.Close()
			return tokenError(fmt.Errorf("register commands: %w", err))
		}
	}
	for _, queue := range []func() error{b.replayOutput, b.resyncReactions} {
		if err := queue(); err != nil {
			b.s.Close()
			return err
		}
	}
	b.lanes.release() // events that came in meanwhile now run after that work
	b.bg.Add(2)
	go func() { defer b.bg.Done(); b.runTimers() }()
	go func() { defer b.bg.Done(); b.runJanitor() }()
	name := ""
	if u := b.s.State.User; u != nil {
		name = u.Username
	}
	invite := fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot+applications.commands&permissions=%d", app, invitePermissions)
	if b.cfg.APIURL != "" {
		invite = "(not Discord: " + b.cfg.APIURL + ")"
	}
	b.log.Info("bot ready", "name", name, "commands_scope", scope(b.cfg.GuildID), "games", len(b.catalog), "invite", invite,
		"shard", fmt.Sprintf("%d of %d", b.cfg.ShardID, max(b.cfg.ShardCount, 1)), "database", b.cfg.DBPath)
	return nil
}

func scope(guild string) string {
	if guild == "" {
		return "global"
	}
	return "guild " + guild
}

// Close stops taking events, lets in-flight moves finish, then disconnects.
// The caller closes the store afterwards.
func (b *Bot) Close() error {
	select {
	case <-b.timers.stop:
	default:
		close(b.timers.stop)
	}
	b.bg.Wait() // the timer loop and the janitor
	b.closed.Store(true)
	err := b.s.Close()
	b.lanes.close() // what is queued still runs; nothing new is taken
	b.lanes.wait()
	return err
}

// Idle waits until every event received so far has been handled.
func (b *Bot) Idle() { b.lanes.wait() }

// Settle is Idle but for table edits put off (Config.TableEvery), which
// stay put off.
func (b *Bot) Settle() { b.lanes.settle() }

func (b *Bot) onReady(s *discordgo.Session, r *discordgo.Ready) {
	if b.closed.Load() {
		// discordgo's reconnect loop can open a session after Close: left
		// alone, it would take the events meant for the next process.
		go s.Close()
		return
	}
	b.mu.Lock()
	again := b.ready
	b.ready = true
	if r.User != nil {
		b.botID = r.User.ID
	}
	if r.Application != nil && r.Application.ID != "" {
		b.appID = r.Application.ID
	} else if r.User != nil {
		b.appID = r.User.ID
	}
	b.mu.Unlock()
	if again {
		// A session identified afresh: the reactions dispatched since the
		// last one ended are lost, so recount as at start-up, ahead of the
		// events that follow this READY.
		if err := b.resyncReactions(); err != nil {
			b.log.Warn("recount reactions after a new session", "err", err)
		}
	}
}

func (b *Bot) botUserID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.botID
}

func (b *Bot) applicationID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.appID
}

// guard keeps one bad event from taking the bot down.
func (b *Bot) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("handler panicked", "event", what, "panic", r)
		}
	}()
	f()
}

// compactAfter: a day after its end, a game's state and message ids are
// no longer needed (its log replays it); its history stays for Retention.
const compactAfter = 24 * time.Hour

// runJanitor prunes ended games at start and once a day, so the database
// stops growing once retention applies.
func (b *Bot) runJanitor() {
	for {
		c, d, err := b.db.Prune(b.now(), compactAfter, b.cfg.Retention)
		if err != nil {
			b.log.Warn("prune ended games", "err", err)
		} else if c+d > 0 {
			b.log.Info("pruned ended games", "compacted", c, "deleted", d)
		}
		t := time.NewTimer(24 * time.Hour)
		select {
		case <-b.timers.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// tokenError turns Discord's "who are you?" answers into the one sentence
// that tells the operator what to do.
func tokenError(err error) error {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusUnauthorized {
		return ErrTokenRejected
	}
	var closeErr *websocket.CloseError
	if errors.As(err, &closeErr) && closeErr.Code == 4004 {
		return ErrTokenRejected
	}
	return err
}
