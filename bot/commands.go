package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
)

// autoplayOption is the bot's own option on every game: forced moves
// (a draw, a roll with nothing to choose) play themselves.
const autoplayOption = "autoplay"

// Limits on what players type.
const (
	maxSayLine   = 1500
	maxCharacter = 60
)

// commands builds the slash commands from the game catalogue: /game new
// has one subcommand per game with that game's own options, so a new game
// appears without touching this file and no two games share an option.
func commands(catalog []games.Rules) []*discordgo.ApplicationCommand {
	var gameChoices []*discordgo.ApplicationCommandOptionChoice
	var perGame []*discordgo.ApplicationCommandOption
	for _, r := range catalog {
		gameChoices = append(gameChoices, &discordgo.ApplicationCommandOptionChoice{Name: r.Name, Value: r.ID})
		var opts []*discordgo.ApplicationCommandOption
		for _, o := range r.Options {
			opt := &discordgo.ApplicationCommandOption{
				Name:        o.Name,
				Description: clip(o.Description, 100),
				Type:        discordgo.ApplicationCommandOptionBoolean,
			}
			if o.Kind == games.IntOption {
				lo, hi := float64(o.Min), float64(o.Max)
				opt.Type, opt.MinValue, opt.MaxValue = discordgo.ApplicationCommandOptionInteger, &lo, hi
			}
			opts = append(opts, opt)
		}
		opts = append(opts, &discordgo.ApplicationCommandOption{Name: autoplayOption, Type: discordgo.ApplicationCommandOptionBoolean,
			Description: "Make a player's only move for them when there is nothing to decide (default on)"})
		desc := r.Blurb
		if desc == "" {
			desc = "Open a game of " + r.Name
		}
		perGame = append(perGame, sub(r.ID, clip(desc, 100), opts...))
	}
	guildOnly := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	sayMin := 1
	return []*discordgo.ApplicationCommand{
		{
			Name: "game", Description: "Play card games in this channel", Contexts: &guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "new", Description: "Open a game in this channel", Options: perGame},
				sub("hand", "Show your hand and your moves (only you see it)"),
				sub("table", "Post the table again at the bottom of the channel"),
				sub("end", "End this channel's game (host, GM, or Manage Channel)"),
				sub("leave", "Leave this channel's lobby, or a campaign you play in"),
				sub("remove", "Host: take a player out of a lobby, or have the bot play an absent player's seat",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "player", Description: "Who is away", Required: true}),
				sub("stats", "Results of games played on this server"),
				sub("settings", "See or change how games run on this server (Manage Channel to change)",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "threads",
						Description: "Move each game into a thread of its own when it starts (default on)"}),
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
		{
			Name: "appeal", Description: "Appeal against a player's rudeness: the table votes (Life is not fair)", Contexts: &guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "player", Description: "Who was rude", Required: true},
			},
		},
		{Name: appealMenu, Type: discordgo.MessageApplicationCommand, Contexts: &guildOnly},
	}
}

func sub(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
}
