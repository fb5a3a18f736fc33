package fakediscord

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func sub(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: "Do " + name, Options: opts}
}

func group(name string, subs ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: name, Description: "Group " + name, Options: subs}
}

var groupedCmd = &discordgo.ApplicationCommand{
	Name: "game", Description: "Card games",
	Options: []*discordgo.ApplicationCommandOption{
		group("new",
			sub("duel", &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "life", Description: "Starting life", MinValue: new(float64(1)), MaxValue: 40}),
			sub("life", &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "rival", Description: "Who to play"})),
		sub("end"),
	},
}

var quoteCmd = &discordgo.ApplicationCommand{Type: discordgo.MessageApplicationCommand, Name: "Quote in Story"}
var inviteCmd = &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand, Name: "Invite to Game"}

// TestSubcommandGroupsAndUserOptions: a group's subcommand and its options
// arrive nested as Discord sends them; a user option brings the member in
// resolved.users and resolved.members.
func TestSubcommandGroupsAndUserOptions(t *testing.T) {
	t.Parallel()
	s := New(t)
	seen := make(chan string, 2)
	connect(t, s, []*discordgo.ApplicationCommand{groupedCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.ApplicationCommandData()
		g := d.Options[0]
		sc := g.Options[0]
		desc := fmt.Sprintf("%s %s(%d) %s(%d)", d.Name, g.Name, g.Type, sc.Name, sc.Type)
		for _, o := range sc.Options {
			desc += fmt.Sprintf(" %s=%v", o.Name, o.Value)
			if o.Type == discordgo.ApplicationCommandOptionUser {
				u := d.Resolved.Users[o.Value.(string)]
				m := d.Resolved.Members[o.Value.(string)]
				desc += fmt.Sprintf(" user=%s member=%v", u.GlobalName, m != nil && m.User == nil && m.Permissions != 0)
			}
		}
		seen <- desc
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral})
	})
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	ch := s.ChannelID()
	if r := alice.Command(ch, "game", Group("new", Sub("duel", Int("life", 15)))); r == nil || r.Content != "ok" {
		t.Fatalf("reply = %+v", r)
	}
	if got, want := <-seen, "game new(2) duel(1) life=15"; got != want {
		t.Errorf("the bot saw %q, want %q", got, want)
	}
	alice.Command(ch, "game", Group("new", Sub("life", UserOpt("rival", bob))))
	if got, want := <-seen, "game new(2) life(1) rival="+bob.ID+" user=Bob member=true"; got != want {
		t.Errorf("the bot saw %q, want %q", got, want)
	}

	s.ExpectFailure("/game new needs exactly one subcommand or group")
	alice.Command(ch, "game", Group("new"))
	s.ExpectFailure(`/game has no SubCommand "new"`)
	alice.Command(ch, "game", Sub("new", Int("life", 15)))
	s.ExpectFailure(`"life": 50 is outside the allowed range`)
	alice.Command(ch, "game", Group("new", Sub("duel", Int("life", 50))))
}

// TestSubcommandGroupLimits: groups hold 1 to 25 subcommands and nothing
// else, subcommands hold up to 25 options, names are lowercase, and a
// command's names, descriptions and choices add up to at most 4000
// characters.
func TestSubcommandGroupLimits(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	register := func(opts ...*discordgo.ApplicationCommandOption) error {
		_, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "game", Description: "Games", Options: opts}})
		return err
	}
	subs := func(n int) []*discordgo.ApplicationCommandOption {
		var out []*discordgo.ApplicationCommandOption
		for i := range n {
			out = append(out, sub(fmt.Sprint("s", i)))
		}
		return out
	}
	if err := register(group("new", subs(25)...)); err != nil {
		t.Errorf("25 subcommands in a group were refused: %v", err)
	}
	s.ExpectFailure("0.options.0.options: Must be 25 or fewer in length.")
	restErr(t, register(group("new", subs(26)...)), 50035)
	s.ExpectFailure("Subcommand groups may only contain subcommands")
	restErr(t, register(group("new", &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "x", Description: "x"})), 50035)
	s.ExpectFailure("0.options.0.options.1.type: Subcommand groups may only contain subcommands")
	restErr(t, register(group("new", sub("duel"), group("deeper", sub("x")))), 50035)
	s.ExpectFailure("A subcommand group needs at least one subcommand")
	restErr(t, register(group("new")), 50035)
	s.ExpectFailure("APPLICATION_COMMAND_INVALID_NAME")
	restErr(t, register(group("New", sub("duel"))), 50035)

	var many []*discordgo.ApplicationCommandOption
	for i := range 26 {
		many = append(many, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: fmt.Sprint("o", i), Description: "o"})
	}
	s.ExpectFailure("0.options.0.options.0.options: Must be 25 or fewer in length.")
	restErr(t, register(group("new", sub("duel", many...))), 50035)

	long := strings.Repeat("d", 100)
	var big []*discordgo.ApplicationCommandOption
	for g := range 5 {
		var ss []*discordgo.ApplicationCommandOption
		for i := range 8 {
			ss = append(ss, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: fmt.Sprint("s", i), Description: long})
		}
		big = append(big, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: fmt.Sprint("g", g), Description: long, Options: ss})
	}
	s.ExpectFailure("Command exceeds maximum size (4000)")
	restErr(t, register(big...), 50035)
	if got := s.Commands(""); len(got) != 1 || len(got[0].Options[0].Options) != 25 {
		t.Errorf("rejected registrations changed the commands")
	}
}

// TestContextMenuCommands: MESSAGE and USER commands have free-form names,
// no description or options, at most 5 each; running one sends type 2 or 3
// data with target_id and the target resolved, message content included.
func TestContextMenuCommands(t *testing.T) {
	t.Parallel()
	s := New(t)
	seen := make(chan string, 2)
	sess := connect(t, s, []*discordgo.ApplicationCommand{quoteCmd, inviteCmd, pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.ApplicationCommandData()
		switch d.CommandType {
		case discordgo.MessageApplicationCommand:
			m := d.Resolved.Messages[d.TargetID]
			seen <- fmt.Sprintf("%s on %s by %s: %q", d.Name, m.ID, m.Author.ID, m.Content)
		case discordgo.UserApplicationCommand:
			seen <- fmt.Sprintf("%s on %s (%s)", d.Name, d.TargetID, d.Resolved.Members[d.TargetID].JoinedAt.Format("2006"))
		}
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Quoted"})
	})
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	ch := s.ChannelID()
	said := bob.Say(ch, "The dragon sleeps.")
	r := alice.MessageCommand(ch, "Quote in Story", said)
	if got, want := <-seen, fmt.Sprintf("Quote in Story on %s by %s: %q", said.ID, bob.ID, "The dragon sleeps."); got != want {
		t.Errorf("the bot saw %s, want %s", got, want)
	}
	if r == nil || r.Content != "Quoted" {
		t.Fatalf("reply = %+v", r)
	}
	// The bot reads the reply back: a context menu answer is type 23.
	if m, err := sess.ChannelMessage(ch, r.Message.ID); err != nil || m.Type != discordgo.MessageTypeContextMenuCommand {
		t.Errorf("reply message = %+v, %v", m, err)
	}
	alice.UserCommand(ch, "Invite to Game", bob)
	if got := <-seen; !strings.HasPrefix(got, "Invite to Game on "+bob.ID+" (") {
		t.Errorf("the bot saw %s", got)
	}

	s.ExpectFailure(`no such command`)
	alice.MessageCommand(ch, "Nope", said)
	other := s.NewChannel("other")
	s.ExpectFailure("is in channel " + ch + ", not " + other)
	alice.MessageCommand(other, "Quote in Story", said)

	menu := func(t discordgo.ApplicationCommandType, names ...string) []*discordgo.ApplicationCommand {
		var out []*discordgo.ApplicationCommand
		for _, n := range names {
			out = append(out, &discordgo.ApplicationCommand{Type: t, Name: n})
		}
		return out
	}
	register := func(cmds []*discordgo.ApplicationCommand) error {
		_, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), s.GuildID(), cmds)
		return err
	}
	five := menu(discordgo.MessageApplicationCommand, "A b", "C D", "e", "F", "G h i")
	if err := register(append(five, menu(discordgo.UserApplicationCommand, "A b")...)); err != nil {
		t.Errorf("5 message commands and a user command of the same name were refused: %v", err)
	}
	s.ExpectFailure("Maximum number of type 3 application commands reached (5)")
	restErr(t, register(append(five, menu(discordgo.MessageApplicationCommand, "Six")...)), 50035)
	s.ExpectFailure("Context menu commands cannot have a description")
	restErr(t, register([]*discordgo.ApplicationCommand{{Type: discordgo.MessageApplicationCommand, Name: "Quote", Description: "x"}}), 50035)
	s.ExpectFailure("Context menu commands cannot have options")
	restErr(t, register([]*discordgo.ApplicationCommand{{Type: discordgo.MessageApplicationCommand, Name: "Quote", Options: []*discordgo.ApplicationCommandOption{sub("x")}}}), 50035)
	s.ExpectFailure("0.name: Must be between 1 and 32 in length.")
	restErr(t, register(menu(discordgo.MessageApplicationCommand, strings.Repeat("Q", 33))), 50035)
}
