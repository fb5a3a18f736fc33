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
func (b *Bot) cmdTable(i *discordgo.Interaction) reply {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no
	}
	m, _, err := b.currentTable(rec)
	if err != nil {
		return b.oops(err)
	}
	posted, err := b.s.ChannelMessageSendComplex(rec.Channel, m.send())
	if err != nil {
		return b.oops(fmt.Errorf("repost table: %w", err))
	}
	if err := b.db.Patch(rec.Channel, rec.ID, func(g *store.Game) { g.TableMsg = posted.ID }); err != nil {
		return b.oops(err)
	}
	b.s.ChannelMessageDelete(rec.Channel, rec.TableMsg)
	return tell("The table is at the bottom of the channel again.")
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
	m, _, err := b.currentTable(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if err := b.db.End(rec, "been ended by "+name, nil); err != nil {
		return b.oops(err), nil
	}
	m.components = nil
	m.content = fmt.Sprintf("This game was ended by %s.", name)
	after := func() {
		if _, err := b.s.ChannelMessageEditComplex(m.edit(rec.Channel, rec.TableMsg)); err != nil {
			b.log.Warn("close table", "game", rec.ID, "err", err)
		}
		if rec.PingMsg != "" {
			b.s.ChannelMessageDelete(rec.Channel, rec.PingMsg)
		}
	}
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

// cmdSay posts a player's in-character line. It is a message of the bot's
// own, so its id is known and saved before the player is answered, and
// reactions on it can be counted as role-play awards.
func (b *Bot) cmdSay(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) reply {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no
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
		return tell("Only players in this game can speak in character.")
	case rec.Status != store.Playing:
		return tell("The game hasn't started yet; save your lines for the table.")
	case line == "":
		return tell("Your line is empty.")
	case len([]rune(line)) > maxSayLine:
		return tell("That line is too long: keep it under %d characters.", maxSayLine)
	case len([]rune(character)) > maxCharacter:
		return tell("That character name is too long: keep it under %d characters.", maxCharacter)
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err)
	}
	if _, ok := g.(games.Reactive); !ok {
		return tell("This game has no role play; /say is for games like Play the Hand You're Dealt.")
	}
	if character != "" {
		rec.Seats[seat].Character = character
	}
	s := rec.Seats[seat]
	speaker := fmt.Sprintf("**%s**", s.Name)
	if s.Character != "" {
		speaker = fmt.Sprintf("**%s** (%s)", s.Character, s.Name)
	}
	posted, err := b.s.ChannelMessageSendComplex(rec.Channel, textMsg("🎭 %s: %s", speaker, line).send())
	if err != nil {
		return b.oops(fmt.Errorf("post role-play line: %w", err))
	}
	if rec.RolePlay == nil {
		rec.RolePlay = map[string]int{}
	}
	rec.RolePlay[posted.ID] = seat
	if err := b.db.Save(rec); err != nil {
		return b.oops(err)
	}
	return tell("Your line is in the channel. Other players can give you a role-play marker by reacting with 🎭.")
}
