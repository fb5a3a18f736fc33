package fakediscord

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestMessageStrictness pins down documented message rules: allowed_mentions
// lists are sets, embed timestamps are ISO8601, a reply to a missing
// message is an error unless fail_if_not_exists is false, and a message
// holds at most 10 attachments uploaded at most 10 MiB at a time.
func TestMessageStrictness(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	alice := s.AddUser("Alice")
	send := func(m *discordgo.MessageSend) (*discordgo.Message, error) {
		return sess.ChannelMessageSendComplex(ch, m)
	}

	s.ExpectFailure("allowed_mentions.users: The set already contains the value " + alice.ID)
	_, err := send(&discordgo.MessageSend{Content: "hi", AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{alice.ID, alice.ID}}})
	restErr(t, err, 50035)

	if _, err := send(&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t", Timestamp: time.Now().Format(time.RFC3339)}}}); err != nil {
		t.Errorf("an RFC 3339 timestamp was refused: %v", err)
	}
	s.ExpectFailure("embeds.0.timestamp: Could not parse yesterday")
	_, err = send(&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "t", Timestamp: "yesterday"}}})
	restErr(t, err, 50035)

	no := false
	m, err := send(&discordgo.MessageSend{Content: "orphan", Reference: &discordgo.MessageReference{MessageID: "1", FailIfNotExists: &no}})
	if err != nil || m.Type != discordgo.MessageTypeDefault || m.MessageReference != nil {
		t.Errorf("fail_if_not_exists false: %+v, %v", m, err)
	}
	s.ExpectFailure("MESSAGE_REFERENCE_UNKNOWN_MESSAGE")
	_, err = send(&discordgo.MessageSend{Content: "orphan", Reference: &discordgo.MessageReference{MessageID: "1"}})
	restErr(t, err, 50035)

	files := func(n, size int) []*discordgo.File {
		var out []*discordgo.File
		for i := range n {
			out = append(out, &discordgo.File{Name: fmt.Sprint("f", i, ".txt"), ContentType: "text/plain", Reader: bytes.NewReader(make([]byte, size))})
		}
		return out
	}
	if _, err := send(&discordgo.MessageSend{Files: files(10, 10)}); err != nil {
		t.Errorf("10 attachments were refused: %v", err)
	}
	s.ExpectFailure("attachments: Must be 10 or fewer in length.")
	_, err = send(&discordgo.MessageSend{Files: files(11, 10)})
	restErr(t, err, 50035)
	s.ExpectFailure("40005")
	_, err = send(&discordgo.MessageSend{Files: files(2, 6<<20)})
	if re := restErr(t, err, 40005); re.Response.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", re.Response.StatusCode)
	}
}

// TestEmbedTextsAreTrimmed: Discord measures an embed's texts without their
// leading and trailing whitespace, so a blank field name is a missing one
// (bots write "\u200b", which is not whitespace), and the spaces around a
// full-length title do not count.
func TestEmbedTextsAreTrimmed(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	send := func(e *discordgo.MessageEmbed) error {
		_, err := sess.ChannelMessageSendEmbed(s.ChannelID(), e)
		return err
	}
	s.ExpectFailure("embeds.0.fields.0.name: This field is required")
	restErr(t, send(&discordgo.MessageEmbed{Title: "Scores", Fields: []*discordgo.MessageEmbedField{{Name: " ", Value: "3"}}}), 50035)
	s.ExpectFailure("embeds.0.footer.text: This field is required")
	restErr(t, send(&discordgo.MessageEmbed{Title: "Scores", Footer: &discordgo.MessageEmbedFooter{Text: "\n\t"}}), 50035)
	if err := send(&discordgo.MessageEmbed{Title: " " + strings.Repeat("t", 256) + "\n", Fields: []*discordgo.MessageEmbedField{{Name: "\u200b", Value: "\u200b"}}}); err != nil {
		t.Errorf("a 256-character title with spaces around it, or a zero-width field, was refused: %v", err)
	}
	// 5,990 characters of text and 20 of padding fit the 6,000 total.
	pad := strings.Repeat(" ", 10)
	if err := send(&discordgo.MessageEmbed{Description: pad + strings.Repeat("d", 4096) + pad, Fields: []*discordgo.MessageEmbedField{
		{Name: "a", Value: strings.Repeat("v", 1000)}, {Name: "b", Value: strings.Repeat("v", 892)},
	}}); err != nil {
		t.Errorf("padding was counted towards the 6000 total: %v", err)
	}
}

// TestComponentIDsAndLinkURL: a component's optional numeric id is unique
// within its message or modal, and a link button's url is at most 512
// characters.
func TestComponentIDsAndLinkURL(t *testing.T) {
	t.Parallel()
	s := New(t)
	modalErr := make(chan error, 1)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		input := func(id string) discordgo.MessageComponent {
			return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{ID: 3, CustomID: id, Label: id, Style: discordgo.TextInputShort},
			}}
		}
		err := respond(bs, i, discordgo.InteractionResponseModal, &discordgo.InteractionResponseData{
			CustomID: "m", Title: "Name", Components: []discordgo.MessageComponent{input("first"), input("last")},
		})
		modalErr <- err
		if err != nil {
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "no modal"})
		}
	})
	send := func(buttons ...discordgo.MessageComponent) error {
		_, err := sess.ChannelMessageSendComplex(s.ChannelID(), &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: buttons},
		}})
		return err
	}
	if err := send(discordgo.Button{ID: 7, Label: "a", CustomID: "a"}, discordgo.Button{ID: 8, Label: "b", CustomID: "b"}); err != nil {
		t.Errorf("distinct component ids were refused: %v", err)
	}
	s.ExpectFailure("components.0.components.1.id: Component id 7 is already used")
	restErr(t, send(discordgo.Button{ID: 7, Label: "a", CustomID: "a"}, discordgo.Button{ID: 7, Label: "b", CustomID: "b"}), 50035)

	link := func(n int) discordgo.Button {
		u := "https://example.com/"
		return discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: u + strings.Repeat("r", n-len(u))}
	}
	if err := send(link(512)); err != nil {
		t.Errorf("a 512-character link was refused: %v", err)
	}
	s.ExpectFailure("components.0.components.0.url: Must be 512 or fewer in length.")
	restErr(t, send(link(513)), 50035)

	s.ExpectFailure("data.components.1.components.0.id: Component id 3 is already used")
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r.Modal != nil {
		t.Errorf("a modal with a repeated component id opened: %+v", r.Modal)
	}
	restErr(t, <-modalErr, 50035)
}

// TestSystemMessages: a system message (here the THREAD_CREATED message of
// a thread the bot started) cannot be edited, even by its author, nor
// replied to.
func TestSystemMessages(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	if _, err := sess.ThreadStart(ch, "Table talk", discordgo.ChannelTypeGuildPublicThread, 60); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages(ch)
	if len(msgs) != 1 {
		t.Fatalf("messages = %+v", msgs)
	}
	created := msgs[0]
	s.ExpectFailure("50021")
	_, err := sess.ChannelMessageEdit(ch, created.ID, "renamed")
	restErr(t, err, 50021)
	no := false
	for _, fail := range []*bool{nil, &no} {
		s.ExpectFailure("REPLIES_CANNOT_REPLY_TO_SYSTEM_MESSAGE")
		_, err = sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "re", Reference: &discordgo.MessageReference{MessageID: created.ID, FailIfNotExists: fail}})
		restErr(t, err, 50035)
	}
	if m := s.Message(ch, created.ID); m.Content != "Table talk" || m.Edits != 0 {
		t.Errorf("THREAD_CREATED message after the refusals: %+v", m)
	}
	if err := sess.ChannelMessageDelete(ch, created.ID); err != nil {
		t.Errorf("deleting a THREAD_CREATED message: %v", err)
	}
}

// TestShortInputTakesNoLineBreak: a short text input is a single line in
// the client, so a user cannot submit a line break in it; a paragraph
// input takes one.
func TestShortInputTakesNoLineBreak(t *testing.T) {
	t.Parallel()
	s := New(t)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type == discordgo.InteractionModalSubmit {
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "noted", Flags: discordgo.MessageFlagsEphemeral})
			return
		}
		row := func(id string, style discordgo.TextInputStyle) discordgo.MessageComponent {
			return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: id, Label: id, Style: style}}}
		}
		respond(bs, i, discordgo.InteractionResponseModal, &discordgo.InteractionResponseData{
			CustomID: "note", Title: "Note", Components: []discordgo.MessageComponent{row("title", discordgo.TextInputShort), row("body", discordgo.TextInputParagraph)},
		})
	})
	alice := s.AddUser("Alice")
	modal := alice.Command(s.ChannelID(), "ping").Modal
	s.ExpectFailure(`input "title" is a single-line (short) input`)
	if alice.Submit(modal, map[string]string{"title": "two\nlines", "body": "fine"}) != nil {
		t.Error("a line break was submitted in a short input")
	}
	if r := alice.Submit(modal, map[string]string{"title": "one line", "body": "two\nlines"}); r == nil || r.Content != "noted" {
		t.Errorf("a paragraph input's line break: %+v", r)
	}
}
