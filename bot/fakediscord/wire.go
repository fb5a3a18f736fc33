package fakediscord

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// The wire* types are the JSON shapes Discord sends, field for field as far as
// a bot can observe them.

type wireUser struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	GlobalName    *string `json:"global_name"`
	Discriminator string  `json:"discriminator"`
	Avatar        *string `json:"avatar"`
	Bot           bool    `json:"bot,omitempty"`
	PublicFlags   int     `json:"public_flags"`
}

type wireMember struct {
	User         *wireUser `json:"user,omitempty"`
	Nick         *string   `json:"nick"`
	Avatar       *string   `json:"avatar"`
	Roles        []string  `json:"roles"`
	JoinedAt     string    `json:"joined_at"`
	PremiumSince *string   `json:"premium_since"`
	Deaf         bool      `json:"deaf"`
	Mute         bool      `json:"mute"`
	Flags        int       `json:"flags"`
	Pending      bool      `json:"pending"`
	Permissions  string    `json:"permissions,omitempty"`
}

type wireChannel struct {
	ID                   string     `json:"id"`
	Type                 int        `json:"type"`
	GuildID              string     `json:"guild_id"`
	Name                 string     `json:"name"`
	Position             int        `json:"position"`
	PermissionOverwrites []struct{} `json:"permission_overwrites"`
	NSFW                 bool       `json:"nsfw"`
	Topic                *string    `json:"topic"`
	LastMessageID        *string    `json:"last_message_id"`
	ParentID             *string    `json:"parent_id"`
	RateLimitPerUser     int        `json:"rate_limit_per_user"`
	Flags                int        `json:"flags"`
	Permissions          string     `json:"permissions,omitempty"` // only inside interactions
}

type wireRole struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Color       int            `json:"color"`
	Hoist       bool           `json:"hoist"`
	Position    int            `json:"position"`
	Permissions string         `json:"permissions"`
	Managed     bool           `json:"managed"`
	Mentionable bool           `json:"mentionable"`
	Flags       int            `json:"flags"`
	Tags        map[string]any `json:"tags,omitempty"`
}

type wireGuild struct {
	ID                          string        `json:"id"`
	Name                        string        `json:"name"`
	Icon                        *string       `json:"icon"`
	OwnerID                     string        `json:"owner_id"`
	AFKChannelID                *string       `json:"afk_channel_id"`
	AFKTimeout                  int           `json:"afk_timeout"`
	VerificationLevel           int           `json:"verification_level"`
	DefaultMessageNotifications int           `json:"default_message_notifications"`
	ExplicitContentFilter       int           `json:"explicit_content_filter"`
	Roles                       []wireRole    `json:"roles"`
	Emojis                      []struct{}    `json:"emojis"`
	Stickers                    []struct{}    `json:"stickers"`
	Features                    []string      `json:"features"`
	MFALevel                    int           `json:"mfa_level"`
	SystemChannelID             *string       `json:"system_channel_id"`
	PreferredLocale             string        `json:"preferred_locale"`
	NSFWLevel                   int           `json:"nsfw_level"`
	PremiumTier                 int           `json:"premium_tier"`
	Create                      *guildCreated `json:"-"`
}

// guildCreated holds the fields only GUILD_CREATE carries.
type guildCreated struct {
	JoinedAt             string        `json:"joined_at"`
	Large                bool          `json:"large"`
	Unavailable          bool          `json:"unavailable"`
	MemberCount          int           `json:"member_count"`
	Members              []wireMember  `json:"members"`
	Channels             []wireChannel `json:"channels"`
	Threads              []wireThread  `json:"threads"`
	VoiceStates          []struct{}    `json:"voice_states"`
	Presences            []struct{}    `json:"presences"`
	StageInstances       []struct{}    `json:"stage_instances"`
	GuildScheduledEvents []struct{}    `json:"guild_scheduled_events"`
}

// MarshalJSON flattens the GUILD_CREATE extras into the guild object.
func (g wireGuild) MarshalJSON() ([]byte, error) {
	type plain wireGuild
	if g.Create == nil {
		return json.Marshal(plain(g))
	}
	return json.Marshal(struct {
		plain
		*guildCreated
	}{plain(g), g.Create})
}

func (u *User) wire() wireUser {
	w := wireUser{ID: u.ID, Username: u.username, Discriminator: "0", Bot: u.bot}
	if !u.bot {
		name := u.Name
		w.GlobalName = &name
	}
	return w
}

func (s *Server) rolesLocked(g *guild, u *User) []string {
	switch {
	case u.bot:
		return []string{g.botRoleID}
	case u.admin:
		return []string{g.adminRoleID}
	}
	return []string{}
}

// permissionsLocked computes a member's guild permissions as Discord does:
// administrators get every bit.
func (s *Server) permissionsLocked(u *User) int64 {
	switch {
	case u.bot:
		return botPermissions
	case u.admin:
		return allPermissions
	}
	return memberPermissions
}

// memberLocked renders a member of guild g; withUser and withPerms select
// the variants Discord uses in different payloads.
func (s *Server) memberLocked(g *guild, u *User, withUser, withPerms bool) wireMember {
	m := wireMember{Roles: s.rolesLocked(g, u), JoinedAt: timestamp(u.joinedAt)}
	if withUser {
		w := u.wire()
		m.User = &w
	}
	if withPerms {
		m.Permissions = permissionString(s.permissionsLocked(u))
	}
	return m
}

// permissionStrings holds the permission sets the fake hands out as the
// decimal strings Discord sends, rendered once: every interaction carries
// two of them.
var permissionStrings = func() map[int64]string {
	m := map[int64]string{}
	for _, p := range []int64{memberPermissions, allPermissions, botPermissions, botPermissions &^ threadCreatePerms} {
		m[p] = strconv.FormatInt(p, 10)
	}
	return m
}()

func permissionString(p int64) string {
	if s, ok := permissionStrings[p]; ok {
		return s
	}
	return strconv.FormatInt(p, 10)
}

func (s *Server) channelWireLocked(c *channel) wireChannel {
	return wireChannel{ID: c.id, Type: 0, GuildID: s.channelGuildLocked(c.id).id, Name: c.name, Position: c.position, PermissionOverwrites: []struct{}{}}
}

func (s *Server) guildWireLocked(g *guild) wireGuild {
	perms := func(p int64) string { return strconv.FormatInt(p, 10) }
	return wireGuild{
		ID:      g.id,
		Name:    g.name,
		OwnerID: s.owner.ID,
		Roles: []wireRole{
			{ID: g.id, Name: "@everyone", Permissions: perms(memberPermissions)},
			{ID: g.adminRoleID, Name: "Admin", Position: 1, Permissions: perms(adminPermissions), Hoist: true},
			{ID: g.botRoleID, Name: "Fake Bot", Position: 2, Permissions: perms(botPermissions), Managed: true,
				Tags: map[string]any{"bot_id": s.bot.ID}},
		},
		Emojis:          []struct{}{},
		Stickers:        []struct{}{},
		Features:        []string{},
		PreferredLocale: "en-US",
	}
}

// guildCreateLocked is the GUILD_CREATE payload. Without the privileged
// GUILD_MEMBERS intent the member list holds only the bot itself.
func (s *Server) guildCreateLocked(g *guild) wireGuild {
	w := s.guildWireLocked(g)
	w.Create = &guildCreated{
		JoinedAt:    timestamp(s.bot.joinedAt),
		MemberCount: len(s.users) + 1,
		Members:     []wireMember{s.memberLocked(g, s.bot, true, false)},
		Channels:    s.channelsWireLocked(g),
		Threads:     []wireThread{},
	}
	// Active threads the bot can see; the fake never archives any.
	for _, th := range s.threads {
		if s.canSeeLocked(s.bot, th.id) && s.channelGuildLocked(th.id) == g {
			w.Create.Threads = append(w.Create.Threads, s.threadWireLocked(th))
		}
	}
	return w
}

func (s *Server) channelsWireLocked(g *guild) []wireChannel {
	out := make([]wireChannel, 0, len(s.channels))
	for _, c := range s.channels {
		if s.channelGuildLocked(c.id).id == g.id {
			out = append(out, s.channelWireLocked(c))
		}
	}
	return out
}

type wireReady struct {
	V                int               `json:"v"`
	User             wireReadyUser     `json:"user"`
	Guilds           []wireUnavailable `json:"guilds"`
	SessionID        string            `json:"session_id"`
	ResumeGatewayURL string            `json:"resume_gateway_url"`
	Application      wireApplication   `json:"application"`
	PrivateChannels  []struct{}        `json:"private_channels"`
	Relationships    []struct{}        `json:"relationships"`
	Presences        []struct{}        `json:"presences"`
	UserSettings     struct{}          `json:"user_settings"`
}

type wireReadyUser struct {
	wireUser
	Verified   bool `json:"verified"`
	MFAEnabled bool `json:"mfa_enabled"`
	Flags      int  `json:"flags"`
}

type wireUnavailable struct {
	ID          string `json:"id"`
	Unavailable bool   `json:"unavailable"`
}

type wireApplication struct {
	ID    string `json:"id"`
	Flags int    `json:"flags"`
}

// readyLocked is READY for a session that receives guilds.
func (s *Server) readyLocked(sessionID string, guilds []*guild) wireReady {
	unavailable := []wireUnavailable{}
	for _, g := range guilds {
		unavailable = append(unavailable, wireUnavailable{ID: g.id, Unavailable: true})
	}
	return wireReady{
		V:                10,
		User:             wireReadyUser{wireUser: s.bot.wire(), Verified: true},
		Guilds:           unavailable,
		SessionID:        sessionID,
		ResumeGatewayURL: s.gatewayURL(),
		Application:      wireApplication{ID: s.bot.ID},
		PrivateChannels:  []struct{}{},
		Relationships:    []struct{}{},
		Presences:        []struct{}{},
	}
}

// cloneJSON deep-copies a value through its JSON form; it is used for values
// handed to tests so they can never alias the fake's state.
func cloneJSON[T any](v T) T {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// cloneEmbeds deep-copies embeds as cloneJSON would, without its cost: a
// load run's players read their hands through it thousands of times a
// second.
func cloneEmbeds(embeds []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	if embeds == nil {
		return nil
	}
	out := make([]*discordgo.MessageEmbed, len(embeds))
	for i, e := range embeds {
		if e == nil {
			continue
		}
		c := *e
		c.Footer, c.Image, c.Thumbnail = clonePtr(e.Footer), clonePtr(e.Image), clonePtr(e.Thumbnail)
		c.Video, c.Provider, c.Author = clonePtr(e.Video), clonePtr(e.Provider), clonePtr(e.Author)
		if e.Fields != nil {
			c.Fields = make([]*discordgo.MessageEmbedField, len(e.Fields))
			for j, f := range e.Fields {
				c.Fields[j] = clonePtr(f)
			}
		}
		out[i] = &c
	}
	return out
}

func cloneAllowed(a *discordgo.MessageAllowedMentions) *discordgo.MessageAllowedMentions {
	if a == nil {
		return nil
	}
	c := *a
	c.Parse, c.Roles, c.Users = slices.Clone(a.Parse), slices.Clone(a.Roles), slices.Clone(a.Users)
	return &c
}

// clonePtr copies a struct of plain values behind a pointer.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
