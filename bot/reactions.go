package bot

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// markerEmoji is the reaction that awards a role-play marker.
const markerEmoji = "🎭"

// onReaction counts a 🎭 added to or removed from a role-play message.
// Reactions have no reply, so a reaction the rules refuse is just not
// counted. The record of counted reactions makes a repeated event harmless.
func (b *Bot) onReaction(channel, message, user, emoji string, add bool) {
	if emoji != markerEmoji {
		return
	}
	rec, err := b.db.Game(channel)
	if err != nil || rec == nil || rec.Status != store.Playing {
		return
	}
	b.logReact(rec, b.react(rec, message, user, add))
}

// react applies one reaction change to the game and commits it. The record
// remembers which reactions were counted and which the rules refused, so a
// repeated event, or the recount at start-up, changes nothing.
func (b *Bot) react(rec *store.Game, message, user string, add bool) error {
	author, ok := rec.RolePlay[message]
	from := rec.SeatOf(user)
	if !ok || from < 0 {
		return nil // not a role-play message, or a spectator
	}
	if refused := slices.Contains(rec.Refused[message], user); refused {
		if add {
			return nil
		}
		rec.Refused = without(rec.Refused, message, user)
		return b.db.Save(rec)
	}
	if counted := slices.Contains(rec.Counted[message], user); counted == add {
		return nil // already as the reaction says
	}
	_, g, err := b.load(rec)
	if err != nil {
		return err
	}
	rg, ok := g.(games.Reactive)
	if !ok {
		return nil
	}
	events, err := rg.React(from, author, message, add)
	var refusal *games.Refusal
	switch {
	case errors.As(err, &refusal):
		if add {
			rec.Refused = with(rec.Refused, message, user)
			return b.db.Save(rec)
		}
		return nil
	case err != nil:
		return err
	case add:
		rec.Counted = with(rec.Counted, message, user)
	default:
		rec.Counted = without(rec.Counted, message, user)
	}
	state, err := games.Encode(g)
	if err != nil {
		return fmt.Errorf("encode game %s: %w", rec.ID, err)
	}
	rec.State = state
	appendLog(rec, events)
	if err := b.db.Save(rec); err != nil {
		return err
	}
	// Markers show on the table and in every hand; no narration, so
	// nothing is owed if this output is lost: start-up redraws the table.
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Hands: allSeats(rec)}
	b.output(rec.Channel, "publish", func() { b.publish(rec, g, out) })
	return nil
}

func with(m map[string][]string, message, user string) map[string][]string {
	if m == nil {
		m = map[string][]string{}
	}
	m[message] = append(m[message], user)
	return m
}

func without(m map[string][]string, message, user string) map[string][]string {
	m[message] = slices.DeleteFunc(m[message], func(u string) bool { return u == user })
	if len(m[message]) == 0 {
		delete(m, message)
	}
	return m
}

// recount brings a game's counted 🎭 reactions in line with what Discord
// lists now, for reactions given or taken back while the bot was away, or
// cleared by a moderator. Take-backs go first, since they free markers.
func (b *Bot) recount(rec *store.Game, messages []string) {
	now := map[string][]string{}
	for _, message := range messages {
		users, err := b.reactors(rec.Channel, message)
		if err != nil {
			if !isUnknownMessage(err) { // a deleted line's awards stand
				b.log.Warn("list reactions", "game", rec.ID, "err", err)
			}
			continue
		}
		now[message] = users
	}
	for message, users := range now {
		gone := append(slices.Clone(rec.Counted[message]), rec.Refused[message]...)
		for _, user := range gone {
			if !slices.Contains(users, user) {
				b.logReact(rec, b.react(rec, message, user, false))
			}
		}
	}
	for _, message := range messages {
		for _, user := range now[message] {
			b.logReact(rec, b.react(rec, message, user, true))
		}
	}
}

func (b *Bot) logReact(rec *store.Game, err error) {
	if err != nil {
		b.log.Warn("count reaction", "game", rec.ID, "err", err)
	}
}

// onReactionsCleared recounts a message whose reactions a moderator removed.
func (b *Bot) onReactionsCleared(channel, message, emoji string) {
	if emoji != "" && emoji != markerEmoji {
		return
	}
	rec, err := b.db.Game(channel)
	if err != nil || rec == nil || rec.Status != store.Playing {
		return
	}
	if _, ok := rec.RolePlay[message]; ok {
		b.recount(rec, []string{message})
	}
}

// resyncReactions queues a recount of every running game's role-play
// lines, each in its channel's move lane: after the gateway is open, so a
// reaction made meanwhile arrives as an event rather than falling between
// the listing and the connection.
func (b *Bot) resyncReactions() error {
	recs, err := b.db.Running()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if rec.Status != store.Playing || len(rec.RolePlay) == 0 {
			continue
		}
		messages := slices.Sorted(maps.Keys(rec.RolePlay))
		b.lanes.push(rec.Channel, func() {
			b.guard("recount", func() {
				// The record may have moved on since the list was read.
				if cur, _ := b.db.Game(rec.Channel); cur != nil && cur.ID == rec.ID {
					b.recount(cur, messages)
				}
			})
		})
	}
	return nil
}

// reactors lists every user who reacted 🎭 to a message, page by page.
func (b *Bot) reactors(channel, message string) ([]string, error) {
	var users []string
	after := ""
	for {
		page, err := b.s.MessageReactions(channel, message, markerEmoji, 100, "", after)
		if err != nil {
			return nil, err
		}
		for _, u := range page {
			users = append(users, u.ID)
		}
		if len(page) < 100 {
			return users, nil
		}
		after = page[len(page)-1].ID
	}
}

func allSeats(rec *store.Game) []int {
	out := make([]int, len(rec.Seats))
	for i := range out {
		out[i] = i
	}
	return out
}
