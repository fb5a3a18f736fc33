package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestThreadFromMessage: a thread started from a message has the message's
// ID, is announced with THREAD_CREATE, and works as a channel: the bot posts
// in it, users run commands in it, and Messages lists what was said there.
func TestThreadFromMessage(t *testing.T) {
	t.Parallel()
	s := New(t)
	var created []*discordgo.ThreadCreate
	seen := make(chan *discordgo.InteractionCreate, 1)
	raw := make(chan json.RawMessage, 1)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd},
		func(_ *discordgo.Session, c *discordgo.ThreadCreate) { created = append(created, c) },
		func(_ *discordgo.Session, e *discordgo.Event) {
			if e.Type == "INTERACTION_CREATE" {
				raw <- e.RawData
			}
		},
		func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
			seen <- i
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong in thread"})
		})
	ch := s.ChannelID()
	table, err := sess.ChannelMessageSend(ch, "Card Duel: Ann vs Bea")
	if err != nil {
		t.Fatal(err)
	}
	th, err := sess.MessageThreadStart(ch, table.ID, "Ann vs Bea", 1440)
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != table.ID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != ch || th.OwnerID != s.BotUserID() ||
		th.ThreadMetadata == nil || th.ThreadMetadata.AutoArchiveDuration != 1440 {
		t.Fatalf("thread = %+v", th)
	}
	s.Sync()
	if len(created) != 1 || !created[0].NewlyCreated || created[0].ID != th.ID || created[0].Name != "Ann vs Bea" {
		t.Fatalf("THREAD_CREATE = %+v", created)
	}
	if m, err := sess.ChannelMessage(ch, table.ID); err != nil || m.Thread == nil || m.Thread.ID != th.ID || m.Flags&discordgo.MessageFlagsHasThread == 0 {
		t.Errorf("starter message = %+v, %v", m, err)
	}

	if _, err := sess.ChannelMessageSend(th.ID, "Round 1"); err != nil {
		t.Fatal(err)
	}
	alice := s.AddUser("Alice")
	r := alice.Command(th.ID, "ping")
	i := <-seen
	var inter struct{ Channel discordgo.Channel }
	json.Unmarshal(<-raw, &inter)
	if r == nil || r.Content != "pong in thread" || r.Message.ChannelID != th.ID || i.ChannelID != th.ID ||
		inter.Channel.Type != discordgo.ChannelTypeGuildPublicThread || inter.Channel.ParentID != ch {
		t.Fatalf("command in the thread: reply %+v, interaction channel %+v", r, inter.Channel)
	}
	said := alice.Say(th.ID, "gg")
	if got := s.Messages(th.ID); len(got) != 3 || got[0].Content != "Round 1" || got[2].ID != said.ID {
		t.Errorf("thread messages = %+v", got)
	}
	if got := s.Messages(ch); len(got) != 1 {
		t.Errorf("the parent channel got %d messages, want 1", len(got))
	}
	if ths := s.Threads(ch); len(ths) != 1 || ths[0].MessageCount != 3 || !slices.Equal(ths[0].Members, []string{s.BotUserID(), alice.ID}) {
		t.Errorf("threads = %+v", ths)
	}
	if got, err := sess.Channel(th.ID); err != nil || got.Type != discordgo.ChannelTypeGuildPublicThread || got.MessageCount != 3 {
		t.Errorf("GET thread = %+v, %v", got, err)
	}

	s.ExpectFailure("160004")
	_, err = sess.MessageThreadStart(ch, table.ID, "again", 60)
	restErr(t, err, 160004)
	round, _ := sess.ChannelMessageSend(th.ID, "Round 2")
	s.ExpectFailure("50024")
	_, err = sess.MessageThreadStart(th.ID, round.ID, "nested", 60)
	restErr(t, err, 50024)
	m2, _ := sess.ChannelMessageSend(ch, "another")
	s.ExpectFailure("auto_archive_duration: Value must be one of {60, 1440, 4320, 10080}.")
	_, err = sess.MessageThreadStart(ch, m2.ID, "x", 30)
	restErr(t, err, 50035)
	s.ExpectFailure("name: This field is required")
	_, err = sess.MessageThreadStart(ch, m2.ID, "", 60)
	restErr(t, err, 50035)
}

// TestThreadsWithoutMessage: POST /channels/{id}/threads makes a private
// thread unless asked for a public one; a public one is announced in its
// channel with a THREAD_CREATED message. Only members (and admins) see a
// private thread; the bot adds members or mentions them.
func TestThreadsWithoutMessage(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	alice, bob, admin := s.AddUser("Alice"), s.AddUser("Bob"), s.AddAdmin("Gm")

	private, err := sess.ThreadStart(ch, "Alice's hand", 0, 60) // discordgo omits a zero type
	if err != nil || private.Type != discordgo.ChannelTypeGuildPrivateThread || private.ThreadMetadata == nil {
		t.Fatalf("private thread = %+v, %v", private, err)
	}
	if len(s.Messages(ch)) != 0 {
		t.Errorf("a private thread was announced in its channel")
	}
	s.ExpectFailure("private thread")
	if alice.Say(private.ID, "let me in") != nil {
		t.Error("a non-member spoke in a private thread")
	}
	if err := sess.ThreadMemberAdd(private.ID, alice.ID); err != nil {
		t.Fatal(err)
	}
	if alice.Say(private.ID, "thanks") == nil || admin.Say(private.ID, "GM here") == nil {
		t.Error("a member or an admin could not speak in the private thread")
	}
	if _, err := sess.ChannelMessageSend(private.ID, "<@"+bob.ID+"> joins"); err != nil {
		t.Fatal(err)
	}
	if bob.Say(private.ID, "hi") == nil {
		t.Error("a mentioned member was not added to the private thread")
	}

	public, err := sess.ThreadStart(ch, "Table talk", discordgo.ChannelTypeGuildPublicThread, 4320)
	if err != nil || public.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Fatalf("public thread = %+v, %v", public, err)
	}
	if msgs := s.Messages(ch); len(msgs) != 1 || msgs[0].Content != "Table talk" {
		t.Errorf("THREAD_CREATED message = %+v", msgs)
	} else if m, err := sess.ChannelMessage(ch, msgs[0].ID); err != nil || m.Type != discordgo.MessageTypeThreadCreated || m.MessageReference == nil || m.MessageReference.ChannelID != public.ID {
		t.Errorf("THREAD_CREATED message = %+v, %v", m, err)
	}
	if alice.Say(public.ID, "anyone") == nil {
		t.Error("a member could not speak in a public thread")
	}
	s.ExpectFailure("type: Value must be one of {11, 12}.")
	_, err = sess.ThreadStart(ch, "news", discordgo.ChannelTypeGuildNewsThread, 60)
	restErr(t, err, 50035)
	if n := len(s.Threads(ch)); n != 2 {
		t.Errorf("%d threads, want 2", n)
	}
}

// TestDenyThreads: without the thread permissions the bot is answered 403
// Missing Permissions, which does not fail the test, and app_permissions
// say so beforehand.
func TestDenyThreads(t *testing.T) {
	t.Parallel()
	s := New(t)
	perms := make(chan int64, 2)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		perms <- i.AppPermissions
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral})
	})
	ch := s.ChannelID()
	alice := s.AddUser("Alice")
	alice.Command(ch, "ping")
	if p := <-perms; p&discordgo.PermissionCreatePublicThreads == 0 || p&discordgo.PermissionSendMessagesInThreads == 0 {
		t.Errorf("app_permissions %d lack the thread permissions", p)
	}
	s.DenyThreads(ch)
	alice.Command(ch, "ping")
	if p := <-perms; p&(discordgo.PermissionCreatePublicThreads|discordgo.PermissionCreatePrivateThreads) != 0 {
		t.Errorf("app_permissions %d still allow threads", p)
	}
	m, _ := sess.ChannelMessageSend(ch, "table")
	_, err := sess.MessageThreadStart(ch, m.ID, "game", 60)
	if re := restErr(t, err, 50013); re.Response.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want 403", re.Response.StatusCode)
	}
	_, err = sess.ThreadStart(ch, "game", discordgo.ChannelTypeGuildPublicThread, 60)
	restErr(t, err, 50013)
	if len(s.Failures()) != 0 || len(s.Threads(ch)) != 0 || s.RESTCounts().Invalid != 2 {
		t.Errorf("failures %v, threads %v, counts %+v", s.Failures(), s.Threads(ch), s.RESTCounts())
	}
	s.AllowThreads(ch)
	if _, err := sess.MessageThreadStart(ch, m.ID, "game", 60); err != nil {
		t.Errorf("after AllowThreads: %v", err)
	}
}
