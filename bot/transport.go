package bot

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rewrite sends every request discordgo addresses to Discord's API to
// another base URL instead. It is per session, unlike discordgo's global
// endpoint variables, so several bots (as in tests) can point elsewhere.
type rewrite struct {
	base string // no trailing slash
	next http.RoundTripper
}

func newRewrite(base string, next http.RoundTripper) *rewrite {
	return &rewrite{base: strings.TrimRight(base, "/"), next: next}
}

// NewTransport is the bot's HTTP transport: Go's default one with room for
// an idle connection per channel lane at work. Every request goes to one
// host, and the default keeps only two idle connections per host, so busy
// channels would otherwise close and redial connections on every request.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	return t
}

func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	orig := r.URL.String()
	if !strings.HasPrefix(orig, discordgo.EndpointAPI) {
		return t.next.RoundTrip(r)
	}
	u, err := url.Parse(t.base + "/" + strings.TrimPrefix(orig, discordgo.EndpointAPI))
	if err != nil {
		return nil, err
	}
	// A shallow copy: only the address changes, and a RoundTripper may not
	// change the caller's request (Clone would copy every header too).
	r2 := *r
	r2.URL = u
	r2.Host = u.Host
	return t.next.RoundTrip(&r2)
}

// metered spends the global budget for each request Discord counts
// against the bot's global limit: all but the interaction endpoints. It is
// also where an output job's request gives up the job's slot (queue.go).
type metered struct {
	next  http.RoundTripper
	spend func()
}

func (t *metered) RoundTrip(r *http.Request) (*http.Response, error) {
	if !exemptPath(r.URL.Path) {
		t.spend()
	}
	// An output job computes with a slot (queue.go) and waits without,
	// among the requests of output jobs the flight bound lets through.
	if h := slotOf(r.Context()); h != nil {
		h.release()
		h.s.flight.enter()
		start := time.Now()
		defer func() {
			h.s.flight.leave(time.Since(start))
			h.retake()
		}()
	}
	return t.next.RoundTrip(r)
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
