package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// TestMain lets the test binary be the fill's child process too.
func TestMain(m *testing.M) {
	if childMain() || botChildMain() {
		return
	}
	os.Exit(m.Run())
}

type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// The bot in a process of its own (the default) and in the load's.
func TestTinyLoad(t *testing.T) {
	for _, together := range []bool{false, true} {
		t.Run(map[bool]string{false: "bot process", true: "together"}[together], func(t *testing.T) {
			tinyLoad(t, together)
		})
	}
}

// runLoad runs the load o, its log to t, and returns the report and its
// printout.
func runLoad(t *testing.T, o options) (*Report, string) {
	t.Helper()
	o.log = logWriter{t}
	o.logLevel.UnmarshalText([]byte("warn"))
	rep, err := run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Print(&out)
	return rep, out.String()
}

func tinyLoad(t *testing.T, together bool) {
	rep, printed := runLoad(t, options{game: "duel", channels: 2, duration: time.Second, stored: 200,
		ceiling: 200 * time.Millisecond, parallel: 2, overlap: 2, together: together, globalLimit: fakediscord.DiscordGlobalLimit,
		botProcs: map[bool]int{false: 3}[together]})
	t.Log("\n" + printed)

	checks := []struct {
		what string
		ok   bool
	}{
		{"both tables opened", rep.Opened == 2},
		{"moves were made", rep.Moves > 0},
		{"moves/s matches moves and window", rep.Window >= time.Second && rep.MovesPerSec > 0 &&
			rep.MovesPerSec <= float64(rep.Moves)/time.Second.Seconds()},
		{"the ceiling was measured", rep.CeilingCommits > 0 && rep.Ceiling > 0 && rep.VsCeiling > 0},
		{"the host was checked", rep.CPUBefore > 0 && rep.CPUAfter > 0 && rep.LoopBefore > 0 && rep.LoopAfter > 0},
		{"click latencies are ordered", 0 < rep.P50 && rep.P50 <= rep.P90 && rep.P90 <= rep.P99 && rep.P99 <= rep.Max},
		{"move to move was timed", rep.Gaps > 0 && 0 < rep.GapP50 && rep.GapP50 <= rep.GapP90 && rep.GapP90 <= rep.GapP99 && rep.GapP99 <= rep.GapMax},
		{"answers were timed at the bot", rep.Answers >= rep.Moves && 0 < rep.AnsP50 && rep.AnsP50 <= rep.AnsP99 && rep.AnsP99 <= rep.AnsMax},
		{"no late or failed answers", rep.Unanswered == 0 && rep.AnsLate == 0 && rep.Failed == 0},
		{"REST split into global and exempt", rep.Global > 0 && rep.Exempt > 0 &&
			rep.RESTPerMove > 0.5 && rep.RESTPerMove < 10 && rep.GlobalPerMove < rep.RESTPerMove},
		{"every move answered by callback", rep.ByRoute["POST /interactions/{id}/{token}/callback"] >= rep.Moves},
		{"Discord's global limit kept and never passed", rep.GlobalLimit == fakediscord.DiscordGlobalLimit && rep.GlobalLimited == 0},
		// A click the client refuses (the bot replaced the message just as
		// the player clicked: a new game's table posted below its story)
		// is tried again on the new message; it is a race, not a fault.
		{"no stalled table, no stale click", rep.Stalls == 0 && rep.ShownAgain == 0 && rep.Stale == 0},
		{"the stored games were filled", rep.Stored == 200 && rep.StoredAdded == 200 && rep.DBBytes > 0},
		{"start-up was timed", rep.StartTime > 0 && rep.FirstAnswer > 0 && rep.FirstAnswer < 5*time.Second},
		{"CPU was read", rep.CPUPerMove > 0 && rep.CPUShare > 0 && rep.CPUShare <= 1.05},
		{"the harness's CPU apart only with a bot process", (rep.HarnessCPUPerMove > 0) == !together && rep.Together == together},
		{"context switches were read", rep.Switches > 0 && (rep.HarnessSwitches > 0) == !together},
		{"the bot process's GOMAXPROCS as asked", rep.BotProcs == map[bool]int{false: 3, true: runtime.GOMAXPROCS(0)}[together]},
		{"memory was read", rep.RSSReady > 0 && rep.HWMReady >= rep.RSSReady && rep.HWMEnd > 0 && rep.FileEnd < rep.RSSEnd && rep.LiveEnd > 0},
	}
	if rep.Violations > 0 {
		// The bot's, not the load's: the fake logged them above.
		t.Logf("the fake reported %d requests real Discord would refuse", rep.Violations)
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not so in the report:\n%+v", c.what, rep)
		}
	}
	for _, want := range []string{"moves/s", "p99", "move to move", "REST per move", "global-limited", "exempt", "answered 429", "bbolt ceiling", "VmRSS"} {
		if !strings.Contains(printed, want) {
			t.Errorf("the printed report has no %q", want)
		}
	}
}

// Every game plays under load through the fake Discord, its players
// making the moves its rules turn on, with nothing refused, stale, stuck
// or late.
func TestEveryGameUnderLoad(t *testing.T) {
	turnsOn := map[string][]string{
		"duel":   {"deck"}, // hands locked in empty: every play is from the deck
		"life":   {"use", "begin"},
		"lnf":    {"play", "draw", "ready"}, // Keep my hand comes first in the exchange
		"dealt":  {"play"},
		"improv": {"open", "gmstake", "stake", "play", "ready", "done"}, // whole conflicts, narrated to the end
	}
	for _, game := range loadGames {
		t.Run(game, func(t *testing.T) {
			rep, out := runLoad(t, options{game: game, channels: 2, duration: time.Second,
				ceiling: 100 * time.Millisecond, parallel: 2, overlap: 1, together: true, globalLimit: fakediscord.DiscordGlobalLimit})
			if rep.Opened != 2 || rep.Moves == 0 {
				t.Fatalf("%d tables opened, %d moves:\n%s", rep.Opened, rep.Moves, out)
			}
			if rep.Stale+rep.Refused+rep.Stalls+rep.ShownAgain+rep.Unanswered+rep.AnsLate+rep.Failed+rep.Violations+rep.GlobalLimited > 0 {
				t.Errorf("moves went wrong:\n%s", out)
			}
			for _, verb := range turnsOn[game] {
				if rep.Verbs[verb] == 0 {
					t.Errorf("no %q among the moves:\n%s", verb, out)
				}
			}
			if game == "improv" && rep.Verbs["open"] < 2 {
				t.Errorf("the GM opened %d conflicts: one never ended:\n%s", rep.Verbs["open"], out)
			}
		})
	}
}

func TestOptionsBounded(t *testing.T) {
	for _, o := range []options{
		{game: "chess", channels: 1, duration: time.Second},
		{game: "duel", channels: maxChannels + 1, duration: time.Second},
		{game: "duel", channels: 1, duration: maxDuration + time.Second},
		{game: "duel", channels: 1, duration: 0},
		{game: "duel", channels: 1, duration: time.Second, stored: -1},
	} {
		if err := o.check(); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestCallbackID(t *testing.T) {
	id, ok := callbackID("/api/v9/interactions/1234567890123456789/tok-en/callback")
	if !ok || id != 1234567890123456789 {
		t.Fatalf("callbackID = %d, %v", id, ok)
	}
	if _, ok := callbackID("/api/v9/webhooks/1/tok/messages/@original"); ok {
		t.Fatal("a webhook edit taken for a callback")
	}
}

// The fake's word of a bot message wakes the table of the game its
// custom_ids name: a move button wakes it, lobby buttons end its game.
func TestWatchersTold(t *testing.T) {
	var ws watchers
	a, b := newWatcher(), newWatcher()
	ws.watch("aaaaaaaa", a)
	ws.watch("bbbbbbbb", b)
	ws.told("ch", []string{"move:aaaaaaaa:7:deck", "table:aaaaaaaa:hand"})
	ws.told("ch", []string{"lobby:bbbbbbbb:rematch"})
	ws.unwatch("bbbbbbbb")
	ws.told("ch", []string{"move:bbbbbbbb:9:deck"})
	got := func(c chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	if !got(a.wake) || got(a.ended) || got(b.wake) || !got(b.ended) {
		t.Fatal("the wrong tables heard of their games")
	}

	// A table waiting for its next game's table hears of any bot message
	// in its channel, custom_ids or not, and only in its own.
	c1, c2 := ws.watchChannel("c1"), ws.watchChannel("c2")
	ws.told("c1", nil)
	if !got(c1) || got(c2) {
		t.Fatal("a channel's table did not hear of its channel's message, or another did")
	}
}

// A window's pauses are the gaps that ended in it; only those over
// pauseLong are counted and summed.
func TestPausesWithinAWindow(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := &pauseWatch{gaps: []pause{
		{t0.Add(-time.Second), 900 * time.Millisecond}, // before the window
		{t0.Add(time.Second), 30 * time.Millisecond},
		{t0.Add(2 * time.Second), 80 * time.Millisecond},
		{t0.Add(3 * time.Second), 60 * time.Millisecond},
		{t0.Add(9 * time.Second), 700 * time.Millisecond}, // after it
	}}
	got := w.within(t0, t0.Add(5*time.Second))
	want := Pauses{Longest: 80 * time.Millisecond, Long: 2, LongTotal: 140 * time.Millisecond}
	if got != want {
		t.Errorf("within = %+v, want %+v", got, want)
	}
	if got := w.within(t0.Add(4*time.Second), t0.Add(5*time.Second)); got != (Pauses{}) {
		t.Errorf("a window with no gaps: %+v", got)
	}
}
