package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

func TestCustomIDGrammar(t *testing.T) {
	good := []customID{
		{kind: "hand", game: "abcdefgh"},
		{kind: "lobby", game: "abcdefgh", version: 3, action: games.Act("join")},
		{kind: "move", game: "abcdefgh", version: 12, action: games.Act("hand", "5C")},
		{kind: "ask", game: "abcdefgh", version: 0, action: games.Act("wild", "2")},
		{kind: "text", game: "abcdefgh", version: 7, action: games.Act("say")},
	}
	for _, c := range good {
		back, err := parseCustomID(c.String())
		if err != nil || back.String() != c.String() {
			t.Errorf("parse(%q) = %v, %v", c.String(), back, err)
		}
	}
	bad := []string{
		"", "hand", "hand:short", "hand:ABCDEFGH", "lobby:abcdefgh:1:dance", "lobby:abcdefgh:1:join=x",
		"move:abcdefgh:-1:play", "move:abcdefgh:one:play", "move:abcdefgh:1", "move:abcdefgh:1:pl ay",
		"shove:abcdefgh:1:play", "move:abcdefgh:1:play:extra",
	}
	for _, s := range bad {
		if _, err := parseCustomID(s); err == nil {
			t.Errorf("parse(%q) accepted", s)
		}
	}
	if id := newGameID(); !validGameID(id) {
		t.Errorf("newGameID() = %q is not valid", id)
	}
}

func TestControlsRespectDiscordLimits(t *testing.T) {
	buttons := func(n int) []games.Button {
		var out []games.Button
		for i := 0; i < n; i++ {
			out = append(out, games.Button{Label: fmt.Sprint(i), Action: games.Act("b", fmt.Sprint(i))})
		}
		return out
	}
	choice := games.Choice{Verb: "pick", Options: []games.ChoiceOption{{Value: "a", Label: "A"}}, Max: 3}
	cases := []struct {
		name    string
		view    games.View
		rows    int
		wantErr string
	}{
		{"25 buttons fill five rows", games.View{Buttons: buttons(25)}, 5, ""},
		{"26 buttons do not fit", games.View{Buttons: buttons(26)}, 0, "rows"},
		{"a select takes a row", games.View{Choices: []games.Choice{choice}, Buttons: buttons(20)}, 5, ""},
		{"a select and 21 buttons do not fit", games.View{Choices: []games.Choice{choice}, Buttons: buttons(21)}, 0, "rows"},
		{"the same action twice", games.View{Buttons: append(buttons(1), buttons(1)...)}, 0, "twice"},
		{"an overlong action", games.View{Buttons: []games.Button{{Label: "x", Action: games.Act(strings.Repeat("v", 40), strings.Repeat("a", 40), strings.Repeat("b", 40))}}}, 0, "longer"},
	}
	for _, c := range cases {
		rows, err := controls("abcdefgh", 1, c.view)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: err = %v; want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil || len(rows) != c.rows {
			t.Errorf("%s: %d rows, %v", c.name, len(rows), err)
		}
	}
	rows, _ := controls("abcdefgh", 1, games.View{Choices: []games.Choice{choice}})
	menu := rows[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	if menu.MaxValues != 1 {
		t.Errorf("max values %d exceed the 1 option offered", menu.MaxValues)
	}
}

func TestEmbedClipsToLimits(t *testing.T) {
	v := games.View{Title: strings.Repeat("t", 300), Description: strings.Repeat("d", 5000)}
	for i := 0; i < 30; i++ {
		v.Fields = append(v.Fields, games.Field{Name: "f", Value: strings.Repeat("v", 1100)})
	}
	e := embed(v, "footer")
	total := len(e.Title) + len(e.Description) + len(e.Footer.Text)
	for _, f := range e.Fields {
		total += len(f.Name) + len(f.Value)
		if len(f.Value) > maxFieldValue {
			t.Fatalf("field value of %d characters", len(f.Value))
		}
	}
	if len([]rune(e.Title)) > maxTitle || len([]rune(e.Description)) > maxDescription || len(e.Fields) > maxFields || total > maxEmbedTotal {
		t.Fatalf("embed over limits: title %d, description %d, fields %d, total %d",
			len(e.Title), len(e.Description), len(e.Fields), total)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := ConfigFromEnv(env("DISCORD_TOKEN", "Bot abc"))
	if err != nil || c.Token != "abc" || c.DBPath != DefaultDBPath || c.APIURL != "" {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	if _, err := ConfigFromEnv(env()); err != ErrNoToken {
		t.Fatalf("no token: %v", err)
	}
	if _, err := ConfigFromEnv(env("DISCORD_TOKEN", "abc", "DISCORD_API_URL", "localhost:1")); err == nil {
		t.Fatal("accepted an API URL without a scheme")
	}
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":         "http://127.0.0.1:8080/api/v9",
		"http://127.0.0.1:8080/":        "http://127.0.0.1:8080/api/v9",
		"https://proxy.example/api/v10": "https://proxy.example/api/v10",
	} {
		if c, err := ConfigFromEnv(env("DISCORD_TOKEN", "abc", "DISCORD_API_URL", in)); err != nil || c.APIURL != want {
			t.Errorf("DISCORD_API_URL %q → %q, %v; want %q", in, c.APIURL, err, want)
		}
	}
	if _, err := ConfigFromEnv(env("DISCORD_TOKEN", "abc", "LOG_LEVEL", "loud")); err == nil {
		t.Fatal("accepted an unknown log level")
	}
	for _, bad := range []string{"0", "-5", "fifty"} {
		if _, err := ConfigFromEnv(env("DISCORD_TOKEN", "abc", "DISCORD_GLOBAL_LIMIT", bad)); err == nil {
			t.Errorf("accepted DISCORD_GLOBAL_LIMIT=%s", bad)
		}
	}
	if c, err := ConfigFromEnv(env("DISCORD_TOKEN", "abc", "DISCORD_GLOBAL_LIMIT", "500")); err != nil || c.GlobalLimit != 500 {
		t.Errorf("DISCORD_GLOBAL_LIMIT=500 → %d, %v", c.GlobalLimit, err)
	}
	for _, bad := range []error{ErrNoToken, ErrTokenRejected} {
		if strings.Contains(bad.Error(), "abc") {
			t.Fatal("an error names the token")
		}
	}
}

func TestLanesHoldEventsUntilStartUpWorkIsQueued(t *testing.T) {
	l := newLanes()
	var order []string
	l.accept("c", func() { order = append(order, "event") })
	l.push("c", func() { order = append(order, "start-up") })
	l.wait()
	l.release()
	l.wait()
	if fmt.Sprint(order) != "[start-up event]" {
		t.Fatalf("ran %v", order)
	}
}

func TestLanesSerializePerKeyAndRunKeysInParallel(t *testing.T) {
	l := newLanes()
	l.release()
	var order []int
	block := make(chan struct{})
	other := make(chan struct{})
	l.accept("a", func() { <-block; order = append(order, 1) })
	l.accept("a", func() { order = append(order, 2) })
	l.accept("b", func() { close(other) }) // runs although "a" is blocked
	<-other
	close(block)
	l.wait()
	if fmt.Sprint(order) != "[1 2]" {
		t.Fatalf("lane a ran %v", order)
	}
	// Closing drops new events but keeps the follow-ups of running jobs.
	followed := false
	l.accept("a", func() {
		l.close()
		l.push("out", func() { followed = true })
	})
	l.wait()
	l.accept("a", func() { t.Error("an event was taken after close") })
	l.wait()
	if !followed {
		t.Fatal("a running job's follow-up was dropped while closing")
	}
}

// Busy channels share the process's budget against Discord's global
// limit: a burst of a ninth of the rate at once, then one draw per 1/rate,
// and put-off draws take their turns in the order they were put off.
func TestTablesShareTheGlobalBudget(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tc := &tableClocks{rate: 45, clock: func() time.Time { return now }}
	for n := range 5 {
		ch := fmt.Sprint("c", n)
		if !tc.due(ch, time.Second) {
			t.Fatalf("draw %d of the burst of 5 refused", n)
		}
		tc.drawn(ch)
		if err := tc.wait(context.Background()); err != nil { // its request
			t.Fatal(err)
		}
	}
	if tc.due("c5", time.Second) {
		t.Fatal("a 6th draw in the same instant allowed at 45 a second")
	}
	tc.mu.Lock()
	var turns []time.Duration
	for range 3 {
		turns = append(turns, tc.spendLocked(now).Sub(now).Round(time.Millisecond))
	}
	tc.mu.Unlock()
	want := []time.Duration{22 * time.Millisecond, 44 * time.Millisecond, 67 * time.Millisecond}
	if fmt.Sprint(turns) != fmt.Sprint(want) {
		t.Fatalf("put-off draws booked for %v, want %v", turns, want)
	}
	// A flush's draw waits for room no request has taken: the turn after
	// the 3 taken above, with the burst spent.
	var spared time.Duration
	tc.sleep = func(_ context.Context, d time.Duration) error {
		spared += d
		now = now.Add(d)
		return nil
	}
	if err := tc.spare(context.Background()); err != nil || spared.Round(time.Millisecond) != 89*time.Millisecond {
		t.Fatalf("a flush waited %v for room (%v), want 89ms", spared, err)
	}
	tc.sleep = nil
	now = now.Add(2 * time.Second)
	if !tc.due("c11", time.Second) {
		t.Fatal("no draw allowed once the budget has refilled")
	}
	if tc.due("c0", 5*time.Second) {
		t.Fatal("a channel drawn 2 s ago drawn again within its own 5 s")
	}
	unlimited := &tableClocks{clock: func() time.Time { return now }}
	for n := range 1000 {
		if !unlimited.due(fmt.Sprint("c", n), 0) {
			t.Fatalf("draw %d refused with no budget set", n)
		}
		unlimited.drawn(fmt.Sprint("c", n))
		if err := unlimited.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// Each process's budget, its burst on top, keeps the token within its
// global limit however many shards share it.
func TestGlobalRateSharesTheLimit(t *testing.T) {
	for _, c := range []struct {
		limit, shards int
		rate          float64
	}{{0, 1, 42.75}, {0, 2, 21.375}, {0, 5, 8.5}, {0, 10, 3.75}, {500, 1, 427.5}, {500, 4, 106.875}} {
		rate := Config{GlobalLimit: c.limit, ShardCount: c.shards}.globalRate()
		limit := float64(cmp.Or(c.limit, DefaultGlobalLimit))
		if math.Abs(rate-c.rate) > 1e-9 || float64(c.shards)*(rate+globalBurst(rate)) > 0.951*limit {
			t.Errorf("limit %d, %d shards: %v a second with a burst of %v each", c.limit, c.shards, rate, globalBurst(rate))
		}
	}
	if (Config{GlobalRate: -1}).globalRate() != 0 || (Config{TableEvery: -1}).globalRate() != 0 || (Config{GlobalRate: 7}).globalRate() != 7 {
		t.Error("an explicit GlobalRate is not taken as it is")
	}
}

// Every request against the global limit waits for its turn, so that no
// second holds more than Discord's 50, however they come: a burst of
// posts at once (games ending together), a steady trickle, requests sent
// later than their turns beside the turns of that moment, and another
// burst after a pause.
func TestGlobalBudgetKeepsEverySecondUnderFifty(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tc := &tableClocks{rate: DefaultGlobalRate, clock: func() time.Time { return now }}
	tc.sleep = func(_ context.Context, d time.Duration) error {
		now = now.Add(d)
		return nil
	}
	var sent []time.Time
	request := func() {
		if err := tc.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, now)
	}
	for range 200 {
		request()
	}
	if took := sent[199].Sub(sent[0]); took > 5*time.Second {
		t.Fatalf("200 requests at once took %v to go", took)
	}
	for range 100 {
		now = now.Add(7 * time.Millisecond)
		request()
	}
	now = now.Add(2 * time.Second)
	tc.mu.Lock()
	for range 30 { // turns taken...
		tc.spendLocked(now)
	}
	tc.mu.Unlock()
	now = now.Add(800 * time.Millisecond)
	for n := range 60 { // ...and their requests sent late, among others
		if n%2 == 1 {
			request()
			continue
		}
		for d := tc.room(); d > 0; d = tc.room() {
			now = now.Add(d)
		}
		sent = append(sent, now)
	}
	now = now.Add(10 * time.Second)
	for range 80 {
		request()
	}
	most := 0
	for i := range sent {
		n := 0
		for j := i; j < len(sent) && sent[j].Sub(sent[i]) < time.Second; j++ {
			n++
		}
		most = max(most, n)
	}
	if most > 47 {
		t.Fatalf("a second held %d requests: Discord allows 50, and the budget keeps 3 for requests out of step", most)
	}
	if most < 45 {
		t.Fatalf("the busiest second held %d requests: the budget is not spent", most)
	}
	// A waiter whose context ends gives up its wait.
	tc.sleep = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	now = now.Add(-time.Hour) // the budget is far ahead of this clock
	if err := tc.wait(ctx); err == nil {
		t.Fatal("a wait went on after its context ended")
	}
}

// Only interaction endpoints are free of the global limit.
func TestGlobalLimitPaths(t *testing.T) {
	for path, exempt := range map[string]bool{
		"/api/v9/interactions/1/tok/callback":       true,
		"/api/v9/webhooks/1/tok/messages/@original": true,
		"/api/webhooks/1/tok":                       true,
		"/api/v9/channels/1/messages":               false,
		"/api/v9/channels/1/messages/2":             false,
		"/api/v9/gateway/bot":                       false,
		"/api/v9/applications/1/commands":           false,
	} {
		if exemptPath(path) != exempt {
			t.Errorf("%s: exempt %v, want %v", path, !exempt, exempt)
		}
	}
}

// Output jobs take one of a few slots; a job that keeps its slot past the
// hold gives it up, and a release after that frees nothing of another's.
func TestOutputSlots(t *testing.T) {
	s := newSlots(2, time.Hour)
	r1, r2 := s.take(), s.take()
	select {
	case s.c <- struct{}{}:
		t.Fatal("a third job got a slot of two")
	default:
	}
	r1.done()
	r1.done() // twice: frees one slot, once
	r3 := s.take()
	if len(s.c) != 2 {
		t.Fatalf("%d slots taken, want 2", len(s.c))
	}
	r2.done()
	r3.done()
	if len(s.c) != 0 {
		t.Fatalf("%d slots taken after every release, want 0", len(s.c))
	}

	s = newSlots(1, time.Millisecond)
	stuck := s.take() // a job asleep on a rate limit, say
	next := s.take()  // waits for the hold to pass, not for the job
	stuck.done()
	if len(s.c) != 1 {
		t.Fatalf("the late release of an expired slot freed the next job's: %d taken", len(s.c))
	}
	next.done()
}

// An output job's request gives its slot up while it waits on Discord, so
// other jobs compute meanwhile; the job holds one again for the answer.
// Requests of no job hold nothing.
func TestOutputSlotFreeWhileWaiting(t *testing.T) {
	s := newSlots(1, time.Hour)
	h := s.take()
	during, flying := -1, -1
	rt := &metered{wait: func(context.Context) error { return nil }, timeout: time.Minute, next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		during = len(s.c)
		s.flight.mu.Lock()
		flying = s.flight.in
		s.flight.mu.Unlock()
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody}, nil
	})}
	send := func(ctx context.Context) {
		r := httptest.NewRequest(http.MethodPatch, "https://discord.com/api/v10/webhooks/1/t/messages/@original", nil).WithContext(ctx)
		if _, err := rt.RoundTrip(r); err != nil {
			t.Fatal(err)
		}
	}
	send(withSlot(context.Background(), h))
	if during != 0 || len(s.c) != 1 || flying != 1 {
		t.Fatalf("slots taken: %d during the job's request, %d after; want 0 and 1 (%d in flight, want 1)", during, len(s.c), flying)
	}
	// A post waited for its turn in the global budget: it goes at once,
	// outside the bound on output requests in flight.
	r := httptest.NewRequest(http.MethodPost, "https://discord.com/api/v10/channels/1/messages", nil).WithContext(withSlot(context.Background(), h))
	if _, err := rt.RoundTrip(r); err != nil || during != 0 || flying != 0 {
		t.Fatalf("a post: %d slots taken and %d in flight during it, want 0 and 0 (%v)", during, flying, err)
	}
	h.done()
	send(context.Background())
	if during != 0 || len(s.c) != 0 {
		t.Fatalf("slots taken: %d during a request of no job, %d after; want 0 and 0", during, len(s.c))
	}
	if slotOf(context.Background()) != nil {
		t.Error("a context of no job has a slot")
	}
}

// An output job that records a message it created gives its slot up
// while the write waits on the disk (a commit takes milliseconds), as it
// does for its requests: holding it let a few such writes stall every
// channel's output, and hands then raced their answers (the load run saw
// 6 % more hand edits and stale clicks).
func TestOutputSlotFreeWhileRecording(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := newSlots(1, time.Hour)
	h := s.take()
	defer h.done()
	b := &Bot{db: db, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	p := &pub{ctx: withSlot(context.Background(), h), b: b, rec: &store.Game{ID: "g1"},
		out: &store.Output{Channel: "c1"}, posts: &store.Posts{}}
	var during []int
	p.keep(func(ps *store.Posts) {
		during = append(during, len(s.c))
		ps.Table = "m1"
	})
	// Called on the job's copy, then by the write itself.
	if len(during) < 2 || slices.Contains(during[1:], 1) {
		t.Fatalf("slots taken while the write waited: %v, want 0 after the first", during)
	}
	if len(s.c) != 1 {
		t.Fatalf("%d slots taken after the write, want the job's 1 back", len(s.c))
	}
	if got, err := db.Posts("g1"); err != nil || got.Table != "m1" {
		t.Fatalf("recorded table %q (%v), want m1", got.Table, err)
	}
}

func TestTuneGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	wasLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(wasLimit)

	none := func(string) (string, bool) { return "", false }
	if got := TuneGC(none); !strings.Contains(got, "GOGC=400") {
		t.Errorf("TuneGC without GOGC says %q", got)
	}
	if p := debug.SetGCPercent(100); p != GCPercent {
		t.Errorf("without GOGC the collector's percent is %d, want %d", p, GCPercent)
	}
	if l := debug.SetMemoryLimit(math.MaxInt64); l != MemoryLimit {
		t.Errorf("without GOMEMLIMIT the soft limit is %d, want %d", l, MemoryLimit)
	}
	set := func(k string) (string, bool) { return "150", k == "GOGC" || k == "GOMEMLIMIT" }
	if got := TuneGC(set); !strings.Contains(got, "GOGC=150 from the environment") || !strings.Contains(got, "GOMEMLIMIT=150 from the environment") {
		t.Errorf("TuneGC with GOGC and GOMEMLIMIT set says %q", got)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("with GOGC set the bot changed the collector's percent to %d", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the bot changed the soft limit to %d", l)
	}
}

// An interaction request that gets no answer ends at the transport's
// deadline (a context's, not Client.Timeout's), as a timeout the answer
// path retries.
func TestHookDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	s, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: &metered{next: http.DefaultTransport, wait: func(context.Context) error { return nil }, timeout: 50 * time.Millisecond}}
	b := &Bot{s: s}
	err = b.hook(context.Background(), "", http.MethodPost, srv.URL+"/api/v10/interactions/1/token/callback", map[string]int{"type": 1})
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !retryable(err) {
		t.Fatalf("a request never answered ended with %v; want a retryable timeout", err)
	}
}

// After a 401 the bot's token is dead: later requests on its routes fail
// here, at once, and are not tried again (each try would be an invalid
// request, or a pause for nothing).
func TestRevokedTokenIsNotRetried(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls++
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message": "401: Unauthorized", "code": 0}`))
	}))
	defer srv.Close()
	c := &http.Client{Transport: &metered{next: http.DefaultTransport, wait: func(context.Context) error { return nil }, timeout: time.Second}}
	get := func() error {
		resp, err := c.Get(srv.URL + "/api/v10/channels/1/messages/2")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get(); err != nil {
		t.Fatalf("the first request: %v", err)
	}
	tries := 0
	err := retrying(5, time.Millisecond, func() error { tries++; return get() })
	if !errors.Is(err, errRevoked) || tries != 1 || calls != 1 {
		t.Fatalf("after a 401: %v after %d tries, %d requests sent; want errRevoked, 1 try, 1 request", err, tries, calls)
	}
}

// The rewrite sends Discord's API calls to another base and leaves the
// caller's request as it was.
func TestRewriteLeavesTheRequest(t *testing.T) {
	var got *http.Request
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	})
	rt := newRewrite("http://127.0.0.1:9/fake/", next)
	r, err := http.NewRequest(http.MethodPatch, discordgo.EndpointChannelMessage("1", "2")+"?x=y", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Authorization", "Bot x")
	before := r.URL.String()
	if _, err := rt.RoundTrip(r); err != nil {
		t.Fatal(err)
	}
	if want := "http://127.0.0.1:9/fake/channels/1/messages/2?x=y"; got == nil || got.URL.String() != want || got.Host != "127.0.0.1:9" {
		t.Fatalf("sent to %v; want %s", got.URL, want)
	}
	if r.URL.String() != before || got.Header.Get("Authorization") != "Bot x" {
		t.Fatalf("caller's request now %s; headers sent %v", r.URL, got.Header)
	}
	// A path escaped otherwise than Go would escape it keeps its escapes;
	// other hosts are left alone.
	for _, c := range [][2]string{
		{discordgo.EndpointAPI + "channels/1/messages/2/reactions/a%2Fb%F0%9F%8E%B2/@me", "http://127.0.0.1:9/fake/channels/1/messages/2/reactions/a%2Fb%F0%9F%8E%B2/@me"},
		{"https://cdn.discordapp.com/api/v9/x", "https://cdn.discordapp.com/api/v9/x"},
	} {
		r, err := http.NewRequest(http.MethodPut, c[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rt.RoundTrip(r); err != nil {
			t.Fatal(err)
		}
		if got.URL.String() != c[1] {
			t.Errorf("%s sent to %s; want %s", c[0], got.URL, c[1])
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The answered sets forget a token after recentLife; the 404 set keeps
// one for an interaction token's whole life.
func TestTokenSetsForgetAfterTheirLife(t *testing.T) {
	recent, dead := &tokens{life: recentLife}, &tokens{}
	old := time.Since(epoch) - 2*recentLife
	for _, set := range []*tokens{recent, dead} {
		for i := range 4095 {
			set.at[set.key(fmt.Sprint(i))] = old
		}
		set.take("new")
	}
	if len(recent.at) != 1 || !recent.has("new") {
		t.Fatalf("answered set kept %d tokens, want only the new one", len(recent.at))
	}
	if len(dead.at) != 4096 || !dead.has("17") {
		t.Fatalf("404 set kept %d tokens, want all 4096 (within 15 minutes)", len(dead.at))
	}
}

// A request that fails logs its URL, and an interaction's URL holds its
// token: the bot's log shows neither that nor any other string with one.
func TestLogsRedactInteractionTokens(t *testing.T) {
	token := "aW50ZXJhY3Rpb246MTU3NDYzNDc1NDA1MTkzMjE2MTpFRU5mT05nWDl1d0lzek01SHVUSEdib290T2RVc1pLTm9ZTTQy"
	var buf strings.Builder
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: RedactTokens}))
	hook := &url.Error{Op: "Patch", URL: "https://discord.com/api/v10/webhooks/1574618322769543179/" + token + "/messages/@original", Err: context.DeadlineExceeded}
	callback := fmt.Errorf("answer: %w", &url.Error{Op: "Post", URL: "https://discord.com/api/v10/interactions/1574634754051932161/" + token + "/callback", Err: io.EOF})
	log.Warn("edit hand", "err", hook, "game", "abcdefgh")
	log.Warn("defer interaction", "err", callback, "url", "/webhooks/1/"+token)
	out := buf.String()
	if strings.Contains(out, token) || strings.Contains(out, token[:40]) {
		t.Fatalf("the log holds the token:\n%s", out)
	}
	for _, want := range []string{"/webhooks/1574618322769543179/<token>/messages/@original", "/interactions/1574634754051932161/<token>/callback", "context deadline exceeded", "game=abcdefgh"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}

// The bound on output requests in flight grows while they take about the
// least round trip (far from Discord: waiting, not queueing), shrinks to
// its least when they take many times that, and forgets an old least.
func TestFlightFollowsRoundTrips(t *testing.T) {
	f := newFlight(2, 64)
	clock := time.Unix(0, 0)
	f.now = func() time.Time { return clock }
	trips := func(rtt time.Duration, n int) {
		for range n {
			f.enter()
			clock = clock.Add(10 * time.Millisecond)
			f.leave(rtt)
		}
	}
	trips(50*time.Millisecond, 3000)
	if f.limit != 64 {
		t.Fatalf("steady 50 ms round trips: bound %.1f, want 64", f.limit)
	}
	trips(500*time.Millisecond, 1000) // ten times the least: queued
	if f.limit != 2 {
		t.Fatalf("queued round trips: bound %.1f, want 2", f.limit)
	}
	trips(500*time.Millisecond, 3000) // 30 s: the 50 ms least is forgotten
	if f.limit != 64 {
		t.Fatalf("steady 500 ms round trips, later: bound %.1f, want 64", f.limit)
	}
	if f.in != 0 {
		t.Fatalf("%d in flight after every request left", f.in)
	}
}

// Round trips to Discord vary from one request to the next: one quick
// answer among slower ones is not the measure of an unqueued request, and
// the bound still grows. Requests that queue still shrink it.
func TestFlightGrowsThroughJitter(t *testing.T) {
	f := newFlight(2, 64)
	clock := time.Unix(0, 0)
	f.now = func() time.Time { return clock }
	rng := rand.New(rand.NewPCG(1, 2))
	trips := func(least, spread time.Duration, n int) {
		for range n {
			f.enter()
			clock = clock.Add(10 * time.Millisecond)
			f.leave(least + time.Duration(rng.Int64N(int64(spread))))
		}
	}
	trips(20*time.Millisecond, 80*time.Millisecond, 3000) // 20-100 ms
	if f.limit != 64 {
		t.Fatalf("round trips of 20-100 ms: bound %.1f, want 64", f.limit)
	}
	trips(600*time.Millisecond, 400*time.Millisecond, 1000) // 0.6-1 s: queued
	if f.limit != 2 {
		t.Fatalf("queued round trips: bound %.1f, want 2", f.limit)
	}
}

// Room in flight goes to the oldest request waiting, not to one that
// arrives just as a request leaves: a hand passed over that way could wait
// behind newer ones for seconds.
func TestFlightLetsTheOldestInFirst(t *testing.T) {
	f := newFlight(1, 1)
	f.enter()
	var mu sync.Mutex
	var order []string
	entered := func(who string) {
		mu.Lock()
		order = append(order, who)
		mu.Unlock()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.enter()
		entered("waiting")
		f.leave(time.Millisecond)
	}()
	for queued := 0; queued == 0; runtime.Gosched() {
		f.mu.Lock()
		queued = len(f.queue)
		f.mu.Unlock()
	}
	f.leave(time.Millisecond)
	f.enter() // arrives as the first one leaves
	entered("newcomer")
	f.leave(time.Millisecond)
	<-done
	if !slices.Equal(order, []string{"waiting", "newcomer"}) {
		t.Fatalf("entered in the order %v, want the one waiting first", order)
	}
	if f.in != 0 || len(f.queue) != 0 {
		t.Fatalf("%d in flight and %d queued after every request left", f.in, len(f.queue))
	}
}

// Snowflakes order by time: a longer id is the later one.
func TestOlderID(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1574705479387447296", "1574705483615305728", true},
		{"1574705483615305728", "1574705479387447296", false},
		{"999999999999999999", "1000000000000000000", true},
		{"1000000000000000000", "999999999999999999", false},
		{"1574705479387447296", "1574705479387447296", false},
	} {
		if got := olderID(c.a, c.b); got != c.want {
			t.Errorf("olderID(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A post answered 403 bars its channel: the next post there fails at once,
// with no request (each 403 counts toward Discord's ban), other channels
// are untouched, and lifting the bar lets posts through again.
func TestForbiddenChannelIsBarred(t *testing.T) {
	var posts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts = append(posts, r.URL.Path)
		if strings.Contains(r.URL.Path, "/channels/1/") {
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"message":"Missing Permissions","code":50013}`)
			return
		}
		io.WriteString(w, `{"id":"9","channel_id":"2"}`)
	}))
	defer srv.Close()
	s, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: newRewrite(srv.URL, http.DefaultTransport)}
	b := &Bot{s: s}
	ctx := context.Background()
	if _, err := b.send(ctx, "1", &discordgo.MessageSend{Content: "a"}, ""); !forbidden(err) {
		t.Fatalf("first post: %v; want the 403", err)
	}
	if _, err := b.send(ctx, "1", &discordgo.MessageSend{Content: "b"}, "n1"); !errors.Is(err, errBarred) || len(posts) != 1 {
		t.Fatalf("second post: %v after %d requests; want errBarred and no request", err, len(posts))
	}
	if id, err := b.send(ctx, "2", &discordgo.MessageSend{Content: "c"}, ""); err != nil || id != "9" {
		t.Fatalf("another channel: %q, %v", id, err)
	}
	b.bars.forget("1")
	if _, err := b.send(ctx, "1", &discordgo.MessageSend{Content: "d"}, ""); !forbidden(err) || len(posts) != 3 {
		t.Fatalf("after the bar was lifted: %v after %d requests", err, len(posts))
	}
}

// Rate-limit buckets are per route: an answer's bucket, empty once the
// answer is made, holds nothing; an empty edit bucket holds the token's
// edits only.
func TestHookBucketsArePerRoute(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", "60")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	s, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: newRewrite(srv.URL, http.DefaultTransport), Timeout: 10 * time.Second}
	b := &Bot{s: s}
	i := &discordgo.Interaction{ID: "1", AppID: "2", Token: "tok"}
	if err := b.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, held := b.limited.when("edit tok"); held || len(b.limited.at) != 0 {
		t.Fatalf("the answer's empty bucket holds %d buckets", len(b.limited.at))
	}
	if err := b.editOriginal(context.Background(), "2", "tok", &discordgo.WebhookEdit{}); err != nil {
		t.Fatal(err)
	}
	until, held := b.limited.when("edit tok")
	if !held || time.Until(until) < 29*time.Second {
		t.Fatalf("after the edit emptied its bucket: held %v until %v", held, until)
	}
	if _, held := b.limited.when("follow-up tok"); held {
		t.Fatal("the edits' bucket holds the follow-ups")
	}
}

// .env.example documents every variable the bot reads.
func TestEnvExampleNamesEveryVariable(t *testing.T) {
	raw, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	example := string(raw)
	read := map[string]bool{"LOCAL_TABLE_ADDR": true} // read by cmd/bot without a token
	ConfigFromEnv(func(key string) string {
		read[key] = true
		return ""
	})
	ConfigFromEnv(func(key string) string { // a token: the settings that need one
		read[key] = true
		if key == "DISCORD_TOKEN" {
			return "x"
		}
		return ""
	})
	if len(read) < 8 {
		t.Fatalf("ConfigFromEnv read only %v", read)
	}
	for key := range read {
		if !strings.Contains(example, "\n"+key+"=") {
			t.Errorf(".env.example has no %s= line", key)
		}
	}
	TuneGC(func(key string) (string, bool) {
		if !strings.Contains(example, key) {
			t.Errorf(".env.example does not mention %s", key)
		}
		return "100", true // as if set: TuneGC then changes nothing in this process
	})
}

// A name escaped for markdown reads as its owner wrote it where Discord
// shows text as is, and the bot's own bold and spoilers are dropped there.
func TestPlainTextUndoesEscapesAndMarkers(t *testing.T) {
	for _, name := range []string{"**Ann", "<@123>", "# Dee `x` ||y|| ~~z~~ _w_ [l](u)", `back\slash`, "cool_guy", "Ann*", "-dash"} {
		if got := plainText(escapeName(name)); got != name {
			t.Errorf("plainText(escapeName(%q)) = %q", name, got)
		}
	}
	for in, want := range map[string]string{
		"🃏 **" + escapeName("**Ann") + "** draws": "🃏 **Ann draws",
		"||hidden|| and __under__ ~~gone~~":       "hidden and under gone",
		"7♥ · Draw Two":                           "7♥ · Draw Two",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}
