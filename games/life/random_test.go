package life

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

type move struct {
	seat int
	a    games.Action
}

// legalMoves is every control the views offer, as the clicking seat.
func legalMoves(t *testing.T, st *State) []move {
	t.Helper()
	var out []move
	for _, b := range st.Table().Buttons {
		for seat := range st.Players {
			out = append(out, move{seat, b.Action})
		}
	}
	for seat := range st.Players {
		for _, b := range st.Hand(seat).Buttons {
			if !b.Disabled {
				out = append(out, move{seat, b.Action})
			}
		}
	}
	return out
}

func checkView(t *testing.T, v games.View, what string) {
	t.Helper()
	if n := utf8.RuneCountInString(v.Title); n == 0 || n > 256 {
		t.Fatalf("%s: title length %d", what, n)
	}
	if n := utf8.RuneCountInString(v.Description); n > 4096 {
		t.Fatalf("%s: description length %d", what, n)
	}
	if len(v.Fields) > 25 {
		t.Fatalf("%s: %d fields", what, len(v.Fields))
	}
	for _, f := range v.Fields {
		if n := utf8.RuneCountInString(f.Name); n == 0 || n > 256 {
			t.Fatalf("%s: field name %q", what, f.Name)
		}
		if n := utf8.RuneCountInString(f.Value); n == 0 || n > 1024 {
			t.Fatalf("%s: field value length %d", what, n)
		}
	}
	rows := len(v.Choices) + (len(v.Buttons)+4)/5
	if rows > 5 {
		t.Fatalf("%s: %d component rows", what, rows)
	}
	for _, b := range v.Buttons {
		if n := utf8.RuneCountInString(b.Label); n == 0 || n > 80 {
			t.Fatalf("%s: button label %q", what, b.Label)
		}
		key := b.Action.Key()
		if len(key) > 60 {
			t.Fatalf("%s: action key %q too long", what, key)
		}
		if back, err := games.ParseAction(key); err != nil || back.Key() != key {
			t.Fatalf("%s: action %q doesn't parse back: %v", what, key, err)
		}
	}
}

func checkAll(t *testing.T, st *State) {
	t.Helper()
	checkView(t, st.Table(), "table")
	for seat := -1; seat <= len(st.Players); seat++ {
		checkView(t, st.Hand(seat), fmt.Sprintf("hand %d", seat))
	}
	// Every card is somewhere, once.
	seen := map[games.Card]int{}
	for _, b := range st.Boards {
		for _, sl := range b {
			seen[sl.Card]++
		}
	}
	for _, c := range st.Pile.Draw {
		seen[c]++
	}
	for _, c := range st.Pile.Discard {
		seen[c]++
	}
	if st.Challenge != nil {
		seen[*st.Challenge]++
	}
	if len(seen) != 52 {
		t.Fatalf("%d distinct cards in play", len(seen))
	}
	for c, n := range seen {
		if n != 1 {
			t.Fatalf("%s appears %d times", c, n)
		}
	}
	for seat := range st.Players {
		if g, _ := st.markers(seat); g > startMarkers {
			t.Fatalf("seat %d gave %d markers", seat, g)
		}
	}
	// Exactly the seats the game waits for have a non-swap control.
	for seat := range st.Players {
		has := false
		for _, b := range st.Hand(seat).Buttons {
			if b.Action.Verb != "swap" {
				has = true
			}
		}
		waits := false
		for _, s := range st.ToAct() {
			waits = waits || s == seat
		}
		if has != waits {
			t.Fatalf("seat %d: controls %v but ToAct %v", seat, has, st.ToAct())
		}
	}
}

func TestRandomGames(t *testing.T) {
	count := uint64(200)
	if raceOn {
		count = 60 // still every player count × option combination at least once
	}
	for seed := uint64(0); seed < count; seed++ {
		n := int(seed%6) + 1
		opts := map[string]int{
			"roleplay":   int(seed/6) % 2,
			"snake_eyes": int(seed/12) % 2,
			"swap":       int(seed/24) % 2,
		}
		g, err := Rules.New(games.Setup{Players: names[:n], Options: opts, Seed: seed * 7919})
		if err != nil {
			t.Fatal(err)
		}
		st := g.(*State)
		chooser := games.NewRNG(seed)
		deaths := 0
		for step := 0; !st.Over(); step++ {
			if step > 400 {
				t.Fatalf("seed %d: game did not end", seed)
			}
			checkAll(t, st)
			// Sometimes a reaction; refusals are fine, panics and bad counts are not.
			if chooser.Intn(4) == 0 {
				from, to := chooser.Intn(n+1)-1, chooser.Intn(n)
				ref := fmt.Sprintf("msg%d", chooser.Intn(6))
				add := chooser.Intn(3) > 0
				lineBy(st, ref, to)
				before := encode(t, st)
				_, err := st.React(from, ref, markerEmoji, add)
				var r *games.Refusal
				if err != nil && !errors.As(err, &r) {
					t.Fatalf("seed %d: React error %v", seed, err)
				}
				if err != nil && !bytes.Equal(before, encode(t, st)) {
					t.Fatalf("seed %d: refused reaction changed the state", seed)
				}
			}
			moves := legalMoves(t, st)
			if len(moves) == 0 {
				t.Fatalf("seed %d: no legal move but not over", seed)
			}
			// Prefer moves that advance the game; swaps now and then.
			var m move
			for try := 0; try < 3; try++ {
				m = moves[chooser.Intn(len(moves))]
				if m.a.Verb != "swap" {
					break
				}
			}
			saved := encode(t, st)
			g2, err := Rules.Load(saved)
			if err != nil {
				t.Fatalf("seed %d: load: %v", seed, err)
			}
			twin := g2.(*State)
			ev, err := st.Apply(m.seat, m.a)
			if err != nil {
				t.Fatalf("seed %d step %d: offered %s by seat %d refused: %v", seed, step, m.a.Key(), m.seat, err)
			}
			ev2, err2 := twin.Apply(m.seat, m.a)
			if err2 != nil || texts(ev) != texts(ev2) {
				t.Fatalf("seed %d: reloaded state behaved differently", seed)
			}
			after := encode(t, st)
			if !bytes.Equal(after, encode(t, twin)) {
				t.Fatalf("seed %d: reloaded state diverged", seed)
			}
			for _, e := range ev {
				if l := utf8.RuneCountInString(e.Text); l == 0 || l > maxEvent {
					t.Fatalf("seed %d: event of %d characters", seed, l)
				}
			}
			g3, err := Rules.Load(after)
			if err != nil {
				t.Fatalf("seed %d: load: %v", seed, err)
			}
			st = g3.(*State)
		}
		checkAll(t, st)
		for seat := range st.Players {
			if st.dead(seat) {
				deaths++
			}
		}
		if opts["snake_eyes"] == 0 && deaths > 0 {
			t.Fatalf("seed %d: a death without snake eyes", seed)
		}
		if len(st.ToAct()) != 0 {
			t.Fatalf("seed %d: ToAct %v when over", seed, st.ToAct())
		}
		res := st.Results()
		winners := 0
		for _, r := range res {
			if r.Winner {
				winners++
			}
		}
		if len(res) != n || winners == 0 {
			t.Fatalf("seed %d: results %+v", seed, res)
		}
		for seat := range st.Players {
			if len(st.History[seat]) != 6 && !st.dead(seat) {
				t.Fatalf("seed %d: seat %d lived %d chapters", seed, seat, len(st.History[seat]))
			}
		}
	}
}
