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
func (b *Bot) cmdNew(i *discordgo.Interaction, kind string, opts []*discordgo.ApplicationCommandInteractionDataOption) (reply, after) {
	user, name := who(i)
	values := map[string]int{}
	noAuto := false
	for _, o := range opts {
		if o.Name == autoplayOption {
			noAuto = o.Type == discordgo.ApplicationCommandOptionBoolean && !o.BoolValue()
			continue
		}
		switch o.Type {
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
	if no := cannotPost(i); no != nil {
		return *no, nil
	}
	existing, err := b.db.Game(b.homeOf(i))
	if err != nil {
		return b.oops(err), nil
	}
	if existing != nil {
		r, _ := b.rules(existing.Kind)
		return tell("There's already a game of %s in this channel. Finish it, or end it with /game end, before opening another.", r.Name), nil
	}
	if home, thread := b.home(i.ChannelID); thread != nil {
		// A finished game's thread: a lobby opened from here would go up in
		// the channel, away from where it was asked for.
		return tell("This thread's game is over. Open a new one with /game new in <#%s>.", home), nil
	}
	options, err := rules.Validate(values)
	if err != nil {
		return b.refusalOr(err), nil
	}
	rec := &store.Game{
		ID: newGameID(), Kind: rules.ID, Guild: i.GuildID, Channel: b.homeOf(i), Host: user,
		Status: store.Lobby, Seats: []store.Seat{{User: user, Name: name}}, Options: options, NoAutoplay: noAuto,
		Seed: b.seeds(), Created: b.now().UTC(),
		Timers: map[string]int64{"bot:lobby": b.now().Add(lobbyLife).UnixMilli()},
	}
	post, err := b.openLobby(rec, func() {
		b.amend(i, "I couldn't post in this channel, so I closed the lobby. Please give me View Channel, Send Messages and Embed Links here.")
	})
	if err != nil {
		return b.oops(err), nil
	}
	role := "Friends join with **Join**"
	if rules.GM {
		role = "You are the GM. Players join with **Join**"
	}
	return tell("Your %s lobby is opening below. %s; press **Start** when everyone is in.", rules.Name, role), post
}

// onLobby handles Join, Leave, Start and Cancel. These don't check the
// version: each means the same whatever else changed in the lobby. A game
// that seats people while it runs takes Join and Leave from its table too.
func (b *Bot) onLobby(i *discordgo.Interaction, id customID) (reply, after) {
	if id.action.Verb == "rematch" {
		return b.rematch(i, id.game)
	}
	rec, no := b.current(b.homeOf(i), id.game)
	if no != nil {
		return *no, nil
	}
	rules, _ := b.rules(rec.Kind)
	user, name := who(i)
	seat := rec.SeatOf(user)
	if id.action.Verb == "end" {
		return b.endGame(i, rec)
	}
	if rec.Status != store.Lobby {
		switch id.action.Verb {
		case "join":
			return b.joinRunning(i, rec, user, name)
		case "leave":
			return b.leaveRunning(i, rec, seat)
		}
		return tell("This game has already started."), nil
	}
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
			need, have, besides := rules.MinPlayers, len(rec.Seats), ""
			if rules.GM { // the GM alone would read "needs 2, 1 joined"
				need, have, besides = need-1, have-1, " besides the GM"
			}
			return tell("%s needs at least %d %s%s; %d joined so far.", rules.Name, need, map[bool]string{true: "player", false: "players"}[need == 1], besides, have), nil
		}
		rec.Threaded = b.wantsThread(i)
		return b.start(rec, rules)
	case "addcpu", "dropcpu":
		if user != rec.Host {
			return tell("Only the host, %s, can add or remove computer players.", rec.Seats[0].Name), nil
		}
		if id.version != rec.Version {
			// Unlike Join or Start, a second click of the same view (a
			// double click) would add or remove a second computer.
			return tell("That button was out of date, so I ignored it. The lobby above shows who is seated now."), nil
		}
		var no *reply
		if id.action.Verb == "addcpu" {
			no = b.addComputer(rec, rules)
		} else {
			no = dropComputer(rec)
		}
		if no != nil {
			return *no, nil
		}
	case "cancel":
		if user != rec.Host && !canManage(i) {
			return tell("Only the host or someone with Manage Channel can cancel this lobby."), nil
		}
		// The ending owes the closed lobby message, as any ending does: if
		// the answer that closes it never reaches Discord (a kill before
		// it, or a callback failing until the 3 s pass), the output draws
		// it, now or replayed after a restart; else the lobby would keep
		// its buttons for ever.
		out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Closed: fmt.Sprintf("%s cancelled this lobby.", name)}
		if err := b.db.Commit(rec, nil, out, &store.Ending{How: "been cancelled"}); err != nil {
			return b.oops(err), nil
		}
		publish := b.publisher(rec, out, 0)
		return update(closedLobby(rules, out.Closed)), func(answered bool) {
			if answered {
				b.finish(out, nil) // the answer drew the closed lobby: nothing to redo
				return
			}
			publish(false)
		}
	}
	// The change owes a redraw of the lobby, committed with it: an answer
	// that never reaches Discord is made up for by the output, now or
	// replayed after a restart. An answer Discord took drew this version
	// itself (shown), and the output then asks Discord for nothing.
	rec.Version++
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	if err := b.db.Commit(rec, nil, out, nil); err != nil {
		return b.oops(err), nil
	}
	if i.Type != discordgo.InteractionMessageComponent {
		// A command (/game leave) has no lobby message to update in its
		// answer: the answer is private, and the output lane redraws the lobby.
		return tell("You've left the lobby of %s.", rules.Name), b.publisher(rec, out, 0)
	}
	return update(b.lobbyMsg(rec, rules)), b.publisher(rec, out, rec.Version)
}

// removeFromLobby takes a player out of a lobby for its host or a
// moderator: else a stranger in the last seat would hold it until they
// chose to leave. The host's seat goes only with the lobby (Cancel).
func (b *Bot) removeFromLobby(rec *store.Game, seat int) (reply, after) {
	rules, _ := b.rules(rec.Kind)
	if seat == 0 {
		return tell("%s opened this lobby; close it with its Cancel button instead.", rec.Seats[0].Name), nil
	}
	name := rec.Seats[seat].Name
	rec.Seats = append(rec.Seats[:seat], rec.Seats[seat+1:]...)
	rec.Version++
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	if err := b.db.Commit(rec, nil, out, nil); err != nil {
		return b.oops(err), nil
	}
	return tell("%s is out of the lobby of %s.", name, rules.Name), b.publisher(rec, out, 0)
}

// joinRunning seats someone in a game that lets people join while it runs.
func (b *Bot) joinRunning(i *discordgo.Interaction, rec *store.Game, user, name string) (reply, after) {
	rules, _ := b.rules(rec.Kind)
	if rec.SeatOf(user) >= 0 {
		return tell("You're already at this table."), nil
	}
	if len(rec.Seats) >= rules.MaxPlayers {
		return tell("The table is full: %s takes at most %d players.", rules.Name, rules.MaxPlayers), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	seat := len(rec.Seats)
	rec.Seats = append(rec.Seats, store.Seat{User: user, Name: name})
	return b.play(i, rec, g, games.Input{Kind: games.InJoin, Seat: seat, Name: name}, shownNothing,
		"You've joined the game. Press **My hand** on the table for your own view.")
}

// leaveRunning lets a player leave a game whose rules allow it.
func (b *Bot) leaveRunning(i *discordgo.Interaction, rec *store.Game, seat int) (reply, after) {
	if seat < 0 {
		return tell("You're not playing in this game."), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if _, ok := g.(games.Joiner); !ok {
		return tell("You can't leave a game in progress. The host can end it with /game end."), nil
	}
	if seat == 0 {
		role := "host"
		if b.isGMGame(rec) {
			role = "GM"
		}
		return tell("You're the %s. End the game with /game end instead.", role), nil
	}
	// Marked in the same commit as the leave (rec is this call's copy): a
	// kill between two writes would keep the seat taken with its player gone.
	rec.Seats[seat].Left = true
	return b.play(i, rec, g, games.Input{Kind: games.InLeave, Seat: seat}, shownNothing, "You've left the game.")
}

func closedLobby(rules games.Rules, why string) msg {
	v := games.View{Title: rules.Name + " — closed", Description: why}
	return msg{embeds: []*discordgo.MessageEmbed{embed(v, "")}}
}

// start deals the game and turns the lobby into the table.
func (b *Bot) start(rec *store.Game, rules games.Rules) (reply, after) {
	g, err := rules.New(rec.Setup())
	if err != nil {
		return b.refusalOr(err), nil
	}
	events := []games.Event{games.Say("The game begins.")}
	if o, ok := g.(games.Opener); ok {
		events = append(events, o.Opening()...)
	}
	rec.Status = store.Playing
	rec.StartSeats = len(rec.Seats)
	ins, events := b.autoplay(rec, g, nil, events)
	out, err := b.commit(rec, g, ins, events, nil, -1, shownTable)
	if err != nil {
		return b.oops(err), nil
	}
	if rec.Threaded {
		// The table goes to the game's thread, which the output starts.
		return update(startedMsg(b, rec, "")), b.publisher(rec, out, 0)
	}
	m, err := tableMsg(rec, g)
	if err != nil {
		b.log.Error("render table", "game", rec.ID, "err", err)
		return tell("The game has started, but I couldn't draw the table here."), b.publisher(rec, out, 0)
	}
	return update(m), b.publisher(rec, out, out.Version)
}

// rematch opens a new lobby with the same players and options as a game
// that has just finished; the host starts it as usual.
func (b *Bot) rematch(i *discordgo.Interaction, gameID string) (reply, after) {
	e, err := b.db.Ended(gameID)
	if err != nil {
		return b.oops(err), nil
	}
	if e == nil || e.Final == nil {
		return tell("That game no longer exists. Use /game new to open a new one."), nil
	}
	old := e.Final
	user, _ := who(i)
	if old.SeatOf(user) < 0 {
		return tell("Only the players of that game can ask for a rematch."), nil
	}
	if cur, err := b.db.Game(b.homeOf(i)); err != nil {
		return b.oops(err), nil
	} else if cur != nil {
		if cur.Status == store.Lobby {
			return tell("A lobby is already open in <#%s>; press **Join** there.", cur.Channel), nil
		}
		return tell("Another game is running in this channel."), nil
	}
	if _, ok := b.rules(old.Kind); !ok {
		return tell("I don't host that game any more."), nil
	}
	if no := cannotPost(i); no != nil { // as /game new: no lobby that could never show
		return *no, nil
	}
	rec := &store.Game{
		ID: newGameID(), Kind: old.Kind, Guild: old.Guild, Channel: b.homeOf(i), Host: old.Host,
		Status: store.Lobby, Options: old.Options, NoAutoplay: old.NoAutoplay, Seed: b.seeds(), Created: b.now().UTC(),
		Timers: map[string]int64{"bot:lobby": b.now().Add(lobbyLife).UnixMilli()},
	}
	for _, s := range old.Seats {
		if s.Left {
			continue
		}
		seat := store.Seat{User: s.User, Name: s.Name, Character: s.Character}
		if !s.Away { // a player the host took out comes back as themselves
			seat.Computer = s.Computer
		}
		rec.Seats = append(rec.Seats, seat)
	}
	post, err := b.openLobby(rec, nil)
	if err != nil {
		return b.oops(err), nil
	}
	return tell("A rematch lobby with the same players is opening in <#%s>; %s presses **Start**.", rec.Channel, rec.Seats[0].Name), post
}

// endGame ends the channel's game early, once confirmed; nothing is
// counted in the stats.
func (b *Bot) endGame(i *discordgo.Interaction, rec *store.Game) (reply, after) {
	if no := b.mayEnd(i, rec); no != nil {
		return *no, nil
	}
	_, name := who(i)
	rules, _ := b.rules(rec.Kind)
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Closed: fmt.Sprintf("This game was ended by %s.", name)}
	if err := b.db.Commit(rec, nil, out, &store.Ending{How: "been ended by " + name}); err != nil {
		return b.oops(err), nil
	}
	return update(textMsg("You ended the game of %s. The channel is free for a new one.", rules.Name)), b.publisher(rec, out, 0)
}

// mayEnd refuses anyone but the host (or GM) and those with Manage Channel.
func (b *Bot) mayEnd(i *discordgo.Interaction, rec *store.Game) *reply {
	if user, _ := who(i); user == rec.Host || canManage(i) {
		return nil
	}
	r := tell("Only the %s, or someone with Manage Channel can end this game.", b.runner(rec))
	return &r
}

// runner names who runs the game: "host, Ann" or "GM, Ann".
func (b *Bot) runner(rec *store.Game) string {
	if b.isGMGame(rec) {
		return "GM, " + rec.Seats[0].Name
	}
	return "host, " + rec.Seats[0].Name
}

// openLobby saves a new lobby and returns the follow-up that posts it. The
// post is output the lobby owes, committed with it: if the process dies
// before it is out, the next start posts it (a lobby with no message would
// hold the channel until it expires). A lobby that cannot be posted is
// closed (a change of the record: the move lane's work), and failed, if
// given, tells the user.
func (b *Bot) openLobby(rec *store.Game, failed func()) (after, error) {
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	if err := b.db.Commit(rec, nil, out, nil); err != nil {
		return nil, err
	}
	b.timers.wake(time.Time{})
	publish := b.publisher(rec, out, 0)
	return func(answered bool) {
		publish(answered)
		if b.killed.Load() {
			return
		}
		if p, err := b.db.Posts(rec.ID); err != nil || p.Table != "" {
			return
		}
		if _, open := b.latest(rec.Channel, rec.ID); !open {
			return // cancelled before it was shown
		}
		b.lanes.push(rec.Channel, func() {
			if cur, open := b.latest(rec.Channel, rec.ID); open && cur.Status == store.Lobby {
				if err := b.db.End(cur, "been cancelled", nil); err != nil {
					b.log.Error("cancel unposted lobby", "game", rec.ID, "err", err)
				}
			}
		})
		if failed != nil && answered { // an unanswered token has no @original to amend
			failed()
		}
	}, nil
}
