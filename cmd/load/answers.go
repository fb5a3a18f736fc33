package main

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// botTransport wraps the HTTP transport the bot's session sends its REST
// requests through (Config.Transport), in the bot's process. It changes
// nothing: it times every interaction answer from its dispatch. It sees each
// callback come back accepted, and reads the dispatch time from the
// interaction's id, a snowflake the fake mints from its clock, to the
// millisecond, just before it sends INTERACTION_CREATE. So each time is an
// upper bound, at most 1 ms above the true one.
type botTransport struct {
	next http.RoundTripper

	mu    sync.Mutex
	times []answerTime
}

// watchers are the tables waiting to hear of their games' messages: the
// fake tells them (OnBotMessage) when the bot's message names their game in
// a move or lobby custom_id, so the players look at their hands then
// instead of polling the fake, which would cost more CPU than the bot
// itself at 1000 channels.
type watchers struct {
	mu sync.Mutex
	m  map[string]*watcher      // game id → its table's wake-ups
	ch map[string]chan struct{} // channel id → its table's wake-up on any bot message there
}

// watcher is how a table hears of its game's messages: wake when the bot
// sent a message with a move button of the game (a hand that can move),
// ended when it sent lobby buttons for it (Rematch), once the game is over.
type watcher struct{ wake, ended chan struct{} }

func newWatcher() *watcher {
	return &watcher{wake: make(chan struct{}, 1), ended: make(chan struct{}, 1)}
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// watch tells w of the bot's messages naming game; stop with unwatch.
func (ws *watchers) watch(game string, w *watcher) {
	ws.mu.Lock()
	if ws.m == nil {
		ws.m = map[string]*watcher{}
	}
	ws.m[game] = w
	ws.mu.Unlock()
}

// watchChannel returns what wakes a table waiting on any message the bot
// posts or edits in channel: a new table, between games, has no game id
// the table knows yet.
func (ws *watchers) watchChannel(channel string) chan struct{} {
	c := make(chan struct{}, 1)
	ws.mu.Lock()
	if ws.ch == nil {
		ws.ch = map[string]chan struct{}{}
	}
	ws.ch[channel] = c
	ws.mu.Unlock()
	return c
}

func (ws *watchers) unwatch(game string) {
	ws.mu.Lock()
	delete(ws.m, game)
	ws.mu.Unlock()
}

func (ws *watchers) deliver(g gameRef) {
	ws.mu.Lock()
	w := ws.m[g.id]
	ws.mu.Unlock()
	if w == nil {
		return
	}
	switch g.prefix {
	case "move":
		notify(w.wake)
	case "lobby":
		notify(w.ended)
	}
}

type answerTime struct {
	at  time.Time     // when the callback was accepted
	lat time.Duration // dispatch → accepted
}

// discordEpochMs is the start of Discord's snowflake clock.
const discordEpochMs = 1420070400000

func newBotTransport(next http.RoundTripper) *botTransport {
	return &botTransport{next: next}
}

func (t *botTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	id, isCallback := callbackID(r.URL.Path)
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.StatusCode >= 300 {
		return resp, err
	}
	if isCallback {
		now := time.Now()
		dispatched := time.UnixMilli(int64(id>>22) + discordEpochMs)
		t.mu.Lock()
		t.times = append(t.times, answerTime{at: now, lat: now.Sub(dispatched)})
		t.mu.Unlock()
	}
	return resp, err
}

// gameRef is a game id found in a custom_id, with the custom_id's kind.
type gameRef struct {
	prefix, id string
}

// told is the fake's OnBotMessage function: it wakes the tables whose
// games the message's move and lobby custom_ids (move:<game>:…,
// lobby:<game>:…) name.
func (ws *watchers) told(channel string, customIDs []string) {
	ws.mu.Lock()
	c := ws.ch[channel]
	ws.mu.Unlock()
	if c != nil {
		notify(c)
	}
	for _, id := range customIDs {
		prefix, rest, _ := strings.Cut(id, ":")
		game, _, _ := strings.Cut(rest, ":")
		if prefix == "ask" { // a move that opens a text box
			prefix = "move"
		}
		if prefix == "move" || prefix == "lobby" {
			ws.deliver(gameRef{prefix: prefix, id: game})
		}
	}
}

// callbackID is the interaction id of .../interactions/{id}/{token}/callback.
func callbackID(path string) (uint64, bool) {
	if !strings.HasSuffix(path, "/callback") {
		return 0, false
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p == "interactions" && i+1 < len(parts) {
			id, err := strconv.ParseUint(parts[i+1], 10, 64)
			return id, err == nil
		}
	}
	return 0, false
}

// between returns the latencies of the answers accepted from from on to
// interactions dispatched before to.
func (t *botTransport) between(from, to time.Time) []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []time.Duration
	for _, a := range t.times {
		// Answered after from, dispatched before to: a click the window
		// counts (sent after from, back before to) is in, also when the
		// bot's transport saw the answer just after the click came back.
		if !a.at.Before(from) && a.at.Add(-a.lat).Before(to) {
			out = append(out, a.lat)
		}
	}
	return out
}
