package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func simulate(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(args, &out, io.Discard); err != nil {
		t.Fatalf("simulate %s: %v", strings.Join(args, " "), err)
	}
	return out.String()
}

// withoutSpeed drops the timing line, the only one that may differ.
func withoutSpeed(t *testing.T, report string) string {
	t.Helper()
	var keep []string
	speed := 0
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "speed: ") {
			speed++
			continue
		}
		keep = append(keep, l)
	}
	if speed != 1 {
		t.Errorf("want one speed line, got %d in\n%s", speed, report)
	}
	return strings.Join(keep, "\n")
}

func TestSameSeedSameReport(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "duel", "-n", "150", "-policies", "sensible,random", "-opt", "hand_limit=25", "-opt", "life=20"},
		{"-game", "life", "-n", "150", "-players", "3", "-policies", "sensible,random", "-opt", "snake_eyes=true"},
	} {
		one := simulate(t, append(args, "-seed", "7", "-workers", "1")...)
		many := simulate(t, append(args, "-seed", "7", "-workers", "3")...)
		if withoutSpeed(t, one) != withoutSpeed(t, many) {
			t.Errorf("%v: one worker and three differ:\n%s\n%s", args, one, many)
		}
		other := simulate(t, append(args, "-seed", "8", "-workers", "3")...)
		if withoutSpeed(t, one) == withoutSpeed(t, other) {
			t.Errorf("%v: seeds 7 and 8 gave the same report", args)
		}
		for _, want := range []string{"seat", "policy", "sensible", "random", "95% CI", "length in moves: min", "median", "games/s"} {
			if !strings.Contains(one, want) {
				t.Errorf("%v: the report lacks %q:\n%s", args, want, one)
			}
		}
	}
}

func TestReportCounts(t *testing.T) {
	out := simulate(t, "-game", "duel", "-n", "100", "-policies", "sensible,random", "-seed", "3")
	// Each policy played 100 seats (rotated), and every game has one winner.
	var winsSensible, winsRandom int
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 3 && f[1] == "100" && (f[0] == "sensible" || f[0] == "random") {
			var w int
			fmt.Sscan(f[2], &w)
			if f[0] == "sensible" {
				winsSensible = w
			} else {
				winsRandom = w
			}
		}
	}
	if winsSensible+winsRandom != 100 || winsSensible < 60 {
		t.Errorf("wins %d + %d:\n%s", winsSensible, winsRandom, out)
	}
}

func TestSweepOneRowPerPair(t *testing.T) {
	out := simulate(t, "-game", "duel", "-n", "20", "-policies", "sensible,sensible", "-sweep", "hand_limit=20:30:5,life=15:20:5")
	var pairs [][2]string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && strings.HasSuffix(f[2], "%") {
			pairs = append(pairs, [2]string{f[0], f[1]})
		}
	}
	want := [][2]string{{"20", "15"}, {"20", "20"}, {"25", "15"}, {"25", "20"}, {"30", "15"}, {"30", "20"}}
	if !slices.Equal(pairs, want) {
		t.Errorf("rows %v, want %v:\n%s", pairs, want, out)
	}
	if !strings.Contains(out, "hand_limit  life  seat 0 wins") {
		t.Errorf("header:\n%s", out)
	}
	again := simulate(t, "-game", "duel", "-n", "20", "-policies", "sensible,sensible", "-sweep", "hand_limit=20:30:5,life=15:20:5", "-workers", "1")
	if withoutSpeed(t, out) != withoutSpeed(t, again) {
		t.Error("the sweep depends on the workers")
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "chess"},
		{"-game", "duel", "-policies", "clever"},
		{"-game", "duel", "-policies", "random,random,random"},
		{"-game", "duel", "-players", "3"},
		{"-game", "duel", "-opt", "hand_limit"},
		{"-game", "duel", "-opt", "jokers=2"},
		{"-game", "duel", "-opt", "life=1000"},
		{"-game", "duel", "-sweep", "life=30:20:5"},
		{"-game", "duel", "-sweep", "life=1:20:5"},
		{"-game", "duel", "-sweep", "life"},
		{"-game", "duel", "-n", "0"},
		{"-game", "duel", "extra"},
	} {
		if err := run(args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

func TestQuantiles(t *testing.T) {
	if got := quantiles([]int{5, 1, 4, 2, 3}); got != [5]int{1, 2, 3, 4, 5} {
		t.Errorf("quantiles %v", got)
	}
	if got := quantiles([]int{7}); got != [5]int{7, 7, 7, 7, 7} {
		t.Errorf("quantiles %v", got)
	}
	if got := seatPolicies(config{players: 4, policies: []string{"a", "b"}, rotate: true}, 1); !slices.Equal(got, []int{1, 0, 1, 0}) {
		t.Errorf("seats %v", got)
	}
	if got := seatPolicies(config{players: 3, policies: []string{"a", "b"}, rotate: true}, 2); !slices.Equal(got, []int{0, 0, 1}) {
		t.Errorf("seats %v", got)
	}
	if gameSeed(1, 0) == gameSeed(1, 1) || gameSeed(1, 0) == gameSeed(2, 0) {
		t.Error("game seeds collide")
	}
}
