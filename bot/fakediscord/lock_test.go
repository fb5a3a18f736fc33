package fakediscord

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestLockThread: a locked thread says so in its metadata and in the
// interactions from it; the bot may not unarchive it (403 50013) nor post,
// edit or answer publicly in it (400 50083), each an invalid request that
// does not fail the test; ephemeral answers still work; a click does not
// unarchive it; unlocking lets the bot back in.
func TestLockThread(t *testing.T) {
	t.Parallel()
	s := New(t)
	raw := make(chan json.RawMessage, 4)
	refused := make(chan error, 4)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd},
		func(_ *discordgo.Session, e *discordgo.Event) {
			if e.Type == "INTERACTION_CREATE" {
				raw <- e.RawData
			}
		},
		func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
			// Publicly first, then to the user alone if that is refused.
			err := respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong"})
			if err != nil {
				refused <- err
				respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource,
					&discordgo.InteractionResponseData{Content: "pong", Flags: discordgo.MessageFlagsEphemeral})
			}
		})
	var updates []*discordgo.ThreadUpdate
	sess.AddHandler(func(_ *discordgo.Session, u *discordgo.ThreadUpdate) { updates = append(updates, u) })
	ch := s.ChannelID()
	table, err := sess.ChannelMessageSend(ch, "table")
	if err != nil {
		t.Fatal(err)
	}
	th, err := sess.MessageThreadStart(ch, table.ID, "game", 1440)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sess.ChannelMessageSend(th.ID, "round 1")
	if err != nil {
		t.Fatal(err)
	}

	s.LockThread(th.ID)
	s.Sync()
	if len(updates) != 1 || updates[0].ThreadMetadata == nil || !updates[0].ThreadMetadata.Locked {
		t.Fatalf("THREAD_UPDATE = %+v", updates)
	}
	if got, err := sess.Channel(th.ID); err != nil || !got.ThreadMetadata.Locked || got.ThreadMetadata.Archived {
		t.Fatalf("GET locked thread = %+v, %v", got, err)
	}
	if _, err := sess.ChannelMessageSend(th.ID, "round 2"); !restIs(err, http.StatusBadRequest, 50083) {
		t.Errorf("post in a locked thread: %v", err)
	}
	if _, err := sess.ChannelMessageEdit(th.ID, m.ID, "round 1 again"); !restIs(err, http.StatusBadRequest, 50083) {
		t.Errorf("edit in a locked thread: %v", err)
	}
	no := false
	if _, err := sess.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}); !restIs(err, http.StatusForbidden, 50013) {
		t.Errorf("unarchive a locked thread: %v", err)
	}
	if n := s.LockedRefusals(); n != 3 {
		t.Errorf("LockedRefusals = %d, want 3", n)
	}

	// Interactions from it still reach the bot: the thread says it is
	// locked, app_permissions are unchanged. A public answer is refused;
	// one to the user alone is not.
	bea := s.AddUser("Bea")
	r := bea.Command(th.ID, "ping")
	if err := <-refused; !restIs(err, http.StatusBadRequest, 50083) {
		t.Errorf("public answer in a locked thread: %v", err)
	}
	if r == nil || !r.Ephemeral || r.Content != "pong" {
		t.Errorf("ephemeral answer in a locked thread: %+v", r)
	}
	var inter struct {
		Channel        discordgo.Channel
		AppPermissions string `json:"app_permissions"`
	}
	json.Unmarshal(<-raw, &inter)
	if inter.Channel.ThreadMetadata == nil || !inter.Channel.ThreadMetadata.Locked || inter.AppPermissions != permissionString(botPermissions) {
		t.Errorf("interaction from a locked thread: channel %+v, app_permissions %s", inter.Channel.ThreadMetadata, inter.AppPermissions)
	}

	// Archived and locked: a member's command does not reopen it.
	s.Advance(25 * time.Hour)
	bea.Command(th.ID, "ping")
	<-raw
	<-refused
	if !s.Archived(th.ID) {
		t.Error("a member's command unarchived a locked thread")
	}

	s.UnlockThread(th.ID)
	if _, err := sess.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}); err != nil {
		t.Fatalf("unarchive after unlock: %v", err)
	}
	if _, err := sess.ChannelMessageSend(th.ID, "round 2"); err != nil {
		t.Errorf("post after unlock: %v", err)
	}
	if n := s.LockedRefusals(); n != 5 {
		t.Errorf("LockedRefusals = %d, want 5", n)
	}
	// Discord's invalid-request limit counts 401, 403 and 429 only: the
	// refused unarchive.
	if got := s.RESTCounts().Invalid; got != 1 {
		t.Errorf("invalid requests = %d, want 1", got)
	}
	if f := s.Failures(); len(f) != 0 {
		t.Errorf("failures: %v", f)
	}
}

// restIs tells whether err is Discord's answer status with JSON code.
func restIs(err error, status, code int) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response.StatusCode == status && rest.Message != nil && rest.Message.Code == code
}
