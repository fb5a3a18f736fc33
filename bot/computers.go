package bot

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/games/lnf"
	"github.com/cardtable/cardbot/store"
)

// Computers lists the games where a host may seat computer players, with
// the policies each game's package offers (random is always there).
// Improv has a human GM and human protagonists: no computers there.
func Computers() ai.Catalog {
	return ai.Catalog{
		{Rules: duel.Rules, Policies: duel.Policies},
		{Rules: life.Rules, Policies: life.Policies},
		{Rules: lnf.Rules, Policies: lnf.Policies},
		{Rules: dealt.Rules, Policies: dealt.Policies},
	}
}

// computerBeat is the pause before a computer moves, so people can follow.
const computerBeat = 1500 * time.Millisecond

func (b *Bot) beat() time.Duration {
	if b.cfg.ComputerBeat > 0 {
		return b.cfg.ComputerBeat
	}
	return computerBeat
}

// seatsComputers reports whether a host may add computers to kind.
func (b *Bot) seatsComputers(kind string) bool {
	_, ok := b.computers().Entry(kind)
	return ok
}

func (b *Bot) computers() ai.Catalog {
	if b.cfg.Computers != nil {
		return b.cfg.Computers
	}
	return Computers()
}

// addComputer seats a computer player in a lobby, with the game's best policy.
func (b *Bot) addComputer(rec *store.Game, rules games.Rules) *reply {
	if !b.seatsComputers(rec.Kind) {
		r := tell("%s has no computer players.", rules.Name)
		return &r
	}
	if len(rec.Seats) >= rules.MaxPlayers {
		r := tell("The table is full: %s takes at most %d players.", rules.Name, rules.MaxPlayers)
		return &r
	}
	if rec.Options["roleplay"] == 1 {
		// A computer neither speaks in character nor rewards those who do,
		// so role-play markers would only cost it points.
		r := tell("Computer players can't role-play. Open the game with roleplay:False to play with them.")
		return &r
	}
	n := 1
	for _, s := range rec.Seats {
		if s.Computer != "" {
			n++
		}
	}
	policy := ai.RandomName
	if _, ok := b.computers().For(rec.Kind)[ai.SensibleName]; ok {
		policy = ai.SensibleName
	}
	rec.Seats = append(rec.Seats, store.Seat{User: fmt.Sprintf("computer-%d", n), Name: fmt.Sprintf("🤖 Robin %d", n), Computer: policy})
	return nil
}

// dropComputer takes the last computer player out of a lobby.
func dropComputer(rec *store.Game) *reply {
	for i := len(rec.Seats) - 1; i > 0; i-- {
		if rec.Seats[i].Computer != "" {
			rec.Seats = append(rec.Seats[:i], rec.Seats[i+1:]...)
			return nil
		}
	}
	r := tell("There is no computer player to remove.")
	return &r
}

// computerButtons are the host's lobby controls for computer seats.
func computerButtons(rec *store.Game) []discordgo.MessageComponent {
	btn := func(verb, label string) discordgo.Button {
		c := customID{kind: "lobby", game: rec.ID, version: rec.Version, action: games.Act(verb)}
		return discordgo.Button{Label: label, Style: discordgo.SecondaryButton, CustomID: c.String()}
	}
	return []discordgo.MessageComponent{btn("addcpu", "Add a computer"), btn("dropcpu", "Remove a computer")}
}

// playComputer makes a computer seat's move: its policy sees only that
// seat's views; if it finds nothing, the first legal move is made.
func (b *Bot) playComputer(rec *store.Game, seat int) {
	_, g, err := b.load(rec)
	if err != nil {
		b.log.Error("computer move", "game", rec.ID, "err", err)
		return
	}
	p, ok := b.computers().For(rec.Kind)[rec.Seats[seat].Computer]
	if !ok {
		p = ai.Random
	}
	r := ai.SeedFor(rec.Seed, rec.Steps, seat)
	in, ok := ai.Step(g, seat, p, &r)
	if !ok {
		a, found := defaultMove(g.Hand(seat))
		if !found {
			_ = b.db.Save(rec)
			return
		}
		in = games.Input{Seat: seat, Action: a}
	}
	before := b.viewsOf(rec, g)
	events, err := games.Step(g, in)
	if err != nil {
		// A policy's mistake must not stall the table: the first legal move.
		b.log.Warn("computer move refused", "game", rec.ID, "policy", rec.Seats[seat].Computer, "err", err)
		a, found := defaultMove(g.Hand(seat))
		if _, g, err = b.load(rec); err != nil || !found {
			_ = b.db.Save(rec)
			return
		}
		in = games.Input{Seat: seat, Action: a}
		if events, err = games.Step(g, in); err != nil {
			_ = b.db.Save(rec)
			return
		}
	}
	ins, events := b.autoplay(rec, g, []games.Input{in}, events)
	out, err := b.commit(rec, g, ins, events, before, -1, shownNothing)
	if err != nil {
		b.log.Error("computer move", "game", rec.ID, "err", err)
		return
	}
	b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
}

// computersNow, when computers move without a pause (tests), queues their
// moves right behind the change that made them due, so waiting for the
// channel waits for them too.
func (b *Bot) computersNow(rec *store.Game) {
	if b.beat() > time.Millisecond {
		return
	}
	for key, at := range rec.Timers {
		if at != 0 && len(key) > 8 && key[:8] == "bot:cpu:" {
			d := store.Due{Channel: rec.Channel, Game: rec.ID, Key: key, At: at}
			b.lanes.push(rec.Channel, func() { b.guard("computer", func() { b.fire(d) }) })
		}
	}
}

// lobbyMsg is the lobby, with the host's computer-seat controls where the
// game has computer players.
func (b *Bot) lobbyMsg(rec *store.Game, rules games.Rules) msg {
	m := lobbyMsg(rec, rules)
	if b.seatsComputers(rec.Kind) {
		m.components = append(m.components, discordgo.ActionsRow{Components: computerButtons(rec)})
	}
	return m
}

// isGMGame: seat 0 runs the game rather than plays it.
func (b *Bot) isGMGame(rec *store.Game) bool {
	r, _ := b.rules(rec.Kind)
	return r.GM
}

// cmdRemove lets the host (or GM, or a moderator) take an absent player out
// so the game never waits on them: from a lobby they lose their seat; in
// a game that lets people leave they leave; otherwise the bot plays their
// seat — with the game's computer player, or its first legal move — until
// they act again.
func (b *Bot) cmdRemove(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	if no := b.mayEnd(i, rec); no != nil {
		return tell("Only the %s, or someone with Manage Channel can take a player out of this game.", b.runner(rec)), nil
	}
	var target string
	for _, o := range opts {
		if o.Name == "player" {
			target = fmt.Sprint(o.Value)
		}
	}
	seat := rec.SeatOf(target)
	if rec.Status == store.Lobby && seat >= 0 {
		return b.removeFromLobby(rec, seat)
	}
	switch {
	case seat < 0:
		return tell("That member isn't playing in this game."), nil
	case seat == 0 && b.isGMGame(rec):
		return tell("The GM's seat runs the game and can't be handed over; end it with /game end instead."), nil
	case seat == 0 && !canManage(i):
		// A host who walked away can be taken out by a moderator, so that
		// the game does not wait on them; not by themselves.
		return tell("Only someone with Manage Channel can hand the host's seat to the bot; the host can end the game with /game end."), nil
	case rec.Seats[seat].Computer != "":
		return tell("%s's seat is already played by the bot.", rec.Seats[seat].Name), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if _, ok := g.(games.Joiner); ok {
		rec.Seats[seat].Left = true
		return b.play(i, rec, g, games.Input{Kind: games.InLeave, Seat: seat}, shownNothing,
			fmt.Sprintf("%s has left the game.", rec.Seats[seat].Name))
	}
	policy := ai.RandomName
	if _, ok := b.computers().For(rec.Kind)[ai.SensibleName]; ok {
		policy = ai.SensibleName
	}
	rec.Seats[seat].Computer = policy
	rec.Seats[seat].Away = true
	out, err := b.commit(rec, g, nil, []games.Event{games.Say("%s is away; I play their seat until they act again.", rec.Seats[seat].Name)}, nil, -1, shownNothing)
	if err != nil {
		return b.oops(err), nil
	}
	return tell("I play %s's seat now; they take it back by pressing My hand or making a move.", rec.Seats[seat].Name), b.publisher(rec, out, 0)
}

// comeBack gives a seat the bot was playing back to its player, who has
// just acted in it.
func comeBack(rec *store.Game, seat int) {
	if s := &rec.Seats[seat]; s.Away {
		s.Away, s.Computer = false, ""
	}
}
