package fakediscord

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// benchHand is a card game's hand as the bot renders one: an embed with a
// few fields and rows of buttons.
func benchHand(move int) *discordgo.InteractionResponseData {
	var rows []discordgo.MessageComponent
	for r := range 3 {
		var buttons []discordgo.MessageComponent
		for c := range 5 {
			buttons = append(buttons, discordgo.Button{
				Label: fmt.Sprintf("%d♠ card %d", c+2, r*5+c), Style: discordgo.PrimaryButton,
				CustomID: fmt.Sprintf("mv:1234567890123456789:%d:play-%d-%d", move, r, c), Disabled: c == 4,
			})
		}
		rows = append(rows, discordgo.ActionsRow{Components: buttons})
	}
	return &discordgo.InteractionResponseData{
		Content: fmt.Sprintf("Move %d: your turn.", move),
		Embeds: []*discordgo.MessageEmbed{{
			Title:       "Your hand — Duel",
			Description: strings.Repeat("You hold the cards below; play one or draw from the deck. ", 4),
			Color:       0x2f7d5b,
			Fields: []*discordgo.MessageEmbedField{
				{Name: "Life", Value: "60", Inline: true},
				{Name: "Deck", Value: "31 cards", Inline: true},
				{Name: "Opponent", Value: "Bea: 54 life, 5 cards", Inline: true},
				{Name: "Last move", Value: "Bea played **7♥** and drew."},
			},
			Footer: &discordgo.MessageEmbedFooter{Text: "only you can see this"},
		}},
		Components:      rows,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}},
	}
}

// BenchmarkClickAndAnswer is one move of a duel as the load's players make
// it, taking turns: a click on one's ephemeral hand as Controls shows it,
// its INTERACTION_CREATE, the bot's UPDATE_MESSAGE callback with the next
// hand and its webhook PATCH of the other player's hand, without the Sync
// barrier.
func BenchmarkClickAndAnswer(b *testing.B) {
	s := New(b)
	s.SetBarrier(false)
	var mu sync.Mutex
	dealt := map[string]*discordgo.Interaction{} // user ID -> the command that dealt their hand
	move := 0
	sess := session(s, BotToken)
	sess.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessageReactions
	sess.AddHandler(func(sess *discordgo.Session, i *discordgo.InteractionCreate) {
		mu.Lock()
		move++
		n := move
		mu.Unlock()
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			mu.Lock()
			dealt[i.Member.User.ID] = i.Interaction
			mu.Unlock()
			d := benchHand(n)
			d.Flags = discordgo.MessageFlagsEphemeral
			if err := respond(sess, i, discordgo.InteractionResponseChannelMessageWithSource, d); err != nil {
				b.Errorf("deal: %v", err)
			}
		case discordgo.InteractionMessageComponent:
			mu.Lock()
			var other *discordgo.Interaction
			for id, it := range dealt {
				if id != i.Member.User.ID {
					other = it
				}
			}
			mu.Unlock()
			d := benchHand(n)
			if _, err := sess.InteractionResponseEdit(other, &discordgo.WebhookEdit{
				Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components, AllowedMentions: d.AllowedMentions,
			}); err != nil {
				b.Errorf("edit the other hand: %v", err)
			}
			if err := respond(sess, i, discordgo.InteractionResponseUpdateMessage, benchHand(n)); err != nil {
				b.Errorf("update: %v", err)
			}
		}
	})
	if err := sess.Open(); err != nil {
		b.Fatalf("Open: %v", err)
	}
	b.Cleanup(func() { go sess.Close() })
	deal := &discordgo.ApplicationCommand{Name: "deal", Description: "Deal a hand"}
	if _, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{deal}); err != nil {
		b.Fatalf("registering commands: %v", err)
	}
	ch := s.ChannelID()
	players := []*User{s.AddUser("Ann"), s.AddUser("Bea")}
	var hands []string
	for _, u := range players {
		hands = append(hands, u.Command(ch, "deal").Message.ID)
	}
	// The clicks wait on loopback round trips: CPU time, the bot's and the
	// fake's together, is what the load's throughput is bounded by.
	before := cpuTime()
	for turn := 0; b.Loop(); turn = 1 - turn {
		hand := s.Controls(ch, hands[turn])
		r := players[turn].Click(hand, hand.Components[1].Buttons[2].CustomID)
		if r == nil || r.Type != discordgo.InteractionResponseUpdateMessage {
			b.Fatalf("click answered %+v", r)
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseMessage decodes a hand as a bot sends it, the way every
// callback and webhook edit is decoded.
func BenchmarkParseMessage(b *testing.B) {
	raw, _ := json.Marshal(benchHand(7))
	for b.Loop() {
		if _, err := parseMessage(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderMessage renders a hand, as after every edit.
func BenchmarkRenderMessage(b *testing.B) {
	s, _, _, m := handWorld(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	for b.Loop() {
		m.rendered = nil
		s.messageJSONLocked(m)
	}
}

// BenchmarkInteractionJSON renders a click's INTERACTION_CREATE, the
// clicked message already rendered.
func BenchmarkInteractionJSON(b *testing.B) {
	s, _, click, _ := handWorld(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	data := wireComponentData{CustomID: "mv:1:2:play", ComponentType: int(discordgo.ButtonComponent)}
	for b.Loop() {
		s.interactionJSONLocked(click, data)
	}
}
