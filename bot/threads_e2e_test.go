package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// openIn opens a game with its players in the harness's channel and starts
// it; it returns the lobby message's id.
func openIn(t *testing.T, h *harness, game string, users []*fakediscord.User, opts ...fakediscord.Option) string {
	t.Helper()
	lobby := joinIn(t, h, game, users, opts...)
	startIn(t, h, users)
	return lobby
}

// joinIn opens a lobby in the harness's channel and seats users in it.
func joinIn(t *testing.T, h *harness, game string, users []*fakediscord.User, opts ...fakediscord.Option) string {
	t.Helper()
	users[0].Command(h.ch, "game", newGame(game, opts...))
	lobby := h.tableID()
	for _, u := range users[1:] {
		u.Click(h.table(), h.table().ButtonID("Join"))
	}
	return lobby
}

// startIn has the host press Start.
func startIn(t *testing.T, h *harness, users []*fakediscord.User) {
	t.Helper()
	if r := users[0].Click(h.table(), h.table().ButtonID("Start")); r == nil || r.Type == 0 {
		t.Fatalf("Start answered %+v", r)
	}
}

// threadOf is the one thread the bot started in the harness's channel.
func threadOf(t *testing.T, h *harness) fakediscord.Thread {
	t.Helper()
	th := h.fake.Threads(h.ch)
	if len(th) != 1 {
		t.Fatalf("%d threads in the channel; want 1: %+v", len(th), th)
	}
	return th[0]
}

// A duel in a server that lets the bot start threads: the lobby in the
// channel starts the game's thread, the whole game is played there with
// the table always its last message, a restart changes nothing, and the
// channel hears only the lobby and the result, from which a rematch opens.
func TestDuelLivesInItsThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	users := []*fakediscord.User{ann, bea}
	lobby := openIn(t, h, "duel", users)
	gameID := h.record().ID

	th := threadOf(t, h)
	if th.ID != lobby || !strings.Contains(th.Name, "Card Duel") || !strings.Contains(th.Name, "Ann") {
		t.Fatalf("thread %+v; want one named for the duel, started from the lobby %s", th, lobby)
	}
	if h.where() != th.ID {
		t.Fatalf("the game's messages go to %s, not its thread %s", h.where(), th.ID)
	}
	note := h.fake.Message(h.ch, lobby)
	if len(note.Buttons()) != 0 || !strings.Contains(note.Text(), "<#"+th.ID+">") {
		t.Fatalf("the lobby message after the start reads:\n%s", note.Text())
	}
	inChannel := len(h.fake.Messages(h.ch))

	// Commands and buttons work from the thread and from the channel.
	if r := bea.Command(th.ID, "game", fakediscord.Sub("hand")); r == nil || !strings.Contains(r.Message.Text(), "only you can see this") {
		t.Fatalf("/game hand in the thread answered %+v", r)
	}
	mustRefuse(t, bea.Command(th.ID, "game", newGame("life")), "already a game")
	mustRefuse(t, bea.Command(h.ch, "game", newGame("life")), "already a game")

	for move := 0; ; move++ {
		if move > 400 {
			t.Fatal("the duel did not end")
		}
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			break
		}
		all := h.fake.Messages(th.ID)
		if last := all[len(all)-1]; last.ID != h.tableID() {
			t.Fatalf("move %d: the thread's last message is not the table but %q", move, last.Text())
		}
		if n := len(h.fake.Messages(h.ch)); n != inChannel {
			t.Fatalf("move %d: %d messages in the channel; the game should stay in its thread", move, n)
		}
		if move == 6 {
			h.restart()
		}
		if !playOn(t, h, users) {
			break
		}
	}
	h.bot.Idle()
	if d := h.fake.Duplicates(th.ID); len(d) != 0 {
		t.Fatalf("%d messages posted twice in the thread", len(d))
	}
	posts, _ := h.db.Posts(gameID)
	final := h.fake.Message(th.ID, posts.Table)
	if final == nil || final.ButtonID("Rematch") == "" || !strings.Contains(final.Text(), "wins") {
		t.Fatalf("the thread's final table:\n%v", final)
	}
	// The channel: the lobby, then the result, nothing in between.
	msgs := h.fake.Messages(h.ch)
	if len(msgs) != inChannel+1 {
		t.Fatalf("%d messages in the channel after the game; want the lobby and the result", len(msgs))
	}
	result := msgs[len(msgs)-1]
	if !strings.Contains(result.Text(), "<#"+th.ID+">") || !strings.Contains(result.Text(), "wins") || result.ButtonID("Rematch") == "" {
		t.Fatalf("the result in the channel reads:\n%s", result.Text())
	}
	// A rematch pressed in the thread opens its lobby in the channel.
	if r := bea.Click(final, final.ButtonID("Rematch")); r == nil || !strings.Contains(r.Content, "<#"+h.ch+">") {
		t.Fatalf("rematch answered %+v", r)
	}
	rec := h.record()
	if rec.Status != "lobby" || h.fake.Message(h.ch, h.tableID()) == nil {
		t.Fatalf("the rematch lobby is not in the channel: %s", rec.Status)
	}
	// The finished game's thread no longer speaks for the channel's game.
	mustRefuse(t, ann.Command(th.ID, "game", fakediscord.Sub("table")), "thread's game is over")
	ann.Click(h.table(), h.table().ButtonID("Start"))
	if th := h.fake.Threads(h.ch); len(th) != 2 {
		t.Fatalf("the rematch has no thread of its own: %+v", th)
	}
}

// /game new typed in a finished game's thread points to the channel rather
// than opening a lobby there, away from where it was asked for.
func TestNewGameFromAnOldThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openIn(t, h, "duel", []*fakediscord.User{ann, bea})
	th := threadOf(t, h)
	h.endGame(ann, th.ID)
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatal("the game did not end")
	}
	mustRefuse(t, bea.Command(th.ID, "game", newGame("life")), "Open a new one with /game new in <#"+h.ch+">")
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("a %s lobby opened from the old thread", g.Kind)
	}
	if r := bea.Command(h.ch, "game", newGame("life")); r == nil || !strings.Contains(r.Content, "lobby is opening") {
		t.Fatalf("/game new in the channel answered %+v", r)
	}
}

// Role play in a thread: /say lines are posted there, and 🎭 reactions in
// the thread reach the game, also after a restart.
func TestLifeRolePlayInItsThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	openIn(t, h, "life", []*fakediscord.User{ann, bea, cy})
	th := threadOf(t, h)
	if r := ann.Command(th.ID, "say", fakediscord.Str("line", "I hum as I deal.")); r == nil || r.Type == 0 {
		t.Fatalf("/say answered %+v", r)
	}
	var line *fakediscord.Message
	for _, m := range h.fake.Messages(th.ID) {
		if strings.HasPrefix(m.Content, "🎭") && strings.Contains(m.Content, "I hum as I deal.") {
			line = m
		}
	}
	if line == nil {
		t.Fatal("the /say line is not in the thread")
	}
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Content, "I hum") {
			t.Fatal("the /say line went to the channel")
		}
	}
	h.restart()
	bea.React(line, "🎭")
	h.bot.Idle()
	if _, got := markers(lifeState(t, h), 0); got != 1 {
		t.Fatalf("Ann received %d markers; want Bea's", got)
	}
	ann.React(line, "🎭") // her own line: refused, and taken back
	h.bot.Idle()
	if got := h.fake.Message(th.ID, line.ID).Reactions["🎭"]; !slices.Equal(got, []string{bea.ID}) {
		t.Fatalf("🎭 on Ann's line by %v; want only Bea's", got)
	}
}

// Where the bot may not start threads, or the server turned them off, the
// game is played in the channel as before.
func TestThreadsOffOrNotPermitted(t *testing.T) {
	t.Run("not permitted", func(t *testing.T) {
		h := newHarness(t, withThreads)
		h.fake.DenyThreads(h.ch)
		users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
		openIn(t, h, "duel", users)
		if th := h.fake.Threads(h.ch); len(th) != 0 || h.where() != h.ch {
			t.Fatalf("threads %+v, game in %s", th, h.where())
		}
		if h.table().ButtonID("My hand") == "" {
			t.Fatalf("no table in the channel:\n%s", h.table().Text())
		}
		if c := h.fake.RESTCounts(); c.Invalid != 0 {
			t.Fatalf("%d requests Discord counts as invalid", c.Invalid)
		}
	})
	t.Run("turned off", func(t *testing.T) {
		h := newHarness(t, withThreads)
		ann, mod := h.fake.AddUser("Ann"), h.fake.AddAdmin("Mo")
		mustRefuse(t, ann.Command(h.ch, "game", fakediscord.Sub("settings", fakediscord.Bool("threads", false))), "Manage Channel")
		if r := mod.Command(h.ch, "game", fakediscord.Sub("settings", fakediscord.Bool("threads", false))); r == nil || !strings.Contains(r.Content, "Threads are off") {
			t.Fatalf("settings answered %+v", r)
		}
		if r := ann.Command(h.ch, "game", fakediscord.Sub("settings")); r == nil || !strings.Contains(r.Content, "Threads are off") {
			t.Fatalf("settings shown as %+v", r)
		}
		openIn(t, h, "duel", []*fakediscord.User{ann, h.fake.AddUser("Bea")})
		if th := h.fake.Threads(h.ch); len(th) != 0 {
			t.Fatalf("a thread was started with threads off: %+v", th)
		}
		mod.Command(h.ch, "game", fakediscord.Sub("settings", fakediscord.Bool("threads", true)))
		h.endGame(mod, h.ch)
		openIn(t, h, "duel", []*fakediscord.User{ann, h.fake.AddUser("Cy")})
		threadOf(t, h)
	})
}

// A kill at each step of the output that moves a game into its thread:
// after the restart there is still one thread, the table is in it once, and
// nothing in the channel or the thread was posted twice.
func TestKillWhileMovingIntoTheThread(t *testing.T) {
	var mu sync.Mutex
	killed := map[string]bool{}
	t.Cleanup(func() {
		if !killed["thread"] || !killed["table"] {
			t.Errorf("kills at %v; want one as the thread starts and one as the table is posted", killed)
		}
	})
	for target := 1; target <= 6; target++ {
		t.Run(fmt.Sprint(target), func(t *testing.T) {
			step := killWhileMoving(t, target)
			mu.Lock()
			killed[step] = true
			mu.Unlock()
		})
	}
}

// killWhileMoving kills the bot at the target-th step of the start's
// output (the lobby is posted and joined first) and returns which step
// that was.
func killWhileMoving(t *testing.T, target int) (killedAt string) {
	{
		h := newHarness(t, withThreads)
		users := []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")}
		joinIn(t, h, "duel", users)
		steps := 0
		h.crashAt = func(step string) bool {
			steps++
			if steps == target {
				killedAt = step
			}
			return steps == target
		}
		startIn(t, h, users)
		h.crashAt = nil
		if h.killed {
			h.killed = false
			h.restart()
		}
		th := threadOf(t, h)
		if owed, _ := h.db.Pending(); len(owed) != 0 {
			t.Fatalf("kill at step %d: output still owed", target)
		}
		for _, ch := range []string{h.ch, th.ID} {
			if d := h.fake.Duplicates(ch); len(d) != 0 {
				t.Fatalf("kill at step %d: %q posted twice", target, d[0].Content)
			}
		}
		tables := 0
		for _, m := range h.fake.Messages(th.ID) {
			if m.ButtonID("My hand") != "" {
				tables++
			}
		}
		if tables != 1 || h.where() != th.ID {
			t.Fatalf("kill at step %d: %d tables in the thread", target, tables)
		}
		if !playOn(t, h, users) {
			t.Fatalf("kill at step %d: the game cannot go on", target)
		}
	}
	return killedAt
}

// The thread is started but Discord's answer is lost: the bot asks again,
// hears that the lobby already has its thread, and moves the game into it.
func TestThreadStartedButAnswerLost(t *testing.T) {
	h := newHarness(t, withThreads)
	h.fake.FailNextAfter("POST", "/channels/{channel}/messages/{message}/threads", 500, 1)
	lobby := openIn(t, h, "duel", []*fakediscord.User{h.fake.AddUser("Ann"), h.fake.AddUser("Bea")})
	if h.fake.PendingFaults() != 0 {
		t.Fatal("the lost answer was never asked for")
	}
	if th := threadOf(t, h); th.ID != lobby || h.where() != lobby {
		t.Fatalf("the game is in %s, its thread is %s", h.where(), th.ID)
	}
	if h.table().ButtonID("My hand") == "" {
		t.Fatalf("no table in the thread:\n%s", h.table().Text())
	}
}

// A game whose channel or thread is deleted is closed at once: its timers
// would otherwise keep posting where nothing exists, each post a 404.
func TestGameClosesWhenItsChannelOrThreadIsDeleted(t *testing.T) {
	t.Run("channel", func(t *testing.T) {
		h := newHarness(t)
		duelTable(t, h, h.ch, 0)
		h.fake.DeleteChannel(h.ch)
		h.bot.Idle()
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatalf("the game of a deleted channel is still %s", g.Status)
		}
		before := h.fake.RESTCounts().NotFound
		h.tick(11 * time.Minute) // the absent player's deadline
		h.tick(8 * 24 * time.Hour)
		if n := h.fake.RESTCounts().NotFound - before; n != 0 {
			t.Fatalf("%d requests answered 404 after the channel was deleted", n)
		}
	})
	t.Run("thread", func(t *testing.T) {
		h := newHarness(t, withThreads)
		ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
		openIn(t, h, "duel", []*fakediscord.User{ann, bea})
		th := threadOf(t, h)
		h.fake.DeleteThread(th.ID)
		h.bot.Idle()
		if g, _ := h.db.Game(h.ch); g != nil {
			t.Fatalf("the game of a deleted thread is still %s", g.Status)
		}
		before := h.fake.RESTCounts().NotFound
		h.tick(11 * time.Minute)
		if n := h.fake.RESTCounts().NotFound - before; n != 0 {
			t.Fatalf("%d requests answered 404 after the thread was deleted", n)
		}
		if r := bea.Command(h.ch, "game", newGame("life")); r == nil || !strings.Contains(r.Content, "lobby is opening") {
			t.Fatalf("/game new in the channel answered %+v", r)
		}
	})
}

// A channel deleted while the bot was down sends no event: the first post
// there that answers 404 Unknown Channel closes its game, so its timers do
// not go on posting into nothing, and stops the rest of that output at once
// (it once went on: 2 more 404s).
func TestGameClosesWhenItsChannelVanishedWhileTheBotWasDown(t *testing.T) {
	h := newHarness(t)
	duelTable(t, h, h.ch, 0)
	h.stop()
	h.fake.DeleteChannel(h.ch)
	h.start()
	before := h.fake.RESTCounts().NotFound
	h.tick(11 * time.Minute) // the absent player's move, and its output
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the game of the deleted channel is still %s", g.Status)
	}
	h.tick(8 * 24 * time.Hour)
	if n := h.fake.RESTCounts().NotFound - before; n > 1 {
		t.Fatalf("%d requests answered 404 after the channel was found gone", n)
	}
}

// A game's thread archives itself after a week without a message (an
// Improv campaign rests between sessions). The table must still change
// when play resumes from the parent channel: the bot reopens the thread
// when Discord refuses the edit, and edits again.
func TestTableInArchivedThreadIsStillDrawn(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openIn(t, h, "improv", []*fakediscord.User{ann, bea})
	th := threadOf(t, h)
	h.tick(time.Hour) // the reminder
	h.tick(8 * 24 * time.Hour)
	if !h.fake.Archived(th.ID) {
		t.Fatal("the fake did not archive a thread idle for 8 days")
	}
	before := h.table().Text()
	r := ann.Command(h.ch, "game", fakediscord.Sub("hand")) // the GM's hand, from the parent channel
	if r == nil || r.Message == nil {
		t.Fatalf("/game hand answered %+v", r)
	}
	id := r.Message.ButtonID("Open a conflict")
	if id == "" {
		t.Fatalf("no Open a conflict on the GM's hand:\n%s", r.Message.Text())
	}
	ann.Click(r.Message, id)
	h.bot.Idle()
	if after := h.table().Text(); after == before {
		t.Fatalf("the table in the archived thread was not redrawn:\n%s", after)
	}
	if h.fake.Archived(th.ID) {
		t.Fatal("the thread is still archived")
	}
	if n := h.fake.ArchivedRefusals(); n != 1 {
		t.Fatalf("%d requests refused in the archived thread, want the one edit that found it", n)
	}
}

// The bot is down across the week mark: on restart, the idle close edits
// the table of a thread that archived meanwhile, and its buttons go.
func TestIdleCloseReachesAnArchivedThread(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openIn(t, h, "life", []*fakediscord.User{ann, bea})
	th := threadOf(t, h)
	h.tick(time.Hour) // the reminder, and the table below it
	table := h.tableID()
	h.stop()
	h.advance(7*24*time.Hour + 2*time.Hour)
	h.start()
	h.tick(0)
	h.bot.Idle()
	if g, _ := h.db.Game(h.ch); g != nil {
		t.Fatalf("the idle game is still %s", g.Status)
	}
	if h.fake.Archived(th.ID) {
		t.Fatal("the thread is still archived")
	}
	m := h.fake.Message(th.ID, table)
	if m == nil {
		t.Fatal("the table is gone")
	}
	for _, b := range m.Buttons() {
		if !b.Disabled {
			t.Fatalf("the closed table keeps its button %q:\n%s", b.Label, m.Text())
		}
	}
}
