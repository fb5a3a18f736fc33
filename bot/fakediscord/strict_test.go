package fakediscord

import (
	"bytes"
	"fmt"
	"net/http"
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
