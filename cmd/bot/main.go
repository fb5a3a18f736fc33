// Command bot runs the card-game bot: it reads its configuration from the
// environment (and .env), opens the database and serves until interrupted.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/joho/godotenv"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cardbot:", err)
		os.Exit(1)
	}
}

func run() error {
	// .env is optional: the environment alone is enough.
	if err := godotenv.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read .env: %w", err)
	}
	cfg, err := bot.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	db, err := store.Open(cfg.DBPath)
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := bot.New(cfg, db, log, bot.Catalog())
	if err != nil {
		return err
	}
	if err := b.Start(); err != nil {
		return err
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	log.Info("shutting down: finishing moves in progress")
	return b.Close()
}
