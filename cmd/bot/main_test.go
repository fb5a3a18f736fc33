package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
)

func TestMissingTokenSaysHowToGetOne(t *testing.T) {
	t.Chdir(t.TempDir()) // no .env here
	t.Setenv("DISCORD_TOKEN", "")
	err := run()
	if !errors.Is(err, bot.ErrNoToken) {
		t.Fatalf("run() = %v; want ErrNoToken", err)
	}
	if !strings.Contains(err.Error(), "developers/applications") {
		t.Fatalf("the error does not say where to get a token: %v", err)
	}
}

func TestRejectedTokenEndsWithOneSentenceAndNoSecret(t *testing.T) {
	fake := fakediscord.New(t)
	fake.ExpectFailure("401: Unauthorized")
	const secret = "not-the-real-token-0123456789"
	t.Chdir(t.TempDir())
	t.Setenv("DISCORD_TOKEN", secret)
	t.Setenv("DISCORD_API_URL", fake.APIURL())
	t.Setenv("DATABASE_PATH", filepath.Join(t.TempDir(), "bot.db"))
	err := run()
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
	if err := run(); !errors.Is(err, bot.ErrTokenRejected) {
		t.Fatalf("run() = %v; want the .env token to be tried and rejected", err)
	}
}
