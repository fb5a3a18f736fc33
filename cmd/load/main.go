// Command load puts the real bot under load against the fake Discord and
// reports what it sustained:
//
//	go run ./cmd/load -game duel -channels 100 -duration 20s [-think 0] [-db path] [-stored 100000] [-cpuprofile cpu.pprof]
//
// It starts the fake Discord (loopback only) in this process and the bot in
// a process of its own (-together: in this one), opens a game with two
// players in each channel, then every channel plays as fast as its players
// can click (or with -think between moves) until the duration is up. It prints moves/s, the latency of the answers, the
// REST requests per move (global-limited and exempt), and the ceiling of
// one bbolt writer with fsync measured on the same disk in the same run.
// With -stored N the database first holds N idle games (filled by a child
// process, kept for the next run if -db is given), and the report has the
// time from ready to the first answer and the bot's memory.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
)

// options are the command's flags.
type options struct {
	game       string
	channels   int
	duration   time.Duration
	think      time.Duration
	db         string
	stored     int
	cpuprofile string
	loadprof   string // the load's own process
	warmup     time.Duration
	barrier    bool
	latency    time.Duration
	jitter     time.Duration
	tracefile  string
	blockprof  string
	memprofile string
	gc         string        // the collector's setting, for the report
	ceiling    time.Duration // how long to measure the bbolt ceiling
	parallel   int           // tables opened at once
	overlap    int           // clicks a table may have under way
	json       bool
	together   bool // the bot in the load's process, not in one of its own
	botProcs   int  // GOMAXPROCS of the bot's process; 0: Go's default
	// globalLimit: Discord's global limit, which the fake holds the bot to
	// and the bot is told (DISCORD_GLOBAL_LIMIT); 0 lifts it on both sides.
	globalLimit int
	logLevel    slog.Level
	log         io.Writer // the bot's and the fake's log
}

// outputBound is how long the bot's output may take where it would take
// d on the CPU alone: behind Discord's global limit, output owed by every
// channel at once (a game's end and the next one's lobby, start and first
// stories: up to some twenty requests) goes out at the limit's pace.
func (o options) outputBound(d time.Duration) time.Duration {
	if o.globalLimit <= 0 {
		return d
	}
	return d + time.Duration(o.channels)*20*time.Second/time.Duration(o.globalLimit)
}

// Bounds: a run always stops by itself.
const (
	maxChannels = 5000
	maxDuration = 10 * time.Minute
	maxStored   = 2_000_000
)

func main() {
	if childMain() || botChildMain() {
		return
	}
	// The collector as cmd/bot sets it: the bot's process sets it too, and
	// with -together the bot runs here as it would there. The bot's memory
	// limit is sized for the bot alone, not for the fake and the players
	// beside it, so this process lifts it.
	gc := bot.TuneGC(os.LookupEnv)
	_, limitSet := os.LookupEnv("GOMEMLIMIT")
	if !limitSet {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	o := options{log: os.Stderr, gc: gc}
	flag.StringVar(&o.game, "game", "duel", "game to play: "+strings.Join(loadGames, ", "))
	flag.IntVar(&o.channels, "channels", 100, fmt.Sprintf("channels playing at once (0–%d); 0 only measures start-up", maxChannels))
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long the channels play (at most 10m)")
	flag.BoolVar(&o.barrier, "barrier", false, "end every move click with the fake's Sync barrier, as the tests do (costs heartbeats on the bot's gateway)")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "how long the channels play before the window opens (not counted)")
	flag.DurationVar(&o.latency, "latency", 0, "time every REST request to the fake takes on top, as the round trip to Discord does (0: loopback only)")
	flag.DurationVar(&o.jitter, "jitter", 0, "with -latency, each REST request takes up to this much more, drawn afresh (real round trips vary)")
	flag.DurationVar(&o.think, "think", 0, "pause before each move, ±50% (0: click as soon as the hand shows the move)")
	flag.StringVar(&o.db, "db", "", "bot database to use and keep (default: a temporary file, removed afterwards);\n"+
		"with -stored, the filled database kept for the next run, the bot playing on a copy of it")
	flag.IntVar(&o.stored, "stored", 0, "idle games the database holds before the bot starts (filled if missing)")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the load window to this file")
	flag.StringVar(&o.loadprof, "loadprofile", "", "write a CPU profile of the load's own process (fake Discord and players) over the window to this file")
	flag.StringVar(&o.tracefile, "trace", "", "write an execution trace of the load window to this file (go tool trace; keep -duration short)")
	flag.StringVar(&o.blockprof, "blockprofile", "", "write a profile of where goroutines waited during the load window to this file")
	flag.StringVar(&o.memprofile, "memprofile", "", "write a profile of what the load window allocated to this file (go tool pprof -sample_index=alloc_space)")
	flag.DurationVar(&o.ceiling, "ceiling", 2*time.Second, "how long to measure the bbolt single-writer ceiling")
	flag.IntVar(&o.parallel, "parallel", 32, "tables opened at once during set-up")
	flag.IntVar(&o.overlap, "overlap", 1, "clicks a table may have under way: a player clicks once the hand shows the move,\n"+
		"though the fake's Sync barrier may still hold the previous click (1: wait for each Click call to return)")
	flag.BoolVar(&o.json, "json", false, "print the report as JSON")
	flag.IntVar(&o.globalLimit, "global-limit", fakediscord.DiscordGlobalLimit, "requests a second the fake allows on every route but the interaction ones, as Discord does,\n"+
		"and the bot is told it may make (DISCORD_GLOBAL_LIMIT); 0 lifts the limit on both sides")
	flag.BoolVar(&o.together, "together", false, "run the bot in this process, beside the fake Discord and the players, not in a process of its own")
	flag.IntVar(&o.botProcs, "bot-procs", 0, "GOMAXPROCS of the bot's process (0: Go's default, the machine's CPUs): more lets it batch more\n"+
		"moves a commit and a request, for more moves a second and slower answers")
	level := flag.String("log", "warn", "log level of the bot and the fake: debug, info, warn, error")
	flag.Parse()
	if o.together && !limitSet {
		o.gc += "; with -together, the bot's memory limit is lifted (this process holds the fake and the players too)"
	}
	if o.botProcs < 0 || o.botProcs > 256 || (o.together && o.botProcs > 0) {
		fmt.Fprintln(os.Stderr, "load: -bot-procs is 0–256, and only for the bot in a process of its own")
		os.Exit(2)
	}
	if o.together && o.loadprof != "" {
		fmt.Fprintln(os.Stderr, "load: -loadprofile is for the load's own process; with -together, -cpuprofile covers everything")
		os.Exit(2)
	}
	if err := o.logLevel.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "load: -log:", err)
		os.Exit(2)
	}
	// A watchdog, should anything hang past every bound below.
	budget := o.duration + 3*time.Minute + time.Duration(o.channels)*100*time.Millisecond + 2*o.outputBound(0)
	if o.stored > 0 {
		budget += 20 * time.Minute
	}
	time.AfterFunc(budget, func() {
		fmt.Fprintf(os.Stderr, "load: watchdog: still running after %v; aborting\n", budget)
		os.Exit(3)
	})
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	rep, err := run(ctx, o)
	if rep != nil {
		if o.json {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(rep)
		} else {
			rep.Print(os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// reporter is the fake's Reporter: it logs what a test would fail on, the
// first few in full, and counts them all for the report.
type reporter struct {
	*fakediscord.LogReporter
	violations atomic.Int64
}

func (r *reporter) Errorf(format string, args ...any) {
	switch n := r.violations.Add(1); {
	case n <= 20:
		r.LogReporter.Errorf(format, args...)
	case n == 21:
		r.Log.Warn("fake Discord: further violations are only counted")
	}
}

// loadRun is one run: the fake, the bot's process and the tables.
type loadRun struct {
	opts       options
	fake       *fakediscord.Server
	bot        *botProc
	watch      watchers      // tables waiting to hear of their games
	stop       chan struct{} // closed when the window ends: no more clicks
	log        *slog.Logger
	firstStuck atomic.Bool // a table's hands were stuck (logged once)
	// from is when the window opened (UnixNano; 0 before): moves clicked
	// during the warm-up before it are not counted.
	from atomic.Int64
	// autoplay: the bot's /game new takes an autoplay option (forced moves
	// play themselves unless it is false).
	autoplay bool
}

func (o *options) check() error {
	switch {
	case !slices.Contains(loadGames, o.game):
		return fmt.Errorf("-game %q: choose one of %s", o.game, strings.Join(loadGames, ", "))
	case o.channels < 0 || o.channels > maxChannels:
		return fmt.Errorf("-channels %d: choose 0 to %d", o.channels, maxChannels)
	case o.duration <= 0 || o.duration > maxDuration:
		return fmt.Errorf("-duration %v: choose up to %v", o.duration, maxDuration)
	case o.stored < 0 || o.stored > maxStored:
		return fmt.Errorf("-stored %d: choose 0 to %d", o.stored, maxStored)
	case o.think < 0 || o.think > time.Minute:
		return fmt.Errorf("-think %v: choose 0 to 1m", o.think)
	}
	if o.parallel <= 0 {
		o.parallel = 1
	}
	if o.overlap <= 0 || o.overlap > 8 {
		o.overlap = 1
	}
	if o.ceiling <= 0 {
		o.ceiling = 2 * time.Second
	}
	if o.log == nil {
		o.log = io.Discard
	}
	return nil
}

// run does one load run and returns its report (partial, with an error, if
// the run could not finish).
func run(ctx context.Context, o options) (*Report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	rep := &Report{Machine: machine(runtime.NumCPU()), GC: o.gc, Game: o.game, Channels: o.channels, Think: o.think, Latency: o.latency, Jitter: o.jitter}
	// A working directory next to the database, on the same disk.
	base := ""
	if o.db != "" {
		base = filepath.Dir(o.db)
	}
	dir, err := os.MkdirTemp(base, "cardbot-load-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dbPath := filepath.Join(dir, "bot.db")
	rep.DB = dbPath + " (temporary)"
	if o.db != "" && o.stored == 0 {
		dbPath, rep.DB = o.db, o.db
	}
	if o.stored > 0 {
		filled := dbPath
		if o.db != "" {
			filled = o.db
		}
		res, err := ensureStored(filled, o.stored)
		if err != nil {
			return rep, err
		}
		rep.Stored, rep.StoredAdded, rep.FillTime = storedCount(filled), res.Added, res.Took
		if fi, err := os.Stat(filled); err == nil {
			rep.DBBytes = fi.Size()
		}
		if filled != dbPath {
			// The bot plays on a copy, so the filled database stays as it
			// was for the next run.
			if err := copyFile(filled, dbPath); err != nil {
				return rep, err
			}
			rep.DB = fmt.Sprintf("%s (a copy of %s)", dbPath, filled)
		}
	}

	// The ceiling, before anything else uses the disk, and again after.
	rep.LoadBefore = loadavg()
	rep.CPUBefore = cpuCheck(runtime.NumCPU(), 300*time.Millisecond)
	rep.LoopBefore = loopCheck(300 * time.Millisecond)
	n, took, err := ceiling(filepath.Dir(dbPath), o.ceiling)
	if err != nil {
		return rep, err
	}
	rep.CeilingCommits, rep.CeilingWindow = n, took
	rep.CeilingBefore = float64(n) / took.Seconds()
	rep.Ceiling = rep.CeilingBefore
	defer func() {
		rep.LoadAfter = loadavg()
		rep.CPUAfter = cpuCheck(runtime.NumCPU(), 300*time.Millisecond)
		rep.LoopAfter = loopCheck(300 * time.Millisecond)
		if rep.Moves == 0 {
			return
		}
		if n, took, err := ceiling(filepath.Dir(dbPath), o.ceiling); err == nil {
			rep.CeilingAfter = float64(n) / took.Seconds()
			rep.Ceiling = max(rep.CeilingBefore, rep.CeilingAfter)
			rep.VsCeiling = rep.MovesPerSec / rep.Ceiling
		}
	}()

	log := slog.New(slog.NewTextHandler(o.log, &slog.HandlerOptions{Level: o.logLevel, ReplaceAttr: bot.RedactTokens}))
	fr := &reporter{LogReporter: fakediscord.NewLogReporter(log)}
	defer fr.Close() // shuts the fake down
	r := &loadRun{opts: o, fake: fakediscord.New(fr), stop: make(chan struct{}), log: log}
	r.fake.SetLatency(o.latency, o.jitter)
	r.fake.SetGlobalLimit(max(o.globalLimit, 0), time.Second)
	defer func() { rep.Violations = int(fr.violations.Load()) }()

	cfg := childConfig{APIURL: r.fake.APIURL(), GuildID: r.fake.GuildID(), DBPath: dbPath, LogLevel: o.logLevel, GlobalLimit: o.globalLimit, Procs: o.botProcs,
		Profiles: profilePaths{CPU: o.cpuprofile, Trace: o.tracefile, Block: o.blockprof, Mem: o.memprofile}}
	r.fake.OnBotMessage(r.watch.told)
	b, err := startBot(cfg, o.together, o.log)
	if err != nil {
		return rep, err
	}
	ready := time.Now()
	r.bot = b
	defer b.close()
	if u, err := b.usage(); err == nil {
		rep.StartTime, rep.BotProcs = u.Start, u.Procs
	}

	r.autoplay = hasOption(r.fake.Commands(r.fake.GuildID()), o.game, "autoplay")

	// The first answer after ready, in a channel no game has used.
	fresh := r.fake.NewChannel("fresh")
	first := r.fake.AddUser("First")
	ans := first.Command(fresh, "game", fakediscord.Group("new", fakediscord.Sub("duel")))
	rep.FirstAnswer = time.Since(ready)
	if ans == nil || ans.Type == 0 {
		return rep, errors.New("the first interaction after ready was not answered")
	}
	u, err := b.usage()
	if err != nil {
		return rep, err
	}
	rep.RSSReady, rep.HWMReady = u.RSS, u.HWM
	if o.channels == 0 {
		rep.RSSEnd, rep.HWMEnd, rep.FileEnd, rep.LiveEnd = u.RSS, u.HWM, u.File, u.Live
		return rep, nil
	}

	err = r.load(ctx, rep)
	if u, err := b.usage(); err == nil {
		rep.RSSEnd, rep.HWMEnd, rep.FileEnd, rep.LiveEnd = u.RSS, u.HWM, u.File, u.Live
	}
	return rep, err
}

// hasOption tells whether /game new <game> has the option.
func hasOption(cmds []*discordgo.ApplicationCommand, game, option string) bool {
	for _, c := range cmds {
		if c.Name != "game" {
			continue
		}
		for _, group := range c.Options {
			if group.Name != "new" {
				continue
			}
			for _, sub := range group.Options {
				if sub.Name != game {
					continue
				}
				for _, o := range sub.Options {
					if o.Name == option {
						return true
					}
				}
			}
		}
	}
	return false
}

// within runs f, waiting at most d for it.
func within(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// load opens the tables, lets them play for the duration and fills the
// report.
func (r *loadRun) load(ctx context.Context, rep *Report) error {
	o := r.opts
	tables := make([]*table, o.channels)
	for i := range tables {
		ch := r.fake.NewChannel(fmt.Sprintf("load-%d", i))
		// Games stay in their channel, where the players look for them; a
		// thread would add three requests per game, not per move.
		r.fake.DenyThreads(ch)
		tables[i] = newTable(r, i, ch)
	}
	setupStart := time.Now()
	sem := make(chan struct{}, o.parallel)
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := t.open(); err != nil {
				t.fail(err)
				t.hands = nil
			}
		}()
	}
	wg.Wait()
	rep.SetupTime = time.Since(setupStart)
	var opened []*table
	var setupErr error
	for _, t := range tables {
		if t.hands != nil {
			opened = append(opened, t)
		} else if setupErr == nil {
			setupErr = t.firstErr
		}
	}
	rep.Opened = len(opened)
	if len(opened) == 0 {
		return fmt.Errorf("no table could be opened: %w", setupErr)
	}
	if d := o.outputBound(10 * time.Second); !r.bot.idle(d) {
		return fmt.Errorf("the bot's set-up output did not finish within %v", d)
	}
	for _, t := range opened {
		t.firstErr, t.unanswered, t.slowClicks = nil, 0, 0 // the window counts from here
	}

	// The players start together; the window opens after the warm-up, once
	// their first clicks, which all came at once, are answered and the
	// tables no longer move in step.
	r.fake.SetBarrier(o.barrier)
	rep.Barrier = o.barrier
	playStart := time.Now()
	var players sync.WaitGroup
	for _, t := range opened {
		players.Add(1)
		go func() {
			defer players.Done()
			t.play()
		}()
	}
	select {
	case <-time.After(o.warmup):
	case <-ctx.Done():
	}

	// The window.
	r.fake.ResetRESTCounts()
	counted := time.Now()
	before, err := r.bot.usage()
	if err != nil {
		return err
	}
	failedBefore := len(r.fake.FailedInteractions())
	if err := r.bot.profile(true); err != nil {
		return err
	}
	rep.Profile = o.cpuprofile
	if o.loadprof != "" {
		f, err := startWriting(o.loadprof, pprof.StartCPUProfile)
		if err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	var syncs []time.Duration
	syncDone := make(chan struct{})
	go func() { // the fake's Sync barrier alone, sampled
		defer close(syncDone)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-tick.C:
				s := time.Now()
				r.fake.Sync()
				syncs = append(syncs, time.Since(s))
			}
		}
	}()
	loadPauses := startPauseWatch()
	defer loadPauses.close()
	cpuStart, switchesStart := cpuTime()
	windowStart := time.Now()
	r.from.Store(windowStart.UnixNano())
	rep.Warmup = windowStart.Sub(playStart)
	select {
	case <-time.After(o.duration):
	case <-ctx.Done():
	}
	close(r.stop)
	// A click in flight returns within the fake's 3 s deadline plus its
	// Sync barrier's 5 s; waiting stops at once.
	if !within(30*time.Second, players.Wait) {
		r.bot.profile(false)
		return errors.New("tables still clicking 30 s after the window closed")
	}
	windowEnd := time.Now()
	rep.Window = windowEnd.Sub(windowStart)
	harness, harnessSwitches := cpuTime()
	harness -= cpuStart
	harnessSwitches -= switchesStart
	after, err := r.bot.usage()
	if err != nil {
		return err
	}
	<-syncDone
	if err := r.bot.profile(false); err != nil {
		return err
	}
	// The output the last moves owe belongs to them.
	if d := o.outputBound(10 * time.Second); !r.bot.idle(d) {
		return fmt.Errorf("the bot's output did not finish within %v of the window's end", d)
	}

	counts := r.fake.RESTCounts()
	rep.RESTSpan = time.Since(counted)
	rep.Transactions = int(after.Transactions - before.Transactions)
	rep.Global, rep.Exempt, rep.Invalid, rep.NotFound, rep.ByRoute = counts.Global, counts.Exempt, counts.Invalid, counts.NotFound, counts.ByRoute
	rep.GlobalLimited, rep.GlobalLimit = counts.GlobalLimited, o.globalLimit
	rep.Failed = len(r.fake.FailedInteractions()) - failedBefore
	var lat, gaps []time.Duration
	var firstErr error
	for _, t := range opened {
		lat = append(lat, t.lat...)
		gaps = append(gaps, t.gaps...)
		rep.Moves += t.moves
		for v, n := range t.verbs {
			if rep.Verbs == nil {
				rep.Verbs = map[string]int{}
			}
			rep.Verbs[v] += n
		}
		rep.Stale += t.stale
		rep.Refused += t.refused
		rep.Games += t.games
		rep.Reopened += t.reopened
		rep.Unanswered += t.unanswered
		rep.SlowClicks += t.slowClicks
		rep.RefusedClicks += t.refusedClicks
		rep.ShownAgain += t.shownAgain
		if t.stalled {
			rep.Stalls++
		}
		if firstErr == nil && t.firstErr != nil {
			firstErr = t.firstErr
		}
	}
	slices.Sort(lat)
	rep.P50, rep.P90, rep.P99 = percentile(lat, 0.50), percentile(lat, 0.90), percentile(lat, 0.99)
	if len(lat) > 0 {
		rep.Max = lat[len(lat)-1]
	}
	slices.Sort(gaps)
	if rep.Gaps = len(gaps); len(gaps) > 0 {
		rep.GapP50, rep.GapP90, rep.GapP99, rep.GapMax = percentile(gaps, 0.50), percentile(gaps, 0.90), percentile(gaps, 0.99), gaps[len(gaps)-1]
	}
	warm := r.bot.answers(playStart, windowStart)
	slices.Sort(warm)
	if rep.WarmAnswers = len(warm); len(warm) > 0 {
		rep.WarmP99, rep.WarmMax = percentile(warm, 0.99), warm[len(warm)-1]
	}
	answers := r.bot.answers(windowStart, windowEnd)
	slices.Sort(answers)
	rep.Answers = len(answers)
	rep.AnsP50, rep.AnsP90, rep.AnsP99 = percentile(answers, 0.50), percentile(answers, 0.90), percentile(answers, 0.99)
	if len(answers) > 0 {
		rep.AnsMax = answers[len(answers)-1]
	}
	for _, d := range answers {
		if d > lateAnswer {
			rep.AnsLate++
		}
	}
	rep.BotPauses = r.bot.pauses(windowStart, windowEnd)
	rep.LoadPauses = loadPauses.within(windowStart, windowEnd)
	slices.Sort(syncs)
	rep.SyncP50, rep.SyncP99 = percentile(syncs, 0.50), percentile(syncs, 0.99)
	rep.MovesPerSec = float64(rep.Moves) / rep.Window.Seconds()
	cpu, switches := after.CPU-before.CPU, after.Switches-before.Switches
	if o.together {
		harness, harnessSwitches = 0, 0 // one process: cpu and switches are all of it
	}
	rep.Together = o.together
	if rep.Moves > 0 {
		rep.CPUPerMove = cpu / time.Duration(rep.Moves)
		rep.HarnessCPUPerMove = harness / time.Duration(rep.Moves)
		rep.Switches = float64(switches) / float64(rep.Moves)
		rep.HarnessSwitches = float64(harnessSwitches) / float64(rep.Moves)
	}
	rep.CPUShare = (cpu + harness).Seconds() / rep.Window.Seconds() / float64(runtime.NumCPU())
	if rep.Ceiling > 0 {
		rep.VsCeiling = rep.MovesPerSec / rep.Ceiling
	}
	if rep.Moves > 0 {
		rep.GlobalPerMove = float64(rep.Global) / float64(rep.Moves)
		rep.ExemptPerMove = float64(rep.Exempt) / float64(rep.Moves)
		rep.TxPerMove = float64(rep.Transactions) / float64(rep.Moves)
		rep.RESTPerMove = rep.GlobalPerMove + rep.ExemptPerMove
	}
	if firstErr != nil {
		slog.New(slog.NewTextHandler(o.log, nil)).Warn("a table stopped early", "err", firstErr)
	}
	return nil
}

// measures reports whether a click sent at t falls in the window.
func (r *loadRun) measures(t time.Time) bool {
	from := r.from.Load()
	return from != 0 && t.UnixNano() >= from
}

// startWriting creates path and starts a profile or trace writing to it;
// the caller closes the file once it is stopped.
func startWriting(path string, start func(io.Writer) error) (*os.File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
