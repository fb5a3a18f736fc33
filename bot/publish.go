package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// What follows a committed change — the table, the game's messages, other
// players' hands, the ping — runs in the channel's own output lane, after
// the answer. Discord rate-limits a channel's messages, so this may wait;
// the next click in the channel must not wait behind it, or it would miss
// Discord's three seconds. The output lane alone writes message ids (the
// store's Posts), and it always draws the latest committed state, so an
// older render never overwrites a newer one.
func outLane(channel string) string { return "out:" + channel }

// output queues work in a channel's output lane.
func (b *Bot) output(channel, what string, f func()) {
	b.lanes.push(outLane(channel), func() { b.slotted(channel, what, f) })
}

// slotted runs an output job in a slot (queue.go), which requests made
// with jobCtx(channel) give up while they wait on Discord.
func (b *Bot) slotted(channel, what string, f func()) {
	h := b.outputs.take()
	b.jobs.Store(channel, h)
	defer func() {
		b.jobs.Delete(channel)
		h.done()
	}()
	b.guard(what, f)
}

// jobCtx is for the requests of the channel's output job under way: its
// output lane runs one at a time.
func (b *Bot) jobCtx(channel string) context.Context {
	ctx := context.Background()
	if h, ok := b.jobs.Load(channel); ok {
		ctx = withSlot(ctx, h.(*slot))
	}
	return ctx
}

// publisher is the follow-up of a committed change: shown is the move
// counter the answer itself drew on the table (0 if it drew no table).
// The change's hands are redrawn at once, in the channel's hand lane: a
// channel's output lane may wait on Discord's global limit (a story, a
// ping, a new table), and the players' hands, which that limit does not
// bind, are what the game goes on with.
func (b *Bot) publisher(rec *store.Game, out *store.Output, shown int) after {
	hands := b.handsAhead(rec.Channel, out)
	return func(answered bool) {
		if !answered {
			shown = 0
		}
		b.publishAs(rec.Channel, out, shown, false, hands)
	}
}

func handLane(channel string) string { return "hands:" + channel }

// handsAhead redraws the hands an output owes in the channel's hand lane,
// with a slot of its own; the returned channel closes when that is done.
// Every hand edit of a channel goes through that lane, one at a time, each
// drawing the latest state, so none lands over a newer one. A token whose
// answer may not have reached Discord yet is left alone (refreshHands), so
// this may run before the change is answered.
func (b *Bot) handsAhead(channel string, out *store.Output) <-chan struct{} {
	done := make(chan struct{})
	b.lanes.push(handLane(channel), func() {
		defer close(done)
		h := b.outputs.take()
		defer h.done()
		// A test's kill: the output lane's job marks the step (dies), so
		// its steps come in one order; this lane only stops with it.
		if b.killed.Load() {
			return
		}
		b.guard("hands", func() {
			rec, open := b.latest(channel, out.Game)
			if rec == nil || rec.Status != store.Playing {
				return
			}
			g, err := b.shownState(rec)
			if err != nil {
				b.log.Error("hands", "game", rec.ID, "err", err)
				return
			}
			ctx := withSlot(context.Background(), h)
			if open {
				b.refreshHands(ctx, rec, g, out.Hands)
			} else {
				b.refreshHands(ctx, rec, g, allSeats(rec)) // the final result, in every open hand
			}
		})
	})
	return done
}

// latest returns the stored record of game id, open or ended, and whether
// it is still open.
func (b *Bot) latest(channel, id string) (*store.Game, bool) {
	if cur, err := b.db.Game(channel); err == nil && cur != nil && cur.ID == id {
		return cur, true
	}
	if e, err := b.db.Ended(id); err == nil && e != nil && e.Final != nil {
		return e.Final, false
	}
	return nil, false
}

// publish carries out the output a committed change owes its channel.
func (b *Bot) publish(channel string, out *store.Output, shown int) {
	b.publishAs(channel, out, shown, false, nil)
}

// publishAs is publish; replay marks output owed from before a restart,
// which an earlier process may have half done. hands, if not nil, closes
// once the output's hands are redrawn (handsAhead); else they are queued
// here. Either way the output is done only after they are.
func (b *Bot) publishAs(channel string, out *store.Output, shown int, replay bool, hands <-chan struct{}) {
	rec, open := b.latest(channel, out.Game)
	posts, err := b.db.Posts(out.Game)
	if err != nil || rec == nil {
		b.log.Warn("publish", "game", out.Game, "err", err)
		b.finish(out, nil)
		return
	}
	var g games.Game
	if rec.Status == store.Playing {
		if g, err = b.shownState(rec); err != nil {
			b.log.Error("publish", "game", rec.ID, "err", err)
		}
	}
	if b.dies("begin") {
		return
	}
	p := &pub{ctx: b.jobCtx(channel), b: b, rec: rec, g: g, open: open, posts: posts, out: out, replay: replay && open && rec.Status == store.Playing,
		toldBefore: toldBy(posts, out.Key)}
	if shown > p.posts.Drawn {
		p.note(func(ps *store.Posts) { ps.Drawn = max(ps.Drawn, shown) })
	}
	if b.dies("hands") {
		return
	}
	p.moveToThread()
	if hands == nil {
		hands = b.handsAhead(channel, out)
	}
	p.run()
	p.announce()
	p.forgetDeadRefs()
	unslotted(p.ctx, func() { <-hands })
	if b.dies("done") {
		return
	}
	if p.putOff {
		b.owe(channel, out, p.record)
		return
	}
	b.finish(out, p.record)
	if p.tookStory {
		b.finishOwed(channel) // their story went out with this one
	}
}

// forgetDeadRefs drops the messages whose reactions the game no longer
// counts from the ones watched for reactions, so a long campaign's posts
// keep only its live lines. Refs without reactions are edited later and
// stay.
func (p *pub) forgetDeadRefs() {
	f, ok := p.g.(games.Forgetter)
	if !ok || !p.open {
		return
	}
	var dead []string
	for ref := range p.posts.Emoji {
		if !f.Counts(ref) {
			dead = append(dead, ref)
		}
	}
	if len(dead) == 0 {
		return
	}
	p.note(func(ps *store.Posts) {
		for _, ref := range dead {
			delete(ps.Emoji, ref)
			delete(ps.Refs, ref)
		}
	})
}

// dies is a test's way to kill the process at a step of output work: from
// the first step Config.Crash picks, the bot does nothing more, as if the
// process had been killed there. It is false in production.
func (b *Bot) dies(step string) bool {
	if b.cfg.Crash == nil {
		return false
	}
	if !b.killed.Load() && b.cfg.Crash(step) {
		b.killed.Store(true)
	}
	return b.killed.Load()
}

func (b *Bot) finish(out *store.Output, f func(*store.Posts)) {
	if err := b.db.Done(out, f); err != nil {
		b.log.Warn("finish output", "game", out.Game, "err", err)
	}
}

// pub is one output job under way.
type pub struct {
	ctx   context.Context // the output job's (withSlot)
	b     *Bot
	rec   *store.Game // the latest committed record
	g     games.Game  // its state, nil for a lobby or an unreadable one
	open  bool
	posts *store.Posts
	out   *store.Output
	// toldBefore: the output's story lines a crashed run of this job told.
	toldBefore int
	// The outputs put off whose story this job tells: how many lines each
	// has in it, and claim, which takes those of them whose story is out
	// (for the write that records it) from the ones still owed (carry).
	carried map[string]int
	claim   func(out func(key string) bool) []owedOutput
	onTold  func() // a flush: marks the outputs it tells done (storyTold)
	notes   []func(*store.Posts)
	record  func(*store.Posts)

	// replay: output owed from before a restart, of a game still playing.
	// The process that began it may have posted its table (a ping or a
	// story moves the table below) and died before recording it; a replay
	// that drew it in place instead would leave that copy, buttons and all,
	// behind. So a replay posts the table anew, with the same nonce:
	// Discord hands back the copy if there is one.
	replay bool

	// Table edits and stories put off (coalesce.go).
	flush     bool // drawing a table edit put off: draw it now
	putOff    bool // the table edit (and story) is put off (see owe)
	tookStory bool // it tells the story earlier outputs put off
}

// keep notes f and records it at once. It is for a message just created:
// a replay after a crash then edits it instead of creating it again, which
// the nonce prevents only while Discord remembers it (a few minutes).
func (p *pub) keep(f func(*store.Posts), done ...owedOutput) {
	p.note(f)
	w, outs := f, make([]*store.Output, 0, len(done))
	for _, o := range done {
		if o.record != nil {
			w = both(w, o.record)
		}
		outs = append(outs, o.out)
	}
	var err error
	unslotted(p.ctx, func() { err = p.b.db.SetPosts(p.rec.ID, p.out.Channel, w, outs...) })
	if err != nil {
		p.b.log.Warn("record message", "game", p.rec.ID, "err", err)
	}
}

// sweep deletes the messages a crashed job replaced but did not delete.
func (p *pub) sweep() {
	stale := slices.Clone(p.posts.Stale)
	if len(stale) == 0 {
		return
	}
	for _, id := range stale {
		where := p.where()
		if p.posts.Thread != "" && olderID(id, p.posts.Thread) {
			// Replaced before the game moved into its thread (whose id is
			// its starter message's): it is in the channel.
			where = p.rec.Channel
		}
		p.b.remove(p.ctx, where, id)
	}
	p.keep(func(ps *store.Posts) {
		ps.Stale = slices.DeleteFunc(ps.Stale, func(id string) bool { return slices.Contains(stale, id) })
	})
}

func (p *pub) note(f func(*store.Posts)) {
	f(p.posts)
	p.notes = append(p.notes, f)
	p.record = func(ps *store.Posts) {
		for _, f := range p.notes {
			f(ps)
		}
	}
}

// nonce makes a message the job creates idempotent: a job done again after
// a crash creates nothing twice. what names the message within the job the
// same way on every run of it, though a run again may create fewer (what
// the first run recorded it edits instead): "t" the table, "g<i>" the game
// message of event i, "s<n>" a story message (see nonceOf).
func (p *pub) nonce(what string) string { return p.nonceOf(p.out.Key, what) }

// nonceOf is nonce for a message of output key ("s<n>": the story message
// that begins with the key's n-th line).
func (p *pub) nonceOf(key, what string) string {
	if key == "" {
		return ""
	}
	return fmt.Sprintf("o%s.%s.%s", strconv.FormatUint(store.OutputSeq(key), 36), what, p.rec.ID[:4])
}

// storyTold marks done, once the story is out, the outputs whose story
// was put off and told by this job: a crash from here must not replay
// their story a second time (this job's own steps are in Posts.Told).
func (p *pub) storyTold() {
	if p.b.killed.Load() {
		return
	}
	if p.tookStory {
		p.b.finishOwed(p.rec.Channel)
		p.tookStory = false
	}
	if p.onTold != nil {
		p.onTold()
		p.onTold = nil
	}
}

// storyLine is a line of a story: the n-th (from 1) of output key's.
type storyLine struct {
	key  string
	n    int
	text string
}

// storyNonce is the nonce of the story message that tells lines.
func (p *pub) storyNonce(lines []storyLine) string {
	return p.nonceOf(lines[0].key, "s"+strconv.Itoa(lines[0].n))
}

// told records, with f, that the story message telling lines is out: the
// output the last line is of has told that many lines (Posts.Told; a replay
// of it skips them), and the outputs put off whose story is now all out
// are done in the same write. A crash between messages of a long story
// then replays only what is left of it.
func (p *pub) told(lines []storyLine, f func(*store.Posts)) {
	last := lines[len(lines)-1]
	var done []owedOutput
	if p.claim != nil {
		done = p.claim(func(key string) bool {
			n, ok := p.carried[key]
			if !ok {
				return false
			}
			for _, l := range lines {
				if l.key == key && l.n == n {
					return true
				}
			}
			return false
		})
	}
	p.keep(func(ps *store.Posts) {
		if last.key != "" {
			ps.Told = last.key + " " + strconv.Itoa(last.n)
		}
		if f != nil {
			f(ps)
		}
	}, done...)
}

// carry notes the outputs put off whose story lines this job tells; they
// are claimed from those owed in the channel, unless the job (a flush)
// holds them itself.
func (p *pub) carry(story []storyLine) {
	if p.claim == nil {
		p.claim = func(out func(string) bool) []owedOutput { return p.b.lanes.tables.claim(p.rec.Channel, out) }
	}
	p.carried = map[string]int{}
	for _, l := range story {
		p.carried[l.key] = max(p.carried[l.key], l.n)
	}
}

// storyChunk is a story message: its text and the lines it tells.
type storyChunk struct {
	text  string
	lines []storyLine
}

// storyChunks cuts a story into messages Discord takes, filled line by
// line up to its length limit (a longer line is clipped).
func storyChunks(lines []storyLine) []storyChunk {
	var out []storyChunk
	var c storyChunk
	for _, l := range lines {
		t := clip(l.text, maxContent)
		if c.text != "" && len([]rune(c.text))+1+len([]rune(t)) > maxContent {
			out = append(out, c)
			c = storyChunk{}
		}
		if c.text != "" {
			c.text += "\n"
		}
		c.text += t
		c.lines = append(c.lines, l)
	}
	if c.text != "" {
		out = append(out, c)
	}
	return out
}

// toldBy is how many story lines of output key posts records as told.
func toldBy(posts *store.Posts, key string) int {
	k, n, ok := strings.Cut(posts.Told, " ")
	if !ok || k != key || key == "" {
		return 0
	}
	told, _ := strconv.Atoi(n)
	return told
}

// olderID says whether message id a was created before b: Discord's ids
// are snowflakes, which grow with time.
func olderID(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// anew: the table is posted anew at the bottom, never edited in place or
// put off: a replay (see replay) or a repost asked for (/game table) of a
// game still open.
func (p *pub) anew() bool { return p.replay || (p.out.Repost && p.open) }

// render is the table as the latest state shows it (a lobby, a game, or
// a closed one); false when there is nothing to draw.
func (p *pub) render() (msg, bool) {
	b, rec := p.b, p.rec
	var m msg
	var err error
	switch {
	case rec.Status == store.Lobby:
		r, _ := b.rules(rec.Kind)
		m = b.lobbyMsg(rec, r)
	case p.g != nil:
		m, err = tableMsg(rec, p.g)
	default:
		return msg{}, false
	}
	if err != nil {
		b.log.Error("render table", "game", rec.ID, "err", err)
		return msg{}, false
	}
	if p.out.Closed != "" {
		m.components, m.content = nil, p.out.Closed
		if rec.Status == store.Lobby {
			r, _ := b.rules(rec.Kind)
			m = closedLobby(r, p.out.Closed)
		}
	}
	return m, true
}

// run posts the change's story and the game's own messages, and brings
// the table up to date so that it stays the last message: when the change
// has a story, the old table message becomes that story (an edit) and the
// table is posted anew below it, carrying the turn ping and its My hand
// button — no more channel messages than a story and an edit. A change
// with nothing to say edits the table in place, once.
func (p *pub) run() {
	b, rec := p.b, p.rec
	p.sweep() // what a crashed job left
	seats := p.pingSeats()
	story := b.lanes.tables.takeStory(rec.Channel) // put off by earlier moves: it comes first
	if len(story) > 0 {
		p.tookStory = true
		p.carry(story)
	}
	below := p.toldBefore > 0 // a message was created below the table
	post := func(chunks []storyChunk) {
		for _, c := range chunks {
			if b.dies("story") {
				return
			}
			below = true
			if _, err := b.send(p.ctx, p.where(), textMsg("%s", c.text).send(), p.storyNonce(c.lines)); err != nil {
				if !errors.Is(err, errBarred) && !errors.Is(err, errChannelGone) {
					b.log.Warn("post narration", "game", rec.ID, "err", err)
				}
			} else {
				p.told(c.lines, nil)
			}
		}
	}
	own := 0
	for i, e := range p.out.Events {
		if e.Ref == "" {
			if own++; own > p.toldBefore { // else a crashed run told it
				story = append(story, storyLine{p.out.Key, own, e.Text})
			}
			continue
		}
		if _, edit := p.posts.Refs[e.Ref]; !edit {
			post(storyChunks(story))
			story = nil
		}
		if p.owned(e, i) {
			below = true
		}
	}
	if b.killed.Load() {
		return
	}
	if len(story) > 0 && !below && len(seats) == 0 && p.mayWait() {
		b.lanes.tables.holdStory(rec.Channel, story)
		p.tookStory, p.putOff = false, true
		return
	}
	tail := storyChunks(story)
	m, ok := p.render()
	if !ok || (!p.open && p.out.Closed == "" && rec.Status == store.Lobby) {
		post(tail)
		return
	}
	version := rec.Version
	was := p.posts.Table
	// A game ended with stories put off tells them first, the closed table below.
	if (p.out.Closed != "" && len(tail) == 0) || b.barred(p.where()) || (len(tail) == 0 && !below && len(seats) == 0 && !p.anew()) {
		p.inPlace(m, version) // where the bot may not post, the table alone keeps up
		return
	}
	old := p.posts.Table
	for n, c := range tail {
		if b.dies("story") {
			return
		}
		if n == 0 && old != "" && !below {
			err := b.retry(func() error { return b.edit(p.ctx, textMsg("%s", c.text).edit(p.where(), old)) })
			if err == nil {
				old = "" // it is the story now, no table a replay may edit
				p.told(c.lines, func(ps *store.Posts) { ps.Table = "" })
				continue
			}
			if b.dead.has(old) {
				old = "" // someone deleted it: nothing to replace or remove
				// Recorded: a replay after a kill would remove it, a 404 again.
				p.keep(func(ps *store.Posts) { ps.Table = "" })
			}
		}
		if _, err := b.send(p.ctx, p.where(), textMsg("%s", c.text).send(), p.storyNonce(c.lines)); err != nil {
			b.log.Warn("post narration", "game", rec.ID, "err", err)
		} else {
			p.told(c.lines, nil)
		}
	}
	p.storyTold()
	if len(seats) > 0 {
		m.content, m.mentions = p.pingLine(seats), seatUsers(rec, seats)
	}
	if b.dies("table") {
		return
	}
	posted, err := b.send(p.ctx, p.where(), m.send(), p.nonce("t"))
	if err == nil && was != "" && olderID(posted, was) {
		// The nonce handed back a copy a dead process posted, and a replay
		// since has drawn below it: it would sit above the story just told.
		// It goes, and the table comes anew at the bottom.
		b.remove(p.ctx, p.where(), posted)
		posted, err = b.send(p.ctx, p.where(), m.send(), p.nonce("t2"))
	}
	if err != nil {
		b.log.Warn("post table", "game", rec.ID, "err", err)
		if storied := p.posts.Table == "" && was != "" && !b.dead.has(was); storied {
			// The old table tells the story now, and no table came below
			// it: it stays the table, drawn in place (over the story)
			// until the bot may post again.
			p.keep(func(ps *store.Posts) { ps.Table = was })
		}
		return
	}
	b.lanes.tables.drawn(rec.Channel)
	var stale []string
	for _, gone := range []string{old, p.posts.Ping} {
		if gone != "" && gone != posted {
			stale = append(stale, gone)
		}
	}
	p.keep(func(ps *store.Posts) {
		ps.Table, ps.Drawn, ps.Ping = posted, max(ps.Drawn, version), ""
		for _, id := range stale {
			if !slices.Contains(ps.Stale, id) {
				ps.Stale = append(ps.Stale, id)
			}
		}
	})
	p.sweep()
}

// inPlace edits the table message to m, unless it already shows this
// state; a deleted table is posted anew.
func (p *pub) inPlace(m msg, version int) {
	b, rec := p.b, p.rec
	if p.out.Closed == "" && p.posts.Drawn >= version && p.posts.Table != "" {
		return
	}
	if p.mayWait() {
		p.putOff = true
		return
	}
	if b.dies("table") {
		return
	}
	b.lanes.tables.drawn(rec.Channel)
	if p.posts.Table != "" && !b.dead.has(p.posts.Table) {
		err := b.retry(func() error { return b.edit(p.ctx, m.edit(p.where(), p.posts.Table)) })
		if err == nil {
			p.note(func(ps *store.Posts) { ps.Drawn = max(ps.Drawn, version) })
			return
		}
		if !isUnknownMessage(err) {
			if !errors.Is(err, errBarred) {
				b.log.Warn("edit table", "game", rec.ID, "err", err)
			}
			return
		}
		// Someone deleted it (edit noted it dead): post it anew below.
	}
	posted, err := b.send(p.ctx, p.where(), m.send(), p.nonce("t"))
	if err != nil {
		b.log.Warn("post table", "game", rec.ID, "err", err)
		return
	}
	p.keep(func(ps *store.Posts) { ps.Table, ps.Drawn = posted, max(ps.Drawn, version) })
}

// owned posts a game message the first time its ref is seen, and edits it
// afterwards; it reports whether it created one.
func (p *pub) owned(e games.Event, i int) bool {
	b, rec := p.b, p.rec
	if b.dies("owned") {
		return false
	}
	m := textMsg("%s", e.Text)
	if len(e.Buttons) > 0 {
		comps, err := layout("act", rec.ID, 0, games.View{Buttons: e.Buttons})
		if err != nil {
			b.log.Error("render game message", "game", rec.ID, "err", err)
		} else {
			m.components = comps
		}
	}
	if id, ok := p.posts.Refs[e.Ref]; ok {
		if b.dead.has(id) {
			return false // deleted by someone: never asked about again
		}
		if err := b.retry(func() error { return b.edit(p.ctx, m.edit(p.where(), id)) }); err != nil {
			b.log.Warn("edit game message", "game", rec.ID, "ref", e.Ref, "err", err)
		}
		return false
	}
	posted, err := b.send(p.ctx, p.where(), m.send(), p.nonce("g"+strconv.Itoa(i)))
	if err != nil {
		b.log.Warn("post game message", "game", rec.ID, "ref", e.Ref, "err", err)
		return false
	}
	ref, emoji := e.Ref, e.Emoji
	p.keep(func(ps *store.Posts) {
		if ps.Refs == nil {
			ps.Refs = map[string]string{}
		}
		ps.Refs[ref] = posted
		if len(emoji) > 0 {
			if ps.Emoji == nil {
				ps.Emoji = map[string][]string{}
			}
			ps.Emoji[ref] = emoji
		}
	})
	return true
}

// pingSeats are the seats this change made to act and that still wait
// for that turn: a later change may have played it already, or begun
// another.
func (p *pub) pingSeats() []int {
	if !p.open || p.rec.Status != store.Playing {
		return nil
	}
	rec := p.rec
	return slices.DeleteFunc(slices.Clone(p.out.Ping), func(s int) bool {
		return s >= len(rec.Seats) || !slices.Contains(rec.Waiting, s) || rec.Seats[s].WaitingSince != p.out.Version
	})
}

// pingLine mentions the seats whose move it is.
func (p *pub) pingLine(seats []int) string {
	var mentions []string
	for _, s := range seats {
		mentions = append(mentions, "<@"+p.rec.Seats[s].User+">")
	}
	rules, _ := p.b.rules(p.rec.Kind)
	line := fmt.Sprintf("%s — your move in %s", strings.Join(mentions, " "), rules.Name)
	if !strings.HasSuffix(line, "…") && !strings.HasSuffix(line, "!") {
		line += "." // "Dealt!." and "but…." read as typos
	}
	if due := remindedDue(p.rec, seats); due > 0 {
		line += fmt.Sprintf(" If you don't move, the bot will <t:%d:R>.", due/1000)
	}
	return line
}

// remindedDue is when the bot moves for the first of seats already
// reminded of their turn (Unix ms), or 0: a reminder says what comes next.
func remindedDue(rec *store.Game, seats []int) int64 {
	var due int64
	for _, s := range seats {
		if act, reminded := actDue(rec, s); reminded && act > 0 && (due == 0 || act < due) {
			due = act
		}
	}
	return due
}

func seatUsers(rec *store.Game, seats []int) []string {
	var ids []string
	for _, s := range seats {
		ids = append(ids, rec.Seats[s].User)
	}
	return ids
}

// send creates a channel message with a nonce Discord enforces, so a
// create repeated after a crash or a lost response returns the first
// message instead of posting a second. discordgo's MessageSend has no
// nonce fields, so the request is made here. It returns the message's id.
func (b *Bot) send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (string, error) {
	if b.barred(channel) {
		return "", errBarred
	}
	if b.dead.has(channel) {
		return "", errChannelGone
	}
	body := struct {
		*discordgo.MessageSend
		Nonce        string `json:"nonce,omitempty"`
		EnforceNonce bool   `json:"enforce_nonce,omitempty"`
	}{m, nonce, nonce != ""}
	endpoint := discordgo.EndpointChannelMessages(channel)
	var err error
	// With a nonce a retry creates nothing twice, so it is worth more
	// tries than an edit: a create given up on after its response was lost
	// may have happened, and the next output would post the message again.
	for attempt := 0; attempt < 5; attempt++ {
		var raw []byte
		raw, err = b.s.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
		if err == nil {
			// Only the id is read: a table's components, decoded, cost
			// more than the request.
			var out struct {
				ID string `json:"id"`
			}
			if err = json.Unmarshal(raw, &out); err == nil {
				return out.ID, nil
			}
		}
		if forbidden(err) {
			b.bars.take(channel)
			b.markThread(&b.bars, channel)
		}
		if unknownChannel(err) {
			b.vanished(channel) // deleted while the bot was away: no event said so
		}
		if nonce == "" || !retryable(err) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return "", err
}

// errChannelGone: the channel answered 404 Unknown Channel lately.
var errChannelGone = errors.New("the channel was deleted (Discord answered 404 Unknown Channel)")

// vanished closes the game of a channel that answered 404 Unknown Channel,
// and, before that is done on the game's lane, stops every other post or
// edit already on its way there: each would be one more 404.
func (b *Bot) vanished(channel string) {
	b.dead.take(channel)
	b.gone(channel)
}

// errBarred: the bot may not post in the channel, as Discord said lately.
var errBarred = errors.New("not allowed to post in this channel (Discord answered 403 lately)")

// barLife is how long a channel that answered a post with 403 is left
// alone, unless an interaction there shows the bot may post again: each
// 403 counts toward Discord's ban on invalid requests.
const barLife = 10 * time.Minute

// barred tells whether posting in channel answered 403 within barLife.
func (b *Bot) barred(channel string) bool {
	return b.bars.fresh(channel, barLife)
}

// unknownChannel is Discord's 404 Unknown Channel: it was deleted.
func unknownChannel(err error) bool {
	var rest *discordgo.RESTError
	return isUnknownMessage(err) && errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeUnknownChannel
}

// forbidden is Discord's 403: no permission to do that here.
func forbidden(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusForbidden
}

// edit changes a channel message. The edited message Discord sends back
// is never used, so it is not decoded (ChannelMessageEditComplex would).
func (b *Bot) edit(ctx context.Context, e *discordgo.MessageEdit) error {
	if b.dead.has(e.Channel) {
		return errChannelGone
	}
	if b.bars.fresh(editBar(e.Channel), barLife) {
		return errBarred
	}
	if e.Embeds != nil {
		for _, em := range *e.Embeds {
			if em.Type == "" {
				em.Type = discordgo.EmbedTypeRich
			}
		}
	}
	patch := func() error {
		_, err := b.s.RequestWithBucketID(http.MethodPatch, discordgo.EndpointChannelMessage(e.Channel, e.ID), e, discordgo.EndpointChannelMessage(e.Channel, ""), discordgo.WithContext(ctx))
		return err
	}
	err := patch()
	if archivedThread(err) && b.unarchive(ctx, e.Channel) {
		err = patch()
	}
	if unknownChannel(err) {
		b.vanished(e.Channel)
	}
	if messageGone(err) {
		b.dead.take(e.ID) // someone deleted it: never asked about again
	}
	if c := restCode(err); forbidden(err) && (c == discordgo.ErrCodeMissingAccess || c == discordgo.ErrCodeMissingPermissions) {
		// The channel was locked (View Channel taken): every edit there
		// would be one more 403 until an interaction shows access back.
		b.bars.take(editBar(e.Channel))
		b.bars.take(e.Channel)
		b.markThread(&b.bars, e.Channel)
	}
	return err
}

// editBar is the key in bars of a channel where even an edit answered 403.
func editBar(channel string) string { return "edit:" + channel }

// archivedThread is Discord's refusal to change anything in an archived
// thread: a game's thread archives itself after a week without a message
// (an Improv campaign between sessions), and a restart forgets that it did.
func archivedThread(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodePerformedOperationOnArchivedThread
}

// unarchive reopens an archived thread of the bot's, so its table can be
// edited again; it tells whether that worked.
func (b *Bot) unarchive(ctx context.Context, thread string) bool {
	no := false
	_, err := b.s.ChannelEdit(thread, &discordgo.ChannelEdit{Archived: &no}, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("unarchive thread", "thread", thread, "err", err)
	}
	if forbidden(err) {
		// Posting was taken away (or the thread locked): every edit would
		// ask again, one more 403 each, until an interaction shows it back.
		b.bars.take(editBar(thread))
		b.bars.take(thread)
		b.markThread(&b.bars, thread)
	}
	return err == nil
}

// retry repeats an idempotent request (an edit) that met Discord's own
// trouble or the network's, a few times; a refusal or a 404 is final.
func (b *Bot) retry(f func() error) error { return retrying(3, 50*time.Millisecond, f) }

// retrying calls f up to tries times while it fails retryably, waiting
// wait after the first failure and twice as long after each next one.
func retrying(tries int, wait time.Duration, f func() error) error {
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil || !retryable(err) || attempt == tries {
			return err
		}
		time.Sleep(wait)
		wait *= 2
	}
}

// remove deletes a message the bot no longer wants (an old table), trying
// again on a 5xx or a lost response: a table left behind keeps buttons. A
// 404 means it is gone already.
func (b *Bot) remove(ctx context.Context, channel, id string) {
	if b.dead.has(channel) || b.dead.has(id) {
		return // gone with its channel, or deleted by someone already
	}
	unslotted(ctx, func() { b.clicked.answered(ctx, id) })
	err := b.retry(func() error { return b.s.ChannelMessageDelete(channel, id, discordgo.WithContext(ctx)) })
	if err != nil && !isUnknownMessage(err) {
		b.log.Warn("delete message", "message", id, "err", err)
	}
}

func isUnknownMessage(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound
}

// replayOutput carries out, after a restart, the output that changes
// committed before the stop still owed.
func (b *Bot) replayOutput() error {
	owed, err := b.db.Pending()
	if err != nil {
		return err
	}
	for _, out := range owed {
		b.output(out.Channel, "replay output", func() { b.publishAs(out.Channel, out, 0, true, nil) })
	}
	return nil
}

// rememberHand keeps the token of the interaction that showed a player their
// hand, so later changes can refresh that message in place.
func (b *Bot) rememberHand(rec *store.Game, seat int, i *discordgo.Interaction) {
	rec.Seats[seat].HandToken = i.Token
	rec.Seats[seat].HandAt = b.now().UTC()
}

// keepHand saves the hand token outside a move.
func (b *Bot) keepHand(rec *store.Game, seat int, i *discordgo.Interaction) {
	b.rememberHand(rec, seat, i)
	if err := b.db.Save(rec); err != nil {
		b.log.Warn("save hand token", "game", rec.ID, "err", err)
	}
}

// forgetHand drops a hand token whose answer Discord did not take: its
// webhook does not exist, and using it would only earn 404s. Runs in the
// channel's move lane, the record's only writer.
func (b *Bot) forgetHand(h *heldHand) {
	rec, err := b.db.Game(h.channel)
	if err != nil || rec == nil || rec.ID != h.game || h.seat >= len(rec.Seats) || rec.Seats[h.seat].HandToken != h.token {
		return
	}
	rec.Seats[h.seat].HandToken = ""
	if err := b.db.Save(rec); err != nil {
		b.log.Warn("forget hand token", "game", rec.ID, "err", err)
	}
}

// refreshHands redraws the given seats' open hands while their interaction
// tokens are good, so no one is left holding out-of-date buttons.
func (b *Bot) refreshHands(ctx context.Context, rec *store.Game, g games.Game, seats []int) {
	app := b.applicationID()
	for _, seat := range seats {
		if seat >= len(rec.Seats) {
			continue
		}
		s := rec.Seats[seat]
		if s.HandToken == "" || b.now().Sub(s.HandAt) > handTokenLife {
			continue
		}
		if b.dead.has(s.HandToken) {
			continue // answered 404 once: Discord counts repeats against the bot
		}
		if !b.answered.has(s.HandToken) && b.unsure(s.HandAt) {
			continue // its answer may never have reached Discord: @original would not exist
		}
		if b.viewMoved(rec, seat) != nil {
			continue // the change that moved it on draws it (the answer, or its own output)
		}
		drawn, dg := rec, g
		for range 3 {
			m, err := b.handMsg(drawn, dg, seat, "")
			if err != nil {
				b.log.Error("render hand", "err", err)
				break
			}
			var moved bool
			err = b.retry(func() error {
				// Checked again on every try: the change that moved the
				// view on meanwhile draws it.
				if moved = b.viewMoved(drawn, seat) != nil; moved {
					return nil
				}
				return b.editOriginal(ctx, app, s.HandToken, m.webhookEdit())
			})
			if moved {
				break
			}
			if err != nil {
				if isUnknownMessage(err) {
					b.dead.take(s.HandToken)
				}
				b.log.Debug("refresh hand", "game", rec.ID, "seat", seat, "err", err)
				break
			}
			// The answer to the seat's own next move, made from this hand,
			// writes the same message: if it was sent before this edit
			// came back, Discord may have applied the two in either order,
			// and this edit may have put an older view over it. (A view
			// moved on by someone else's move is redrawn by that move's
			// output.)
			done := time.Now()
			if drawn = b.viewMoved(drawn, seat); drawn == nil || drawn.Seats[seat].HandToken == s.HandToken {
				break
			}
			if at, ok := b.answering.when(drawn.Seats[seat].HandToken); !ok || at.After(done) {
				break
			}
			if dg, err = b.shownState(drawn); err != nil {
				break
			}
		}
	}
}

// unsure says whether a hand token kept at `at` may be of an interaction
// Discord never saw answered: its answer may still be on its way in this
// process, or the process that kept it was killed between the commit and
// the answer (a token kept within an answer's time of its last write).
func (b *Bot) unsure(at time.Time) bool {
	if at.After(b.startedAt) {
		return b.now().Sub(at) < answerWindow+time.Second
	}
	for _, died := range b.db.Crashes() {
		// The file's time comes from a coarse kernel clock, a few ms behind.
		if at.Before(died.Add(time.Second)) && at.After(died.Add(-(answerWindow + time.Second))) {
			return true
		}
	}
	return false
}

// viewMoved returns the channel's record if seat's view has moved on
// since rec, else nil.
func (b *Bot) viewMoved(rec *store.Game, seat int) *store.Game {
	cur, err := b.db.GameIf(rec.Channel, func(cur *store.Game) bool {
		return cur.ID == rec.ID && cur.Status == store.Playing && seat < len(cur.Seats) &&
			cur.Seats[seat].ViewVersion > rec.Seats[seat].ViewVersion
	})
	if err != nil {
		return nil
	}
	return cur
}

func allSeats(rec *store.Game) []int {
	out := make([]int, len(rec.Seats))
	for i := range out {
		out[i] = i
	}
	return out
}

// tokens is a set of interaction tokens (or message ids) with when they
// were added: those whose answers Discord accepted in this process, so a
// hand is never edited through a token whose answer is still on its way
// (older tokens, from before a restart, were answered: a failed answer's
// token is never kept, and after a kill see unsure); and those that
// answered 404, never tried again.
//
// A token is kept as a 64-bit hash and its time as an offset from the
// process's start: a minute of tokens at thousands of moves a second is
// hundreds of thousands of them, and as strings (a real token is about 200
// bytes) the set and the collector's work on it dominated the heap. A false
// match needs a hash collision, about one in 10^9 for a full set.
type tokens struct {
	mu    sync.Mutex
	seed  maphash.Seed
	at    map[uint64]time.Duration // since epoch
	prune int                      // size at which to next forget expired tokens
	life  time.Duration            // how long a token is kept (0: an interaction token's 15 minutes)
}

// epoch is the process's start: times kept as offsets from it keep the
// monotonic clock.
var epoch = time.Now()

// recentLife is how long the answered and answering sets keep a token:
// they are asked only of tokens within an answer's time (unsure).
const recentLife = time.Minute

func (t *tokens) key(token string) uint64 {
	if t.at == nil {
		t.seed, t.at, t.prune = maphash.MakeSeed(), map[uint64]time.Duration{}, 4096
	}
	return maphash.String(t.seed, token)
}

func (t *tokens) take(token string) { t.put(token, time.Since(epoch)) }

// hold adds token with a time to come: when its bucket refills.
func (t *tokens) hold(token string, until time.Time) { t.put(token, until.Sub(epoch)) }

func (t *tokens) put(token string, at time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Since(epoch)
	t.at[t.key(token)] = at
	if len(t.at) >= t.prune {
		// Forget what interaction tokens' own lifetime forgets; then wait
		// for the set to double, so the sweep costs O(1) per token.
		life := t.life
		if life == 0 {
			life = 15 * time.Minute
		}
		for k, v := range t.at {
			if now-v > life {
				delete(t.at, k)
			}
		}
		t.prune = max(4096, 2*len(t.at))
	}
}

// forget drops tokens from the set.
func (t *tokens) forget(tokens ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.at) == 0 {
		return
	}
	for _, token := range tokens {
		delete(t.at, t.key(token))
	}
}

// when returns when token was added.
func (t *tokens) when(token string) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at, ok := t.at[t.key(token)]
	return epoch.Add(at), ok
}

// fresh tells whether token was taken less than d ago.
func (t *tokens) fresh(token string, d time.Duration) bool {
	at, ok := t.when(token)
	return ok && time.Since(at) < d
}

func (t *tokens) has(token string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.at[t.key(token)]
	return ok
}
