package bot

import (
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
)

// Limits on what players type.
const (
	maxSayLine   = 1500
	maxCharacter = 60
)

// commands builds the slash commands from the game catalogue, so a new
// game's variant options appear in /game new without touching this file.
func commands(catalog []games.Rules) []*discordgo.ApplicationCommand {
	var gameChoices []*discordgo.ApplicationCommandOptionChoice
	for _, r := range catalog {
		gameChoices = append(gameChoices, &discordgo.ApplicationCommandOptionChoice{Name: r.Name, Value: r.ID})
	}
	newOpts := []*discordgo.ApplicationCommandOption{{
		Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game to open",
		Required: true, Choices: gameChoices,
	}}
	seen := map[string]bool{}
	for _, r := range catalog {
		for _, o := range r.Options {
			if seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			opt := &discordgo.ApplicationCommandOption{
				Name:        o.Name,
				Description: clip(fmt.Sprintf("%s (%s)", o.Description, gamesWithOption(catalog, o.Name)), 100),
				Type:        discordgo.ApplicationCommandOptionBoolean,
			}
			if o.Kind == games.IntOption {
				lo, hi := float64(o.Min), float64(o.Max)
				opt.Type, opt.MinValue, opt.MaxValue = discordgo.ApplicationCommandOptionInteger, &lo, hi
			}
			newOpts = append(newOpts, opt)
		}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	guildOnly := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	sayMin := 1
	return []*discordgo.ApplicationCommand{
		{
			Name: "game", Description: "Play card games in this channel", Contexts: &guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				sub("new", "Open a game in this channel", newOpts...),
				sub("hand", "Show your hand and your moves (only you see it)"),
				sub("table", "Post the table again at the bottom of the channel"),
				sub("end", "End this channel's game (host, GM, or Manage Channel)"),
				sub("stats", "Results of games played on this server"),
			},
		},
		{
			Name: "rules", Description: "How to play, in short, with the house rulings", Contexts: &guildOnly,
			Options: []*discordgo.ApplicationCommandOption{{
				Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game (default: the one in this channel)",
				Choices: gameChoices,
			}},
		},
		{
			Name: "say", Description: "Say a line in character; others can reward it with 🎭", Contexts: &guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "line", Description: "What your character says or does",
					Required: true, MinLength: &sayMin, MaxLength: maxSayLine},
				{Type: discordgo.ApplicationCommandOptionString, Name: "character", Description: "Your character's name (remembered for this game)",
					MaxLength: maxCharacter},
			},
		},
	}
}

func gamesWithOption(catalog []games.Rules, name string) string {
	var out string
	for _, r := range catalog {
		for _, o := range r.Options {
			if o.Name == name {
				if out != "" {
					out += ", "
				}
				out += r.Name
			}
		}
	}
	return out
}
