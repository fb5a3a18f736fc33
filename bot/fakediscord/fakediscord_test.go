package fakediscord

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rewriter sends discordgo's requests for https://discord.com/api/... (v9 in
// discordgo v0.29.0) to the fake.
type rewriter struct{ base string }

func (rw rewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	const real = "https://discord.com/api/"
	if u := r.URL.String(); strings.HasPrefix(u, real) {
		nu, err := url.Parse(rw.base + "/api/" + strings.TrimPrefix(u, real))
		if err != nil {
			return nil, err
		}
		r = r.Clone(r.Context())
		r.URL, r.Host = nu, nu.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

// session builds a bot session the way the bot does, before Open.
func session(s *Server, token string) *discordgo.Session {
	sess, _ := discordgo.New("Bot " + token)
	sess.Client = &http.Client{Transport: rewriter{s.URL()}}
	sess.SyncEvents = true
	sess.ShouldReconnectOnError = false
	sess.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsGuildMessageReactions
	return sess
}

// connect opens a bot session with the given handlers and registers commands.
func connect(t *testing.T, s *Server, cmds []*discordgo.ApplicationCommand, handlers ...any) *discordgo.Session {
	t.Helper()
	sess := session(s, BotToken)
	for _, h := range handlers {
		sess.AddHandler(h)
	}
	if err := sess.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	// discordgo's Close waits a second for the server; nothing needs to wait for it.
	t.Cleanup(func() { go sess.Close() })
	if cmds != nil {
		if _, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmds); err != nil {
			t.Fatalf("registering commands: %v", err)
		}
	}
	return sess
}

func restErr(t *testing.T, err error, code int) *discordgo.RESTError {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != code {
		t.Fatalf("got error %v, want Discord error code %d", err, code)
	}
	return re
}

func respond(s *discordgo.Session, i *discordgo.InteractionCreate, typ discordgo.InteractionResponseType, data *discordgo.InteractionResponseData) error {
	return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: typ, Data: data})
}

var pingCmd = &discordgo.ApplicationCommand{Name: "ping", Description: "Ping the bot"}

var gameCmd = &discordgo.ApplicationCommand{
	Name: "game", Description: "Card games",
	Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Start a game", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "kind", Description: "Which game", Required: true,
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Poker", Value: "poker"}, {Name: "Hearts", Value: "hearts"}}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "Seats"},
		}},
		{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "admin", Description: "Admin", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "reset", Description: "Reset everything"},
		}},
	},
}

func TestConnectReadyAndGuildCreate(t *testing.T) {
	t.Parallel()
	s := New(t)
	ready := make(chan *discordgo.Ready, 1)
	guilds := make(chan *discordgo.GuildCreate, 1)
	sess := connect(t, s, nil,
		func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r },
		func(_ *discordgo.Session, g *discordgo.GuildCreate) { guilds <- g })
	s.Sync()
	r, g := <-ready, <-guilds
	if r.User.ID != s.BotUserID() || !r.User.Bot || len(r.Guilds) != 1 || r.Guilds[0].ID != s.GuildID() {
		t.Errorf("READY = %+v", r)
	}
	if g.Name != "Fake Guild" || len(g.Channels) != 1 || g.Channels[0].ID != s.ChannelID() || g.Unavailable {
		t.Errorf("GUILD_CREATE = %+v", g.Guild)
	}
	if sess.State.User.ID != s.BotUserID() {
		t.Errorf("State.User = %+v", sess.State.User)
	}
	// A channel added later is announced.
	id := s.NewChannel("Poker Room")
	s.Sync()
	if ch, err := sess.State.Channel(id); err != nil || ch.Name != "poker-room" {
		t.Errorf("channel from CHANNEL_CREATE: %v %v", ch, err)
	}
	if me, err := sess.User("@me"); err != nil || me.ID != s.BotUserID() {
		t.Errorf("GET /users/@me = %v, %v", me, err)
	}
}

func TestWrongTokenIsRefused(t *testing.T) {
	t.Parallel()
	s := New(t)
	s.ExpectFailure("401: Unauthorized")
	_, err := session(s, "nope").User("@me")
	restErr(t, err, 0)

	sess := session(s, BotToken)
	sess.Identify.Token = "Bot nope"
	s.ExpectFailure("identify with token")
	if err := sess.Open(); err == nil {
		t.Fatal("Open with a wrong identify token succeeded")
	}
}

func TestRegisterCommands(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd, gameCmd})
	got := s.Commands("")
	if len(got) != 2 || got[0].ID == "" || got[1].Options[0].Name != "start" {
		t.Fatalf("Commands = %+v", got)
	}
	// Re-registering keeps IDs.
	again, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{pingCmd})
	if err != nil || len(again) != 1 || again[0].ID != got[0].ID {
		t.Errorf("overwrite = %+v, %v", again, err)
	}

	s.ExpectFailure("APPLICATION_COMMAND_INVALID_NAME")
	_, err = sess.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "Ping", Description: "x"}})
	re := restErr(t, err, 50035)
	if !strings.Contains(string(re.ResponseBody), `"0":{"name":{"_errors"`) {
		t.Errorf("error body = %s", re.ResponseBody)
	}

	s.ExpectFailure("Required options must be placed before")
	_, err = sess.ApplicationCommandBulkOverwrite(s.AppID(), s.GuildID(), []*discordgo.ApplicationCommand{{
		Name: "bad", Description: "x", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "a", Description: "a"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "b", Description: "b", Required: true},
		},
	}})
	restErr(t, err, 50035)

	s.ExpectFailure("mutually exclusive")
	_, err = sess.ApplicationCommandBulkOverwrite(s.AppID(), s.GuildID(), []*discordgo.ApplicationCommand{{
		Name: "mixed", Description: "x", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "a", Description: "a"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "b", Description: "b"},
		},
	}})
	restErr(t, err, 50035)
	if len(s.Commands("")) != 1 || len(s.Commands(s.GuildID())) != 0 {
		t.Errorf("rejected registrations changed the commands")
	}
}

func TestCommandOptionsAndEphemeralReply(t *testing.T) {
	t.Parallel()
	s := New(t)
	got := make(chan string, 1)
	connect(t, s, []*discordgo.ApplicationCommand{gameCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.ApplicationCommandData()
		desc := d.Name + " " + d.Options[0].Name
		for _, o := range d.Options[0].Options {
			desc += fmt.Sprintf(" %s=%v(%d)", o.Name, o.Value, o.Type)
		}
		got <- desc + " by " + i.Member.User.ID
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
			Content: "Your hand: A♠ K♥", Flags: discordgo.MessageFlagsEphemeral,
		})
	})
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	r := alice.Command(s.ChannelID(), "game", Sub("start", Str("kind", "poker"), Int("seats", 4)))
	if want := "game start kind=poker(3) seats=4(4) by " + alice.ID; <-got != want {
		t.Errorf("handler saw something else than %q", want)
	}
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || !r.Ephemeral || r.Content != "Your hand: A♠ K♥" {
		t.Fatalf("reply = %+v", r)
	}
	if e := alice.LastEphemeral(s.ChannelID()); e == nil || e.ID != r.Message.ID || e.VisibleTo != alice.ID {
		t.Errorf("alice's ephemerals = %+v", alice.Ephemerals(s.ChannelID()))
	}
	if len(bob.Ephemerals(s.ChannelID())) != 0 || len(s.Messages(s.ChannelID())) != 0 {
		t.Errorf("the ephemeral reply leaked to bob or the channel")
	}

	// What the client would refuse is a test bug.
	s.ExpectFailure(`"kind": "chess" is not one of the declared choices`)
	if alice.Command(s.ChannelID(), "game", Sub("start", Str("kind", "chess"))) != nil {
		t.Error("an invalid choice was dispatched")
	}
	s.ExpectFailure(`required option "kind" is missing`)
	alice.Command(s.ChannelID(), "game", Sub("start"))
	s.ExpectFailure("no such command")
	alice.Command(s.ChannelID(), "nope")
}

// TestButtonUpdate: a public message with a button; clicking it updates the
// message in place (type 7), after which the disabled button can't be clicked.
func TestButtonUpdate(t *testing.T) {
	t.Parallel()
	s := New(t)
	clicked := make(chan string, 1)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		button := func(disabled bool) []discordgo.MessageComponent {
			return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Draw a card", CustomID: "draw", Disabled: disabled},
			}}}
		}
		if i.Type == discordgo.InteractionApplicationCommand {
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Table open", Components: button(false)})
			return
		}
		clicked <- i.MessageComponentData().CustomID + " on " + i.Message.ID
		respond(bs, i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: "Drew 7♦", Components: button(true)})
	})
	alice := s.AddUser("Alice")
	r := alice.Command(s.ChannelID(), "ping")
	if r.Ephemeral || len(s.Messages(s.ChannelID())) != 1 || r.Message.AuthorID != s.BotUserID() {
		t.Fatalf("reply = %+v", r)
	}
	// Controls is the message's buttons without the rest, and clickable.
	c := s.Controls(s.ChannelID(), r.Message.ID)
	if c == nil || c.ID != r.Message.ID || c.ButtonsLine() != r.Message.ButtonsLine() || c.Content != "Table open" {
		t.Fatalf("controls = %+v, message = %+v", c, r.Message)
	}
	if s.Controls("elsewhere", r.Message.ID) != nil {
		t.Error("Controls found a message in another channel")
	}
	u := alice.Click(c, r.Message.ButtonID("Draw"))
	if got := <-clicked; got != "draw on "+r.Message.ID {
		t.Errorf("the bot saw %q", got)
	}
	if u.Type != discordgo.InteractionResponseUpdateMessage || u.Message.ID != r.Message.ID || u.Content != "Drew 7♦" || u.Message.Edits != 1 {
		t.Fatalf("update = %+v", u)
	}
	if b := u.Message.Buttons(); len(b) != 1 || !b[0].Disabled {
		t.Errorf("buttons after update = %+v", b)
	}
	s.ExpectFailure("has it disabled")
	if alice.Click(u.Message, "draw") != nil {
		t.Error("clicked a disabled button")
	}
	s.ExpectFailure("has no such button")
	alice.Click(u.Message, "nope")
	// The old view still shows the button enabled: a click racing the update.
	if late := alice.Click(r.Message, "draw"); late == nil || late.Type != discordgo.InteractionResponseUpdateMessage {
		t.Errorf("racing click = %+v", late)
	}
	<-clicked
}

// TestEphemeralButtonDeferredUpdate: only the owner can click an ephemeral
// message's button; a deferred update (6) is followed by editing @original.
func TestEphemeralButtonDeferredUpdate(t *testing.T) {
	t.Parallel()
	s := New(t)
	var errs []error
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type == discordgo.InteractionApplicationCommand {
			_, err := bs.Request("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token)+"?with_response=true", &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "Your hand", Flags: discordgo.MessageFlagsEphemeral, Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{CustomID: "play", Emoji: &discordgo.ComponentEmoji{Name: "🃏"}}}},
				}},
			})
			errs = append(errs, err)
			return
		}
		errs = append(errs, respond(bs, i, discordgo.InteractionResponseDeferredMessageUpdate, nil))
		content := "Played " + i.Message.Content
		_, err := bs.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
		errs = append(errs, err)
	})
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	hand := alice.Command(s.ChannelID(), "ping").Message
	s.ExpectFailure("an ephemeral message only " + alice.ID + " can see")
	if bob.Click(hand, "play") != nil {
		t.Error("bob clicked alice's ephemeral button")
	}
	r := alice.Click(hand, "play")
	if r.Type != discordgo.InteractionResponseDeferredMessageUpdate || r.Message != nil {
		t.Errorf("reply = %+v", r)
	}
	if m := alice.LastEphemeral(s.ChannelID()); m.ID != hand.ID || m.Content != "Played Your hand" || m.Edits != 1 {
		t.Errorf("hand after update = %+v", m)
	}
	if errors.Join(errs...) != nil {
		t.Errorf("bot errors: %v", errs)
	}
}

func TestDoubleCallbackIsRejected(t *testing.T) {
	t.Parallel()
	s := New(t)
	second := make(chan error, 1)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "one"})
		second <- respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "two"})
	})
	s.ExpectFailure("40060")
	r := s.AddUser("Alice").Command(s.ChannelID(), "ping")
	restErr(t, <-second, 40060)
	if r.Content != "one" {
		t.Errorf("reply = %+v", r)
	}
}

func TestMessageLimits(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()

	s.ExpectFailure("content: Must be 2000 or fewer in length.")
	_, err := sess.ChannelMessageSend(ch, strings.Repeat("x", 2001))
	re := restErr(t, err, 50035)
	if !strings.Contains(string(re.ResponseBody), `"content":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH"`) {
		t.Errorf("error body = %s", re.ResponseBody)
	}

	var rows []discordgo.MessageComponent
	for i := range 6 {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "b", CustomID: string(rune('a' + i))},
		}})
	}
	s.ExpectFailure("components: Must be 5 or fewer in length.")
	_, err = sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "rows", Components: rows})
	restErr(t, err, 50035)

	s.ExpectFailure("Cannot send an empty message")
	_, err = sess.ChannelMessageSend(ch, "  ")
	restErr(t, err, 50006)

	if _, err := sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Components: rows[:5]}); err != nil {
		t.Errorf("components alone are a valid message: %v", err)
	}
	s.ExpectFailure("Cannot edit a message authored by another user")
	said := s.AddUser("Alice").Say(ch, "hello")
	_, err = sess.ChannelMessageEdit(ch, said.ID, "hijacked")
	restErr(t, err, 50005)

	s.ExpectFailure("unexpected request")
	_, err = sess.GuildBans(s.GuildID(), 10, "", "")
	restErr(t, err, 0)
}

func TestReactions(t *testing.T) {
	t.Parallel()
	s := New(t)
	events := make(chan string, 10)
	sess := connect(t, s, nil,
		func(_ *discordgo.Session, r *discordgo.MessageReactionAdd) {
			events <- "+" + r.Emoji.Name + " " + r.UserID + " " + r.Member.User.ID
		},
		func(_ *discordgo.Session, r *discordgo.MessageReactionRemove) {
			events <- "-" + r.Emoji.Name + " " + r.UserID
		})
	m, err := sess.ChannelMessageSend(s.ChannelID(), "Vote!")
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.MessageReactionAdd(m.ChannelID, m.ID, "👍"); err != nil {
		t.Fatal(err)
	}
	msg := s.Message(s.ChannelID(), m.ID)
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	bob.React(msg, "👍")
	alice.React(msg, "👍")
	alice.Unreact(msg, "👍")
	alice.React(msg, "👍")
	want := []string{
		"+👍 " + s.BotUserID() + " " + s.BotUserID(), "+👍 " + bob.ID + " " + bob.ID, "+👍 " + alice.ID + " " + alice.ID,
		"-👍 " + alice.ID, "+👍 " + alice.ID + " " + alice.ID,
	}
	for _, w := range want {
		if got := <-events; got != w {
			t.Errorf("event %q, want %q", got, w)
		}
	}
	users, err := sess.MessageReactions(m.ChannelID, m.ID, "👍", 2, "", "")
	if err != nil || len(users) != 2 || users[0].ID != s.BotUserID() || users[1].ID != alice.ID {
		t.Errorf("first page = %v, %v", users, err)
	}
	users, err = sess.MessageReactions(m.ChannelID, m.ID, "👍", 0, "", alice.ID)
	if err != nil || len(users) != 1 || users[0].ID != bob.ID {
		t.Errorf("after alice = %v, %v", users, err)
	}
	if got := s.Message(s.ChannelID(), m.ID).Reactions["👍"]; len(got) != 3 {
		t.Errorf("reactions = %v", got)
	}
	s.ExpectFailure("Unknown Emoji")
	restErr(t, sess.MessageReactionAdd(m.ChannelID, m.ID, "thumbsup"), 10014)
}

// TestSync: after Sync, the bot has handled every dispatch so far.
func TestSync(t *testing.T) {
	t.Parallel()
	s := New(t)
	seen := 0 // written by the handler, read after Sync: the race detector checks the barrier
	connect(t, s, nil, func(_ *discordgo.Session, _ *discordgo.ChannelCreate) { seen++ })
	for range 3 {
		s.NewChannel("table")
	}
	s.Sync()
	if seen != 3 {
		t.Errorf("handled %d CHANNEL_CREATE before Sync returned, want 3", seen)
	}
	s.Sync()
}

// TestRestart: the bot closes its session and a new one takes over.
func TestRestart(t *testing.T) {
	t.Parallel()
	s := New(t)
	first := connect(t, s, []*discordgo.ApplicationCommand{pingCmd})
	first.Close()
	connect(t, s, nil, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "second session"})
	})
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r.Content != "second session" {
		t.Errorf("reply = %+v", r)
	}
}

func TestPings(t *testing.T) {
	t.Parallel()
	s := New(t)
	alice, bob := s.AddUser("Alice"), s.AddUser("Bob")
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
			Content: "<@" + alice.ID + "> psst", Flags: discordgo.MessageFlagsEphemeral,
		})
	})
	ch := s.ChannelID()
	send := func(content string, am *discordgo.MessageAllowedMentions) *discordgo.Message {
		t.Helper()
		m, err := sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: content, AllowedMentions: am})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	both := "<@" + alice.ID + "> and <@!" + bob.ID + ">"
	send(both, nil)                                                        // default: both
	send(both, &discordgo.MessageAllowedMentions{})                        // parse: null → nobody
	send(both, &discordgo.MessageAllowedMentions{Users: []string{bob.ID}}) // only bob
	m := send("no one", &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}})
	if _, err := sess.ChannelMessageEdit(ch, m.ID, both); err != nil { // edits never ping
		t.Fatal(err)
	}
	alice.Command(ch, "ping") // ephemeral: no ping
	if a, b := s.Pings(alice.ID), s.Pings(bob.ID); a != 1 || b != 2 {
		t.Errorf("pings alice=%d bob=%d, want 1 and 2", a, b)
	}
	s.ExpectFailure("mutually exclusive")
	_, err := sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: both, AllowedMentions: &discordgo.MessageAllowedMentions{
		Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{bob.ID},
	}})
	restErr(t, err, 50035)
}

// TestLateResponse: no callback within the deadline fails the action, and a
// callback arriving afterwards is refused with 10062.
func TestLateResponse(t *testing.T) {
	t.Parallel()
	s := New(t)
	s.mu.Lock()
	s.deadline = 50 * time.Millisecond
	s.mu.Unlock()
	proceed, late := make(chan struct{}), make(chan error, 1)
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		<-proceed
		late <- respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "too late"})
	})
	s.ExpectFailure("no response to interaction within 50ms")
	if r := s.AddUser("Alice").Command(s.ChannelID(), "ping"); r.Type != 0 || r.Message != nil {
		t.Errorf("reply = %+v", r)
	}
	s.ExpectFailure("past the 50ms deadline")
	close(proceed)
	restErr(t, <-late, 10062)
}

func TestModalSelectDeferAndFollowup(t *testing.T) {
	t.Parallel()
	s := New(t)
	var edit error
	var token string
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
				Content: "Pick a game",
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.SelectMenu{CustomID: "game", Options: []discordgo.SelectMenuOption{{Label: "Poker", Value: "poker"}, {Label: "Hearts", Value: "hearts"}}},
				}}},
			})
		case discordgo.InteractionMessageComponent:
			respond(bs, i, discordgo.InteractionResponseModal, &discordgo.InteractionResponseData{
				CustomID: "name:" + i.MessageComponentData().Values[0], Title: "Name your table",
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.TextInput{CustomID: "table", Label: "Table name", Style: discordgo.TextInputShort, Required: true, MaxLength: 20},
				}}},
			})
		case discordgo.InteractionModalSubmit:
			d := i.ModalSubmitData()
			token = i.Token
			name := d.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput).Value
			respond(bs, i, discordgo.InteractionResponseDeferredChannelMessageWithSource, &discordgo.InteractionResponseData{})
			content := d.CustomID + " at " + name
			_, edit = bs.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
			bs.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "only you", Flags: discordgo.MessageFlagsEphemeral})
		}
	})
	alice := s.AddUser("Alice")
	menu := alice.Command(s.ChannelID(), "ping").Message
	if sel := menu.Selects(); len(sel) != 1 || sel[0].Min != 1 || sel[0].Max != 1 || len(sel[0].Options) != 2 {
		t.Fatalf("selects = %+v", sel)
	}
	s.ExpectFailure(`"chess" is not an option`)
	alice.Select(menu, "game", "chess")
	r := alice.Select(menu, "game", "hearts")
	if r.Type != discordgo.InteractionResponseModal || r.Modal == nil || r.Modal.Title != "Name your table" || r.Message != nil {
		t.Fatalf("select reply = %+v", r)
	}
	s.ExpectFailure(`input "table" must be 0 to 20 characters`)
	alice.Submit(r.Modal, map[string]string{"table": strings.Repeat("x", 21)})
	done := alice.Submit(r.Modal, map[string]string{"table": "Ace High"})
	if edit != nil || done.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || done.Content != "name:hearts at Ace High" || done.Ephemeral {
		t.Fatalf("submit reply = %+v (edit error %v)", done, edit)
	}
	if e := alice.LastEphemeral(s.ChannelID()); e == nil || e.Content != "only you" {
		t.Errorf("followup = %+v", e)
	}
	s.ExpectFailure("already submitted")
	alice.Submit(r.Modal, map[string]string{"table": "again"})

	// Interaction tokens last 15 minutes.
	content := "later"
	if _, err := session(s, BotToken).WebhookMessageEdit(s.AppID(), token, "@original", &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Errorf("editing within 15 minutes: %v", err)
	}
	s.Advance(16 * time.Minute)
	// Past the 15 minutes every use of the token is 401 Invalid Webhook
	// Token, not a 404 a bot might take for a deleted message.
	s.ExpectFailure("expired")
	_, err := session(s, BotToken).WebhookMessageEdit(s.AppID(), token, "@original", &discordgo.WebhookEdit{Content: &content})
	if re := restErr(t, err, 50027); re.Response.StatusCode != http.StatusUnauthorized {
		t.Errorf("expired token: status %d, want 401", re.Response.StatusCode)
	}
	s.ExpectFailure("expired")
	_, err = session(s, BotToken).FollowupMessageCreate(&discordgo.Interaction{AppID: s.AppID(), Token: token}, true, &discordgo.WebhookParams{Content: "late"})
	restErr(t, err, 50027)
}

// TestCommandNumberBoundsAndContexts: an INTEGER option's min_value,
// max_value and choices are integers within ±(2^53-1), and contexts (like
// integration_types) is null or a non-empty set of known values.
func TestCommandNumberBoundsAndContexts(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	f := func(v float64) *float64 { return &v }
	intOpt := func(min *float64, max float64, choices ...float64) *discordgo.ApplicationCommand {
		o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "n", MinValue: min, MaxValue: max}
		for _, c := range choices {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: "c", Value: c})
		}
		return &discordgo.ApplicationCommand{Name: "deal", Description: "Deal", Options: []*discordgo.ApplicationCommandOption{o}}
	}
	register := func(cmd *discordgo.ApplicationCommand) error {
		_, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{cmd})
		return err
	}
	if err := register(intOpt(f(1), 8)); err != nil {
		t.Fatalf("a whole-number range was refused: %v", err)
	}
	s.ExpectFailure("min_value: Value \"1.5\" is not int.")
	restErr(t, register(intOpt(f(1.5), 8)), 50035)
	s.ExpectFailure("max_value: int value should be less than or equal to 9007199254740991.")
	restErr(t, register(intOpt(nil, 1<<60)), 50035)
	s.ExpectFailure("choices.0.value: int value should be greater than or equal to -9007199254740991.")
	restErr(t, register(intOpt(nil, 0, -(1<<54))), 50035)
	num := intOpt(f(-0.5), 1<<53)
	num.Options[0].Type = discordgo.ApplicationCommandOptionNumber
	if err := register(num); err != nil {
		t.Errorf("a NUMBER option takes doubles up to 2^53: %v", err)
	}
	num.Options[0].MaxValue = 1 << 54
	s.ExpectFailure("max_value: float value should be less than or equal to 9007199254740992.")
	restErr(t, register(num), 50035)

	ctx := func(c ...discordgo.InteractionContextType) *discordgo.ApplicationCommand {
		c = append([]discordgo.InteractionContextType{}, c...) // [] rather than null
		return &discordgo.ApplicationCommand{Name: "deal", Description: "Deal", Contexts: &c}
	}
	if err := register(ctx(discordgo.InteractionContextGuild)); err != nil {
		t.Fatalf("contexts [0] was refused: %v", err)
	}
	s.ExpectFailure("contexts: Must be 1 or more in length.")
	restErr(t, register(ctx()), 50035)
	s.ExpectFailure("contexts.1: Value \"7\" is not a valid enum value.")
	restErr(t, register(ctx(discordgo.InteractionContextGuild, 7)), 50035)
	s.ExpectFailure("contexts: The set already contains the value 0.")
	restErr(t, register(ctx(discordgo.InteractionContextGuild, discordgo.InteractionContextGuild)), 50035)
	types := []discordgo.ApplicationIntegrationType{}
	s.ExpectFailure("integration_types: Must be 1 or more in length.")
	restErr(t, register(&discordgo.ApplicationCommand{Name: "deal", Description: "Deal", IntegrationTypes: &types}), 50035)
	if got := s.Commands(""); len(got) != 1 || got[0].Contexts == nil || len(*got[0].Contexts) != 1 {
		t.Errorf("rejected registrations changed the commands: %+v", got)
	}
}

// TestOriginalAndEditSemantics pins down documented edit behaviour bots rely
// on: @original is the component's message after UPDATE_MESSAGE but the new
// reply after CHANNEL_MESSAGE_WITH_SOURCE; keys an edit omits (components
// here) are kept while null or [] clears them; EPHEMERAL cannot be toggled
// by an update; ephemeral messages are out of reach of channel routes; and
// nothing but the initial response may use the token before it exists.
func TestOriginalAndEditSemantics(t *testing.T) {
	t.Parallel()
	s := New(t)
	row := func(id string) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Go", CustomID: id}}}}
	}
	type result struct {
		orig *discordgo.Message
		errs []error
	}
	results := make(chan result, 1)
	var answer func(bs *discordgo.Session, i *discordgo.InteractionCreate) result
	sess := connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		results <- answer(bs, i)
	})
	alice := s.AddUser("Alice")
	ch := s.ChannelID()
	posted, err := sess.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "Table", Components: row("go")})
	if err != nil {
		t.Fatal(err)
	}
	table := s.Message(ch, posted.ID)
	content := func(c string) *discordgo.WebhookEdit { return &discordgo.WebhookEdit{Content: &c} }

	// UPDATE_MESSAGE: @original is the table; the edit keeps its button.
	answer = func(bs *discordgo.Session, i *discordgo.InteractionCreate) result {
		err := respond(bs, i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: "Table, updated", Components: row("go")})
		m, err2 := bs.InteractionResponseEdit(i.Interaction, content("Table, edited"))
		return result{m, []error{err, err2}}
	}
	alice.Click(table, "go")
	r := <-results
	if errors.Join(r.errs...) != nil || r.orig.ID != table.ID {
		t.Fatalf("@original after UPDATE_MESSAGE = %+v, %v", r.orig, r.errs)
	}
	if m := s.Message(ch, table.ID); m.Content != "Table, edited" || len(m.Buttons()) != 1 {
		t.Errorf("table after the @original edit = %+v", m)
	}

	// CHANNEL_MESSAGE_WITH_SOURCE: @original is the new reply, not the table.
	answer = func(bs *discordgo.Session, i *discordgo.InteractionCreate) result {
		err := respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Reply"})
		m, err2 := bs.InteractionResponseEdit(i.Interaction, content("Reply, edited"))
		return result{m, []error{err, err2}}
	}
	alice.Click(table, "go")
	r = <-results
	if errors.Join(r.errs...) != nil || r.orig.ID == table.ID || r.orig.Content != "Reply, edited" {
		t.Fatalf("@original after CHANNEL_MESSAGE_WITH_SOURCE = %+v, %v", r.orig, r.errs)
	}
	if m := s.Message(ch, table.ID); m.Content != "Table, edited" {
		t.Errorf("the reply's edit reached the table: %+v", m)
	}

	// An UPDATE_MESSAGE that leaves components out keeps them; EPHEMERAL in
	// it is ignored, since a message's ephemeral state cannot change.
	answer = func(bs *discordgo.Session, i *discordgo.InteractionCreate) result {
		_, err := bs.Request("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), map[string]any{
			"type": discordgo.InteractionResponseUpdateMessage, "data": map[string]any{"content": "Table, again", "flags": discordgo.MessageFlagsEphemeral},
		})
		return result{nil, []error{err}}
	}
	u := alice.Click(table, "go")
	if r = <-results; errors.Join(r.errs...) != nil || u.Ephemeral || len(u.Message.Buttons()) != 1 || len(s.Messages(ch)) != 2 {
		t.Errorf("update without components, with EPHEMERAL = %+v, %v", u.Message, r.errs)
	}

	// Channel edits: omitted components are kept, [] clears them.
	said := "Table, by channel"
	if _, err := sess.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: ch, ID: table.ID, Content: &said}); err != nil {
		t.Fatal(err)
	}
	if m := s.Message(ch, table.ID); m.Content != said || len(m.Buttons()) != 1 {
		t.Errorf("after an edit without components: %+v", m)
	}
	none := []discordgo.MessageComponent{}
	if _, err := sess.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: ch, ID: table.ID, Components: &none}); err != nil {
		t.Fatal(err)
	}
	if m := s.Message(ch, table.ID); len(m.Components) != 0 {
		t.Errorf("components: [] did not clear them: %+v", m.Components)
	}

	// Ephemeral messages: only the interaction token reaches them.
	answer = func(bs *discordgo.Session, i *discordgo.InteractionCreate) result {
		err := respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Secret", Flags: discordgo.MessageFlagsEphemeral})
		return result{nil, []error{err}}
	}
	secret := alice.Command(ch, "ping").Message
	<-results
	s.ExpectFailure("PATCH /api/v9/channels/" + ch + "/messages/" + secret.ID + ": 404 Unknown Message")
	_, err = sess.ChannelMessageEdit(ch, secret.ID, "leaked")
	restErr(t, err, 10008)
	s.ExpectFailure("DELETE /api/v9/channels/" + ch + "/messages/" + secret.ID + ": 404 Unknown Message")
	restErr(t, sess.ChannelMessageDelete(ch, secret.ID), 10008)

	// Before the initial response the token's webhook does not exist yet.
	answer = func(bs *discordgo.Session, i *discordgo.InteractionCreate) result {
		_, err := bs.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "too early"})
		_, err2 := bs.InteractionResponseEdit(i.Interaction, content("too early"))
		respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Now"})
		return result{nil, []error{err, err2}}
	}
	s.ExpectFailure("has not been acknowledged yet")
	s.ExpectFailure("has not been acknowledged yet")
	alice.Command(ch, "ping")
	r = <-results
	restErr(t, r.errs[0], 10015)
	restErr(t, r.errs[1], 10015)
}

// TestComponentAndCommandLimits pins down documented limits the bot's
// rendering and registration depend on.
func TestComponentAndCommandLimits(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	send := func(m *discordgo.MessageSend) error {
		_, err := sess.ChannelMessageSendComplex(ch, m)
		return err
	}
	buttons := func(b discordgo.Button) *discordgo.MessageSend {
		return &discordgo.MessageSend{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{b}}}}
	}
	s.ExpectFailure("A button needs a label or an emoji")
	restErr(t, send(buttons(discordgo.Button{CustomID: "x"})), 50035)
	s.ExpectFailure("label: Must be 80 or fewer in length.")
	restErr(t, send(buttons(discordgo.Button{CustomID: "x", Label: strings.Repeat("x", 81)})), 50035)
	if err := send(buttons(discordgo.Button{CustomID: "x", Emoji: &discordgo.ComponentEmoji{Name: "🂡"}})); err != nil {
		t.Errorf("an emoji-only button was refused: %v", err)
	}

	options := func(n int, defaults ...int) []discordgo.SelectMenuOption {
		var out []discordgo.SelectMenuOption
		for i := range n {
			out = append(out, discordgo.SelectMenuOption{Label: fmt.Sprint("Card ", i), Value: fmt.Sprint(i)})
		}
		for _, d := range defaults {
			out[d].Default = true
		}
		return out
	}
	menu := func(min, max int, opts []discordgo.SelectMenuOption) *discordgo.MessageSend {
		return &discordgo.MessageSend{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "pick", MinValues: &min, MaxValues: max, Options: opts},
		}}}}
	}
	if err := send(menu(0, 2, options(3, 0, 2))); err != nil {
		t.Errorf("two defaults with max_values 2 were refused: %v", err)
	}
	s.ExpectFailure("More options are marked default than max_values allows")
	restErr(t, send(menu(1, 1, options(3, 0, 1))), 50035)
	s.ExpectFailure("max_values must be less than or equal to the number of options")
	restErr(t, send(menu(1, 4, options(3))), 50035)

	field := func(n, size int) *discordgo.MessageEmbed {
		e := &discordgo.MessageEmbed{Title: "Table"}
		for range n {
			e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "f", Value: strings.Repeat("v", size)})
		}
		return e
	}
	s.ExpectFailure("fields: Must be 25 or fewer in length.")
	restErr(t, send(&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{field(26, 1)}}), 50035)
	s.ExpectFailure("Embed size exceeds maximum size of 6000")
	restErr(t, send(&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{field(3, 1000), field(3, 1000)}}), 50035)

	var choices []*discordgo.ApplicationCommandOptionChoice
	for i := range 26 {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprint("Game ", i), Value: fmt.Sprint(i)})
	}
	cmd := func(desc string, n int) []*discordgo.ApplicationCommand {
		return []*discordgo.ApplicationCommand{{Name: "game", Description: desc, Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game", Choices: choices[:n]},
		}}}
	}
	if _, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmd("Games", 25)); err != nil {
		t.Errorf("25 choices were refused: %v", err)
	}
	s.ExpectFailure("choices: Must be 25 or fewer in length.")
	_, err := sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmd("Games", 26))
	restErr(t, err, 50035)
	s.ExpectFailure("0.description: Must be between 1 and 100 in length.")
	_, err = sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmd(strings.Repeat("d", 101), 1))
	restErr(t, err, 50035)
	s.ExpectFailure("0.description: This field is required")
	_, err = sess.ApplicationCommandBulkOverwrite(s.AppID(), "", cmd("", 1))
	restErr(t, err, 50035)
}

// OnBotMessage hears of each message the bot creates or edits, with its
// custom_ids, once the change is applied.
func TestOnBotMessage(t *testing.T) {
	t.Parallel()
	s := New(t)
	var mu sync.Mutex
	var heard []string
	s.OnBotMessage(func(channelID string, ids []string) {
		mu.Lock()
		heard = append(heard, channelID+" "+strings.Join(ids, ","))
		mu.Unlock()
	})
	connect(t, s, []*discordgo.ApplicationCommand{pingCmd}, func(bs *discordgo.Session, i *discordgo.InteractionCreate) {
		row := func(ids ...string) []discordgo.MessageComponent {
			var bs []discordgo.MessageComponent
			for _, id := range ids {
				bs = append(bs, discordgo.Button{Label: id, CustomID: id})
			}
			return []discordgo.MessageComponent{discordgo.ActionsRow{Components: bs}}
		}
		if i.Type == discordgo.InteractionApplicationCommand {
			respond(bs, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "Table", Components: row("move:g1:1:a", "move:g1:1:b")})
			return
		}
		respond(bs, i, discordgo.InteractionResponseUpdateMessage, &discordgo.InteractionResponseData{Content: "Over", Components: row("lobby:g1:rematch")})
	})
	alice := s.AddUser("Alice")
	r := alice.Command(s.ChannelID(), "ping")
	alice.Click(r.Message, "move:g1:1:a")
	mu.Lock()
	defer mu.Unlock()
	want := []string{s.ChannelID() + " move:g1:1:a,move:g1:1:b", s.ChannelID() + " lobby:g1:rematch"}
	if !slices.Equal(heard, want) {
		t.Fatalf("heard %q, want %q", heard, want)
	}
}

// A moderator's deletion is no fault of the bot's: its first request about
// the message answers 404 Unknown Message without failing the test, and a
// second, which Discord counts toward the invalid-request ban, does.
func TestModeratorDeletesTheBotsMessage(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	m, err := sess.ChannelMessageSend(s.ChannelID(), "Table")
	if err != nil {
		t.Fatal(err)
	}
	mod, bea := s.AddAdmin("Mod"), s.AddUser("Bea")
	s.ExpectFailure("Bea: delete someone else's message without Manage Messages")
	bea.DeleteMessage(s.Message(s.ChannelID(), m.ID))
	if s.Message(s.ChannelID(), m.ID) == nil {
		t.Fatal("a user without Manage Messages deleted the bot's message")
	}
	gone := s.Message(s.ChannelID(), m.ID)
	mod.DeleteMessage(gone)
	if s.Message(s.ChannelID(), m.ID) != nil {
		t.Fatal("the moderator's deletion left the message")
	}
	before := len(s.Failures())
	var refusal *Refusal
	if err := mod.Client().DeleteMessage(gone); !errors.As(err, &refusal) || len(s.Failures()) != before {
		t.Fatalf("a client deleting a message gone already: %v, failures %q", err, s.Failures()[before:])
	}
	_, err = sess.ChannelMessageEdit(s.ChannelID(), m.ID, "Table, again")
	restErr(t, err, 10008)
	if f := s.Failures(); len(f) != before {
		t.Fatalf("the first 404 counted against the bot: %q", f[before:])
	}
	s.ExpectFailure("404 Unknown Message (code 10008)")
	_, err = sess.ChannelMessageEdit(s.ChannelID(), m.ID, "Table, once more")
	restErr(t, err, 10008)

	// A process killed before it recorded the 404 may ask once more.
	s.Killed()
	before = len(s.Failures())
	_, err = sess.ChannelMessageEdit(s.ChannelID(), m.ID, "Table, after a kill")
	restErr(t, err, 10008)
	if f := s.Failures(); len(f) != before {
		t.Fatalf("the first 404 after a kill counted against the bot: %q", f[before:])
	}
}
