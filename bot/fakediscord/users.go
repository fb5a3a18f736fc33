package fakediscord

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// User is a guild member the test acts as.
type User struct {
	ID, Name string

	s        *Server
	username string
	admin    bool
	bot      bool
	joinedAt time.Time
}

// Reply is how the bot answered a user's interaction.
type Reply struct {
	Type      discordgo.InteractionResponseType // 0 if the bot did not answer in time
	Message   *Message                          // created (4, 5) or updated (7) message, as it is now
	Ephemeral bool
	Modal     *Modal // for type 9
	Content   string // Message.Text(), or ""
}

// Modal is a modal the bot opened for a user.
type Modal struct {
	CustomID, Title string
	Inputs          []TextInput

	user      string
	parent    *interaction
	submitted bool // guarded by s.mu
}

// TextInput is a modal's text field.
type TextInput struct {
	CustomID, Label      string
	Style                discordgo.TextInputStyle
	MinLength, MaxLength int
	Required             bool
	Value, Placeholder   string
}

func newModal(p *modalParams, it *interaction) *Modal {
	m := &Modal{CustomID: p.CustomID, Title: p.Title, user: it.user.ID, parent: it}
	for _, row := range p.Components {
		c := row.Components[0]
		min, max := textLimits(c)
		m.Inputs = append(m.Inputs, TextInput{
			CustomID: c.CustomID, Label: c.Label, Style: discordgo.TextInputStyle(c.Style),
			MinLength: min, MaxLength: max, Required: c.Required == nil || *c.Required,
			Value: c.Value, Placeholder: c.Placeholder,
		})
	}
	return m
}

// act runs one interaction: build (under s.mu) checks what the user is doing
// and returns the interaction and its data, or false after recording a
// failure. The interaction is dispatched and act waits for the bot's callback.
//
// soft: what the client would not send is returned as a *Refusal instead of
// being recorded as a failure (see Client).
func (u *User) act(soft bool, build func() (*interaction, any, bool)) (*Reply, error) {
	s := u.s
	s.mu.Lock()
	var it *interaction
	var data any
	if err := s.tryLocked(soft, func() (ok bool) {
		it, data, ok = build()
		return ok
	}); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	if !s.lockedLocked(it.channelID) || s.permissionsLocked(u)&(discordgo.PermissionAdministrator|discordgo.PermissionManageThreads) != 0 {
		s.touchLocked(it.channelID) // the client unarchives a thread first
	}
	it.id, it.user = s.newIDLocked(), u
	it.token = interactionToken(it.id)
	it.done, it.issuedAt, it.sentAt = make(chan struct{}), s.nowLocked(), time.Now()
	it.deadline = s.deadline
	sess := s.sessionForLocked(s.channelGuildLocked(it.channelID).id)
	if sess == nil {
		// Discord has no session to deliver it to: the user sees "This
		// interaction failed" after the deadline. The bot cannot answer, so
		// there is nothing to wait for.
		it.expired = true
		it.faulted = s.gatewayFaults > 0
		s.interactionFailedLocked(it, fmt.Sprintf("%s used %s, but no bot session is connected", u.Name, it.describe()))
		s.mu.Unlock()
		return &Reply{}, nil
	}
	if sess.conn == nil {
		// The session is disconnected after a gateway fault: the dispatch
		// waits in its resume buffer.
		it.faulted = true
	}
	s.interactions[it.id], s.byToken[it.token] = it, it
	deadline := it.deadline
	ev := s.renderedEventLocked("INTERACTION_CREATE", s.interactionJSONLocked(it, data))
	s.mu.Unlock()

	s.emit(ev)
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case <-it.done:
	case <-timer.C:
		s.mu.Lock()
		late := it.callback == 0
		if late {
			it.expired = true
			s.interactionFailedLocked(it, fmt.Sprintf("no response to interaction within %v (%s by %s)", deadline, it.describe(), u.Name))
		}
		s.mu.Unlock()
		if late {
			return &Reply{}, nil
		}
		<-it.done // the callback was accepted just in time
	}
	s.settle()

	s.mu.Lock()
	defer s.mu.Unlock()
	r := &Reply{Type: it.callback, Modal: it.modal}
	if it.callback != discordgo.InteractionResponseDeferredMessageUpdate && s.liveLocked(it.original) {
		r.Message = it.original.public()
		r.Ephemeral = it.original.ephemeral
		r.Content = r.Message.Text()
	}
	return r, nil
}

// Command runs a slash command in a channel, e.g.
// u.Command(ch, "game", Sub("start", Int("players", 4))). It fails the test
// and returns nil if the client would not send it (unknown command or option,
// wrong type, undeclared choice, missing required option, lacking permission).
func (u *User) Command(channelID, command string, opts ...Option) *Reply {
	r, _ := u.command(false, channelID, command, opts...)
	return r
}

func (u *User) command(soft bool, channelID, command string, opts ...Option) (*Reply, error) {
	s := u.s
	return u.act(soft, func() (*interaction, any, bool) {
		name := strings.TrimPrefix(command, "/")
		if s.channelLocked(channelID) == nil {
			s.failLocked(fmt.Sprintf("%s ran /%s in unknown channel %s", u.Name, name, channelID))
			return nil, nil, false
		}
		if !s.canSeeLocked(u, channelID) {
			s.failLocked(fmt.Sprintf("%s ran /%s in private thread %s, which %s is not a member of", u.Name, name, channelID, u.Name))
			return nil, nil, false
		}
		cmd := s.findCommandLocked(s.channelGuildLocked(channelID).id, name)
		if cmd == nil {
			s.failLocked(fmt.Sprintf("%s ran /%s, but the bot registered no such command", u.Name, name))
			return nil, nil, false
		}
		data, path, problems := s.commandDataLocked(s.channelGuildLocked(channelID), u, cmd, opts)
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s cannot run %s: %s", u.Name, path, strings.Join(problems, "; ")))
			return nil, nil, false
		}
		return &interaction{kind: discordgo.InteractionApplicationCommand, channelID: channelID, command: strings.TrimPrefix(path, "/"), commandType: discordgo.ChatApplicationCommand}, data, true
	})
}

// MessageCommand runs a MESSAGE context-menu command (Apps → name on a
// message) on target, a message in channelID the user can see. Discord sends
// the command's data with type 3, target_id and resolved.messages holding
// the message, content included (the target of a message command is exempt
// from the MESSAGE_CONTENT intent). It fails the test and returns nil if the
// client would not offer it.
func (u *User) MessageCommand(channelID, name string, target *Message) *Reply {
	r, _ := u.messageCommand(false, channelID, name, target)
	return r
}

func (u *User) messageCommand(soft bool, channelID, name string, target *Message) (*Reply, error) {
	s := u.s
	return u.act(soft, func() (*interaction, any, bool) {
		cmd := s.findTypedCommandLocked(s.channelGuildLocked(channelID).id, discordgo.MessageApplicationCommand, name)
		if cmd == nil {
			s.failLocked(fmt.Sprintf("%s used message command %q, but the bot registered no such command", u.Name, name))
			return nil, nil, false
		}
		msg := u.targetLocked(target, "message command "+strconv.Quote(name))
		if msg == nil {
			return nil, nil, false
		}
		problems := s.commandOfferedLocked(u, cmd)
		if msg.channelID != channelID {
			problems = append(problems, fmt.Sprintf("message %s is in channel %s, not %s", msg.id, msg.channelID, channelID))
		}
		if msg.ephemeral {
			problems = append(problems, "ephemeral messages have no Apps menu")
		}
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s cannot run %s: %s", u.Name, commandLabel(cmd), strings.Join(problems, "; ")))
			return nil, nil, false
		}
		w := s.messageWireLocked(msg, false)
		w.Content, w.Embeds, w.Attachments, w.Components = msg.content, msg.embeds, msg.attachments, msg.components
		w.Embeds, w.Attachments, w.Components = nonNil(w.Embeds), nonNil(w.Attachments), nonNil(w.Components)
		data := wireCommandData{
			ID: cmd.ID, Name: cmd.Name, Type: int(cmd.Type), GuildID: cmd.GuildID, TargetID: msg.id,
			Resolved: &wireResolved{Messages: map[string]wireMessage{msg.id: w}},
		}
		return &interaction{kind: discordgo.InteractionApplicationCommand, channelID: channelID, command: cmd.Name, commandType: cmd.Type}, data, true
	})
}

// UserCommand runs a USER context-menu command (Apps → name on a member) on
// target. Discord sends type 2, target_id and the member in resolved.users
// and resolved.members. It fails the test and returns nil if the client
// would not offer it.
func (u *User) UserCommand(channelID, name string, target *User) *Reply {
	r, _ := u.userCommand(false, channelID, name, target)
	return r
}

func (u *User) userCommand(soft bool, channelID, name string, target *User) (*Reply, error) {
	s := u.s
	return u.act(soft, func() (*interaction, any, bool) {
		cmd := s.findTypedCommandLocked(s.channelGuildLocked(channelID).id, discordgo.UserApplicationCommand, name)
		problems := []string{}
		switch {
		case cmd == nil:
			problems = append(problems, "the bot registered no such command")
		case target == nil || s.userLocked(target.ID) == nil:
			problems = append(problems, "no such member")
		case s.channelLocked(channelID) == nil:
			problems = append(problems, "unknown channel "+channelID)
		case !s.canSeeLocked(u, channelID):
			problems = append(problems, "private thread "+channelID+" is not theirs")
		default:
			problems = s.commandOfferedLocked(u, cmd)
		}
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s cannot run user command %q: %s", u.Name, name, strings.Join(problems, "; ")))
			return nil, nil, false
		}
		t := s.userLocked(target.ID)
		data := wireCommandData{
			ID: cmd.ID, Name: cmd.Name, Type: int(cmd.Type), GuildID: cmd.GuildID, TargetID: t.ID,
			Resolved: &wireResolved{Users: map[string]wireUser{t.ID: t.wire()}, Members: map[string]wireMember{t.ID: s.memberLocked(s.channelGuildLocked(channelID), t, false, true)}},
		}
		return &interaction{kind: discordgo.InteractionApplicationCommand, channelID: channelID, command: cmd.Name, commandType: cmd.Type}, data, true
	})
}

// targetLocked finds the current state of a message the user acts on, which
// must exist and be visible to them.
func (u *User) targetLocked(m *Message, action string) *message {
	s := u.s
	if m == nil {
		s.failLocked(fmt.Sprintf("%s: %s on a nil message", u.Name, action))
		return nil
	}
	msg := s.messages[m.ID]
	switch {
	case msg == nil:
		s.failLocked(fmt.Sprintf("%s: %s on message %s, which does not exist (any more)", u.Name, action, m.ID))
	case !msg.visibleTo(u.ID):
		s.failLocked(fmt.Sprintf("%s: %s on message %s, an ephemeral message only %s can see", u.Name, action, m.ID, msg.owner))
	case !s.canSeeLocked(u, msg.channelID):
		s.failLocked(fmt.Sprintf("%s: %s on message %s in private thread %s, which %s is not a member of", u.Name, action, m.ID, msg.channelID, u.Name))
	default:
		return msg
	}
	return nil
}

// componentLocked checks a click or select against the message as the user
// sees it: the snapshot m. Passing an older snapshot models a click racing the
// bot's update of the message, which real users can do; clicking what the
// snapshot does not show, or shows disabled, is a test bug.
func (u *User) componentLocked(m *Message, customID, action string) (*message, *Button, *Select) {
	msg := u.targetLocked(m, action)
	if msg == nil {
		return nil, nil, nil
	}
	var b *Button
	var sel *Select
	for _, r := range m.Components {
		for i := range r.Buttons {
			if r.Buttons[i].CustomID == customID {
				b = &r.Buttons[i]
			}
		}
		if r.Select != nil && r.Select.CustomID == customID {
			sel = r.Select
		}
	}
	var problem string
	switch {
	case action == "click" && b == nil, action == "select" && sel == nil:
		problem = "has no such " + map[string]string{"click": "button", "select": "select menu"}[action]
	case b != nil && b.Disabled, sel != nil && sel.Disabled:
		problem = "has it disabled"
	case b != nil && b.Style == discordgo.LinkButton:
		problem = "has it as a link button, which sends no interaction"
	default:
		if findComponent(msg.components, customID) == nil {
			u.s.t.Logf("fakediscord: %s: %s %q on an outdated view of message %s", u.Name, action, customID, msg.id)
		}
		return msg, b, sel
	}
	// What the message has, for the failure only.
	var ids []string
	for _, r := range m.Components {
		for _, btn := range r.Buttons {
			ids = append(ids, strconv.Quote(btn.CustomID))
		}
		if r.Select != nil {
			ids = append(ids, strconv.Quote(r.Select.CustomID))
		}
	}
	u.s.failLocked(fmt.Sprintf("%s: %s %q: message %s %s (it has [%s])", u.Name, action, customID, msg.id, problem, strings.Join(ids, " ")))
	return nil, nil, nil
}

// Click clicks a button on a message the user can see; it fails the test and
// returns nil if the button is not there or is disabled.
func (u *User) Click(m *Message, customID string) *Reply {
	r, _ := u.click(false, m, customID)
	return r
}

func (u *User) click(soft bool, m *Message, customID string) (*Reply, error) {
	return u.act(soft, func() (*interaction, any, bool) {
		msg, _, _ := u.componentLocked(m, customID, "click")
		if msg == nil {
			return nil, nil, false
		}
		it := &interaction{kind: discordgo.InteractionMessageComponent, channelID: msg.channelID, source: msg}
		return it, wireComponentData{CustomID: customID, ComponentType: int(discordgo.ButtonComponent)}, true
	})
}

// Select chooses values in a string select menu; it fails the test and
// returns nil if the menu or a value is not there, or the count is wrong.
func (u *User) Select(m *Message, customID string, values ...string) *Reply {
	r, _ := u.choose(false, m, customID, values...)
	return r
}

func (u *User) choose(soft bool, m *Message, customID string, values ...string) (*Reply, error) {
	s := u.s
	return u.act(soft, func() (*interaction, any, bool) {
		msg, _, c := u.componentLocked(m, customID, "select")
		if msg == nil {
			return nil, nil, false
		}
		var problems []string
		if n := len(values); n < c.Min || n > c.Max {
			problems = append(problems, fmt.Sprintf("%d values chosen, the menu allows %d to %d", n, c.Min, c.Max))
		}
		for i, v := range values {
			if !slices.ContainsFunc(c.Options, func(o SelectOption) bool { return o.Value == v }) {
				problems = append(problems, fmt.Sprintf("%q is not an option", v))
			}
			if slices.Contains(values[:i], v) {
				problems = append(problems, fmt.Sprintf("%q chosen twice", v))
			}
		}
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s: select %q on message %s: %s", u.Name, customID, msg.id, strings.Join(problems, "; ")))
			return nil, nil, false
		}
		it := &interaction{kind: discordgo.InteractionMessageComponent, channelID: msg.channelID, source: msg}
		chosen := append([]string{}, values...)
		return it, wireComponentData{CustomID: customID, ComponentType: int(discordgo.SelectMenuComponent), Values: &chosen}, true
	})
}

// Submit submits a modal the bot opened for this user; values are keyed by
// text input custom_id, and inputs left out keep their pre-filled value. It
// fails the test and returns nil if the client would refuse the values.
func (u *User) Submit(modal *Modal, values map[string]string) *Reply {
	r, _ := u.submit(false, modal, values)
	return r
}

func (u *User) submit(soft bool, modal *Modal, values map[string]string) (*Reply, error) {
	s := u.s
	return u.act(soft, func() (*interaction, any, bool) {
		var problems []string
		switch {
		case modal == nil:
			problems = append(problems, "no modal")
		case modal.user != u.ID:
			problems = append(problems, "the modal was opened for someone else")
		case modal.submitted:
			problems = append(problems, "the modal was already submitted")
		}
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s: submit: %s", u.Name, strings.Join(problems, "; ")))
			return nil, nil, false
		}
		data := wireModalData{CustomID: modal.CustomID}
		for id := range values {
			if !slices.ContainsFunc(modal.Inputs, func(in TextInput) bool { return in.CustomID == id }) {
				problems = append(problems, fmt.Sprintf("the modal has no input %q", id))
			}
		}
		for i, in := range modal.Inputs {
			v, ok := values[in.CustomID]
			if !ok {
				v = in.Value
			}
			n := runes(v)
			switch {
			case n == 0 && in.Required:
				problems = append(problems, fmt.Sprintf("input %q is required", in.CustomID))
			case n > 0 && (n < in.MinLength || n > in.MaxLength):
				problems = append(problems, fmt.Sprintf("input %q must be %d to %d characters, got %d", in.CustomID, in.MinLength, in.MaxLength, n))
			case ok && in.Style == discordgo.TextInputShort && strings.ContainsAny(v, "\r\n"):
				// A short input is one line: the client has no way to type a break.
				problems = append(problems, fmt.Sprintf("input %q is a single-line (short) input, which cannot hold a line break", in.CustomID))
			}
			data.Components = append(data.Components, wireSubmittedRow{Type: discordgo.ActionsRowComponent, ID: 2*i + 1, Components: []wireSubmittedInput{
				{Type: discordgo.TextInputComponent, ID: 2*i + 2, CustomID: in.CustomID, Value: v},
			}})
		}
		if len(problems) > 0 {
			s.failLocked(fmt.Sprintf("%s: submit modal %q: %s", u.Name, modal.CustomID, strings.Join(problems, "; ")))
			return nil, nil, false
		}
		modal.submitted = true
		it := &interaction{kind: discordgo.InteractionModalSubmit, channelID: modal.parent.channelID, parent: modal.parent}
		if modal.parent.kind == discordgo.InteractionMessageComponent {
			it.source = modal.parent.source
		}
		return it, data, true
	})
}

// React adds a unicode emoji reaction to a public message.
func (u *User) React(m *Message, emoji string) { u.react(false, m, emoji, true) }

// Unreact removes the user's reaction.
func (u *User) Unreact(m *Message, emoji string) { u.react(false, m, emoji, false) }

func (u *User) react(soft bool, m *Message, emoji string, add bool) error {
	s := u.s
	return u.emitting(soft, func() (evs []event, ok bool) {
		msg := u.targetLocked(m, "react")
		switch {
		case msg == nil:
		case msg.ephemeral:
			s.failLocked(fmt.Sprintf("%s: react on ephemeral message %s: ephemeral messages take no reactions", u.Name, msg.id))
		case !isEmoji(emoji):
			s.failLocked(fmt.Sprintf("%s: react with %q, which is not a unicode emoji", u.Name, emoji))
		case s.archivedLocked(s.channelLocked(msg.channelID)):
			s.failLocked(fmt.Sprintf("%s: react on message %s: its thread is archived", u.Name, msg.id))
		case add && msg.reaction(emoji) == nil && len(msg.reactions) >= maxReactions:
			s.failLocked(fmt.Sprintf("%s: react on message %s: it already has %d different reactions", u.Name, msg.id, maxReactions))
		default:
			return s.reactLocked(msg, u, emoji, add), true
		}
		return nil, false
	})
}

// emitting runs check under the fake's lock as tryLocked does, then sends the
// events it returns and settles.
func (u *User) emitting(soft bool, check func() ([]event, bool)) error {
	s := u.s
	s.mu.Lock()
	var evs []event
	err := s.tryLocked(soft, func() bool {
		var ok bool
		evs, ok = check()
		return ok
	})
	s.mu.Unlock()
	s.emit(evs...)
	s.settle()
	return err
}

// ClearReactions removes every reaction of one emoji ("" for all) from a
// message, as a moderator with Manage Messages can.
func (u *User) ClearReactions(m *Message, emoji string) {
	s := u.s
	s.mu.Lock()
	msg := u.targetLocked(m, "clear reactions")
	var evs []event
	switch {
	case msg == nil:
	case !u.admin:
		s.failLocked(fmt.Sprintf("%s: clear reactions without Manage Messages", u.Name))
	default:
		evs = append(evs, s.clearLocked(msg, emoji))
	}
	s.mu.Unlock()
	s.emit(evs...)
	s.settle()
}

// DeleteMessage deletes a message as a moderator with Manage Messages can,
// the bot's included. An interaction from a click on it that the bot has
// not answered yet can then no longer update it: Discord answers such an
// update 404 Unknown Message, which is no fault of the bot's.
func (u *User) DeleteMessage(m *Message) { u.deleteMessage(false, m) }

func (u *User) deleteMessage(soft bool, m *Message) error {
	s := u.s
	return u.emitting(soft, func() ([]event, bool) {
		msg := u.targetLocked(m, "delete")
		switch {
		case msg == nil:
		case !u.admin && msg.author != u:
			s.failLocked(fmt.Sprintf("%s: delete someone else's message without Manage Messages", u.Name))
		case msg.ephemeral:
			s.failLocked(fmt.Sprintf("%s: delete ephemeral message %s: only its interaction's webhook can", u.Name, msg.id))
		default:
			if s.deletedByOthers == nil {
				s.deletedByOthers = map[string]bool{}
			}
			s.deletedByOthers[msg.id] = true
			return s.deleteAndAnnounceLocked(msg), true
		}
		return nil, false
	})
}

// Say posts a plain message as the user. The bot is not approved for the
// MESSAGE_CONTENT intent, so it only sees the content if it is mentioned.
func (u *User) Say(channelID, content string) *Message {
	m, _ := u.say(false, channelID, content)
	return m
}

func (u *User) say(soft bool, channelID, content string) (*Message, error) {
	s := u.s
	s.mu.Lock()
	if err := s.tryLocked(soft, func() bool {
		switch {
		case s.channelLocked(channelID) == nil || !s.canSeeLocked(u, channelID):
			s.failLocked(fmt.Sprintf("%s: say in unknown channel %s (or a private thread they are not in)", u.Name, channelID))
		case strings.TrimSpace(content) == "" || runes(content) > 2000:
			s.failLocked(fmt.Sprintf("%s: say %d characters: a message is 1 to 2000 characters", u.Name, runes(content)))
		default:
			return true
		}
		return false
	}); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	m := &message{channelID: channelID, author: u, content: content}
	m.mentions = s.mentionsLocked(content, nil, "")
	s.storeLocked(m)
	ev := s.eventLocked("MESSAGE_CREATE", s.messageWireLocked(m, true))
	out := m.public()
	s.mu.Unlock()
	s.emit(ev)
	s.settle()
	return out, nil
}

// Ephemerals returns the ephemeral messages this user can see in a channel,
// oldest first, with their current content.
func (u *User) Ephemerals(channelID string) []*Message {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, m := range s.history[channelID] {
		if m.ephemeral && m.owner == u.ID {
			out = append(out, m.public())
		}
	}
	return out
}

// LastEphemeral returns the newest ephemeral message this user can see in a
// channel, or nil.
func (u *User) LastEphemeral(channelID string) *Message {
	all := u.Ephemerals(channelID)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}
