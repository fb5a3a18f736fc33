package fakediscord

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message is a snapshot of a message as a guild member sees it.
type Message struct {
	ID, ChannelID, Content string
	AuthorID               string
	Embeds                 []*discordgo.MessageEmbed
	Components             []Row
	Ephemeral              bool
	VisibleTo              string              // the only user who sees an ephemeral message
	Reactions              map[string][]string // emoji -> user IDs, in reaction order
	Edits                  int
	AllowedMentions        *discordgo.MessageAllowedMentions
	Nonce                  string // the nonce it was created with, if any
}

// Row is one action row: up to five buttons, or one string select.
type Row struct {
	Buttons []Button
	Select  *Select
}

// Button is a button component.
type Button struct {
	CustomID, Label string
	Style           discordgo.ButtonStyle
	Disabled        bool
	Emoji           string // unicode emoji, or name:id for a custom one
	URL             string // link buttons only
}

// Select is a string select menu.
type Select struct {
	CustomID, Placeholder string
	Min, Max              int
	Options               []SelectOption
	Disabled              bool
}

// SelectOption is one choice of a Select.
type SelectOption struct {
	Label, Value, Description string
	Default                   bool
}

// Text is the message's readable text for assertions: the content and every
// embed's title, description, field names and values and footer, one per line.
func (m *Message) Text() string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(m.Content)
	for _, e := range m.Embeds {
		add(e.Title)
		add(e.Description)
		for _, f := range e.Fields {
			add(f.Name)
			add(f.Value)
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Buttons lists every button, row by row.
func (m *Message) Buttons() []Button {
	var out []Button
	for _, r := range m.Components {
		out = append(out, r.Buttons...)
	}
	return out
}

// ButtonsLine lists the buttons as custom_id(disabled=…), for logs and
// for comparing two messages' controls.
func (m *Message) ButtonsLine() string {
	var out []string
	for _, b := range m.Buttons() {
		out = append(out, fmt.Sprintf("%s(disabled=%v)", b.CustomID, b.Disabled))
	}
	return strings.Join(out, " ")
}

// Selects lists every select menu.
func (m *Message) Selects() []Select {
	var out []Select
	for _, r := range m.Components {
		if r.Select != nil {
			out = append(out, *r.Select)
		}
	}
	return out
}

// ButtonID returns the custom_id of the first button, enabled or not, whose
// label contains label, or "".
func (m *Message) ButtonID(label string) string {
	for _, b := range m.Buttons() {
		if strings.Contains(b.Label, label) {
			return b.CustomID
		}
	}
	return ""
}

// component is a message or modal component as it travels over the wire.
type component struct {
	Type        discordgo.ComponentType      `json:"type"`
	ID          int                          `json:"id,omitempty"`
	CustomID    string                       `json:"custom_id,omitempty"`
	Style       int                          `json:"style,omitempty"`
	Label       string                       `json:"label,omitempty"`
	Emoji       *discordgo.ComponentEmoji    `json:"emoji,omitempty"`
	URL         string                       `json:"url,omitempty"`
	SKUID       string                       `json:"sku_id,omitempty"`
	Disabled    bool                         `json:"disabled,omitempty"`
	Placeholder string                       `json:"placeholder,omitempty"`
	MinValues   *int                         `json:"min_values,omitempty"`
	MaxValues   *int                         `json:"max_values,omitempty"`
	Options     []discordgo.SelectMenuOption `json:"options,omitempty"`
	MinLength   *int                         `json:"min_length,omitempty"`
	MaxLength   *int                         `json:"max_length,omitempty"`
	Required    *bool                        `json:"required,omitempty"`
	Value       string                       `json:"value,omitempty"`
	Components  []*component                 `json:"components,omitempty"`
}

// normalize fills in what Discord fills in on stored components: sequential
// ids and the select defaults.
func normalize(rows []*component) []*component {
	rows = cloneComponents(rows)
	var all []*component
	for _, r := range rows {
		all = append(all, r)
		all = append(all, r.Components...)
	}
	// The ids in use: valid rows hold at most 30 components, too few for a
	// map to pay for itself.
	used := make([]int, len(all))
	for i, c := range all {
		used[i] = c.ID
	}
	next := 1
	for _, c := range all {
		if c.ID == 0 {
			for slices.Contains(used, next) {
				next++
			}
			c.ID = next
			used = append(used, next)
		}
		if c.Type == discordgo.SelectMenuComponent {
			one := 1
			if c.MinValues == nil {
				c.MinValues = &one
			}
			if c.MaxValues == nil {
				c.MaxValues = &one
			}
		}
	}
	return rows
}

// cloneComponents deep-copies decoded components exactly as cloneJSON
// would, at a fraction of its cost: a list inside a component comes back
// nil when empty, as omitempty leaves it out, and the strings, which
// Unmarshal made valid UTF-8, are what a round trip keeps.
func cloneComponents(cs []*component) []*component {
	if cs == nil {
		return nil
	}
	out := make([]*component, len(cs))
	for i, c := range cs {
		if c == nil {
			continue
		}
		d := *c
		d.Emoji = clonePtr(c.Emoji)
		d.MinValues, d.MaxValues = clonePtr(c.MinValues), clonePtr(c.MaxValues)
		d.MinLength, d.MaxLength, d.Required = clonePtr(c.MinLength), clonePtr(c.MaxLength), clonePtr(c.Required)
		d.Options = nil
		if len(c.Options) > 0 {
			d.Options = make([]discordgo.SelectMenuOption, len(c.Options))
			for j, o := range c.Options {
				o.Emoji = clonePtr(o.Emoji)
				d.Options[j] = o
			}
		}
		d.Components = nil
		if len(c.Components) > 0 {
			d.Components = cloneComponents(c.Components)
		}
		out[i] = &d
	}
	return out
}

// rowsOf is what a member's client shows of the components. Players look
// at their hands through it thousands of times a second, so it allocates
// each list once, though only where the plain appends would (nil stays nil).
func rowsOf(rows []*component) []Row {
	var out []Row
	if len(rows) > 0 {
		out = make([]Row, 0, len(rows))
	}
	for _, row := range rows {
		var r Row
		for _, c := range row.Components {
			switch c.Type {
			case discordgo.ButtonComponent:
				if r.Buttons == nil {
					r.Buttons = make([]Button, 0, len(row.Components))
				}
				r.Buttons = append(r.Buttons, Button{
					CustomID: c.CustomID, Label: c.Label, Style: discordgo.ButtonStyle(c.Style),
					Disabled: c.Disabled, Emoji: emojiString(c.Emoji), URL: c.URL,
				})
			case discordgo.SelectMenuComponent:
				sel := Select{CustomID: c.CustomID, Placeholder: c.Placeholder, Min: *c.MinValues, Max: *c.MaxValues, Disabled: c.Disabled}
				if len(c.Options) > 0 {
					sel.Options = make([]SelectOption, 0, len(c.Options))
				}
				for _, o := range c.Options {
					sel.Options = append(sel.Options, SelectOption{Label: o.Label, Value: o.Value, Description: o.Description, Default: o.Default})
				}
				r.Select = &sel
			}
		}
		out = append(out, r)
	}
	return out
}

func emojiString(e *discordgo.ComponentEmoji) string {
	switch {
	case e == nil:
		return ""
	case e.ID != "":
		return e.Name + ":" + e.ID
	}
	return e.Name
}

// findComponent returns the interactive component with that custom_id.
func findComponent(rows []*component, customID string) *component {
	for _, row := range rows {
		for _, c := range row.Components {
			if c.CustomID == customID {
				return c
			}
		}
	}
	return nil
}

// message is the fake's record of a message.
type message struct {
	id, channelID string
	author        *User
	kind          int // Discord message type
	content       string
	embeds        []*discordgo.MessageEmbed
	components    []*component
	attachments   []attachment
	flags         int // flags the bot chose (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS)
	ephemeral     bool
	owner         string // who sees it, when ephemeral
	loading       bool   // deferred interaction response not yet edited
	created       time.Time
	edited        *time.Time
	edits         int
	allowed       *discordgo.MessageAllowedMentions
	mentions      []string
	reactions     []*reaction
	webhook       bool         // sent through an interaction webhook
	it            *interaction // the interaction it answers, if any
	replyTo       string
	threadRef     string // THREAD_CREATED (type 18): the thread
	tts           bool
	nonce         string          // as a string, for enforce_nonce
	nonceRaw      json.RawMessage // as sent: echoed in the create response and MESSAGE_CREATE
	rendered      []byte          // messageJSONLocked's, until an edit
}

type reaction struct {
	emoji string
	users []string
}

type attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	ContentType string `json:"content_type,omitempty"`
}

func (m *message) public() *Message {
	p := m.controls()
	p.Embeds, p.AllowedMentions, p.Reactions = cloneEmbeds(m.embeds), cloneAllowed(m.allowed), map[string][]string{}
	for _, r := range m.reactions {
		p.Reactions[r.emoji] = slices.Clone(r.users)
	}
	return p
}

// controls is the message without its embeds, mentions and reactions.
func (m *message) controls() *Message {
	return &Message{
		ID: m.id, ChannelID: m.channelID, Content: m.content, AuthorID: m.author.ID,
		Components: rowsOf(m.components), Ephemeral: m.ephemeral, VisibleTo: m.owner, Edits: m.edits, Nonce: m.nonce,
	}
}

func (m *message) reaction(emoji string) *reaction {
	for _, r := range m.reactions {
		if r.emoji == emoji {
			return r
		}
	}
	return nil
}

// visibleTo tells whether a guild member can see the message.
func (m *message) visibleTo(userID string) bool {
	return !m.ephemeral || m.owner == userID
}

// system tells whether m is a system message (THREAD_CREATED and the
// like), which Discord lets no one edit or reply to.
func (m *message) system() bool {
	switch m.kind {
	case 0, 19, 20, 23: // DEFAULT, REPLY, CHAT_INPUT_COMMAND, CONTEXT_MENU_COMMAND
		return false
	}
	return true
}

func (m *message) empty() bool {
	return strings.TrimSpace(m.content) == "" && len(m.embeds) == 0 && len(m.components) == 0 && len(m.attachments) == 0
}

type wireMessage struct {
	ID                  string                    `json:"id"`
	Type                int                       `json:"type"`
	Content             string                    `json:"content"`
	ChannelID           string                    `json:"channel_id"`
	Author              wireUser                  `json:"author"`
	Attachments         []attachment              `json:"attachments"`
	Embeds              []*discordgo.MessageEmbed `json:"embeds"`
	Mentions            []wireUser                `json:"mentions"`
	MentionRoles        []string                  `json:"mention_roles"`
	Pinned              bool                      `json:"pinned"`
	MentionEveryone     bool                      `json:"mention_everyone"`
	TTS                 bool                      `json:"tts"`
	Timestamp           string                    `json:"timestamp"`
	EditedTimestamp     *string                   `json:"edited_timestamp"`
	Flags               int                       `json:"flags"`
	Components          []*component              `json:"components"`
	Reactions           []wireReaction            `json:"reactions,omitempty"`
	WebhookID           string                    `json:"webhook_id,omitempty"`
	ApplicationID       string                    `json:"application_id,omitempty"`
	MessageReference    *wireReference            `json:"message_reference,omitempty"`
	InteractionMetadata *wireInteractionMeta      `json:"interaction_metadata,omitempty"`
	Interaction         *wireMessageInteraction   `json:"interaction,omitempty"`
	GuildID             string                    `json:"guild_id,omitempty"` // gateway events only
	Member              *wireMember               `json:"member,omitempty"`   // gateway events only
	Nonce               json.RawMessage           `json:"nonce,omitempty"`    // create response and MESSAGE_CREATE only
	Thread              *wireThread               `json:"thread,omitempty"`   // the thread started from it
}

type wireReaction struct {
	Count        int            `json:"count"`
	CountDetails map[string]int `json:"count_details"`
	Me           bool           `json:"me"`
	MeBurst      bool           `json:"me_burst"`
	BurstColors  []string       `json:"burst_colors"`
	Emoji        wireEmoji      `json:"emoji"`
}

type wireEmoji struct {
	ID   *string `json:"id"`
	Name string  `json:"name"`
}

type wireReference struct {
	Type      int    `json:"type"`
	MessageID string `json:"message_id,omitempty"`
	ChannelID string `json:"channel_id"`
	GuildID   string `json:"guild_id"`
}

type wireInteractionMeta struct {
	ID                           string                `json:"id"`
	Type                         int                   `json:"type"`
	User                         wireUser              `json:"user"`
	AuthorizingIntegrationOwners wireIntegrationOwners `json:"authorizing_integration_owners"`
	InteractedMessageID          string                `json:"interacted_message_id,omitempty"`
	TriggeringInteractionMeta    *wireInteractionMeta  `json:"triggering_interaction_metadata,omitempty"`
}

type wireMessageInteraction struct {
	ID   string   `json:"id"`
	Type int      `json:"type"`
	Name string   `json:"name"`
	User wireUser `json:"user"`
}

// messageWireLocked renders a message for the bot. Gateway events also carry
// guild_id and the author's member.
func (s *Server) messageWireLocked(m *message, gateway bool) wireMessage {
	w := wireMessage{
		ID: m.id, Type: m.kind, Content: m.content, ChannelID: m.channelID, Author: m.author.wire(),
		Attachments: append([]attachment{}, m.attachments...), Embeds: append([]*discordgo.MessageEmbed{}, m.embeds...),
		Mentions: []wireUser{}, MentionRoles: []string{}, TTS: m.tts, Timestamp: timestamp(m.created),
		Flags: m.flags, Components: append([]*component{}, m.components...),
	}
	if m.ephemeral {
		w.Flags |= int(discordgo.MessageFlagsEphemeral)
	}
	if m.loading {
		w.Flags |= int(discordgo.MessageFlagsLoading)
	}
	if m.edited != nil {
		t := timestamp(*m.edited)
		w.EditedTimestamp = &t
	}
	for _, id := range m.mentions {
		w.Mentions = append(w.Mentions, s.userLocked(id).wire())
	}
	for _, r := range m.reactions {
		w.Reactions = append(w.Reactions, wireReaction{
			Count: len(r.users), CountDetails: map[string]int{"burst": 0, "normal": len(r.users)},
			Me: slices.Contains(r.users, s.bot.ID), BurstColors: []string{}, Emoji: wireEmoji{Name: r.emoji},
		})
	}
	if th := s.channelLocked(m.id); th != nil && th.kind != 0 {
		tw := s.threadWireLocked(th)
		w.Thread = &tw
		w.Flags |= int(discordgo.MessageFlagsHasThread)
	}
	if m.replyTo != "" {
		w.MessageReference = &wireReference{MessageID: m.replyTo, ChannelID: m.channelID, GuildID: s.channelGuildLocked(m.channelID).id}
	}
	if m.threadRef != "" {
		w.MessageReference = &wireReference{ChannelID: m.threadRef, GuildID: s.channelGuildLocked(m.channelID).id}
	}
	if m.webhook {
		w.WebhookID = s.bot.ID
		w.ApplicationID = s.bot.ID
	}
	if m.it != nil {
		w.ApplicationID = s.bot.ID
		w.InteractionMetadata = s.interactionMetaLocked(m.it)
		if m.it.kind == discordgo.InteractionApplicationCommand {
			w.Interaction = &wireMessageInteraction{ID: m.it.id, Type: int(m.it.kind), Name: m.it.command, User: m.it.user.wire()}
		}
	}
	// The fake application is not approved for the MESSAGE_CONTENT intent:
	// Discord blanks other users' messages unless they mention the bot.
	if m.author != s.bot && !slices.Contains(m.mentions, s.bot.ID) {
		w.Content, w.Embeds, w.Attachments, w.Components = "", []*discordgo.MessageEmbed{}, []attachment{}, []*component{}
	}
	if gateway {
		g := s.channelGuildLocked(m.channelID)
		w.GuildID = g.id
		if !m.webhook {
			mem := s.memberLocked(g, m.author, false, false)
			w.Member = &mem
		}
	}
	return w
}

// renderedKept is how many messages keep their rendered JSON at most, so
// that it costs no more memory as messages pile up. A load's hand is
// clicked within a few hundred renders of the edit that dealt it.
const renderedKept = 1024

// messageJSONLocked is messageWireLocked(m, false) as JSON, with the
// newline json.Encoder ends it with. The message keeps it until an edit:
// a load's hand is rendered in the response to the edit that deals it and
// again when its player clicks it. Reactions and a thread started from the
// message change it without an edit, so while it has either it is
// rendered afresh each time.
func (s *Server) messageJSONLocked(m *message) []byte {
	keep := len(m.reactions) == 0 && s.channelLocked(m.id) == nil
	if keep && m.rendered != nil {
		return m.rendered
	}
	w := s.messageWireLocked(m, false)
	s.encodeBuf = append(appendMessage(s.encodeBuf[:0], &w), '\n')
	b := slices.Clone(s.encodeBuf) // sized once, where appends would grow it step by step
	if keep {
		if old := s.rendered[s.renderedNext]; old != nil {
			old.rendered = nil
		}
		s.rendered[s.renderedNext], m.rendered = m, b
		s.renderedNext = (s.renderedNext + 1) % renderedKept
	}
	return b
}

var mentionRe = regexp.MustCompile(`<@!?(\d+)>`)

// mentionsLocked lists who a message actually mentions: members named in the
// content (and the replied-to author) that allowed_mentions lets through.
func (s *Server) mentionsLocked(content string, am *discordgo.MessageAllowedMentions, replyAuthor string) []string {
	allowed := func(id string) bool {
		return am == nil || slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) || slices.Contains(am.Users, id)
	}
	var out []string
	add := func(id string) {
		if !slices.Contains(out, id) && s.userLocked(id) != nil {
			out = append(out, id)
		}
	}
	for _, m := range mentionRe.FindAllStringSubmatch(content, -1) {
		if allowed(m[1]) {
			add(m[1])
		}
	}
	if replyAuthor != "" && (am == nil || am.RepliedUser) {
		add(replyAuthor)
	}
	return out
}

// storeLocked records a new message, counting pings: a message that is not
// ephemeral and not a loading placeholder notifies its mentions.
func (s *Server) storeLocked(m *message) {
	m.id = s.newIDLocked()
	m.created = s.nowLocked()
	s.messages[m.id] = m
	s.history[m.channelID] = append(s.history[m.channelID], m)
	s.noteThreadMessageLocked(m)
	if !m.loading {
		s.pingLocked(m)
	}
}

func (s *Server) pingLocked(m *message) {
	if m.ephemeral {
		return
	}
	for _, id := range m.mentions {
		s.pings[id]++
	}
}

func (s *Server) deleteLocked(m *message) {
	delete(s.messages, m.id)
	h := s.history[m.channelID]
	if i := slices.Index(h, m); i >= 0 {
		s.history[m.channelID] = slices.Delete(h, i, i+1)
	}
}

// liveLocked tells whether a message still exists.
func (s *Server) liveLocked(m *message) bool {
	return m != nil && s.messages[m.id] == m
}

func (s *Server) replyAuthorLocked(m *message) string {
	if m.replyTo == "" {
		return "" // no message has that ID: spare the lookup
	}
	if r := s.messages[m.replyTo]; r != nil {
		return r.author.ID
	}
	return ""
}

// Duplicates returns the bot's public messages in a channel that repeat the
// message right before them: same author (the bot), same content, embeds,
// components and attachments, with nothing posted in between. A retry that
// was not deduplicated (see enforce_nonce) shows up here; so does a
// deliberate repeat, which a test then expects.
func (s *Server) Duplicates(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	var prev *message
	for _, m := range s.history[channelID] {
		if m.ephemeral {
			continue
		}
		if prev != nil && m.author == s.bot && prev.author == s.bot && sameMessage(prev, m) {
			out = append(out, m.public())
		}
		prev = m
	}
	return out
}

func sameMessage(a, b *message) bool {
	type look struct {
		Content     string
		Embeds      []*discordgo.MessageEmbed
		Components  []*component
		Attachments int
	}
	key := func(m *message) string {
		b, _ := json.Marshal(look{m.content, m.embeds, m.components, len(m.attachments)})
		return string(b)
	}
	return key(a) == key(b)
}
