package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games/ai"
)

// Config is everything the bot reads from the environment.
type Config struct {
	Token    string // DISCORD_TOKEN, without the "Bot " prefix
	GuildID  string // DISCORD_GUILD_ID: register commands in one guild (instant) instead of globally
	APIURL   string // DISCORD_API_URL: a Discord-compatible API base instead of Discord's
	DBPath   string // DATABASE_PATH
	LogLevel slog.Level
	// Seeds gives each new game its seed. Nil means the operating system's
	// random source; tests pass a fixed sequence so every run plays the same.
	Seeds func() uint64
	// Now is the clock deadlines are set and fired by; nil means the real one.
	Now func() time.Time
	// Crash, for tests: called before each step of output work; true
	// stops the bot there as if its process had been killed.
	Crash func(step string) bool
	// AnswerWithin is how long an interaction may wait for its answer
	// before it is deferred (default 2 s, inside Discord's 3).
	AnswerWithin time.Duration
	// TurnTimers overrides, per game, how long before an absent player is
	// reminded and before a move is made for them ([remind, act]; 0: never).
	TurnTimers map[string][2]time.Duration
	// Retention is how long a finished game's history is kept
	// (RETENTION_DAYS; 0 keeps it for ever).
	Retention time.Duration
	// Computers overrides the games where computer players may sit (nil:
	// Computers()); ComputerBeat their pause before moving.
	Computers    ai.Catalog
	ComputerBeat time.Duration
	// ShardID and ShardCount (SHARD_ID, SHARD_COUNT) say which guilds this
	// process serves; ShardAuto: SHARD_COUNT=auto, resolved by ResolveShards.
	ShardID, ShardCount int
	ShardAuto           bool
	// TableEvery is the least time between two edits of a table in place
	// (default 1 s; negative: no limit): moves that come faster are drawn
	// together, with the latest state, when it has passed. Discord allows a
	// channel about five message edits per five seconds anyway.
	TableEvery time.Duration
	// GlobalLimit (DISCORD_GLOBAL_LIMIT) is how many requests a second
	// Discord allows the bot's token on every route but the interaction
	// ones, all shards together (0: DefaultGlobalLimit; Discord raises it
	// for large bots on request).
	GlobalLimit int
	// GlobalRate is how many requests a second against that limit this
	// process allows itself, with a burst of a ninth of it on top (default:
	// its shard's share of GlobalLimit, less that burst; negative, or a
	// negative TableEvery, which asks for every table edit at once: no
	// limit). Every such request waits for its turn: posts go out late
	// rather than earn 429s, and when more tables are busy than it leaves
	// room for, each is drawn less often, in turn.
	GlobalRate float64
	// Transport carries the bot's HTTP requests (nil: NewTransport()); the
	// load command wraps it to watch them.
	Transport http.RoundTripper
}

// DefaultTableEvery is Config.TableEvery when it is zero.
const DefaultTableEvery = time.Second

// DefaultGlobalLimit is Discord's global limit: requests a second a bot's
// token may make on every route but the interaction ones.
const DefaultGlobalLimit = 50

// DefaultGlobalRate is the budget's steady rate for one process: with its
// burst of a ninth of that, no second holds more than 95 % of
// DefaultGlobalLimit (47), a margin for requests that reach Discord out of
// step with their turns.
const DefaultGlobalRate = DefaultGlobalLimit * globalMargin * 0.9

// DefaultRetention keeps a finished game's history for a year.
const DefaultRetention = 365 * 24 * time.Hour

// DefaultDBPath is where the database lives when DATABASE_PATH is unset.
const DefaultDBPath = "cardbot.db"

// ErrNoToken explains how to get a token; cmd/bot prints it as it is.
var ErrNoToken = errors.New("DISCORD_TOKEN is not set: create an application at https://discord.com/developers/applications, " +
	"open its Bot page, press Reset Token, and put DISCORD_TOKEN=<token> in .env (see .env.example)")

// ConfigFromEnv reads the configuration. getenv is os.Getenv in production.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Config{
		Token:   strings.TrimPrefix(strings.TrimSpace(getenv("DISCORD_TOKEN")), "Bot "),
		GuildID: strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		APIURL:  strings.TrimSpace(getenv("DISCORD_API_URL")),
		DBPath:  strings.TrimSpace(getenv("DATABASE_PATH")),
	}
	if c.Token == "" {
		return c, ErrNoToken
	}
	if c.DBPath == "" {
		c.DBPath = DefaultDBPath
	}
	if err := c.readShards(getenv); err != nil {
		return c, err
	}
	c.Retention = DefaultRetention
	if v := strings.TrimSpace(getenv("RETENTION_DAYS")); v != "" {
		days, err := strconv.Atoi(v)
		if err != nil || days < 0 {
			return c, fmt.Errorf("RETENTION_DAYS must be a whole number of days (0 keeps everything), not %q", v)
		}
		c.Retention = time.Duration(days) * 24 * time.Hour
	}
	if c.APIURL != "" {
		u, err := url.Parse(c.APIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("DISCORD_API_URL must be an http(s) URL such as http://127.0.0.1:8080, not %q", c.APIURL)
		}
		if strings.Trim(u.Path, "/") == "" {
			// A bare base, as other Discord proxies and libraries take it:
			// the API version path is ours to add.
			c.APIURL = strings.TrimRight(c.APIURL, "/") + "/api/v" + discordgo.APIVersion
		}
	}
	if v := strings.TrimSpace(getenv("DISCORD_GLOBAL_LIMIT")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("DISCORD_GLOBAL_LIMIT must be the requests a second Discord allows the bot (50 unless Discord raised it), not %q", v)
		}
		c.GlobalLimit = n
	}
	switch lvl := strings.ToLower(strings.TrimSpace(getenv("LOG_LEVEL"))); lvl {
	case "", "info":
		c.LogLevel = slog.LevelInfo
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "warn", "warning":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		return c, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, not %q", lvl)
	}
	return c, nil
}
