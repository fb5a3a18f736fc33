package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// statusErr asserts that err is a REST error with that HTTP status.
func statusErr(t *testing.T, err error, status int) *discordgo.RESTError {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != status {
		t.Fatalf("got error %v, want HTTP %d", err, status)
	}
	return re
}

// reconnecting opens a bot session that reconnects and resumes by itself,
// as the bot's (discordgo's default) does.
func reconnecting(t *testing.T, s *Server, cmds []*discordgo.ApplicationCommand, handlers ...any) *discordgo.Session {
	t.Helper()
	sess := session(s, BotToken)
	sess.ShouldReconnectOnError = true
	for _, h := range handlers {
		sess.AddHandler(h)
	}
	if err := sess.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	// Closed before the fake (cleanups run last first), so that it does not
	// try to reconnect to a server that is gone.
	t.Cleanup(func() { sess.Close() })
	if cmds != nil {
		if _, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmds); err != nil {
			t.Fatalf("registering commands: %v", err)
		}
	}
	return sess
}

// TestRateLimitFault: discordgo waits out an injected 429 and retries; the
// 429 carries Discord's body and headers; a request sent before retry_after
// ran out gets a real 429, counted as invalid.
func TestRateLimitFault(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	s.ResetRESTCounts()

	s.FailNext("POST", RouteMessages, http.StatusTooManyRequests, 2)
	if _, err := sess.ChannelMessageSend(ch, "hello"); err != nil {
		t.Fatalf("discordgo did not get past two 429s: %v", err)
	}
	c := s.RESTCounts()
	if c.Global != 3 || c.Faults != 2 || c.Invalid != 0 || c.Exempt != 0 || c.ByRoute["POST "+RouteMessages] != 3 || s.PendingFaults() != 0 {
		t.Errorf("counts = %+v", c)
	}
	if n := len(s.Messages(ch)); n != 1 {
		t.Errorf("%d messages, want 1", n)
	}

	s.Inject(Fault{Method: "GET", Route: "/users/@me", Status: http.StatusTooManyRequests, RetryAfter: 1500 * time.Millisecond})
	get := func() (*http.Response, map[string]any) {
		req, _ := http.NewRequest("GET", s.APIURL()+"/users/@me", nil)
		req.Header.Set("Authorization", "Bot "+BotToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp, body
	}
	resp, body := get()
	h := resp.Header
	if resp.StatusCode != 429 || h.Get("Retry-After") != "2" || h.Get("X-RateLimit-Remaining") != "0" ||
		h.Get("X-RateLimit-Reset-After") != "1.500" || h.Get("X-RateLimit-Scope") != "user" || h.Get("X-RateLimit-Global") != "" ||
		h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset") == "" {
		t.Errorf("429: status %d, headers %v", resp.StatusCode, h)
	}
	if body["message"] != "You are being rate limited." || body["retry_after"] != 1.5 || body["global"] != false {
		t.Errorf("429 body = %v", body)
	}
	// Too early: Discord answers 429 again, and that one is invalid.
	if resp, _ := get(); resp.StatusCode != 429 || s.RESTCounts().Invalid != 1 {
		t.Errorf("early retry: %d, counts %+v", resp.StatusCode, s.RESTCounts())
	}

	// Without discordgo's retry the caller sees the rate limit.
	s.FailNext("POST", RouteMessages, http.StatusTooManyRequests, 1)
	_, err := sess.ChannelMessageSend(ch, "again", discordgo.WithRetryOnRatelimit(false))
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 50*time.Millisecond {
		t.Errorf("without retries: %v", err)
	}
}

// rawRequest sends a JSON request to the fake as it comes (authorization
// "" for none, as interaction webhooks take) and returns its answer, the
// body read and closed.
func rawRequest(t *testing.T, s *Server, method, path, body, authorization string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, s.APIURL()+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestWebhookLimit: with SetWebhookLimit, each interaction token's webhook
// routes share a bucket; their answers carry its headers, a request beyond
// it is a 429 counted as invalid, and other tokens' buckets are untouched.
func TestWebhookLimit(t *testing.T) {
	t.Parallel()
	s := New(t)
	tokens := make(chan string, 4)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
		tokens <- i.Token
	})
	alice := s.AddUser("Alice")
	ch := s.ChannelID()
	s.SetWebhookLimit(2, time.Hour)
	alice.Command(ch, "ping")
	alice.Command(ch, "ping")
	a, b := <-tokens, <-tokens
	s.ResetRESTCounts()
	edit := func(token string) *http.Response {
		return rawRequest(t, s, "PATCH", "/webhooks/"+s.AppID()+"/"+token+"/messages/@original", `{"content":"edited"}`, "")
	}
	for n, want := range []struct {
		token     string
		status    int
		remaining string
	}{{a, 200, "1"}, {a, 200, "0"}, {a, 429, "0"}, {b, 200, "1"}} {
		r := edit(want.token)
		h := r.Header
		if r.StatusCode != want.status || h.Get("X-RateLimit-Remaining") != want.remaining || h.Get("X-RateLimit-Limit") != "2" ||
			h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset-After") == "" || h.Get("X-RateLimit-Reset-After") == "0.000" {
			t.Errorf("edit %d: status %d, headers %v", n+1, r.StatusCode, h)
		}
	}
	// A follow-up is another route: its bucket is its own.
	req, _ := http.NewRequest("POST", s.APIURL()+"/webhooks/"+s.AppID()+"/"+a, strings.NewReader(`{"content":"more"}`))
	req.Header.Set("Content-Type", "application/json")
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != 200 || r.Header.Get("X-RateLimit-Remaining") != "1" {
		t.Errorf("follow-up after the edits' bucket emptied: %v, %v", r, err)
	} else {
		r.Body.Close()
	}
	if c := s.RESTCounts(); c.Invalid != 1 || c.Exhausted != 1 || c.Exempt != 5 {
		t.Errorf("counts = %+v", c)
	}
	s.SetWebhookLimit(0, 0)
	if r := edit(a); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("without a limit: status %d, headers %v", r.StatusCode, r.Header)
	}
}

// TestGlobalLimit: as Discord does, the fake holds a bot to 50 requests a
// second on the routes the global limit binds; one more within the window
// is a 429 with X-RateLimit-Global, invalid and not counted in; the
// interaction routes stay free; once the window has moved on, requests
// pass again.
func TestGlobalLimit(t *testing.T) {
	t.Parallel()
	if f := New(t); f.globalLimit != DiscordGlobalLimit || f.globalWindow != time.Second {
		t.Fatal("a new fake does not hold bots to Discord's 50 a second")
	}
	s := New(t)
	tokens := make(chan string, 1)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		bs.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong"}})
		tokens <- i.Token
	})
	s.AddUser("Alice").Command(s.ChannelID(), "ping")
	token := <-tokens
	s.SetGlobalLimit(3, time.Hour)
	s.ResetRESTCounts()
	post := func() *http.Response {
		return rawRequest(t, s, "POST", "/channels/"+s.ChannelID()+"/messages", `{"content":"hi"}`, "Bot "+BotToken)
	}
	for n := range 3 {
		if r := post(); r.StatusCode != 200 {
			t.Fatalf("post %d within the limit: %d", n+1, r.StatusCode)
		}
	}
	for range 2 {
		r := post()
		if h := r.Header; r.StatusCode != 429 || h.Get("X-RateLimit-Global") != "true" || h.Get("X-RateLimit-Scope") != "global" {
			t.Fatalf("a post past the limit: %d, headers %v", r.StatusCode, h)
		}
	}
	if r := rawRequest(t, s, "PATCH", "/webhooks/"+s.AppID()+"/"+token+"/messages/@original", `{"content":"edited"}`, ""); r.StatusCode != 200 {
		t.Fatalf("an interaction route under the global limit: %d", r.StatusCode)
	}
	if c := s.RESTCounts(); c.GlobalLimited != 2 || c.Invalid != 2 || c.Global != 5 || c.Exempt != 1 {
		t.Fatalf("counts = %+v", c)
	}
	s.Advance(time.Hour)
	if r := post(); r.StatusCode != 200 {
		t.Fatalf("a post once the window moved on: %d", r.StatusCode)
	}
	s.SetGlobalLimit(0, 0)
	for range 10 {
		if r := post(); r.StatusCode != 200 {
			t.Fatalf("without a limit: %d", r.StatusCode)
		}
	}
}

// TestServerErrorFaults: 500 and 503 reach the caller with Discord's JSON
// body and change nothing; discordgo retries a 502 by itself; any route can
// fail, including edits of one channel only.
func TestServerErrorFaults(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	other := s.NewChannel("other")

	s.FailNext("POST", RouteMessages, 500, 1)
	_, err := sess.ChannelMessageSend(ch, "lost")
	re := statusErr(t, err, 500)
	if re.Message == nil || re.Message.Message != "500: Internal Server Error" || len(s.Messages(ch)) != 0 {
		t.Errorf("500: %s, messages %d", re.ResponseBody, len(s.Messages(ch)))
	}
	s.FailNext("", RouteMessages, 502, 2)
	if _, err := sess.ChannelMessageSend(ch, "through"); err != nil || len(s.Messages(ch)) != 1 {
		t.Errorf("discordgo did not retry the 502s: %v", err)
	}
	m, _ := sess.ChannelMessageSend(other, "table")
	s.FailNext("PATCH", "/channels/"+ch+"/messages/{message}", 503, 1) // another channel: not hit
	if _, err := sess.ChannelMessageEdit(other, m.ID, "table, edited"); err != nil || s.PendingFaults() != 1 {
		t.Fatalf("edit in another channel: %v (pending %d)", err, s.PendingFaults())
	}
	mine := s.Messages(ch)[0]
	_, err = sess.ChannelMessageEdit(ch, mine.ID, "edited")
	statusErr(t, err, 503)
	if got := s.Message(ch, mine.ID); got.Content != "through" || got.Edits != 0 {
		t.Errorf("a failed edit changed the message: %+v", got)
	}
	if c := s.RESTCounts(); c.Faults != 4 {
		t.Errorf("counts = %+v", c)
	}
}

// TestLostResponseRetry: the retry of a request whose response was lost
// meets the applied state (404 for a deleted message) without failing the
// test; the same refusal for another request still fails it.
func TestLostResponseRetry(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	m, _ := sess.ChannelMessageSend(ch, "old table")
	s.FailNextAfter("DELETE", RouteMessage, 502, 1) // discordgo retries the 502 at once
	restErr(t, sess.ChannelMessageDelete(ch, m.ID), 10008)
	if len(s.Messages(ch)) != 0 || len(s.Failures()) != 0 {
		t.Errorf("messages %v, failures %v", s.Messages(ch), s.Failures())
	}
	s.ExpectFailure("404 Unknown Message")
	restErr(t, sess.ChannelMessageDelete(ch, "12345"), 10008)
}

// TestCallbackFaults: a 500 on the interaction callback means Discord did not
// record it: the bot's retry is the one callback and the user gets its
// answer. A bot that does not retry leaves a failed interaction, which is
// counted and does not fail the test. The deadline applies to the first
// successful callback. A lost response (After) has the callback recorded: a
// retry is refused with 40060, which does not fail the test either.
func TestCallbackFaults(t *testing.T) {
	t.Parallel()
	s := New(t)
	var retries int
	var delay time.Duration
	errs := make(chan error, 10)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		answer := func() error {
			return respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
		}
		err := answer()
		for n := 0; err != nil && n < retries; n++ {
			errs <- err
			time.Sleep(delay) // a slow retry
			err = answer()
		}
		errs <- err
	})
	alice := s.AddUser("Alice")
	ch := s.ChannelID()
	s.ResetRESTCounts()

	retries = 1
	s.FailNext("POST", RouteCallback, 500, 1)
	r := alice.Command(ch, "ping")
	statusErr(t, <-errs, 500)
	if err := <-errs; err != nil || r.Content != "pong" || len(s.FailedInteractions()) != 0 {
		t.Fatalf("retried callback: %v, reply %+v, failed %v", err, r, s.FailedInteractions())
	}
	if c := s.RESTCounts(); c.Exempt != 2 || c.Global != 0 || c.Faults != 1 {
		t.Errorf("counts = %+v", c)
	}

	retries = 0
	s.SetInteractionDeadline(300 * time.Millisecond)
	s.FailNext("POST", RouteCallback, 503, 1)
	if r := alice.Command(ch, "ping"); r == nil || r.Type != 0 || r.Message != nil {
		t.Errorf("unanswered: %+v", r)
	}
	statusErr(t, <-errs, 503)
	f := s.FailedInteractions()
	if len(f) != 1 || !f[0].Faulted || f[0].UserID != alice.ID || f[0].Action != "/ping" || !strings.Contains(f[0].Reason, "no response") {
		t.Errorf("failed interactions = %+v", f)
	}

	// The retry comes after the deadline: too late, however the first try went.
	retries, delay = 1, 400*time.Millisecond
	s.FailNext("POST", RouteCallback, 500, 1)
	if r := alice.Command(ch, "ping"); r.Type != 0 {
		t.Errorf("late retry answered: %+v", r)
	}
	statusErr(t, <-errs, 500)
	restErr(t, <-errs, 10062)
	if n := len(s.FailedInteractions()); n != 2 {
		t.Errorf("%d failed interactions, want 2", n)
	}

	retries, delay = 1, 0
	s.SetInteractionDeadline(discordgo.InteractionDeadline)
	s.FailNextAfter("POST", RouteCallback, 500, 1)
	r = alice.Command(ch, "ping")
	statusErr(t, <-errs, 500)
	restErr(t, <-errs, 40060)
	if r.Content != "pong" || len(s.Messages(ch)) != 2 {
		t.Errorf("lost callback response: reply %+v, %d messages", r, len(s.Messages(ch)))
	}
	if len(s.Failures()) != 0 {
		t.Errorf("failures = %v", s.Failures())
	}
}

// TestNonceAndLostResponse: a message create whose response was lost
// (After) was applied; retrying it with the same nonce and enforce_nonce
// returns that message instead of a duplicate. Without enforce_nonce the
// retry duplicates it, which Duplicates reports.
func TestNonceAndLostResponse(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	type sent struct{ ID, Nonce string }
	send := func(body map[string]any) (*sent, error) {
		raw, err := sess.Request("POST", discordgo.EndpointChannelMessages(ch), body)
		if err != nil {
			return nil, err
		}
		var m struct {
			ID    string `json:"id"`
			Nonce any    `json:"nonce"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return &sent{m.ID, fmt.Sprint(m.Nonce)}, nil
	}

	s.FailNextAfter("POST", RouteMessages, 500, 1)
	round := map[string]any{"content": "Round 2", "nonce": "game-7-round-2", "enforce_nonce": true}
	_, err := send(round)
	statusErr(t, err, 500)
	again, err := send(round)
	if err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages(ch)
	if len(msgs) != 1 || again.ID != msgs[0].ID || again.Nonce != "game-7-round-2" || msgs[0].Nonce != "game-7-round-2" {
		t.Fatalf("retry with enforce_nonce: %+v; messages %+v", again, msgs)
	}
	if d := s.Duplicates(ch); len(d) != 0 {
		t.Errorf("duplicates = %+v", d)
	}

	s.FailNextAfter("POST", RouteMessages, 0, 1)
	_, err = send(map[string]any{"content": "Round 3", "nonce": 3})
	statusErr(t, err, 500)
	if m, err := send(map[string]any{"content": "Round 3", "nonce": 3}); err != nil || m.Nonce != "3" {
		t.Fatalf("integer nonce: %+v, %v", m, err)
	}
	if d := s.Duplicates(ch); len(d) != 1 || d[0].Content != "Round 3" || d[0].ID != s.Messages(ch)[2].ID {
		t.Errorf("duplicates = %+v", d)
	}

	// The nonce is remembered for a few minutes only.
	s.Advance(3 * time.Minute)
	if m, err := send(round); err != nil || m.ID == msgs[0].ID {
		t.Errorf("a nonce minutes old still deduplicated: %+v, %v", m, err)
	}

	s.ExpectFailure("nonce: Must be 25 or fewer in length.")
	_, err = send(map[string]any{"content": "x", "nonce": strings.Repeat("n", 26)})
	restErr(t, err, 50035)
	s.ExpectFailure(`nonce: Value "1.5" is not int.`)
	_, err = send(map[string]any{"content": "x", "nonce": 1.5})
	restErr(t, err, 50035)
	s.ExpectFailure("nonce: Must be an integer or a string.")
	_, err = send(map[string]any{"content": "x", "nonce": true})
	restErr(t, err, 50035)
}

// TestRandomFaultsAreSeeded: the same seed and the same requests give the
// same faults; only the chosen routes fail.
func TestRandomFaultsAreSeeded(t *testing.T) {
	t.Parallel()
	run := func() (string, RESTCounts, int) {
		s := New(t)
		sess := connect(t, s, nil)
		ch := s.ChannelID()
		s.ResetRESTCounts()
		s.Faults(Faults{Seed: 7, RateLimit: 0.1, ServerError: 0.2, BadGateway: 0.1, LostResponse: 0.1, Routes: []string{"POST " + RouteMessages}})
		var pattern strings.Builder
		for i := range 30 {
			if _, err := sess.ChannelMessageSend(ch, fmt.Sprint("message ", i)); err != nil {
				statusErr(t, err, 500)
				pattern.WriteByte('x')
			} else {
				pattern.WriteByte('.')
			}
			if _, err := sess.User("@me"); err != nil {
				t.Fatalf("a route outside Routes failed: %v", err)
			}
		}
		s.Faults(Faults{})
		return pattern.String(), s.RESTCounts(), len(s.Messages(ch))
	}
	p1, c1, n1 := run()
	p2, c2, n2 := run()
	if p1 != p2 || c1.Faults != c2.Faults || n1 != n2 {
		t.Errorf("runs differ: %s (%d faults, %d messages) vs %s (%d faults, %d messages)", p1, c1.Faults, n1, p2, c2.Faults, n2)
	}
	if !strings.Contains(p1, "x") || !strings.Contains(p1, ".") || c1.Faults <= strings.Count(p1, "x") {
		t.Errorf("pattern %s with %d faults: want some of each kind", p1, c1.Faults)
	}
	// Lost responses were applied: more messages than successes.
	if n1 <= strings.Count(p1, ".") {
		t.Errorf("%d messages for %d successes: no lost response was applied", n1, strings.Count(p1, "."))
	}
	if c1.ByRoute["GET /users/@me"] != 30 || c1.Invalid != 0 {
		t.Errorf("counts = %+v", c1)
	}
}

// TestRESTCountsByClass: interaction routes are exempt from the global rate
// limit, everything else counts against it; 401 and 403 are invalid
// requests, 404 is counted apart.
func TestRESTCountsByClass(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseDeferredChannelMessageWithSource, nil)
		content := "done"
		bs.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
		bs.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "more"})
	})
	ch := s.ChannelID()
	s.ResetRESTCounts()
	s.AddUser("Alice").Command(ch, "ping")
	sess.ChannelMessageSend(ch, "hi")
	s.ExpectFailure("Unknown Message")
	sess.ChannelMessage(ch, "1")
	s.ExpectFailure("Missing Access")
	sess.Guild("1")
	s.ExpectFailure("401: Unauthorized")
	session(s, "nope").User("@me")
	want := RESTCounts{Global: 4, Exempt: 3, Invalid: 2, NotFound: 1}
	c := s.RESTCounts()
	if c.Global != want.Global || c.Exempt != want.Exempt || c.Invalid != want.Invalid || c.NotFound != want.NotFound || c.Faults != 0 {
		t.Errorf("counts = %+v, want %+v", c, want)
	}
	if c.ByRoute["POST "+RouteCallback] != 1 || c.ByRoute["PATCH "+RouteWebhookMessage] != 1 || c.ByRoute["POST "+RouteWebhook] != 1 {
		t.Errorf("by route = %v", c.ByRoute)
	}
}

// TestReconnectResumesAndReplays: after op 7 the bot reconnects and resumes;
// what was dispatched meanwhile is replayed, in order, once.
func TestReconnectResumesAndReplays(t *testing.T) {
	t.Parallel()
	s := New(t)
	var created []string
	resumed := 0
	reconnecting(t, s, nil,
		func(_ *discordgo.Session, c *discordgo.ChannelCreate) { created = append(created, c.Name) },
		func(_ *discordgo.Session, _ *discordgo.Resumed) { resumed++ })
	s.Sync()
	s.Reconnect()
	s.NewChannel("one")
	s.NewChannel("two")
	if !s.AwaitConnected() {
		return
	}
	s.NewChannel("three")
	s.Sync()
	if strings.Join(created, " ") != "one two three" || resumed != 1 {
		t.Errorf("created %v, resumed %d", created, resumed)
	}
	if g := s.GatewayStats(); g.Identifies != 1 || g.Resumes != 1 || g.Connections != 1 {
		t.Errorf("gateway stats = %+v", g)
	}
}

// TestDropSocketsResumesAndAnswers: an interaction that arrives while the
// connection is down waits in the session's buffer; the bot resumes, gets
// it and answers within the deadline.
func TestDropSocketsResumesAndAnswers(t *testing.T) {
	t.Parallel()
	s := New(t)
	reconnecting(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
	})
	s.Sync()
	s.DropSockets()
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r.Content != "pong" {
		t.Errorf("reply = %+v", r)
	}
	s.AwaitConnected()
	if g := s.GatewayStats(); g.Identifies != 1 || g.Resumes != 1 || len(s.FailedInteractions()) != 0 {
		t.Errorf("gateway stats = %+v, failed %v", g, s.FailedInteractions())
	}
}

// TestInteractionWhileDisconnected: a bot that does not come back leaves
// the user with "This interaction failed": Command returns an empty reply
// after the deadline, and the failure is counted, not a test failure.
func TestInteractionWhileDisconnected(t *testing.T) {
	t.Parallel()
	s := New(t)
	s.SetInteractionDeadline(200 * time.Millisecond)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
	})
	s.Sync()
	s.DropSockets() // this session does not reconnect
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r == nil || r.Type != 0 {
		t.Errorf("reply = %+v", r)
	}
	if f := s.FailedInteractions(); len(f) != 1 || !f[0].Faulted {
		t.Errorf("failed interactions = %+v", f)
	}
}

// TestInvalidSession: after op 9 the bot identifies afresh, whether or not
// the session was resumable (discordgo always does).
func TestInvalidSession(t *testing.T) {
	t.Parallel()
	s := New(t)
	ready := 0
	reconnecting(t, s, []*discordgo.ApplicationCommand{pingCmd},
		func(_ *discordgo.Session, _ *discordgo.Ready) { ready++ },
		func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
		})
	s.Sync()
	s.InvalidSession(false)
	s.AwaitConnected()
	s.InvalidSession(true)
	s.AwaitConnected()
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r.Content != "pong" {
		t.Errorf("reply = %+v", r)
	}
	if g := s.GatewayStats(); g.Identifies != 3 || g.Resumes != 0 || ready != 3 {
		t.Errorf("gateway stats = %+v, %d READY", g, ready)
	}
}

// TestResumeProtocol drives the gateway by hand: RESUME replays every
// dispatch after the given sequence number with its original number, then
// RESUMED; an invalidated session cannot be resumed (op 9, d: false), and a
// fresh IDENTIFY starts over at 1 without what was missed.
func TestResumeProtocol(t *testing.T) {
	t.Parallel()
	s := New(t)
	dial := func() *websocket.Conn {
		ws, _, err := websocket.DefaultDialer.Dial(s.gatewayURL()+"?v=10&encoding=json", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		readPayload(t, ws) // HELLO
		return ws
	}
	identify := map[string]any{"op": 2, "d": map[string]any{"token": "Bot " + BotToken, "intents": discordgo.IntentsGuilds,
		"properties": map[string]string{"os": "linux", "browser": "test", "device": "test"}}}
	ws := dial()
	ws.WriteJSON(identify)
	ready := readPayload(t, ws)
	var r struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(ready.D, &r)
	if ready.T != "READY" || ready.S != 1 || r.SessionID == "" {
		t.Fatalf("first dispatch = %+v", ready)
	}
	if g := readPayload(t, ws); g.T != "GUILD_CREATE" || g.S != 2 {
		t.Fatalf("second dispatch = %+v", g)
	}

	s.DropSockets()
	s.NewChannel("a")
	s.NewChannel("b")
	ws = dial()
	ws.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot " + BotToken, "session_id": r.SessionID, "seq": 1}})
	var got []string
	for range 4 {
		p := readPayload(t, ws)
		got = append(got, fmt.Sprint(p.T, ":", p.S))
	}
	if want := "GUILD_CREATE:2 CHANNEL_CREATE:3 CHANNEL_CREATE:4 RESUMED:5"; strings.Join(got, " ") != want {
		t.Errorf("after RESUME: %s, want %s", strings.Join(got, " "), want)
	}

	s.InvalidSession(false)
	if p := readPayload(t, ws); p.Op != 9 || string(p.D) != "false" {
		t.Fatalf("op 9 = %+v", p)
	}
	s.NewChannel("lost") // no session: nobody gets it
	ws = dial()
	ws.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot " + BotToken, "session_id": r.SessionID, "seq": 5}})
	if p := readPayload(t, ws); p.Op != 9 || string(p.D) != "false" {
		t.Fatalf("resuming an invalidated session: %+v", p)
	}
	ws.WriteJSON(identify)
	if p := readPayload(t, ws); p.T != "READY" || p.S != 1 {
		t.Fatalf("identify after op 9: %+v", p)
	}
	if p := readPayload(t, ws); p.T != "GUILD_CREATE" || p.S != 2 || !strings.Contains(string(p.D), `"name":"lost"`) {
		t.Fatalf("GUILD_CREATE = %+v", p)
	}
	if g := s.GatewayStats(); g.Identifies != 2 || g.Resumes != 1 || g.RefusedResumes != 1 {
		t.Errorf("gateway stats = %+v", g)
	}
}

type rawPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int             `json:"s"`
	T  string          `json:"t"`
}

func readPayload(t *testing.T, ws *websocket.Conn) rawPayload {
	t.Helper()
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, data, err := ws.ReadMessage()
	if err != nil {
		t.Fatalf("reading the gateway: %v", err)
	}
	var p rawPayload
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// A body cut short (its sender killed mid-request) is no request: Discord
// never sees it, so it is no failure of the bot's; a whole body that is not
// JSON is one.
func TestBodyCutShortIsNoRequest(t *testing.T) {
	s := New(t)
	ch := s.ChannelID()
	post := func(body io.Reader, length int64) int {
		req := httptest.NewRequest("POST", "/api/v10/channels/"+ch+"/messages", body)
		req.ContentLength = length
		req.Header.Set("Authorization", "Bot "+BotToken)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.srv.Config.Handler.ServeHTTP(w, req)
		return w.Code
	}
	post(io.MultiReader(strings.NewReader(`{"content":"hel`), iotest.ErrReader(io.ErrUnexpectedEOF)), 20)
	if f := s.Failures(); len(f) != 0 || len(s.Messages(ch)) != 0 {
		t.Errorf("a body cut short: failures %v, messages %v", f, s.Messages(ch))
	}
	s.ExpectFailure("invalid JSON")
	if code := post(strings.NewReader(`{"content":"hel`), 15); code != http.StatusBadRequest || len(s.Failures()) != 1 {
		t.Errorf("a whole body of bad JSON: %d, failures %v", code, s.Failures())
	}
}
