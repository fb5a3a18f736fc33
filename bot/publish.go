package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
	b.lanes.push(outLane(channel), func() { b.guard(what, f) })
}

// publisher is the follow-up of a committed change: shown is the move
// counter the answer itself drew on the table (0 if it drew no table).
func (b *Bot) publisher(rec *store.Game, out *store.Output, shown int) after {
	return func(answered bool) {
		if !answered {
			shown = 0
		}
		b.publish(rec.Channel, out, shown)
	}
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
	rec, open := b.latest(channel, out.Game)
	posts, err := b.db.Posts(out.Game)
	if err != nil || rec == nil {
		b.log.Warn("publish", "game", out.Game, "err", err)
		b.finish(out, nil)
		return
	}
	var g games.Game
	if rec.Status == store.Playing {
		if _, g, err = b.load(rec); err != nil {
			b.log.Error("publish", "game", rec.ID, "err", err)
		}
	}
	if b.dies("begin") {
		return
	}
	p := &pub{b: b, rec: rec, g: g, open: open, posts: posts, out: out}
	p.table(shown)
	if b.dies("hands") {
		return
	}
	if open && g != nil {
		b.refreshHands(rec, g, out.Hands)
	} else if !open && g != nil {
		b.refreshHands(rec, g, allSeats(rec)) // the final result, in every open hand
	}
	p.events()
	if b.dies("done") {
		return
	}
	b.finish(out, p.record)
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
	b      *Bot
	rec    *store.Game // the latest committed record
	g      games.Game  // its state, nil for a lobby or an unreadable one
	open   bool
	posts  *store.Posts
	out    *store.Output
	step   int  // messages created so far, for nonces
	folded bool // the turn ping went out with the story
	notes  []func(*store.Posts)
	record func(*store.Posts)
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

// nonce makes the job's n-th message idempotent: a job done again after a
// crash creates nothing twice.
func (p *pub) nonce() string {
	if p.out.Key == "" {
		return ""
	}
	seq := p.out.Key[strings.LastIndexByte(p.out.Key, '/')+1:]
	n, _ := strconv.ParseUint(seq, 10, 64)
	p.step++
	return fmt.Sprintf("o%s.%d.%s", strconv.FormatUint(n, 36), p.step, p.rec.ID[:4])
}

// table brings the table message up to the latest state, once: a job that
// finds it already drawn (by the answer or a later job) leaves it.
func (p *pub) table(shown int) {
	b, rec := p.b, p.rec
	if shown > p.posts.Drawn {
		p.note(func(ps *store.Posts) { ps.Drawn = max(ps.Drawn, shown) })
	}
	if p.out.Closed == "" && p.posts.Drawn >= rec.Version && p.posts.Table != "" {
		return
	}
	var m msg
	var err error
	switch {
	case rec.Status == store.Lobby:
		r, _ := b.rules(rec.Kind)
		m = lobbyMsg(rec, r)
	case p.g != nil:
		m, err = tableMsg(rec, p.g)
	default:
		return
	}
	if err != nil {
		b.log.Error("render table", "game", rec.ID, "err", err)
		return
	}
	if p.out.Closed != "" {
		m.components, m.content = nil, p.out.Closed
		if rec.Status == store.Lobby {
			r, _ := b.rules(rec.Kind)
			m = closedLobby(r, p.out.Closed)
		}
	}
	version := rec.Version
	if b.dies("table") {
		return
	}
	if p.posts.Table != "" {
		err := b.retry(func() error {
			_, err := b.s.ChannelMessageEditComplex(m.edit(rec.Channel, p.posts.Table))
			return err
		})
		if err == nil {
			p.note(func(ps *store.Posts) { ps.Drawn = max(ps.Drawn, version) })
			return
		}
		if !isUnknownMessage(err) {
			b.log.Warn("edit table", "game", rec.ID, "err", err)
			return
		}
		// Someone deleted it: post it anew below.
	}
	if !p.open && p.out.Closed == "" && rec.Status == store.Lobby {
		return
	}
	posted, err := b.send(rec.Channel, m.send(), p.nonce())
	if err != nil {
		b.log.Warn("post table", "game", rec.ID, "err", err)
		return
	}
	p.note(func(ps *store.Posts) { ps.Table, ps.Drawn = posted.ID, max(ps.Drawn, version) })
}

// events posts the change's story in as few messages as fit, and posts
// or edits the game's own messages. The turn ping rides on the last story
// message when there is one, so a move costs one channel message.
func (p *pub) events() {
	seats := p.pingSeats()
	var story []string
	last := -1
	for n, e := range p.out.Events {
		if e.Ref == "" {
			last = n
		}
	}
	flush := func(final bool) {
		texts := chunks(story)
		for n, text := range texts {
			m := textMsg("%s", text)
			if final && n == len(texts)-1 && len(seats) > 0 {
				if pm, ok := p.pingMsg(seats, text); ok {
					m, seats = pm, nil
					p.folded = true
				}
			}
			if p.b.dies("story") {
				return
			}
			if _, err := p.b.send(p.rec.Channel, m.send(), p.nonce()); err != nil {
				p.b.log.Warn("post narration", "game", p.rec.ID, "err", err)
			}
		}
		story = nil
	}
	for n, e := range p.out.Events {
		if e.Ref == "" {
			story = append(story, e.Text)
			if n == last {
				flush(true)
			}
			continue
		}
		flush(false)
		p.owned(e)
	}
	p.ping(seats)
}

// owned posts a game message the first time its ref is seen, and edits it
// afterwards.
func (p *pub) owned(e games.Event) {
	b, rec := p.b, p.rec
	if b.dies("owned") {
		return
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
		if err := b.retry(func() error {
			_, err := b.s.ChannelMessageEditComplex(m.edit(rec.Channel, id))
			return err
		}); err != nil {
			b.log.Warn("edit game message", "game", rec.ID, "ref", e.Ref, "err", err)
		}
		return
	}
	posted, err := b.send(rec.Channel, m.send(), p.nonce())
	if err != nil {
		b.log.Warn("post game message", "game", rec.ID, "ref", e.Ref, "err", err)
		return
	}
	ref, emoji := e.Ref, e.Emoji
	p.note(func(ps *store.Posts) {
		if ps.Refs == nil {
			ps.Refs = map[string]string{}
		}
		ps.Refs[ref] = posted.ID
		if len(emoji) > 0 {
			if ps.Emoji == nil {
				ps.Emoji = map[string][]string{}
			}
			ps.Emoji[ref] = emoji
		}
	})
}

// chunks joins story lines into as few messages as Discord allows.
func chunks(lines []string) []string {
	var out []string
	cur := ""
	for _, l := range lines {
		l = clip(l, maxContent)
		if cur != "" && len([]rune(cur))+1+len([]rune(l)) > maxContent {
			out = append(out, cur)
			cur = ""
		}
		if cur != "" {
			cur += "\n"
		}
		cur += l
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
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

// pingMsg is a message that mentions seats (and only them) with a My hand
// button, after text; false if it would not fit.
func (p *pub) pingMsg(seats []int, text string) (msg, bool) {
	rec := p.rec
	var mentions []string
	for _, s := range seats {
		mentions = append(mentions, "<@"+rec.Seats[s].User+">")
	}
	rules, _ := p.b.rules(rec.Kind)
	line := fmt.Sprintf("%s — your move in %s.", strings.Join(mentions, " "), rules.Name)
	if text != "" {
		line = text + "\n" + line
	}
	if len([]rune(line)) > maxContent {
		return msg{}, false
	}
	hand := discordgo.Button{Label: "My hand", Style: discordgo.PrimaryButton, CustomID: customID{kind: "hand", game: rec.ID}.String()}
	return msg{content: line, components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{hand}}},
		mentions: seatUsers(rec, seats)}, true
}

func seatUsers(rec *store.Game, seats []int) []string {
	var ids []string
	for _, s := range seats {
		ids = append(ids, rec.Seats[s].User)
	}
	return ids
}

// ping mentions the players who must act now, once per turn, in a message
// of its own when no story message took it, replacing the previous one so
// the channel does not fill with pings. A game that has ended loses its
// standing ping, once.
func (p *pub) ping(seats []int) {
	b, rec := p.b, p.rec
	if b.dies("ping") {
		return
	}
	old := p.posts.Ping
	dropOld := func() {
		if old == "" {
			return
		}
		b.s.ChannelMessageDelete(rec.Channel, old)
		p.note(func(ps *store.Posts) {
			if ps.Ping == old {
				ps.Ping = ""
			}
		})
	}
	if len(seats) == 0 {
		if !p.open || p.folded {
			dropOld()
		}
		return
	}
	m, _ := p.pingMsg(seats, "")
	posted, err := b.send(rec.Channel, m.send(), p.nonce())
	if err != nil {
		b.log.Warn("ping", "game", rec.ID, "err", err)
		return
	}
	if old != posted.ID {
		dropOld()
	}
	p.note(func(ps *store.Posts) { ps.Ping = posted.ID })
}

// send creates a channel message with a nonce Discord enforces, so a
// create repeated after a crash or a lost response returns the first
// message instead of posting a second. discordgo's MessageSend has no
// nonce fields, so the request is made here.
func (b *Bot) send(channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	body := struct {
		*discordgo.MessageSend
		Nonce        string `json:"nonce,omitempty"`
		EnforceNonce bool   `json:"enforce_nonce,omitempty"`
	}{m, nonce, nonce != ""}
	endpoint := discordgo.EndpointChannelMessages(channel)
	var out *discordgo.Message
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var raw []byte
		raw, err = b.s.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint)
		if err == nil {
			out = new(discordgo.Message)
			err = json.Unmarshal(raw, out)
			if err == nil {
				return out, nil
			}
		}
		if nonce == "" || !retryable(err) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return nil, err
}

// retry repeats an idempotent request (an edit) that met Discord's own
// trouble or the network's, a few times; a refusal or a 404 is final.
func (b *Bot) retry(f func() error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = f(); err == nil || !retryable(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return err
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
		b.output(out.Channel, "replay output", func() { b.publish(out.Channel, out, 0) })
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
func (b *Bot) refreshHands(rec *store.Game, g games.Game, seats []int) {
	app := b.applicationID()
	for _, seat := range seats {
		if seat >= len(rec.Seats) {
			continue
		}
		s := rec.Seats[seat]
		if s.HandToken == "" || b.now().Sub(s.HandAt) > handTokenLife {
			continue
		}
		m, err := handMsg(rec, g, seat, "")
		if err != nil {
			b.log.Error("render hand", "err", err)
			continue
		}
		if err := b.retry(func() error {
			_, err := b.s.InteractionResponseEdit(&discordgo.Interaction{AppID: app, Token: s.HandToken}, m.webhookEdit())
			return err
		}); err != nil {
			b.log.Debug("refresh hand", "game", rec.ID, "seat", seat, "err", err)
		}
	}
}

func allSeats(rec *store.Game) []int {
	out := make([]int, len(rec.Seats))
	for i := range out {
		out[i] = i
	}
	return out
}
