package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cardtable/cardbot/games"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func TestSaveSurvivesReopen(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Kind: "duel", Channel: "c1", Guild: "g1", Status: Playing, Version: 7,
		Seats: []Seat{{User: "u1", Name: "Ann"}}, State: json.RawMessage(`{"x":1}`)}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Game("c1")
	if err != nil || got == nil {
		t.Fatalf("Game = %v, %v", got, err)
	}
	if got.Version != 7 || string(got.State) != `{"x":1}` || got.SeatOf("u1") != 0 || got.SeatOf("u2") != -1 {
		t.Fatalf("reloaded game differs: %+v", got)
	}
	all, _ := s.Running()
	if len(all) != 1 {
		t.Fatalf("Running = %d games", len(all))
	}
}

func TestEndFreesChannelAndCountsResults(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	for i := 0; i < 2; i++ {
		g := &Game{ID: "g" + string(rune('a'+i)), Kind: "duel", Channel: "c1", Guild: "g1"}
		if err := s.Save(g); err != nil {
			t.Fatal(err)
		}
		res := []PlayerResult{{User: "u1", Name: "Ann", Won: i == 0, Score: 5 - i}, {User: "u2", Name: "Bea", Won: i == 1}}
		if err := s.End(g, "won", res); err != nil {
			t.Fatal(err)
		}
	}
	if g, _ := s.Game("c1"); g != nil {
		t.Fatal("channel still holds a game after End")
	}
	if e, _ := s.Ended("ga"); e == nil || e.How != "won" || e.Final == nil || e.Final.ID != "ga" {
		t.Fatalf("Ended = %+v", e)
	}
	st, err := s.Stats("g1")
	if err != nil {
		t.Fatal(err)
	}
	if a := st["u1"].Games["duel"]; a.Played != 2 || a.Won != 1 || a.Points != 9 || a.Best != 5 {
		t.Fatalf("Ann's tally = %+v", a)
	}
	if other, _ := s.Stats("g2"); len(other) != 0 {
		t.Fatal("stats leaked into another server")
	}
}

// A server's table written whole by older builds is still read, and split
// into one key per player the first time a game ends there.
func TestStatsFromBeforePerPlayerKeys(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	old := `{"u1":{"name":"Ann","games":{"duel":{"played":3,"won":2,"points":7,"best":4}}},"u9":{"name":"Zed","games":{"life":{"played":1,"won":0}}}}`
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketStats).Put([]byte("g1"), []byte(old)) }); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Stats("g1"); err != nil || st["u1"].Games["duel"].Won != 2 || st["u9"].Name != "Zed" {
		t.Fatalf("old table read as %+v, %v", st, err)
	}
	g := &Game{ID: "ga", Kind: "duel", Channel: "c1", Guild: "g1"}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	if err := s.End(g, "won", []PlayerResult{{User: "u1", Name: "Ann", Won: true, Score: 6}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats("g1")
	if err != nil {
		t.Fatal(err)
	}
	if a := st["u1"].Games["duel"]; a.Played != 4 || a.Won != 3 || a.Points != 13 || a.Best != 6 {
		t.Fatalf("Ann's tally = %+v", a)
	}
	if z := st["u9"].Games["life"]; z == nil || z.Played != 1 {
		t.Fatalf("Zed's tally lost in the split: %+v", st["u9"])
	}
	var keys []string
	s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStats).ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
	})
	if strings.Join(keys, " ") != "g1/u1 g1/u9" {
		t.Fatalf("stats keys = %q, want one per player", keys)
	}
}

func TestMovesNeverUndoMessageIDs(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	g := &Game{ID: "abc", Channel: "c1", Version: 1}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPosts("abc", "c1", func(p *Posts) { p.Table, p.Drawn = "m1", 1 }); err != nil {
		t.Fatal(err)
	}
	g.Version = 2 // a move saved from a copy loaded before the table was posted
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	p, err := s.Posts("abc")
	if err != nil || p.Table != "m1" || p.Drawn != 1 {
		t.Fatalf("posts after a move: %+v, %v", p, err)
	}
	if p, _ := s.Posts("other"); p.Table != "" {
		t.Fatal("another game's posts are not empty")
	}
}

func TestLogKeepsEveryInputInOrder(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	g := &Game{ID: "abc", Channel: "c1"}
	for i := range 12 {
		in := []Entry{{Input: games.Input{Seat: i % 2, Action: games.Act("play", fmt.Sprint(i))}}}
		if err := s.Commit(g, in, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Commit(g, []Entry{{Input: games.Input{Kind: games.InJoin, Seat: 2, Name: "Cy"}}}, nil, &Ending{How: "finished"}); err != nil {
		t.Fatal(err)
	}
	h, err := s.History("abc")
	if err != nil || len(h) != 13 || g.Steps != 13 {
		t.Fatalf("history %d entries, steps %d, %v", len(h), g.Steps, err)
	}
	for i := range 12 {
		if h[i].Input.Action.Arg(0) != fmt.Sprint(i) {
			t.Fatalf("entry %d is %+v", i, h[i].Input)
		}
	}
	if h[12].Input.Name != "Cy" {
		t.Fatalf("last entry %+v", h[12])
	}
	if other, _ := s.History("ab"); len(other) != 0 {
		t.Fatal("a game id that is a prefix of another read its log")
	}
}

func TestTimersAreIndexedByDueTime(t *testing.T) {
	s, path := openTemp(t)
	base := time.UnixMilli(1_000_000)
	g := &Game{ID: "abc", Channel: "c1", Timers: map[string]int64{"late": base.Add(time.Hour).UnixMilli(), "soon": base.UnixMilli()}}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	h := &Game{ID: "def", Channel: "c2", Timers: map[string]int64{"mid": base.Add(time.Minute).UnixMilli()}}
	if err := s.Save(h); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	due, next, err := s.DueBy(base.Add(2 * time.Minute))
	if err != nil || len(due) != 2 || due[0].Key != "soon" || due[1].Key != "mid" || !next.Equal(base.Add(time.Hour)) {
		t.Fatalf("due %+v next %v err %v", due, next, err)
	}
	if want := (Due{Channel: "c1", Game: "abc", Key: "soon", At: base.UnixMilli()}); due[0] != want {
		t.Fatalf("read back %+v, want %+v", due[0], want)
	}
	// The key holds all but the game's id, so the value is only that.
	s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketTimers).Get(timerKey("c1", "soon", base.UnixMilli())); string(v) != "abc" {
			t.Errorf("the index stores %q for a timer, want the game id", v)
		}
		return nil
	})
	delete(g.Timers, "soon") // fired, or no longer wanted
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	if err := s.End(h, "finished", nil); err != nil {
		t.Fatal(err)
	}
	if due, _, _ := s.DueBy(base.Add(2 * time.Minute)); len(due) != 0 {
		t.Fatalf("removed and ended timers still due: %+v", due)
	}
}

// Builds before the compact index stored each timer's whole Due as JSON;
// those entries are still read, and fire.
func TestOldTimerEntriesStillRead(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	old := Due{Channel: "c1", Game: "abc", Key: "bot:idle", At: 5000}
	v, _ := json.Marshal(old)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTimers).Put(timerKey(old.Channel, old.Key, old.At), v)
	}); err != nil {
		t.Fatal(err)
	}
	due, _, err := s.DueBy(time.UnixMilli(6000))
	if err != nil || len(due) != 1 || due[0] != old {
		t.Fatalf("an old entry read as %+v, %v", due, err)
	}
	if err := s.DropTimer(due[0]); err != nil {
		t.Fatal(err)
	}
	if due, _, _ := s.DueBy(time.UnixMilli(6000)); len(due) != 0 {
		t.Fatalf("a dropped old entry is still due: %+v", due)
	}
}

func TestUnknownSchemaIsRefused(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).Put([]byte("c1"), []byte(`{"schema":99,"id":"abc","channel":"c1"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := s.Game("c1"); !errors.Is(err, ErrSchema) || g != nil {
		t.Fatalf("Game = %+v, %v; want ErrSchema", g, err)
	}
}

func TestEndLeavesANewerGameAlone(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	old := &Game{ID: "old", Channel: "c1"}
	if err := s.Save(&Game{ID: "new", Channel: "c1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.End(old, "been cancelled", nil); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Game("c1"); g == nil || g.ID != "new" {
		t.Fatalf("ending an old game removed the channel's new one: %+v", g)
	}
}

func TestOutputIsOwedUntilDone(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Channel: "c1", Version: 1}
	first := &Output{Game: "abc", Channel: "c1", Version: 1, Events: []games.Event{games.Narrate("It begins.")}}
	if err := s.Commit(g, nil, first, nil); err != nil {
		t.Fatal(err)
	}
	g.Version = 2
	last := &Output{Game: "abc", Channel: "c1", Version: 2, Events: []games.Event{games.Narrate("It ends.")}}
	if err := s.Commit(g, nil, last, &Ending{How: "finished"}); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Ended("abc"); e == nil || e.Final.Version != 2 {
		t.Fatalf("the ending was not committed with its output: %+v", e)
	}
	if err := s.Done(first, nil); err != nil {
		t.Fatal(err)
	}
	s.Close() // a crash before the last output was done
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	owed, err := s.Pending()
	if err != nil || len(owed) != 1 || owed[0].Version != 2 || owed[0].Events[0].Text != "It ends." || owed[0].Key != last.Key {
		t.Fatalf("pending after restart = %+v, %v", owed, err)
	}
}

// A message recorded together with the outputs it finished: one write, so
// a crash leaves both or neither.
func TestSetPostsFinishesOutputsInTheSameWrite(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Channel: "c1", Version: 1}
	var outs []*Output
	for v := 1; v <= 3; v++ {
		g.Version = v
		out := &Output{Game: "abc", Channel: "c1", Version: v, Events: []games.Event{games.Narrate("Line %d", v)}}
		if err := s.Commit(g, nil, out, nil); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	if err := s.SetPosts("abc", "c1", func(p *Posts) { p.Told = outs[2].Key + " 1" }, outs[0], outs[1]); err != nil {
		t.Fatal(err)
	}
	s.Close() // a crash right after
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	owed, err := s.Pending()
	if err != nil || len(owed) != 1 || owed[0].Key != outs[2].Key {
		t.Fatalf("pending after restart = %+v, %v; want only the last", owed, err)
	}
	if p, err := s.Posts("abc"); err != nil || p.Told != outs[2].Key+" 1" {
		t.Fatalf("posts after restart = %+v, %v", p, err)
	}
}

func TestSecondOpenIsRefusedClearly(t *testing.T) {
	s, path := openTemp(t)
	defer s.Close()
	if _, err := Open(path); err == nil {
		t.Fatal("opened a database another handle holds")
	}
}

// BenchmarkSave is the cost of committing one move: one bbolt transaction
// with its fsync, for a record the size of a game mid-play.
func BenchmarkSave(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := &Game{ID: "abc", Kind: "duel", Channel: "c1", Guild: "g1", Status: Playing,
		Seats: []Seat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bea"}}}
	g.State = json.RawMessage(`{"pad":"` + strings.Repeat("x", 3000) + `"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Version = i
		if err := s.Save(g); err != nil {
			b.Fatal(err)
		}
	}
}

// Writes from many channels at once share transactions, every one of them
// committed, and a write that fails fails only its own caller.
func TestConcurrentWritesCommitTogether(t *testing.T) {
	s, path := openTemp(t)
	errs := make(chan error, 64)
	for c := range 64 {
		go func() {
			g := &Game{ID: fmt.Sprintf("g%02d", c), Channel: fmt.Sprintf("c%02d", c)}
			if c == 7 {
				g.Channel = "c08" // collides with channel 8's game: refused, or refuses it
			}
			var err error
			for v := 1; v <= 5 && err == nil; v++ {
				g.Version = v
				err = s.Commit(g, []Entry{{Input: games.Input{Seat: v}}}, nil, nil)
			}
			errs <- err
		}()
	}
	failed := 0
	for range 64 {
		if err := <-errs; err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d writers failed; want exactly the one whose channel was taken", failed)
	}
	// 64 writers of 5 commits each: one transaction per write would be
	// over 300.
	if n := s.Transactions(); n == 0 || n > 160 {
		t.Fatalf("%d transactions for about 320 writes; want them grouped, at most 160", n)
	}
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, _ := s.Running()
	if len(all) != 63 {
		t.Fatalf("%d games stored; want 63", len(all))
	}
	for _, g := range all {
		h, _ := s.History(g.ID)
		if g.Version != 5 || len(h) != 5 || g.Steps != 5 {
			t.Fatalf("game %s: version %d, %d log entries, steps %d", g.ID, g.Version, len(h), g.Steps)
		}
	}
}

// Ended games are compacted after a day and deleted, log included, after
// the retention; games that are still open are never touched.
func TestPruneCompactsThenDeletes(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	for _, id := range []string{"old", "mid", "new"} {
		g := &Game{ID: id, Channel: "c-" + id, State: json.RawMessage(`{"big":"` + strings.Repeat("x", 2000) + `"}`)}
		if err := s.Commit(g, []Entry{{Input: games.Input{Seat: 1}}}, nil, &Ending{How: "finished"}); err != nil {
			t.Fatal(err)
		}
	}
	open := &Game{ID: "open", Channel: "c-open", State: json.RawMessage(`{}`)}
	if err := s.Commit(open, []Entry{{Input: games.Input{Seat: 1}}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	// Back-date two endings.
	for id, age := range map[string]time.Duration{"old": 400 * 24 * time.Hour, "mid": 3 * 24 * time.Hour} {
		e, _ := s.Ended(id)
		e.At = now.Add(-age)
		v, _ := json.Marshal(e)
		if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketEnded).Put([]byte(id), v) }); err != nil {
			t.Fatal(err)
		}
	}
	c, d, err := s.Prune(now, 24*time.Hour, 365*24*time.Hour)
	if err != nil || c != 1 || d != 1 {
		t.Fatalf("compacted %d deleted %d: %v", c, d, err)
	}
	if e, _ := s.Ended("old"); e != nil {
		t.Fatal("a game past retention is still kept")
	}
	if h, _ := s.History("old"); len(h) != 0 {
		t.Fatal("a deleted game's log is still kept")
	}
	if e, _ := s.Ended("mid"); e == nil || e.Final.State != nil || e.Final.ID != "mid" {
		t.Fatalf("the compacted game: %+v", e)
	}
	if h, _ := s.History("mid"); len(h) != 1 {
		t.Fatal("a compacted game lost its log")
	}
	if e, _ := s.Ended("new"); e == nil || e.Final.State == nil {
		t.Fatal("a fresh ending was compacted")
	}
	if g, _ := s.Game("c-open"); g == nil {
		t.Fatal("an open game was pruned")
	}
}

// A process that ends without Close (killed) is remembered, with when it
// last wrote the file, by every Open within the hour; one that closes is
// not.
func TestCrashesAreRemembered(t *testing.T) {
	s, path := openTemp(t)
	if len(s.Crashes()) != 0 {
		t.Fatalf("a new file has crashes: %v", s.Crashes())
	}
	if err := s.Save(&Game{ID: "g1", Kind: "duel", Channel: "c1", Status: Lobby}); err != nil {
		t.Fatal(err)
	}
	reopen := func(clean bool) *Store {
		t.Helper()
		if clean {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		} else {
			close(s.writes) // as a kill leaves it: no Close, the lock let go
			<-s.stopped
			s.db.Close()
		}
		var err error
		if s, err = Open(path); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s = reopen(true)
	if len(s.Crashes()) != 0 {
		t.Fatalf("after Close: crashes %v", s.Crashes())
	}
	before := time.Now()
	if err := s.Save(&Game{ID: "g2", Kind: "duel", Channel: "c2", Status: Lobby}); err != nil {
		t.Fatal(err)
	}
	s = reopen(false)
	crashes := s.Crashes()
	if len(crashes) != 1 || crashes[0].Before(before.Add(-time.Second)) || crashes[0].After(time.Now()) {
		t.Fatalf("after a kill: crashes %v; want one at the last write, after %v", crashes, before)
	}
	s = reopen(true)
	if got := s.Crashes(); len(got) != 1 || !got[0].Equal(crashes[0].Truncate(time.Millisecond)) {
		t.Fatalf("the next clean Open forgot the crash: %v", got)
	}
	// An hour later it is forgotten.
	old, _ := json.Marshal([]int64{time.Now().Add(-2 * time.Hour).UnixMilli()})
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyCrashes, old) }); err != nil {
		t.Fatal(err)
	}
	s = reopen(true)
	if len(s.Crashes()) != 0 {
		t.Fatalf("a crash two hours ago is remembered: %v", s.Crashes())
	}
	s.Close()
}

// The committer remembers each channel's last record so a write need not
// decode it again; what is on disk still decides, however it got there.
func TestRememberedRecordsNeverOverruleTheFile(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	base := time.UnixMilli(5_000_000)
	g := &Game{ID: "abc", Channel: "c1", Timers: map[string]int64{"a": base.UnixMilli()}}
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	g.Timers = map[string]int64{"b": base.Add(time.Second).UnixMilli()}
	if err := s.Save(g); err != nil { // the check uses the remembered head
		t.Fatal(err)
	}
	if due, _, _ := s.DueBy(base.Add(time.Minute)); len(due) != 1 || due[0].Key != "b" {
		t.Fatalf("due after a remembered write: %+v, want only b", due)
	}
	// Another game takes the channel behind the committer's back.
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).Put([]byte("c1"), []byte(`{"schema":`+strconv.Itoa(Schema)+`,"id":"xyz","channel":"c1"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(g); err == nil {
		t.Fatal("a write of abc went through while the file gives c1 to xyz")
	}
	_ = s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketGames).Get([]byte("c1")); !bytes.Contains(v, []byte(`"xyz"`)) {
			t.Fatalf("channel c1 holds %s, want xyz", v)
		}
		return nil
	})
}

// Owed output is keyed by when it was owed, not by channel, so a group
// commit touches the outbox's last page; an outbox written in the old
// "channel/sequence" form is still listed first and gives the same
// sequence numbers for nonces.
func TestOutboxKeysFollowTheOrderOwed(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	old := &Output{Game: "old", Channel: "c9", Version: 1}
	err := s.db.Update(func(tx *bolt.Tx) error {
		v, _ := json.Marshal(old)
		return tx.Bucket(bucketOut).Put([]byte("c9/00000000000000000003"), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i, ch := range []string{"c2", "c1", "c2"} {
		g := &Game{ID: "g" + ch, Channel: ch, Version: i + 1}
		out := &Output{Game: g.ID, Channel: ch, Version: i + 1}
		if err := s.Commit(g, nil, out, nil); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, out.Key)
	}
	if !(keys[0] < keys[1] && keys[1] < keys[2]) || OutputSeq(keys[0]) >= OutputSeq(keys[1]) {
		t.Fatalf("keys not in the order owed: %q", keys)
	}
	owed, err := s.Pending()
	if err != nil || len(owed) != 4 {
		t.Fatalf("pending = %+v, %v", owed, err)
	}
	if owed[0].Game != "old" || OutputSeq(owed[0].Key) != 3 {
		t.Fatalf("the old-form entry came back as %+v (seq %d)", owed[0], OutputSeq(owed[0].Key))
	}
	for i, o := range owed[1:] {
		if o.Key != keys[i] || o.Version != i+1 {
			t.Fatalf("pending[%d] = %+v, want key %q version %d", i+1, o, keys[i], i+1)
		}
	}
}

// The latest inputs ride in the record and reach the log bucket in
// batches; the history is whole at every point: open, reopened, ended
// early through End.
func TestLogTailIsPartOfTheHistory(t *testing.T) {
	s, path := openTemp(t)
	g := &Game{ID: "abc", Channel: "c1"}
	for i := range 2*logBatch + 3 {
		in := []Entry{{Input: games.Input{Seat: i % 2, Action: games.Act("play", fmt.Sprint(i))}}}
		if err := s.Commit(g, in, &Output{Game: "abc", Channel: "c1", Version: i}, nil); err != nil {
			t.Fatal(err)
		}
	}
	inBucket := func() int {
		n := 0
		_ = s.db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketLog).ForEach(func(_, _ []byte) error { n++; return nil })
		})
		return n
	}
	if n := inBucket(); n != 2*logBatch || len(g.Tail) != 3 || g.Steps != 2*logBatch+3 {
		t.Fatalf("%d inputs in the log bucket, %d in the tail, steps %d", n, len(g.Tail), g.Steps)
	}
	check := func(when string, want int) {
		t.Helper()
		h, err := s.History("abc")
		if err != nil || len(h) != want {
			t.Fatalf("%s: history of %d entries (%v), want %d", when, len(h), err, want)
		}
		for i, e := range h {
			if e.Input.Action.Arg(0) != fmt.Sprint(i) {
				t.Fatalf("%s: entry %d is %+v", when, i, e.Input)
			}
		}
	}
	check("open", 2*logBatch+3)
	s.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("reopened", 2*logBatch+3)
	g, err = s.Game("c1")
	if err != nil || len(g.Tail) != 3 {
		t.Fatalf("reopened record: %+v, %v", g, err)
	}
	if err := s.End(g, "been cancelled", nil); err != nil {
		t.Fatal(err)
	}
	check("ended", 2*logBatch+3)
	if n := inBucket(); n != 2*logBatch+3 {
		t.Fatalf("%d inputs in the log bucket after the end", n)
	}
	if e, _ := s.Ended("abc"); e == nil || len(e.Final.Tail) != 0 || e.Final.Steps != 2*logBatch+3 {
		t.Fatalf("ended record keeps a tail: %+v", e)
	}
}

// Once finished games start to pass the retention, the space they free
// takes the new ones: the file stops growing. Each simulated day 40 games
// are played (a move at a time, 20 moves each, a state of 2 KiB) and end;
// Prune runs as the bot runs it, compacting after a day and deleting after
// five.
func TestFileStopsGrowingOnceRetentionApplies(t *testing.T) {
	s, path := openTemp(t)
	defer s.Close()
	base := time.Now()
	state := json.RawMessage(`{"pad":"` + strings.Repeat("x", 2000) + `"}`)
	sizes := map[int]int64{}
	const days, moves = 20, 20
	for day := 0; day < days; day++ {
		today := base.Add(time.Duration(day) * 24 * time.Hour)
		s.now = func() time.Time { return today }
		errs := make(chan error, 40)
		for n := range 40 { // the day's games play at once, as channels do
			go func() {
				g := &Game{ID: fmt.Sprintf("d%02dg%02d", day, n), Kind: "duel", Channel: fmt.Sprintf("c%02d", n),
					Guild: "1574618322723405824", Status: Playing, State: state,
					Seats: []Seat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bea"}}}
				for move := range moves {
					var end *Ending
					if move == moves-1 {
						end = &Ending{How: "finished", Results: []PlayerResult{{User: "u1", Name: "Ann", Won: true}}}
					}
					g.Version = move + 1
					in := []Entry{{Input: games.Input{Seat: move % 2, Action: games.Action{Verb: "play", Args: []string{"QH"}}}}}
					if err := s.Commit(g, in, nil, end); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range 40 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := s.Prune(today.Add(time.Hour), 24*time.Hour, 5*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		sizes[day] = fi.Size()
	}
	// Days 0-5 fill the file; from day 6 games are deleted as fast as
	// they end.
	for day := 9; day < days; day++ {
		if sizes[day] > sizes[8] {
			t.Fatalf("the file grew after retention applied: %d bytes on day 8, %d on day %d (day 0: %d)",
				sizes[8], sizes[day], day, sizes[0])
		}
	}
	if h, _ := s.History(fmt.Sprintf("d%02dg00", days-1)); len(h) != moves {
		t.Fatalf("the newest game's log has %d entries, want %d", len(h), moves)
	}
	if e, _ := s.Ended("d00g00"); e != nil {
		t.Fatal("a game past the retention is still kept")
	}
	if e, _ := s.Ended(fmt.Sprintf("d%02dg00", days-3)); e == nil || e.Final.State != nil {
		t.Fatalf("a game within the retention, ended days ago: %+v, want it kept and compacted", e)
	}
	t.Logf("file size by day: 0: %d, 5: %d, 8: %d, %d: %d", sizes[0], sizes[5], sizes[8], days-1, sizes[days-1])
}
