package bot

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// cmdNew opens a lobby. The game is saved and the user answered at once;
// the lobby message is posted by the output lane, like everything that may
// wait on Discord's rate limits.
func (b *Bot) cmdNew(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (reply, func()) {
	user, name := who(i)
	kind := ""
	values := map[string]int{}
	for _, o := range opts {
		switch o.Type {
		case discordgo.ApplicationCommandOptionString:
			if o.Name == "game" {
				kind = o.StringValue()
			}
		case discordgo.ApplicationCommandOptionInteger:
			values[o.Name] = int(o.IntValue())
		case discordgo.ApplicationCommandOptionBoolean:
			values[o.Name] = map[bool]int{true: 1}[o.BoolValue()]
		}
	}
	rules, ok := b.rules(kind)
	if !ok {
		return tell("I don't know that game. Choose one from the list."), nil
	}
	existing, err := b.db.Game(i.ChannelID)
	if err != nil {
		return b.oops(err), nil
	}
	if existing != nil {
		r, _ := b.rules(existing.Kind)
		return tell("There's already a game of %s in this channel. Finish it, or end it with /game end, before opening another.", r.Name), nil
	}
	options, err := rules.Validate(values)
	if err != nil {
		return b.refusalOr(err), nil
	}
	rec := &store.Game{
		ID: newGameID(), Kind: rules.ID, Guild: i.GuildID, Channel: i.ChannelID, Host: user,
		Status: store.Lobby, Seats: []store.Seat{{User: user, Name: name}}, Options: options,
		Seed: b.seeds(), Created: time.Now().UTC(),
	}
	if err := b.db.Save(rec); err != nil {
		return b.oops(err), nil
	}
	post := func() {
		if b.latest(rec) == nil {
			return // cancelled before it was shown
		}
		posted, err := b.s.ChannelMessageSendComplex(rec.Channel, lobbyMsg(rec, rules).send())
		if err == nil {
			b.own(rec, posted, func(g *store.Game) { g.TableMsg = posted.ID })
			return
		}
		b.log.Warn("post lobby", "channel", rec.Channel, "err", err)
		if err := b.db.End(rec, "been cancelled", nil); err != nil {
			b.log.Error("cancel unposted lobby", "game", rec.ID, "err", err)
		}
		b.amend(i, "I couldn't post in this channel, so I closed the lobby. Please give me View Channel, Send Messages and Embed Links here.")
	}
	return tell("Your %s lobby is opening below. Friends join with **Join**; press **Start** when everyone is in.", rules.Name), post
}

// onLobby handles Join, Leave, Start and Cancel. These don't check the
// version: each means the same whatever else changed in the lobby.
func (b *Bot) onLobby(i *discordgo.Interaction, id customID) (reply, func()) {
	rec, no := b.current(i.ChannelID, id.game)
	if no != nil {
		return *no, nil
	}
	rules, _ := b.rules(rec.Kind)
	if rec.Status != store.Lobby {
		return tell("This game has already started."), nil
	}
	user, name := who(i)
	seat := rec.SeatOf(user)
	switch id.action.Verb {
	case "join":
		if seat >= 0 {
			return tell("You're already at this table."), nil
		}
		if len(rec.Seats) >= rules.MaxPlayers {
			return tell("The table is full: %s takes at most %d players.", rules.Name, rules.MaxPlayers), nil
		}
		rec.Seats = append(rec.Seats, store.Seat{User: user, Name: name})
	case "leave":
		if seat < 0 {
			return tell("You haven't joined this game."), nil
		}
		if seat == 0 {
			return tell("You're the host. Use Cancel to close the lobby instead."), nil
		}
		rec.Seats = append(rec.Seats[:seat], rec.Seats[seat+1:]...)
	case "start":
		if user != rec.Host {
			return tell("Only the host, %s, can start the game.", rec.Seats[0].Name), nil
		}
		if len(rec.Seats) < rules.MinPlayers {
			return tell("%s needs at least %d players; %d joined so far.", rules.Name, rules.MinPlayers, len(rec.Seats)), nil
		}
		return b.start(rec, rules)
	case "cancel":
		if user != rec.Host && !canManage(i) {
			return tell("Only the host or someone with Manage Channel can cancel this lobby."), nil
		}
		if err := b.db.End(rec, "been cancelled", nil); err != nil {
			return b.oops(err), nil
		}
		return update(closedLobby(rules, fmt.Sprintf("%s cancelled this lobby.", name))), nil
	}
	rec.Version++
	if err := b.db.Save(rec); err != nil {
		return b.oops(err), nil
	}
	return update(lobbyMsg(rec, rules)), nil
}

func closedLobby(rules games.Rules, why string) msg {
	v := games.View{Title: rules.Name + " — closed", Description: why}
	return msg{embeds: []*discordgo.MessageEmbed{embed(v, "")}}
}

// start deals the game and turns the lobby into the table.
func (b *Bot) start(rec *store.Game, rules games.Rules) (reply, func()) {
	names := make([]string, len(rec.Seats))
	for i, s := range rec.Seats {
		names[i] = s.Name
	}
	g, err := rules.New(games.Setup{Players: names, Options: rec.Options, Seed: rec.Seed})
	if err != nil {
		return b.refusalOr(err), nil
	}
	events := []games.Event{games.Say("The game begins.")}
	if o, ok := g.(games.Opener); ok {
		events = append(events, o.Opening()...)
	}
	rec.Status = store.Playing
	out, err := b.commit(rec, g, events, nil, -1, shownTable)
	if err != nil {
		return b.oops(err), nil
	}
	after := func() { b.publish(rec, g, out) }
	m, err := tableMsg(rec, g)
	if err != nil {
		out.TableDone = false // the game has started; its output draws the table
		b.log.Error("render table", "game", rec.ID, "err", err)
		return tell("The game has started, but I couldn't draw the table here."), after
	}
	return update(m), after
}
