package localtable

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// sorry is a sentence the page shows a player whose action was not sent.
type sorry string

func (s sorry) Error() string { return string(s) }

// options turns what a player typed or picked for a slash command (the
// subcommand path, then option names and values as text) into the options
// the client sends, typed as the registered command declares them. Whether
// they are acceptable (choices, ranges, required options) is the client's
// call: fakediscord.Client refuses what Discord's client would.
func (p *Page) options(command string, path []string, given []optionValue) ([]fakediscord.Option, error) {
	var cmd *discordgo.ApplicationCommand
	for _, c := range p.commands() {
		if c.Type == discordgo.ChatApplicationCommand && c.Name == command {
			cmd = c
			break
		}
	}
	if cmd == nil {
		return nil, sorry("There is no command /" + command + ".")
	}
	defs := cmd.Options
	label := "/" + command
	for _, name := range path {
		var next *discordgo.ApplicationCommandOption
		for _, d := range defs {
			if d.Name == name && (d.Type == discordgo.ApplicationCommandOptionSubCommand || d.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				next = d
			}
		}
		if next == nil {
			return nil, sorry(fmt.Sprintf("%s has no %q: pick one of %s.", label, name, names(defs)))
		}
		label += " " + name
		defs = next.Options
	}
	if len(defs) > 0 && (defs[0].Type == discordgo.ApplicationCommandOptionSubCommand || defs[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
		return nil, sorry(fmt.Sprintf("%s needs one of %s.", label, names(defs)))
	}
	var opts []fakediscord.Option
	for _, g := range given {
		var def *discordgo.ApplicationCommandOption
		for _, d := range defs {
			if d.Name == g.Name {
				def = d
			}
		}
		if def == nil {
			if len(defs) == 0 {
				return nil, sorry(fmt.Sprintf("%s takes no options.", label))
			}
			return nil, sorry(fmt.Sprintf("%s has no option %q: it has %s.", label, g.Name, names(defs)))
		}
		o, err := p.option(def, strings.TrimSpace(g.Value))
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	// Nest the options in their subcommand and group, innermost first.
	for i := len(path) - 1; i >= 0; i-- {
		if i == len(path)-1 {
			opts = []fakediscord.Option{fakediscord.Sub(path[i], opts...)}
		} else {
			opts = []fakediscord.Option{fakediscord.Group(path[i], opts...)}
		}
	}
	return opts, nil
}

func (p *Page) option(def *discordgo.ApplicationCommandOption, v string) (fakediscord.Option, error) {
	// A choice may be given by its name, as the client shows it.
	for _, c := range def.Choices {
		if strings.EqualFold(c.Name, v) {
			v = fmt.Sprint(c.Value)
		}
	}
	switch def.Type {
	case discordgo.ApplicationCommandOptionString:
		return fakediscord.Str(def.Name, v), nil
	case discordgo.ApplicationCommandOptionInteger:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fakediscord.Option{}, sorry(fmt.Sprintf("%s must be a whole number, not %q.", def.Name, v))
		}
		return fakediscord.Int(def.Name, n), nil
	case discordgo.ApplicationCommandOptionNumber:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fakediscord.Option{}, sorry(fmt.Sprintf("%s must be a number, not %q.", def.Name, v))
		}
		return fakediscord.Num(def.Name, n), nil
	case discordgo.ApplicationCommandOptionBoolean:
		switch strings.ToLower(v) {
		case "true", "yes", "on":
			return fakediscord.Bool(def.Name, true), nil
		case "false", "no", "off":
			return fakediscord.Bool(def.Name, false), nil
		}
		return fakediscord.Option{}, sorry(fmt.Sprintf("%s is True or False, not %q.", def.Name, v))
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		if u := p.member(v); u != nil {
			return fakediscord.UserOpt(def.Name, u), nil
		}
		return fakediscord.Option{}, sorry(fmt.Sprintf("%s must be a player of this table, not %q.", def.Name, v))
	}
	return fakediscord.Option{}, sorry(fmt.Sprintf("The local table cannot fill in %s (a %s option).", def.Name, def.Type))
}

// member finds a player by ID, mention (<@id>) or name (@Name or Name).
func (p *Page) member(v string) *fakediscord.User {
	fake := p.t.fake
	id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(v, "<@"), "!"), ">")
	if u := fake.User(id); u != nil {
		return u
	}
	name := strings.TrimPrefix(v, "@")
	for _, m := range fake.Members() {
		if strings.EqualFold(m.Name, name) {
			return fake.User(m.ID)
		}
	}
	return nil
}

func names(defs []*discordgo.ApplicationCommandOption) string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name)
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}
