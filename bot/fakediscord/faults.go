package fakediscord

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// REST faults.
//
// A fault answers a REST request with 429 or a 5xx instead of what the fake
// would have answered. Faults are scheduled (Inject, FailNext: the next n
// matching requests) or drawn at random for soak tests (Faults); scheduled
// ones take precedence. Where it happens relative to the request matters, and
// both places are modelled:
//
//   - Before (the default, and always for 429): the request fails before the
//     fake applies it, so nothing changes. A failed interaction callback is not
//     recorded: the bot may send it again, that retry is the "one callback",
//     and the 3 s deadline applies to it.
//   - After: the fake applies the request (creates the message, records the
//     callback, …) and then answers with the error, as when a response is lost
//     on its way back. A retry meets the applied state: a second callback is
//     refused with 40060, a second message create makes a duplicate unless
//     enforce_nonce deduplicates it. Refusals of a retry of a request whose
//     response the fake lost are Discord's normal answers and are counted,
//     but they do not fail the test.
//
// An interaction whose callback a fault broke, or that was pending or
// dispatched while a gateway fault had the bot disconnected, and that never
// got a callback in time, is recorded in FailedInteractions instead of
// failing the test.

// Phase says whether a fault happens before or after the fake applies the
// request.
type Phase int

const (
	// Before: the request is not applied.
	Before Phase = iota
	// After: the request is applied, but the response is the error.
	After
)

func (p Phase) String() string {
	if p == After {
		return "after"
	}
	return "before"
}

// Route patterns for faults and RESTCounts.ByRoute. A pattern's {name}
// segments (or *) match any one path segment; literal segments, such as a
// channel ID, match only themselves. The /api/vN prefix is optional.
const (
	RouteCallback       = "/interactions/{id}/{token}/callback"
	RouteMessages       = "/channels/{channel}/messages"
	RouteMessage        = "/channels/{channel}/messages/{message}"
	RouteWebhook        = "/webhooks/{app}/{token}"
	RouteWebhookMessage = "/webhooks/{app}/{token}/messages/{message}"
	RouteReactionMe     = "/channels/{channel}/messages/{message}/reactions/{emoji}/@me"
)

// Fault is one scheduled REST fault.
type Fault struct {
	Method string // "" or "*": any method
	Route  string // a route pattern (see RouteMessages); "": any route
	Status int    // 429, 500, 502, 503 or 504
	Phase  Phase  // Before or After; 429 is always Before
	Times  int    // how many matching requests fail; 0 means 1

	// For 429: the retry_after to announce (default 50 ms), and whether it is
	// the global rate limit (X-RateLimit-Global) rather than the route's.
	RetryAfter time.Duration
	Global     bool
}

// Faults configures random REST faults for soak tests: each REST request
// matching Routes draws, from a generator seeded with Seed, a 429 with
// probability RateLimit, else a 500 before the request is applied with
// probability ServerError, else a 502 (which discordgo retries by itself)
// with probability BadGateway, else a 500 after the request is applied
// (a lost response) with probability LostResponse. The sequence of draws is
// fixed by the seed; which request gets which draw depends on the order in
// which they arrive.
type Faults struct {
	Seed                                             uint64
	RateLimit, ServerError, BadGateway, LostResponse float64
	RetryAfter                                       time.Duration // for 429s; default 50 ms

	// Routes limits the faults to these patterns, each "METHOD /pattern" or
	// "/pattern". Empty means every REST route except the gateway lookup
	// (GET /gateway, /gateway/bot), which discordgo needs to connect at all.
	Routes []string
}

const defaultRetryAfter = 50 * time.Millisecond

// Inject schedules a fault for the next f.Times REST requests that match.
func (s *Server) Inject(f Fault) {
	switch {
	case f.Status != http.StatusTooManyRequests && (f.Status < 500 || f.Status > 504):
		s.t.Fatalf("fakediscord: Inject: status %d; a fault is 429, 500, 502, 503 or 504", f.Status)
	case f.Status == http.StatusTooManyRequests && f.Phase == After:
		s.t.Fatalf("fakediscord: Inject: a 429 is never applied; use Before")
	}
	if f.Times <= 0 {
		f.Times = 1
	}
	if f.RetryAfter <= 0 {
		f.RetryAfter = defaultRetryAfter
	}
	f.Route = apiPath(f.Route)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scheduled = append(s.scheduled, &f)
}

// hold is a request to keep waiting, before it is applied, until released.
type hold struct {
	method, route string
	held, release chan struct{}
}

// Hold makes the next request matching method and route (see RouteMessages
// for patterns) that no fault answers wait, before it is applied, until
// release is called; held is closed once it waits. It lets a test apply
// other requests while one is in flight, as the network may reorder them.
// A request its client gives up on while held is never applied.
func (s *Server) Hold(method, route string) (held <-chan struct{}, release func()) {
	h := &hold{method: method, route: apiPath(route), held: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holds = append(s.holds, h)
	var once sync.Once
	return h.held, func() { once.Do(func() { close(h.release) }) }
}

// holdLocked takes the hold the request matches, if any.
func (s *Server) holdLocked(method, path string) *hold {
	for i, h := range s.holds {
		if methodMatches(h.method, method) && routeMatches(h.route, path) {
			s.holds = slices.Delete(s.holds, i, i+1)
			return h
		}
	}
	return nil
}

// FailNext makes the next n REST requests matching method and route (see
// RouteMessages for patterns) fail with status before they are applied:
// 500, 502, 503 or 504 with Discord's JSON error body, or 429 with a rate
// limit body (retry_after 0.05) and Retry-After and X-RateLimit-* headers.
// discordgo retries 429 (after retry_after) and 502 (up to MaxRestRetries)
// by itself; 500 and 503 reach the caller.
func (s *Server) FailNext(method, route string, status, n int) {
	s.Inject(Fault{Method: method, Route: route, Status: status, Times: n})
}

// FailNextAfter makes the next n matching requests be applied but answered
// with status (500 if 0), as when the response is lost on its way back.
func (s *Server) FailNextAfter(method, route string, status, n int) {
	if status == 0 {
		status = http.StatusInternalServerError
	}
	s.Inject(Fault{Method: method, Route: route, Status: status, Phase: After, Times: n})
}

// PendingFaults tells how many scheduled fault responses have not happened
// yet, so a test can check that its faults were hit.
func (s *Server) PendingFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.scheduled {
		n += f.Times
	}
	return n
}

// Faults switches random REST faults on, replacing any earlier setting;
// Faults(Faults{}) switches them off. Scheduled faults are not affected.
func (s *Server) Faults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.RateLimit+f.ServerError+f.BadGateway+f.LostResponse <= 0 {
		s.random, s.rng = nil, nil
		return
	}
	if f.RetryAfter <= 0 {
		f.RetryAfter = defaultRetryAfter
	}
	f.Routes = slices.Clone(f.Routes)
	s.random = &f
	s.rng = rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15))
}

// SetInteractionDeadline changes how long the bot has to answer an
// interaction (Discord: 3 s), e.g. to make deliberately failed interactions
// fail faster. It applies to interactions dispatched afterwards.
func (s *Server) SetInteractionDeadline(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deadline = d
}

// apiPath strips the /api/vN prefix and any query from a path or pattern.
func apiPath(p string) string {
	p, _, _ = strings.Cut(p, "?")
	for _, prefix := range apiPrefixes {
		if rest, ok := strings.CutPrefix(p, prefix); ok && (rest == "" || rest[0] == '/') {
			return rest
		}
	}
	return p
}

// routeMatches matches a request path (without the /api/vN prefix) against
// a pattern.
func routeMatches(pattern, path string) bool {
	if pattern == "" {
		return true
	}
	ps, xs := strings.Split(strings.Trim(pattern, "/"), "/"), strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return false
	}
	for i, p := range ps {
		if p != "*" && !(strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}")) && p != xs[i] {
			return false
		}
	}
	return true
}

func methodMatches(want, got string) bool {
	return want == "" || want == "*" || strings.EqualFold(want, got)
}

// faultLocked picks the fault, if any, for a request: the first scheduled
// one that matches, else a random draw.
func (s *Server) faultLocked(method, path string) *Fault {
	for i, f := range s.scheduled {
		if methodMatches(f.Method, method) && routeMatches(f.Route, path) {
			f.Times--
			if f.Times == 0 {
				s.scheduled = slices.Delete(s.scheduled, i, i+1)
			}
			return f
		}
	}
	rf := s.random
	if rf == nil {
		return nil
	}
	matched := len(rf.Routes) == 0 && path != "/gateway" && path != "/gateway/bot"
	for _, r := range rf.Routes {
		m, p, ok := strings.Cut(r, " ")
		if !ok {
			m, p = "", r
		}
		if methodMatches(m, method) && routeMatches(apiPath(p), path) {
			matched = true
		}
	}
	if !matched {
		return nil
	}
	x := s.rng.Float64()
	f := &Fault{RetryAfter: rf.RetryAfter}
	switch {
	case x < rf.RateLimit:
		f.Status = http.StatusTooManyRequests
	case x < rf.RateLimit+rf.ServerError:
		f.Status = http.StatusInternalServerError
	case x < rf.RateLimit+rf.ServerError+rf.BadGateway:
		f.Status = http.StatusBadGateway
	case x < rf.RateLimit+rf.ServerError+rf.BadGateway+rf.LostResponse:
		f.Status, f.Phase = http.StatusInternalServerError, After
	default:
		return nil
	}
	return f
}

var statusMessages = map[int]string{
	500: "500: Internal Server Error",
	502: "502: Bad Gateway",
	503: "503: Service Unavailable",
	504: "504: Gateway Timeout",
}

// rateLimitBody is Discord's 429 body (RatelimitedResponse).
type rateLimitBody struct {
	Message    string  `json:"message"`
	RetryAfter float64 `json:"retry_after"`
	Global     bool    `json:"global"`
	Code       int     `json:"code"`
}

// answerFault writes a fault's response, and for a 429 blocks the route (or,
// for a global one, every route bound by the global limit) for retry_after.
func (c *call) answerFault(f *Fault) {
	s := c.s
	s.counts.Faults++
	s.logLocked("fakediscord: injected fault: %s answered %d (%s)", c.describe(), f.Status, f.Phase)
	if f.Status != http.StatusTooManyRequests {
		c.reply(f.Status, apiError{Message: statusMessages[f.Status], Code: 0})
		return
	}
	until := time.Now().Add(f.RetryAfter)
	if f.Global {
		s.globalUntil = until
	} else {
		s.limitedUntil[c.limitKey()] = until
	}
	c.rateLimited(f.RetryAfter, f.Global)
}

// rateLimited answers 429 with Discord's headers and body.
func (c *call) rateLimited(retry time.Duration, global bool) {
	secs := retry.Seconds()
	h := c.w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	if global {
		// As Discord's example global 429: no route headers, so a client
		// that waits only on Reset-After goes on sending elsewhere.
		for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
			h.Del(k)
		}
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
		c.reply(http.StatusTooManyRequests, rateLimitBody{Message: "You are being rate limited.", RetryAfter: secs, Global: true})
		return
	}
	if h.Get("X-RateLimit-Limit") == "" {
		h.Set("X-RateLimit-Limit", "5")
	}
	h.Set("X-RateLimit-Remaining", "0")
	reset := float64(time.Now().Add(retry).UnixMilli()) / 1000
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	if h.Get("X-RateLimit-Bucket") == "" {
		h.Set("X-RateLimit-Bucket", fmt.Sprintf("%016x", hashString(c.r.Method+" "+c.pattern)))
	}
	h.Set("X-RateLimit-Scope", "user")
	c.reply(http.StatusTooManyRequests, rateLimitBody{Message: "You are being rate limited.", RetryAfter: secs})
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// limitKey is the rate limit bucket of a request: its method and path.
func (c *call) limitKey() string { return c.r.Method + " " + c.path }

// retryKey identifies a request and its retries: method, path and body.
func (c *call) retryKey() string {
	return fmt.Sprintf("%s %s %016x", c.r.Method, c.path, hashString(string(c.body)))
}

// stillLimitedLocked answers a request sent before the retry_after of an
// earlier 429 ran out with a real 429, as Discord does. It counts as an
// invalid request.
func (c *call) stillLimitedLocked() bool {
	s := c.s
	now := time.Now()
	global := !c.exempt() && now.Before(s.globalUntil)
	until, ok := s.limitedUntil[c.limitKey()]
	if !global && (!ok || !now.Before(until)) {
		return false
	}
	if global {
		until = s.globalUntil
	}
	s.logLocked("fakediscord: %s sent %v before the rate limit's retry_after ran out: 429", c.describe(), until.Sub(now).Round(time.Millisecond))
	c.rateLimited(until.Sub(now), global)
	return true
}

// SetWebhookLimit gives each method on each webhook token (an
// interaction's follow-ups, its @original edits) a bucket of n requests per
// window, as Discord limits each route of a webhook: every answer there
// carries the bucket's X-RateLimit-* headers, and a request beyond it is
// answered 429, an invalid request. n = 0 (the default) lifts the limit.
func (s *Server) SetWebhookLimit(n int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.limitHasWindow("SetWebhookLimit", n, window) {
		return
	}
	s.hookLimit, s.hookWindow = n, window
	clear(s.hookBuckets)
}

// DiscordGlobalLimit is how many requests a second Discord lets a bot make
// on every route but the interaction ones, all its shards together.
const DiscordGlobalLimit = 50

// SetGlobalLimit holds the bot to n requests per window on the routes the
// global limit binds, counted over a sliding window: one more is answered
// 429 with X-RateLimit-Global, an invalid request, and is not counted in.
// New sets Discord's 50 a second; n = 0 lifts the limit.
func (s *Server) SetGlobalLimit(n int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.limitHasWindow("SetGlobalLimit", n, window) {
		return
	}
	s.globalLimit, s.globalWindow, s.globalSent = n, window, nil
}

// limitHasWindow fails the test that sets a limit of n with no window.
func (s *Server) limitHasWindow(setter string, n int, window time.Duration) bool {
	if n > 0 && window <= 0 {
		s.t.Fatalf("fakediscord: %s(%d, %v): a limit needs a window", setter, n, window)
		return false
	}
	return true
}

// globalLimitLocked answers 429 for a request beyond the global limit;
// else it counts the request in. It reports whether it answered.
func (c *call) globalLimitLocked() bool {
	s := c.s
	if s.globalLimit <= 0 || c.exempt() {
		return false
	}
	now := s.nowLocked()
	old := 0
	for old < len(s.globalSent) && !now.Before(s.globalSent[old].Add(s.globalWindow)) {
		old++
	}
	s.globalSent = s.globalSent[old:]
	if len(s.globalSent) >= s.globalLimit {
		retry := s.globalSent[0].Add(s.globalWindow).Sub(now)
		s.counts.GlobalLimited++
		s.logLocked("fakediscord: %s would be request %d within %v against the global limit of %d: 429", c.describe(), len(s.globalSent)+1, s.globalWindow, s.globalLimit)
		c.rateLimited(retry, true)
		return true
	}
	s.globalSent = append(s.globalSent, now)
	return false
}

// hookBucket is one webhook token's requests in its current window.
type hookBucket struct {
	reset time.Time
	used  int
}

// hookBucketLocked answers 429 for a webhook request beyond its token's
// bucket; else it spends one request and sets the bucket's headers on the
// answer to come. It reports whether it answered.
func (c *call) hookBucketLocked() bool {
	s := c.s
	if s.hookLimit <= 0 || !strings.HasPrefix(c.path, "/webhooks/") {
		return false
	}
	parts := strings.SplitN(c.path, "/", 5) // "", "webhooks", app, token, rest
	if len(parts) < 4 {
		return false
	}
	key := c.r.Method + " " + strings.Join(parts[:4], "/")
	now := time.Now()
	b := s.hookBuckets[key]
	if b == nil || !now.Before(b.reset) {
		if len(s.hookBuckets) > 4096 { // forget windows long over
			for k, old := range s.hookBuckets {
				if !now.Before(old.reset) {
					delete(s.hookBuckets, k)
				}
			}
		}
		b = &hookBucket{reset: now.Add(s.hookWindow)}
		s.hookBuckets[key] = b
	}
	if b.used >= s.hookLimit {
		s.logLocked("fakediscord: %s sent with its webhook's bucket empty for %v more: 429", c.describe(), b.reset.Sub(now).Round(time.Millisecond))
		c.limitHeaders(key, 0, b.reset.Sub(now))
		c.rateLimited(b.reset.Sub(now), false)
		return true
	}
	b.used++
	c.limitHeaders(key, s.hookLimit-b.used, b.reset.Sub(now))
	if b.used == s.hookLimit {
		s.counts.Exhausted++
	}
	return false
}

// limitHeaders sets a bucket's X-RateLimit-* headers on the answer.
func (c *call) limitHeaders(key string, remaining int, resetAfter time.Duration) {
	h := c.w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(c.s.hookLimit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(resetAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter.Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", fmt.Sprintf("%016x", hashString(key)))
}

// exempt tells whether a request is one of the interaction routes that
// Discord does not count against the bot's global rate limit.
func (c *call) exempt() bool {
	return strings.HasPrefix(c.path, "/interactions/") || strings.HasPrefix(c.path, "/webhooks/")
}

// markFaultedLocked notes that a fault hit an interaction's callback: if the
// interaction then fails, it is counted, not a test failure.
func (s *Server) markFaultedLocked(path string) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) == 4 && parts[0] == "interactions" && parts[3] == "callback" {
		if it := s.interactions[parts[1]]; it != nil {
			it.faulted = true
		}
	}
}

// RESTCounts counts the REST requests the fake received.
type RESTCounts struct {
	// Global counts requests bound by the bot's global rate limit (50 per
	// second): every route but the interaction ones.
	Global int
	// Exempt counts interaction callbacks and interaction webhook requests
	// (follow-ups, @original), which the global limit does not bind.
	Exempt int
	// Invalid counts requests the fake itself answered 401, 403 or 429:
	// Discord's invalid requests (10,000 per 10 minutes get an IP banned).
	// Injected faults are not included.
	Invalid int
	// NotFound counts 404 answers, which Discord does not count as invalid
	// but which point at stale IDs or tokens.
	NotFound int
	// GlobalLimited counts requests answered 429 for going past the
	// global limit (SetGlobalLimit); they are in Invalid too.
	GlobalLimited int
	// Exhausted counts answers that spent the last request of a webhook
	// token's bucket (SetWebhookLimit): X-RateLimit-Remaining 0.
	Exhausted int
	// Faults counts requests answered with an injected fault.
	Faults int
	// ByRoute counts requests by "METHOD /pattern", e.g.
	// "POST /channels/{channel}/messages".
	ByRoute map[string]int
}

// RESTCounts returns the REST request counts since New or the last
// ResetRESTCounts.
func (s *Server) RESTCounts() RESTCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.counts
	out.ByRoute = map[string]int{}
	for k, v := range s.counts.ByRoute {
		out.ByRoute[k] = v
	}
	return out
}

// ResetRESTCounts sets every REST count to zero.
func (s *Server) ResetRESTCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = RESTCounts{ByRoute: map[string]int{}}
}

// FailedInteraction is an interaction that never got a successful callback
// within the deadline: the user saw "This interaction failed".
type FailedInteraction struct {
	ID, ChannelID, UserID string
	Action                string // "/game new", "component interaction", "modal submit", …
	Reason                string
	// Faulted: an injected fault (on its callback, or on the gateway while it
	// was pending) was involved. Such failures are recorded here only; the
	// others also fail the test, as they always did.
	Faulted bool
}

// FailedInteractions lists the interactions that failed so far, oldest
// first.
func (s *Server) FailedInteractions() []FailedInteraction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.failedInteractions)
}

// interactionFailedLocked records a failed interaction; unless a fault was
// involved it also fails the test.
func (s *Server) interactionFailedLocked(it *interaction, reason string) {
	s.failedInteractions = append(s.failedInteractions, FailedInteraction{
		ID: it.id, ChannelID: it.channelID, UserID: it.user.ID, Action: it.describe(), Reason: reason, Faulted: it.faulted,
	})
	if it.faulted {
		s.logLocked("fakediscord: interaction failed after an injected fault: %s", reason)
		return
	}
	s.failLocked(reason)
}

// statusWriter remembers the status a handler answered; with discard set it
// throws the response away (for faults After the request is applied).
type statusWriter struct {
	http.ResponseWriter
	status  int
	discard bool
	header  http.Header
}

func (w *statusWriter) Header() http.Header {
	if w.discard {
		if w.header == nil {
			w.header = http.Header{}
		}
		return w.header
	}
	return w.ResponseWriter.Header()
}

func (w *statusWriter) WriteHeader(status int) {
	if w.discard {
		return
	}
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.discard {
		return len(b), nil
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// logLocked logs to the test, unless it is over.
func (s *Server) logLocked(format string, args ...any) {
	if !s.done {
		s.t.Logf(format, args...)
	}
}
