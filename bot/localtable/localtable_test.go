package localtable

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/store"
)

// table runs the bot against a local table, as cmd/bot does without a
// token, and serves its page on a test server.
func table(t *testing.T) (*Table, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tbl, err := Open(WorldPath(filepath.Join(dir, "bot.db")), log)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(bot.Config{Token: Token, APIURL: tbl.APIURL(), GuildID: tbl.GuildID(), DBPath: filepath.Join(dir, "bot.db")}, db, log, bot.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = NewPage(tbl, srv.Listener.Addr())
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		b.Close()
		tbl.Close()
		db.Close()
	})
	return tbl, srv
}

func post(t *testing.T, srv *httptest.Server, path string, body any) map[string]any {
	t.Helper()
	data, _ := json.Marshal(body)
	r, err := http.Post(srv.URL+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
		t.Fatalf("POST %s: %d %v", path, r.StatusCode, err)
	}
	return out
}

// What a player types is read against the registered commands; what the
// client would not send is answered with a sentence, and nothing is sent.
func TestCommandsAreReadAsTheClientReadsThem(t *testing.T) {
	tbl, srv := table(t)
	ann := post(t, srv, "/api/players", map[string]string{"name": "Ann"})["id"].(string)
	post(t, srv, "/api/players", map[string]string{"name": "Bea"})
	ch := tbl.Fake().ChannelID()
	type opt = map[string]string
	for _, c := range []struct {
		command string
		path    []string
		options []opt
		refusal string // "" if the command goes to the bot
	}{
		{"game", []string{"new"}, nil, "needs one of duel, life"},
		{"game", []string{"new", "chess"}, nil, `has no "chess"`},
		{"game", []string{"new", "duel"}, []opt{{"name": "life", "value": "many"}}, "whole number"},
		{"game", []string{"new", "duel"}, []opt{{"name": "life", "value": "500"}}, "outside the allowed range"},
		{"game", []string{"new", "duel"}, []opt{{"name": "speed", "value": "1"}}, `has no option "speed"`},
		{"game", []string{"new", "life"}, []opt{{"name": "roleplay", "value": "maybe"}}, "True or False"},
		{"game", []string{"hand"}, []opt{{"name": "x", "value": "1"}}, "takes no options"},
		{"say", nil, nil, `required option "line" is missing`},
		{"appeal", nil, []opt{{"name": "player", "value": "Zed"}}, "a player of this table"},
		{"nope", nil, nil, "no command /nope"},
		{"rules", nil, []opt{{"name": "game", "value": "Card Duel"}}, ""}, // a choice by its name
		{"appeal", nil, []opt{{"name": "player", "value": "@Bea"}}, ""},
		{"game", []string{"new", "life"}, []opt{{"name": "roleplay", "value": "no"}}, ""},
	} {
		res := post(t, srv, "/api/act", map[string]any{"user": ann, "channel": ch, "kind": "command", "command": c.command, "path": c.path, "options": c.options})
		got, _ := res["error"].(string)
		switch {
		case c.refusal == "" && (got != "" || res["failed"] != nil):
			t.Errorf("/%s %v %v: %v", c.command, c.path, c.options, res)
		case c.refusal != "" && !strings.Contains(got, c.refusal):
			t.Errorf("/%s %v %v: refusal %q, want one containing %q", c.command, c.path, c.options, got, c.refusal)
		}
	}
	if f := tbl.Fake().Failures(); len(f) != 0 {
		t.Errorf("the stand-in recorded failures: %q", f)
	}
	if n := len(tbl.Fake().ChatView(ann, ch)); n < 3 {
		t.Errorf("Ann sees %d messages after three commands", n)
	}
}

func TestTableComesBackWithItsWorld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db.local-table.json")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tbl, err := Open(path, log)
	if err != nil {
		t.Fatal(err)
	}
	ann := tbl.Fake().AddUser("Ann")
	side := tbl.Fake().NewChannel("side")
	guild := tbl.GuildID()
	if err := tbl.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path, log)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.GuildID() != guild || again.Fake().User(ann.ID) == nil || len(again.Fake().ChannelsFor(ann.ID)) != 2 || again.Fake().ChannelsFor("")[1].ID != side {
		t.Fatal("the table came back without its guild, player or channel")
	}
}

func TestLoopbackAddresses(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "[::1]:80": true, "0.0.0.0:8080": false, "192.168.1.2:8080": false, "[::]:8080": false} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := IsLoopback(a); got != want {
			t.Errorf("IsLoopback(%s) = %v", addr, got)
		}
	}
}
