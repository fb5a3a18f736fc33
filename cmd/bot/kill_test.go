package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// childEnv makes the test binary run the bot's main instead of the tests:
// the kill test's bot is a process of its own, so that SIGKILL ends it.
const childEnv = "CARDBOT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// botProcess is the bot running as a child process against the fake.
type botProcess struct {
	cmd  *exec.Cmd
	logs *logBuffer
	done chan struct{}
}

func startBot(t *testing.T, fake *fakediscord.Server, dbPath string) *botProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = t.TempDir() // no .env
	cmd.Env = append(os.Environ(), childEnv+"=1",
		"DISCORD_TOKEN="+fakediscord.BotToken,
		"DISCORD_API_URL="+fake.URL(),
		"DISCORD_GUILD_ID="+fake.GuildID(),
		"DATABASE_PATH="+dbPath,
		"SHARD_ID=", "SHARD_COUNT=",
		"LOG_LEVEL=warn")
	p := &botProcess{cmd: cmd, logs: &logBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill() // a test that failed half-way leaves none behind
		<-p.done
	})
	return p
}

// kill ends the process with SIGKILL, as an OOM killer or a pulled plug
// would: no deferred close, no last commit.
func (p *botProcess) kill(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop asks the process to shut down, as a service manager does.
func (p *botProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.kill(t)
		t.Fatal("the bot did not stop within 30 s of SIGTERM")
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("the bot exited with %d after SIGTERM:\n%s", code, p.logs)
	}
}

// checkLogs fails the test on a panic, a data race or an error in the
// bot's log. A kill is not an error: what the next process finds after it
// (output owed, a message gone) it handles without logging one.
func (p *botProcess) checkLogs(t *testing.T, run int) {
	t.Helper()
	for _, line := range strings.Split(p.logs.String(), "\n") {
		if strings.Contains(line, "panic") || strings.Contains(line, "DATA RACE") || strings.Contains(line, "level=ERROR") {
			t.Errorf("process %d logged: %s", run, line)
		}
		// Interaction tokens are credentials for 15 minutes: never logged
		// (the fake's, like Discord's, are base64 of "interaction:…").
		if strings.Contains(line, "aW50ZXJhY3Rpb246") {
			t.Errorf("process %d logged an interaction token: %s", run, line)
		}
	}
}

// idVersion reads a game id and move counter from a custom_id.
var idVersion = regexp.MustCompile(`^(?:lobby|move|ask|text):([a-z2-9]{8}):(\d+):`)

// shownVersions is, per game, the highest move counter any message in the
// channels shows (public or ephemeral): every view is drawn from a
// committed state, so the store must hold at least that much.
func shownVersions(tables []*randomTable) map[string]int {
	seen := map[string]int{}
	note := func(m *fakediscord.Message) {
		for _, row := range m.Components {
			ids := []string{}
			for _, b := range row.Buttons {
				ids = append(ids, b.CustomID)
			}
			if row.Select != nil {
				ids = append(ids, row.Select.CustomID)
			}
			for _, id := range ids {
				if g := idVersion.FindStringSubmatch(id); g != nil {
					v, _ := strconv.Atoi(g[2])
					seen[g[1]] = max(seen[g[1]], v)
				}
			}
		}
	}
	for _, rt := range tables {
		for _, where := range rt.places() {
			for _, m := range rt.fake.Messages(where) {
				note(m)
			}
			for _, u := range rt.users {
				for _, m := range u.Ephemerals(where) {
					note(m)
				}
			}
		}
	}
	return seen
}

// checkStore opens the database the killed process left and checks that
// every game holds at least the move counter its messages showed.
func checkStore(t *testing.T, dbPath string, shown map[string]int, kill int) (games int) {
	t.Helper()
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatalf("after kill %d the database does not open: %v", kill, err)
	}
	defer db.Close()
	for id, v := range shown {
		g, _, err := db.Find(id)
		switch {
		case err != nil:
			t.Errorf("after kill %d: %v", kill, err)
		case g == nil:
			t.Errorf("after kill %d game %s, shown at move %d, is not in the store", kill, id, v)
		case g.Version < v:
			t.Errorf("after kill %d game %s is at move %d, but move %d was shown: a committed move was lost", kill, id, g.Version, v)
		}
	}
	return len(shown)
}

// randomTable plays one channel: a game of its kind is opened, joined and
// started, then a random player clicks a random control of their hand (or
// a vote under a game message), typing into any text box it opens; a game
// that ends is followed by a new one.
type randomTable struct {
	kind   string
	seats  int
	ch     string
	fake   *fakediscord.Server
	users  []*fakediscord.User
	mod    *fakediscord.User // deletes a table now and then
	rng    *rand.Rand
	joined map[string]bool // "game/user" that clicked Join

	opened, moves atomic.Int64 // read while the table plays
}

// gameIDOf is the game id in a custom_id, or "".
func gameIDOf(customID string) string {
	parts := strings.Split(customID, ":")
	if len(parts) >= 2 && len(parts[1]) == 8 {
		return parts[1]
	}
	return ""
}

// places are the channel and its threads (a game moves into one), newest
// first.
func (r *randomTable) places() []string {
	out := []string{}
	th := r.fake.Threads(r.ch)
	for i := len(th) - 1; i >= 0; i-- {
		out = append(out, th[i].ID)
	}
	return append(out, r.ch)
}

// table is the newest bot message with game or lobby controls, in the
// channel or its threads (a rematch may open in the channel while the
// last game's table stays in its thread).
func (r *randomTable) table() *fakediscord.Message {
	var newest *fakediscord.Message
	var at uint64
	for _, where := range r.places() {
		msgs := r.fake.Messages(where)
		for i := len(msgs) - 1; i >= 0; i-- {
			m := msgs[i]
			if m.AuthorID != r.fake.BotUserID() {
				continue
			}
			if id, _ := strconv.ParseUint(m.ID, 10, 64); id > at && hasControls(m) {
				newest, at = m, id
				break
			}
		}
	}
	return newest
}

// doubledTables are the games with more than one message bearing their
// table's My hand button: a table posted twice, the old copy left behind.
func (r *randomTable) doubledTables() []string {
	n := map[string]int{}
	var out []string
	for _, where := range r.places() {
		for _, m := range r.fake.Messages(where) {
			for _, b := range m.Buttons() {
				if strings.HasPrefix(b.CustomID, "hand:") {
					if n[b.CustomID]++; n[b.CustomID] == 2 {
						out = append(out, b.CustomID)
					}
				}
			}
		}
	}
	return out
}

func hasControls(m *fakediscord.Message) bool {
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, "hand:") || strings.HasPrefix(b.CustomID, "lobby:") {
			return true
		}
	}
	return false
}

// step does one thing at the table; false if there was nothing to do.
func (r *randomTable) step() bool {
	t := r.table()
	var hand, join, start, rematch string
	if t != nil {
		for _, b := range t.Buttons() {
			switch {
			case b.Disabled:
			case strings.HasPrefix(b.CustomID, "hand:"):
				hand = b.CustomID
			case strings.HasSuffix(b.CustomID, ":join"):
				join = b.CustomID
			case strings.HasSuffix(b.CustomID, ":start"):
				start = b.CustomID
			case strings.HasSuffix(b.CustomID, ":rematch"):
				rematch = b.CustomID
			}
		}
	}
	switch {
	case hand != "" && r.rng.IntN(40) == 0: // someone asks for the table at the bottom
		r.users[r.rng.IntN(r.seats)].Client().Command(r.ch, "game", fakediscord.Sub("table"))
	case hand != "" && r.rng.IntN(80) == 0: // a moderator tidies the channel
		r.mod.Client().DeleteMessage(t)
	case hand != "":
		return r.play(t, hand)
	case join != "":
		for _, u := range r.users[1:r.seats] {
			key := gameIDOf(join) + "/" + u.ID
			if !r.joined[key] {
				if rep, err := u.Client().Click(t, join); err == nil && rep.Type != 0 {
					r.joined[key] = true
				}
				return true
			}
		}
		if start == "" {
			return false
		}
		r.users[0].Client().Click(t, start)
	case rematch != "": // the game is over; its players go again
		rep, err := r.users[r.rng.IntN(r.seats)].Client().Click(t, rematch)
		if err == nil && strings.Contains(rep.Content, "rematch lobby") {
			r.opened.Add(1)
			return true
		}
		// Refused: a newer game runs, its table out of sight (a moderator
		// deleted it); now and then someone asks for it.
		r.askForTable()
		return false
	default: // no game, or it ended
		rep, err := r.users[0].Client().Command(r.ch, "game", fakediscord.Group("new", fakediscord.Sub(r.kind)))
		switch {
		case err != nil || rep.Type == 0:
		case strings.Contains(rep.Content, "already"):
			// Its table is on its way, or a moderator deleted it and no
			// move has posted it anew.
			r.askForTable()
			return false
		default:
			r.opened.Add(1)
		}
	}
	return true
}

// askForTable: now and then, a player who sees no table asks for it.
func (r *randomTable) askForTable() {
	if r.rng.IntN(10) == 0 {
		r.users[0].Client().Command(r.ch, "game", fakediscord.Sub("table"))
	}
}

// play has a random player open their hand and use one of its controls,
// or vote under one of the game's messages.
func (r *randomTable) play(t *fakediscord.Message, hand string) bool {
	u := r.users[r.rng.IntN(r.seats)]
	cl := u.Client()
	if r.rng.IntN(10) == 0 && r.vote(cl) {
		return true
	}
	rep, err := cl.Click(t, hand)
	if err != nil || rep.Type == 0 || rep.Message == nil {
		return true
	}
	m := rep.Message
	var buttons []string
	for _, b := range m.Buttons() {
		if !b.Disabled && (strings.HasPrefix(b.CustomID, "move:") || strings.HasPrefix(b.CustomID, "ask:")) {
			buttons = append(buttons, b.CustomID)
		}
	}
	var selects []fakediscord.Select
	for _, s := range m.Selects() {
		if !s.Disabled && strings.HasPrefix(s.CustomID, "move:") && len(s.Options) > 0 {
			selects = append(selects, s)
		}
	}
	n := len(buttons) + len(selects)
	if n == 0 {
		return false // this player waits; another may not
	}
	pick := r.rng.IntN(n)
	if pick < len(buttons) {
		rep, err = cl.Click(m, buttons[pick])
	} else {
		s := selects[pick-len(buttons)]
		k := s.Min + r.rng.IntN(max(1, min(s.Max, len(s.Options))-s.Min+1))
		var values []string
		for _, i := range r.rng.Perm(len(s.Options))[:max(k, min(1, len(s.Options)))] {
			values = append(values, s.Options[i].Value)
		}
		rep, err = cl.Select(m, s.CustomID, values...)
	}
	if err == nil && rep.Modal != nil {
		values := map[string]string{}
		for _, in := range rep.Modal.Inputs {
			text := "a bold move in the rain"
			if in.MaxLength > 0 && len(text) > in.MaxLength {
				text = text[:in.MaxLength]
			}
			values[in.CustomID] = text
		}
		rep, err = cl.Submit(rep.Modal, values)
	}
	if err == nil && rep.Type != 0 {
		r.moves.Add(1)
	}
	return true
}

// vote presses a button under one of the game's own messages, if any.
func (r *randomTable) vote(cl *fakediscord.Client) bool {
	for _, where := range r.places() {
		msgs := r.fake.Messages(where)
		for i := len(msgs) - 1; i >= 0 && i >= len(msgs)-5; i-- {
			for _, b := range msgs[i].Buttons() {
				if !b.Disabled && strings.HasPrefix(b.CustomID, "act:") {
					cl.Click(msgs[i], b.CustomID)
					return true
				}
			}
		}
	}
	return false
}

// TestSIGKILLLosesNoShownMove plays all five games at random in their own
// channels while the bot's process is killed with SIGKILL at random
// moments and started again on the same file. After each kill the store
// must hold every move any message showed, and in the end every table
// still plays and nothing was posted twice or left behind. The fake fails
// the test on anything Discord would refuse; interactions cut off by a
// kill may fail. Run once as is, and once while the fake also answers
// some requests with 429s and 5xx and loses some responses. Both keep
// Discord's 3 s for answers: the bot defers a slow one at 2 s, and a
// shorter deadline failed now and then a click that met a process just
// started (about one run in twenty) though Discord would have taken it.
func TestSIGKILLLosesNoShownMove(t *testing.T) {
	t.Run("kills", func(t *testing.T) {
		fake := fakediscord.New(t)
		killRandomPlay(t, fake)
	})
	t.Run("kills and faults", func(t *testing.T) {
		fake := fakediscord.New(t)
		fake.Faults(fakediscord.Faults{Seed: 5, RateLimit: 0.03, ServerError: 0.03, BadGateway: 0.01, LostResponse: 0.03})
		killRandomPlay(t, fake)
	})
}

func killRandomPlay(t *testing.T, fake *fakediscord.Server) {
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	var tables []*randomTable
	for i, r := range bot.Catalog() {
		rt := &randomTable{kind: r.ID, seats: 3, ch: fake.NewChannel(r.ID), fake: fake,
			rng: rand.New(rand.NewPCG(uint64(i), 13)), joined: map[string]bool{}}
		if r.MaxPlayers < 3 {
			rt.seats = r.MaxPlayers
		}
		for s := range rt.seats {
			u := fake.AddUser(fmt.Sprintf("%s%d", r.ID, s))
			rt.users = append(rt.users, u)
		}
		rt.mod = fake.AddAdmin(r.ID + "mod")
		tables = append(tables, rt)
	}

	var logs strings.Builder // every process's, for a failure
	p := startBot(t, fake, dbPath)
	if !fake.AwaitConnected() {
		t.Fatalf("the bot did not connect:\n%s", p.logs)
	}
	for len(fake.Commands(fake.GuildID())) == 0 { // registered just after connecting
		select {
		case <-fake.Changes():
		case <-time.After(10 * time.Second):
			t.Fatalf("the bot registered no commands:\n%s", p.logs)
		}
	}
	var gate sync.RWMutex // the players hold it for reading while they act
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, rt := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				changed := fake.Changes()
				gate.RLock()
				did := rt.step()
				gate.RUnlock()
				if !did {
					select {
					case <-changed:
					case <-stop:
					}
				}
			}
		}()
	}

	const kills = 6
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for k := 1; k <= kills; k++ {
		time.Sleep(time.Duration(300+rng.IntN(900)) * time.Millisecond) // play a while; the kill lands wherever play is
		p.kill(t)
		fake.Killed() // what the dead process had pending fails; that is the kill's doing
		gate.Lock()   // clicks under way end (unanswered) and no new ones start
		p.checkLogs(t, k)
		logs.WriteString(p.logs.String())
		checked = max(checked, checkStore(t, dbPath, shownVersions(tables), k))
		p = startBot(t, fake, dbPath)
		if !fake.AwaitConnected() {
			gate.Unlock()
			t.Fatalf("after kill %d the bot did not connect:\n%s", k, p.logs)
		}
		gate.Unlock()
	}

	// The last process plays on: every table still moves.
	before := make([]int64, len(tables))
	for i, rt := range tables {
		before[i] = rt.moves.Load()
	}
	deadline := time.Now().Add(20 * time.Second)
	for i, rt := range tables {
		for rt.moves.Load() <= before[i]+2 && time.Now().Before(deadline) {
			select {
			case <-fake.Changes():
			case <-time.After(time.Until(deadline)):
			}
		}
		if rt.moves.Load() <= before[i]+2 {
			t.Errorf("%s: no moves after the last restart", rt.kind)
			if tb := rt.table(); tb != nil {
				t.Logf("its table:\n%s\n[%s]", tb.Text(), tb.ButtonsLine())
			}
		}
	}
	close(stop)
	wg.Wait()
	p.stop(t)
	p.checkLogs(t, kills+1)
	logs.WriteString(p.logs.String())
	if t.Failed() {
		logStore(t, dbPath, tables)
	}
	checkStore(t, dbPath, shownVersions(tables), kills+1)

	for _, rt := range tables {
		if d := rt.doubledTables(); len(d) > 0 {
			t.Errorf("%s: tables left behind, a second copy posted: %v", rt.kind, d)
			for _, where := range rt.places() {
				for _, m := range fake.Messages(where) {
					if hasControls(m) {
						t.Logf("in %s: message %s (nonce %q): %.60q [%s]", where, m.ID, m.Nonce, m.Text(), m.ButtonsLine())
					}
				}
			}
			t.Logf("the bot's warnings:\n%s", logs.String())
			logStore(t, dbPath, tables)
		}
		for _, where := range rt.places() {
			if dup := fake.Duplicates(where); len(dup) > 0 {
				t.Errorf("%s: %d messages posted twice, the first: %q", rt.kind, len(dup), dup[0].Text())
			}
		}
		opened, moves := rt.opened.Load(), rt.moves.Load()
		if opened == 0 || moves == 0 {
			t.Errorf("%s: %d games opened, %d moves answered", rt.kind, opened, moves)
		}
		t.Logf("%s: %d games opened, %d moves answered", rt.kind, opened, moves)
	}
	if checked == 0 {
		t.Error("no game showed a move counter at any kill")
	}
	var failed int
	for _, f := range fake.FailedInteractions() {
		if !f.Faulted {
			t.Errorf("interaction failed with no kill to blame: %+v", f)
		}
		failed++
	}
	t.Logf("%d kills, %d interactions cut off by them", kills, failed)
}

// logStore shows what the store holds for each table, for a failure.
func logStore(t *testing.T, dbPath string, tables []*randomTable) {
	db, err := store.Open(dbPath)
	if err != nil {
		t.Log(err)
		return
	}
	defer db.Close()
	for _, rt := range tables {
		if g, _ := db.Game(rt.ch); g != nil {
			ps, _ := db.Posts(g.ID)
			t.Logf("%s: game %s, %s at move %d, posts %+v", rt.kind, g.ID, g.Status, g.Version, ps)
		}
	}
	owed, _ := db.Pending()
	for _, o := range owed {
		t.Logf("output still owed: %+v", o)
	}
}
