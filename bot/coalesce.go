package bot

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// Discord lets a channel edit its messages about five times in five
// seconds, and every edit or post counts against the bot's global limit.
// When moves come faster than Config.TableEvery, a move's table edit, and
// its story if it has one, are put off to the end of the interval: then
// the stories of all the moves in between go out as one message and the
// latest committed state is drawn once. A move that pings someone, posts
// a game message or closes the game is never put off; it tells the stories
// put off before its own, so nothing is reordered. The outputs put off
// stay owed in the store until their story and table are out, so a crash
// meanwhile replays them.

// tableClocks is, per channel, when its table was last drawn and the
// outputs waiting for a put-off edit. A channel's entry is only used from
// its output lane; the map is shared.
//
// It also keeps the process's budget of requests against Discord's global
// limit: rate a second with a burst of a ninth of that (a GCRA: tat is
// when the budget is next whole), so no second holds more than rate +
// burst requests: 47 at the default. Every such request waits for its turn
// (metered, on the HTTP client): a post or a delete goes out late rather
// than earn a 429, which Discord counts toward its ban on invalid requests.
// A table draw, which can wait and fold in the moves after it, takes what
// the posts leave: it is put off while the budget has no room (due), and a
// flush waits for room (spare) rather than queue among the posts, whose
// lobbies, pings and new tables are what players wait for.
type tableClocks struct {
	mu    sync.Mutex
	ch    map[string]*tableClock
	rate  float64 // requests a second; 0: no limit
	tat   time.Time
	clock func() time.Time // nil: time.Now
	// sent: when the requests of the last second went, oldest first.
	sent []time.Time
	// sleep waits d or until ctx ends (nil: a timer); tests move a clock.
	sleep func(ctx context.Context, d time.Duration) error
	// until: a global 429 stops every request bound by the limit till then.
	until time.Time
}

func (t *tableClocks) now() time.Time {
	if t.clock != nil {
		return t.clock()
	}
	return time.Now()
}

type tableClock struct {
	last  time.Time
	owed  []owedOutput
	story []storyLine // story lines put off, in order
	armed bool        // a flush is queued (lanes.after)
}

type owedOutput struct {
	out    *store.Output
	record func(*store.Posts)
}

func (t *tableClocks) get(channel string) *tableClock {
	if t.ch == nil {
		t.ch = map[string]*tableClock{}
	}
	c := t.ch[channel]
	if c == nil {
		c = &tableClock{}
		t.ch[channel] = c
	}
	return c
}

// due reports whether a table may be edited now.
func (t *tableClocks) due(channel string, every time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	return (every <= 0 || now.Sub(t.get(channel).last) >= every) && (t.rate <= 0 || !t.roomAtLocked().After(now))
}

// drawn notes that the channel's table was edited or posted now.
func (t *tableClocks) drawn(channel string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.get(channel).last = t.now()
}

// wait spends one request of the budget, waiting for its turn, then for
// room among the requests sent in the last second (a request may go later
// than its turn, beside the turns of that moment), or until ctx ends (a
// turn is then lost, which errs on the side of Discord).
func (t *tableClocks) wait(ctx context.Context) error {
	if err := t.pause(ctx, t.heldFor()); err != nil {
		return err
	}
	if t.rate <= 0 {
		return nil
	}
	t.mu.Lock()
	now := t.now()
	d := t.spendLocked(now).Sub(now)
	t.mu.Unlock()
	if err := t.pause(ctx, d); err != nil {
		return err
	}
	for {
		d := t.room()
		if d <= 0 {
			return nil
		}
		if err := t.pause(ctx, d); err != nil {
			return err
		}
	}
}

// hold stops every request against the global limit for d:
// Discord's global 429 carries no route headers, so discordgo's own lock
// never learns of it and the other channels' requests would each draw a
// 429 of their own.
func (t *tableClocks) hold(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.until = later(t.until, t.now().Add(d))
}

// heldFor is how long a global 429 still stops requests.
func (t *tableClocks) heldFor() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.until.Sub(t.now())
}

// spare waits until the budget has room that no request has taken: what
// a table draw goes out on, after every post queued before it.
func (t *tableClocks) spare(ctx context.Context) error {
	for {
		t.mu.Lock()
		d := time.Duration(0)
		if t.rate > 0 {
			now := t.now()
			d = t.roomAtLocked().Sub(now)
		}
		t.mu.Unlock()
		if d <= 0 {
			return nil
		}
		if err := t.pause(ctx, d); err != nil {
			return err
		}
	}
}

// room notes a request sent now if the last second has room for it (rate
// + burst requests); else it returns how long until it has.
func (t *tableClocks) room() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	old := 0
	for old < len(t.sent) && !now.Before(t.sent[old].Add(time.Second)) {
		old++
	}
	t.sent = t.sent[old:]
	if most := int(t.rate + globalBurst(t.rate)); len(t.sent) >= most {
		return t.sent[0].Add(time.Second).Sub(now)
	}
	t.sent = append(t.sent, now)
	return 0
}

// pause waits d or until ctx ends.
func (t *tableClocks) pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if t.sleep != nil {
		return t.sleep(ctx, d)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (t *tableClocks) perLocked() time.Duration {
	return time.Duration(float64(time.Second) / t.rate)
}

// globalBurst is how many requests of the budget may go at once: with
// rate a second after them, a second holds at most rate + burst.
func globalBurst(rate float64) float64 { return max(1, rate/9) }

// burstLocked is how far ahead of now the budget may be spent.
func (t *tableClocks) burstLocked() time.Duration {
	return time.Duration(float64(time.Second) * (globalBurst(t.rate) - 1) / t.rate)
}

// roomAtLocked is when the budget next has room for a request no one has
// taken yet.
func (t *tableClocks) roomAtLocked() time.Time { return t.tat.Add(-t.burstLocked()) }

// spendLocked counts one draw at now and returns when it may happen.
func (t *tableClocks) spendLocked(now time.Time) time.Time {
	if t.rate <= 0 {
		return now
	}
	at := now
	if early := t.roomAtLocked(); early.After(at) {
		at = early
	}
	t.tat = later(t.tat, now).Add(t.perLocked())
	return at
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// take returns the outputs waiting for the channel's flush.
func (t *tableClocks) take(channel string) []owedOutput {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.get(channel)
	owed := c.owed
	c.owed, c.armed = nil, false
	if len(c.story) == 0 && (c.last.IsZero() || t.now().Sub(c.last) > time.Minute) {
		delete(t.ch, channel) // a quiet channel costs nothing
	}
	return owed
}

// takeStory returns the story lines put off in the channel.
func (t *tableClocks) takeStory(channel string) []storyLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.ch[channel]
	if c == nil {
		return nil
	}
	story := c.story
	c.story = nil
	return story
}

// holdStory puts story lines off (all of them: the caller took the older).
func (t *tableClocks) holdStory(channel string, story []storyLine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.get(channel).story = story
}

// claim takes from the outputs owed in the channel those out picks (their
// story was told), leaving its flush queued for the rest.
func (t *tableClocks) claim(channel string, out func(key string) bool) []owedOutput {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.ch[channel]
	if c == nil {
		return nil
	}
	var got []owedOutput
	c.owed = slices.DeleteFunc(c.owed, func(o owedOutput) bool {
		if out(o.out.Key) {
			got = append(got, o)
			return true
		}
		return false
	})
	return got
}

// mayWait says whether this output's table (and story) may wait for the
// channel's flush: an ordinary move in a running game, with the table
// drawn less than TableEvery ago. A table drawn anew never waits; for a
// replay that matters: a flush takes its nonces from its last output, and
// the dead process may have flushed this one last, posting a table it never
// recorded; only this output's own nonce finds that copy again.
func (p *pub) mayWait() bool {
	return p.out.Closed == "" && p.open && p.rec.Status == store.Playing && p.posts.Table != "" && !p.flush && !p.anew() &&
		!p.b.lanes.tables.due(p.rec.Channel, p.b.tableEvery())
}

func (b *Bot) tableEvery() time.Duration {
	if b.cfg.TableEvery == 0 {
		return DefaultTableEvery
	}
	return b.cfg.TableEvery
}

// globalRate is Config.GlobalRate resolved: 0 is no limit. Shards share
// the token's global limit: each keeps its share's burst (globalBurst)
// and rate within it, so that together no second holds more than it.
func (c Config) globalRate() float64 {
	switch {
	case c.GlobalRate < 0 || c.TableEvery < 0:
		return 0
	case c.GlobalRate > 0:
		return c.GlobalRate
	}
	limit := float64(c.GlobalLimit)
	if limit <= 0 {
		limit = DefaultGlobalLimit
	}
	// A margin for requests that reach Discord out of step with their turns.
	share := globalMargin * limit / float64(max(c.ShardCount, 1))
	return max(share/2, share-max(1, share/10))
}

// globalMargin is the part of Discord's global limit the budget spends.
const globalMargin = 0.95

// owe keeps an output whose table edit was put off until the channel's
// flush, which it queues if none is.
func (b *Bot) owe(channel string, out *store.Output, record func(*store.Posts)) {
	t := &b.lanes.tables
	t.mu.Lock()
	c := t.get(channel)
	c.owed = append(c.owed, owedOutput{out, record})
	arm := !c.armed
	c.armed = true
	now := t.now()
	wait := b.tableEvery() - now.Sub(c.last)
	if arm && t.rate > 0 {
		wait = max(wait, t.roomAtLocked().Sub(now))
	}
	t.mu.Unlock()
	if arm {
		b.lanes.after(outLane(channel), wait, func() { b.slotted(channel, "flush table", func() { b.flushTable(channel) }) })
	}
}

// flushTable tells the stories put off and draws the latest state on the
// table, unless a later output already did, and marks the outputs that
// waited for it done.
func (b *Bot) flushTable(channel string) {
	// The budget's room first: the posts queued meanwhile go before it.
	ctx := b.jobCtx(channel)
	unslotted(ctx, func() { b.lanes.tables.spare(ctx) })
	owed := b.lanes.tables.take(channel)
	if len(owed) == 0 {
		return
	}
	last := owed[len(owed)-1].out
	var drew func(*store.Posts)
	rec, open := b.latest(channel, last.Game)
	posts, err := b.db.Posts(last.Game)
	if err != nil || rec == nil {
		b.log.Warn("flush table", "game", last.Game, "err", err)
	} else {
		var g games.Game
		if rec.Status == store.Playing {
			if g, err = b.shownState(rec); err != nil {
				b.log.Error("flush table", "game", rec.ID, "err", err)
			}
		}
		// Only the stories and the table are left: the outputs' game
		// messages and hands went out with them. The last one's key makes
		// the nonces; it created no message itself.
		out := &store.Output{Game: last.Game, Channel: last.Channel, Version: last.Version, Key: last.Key}
		p := &pub{ctx: b.jobCtx(channel), b: b, rec: rec, g: g, open: open, posts: posts, out: out, flush: true}
		// The last output stays owed until the table is drawn.
		p.claim = func(pick func(string) bool) []owedOutput {
			var got []owedOutput
			owed = slices.DeleteFunc(owed, func(o owedOutput) bool {
				if o.out != last && pick(o.out.Key) {
					got = append(got, o)
					return true
				}
				return false
			})
			return got
		}
		p.onTold = func() {
			for _, o := range owed[:len(owed)-1] {
				b.finish(o.out, o.record)
			}
			owed = owed[len(owed)-1:]
		}
		p.run()
		drew = p.record
	}
	if b.dies("done") {
		return
	}
	for n, o := range owed {
		f := o.record
		if n == len(owed)-1 && drew != nil {
			f = both(f, drew)
		}
		b.finish(o.out, f)
	}
}

// finishOwed marks done the outputs put off in the channel, whose story
// and table a later output has just told and drawn.
func (b *Bot) finishOwed(channel string) {
	for _, o := range b.lanes.tables.take(channel) {
		b.finish(o.out, o.record)
	}
}

func both(f, g func(*store.Posts)) func(*store.Posts) {
	if f == nil {
		return g
	}
	return func(p *store.Posts) { f(p); g(p) }
}

// states keeps, per channel, the game state the move lane last committed,
// decoded, with every seat's view of it: the output lane draws from them,
// and the next move starts from a clone, so neither decodes the state nor
// draws a hand again. It is only read: views never change a state
// (TestViewsDoNotChangeState).
type states struct {
	mu sync.Mutex
	ch map[string]shownGame
}

type shownGame struct {
	id    string
	state []byte // the encoded state it was committed as
	g     games.Game
	views []games.View // each seat's Hand of g
}

// keepState remembers the state just committed for a channel, and the
// seats' views of it. The caller must not change g or views afterwards.
func (b *Bot) keepState(rec *store.Game, g games.Game, views []games.View) {
	s := &b.lanes.states
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = map[string]shownGame{}
	}
	s.ch[rec.Channel] = shownGame{rec.ID, rec.State, g, views}
}

// kept is the channel's kept state if it is rec's.
func (b *Bot) kept(rec *store.Game) (shownGame, bool) {
	s := &b.lanes.states
	s.mu.Lock()
	k, ok := s.ch[rec.Channel]
	s.mu.Unlock()
	return k, ok && k.id == rec.ID && bytes.Equal(k.state, rec.State)
}

// handView is seat's view of g, as kept if g is the kept state.
func (b *Bot) handView(rec *store.Game, g games.Game, seat int) games.View {
	if k, ok := b.kept(rec); ok && k.g == g && seat >= 0 && seat < len(k.views) {
		return k.views[seat]
	}
	return g.Hand(seat)
}

// playable is rec's game state for a move to change: a clone of the kept
// state if it is rec's, else decoded.
func (b *Bot) playable(rec *store.Game) (games.Game, error) {
	if k, ok := b.kept(rec); ok {
		if g, err := games.Clone(k.g); err == nil {
			return g, nil
		}
	}
	_, g, err := b.load(rec)
	return g, err
}

// dropState forgets a channel's state (its game ended).
func (b *Bot) dropState(channel string) {
	s := &b.lanes.states
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ch, channel)
}

// shownState is rec's game state, to draw from and never to change: the
// one the move lane committed if rec holds it, else decoded.
func (b *Bot) shownState(rec *store.Game) (games.Game, error) {
	if k, ok := b.kept(rec); ok {
		return k.g, nil
	}
	_, g, err := b.load(rec)
	return g, err
}
