package fakediscord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// call is one REST request. Handlers run with s.mu held; the dispatches they
// queue are sent, and the after functions run, once it is released.
type call struct {
	s       *Server
	w       http.ResponseWriter
	r       *http.Request
	path    string // the request path without /api/vN
	pattern string // the route pattern it matched, e.g. /channels/{channel}/messages
	body    []byte
	files   []attachment // multipart files[n]
	events  []event
	after   []func()
	prep    prepared
}

// prepared is the work on a request's body that needs nothing of the
// world: done before the server's lock is taken, so that calls wait for
// each other only over the world itself (at 1,000 busy channels the bot's
// answers queued for the lock behind the parsing of other requests).
type prepared struct {
	valid bool // the body is JSON
	// A message payload parsed from raw (the body, or an interaction
	// callback's data); handed out once, for the same bytes.
	raw []byte
	msg *messageParams
	err error
	// An interaction callback's body, decoded once.
	callback    *callbackBody
	callbackErr error
}

// callbackBody is an interaction callback: its type and its data, a message
// payload or a modal.
type callbackBody struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data json.RawMessage                   `json:"data"`
}

// prepare validates the body and parses it as the route's payload. What
// Unmarshal accepts is valid JSON, so json.Valid, a scan of its own, runs
// only for bodies nothing decodes here and those Unmarshal refuses.
func prepare(method, pattern string, body []byte) prepared {
	var p prepared
	switch {
	case method == http.MethodGet || method == http.MethodDelete:
	case strings.HasSuffix(pattern, "/callback"):
		if resp, msg, ok := decodeCallback(body); ok {
			p.valid, p.callback = true, resp
			if resp.Data != nil {
				p.raw, p.msg = resp.Data, msg
			}
			return p
		}
		resp := new(callbackBody)
		if err := json.Unmarshal(body, resp); err != nil {
			if json.Valid(body) {
				p.valid, p.callbackErr = true, err
			}
			return p
		}
		p.valid, p.callback = true, resp
		if len(resp.Data) > 0 && string(resp.Data) != "null" {
			p.raw = resp.Data
			p.msg, p.err = parseMessage(p.raw)
		}
		return p
	case strings.HasPrefix(pattern, "/webhooks/") || strings.HasSuffix(pattern, "/messages") || strings.HasSuffix(pattern, "/messages/{message}"):
		msg, err := parseMessage(body)
		if err == nil || json.Valid(body) {
			p.valid, p.raw, p.msg, p.err = true, body, msg, err
		}
		return p
	}
	p.valid = json.Valid(body)
	return p
}

// parseMessage is parseMessage, from the prepared parse when raw is what
// was prepared.
func (c *call) parseMessage(raw []byte) (*messageParams, error) {
	if c.prep.raw != nil && bytes.Equal(raw, c.prep.raw) {
		m, err := c.prep.msg, c.prep.err
		c.prep.raw, c.prep.msg, c.prep.err = nil, nil, nil
		return m, err
	}
	return parseMessage(raw)
}

type apiError struct {
	Message string         `json:"message"`
	Code    int            `json:"code"`
	Errors  map[string]any `json:"errors,omitempty"`
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gateway", s.serveGateway)
	mux.HandleFunc("GET /gateway/", s.serveGateway)
	// One mux for the gateway and the API: a second one behind "/" matched
	// every request twice more (its Handler, then its ServeHTTP).
	handle := func(pattern string, h func(*call)) {
		method, path, _ := strings.Cut(pattern, " ")
		for _, prefix := range apiPrefixes {
			mux.HandleFunc(method+" "+prefix+path, func(w http.ResponseWriter, r *http.Request) {
				s.serveCall(w, r, path, h)
			})
		}
	}

	handle("GET /gateway", s.getGateway)
	handle("GET /gateway/bot", s.getGateway)
	handle("GET /users/@me", s.getMe)
	handle("GET /users/{user}", s.getUser)
	handle("GET /guilds/{guild}", s.getGuild)
	handle("GET /guilds/{guild}/channels", s.getGuildChannels)
	handle("GET /guilds/{guild}/members/{user}", s.getMember)
	handle("GET /channels/{channel}", s.getChannel)
	handle("PATCH /channels/{channel}", s.editChannel)

	handle("GET /channels/{channel}/messages", s.listMessages)
	handle("POST /channels/{channel}/messages", s.createMessage)
	handle("GET /channels/{channel}/messages/{message}", s.getMessage)
	handle("PATCH /channels/{channel}/messages/{message}", s.editMessage)
	handle("DELETE /channels/{channel}/messages/{message}", s.deleteMessage)

	handle("PUT /channels/{channel}/messages/{message}/reactions/{emoji}/@me", s.addReaction)
	handle("DELETE /channels/{channel}/messages/{message}/reactions/{emoji}/@me", s.removeReaction)
	handle("DELETE /channels/{channel}/messages/{message}/reactions/{emoji}/{user}", s.removeReaction)
	handle("GET /channels/{channel}/messages/{message}/reactions/{emoji}", s.listReactions)
	handle("DELETE /channels/{channel}/messages/{message}/reactions/{emoji}", s.clearReactions)
	handle("DELETE /channels/{channel}/messages/{message}/reactions", s.clearReactions)

	handle("POST /channels/{channel}/messages/{message}/threads", s.startThread)
	handle("POST /channels/{channel}/threads", s.createThread)
	handle("GET /channels/{channel}/thread-members", s.threadMembers)
	handle("PUT /channels/{channel}/thread-members/@me", s.threadMember)
	handle("PUT /channels/{channel}/thread-members/{user}", s.threadMember)
	handle("DELETE /channels/{channel}/thread-members/@me", s.threadMember)
	handle("DELETE /channels/{channel}/thread-members/{user}", s.threadMember)

	for _, scope := range []string{"", "/guilds/{guild}"} {
		base := "/applications/{app}" + scope + "/commands"
		handle("GET "+base, s.listCommands)
		handle("PUT "+base, s.overwriteCommands)
		handle("POST "+base, s.createCommand)
		handle("DELETE "+base+"/{command}", s.deleteCommand)
	}

	handle("POST /interactions/{id}/{token}/callback", s.interactionCallback)
	handle("POST /webhooks/{app}/{token}", s.followup)
	handle("GET /webhooks/{app}/{token}/messages/{message}", s.getWebhookMessage)
	handle("PATCH /webhooks/{app}/{token}/messages/{message}", s.editWebhookMessage)
	handle("DELETE /webhooks/{app}/{token}/messages/{message}", s.deleteWebhookMessage)

	unexpected := func(c *call) {
		c.reject(http.StatusNotFound, 0, "404: Not Found", "unexpected request (not modelled by the fake)")
	}
	// What no route matches, by path or by method, is unexpected.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.serveCall(w, r, "", unexpected)
	})
	return mux
}

func (s *Server) serveCall(w http.ResponseWriter, r *http.Request, pattern string, h func(*call)) {
	if d := s.latency.Load() + s.jitterOnce(); d > 0 {
		time.Sleep(time.Duration(d)) // the way to Discord and back (SetLatency)
	}
	sw := &statusWriter{ResponseWriter: w}
	c := &call{s: s, w: sw, r: r, path: apiPath(r.URL.Path), pattern: pattern}
	if pattern == "" {
		c.pattern = c.path
	}
	body, files, err := readBody(r)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		// The client hung up mid-body (a process killed while sending): no
		// request reached Discord, and no one waits for an answer.
		s.mu.Lock()
		s.logLocked("fakediscord: %s %s: the client hung up before its body ended", r.Method, apiPath(r.URL.Path))
		s.mu.Unlock()
		return
	}
	c.body, c.files = body, files
	if err == nil {
		c.prep = prepare(r.Method, c.pattern, body)
	}
	s.mu.Lock()
	if c.exempt() {
		s.counts.Exempt++
	} else {
		s.counts.Global++
	}
	s.counts.ByRoute[r.Method+" "+c.pattern]++
	f := s.faultLocked(r.Method, c.path)
	if f == nil {
		if h := s.holdLocked(r.Method, c.path); h != nil {
			s.mu.Unlock()
			close(h.held)
			select {
			case <-h.release:
			case <-r.Context().Done():
				// The client gave up while the request was held: it never
				// got through, as one lost on its way would not.
				s.mu.Lock()
				s.logLocked("fakediscord: %s gave up while held: not applied", c.describe())
				s.mu.Unlock()
				return
			}
			s.mu.Lock()
		}
	}
	switch {
	case f != nil && f.Phase == Before:
		s.markFaultedLocked(c.path)
		c.answerFault(f)
	case err != nil:
		c.reject(http.StatusBadRequest, 50109, "The request body contains invalid JSON.", err.Error())
	case !c.authorized():
	case f != nil:
		// After: apply the request, throw its answer away, answer the fault.
		s.markFaultedLocked(c.path)
		sw.discard = true
		h(c)
		sw.discard = false
		s.lost[c.retryKey()] = true
		c.answerFault(f)
	case c.stillLimitedLocked():
	case c.globalLimitLocked():
	case c.hookBucketLocked():
	default:
		h(c)
	}
	switch {
	case f != nil:
	case sw.status == http.StatusUnauthorized || sw.status == http.StatusForbidden || sw.status == http.StatusTooManyRequests:
		s.counts.Invalid++
	case sw.status == http.StatusNotFound:
		s.counts.NotFound++
	}
	if r.Method != http.MethodGet {
		s.changedLocked() // also ephemeral messages, which have no dispatch
	}
	s.mu.Unlock()
	s.emit(c.events...)
	for _, f := range c.after {
		f()
	}
}

// readBody returns the JSON payload, also from multipart/form-data bodies
// (payload_json plus files[n]).
func readBody(r *http.Request) ([]byte, []attachment, error) {
	mediaType, params := r.Header.Get("Content-Type"), map[string]string(nil)
	if mediaType != "application/json" { // as discordgo sends JSON: nothing to parse
		mediaType, params, _ = mime.ParseMediaType(mediaType)
	}
	if mediaType != "multipart/form-data" {
		// io.ReadAll, but sized once: growing the buffer step by step cost
		// more than the rest of reading a request.
		var b bytes.Buffer
		if n := r.ContentLength; n > 0 && n <= 1<<20 {
			b.Grow(int(n) + bytes.MinRead)
		}
		_, err := b.ReadFrom(r.Body)
		return b.Bytes(), nil, err
	}
	var payload []byte
	var files []attachment
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return payload, files, nil
		}
		if err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, err
		}
		switch name := part.FormName(); {
		case name == "payload_json":
			payload = data
		case strings.HasPrefix(name, "files["):
			files = append(files, attachment{Filename: part.FileName(), Size: len(data), ContentType: part.Header.Get("Content-Type")})
		}
	}
}

// authorized checks the bot token. Interaction and webhook routes are
// authenticated by their token, but a wrong Authorization header is still an error.
func (c *call) authorized() bool {
	p := c.r.URL.Path
	for _, prefix := range apiPrefixes {
		p = strings.TrimPrefix(p, prefix)
	}
	auth := c.r.Header.Get("Authorization")
	tokenRoute := strings.HasPrefix(p, "/interactions/") || strings.HasPrefix(p, "/webhooks/") || p == "/gateway"
	if auth == "Bot "+BotToken && c.s.revoked && !tokenRoute {
		c.refuse(http.StatusUnauthorized, 0, "401: Unauthorized", "the bot's token was reset (RevokeToken)")
		return false
	}
	if auth == "Bot "+BotToken || auth == "" && tokenRoute {
		return true
	}
	c.reject(http.StatusUnauthorized, 0, "401: Unauthorized", fmt.Sprintf("Authorization header %q, want %q", auth, "Bot "+BotToken))
	return false
}

// RevokeToken resets the bot's token, as its owner pressing Reset Token
// would: from then on every request made with it is answered 401
// Unauthorized, an invalid request that does not fail the test.
// Interaction routes, authenticated by their own tokens, still work. (The
// gateway is left connected: only REST is modelled.)
func (s *Server) RevokeToken() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revoked = true
}

func (c *call) describe() string { return c.r.Method + " " + c.r.URL.Path }

func (c *call) reply(status int, v any) {
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	if w, ok := v.(wireMessage); ok { // a message created
		c.s.encodeBuf = append(appendMessage(c.s.encodeBuf[:0], &w), '\n')
		c.w.Write(c.s.encodeBuf)
		return
	}
	json.NewEncoder(c.w).Encode(v)
}

func (c *call) ok(v any) { c.reply(http.StatusOK, v) }

// okMessage answers 200 with a message, as ok would.
func (c *call) okMessage(m *message) {
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(http.StatusOK)
	c.w.Write(c.s.messageJSONLocked(m))
}

func (c *call) noContent() { c.w.WriteHeader(http.StatusNoContent) }

// reject answers with a Discord error and records the failure, unless the
// request retries one whose response the fake lost (a fault After; same
// method, path and body): then the refusal is what Discord answers a
// correct bot too.
func (c *call) reject(status, code int, message, why string) {
	if why != "" {
		why = ": " + why
	}
	msg := fmt.Sprintf("%s: %d %s (code %d)%s", c.describe(), status, message, code, why)
	if c.s.lost[c.retryKey()] {
		c.s.logLocked("fakediscord: retry of a request whose response was lost: %s", msg)
	} else {
		c.s.failLocked(msg)
	}
	c.reply(status, apiError{Message: message, Code: code})
}

// unknownMessage answers 404 Unknown Message for message id: no fault of
// the bot's when a user deleted it (User.DeleteMessage), a failure else.
func (c *call) unknownMessage(id, why string) {
	if id != "" && c.s.deletedByOthers[id] {
		c.refuse(http.StatusNotFound, 10008, "Unknown Message", "a user deleted it")
		return
	}
	c.reject(http.StatusNotFound, 10008, "Unknown Message", why)
}

// refuse answers with a Discord error that is part of a scenario the test
// set up (such as DenyThreads), without recording a failure.
func (c *call) refuse(status, code int, message, why string) {
	c.s.logLocked("fakediscord: %s: %d %s (code %d): %s", c.describe(), status, message, code, why)
	c.reply(status, apiError{Message: message, Code: code})
}

func (c *call) invalid(errs formErrors) {
	c.s.failLocked(fmt.Sprintf("%s: 400 Invalid Form Body (code 50035): %s", c.describe(), errs))
	c.reply(http.StatusBadRequest, apiError{Message: "Invalid Form Body", Code: 50035, Errors: errs.body()})
}

// decode parses the JSON body into v, answering the error itself.
func (c *call) decode(v any) bool {
	return c.parse(func() error { return json.Unmarshal(c.body, v) })
}

// callbackBody decodes an interaction callback (as prepared), answering
// the error itself.
func (c *call) callbackBody() (*callbackBody, bool) {
	ok := c.parse(func() error { return c.prep.callbackErr })
	return c.prep.callback, ok && c.prep.callback != nil
}

// message parses a message payload, answering the error itself.
func (c *call) message() (p *messageParams, ok bool) {
	ok = c.parse(func() (err error) {
		p, err = c.parseMessage(c.body)
		return err
	})
	return p, ok
}

func (c *call) parse(f func() error) bool {
	if !c.prep.valid {
		c.reject(http.StatusBadRequest, 50109, "The request body contains invalid JSON.", "")
		return false
	}
	if err := f(); err != nil {
		var errs formErrors
		errs.add("", "BASE_TYPE_INVALID", "%v", err)
		c.invalid(errs)
		return false
	}
	return true
}

func (c *call) emit(e event) { c.events = append(c.events, e) }

func (s *Server) getGateway(c *call) {
	if strings.HasSuffix(c.r.URL.Path, "/bot") {
		c.ok(map[string]any{
			"url":    s.gatewayURL(),
			"shards": s.recommendedShards,
			"session_start_limit": map[string]int{
				"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1,
			},
		})
		return
	}
	c.ok(map[string]string{"url": s.gatewayURL()})
}

func (s *Server) getMe(c *call) { c.ok(s.bot.wire()) }

func (s *Server) getUser(c *call) {
	u := s.userLocked(c.r.PathValue("user"))
	if u == nil {
		c.reject(http.StatusNotFound, 10013, "Unknown User", "")
		return
	}
	c.ok(u.wire())
}

// guild resolves the {guild} path value: one of the guilds the bot is in.
func (c *call) guild() *guild {
	g := c.s.findGuildLocked(c.r.PathValue("guild"))
	if g == nil {
		c.reject(http.StatusForbidden, 50001, "Missing Access", "the bot is not in guild "+c.r.PathValue("guild"))
	}
	return g
}

func (s *Server) getGuild(c *call) {
	if g := c.guild(); g != nil {
		c.ok(s.guildWireLocked(g))
	}
}

func (s *Server) getGuildChannels(c *call) {
	if g := c.guild(); g != nil {
		c.ok(s.channelsWireLocked(g))
	}
}

func (s *Server) getMember(c *call) {
	g := c.guild()
	if g == nil {
		return
	}
	u := s.userLocked(c.r.PathValue("user"))
	if u == nil {
		c.reject(http.StatusNotFound, 10007, "Unknown Member", "")
		return
	}
	c.ok(s.memberLocked(g, u, true, false))
}

// channel resolves the {channel} path value.
func (c *call) channel() *channel {
	id := c.r.PathValue("channel")
	ch := c.s.channelLocked(id)
	switch {
	case ch == nil && c.s.deletedChannels[id]:
		// Deleted by a member (DeleteChannel, DeleteThread): Discord's
		// answer, not a bot's mistake, unless it is repeated (see NotFound).
		c.refuse(http.StatusNotFound, 10003, "Unknown Channel", "deleted")
	case ch == nil:
		c.reject(http.StatusNotFound, 10003, "Unknown Channel", "")
	case c.s.accessDeniedLocked(id):
		c.refuse(http.StatusForbidden, 50001, "Missing Access", "the bot may not view "+id+" (DenyAccess)")
		return nil
	}
	return ch
}

func (s *Server) getChannel(c *call) {
	if ch := c.channel(); ch != nil {
		c.ok(s.channelObjectLocked(ch))
	}
}

// channelMessage resolves {channel}/{message} to a public message: ephemeral
// ones cannot be reached through channel routes.
func (c *call) channelMessage() *message {
	ch := c.channel()
	if ch == nil {
		return nil
	}
	id := c.r.PathValue("message")
	m := c.s.messages[id]
	if m == nil && c.s.deletedBeforeKill[id] {
		delete(c.s.deletedBeforeKill, id) // once: see Killed
		c.refuse(http.StatusNotFound, 10008, "Unknown Message", "deleted by the bot before it was killed")
		return nil
	}
	if m == nil && c.s.deletedByOthers[id] && !c.s.goneTold[id] {
		// Once: a message that answered 404 must not be asked for again.
		if c.s.goneTold == nil {
			c.s.goneTold = map[string]bool{}
		}
		c.s.goneTold[id] = true
		c.refuse(http.StatusNotFound, 10008, "Unknown Message", "a user deleted it")
		return nil
	}
	if m == nil || m.channelID != ch.id || m.ephemeral {
		c.reject(http.StatusNotFound, 10008, "Unknown Message", "")
		return nil
	}
	return m
}

func (s *Server) listMessages(c *call) {
	ch := c.channel()
	if ch == nil {
		return
	}
	q := c.r.URL.Query()
	limit, ok := c.limit(50)
	if !ok {
		return
	}
	var public []*message
	for _, m := range s.history[ch.id] {
		if !m.ephemeral {
			public = append(public, m)
		}
	}
	before, after, around := q.Get("before"), q.Get("after"), q.Get("around")
	var page []*message
	switch {
	case after != "":
		for _, m := range public {
			if idLess(after, m.id) && len(page) < limit {
				page = append(page, m)
			}
		}
	case around != "":
		i := slices.IndexFunc(public, func(m *message) bool { return !idLess(m.id, around) })
		if i < 0 {
			i = len(public)
		}
		lo := max(0, i-limit/2)
		page = public[lo:min(len(public), lo+limit)]
	default:
		end := len(public)
		if before != "" {
			end = slices.IndexFunc(public, func(m *message) bool { return !idLess(m.id, before) })
			if end < 0 {
				end = len(public)
			}
		}
		page = public[max(0, end-limit):end]
	}
	// Discord returns the newest message first.
	out := make([]wireMessage, 0, len(page))
	for i := len(page) - 1; i >= 0; i-- {
		out = append(out, s.messageWireLocked(page[i], false))
	}
	c.ok(out)
}

func (s *Server) createMessage(c *call) {
	ch := c.channel()
	if ch == nil {
		return
	}
	if s.postingDeniedLocked(ch.id) {
		c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "the bot may not post in "+ch.id+" (DenyPosting)")
		return
	}
	if c.rejectLocked(ch.id, "message") {
		return
	}
	p, ok := c.message()
	if !ok {
		return
	}
	var errs formErrors
	nonce := checkNonce(p.Nonce, "nonce", &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return
	}
	if nonce != "" && p.EnforceNonce {
		// Discord: a message by the same author with the same nonce in the
		// last few minutes is returned, and nothing is created.
		if old := s.nonceMessageLocked(ch.id, s.bot, nonce); old != nil {
			w := s.messageWireLocked(old, false)
			w.Nonce = old.nonceRaw
			c.ok(w)
			return
		}
	}
	m := &message{channelID: ch.id, author: s.bot, nonce: nonce}
	if nonce != "" {
		m.nonceRaw = slices.Clone(p.Nonce)
	}
	if p.MessageReference != nil {
		ref := s.messages[p.MessageReference.MessageID]
		switch {
		case ref != nil && ref.channelID == ch.id && !ref.ephemeral && ref.system():
			// Refused even with fail_if_not_exists false: the message exists.
			var errs formErrors
			errs.add("message_reference", "REPLIES_CANNOT_REPLY_TO_SYSTEM_MESSAGE", "Cannot reply to a system message")
			c.invalid(errs)
			return
		case ref != nil && ref.channelID == ch.id && !ref.ephemeral:
			m.kind = 19 // REPLY
			m.replyTo = ref.id
		case p.MessageReference.FailIfNotExists != nil && !*p.MessageReference.FailIfNotExists:
			// Sent as a plain message.
		default:
			var errs formErrors
			errs.add("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
			c.invalid(errs)
			return
		}
	}
	if m := s.createLocked(c, p, "", channelFlags, m); m != nil {
		w := s.messageWireLocked(m, false)
		w.Nonce = m.nonceRaw
		c.ok(w)
	}
}

// nonceWindow is how long Discord remembers a nonce for enforce_nonce
// ("the past few minutes").
const nonceWindow = 2 * time.Minute

// nonceMessageLocked finds a live message by author with this nonce created
// in the channel within nonceWindow.
func (s *Server) nonceMessageLocked(channelID string, author *User, nonce string) *message {
	h := s.history[channelID]
	since := s.nowLocked().Add(-nonceWindow)
	for i := len(h) - 1; i >= 0 && h[i].created.After(since); i-- {
		if h[i].author == author && h[i].nonce == nonce {
			return h[i]
		}
	}
	return nil
}

// createLocked validates a new message's payload, completes base with it and
// stores it. It answers the request itself on error and then returns nil.
func (s *Server) createLocked(c *call, p *messageParams, prefix string, allowedFlags int, m *message) *message {
	var errs formErrors
	checkMessage(p, prefix, allowedFlags, &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return nil
	}
	m.content, m.embeds, m.components = p.Content, richEmbeds(p.Embeds), normalize(p.Components)
	m.attachments = s.attachLocked(nil, nil, c.files)
	if !c.attachmentsFit(m.attachments, prefix) {
		return nil
	}
	m.flags = p.Flags & channelFlags
	m.allowed, m.tts = p.AllowedMentions, p.TTS
	if m.empty() && !m.loading {
		c.reject(http.StatusBadRequest, 50006, "Cannot send an empty message", "")
		return nil
	}
	m.mentions = s.mentionsLocked(m.content, m.allowed, s.replyAuthorLocked(m))
	s.storeLocked(m)
	s.toldOfLocked(m)
	if !m.ephemeral {
		w := s.messageWireLocked(m, true)
		w.Nonce = m.nonceRaw
		c.emit(s.eventLocked("MESSAGE_CREATE", w))
	}
	return m
}

// editLocked applies an edit: keys present in the payload replace (null
// clears), absent keys are kept. Editing a deferred response's loading
// placeholder is what actually sends it, so that edit pings.
func (s *Server) editLocked(c *call, m *message, p *messageParams, prefix string) bool {
	var errs formErrors
	checkMessage(p, prefix, anyFlags, &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return false
	}
	next := *m
	if p.has&keyContent != 0 {
		next.content = p.Content
	}
	if p.has&keyEmbeds != 0 {
		next.embeds = richEmbeds(p.Embeds)
	}
	if p.has&keyComponents != 0 {
		next.components = normalize(p.Components)
	}
	if p.has&keyAttachments != 0 || len(c.files) > 0 {
		var keep []string
		for _, a := range p.Attachments {
			keep = append(keep, fmt.Sprint(a.ID))
		}
		next.attachments = s.attachLocked(m.attachments, keep, c.files)
		if !c.attachmentsFit(next.attachments, prefix) {
			return false
		}
	}
	if p.has&keyFlags != 0 {
		next.flags = next.flags&^flagSuppressEmbeds | p.Flags&flagSuppressEmbeds
	}
	if next.empty() {
		c.reject(http.StatusBadRequest, 50006, "Cannot send an empty message", "")
		return false
	}
	if p.has&keyContent != 0 || m.loading {
		next.allowed = p.AllowedMentions
		next.mentions = s.mentionsLocked(next.content, next.allowed, s.replyAuthorLocked(m))
	}
	wasLoading := m.loading
	next.loading, next.rendered = false, nil
	if !wasLoading {
		now := s.nowLocked()
		next.edited = &now
		next.edits++
	}
	*m = next
	if wasLoading {
		s.pingLocked(m)
	}
	s.toldOfLocked(m)
	if !m.ephemeral {
		c.emit(s.eventLocked("MESSAGE_UPDATE", s.messageWireLocked(m, true)))
	}
	return true
}

// attachmentsFit checks a message's attachments against Discord's limits:
// at most 10, and the files uploaded in one request at most 10 MiB together
// (the guild's attachment_size_limit).
func (c *call) attachmentsFit(all []attachment, prefix string) bool {
	if len(all) > 10 {
		var errs formErrors
		errs.add(at(prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
		c.invalid(errs)
		return false
	}
	total := 0
	for _, f := range c.files {
		total += f.Size
	}
	if total > attachmentSizeLimit {
		c.reject(http.StatusRequestEntityTooLarge, 40005, "Request entity too large", fmt.Sprintf("%d bytes of files, the limit is %d", total, attachmentSizeLimit))
		return false
	}
	return true
}

// attachLocked computes a message's attachments: the kept old ones (all, if
// keep is nil) followed by newly uploaded files.
func (s *Server) attachLocked(old []attachment, keep []string, files []attachment) []attachment {
	var out []attachment
	for _, a := range old {
		if keep == nil || slices.Contains(keep, a.ID) {
			out = append(out, a)
		}
	}
	for _, f := range files {
		f.ID = s.newIDLocked()
		f.URL = "https://cdn.discordapp.com/attachments/" + f.ID + "/" + f.Filename
		f.ProxyURL = "https://media.discordapp.net/attachments/" + f.ID + "/" + f.Filename
		out = append(out, f)
	}
	return out
}

func richEmbeds(embeds []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	out := cloneEmbeds(embeds)
	for _, e := range out {
		e.Type = discordgo.EmbedTypeRich
	}
	return out
}

func (s *Server) getMessage(c *call) {
	if m := c.channelMessage(); m != nil {
		c.okMessage(m)
	}
}

func (s *Server) editMessage(c *call) {
	m := c.channelMessage()
	if m == nil {
		return
	}
	if m.author != s.bot {
		c.reject(http.StatusForbidden, 50005, "Cannot edit a message authored by another user", "")
		return
	}
	if m.system() {
		// The bot is the author of the THREAD_CREATED messages of its threads.
		c.reject(http.StatusBadRequest, 50021, "Cannot execute action on a system message", fmt.Sprintf("message %s is of type %d", m.id, m.kind))
		return
	}
	if c.rejectArchived(m.channelID, "edit of message "+m.id) {
		return
	}
	p, ok := c.message()
	if ok && s.editLocked(c, m, p, "") {
		c.okMessage(m)
	}
}

func (s *Server) deleteMessage(c *call) {
	if m := c.channelMessage(); m != nil {
		c.events = append(c.events, s.deleteAndAnnounceLocked(m)...)
		if s.deletedByBot == nil {
			s.deletedByBot = map[string]bool{}
		}
		s.deletedByBot[m.id] = true
		c.noContent()
	}
}

// deleteAndAnnounceLocked deletes m and returns the MESSAGE_DELETE to send
// for it, if any (none for an ephemeral message).
func (s *Server) deleteAndAnnounceLocked(m *message) []event {
	s.deleteLocked(m)
	if m.ephemeral {
		return nil
	}
	return []event{s.eventLocked("MESSAGE_DELETE", map[string]string{"id": m.id, "channel_id": m.channelID, "guild_id": s.channelGuildLocked(m.channelID).id})}
}

// limit reads a list route's ?limit= (1–100), answering 400 when it is bad.
func (c *call) limit(def int) (int, bool) {
	v := c.r.URL.Query().Get("limit")
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100 {
		var errs formErrors
		errs.add("limit", "NUMBER_TYPE_MAX", "Must be between 1 and 100.")
		c.invalid(errs)
		return 0, false
	}
	return n, true
}
