package bot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// Discord's limits that rendering must respect.
const (
	maxContent     = 2000
	maxTitle       = 256
	maxDescription = 4096
	maxFields      = 25
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFooter      = 2048
	maxEmbedTotal  = 6000
	maxRows        = 5
	maxRowButtons  = 5
	maxLabel       = 80
	maxCustomID    = 100
	maxOptions     = 25
	maxOptionText  = 100
	maxPlaceholder = 150
	feltGreen      = 0x2f7d5b
)

// noMentions keeps every message from pinging anyone; only the turn ping
// names the users it may ping.
var noMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}

// msg is one rendered message, convertible to each of discordgo's shapes.
type msg struct {
	mentions   []string // users this message may ping; nobody when empty
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
}

func (m msg) send() *discordgo.MessageSend {
	allowed := noMentions
	if len(m.mentions) > 0 {
		allowed = &discordgo.MessageAllowedMentions{Users: m.mentions}
	}
	return &discordgo.MessageSend{Content: m.content, Embeds: m.embeds, Components: m.components, AllowedMentions: allowed}
}

func (m msg) edit(channel, id string) *discordgo.MessageEdit {
	comps := m.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	embeds := m.embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	return &discordgo.MessageEdit{ID: id, Channel: channel, Content: &m.content, Embeds: &embeds, Components: &comps, AllowedMentions: noMentions}
}

func (m msg) webhookEdit() *discordgo.WebhookEdit {
	e := m.edit("", "")
	return &discordgo.WebhookEdit{Content: e.Content, Embeds: e.Embeds, Components: e.Components, AllowedMentions: noMentions}
}

func (m msg) data(ephemeral bool) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: m.content, Embeds: m.embeds, Components: m.components, AllowedMentions: noMentions}
	if d.Components == nil {
		d.Components = []discordgo.MessageComponent{}
	}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	return d
}

// clip shortens s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// embed renders a view. Texts are clipped to Discord's limits as a last
// line of defence; games are expected to stay well inside them.
func embed(v games.View, footer string) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{
		Title:       clip(v.Title, maxTitle),
		Description: clip(v.Description, maxDescription),
		Color:       feltGreen,
	}
	total := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
	for _, f := range v.Fields {
		if len(e.Fields) == maxFields {
			break
		}
		name, value := clip(nonEmpty(f.Name), maxFieldName), clip(nonEmpty(f.Value), maxFieldValue)
		n := utf8.RuneCountInString(name) + utf8.RuneCountInString(value)
		if total+n > maxEmbedTotal-maxFooter {
			break
		}
		total += n
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: f.Inline})
	}
	if footer = strings.TrimSpace(strings.Join([]string{v.Footer, footer}, " · ")); strings.Trim(footer, " ·") != "" {
		e.Footer = &discordgo.MessageEmbedFooter{Text: clip(plainText(strings.Trim(footer, " ·")), maxFooter)}
	}
	return e
}

func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "\u200b"
	}
	return s
}

var buttonStyles = map[games.Style]discordgo.ButtonStyle{
	games.Secondary: discordgo.SecondaryButton,
	games.Primary:   discordgo.PrimaryButton,
	games.Success:   discordgo.SuccessButton,
	games.Danger:    discordgo.DangerButton,
}

// controls lays out a view's select menus (a row each) and buttons (five to
// a row), followed by extra buttons. It refuses layouts Discord would reject.
func controls(game string, version int, v games.View, extra ...discordgo.Button) ([]discordgo.MessageComponent, error) {
	return layout("move", game, version, v, extra...)
}

// layout is controls with the custom_id kind of plain buttons: "move" for
// views, "act" for buttons under a game's own messages.
func layout(kind, game string, version int, v games.View, extra ...discordgo.Button) ([]discordgo.MessageComponent, error) {
	var rows []discordgo.MessageComponent
	seen := map[string]bool{}
	claim := func(s string) error {
		if len(s) > maxCustomID {
			return fmt.Errorf("custom_id %q is longer than %d", s, maxCustomID)
		}
		if seen[s] {
			return fmt.Errorf("custom_id %q appears twice", s)
		}
		seen[s] = true
		return nil
	}
	id := func(c customID) (string, error) { s := c.String(); return s, claim(s) }
	for _, ch := range v.Choices {
		cid, err := id(customID{kind: "move", game: game, version: version, action: games.Act(ch.Verb)})
		if err != nil {
			return nil, err
		}
		if len(ch.Options) == 0 || len(ch.Options) > maxOptions {
			return nil, fmt.Errorf("select %s has %d options", ch.Verb, len(ch.Options))
		}
		minV, maxV := ch.Min, ch.Max
		if maxV < 1 {
			maxV = 1
		}
		if maxV > len(ch.Options) {
			maxV = len(ch.Options)
		}
		if minV > maxV {
			minV = maxV
		}
		menu := discordgo.SelectMenu{
			MenuType:    discordgo.StringSelectMenu,
			CustomID:    cid,
			Placeholder: clip(plainText(ch.Placeholder), maxPlaceholder),
			MinValues:   &minV,
			MaxValues:   maxV,
		}
		for _, o := range ch.Options {
			menu.Options = append(menu.Options, discordgo.SelectMenuOption{
				Label:       clip(plainText(o.Label), maxOptionText),
				Value:       o.Value,
				Description: clip(plainText(o.Description), maxOptionText),
				Default:     o.Default,
			})
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
	}
	var buttons []discordgo.MessageComponent
	for _, b := range v.Buttons {
		kind := kind
		if b.Ask != nil {
			kind = "ask"
		}
		cid, err := id(customID{kind: kind, game: game, version: version, action: b.Action})
		if err != nil {
			return nil, err
		}
		buttons = append(buttons, discordgo.Button{
			Label: clip(plainText(b.Label), maxLabel), Style: buttonStyles[b.Style], CustomID: cid, Disabled: b.Disabled,
		})
	}
	for _, b := range extra {
		if err := claim(b.CustomID); err != nil {
			return nil, err
		}
		buttons = append(buttons, b)
	}
	for len(buttons) > 0 {
		n := min(maxRowButtons, len(buttons))
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n]})
		buttons = buttons[n:]
	}
	if len(rows) > maxRows {
		return nil, fmt.Errorf("view needs %d rows; Discord allows %d", len(rows), maxRows)
	}
	return rows, nil
}

// lobbyMsg shows who has joined and the host's controls.
func lobbyMsg(rec *store.Game, rules games.Rules) msg {
	var players []string
	for i, s := range rec.Seats {
		line := fmt.Sprintf("%d. %s", i+1, s.Name)
		if i == 0 && rules.GM {
			line += " (GM)"
		} else if i == 0 {
			line += " (host)"
		}
		players = append(players, line)
	}
	v := games.View{
		Title: rules.Name + " — waiting for players",
		Description: fmt.Sprintf("%s opened a game of **%s** for %s players. Press **Join** to take a seat; the host presses **Start** when everyone is in.",
			rec.Seats[0].Name, rules.Name, playerRange(rules)),
		Fields: []games.Field{{Name: fmt.Sprintf("Players (%d/%d)", len(rec.Seats), rules.MaxPlayers), Value: strings.Join(players, "\n")}},
	}
	opts := optionSummary(rules, rec.Options)
	if rec.NoAutoplay {
		opts = strings.TrimSpace(opts + "\nForced moves: **made by each player**")
	}
	if opts != "" {
		v.Fields = append(v.Fields, games.Field{Name: "Options", Value: opts})
	}
	lobby := func(verb, label string, style discordgo.ButtonStyle) discordgo.Button {
		c := customID{kind: "lobby", game: rec.ID, version: rec.Version, action: games.Act(verb)}
		return discordgo.Button{Label: label, Style: style, CustomID: c.String()}
	}
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		lobby("join", "Join", discordgo.PrimaryButton),
		lobby("leave", "Leave", discordgo.SecondaryButton),
		lobby("start", "Start", discordgo.SuccessButton),
		lobby("cancel", "Cancel", discordgo.DangerButton),
	}}
	return msg{embeds: []*discordgo.MessageEmbed{embed(v, "")}, components: []discordgo.MessageComponent{row}}
}

func playerRange(r games.Rules) string {
	if r.MinPlayers == r.MaxPlayers {
		return fmt.Sprint(r.MinPlayers)
	}
	return fmt.Sprintf("%d–%d", r.MinPlayers, r.MaxPlayers)
}

func optionSummary(r games.Rules, opts map[string]int) string {
	var lines []string
	for _, o := range r.Options {
		v := opts[o.Name]
		val := fmt.Sprint(v)
		if o.Kind == games.BoolOption {
			val = map[bool]string{true: "on", false: "off"}[v == 1]
		}
		label := o.Label
		if label == "" {
			label = o.Name
		}
		lines = append(lines, fmt.Sprintf("%s: **%s**", label, val))
	}
	return strings.Join(lines, "\n")
}

// tableMsg is the public table of a game in play (or over).
func tableMsg(rec *store.Game, g games.Game) (msg, error) {
	v := g.Table()
	if line := deadlineLine(rec); line != "" && !g.Over() {
		v.Description = clip(v.Description, maxDescription-utf8.RuneCountInString(line)-2) + "\n\n" + line
	}
	// The latest line only, small, under the table: the story itself is
	// in the channel, and the game's view says where things stand.
	footer := ""
	if len(rec.Log) > 0 {
		footer = clip(rec.Log[len(rec.Log)-1], 200)
	}
	m := msg{embeds: []*discordgo.MessageEmbed{embed(v, footer)}}
	if g.Over() {
		again := customID{kind: "lobby", game: rec.ID, version: rec.Version, action: games.Act("rematch")}
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Rematch", Style: discordgo.SuccessButton, CustomID: again.String()}}}}
		return m, nil
	}
	extra := []discordgo.Button{{Label: "My hand", Style: discordgo.PrimaryButton, CustomID: customID{kind: "hand", game: rec.ID}.String()}}
	if _, ok := g.(games.Joiner); ok {
		// A campaign seats newcomers from its table.
		join := customID{kind: "lobby", game: rec.ID, version: rec.Version, action: games.Act("join")}
		extra = append(extra, discordgo.Button{Label: "Join", Style: discordgo.SecondaryButton, CustomID: join.String()})
	}
	comps, err := controls(rec.ID, rec.Version, games.View{Buttons: v.Buttons, Choices: v.Choices}, extra...)
	if err != nil {
		return msg{}, fmt.Errorf("table of game %s: %w", rec.ID, err)
	}
	m.components = comps
	return m, nil
}

// deadlineLine says when the bot will move for players who keep the table
// waiting, as a timestamp every client counts down live, so that nobody is
// played for without seeing it coming.
func deadlineLine(rec *store.Game) string {
	type due struct {
		seat int
		at   int64
	}
	var dues []due
	for _, seat := range rec.Waiting {
		if seat < 0 || seat >= len(rec.Seats) {
			continue
		}
		if at, _ := actDue(rec, seat); at > 0 {
			dues = append(dues, due{seat, at})
		}
	}
	slices.SortFunc(dues, func(a, b due) int { return cmp.Or(cmp.Compare(a.at/1000, b.at/1000), cmp.Compare(a.seat, b.seat)) })
	var lines []string
	for i := 0; i < len(dues); {
		j, names := i, []string{}
		for ; j < len(dues) && dues[j].at/1000 == dues[i].at/1000; j++ {
			names = append(names, "**"+rec.Seats[dues[j].seat].Name+"**")
		}
		who := names[len(names)-1]
		if len(names) > 1 {
			who = strings.Join(names[:len(names)-1], ", ") + " and " + who
		}
		lines = append(lines, fmt.Sprintf("⏰ The bot moves for %s <t:%d:R> unless they move first.", who, dues[i].at/1000))
		i = j
	}
	return strings.Join(lines, "\n")
}

// handMsg is one seat's private view with its controls.
func (b *Bot) handMsg(rec *store.Game, g games.Game, seat int, note string) (msg, error) {
	v := b.handView(rec, g, seat)
	// No move counter: it would show when other players act in private.
	m := msg{content: clip(note, maxContent), embeds: []*discordgo.MessageEmbed{embed(v, "only you can see this")}}
	if g.Over() {
		return m, nil
	}
	comps, err := controls(rec.ID, rec.Version, v)
	if err != nil {
		return msg{}, fmt.Errorf("hand of seat %d in game %s: %w", seat, rec.ID, err)
	}
	m.components = comps
	return m, nil
}

// textMsg is a message of plain words.
func textMsg(format string, args ...any) msg {
	return msg{content: clip(fmt.Sprintf(format, args...), maxContent)}
}
