package bot

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

const (
	// keptLog: the table's footer shows only the latest line, and every
	// line kept is rewritten with the record in each move's commit.
	keptLog      = 1
	maxLogLine   = 200
	staleHandMsg = "⏳ That button was from an earlier moment, so I ignored it. Here is your hand as it is now."
)

// playerOf checks that a button belongs to the channel's running game and
// that the user has a seat in it.
func (b *Bot) playerOf(i *discordgo.Interaction, id customID) (*store.Game, int, *reply) {
	rec, no := b.current(b.homeOf(i), id.game)
	if no != nil {
		return nil, 0, no
	}
	user, _ := who(i)
	seat := rec.SeatOf(user)
	if seat < 0 {
		r := tell("You're not playing in this game; everything public is on the table.")
		return nil, 0, &r
	}
	if rec.Status != store.Playing {
		r := tell("The game hasn't started yet.")
		return nil, 0, &r
	}
	return rec, seat, nil
}

func fromEphemeral(i *discordgo.Interaction) bool {
	return i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// outdated tells whether a click was made on a view that has changed since.
// A hand is judged by its own last change, the table by any move.
func outdated(i *discordgo.Interaction, rec *store.Game, seat, version int) bool {
	if version > rec.Version {
		return true
	}
	if fromEphemeral(i) {
		return version < rec.Seats[seat].ViewVersion
	}
	return version != rec.Version
}

// stillAsked says whether a text box opened on a hand that only others'
// moves have changed since still counts: its writer has not moved since,
// and their hand still asks for the same words.
func stillAsked(rec *store.Game, g games.Game, seat int, id customID) bool {
	if id.kind != "text" || id.version > rec.Version || id.version < rec.Seats[seat].Moved {
		return false
	}
	for _, btn := range g.Hand(seat).Buttons {
		if btn.Ask != nil && !btn.Disabled && btn.Action.Key() == id.action.Key() {
			return true
		}
	}
	return false
}

// stale answers a click made on an out-of-date view with the current one.
func (b *Bot) stale(i *discordgo.Interaction, rec *store.Game, g games.Game, seat int) reply {
	if !fromEphemeral(i) {
		return tell("That button was out of date, so I ignored it. The table above shows the game as it is now.")
	}
	m, err := b.handMsg(rec, g, seat, staleHandMsg)
	if err != nil {
		return b.oops(err)
	}
	b.keepHand(rec, seat, i)
	return update(m).hand(rec, seat, i)
}

// onMove applies one player's action: validate, commit, then answer.
func (b *Bot) onMove(i *discordgo.Interaction, id customID, text string) (reply, after) {
	rec, seat, no := b.playerOf(i, id)
	if no != nil {
		return *no, nil
	}
	g, err := b.playable(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if outdated(i, rec, seat, id.version) && !stillAsked(rec, g, seat, id) {
		return b.stale(i, rec, g, seat), nil
	}
	a := id.action
	a.Text = text
	comeBack(rec, seat)
	answer := shownTable
	if fromEphemeral(i) {
		answer = shownHand
	}
	return b.play(i, rec, g, games.Input{Seat: seat, Action: a}, answer, "")
}

// onAct is a click on a button under one of the game's own messages (a
// vote, say): anyone may press it, the game judges, and nothing goes stale.
func (b *Bot) onAct(i *discordgo.Interaction, id customID) (reply, after) {
	rec, no := b.current(b.homeOf(i), id.game)
	if no != nil {
		return *no, nil
	}
	if rec.Status != store.Playing {
		return tell("The game hasn't started yet."), nil
	}
	user, _ := who(i)
	seat := rec.SeatOf(user)
	if seat < 0 {
		seat = games.Spectator
	}
	g, err := b.playable(rec)
	if err != nil {
		return b.oops(err), nil
	}
	if m, ok := g.(games.MessageActor); !ok || !slices.Contains(m.ActVerbs(), id.action.Verb) {
		return tell("That button isn't one of this game's."), nil
	}
	return b.play(i, rec, g, games.Input{Seat: seat, Action: id.action}, shownNothing, "Got it.")
}

// play applies an input made through an interaction and answers it as
// answer says: updating the hand or the table that was clicked, or, for
// anything else, with note only the user sees.
func (b *Bot) play(i *discordgo.Interaction, rec *store.Game, g games.Game, in games.Input, answer shown, note string) (reply, after) {
	before := b.viewsOf(rec, g)
	events, err := games.Step(g, in)
	if err != nil {
		return b.refusalOr(err), nil
	}
	if answer == shownNothing && len(events) == 0 && b.unchanged(rec, g) {
		return tell("%s", note), nil // a repeated vote, say: nothing to commit
	}
	seat := in.Seat
	if answer == shownHand {
		b.rememberHand(rec, seat, i)
	}
	ins, events := b.autoplay(rec, g, []games.Input{in}, events)
	out, err := b.commit(rec, g, ins, events, before, seat, answer)
	if err != nil {
		return b.oops(err), nil
	}
	var m msg
	switch answer {
	case shownHand:
		m, err = b.handMsg(rec, g, seat, "")
	case shownTable:
		m, err = tableMsg(rec, g)
	default:
		return tell("%s", note), b.publisher(rec, out, 0)
	}
	if err != nil {
		// The move stands; its output still goes out, with the table.
		b.log.Error("render answer", "game", rec.ID, "err", err)
		return tell("Your move was made, but I couldn't draw it here. The table shows where the game stands."), b.publisher(rec, out, 0)
	}
	if answer == shownHand {
		return update(m).hand(rec, seat, i), b.publisher(rec, out, 0)
	}
	return update(m), b.publisher(rec, out, out.Version)
}

// onAsk opens the text box for a move that needs typed words.
func (b *Bot) onAsk(i *discordgo.Interaction, id customID) reply {
	rec, seat, no := b.playerOf(i, id)
	if no != nil {
		return *no
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err)
	}
	if outdated(i, rec, seat, id.version) {
		return b.stale(i, rec, g, seat)
	}
	var ask *games.Ask
	for _, btn := range g.Hand(seat).Buttons {
		if btn.Ask != nil && btn.Action.Key() == id.action.Key() {
			ask = btn.Ask
		}
	}
	if ask == nil {
		return tell("That move isn't open to you right now.")
	}
	style := discordgo.TextInputShort
	if ask.Long {
		style = discordgo.TextInputParagraph
	}
	maxLen := ask.MaxLen
	if maxLen <= 0 || maxLen > 4000 {
		maxLen = 4000
	}
	text := customID{kind: "text", game: id.game, version: id.version, action: id.action}
	return reply{modal: &discordgo.InteractionResponseData{
		CustomID: text.String(),
		Title:    clip(plainText(ask.Title), 45),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "text", Label: clip(plainText(ask.Label), 45), Style: style, Placeholder: clip(plainText(ask.Placeholder), 100),
				Required: true, MaxLength: maxLen},
		}}},
	}}
}

// unchanged says whether g is still the state stored in rec: an input the
// game accepted without changing anything is not worth a commit.
func (b *Bot) unchanged(rec *store.Game, g games.Game) bool {
	state, err := games.Encode(g)
	return err == nil && bytes.Equal(state, rec.State)
}

// moved says whether seat made one of the moves in, itself or through the
// bot (a forced move, or one made for them when they were away).
func moved(in []games.Input, seat int) bool {
	return slices.ContainsFunc(in, func(x games.Input) bool {
		return x.Seat == seat && (x.Kind == games.InMove || x.Kind == games.InTimer)
	})
}

// handViews renders every seat's private view, so that commit can tell
// whose view a move changed.
func handViews(seats int, g games.Game) []games.View {
	v := make([]games.View, seats)
	for s := range v {
		v[s] = g.Hand(s)
	}
	return v
}

// viewsOf is handViews of g, which must be rec's state unchanged: the views
// kept with it when its move committed, if they are there.
func (b *Bot) viewsOf(rec *store.Game, g games.Game) []games.View {
	if k, ok := b.kept(rec); ok && len(k.views) == len(rec.Seats) {
		return k.views
	}
	return handViews(len(rec.Seats), g)
}

// shown says what the answer to a move already displayed.
type shown int

const (
	shownNothing shown = iota // a command: the output lane draws everything
	shownTable                // the table message itself (a table button, or Start)
	shownHand                 // the actor's own hand, updated in place
)

// commit saves a game after accepted inputs, before anyone is answered,
// with the inputs appended to its log and the output the change owes the
// channel: the game's messages, a ping for the seats that now have to act
// and weren't pinged yet, and a redraw of the hands the change altered
// (every hand when before is nil). The actor's view always counts as
// changed: it has been used, so a second click on it is a double click.
func (b *Bot) commit(rec *store.Game, g games.Game, in []games.Input, events []games.Event, before []games.View, actor int, answer shown) (*store.Output, error) {
	r, _ := b.rules(rec.Kind)
	state, err := games.Encode(g)
	if err != nil {
		return nil, fmt.Errorf("encode game %s: %w", rec.ID, err)
	}
	rec.State, rec.StateVersion = state, r.Version
	rec.Version++
	appendLog(rec, events)
	forgetReacts(rec, g)
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version}
	for n, x := range in {
		// A vote, appeal or line made outside the hand leaves the actor's
		// open text box standing (stillAsked).
		if n == 0 && x.Seat == actor && answer == shownNothing {
			continue
		}
		if (x.Kind == games.InMove || x.Kind == games.InTimer) && x.Seat >= 0 && x.Seat < len(rec.Seats) {
			rec.Seats[x.Seat].Moved = rec.Version
		}
	}
	after := handViews(len(rec.Seats), g)
	for s := range rec.Seats {
		if before == nil || s >= len(before) || s == actor || !reflect.DeepEqual(before[s], after[s]) {
			rec.Seats[s].ViewVersion = rec.Version
			if s != actor || answer != shownHand {
				out.Hands = append(out.Hands, s)
			}
		}
	}
	for _, e := range events {
		if e.Story || e.Ref != "" {
			out.Events = append(out.Events, e)
		}
	}
	now := g.ToAct()
	for _, s := range now {
		if s < 0 || s >= len(rec.Seats) {
			continue
		}
		switch {
		case !slices.Contains(rec.Waiting, s):
			rec.Seats[s].WaitingSince = rec.Version
			if !b.watching(rec.Seats[s]) && rec.Seats[s].Computer == "" {
				out.Ping = append(out.Ping, s)
			}
		case moved(in, s):
			// Moves in a row (a duel's damage and then its next attack,
			// picks while building a hand): the turn's clock starts again
			// with each, and a player who just moved needs no ping.
			rec.Seats[s].WaitingSince = rec.Version
		}
	}
	rec.Waiting = now
	earliest := b.syncTimers(rec, g)
	var end *store.Ending
	if g.Over() {
		end = &store.Ending{How: "finished"}
		for _, res := range g.Results() {
			s := rec.Seats[res.Seat]
			if s.Computer != "" && !s.Away {
				continue // a computer has no place in the server's stats
			}
			end.Results = append(end.Results, store.PlayerResult{User: s.User, Name: s.Name, Won: res.Winner, Score: res.Score})
		}
	}
	at := b.now().UTC()
	entries := make([]store.Entry, len(in))
	for n, x := range in {
		entries[n] = store.Entry{At: at, Input: x}
	}
	if err := b.db.Commit(rec, entries, out, end); err != nil {
		return nil, err
	}
	if end != nil {
		b.dropState(rec.Channel)
	} else {
		b.keepState(rec, g, after) // the output lane draws from it: g is not changed after this
	}
	if !earliest.IsZero() {
		b.timers.wake(earliest)
	}
	b.computersNow(rec)
	return out, nil
}

// watchWindow is how recently a player must have used their hand to count
// as watching it: their open hand is redrawn with the new turn, so a ping
// would only add noise (and a message against Discord's global limit).
const watchWindow = 90 * time.Second

func (b *Bot) watching(s store.Seat) bool {
	return s.HandToken != "" && b.now().Sub(s.HandAt) < watchWindow
}

// syncTimers keeps the game's deadlines: a timer listed for the first time
// is due its delay from now, one no longer listed is dropped, and a fired
// one stays fired (0) while the game still lists it. The bot's own timers
// (keys "bot:…": turn reminders, acting for an absent player, closing an
// idle game) are set here too. It returns the earliest new due time.
func (b *Bot) syncTimers(rec *store.Game, g games.Game) time.Time {
	var earliest time.Time
	want := map[string]int64{}
	add := func(key string, delay time.Duration) {
		if at, had := rec.Timers[key]; had {
			want[key] = at
			return
		}
		due := b.now().Add(delay)
		want[key] = due.UnixMilli()
		if earliest.IsZero() || due.Before(earliest) {
			earliest = due
		}
	}
	if !g.Over() {
		if tg, ok := g.(games.Timed); ok {
			for _, t := range tg.Timers() {
				add(t.Key, t.Delay)
			}
		}
		tt := b.turnTimers(rec.Kind)
		for _, s := range rec.Waiting {
			if s < 0 || s >= len(rec.Seats) {
				continue
			}
			since := rec.Seats[s].WaitingSince
			if rec.Seats[s].Computer != "" {
				// Keyed by the move counter: a computer with several moves
				// to make in a row (building a hand) gets a turn after each.
				add(seatTimer("cpu", s, rec.Version), b.beat())
				continue
			}
			if tt.remind > 0 {
				add(seatTimer("remind", s, since), tt.remind)
			}
			if tt.act > 0 {
				add(seatTimer("act", s, since), tt.act)
			}
		}
		// Renewed by every change: a game nobody touches for a week closes.
		// Not a campaign, which rests between weekly sessions by design.
		// Kept while renewing would move it by under idleRenew: each
		// renewal also rewrites the store's timer index.
		if at, had := rec.Timers["bot:idle"]; had && at < b.now().Add(idleGame-idleRenew).UnixMilli() {
			delete(rec.Timers, "bot:idle")
		}
		if _, campaign := g.(games.Joiner); !campaign {
			add("bot:idle", idleGame)
		}
	}
	rec.Timers = want
	if len(want) == 0 {
		rec.Timers = nil
	}
	return earliest
}

func appendLog(rec *store.Game, events []games.Event) {
	for _, e := range events {
		if e.Ref != "" && !e.Story {
			continue
		}
		line, _, _ := strings.Cut(e.Text, "\n")
		rec.Log = append(rec.Log, clip(line, maxLogLine))
	}
	if len(rec.Log) > keptLog {
		rec.Log = rec.Log[len(rec.Log)-keptLog:]
	}
}

// forgetReacts drops the delivered reactions of messages the game no
// longer counts reactions on (games.Forgetter): nothing will be delivered
// for them again, and a long campaign's record would otherwise keep them all.
func forgetReacts(rec *store.Game, g games.Game) {
	f, ok := g.(games.Forgetter)
	if !ok {
		return
	}
	for key := range rec.Reacts {
		if ref, _, _ := strings.Cut(key, " "); !f.Counts(ref) {
			delete(rec.Reacts, key)
		}
	}
}
