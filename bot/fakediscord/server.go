// Package fakediscord is an in-process fake of Discord, for tests and for the
// local table (a Discord stand-in to play on without a token). A real
// discordgo session connects to it over loopback, speaking the real gateway
// (websocket) and REST protocols, while the test acts as guild members
// (slash commands, button clicks, selects, modals, reactions).
//
// Anything real Discord would reject is answered with Discord's own status and
// JSON error body and also fails the test, so bot bugs surface as test
// failures instead of as silent "This interaction failed" in production.
//
// Point discordgo at it with an http.Client whose transport sends
// https://discord.com/... to URL() (discordgo v0.29.0 requests /api/v9, the
// fake serves v9 and v10), set SyncEvents, Open, and act:
//
//	fake := fakediscord.New(t)
//	alice := fake.AddUser("Alice")
//	r := alice.Command(fake.ChannelID(), "game", fakediscord.Sub("start"))
//	alice.Click(r.Message, r.Message.ButtonID("Join"))
//
// Every user action waits for the bot's answer, then for Sync and the
// settler, so assertions need no sleeping. An action a real user could not
// perform (unknown command or option, hidden or disabled component) fails
// the test and returns nil.
//
// Outside tests, pass a LogReporter instead of t: what would fail a test is
// logged, and LogReporter.Close shuts the fake down.
//
// Bad days can be switched on (faults.go, gatewayfaults.go): REST faults
// (FailNext, FailNextAfter, Inject, and seeded random Faults), gateway
// faults (Reconnect, InvalidSession, DropSockets, then AwaitConnected), with
// RESTCounts, GatewayStats and FailedInteractions to assert on. Threads
// (threads.go) work as channels; DenyThreads takes the permission away.
//
// AddGuild adds more guilds, each on the shard a test asks for. A bot that
// identifies with shard [id, count] gets the guilds (guild_id >> 22) % count
// == id, and their events, as on Discord; GET /gateway/bot recommends
// SetRecommendedShards's count.
package fakediscord

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// BotToken is the only bot token the fake accepts.
const BotToken = "fake-bot-token"

// discordgo v0.29.0 still speaks API v9 (discordgo.APIVersion), so the fake
// serves v9 and v10 alike.
var apiPrefixes = []string{"/api/v10", "/api/v9"}

const (
	heartbeatInterval = 41250 * time.Millisecond
	syncTimeout       = 5 * time.Second
	tokenLifetime     = 15 * time.Minute
	discordEpochMs    = 1420070400000
	// attachmentSizeLimit is what a guild without boosts allows per upload.
	attachmentSizeLimit = 10 << 20
)

// Permission sets handed out by the fake guild.
const (
	// As @everyone has by default, thread permissions included.
	memberPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionReadMessageHistory | discordgo.PermissionAddReactions |
		discordgo.PermissionUseApplicationCommands | discordgo.PermissionEmbedLinks |
		discordgo.PermissionCreatePublicThreads | discordgo.PermissionCreatePrivateThreads |
		discordgo.PermissionSendMessagesInThreads
	adminPermissions = discordgo.PermissionAdministrator | discordgo.PermissionManageChannels
	// Discord reports every permission bit for administrators.
	allPermissions = 1<<51 - 1
	botPermissions = memberPermissions | discordgo.PermissionAttachFiles |
		discordgo.PermissionManageMessages | discordgo.PermissionUseExternalEmojis
)

// Server is a fake Discord: a guild (or more, AddGuild) with text channels,
// its members, the bot user, and everything the bot has sent.
type Server struct {
	t        Reporter
	srv      *httptest.Server
	upgrader websocket.Upgrader
	wg       sync.WaitGroup // gateway connections still reading

	mu        sync.RWMutex  // readers of the recorded world (Message, Messages) share it
	deadline  time.Duration // how long the bot has to answer an interaction
	revoked   bool          // RevokeToken
	clockSkew time.Duration // added by Advance, for token lifetimes
	lastID    int64
	closing   bool
	done      bool // cleanup finished: t must not be used any more

	guildID, adminRoleID, botRoleID string
	moreGuilds                      []*guild // AddGuild's, after the first
	recommendedShards               int      // GET /gateway/bot's "shards"
	sharded                         bool     // a session identified with a shard count above 1
	createdAt                       time.Time
	owner, bot                      *User
	users                           map[string]*User
	channels                        []*channel // text channels
	threads                         []*channel
	threadsBeforeKill               map[string]bool                            // see Killed
	deletedByBot, deletedBeforeKill map[string]bool                            // message ids; see Killed
	deletedByOthers, goneTold       map[string]bool                            // message ids a user deleted (User.DeleteMessage); those the bot was told of on a channel route
	archivedRefusals                int                                        // requests refused in archived threads
	lockedRefusals                  int                                        // requests refused in locked threads
	channelByID                     map[string]*channel                        // channels and threads: looked up on every request
	deletedChannels                 map[string]bool                            // DeleteChannel, DeleteThread
	commands                        map[string][]*discordgo.ApplicationCommand // by guild ID, "" = global
	messages                        map[string]*message
	history                         map[string][]*message // by channel, oldest first
	interactions                    map[string]*interaction
	byToken                         map[string]*interaction
	pings                           map[string]int
	failures, expected              []string
	refusals                        *[]string // set by tryLocked: failures are a Client's refusals
	// Read at the end of every user action: atomics, not s.mu, which every
	// action and request already takes several times.
	settler             atomic.Pointer[func()]
	botMessages         atomic.Pointer[func(channelID string, customIDs []string)]
	noBarrier           atomic.Bool  // SetBarrier(false)
	latency             atomic.Int64 // SetLatency, ns
	jitter              atomic.Int64 // SetLatency, ns
	conns               map[*gwConn]bool
	current             *gwSession // where dispatches go
	sessions            map[string]*gwSession
	identifies, resumes int
	resumesRefused      int
	gwChanged           chan struct{} // closed and replaced when a session connects or disconnects
	gatewayFaults       int
	changed             chan struct{} // closed and replaced on every visible change (Changes)

	// The messages keeping their rendered JSON (messageJSONLocked), the
	// oldest replaced first.
	rendered     [renderedKept]*message
	renderedNext int
	encodeBuf    []byte // where JSON is written before it is copied out (encode.go)

	// Faults (faults.go).
	scheduled          []*Fault
	holds              []*hold
	random             *Faults
	rng                *rand.Rand
	counts             RESTCounts
	lost               map[string]bool      // retryKey of requests answered with a fault After
	limitedUntil       map[string]time.Time // by "METHOD path": the retry_after of an injected 429
	globalUntil        time.Time
	failedInteractions []FailedInteraction
	hookLimit          int                    // requests per hookWindow for each webhook token; 0: none
	hookWindow         time.Duration          //
	hookBuckets        map[string]*hookBucket // by "METHOD /webhooks/{app}/{token}"
	globalLimit        int                    // requests per globalWindow against the global limit; 0: none
	globalWindow       time.Duration          //
	globalSent         []time.Time            // when the requests still in the window came, oldest first
}

// guild is one of the fake's guilds. The first lives in the Server's own
// fields (guildID, adminRoleID, botRoleID); every user is a member of all.
type guild struct {
	id, name, adminRoleID, botRoleID string
}

// channel is a text channel or a thread (threads.go).
type channel struct {
	id, name      string
	guild         string // "" for the first guild
	position      int
	kind          int  // 0 GUILD_TEXT, 11 PUBLIC_THREAD, 12 PRIVATE_THREAD
	threadsDenied bool // text channels: DenyThreads
	postingDenied bool // text channels: DenyPosting
	manageDenied  bool // text channels: DenyManageMessages
	accessDenied  bool // text channels: DenyAccess

	// Threads only.
	parentID, ownerID string
	created           time.Time
	autoArchive       int // minutes
	rateLimit         int
	invitable         bool
	members           []string
	messageCount      int
	lastMessageID     string
	activeAt          time.Time // the last message sent, unarchive or interaction
	archived          bool      // archived by request (PATCH), not by idling
	locked            bool      // LockThread: only Manage Threads may unarchive or post
}

// Reporter is what the fake needs from its user: where to report what real
// Discord would refuse (Errorf), misuse of the fake itself (Fatalf), notes
// (Logf), and when to shut down (Cleanup). A *testing.T or *testing.B is one,
// so in tests every violation fails the test; a program passes its own, which
// may log violations instead of failing.
type Reporter interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
}

// New starts a fake Discord on 127.0.0.1 with one guild, "Fake Guild", and
// one text channel. Everything is shut down by t.Cleanup.
func New(t Reporter) *Server {
	s := newServer(t)
	s.mu.Lock()
	s.guildID = s.newIDLocked()
	s.adminRoleID = s.newIDLocked()
	s.botRoleID = s.newIDLocked()
	// Modern applications share their ID with their bot user, and bots rely on it.
	s.bot = &User{ID: s.newIDLocked(), Name: "Fake Bot", username: "fakebot", bot: true, joinedAt: s.createdAt, s: s}
	s.owner = s.addMemberLocked("Guild Owner", true)
	s.addChannelLocked("general")
	s.mu.Unlock()
	s.serve()
	return s
}

// newServer is a server with nothing in it yet.
func newServer(t Reporter) *Server {
	return &Server{
		t:                 t,
		deadline:          discordgo.InteractionDeadline,
		createdAt:         time.Now().Add(-24 * time.Hour),
		users:             map[string]*User{},
		commands:          map[string][]*discordgo.ApplicationCommand{},
		messages:          map[string]*message{},
		history:           map[string][]*message{},
		interactions:      map[string]*interaction{},
		byToken:           map[string]*interaction{},
		pings:             map[string]int{},
		conns:             map[*gwConn]bool{},
		recommendedShards: 1,
		sessions:          map[string]*gwSession{},
		gwChanged:         make(chan struct{}),
		counts:            RESTCounts{ByRoute: map[string]int{}},
		lost:              map[string]bool{},
		limitedUntil:      map[string]time.Time{},
		hookBuckets:       map[string]*hookBucket{},
		globalLimit:       DiscordGlobalLimit,
		globalWindow:      time.Second,
		changed:           make(chan struct{}),
	}
}

// serve starts serving on a loopback port until t's cleanup.
func (s *Server) serve() {
	s.srv = httptest.NewServer(s.routes())
	s.t.Cleanup(s.close)
}

func (s *Server) close() {
	s.mu.Lock()
	s.closing = true
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close()
	}
	s.srv.Close()
	s.wg.Wait()
	s.mu.Lock()
	for _, e := range s.expected {
		s.t.Errorf("fakediscord: expected a failure containing %q, but none happened", e)
	}
	s.done = true
	s.mu.Unlock()
}

// APIURL is the REST base URL standing in for https://discord.com/api/v10.
// discordgo v0.29.0 requests https://discord.com/api/v9/...: rewrite the
// scheme and host (see URL) rather than the v10 prefix.
func (s *Server) APIURL() string { return s.srv.URL + "/api/v10" }

// URL is the fake's origin, http://127.0.0.1:PORT, standing in for
// https://discord.com: it serves /api/v9 and /api/v10.
func (s *Server) URL() string { return s.srv.URL }

func (s *Server) gatewayURL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/gateway"
}

// GuildID is the ID of the first guild (the only one unless AddGuild).
func (s *Server) GuildID() string { return s.guildID }

// AddGuild adds another guild, with one text channel, "general", and the bot
// in it; every user is a member. Its ID is a fresh snowflake that a bot
// running count shards receives on shard `shard` ((id >> 22) % count), so a
// test can put guilds on the shards it wants. The bot's session on that
// shard, if connected, gets GUILD_CREATE as when a bot joins a guild.
// AddGuild returns the guild's ID; GuildChannelID gives its channel.
func (s *Server) AddGuild(name string, shard, count int) string {
	s.mu.Lock()
	if count < 1 || shard < 0 || shard >= count {
		s.mu.Unlock()
		s.t.Fatalf("fakediscord: AddGuild on shard %d of %d", shard, count)
		return ""
	}
	// The next millisecond at or after now that lands on the shard.
	ms := max(time.Now().UnixMilli()-discordEpochMs, s.lastID>>22+1)
	ms += (int64(shard) - ms%int64(count) + int64(count)) % int64(count)
	s.lastID = ms << 22
	g := &guild{id: strconv.FormatInt(s.lastID, 10), name: name}
	g.adminRoleID, g.botRoleID = s.newIDLocked(), s.newIDLocked()
	s.moreGuilds = append(s.moreGuilds, g)
	c := s.addChannelLocked("general")
	c.guild = g.id
	ev := s.eventLocked("GUILD_CREATE", s.guildCreateLocked(g))
	s.mu.Unlock()
	s.emit(ev)
	return g.id
}

// GuildChannelID is the ID of a guild's first text channel.
func (s *Server) GuildChannelID(guildID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.channels {
		if s.channelGuildLocked(c.id).id == guildID {
			return c.id
		}
	}
	return ""
}

// NewChannelIn is NewChannel in another guild.
func (s *Server) NewChannelIn(guildID, name string) string {
	s.mu.Lock()
	g := s.findGuildLocked(guildID)
	if g == nil {
		s.mu.Unlock()
		s.t.Fatalf("fakediscord: NewChannelIn: no guild %s", guildID)
		return ""
	}
	c := s.addChannelLocked(name)
	if g.id != s.guildID {
		c.guild = g.id
	}
	ev := s.eventLocked("CHANNEL_CREATE", s.channelWireLocked(c))
	s.mu.Unlock()
	s.emit(ev)
	return c.id
}

// SetRecommendedShards sets the shard count GET /gateway/bot recommends.
func (s *Server) SetRecommendedShards(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recommendedShards = n
}

// guildsLocked lists every guild, the first first.
func (s *Server) guildsLocked() []*guild {
	first := &guild{id: s.guildID, name: "Fake Guild", adminRoleID: s.adminRoleID, botRoleID: s.botRoleID}
	return append([]*guild{first}, s.moreGuilds...)
}

func (s *Server) findGuildLocked(id string) *guild {
	for _, g := range s.guildsLocked() {
		if g.id == id {
			return g
		}
	}
	return nil
}

// channelGuildLocked is the guild of a channel or thread; the first guild
// for one it does not know.
func (s *Server) channelGuildLocked(channelID string) *guild {
	if c := s.channelLocked(channelID); c != nil && c.guild != "" {
		if g := s.findGuildLocked(c.guild); g != nil {
			return g
		}
	}
	return s.guildsLocked()[0]
}

// ChannelID is the ID of the guild's default text channel.
func (s *Server) ChannelID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channels[0].id
}

// BotUserID is the bot's user ID.
func (s *Server) BotUserID() string { return s.bot.ID }

// AppID is the application ID; as for modern Discord apps it equals BotUserID.
func (s *Server) AppID() string { return s.bot.ID }

// NewChannel adds a text channel to the guild, announcing it to the connected
// bot with CHANNEL_CREATE, and returns its ID.
func (s *Server) NewChannel(name string) string {
	s.mu.Lock()
	c := s.addChannelLocked(name)
	ev := s.eventLocked("CHANNEL_CREATE", s.channelWireLocked(c))
	s.mu.Unlock()
	s.emit(ev)
	return c.id
}

func (s *Server) addChannelLocked(name string) *channel {
	// Discord text channel names are lowercase without spaces.
	name = strings.ToLower(strings.Join(strings.Fields(name), "-"))
	c := &channel{id: s.newIDLocked(), name: name, position: len(s.channels)}
	s.putChannelLocked(c, false)
	return c
}

// channelLocked finds a text channel or a thread.
func (s *Server) channelLocked(id string) *channel { return s.channelByID[id] }

// putChannelLocked adds a text channel, or a thread.
func (s *Server) putChannelLocked(c *channel, thread bool) {
	if thread {
		s.threads = append(s.threads, c)
	} else {
		s.channels = append(s.channels, c)
	}
	if s.channelByID == nil {
		s.channelByID = map[string]*channel{}
	}
	s.channelByID[c.id] = c
}

// AddUser adds a guild member with ordinary permissions.
func (s *Server) AddUser(name string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addMemberLocked(name, false)
}

// AddAdmin adds a guild member with the admin role (ADMINISTRATOR and
// MANAGE_CHANNELS).
func (s *Server) AddAdmin(name string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addMemberLocked(name, true)
}

func (s *Server) addMemberLocked(name string, admin bool) *User {
	u := &User{
		ID:       s.newIDLocked(),
		Name:     name,
		username: usernameOf(name),
		admin:    admin,
		joinedAt: s.createdAt.Add(time.Duration(len(s.users)+1) * time.Minute),
		s:        s,
	}
	s.users[u.ID] = u
	s.changedLocked()
	return u
}

// usernameOf turns a display name into a valid unique-username-style handle.
func usernameOf(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	return b.String()
}

// userLocked finds a guild member or the bot.
func (s *Server) userLocked(id string) *User {
	if id == s.bot.ID {
		return s.bot
	}
	return s.users[id]
}

// SetSettler sets a function called at the end of every user action, after
// Sync, e.g. to let the bot's background work finish.
func (s *Server) SetSettler(f func()) {
	if f == nil {
		s.settler.Store(nil)
		return
	}
	s.settler.Store(&f)
}

// OnBotMessage sets a function told of every message the bot creates or
// edits, once the change is applied: its channel and the custom_ids of its
// components. A load's players hear of their hands this way rather than by
// polling. It runs under the fake's lock, so it must not call the Server.
func (s *Server) OnBotMessage(f func(channelID string, customIDs []string)) {
	if f == nil {
		s.botMessages.Store(nil)
		return
	}
	s.botMessages.Store(&f)
}

// toldOfLocked passes m to the OnBotMessage function, if one is set.
func (s *Server) toldOfLocked(m *message) {
	f := s.botMessages.Load()
	if f == nil {
		return
	}
	var ids []string
	var walk func([]*component)
	walk = func(cs []*component) {
		for _, c := range cs {
			if c.CustomID != "" {
				ids = append(ids, c.CustomID)
			}
			walk(c.Components)
		}
	}
	walk(m.components)
	(*f)(m.channelID, ids)
}

// SetBarrier(false) ends user actions without the Sync barrier: for load
// runs, whose players watch the bot's requests themselves and would only
// spend CPU (and the bot's gateway) on heartbeats.
func (s *Server) SetBarrier(on bool) { s.noBarrier.Store(!on) }

// SetLatency makes every REST request take d longer, as a round trip to
// Discord does (tens of milliseconds), where loopback takes microseconds:
// a bot that waits on its requests one after another shows it. Each
// request also takes up to jitter more, drawn afresh: real round trips
// vary, and a bot that judges Discord by its fastest answer shows that.
func (s *Server) SetLatency(d, jitter time.Duration) {
	s.latency.Store(int64(d))
	s.jitter.Store(int64(jitter))
}

// jitterOnce draws one request's share of the jitter.
func (s *Server) jitterOnce() int64 {
	if j := s.jitter.Load(); j > 0 {
		return rand.Int64N(j)
	}
	return 0
}

// settle runs the barrier every user action ends with.
func (s *Server) settle() {
	if !s.noBarrier.Load() {
		s.Sync()
	}
	if f := s.settler.Load(); f != nil {
		(*f)()
	}
}

// Advance moves the fake's clock forward, so that interaction tokens (valid
// 15 minutes) can be made to expire without waiting.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clockSkew += d
}

func (s *Server) nowLocked() time.Time { return time.Now().Add(s.clockSkew) }

// Commands returns copies of the commands the bot registered in a guild, or
// the global ones for guildID "".
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneJSON(s.commands[guildID])
}

// Messages returns copies of a channel's public messages, oldest first.
func (s *Server) Messages(channelID string) []*Message {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*Message
	for _, m := range s.history[channelID] {
		if !m.ephemeral {
			out = append(out, m.public())
		}
	}
	return out
}

// Message returns a copy of a public or ephemeral message, or nil.
func (s *Server) Message(channelID, messageID string) *Message {
	return s.copyOf(channelID, messageID, (*message).public)
}

// Controls is Message without the embeds, mentions and reactions: enough
// to find and click a button, for callers (the load's players) that look
// at hands thousands of times a second.
func (s *Server) Controls(channelID, messageID string) *Message {
	return s.copyOf(channelID, messageID, (*message).controls)
}

func (s *Server) copyOf(channelID, messageID string, view func(*message) *Message) *Message {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.messages[messageID]
	if m == nil || m.channelID != channelID {
		return nil
	}
	return view(m)
}

// Pings reports how many messages have actually pinged the user: mentions in
// newly created, non-ephemeral messages that allowed_mentions let through.
func (s *Server) Pings(userID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pings[userID]
}

// Failures returns everything recorded as a failure so far.
func (s *Server) Failures() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.failures)
}

// ExpectFailure declares that the next failure whose message contains substr
// is expected: it is still recorded in Failures but does not fail the test.
// An expectation still unmet at cleanup fails the test.
func (s *Server) ExpectFailure(substr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expected = append(s.expected, substr)
}

func (s *Server) failf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(fmt.Sprintf(format, args...))
}

func (s *Server) failLocked(msg string) {
	if s.refusals != nil {
		*s.refusals = append(*s.refusals, msg)
		return
	}
	if s.done {
		return
	}
	s.failures = append(s.failures, msg)
	for i, e := range s.expected {
		if strings.Contains(msg, e) {
			s.expected = slices.Delete(s.expected, i, i+1)
			s.t.Logf("fakediscord: expected failure: %s", msg)
			return
		}
	}
	s.t.Errorf("fakediscord: %s", msg)
}

// newIDLocked returns a fresh snowflake, strictly increasing.
func (s *Server) newIDLocked() string {
	id := (time.Now().UnixMilli() - discordEpochMs) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatInt(id, 10)
}

// idLess orders snowflakes numerically.
func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func timestamp(t time.Time) string {
	var buf [len(timestampLayout)]byte
	return string(appendTimestamp(buf[:0], t))
}
