// Command bot runs the card-game bot: it reads its configuration from the
// environment (and .env), opens the database and serves until interrupted.
//
// Without DISCORD_TOKEN it runs the local table instead: the same bot
// against an in-process Discord stand-in, played in a browser at
// LOCAL_TABLE_ADDR (default http://127.0.0.1:8080).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/joho/godotenv"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/localtable"
	"github.com/cardtable/cardbot/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "cardbot:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done, logging to logs.
func run(ctx context.Context, logs io.Writer) error {
	// Before .env: GOGC is the runtime's, read from the process environment.
	gc := bot.TuneGC(os.LookupEnv)
	// .env is optional: the environment alone is enough.
	if err := godotenv.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read .env: %w", err)
	}
	cfg, err := bot.ConfigFromEnv(os.Getenv)
	local := errors.Is(err, bot.ErrNoToken)
	if local {
		// The same configuration, with the stand-in's token; its address
		// and guild are filled in once it runs.
		cfg, err = bot.ConfigFromEnv(func(k string) string {
			switch k {
			case "DISCORD_TOKEN":
				return localtable.Token
			case "DISCORD_API_URL", "DISCORD_GUILD_ID", "SHARD_ID", "SHARD_COUNT":
				return ""
			}
			return os.Getenv(k)
		})
	}
	if err == nil && !local {
		err = cfg.ResolveShards()
	}
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: cfg.LogLevel, ReplaceAttr: bot.RedactTokens}))
	log.Debug("collector", "setting", gc)
	var ln net.Listener
	var table *localtable.Table
	if local {
		addr := strings.TrimSpace(os.Getenv("LOCAL_TABLE_ADDR"))
		if addr == "" {
			addr = localtable.DefaultAddr
		}
		// Listen first, so that a port in use is reported before anything starts.
		if ln, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("local table: %w (set LOCAL_TABLE_ADDR to another address, such as 127.0.0.1:8081)", err)
		}
		defer ln.Close()
		if table, err = localtable.Open(localtable.WorldPath(cfg.DBPath), log); err != nil {
			return err
		}
		defer table.Close()
		cfg.APIURL, cfg.GuildID = table.APIURL(), table.GuildID()
	}
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
	var srv *http.Server
	var page *localtable.Page
	served := make(chan error, 1)
	if local {
		page = localtable.NewPage(table, ln.Addr())
		url := "http://" + ln.Addr().String()
		log.Info("no DISCORD_TOKEN: starting the local table at " + url + " (open it in a browser; LOCAL_TABLE_ADDR moves it, DISCORD_TOKEN plays on Discord instead)")
		if page.Exposed() {
			log.Warn("the local table at " + url + " has no login: anyone who can reach this address can play as any player; set LOCAL_TABLE_ADDR=127.0.0.1:8080 to keep it to this machine")
		}
		srv = &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
		srv.RegisterOnShutdown(page.Close)
		go func() { served <- srv.Serve(ln) }()
	}
	select {
	case <-ctx.Done():
	case err = <-served:
		err = fmt.Errorf("local table: %w", err)
	}
	log.Info("shutting down: finishing moves in progress")
	if srv != nil {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		srv.Shutdown(shutdown)
		cancel()
	}
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if table != nil {
		if cerr := table.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
