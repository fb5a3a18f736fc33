package bot_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// rawPut overwrites one key of the bot's file while the bot is down.
func rawPut(t *testing.T, path, bucket, key string, value []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucket)).Put([]byte(key), value) })
	if err != nil {
		t.Fatal(err)
	}
}

// rawGet reads one key of the bot's file while the bot is down.
func rawGet(t *testing.T, path, bucket, key string) []byte {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v []byte
	db.View(func(tx *bolt.Tx) error {
		v = append(v, tx.Bucket([]byte(bucket)).Get([]byte(key))...)
		return nil
	})
	return v
}

// Records the bot cannot read at start-up — one cut short, one of bytes
// that are no record, one of a game kind this build does not know, one of
// a newer schema — each with output still owed: the bot starts, a click
// in such a channel gets a clear answer, and the other channels play on.
func TestShardStoreAuditUnreadableRecordsAtStartUp(t *testing.T) {
	h := newHarness(t)
	h.rigged = true // the broken records replay to nothing
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	names := []string{"truncated", "garbage", "unknown kind", "newer schema", "healthy"}
	chans := map[string]string{}
	tables := map[string]*fakediscord.Message{}
	for _, name := range names {
		ch := h.fake.NewChannel(strings.ReplaceAll(name, " ", "-"))
		h.fake.DenyThreads(ch)
		h.ch = ch
		startDuel(t, h, ann, bea)
		moveOn(t, h, ann, bea)
		chans[name], tables[name] = ch, h.table()
	}
	games := map[string]*store.Game{}
	for _, name := range names {
		h.ch = chans[name]
		games[name] = h.record()
	}
	h.stop()
	for i, name := range names {
		// Output owed to every channel: the start-up carries it out.
		g := games[name]
		out, _ := json.Marshal(store.Output{Game: g.ID, Channel: g.Channel, Version: g.Version, Repost: true})
		rawPut(t, h.dbPath, "outbox", fmt.Sprintf("o/%020d/%s", 1_000_000+i, g.Channel), out)
		if name == "healthy" {
			continue
		}
		rec := rawGet(t, h.dbPath, "games", chans[name])
		switch name {
		case "truncated":
			rec = rec[:len(rec)/2]
		case "garbage":
			rec = []byte("\x00\xff\xfe not a record")
		case "unknown kind":
			rec = []byte(strings.Replace(string(rec), `"kind":"duel"`, `"kind":"poker"`, 1))
		case "newer schema":
			rec = []byte(strings.Replace(string(rec), `"schema":2`, `"schema":99`, 1))
		}
		rawPut(t, h.dbPath, "games", chans[name], rec)
	}
	h.start()

	for _, name := range names[:4] {
		h.ch = chans[name]
		for what, r := range map[string]*fakediscord.Reply{
			"My hand":    bea.Click(tables[name], tables[name].ButtonID("My hand")),
			"/game hand": bea.Command(chans[name], "game", fakediscord.Sub("hand")),
			"/game new":  ann.Command(chans[name], "game", newGame("duel")),
		} {
			if r == nil || !r.Ephemeral || r.Content == "" {
				t.Errorf("%s record: %s answered %+v", name, what, r)
				continue
			}
			t.Logf("%s record: %s answered %q", name, what, r.Content)
			if strings.Contains(r.Content, "try again in a moment") || !strings.Contains(r.Content, "can't read the game saved in this channel") {
				t.Errorf("%s record: %s does not say the game cannot be read: %q", name, what, r.Content)
			}
		}
		// What is not about the channel's game still works there.
		if r := ann.Command(chans[name], "rules", fakediscord.Str("game", "duel")); r == nil || strings.Contains(r.Content, "can't read") {
			t.Errorf("%s record: /rules answered %+v", name, r)
		}
	}
	h.ch = chans["healthy"]
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		for _, o := range owed {
			if o.Channel == h.ch {
				t.Errorf("the healthy channel's owed output was not carried out")
			}
		}
	}
	if p, _ := h.db.Posts(h.record().ID); p.Table == tables["healthy"].ID {
		t.Errorf("the healthy channel's owed repost was not carried out")
	}
	moveOn(t, h, ann, bea)
	if d := h.fake.Duplicates(h.ch); len(d) != 0 {
		t.Errorf("%d messages posted twice in the healthy channel", len(d))
	}
}

// auditShard runs shard `shard` of count as cmd/bot does (SHARD_ID,
// SHARD_COUNT, RETENTION_DAYS), with the harness's clock, seeds and kill
// switch, and a computer's pause of beat; ch is where its helpers look.
// auditSet is a shardSet whose processes share a clock that only moves
// forward across restarts.
type auditSet struct {
	*shardSet
	skew int64
}

func (ss *auditSet) auditShard(shard, count int, ch string, beat time.Duration, env ...string) *harness {
	t := ss.t
	t.Helper()
	vars := map[string]string{"DISCORD_TOKEN": fakediscord.BotToken, "DISCORD_API_URL": ss.fake.APIURL(), "DATABASE_PATH": ss.base,
		"SHARD_ID": strconv.Itoa(shard), "SHARD_COUNT": strconv.Itoa(count)}
	for i := 0; i+1 < len(env); i += 2 {
		vars[env[i]] = env[i+1]
	}
	cfg, err := bot.ConfigFromEnv(func(k string) string { return vars[k] })
	if err == nil {
		err = cfg.ResolveShards()
	}
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, fake: ss.fake, dbPath: cfg.DBPath, ch: ch, games: bot.Catalog()}
	h.skew.Store(ss.skew)
	cfg.Seeds, cfg.Now, cfg.ComputerBeat = h.nextSeed, h.now, beat
	cfg.Crash = func(step string) bool {
		if h.crashAt != nil && h.crashAt(step) {
			h.killed = true
			return true
		}
		return false
	}
	return ss.run(h, cfg, shard)
}

// reshard stops every process, moves the games from the files of count
// from to those of count to, as cmd/reshard does (an old file in the way
// is moved aside first), and starts the new set.
func (ss *auditSet) reshard(from, to int, beat time.Duration) []*harness {
	t := ss.t
	t.Helper()
	for _, h := range ss.bots {
		if h.bot != nil {
			ss.skew = max(ss.skew, h.skew.Load())
		}
	}
	ss.stopAll()
	var sources, targets []string
	for i := range from {
		sources = append(sources, store.ShardPath(ss.base, i, from))
	}
	for i := range to {
		p := store.ShardPath(ss.base, i, to)
		if _, err := os.Stat(p); err == nil {
			if err := os.Rename(p, p+".old"); err != nil {
				t.Fatal(err)
			}
		}
		targets = append(targets, p)
	}
	rep, err := store.Reshard(sources, targets)
	if err != nil {
		t.Fatalf("reshard %d → %d: %v", from, to, err)
	}
	t.Logf("reshard %d → %d: %v", from, to, rep.Counts)
	var out []*harness
	for i := range to {
		out = append(out, ss.auditShard(i, to, ss.ch[0], beat))
	}
	for _, h := range out {
		h.tick(0) // deadlines passed while the processes were down fire now, not amid the checks
	}
	return out
}

// owner is the process of shards that serves guild.
func owner(t *testing.T, shards []*harness, guild string) *harness {
	t.Helper()
	n, err := store.ShardOf(guild, len(shards))
	if err != nil {
		t.Fatal(err)
	}
	return shards[n]
}

// A re-shard 1 → 2 → 3 → 2 → 1 while games wait on something: output owed
// by a move whose process was killed, a turn timer, a computer's pending
// move, a reaction given while every process was down. After each move of
// the files, every game is served by the process of its guild alone, its
// buttons and reactions land there, and nothing owed is lost or done twice.
func TestShardStoreAuditReshardCarriesPendingWork(t *testing.T) {
	ss := &auditSet{shardSet: newShardSet(t)}
	ann, bea := ss.fake.AddUser("Ann"), ss.fake.AddUser("Bea")
	// A third guild for the computer's game: on shard 1 of 2 with the
	// second, and where it can, on a shard of 3 neither other guild is on.
	taken := map[int]bool{}
	for _, g := range ss.guild {
		n, _ := store.ShardOf(g, 3)
		taken[n] = true
	}
	k := 1
	for _, c := range []int{1, 3, 5} {
		if !taken[c%3] {
			k = c
		}
	}
	third := ss.fake.AddGuild("Third Guild", k, 6)
	cpuCh := ss.fake.GuildChannelID(third)
	ss.fake.DenyThreads(cpuCh)
	guildOf := map[string]string{ss.ch[0]: ss.guild[0], ss.ch[1]: ss.guild[1], cpuCh: third}
	const beat = time.Hour // a computer's move stays pending until the clock is moved

	one := ss.auditShard(0, 1, ss.ch[0], beat)
	// guild 1: a life game with role play; Ann and Bea each say a line.
	one.ch = ss.ch[1]
	ann.Command(one.ch, "game", newGame("life"))
	bea.Click(one.table(), one.table().ButtonID("Join"))
	ann.Click(one.table(), one.table().ButtonID("Start"))
	ann.Command(one.ch, "say", fakediscord.Str("line", "Ann's first words."))
	bea.Command(one.ch, "say", fakediscord.Str("line", "Bea's first words."))
	annLine, beaLine := rolePlayLine(t, one, "Ann's first words."), rolePlayLine(t, one, "Bea's first words.")
	lifeID := one.record().ID
	// guild 1: Ann against a computer, whose hand is still to be built.
	one.ch = cpuCh
	ann.Command(cpuCh, "game", newGame("duel"))
	ann.Click(one.table(), one.table().ButtonID("Add a computer"))
	ann.Click(one.table(), one.table().ButtonID("Start"))
	buildCheapHand(t, one, ann, 30)
	cpu := one.record()
	if len(cpu.Waiting) != 1 || cpu.Waiting[0] != 1 {
		t.Fatalf("the duel waits for seats %v, want the computer's", cpu.Waiting)
	}
	// guild 0: a duel whose last move's output dies with the process.
	one.ch = ss.ch[0]
	playDuel(t, one, ann, bea, 2)
	one.crashAt = func(string) bool { return true }
	moveOn(t, one, ann, bea)
	one.bot.Idle()
	one.crashAt = nil
	if !one.killed {
		t.Fatal("the move's output was not killed")
	}
	duel := one.record()
	if owed, _ := one.db.Pending(); len(owed) == 0 {
		t.Fatal("no output is owed")
	}
	ss.fake.Killed()
	// While every process is down, Ann rewards Bea's line.
	ann.React(beaLine, "🎭")

	// 1 → 2.
	shards := ss.reshard(1, 2, beat)
	for i, h := range shards {
		var mine []string
		for ch, g := range guildOf {
			if owner(t, shards, g) == h {
				mine = append(mine, ch)
			}
		}
		ss.holds(h, mine...)
		if owed, _ := h.db.Pending(); len(owed) != 0 {
			t.Errorf("shard %d still owes %d outputs after its start", i, len(owed))
		}
	}
	s0, s1 := owner(t, shards, ss.guild[0]), owner(t, shards, ss.guild[1])
	s0.ch = ss.ch[0]
	if p, _ := s0.db.Posts(duel.ID); p.Drawn != duel.Version {
		t.Errorf("the duel's table shows move %d; the owed output of move %d was not carried out", p.Drawn, duel.Version)
	}
	if d := ss.fake.Duplicates(ss.ch[0]); len(d) != 0 {
		t.Errorf("%d messages posted twice after the owed output was carried out", len(d))
	}
	s1.ch = ss.ch[1]
	if g, _ := markers(lifeState(t, s1), 0); g != 1 {
		t.Errorf("Ann's 🎭 given while every process was down counts %d times, want once", g)
	}
	// The duel's turn timer fires on its shard: after 10 minutes the
	// absent player's move is made for them.
	v := s0.record().Version
	s0.tick(11 * time.Minute)
	if s0.record().Version != v+1 {
		t.Errorf("the duel's turn timer did not fire on shard %s: version %d, want %d", s0.dbPath, s0.record().Version, v+1)
	}
	// The computer moves on its shard once its pause is over.
	s2 := owner(t, shards, third)
	s2.ch = cpuCh
	s2.tick(beat)
	if got := s2.record(); got.Version == cpu.Version {
		t.Errorf("the computer's pending move was not made on %s: still at version %d", s2.dbPath, got.Version)
	}
	// Neither file knows the other guild's games.
	if s0 != s1 {
		for _, id := range []string{lifeID} {
			if g, _, _ := s0.db.Find(id); g != nil {
				t.Errorf("%s holds game %s of the other guild", s0.dbPath, id)
			}
		}
		if g, _, _ := s1.db.Find(duel.ID); g != nil {
			t.Errorf("%s holds game %s of the other guild", s1.dbPath, duel.ID)
		}
		if g, _, _ := s0.db.Find(cpu.ID); g != nil {
			t.Errorf("%s holds game %s of the other guild", s0.dbPath, cpu.ID)
		}
	}

	// 2 → 3 → 2 → 1: each time every game goes on where its guild is
	// served, buttons and reactions alike.
	reacted := 1
	for _, step := range [][2]int{{2, 3}, {3, 2}, {2, 1}} {
		if step[1] == 1 {
			// Output owed again, dying with the process.
			h := owner(t, shards, ss.guild[0])
			h.ch = ss.ch[0]
			h.crashAt = func(string) bool { return true }
			freshMove(t, h, ann, bea)
			h.bot.Idle()
			h.crashAt = nil
			if !h.killed {
				t.Fatal("the move's output was not killed")
			}
			ss.fake.Killed()
		}
		shards = ss.reshard(step[0], step[1], beat)
		for ch, g := range guildOf {
			h := owner(t, shards, g)
			if got, err := h.db.Game(ch); err != nil || got == nil {
				t.Fatalf("%d → %d: %s has no game in channel %s: %v", step[0], step[1], h.dbPath, ch, err)
			}
		}
		for i, h := range shards {
			var mine []string
			for ch, g := range guildOf {
				if owner(t, shards, g) == h {
					mine = append(mine, ch)
				}
			}
			if len(mine) > 0 {
				ss.holds(h, mine...)
			} else if running, _ := h.db.Running(); len(running) != 0 {
				t.Errorf("%d → %d: shard %d serves no guild here but holds %d games", step[0], step[1], i, len(running))
			}
			if owed, _ := h.db.Pending(); len(owed) != 0 {
				t.Errorf("%d → %d: shard %d still owes %d outputs after its start", step[0], step[1], i, len(owed))
			}
		}
		h := owner(t, shards, ss.guild[0])
		h.ch = ss.ch[0]
		if p, _ := h.db.Posts(h.record().ID); p.Drawn != h.record().Version {
			t.Errorf("%d → %d: the duel's table shows move %d, the game is at %d", step[0], step[1], p.Drawn, h.record().Version)
		}
		freshMove(t, h, ann, bea)
		h = owner(t, shards, ss.guild[1])
		h.ch = ss.ch[1]
		if r := lifeHand(t, h, bea); r.Content == "" && len(r.Embeds) == 0 {
			t.Errorf("%d → %d: Bea's hand is empty", step[0], step[1])
		}
		if reacted == 1 {
			bea.React(annLine, "🎭")
			reacted++
			if g, _ := markers(lifeState(t, h), 1); g != 1 {
				t.Errorf("%d → %d: Bea's 🎭 counts %d times, want once", step[0], step[1], g)
			}
		}
		for _, ch := range []string{ss.ch[0], ss.ch[1], cpuCh} {
			if d := ss.fake.Duplicates(ch); len(d) != 0 {
				t.Errorf("%d → %d: %d messages posted twice in %s", step[0], step[1], len(d), ch)
			}
		}
	}
	if failed := ss.fake.FailedInteractions(); len(failed) != 0 {
		t.Errorf("interactions failed: %+v", failed)
	}
}

// freshMove makes the next move in h's channel from a hand opened anew
// (older hands may be past their token's life), checking it committed.
func freshMove(t *testing.T, h *harness, users ...*fakediscord.User) {
	t.Helper()
	before := h.record().Version
	if !playOn(t, h, users) {
		t.Fatal("nobody could move")
	}
	if after := h.record().Version; after <= before {
		t.Fatalf("the move left the game at version %d (was %d)", after, before)
	}
}

// channelView is what a channel shows: every message with its buttons.
func channelView(fake *fakediscord.Server, ch string) string {
	var b strings.Builder
	for _, m := range fake.Messages(ch) {
		fmt.Fprintf(&b, "%s %q [%s] %v\n", m.ID, m.Text(), m.ButtonsLine(), m.Reactions)
	}
	return b.String()
}

// Shard 1's process is down: a click in its guild reaches no process (shard
// 0 does not answer it), and shard 0 playing on, its clock past every
// deadline, leaves guild 1's channel and game alone. Back up, shard 1 fires
// its own deadlines.
func TestShardStoreAuditShardsNeverTouchEachOthersGuilds(t *testing.T) {
	ss := &auditSet{shardSet: newShardSet(t)}
	ann, bea := ss.fake.AddUser("Ann"), ss.fake.AddUser("Bea")
	s0 := ss.auditShard(0, 2, ss.ch[0], 0)
	s1 := ss.auditShard(1, 2, ss.ch[1], 0)
	playDuel(t, s0, ann, bea, 2)
	playDuel(t, s1, ann, bea, 2)
	away := s1.record()
	table1 := s1.table()
	s1.stop()
	before := channelView(ss.fake, ss.ch[1])

	ss.fake.ExpectFailure("no bot session is connected")
	if r := bea.Click(table1, table1.ButtonID("My hand")); r == nil || r.Type != 0 {
		t.Fatalf("a click in guild 1 with its shard down was answered: %+v", r)
	}
	freshMove(t, s0, ann, bea)
	v := s0.record().Version
	s0.tick(11 * time.Minute) // past both duels' turn timers
	if s0.record().Version != v+1 {
		t.Errorf("shard 0's own turn timer did not fire")
	}
	if after := channelView(ss.fake, ss.ch[1]); after != before {
		t.Errorf("shard 0 changed guild 1's channel:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if g, _, _ := s0.db.Find(away.ID); g != nil {
		t.Errorf("shard 0 holds guild 1's game")
	}

	ss.skew = s0.skew.Load()
	s1 = ss.auditShard(1, 2, ss.ch[1], 0)
	s1.tick(0)
	got := s1.record()
	if got.Version != away.Version+1 {
		t.Fatalf("back up, shard 1's game is at version %d, want %d (its turn timer fired once)", got.Version, away.Version+1)
	}
	log, _ := s1.db.History(got.ID)
	if n := len(log); n == 0 || log[n-1].Input.Kind != games.InTimer {
		t.Errorf("the last move of guild 1's game is not its timer's: %+v", log[n-1])
	}
	if g, _, _ := s1.db.Find(s0.record().ID); g != nil {
		t.Errorf("shard 1 holds guild 0's game")
	}
}

// RETENTION_DAYS=3: a finished game is compacted a day after its end to
// who played, how it ended, its seed and its log, which still replays to
// the end; after three days it is gone. /game stats says the same
// throughout.
func TestShardStoreAuditRetention(t *testing.T) {
	ss := &auditSet{shardSet: newShardSet(t)}
	ann := ss.fake.AddUser("Ann")
	start := func() *harness {
		return ss.auditShard(0, 1, ss.ch[0], time.Nanosecond, "RETENTION_DAYS", "3")
	}
	h := start()
	ann.Command(h.ch, "game", newGame("duel"))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	id := h.record().ID
	buildCheapHand(t, h, ann, 30)
	playAlone(t, h, ann, 2000)
	stats := func(h *harness) string {
		r := ann.Command(h.ch, "game", fakediscord.Sub("stats"))
		if r == nil || r.Message == nil && r.Content == "" {
			t.Fatalf("/game stats answered %+v", r)
		}
		text := r.Content
		if r.Message != nil {
			text += r.Message.Text()
		}
		return text
	}
	want := stats(h)
	if !strings.Contains(want, "Ann") {
		t.Fatalf("/game stats does not show Ann:\n%s", want)
	}
	log, _ := h.db.History(id)
	if len(log) == 0 {
		t.Fatal("the finished game has no log")
	}
	// inspect stops the process (its start-up prune done: Close waits for
	// it) and reads the file as cmd/history does.
	inspect := func(h *harness) (*store.Ended, []store.Entry, store.Stats) {
		t.Helper()
		ss.skew = h.skew.Load()
		h.stop()
		db, err := store.Open(h.dbPath)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		e, err := db.Ended(id)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := db.History(id)
		if err != nil {
			t.Fatal(err)
		}
		st, err := db.Stats(ss.guild[0])
		if err != nil {
			t.Fatal(err)
		}
		return e, hist, st
	}

	// A restart after the clock moved: the start-up prune sees the new day.
	later := func(h *harness, d time.Duration) *harness {
		h.advance(d)
		ss.skew = h.skew.Load()
		h.stop()
		return start()
	}
	e, hist, st := inspect(later(h, 25*time.Hour))
	if e == nil || e.Final == nil || e.Final.State != nil || e.Final.Seed == 0 || len(e.Final.Seats) != 2 || e.How == "" {
		t.Fatalf("a day after its end the game is not compacted to its players, seed and ending: %+v", e)
	}
	if len(hist) != len(log) {
		t.Fatalf("the compacted game keeps %d log entries of %d", len(hist), len(log))
	}
	var in []games.Input
	for _, x := range hist {
		in = append(in, x.Input)
	}
	rules, _ := catalogRules(e.Final.Kind)
	g, err := games.Replay(rules, e.Final.Setup(), in)
	if err != nil || !g.Over() {
		t.Fatalf("the compacted history does not replay to the end: %v", err)
	}
	if st[ann.ID] == nil {
		t.Fatalf("compaction lost the stats: %v", st)
	}
	h = start()
	if got := stats(h); got != want {
		t.Errorf("/game stats after compaction:\n%s\nwant:\n%s", got, want)
	}

	e, hist, st = inspect(later(h, 3*24*time.Hour))
	if e != nil || len(hist) != 0 {
		t.Fatalf("past RETENTION_DAYS the game is still kept: %+v, %d log entries", e, len(hist))
	}
	if st[ann.ID] == nil {
		t.Fatalf("pruning lost the stats: %v", st)
	}
	h = start()
	if got := stats(h); got != want {
		t.Errorf("/game stats after the game was deleted:\n%s\nwant:\n%s", got, want)
	}
}

func catalogRules(kind string) (games.Rules, bool) {
	for _, r := range bot.Catalog() {
		if r.ID == kind {
			return r, true
		}
	}
	return games.Rules{}, false
}
