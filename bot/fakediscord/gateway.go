package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

const (
	privilegedIntents = discordgo.IntentGuildMembers | discordgo.IntentGuildPresences | discordgo.IntentMessageContent
	knownIntents      = discordgo.IntentsAll | discordgo.IntentGuildMessagePolls | discordgo.IntentDirectMessagePolls
)

// gwConn is one gateway websocket connection.
type gwConn struct {
	s  *Server
	ws *websocket.Conn

	writeMu sync.Mutex // gorilla allows one writer at a time
	seq     int

	// Guarded by s.mu.
	helloAt    time.Time
	identified int // order of identification, 0 = not identified
	intents    discordgo.Intent
	beats      int // heartbeats (op 1) received
	asked      int // heartbeat requests (op 1) sent by Sync
	waiters    []*syncWaiter
}

type syncWaiter struct {
	need int // replies that must have arrived
	done chan struct{}
}

type gwPayload struct {
	Op int     `json:"op"`
	D  any     `json:"d"`
	S  *int    `json:"s"`
	T  *string `json:"t"`
}

// event is a dispatch rendered while holding s.mu and sent after releasing it,
// so that slow websocket writes never block REST handlers.
type event struct {
	name string
	data json.RawMessage
}

func (s *Server) eventLocked(name string, v any) event {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return event{name, b}
}

// intentOf maps each dispatch the fake sends to the intent gating it; 0 means
// always sent.
var intentOf = map[string]discordgo.Intent{
	"GUILD_CREATE":                  discordgo.IntentGuilds,
	"CHANNEL_CREATE":                discordgo.IntentGuilds,
	"MESSAGE_CREATE":                discordgo.IntentGuildMessages,
	"MESSAGE_UPDATE":                discordgo.IntentGuildMessages,
	"MESSAGE_DELETE":                discordgo.IntentGuildMessages,
	"MESSAGE_REACTION_ADD":          discordgo.IntentGuildMessageReactions,
	"MESSAGE_REACTION_REMOVE":       discordgo.IntentGuildMessageReactions,
	"MESSAGE_REACTION_REMOVE_ALL":   discordgo.IntentGuildMessageReactions,
	"MESSAGE_REACTION_REMOVE_EMOJI": discordgo.IntentGuildMessageReactions,
	"INTERACTION_CREATE":            0,
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	badVersion := q.Get("v") != "9" && q.Get("v") != "10" || q.Get("encoding") != "json"
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.failf("gateway: websocket upgrade failed: %v", err)
		return
	}
	c := &gwConn{s: s, ws: ws}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.conns[c] = true
	c.helloAt = time.Now()
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	defer s.drop(c)

	if badVersion {
		s.failf("gateway: connected with %q, want v=9 or 10 and encoding=json", r.URL.RawQuery)
		c.closeWith(4012, "Invalid API version.")
		return
	}
	if c.send(gwPayload{Op: 10, D: map[string]int{"heartbeat_interval": int(heartbeatInterval / time.Millisecond)}}) != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			s.failf("gateway: undecodable payload from the bot: %q", data)
			c.closeWith(4002, "Error while decoding payload.")
			return
		}
		if !c.handle(p.Op, p.D) {
			return
		}
	}
}

// handle processes one payload from the bot; false ends the connection.
func (c *gwConn) handle(op int, d json.RawMessage) bool {
	s := c.s
	switch op {
	case 1:
		c.heartbeat()
		return true
	case 2:
		return c.identify(d)
	case 6:
		// The fake keeps no sessions to resume; Discord answers a resume it
		// cannot honour with INVALID_SESSION (d: false), and the client identifies.
		return c.send(gwPayload{Op: 9, D: false}) == nil
	case 3:
		s.mu.Lock()
		ok := c.identified > 0
		s.mu.Unlock()
		if !ok {
			s.failf("gateway: presence update (op 3) before identify")
			c.closeWith(4003, "Not authenticated.")
		}
		return ok
	}
	s.failf("gateway: unexpected opcode %d from the bot (not modelled by the fake): %s", op, d)
	c.closeWith(4001, "Unknown opcode.")
	return false
}

func (c *gwConn) identify(d json.RawMessage) bool {
	s := c.s
	var id struct {
		Token   string            `json:"token"`
		Intents *discordgo.Intent `json:"intents"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		s.failf("gateway: undecodable identify: %v", err)
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	s.mu.Lock()
	again := c.identified > 0
	s.mu.Unlock()
	switch {
	case again:
		s.failf("gateway: the bot identified twice on one connection")
		c.closeWith(4005, "Already authenticated.")
		return false
	case strings.TrimPrefix(id.Token, "Bot ") != BotToken:
		s.failf("gateway: identify with token %q, want %q", id.Token, "Bot "+BotToken)
		c.closeWith(4004, "Authentication failed.")
		return false
	case id.Intents == nil || *id.Intents&^knownIntents != 0:
		s.failf("gateway: identify with invalid intents")
		c.closeWith(4013, "Invalid intent(s).")
		return false
	case *id.Intents&privilegedIntents != 0:
		s.failf("gateway: identify asks for privileged intents %d, which the fake application is not approved for", *id.Intents&privilegedIntents)
		c.closeWith(4014, "Disallowed intent(s).")
		return false
	}

	// READY and GUILD_CREATE go out under one write lock so that nothing,
	// not even a Sync, can slip in between.
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	s.mu.Lock()
	s.identifies++
	c.identified = s.identifies
	c.intents = *id.Intents
	s.current = c
	ready := s.eventLocked("READY", s.readyLocked(randomToken(16)))
	guild := s.eventLocked("GUILD_CREATE", s.guildCreateLocked())
	s.mu.Unlock()
	if c.dispatchLocked(ready) != nil {
		return false
	}
	if c.intents&discordgo.IntentGuilds != 0 {
		return c.dispatchLocked(guild) == nil
	}
	return true
}

func (c *gwConn) heartbeat() {
	c.send(gwPayload{Op: 11})
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c.beats++
	// discordgo sends one heartbeat as soon as it is connected and then one
	// per interval; the rest are answers to Sync's requests. Estimating the
	// periodic ones from the time elapsed can only overestimate (the client's
	// clock starts after ours), which merely waits for the late beat.
	periodic := 1 + int(time.Since(c.helloAt)/heartbeatInterval)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if c.beats >= w.need+periodic {
			close(w.done)
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}

// Sync is a barrier: it returns once the bot has read and handled every event
// dispatched so far, including those its handlers caused meanwhile. It sends
// a heartbeat request (op 1) and waits for the bot's heartbeat: discordgo
// answers inline in its read loop, after the handlers of earlier events
// (SyncEvents) have returned.
func (s *Server) Sync() {
	for {
		s.mu.Lock()
		c := s.current
		s.mu.Unlock()
		if c == nil {
			return
		}
		w := &syncWaiter{done: make(chan struct{})}
		c.writeMu.Lock()
		seq := c.seq
		s.mu.Lock()
		c.asked++
		w.need = c.asked
		c.waiters = append(c.waiters, w)
		s.mu.Unlock()
		err := c.sendLocked(gwPayload{Op: 1, D: nil})
		c.writeMu.Unlock()
		if err != nil {
			return // the connection is gone; drop releases the waiter
		}
		select {
		case <-w.done:
		case <-time.After(syncTimeout):
			s.failf("Sync: the bot did not answer a heartbeat request within %v (is a handler stuck?)", syncTimeout)
			return
		}
		c.writeMu.Lock()
		quiet := c.seq == seq
		c.writeMu.Unlock()
		if quiet {
			return
		}
	}
}

// emit sends dispatches to the most recently identified live connection,
// skipping those its intents did not ask for.
func (s *Server) emit(evs ...event) {
	s.mu.Lock()
	c := s.current
	var intents discordgo.Intent
	if c != nil {
		intents = c.intents
	}
	s.mu.Unlock()
	if c == nil {
		return
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	for _, e := range evs {
		if need := intentOf[e.name]; need != 0 && intents&need == 0 {
			continue
		}
		if c.dispatchLocked(e) != nil {
			return
		}
	}
}

func (c *gwConn) send(p gwPayload) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.sendLocked(p)
}

func (c *gwConn) sendLocked(p gwPayload) error {
	c.ws.SetWriteDeadline(time.Now().Add(syncTimeout))
	return c.ws.WriteJSON(p)
}

func (c *gwConn) dispatchLocked(e event) error {
	c.seq++
	seq, name := c.seq, e.name
	return c.sendLocked(gwPayload{Op: 0, D: e.data, S: &seq, T: &name})
}

// closeWith closes the connection with a gateway close code, as Discord does
// for protocol errors.
func (c *gwConn) closeWith(code int, reason string) {
	c.writeMu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.writeMu.Unlock()
	c.ws.Close()
}

// drop forgets a finished connection; the most recently identified remaining
// one, if any, takes over.
func (s *Server) drop(c *gwConn) {
	c.ws.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	for _, w := range c.waiters {
		close(w.done)
	}
	c.waiters = nil
	if s.current != c {
		return
	}
	s.current = nil
	for o := range s.conns {
		if o.identified > 0 && (s.current == nil || o.identified > s.current.identified) {
			s.current = o
		}
	}
}

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
