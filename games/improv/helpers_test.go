package improv

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

var names = []string{"Gail", "Bob", "Susan", "Carl", "Dee", "Eve", "Finn"}

// newGame starts a campaign with n seats (the GM included).
func newGame(t *testing.T, n int, opts map[string]int) *State {
	t.Helper()
	g, err := New(games.Setup{Players: names[:n], Options: opts, Seed: 42})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g.(*State)
}

func card(t *testing.T, code string) games.Card {
	t.Helper()
	c, err := games.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// takeOut removes a card from wherever it is (hands, deck, discards) so
// that a test can place it; the total stays 54.
func takeOut(st *State, c games.Card) {
	for seat := range st.Hands {
		st.Hands[seat], _ = games.Remove(st.Hands[seat], c)
	}
	st.Deck.Draw, _ = games.Remove(st.Deck.Draw, c)
	st.Deck.Discard, _ = games.Remove(st.Deck.Discard, c)
}

// setHand gives seat exactly these cards; its old cards go to the bottom
// of the deck.
func setHand(t *testing.T, st *State, seat int, codes ...string) {
	t.Helper()
	old := st.Hands[seat]
	st.Hands[seat] = nil
	st.Deck.Draw = append(append([]games.Card(nil), old...), st.Deck.Draw...)
	for _, code := range codes {
		c := card(t, code)
		takeOut(st, c)
		st.Hands[seat] = append(st.Hands[seat], c)
	}
}

// stackDeck puts cards on top of the deck: the first code is drawn first.
func stackDeck(t *testing.T, st *State, codes ...string) {
	t.Helper()
	for i := len(codes) - 1; i >= 0; i-- {
		c := card(t, codes[i])
		takeOut(st, c)
		st.Deck.Draw = append(st.Deck.Draw, c)
	}
}

func act(t *testing.T, st *State, seat int, verb string, args ...string) []games.Event {
	t.Helper()
	return actText(t, st, seat, verb, "", args...)
}

func actText(t *testing.T, st *State, seat int, verb, text string, args ...string) []games.Event {
	t.Helper()
	a := games.Act(verb, args...)
	a.Text = text
	ev, err := st.Apply(seat, a)
	if err != nil {
		t.Fatalf("%s %v %q by seat %d refused: %v", verb, args, text, seat, err)
	}
	checkInvariants(t, st)
	return ev
}

// refused checks that a move is refused with a sentence and changes nothing.
func refused(t *testing.T, st *State, seat int, verb, text string, args ...string) string {
	t.Helper()
	before := encode(t, st)
	a := games.Act(verb, args...)
	a.Text = text
	ev, err := st.Apply(seat, a)
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s %v by seat %d: want a refusal, got events %v, err %v", verb, args, seat, ev, err)
	}
	if r.Msg == "" || !strings.HasSuffix(r.Msg, ".") && !strings.HasSuffix(r.Msg, ")") {
		t.Errorf("refusal %q is not a sentence", r.Msg)
	}
	if after := encode(t, st); !bytes.Equal(before, after) {
		t.Fatalf("refused %s changed the state:\n%s\n%s", verb, before, after)
	}
	return r.Msg
}

func wantRefused(t *testing.T, st *State, seat int, verb, text, want string, args ...string) {
	t.Helper()
	if msg := refused(t, st, seat, verb, text, args...); !strings.Contains(msg, want) {
		t.Errorf("%s: refusal %q, want it to mention %q", verb, msg, want)
	}
}

func encode(t *testing.T, g games.Game) []byte {
	t.Helper()
	b, err := games.Encode(g)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func texts(ev []games.Event) string {
	var parts []string
	for _, e := range ev {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, "\n")
}

// totalTokens is every story-token in the campaign, wherever it is.
func totalTokens(st *State) int {
	n := st.Pool + st.Bank + st.Spent
	for _, x := range st.Tokens {
		n += x
	}
	if st.C != nil && st.Phase == PhaseBonus {
		for _, b := range st.C.Bonuses {
			if b.Talent == "" {
				n++
			}
		}
	}
	return n
}

// totalCards is every card in the campaign, wherever it is.
func totalCards(st *State) int {
	n := len(st.Deck.Draw) + len(st.Deck.Discard)
	for _, h := range st.Hands {
		n += len(h)
	}
	if st.C != nil {
		for _, sd := range st.C.Sides {
			if sd.Card != nil && (st.Phase == PhaseCards || st.Phase == PhaseBonus) {
				n++
			}
			n += len(sd.Pile) + len(sd.Got)
		}
	}
	return n
}

func checkInvariants(t testing.TB, st *State) {
	t.Helper()
	if want := 4 * (len(st.Players) - 1); totalTokens(st) != want {
		t.Fatalf("%d story-tokens in the campaign, want %d", totalTokens(st), want)
	}
	if n := totalCards(st); n != 54 {
		t.Fatalf("%d cards in the campaign, want 54", n)
	}
	for seat, h := range st.Heroes {
		if h.SessionUses > st.TalentCap {
			t.Fatalf("seat %d used %d talents this session, over the cap %d", seat, h.SessionUses, st.TalentCap)
		}
		for _, tal := range h.Talents {
			if tal.Uses < 0 {
				t.Fatalf("seat %d's %s has %d uses", seat, tal.Name, tal.Uses)
			}
		}
	}
	for seat, x := range st.Tokens {
		if x < 0 {
			t.Fatalf("seat %d holds %d tokens", seat, x)
		}
	}
	if st.C != nil && st.gmPlaced() > st.gmLimit() {
		t.Fatalf("the GM placed %d tokens, over %d", st.gmPlaced(), st.gmLimit())
	}
}

func stories(ev []games.Event) int {
	n := 0
	for _, e := range ev {
		if e.Story {
			n++
		}
	}
	return n
}
