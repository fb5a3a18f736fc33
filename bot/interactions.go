package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// onInteraction answers one interaction, then does the follow-up work (the
// table, narration, pings, other players' hands) that may take longer.
// d is its deferral, armed when it was received (deferLater).
func (b *Bot) onInteraction(i *discordgo.Interaction, d *deferral) {
	defer d.disarm()
	if b.killed.Load() {
		return // a test has killed this process
	}
	if b.isLocked(i.ChannelID) {
		// app_permissions do not show a lock: posting there would be
		// refused until a moderator unlocks it.
		b.barLocked(i.ChannelID)
	} else if i.AppPermissions != 0 && cannotPost(i) == nil {
		home := b.homeOf(i)
		// The bot may post (and edit) there again, and in the game's
		// thread, which has its channel's permissions.
		th := b.threadOfGame(home, i.ChannelID, &b.bars)
		if b.isLocked(th) {
			th = "" // the channel's permissions do not open a locked thread
			b.bars.take(threadBar(home))
		}
		b.bars.forget(i.ChannelID, home, editBar(i.ChannelID), editBar(home), th, editBar(th))
	}
	if i.AppPermissions&discordgo.PermissionManageMessages != 0 {
		home := b.homeOf(i)
		b.unmanaged.forget(i.ChannelID, home, b.threadOfGame(home, i.ChannelID, &b.unmanaged)) // and remove reactions
	}
	r, next := b.safeRoute(i)
	if r.held != nil {
		b.answering.take(r.held.token)
	}
	var answered, alone bool
	if d.finish() {
		answered, alone = b.editAnswer(i, r, d.placeholder)
	} else {
		answered, alone = b.respond(i, r, d.received)
	}
	// An update given to the clicker alone (its message was deleted) did
	// not draw what it was to draw: the output draws it.
	answered = answered && !alone
	if r.held != nil {
		if answered {
			b.answered.take(r.held.token)
		} else {
			b.forgetHand(r.held)
		}
	}
	if next != nil {
		b.output(b.homeOf(i), "publish", func() { next(answered) })
	}
}

// threadOfGame is the thread of home's game for an interaction from home
// itself, looked up only while set holds a bar of that thread (markThread).
func (b *Bot) threadOfGame(home, from string, set *tokens) string {
	if from != home || !set.has(threadBar(home)) {
		return ""
	}
	set.forget(threadBar(home))
	rec, err := b.db.Game(home)
	if err != nil || rec == nil {
		return ""
	}
	if posts, err := b.db.Posts(rec.ID); err == nil {
		return posts.Thread
	}
	return ""
}

// markThread notes in set, when channel is a game's thread the bot knows,
// that it holds a bar of that thread: an interaction from the thread's
// channel lifts it too, without a lookup for every other interaction.
func (b *Bot) markThread(set *tokens, channel string) {
	if v, ok := b.threads.Load(channel); ok {
		if th, _ := v.(*store.Thread); th != nil {
			set.take(threadBar(th.Channel))
		}
	}
}

func threadBar(home string) string { return "thread-of:" + home }

// lockedThread tells whether ch is a thread a moderator locked: only
// members with Manage Threads may post or unarchive there.
func lockedThread(ch *discordgo.Channel) bool {
	return ch != nil && ch.IsThread() && ch.ThreadMetadata != nil && ch.ThreadMetadata.Locked
}

// barLocked bars posting and editing in a locked thread, before any
// request is refused there.
func (b *Bot) barLocked(thread string) {
	b.bars.take(editBar(thread))
	b.bars.take(thread)
	b.markThread(&b.bars, thread)
}

// onThreadUpdate follows a moderator's lock and unlock of a thread.
func (b *Bot) onThreadUpdate(ch *discordgo.Channel) {
	switch {
	case lockedThread(ch):
		b.locked.Store(ch.ID, true)
		b.barLocked(ch.ID)
	case ch != nil && ch.IsThread():
		if _, was := b.locked.LoadAndDelete(ch.ID); was {
			b.bars.forget(ch.ID, editBar(ch.ID))
		}
	}
}

// isLocked tells whether a THREAD_UPDATE said channel is a locked thread.
func (b *Bot) isLocked(channel string) bool {
	_, ok := b.locked.Load(channel)
	return ok
}

// safeRoute turns a panic while handling into an answer, so the user never
// sees "This interaction failed".
func (b *Bot) safeRoute(i *discordgo.Interaction) (r reply, next after) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("handler panicked", "type", i.Type.String(), "panic", p)
			r, next = tell("Something went wrong on my side. Use /game hand to see where the game stands."), nil
		}
	}()
	return b.route(i)
}

func (b *Bot) route(i *discordgo.Interaction) (reply, after) {
	if i.GuildID == "" || i.Member == nil {
		return tell("I only run games in server channels."), nil
	}
	if no := b.unreadable(i); no != nil {
		return *no, nil
	}
	if b.isLocked(i.ChannelID) {
		return tell("A moderator locked this thread, so I can't update the game here and nothing was changed. " +
			"Ask a moderator to unlock it; you can also play on with /game hand in the game's channel."), nil
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		return b.onCommand(i)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(i.MessageComponentData().CustomID)
		if err != nil {
			return tell("I don't recognise that button. It may belong to an older version of me; use /game table for a fresh one."), nil
		}
		if id.kind == "move" {
			// A select menu's chosen values are the action's arguments.
			if vals := i.MessageComponentData().Values; len(vals) > 0 {
				for _, v := range vals {
					if _, err := games.ParseAction("x=" + v); err != nil {
						return tell("I don't recognise that choice."), nil
					}
				}
				id.action.Args = append(id.action.Args, vals...)
			}
		}
		return b.onComponent(i, id)
	case discordgo.InteractionModalSubmit:
		data := i.ModalSubmitData()
		id, err := parseCustomID(data.CustomID)
		if err != nil || id.kind != "text" {
			return tell("I don't recognise that form."), nil
		}
		return b.onMove(i, id, modalText(data))
	}
	return tell("I can't handle that kind of interaction."), nil
}

// unreadable answers an interaction with the channel's game when this
// build cannot read that game (its record is damaged, of a newer build or
// of a game it does not host): "try again" would never help.
func (b *Bot) unreadable(i *discordgo.Interaction) *reply {
	if i.Type == discordgo.InteractionApplicationCommand {
		d := i.ApplicationCommandData()
		if d.Name == "rules" || d.Name == "game" && len(d.Options) > 0 && (d.Options[0].Name == "stats" || d.Options[0].Name == "settings") {
			return nil // not about the channel's game
		}
	}
	rec, err := b.db.GameIf(b.homeOf(i), func(g *store.Game) bool { _, ok := b.rules(g.Kind); return !ok })
	if rec != nil {
		err = fmt.Errorf("game %s: unknown kind %q", rec.ID, rec.Kind)
	} else if !errors.Is(err, store.ErrDamaged) && !errors.Is(err, store.ErrSchema) {
		return nil
	}
	b.log.Error("unreadable game", "channel", b.homeOf(i), "err", err)
	r := tell("I can't read the game saved in this channel (its record is damaged, or from another version of me), so I can't go on with it, " +
		"and nothing was changed. Please tell the bot's operator; other channels are not affected.")
	return &r
}

func modalText(data discordgo.ModalSubmitInteractionData) string {
	for _, row := range data.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if t, ok := c.(*discordgo.TextInput); ok && t.CustomID == "text" {
					return t.Value
				}
			}
		}
	}
	return ""
}

func (b *Bot) onComponent(i *discordgo.Interaction, id customID) (reply, after) {
	switch id.kind {
	case "hand":
		rec, no := b.current(b.homeOf(i), id.game)
		if no != nil {
			return *no, nil
		}
		return b.showHand(i, rec)
	case "lobby":
		return b.onLobby(i, id)
	case "ask":
		return b.onAsk(i, id), nil
	case "move":
		return b.onMove(i, id, "")
	case "act":
		return b.onAct(i, id)
	}
	return tell("I don't recognise that button."), nil
}

func (b *Bot) onCommand(i *discordgo.Interaction) (reply, after) {
	data := i.ApplicationCommandData()
	switch data.Name {
	case "game":
		if len(data.Options) == 0 {
			break
		}
		sub := data.Options[0]
		switch sub.Name {
		case "new":
			if len(sub.Options) != 1 {
				break
			}
			return b.cmdNew(i, sub.Options[0].Name, sub.Options[0].Options)
		case "hand":
			return b.cmdHand(i)
		case "table":
			return b.cmdTable(i)
		case "end":
			return b.cmdEnd(i)
		case "leave":
			return b.cmdLeave(i)
		case "remove":
			return b.cmdRemove(i, sub.Options)
		case "stats":
			return b.cmdStats(i), nil
		case "settings":
			return b.cmdSettings(i, sub.Options), nil
		}
	case "rules":
		return b.cmdRules(i, data.Options), nil
	case "say":
		return b.cmdSay(i, data.Options)
	case "appeal":
		return b.cmdAppeal(i, data)
	case appealMenu:
		return b.cmdAppeal(i, data)
	}
	return tell("I don't know that command. My commands may be updating; try again in a minute."), nil
}

// who is the acting user's id and the name the table shows for them.
func who(i *discordgo.Interaction) (id, name string) {
	u := i.Member.User
	name = i.Member.Nick
	if name == "" {
		name = u.GlobalName
	}
	if name == "" {
		name = u.Username
	}
	return u.ID, escapeName(name)
}

// escapeName makes a display name plain text wherever the bot's text is
// markdown: a name is the user's own text, and "**", "||", a leading "#"
// or "<@id>" in it would format (or pass for a mention in) the table and
// story. Characters that format only in some places are left alone there
// ("a_b" stays, "_a_" does not), so ordinary names stay as they are.
func escapeName(name string) string {
	var b strings.Builder
	r := []rune(name)
	word := func(k int) bool {
		return k >= 0 && k < len(r) && (unicode.IsLetter(r[k]) || unicode.IsDigit(r[k]))
	}
	for k, c := range r {
		switch {
		case strings.ContainsRune("\\*`|~<[]", c),
			c == '_' && !(word(k-1) && word(k+1)),
			k == 0 && strings.ContainsRune("#>-", c):
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plainText is text for where Discord shows it as is (footers, labels,
// thread names): escapes undone and the paired markers of bold,
// underline, strike-through and spoilers dropped.
func plainText(s string) string {
	if !strings.ContainsAny(s, "\\*_~|") {
		return s
	}
	var b strings.Builder
	r := []rune(s)
	for k := 0; k < len(r); k++ {
		switch {
		case r[k] == '\\' && k+1 < len(r):
			k++
		case k+1 < len(r) && r[k+1] == r[k] && strings.ContainsRune("*_~|", r[k]):
			k++
			continue
		}
		b.WriteRune(r[k])
	}
	return b.String()
}

func canManage(i *discordgo.Interaction) bool {
	p := i.Member.Permissions
	return p&discordgo.PermissionManageChannels != 0 || p&discordgo.PermissionAdministrator != 0
}

// cannotPost is the refusal for a command that would post where the bot
// may not (Discord sends the bot's permissions in the channel with each
// interaction), or nil. Trying anyway would draw a 403, which counts
// toward Discord's ban on invalid requests. Without the bits (0), it
// cannot tell and lets the post find out.
func cannotPost(i *discordgo.Interaction) *reply {
	p := i.AppPermissions
	if p == 0 || p&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	var missing []string
	if p&discordgo.PermissionViewChannel == 0 {
		missing = append(missing, "View Channel")
	}
	if p&(discordgo.PermissionSendMessages|discordgo.PermissionSendMessagesInThreads) == 0 {
		missing = append(missing, "Send Messages")
	}
	if p&discordgo.PermissionEmbedLinks == 0 {
		missing = append(missing, "Embed Links")
	}
	if len(missing) == 0 {
		return nil
	}
	list := strings.Join(missing, ", ")
	if n := len(missing); n > 1 {
		list = strings.Join(missing[:n-1], ", ") + " and " + missing[n-1]
	}
	r := tell("I can't post the table here: I need %s in this channel. A server admin can give me %s in the channel's settings, under Permissions.",
		list, map[bool]string{true: "them", false: "it"}[len(missing) > 1])
	return &r
}

func (b *Bot) rules(kind string) (games.Rules, bool) {
	for _, r := range b.catalog {
		if r.ID == kind {
			return r, true
		}
	}
	return games.Rules{}, false
}

// load decodes the game state of a record.
func (b *Bot) load(rec *store.Game) (games.Rules, games.Game, error) {
	r, ok := b.rules(rec.Kind)
	if !ok {
		return r, nil, fmt.Errorf("game %s: unknown kind %q", rec.ID, rec.Kind)
	}
	g, err := r.Load(rec.State)
	if err != nil {
		return r, nil, fmt.Errorf("load game %s: %w", rec.ID, err)
	}
	return r, g, nil
}

// current returns the channel's game if it is the one a button belongs to;
// otherwise the answer that says what became of that game.
func (b *Bot) current(channel, gameID string) (*store.Game, *reply) {
	rec, err := b.db.Game(channel)
	if err != nil {
		r := b.oops(err)
		return nil, &r
	}
	if rec != nil && rec.ID == gameID {
		return rec, nil
	}
	r := tell("That game no longer exists. Use /game new to open a new one.")
	if e, err := b.db.Ended(gameID); err == nil && e != nil {
		r = tell("That game has already %s.", e.How)
	}
	return nil, &r
}

func (b *Bot) channelGame(i *discordgo.Interaction) (*store.Game, *reply) {
	home, thread := b.home(i.ChannelID)
	rec, err := b.db.Game(home)
	if err != nil {
		r := b.oops(err)
		return nil, &r
	}
	if thread != nil && (rec == nil || rec.ID != thread.Game) {
		r := tell("This thread's game is over. Open a new one with /game new in <#%s>.", home)
		return nil, &r
	}
	if rec == nil {
		r := tell("There's no game in this channel. Open one with /game new.")
		return nil, &r
	}
	return rec, nil
}

// showHand answers with the user's hand, only they see it, and remembers
// the interaction so later moves can refresh it in place.
func (b *Bot) showHand(i *discordgo.Interaction, rec *store.Game) (reply, after) {
	user, _ := who(i)
	seat := rec.SeatOf(user)
	switch {
	case seat < 0:
		return tell("You're not playing in this game; everything public is on the table."), nil
	case rec.Status == store.Lobby:
		return tell("The game hasn't started yet. Once the host presses Start, press **My hand** on the table to see your cards."), nil
	}
	_, g, err := b.load(rec)
	if err != nil {
		return b.oops(err), nil
	}
	m, err := b.handMsg(rec, g, seat, "")
	if err != nil {
		return b.oops(err), nil
	}
	if !rec.Seats[seat].Away {
		b.keepHand(rec, seat, i)
		return private(m).hand(rec, seat, i), nil
	}
	// A player the host took out takes their seat back by looking at their
	// hand: the bot stops playing it, and the game waits for them.
	comeBack(rec, seat)
	b.rememberHand(rec, seat, i)
	out, err := b.commit(rec, g, nil, []games.Event{games.Say("%s is back and plays their own seat again.", rec.Seats[seat].Name)}, nil, -1, shownNothing)
	if err != nil {
		return b.oops(err), nil
	}
	return private(m).hand(rec, seat, i), b.publisher(rec, out, 0)
}

func (b *Bot) cmdHand(i *discordgo.Interaction) (reply, after) {
	rec, no := b.channelGame(i)
	if no != nil {
		return *no, nil
	}
	return b.showHand(i, rec)
}

func (b *Bot) cmdRules(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) reply {
	kind := ""
	for _, o := range opts {
		if o.Name == "game" {
			kind = o.StringValue()
		}
	}
	if kind == "" {
		if rec, _ := b.db.Game(b.homeOf(i)); rec != nil {
			kind = rec.Kind
		}
	}
	if r, ok := b.rules(kind); ok {
		v := games.View{Title: "How to play: " + r.Name, Description: r.Summary}
		return private(msg{embeds: []*discordgo.MessageEmbed{embed(v, playerRange(r)+" players")}})
	}
	var lines []string
	for _, r := range b.catalog {
		lines = append(lines, fmt.Sprintf("**%s** — %s players", r.Name, playerRange(r)))
	}
	v := games.View{Title: "Games I can host", Description: strings.Join(lines, "\n") + "\n\nUse `/rules game:` for one game's rules, and `/game new` to open one."}
	return private(msg{embeds: []*discordgo.MessageEmbed{embed(v, "")}})
}

// deferral is an interaction's acknowledgement racing its answer.
type deferral struct {
	received    time.Time
	timer       *time.Timer
	mu          sync.Mutex
	done        bool // the answer is ready: too late to defer
	deferred    bool
	placeholder bool // acknowledged with a message of its own to fill in, not as an update
}

// start acknowledges the interaction unless its answer is ready.
func (d *deferral) start(b *Bot, i *discordgo.Interaction) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	// A command, or the My hand button, answers with a message of its own
	// (a hand's token must point at the hand, never at the table).
	hand := i.Type == discordgo.InteractionMessageComponent && strings.HasPrefix(i.MessageComponentData().CustomID, "hand:")
	if i.Type == discordgo.InteractionApplicationCommand || hand {
		d.placeholder = true
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}
	}
	err := b.answer(i, resp, d.received)
	d.deferred = err == nil || alreadyAnswered(err)
	if !d.deferred {
		b.log.Warn("defer interaction", "err", err)
	}
}

// deferLater arms i's deferral as it is received. Discord drops an
// interaction not answered within 3 s of the click: if the answer is not
// ready in time (its channel's queue is long, or held up by an answer
// Discord is slow to take, or handling it is slow), the interaction is
// acknowledged first and the answer follows as an edit. The clock runs
// from receipt, not from when the channel's queue gets to it.
func (b *Bot) deferLater(i *discordgo.Interaction, received time.Time) *deferral {
	d := &deferral{received: received}
	if deferrable(i) {
		d.timer = time.AfterFunc(max(0, b.answerWithin()-time.Since(received)), func() {
			if !b.killed.Load() {
				d.start(b, i)
			}
		})
	}
	return d
}

// disarm stops a deferral that has not started.
func (d *deferral) disarm() {
	if d.timer != nil {
		d.timer.Stop()
	}
}

// finish reports whether the interaction was deferred; after it, start
// does nothing.
func (d *deferral) finish() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.done = true
	return d.deferred
}

// deferrable: everything but a click that opens a text box, which must be
// the first answer itself.
func deferrable(i *discordgo.Interaction) bool {
	if i.Type != discordgo.InteractionMessageComponent {
		return i.Type == discordgo.InteractionApplicationCommand || i.Type == discordgo.InteractionModalSubmit
	}
	return !strings.HasPrefix(i.MessageComponentData().CustomID, "ask:")
}

// editAnswer delivers the answer of a deferred interaction: an edit of the
// message it acknowledged (the clicked one for components, its own
// placeholder for commands). alone: an update went to the clicker alone
// instead (forClickerAlone).
func (b *Bot) editAnswer(i *discordgo.Interaction, r reply, placeholder bool) (answered, alone bool) {
	if r.modal != nil {
		b.log.Warn("a deferred interaction cannot open a text box")
		return false, false
	}
	var err error
	if placeholder || r.kind == discordgo.InteractionResponseUpdateMessage {
		err = b.retry(func() error {
			return b.editOriginal(context.Background(), i.AppID, i.Token, r.msg.webhookEdit())
		})
		if placeholder || !messageGone(err) {
			if err != nil {
				b.log.Warn("answer deferred interaction", "err", err)
			}
			return err == nil, false
		}
		// The clicked message was deleted since it was acknowledged: the
		// answer goes to the clicker alone, and the gone message is not
		// asked for again.
		b.goneClicked(i)
		r, alone = r.forClickerAlone(), true
	}
	// A click acknowledged as an update whose answer is a note of its
	// own (a refusal): a follow-up, leaving the clicked message alone.
	d := r.msg.data(r.ephemeral)
	err = b.retry(func() error {
		return b.followUp(i, &discordgo.WebhookParams{Content: d.Content, Embeds: d.Embeds,
			Components: d.Components, AllowedMentions: d.AllowedMentions, Flags: d.Flags})
	})
	if err != nil {
		b.log.Warn("answer deferred interaction", "err", err)
		return false, alone
	}
	return true, alone
}

// answerWithin is how long an interaction may wait before it is deferred.
func (b *Bot) answerWithin() time.Duration {
	if b.cfg.AnswerWithin > 0 {
		return b.cfg.AnswerWithin
	}
	return 2 * time.Second
}
