package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot"
)

// A bad shard or retention setting stops the program at once with one
// sentence on stderr that says what to set, never the token, and before
// any database file is made (an empty one would later pass for a shard's).
func TestAuditConfigErrorsAreClearAndKeepTheToken(t *testing.T) {
	const secret = "MTIzNDU2Nzg5.audit-secret-token.xyz"
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"SHARD_ID=abc", "SHARD_COUNT=2"}, "SHARD_ID must be a whole number from 0 to SHARD_COUNT-1"},
		{[]string{"SHARD_ID=-1", "SHARD_COUNT=2"}, "SHARD_ID must be a whole number"},
		{[]string{"SHARD_ID=2", "SHARD_COUNT=2"}, "SHARD_ID is 2 but SHARD_COUNT is 2: shards are numbered 0 to 1"},
		{[]string{"SHARD_ID=5", "SHARD_COUNT=3"}, "SHARD_ID is 5 but SHARD_COUNT is 3"},
		{[]string{"SHARD_ID=1", "SHARD_COUNT="}, "SHARD_ID is 1 but SHARD_COUNT is not set"},
		{[]string{"SHARD_ID=0", "SHARD_COUNT=0"}, "SHARD_COUNT must be a whole number of shards (1 or more)"},
		{[]string{"SHARD_ID=0", "SHARD_COUNT=two"}, "SHARD_COUNT must be a whole number of shards"},
		{[]string{"SHARD_ID=", "SHARD_COUNT=", "RETENTION_DAYS=-1"}, "RETENTION_DAYS must be a whole number of days"},
		{[]string{"SHARD_ID=", "SHARD_COUNT=", "RETENTION_DAYS=a year"}, "RETENTION_DAYS must be a whole number of days"},
	} {
		dir := t.TempDir()
		db := filepath.Join(dir, "cardbot.db")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Dir = dir // no .env
		cmd.Env = append(os.Environ(), childEnv+"=1", "DISCORD_TOKEN="+secret, "DATABASE_PATH="+db, "DISCORD_API_URL=http://127.0.0.1:1")
		cmd.Env = append(cmd.Env, c.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("%v: exit %v; want 1", c.env, err)
		}
		if got := stderr.String(); !strings.HasPrefix(got, "cardbot: ") || !strings.Contains(got, c.want) || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: stderr %q; want one line with %q", c.env, got, c.want)
		}
		if all := stdout.String() + stderr.String(); strings.Contains(all, secret) || strings.Contains(all, "audit-secret") {
			t.Errorf("%v: the token was printed:\n%s", c.env, all)
		}
		if matches, _ := filepath.Glob(filepath.Join(dir, "cardbot*")); len(matches) != 0 {
			t.Errorf("%v: a bad configuration made %v", c.env, matches)
		}
	}
}

// Without a token the configuration says how to get one (cmd/bot then
// serves the local table instead); a shard setting does not hide that.
func TestAuditMissingTokenIsExplained(t *testing.T) {
	for _, token := range []string{"", "   "} {
		_, err := bot.ConfigFromEnv(func(k string) string {
			return map[string]string{"DISCORD_TOKEN": token, "SHARD_ID": "1", "SHARD_COUNT": "2"}[k]
		})
		if !errors.Is(err, bot.ErrNoToken) || !strings.Contains(err.Error(), "Reset Token") {
			t.Errorf("token %q: %v; want ErrNoToken", token, err)
		}
	}
}
