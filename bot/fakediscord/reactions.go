package fakediscord

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const maxReactions = 20 // distinct emoji per message

type wireReactionEvent struct {
	UserID          string      `json:"user_id"`
	ChannelID       string      `json:"channel_id"`
	MessageID       string      `json:"message_id"`
	GuildID         string      `json:"guild_id"`
	Member          *wireMember `json:"member,omitempty"`
	Emoji           wireEmoji   `json:"emoji"`
	MessageAuthorID string      `json:"message_author_id,omitempty"`
	Burst           bool        `json:"burst"`
	Type            int         `json:"type"`
}

// reactLocked adds or removes a user's reaction, returning the dispatch to
// send, if anything changed.
func (s *Server) reactLocked(m *message, u *User, emoji string, add bool) []event {
	r := m.reaction(emoji)
	has := r != nil && slices.Contains(r.users, u.ID)
	if has == add {
		return nil
	}
	ev := wireReactionEvent{UserID: u.ID, ChannelID: m.channelID, MessageID: m.id, GuildID: s.channelGuildLocked(m.channelID).id, Emoji: wireEmoji{Name: emoji}}
	if add {
		if r == nil {
			r = &reaction{emoji: emoji}
			m.reactions = append(m.reactions, r)
		}
		r.users = append(r.users, u.ID)
		mem := s.memberLocked(s.channelGuildLocked(m.channelID), u, true, false)
		ev.Member, ev.MessageAuthorID = &mem, m.author.ID
		return []event{s.eventLocked("MESSAGE_REACTION_ADD", ev)}
	}
	r.users = slices.DeleteFunc(r.users, func(id string) bool { return id == u.ID })
	if len(r.users) == 0 {
		m.reactions = slices.DeleteFunc(m.reactions, func(x *reaction) bool { return x == r })
	}
	return []event{s.eventLocked("MESSAGE_REACTION_REMOVE", ev)}
}

// reactionEmoji resolves the {emoji} path value. The guild has no custom
// emoji, so only unicode emoji exist.
func (c *call) reactionEmoji() (string, bool) {
	e := c.r.PathValue("emoji")
	if strings.Contains(e, ":") || !isEmoji(e) {
		c.reject(http.StatusBadRequest, 10014, "Unknown Emoji", "emoji "+strconv.Quote(e))
		return "", false
	}
	return e, true
}

func (s *Server) addReaction(c *call) {
	m, emoji, ok := c.reactionTarget()
	if !ok {
		return
	}
	if m.reaction(emoji) == nil && len(m.reactions) >= maxReactions {
		c.reject(http.StatusBadRequest, 30010, "Maximum number of reactions reached (20)", "")
		return
	}
	c.events = append(c.events, s.reactLocked(m, s.bot, emoji, true)...)
	c.noContent()
}

// removeReaction serves both "own reaction" (@me) and "user reaction".
func (s *Server) removeReaction(c *call) {
	m, emoji, ok := c.reactionTarget()
	if !ok {
		return
	}
	u := s.bot
	if id := c.r.PathValue("user"); id != "" {
		if u = s.userLocked(id); u == nil {
			c.reject(http.StatusNotFound, 10013, "Unknown User", "")
			return
		}
		if u != s.bot && s.manageDeniedLocked(m.channelID) {
			c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "removing someone else's reaction needs Manage Messages (DenyManageMessages)")
			return
		}
	}
	c.events = append(c.events, s.reactLocked(m, u, emoji, false)...)
	c.noContent()
}

func (s *Server) listReactions(c *call) {
	m, emoji, ok := c.reactionTarget()
	if !ok {
		return
	}
	q := c.r.URL.Query()
	limit, ok := c.limit(25)
	if !ok {
		return
	}
	out := []wireUser{}
	if r := m.reaction(emoji); r != nil && q.Get("type") != "1" { // no burst reactions
		ids := slices.Clone(r.users)
		slices.SortFunc(ids, func(a, b string) int {
			if idLess(a, b) {
				return -1
			}
			return 1
		})
		after := q.Get("after")
		for _, id := range ids {
			if (after == "" || idLess(after, id)) && len(out) < limit {
				out = append(out, s.userLocked(id).wire())
			}
		}
	}
	c.ok(out)
}

// clearReactions removes all reactions, or all of one emoji.
func (s *Server) clearReactions(c *call) {
	m := c.channelMessage()
	if m == nil {
		return
	}
	emoji := ""
	if c.r.PathValue("emoji") != "" {
		var ok bool
		if emoji, ok = c.reactionEmoji(); !ok {
			return
		}
	}
	c.emit(s.clearLocked(m, emoji))
	c.noContent()
}

// clearLocked removes every reaction of emoji ("" for all) from m.
func (s *Server) clearLocked(m *message, emoji string) event {
	base := map[string]any{"channel_id": m.channelID, "message_id": m.id, "guild_id": s.channelGuildLocked(m.channelID).id}
	if emoji == "" {
		m.reactions = nil
		return s.eventLocked("MESSAGE_REACTION_REMOVE_ALL", base)
	}
	m.reactions = slices.DeleteFunc(m.reactions, func(r *reaction) bool { return r.emoji == emoji })
	base["emoji"] = wireEmoji{Name: emoji}
	return s.eventLocked("MESSAGE_REACTION_REMOVE_EMOJI", base)
}

// reactionTarget is the message and emoji a reaction route names.
func (c *call) reactionTarget() (*message, string, bool) {
	m := c.channelMessage()
	if m == nil || (c.r.Method != http.MethodGet && c.rejectArchived(m.channelID, "reaction on message "+m.id)) {
		return nil, "", false
	}
	emoji, ok := c.reactionEmoji()
	return m, emoji, ok
}
