package bot

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// What follows a committed change — the table, the story, other players'
// hands, the ping — runs in the channel's own output lane, after the answer.
// Discord rate-limits a channel's messages, so this may wait; the next
// click in the channel must not wait behind it, or it would miss Discord's
// three seconds. Output jobs therefore read message ids from the store as
// they are now and write them back with Patch, never with a whole record.
func outLane(channel string) string { return "out:" + channel }

// output queues work in a channel's output lane.
func (b *Bot) output(channel, what string, f func()) {
	b.lanes.push(outLane(channel), func() { b.guard(what, f) })
}

// latest returns the stored record of rec's game, or nil once it has ended.
func (b *Bot) latest(rec *store.Game) *store.Game {
	cur, err := b.db.Game(rec.Channel)
	if err != nil || cur == nil || cur.ID != rec.ID {
		return nil
	}
	return cur
}

// patch records bookkeeping on the game as stored now; false when the game
// has ended meanwhile.
func (b *Bot) patch(rec *store.Game, f func(*store.Game)) bool {
	found, err := b.db.Patch(rec.Channel, rec.ID, f)
	if err != nil {
		b.log.Warn("save game bookkeeping", "game", rec.ID, "err", err)
	}
	return found
}

// own records the id of a message just posted for a game, or deletes the
// message if the game ended while it was being posted.
func (b *Bot) own(rec *store.Game, posted *discordgo.Message, f func(*store.Game)) bool {
	if !b.patch(rec, f) {
		b.s.ChannelMessageDelete(posted.ChannelID, posted.ID)
		return false
	}
	return true
}

// publish carries out the output a committed change owes its channel. rec
// and g are the game as that change left it (g is nil when only the record
// is known, on replay). The table and hands are drawn only while no later
// change is saved (that change's own output draws them), and before the
// narration, whose posting may wait on Discord's rate limit.
func (b *Bot) publish(rec *store.Game, g games.Game, out *store.Output) {
	var record []func(*store.Game) // what to note on the game as the output is done
	var posted []*discordgo.Message
	switch {
	case out.Closed != "":
		b.closeTable(rec, out.Closed)
	case g != nil:
		if cur, ok := b.still(rec); ok {
			if !out.TableDone {
				if m, err := tableMsg(cur, g); err != nil {
					b.log.Error("render table", "err", err)
				} else {
					b.editTable(cur, m)
				}
			}
			if cur, ok := b.still(rec); ok {
				b.refreshHands(cur, g, out.Hands)
			}
		}
	}
	if out.Line != nil {
		if m, err := b.s.ChannelMessageSendComplex(rec.Channel, textMsg("%s", out.Line.Text).send()); err != nil {
			b.log.Warn("post role-play line", "game", rec.ID, "err", err)
		} else {
			seat := out.Line.Seat
			record = append(record, func(g *store.Game) {
				if g.RolePlay == nil {
					g.RolePlay = map[string]int{}
				}
				g.RolePlay[m.ID] = seat
			})
		}
	}
	for _, text := range out.Story {
		if _, err := b.s.ChannelMessageSendComplex(rec.Channel, textMsg("%s", text).send()); err != nil {
			b.log.Warn("post narration", "game", rec.ID, "err", err)
		}
	}
	if cur := b.latest(rec); cur != nil {
		// Only those still waiting for the turn this move gave them: a later
		// move may have played it already, or begun another.
		pinged := b.ping(cur, slices.DeleteFunc(slices.Clone(out.Ping), func(s int) bool {
			return !slices.Contains(cur.Waiting, s) || cur.Seats[s].WaitingSince != out.Version
		}))
		if pinged != nil {
			posted = append(posted, pinged)
			record = append(record, func(g *store.Game) { g.PingMsg = pinged.ID })
		}
	} else if rec.PingMsg != "" {
		b.s.ChannelMessageDelete(rec.Channel, rec.PingMsg) // the game is over: nobody's move
	}
	var note func(*store.Game)
	if len(record) > 0 {
		note = func(g *store.Game) {
			for _, f := range record {
				f(g)
			}
		}
	}
	found, err := b.db.Done(out, note)
	if err != nil {
		b.log.Warn("finish output", "game", rec.ID, "err", err)
	}
	if !found {
		for _, m := range posted {
			b.s.ChannelMessageDelete(m.ChannelID, m.ID) // the game ended meanwhile
		}
	}
}

// closeTable leaves an ended game's table with a note and no controls.
func (b *Bot) closeTable(rec *store.Game, note string) {
	if rec.TableMsg == "" {
		return // a lobby ended before it was ever posted
	}
	m, _, err := b.currentTable(rec)
	if err != nil {
		b.log.Error("render table", "game", rec.ID, "err", err)
		return
	}
	m.components, m.content = nil, note
	b.editTable(rec, m)
}

// replayOutput carries out, after a restart, the output that moves
// committed before the stop still owed.
func (b *Bot) replayOutput() error {
	owed, err := b.db.Pending()
	if err != nil {
		return err
	}
	for _, out := range owed {
		b.output(out.Channel, "replay output", func() {
			rec, g := b.stateAt(out)
			b.publish(rec, g, out)
		})
	}
	return nil
}

// stateAt finds the game a pending output belongs to, with its state if it
// is still as that move left it.
func (b *Bot) stateAt(out *store.Output) (*store.Game, games.Game) {
	rec, err := b.db.Game(out.Channel)
	if err != nil || rec == nil || rec.ID != out.Game {
		e, err := b.db.Ended(out.Game)
		if err != nil || e == nil || e.Final == nil {
			return &store.Game{ID: out.Game, Channel: out.Channel}, nil
		}
		rec = e.Final
	}
	if rec.Version != out.Version || rec.Status == store.Lobby {
		return rec, nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		b.log.Error("replay output", "game", rec.ID, "err", err)
		return rec, nil
	}
	return rec, g
}

// still returns the record to draw rec's state with while that state is the
// latest: the stored record, or rec itself if it is how the game ended.
func (b *Bot) still(rec *store.Game) (*store.Game, bool) {
	if cur := b.latest(rec); cur != nil {
		return cur, cur.Version == rec.Version
	}
	end, err := b.db.Ended(rec.ID)
	return rec, err == nil && end != nil && end.Final != nil && end.Final.Version == rec.Version
}

// editTable puts m in the game's table message, posting a new one if
// someone deleted it.
func (b *Bot) editTable(rec *store.Game, m msg) {
	if rec.TableMsg == "" {
		b.postTable(rec, m) // a lobby whose first post was cut short
		return
	}
	_, err := b.s.ChannelMessageEditComplex(m.edit(rec.Channel, rec.TableMsg))
	if err == nil || !isUnknownMessage(err) {
		if err != nil {
			b.log.Warn("edit table", "game", rec.ID, "err", err)
		}
		return
	}
	if cur := b.latest(rec); cur != nil && cur.TableMsg != rec.TableMsg {
		// /game table moved it meanwhile.
		if _, err := b.s.ChannelMessageEditComplex(m.edit(cur.Channel, cur.TableMsg)); err != nil {
			b.log.Warn("edit table", "game", rec.ID, "err", err)
		}
		return
	}
	b.postTable(rec, m)
}

// postTable posts a table anew. It stays even if the game has ended: it
// may be the only place its final state is shown.
func (b *Bot) postTable(rec *store.Game, m msg) {
	posted, err := b.s.ChannelMessageSendComplex(rec.Channel, m.send())
	if err != nil {
		b.log.Warn("post table", "game", rec.ID, "err", err)
		return
	}
	b.patch(rec, func(g *store.Game) { g.TableMsg = posted.ID })
}

func isUnknownMessage(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound
}

// ping mentions the players who must act now, once per turn, replacing the
// previous ping so the channel doesn't fill with them. It returns the new
// ping for the caller to record.
func (b *Bot) ping(rec *store.Game, seats []int) *discordgo.Message {
	if len(seats) == 0 {
		return nil
	}
	if rec.PingMsg != "" {
		b.s.ChannelMessageDelete(rec.Channel, rec.PingMsg)
	}
	var mentions, ids []string
	for _, s := range seats {
		ids = append(ids, rec.Seats[s].User)
		mentions = append(mentions, "<@"+rec.Seats[s].User+">")
	}
	rules, _ := b.rules(rec.Kind)
	send := &discordgo.MessageSend{
		Content:         fmt.Sprintf("%s — your move in %s. Press **My hand** on the table.", strings.Join(mentions, " "), rules.Name),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: ids},
	}
	m, err := b.s.ChannelMessageSendComplex(rec.Channel, send)
	if err != nil {
		b.log.Warn("ping", "game", rec.ID, "err", err)
		return nil
	}
	return m
}

// rememberHand keeps the token of the interaction that showed a player their
// hand, so later changes can refresh that message in place.
func rememberHand(rec *store.Game, seat int, i *discordgo.Interaction) {
	rec.Seats[seat].HandToken = i.Token
	rec.Seats[seat].HandAt = time.Now().UTC()
}

// keepHand saves the hand token outside a move.
func (b *Bot) keepHand(rec *store.Game, seat int, i *discordgo.Interaction) {
	rememberHand(rec, seat, i)
	b.patch(rec, func(g *store.Game) { rememberHand(g, seat, i) })
}

// refreshHands redraws the given seats' open hands while their interaction
// tokens are good, so no one is left holding out-of-date buttons. A token
// that fails is left to expire: output never rewrites what moves own.
func (b *Bot) refreshHands(rec *store.Game, g games.Game, seats []int) {
	app := b.applicationID()
	for _, seat := range seats {
		s := rec.Seats[seat]
		if s.HandToken == "" || time.Since(s.HandAt) > handTokenLife {
			continue
		}
		m, err := handMsg(rec, g, seat, "")
		if err != nil {
			b.log.Error("render hand", "err", err)
			continue
		}
		if _, err := b.s.InteractionResponseEdit(&discordgo.Interaction{AppID: app, Token: s.HandToken}, m.webhookEdit()); err != nil {
			b.log.Debug("refresh hand", "game", rec.ID, "seat", seat, "err", err)
		}
	}
}

// refreshTables shows every open game's current state at start-up, in case
// the bot stopped between committing a move and showing it.
func (b *Bot) refreshTables() error {
	recs, err := b.db.Running()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		b.output(rec.Channel, "refresh table", func() {
			rec := b.latest(rec) // as it is when the redraw runs
			if rec == nil {
				return
			}
			if m, _, err := b.currentTable(rec); err != nil {
				b.log.Error("render table", "game", rec.ID, "err", err)
			} else {
				b.editTable(rec, m)
			}
		})
	}
	return nil
}
