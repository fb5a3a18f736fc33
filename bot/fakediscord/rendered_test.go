package fakediscord

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// A message keeps its rendered JSON between changes (messageJSONLocked):
// after every kind of change, what the bot gets, in a click's
// INTERACTION_CREATE and from GET, is the message as it is now.
func TestBotSeesEveryChange(t *testing.T) {
	t.Parallel()
	s := New(t)
	hand := func(v int) *discordgo.InteractionResponseData {
		return &discordgo.InteractionResponseData{
			Content: fmt.Sprintf("v%d", v), Flags: discordgo.MessageFlagsEphemeral,
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Play", CustomID: fmt.Sprintf("b%d", v)},
			}}},
		}
	}
	// view is a message as the bot got it: content and buttons.
	view := func(m *discordgo.Message, err error) string {
		if err != nil {
			return err.Error()
		}
		var ids []string
		for _, row := range m.Components {
			for _, c := range row.(*discordgo.ActionsRow).Components {
				ids = append(ids, c.(*discordgo.Button).CustomID)
			}
		}
		return m.Content + " " + strings.Join(ids, ",")
	}
	var deal *discordgo.Interaction
	var seen []string
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type == discordgo.InteractionApplicationCommand {
			deal = i.Interaction
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, hand(1))
			return
		}
		seen = append(seen, "click: "+view(i.Message, nil))
		switch id := i.MessageComponentData().CustomID; id {
		case "b1": // edited through the webhook, the response rendered
			d := hand(2)
			seen = append(seen, "PATCH: "+view(bs.InteractionResponseEdit(deal, &discordgo.WebhookEdit{Content: &d.Content, Components: &d.Components})))
			respond(bs, i, discordgo.InteractionResponseDeferredMessageUpdate, nil)
		default: // edited by the callback, nothing rendered
			seen = append(seen, "GET: "+view(bs.InteractionResponse(deal)))
			var v int
			fmt.Sscanf(id, "b%d", &v)
			respond(bs, i, discordgo.InteractionResponseUpdateMessage, hand(v+1))
		}
	})
	ann := s.AddUser("Ann")
	ch := s.ChannelID()
	id := ann.Command(ch, "ping").Message.ID
	for range 4 {
		m := s.Controls(ch, id)
		ann.Click(m, m.Buttons()[0].CustomID)
	}
	want := []string{
		"click: v1 b1", "PATCH: v2 b2",
		"click: v2 b2", "GET: v2 b2",
		"click: v3 b3", "GET: v3 b3",
		"click: v4 b4", "GET: v4 b4",
	}
	if got := strings.Join(seen, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("the bot saw\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// A public message's GET shows each edit, reaction and thread.
func TestGetShowsEveryChange(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	m, err := sess.ChannelMessageSend(ch, "p1")
	if err != nil {
		t.Fatal(err)
	}
	view := func() string {
		t.Helper()
		got, err := sess.ChannelMessage(ch, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		out := got.Content
		for _, r := range got.Reactions {
			out += fmt.Sprintf(" %s×%d", r.Emoji.Name, r.Count)
		}
		if got.Thread != nil {
			out += " thread " + got.Thread.Name
		}
		return out
	}
	ann := s.AddUser("Ann")
	steps := []struct {
		change func()
		want   string
	}{
		{func() {}, "p1"},
		{func() {}, "p1"}, // rendered, then kept
		{func() { ann.React(s.Message(ch, m.ID), "👍") }, "p1 👍×1"},
		{func() { ann.Unreact(s.Message(ch, m.ID), "👍") }, "p1"},
		{func() { sess.ChannelMessageEdit(ch, m.ID, "p2") }, "p2"},
		{func() { sess.MessageThreadStart(ch, m.ID, "talk", 60) }, "p2 thread talk"},
		{func() { sess.ChannelMessageEdit(ch, m.ID, "p3") }, "p3 thread talk"},
	}
	for i, step := range steps {
		step.change()
		if got := view(); got != step.want {
			t.Errorf("step %d: GET shows %q, want %q", i, got, step.want)
		}
	}
}
