package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/store"
)

// A game lives in a thread of its own where the server lets the bot start
// one (and has not turned threads off with /game settings): the lobby
// message in the channel starts the thread when the game starts, the game
// plays out there, and the channel is told how it ended. The game stays
// keyed by its channel: events from the thread are routed to the channel's
// lanes and record, so one channel still holds one game at a time.

// threadPerms: starting a public thread and talking in it.
const threadPerms = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// threadArchive: Discord hides a thread after this many minutes without a
// message; a week, like the bot's idle limit for a game.
const threadArchive = 10080

// home is the channel whose game an event from channel belongs to: the
// channel itself, or for a thread the bot started, the channel it belongs
// to (with the game that moved there).
func (b *Bot) home(channel string) (string, *store.Thread) {
	if v, ok := b.threads.Load(channel); ok {
		t, _ := v.(*store.Thread)
		if t == nil {
			return channel, nil
		}
		return t.Channel, t
	}
	t, err := b.db.ThreadOf(channel)
	if err != nil {
		b.log.Warn("look up thread", "channel", channel, "err", err)
		return channel, nil // not remembered: the next event asks again
	}
	b.threads.Store(channel, t)
	if t == nil {
		return channel, nil
	}
	return t.Channel, t
}

// gone closes the game whose channel, or thread, was deleted: nothing of it
// can be shown any more, and every post, edit or timer's output there would
// answer 404, which Discord counts against the bot when repeated.
func (b *Bot) gone(channel string) {
	home, th := b.home(channel)
	b.lanes.accept(home, func() {
		b.guard("channel deleted", func() {
			rec, err := b.db.Game(home)
			if err != nil || rec == nil || (th != nil && th.Game != rec.ID) {
				return // no game, or an old game's thread
			}
			how := "been closed: its channel was deleted"
			if th != nil {
				how = "been closed: its thread was deleted"
			}
			if err := b.db.End(rec, how, nil); err != nil {
				b.log.Warn("close game of a deleted channel", "game", rec.ID, "err", err)
			}
		})
	})
}

// homeOf is the channel whose game an interaction is about.
func (b *Bot) homeOf(i *discordgo.Interaction) string {
	ch, _ := b.home(i.ChannelID)
	return ch
}

// wantsThread tells whether a game starting now should move to a thread:
// the server has not turned threads off, the bot may start one here, and
// here is not a thread already.
func (b *Bot) wantsThread(i *discordgo.Interaction) bool {
	if i.AppPermissions&threadPerms != threadPerms && i.AppPermissions&discordgo.PermissionAdministrator == 0 {
		return false
	}
	if ch, err := b.s.State.Channel(i.ChannelID); err == nil && ch.IsThread() {
		return false
	}
	if _, t := b.home(i.ChannelID); t != nil {
		return false // pressed in an older game's thread
	}
	set, err := b.db.Settings(i.GuildID)
	if err != nil {
		b.log.Warn("read server settings", "guild", i.GuildID, "err", err)
		return false
	}
	return !set.NoThreads
}

// where is the channel the game's messages go to.
func (p *pub) where() string {
	if p.posts.Thread != "" {
		return p.posts.Thread
	}
	return p.rec.Channel
}

// postsIn is the channel a game's messages are in, for callers outside an
// output job.
func postsIn(rec *store.Game, posts *store.Posts) string {
	if posts != nil && posts.Thread != "" {
		return posts.Thread
	}
	return rec.Channel
}

// moveToThread starts the game's thread from its lobby message the first
// time its output runs after the start. A refusal (no permission, a
// channel that cannot hold threads) leaves the game in the channel.
func (p *pub) moveToThread() {
	b, rec := p.b, p.rec
	if !rec.Threaded || rec.Status != store.Playing || p.posts.Thread != "" || p.posts.NoThread {
		return
	}
	lobby := p.posts.Table
	if lobby == "" || b.dies("thread") {
		if lobby == "" {
			p.note(func(ps *store.Posts) { ps.NoThread = true })
		}
		return
	}
	thread := ""
	err := b.retry(func() error {
		ch, err := b.s.MessageThreadStartComplex(rec.Channel, lobby, &discordgo.ThreadStart{
			Name: threadName(b, rec), AutoArchiveDuration: threadArchive,
		})
		if err == nil {
			thread = ch.ID
		}
		return err
	})
	switch {
	case err == nil:
	case restCode(err) == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		thread = lobby // started before a restart: a message's thread has its id
	case unknownChannel(err):
		b.vanished(rec.Channel) // deleted while the bot was away: a post there would be a second 404
		return
	default:
		if messageGone(err) {
			b.dead.take(lobby) // deleted by someone: its removal would be a second 404
		}
		b.log.Info("game stays in the channel: no thread", "game", rec.ID, "err", err)
		p.note(func(ps *store.Posts) { ps.NoThread = true })
		return
	}
	t := store.Thread{Channel: rec.Channel, Game: rec.ID, Guild: rec.Guild}
	moved := func(ps *store.Posts) { ps.Thread, ps.Table, ps.Drawn = thread, "", 0 }
	if err := b.db.MoveToThread(thread, t, moved); err != nil {
		b.log.Warn("record thread", "game", rec.ID, "err", err)
		return
	}
	b.threads.Store(thread, &t)
	moved(p.posts)
	if err := b.retry(func() error {
		_, err := b.s.ChannelMessageEditComplex(startedMsg(b, rec, thread).edit(rec.Channel, lobby))
		return err
	}); err != nil {
		b.log.Warn("mark lobby started", "game", rec.ID, "err", err)
	}
}

// threadName is "Card Duel · Ann, Bea", within Discord's 100 characters.
func threadName(b *Bot, rec *store.Game) string {
	r, _ := b.rules(rec.Kind)
	var names []string
	for _, s := range rec.Seats {
		names = append(names, plainText(s.Name)) // a thread's name is shown as is
	}
	return clip(r.Name+" · "+strings.Join(names, ", "), 100)
}

// startedMsg is what the lobby message says once the game has moved to
// its thread (empty thread: the answer to Start, before it exists).
func startedMsg(b *Bot, rec *store.Game, thread string) msg {
	r, _ := b.rules(rec.Kind)
	var names []string
	for _, s := range rec.Seats {
		names = append(names, s.Name)
	}
	where := "in its thread"
	if thread != "" {
		where = "in <#" + thread + ">"
	}
	return textMsg("▶️ **%s** has started with %s. The game goes on %s; the result will be posted here.",
		r.Name, strings.Join(names, ", "), where)
}

// announce tells the channel how a game in a thread ended, once.
func (p *pub) announce() {
	b, rec := p.b, p.rec
	if p.posts.Thread == "" || p.posts.Result != "" || p.open || rec.Status != store.Playing {
		return
	}
	m, ok := p.render()
	if !ok || b.dies("result") {
		return
	}
	r, _ := b.rules(rec.Kind)
	if p.out.Closed != "" {
		m = textMsg("⏹️ The game of %s in <#%s> is over: %s", r.Name, p.posts.Thread, p.out.Closed)
	} else {
		m.content = fmt.Sprintf("🏁 The game of %s in <#%s> is over.", r.Name, p.posts.Thread)
	}
	// One result per game: its nonce is the game's, so a job replayed after
	// a kill (which may create its messages in another order) posts it once.
	posted, err := b.send(p.ctx, rec.Channel, m.send(), "r"+rec.ID)
	if err != nil {
		b.log.Warn("post result in channel", "game", rec.ID, "err", err)
		return
	}
	// Recorded at once (keep), not with the job's end: a kill before that
	// end and a restart after Discord forgot the nonce would post it again.
	p.keep(func(ps *store.Posts) { ps.Result = posted })
}

// restCode is the JSON error code of a Discord REST error, or 0.
func restCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

// cmdSettings changes a server's settings (Manage Channel or Administrator).
func (b *Bot) cmdSettings(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) reply {
	set, err := b.db.Settings(i.GuildID)
	if err != nil {
		return b.oops(err)
	}
	if len(opts) > 0 && !canManage(i) {
		return tell("Only someone with Manage Channel can change the server's settings.")
	}
	for _, o := range opts {
		if o.Name == "threads" && o.Type == discordgo.ApplicationCommandOptionBoolean {
			set.NoThreads = !o.BoolValue()
		}
	}
	if len(opts) > 0 {
		if err := b.db.SetSettings(i.GuildID, set); err != nil {
			return b.oops(err)
		}
	}
	state := "on: each game moves into a thread of its own when it starts, where I may start threads"
	if set.NoThreads {
		state = "off: games are played in their channel"
	}
	if i.AppPermissions&threadPerms != threadPerms && !set.NoThreads {
		state += ". I may not start threads in this channel (I need Create Public Threads and Send Messages in Threads), so games here stay in the channel"
	}
	return tell("Threads are %s.", state)
}
