package bot_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

// duelTable sets up a started duel in channel ch with both hands built,
// and returns its two players.
func duelTable(b testing.TB, h *harness, ch string, n int) (*fakediscord.User, *fakediscord.User) {
	ann, bea := h.fake.AddUser(fmt.Sprintf("Ann%d", n)), h.fake.AddUser(fmt.Sprintf("Bea%d", n))
	// Empty hands, so every play is from the deck: with forced moves left
	// to the players, each is still a click.
	ann.Command(ch, "game", newGame("duel", fakediscord.Int("life", 60), fakediscord.Bool("autoplay", false)))
	table := func() *fakediscord.Message {
		g, _ := h.db.Game(ch)
		p, _ := h.db.Posts(g.ID)
		if p.Thread != "" {
			return h.fake.Message(p.Thread, p.Table)
		}
		return h.fake.Message(ch, p.Table)
	}
	bea.Click(table(), table().ButtonID("Join"))
	ann.Click(table(), table().ButtonID("Start"))
	for _, u := range []*fakediscord.User{ann, bea} {
		r := u.Click(table(), table().ButtonID("My hand"))
		r = u.Click(r.Message, r.Message.ButtonID("Lock in hand")) // an empty hand: every play is from the deck
		if r == nil || r.Type != 7 {
			b.Fatalf("lock answered %+v", r)
		}
	}
	return ann, bea
}

// move makes the next move in a channel's duel; false once the game is over.
func move(h *harness, ch string, ann, bea *fakediscord.User) bool {
	if g, _ := h.db.Game(ch); g == nil {
		return false
	}
	for _, u := range []*fakediscord.User{ann, bea} {
		m := u.LastEphemeral(ch)
		for _, btn := range m.Buttons() {
			if !btn.Disabled {
				u.Click(m, btn.CustomID)
				return true
			}
		}
	}
	return false
}

// BenchmarkMoveThroughDiscord is one move's whole round trip: the click as
// a gateway event, the bbolt commit, the interaction answer, the table edit,
// the other hand's refresh and the ping, as the fake Discord sees them.
func BenchmarkMoveThroughDiscord(b *testing.B) {
	h := newBenchHarness(b)
	ann, bea := duelTable(b, h, h.ch, 0)
	games := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !move(h, h.ch, ann, bea) {
			b.StopTimer()
			games++
			ann, bea = duelTable(b, h, h.ch, games)
			b.StartTimer()
			i--
		}
	}
}

// BenchmarkMovesInParallelChannels plays duels in several channels at once;
// compare its ns/op with BenchmarkMoveThroughDiscord for the gain from
// running channels in parallel.
func BenchmarkMovesInParallelChannels(b *testing.B) {
	const channels = 4
	h := newBenchHarness(b)
	type table struct {
		ch       string
		ann, bea *fakediscord.User
	}
	tables := make([]*table, channels)
	for n := range tables {
		ch := h.fake.NewChannel(fmt.Sprintf("duel-%d", n))
		ann, bea := duelTable(b, h, ch, n)
		tables[n] = &table{ch, ann, bea}
	}
	var wg sync.WaitGroup
	per := b.N/channels + 1
	b.ResetTimer()
	for n, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if !move(h, t.ch, t.ann, t.bea) {
					t.ann, t.bea = duelTable(b, h, t.ch, 100*n+i)
				}
			}
		}()
	}
	wg.Wait()
}
