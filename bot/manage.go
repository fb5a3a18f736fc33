package bot

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// cmdTable posts the table again at the bottom and removes the old one.
// The repost is owed output, committed before the answer: a crash after
// the new table went out but before it was recorded replays it under the
// same nonce, so Discord hands that copy back instead of a second one
// staying with live buttons.
func (b *Bot) cmdTable(i *discordgo.Interaction) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	if no := cannotPost(i); no != nil {
		return *no, nil
	}
	posts, err := b.db.Posts(rec.ID)
	if err != nil {
		return b.oops(err), nil
	}
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Repost: true}
	if err := b.db.Owe(out); err != nil {
		return b.oops(err), nil
	}
	was := posts.Table
	repost := func(answered bool) {
		b.publish(rec.Channel, out, 0)
		if b.killed.Load() {
			return
		}
		cur, open := b.latest(rec.Channel, rec.ID)
		now, err := b.db.Posts(rec.ID)
		if answered && open && cur.ID == rec.ID && err == nil && now.Table == was { // an unanswered token has no @original
			b.amend(i, "I couldn't post the table here. Please check that I may send messages in this channel.")
		}
	}
	where := "the channel"
	if posts.Thread != "" {
		where = "<#" + posts.Thread + ">"
	}
	return tell("The table is coming to the bottom of %s.", where), repost
}

// cmdEnd asks the user to confirm before ending the channel's game.
func (b *Bot) cmdEnd(i *discordgo.Interaction) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	if no := b.mayEnd(i, rec); no != nil {
		return *no, nil
	}
	rules, _ := b.rules(rec.Kind)
	confirm := customID{kind: "lobby", game: rec.ID, action: games.Act("end")}
	m := textMsg("End the game of %s for everyone? It won't count in the stats.", rules.Name)
	m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "End the game", Style: discordgo.DangerButton, CustomID: confirm.String()},
	}}}
	return private(m), nil
}

// cmdLeave takes the user out of a lobby, or out of a running game whose
// rules let people come and go.
func (b *Bot) cmdLeave(i *discordgo.Interaction) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	return b.onLobby(i, customID{kind: "lobby", game: rec.ID, action: games.Act("leave")})
}

// maxStatsText leaves room under an embed description's 4,096 characters
// for the line that says how many players are not listed.
const maxStatsText = 4000

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
				r.perGame = append(r.perGame, fmt.Sprintf("%s %d/%d, best %d", rules.Name, t.Won, t.Played, t.Best))
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
	// Whole rows only, within the embed's 4,096 characters: a row cut off
	// by the limit would lose its end, and the rows below it.
	var lines []string
	size, shown, rank := 0, 0, 0
	for n, r := range rows {
		// The same record shares a rank: name order is no standing. The
		// dot is escaped, as Discord renumbers a markdown list 1, 2, 3.
		if n == 0 || r.won != rows[n-1].won || r.played != rows[n-1].played {
			rank = n + 1
		}
		line := fmt.Sprintf("%d\\. **%s** — %d won of %d (%s)", rank, r.name, r.won, r.played, strings.Join(r.perGame, ", "))
		if n == 20 || size+len([]rune(line))+1 > maxStatsText {
			break
		}
		lines, size, shown = append(lines, line), size+len([]rune(line))+1, n+1
	}
	if more := len(rows) - shown; more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more.", more))
	}
	v := games.View{Title: "Results on this server", Description: strings.Join(lines, "\n")}
	return private(msg{embeds: []*discordgo.MessageEmbed{embed(v, "won/played per game, with the best score")}})
}

// cmdSay hands a player's in-character line to the game, which decides
// how it is posted and which reactions count on it.
func (b *Bot) cmdSay(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (reply, after) {
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
	if _, ok := g.(games.Talker); !ok {
		return tell("This game has no role play; /say is for games like Play the Hand You're Dealt."), nil
	}
	if character != "" {
		rec.Seats[seat].Character = escapeName(character) // shown in bold, as a name is
	}
	s := rec.Seats[seat]
	if cg, ok := g.(games.Characters); ok && s.Character == "" {
		s.Character = cg.Character(seat) // the protagonist named in the game
	}
	speaker := fmt.Sprintf("**%s**", s.Name)
	if s.Character != "" {
		speaker = fmt.Sprintf("**%s** (%s)", s.Character, s.Name)
	}
	in := games.Input{Kind: games.InSay, Seat: seat, Name: speaker, Action: games.Action{Text: line}}
	return b.play(i, rec, g, in, shownNothing, "Your line is going into the channel.")
}

// The message command that appeals against a message's author.
const appealMenu = "Appeal rudeness"

// cmdAppeal asks the game to put a player's rudeness to the table's vote,
// from /appeal or from the message command on the offending message.
func (b *Bot) cmdAppeal(i *discordgo.Interaction, data discordgo.ApplicationCommandInteractionData) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	user, _ := who(i)
	seat := rec.SeatOf(user)
	if seat < 0 {
		return tell("Only players in this game can appeal."), nil
	}
	if rec.Status != store.Playing {
		return tell("The game hasn't started yet."), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	ap, ok := g.(games.Appealer)
	if !ok {
		r, _ := b.rules(rec.Kind)
		return tell("There are no appeals in %s.", r.Name), nil
	}
	var offender, quote string
	if data.Name == appealMenu {
		m := data.Resolved.Messages[data.TargetID]
		if m == nil || m.Author == nil {
			return tell("I can't see that message."), nil
		}
		if m.Author.ID == b.botUserID() {
			return tell("That message is mine. Appeal against a player with /appeal player:<name>."), nil
		}
		offender, quote = m.Author.ID, clip(m.Content, 200)
	} else {
		for _, o := range data.Options {
			if o.Name == "player" {
				offender = fmt.Sprint(o.Value)
			}
		}
	}
	target := rec.SeatOf(offender)
	if target < 0 {
		return tell("You can only appeal against a player in this game."), nil
	}
	judges := 0
	for s, st := range rec.Seats {
		if s != seat && s != target && st.Computer == "" {
			judges++
		}
	}
	if judges == 0 && target != seat && len(rec.Seats) >= 3 {
		// Computers never vote: the appeal would run its time and lapse.
		return tell("Only computer players are left to judge, and they don't vote on appeals."), nil
	}
	in := games.Input{Seat: seat, Action: games.Action{Verb: ap.AppealVerb(), Args: []string{strconv.Itoa(target)}, Text: quote}}
	return b.play(i, rec, g, in, shownNothing, "Your appeal is before the table.")
}
