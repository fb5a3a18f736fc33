package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/store"
)

// The database is filled with idle games by a child process (this program
// again, with fillEnv set), so that the memory the filling takes does not
// count against the bot's: the bot's process only opens the filled file.
const (
	fillEnv   = "CARDBOT_LOAD_FILL" // "<path>|<games>"
	markerExt = ".stored"           // next to the database: how many idle games it holds
)

// fillResult is the child's one line of output.
type fillResult struct {
	Added int           `json:"added"`
	Took  time.Duration `json:"took"`
}

// childMain runs the fill if this process is the child, and reports
// whether it was.
func childMain() bool {
	spec := os.Getenv(fillEnv)
	if spec == "" {
		return false
	}
	path, count, _ := strings.Cut(spec, "|")
	n, err := strconv.Atoi(count)
	if err == nil {
		var res fillResult
		res, err = fill(path, n)
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(res)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load: fill:", err)
		os.Exit(1)
	}
	os.Exit(0)
	return true
}

// storedCount is how many idle games the fill has put in the database.
func storedCount(path string) int {
	b, err := os.ReadFile(path + markerExt)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if _, err := os.Stat(path); err != nil {
		return 0 // the database is gone: the marker lies
	}
	return n
}

// ensureStored makes the database hold n idle games, filling what is
// missing in a child process. It returns how many this run wrote.
func ensureStored(path string, n int) (fillResult, error) {
	if storedCount(path) >= n {
		return fillResult{}, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fillResult{}, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", fillEnv, path, n))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fillResult{}, fmt.Errorf("fill %s with %d games: %w", path, n, err)
	}
	var res fillResult
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &res); err != nil {
		return fillResult{}, fmt.Errorf("fill: read the child's result %q: %w", out.String(), err)
	}
	return res, nil
}

// fill writes idle games [have, n) through store.Commit from many
// goroutines, so the store's committer puts up to its batch size of them
// in each transaction. Game i always has the same channel and id, so a fill
// interrupted and run again only overwrites.
func fill(path string, n int) (fillResult, error) {
	have := storedCount(path)
	db, err := store.Open(path)
	if err != nil {
		return fillResult{}, err
	}
	start := time.Now()
	const workers = 512
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				g, err := storedGame(i)
				if err == nil {
					err = db.Commit(g, nil, nil, nil)
				}
				if err != nil {
					mu.Lock()
					firstErr = cmpErr(firstErr, err)
					mu.Unlock()
				}
			}
		}()
	}
	for i := have; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := db.Close(); err != nil && firstErr == nil {
		firstErr = err
	}
	if firstErr != nil {
		return fillResult{}, firstErr
	}
	if err := os.WriteFile(path+markerExt, []byte(strconv.Itoa(n)+"\n"), 0o600); err != nil {
		return fillResult{}, err
	}
	return fillResult{Added: max(n-have, 0), Took: time.Since(start)}, nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// storedGame is idle game i: a duel dealt and started, waiting for both
// players to build their hands, in a channel no player will touch.
func storedGame(i int) (*store.Game, error) {
	names := []string{fmt.Sprintf("Stored%dA", i), fmt.Sprintf("Stored%dB", i)}
	opts := map[string]int{duel.OptHandLimit: duel.DefaultHandLimit, duel.OptLife: duel.DefaultLife}
	seed := uint64(i) + 1
	g, err := duel.New(games.Setup{Players: names, Options: opts, Seed: seed})
	if err != nil {
		return nil, err
	}
	state, err := games.Encode(g)
	if err != nil {
		return nil, err
	}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	return &store.Game{
		ID: storedID(i), Kind: duel.Rules.ID, Guild: "900000000000000000", Channel: fmt.Sprintf("9%018d", i),
		Host: fmt.Sprintf("8%018d", 2*i), Status: store.Playing, Version: 1, StartSeats: 2,
		Seats: []store.Seat{
			{User: fmt.Sprintf("8%018d", 2*i), Name: names[0], ViewVersion: 1, WaitingSince: 1},
			{User: fmt.Sprintf("8%018d", 2*i+1), Name: names[1], ViewVersion: 1, WaitingSince: 1},
		},
		Options: opts, Seed: seed, StateVersion: duel.Rules.Version, State: state,
		Waiting: []int{0, 1}, Log: []string{"The game begins."}, Created: created,
	}, nil
}

// storedID is a game id of the bot's alphabet, unique per i.
func storedID(i int) string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b [8]byte
	for k := range b {
		b[k] = alphabet[i%len(alphabet)]
		i /= len(alphabet)
	}
	return string(b[:])
}

// copyFile copies a database file and syncs the copy.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
