package fakediscord

import (
	"errors"
	"strings"
)

// Client acts as a member the way a person at a Discord client does: what
// the client would not send (an unknown option, a button that is no longer
// there, an empty message) is answered with a *Refusal and nothing is sent,
// instead of being recorded as a failure. The local table's players act
// through a Client; tests act through the User, so their mistakes fail.
type Client struct{ u *User }

// Client returns the member's client.
func (u *User) Client() *Client { return &Client{u: u} }

// User is the member the client acts as.
func (c *Client) User() *User { return c.u }

// Refusal is why the client did not send an action.
type Refusal struct{ Reasons []string }

func (r *Refusal) Error() string { return strings.Join(r.Reasons, "; ") }

// errRefused stands for a refusal already recorded as a failure.
var errRefused = errors.New("fakediscord: refused (recorded as a failure)")

// tryLocked runs check, which records with failLocked what the client would
// refuse and reports whether the action may go ahead. Strictly (soft false)
// refusals are failures, as always; softly they are only returned. check
// runs entirely under s.mu, so no other failure can be mixed in.
func (s *Server) tryLocked(soft bool, check func() bool) error {
	if !soft {
		if check() {
			return nil
		}
		return errRefused
	}
	var got []string
	s.refusals = &got
	ok := check()
	s.refusals = nil
	if ok {
		return nil
	}
	if len(got) == 0 {
		got = []string{"refused"}
	}
	return &Refusal{Reasons: got}
}

// DeleteMessage deletes a message, as User.DeleteMessage; a message gone
// already is refused.
func (c *Client) DeleteMessage(m *Message) error { return c.u.deleteMessage(true, m) }

// Command runs a slash command, as User.Command.
func (c *Client) Command(channelID, command string, opts ...Option) (*Reply, error) {
	return c.u.command(true, channelID, command, opts...)
}

// MessageCommand runs a message context-menu command, as User.MessageCommand.
func (c *Client) MessageCommand(channelID, name string, target *Message) (*Reply, error) {
	return c.u.messageCommand(true, channelID, name, target)
}

// UserCommand runs a user context-menu command, as User.UserCommand.
func (c *Client) UserCommand(channelID, name string, target *User) (*Reply, error) {
	return c.u.userCommand(true, channelID, name, target)
}

// Click clicks a button on the message as the client shows it (m), as
// User.Click.
func (c *Client) Click(m *Message, customID string) (*Reply, error) {
	return c.u.click(true, m, customID)
}

// Select chooses values in a select menu, as User.Select.
func (c *Client) Select(m *Message, customID string, values ...string) (*Reply, error) {
	return c.u.choose(true, m, customID, values...)
}

// Submit submits a modal, as User.Submit.
func (c *Client) Submit(modal *Modal, values map[string]string) (*Reply, error) {
	return c.u.submit(true, modal, values)
}

// React adds a reaction, as User.React.
func (c *Client) React(m *Message, emoji string) error { return c.u.react(true, m, emoji, true) }

// Unreact takes a reaction back, as User.Unreact.
func (c *Client) Unreact(m *Message, emoji string) error { return c.u.react(true, m, emoji, false) }

// Say posts a plain message, as User.Say.
func (c *Client) Say(channelID, content string) (*Message, error) {
	return c.u.say(true, channelID, content)
}
