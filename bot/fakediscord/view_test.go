package fakediscord

import (
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// tableBot answers /ping with a public message holding a button and an
// ephemeral one, and the button with an ephemeral answer.
func tableBot(t *testing.T, s *Server) *discordgo.Session {
	return connect(t, s, []*discordgo.ApplicationCommand{pingCmd, gameCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
				Content: "Pong!", Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Again", CustomID: "again", Style: discordgo.PrimaryButton},
				}}},
			})
			bs.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "only you", Flags: discordgo.MessageFlagsEphemeral})
		case discordgo.InteractionMessageComponent:
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
				Content: "clicked", Flags: discordgo.MessageFlagsEphemeral,
			})
		}
	})
}

func TestChatViewShowsEachMemberTheirOwnEphemerals(t *testing.T) {
	t.Parallel()
	s := New(t)
	tableBot(t, s)
	ann, bea := s.AddUser("Ann"), s.AddUser("Bea")
	ch := s.ChannelID()
	r := ann.Command(ch, "ping")
	bea.React(r.Message, "🎭")

	annView, beaView := s.ChatView(ann.ID, ch), s.ChatView(bea.ID, ch)
	if len(annView) != 2 || len(beaView) != 1 {
		t.Fatalf("Ann sees %d messages, Bea %d; want 2 and 1", len(annView), len(beaView))
	}
	pong := beaView[0]
	if pong.Content != "Pong!" || pong.Author.ID != s.BotUserID() || !pong.Author.Bot || pong.Interaction == nil ||
		pong.Interaction.User != "Ann" || pong.Interaction.Command != "ping" {
		t.Errorf("Bea sees %+v", pong)
	}
	if !strings.Contains(string(pong.Components), `"custom_id":"again"`) {
		t.Errorf("components as sent: %s", pong.Components)
	}
	if len(pong.Reactions) != 1 || pong.Reactions[0].Emoji != "🎭" || !pong.Reactions[0].Me || pong.Reactions[0].Users[0] != "Bea" {
		t.Errorf("reactions as Bea sees them: %+v", pong.Reactions)
	}
	if annView[0].Reactions[0].Me {
		t.Error("Ann sees Bea's reaction as her own")
	}
	if eph := annView[1]; !eph.Ephemeral || eph.Content != "only you" {
		t.Errorf("Ann's ephemeral: %+v", eph)
	}
	if got := s.ChatView("nobody", ch); got != nil {
		t.Errorf("an unknown member sees %d messages", len(got))
	}
	if m := s.Members(); len(m) != 3 || m[0].Name != "Guild Owner" || !m[0].Admin || m[1].Name != "Ann" || m[2].Name != "Bea" {
		t.Errorf("Members = %+v", m)
	}
	if c := s.ChannelsFor(ann.ID); len(c) != 1 || c[0].ID != ch || c[0].Name != "general" {
		t.Errorf("ChannelsFor = %+v", c)
	}
}

func TestClientRefusesWhatTheClientWouldNotSend(t *testing.T) {
	t.Parallel()
	s := New(t)
	tableBot(t, s)
	ann := s.AddUser("Ann").Client()
	ch := s.ChannelID()
	var refusal *Refusal
	if _, err := ann.Command(ch, "nope"); !errors.As(err, &refusal) || !strings.Contains(err.Error(), "no such command") {
		t.Errorf("unknown command: %v", err)
	}
	if _, err := ann.Command(ch, "game", Sub("start", Str("kind", "chess"))); err == nil || !strings.Contains(err.Error(), "declared choices") {
		t.Errorf("undeclared choice: %v", err)
	}
	r, err := ann.Command(ch, "ping")
	if err != nil || r.Content != "Pong!" {
		t.Fatalf("/ping: %+v, %v", r, err)
	}
	if _, err := ann.Click(r.Message, "gone"); err == nil || !strings.Contains(err.Error(), "no such button") {
		t.Errorf("missing button: %v", err)
	}
	if c, err := ann.Click(r.Message, "again"); err != nil || c.Content != "clicked" || !c.Ephemeral {
		t.Errorf("click: %+v, %v", c, err)
	}
	if err := ann.React(r.Message, "not an emoji"); err == nil {
		t.Error("a reaction with text was sent")
	}
	if _, err := ann.Say(ch, "  "); err == nil {
		t.Error("an empty message was sent")
	}
	if f := s.Failures(); len(f) != 0 {
		t.Errorf("a client's refusals were recorded as failures: %q", f)
	}
}

func TestChangesAreAnnounced(t *testing.T) {
	t.Parallel()
	s := New(t)
	tableBot(t, s)
	ann := s.AddUser("Ann")
	// In order: the reaction goes on the command's answer.
	for _, c := range []struct {
		name string
		do   func()
	}{
		{"a member", func() { s.AddUser("Bea") }},
		{"a channel", func() { s.NewChannel("side") }},
		{"a command", func() { ann.Command(s.ChannelID(), "ping") }},
		{"a reaction", func() { ann.React(s.Messages(s.ChannelID())[0], "👍") }},
	} {
		changed := s.Changes()
		c.do()
		select {
		case <-changed:
		default:
			t.Errorf("%s was not announced", c.name)
		}
	}
}

func TestWorldSurvivesARestart(t *testing.T) {
	t.Parallel()
	s := New(t)
	tableBot(t, s)
	ann, bea := s.AddUser("Ann"), s.AddUser("Bea")
	side := s.NewChannel("side")
	r := ann.Command(side, "ping")
	bea.React(r.Message, "🎭")
	bea.Say(side, "hello")
	world, err := s.SaveWorld()
	if err != nil {
		t.Fatal(err)
	}

	again, err := Restore(t, world)
	if err != nil {
		t.Fatal(err)
	}
	if again.GuildID() != s.GuildID() || again.BotUserID() != s.BotUserID() || again.ChannelID() != s.ChannelID() {
		t.Fatal("the guild, bot or channel has another ID after Restore")
	}
	for _, u := range []*User{ann, bea} {
		before, after := s.ChatView(u.ID, side), again.ChatView(u.ID, side)
		if len(before) != len(after) {
			t.Fatalf("%s saw %d messages, now %d", u.Name, len(before), len(after))
		}
		for i := range before {
			b, a := before[i], after[i]
			if b.ID != a.ID || b.Content != a.Content || string(b.Components) != string(a.Components) || len(b.Reactions) != len(a.Reactions) ||
				(b.Interaction == nil) != (a.Interaction == nil) || !b.Timestamp.Equal(a.Timestamp) {
				t.Errorf("%s's message %d was %+v, is %+v", u.Name, i, b, a)
			}
		}
	}
	// The bot, back, edits its old message; the members act as before.
	sess := tableBot(t, again)
	if _, err := sess.ChannelMessageEdit(side, r.Message.ID, "Pong again"); err != nil {
		t.Fatalf("edit after Restore: %v", err)
	}
	ann2 := again.User(ann.ID)
	if c := ann2.Click(again.Message(side, r.Message.ID), "again"); c == nil || c.Content != "clicked" {
		t.Errorf("click after Restore: %+v", c)
	}
	if id := again.NewChannel("third"); !idLess(r.Message.ID, id) {
		t.Errorf("new ID %s is not after the old ones", id)
	}
}
