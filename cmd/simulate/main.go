// Command simulate plays many games between computer players and reports
// who wins, with 95% confidence intervals, and how long games last — to
// measure a policy against another, or a variant's balance.
//
//	go run ./cmd/simulate -game duel -n 2000 -policies sensible,random
//	go run ./cmd/simulate -game duel -policies sensible,sensible -sweep hand_limit=20:40:5,life=15:30:5
//	go run ./cmd/simulate -game life -players 4 -policies sensible -opt snake_eyes=1
//
// Every game's seed derives from -seed and the game's number, so the report
// is the same on any machine and with any number of workers (only the
// speed line differs).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "simulate:", err)
		}
		os.Exit(2)
	}
}

// config is one run of the command, from its flags.
type config struct {
	game     string
	n        int
	players  int
	policies []string
	opts     map[string]int
	seed     uint64
	sweep    []axis
	workers  int
	rotate   bool
	maxMoves int
}

// axis is one swept option and the values it takes.
type axis struct {
	name   string
	values []int
}

func run(args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if len(cfg.sweep) > 0 {
		return sweep(cfg, stdout)
	}
	return report(cfg, stdout)
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{opts: map[string]int{}}
	var policies, sweepSpec string
	fs.StringVar(&cfg.game, "game", "duel", "game id: "+strings.Join(catalog.IDs(), ", "))
	fs.IntVar(&cfg.n, "n", 2000, "games to play (per option set when sweeping)")
	fs.IntVar(&cfg.players, "players", 0, "players per game (default: 2, or the game's minimum)")
	fs.StringVar(&policies, "policies", "sensible,random", "comma-separated policies, seat by seat, repeated to fill the seats")
	fs.Func("opt", "a game option, name=value (repeatable; true/false for switches)", func(s string) error {
		name, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("want name=value, got %q", s)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			b, berr := strconv.ParseBool(strings.TrimSpace(v))
			if berr != nil {
				return fmt.Errorf("want name=number, got %q", s)
			}
			n = 0
			if b {
				n = 1
			}
		}
		cfg.opts[strings.TrimSpace(name)] = n
		return nil
	})
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the whole run")
	fs.StringVar(&sweepSpec, "sweep", "", "options to sweep, name=from:to:step[,name=from:to:step]: one row per combination")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "games played at once")
	fs.BoolVar(&cfg.rotate, "rotate", true, "rotate the policies round the seats game by game, so no policy keeps the same seat")
	fs.IntVar(&cfg.maxMoves, "max-moves", 20000, "moves after which a game counts as unfinished")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	entry, ok := catalog.Entry(cfg.game)
	if !ok {
		return cfg, fmt.Errorf("no game %q (have %s)", cfg.game, strings.Join(catalog.IDs(), ", "))
	}
	rules := entry.Rules
	if cfg.players == 0 {
		cfg.players = min(max(2, rules.MinPlayers), rules.MaxPlayers)
	}
	if cfg.players < rules.MinPlayers || cfg.players > rules.MaxPlayers {
		return cfg, fmt.Errorf("%s takes %d to %d players", rules.Name, rules.MinPlayers, rules.MaxPlayers)
	}
	for _, name := range strings.Split(policies, ",") {
		name = strings.TrimSpace(name)
		if _, err := catalog.Lookup(cfg.game, name); err != nil {
			return cfg, err
		}
		cfg.policies = append(cfg.policies, name)
	}
	if len(cfg.policies) > cfg.players {
		return cfg, fmt.Errorf("%d policies for %d seats", len(cfg.policies), cfg.players)
	}
	if cfg.n < 1 || cfg.workers < 1 || cfg.maxMoves < 1 {
		return cfg, errors.New("-n, -workers and -max-moves must be positive")
	}
	if sweepSpec != "" {
		var err error
		if cfg.sweep, err = parseSweep(sweepSpec); err != nil {
			return cfg, err
		}
	}
	if _, err := rules.Validate(cfg.opts); err != nil {
		return cfg, fmt.Errorf("options: %w", err)
	}
	return cfg, nil
}

// parseSweep reads "hand_limit=20:40:5,life=15:30:5".
func parseSweep(spec string) ([]axis, error) {
	var out []axis
	for _, part := range strings.Split(spec, ",") {
		name, rng, ok := strings.Cut(part, "=")
		bounds := strings.Split(rng, ":")
		if !ok || len(bounds) < 2 || len(bounds) > 3 {
			return nil, fmt.Errorf("sweep %q: want name=from:to[:step]", part)
		}
		var nums [3]int
		nums[2] = 1
		for i, b := range bounds {
			n, err := strconv.Atoi(strings.TrimSpace(b))
			if err != nil {
				return nil, fmt.Errorf("sweep %q: %v", part, err)
			}
			nums[i] = n
		}
		if nums[2] < 1 || nums[1] < nums[0] {
			return nil, fmt.Errorf("sweep %q: want from ≤ to and a positive step", part)
		}
		a := axis{name: strings.TrimSpace(name)}
		for v := nums[0]; v <= nums[1]; v += nums[2] {
			a.values = append(a.values, v)
		}
		out = append(out, a)
	}
	return out, nil
}
