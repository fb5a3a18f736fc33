package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/store"
)

// openDuel opens a Card Duel lobby as ann and seats bea.
func openDuel(t *testing.T, h *harness, ann, bea *fakediscord.User, opts ...fakediscord.Option) {
	t.Helper()
	r := ann.Command(h.ch, "game", newGame("duel", opts...))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("/game new answered %+v", r)
	}
	lobby := h.table()
	if !strings.Contains(lobby.Text(), "Ann (host)") {
		t.Fatalf("lobby does not show the host:\n%s", lobby.Text())
	}
	r = bea.Click(lobby, lobby.ButtonID("Join"))
	if r == nil || r.Type != 7 || !strings.Contains(r.Content, "Bea") {
		t.Fatalf("join answered %+v", r)
	}
}

// startDuel opens a Card Duel, starts it, and has both players build the
// cheapest hand and lock in.
func startDuel(t *testing.T, h *harness, ann, bea *fakediscord.User) {
	t.Helper()
	openDuel(t, h, ann, bea)
	if r := ann.Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type != 7 {
		t.Fatalf("start answered %+v", r)
	}
	buildCheapHand(t, h, ann, 30)
	buildCheapHand(t, h, bea, 30)
}

// buildCheapHand picks the cheapest cards up to the limit and locks in. It
// returns the build view as it was just before locking.
func buildCheapHand(t *testing.T, h *harness, u *fakediscord.User, limit int) *fakediscord.Message {
	t.Helper()
	table := h.table()
	r := u.Click(table, table.ButtonID("My hand"))
	if r == nil || !r.Ephemeral || len(r.Message.Selects()) != 2 {
		t.Fatalf("%s's hand while building: %+v", u.Name, r)
	}
	menu := r.Message.Selects()[0]
	var picks []string
	total := 0
	for _, o := range menu.Options {
		c, err := games.ParseCard(o.Value)
		if err != nil {
			t.Fatalf("option value %q is not a card", o.Value)
		}
		if total+c.PipValue() <= limit {
			total += c.PipValue()
			picks = append(picks, o.Value)
		}
	}
	r = u.Select(r.Message, menu.CustomID, picks...)
	if r == nil || r.Type != 7 {
		t.Fatalf("select answered %+v", r)
	}
	lock := r.Message.ButtonID("Lock in hand")
	if lock == "" {
		t.Fatalf("no lock button:\n%s", r.Message.Text())
	}
	view := r.Message
	r = u.Click(view, lock)
	if r == nil || r.Type != 7 {
		t.Fatalf("lock answered %+v", r)
	}
	return view
}

// mover returns the player whose open hand offers an enabled move: the
// newest of their ephemeral messages with controls (refusals have none).
func mover(h *harness, users ...*fakediscord.User) (*fakediscord.User, *fakediscord.Message, string) {
	for _, u := range users {
		eph := u.Ephemerals(h.ch)
		for i := len(eph) - 1; i >= 0; i-- {
			if len(eph[i].Buttons()) == 0 {
				continue
			}
			for _, b := range eph[i].Buttons() {
				if !b.Disabled {
					return u, eph[i], b.CustomID
				}
			}
			break
		}
	}
	return nil, nil, ""
}

func TestCardDuelPlayedToTheEndAcrossARestart(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	openDuel(t, h, ann, bea, fakediscord.Int("life", 15))
	if text := h.table().Text(); !strings.Contains(text, "Life: **15**") || !strings.Contains(text, "Hand limit: **30**") {
		t.Fatalf("the lobby does not show the options:\n%s", text)
	}

	mustRefuse(t, bea.Click(h.table(), h.table().ButtonID("Start")), "Only the host")
	r := ann.Click(h.table(), h.table().ButtonID("Start"))
	if r == nil || r.Type != 7 || !strings.Contains(h.table().Text(), "Ann vs Bea") {
		t.Fatalf("start answered %+v; the table:\n%s", r, h.table().Text())
	}
	// The table, carrying the turn ping, is the channel's last message.
	if all := h.fake.Messages(h.ch); all[len(all)-1].ID != h.tableID() || !strings.Contains(all[len(all)-1].Content, "your move") {
		t.Fatalf("the last message is not the table with the ping: %q", all[len(all)-1].Content)
	}
	if h.fake.Pings(ann.ID) != 1 || h.fake.Pings(bea.ID) != 1 || h.fake.Pings(cy.ID) != 0 {
		t.Fatalf("pings after the deal: ann %d bea %d cy %d", h.fake.Pings(ann.ID), h.fake.Pings(bea.ID), h.fake.Pings(cy.ID))
	}
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("My hand")), "not playing")

	buildCheapHand(t, h, ann, 30)
	restartsLeft := 1
	buildCheapHand(t, h, bea, 30)

	moves := 0
	for ; moves < 400; moves++ {
		rec, err := h.db.Game(h.ch)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break // the game ended and freed the channel
		}
		// The record, rewritten by every move, keeps only the line the
		// table's footer shows.
		if len(rec.Log) != 1 || !strings.Contains(h.table().Text(), rec.Log[0]) {
			t.Fatalf("after %d moves the record keeps %q; the table:\n%s", moves, rec.Log, h.table().Text())
		}
		if moves == 5 && restartsLeft > 0 {
			restartsLeft--
			before := rec.Version
			h.restart()
			if again, _ := h.db.Game(h.ch); again == nil || again.Version != before {
				t.Fatalf("after restart the game is at %v, want version %d", again, before)
			}
		}
		u, hand, id := mover(h, ann, bea)
		if u == nil {
			t.Fatalf("nobody has a move after %d moves; table:\n%s", moves, h.table().Text())
		}
		r := u.Click(hand, id)
		if r == nil || r.Type != 7 {
			t.Fatalf("move %d by %s answered %+v", moves, u.Name, r)
		}
	}
	if restartsLeft != 0 {
		t.Fatalf("the game ended after %d moves, before the restart", moves)
	}
	final := h.fake.Messages(h.ch)
	var won bool
	for _, m := range final {
		if strings.Contains(m.Text(), "wins") || strings.Contains(m.Text(), "won") {
			won = true
		}
	}
	if !won {
		t.Fatalf("no win narrated after %d moves", moves)
	}
	st, err := h.db.Stats(h.fake.GuildID())
	if err != nil || len(st) != 2 {
		t.Fatalf("stats = %v, %v", st, err)
	}
	wins := st[ann.ID].Games["duel"].Won + st[bea.ID].Games["duel"].Won
	if wins != 1 || st[ann.ID].Games["duel"].Played != 1 {
		t.Fatalf("stats after one duel: %+v %+v", st[ann.ID].Games["duel"], st[bea.ID].Games["duel"])
	}
	// The finished game's buttons answer precisely and change nothing.
	// Both open hands now show the result, with no moves left.
	for _, u := range []*fakediscord.User{ann, bea} {
		if _, _, id := mover(h, u); id != "" {
			t.Fatalf("%s's hand still offers a move after the end: %s", u.Name, id)
		}
		if text := u.LastEphemeral(h.ch).Text(); !strings.Contains(text, "The duel is over") {
			t.Fatalf("%s's hand after the end:\n%s", u.Name, text)
		}
	}
	r = ann.Command(h.ch, "game", fakediscord.Sub("hand"))
	mustRefuse(t, r, "no game in this channel")
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("%d outputs still owed after the game", len(owed))
	}
	r = bea.Command(h.ch, "game", fakediscord.Sub("stats"))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "won of 1 (Card Duel") {
		t.Fatalf("/game stats answered %+v", r)
	}
}

func TestRefusalsChangeNothing(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	openDuel(t, h, ann, bea)

	mustRefuse(t, cy.Command(h.ch, "game", newGame("life")), "already a game of Card Duel")
	mustRefuse(t, bea.Click(h.table(), h.table().ButtonID("Join")), "already at this table")
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("Join")), "table is full")
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("Cancel")), "Only the host")
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("end")), "Only the host")
	mustRefuse(t, cy.Command(h.ch, "game", fakediscord.Sub("hand")), "not playing")
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("hand")), "hasn't started")
	ann.Click(h.table(), h.table().ButtonID("Start"))
	buildCheapHand(t, h, ann, 30)
	stale := buildCheapHand(t, h, bea, 30) // out of date once she has locked in

	before := h.snapshot()
	// Bea's hand shows no moves while Ann attacks; the stale lock button
	// from her build view is refused with her current hand.
	_, hand, id := mover(h, ann, bea)
	if hand.VisibleTo != ann.ID {
		t.Fatalf("the dealer should attack first")
	}
	r := bea.Click(stale, stale.ButtonID("Lock in hand"))
	if r == nil || r.Type != 7 || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("stale click answered %+v", r)
	}
	// Moves the bot never offered them: Bea out of turn, Cy not playing.
	id0, v := h.gameRef()
	mustRefuse(t, forge(bea, h.table(), fmt.Sprintf("move:%s:%d:deck", id0, v)), "It's Ann's turn")
	mustRefuse(t, forge(cy, h.table(), fmt.Sprintf("move:%s:%d:deck", id0, v)), "not playing")
	// A move dressed as a game message's button (whose clicks never go
	// stale) is not taken: those buttons carry only their own verbs.
	mustRefuse(t, forge(ann, h.table(), fmt.Sprintf("act:%s:0:deck", id0)), "isn't one of this game's")
	mustRefuse(t, ann.Command(h.ch, "appeal", fakediscord.UserOpt("player", bea)), "There are no appeals in Card Duel")
	if after := h.snapshot(); after != before {
		t.Fatalf("a refused click changed the game")
	}
	// A double click: the first counts, the second is out of date.
	first := ann.Click(hand, id)
	if first == nil || first.Type != 7 {
		t.Fatalf("first click answered %+v", first)
	}
	second := ann.Click(hand, id)
	if second == nil || !strings.Contains(second.Content, "earlier moment") {
		t.Fatalf("double click answered %+v", second)
	}
	// The host may end the game; afterwards its buttons say so.
	table := h.table()
	r = h.endGame(ann, h.ch)
	if r == nil || !strings.Contains(r.Content, "You ended the game") {
		t.Fatalf("/game end answered %+v", r)
	}
	mustRefuse(t, bea.Click(stale, stale.ButtonID("Lock in hand")), "ended by Ann")
	if m := h.fake.Message(h.ch, table.ID); len(m.Buttons()) != 0 || !strings.Contains(m.Text(), "ended by Ann") {
		t.Fatalf("ended table still has controls:\n%s", m.Text())
	}
}

func TestManageChannelMayEndAnyGame(t *testing.T) {
	h := newHarness(t)
	ann, bea, mod := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddAdmin("Mo")
	openDuel(t, h, ann, bea)
	table := h.tableID()
	r := h.endGame(mod, h.ch)
	if r == nil || !strings.Contains(r.Content, "You ended the game") || !strings.Contains(h.fake.Message(h.ch, table).Text(), "ended by Mo") {
		t.Fatalf("moderator /game end answered %+v", r)
	}
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the channel still has a game")
	}
}

// A move committed just before the bot died, before its output (table,
// narration, ping) went out, gets that output once the bot is back.
func TestCommittedMoveIsShownAfterACrash(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	startDuel(t, h, ann, bea)
	pings := h.fake.Pings(bea.ID)
	h.stop()

	// What the bot had committed when it died: Ann's attack from her deck,
	// with the output it owed.
	db, err := store.Open(h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := db.Game(h.ch)
	g, err := duel.Rules.Load(rec.State)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(0, games.Act(duel.VerbDeck)); err != nil {
		t.Fatal(err)
	}
	rec.State, _ = games.Encode(g)
	rec.Version++
	rec.Waiting = []int{1}
	rec.Seats[1].WaitingSince = rec.Version
	out := &store.Output{Game: rec.ID, Channel: rec.Channel, Version: rec.Version, Events: []games.Event{games.Narrate("A blade flashes.")}, Ping: []int{1}}
	in := []store.Entry{{Input: games.Input{Seat: 0, Action: games.Act(duel.VerbDeck)}}}
	if err := db.Commit(rec, in, out, nil); err != nil {
		t.Fatal(err)
	}
	posts, _ := db.Posts(rec.ID)
	db.Close()
	if strings.Contains(h.fake.Message(h.ch, posts.Table).Text(), "Bea must answer") {
		t.Fatal("the table already shows the move")
	}

	h.start()
	if text := h.table().Text(); !strings.Contains(text, "Bea must answer") {
		t.Fatalf("after the restart the table shows:\n%s", text)
	}
	all := h.fake.Messages(h.ch)
	story := 0
	for _, m := range all {
		if strings.HasPrefix(m.Content, "A blade flashes.") {
			story++
		}
	}
	if story != 1 || h.fake.Pings(bea.ID) != pings+1 {
		t.Fatalf("after the restart: narration posted %d times, Bea pinged %d more", story, h.fake.Pings(bea.ID)-pings)
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("output still owed after it was carried out: %+v", owed)
	}
	h.restart() // and it is not carried out twice
	if n := len(h.fake.Messages(h.ch)); n != len(all) {
		t.Fatalf("a second restart posted %d more messages", n-len(all))
	}
}

// Both players build their hands at once: one player's private picks do not
// make the other's open view out of date.
func TestSimultaneousHandBuilding(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	annView := ann.Click(h.table(), h.table().ButtonID("My hand")).Message
	beaView := bea.Click(h.table(), h.table().ButtonID("My hand")).Message

	first := func(m *fakediscord.Message) (string, string) {
		s := m.Selects()[0]
		return s.CustomID, s.Options[0].Value
	}
	id, card := first(annView)
	if r := ann.Select(annView, id, card); r == nil || r.Type != 7 || strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("Ann's pick answered %+v", r)
	}
	id, card = first(beaView)
	r := bea.Select(beaView, id, card)
	if r == nil || r.Type != 7 || strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("Bea's pick, made while Ann picked, answered %+v", r)
	}
	g, err := duel.Rules.Load(h.record().State)
	if err != nil {
		t.Fatal(err)
	}
	st := g.(*duel.State)
	if len(st.Players[0].Picks) != 1 || len(st.Players[1].Picks) != 1 {
		t.Fatalf("picks saved: Ann %v, Bea %v", st.Players[0].Picks, st.Players[1].Picks)
	}
	// A double submission of Bea's old view is still refused.
	if r := bea.Select(beaView, id, card); r == nil || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("Bea's second submission of the same view answered %+v", r)
	}
}

// Discord limits the requests on each interaction token, and says how many
// are left in the bucket's headers. The bot follows them: while a duel is
// played as fast as the hands show moves, its hand edits run into no 429
// (an invalid request, toward Discord's ban), waiting for the bucket to
// refill instead, and every move is still shown.
func TestHandEditsKeepToTheWebhookBucket(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	startDuel(t, h, ann, bea)
	h.fake.SetWebhookLimit(1, 100*time.Millisecond)
	h.fake.ResetRESTCounts()
	deadline := time.Now().Add(20 * time.Second)
	for moves := 0; moves < 40; moves++ {
		changed := h.fake.Changes()
		u, hand, id := mover(h, ann, bea)
		if u == nil {
			if rec, _ := h.db.Game(h.ch); rec == nil {
				break // the duel ended
			}
			select {
			case <-changed: // a hand edit may be waiting for its bucket
			case <-time.After(time.Until(deadline)):
				t.Fatalf("nobody has a move after %d moves; table:\n%s", moves, h.table().Text())
			}
			moves--
			continue
		}
		if r := u.Click(hand, id); r == nil || r.Type != 7 {
			t.Fatalf("move %d by %s answered %+v", moves, u.Name, r)
		}
	}
	c := h.fake.RESTCounts()
	if c.Invalid != 0 || c.Exhausted == 0 {
		t.Fatalf("%d invalid requests, %d buckets emptied; want none and some: %+v", c.Invalid, c.Exhausted, c)
	}
}

// Where an admin has not let the bot post, /game new and /game table say
// which permissions the bot lacks, at once and without trying (a 403 is
// an invalid request); once it may post, the same commands work.
func TestNoGameWhereTheBotMayNotPost(t *testing.T) {
	h := newHarness(t)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	h.fake.DenyPosting(h.ch)
	h.fake.ResetRESTCounts()
	mustRefuse(t, ann.Command(h.ch, "game", newGame("duel")), "I need Send Messages in this channel")
	if rec, err := h.db.Game(h.ch); rec != nil || err != nil {
		t.Fatalf("a refused /game new left %+v, %v", rec, err)
	}
	if n := len(h.fake.Messages(h.ch)); n != 0 {
		t.Fatalf("%d messages in a channel the bot may not post in", n)
	}

	h.fake.AllowPosting(h.ch)
	startDuel(t, h, ann, bea)
	before := h.snapshot()
	h.fake.DenyPosting(h.ch)
	mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("table")), "A server admin can give me it")
	if h.snapshot() != before {
		t.Fatal("a refused /game table changed the game")
	}
	if owed, _ := h.db.Pending(); len(owed) != 0 {
		t.Fatalf("a refused /game table left %d outputs owed", len(owed))
	}
	if c := h.fake.RESTCounts(); c.Invalid != 0 {
		t.Fatalf("%d invalid requests: %+v", c.Invalid, c)
	}
	h.fake.AllowPosting(h.ch)
	if r := ann.Command(h.ch, "game", fakediscord.Sub("table")); r == nil || strings.Contains(r.Content, "I can't post") {
		t.Fatalf("/game table once the bot may post answered %+v", r)
	}
}
