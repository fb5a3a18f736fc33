package bot

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// currentTable renders the table of a lobby or a game in play.
func (b *Bot) currentTable(rec *store.Game) (msg, games.Game, error) {
	if rec.Status == store.Lobby {
		r, _ := b.rules(rec.Kind)
		return lobbyMsg(rec, r), nil, nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return msg{}, nil, err
	}
	m, err := tableMsg(rec, g)
	return m, g, err
}

// cmdTable posts the table again at the bottom and removes the old one.
func (b *Bot) cmdTable(i *discordgo.Interaction) (reply, func()) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	repost := func() {
		cur := b.latest(rec)
		if cur == nil {
			return // the game ended meanwhile
		}
		m, _, err := b.currentTable(cur)
		if err != nil {
			b.log.Error("render table", "game", rec.ID, "err", err)
			return
		}
		posted, err := b.s.ChannelMessageSendComplex(cur.Channel, m.send())
		if err != nil {
			b.log.Warn("repost table", "game", rec.ID, "err", err)
			b.amend(i, "I couldn't post the table here. Please check that I may send messages in this channel.")
			return
		}
		if b.own(cur, posted, func(g *store.Game) { g.TableMsg = posted.ID }) {
			b.s.ChannelMessageDelete(cur.Channel, cur.TableMsg)
		}
	}
	return tell("The table is coming to the bottom of the channel."), repost
}

// cmdEnd stops the channel's game early; nothing is counted in the stats.
func (b *Bot) cmdEnd(i *discordgo.Interaction) (reply, func()) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	user, name := who(i)
	rules, _ := b.rules(rec.Kind)
	if user != rec.Host && !canManage(i) {
		return tell("Only the host, %s, or someone with Manage Channel can end this game.", rec.Seats[0].Name), nil
	}
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Closed: fmt.Sprintf("This game was ended by %s.", name)}
	if err := b.db.Commit(rec, out, &store.Ending{How: "been ended by " + name}); err != nil {
		return b.oops(err), nil
	}
	after := func() { b.publish(rec, nil, out) }
	return public(textMsg("%s ended the game of %s. The channel is free for a new one.", name, rules.Name)), after
}

// cmdStats lists this server's results.
func (b *Bot) cmdStats(i *discordgo.Interaction) reply {
	st, err := b.db.Stats(i.GuildID)
	if err != nil {
		return b.oops(err)
	}
	if len(st) == 0 {
		return tell("No games have been finished on this server yet.")
	}
	type row struct {
		name        string
		won, played int
		perGame     []string
	}
	var rows []row
	for _, p := range st {
		r := row{name: p.Name}
		for _, rules := range b.catalog {
			if t := p.Games[rules.ID]; t != nil {
				r.won += t.Won
				r.played += t.Played
				r.perGame = append(r.perGame, fmt.Sprintf("%s %d/%d", rules.Name, t.Won, t.Played))
			}
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(a, c int) bool {
		if rows[a].won != rows[c].won {
			return rows[a].won > rows[c].won
		}
		if rows[a].played != rows[c].played {
			return rows[a].played > rows[c].played
		}
		return rows[a].name < rows[c].name
	})
	var lines []string
	for n, r := range rows {
		if n == 20 {
			break
		}
		lines = append(lines, fmt.Sprintf("%d. **%s** — %d won of %d (%s)", n+1, r.name, r.won, r.played, strings.Join(r.perGame, ", ")))
	}
	v := games.View{Title: "Results on this server", Description: strings.Join(lines, "\n")}
	return private(msg{embeds: []*discordgo.MessageEmbed{embed(v, "won/played per game")}})
}

// cmdSay posts a player's in-character line as a message of the bot's own,
// whose id the output lane records so reactions on it can count as
// role-play awards.
func (b *Bot) cmdSay(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (reply, func()) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	var line, character string
	for _, o := range opts {
		switch o.Name {
		case "line":
			line = strings.TrimSpace(o.StringValue())
		case "character":
			character = strings.TrimSpace(o.StringValue())
		}
	}
	user, _ := who(i)
	seat := rec.SeatOf(user)
	switch {
	case seat < 0:
		return tell("Only players in this game can speak in character."), nil
	case rec.Status != store.Playing:
		return tell("The game hasn't started yet; save your lines for the table."), nil
	case line == "":
		return tell("Your line is empty."), nil
	case len([]rune(line)) > maxSayLine:
		return tell("That line is too long: keep it under %d characters.", maxSayLine), nil
	case len([]rune(character)) > maxCharacter:
		return tell("That character name is too long: keep it under %d characters.", maxCharacter), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	rg, ok := g.(games.Reactive)
	if !ok {
		return tell("This game has no role play; /say is for games like Play the Hand You're Dealt."), nil
	}
	if character != "" {
		rec.Seats[seat].Character = character
	}
	s := rec.Seats[seat]
	speaker := fmt.Sprintf("**%s**", s.Name)
	if s.Character != "" {
		speaker = fmt.Sprintf("**%s** (%s)", s.Character, s.Name)
	}
	// Committed as owed output, so a line is posted and recorded even if
	// the bot stops in between.
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version,
		Line: &store.Line{Seat: seat, Text: fmt.Sprintf("🎭 %s: %s", speaker, line)}}
	if err := b.db.Commit(rec, out, nil); err != nil {
		return b.oops(err), nil
	}
	post := func() { b.publish(rec, nil, out) }
	if !rg.RolePlay() {
		return tell("Your line is going into the channel."), post
	}
	return tell("Your line is going into the channel. Other players can give you a role-play marker by reacting to it with 🎭."), post
}
