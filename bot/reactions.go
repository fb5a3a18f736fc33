package bot

import (
	"errors"
	"slices"
	"sort"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// onReaction hands a reaction on one of the game's own messages to the
// game, if the game counts that emoji there. Reactions have no reply, so
// one the rules refuse is just not counted; the record of delivered
// reactions makes a repeated event, or the recount at start-up, harmless.
func (b *Bot) onReaction(channel, message, user, emoji string, add bool) {
	rec, err := b.db.Game(channel)
	if err != nil || rec == nil || rec.Status != store.Playing || user == b.botUserID() {
		return
	}
	posts, err := b.db.Posts(rec.ID)
	if err != nil {
		b.log.Warn("count reaction", "game", rec.ID, "err", err)
		return
	}
	ref, ok := posts.RefOf(message)
	if !ok || !slices.Contains(posts.Emoji[ref], emoji) {
		return
	}
	b.logReact(rec, b.react(rec, ref, emoji, user, add))
}

func reactKey(ref, emoji string) string { return ref + " " + emoji }

// react delivers one reaction change to the game and commits it.
func (b *Bot) react(rec *store.Game, ref, emoji, user string, add bool) error {
	key := reactKey(ref, emoji)
	if slices.Contains(rec.Reacts[key], user) == add {
		return nil // already as the reaction says
	}
	pending := rec.ID + " " + key + " " + user
	b.refused.Delete(pending) // this change is newer than a refused one still to take off
	if add {
		rec.Reacts = with(rec.Reacts, key, user)
	} else {
		rec.Reacts = without(rec.Reacts, key, user)
	}
	_, g, err := b.load(rec)
	if err != nil {
		return err
	}
	seat := rec.SeatOf(user)
	if seat < 0 {
		seat = games.Spectator
	}
	in := games.Input{Kind: games.InReact, Seat: seat, Ref: ref, Emoji: emoji, Add: add}
	before := b.viewsOf(rec, g)
	events, err := games.Step(g, in)
	var refusal *games.Refusal
	switch {
	case errors.As(err, &refusal):
		// Not counted, but delivered: remembered so it is never counted later.
		if err := b.db.Save(rec); err != nil {
			return err
		}
		if add {
			mark := new(byte)
			b.refused.Store(pending, mark)
			b.output(rec.Channel, "unreact", func() {
				// Not if the user took it back, or gave it again since
				// (and it may count now): that reaction is not this one.
				if b.refused.CompareAndDelete(pending, mark) {
					b.unreact(rec, ref, emoji, user)
				}
			})
		}
		return nil
	case err != nil:
		return err
	}
	if len(events) == 0 && b.unchanged(rec, g) {
		// Taking back what never counted (a refused 🎭 the bot removed):
		// only the delivered reactions change.
		return b.db.Save(rec)
	}
	out, err := b.commit(rec, g, []games.Input{in}, events, before, -1, shownNothing)
	if err != nil {
		return err
	}
	b.output(rec.Channel, "publish", func() { b.publish(rec.Channel, out, 0) })
	return nil
}

func with(m map[string][]string, key, user string) map[string][]string {
	if m == nil {
		m = map[string][]string{}
	}
	m[key] = append(m[key], user)
	return m
}

func without(m map[string][]string, key, user string) map[string][]string {
	m[key] = slices.DeleteFunc(m[key], func(u string) bool { return u == user })
	if len(m[key]) == 0 {
		delete(m, key)
	}
	return m
}

func (b *Bot) logReact(rec *store.Game, err error) {
	if err != nil {
		b.log.Warn("count reaction", "game", rec.ID, "err", err)
	}
}

// watched lists a game's messages whose reactions count, with the emoji.
type watched struct{ ref, id, emoji string }

func watchList(posts *store.Posts, only string) []watched {
	var out []watched
	for ref, emoji := range posts.Emoji {
		id := posts.Refs[ref]
		if id == "" || (only != "" && id != only) {
			continue
		}
		for _, e := range emoji {
			out = append(out, watched{ref, id, e})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ref+out[i].emoji < out[j].ref+out[j].emoji })
	return out
}

// recount brings a game's delivered reactions in line with what Discord
// lists now, for reactions given or taken back while the bot was away, or
// cleared by a moderator. Take-backs go first, since they can free what
// an award spends.
func (b *Bot) recount(rec *store.Game, posts *store.Posts, list []watched) {
	now := map[string][]string{}
	var gone []string
	for _, w := range list {
		users, err := b.reactors(postsIn(rec, posts), w.id, w.emoji)
		if err != nil {
			if isUnknownMessage(err) {
				// A deleted message's reactions stand; it is not asked
				// about again.
				gone = append(gone, w.ref)
				continue
			}
			b.log.Warn("list reactions", "game", rec.ID, "err", err)
			if forbidden(err) {
				break // no Read Message History here: every other line would answer 403 too
			}
			continue
		}
		now[reactKey(w.ref, w.emoji)] = users
	}
	if len(gone) > 0 {
		b.output(rec.Channel, "forget deleted lines", func() { // posts are the output lane's
			err := b.db.SetPosts(rec.ID, rec.Channel, func(ps *store.Posts) {
				for _, ref := range gone {
					delete(ps.Emoji, ref)
				}
			})
			if err != nil {
				b.log.Warn("forget deleted lines", "game", rec.ID, "err", err)
			}
		})
	}
	for _, w := range list {
		key := reactKey(w.ref, w.emoji)
		users, ok := now[key]
		if !ok {
			continue
		}
		for _, user := range slices.Clone(rec.Reacts[key]) {
			if !slices.Contains(users, user) {
				b.logReact(rec, b.react(rec, w.ref, w.emoji, user, false))
			}
		}
	}
	for _, w := range list {
		for _, user := range now[reactKey(w.ref, w.emoji)] {
			if user != b.botUserID() {
				b.logReact(rec, b.react(rec, w.ref, w.emoji, user, true))
			}
		}
	}
}

// onReactionsCleared recounts a message whose reactions a moderator removed.
func (b *Bot) onReactionsCleared(channel, message, emoji string) {
	rec, err := b.db.Game(channel)
	if err != nil || rec == nil || rec.Status != store.Playing {
		return
	}
	posts, err := b.db.Posts(rec.ID)
	if err != nil {
		return
	}
	list := slices.DeleteFunc(watchList(posts, message), func(w watched) bool { return emoji != "" && w.emoji != emoji })
	if len(list) > 0 {
		b.recount(rec, posts, list)
	}
}

// resyncReactions queues a recount of every open game with messages whose
// reactions count, each in its channel's move lane: after the gateway is
// open, so a reaction made meanwhile arrives as an event rather than
// falling between the listing and the connection. Games without such
// messages cost nothing at start-up.
func (b *Bot) resyncReactions() error {
	watched, err := b.db.Watched()
	if err != nil {
		return err
	}
	for id, channel := range watched {
		b.lanes.push(channel, func() {
			b.guard("recount", func() {
				cur, _ := b.db.Game(channel)
				if cur == nil || cur.ID != id || cur.Status != store.Playing {
					return
				}
				posts, err := b.db.Posts(cur.ID)
				if err != nil {
					return
				}
				if list := watchList(posts, ""); len(list) > 0 {
					b.recount(cur, posts, list)
				}
			})
		})
	}
	return nil
}

// reactors lists every user who reacted with emoji to a message, page by page.
func (b *Bot) reactors(channel, message, emoji string) ([]string, error) {
	var users []string
	after := ""
	for {
		page, err := b.s.MessageReactions(channel, message, emoji, 100, "", after)
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

// unreact takes away a reaction the rules refused, so it does not look
// counted. That needs Manage Messages; without it the reaction stays, and
// after one 403 the channel is left alone for barLife (unless an
// interaction shows the permission back): anyone could otherwise toggle a
// refused reaction into a stream of 403s, which count toward Discord's ban
// on invalid requests.
func (b *Bot) unreact(rec *store.Game, ref, emoji, user string) {
	posts, err := b.db.Posts(rec.ID)
	if err != nil || posts.Refs[ref] == "" {
		return
	}
	where := postsIn(rec, posts)
	if b.unmanaged.fresh(where, barLife) {
		return
	}
	if err := b.s.MessageReactionRemove(where, posts.Refs[ref], emoji, user, discordgo.WithContext(b.jobCtx(rec.Channel))); err != nil {
		if forbidden(err) {
			b.unmanaged.take(where)
			b.markThread(&b.unmanaged, where)
		}
		b.log.Debug("remove refused reaction", "game", rec.ID, "err", err)
	}
}
