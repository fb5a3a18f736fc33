package fakediscord

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// What a member's Discord client shows: the member list, the channels, and
// a channel's messages as that member sees them, for views such as the local
// table. Nothing here is rendered by the fake: messages are what the bot
// sent, in Discord's own shapes (embeds and components as on the wire).

// Member is a guild member as the member list shows them.
type Member struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Admin bool   `json:"admin,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
}

func (u *User) member() Member {
	return Member{ID: u.ID, Name: u.Name, Admin: u.admin, Bot: u.bot}
}

// Members lists the guild's members in the order they joined, the guild
// owner first; the bot is not among them (see BotUserID).
func (s *Server) Members() []Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	var users []*User
	for _, u := range s.users {
		users = append(users, u)
	}
	slices.SortFunc(users, func(a, b *User) int {
		if c := a.joinedAt.Compare(b.joinedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := make([]Member, 0, len(users))
	for _, u := range users {
		out = append(out, u.member())
	}
	return out
}

// User returns the guild member with this ID, to act as, or nil.
func (s *Server) User(id string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users[id]
}

// Bot is the bot as the member list shows it.
func (s *Server) Bot() Member { return s.bot.member() }

// Channel is a text channel or thread as the channel list shows it.
type Channel struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	ParentID string `json:"parent_id,omitempty"` // threads: their text channel
	Thread   bool   `json:"thread,omitempty"`
	Private  bool   `json:"private,omitempty"` // private threads
}

func channelOf(c *channel) Channel {
	return Channel{ID: c.id, Name: c.name, ParentID: c.parentID, Thread: c.kind != 0, Private: c.kind == threadPrivate}
}

// ChannelsFor lists the text channels in order, each followed by its threads
// that the member can see, oldest first.
func (s *Server) ChannelsFor(userID string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userLocked(userID)
	var out []Channel
	for _, c := range s.channels {
		out = append(out, channelOf(c))
		for _, th := range s.threads {
			if th.parentID == c.id && (u == nil && th.kind != threadPrivate || u != nil && s.canSeeLocked(u, th.id)) {
				out = append(out, channelOf(th))
			}
		}
	}
	return out
}

// ChatMessage is a message as one member's client shows it.
type ChatMessage struct {
	ID        string                    `json:"id"`
	ChannelID string                    `json:"channel_id"`
	Type      int                       `json:"type"` // Discord's message type
	Author    Member                    `json:"author"`
	Content   string                    `json:"content"`
	Embeds    []*discordgo.MessageEmbed `json:"embeds"`
	// Components are the action rows as Discord sends them.
	Components     json.RawMessage `json:"components"`
	Attachments    []string        `json:"attachments,omitempty"` // file names
	Reactions      []ChatReaction  `json:"reactions,omitempty"`
	Ephemeral      bool            `json:"ephemeral,omitempty"`
	Loading        bool            `json:"loading,omitempty"` // a deferred answer not sent yet: "… is thinking"
	SuppressEmbeds bool            `json:"suppress_embeds,omitempty"`
	Timestamp      time.Time       `json:"timestamp"`
	Edited         *time.Time      `json:"edited_timestamp,omitempty"`
	Edits          int             `json:"edits"`
	Mentions       []string        `json:"mentions,omitempty"` // who it pinged, by ID
	ReplyTo        *ChatRef        `json:"reply_to,omitempty"`
	Interaction    *ChatCommand    `json:"interaction,omitempty"` // the command it answers
	Thread         *Channel        `json:"thread,omitempty"`      // the thread started from it
	ThreadRef      string          `json:"thread_ref,omitempty"`  // THREAD_CREATED: the thread

	// Snapshot is the message as User.Click and friends take it.
	Snapshot *Message `json:"-"`
}

// ChatReaction is one emoji's reactions on a message.
type ChatReaction struct {
	Emoji string   `json:"emoji"`
	Count int      `json:"count"`
	Me    bool     `json:"me,omitempty"` // the viewer reacted so
	Users []string `json:"users"`        // names, in reaction order
}

// ChatRef is the message a reply answers, as the reply's header quotes it.
type ChatRef struct {
	ID     string `json:"id"`
	Author string `json:"author,omitempty"` // "" if the message is gone
	Text   string `json:"text,omitempty"`
}

// ChatCommand is the command a message answers: "Ann used /game new".
type ChatCommand struct {
	User    string `json:"user"`
	Command string `json:"command"`
	Context bool   `json:"context,omitempty"` // a context-menu command (Apps → …)
}

// ChatView returns the messages of a channel or thread that a member sees,
// oldest first: the public ones and their own ephemeral ones. It is empty if
// the channel is unknown or a private thread they cannot see.
func (s *Server) ChatView(userID, channelID string) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userLocked(userID)
	if u == nil || s.channelLocked(channelID) == nil || !s.canSeeLocked(u, channelID) {
		return nil
	}
	var out []ChatMessage
	for _, m := range s.history[channelID] {
		if m.visibleTo(u.ID) {
			out = append(out, s.chatLocked(m, u))
		}
	}
	return out
}

func (s *Server) chatLocked(m *message, viewer *User) ChatMessage {
	rows, _ := json.Marshal(nonNil(m.components))
	c := ChatMessage{
		ID: m.id, ChannelID: m.channelID, Type: m.kind, Author: m.author.member(), Content: m.content,
		Embeds: cloneEmbeds(nonNil(m.embeds)), Components: rows, Ephemeral: m.ephemeral, Loading: m.loading,
		SuppressEmbeds: m.flags&flagSuppressEmbeds != 0, Timestamp: m.created, Edited: m.edited, Edits: m.edits,
		Mentions: slices.Clone(m.mentions), ThreadRef: m.threadRef, Snapshot: m.public(),
	}
	for _, a := range m.attachments {
		c.Attachments = append(c.Attachments, a.Filename)
	}
	for _, r := range m.reactions {
		cr := ChatReaction{Emoji: r.emoji, Count: len(r.users), Me: slices.Contains(r.users, viewer.ID), Users: []string{}}
		for _, id := range r.users {
			if who := s.userLocked(id); who != nil {
				cr.Users = append(cr.Users, who.Name)
			}
		}
		c.Reactions = append(c.Reactions, cr)
	}
	if m.replyTo != "" {
		c.ReplyTo = &ChatRef{ID: m.replyTo}
		if r := s.messages[m.replyTo]; r != nil {
			c.ReplyTo.Author, c.ReplyTo.Text = r.author.Name, r.public().Text()
		}
	}
	if it := m.it; it != nil && it.kind == discordgo.InteractionApplicationCommand && it.user != nil {
		c.Interaction = &ChatCommand{User: it.user.Name, Command: it.command, Context: it.commandType != discordgo.ChatApplicationCommand}
	}
	if th := s.channelLocked(m.id); th != nil && th.kind != 0 {
		t := channelOf(th)
		c.Thread = &t
	}
	return c
}

// Changes returns a channel that is closed at the next change a member could
// see: a message sent, edited or deleted, a reaction, a channel, a thread or
// a member added. Call it again after each change.
func (s *Server) Changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// changedLocked wakes those waiting on Changes.
func (s *Server) changedLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}
