package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// interaction is one user action sent to the bot, and what the bot did with
// its token.
type interaction struct {
	id, token   string
	kind        discordgo.InteractionType
	user        *User
	channelID   string
	command     string // full command name, for APPLICATION_COMMAND
	commandType discordgo.ApplicationCommandType
	source      *message     // the message a component (or the modal's component) is on
	parent      *interaction // for MODAL_SUBMIT: the interaction that opened the modal
	sentAt      time.Time    // real time: the response deadline
	deadline    time.Duration
	issuedAt    time.Time // fake clock: the token's 15 minutes
	done        chan struct{}
	expired     bool // the deadline passed without a callback: token invalid
	faulted     bool // an injected fault hit its callback or the gateway while it was pending

	callback  discordgo.InteractionResponseType
	original  *message // @original: created (4, 5) or updated (6, 7) message
	modal     *Modal
	followups []*message
}

func (it *interaction) describe() string {
	switch it.kind {
	case discordgo.InteractionApplicationCommand:
		switch it.commandType {
		case discordgo.MessageApplicationCommand:
			return fmt.Sprintf("message command %q", it.command)
		case discordgo.UserApplicationCommand:
			return fmt.Sprintf("user command %q", it.command)
		}
		return "/" + it.command
	case discordgo.InteractionMessageComponent:
		return "component interaction"
	}
	return "modal submit"
}

// wireInteraction is INTERACTION_CREATE's payload up to the message a
// component is on, which goes between it and wireInteractionRest
// (appendInteraction).
type wireInteraction struct {
	ID            string               `json:"id"`
	ApplicationID string               `json:"application_id"`
	Type          int                  `json:"type"`
	Data          any                  `json:"data"`
	Guild         wireInteractionGuild `json:"guild"`
	GuildID       string               `json:"guild_id"`
	Channel       any                  `json:"channel"` // wireChannel or wireThread
	ChannelID     string               `json:"channel_id"`
	Member        wireMember           `json:"member"`
	Token         string               `json:"token"`
	Version       int                  `json:"version"`
}

// wireInteractionRest is INTERACTION_CREATE's payload after the message.
type wireInteractionRest struct {
	AppPermissions               string                `json:"app_permissions"`
	Locale                       string                `json:"locale"`
	GuildLocale                  string                `json:"guild_locale"`
	Entitlements                 []struct{}            `json:"entitlements"`
	AuthorizingIntegrationOwners wireIntegrationOwners `json:"authorizing_integration_owners"`
	Context                      int                   `json:"context"`
	AttachmentSizeLimit          int                   `json:"attachment_size_limit"`
}

// wireInteractionGuild is the partial guild an interaction carries. Its
// fields are in the order a map's keys would be sorted in: it marshals as
// the map it stands for, without sorting keys for every interaction.
type wireInteractionGuild struct {
	Features []string `json:"features"`
	ID       string   `json:"id"`
	Locale   string   `json:"locale"`
}

// wireIntegrationOwners is authorizing_integration_owners, {"0": guild ID}
// (GUILD_INSTALL), as a struct for the same reason.
type wireIntegrationOwners struct {
	Guild string `json:"0"`
}

type wireComponentData struct {
	CustomID      string    `json:"custom_id"`
	ComponentType int       `json:"component_type"`
	Values        *[]string `json:"values,omitempty"` // always present for selects, even empty
}

type wireModalData struct {
	CustomID   string             `json:"custom_id"`
	Components []wireSubmittedRow `json:"components"`
}

type wireSubmittedRow struct {
	Type       discordgo.ComponentType `json:"type"`
	ID         int                     `json:"id"`
	Components []wireSubmittedInput    `json:"components"`
}

// wireSubmittedInput is a text input as a modal submit reports it: the value
// is always present, even when empty.
type wireSubmittedInput struct {
	Type     discordgo.ComponentType `json:"type"`
	ID       int                     `json:"id"`
	CustomID string                  `json:"custom_id"`
	Value    string                  `json:"value"`
}

// interactionJSONLocked renders INTERACTION_CREATE's payload, the message a
// component is on as messageJSONLocked rendered it.
func (s *Server) interactionJSONLocked(it *interaction, data any) []byte {
	w, r := s.interactionWireLocked(it, data)
	var msg []byte
	if s.liveLocked(it.source) {
		msg = s.messageJSONLocked(it.source)
		msg = msg[:len(msg)-1] // the newline
	}
	s.encodeBuf = appendInteraction(s.encodeBuf[:0], &w, msg, &r)
	return slices.Clone(s.encodeBuf)
}

func (s *Server) interactionWireLocked(it *interaction, data any) (wireInteraction, wireInteractionRest) {
	var ch any
	perms := permissionString(s.permissionsLocked(it.user))
	switch c := s.channelObjectLocked(s.channelLocked(it.channelID)).(type) {
	case wireChannel:
		c.Permissions = perms
		ch = c
	case wireThread:
		c.Permissions = perms
		ch = c
	}
	g := s.channelGuildLocked(it.channelID)
	w := wireInteraction{
		ID: it.id, ApplicationID: s.bot.ID, Type: int(it.kind), Data: data,
		Guild:   wireInteractionGuild{Features: []string{}, ID: g.id, Locale: "en-US"},
		GuildID: g.id, Channel: ch, ChannelID: it.channelID,
		Member: s.memberLocked(g, it.user, true, true), Token: it.token, Version: 1,
	}
	r := wireInteractionRest{
		AppPermissions: permissionString(s.botChannelPermsLocked(it.channelID)), Locale: "en-US", GuildLocale: "en-US",
		Entitlements:                 []struct{}{},
		AuthorizingIntegrationOwners: wireIntegrationOwners{Guild: g.id},
		AttachmentSizeLimit:          attachmentSizeLimit,
	}
	return w, r
}

func (s *Server) interactionMetaLocked(it *interaction) *wireInteractionMeta {
	m := &wireInteractionMeta{
		ID: it.id, Type: int(it.kind), User: it.user.wire(),
		AuthorizingIntegrationOwners: wireIntegrationOwners{Guild: s.channelGuildLocked(it.channelID).id},
	}
	if it.kind == discordgo.InteractionMessageComponent && it.source != nil {
		m.InteractedMessageID = it.source.id
	}
	if it.parent != nil {
		m.TriggeringInteractionMeta = s.interactionMetaLocked(it.parent)
	}
	return m
}

// canUpdate tells whether the interaction has a message to update (types 6
// and 7): components, and modals opened from a component.
func (it *interaction) canUpdate() bool {
	return it.kind == discordgo.InteractionMessageComponent || it.kind == discordgo.InteractionModalSubmit && it.parent.kind == discordgo.InteractionMessageComponent
}

func (s *Server) interactionCallback(c *call) {
	it := s.interactions[c.r.PathValue("id")]
	if it == nil || it.token != c.r.PathValue("token") {
		c.reject(http.StatusNotFound, 10062, "Unknown interaction", "")
		return
	}
	if it.callback != 0 {
		c.reject(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.", fmt.Sprintf("second callback for %s", it.describe()))
		return
	}
	if it.expired || time.Since(it.sentAt) > it.deadline {
		why := fmt.Sprintf("callback for %s arrived %v after dispatch, past the %v deadline", it.describe(), time.Since(it.sentAt).Round(time.Millisecond), it.deadline)
		if it.faulted {
			// Already counted in FailedInteractions: a retry after an
			// injected fault came too late.
			c.refuse(http.StatusNotFound, 10062, "Unknown interaction", why)
		} else {
			c.reject(http.StatusNotFound, 10062, "Unknown interaction", why)
		}
		return
	}
	resp, ok := c.callbackBody()
	if !ok {
		return
	}
	data := resp.Data
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	var errs formErrors
	switch t := resp.Type; {
	case t == discordgo.InteractionResponseChannelMessageWithSource || t == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		p, err := c.parseMessage(data)
		if err != nil {
			errs.add("data", "BASE_TYPE_INVALID", "%v", err)
			break
		}
		m := &message{channelID: it.channelID, author: s.bot, webhook: true, it: it, kind: 20} // CHAT_INPUT_COMMAND
		if it.commandType == discordgo.MessageApplicationCommand || it.commandType == discordgo.UserApplicationCommand {
			m.kind = 23 // CONTEXT_MENU_COMMAND
		}
		if it.source != nil {
			// Answers to components reply to the component's message.
			m.kind, m.replyTo = 19, it.source.id // REPLY
		}
		m.ephemeral = p.Flags&flagEphemeral != 0
		if m.ephemeral {
			m.owner = it.user.ID
		}
		if !m.ephemeral && c.rejectLocked(it.channelID, "public answer to "+it.describe()) {
			return
		}
		if t == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			if p.Flags&^flagEphemeral != 0 {
				errs.add("data.flags", "MESSAGE_FLAGS_INVALID", "Only EPHEMERAL may be set when deferring")
				break
			}
			m.loading = true
			p = &messageParams{}
		}
		if it.original = s.createLocked(c, p, "data", interactionFlags, m); it.original == nil {
			return
		}
	case t == discordgo.InteractionResponseDeferredMessageUpdate || t == discordgo.InteractionResponseUpdateMessage:
		if !it.canUpdate() {
			errs.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Callback type %d is only valid for component interactions", t)
			break
		}
		if !s.liveLocked(it.source) {
			c.unknownMessage(it.source.id, "the component's message was deleted")
			return
		}
		if t == discordgo.InteractionResponseUpdateMessage && !it.source.ephemeral && c.rejectLocked(it.channelID, "update of message "+it.source.id) {
			return
		}
		if t == discordgo.InteractionResponseUpdateMessage {
			p, err := c.parseMessage(data)
			if err != nil {
				errs.add("data", "BASE_TYPE_INVALID", "%v", err)
				break
			}
			if !s.editLocked(c, it.source, p, "data") {
				return
			}
		}
		it.original = it.source
	case t == discordgo.InteractionResponseModal:
		if it.kind == discordgo.InteractionModalSubmit {
			errs.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "A modal cannot be opened in response to a modal submit")
			break
		}
		var mp modalParams
		if err := json.Unmarshal(data, &mp); err != nil {
			errs.add("data", "BASE_TYPE_INVALID", "%v", err)
			break
		}
		if checkModal(&mp, "data", &errs); len(errs) == 0 {
			it.modal = newModal(&mp, it)
		}
	default:
		errs.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Callback type %d is not valid for a %s", t, it.describe())
	}
	if len(errs) > 0 {
		c.invalid(errs)
		return
	}
	it.callback = resp.Type
	if c.r.URL.Query().Get("with_response") == "true" {
		c.ok(s.callbackResponseLocked(it))
	} else {
		c.noContent()
	}
	// The user's action returns once the bot has answered, after the
	// dispatches this callback caused.
	c.after = append(c.after, func() { close(it.done) })
}

func (s *Server) callbackResponseLocked(it *interaction) map[string]any {
	inter := map[string]any{"id": it.id, "type": it.kind}
	out := map[string]any{"interaction": inter}
	res := map[string]any{"type": it.callback}
	if m := it.original; m != nil {
		inter["response_message_id"] = m.id
		inter["response_message_loading"] = m.loading
		inter["response_message_ephemeral"] = m.ephemeral
		if it.callback == discordgo.InteractionResponseChannelMessageWithSource || it.callback == discordgo.InteractionResponseUpdateMessage {
			res["message"] = s.messageWireLocked(m, false)
		}
	}
	out["resource"] = res
	return out
}

// webhookInteraction resolves {app}/{token} to an acknowledged interaction
// whose token is still valid. Once its 15 minutes are up, Discord answers
// every use of the token with 401 Invalid Webhook Token (50027), not 404.
func (c *call) webhookInteraction() *interaction {
	s := c.s
	it := s.byToken[c.r.PathValue("token")]
	switch {
	case c.r.PathValue("app") != s.bot.ID || it == nil:
		c.reject(http.StatusNotFound, 10015, "Unknown Webhook", "no interaction has this token")
	case s.nowLocked().Sub(it.issuedAt) > tokenLifetime:
		c.reject(http.StatusUnauthorized, 50027, "Invalid Webhook Token", fmt.Sprintf("the token of %s expired (valid %v)", it.describe(), tokenLifetime))
	case it.expired:
		c.reject(http.StatusNotFound, 10015, "Unknown Webhook", "the interaction was never answered, so its token was invalidated")
	case it.callback == 0:
		c.reject(http.StatusNotFound, 10015, "Unknown Webhook", fmt.Sprintf("%s has not been acknowledged yet", it.describe()))
	default:
		return it
	}
	return nil
}

// webhookMessage resolves {message}: @original or one sent with this token.
func (c *call) webhookMessage() (*interaction, *message) {
	it := c.webhookInteraction()
	if it == nil {
		return nil, nil
	}
	id := c.r.PathValue("message")
	var m *message
	if id == "@original" {
		m = it.original
	} else if i := slices.IndexFunc(it.followups, func(f *message) bool { return f.id == id }); i >= 0 {
		m = it.followups[i]
	} else if it.original != nil && it.original.id == id {
		m = it.original
	}
	if !c.s.liveLocked(m) {
		id := ""
		if m != nil {
			id = m.id
		}
		c.unknownMessage(id, "")
		return nil, nil
	}
	return it, m
}

// followup executes the interaction webhook. Right after a deferred response
// it edits the loading message instead, as Discord still does for
// compatibility.
func (s *Server) followup(c *call) {
	it := c.webhookInteraction()
	if it == nil {
		return
	}
	p, ok := c.message()
	if !ok {
		return
	}
	if m := it.original; it.callback == discordgo.InteractionResponseDeferredChannelMessageWithSource && s.liveLocked(m) && m.loading {
		if !m.ephemeral && c.rejectLocked(it.channelID, "followup to "+it.describe()) {
			return
		}
		if s.editLocked(c, m, p, "") {
			c.okMessage(m)
		}
		return
	}
	m := &message{channelID: it.channelID, author: s.bot, webhook: true, it: it}
	if p.Flags&flagEphemeral != 0 {
		m.ephemeral, m.owner = true, it.user.ID
	} else if c.rejectLocked(it.channelID, "followup to "+it.describe()) {
		return
	}
	if m = s.createLocked(c, p, "", interactionFlags, m); m != nil {
		it.followups = append(it.followups, m)
		c.okMessage(m)
	}
}

func (s *Server) getWebhookMessage(c *call) {
	if _, m := c.webhookMessage(); m != nil {
		c.okMessage(m)
	}
}

func (s *Server) editWebhookMessage(c *call) {
	_, m := c.webhookMessage()
	if m == nil || (!m.ephemeral && c.rejectArchived(m.channelID, "edit of message "+m.id)) {
		return
	}
	if p, ok := c.message(); ok && s.editLocked(c, m, p, "") {
		c.okMessage(m)
	}
}

func (s *Server) deleteWebhookMessage(c *call) {
	if _, m := c.webhookMessage(); m != nil {
		c.events = append(c.events, s.deleteAndAnnounceLocked(m)...)
		c.noContent()
	}
}
