package bot_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// shardSet is one fake Discord with two guilds, guild[i] on shard i of 2,
// and the bot processes serving it, each a harness with its own file.
type shardSet struct {
	t     *testing.T
	fake  *fakediscord.Server
	base  string    // DATABASE_PATH
	guild [2]string // guild[i] is routed to shard i of 2
	ch    [2]string // each guild's channel
	bots  []*harness
}

func newShardSet(t *testing.T) *shardSet {
	t.Helper()
	t.Parallel()
	fake := fakediscord.New(t)
	id, _ := strconv.ParseUint(fake.GuildID(), 10, 64)
	first := int((id >> 22) % 2)
	ss := &shardSet{t: t, fake: fake, base: filepath.Join(t.TempDir(), "cardbot.db")}
	ss.guild[first] = fake.GuildID()
	ss.guild[1-first] = fake.AddGuild("Second Guild", 1-first, 2)
	for i, g := range ss.guild {
		ss.ch[i] = fake.GuildChannelID(g)
		// Games stay in the channel, where these tests' helpers look (on
		// branches where the bot may move a game into a thread).
		fake.DenyThreads(ss.ch[i])
	}
	fake.SetSettler(func() {
		for _, h := range ss.bots {
			if h.bot != nil {
				h.bot.Idle()
			}
		}
	})
	return ss
}

// start runs shard `shard` of count on its own file, as cmd/bot does with
// SHARD_ID and SHARD_COUNT (commands global: a shard is not tied to one
// guild). ch is the channel the harness's helpers look at.
func (ss *shardSet) start(shard, count int, ch string) *harness {
	t := ss.t
	t.Helper()
	cfg, err := bot.ConfigFromEnv(func(k string) string {
		return map[string]string{"DISCORD_TOKEN": fakediscord.BotToken, "DISCORD_API_URL": ss.fake.APIURL(), "DATABASE_PATH": ss.base,
			"SHARD_ID": strconv.Itoa(shard), "SHARD_COUNT": strconv.Itoa(count)}[k]
	})
	if err == nil {
		err = cfg.ResolveShards()
	}
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, fake: ss.fake, dbPath: cfg.DBPath, ch: ch, games: bot.Catalog()}
	cfg.Seeds, cfg.Now = h.nextSeed, h.now
	return ss.run(h, cfg, shard)
}

// run opens h's file and starts its bot with cfg, as shard `shard`.
func (ss *shardSet) run(h *harness, cfg bot.Config, shard int) *harness {
	t := ss.t
	t.Helper()
	db, err := store.Open(cfg.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(cfg, db, slog.New(slog.NewTextHandler(testWriter{t: t}, nil)).With("shard", shard), h.games)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	b.Idle()
	h.db, h.bot = db, b
	ss.bots = append(ss.bots, h)
	t.Cleanup(func() {
		h.stop()
		h.checkReplays()
	})
	return h
}

// stopAll stops every bot process, as before a reshard.
func (ss *shardSet) stopAll() {
	for _, h := range ss.bots {
		h.stop()
	}
	ss.bots = nil
}

// playDuel opens a Card Duel in h's channel and plays until n moves are made.
func playDuel(t *testing.T, h *harness, ann, bea *fakediscord.User, n int) {
	t.Helper()
	startDuel(t, h, ann, bea)
	for range n {
		moveOn(t, h, ann, bea)
	}
}

// moveOn makes the next move in h's channel and checks h's bot committed it.
func moveOn(t *testing.T, h *harness, users ...*fakediscord.User) {
	t.Helper()
	before := h.record().Version
	u, hand, id := mover(h, users...)
	if u == nil {
		t.Fatalf("nobody has a move; table:\n%s", h.table().Text())
	}
	if r := u.Click(hand, id); r == nil || r.Type != 7 {
		t.Fatalf("move by %s answered %+v", u.Name, r)
	}
	if after := h.record().Version; after <= before {
		t.Fatalf("the move left the game at version %d (was %d)", after, before)
	}
}

// holds checks that a shard's file has exactly the open games of the
// given channels, each of the guild owning that channel.
func (ss *shardSet) holds(h *harness, channels ...string) {
	t := ss.t
	t.Helper()
	running, err := h.db.Running()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, c := range channels {
		want[c] = true
	}
	for _, g := range running {
		if !want[g.Channel] {
			t.Errorf("%s holds a game in channel %s (guild %s), which is not its shard's", h.dbPath, g.Channel, g.Guild)
		}
		if ss.ch[0] == g.Channel && g.Guild != ss.guild[0] || ss.ch[1] == g.Channel && g.Guild != ss.guild[1] {
			t.Errorf("game in channel %s records guild %s", g.Channel, g.Guild)
		}
		delete(want, g.Channel)
	}
	for c := range want {
		t.Errorf("%s has no game in channel %s", h.dbPath, c)
	}
}

// Two processes, shard 0 and shard 1 of 2, against one Discord: a duel in
// each guild is served by the shard that owns the guild, and only it keeps
// any record of it. Only shard 0 registers the commands.
func TestTwoShardsServeTheirOwnGuilds(t *testing.T) {
	ss := newShardSet(t)
	shards := []*harness{ss.start(0, 2, ss.ch[0]), ss.start(1, 2, ss.ch[1])}
	ann, bea := ss.fake.AddUser("Ann"), ss.fake.AddUser("Bea")
	for _, h := range shards {
		playDuel(t, h, ann, bea, 3)
	}
	for i, h := range shards {
		if want := store.ShardPath(ss.base, i, 2); h.dbPath != want {
			t.Errorf("shard %d keeps its games in %s, want %s", i, h.dbPath, want)
		}
		ss.holds(h, ss.ch[i])
		other := shards[1-i].record()
		if g, _, err := h.db.Find(other.ID); err != nil || g != nil {
			t.Errorf("shard %d knows the other shard's game %s: %v, %v", i, other.ID, g, err)
		}
		if log, _ := h.db.History(other.ID); len(log) != 0 {
			t.Errorf("shard %d holds %d log entries of the other shard's game", i, len(log))
		}
	}
	if n := ss.fake.RESTCounts().ByRoute["PUT /applications/{app}/commands"]; n != 1 {
		t.Errorf("the commands were registered %d times; only shard 0 registers them", n)
	}
}

// Games stored by one process move with cmd/reshard's store.Reshard to the
// files of two shards, each game to the shard of its guild, and the shards
// carry on with them; then back to one process.
func TestReshardMovesGamesToTheShardOfTheirGuild(t *testing.T) {
	ss := newShardSet(t)
	ann, bea := ss.fake.AddUser("Ann"), ss.fake.AddUser("Bea")
	one := ss.start(0, 1, ss.ch[0])
	playDuel(t, one, ann, bea, 2)
	one.ch = ss.ch[1]
	playDuel(t, one, ann, bea, 2)
	ids := [2]string{}
	for i, ch := range ss.ch {
		one.ch = ch
		ids[i] = one.record().ID
	}
	ss.stopAll()

	// A second process on the old file would hide the games: it refuses.
	cfg, _ := bot.ConfigFromEnv(func(k string) string {
		return map[string]string{"DISCORD_TOKEN": "x", "DATABASE_PATH": ss.base, "SHARD_ID": "1", "SHARD_COUNT": "2"}[k]
	})
	if err := cfg.ResolveShards(); err == nil {
		t.Fatal("shard 1 of 2 started beside a one-shard database without a reshard")
	}

	two := []string{store.ShardPath(ss.base, 0, 2), store.ShardPath(ss.base, 1, 2)}
	rep, err := store.Reshard([]string{ss.base}, two)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts[0]["games"] != 1 || rep.Counts[1]["games"] != 1 {
		t.Fatalf("reshard placed %d and %d games, want one in each", rep.Counts[0]["games"], rep.Counts[1]["games"])
	}
	shards := []*harness{ss.start(0, 2, ss.ch[0]), ss.start(1, 2, ss.ch[1])}
	for i, h := range shards {
		ss.holds(h, ss.ch[i])
		if h.record().ID != ids[i] {
			t.Fatalf("shard %d serves game %s, want the moved %s", i, h.record().ID, ids[i])
		}
		moveOn(t, h, ann, bea)
	}
	ss.stopAll()

	// And back: one file again (the old one moved away first, since
	// resharding never overwrites), one process serving both games.
	if err := os.Rename(ss.base, ss.base+".before"); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Reshard(two, []string{ss.base}); err != nil {
		t.Fatal(err)
	}
	one = ss.start(0, 1, ss.ch[0])
	ss.holds(one, ss.ch[0], ss.ch[1])
	for _, ch := range ss.ch {
		one.ch = ch
		moveOn(t, one, ann, bea)
	}
}

// SHARD_COUNT=auto takes the count Discord recommends, file name included.
func TestShardCountAuto(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	fake.SetRecommendedShards(3)
	base := filepath.Join(t.TempDir(), "cardbot.db")
	cfg := func(id string) bot.Config {
		c, err := bot.ConfigFromEnv(func(k string) string {
			return map[string]string{"DISCORD_TOKEN": fakediscord.BotToken, "DISCORD_API_URL": fake.APIURL(), "DATABASE_PATH": base,
				"SHARD_ID": id, "SHARD_COUNT": "auto"}[k]
		})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := cfg("2")
	if err := c.ResolveShards(); err != nil || c.ShardCount != 3 || c.ShardAuto || c.DBPath != store.ShardPath(base, 2, 3) {
		t.Fatalf("auto: shard %d of %d in %s, %v; want 2 of 3 in %s", c.ShardID, c.ShardCount, c.DBPath, err, store.ShardPath(base, 2, 3))
	}
	c = cfg("3")
	if err := c.ResolveShards(); err == nil || !strings.Contains(err.Error(), "SHARD_ID is 3 but Discord recommends a SHARD_COUNT of 3") {
		t.Fatalf("SHARD_ID beyond the recommendation: %v", err)
	}
}
