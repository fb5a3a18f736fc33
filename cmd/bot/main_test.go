package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/bot/localtable"
)

func TestRejectedTokenEndsWithOneSentenceAndNoSecret(t *testing.T) {
	fake := fakediscord.New(t)
	fake.ExpectFailure("401: Unauthorized")
	const secret = "not-the-real-token-0123456789"
	t.Chdir(t.TempDir())
	t.Setenv("DISCORD_TOKEN", secret)
	t.Setenv("DISCORD_API_URL", fake.APIURL())
	t.Setenv("DATABASE_PATH", filepath.Join(t.TempDir(), "bot.db"))
	err := run(context.Background(), io.Discard)
	if !errors.Is(err, bot.ErrTokenRejected) {
		t.Fatalf("run() = %v; want ErrTokenRejected", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatal("the error repeats the token")
	}
}

func TestSettingsComeFromDotEnv(t *testing.T) {
	fake := fakediscord.New(t)
	fake.ExpectFailure("401: Unauthorized")
	dir := t.TempDir()
	t.Chdir(dir)
	env := "DISCORD_TOKEN=from-dotenv\nDISCORD_API_URL=" + fake.URL() + "\nDATABASE_PATH=" + filepath.Join(dir, "bot.db") + "\n"
	if err := os.WriteFile(".env", []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"DISCORD_TOKEN", "DISCORD_API_URL", "DATABASE_PATH"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	// The token from .env reached the fake Discord, which refused it.
	if err := run(context.Background(), io.Discard); !errors.Is(err, bot.ErrTokenRejected) {
		t.Fatalf("run() = %v; want the .env token to be tried and rejected", err)
	}
}

// logBuffer collects run's log, safe for the test to read while it runs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

var startedRe = regexp.MustCompile(`starting the local table at (http://\S+)`)

// localTable is a run of the program without a token.
type localTable struct {
	t    testing.TB
	url  string
	logs *logBuffer
	stop func() error
}

// startLocal runs the program without a token, on addr (LOCAL_TABLE_ADDR)
// with the database at dbPath, until the test ends or stop.
func startLocal(t testing.TB, addr, dbPath string) *localTable {
	t.Helper()
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("LOCAL_TABLE_ADDR", addr)
	t.Setenv("DATABASE_PATH", dbPath)
	ctx, cancel := context.WithCancel(context.Background())
	logs := &logBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, logs) }()
	lt := &localTable{t: t, logs: logs}
	var once sync.Once
	var stopErr error
	lt.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(20 * time.Second):
				stopErr = errors.New("run did not return within 20 s of the stop")
			}
		})
		return stopErr
	}
	t.Cleanup(func() {
		if err := lt.stop(); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	deadline := time.After(20 * time.Second)
	for {
		if m := startedRe.FindStringSubmatch(logs.String()); m != nil {
			lt.url = m[1]
			return lt
		}
		select {
		case err := <-done:
			t.Fatalf("run ended before the local table started: %v\n%s", err, logs)
		case <-deadline:
			t.Fatalf("the local table did not start within 20 s:\n%s", logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// state is what the page shows a player in a channel.
type state struct {
	Exposed  bool
	Members  []fakediscord.Member
	Channels []fakediscord.Channel
	Channel  string
	Messages []struct {
		ID        string
		Content   string
		Ephemeral bool
		Edits     int
		Embeds    []struct {
			Title, Description string
			Fields             []struct{ Name, Value string }
		}
		Components []struct {
			Components []struct {
				CustomID string `json:"custom_id"`
				Label    string
			}
		}
	}
	Commands []struct{ Name string }
}

func (lt *localTable) state(user, channel string) state {
	lt.t.Helper()
	r, err := http.Get(lt.url + "/api/state?user=" + user + "&channel=" + channel)
	if err != nil {
		lt.t.Fatal(err)
	}
	defer r.Body.Close()
	var st state
	if err := json.NewDecoder(r.Body).Decode(&st); err != nil {
		lt.t.Fatal(err)
	}
	return st
}

// await polls what a player sees until cond holds: the bot's output after
// an answer (the lobby, the table) arrives a moment later, as on Discord.
func (lt *localTable) await(user, channel string, cond func(state) bool) state {
	lt.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := lt.state(user, channel)
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			lt.t.Fatalf("not seen within 10 s; the player sees:\n%s", st.text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (lt *localTable) post(path string, body any) map[string]any {
	lt.t.Helper()
	b, _ := json.Marshal(body)
	r, err := http.Post(lt.url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		lt.t.Fatal(err)
	}
	defer r.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
		lt.t.Fatalf("POST %s: %d, %v", path, r.StatusCode, err)
	}
	return out
}

// button finds the newest message with a button labelled label.
func (st state) button(label string) (msg string, edits int, customID string) {
	for i := len(st.Messages) - 1; i >= 0; i-- {
		m := st.Messages[i]
		for _, row := range m.Components {
			for _, c := range row.Components {
				if strings.Contains(c.Label, label) {
					return m.ID, m.Edits, c.CustomID
				}
			}
		}
	}
	return "", 0, ""
}

func (st state) text() string {
	var b strings.Builder
	for _, m := range st.Messages {
		b.WriteString(m.Content + "\n")
		for _, e := range m.Embeds {
			b.WriteString(e.Title + "\n" + e.Description + "\n")
			for _, f := range e.Fields {
				b.WriteString(f.Name + ": " + f.Value + "\n")
			}
		}
	}
	return b.String()
}

// Without a token the program says where the local table is, serves it,
// and keeps its games and chat in the database's folder across a restart.
func TestNoTokenRunsTheLocalTableAndRestartsWhereItWas(t *testing.T) {
	t.Chdir(t.TempDir())
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	lt := startLocal(t, "127.0.0.1:0", dbPath)
	if n := strings.Count(lt.logs.String(), "local table at"); n != 1 {
		t.Errorf("the log names the local table %d times:\n%s", n, lt.logs)
	}
	if strings.Contains(lt.logs.String(), "no login") {
		t.Errorf("a loopback table warns of no login:\n%s", lt.logs)
	}
	r, err := http.Get(lt.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !bytes.Contains(page, []byte("local table")) {
		t.Fatalf("GET / = %d:\n%s", r.StatusCode, page)
	}

	ann := lt.post("/api/players", map[string]string{"name": "Ann"})["id"].(string)
	bea := lt.post("/api/players", map[string]string{"name": "Bea"})["id"].(string)
	if res := lt.post("/api/players", map[string]string{"name": "ann"}); res["error"] == nil {
		t.Error("a second Ann was added")
	}
	st := lt.state(ann, "")
	if st.Exposed || len(st.Commands) == 0 || len(st.Channels) != 1 {
		t.Fatalf("state: exposed %v, %d commands, %d channels", st.Exposed, len(st.Commands), len(st.Channels))
	}
	ch := st.Channel
	res := lt.post("/api/act", map[string]any{"user": ann, "channel": ch, "kind": "command", "command": "game",
		"path": []string{"new", "duel"}, "options": []map[string]string{{"name": "life", "value": "15"}}})
	if res["error"] != nil {
		t.Fatalf("/game new duel: %v", res["error"])
	}
	res = lt.post("/api/act", map[string]any{"user": ann, "channel": ch, "kind": "command", "command": "game",
		"path": []string{"new", "duel"}, "options": []map[string]string{{"name": "life", "value": "lots"}}})
	if e, _ := res["error"].(string); !strings.Contains(e, "whole number") {
		t.Errorf("/game new duel life:lots answered %v", res)
	}
	st = lt.await(bea, ch, func(st state) bool { _, _, id := st.button("Join"); return id != "" })
	msg, edits, join := st.button("Join")
	if res := lt.post("/api/act", map[string]any{"user": bea, "channel": ch, "kind": "click", "message": msg, "edits": edits, "custom_id": join}); res["error"] != nil {
		t.Fatalf("join: %v", res["error"])
	}
	before := lt.await(ann, ch, func(st state) bool { return strings.Contains(st.text(), "Bea") })
	if err := lt.stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if _, err := os.Stat(localtable.WorldPath(dbPath)); err != nil {
		t.Fatalf("no saved table: %v", err)
	}

	// Back again: the same channel, the same messages, the same game.
	lt = startLocal(t, "127.0.0.1:0", dbPath)
	after := lt.state(ann, ch)
	if after.Channel != ch || len(after.Messages) != len(before.Messages) || after.text() != before.text() {
		t.Fatalf("after a restart Ann sees %d messages in %s, before %d in %s:\n%s\n---\n%s",
			len(after.Messages), after.Channel, len(before.Messages), ch, after.text(), before.text())
	}
	msg, edits, start := after.button("Start")
	res = lt.post("/api/act", map[string]any{"user": ann, "channel": ch, "kind": "click", "message": msg, "edits": edits, "custom_id": start})
	if res["error"] != nil || res["failed"] != nil {
		t.Fatalf("start after the restart: %v", res)
	}

	// The game moves into a thread started from the lobby message: the
	// channel keeps a note naming it, and the table is in the thread.
	st = lt.await(ann, ch, func(st state) bool { return threadRe.MatchString(st.text()) })
	thread := threadRe.FindStringSubmatch(st.text())[1]
	if thread != msg {
		t.Errorf("the note names thread %s; a thread started from the lobby message has its id %s", thread, msg)
	}
	if !strings.Contains(st.text(), "has started with Ann, Bea") {
		t.Errorf("the channel's note:\n%s", st.text())
	}
	found := false
	for _, c := range st.Channels {
		if c.ID == thread {
			found = true
			if !c.Thread || c.ParentID != ch || c.Name != "Card Duel · Ann, Bea" {
				t.Errorf("the game's thread is listed as %+v; want thread %q of %s", c, "Card Duel · Ann, Bea", ch)
			}
		}
	}
	if !found {
		t.Fatalf("the channel list has no thread %s: %+v", thread, st.Channels)
	}
	lt.await(ann, thread, func(st state) bool { return strings.Contains(st.text(), "Ann vs Bea") })
	if text := lt.state(ann, ch).text(); strings.Contains(text, "Ann vs Bea") {
		t.Errorf("the table is in the channel too:\n%s", text)
	}

	// Another restart: the thread and its table are still there.
	before = lt.state(bea, thread)
	if err := lt.stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if strings.Contains(lt.logs.String(), "level=WARN") {
		t.Errorf("the Discord stand-in warned:\n%s", lt.logs)
	}
	lt = startLocal(t, "127.0.0.1:0", dbPath)
	if after := lt.state(bea, thread); after.Channel != thread || after.text() != before.text() {
		t.Fatalf("after a restart Bea sees in %s (want %s):\n%s\n---\n%s", after.Channel, thread, after.text(), before.text())
	}

	// Ann ends the game in its thread; the channel is told.
	if res := lt.post("/api/act", map[string]any{"user": ann, "channel": thread, "kind": "command", "command": "game",
		"path": []string{"end"}}); res["error"] != nil {
		t.Fatalf("/game end: %v", res["error"])
	}
	st = lt.await(ann, thread, func(st state) bool { _, _, id := st.button("End the game"); return id != "" })
	msg, edits, end := st.button("End the game")
	if res := lt.post("/api/act", map[string]any{"user": ann, "channel": thread, "kind": "click", "message": msg, "edits": edits, "custom_id": end}); res["error"] != nil || res["failed"] != nil {
		t.Fatalf("end the game: %v", res)
	}
	lt.await(bea, ch, func(st state) bool {
		return strings.Contains(st.text(), "The game of Card Duel in <#"+thread+"> is over: This game was ended by Ann.")
	})
	if strings.Contains(lt.logs.String(), "level=WARN") {
		t.Errorf("the Discord stand-in warned:\n%s", lt.logs)
	}
}

// threadRe finds the thread a game moved to in the channel's note.
var threadRe = regexp.MustCompile(`has started with .* The game goes on in <#(\d+)>`)

func TestLocalTableOnAnOpenAddressSaysItHasNoLogin(t *testing.T) {
	t.Chdir(t.TempDir())
	lt := startLocal(t, "0.0.0.0:0", filepath.Join(t.TempDir(), "bot.db"))
	if !strings.Contains(lt.logs.String(), "has no login") {
		t.Errorf("no warning in the log:\n%s", lt.logs)
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(lt.url, "http://"))
	lt.url = "http://127.0.0.1:" + port
	if !lt.state("", "").Exposed {
		t.Error("the page is not told to show its no-login banner")
	}
}

func TestLocalTableAnswersOnlyItsOwnPage(t *testing.T) {
	t.Chdir(t.TempDir())
	lt := startLocal(t, "127.0.0.1:0", filepath.Join(t.TempDir(), "bot.db"))
	do := func(method, host, ctype, origin string) int {
		req, _ := http.NewRequest(method, lt.url+"/api/players", strings.NewReader(`{"name":"Eve"}`))
		if host != "" {
			req.Host = host
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if got := do("POST", "evil.example:80", "application/json", ""); got != http.StatusMisdirectedRequest {
		t.Errorf("another host name: %d", got)
	}
	if got := do("POST", "", "text/plain", ""); got != http.StatusUnsupportedMediaType {
		t.Errorf("a form post: %d", got)
	}
	if got := do("POST", "", "application/json", "http://evil.example"); got != http.StatusForbidden {
		t.Errorf("a cross-site post: %d", got)
	}
	if got := do("POST", "", "application/json", lt.url); got != http.StatusOK {
		t.Errorf("the page's own post: %d", got)
	}
}

func TestLocalTablePortInUseSaysWhatToDo(t *testing.T) {
	t.Chdir(t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("LOCAL_TABLE_ADDR", ln.Addr().String())
	t.Setenv("DATABASE_PATH", filepath.Join(t.TempDir(), "bot.db"))
	err = run(context.Background(), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "LOCAL_TABLE_ADDR") {
		t.Fatalf("run() = %v; want a hint at LOCAL_TABLE_ADDR", err)
	}
}
