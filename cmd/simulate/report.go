package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cardtable/cardbot/games/ai"
)

// report plays cfg.n games and writes the win rates, lengths and speed.
func report(cfg config, w io.Writer) error {
	jobs := make([]job, cfg.n)
	for i := range jobs {
		jobs[i] = job{i: i, opts: cfg.opts}
	}
	start := time.Now()
	out, err := playAll(cfg, jobs)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)

	entry, _ := catalog.Entry(cfg.game)
	rotation := "fixed seats"
	if cfg.rotate && len(cfg.policies) > 1 {
		rotation = "rotated round the seats game by game"
	}
	fmt.Fprintf(w, "%s (%s): %d games, %d players, seed %d\n", entry.Rules.Name, cfg.game, cfg.n, cfg.players, cfg.seed)
	fmt.Fprintf(w, "options: %s\n", optionLine(entry.Rules.Validate, cfg.opts))
	fmt.Fprintf(w, "policies: %s (%s)\n", strings.Join(cfg.policies, ", "), rotation)

	unfinished, shared := 0, 0
	seatWins := make([]int, cfg.players)
	polSeats := make([]int, len(cfg.policies))
	polWins := make([]int, len(cfg.policies))
	polRefused := make([]int, len(cfg.policies))
	var lengths []int
	for _, o := range out {
		lengths = append(lengths, o.moves)
		if !o.finished {
			unfinished++
		}
		winners := 0
		for s, won := range o.won {
			polSeats[o.policy[s]]++
			polRefused[o.policy[s]] += o.refused[s]
			if won {
				winners++
				seatWins[s]++
				polWins[o.policy[s]]++
			}
		}
		if winners > 1 {
			shared++
		}
	}
	fmt.Fprintf(w, "unfinished games: %d · games with a shared win: %d (each sharer counts a win)\n\n", unfinished, shared)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\twins\trate\t95% CI")
	for s, n := range seatWins {
		label := fmt.Sprint(s)
		if s == 0 {
			label += " (host)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", label, n, pct(n, cfg.n), ci(n, cfg.n))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\tseats played\twins\trate\t95% CI\trefused moves")
	for k, name := range cfg.policies {
		if slices.Index(cfg.policies, name) != k {
			continue // a repeated name: counted with the first
		}
		seats, wins, refused := 0, 0, 0
		for k2, n2 := range cfg.policies {
			if n2 == name {
				seats, wins, refused = seats+polSeats[k2], wins+polWins[k2], refused+polRefused[k2]
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%d\n", name, seats, wins, pct(wins, seats), ci(wins, seats), refused)
	}
	tw.Flush()
	fmt.Fprintln(w)
	q := quantiles(lengths)
	fmt.Fprintf(w, "length in moves: min %d · p25 %d · median %d · p75 %d · max %d · mean %.1f\n",
		q[0], q[1], q[2], q[3], q[4], mean(lengths))
	fmt.Fprintln(w, speedLine(cfg, len(out), elapsed))
	return nil
}

// sweep plays cfg.n games for every combination of the swept options (the
// same seeds for each) and writes one row per combination.
func sweep(cfg config, w io.Writer) error {
	combos := [][]int{nil}
	for _, a := range cfg.sweep {
		var next [][]int
		for _, c := range combos {
			for _, v := range a.values {
				next = append(next, append(slices.Clone(c), v))
			}
		}
		combos = next
	}
	entry, _ := catalog.Entry(cfg.game)
	var jobs []job
	for _, c := range combos {
		opts := maps.Clone(cfg.opts)
		for k, a := range cfg.sweep {
			opts[a.name] = c[k]
		}
		if _, err := entry.Rules.Validate(maps.Clone(opts)); err != nil {
			return fmt.Errorf("sweep %v: %w", opts, err)
		}
		for i := range cfg.n {
			jobs = append(jobs, job{i: i, opts: opts})
		}
	}
	start := time.Now()
	out, err := playAll(cfg, jobs)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)

	fmt.Fprintf(w, "%s (%s): sweep, %d games per row, %d players, seed %d\n", entry.Rules.Name, cfg.game, cfg.n, cfg.players, cfg.seed)
	fmt.Fprintf(w, "other options: %s\n", optionLine(entry.Rules.Validate, cfg.opts, cfg.sweep...))
	fmt.Fprintf(w, "policies: %s · seat 0 is the host: the dealer, the first attacker in Card Duel\n\n", strings.Join(cfg.policies, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, a := range cfg.sweep {
		fmt.Fprintf(tw, "%s\t", a.name)
	}
	fmt.Fprintln(tw, "seat 0 wins\t95% CI\tmedian moves\tp25–p75\tunfinished")
	for k, c := range combos {
		rows := out[k*cfg.n : (k+1)*cfg.n]
		wins, unfinished := 0, 0
		var lengths []int
		for _, o := range rows {
			if o.won[0] {
				wins++
			}
			if !o.finished {
				unfinished++
			}
			lengths = append(lengths, o.moves)
		}
		for _, v := range c {
			fmt.Fprintf(tw, "%d\t", v)
		}
		q := quantiles(lengths)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d–%d\t%d\n", pct(wins, cfg.n), ci(wins, cfg.n), q[2], q[1], q[3], unfinished)
	}
	tw.Flush()
	fmt.Fprintln(w, speedLine(cfg, len(out), elapsed))
	return nil
}

// optionLine lists options with their defaults filled in, by name, less
// the swept ones.
func optionLine(validate func(map[string]int) (map[string]int, error), opts map[string]int, swept ...axis) string {
	full, err := validate(maps.Clone(opts))
	if err != nil {
		full = opts
	}
	var parts []string
	for name := range full {
		if !slices.ContainsFunc(swept, func(a axis) bool { return a.name == name }) {
			parts = append(parts, fmt.Sprintf("%s=%d", name, full[name]))
		}
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// speedLine is the only line that differs between two runs with one seed.
func speedLine(cfg config, games int, d time.Duration) string {
	return fmt.Sprintf("speed: %.0f games/s (%d games in %.2fs on %d workers)",
		float64(games)/d.Seconds(), games, d.Seconds(), cfg.workers)
}

func pct(k, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}

func ci(k, n int) string {
	lo, hi := ai.Wilson(k, n)
	return fmt.Sprintf("[%.1f%%, %.1f%%]", 100*lo, 100*hi)
}

// quantiles returns min, p25, median, p75 and max (nearest rank).
func quantiles(xs []int) [5]int {
	if len(xs) == 0 {
		return [5]int{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	at := func(q float64) int {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return [5]int{s[0], at(0.25), at(0.5), at(0.75), s[len(s)-1]}
}

func mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0
	for _, x := range xs {
		t += x
	}
	return float64(t) / float64(len(xs))
}
