package bot

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

const (
	keptLog      = 20
	maxLogLine   = 200
	staleHandMsg = "⏳ That button was from an earlier moment, so I ignored it. Here is your hand as it is now."
)

// playerOf checks that a button belongs to the channel's running game and
// that the user has a seat in it.
func (b *Bot) playerOf(i *discordgo.Interaction, id customID) (*store.Game, int, *reply) {
	rec, no := b.current(i.ChannelID, id.game)
	if no != nil {
		return nil, 0, no
	}
	user, _ := who(i)
	seat := rec.SeatOf(user)
	if seat < 0 {
		r := tell("You're not playing in this game; everything public is on the table.")
		return nil, 0, &r
	}
	if rec.Status != store.Playing {
		r := tell("The game hasn't started yet.")
		return nil, 0, &r
	}
	return rec, seat, nil
}

func fromEphemeral(i *discordgo.Interaction) bool {
	return i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// stale answers a click made on an out-of-date view with the current one.
func (b *Bot) stale(i *discordgo.Interaction, rec *store.Game, g games.Game, seat int) reply {
	if !fromEphemeral(i) {
		return tell("That button was out of date, so I ignored it. The table above shows the game as it is now.")
	}
	m, err := handMsg(rec, g, seat, staleHandMsg)
	if err != nil {
		return b.oops(err)
	}
	rememberHand(rec, seat, i)
	b.saveQuietly(rec)
	return update(m)
}

// onMove applies one player's action: validate, commit, then answer.
func (b *Bot) onMove(i *discordgo.Interaction, id customID, text string) (reply, func()) {
	rec, seat, no := b.playerOf(i, id)
	if no != nil {
		return *no, nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if id.version != rec.Version {
		return b.stale(i, rec, g, seat), nil
	}
	a := id.action
	a.Text = text
	events, err := g.Apply(seat, a)
	if err != nil {
		return b.refusalOr(err), nil
	}
	if fromEphemeral(i) {
		rememberHand(rec, seat, i)
	}
	ping, err := b.commit(rec, g, events)
	if err != nil {
		return b.oops(err), nil
	}
	var m msg
	if fromEphemeral(i) {
		m, err = handMsg(rec, g, seat, "")
	} else {
		m, err = tableMsg(rec, g)
	}
	if err != nil {
		return b.oops(err), nil
	}
	tableDone := !fromEphemeral(i)
	return update(m), func() { b.publish(rec, g, events, ping, seat, tableDone) }
}

// onAsk opens the text box for a move that needs typed words.
func (b *Bot) onAsk(i *discordgo.Interaction, id customID) reply {
	rec, seat, no := b.playerOf(i, id)
	if no != nil {
		return *no
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err)
	}
	if id.version != rec.Version {
		return b.stale(i, rec, g, seat)
	}
	var ask *games.Ask
	for _, btn := range g.Hand(seat).Buttons {
		if btn.Ask != nil && btn.Action.Key() == id.action.Key() {
			ask = btn.Ask
		}
	}
	if ask == nil {
		return tell("That move isn't open to you right now.")
	}
	style := discordgo.TextInputShort
	if ask.Long {
		style = discordgo.TextInputParagraph
	}
	maxLen := ask.MaxLen
	if maxLen <= 0 || maxLen > 4000 {
		maxLen = 4000
	}
	text := customID{kind: "text", game: id.game, version: id.version, action: id.action}
	return reply{modal: &discordgo.InteractionResponseData{
		CustomID: text.String(),
		Title:    clip(ask.Title, 45),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "text", Label: clip(ask.Label, 45), Style: style, Placeholder: clip(ask.Placeholder, 100),
				Required: true, MaxLength: maxLen},
		}}},
	}}
}

// commit saves a game after an accepted move, before anyone is answered,
// and returns the seats that now have to act and haven't been pinged yet.
func (b *Bot) commit(rec *store.Game, g games.Game, events []games.Event) ([]int, error) {
	state, err := games.Encode(g)
	if err != nil {
		return nil, fmt.Errorf("encode game %s: %w", rec.ID, err)
	}
	rec.State = state
	rec.Version++
	appendLog(rec, events)
	now := g.ToAct()
	var ping []int
	for _, s := range now {
		if !slices.Contains(rec.Waiting, s) {
			ping = append(ping, s)
		}
	}
	rec.Waiting = now
	if g.Over() {
		var results []store.PlayerResult
		for _, r := range g.Results() {
			s := rec.Seats[r.Seat]
			results = append(results, store.PlayerResult{User: s.User, Name: s.Name, Won: r.Winner})
		}
		return nil, b.db.End(rec, "finished", results)
	}
	return ping, b.db.Save(rec)
}

func appendLog(rec *store.Game, events []games.Event) {
	for _, e := range events {
		line, _, _ := strings.Cut(e.Text, "\n")
		rec.Log = append(rec.Log, clip(line, maxLogLine))
	}
	if len(rec.Log) > keptLog {
		rec.Log = rec.Log[len(rec.Log)-keptLog:]
	}
}

// publish does what follows a committed change: the table, the story, the
// other players' hands, and the ping for whoever must act next.
func (b *Bot) publish(rec *store.Game, g games.Game, events []games.Event, ping []int, actor int, tableDone bool) {
	if !tableDone {
		b.editTable(rec, g)
	}
	for _, e := range events {
		if e.Story {
			if _, err := b.s.ChannelMessageSendComplex(rec.Channel, textMsg("%s", e.Text).send()); err != nil {
				b.log.Warn("post narration", "game", rec.ID, "err", err)
			}
		}
	}
	b.refreshHands(rec, g, actor)
	b.ping(rec, ping)
}

// editTable shows the game's current state in the table message, posting a
// new one if someone deleted it.
func (b *Bot) editTable(rec *store.Game, g games.Game) {
	m, err := tableMsg(rec, g)
	if err != nil {
		b.log.Error("render table", "err", err)
		return
	}
	_, err = b.s.ChannelMessageEditComplex(m.edit(rec.Channel, rec.TableMsg))
	if err == nil || !isUnknownMessage(err) {
		if err != nil {
			b.log.Warn("edit table", "game", rec.ID, "err", err)
		}
		return
	}
	posted, err := b.s.ChannelMessageSendComplex(rec.Channel, m.send())
	if err != nil {
		b.log.Warn("repost table", "game", rec.ID, "err", err)
		return
	}
	rec.TableMsg = posted.ID
	if !g.Over() {
		b.saveQuietly(rec)
	}
}

func isUnknownMessage(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound
}

// saveQuietly stores bookkeeping (message ids) that is not part of a move.
func (b *Bot) saveQuietly(rec *store.Game) {
	if err := b.db.Save(rec); err != nil {
		b.log.Warn("save game", "game", rec.ID, "err", err)
	}
}

// ping mentions the players who must act now, once per turn, replacing the
// previous ping so the channel doesn't fill with them.
func (b *Bot) ping(rec *store.Game, seats []int) {
	if len(seats) == 0 {
		return
	}
	if rec.PingMsg != "" {
		b.s.ChannelMessageDelete(rec.Channel, rec.PingMsg)
	}
	var mentions, ids []string
	for _, s := range seats {
		ids = append(ids, rec.Seats[s].User)
		mentions = append(mentions, "<@"+rec.Seats[s].User+">")
	}
	rules, _ := b.rules(rec.Kind)
	send := &discordgo.MessageSend{
		Content:         fmt.Sprintf("%s — your move in %s. Press **My hand** on the table.", strings.Join(mentions, " "), rules.Name),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: ids},
	}
	m, err := b.s.ChannelMessageSendComplex(rec.Channel, send)
	if err != nil {
		b.log.Warn("ping", "game", rec.ID, "err", err)
		return
	}
	rec.PingMsg = m.ID
	b.saveQuietly(rec)
}

// rememberHand keeps the token of the interaction that showed a player their
// hand, so later changes can refresh that message in place.
func rememberHand(rec *store.Game, seat int, i *discordgo.Interaction) {
	rec.Seats[seat].HandToken = i.Token
	rec.Seats[seat].HandAt = time.Now().UTC()
}

// refreshHands edits the open hands of everyone but the actor, while their
// interaction tokens are still good, so no one holds stale buttons.
func (b *Bot) refreshHands(rec *store.Game, g games.Game, actor int) {
	app := b.applicationID()
	forgot := false
	for seat, s := range rec.Seats {
		if seat == actor || s.HandToken == "" {
			continue
		}
		if time.Since(s.HandAt) > handTokenLife {
			rec.Seats[seat].HandToken, forgot = "", true
			continue
		}
		m, err := handMsg(rec, g, seat, "")
		if err != nil {
			b.log.Error("render hand", "err", err)
			continue
		}
		if _, err := b.s.InteractionResponseEdit(&discordgo.Interaction{AppID: app, Token: s.HandToken}, m.webhookEdit()); err != nil {
			rec.Seats[seat].HandToken, forgot = "", true
		}
	}
	if forgot && !g.Over() {
		b.saveQuietly(rec)
	}
}
