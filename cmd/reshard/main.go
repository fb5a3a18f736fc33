// Command reshard moves the bot's stored games to the files of a new shard
// count. Each shard keeps its own database (cardbot.shard-1-of-4.db for
// shard 1 of 4; a single shard uses cardbot.db itself), and Discord routes
// a guild to shard (guild_id >> 22) % count, so when the count changes every
// guild's records (open and ended games, their logs, messages, owed output
// and deadlines, results and settings) must move to the file of the shard
// that now owns the guild.
//
//	go run ./cmd/reshard [-db cardbot.db] -from 2 -to 3
//
// Stop every bot process first and gather the old files in one directory.
// The old files are only read, and are left for you to remove once the new
// set runs; existing new files are never overwritten. Killed midway, it
// leaves only .partial files: run it again and it finishes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/store"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "reshard:", err)
		os.Exit(2)
	}
}

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("reshard", flag.ContinueOnError)
	fs.SetOutput(w)
	db := fs.String("db", envOr("DATABASE_PATH", bot.DefaultDBPath), "the database path as DATABASE_PATH gives it, without the shard part")
	from := fs.Int("from", 0, "the shard count the files were written with (1: the one file at -db)")
	to := fs.Int("to", 0, "the new shard count, as SHARD_COUNT will give it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from < 1 || *to < 1 || *from == *to || fs.NArg() > 0 {
		return errors.New("give the old and new shard counts, such as -from 2 -to 3 (two different whole numbers, 1 or more)")
	}
	var sources, targets []string
	for i := range *from {
		sources = append(sources, store.ShardPath(*db, i, *from))
	}
	for i := range *to {
		targets = append(targets, store.ShardPath(*db, i, *to))
	}
	for _, p := range sources {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing: copy every old shard's file beside -db (%d files for -from %d) before resharding", p, *from, *from)
		}
	}
	rep, err := store.Reshard(sources, targets)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Moved the games of %d file(s) into %d, each guild to shard (guild_id >> 22) %% %d; every count verified.\n\n", *from, *to, *to)
	cols := []string{"games", "ended", "log", "posts", "outbox", "timers", "watch", "stats", "guilds", "threads"}
	fmt.Fprintf(w, "%-5s  %-40s", "shard", "file")
	for _, c := range cols {
		fmt.Fprintf(w, " %7s", c)
	}
	fmt.Fprintln(w)
	for i, p := range rep.Targets {
		fmt.Fprintf(w, "%-5d  %-40s", i, p)
		for _, c := range cols {
			fmt.Fprintf(w, " %7d", rep.Counts[i][c])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-5s  %-40s", "", "total")
	for _, c := range cols {
		fmt.Fprintf(w, " %7d", rep.Total(c))
	}
	fmt.Fprintf(w, "\n\nStart %d process(es) with SHARD_COUNT=%d and SHARD_ID 0 to %d, each with its file above. "+
		"The old files were left as they were: remove them once the new set runs:\n  %s\n", *to, *to, *to-1, strings.Join(sources, "\n  "))
	return nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
