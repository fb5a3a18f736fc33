package bot_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// monkey plays one channel at random and against the rules: its players and
// a bystander click whatever they have seen (current and stale hands, the
// table, votes under game messages), pick random choices, type any text a
// box allows, click twice at once, send custom_ids the bot never offered,
// use commands out of turn, react, let the clock run, drop the gateway,
// and restart the bot. With even seeds Discord also fails some requests;
// with seeds 2, 5, 8… each game moves into a thread of its own.
type monkey struct {
	t       *testing.T
	h       *harness
	game    string
	rng     *rand.Rand
	users   []*fakediscord.User // the players, host first
	by      *fakediscord.User   // in the channel, never at the table
	mod     *fakediscord.User   // a moderator, who deletes messages
	seen    map[string][]*fakediscord.Message
	refused int // adversarial actions the bot turned away
	said    int // lines said with /say
}

// TestMonkeyPlay: every interaction is answered in time and nothing the
// fake counts as a Discord violation happens; a click the bot turns away
// changes nothing; every game replays from its log (the harness's check);
// and afterwards the game plays on to its end with nothing owed.
func TestMonkeyPlay(t *testing.T) {
	seats := map[string]int{"duel": 2, "life": 3, "improv": 4, "lnf": 4, "dealt": 3}
	for _, game := range []string{"duel", "life", "improv", "lnf", "dealt"} {
		first, n := monkeySeeds()
		for seed := first; seed < first+n; seed++ {
			t.Run(fmt.Sprintf("%s/%d", game, seed), func(t *testing.T) {
				var opts []func(*harness)
				if seed%3 == 2 {
					opts = append(opts, withThreads) // each game in a thread of its own
				}
				h := newHarness(t, opts...)
				m := &monkey{t: t, h: h, game: game, rng: rand.New(rand.NewPCG(seed, 77)), seen: map[string][]*fakediscord.Message{}}
				for i := range seats[game] {
					m.users = append(m.users, h.fake.AddUser(fmt.Sprintf("%c%s", 'A'+i, "mo")))
				}
				m.by = h.fake.AddUser("Zed")
				m.mod = h.fake.AddAdmin("Mod")
				if seed%2 == 0 { // Discord's trouble too, from the first click
					h.fake.Faults(fakediscord.Faults{Seed: seed, RateLimit: 0.05, ServerError: 0.03, BadGateway: 0.01, LostResponse: 0.03})
				}
				m.open()
				for range 400 {
					m.step()
				}
				h.bot.Idle()
				h.fake.Faults(fakediscord.Faults{})
				m.settled()
				if m.refused == 0 {
					t.Fatal("the monkey never had a click turned away")
				}
				m.finish()
				if len(opts) > 0 && len(h.fake.Threads(h.ch)) == 0 {
					t.Fatal("no game moved into a thread")
				}
			})
		}
	}
}

// monkeySeeds is the first seed each game is played with (MONKEY_FROM, 1
// unless set: a soak can go on where the last one stopped) and how many
// (MONKEY_SEEDS, 2 unless set).
func monkeySeeds() (first, n uint64) {
	first, n = 1, 2
	if v, err := strconv.ParseUint(os.Getenv("MONKEY_FROM"), 10, 64); err == nil && v > 0 {
		first = v
	}
	if v, err := strconv.ParseUint(os.Getenv("MONKEY_SEEDS"), 10, 64); err == nil && v > 0 {
		n = v
	}
	return first, n
}

// answered fails unless the interaction got a callback in time.
func (m *monkey) answered(what string, r *fakediscord.Reply, err error) bool {
	m.t.Helper()
	if err != nil {
		return false // the client would not have sent it (a disabled control)
	}
	if r == nil || r.Type == 0 {
		m.t.Fatalf("%s was not answered", what)
	}
	if r.Message != nil && r.Ephemeral {
		m.note(r.Message)
	}
	return true
}

func (m *monkey) note(msg *fakediscord.Message) {
	u := msg.VisibleTo
	m.seen[u] = append(m.seen[u], msg)
	if len(m.seen[u]) > 40 {
		m.seen[u] = m.seen[u][1:]
	}
}

// open starts a game of the monkey's kind: the host opens it, the others
// join, the host starts it.
func (m *monkey) open() {
	h := m.h
	var r *fakediscord.Reply
	var err error
	g, _ := h.db.Game(h.ch)
	if g == nil {
		r, err = m.users[0].Client().Command(h.ch, "game", newGame(m.game))
		m.answered("/game new", r, err)
		g = h.record()
	}
	host := m.users[0]
	for _, u := range m.users {
		if u.ID == g.Host {
			host = u
		}
	}
	for _, u := range m.users {
		if id := h.table().ButtonID("Join"); u != host && id != "" {
			r, err = u.Client().Click(h.table(), id)
			m.answered("Join", r, err)
		}
	}
	r, err = host.Client().Click(h.table(), h.table().ButtonID("Start"))
	m.answered("Start", r, err)
	if h.record().Status != store.Playing {
		m.t.Fatalf("the %s did not start:\n%s", m.game, h.table().Text())
	}
}

// version is the channel's game's move counter and record, or -1 with no
// game.
func (m *monkey) version() (int, string) {
	g, err := m.h.db.Game(m.h.ch)
	if err != nil {
		m.t.Fatal(err)
	}
	if g == nil {
		return -1, ""
	}
	return g.Version, m.h.snapshot()
}

func (m *monkey) anyone() *fakediscord.User {
	if m.rng.IntN(6) == 0 {
		return m.by
	}
	return m.users[m.rng.IntN(len(m.users))]
}

func (m *monkey) step() {
	h := m.h
	if g, _ := h.db.Game(h.ch); g == nil || g.Status != store.Playing {
		m.open() // the game ended, or a rematch waits in its lobby: go again
		return
	}
	switch k := m.rng.IntN(101); {
	case k < 55:
		m.play(m.users[m.rng.IntN(len(m.users))], false)
	case k < 62:
		m.play(m.users[m.rng.IntN(len(m.users))], true)
	case k < 72:
		m.stale()
	case k < 80:
		m.forge()
	case k < 88:
		m.command()
	case k < 94:
		m.public()
	case k < 97:
		m.react()
	case k < 98:
		h.tick(time.Duration(m.rng.IntN(20)) * time.Minute)
	case k < 99:
		kind := m.rng.IntN(3)
		gatewayFault(m.t, h, kind, kind == 1 && m.rng.IntN(2) == 0)
	case k < 100:
		m.tidy()
	default:
		h.restart() // a deploy between two clicks
	}
}

// controls are a message's enabled buttons and menus.
func controls(msg *fakediscord.Message) (buttons []string, selects []fakediscord.Select) {
	for _, b := range msg.Buttons() {
		if !b.Disabled && b.CustomID != "" {
			buttons = append(buttons, b.CustomID)
		}
	}
	for _, s := range msg.Selects() {
		if !s.Disabled && len(s.Options) > 0 {
			selects = append(selects, s)
		}
	}
	return buttons, selects
}

// use works one random control of msg as u; twice at once when double.
func (m *monkey) use(u *fakediscord.User, msg *fakediscord.Message, double bool) (string, bool) {
	buttons, selects := controls(msg)
	n := len(buttons) + len(selects)
	if n == 0 {
		return "", false
	}
	pick := m.rng.IntN(n)
	var values []string // drawn here: a double click's two goroutines share them
	if pick >= len(buttons) {
		s := selects[pick-len(buttons)]
		lo, hi := s.Min, min(max(s.Max, 1), len(s.Options))
		k := lo + m.rng.IntN(max(0, hi-lo)+1)
		for _, i := range m.rng.Perm(len(s.Options))[:k] {
			values = append(values, s.Options[i].Value)
		}
	}
	do := func() (*fakediscord.Reply, error) {
		if pick < len(buttons) {
			return u.Client().Click(msg, buttons[pick])
		}
		return u.Client().Select(msg, selects[pick-len(buttons)].CustomID, values...)
	}
	id := ""
	if pick < len(buttons) {
		id = buttons[pick]
	} else {
		id = selects[pick-len(buttons)].CustomID
	}
	if !double {
		r, err := do()
		if m.answered(id, r, err) && r.Modal != nil {
			m.submit(u, r.Modal)
		}
		return id, true
	}
	// Both clicks leave before either is answered, as a double click does.
	var wg sync.WaitGroup
	replies := make([]*fakediscord.Reply, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { replies[i], errs[i] = do() })
	}
	wg.Wait()
	for i := range 2 {
		m.answered(id+" (double)", replies[i], errs[i])
	}
	return id, true
}

// submit fills a modal with text of a random length the boxes allow.
func (m *monkey) submit(u *fakediscord.User, modal *fakediscord.Modal) {
	values := map[string]string{}
	pieces := []string{"a bold move", " in the rain", " 🎭", " @everyone", " <@1>", " **loud**", " ```", " é", "\n"}
	for _, in := range modal.Inputs {
		lo, hi := in.MinLength, in.MaxLength
		if hi <= 0 {
			hi = 4000
		}
		if lo == 0 && in.Required {
			lo = 1
		}
		want := lo + m.rng.IntN(hi-lo+1)
		if m.rng.IntN(3) > 0 {
			want = lo + m.rng.IntN(min(hi, 60)-lo+1)
		}
		var b strings.Builder
		for b.Len() < want {
			piece := pieces[m.rng.IntN(len(pieces))]
			if piece == "\n" && in.Style == discordgo.TextInputShort {
				continue // one line: the client types no break there
			}
			b.WriteString(piece)
		}
		text := []rune(strings.TrimSpace(b.String()))
		for len(text) > hi {
			text = text[:hi]
		}
		for len(text) < lo {
			text = append(text, 'x')
		}
		values[in.CustomID] = string(text)
	}
	r, err := u.Client().Submit(modal, values)
	m.answered("modal "+modal.CustomID, r, err)
}

// play opens u's hand from the table and works one of its controls.
func (m *monkey) play(u *fakediscord.User, double bool) {
	h := m.h
	r, err := u.Client().Click(h.table(), h.table().ButtonID("My hand"))
	if !m.answered("My hand", r, err) || r.Message == nil {
		return
	}
	if !r.Ephemeral {
		m.t.Fatalf("My hand answered in public: %q", r.Content)
	}
	if u == m.by {
		if !strings.Contains(r.Content, "not playing") {
			m.t.Fatalf("a bystander's My hand answered %q", r.Content)
		}
		m.refused++
		return
	}
	m.use(u, r.Message, double)
}

// movesVersion is the move counter a move's custom_id was drawn at.
func movesVersion(id string) (int, bool) {
	p := strings.Split(id, ":")
	if len(p) < 3 || p[0] != "move" {
		return 0, false
	}
	v, err := strconv.Atoi(p[2])
	return v, err == nil
}

// stale works a control of a hand u saw earlier. A move drawn before u's
// hand last changed is turned away and changes nothing (one made on a hand
// that other players' moves left as it was still counts).
func (m *monkey) stale() {
	u := m.users[m.rng.IntN(len(m.users))]
	old := m.seen[u.ID]
	if len(old) == 0 {
		return
	}
	msg := old[m.rng.IntN(len(old))]
	_, snap := m.version()
	viewAt := -1 // the move counter at which u's hand last changed
	if g, _ := m.h.db.Game(m.h.ch); g != nil {
		for _, s := range g.Seats {
			if s.User == u.ID {
				viewAt = s.ViewVersion
			}
		}
	}
	buttons, selects := controls(msg)
	if len(buttons)+len(selects) == 0 {
		return
	}
	id, _ := m.use(u, msg, false)
	if v, ok := movesVersion(id); ok && v < viewAt {
		if now, after := m.version(); now >= 0 && after != snap {
			m.t.Fatalf("%s's stale %s (drawn at %d, the hand changed at %d) changed the game", u.Name, id, v, viewAt)
		}
		m.refused++
	}
}

// forge sends a custom_id the bot never offered, on the table, as a
// modified client could: garbage, another game's, another move counter.
func (m *monkey) forge() {
	h := m.h
	ref, v := h.gameRef()
	_, snap := m.version()
	var id string
	switch m.rng.IntN(6) {
	case 0:
		id = fmt.Sprintf("move:%s:%d:%s", ref, v+1+m.rng.IntN(1000), "deck")
	case 1:
		id = fmt.Sprintf("move:zzzz2222:%d:deck", v)
	case 2:
		id = strings.Repeat("x", 1+m.rng.IntN(100))
	case 3:
		id = fmt.Sprintf("move:%s:%d:%s", ref, v, strings.Repeat("q", 1+m.rng.IntN(60)))
	case 4:
		id = fmt.Sprintf("move:%s:-%d:deck", ref, m.rng.IntN(9))
	default:
		id = fmt.Sprintf("lobby:%s:%d:start", ref, v)
	}
	if len(id) > 100 {
		id = id[:100]
	}
	u := m.anyone()
	r := forge(u, h.table(), id)
	if r == nil || r.Type == 0 {
		m.t.Fatalf("forged %q was not answered", id)
	}
	if !r.Ephemeral || r.Type != discordgo.InteractionResponseChannelMessageWithSource {
		m.t.Fatalf("forged %q on the table answered type %d (ephemeral %v): %q", id, r.Type, r.Ephemeral, r.Content)
	}
	if _, after := m.version(); after != snap {
		m.t.Fatalf("forged %q by %s changed the game", id, u.Name)
	}
	m.refused++
}

// threadIDs are the threads of the harness's channel.
func threadIDs(h *harness) []string {
	var ids []string
	for _, th := range h.fake.Threads(h.ch) {
		ids = append(ids, th.ID)
	}
	return ids
}

// command uses a slash command, often out of turn or out of place.
func (m *monkey) command() {
	h := m.h
	u := m.anyone()
	ch := h.ch
	if m.rng.IntN(2) == 0 {
		ch = m.place()
	}
	before, snap := m.version()
	var r *fakediscord.Reply
	var err error
	changes := true
	switch m.rng.IntN(7) {
	case 0:
		r, err = u.Client().Command(ch, "game", fakediscord.Sub("hand"))
		changes = false
	case 1:
		r, err = u.Client().Command(ch, "game", fakediscord.Sub("table"))
		changes = false
	case 2:
		r, err = u.Client().Command(ch, "rules")
		changes = false
	case 3:
		r, err = u.Client().Command(ch, "game", newGame("duel"))
		changes = false // a game is already open here
	case 4:
		// Numbered: a line said twice in a row is posted twice, as it should
		// be, and would read as a repeated post.
		m.said++
		line := fmt.Sprintf("%s (%d)", strings.Repeat("Onward! ", 1+m.rng.IntN(40)), m.said)
		r, err = u.Client().Command(ch, "say", fakediscord.Str("line", line))
	case 5:
		if u == m.users[0] {
			return // the host would end it
		}
		r, err = u.Client().Command(ch, "game", fakediscord.Sub("end"))
		changes = false
	default:
		r, err = u.Client().Command(ch, "game", fakediscord.Sub("stats"))
		changes = false
	}
	if !m.answered("a command", r, err) {
		return
	}
	if !changes && before >= 0 {
		if _, after := m.version(); after != snap {
			m.t.Fatalf("a command that changes nothing changed the game: %q", r.Content)
		}
		if r.Ephemeral {
			m.refused++
		}
	}
}

// place is where the game is played: the channel or the game's thread.
func (m *monkey) place() string {
	if g, _ := m.h.db.Game(m.h.ch); g != nil {
		return m.h.where()
	}
	return m.h.ch
}

// public works a control under one of the channel's last messages (a
// vote, the table) as anyone.
func (m *monkey) public() {
	msgs := m.h.fake.Messages(m.place())
	if len(msgs) == 0 {
		return
	}
	msg := msgs[len(msgs)-1-m.rng.IntN(min(len(msgs), 6))]
	m.use(m.anyone(), msg, m.rng.IntN(4) == 0)
}

// tidy is a moderator deleting the table, with a click on it perhaps on
// its way: the game goes on, with a table posted anew.
func (m *monkey) tidy() {
	posts, _ := m.h.db.Posts(m.h.record().ID)
	if posts == nil || posts.Table == "" {
		return
	}
	table := m.h.fake.Message(m.place(), posts.Table)
	if table == nil {
		return
	}
	defer m.tableAgain()
	buttons, _ := controls(table)
	if len(buttons) == 0 || m.rng.IntN(2) == 0 {
		m.mod.DeleteMessage(table)
		return
	}
	u, id := m.anyone(), buttons[m.rng.IntN(len(buttons))]
	held, release := m.h.fake.Hold("POST", fakediscord.RouteCallback)
	m.h.fake.SetSettler(nil) // settling would wait for the answer held
	var r *fakediscord.Reply
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, err = u.Client().Click(table, id)
	}()
	select {
	case <-held:
	case <-done: // the client would not send it
	}
	m.mod.DeleteMessage(table)
	release()
	<-done
	m.h.fake.SetSettler(func() { m.h.bot.Idle() })
	if m.answered(id+" (on a table being deleted)", r, err) && r.Modal != nil {
		m.submit(u, r.Modal)
	}
}

// tableAgain: when the table is gone and nothing has posted it anew yet,
// someone asks for it, as people do.
func (m *monkey) tableAgain() {
	h := m.h
	h.bot.Idle()
	g, _ := h.db.Game(h.ch)
	if g == nil {
		return
	}
	if posts, _ := h.db.Posts(g.ID); posts != nil && h.fake.Message(m.place(), posts.Table) != nil {
		return
	}
	r := m.anyone().Command(m.place(), "game", fakediscord.Sub("table"))
	if r == nil || r.Type == 0 {
		m.t.Fatal("/game table was not answered")
	}
}

// react puts or takes a reaction on one of the channel's last messages.
func (m *monkey) react() {
	msgs := m.h.fake.Messages(m.place())
	if len(msgs) == 0 {
		return
	}
	msg := msgs[len(msgs)-1-m.rng.IntN(min(len(msgs), 6))]
	emoji := []string{"🎭", "👍", "👎", "🎲"}[m.rng.IntN(4)]
	if m.rng.IntN(3) == 0 {
		m.anyone().Client().Unreact(msg, emoji)
	} else {
		m.anyone().Client().React(msg, emoji)
	}
}

// settled: nothing failed, nothing was posted twice, nothing is owed.
func (m *monkey) settled() {
	m.t.Helper()
	h := m.h
	if f := h.fake.FailedInteractions(); len(f) != 0 {
		m.t.Fatalf("%d failed interactions, first: %+v", len(f), f[0])
	}
	for _, where := range append([]string{h.ch}, threadIDs(h)...) {
		if d := h.fake.Duplicates(where); len(d) != 0 {
			m.t.Fatalf("%d messages posted twice, first: %q", len(d), d[0].Content)
		}
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		m.t.Fatalf("output still owed: %d", len(owed))
	}
	if n := h.errors.Load(); n != 0 {
		m.t.Fatalf("the bot logged %d errors", n)
	}
}

// finish plays the game on, the plain way, to its end (an Improv campaign,
// which only its GM ends, for a stretch).
func (m *monkey) finish() {
	h := m.h
	if g, _ := h.db.Game(h.ch); g == nil || g.Status != store.Playing {
		m.open()
	}
	gameID := h.record().ID
	players := append(slices.Clip(m.users), m.by) // the bystander may have joined (Improv)
	for move := 0; ; move++ {
		if move > 3000 {
			m.t.Fatal("the game did not end")
		}
		if m.game == "improv" && move == 80 {
			break
		}
		if !playOn(m.t, h, players) {
			if m.game == "improv" {
				m.t.Fatal("the campaign ended by itself")
			}
			break
		}
	}
	h.bot.Idle()
	m.settled()
	if m.game == "improv" {
		return
	}
	posts, _ := h.db.Posts(gameID)
	where := h.ch
	if posts.Thread != "" {
		where = posts.Thread
	}
	if final := h.fake.Message(where, posts.Table); final == nil || len(final.Buttons()) != 1 || final.ButtonID("Rematch") == "" {
		m.t.Fatalf("the final table is missing or offers more than a rematch: %v", final)
	}
}
