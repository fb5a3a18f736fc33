package fakediscord

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
)

// A world is everything Discord would remember across a restart of the
// program hosting the fake (the local table): the guild, its members,
// channels and threads, the registered commands, every message, and the
// interactions whose tokens messages still refer to. Gateway sessions,
// faults and open modals are not kept.

const worldVersion = 1

type worldJSON struct {
	Version      int                                        `json:"version"`
	LastID       int64                                      `json:"last_id"`
	Guild        worldGuild                                 `json:"guild"`
	MoreGuilds   []worldGuild                               `json:"more_guilds,omitempty"`
	CreatedAt    time.Time                                  `json:"created_at"`
	Bot          worldUser                                  `json:"bot"`
	Owner        string                                     `json:"owner"`
	Users        []worldUser                                `json:"users"`
	Channels     []worldChannel                             `json:"channels"`
	Threads      []worldChannel                             `json:"threads"`
	Commands     map[string][]*discordgo.ApplicationCommand `json:"commands"`
	Interactions []worldInteraction                         `json:"interactions"`
	Messages     []worldMessage                             `json:"messages"` // every channel's, oldest first
	Pings        map[string]int                             `json:"pings"`
}

type worldGuild struct {
	ID, AdminRole, BotRole string
	Name                   string `json:",omitempty"` // AddGuild's only
}

type worldUser struct {
	ID, Name, Username string
	Admin              bool      `json:",omitempty"`
	JoinedAt           time.Time `json:"joined_at"`
}

type worldChannel struct {
	ID, Name               string
	Guild                  string `json:",omitempty"` // "" for the first guild
	Position               int    `json:",omitempty"`
	Kind                   int    `json:",omitempty"`
	ThreadsDenied          bool   `json:",omitempty"`
	PostingDenied          bool   `json:",omitempty"`
	ManageDenied           bool   `json:",omitempty"`
	ParentID, OwnerID      string `json:",omitempty"`
	Created                time.Time
	AutoArchive, RateLimit int      `json:",omitempty"`
	Invitable              bool     `json:",omitempty"`
	Members                []string `json:",omitempty"`
	MessageCount           int      `json:",omitempty"`
	LastMessageID          string   `json:",omitempty"`
}

type worldInteraction struct {
	ID, Token   string
	Kind        discordgo.InteractionType
	User        string
	ChannelID   string
	Command     string                           `json:",omitempty"`
	CommandType discordgo.ApplicationCommandType `json:",omitempty"`
	Source      string                           `json:",omitempty"`
	Parent      string                           `json:",omitempty"`
	IssuedAt    time.Time
	Expired     bool                              `json:",omitempty"`
	Callback    discordgo.InteractionResponseType `json:",omitempty"`
	Original    string                            `json:",omitempty"`
	Followups   []string                          `json:",omitempty"`
}

type worldMessage struct {
	ID, ChannelID, Author string
	Kind                  int                               `json:",omitempty"`
	Content               string                            `json:",omitempty"`
	Embeds                []*discordgo.MessageEmbed         `json:",omitempty"`
	Components            []*component                      `json:",omitempty"`
	Attachments           []attachment                      `json:",omitempty"`
	Flags                 int                               `json:",omitempty"`
	Ephemeral             bool                              `json:",omitempty"`
	Owner                 string                            `json:",omitempty"`
	Loading               bool                              `json:",omitempty"`
	Created               time.Time                         `json:"created"`
	Edited                *time.Time                        `json:",omitempty"`
	Edits                 int                               `json:",omitempty"`
	Allowed               *discordgo.MessageAllowedMentions `json:",omitempty"`
	Mentions              []string                          `json:",omitempty"`
	Reactions             []worldReaction                   `json:",omitempty"`
	Webhook               bool                              `json:",omitempty"`
	Interaction           string                            `json:",omitempty"`
	ReplyTo               string                            `json:",omitempty"`
	ThreadRef             string                            `json:",omitempty"`
	TTS                   bool                              `json:",omitempty"`
	Nonce                 string                            `json:",omitempty"`
	NonceRaw              json.RawMessage                   `json:",omitempty"`
}

type worldReaction struct {
	Emoji string
	Users []string
}

// SaveWorld returns the fake's world as JSON, for Restore.
func (s *Server) SaveWorld() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := worldJSON{
		Version: worldVersion, LastID: s.lastID,
		Guild:     worldGuild{ID: s.guildID, AdminRole: s.adminRoleID, BotRole: s.botRoleID},
		CreatedAt: s.createdAt, Bot: saveUser(s.bot), Owner: s.owner.ID,
		Commands: s.commands, Pings: s.pings,
	}
	for _, g := range s.moreGuilds {
		w.MoreGuilds = append(w.MoreGuilds, worldGuild{ID: g.id, AdminRole: g.adminRoleID, BotRole: g.botRoleID, Name: g.name})
	}
	for _, u := range s.users {
		w.Users = append(w.Users, saveUser(u))
	}
	for _, c := range s.channels {
		w.Channels = append(w.Channels, saveChannel(c))
	}
	for _, c := range s.threads {
		w.Threads = append(w.Threads, saveChannel(c))
	}
	// Interactions messages answer, and those whose tokens are still good.
	keep := map[*interaction]bool{}
	var add func(it *interaction)
	add = func(it *interaction) {
		if it == nil || keep[it] {
			return
		}
		keep[it] = true
		add(it.parent)
	}
	for _, it := range s.interactions {
		if it.callback != 0 && s.nowLocked().Sub(it.issuedAt) <= tokenLifetime {
			add(it)
		}
	}
	for _, c := range append(append([]*channel{}, s.channels...), s.threads...) {
		for _, m := range s.history[c.id] {
			add(m.it)
			w.Messages = append(w.Messages, saveMessage(m))
		}
	}
	for it := range keep {
		w.Interactions = append(w.Interactions, saveInteraction(it))
	}
	return json.Marshal(w)
}

func saveUser(u *User) worldUser {
	return worldUser{ID: u.ID, Name: u.Name, Username: u.username, Admin: u.admin, JoinedAt: u.joinedAt}
}

func saveChannel(c *channel) worldChannel {
	return worldChannel{
		ID: c.id, Name: c.name, Guild: c.guild, Position: c.position, Kind: c.kind, ThreadsDenied: c.threadsDenied, PostingDenied: c.postingDenied, ManageDenied: c.manageDenied,
		ParentID: c.parentID, OwnerID: c.ownerID, Created: c.created, AutoArchive: c.autoArchive, RateLimit: c.rateLimit,
		Invitable: c.invitable, Members: c.members, MessageCount: c.messageCount, LastMessageID: c.lastMessageID,
	}
}

func saveInteraction(it *interaction) worldInteraction {
	w := worldInteraction{
		ID: it.id, Token: it.token, Kind: it.kind, User: it.user.ID, ChannelID: it.channelID,
		Command: it.command, CommandType: it.commandType, IssuedAt: it.issuedAt, Expired: it.expired, Callback: it.callback,
	}
	if it.source != nil {
		w.Source = it.source.id
	}
	if it.parent != nil {
		w.Parent = it.parent.id
	}
	if it.original != nil {
		w.Original = it.original.id
	}
	for _, f := range it.followups {
		w.Followups = append(w.Followups, f.id)
	}
	return w
}

func saveMessage(m *message) worldMessage {
	w := worldMessage{
		ID: m.id, ChannelID: m.channelID, Author: m.author.ID, Kind: m.kind, Content: m.content, Embeds: m.embeds,
		Components: m.components, Attachments: m.attachments, Flags: m.flags, Ephemeral: m.ephemeral, Owner: m.owner,
		Loading: m.loading, Created: m.created, Edited: m.edited, Edits: m.edits, Allowed: m.allowed, Mentions: m.mentions,
		Webhook: m.webhook, ReplyTo: m.replyTo, ThreadRef: m.threadRef, TTS: m.tts, Nonce: m.nonce, NonceRaw: m.nonceRaw,
	}
	for _, r := range m.reactions {
		w.Reactions = append(w.Reactions, worldReaction{Emoji: r.emoji, Users: r.users})
	}
	if m.it != nil {
		w.Interaction = m.it.id
	}
	return w
}

// Restore starts a fake Discord holding a world SaveWorld returned, with the
// same IDs, so that a bot whose database refers to its channels, members
// and messages carries on where it was.
func Restore(t Reporter, world []byte) (*Server, error) {
	var w worldJSON
	if err := json.Unmarshal(world, &w); err != nil {
		return nil, fmt.Errorf("read fake Discord world: %w", err)
	}
	if w.Version != worldVersion {
		return nil, fmt.Errorf("fake Discord world has version %d, this program reads %d", w.Version, worldVersion)
	}
	s := newServer(t)
	if err := s.loadWorld(&w); err != nil {
		return nil, fmt.Errorf("fake Discord world: %w", err)
	}
	s.serve()
	return s, nil
}

func (s *Server) loadWorld(w *worldJSON) error {
	s.lastID = w.LastID
	s.guildID, s.adminRoleID, s.botRoleID = w.Guild.ID, w.Guild.AdminRole, w.Guild.BotRole
	for _, g := range w.MoreGuilds {
		s.moreGuilds = append(s.moreGuilds, &guild{id: g.ID, name: g.Name, adminRoleID: g.AdminRole, botRoleID: g.BotRole})
	}
	s.createdAt = w.CreatedAt
	load := func(u worldUser, bot bool) *User {
		return &User{ID: u.ID, Name: u.Name, username: u.Username, admin: u.Admin, bot: bot, joinedAt: u.JoinedAt, s: s}
	}
	s.bot = load(w.Bot, true)
	for _, wu := range w.Users {
		s.users[wu.ID] = load(wu, false)
	}
	if s.owner = s.users[w.Owner]; s.owner == nil || s.guildID == "" || s.bot.ID == "" {
		return fmt.Errorf("no guild, owner or bot")
	}
	loadChannel := func(c worldChannel) *channel {
		return &channel{
			id: c.ID, name: c.Name, guild: c.Guild, position: c.Position, kind: c.Kind, threadsDenied: c.ThreadsDenied, postingDenied: c.PostingDenied, manageDenied: c.ManageDenied,
			parentID: c.ParentID, ownerID: c.OwnerID, created: c.Created, autoArchive: c.AutoArchive, rateLimit: c.RateLimit,
			invitable: c.Invitable, members: c.Members, messageCount: c.MessageCount, lastMessageID: c.LastMessageID,
		}
	}
	for _, c := range w.Channels {
		s.putChannelLocked(loadChannel(c), false)
	}
	if len(s.channels) == 0 {
		return fmt.Errorf("no channels")
	}
	for _, c := range w.Threads {
		s.putChannelLocked(loadChannel(c), true)
	}
	if w.Commands != nil {
		s.commands = w.Commands
	}
	if w.Pings != nil {
		s.pings = w.Pings
	}
	for _, wm := range w.Messages {
		author := s.userLocked(wm.Author)
		if author == nil || s.channelLocked(wm.ChannelID) == nil {
			return fmt.Errorf("message %s: unknown author %s or channel %s", wm.ID, wm.Author, wm.ChannelID)
		}
		m := &message{
			id: wm.ID, channelID: wm.ChannelID, author: author, kind: wm.Kind, content: wm.Content, embeds: wm.Embeds,
			components: wm.Components, attachments: wm.Attachments, flags: wm.Flags, ephemeral: wm.Ephemeral, owner: wm.Owner,
			loading: wm.Loading, created: wm.Created, edited: wm.Edited, edits: wm.Edits, allowed: wm.Allowed, mentions: wm.Mentions,
			webhook: wm.Webhook, replyTo: wm.ReplyTo, threadRef: wm.ThreadRef, tts: wm.TTS, nonce: wm.Nonce, nonceRaw: wm.NonceRaw,
		}
		for _, r := range wm.Reactions {
			m.reactions = append(m.reactions, &reaction{emoji: r.Emoji, users: r.Users})
		}
		s.messages[m.id] = m
		s.history[m.channelID] = append(s.history[m.channelID], m)
	}
	// Interactions: their answer window is long over, so a callback is
	// refused as Discord would; tokens keep working for their 15 minutes.
	byID := map[string]*interaction{}
	for _, wi := range w.Interactions {
		u := s.userLocked(wi.User)
		if u == nil {
			return fmt.Errorf("interaction %s: unknown user %s", wi.ID, wi.User)
		}
		done := make(chan struct{})
		close(done)
		it := &interaction{
			id: wi.ID, token: wi.Token, kind: wi.Kind, user: u, channelID: wi.ChannelID, command: wi.Command,
			commandType: wi.CommandType, source: s.messages[wi.Source], issuedAt: wi.IssuedAt, done: done,
			expired: wi.Expired || wi.Callback == 0, callback: wi.Callback, original: s.messages[wi.Original],
		}
		for _, f := range wi.Followups {
			if m := s.messages[f]; m != nil {
				it.followups = append(it.followups, m)
			}
		}
		byID[it.id] = it
		s.interactions[it.id], s.byToken[it.token] = it, it
	}
	for _, wi := range w.Interactions {
		byID[wi.ID].parent = byID[wi.Parent]
	}
	for _, wm := range w.Messages {
		s.messages[wm.ID].it = byID[wm.Interaction]
	}
	return nil
}
