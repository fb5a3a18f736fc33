package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/rpc"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync/atomic"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/store"
)

// The bot runs in a process of its own, as in production: its heap, its
// collector and its goroutines are not the fake Discord's and the players',
// and the CPU it uses is a figure of its own. The load process starts it
// and drives it over net/rpc on the child's stdin and stdout.

// botEnv carries the child's childConfig, as JSON.
const botEnv = "CARDBOT_LOAD_BOT"

type childConfig struct {
	APIURL, GuildID, DBPath string
	LogLevel                slog.Level
	Profiles                profilePaths
	GlobalLimit             int // Discord's global limit; 0: none
	Procs                   int // GOMAXPROCS of the bot's process; 0: Go's default
}

// profilePaths are the profiles of the load window the bot's process
// writes ("" for none).
type profilePaths struct{ CPU, Trace, Block, Mem string }

// botChildMain runs the bot's process if the environment asks for it, and
// reports whether it did.
func botChildMain() bool {
	spec := os.Getenv(botEnv)
	if spec == "" {
		return false
	}
	if err := serveBot(spec); err != nil {
		fmt.Fprintln(os.Stderr, "load: bot process:", err)
		os.Exit(1)
	}
	os.Exit(0)
	return true
}

func serveBot(spec string) error {
	var c childConfig
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		return err
	}
	bot.TuneGC(os.LookupEnv)
	if c.Procs > 0 {
		runtime.GOMAXPROCS(c.Procs)
	}
	serve, err := newBotServer(c, os.Stderr)
	if err != nil {
		return err
	}
	serve(pipeConn{os.Stdin, os.Stdout}) // until the load process closes the pipe
	return nil
}

// newBotServer starts the bot and returns what serves its RPC on one
// connection, then closes the bot and the store.
func newBotServer(c childConfig, logTo io.Writer) (serve func(io.ReadWriteCloser), err error) {
	log := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: c.LogLevel, ReplaceAttr: bot.RedactTokens}))
	started := time.Now()
	db, err := store.Open(c.DBPath)
	if err != nil {
		return nil, err
	}
	var seed atomic.Uint64
	tr := newBotTransport(bot.NewTransport())
	cfg := bot.Config{Token: fakediscord.BotToken, APIURL: c.APIURL, DBPath: c.DBPath, GuildID: c.GuildID,
		LogLevel: c.LogLevel, Seeds: func() uint64 { return seed.Add(1) }, Transport: tr, GlobalLimit: c.GlobalLimit}
	if c.GlobalLimit <= 0 {
		cfg.GlobalRate = -1 // as behind a proxy that keeps no limit
	}
	b, err := bot.New(cfg, db, log, bot.Catalog())
	if err == nil {
		err = b.Start()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	srv := rpc.NewServer()
	pauses := startPauseWatch()
	if err := srv.Register(&BotProcess{bot: b, db: db, answers: tr, started: time.Since(started), paths: c.Profiles, pauses: pauses}); err != nil {
		pauses.close()
		return nil, err
	}
	return func(conn io.ReadWriteCloser) {
		srv.ServeConn(conn)
		pauses.close()
		within(10*time.Second, func() { b.Close() })
		db.Close()
	}, nil
}

// BotProcess is what the bot's process answers over RPC.
type BotProcess struct {
	bot     *bot.Bot
	db      *store.Store
	answers *botTransport
	started time.Duration // store.Open + bot.New + Start
	paths   profilePaths
	stop    []func()
	pauses  *pauseWatch
}

// Usage is the bot process's counters.
type Usage struct {
	Start        time.Duration // store.Open + bot.New + Start
	CPU          time.Duration // user+sys so far
	Switches     int64         // context switches so far
	RSS, HWM     uint64
	File, Live   uint64 // file-backed part of RSS; live Go heap
	Transactions uint64
	Procs        int // GOMAXPROCS
}

// OpenGame is the part of a channel's stored game the players look at.
type OpenGame struct {
	ID, Status string
	Version    int
	Waiting    []int
	Table      string // the table message's id, "" before it is posted
	Views      []int  // each seat's view version: a hand's button older than its seat's is stale
}

// Window is a span of wall-clock time, in Unix nanoseconds.
type Window struct{ From, To int64 }

func (p *BotProcess) Usage(_ int, u *Usage) error {
	u.CPU, u.Switches = cpuTime()
	u.Start, u.Transactions = p.started, p.db.Transactions()
	u.RSS, u.HWM, u.File = memory()
	u.Live = liveHeap()
	u.Procs = runtime.GOMAXPROCS(0)
	return nil
}

func (p *BotProcess) Game(channel string, g *OpenGame) error {
	rec, err := p.db.Game(channel)
	if err != nil || rec == nil {
		return err
	}
	*g = OpenGame{ID: rec.ID, Status: rec.Status, Version: rec.Version, Waiting: rec.Waiting}
	for _, s := range rec.Seats {
		g.Views = append(g.Views, s.ViewVersion)
	}
	if posts, err := p.db.Posts(rec.ID); err == nil {
		g.Table = posts.Table
	}
	return nil
}

// Idle waits up to d for the bot's work under way to finish.
func (p *BotProcess) Idle(d time.Duration, done *bool) error {
	*done = within(d, p.bot.Idle)
	return nil
}

func (p *BotProcess) Answers(w Window, out *[]time.Duration) error {
	*out = p.answers.between(time.Unix(0, w.From), time.Unix(0, w.To))
	return nil
}

// Pauses sums up the gaps in the bot's process within a window.
func (p *BotProcess) Pauses(w Window, out *Pauses) error {
	*out = p.pauses.within(time.Unix(0, w.From), time.Unix(0, w.To))
	return nil
}

// Profile starts (on) or stops the profiles of the load window.
func (p *BotProcess) Profile(on bool, _ *int) error {
	if !on {
		for _, stop := range p.stop {
			stop()
		}
		p.stop = nil
		return nil
	}
	if path := p.paths.CPU; path != "" {
		f, err := startWriting(path, pprof.StartCPUProfile)
		if err != nil {
			return err
		}
		p.stop = append(p.stop, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if path := p.paths.Trace; path != "" {
		f, err := startWriting(path, trace.Start)
		if err != nil {
			return err
		}
		p.stop = append(p.stop, func() { trace.Stop(); f.Close() })
	}
	if path := p.paths.Block; path != "" {
		runtime.SetBlockProfileRate(int(100 * time.Microsecond))
		p.stop = append(p.stop, func() {
			runtime.SetBlockProfileRate(0)
			writeProfile(path, "block")
		})
	}
	if path := p.paths.Mem; path != "" {
		// Every allocation, and the profile taken once before the window,
		// so the window's are the difference (pprof -diff_base).
		runtime.MemProfileRate = 4096
		runtime.GC()
		writeProfile(path+".base", "allocs")
		p.stop = append(p.stop, func() {
			runtime.GC()
			writeProfile(path, "allocs")
		})
	}
	return nil
}

func writeProfile(path, name string) {
	if f, err := os.Create(path); err == nil {
		pprof.Lookup(name).WriteTo(f, 0)
		f.Close()
	}
}

// botProc is the load process's handle on the bot's process.
type botProc struct {
	cmd    *exec.Cmd     // nil when the bot runs in this process
	served chan struct{} // closed when the bot in this process is closed
	client *rpc.Client
}

// startBot starts the bot, in a process of its own or (together) in this
// one, and waits until it has started.
func startBot(c childConfig, together bool, stderr io.Writer) (*botProc, error) {
	p := &botProc{}
	if together {
		serve, err := newBotServer(c, stderr)
		if err != nil {
			return nil, err
		}
		mine, its := net.Pipe()
		p.served = make(chan struct{})
		go func() { serve(its); close(p.served) }()
		p.client = rpc.NewClient(mine)
	} else {
		spec, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), botEnv+"="+string(spec))
		cmd.Stderr = stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		p.cmd, p.client = cmd, rpc.NewClient(pipeConn{out, in})
	}
	// The first call is answered once the bot has started.
	if _, err := p.usage(); err != nil {
		p.close()
		return nil, fmt.Errorf("the bot's process did not start: %w", err)
	}
	return p, nil
}

// pipeConn is an RPC connection over two pipes: the child's stdout and
// stdin seen from the load process, or its own stdin and stdout.
type pipeConn struct {
	io.ReadCloser
	w io.WriteCloser
}

func (c pipeConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c pipeConn) Close() error                { return errors.Join(c.w.Close(), c.ReadCloser.Close()) }

func (p *botProc) usage() (Usage, error) {
	var u Usage
	err := p.client.Call("BotProcess.Usage", 0, &u)
	return u, err
}

// game is the channel's open game in the bot's store, or nil.
func (p *botProc) game(channel string) *OpenGame {
	var g OpenGame
	if err := p.client.Call("BotProcess.Game", channel, &g); err != nil || g.ID == "" {
		return nil
	}
	return &g
}

func (p *botProc) idle(d time.Duration) bool {
	var done bool
	err := p.client.Call("BotProcess.Idle", d, &done)
	return err == nil && done
}

func (p *botProc) answers(from, to time.Time) []time.Duration {
	var out []time.Duration
	p.client.Call("BotProcess.Answers", Window{from.UnixNano(), to.UnixNano()}, &out)
	return out
}

func (p *botProc) pauses(from, to time.Time) Pauses {
	var out Pauses
	p.client.Call("BotProcess.Pauses", Window{from.UnixNano(), to.UnixNano()}, &out)
	return out
}

func (p *botProc) profile(on bool) error {
	return p.client.Call("BotProcess.Profile", on, new(int))
}

// close ends the bot's process: it closes the bot once its pipe closes,
// and is killed if it has not exited within 15 s.
func (p *botProc) close() {
	p.client.Close()
	if p.cmd == nil {
		<-p.served
		return
	}
	if !within(15*time.Second, func() { p.cmd.Wait() }) {
		p.cmd.Process.Kill()
	}
}
