package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is what one load run measured. Durations are in nanoseconds when
// printed as JSON.
type Report struct {
	Machine  string `json:"machine"`   // CPUs and model
	BotProcs int    `json:"bot_procs"` // the bot process's GOMAXPROCS (-bot-procs)
	GC       string `json:"gc"`        // the collector's setting, as the bot binary applies it
	Game     string `json:"game"`
	Channels int    `json:"channels"`
	Think    time.Duration
	Latency  time.Duration `json:"latency"` // added to every REST request (-latency)
	Jitter   time.Duration `json:"jitter"`  // and up to this much more (-jitter)
	DB       string        `json:"db"`

	// The bbolt ceiling: one writer, one Update (one fsync'd commit) per
	// 2 KiB value, on a separate file next to the bot's database.
	// It is measured before the bot starts and again after the load, as the
	// disk's fsync time varies; Ceiling, the ratio's base, is the higher.
	CeilingCommits int           `json:"ceiling_commits"`
	CeilingWindow  time.Duration `json:"ceiling_window"`
	CeilingBefore  float64       `json:"ceiling_before"` // commits/s
	CeilingAfter   float64       `json:"ceiling_after"`  // commits/s, 0 if not measured
	Ceiling        float64       `json:"ceiling_per_sec"`
	CPUBefore      float64       `json:"cpu_check_before"` // cpuCheck: KiB hashed per second on every core
	CPUAfter       float64       `json:"cpu_check_after"`
	LoopBefore     float64       `json:"loop_check_before"` // loopCheck: loopback round trips per second
	LoopAfter      float64       `json:"loop_check_after"`
	LoadBefore     string        `json:"loadavg_before"` // /proc/loadavg: others' work on the machine
	LoadAfter      string        `json:"loadavg_after"`

	// Stored games and start-up.
	Stored      int           `json:"stored"`       // idle games in the database before the bot started
	StoredAdded int           `json:"stored_added"` // of which this run wrote
	FillTime    time.Duration `json:"fill_time"`
	DBBytes     int64         `json:"db_bytes"`
	StartTime   time.Duration `json:"start_time"`   // store.Open + bot.New + Start
	FirstAnswer time.Duration `json:"first_answer"` // ready → first answered interaction in a fresh channel
	RSSReady    uint64        `json:"rss_ready"`    // bytes, the bot's process's VmRSS after the first answer
	HWMReady    uint64        `json:"hwm_ready"`    // bytes, VmHWM then

	// The load.
	Opened            int            `json:"opened"` // tables opened before the window
	SetupTime         time.Duration  `json:"setup_time"`
	Warmup            time.Duration  `json:"warmup"`       // played before the window, not counted
	WarmAnswers       int            `json:"warm_answers"` // answers during the warm-up, when every table's first click came at once
	WarmP99           time.Duration  `json:"warm_p99"`
	WarmMax           time.Duration  `json:"warm_max"`
	Window            time.Duration  `json:"window"` // from the window's opening until the last click sent in it returned
	Moves             int            `json:"moves"`  // move clicks the bot answered by updating the hand
	MovesPerSec       float64        `json:"moves_per_sec"`
	VsCeiling         float64        `json:"vs_ceiling"`   // MovesPerSec ÷ Ceiling
	Transactions      int            `json:"transactions"` // the bot's write transactions (one fsync'd commit each) in the window and its output
	TxPerMove         float64        `json:"tx_per_move"`
	Together          bool           `json:"together"`             // the bot ran in the load's process
	CPUPerMove        time.Duration  `json:"cpu_per_move"`         // user+sys of the bot's process over the window, per move (with Together, of the whole process)
	HarnessCPUPerMove time.Duration  `json:"harness_cpu_per_move"` // the same of the load's process: the fake Discord and the players
	CPUShare          float64        `json:"cpu_share"`            // both processes' CPU time ÷ (window × cores)
	Switches          float64        `json:"switches"`             // context switches of the bot's process per move (Together: of the whole process): threads put to sleep for want of work
	HarnessSwitches   float64        `json:"harness_switches"`     // the same of the load's process, per move
	Stale             int            `json:"stale"`                // clicks answered "that button was from an earlier moment"
	Refused           int            `json:"refused"`              // clicks answered with another refusal
	Games             int            `json:"games"`                // games played to the end in the window
	Verbs             map[string]int `json:"verbs"`                // moves by their verb (play, draw, stake…)
	Reopened          int            `json:"reopened"`             // tables opened again in the window (after a game ended)
	ShownAgain        int            `json:"shown_again"`          // times players pressed My hand again: no hand offered a move for 10 s
	Stalls            int            `json:"stalls"`               // channels that gave up: no move even after My hand again
	RefusedClicks     int            `json:"refused_clicks"`       // clicks the client would not send: the message changed under the player

	// Latency of move clicks, client-side: from the fake user's Click call
	// until it returned the reply. That includes the dispatch, the bot's
	// work and callback, and with Barrier the fake's Sync barrier (a
	// heartbeat round trip, repeated while other events are dispatched
	// meanwhile).
	P50, P90, P99, Max time.Duration
	Barrier            bool `json:"barrier"`
	// Move to move, client-side: from a move's click to the next move a
	// hand offers (the answer, then the other players' hands the bot
	// redraws): how long a table waits on the bot, think time aside.
	Gaps                           int
	GapP50, GapP90, GapP99, GapMax time.Duration
	// Latency of every interaction answered in the window, at the bot's
	// side: from dispatch (the interaction id's millisecond) to the fake's
	// acceptance of the callback, seen on the bot's HTTP transport.
	Answers                        int
	AnsP50, AnsP90, AnsP99, AnsMax time.Duration
	AnsLate                        int // of those, after 3 s
	Unanswered                     int // clicks the fake saw no answer to within 3 s
	SlowClicks                     int // clicks that took over 3 s to return (the barrier included)
	Failed                         int // the fake's FailedInteractions during the window
	SyncP50, SyncP99               time.Duration
	// Gaps in each process's ticker during the window (pauses.go): times
	// nothing in that process ran.
	BotPauses, LoadPauses Pauses

	// REST during the window, and per move.
	Global, Exempt, Invalid, NotFound int
	ByRoute                           map[string]int
	// GlobalLimited: requests the fake answered 429 for going past the
	// global limit (GlobalLimit a second; 0: none was kept).
	GlobalLimited, GlobalLimit int
	// RESTSpan: from the window's opening until the output of its last
	// moves was done, the time the REST counts cover.
	RESTSpan                   time.Duration
	RESTPerMove, GlobalPerMove float64
	ExemptPerMove              float64

	Violations int    // what the fake reports a test would fail on
	RSSEnd     uint64 // bytes, VmRSS after the load
	HWMEnd     uint64 // bytes, VmHWM at the end
	FileEnd    uint64 // bytes, the file-backed part of RSSEnd (the database's mapped pages)
	LiveEnd    uint64 // bytes, the Go heap the last collection found live
	Profile    string `json:",omitempty"`
}

// percentile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// Print writes the report for people.
func (r *Report) Print(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	think := "none (as fast as the players can click)"
	if r.Think > 0 {
		think = fmt.Sprintf("%v ±50%% per move", r.Think)
	}
	p("cardbot load — game %s, %d channels, think time %s", r.Game, r.Channels, think)
	p("machine:        %s", r.Machine)
	p("bot's process:  GOMAXPROCS=%d (-bot-procs to change it)", r.BotProcs)
	if r.Latency > 0 || r.Jitter > 0 {
		jitter := ""
		if r.Jitter > 0 {
			jitter = fmt.Sprintf(", and up to %v more drawn for each", r.Jitter)
		}
		p("latency:        %v added to every REST request%s, as a round trip to Discord", r.Latency, jitter)
	}
	p("collector:      %s", r.GC)
	p("database:       %s", r.DB)
	after := ""
	if r.CeilingAfter > 0 {
		after = fmt.Sprintf(", %.0f after the load", r.CeilingAfter)
	}
	p("bbolt ceiling:  %.0f commits/s (%.0f before%s; one writer, one fsync'd Update per 2 KiB value for %v, separate file on the same disk)",
		r.Ceiling, r.CeilingBefore, after, r.CeilingWindow.Round(time.Millisecond))
	p("load average:   %s before, %s after (other work on the machine)", r.LoadBefore, r.LoadAfter)
	p("cpu check:      %.0f before, %.0f after (thousand 1 KiB SHA-256 blocks a second on every core; lower when the host gives this machine less)", r.CPUBefore/1000, r.CPUAfter/1000)
	p("loopback check: %.1f before, %.1f after (thousand round trips a second of 64 bytes over loopback TCP: the kernel's part of a move, which a host can slow more than arithmetic)", r.LoopBefore/1000, r.LoopAfter/1000)
	if r.Stored > 0 {
		how := "already in the database"
		if r.StoredAdded > 0 {
			how = fmt.Sprintf("%d written through store.Commit in %v (%.0f games/s, in a child process)",
				r.StoredAdded, r.FillTime.Round(time.Millisecond), float64(r.StoredAdded)/r.FillTime.Seconds())
		}
		p("stored games:   %d idle duels (%s); database file %s, %.1f KiB a game", r.Stored, how, mib(uint64(r.DBBytes)),
			float64(r.DBBytes)/1024/float64(r.Stored))
	}
	p("start:          store open + bot start %v; first answer in a fresh channel %s after ready",
		r.StartTime.Round(time.Millisecond), ms(r.FirstAnswer))
	p("memory ready:   VmRSS %s, VmHWM %s (%s)", mib(r.RSSReady), mib(r.HWMReady), r.whose())
	if r.Channels == 0 {
		return
	}
	p("set-up:         %d of %d tables opened in %v", r.Opened, r.Channels, r.SetupTime.Round(time.Millisecond))
	if r.Warmup > 0 {
		p("warm-up:        %v before the window, not counted: %d answers, dispatch→answer p99 %s, max %s (every table's first click at once)",
			r.Warmup.Round(time.Millisecond), r.WarmAnswers, ms(r.WarmP99), ms(r.WarmMax))
	}
	p("moves:          %d in %v = %.1f moves/s = %.2f × the bbolt ceiling", r.Moves, r.Window.Round(time.Millisecond), r.MovesPerSec, r.VsCeiling)
	if r.Together {
		p("cpu:            %.0f µs per move (user+sys of the one process: bot, fake Discord and players); %.0f%% of the cores",
			float64(r.CPUPerMove)/float64(time.Microsecond), 100*r.CPUShare)
		p("switches:       %.1f per move (context switches of the one process: threads put to sleep for want of work, and woken)", r.Switches)
	} else {
		p("cpu:            %.0f µs per move in the bot's process, %.0f µs in the load's (fake Discord and players; user+sys); together %.0f%% of the cores",
			float64(r.CPUPerMove)/float64(time.Microsecond), float64(r.HarnessCPUPerMove)/float64(time.Microsecond), 100*r.CPUShare)
		p("switches:       %.1f per move in the bot's process, %.1f in the load's (context switches: threads put to sleep for want of work, and woken)",
			r.Switches, r.HarnessSwitches)
	}
	p("commits:        %d bbolt write transactions = %.2f per move (group commit)", r.Transactions, r.TxPerMove)
	p("dispatch→answer: p50 %s, p90 %s, p99 %s, max %s over %d answers; %d after 3 s",
		ms(r.AnsP50), ms(r.AnsP90), ms(r.AnsP99), ms(r.AnsMax), r.Answers, r.AnsLate)
	p("                (bot side: interaction id's millisecond → callback accepted, on the bot's HTTP transport; ≤ 1 ms high)")
	p("click→reply:    p50 %s, p90 %s, p99 %s, max %s over %d move clicks", ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max), r.Moves+r.Stale+r.Refused)
	if r.Barrier {
		p("                (client side: the fake user's Click call until it returns, which includes the fake's Sync barrier;")
	} else {
		p("                (client side: the fake user's Click call until it returns; -barrier was off, so clicks end without the fake's Sync barrier;")
	}
	p("                the barrier alone, sampled every 50 ms: p50 %s, p99 %s)", ms(r.SyncP50), ms(r.SyncP99))
	p("move to move:   p50 %s, p90 %s, p99 %s, max %s over %d moves", ms(r.GapP50), ms(r.GapP90), ms(r.GapP99), ms(r.GapMax), r.Gaps)
	p("                (client side: a move clicked → the next move a hand offers: its answer, then the hands the bot redraws)")
	p("pauses:         longest %s in the bot's process, %s in the load's; over %s: %d (%s in all) and %d (%s)",
		ms(r.BotPauses.Longest), ms(r.LoadPauses.Longest), pauseLong,
		r.BotPauses.Long, ms(r.BotPauses.LongTotal), r.LoadPauses.Long, ms(r.LoadPauses.LongTotal))
	p("                (a %v ticker's late wake-ups: the host stopping the machine, or a runtime stopping its world; under %v not noted)", pauseTick, pauseNoted)
	p("late answers:   %d answered after 3 s (bot side), %d never answered in 3 s, %d failed interactions;",
		r.AnsLate, r.Unanswered, r.Failed)
	p("                %d clicks took over 3 s to return (the barrier included)", r.SlowClicks)
	total := r.Global + r.Exempt
	p("REST per move:  %.2f (global-limited %.2f, exempt %.2f); %d requests: %d global, %d exempt, %d invalid, %d not found",
		r.RESTPerMove, r.GlobalPerMove, r.ExemptPerMove, total, r.Global, r.Exempt, r.Invalid, r.NotFound)
	limit := "none kept (-global-limit 0)"
	if r.GlobalLimit > 0 {
		limit = fmt.Sprintf("%d a second", r.GlobalLimit)
	}
	p("                global-limited %.1f a second over the window and its output (%s); Discord's limit: %s, %d answered 429 for it",
		float64(r.Global)/r.RESTSpan.Seconds(), r.RESTSpan.Round(time.Millisecond), limit, r.GlobalLimited)
	for _, k := range slices.Sorted(maps.Keys(r.ByRoute)) {
		p("                  %6d  %s", r.ByRoute[k], k)
	}
	p("games:          %d finished, %d tables reopened, %d stale clicks, %d refusals, %d stalled channels, %d clicks the client refused (message replaced)",
		r.Games, r.Reopened, r.Stale, r.Refused, r.Stalls, r.RefusedClicks)
	if len(r.Verbs) > 0 {
		var kinds []string
		for _, v := range slices.SortedFunc(maps.Keys(r.Verbs), func(a, b string) int { return cmp.Or(r.Verbs[b]-r.Verbs[a], strings.Compare(a, b)) }) {
			kinds = append(kinds, fmt.Sprintf("%s %d", v, r.Verbs[v]))
		}
		p("moves by verb:  %s", strings.Join(kinds, ", "))
	}
	if r.ShownAgain > 0 {
		p("stuck hands:    %d times no hand offered a move for 10 s and the players pressed My hand again (the first is logged)", r.ShownAgain)
	}
	p("fake Discord:   %d violations reported", r.Violations)
	p("memory end:     VmRSS %s, VmHWM %s (%s)", mib(r.RSSEnd), mib(r.HWMEnd), r.whose())
	p("                of which %s file-backed (mostly the database's mapped pages); live Go heap %s (the rest: the collector's headroom, GOGC)",
		mib(r.FileEnd), mib(r.LiveEnd))
	if r.Profile != "" {
		p("cpu profile:    %s, of %s (go tool pprof -top %s)", r.Profile, r.whose(), r.Profile)
	}
}

// whose says which process the memory and profile figures are of.
func (r *Report) whose() string {
	if r.Together {
		return "the one process: bot, fake Discord and players"
	}
	return "the bot's process"
}

// machine describes the CPUs for the report.
func machine(cpus int) string {
	model := "unknown CPU"
	if b, err := readFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs, %s", cpus, model)
}
