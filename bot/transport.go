package bot

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rewrite sends every request discordgo addresses to Discord's API to
// another base URL instead. It is per session, unlike discordgo's global
// endpoint variables, so several bots (as in tests) can point elsewhere.
type rewrite struct {
	base *url.URL // its Path without a trailing slash
	api  *url.URL // Discord's API base, as discordgo addresses it
	next http.RoundTripper
}

// newRewrite takes a base Config.Load has checked; one it cannot parse
// leaves requests as they are.
func newRewrite(base string, next http.RoundTripper) *rewrite {
	t := &rewrite{next: next}
	t.base, _ = url.Parse(strings.TrimRight(base, "/"))
	t.api, _ = url.Parse(discordgo.EndpointAPI)
	return t
}

// NewTransport is the bot's HTTP transport: Go's default one with room for
// an idle connection per channel lane at work, speaking HTTP/1.1 only.
// Every request goes to one host, and the default keeps only two idle
// connections per host, so busy channels would otherwise close and redial
// connections on every request. Discord offers HTTP/2, which Go's default
// takes, but Go's HTTP/2 client spent about 1.6 times the CPU of HTTP/1.1
// per request over TLS (BenchmarkTransport), and the load runs measure
// HTTP/1.1: what is measured is what runs.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	return t
}

// RoundTrip moves the request's path from under Discord's API base to
// under the other base. It edits a copy of the parsed URL: parsing the
// URL again for every request cost a percent of the bot's CPU under load.
func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	u := r.URL
	if t.base == nil || t.api == nil || u.Scheme != t.api.Scheme || u.Host != t.api.Host || !strings.HasPrefix(u.Path, t.api.Path) {
		return t.next.RoundTrip(r)
	}
	u2 := *u
	u2.Scheme, u2.Host = t.base.Scheme, t.base.Host
	u2.Path = t.base.Path + "/" + strings.TrimPrefix(u.Path, t.api.Path)
	if u.RawPath != "" { // escaped differently from Path (an emoji in a reaction's route, say)
		u2.RawPath = t.base.EscapedPath() + "/" + strings.TrimPrefix(u.RawPath, t.api.EscapedPath())
	}
	// A shallow copy: only the address changes, and a RoundTripper may not
	// change the caller's request (Clone would copy every header too).
	r2 := *r
	r2.URL = &u2
	r2.Host = u2.Host
	return t.next.RoundTrip(&r2)
}

// metered spends the global budget for each request Discord counts
// against the bot's global limit: all but the interaction endpoints. Such
// a request waits for its turn in the budget before it is sent, with the
// output job's slot (queue.go) given up meanwhile. The time limit on a
// request starts once it is sent: a turn waited for is not Discord slow to
// answer.
type metered struct {
	next    http.RoundTripper
	wait    func(ctx context.Context) error
	hold    func(d time.Duration) // after a global 429 (nil: none kept)
	timeout time.Duration
	// revoked: the bot's token answered 401. Discord asks for no more
	// requests with it (each is an invalid one); only a restart with a new
	// token helps. Interaction routes carry tokens of their own.
	revoked atomic.Bool
}

// errRevoked: the bot's token answered 401 Unauthorized.
var errRevoked = errors.New("the bot's token was refused (401 Unauthorized): it was reset or revoked; restart the bot with a valid DISCORD_TOKEN")

// requestTimeout bounds a request once it is sent, the body read included.
const requestTimeout = 20 * time.Second

func (t *metered) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	// An output job computes with a slot (queue.go) and waits without,
	// among the requests of output jobs the flight bound lets through.
	h := slotOf(ctx)
	if h != nil {
		h.release()
		defer h.retake()
	}
	global := !exemptPath(r.URL.Path)
	if global && t.revoked.Load() {
		closeBody(r)
		return nil, errRevoked
	}
	if global {
		if err := t.wait(ctx); err != nil {
			closeBody(r)
			return nil, err
		}
	}
	// A request that waited for its turn goes at once: held back again
	// behind hand edits, turns would bunch up and reach Discord as more
	// than its limit allows in a second. There are few of them (the
	// limit), so their CPU is no threat to the answers the bound keeps.
	if h != nil && !global {
		h.s.flight.enter()
		start := time.Now()
		defer func() { h.s.flight.leave(time.Since(start)) }()
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	resp, err := t.next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	if global && resp.StatusCode == http.StatusUnauthorized {
		t.revoked.Store(true)
	}
	if global && t.hold != nil && resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("X-RateLimit-Global") != "" {
		// The body (small) is read here for its precise retry_after, and
		// handed on as it was.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		cancel()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		t.hold(retryAfter(resp, body))
		return resp, nil
	}
	resp.Body = &cancelBody{resp.Body, cancel}
	return resp, nil
}

// closeBody closes the body of a request that will not be sent, as a
// RoundTripper must.
func closeBody(r *http.Request) {
	if r.Body != nil {
		r.Body.Close()
	}
}

// cancelBody ends a request's time limit when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// exemptPath: interaction callbacks and interaction webhooks (follow-ups,
// @original), which the global limit does not bind.
func exemptPath(path string) bool {
	_, rest, ok := strings.Cut(path, "/api/")
	if !ok {
		return false
	}
	if _, after, ok := strings.Cut(rest, "/"); ok && strings.HasPrefix(rest, "v") {
		rest = after // the version
	}
	return strings.HasPrefix(rest, "interactions/") || strings.HasPrefix(rest, "webhooks/")
}
