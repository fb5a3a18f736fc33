package fakediscord

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
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

	// Guarded by s.mu.
	helloAt    time.Time
	session    *gwSession // the session it carries, nil before IDENTIFY or RESUME
	endSession bool       // closed in a way that invalidates its session
	beats      int        // heartbeats (op 1) received
	asked      int        // heartbeat requests (op 1) sent by Sync
	waiters    []*syncWaiter
}

// gwSession is a gateway session: it outlives its connection, so that a bot
// that lost its connection can RESUME and be sent what it missed. Sequence
// numbers belong to the session. All fields are guarded by s.mu.
type gwSession struct {
	id      string
	order   int // order of identification
	intents discordgo.Intent
	conn    *gwConn // nil while disconnected
	dead    bool    // invalidated: it cannot be resumed
	seq     int     // last sequence number used
	buffer  []gwPayload
	shard   [2]int // [id, count] from IDENTIFY; [0, 1] without
}

// owns says whether Discord sends a guild's events to this session:
// guild_id >> 22 % count is its shard.
func (sess *gwSession) owns(guildID string) bool {
	if sess.shard[1] <= 1 {
		return true
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	return err == nil && int((id>>22)%uint64(sess.shard[1])) == sess.shard[0]
}

// resumeBuffer is how many dispatches a session keeps for RESUME.
const resumeBuffer = 1000

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
	if w, ok := v.(wireMessage); ok { // MESSAGE_CREATE and MESSAGE_UPDATE
		s.encodeBuf = appendMessage(s.encodeBuf[:0], &w)
		return s.renderedEventLocked(name, slices.Clone(s.encodeBuf))
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return s.renderedEventLocked(name, b)
}

// renderedEventLocked is eventLocked with the data rendered already.
func (s *Server) renderedEventLocked(name string, data []byte) event {
	s.changedLocked() // every dispatch tells of a change
	return event{name, data}
}

// intentOf maps each dispatch the fake sends to the intent gating it; 0 means
// always sent.
var intentOf = map[string]discordgo.Intent{
	"GUILD_CREATE":                  discordgo.IntentGuilds,
	"CHANNEL_CREATE":                discordgo.IntentGuilds,
	"CHANNEL_DELETE":                discordgo.IntentGuilds,
	"THREAD_CREATE":                 discordgo.IntentGuilds,
	"THREAD_DELETE":                 discordgo.IntentGuilds,
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
			// Closing with 1000 or 1001 ends the session; any other way
			// (another code, a dropped connection) leaves it resumable.
			if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
				s.mu.Lock()
				c.endSession = true
				s.mu.Unlock()
			}
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
		return c.resume(d)
	case 3:
		s.mu.Lock()
		ok := c.session != nil
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
		Shard   *[2]int           `json:"shard"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		s.failf("gateway: undecodable identify: %v", err)
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	s.mu.Lock()
	again := c.session != nil
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
	case id.Shard != nil && (id.Shard[1] < 1 || id.Shard[0] < 0 || id.Shard[0] >= id.Shard[1]):
		s.failf("gateway: identify with shard %v, want [id, count] with 0 <= id < count", *id.Shard)
		c.closeWith(4010, "Invalid shard.")
		return false
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}

	// READY and GUILD_CREATE go out under one write lock so that nothing,
	// not even a Sync, can slip in between.
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	s.mu.Lock()
	s.identifies++
	sess := &gwSession{id: randomToken(16), order: s.identifies, intents: *id.Intents, conn: c, shard: shard}
	s.sessions[sess.id] = sess
	c.session = sess
	s.current = sess
	if shard[1] > 1 {
		s.sharded = true
	}
	var guilds []*guild
	for _, g := range s.guildsLocked() {
		if sess.owns(g.id) {
			guilds = append(guilds, g)
		}
	}
	out := []gwPayload{sess.recordLocked(s.eventLocked("READY", s.readyLocked(sess.id, guilds)))}
	if sess.intents&discordgo.IntentGuilds != 0 {
		for _, g := range guilds {
			out = append(out, sess.recordLocked(s.eventLocked("GUILD_CREATE", s.guildCreateLocked(g))))
		}
	}
	s.gatewayChangedLocked()
	s.mu.Unlock()
	return c.sendAllLocked(out) == nil
}

// resume handles op 6: a known, resumable session whose buffer still holds
// everything after the bot's last sequence number gets those dispatches
// again, in order, then RESUMED. Otherwise Discord answers INVALID_SESSION
// (d: false), and the client identifies afresh.
func (c *gwConn) resume(d json.RawMessage) bool {
	s := c.s
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int    `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		s.failf("gateway: undecodable resume: %v", err)
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	if strings.TrimPrefix(r.Token, "Bot ") != BotToken {
		s.failf("gateway: resume with token %q, want %q", r.Token, "Bot "+BotToken)
		c.closeWith(4004, "Authentication failed.")
		return false
	}
	s.mu.Lock()
	again := c.session != nil
	s.mu.Unlock()
	if again {
		s.failf("gateway: the bot resumed on a connection that already has a session")
		c.closeWith(4005, "Already authenticated.")
		return false
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	s.mu.Lock()
	sess := s.sessions[r.SessionID]
	first := 1
	if sess != nil && len(sess.buffer) > 0 {
		first = *sess.buffer[0].S
	}
	if sess == nil || sess.dead || r.Seq > sess.seq || r.Seq < first-1 {
		s.resumesRefused++
		s.mu.Unlock()
		return c.sendLocked(gwPayload{Op: 9, D: false}) == nil
	}
	old := sess.conn
	if old != nil {
		old.session = nil
	}
	sess.conn, c.session = c, sess
	var out []gwPayload
	for _, p := range sess.buffer {
		if *p.S > r.Seq {
			out = append(out, p)
		}
	}
	out = append(out, sess.recordLocked(s.eventLocked("RESUMED", map[string]any{})))
	if s.current == nil || s.current.dead || s.current.order < sess.order {
		s.current = sess
	}
	s.resumes++
	s.gatewayChangedLocked()
	s.mu.Unlock()
	if old != nil {
		old.ws.Close()
	}
	return c.sendAllLocked(out) == nil
}

// recordLocked gives a dispatch the session's next sequence number and keeps
// it for RESUME.
func (sess *gwSession) recordLocked(e event) gwPayload {
	sess.seq++
	seq, name := sess.seq, e.name
	p := gwPayload{Op: 0, D: e.data, S: &seq, T: &name}
	sess.buffer = append(sess.buffer, p)
	if n := len(sess.buffer); n > resumeBuffer {
		// Resliced, not shifted: append copies the kept ones when it
		// grows, so each dispatch costs O(1), not a move of the buffer.
		sess.buffer = sess.buffer[n-resumeBuffer:]
	}
	return p
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
// (SyncEvents) have returned. While the bot's session is disconnected (after
// a gateway fault) Sync returns at once: use AwaitConnected first. With
// sharded sessions it waits for every connected one.
func (s *Server) Sync() {
	s.mu.Lock()
	sharded := s.sharded
	s.mu.Unlock()
	if !sharded {
		s.syncSession(func() *gwSession { return s.current })
		return
	}
	for {
		s.mu.Lock()
		var live []*gwSession
		before := 0
		for _, o := range s.sessions {
			if !o.dead && o.conn != nil {
				live = append(live, o)
				before += o.seq
			}
		}
		s.mu.Unlock()
		slices.SortFunc(live, func(a, b *gwSession) int { return a.order - b.order })
		for _, o := range live {
			s.syncSession(func() *gwSession {
				if o.dead {
					return nil
				}
				return o
			})
		}
		s.mu.Lock()
		after := 0
		for _, o := range live {
			after += o.seq
		}
		s.mu.Unlock()
		if after == before {
			return
		}
	}
}

// syncSession is Sync with the session pick returns (under s.mu).
func (s *Server) syncSession(pick func() *gwSession) {
	for {
		s.mu.Lock()
		sess := pick()
		var c *gwConn
		if sess != nil {
			c = sess.conn
		}
		s.mu.Unlock()
		if c == nil {
			return
		}
		w := &syncWaiter{done: make(chan struct{})}
		c.writeMu.Lock()
		s.mu.Lock()
		if c.session != sess {
			s.mu.Unlock()
			c.writeMu.Unlock()
			continue
		}
		seq := sess.seq
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
		s.mu.Lock()
		quiet := sess.seq == seq && pick() == sess && sess.conn == c
		s.mu.Unlock()
		if quiet {
			return
		}
	}
}

// emit dispatches events in the current session (the most recently
// identified one that is still valid), skipping those its intents did not ask
// for. While the session is disconnected they only go to its resume buffer.
// Once the bot runs shards, each event goes to the session of its guild's
// shard instead (sessionForLocked).
func (s *Server) emit(evs ...event) {
	if len(evs) == 0 {
		return
	}
	s.mu.Lock()
	sharded := s.sharded
	s.mu.Unlock()
	if !sharded {
		s.emitTo(func() *gwSession { return s.current }, evs)
		return
	}
	for _, e := range evs {
		g := e.guild()
		s.emitTo(func() *gwSession { return s.sessionForLocked(g) }, []event{e})
	}
}

// guild is the guild an event is about.
func (e event) guild() string {
	var v struct {
		ID      string `json:"id"`
		GuildID string `json:"guild_id"`
	}
	json.Unmarshal(e.data, &v)
	if e.name == "GUILD_CREATE" {
		return v.ID
	}
	return v.GuildID
}

// sessionForLocked is the session Discord delivers a guild's events to:
// the current one, or once sharded the most recently identified valid
// session whose shard owns the guild.
func (s *Server) sessionForLocked(guildID string) *gwSession {
	if !s.sharded {
		return s.current
	}
	var best *gwSession
	for _, o := range s.sessions {
		if !o.dead && o.owns(guildID) && (best == nil || o.order > best.order) {
			best = o
		}
	}
	return best
}

// emitTo is emit to the session pick returns (under s.mu).
func (s *Server) emitTo(pick func() *gwSession, evs []event) {
	for {
		s.mu.Lock()
		sess := pick()
		if sess == nil {
			s.mu.Unlock()
			return
		}
		c := sess.conn
		s.mu.Unlock()
		if c != nil {
			c.writeMu.Lock()
		}
		s.mu.Lock()
		if pick() != sess || sess.conn != c {
			s.mu.Unlock()
			if c != nil {
				c.writeMu.Unlock()
			}
			continue
		}
		var out []gwPayload
		for _, e := range evs {
			if need := intentOf[e.name]; need != 0 && sess.intents&need == 0 {
				continue
			}
			out = append(out, sess.recordLocked(e))
		}
		s.mu.Unlock()
		if c != nil {
			c.sendAllLocked(out)
			c.writeMu.Unlock()
		}
		return
	}
}

func (c *gwConn) send(p gwPayload) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.sendLocked(p)
}

func (c *gwConn) sendLocked(p gwPayload) error {
	c.ws.SetWriteDeadline(time.Now().Add(syncTimeout))
	if raw, ok := p.D.(json.RawMessage); ok && p.S != nil && p.T != nil {
		// A dispatch was rendered by json.Marshal already: WriteJSON would
		// scan and copy it once more, for every event, on the cores the bot
		// shares.
		return c.ws.WriteMessage(websocket.TextMessage, dispatchFrame(p.Op, *p.S, *p.T, raw))
	}
	return c.ws.WriteJSON(p)
}

// dispatchFrame is the JSON of a gwPayload whose data is already JSON. Event
// names are upper-case ASCII, so they need no escaping.
func dispatchFrame(op, seq int, name string, data json.RawMessage) []byte {
	b := make([]byte, 0, len(data)+len(name)+40)
	b = append(b, `{"op":`...)
	b = strconv.AppendInt(b, int64(op), 10)
	b = append(b, `,"d":`...)
	b = append(b, data...)
	b = append(b, `,"s":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `,"t":"`...)
	b = append(b, name...)
	return append(b, `"}`...)
}

func (c *gwConn) sendAllLocked(ps []gwPayload) error {
	for _, p := range ps {
		if err := c.sendLocked(p); err != nil {
			return err
		}
	}
	return nil
}

// closeWith closes the connection with a gateway close code, as Discord does
// for protocol errors, which also end the session.
func (c *gwConn) closeWith(code int, reason string) {
	c.s.mu.Lock()
	c.endSession = true
	c.s.mu.Unlock()
	c.writeMu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.writeMu.Unlock()
	c.ws.Close()
}

// drop forgets a finished connection. Its session stays resumable unless
// the connection ended it; if the current session ends, the most recently
// identified remaining valid one, if any, takes over.
func (s *Server) drop(c *gwConn) {
	c.ws.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	for _, w := range c.waiters {
		close(w.done)
	}
	c.waiters = nil
	sess := c.session
	if sess == nil {
		return
	}
	c.session, sess.conn = nil, nil
	if c.endSession {
		s.endSessionLocked(sess)
	}
	s.gatewayChangedLocked()
}

// endSessionLocked invalidates a session; if it was the current one, the
// most recently identified remaining valid session takes over.
func (s *Server) endSessionLocked(sess *gwSession) {
	sess.dead = true
	sess.buffer = nil
	if s.current != sess {
		return
	}
	s.current = nil
	for _, o := range s.sessions {
		if !o.dead && o.conn != nil && (s.current == nil || o.order > s.current.order) {
			s.current = o
		}
	}
}

// gatewayChangedLocked wakes AwaitConnected.
func (s *Server) gatewayChangedLocked() {
	close(s.gwChanged)
	s.gwChanged = make(chan struct{})
}

// interactionToken is shaped like Discord's: "interaction:<id>:" and 128
// random letters and digits, base64 without padding, 214 characters for a
// 19-digit id. Its length is what the bot stores and sends for every hand.
func interactionToken(id string) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	raw := make([]byte, 0, 160)
	raw = append(raw, "interaction:"...)
	raw = append(raw, id...)
	raw = append(raw, ':')
	var r [128]byte
	rand.Read(r[:])
	for _, b := range r {
		raw = append(raw, alnum[int(b)%len(alnum)])
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
