package bot

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

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

// outdated tells whether a click was made on a view that has changed since.
// A hand is judged by its own last change, the table by any move.
func outdated(i *discordgo.Interaction, rec *store.Game, seat, version int) bool {
	if version > rec.Version {
		return true
	}
	if fromEphemeral(i) {
		return version < rec.Seats[seat].ViewVersion
	}
	return version != rec.Version
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
	b.keepHand(rec, seat, i)
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
	if outdated(i, rec, seat, id.version) {
		return b.stale(i, rec, g, seat), nil
	}
	a := id.action
	a.Text = text
	before := handViews(len(rec.Seats), g)
	events, err := g.Apply(seat, a)
	if err != nil {
		return b.refusalOr(err), nil
	}
	answer := shownTable
	if fromEphemeral(i) {
		rememberHand(rec, seat, i)
		answer = shownHand
	}
	out, err := b.commit(rec, g, events, before, seat, answer)
	if err != nil {
		return b.oops(err), nil
	}
	after := func() { b.publish(rec, g, out) }
	var m msg
	if answer == shownHand {
		m, err = handMsg(rec, g, seat, "")
	} else {
		m, err = tableMsg(rec, g)
	}
	if err != nil {
		// The move stands; its output still goes out, with the table.
		out.TableDone = false
		b.log.Error("render answer", "game", rec.ID, "err", err)
		return tell("Your move was made, but I couldn't draw it here. The table shows where the game stands."), after
	}
	return update(m), after
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
	if outdated(i, rec, seat, id.version) {
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

// handViews renders every seat's private view, so that commit can tell
// whose view a move changed.
func handViews(seats int, g games.Game) []games.View {
	v := make([]games.View, seats)
	for s := range v {
		v[s] = g.Hand(s)
	}
	return v
}

// shown says what the answer to a move already displayed.
type shown int

const (
	shownTable shown = iota // the table message itself (a table button, or Start)
	shownHand               // the actor's own hand, updated in place
)

// commit saves a game after an accepted move, before anyone is answered,
// together with the output the move owes the channel: its narration, a ping
// for the seats that now have to act and weren't pinged yet, and a redraw of
// the hands the move changed (every hand when before is nil). The actor's
// view always counts as changed: it has been used, so a second click on it
// is a double click.
func (b *Bot) commit(rec *store.Game, g games.Game, events []games.Event, before []games.View, actor int, answer shown) (*store.Output, error) {
	state, err := games.Encode(g)
	if err != nil {
		return nil, fmt.Errorf("encode game %s: %w", rec.ID, err)
	}
	rec.State = state
	rec.Version++
	appendLog(rec, events)
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, TableDone: answer == shownTable}
	for s := range rec.Seats {
		if before == nil || s == actor || !reflect.DeepEqual(before[s], g.Hand(s)) {
			rec.Seats[s].ViewVersion = rec.Version
			if s != actor || answer != shownHand {
				out.Hands = append(out.Hands, s)
			}
		}
	}
	for _, e := range events {
		if e.Story {
			out.Story = append(out.Story, e.Text)
		}
	}
	now := g.ToAct()
	for _, s := range now {
		if !slices.Contains(rec.Waiting, s) {
			out.Ping = append(out.Ping, s)
			rec.Seats[s].WaitingSince = rec.Version
		}
	}
	rec.Waiting = now
	var end *store.Ending
	if g.Over() {
		end = &store.Ending{How: "finished"}
		for _, r := range g.Results() {
			s := rec.Seats[r.Seat]
			end.Results = append(end.Results, store.PlayerResult{User: s.User, Name: s.Name, Won: r.Winner})
		}
	}
	return out, b.db.Commit(rec, out, end)
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
