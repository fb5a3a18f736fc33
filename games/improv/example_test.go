package improv

import (
	"strings"
	"testing"
)

// The chapter's worked examples, played through the rules.

// setupConflict opens a conflict with the given protagonists' seats and
// GM stakes ("Name: stake"), and declares it.
func setupConflict(t *testing.T, st *State, seats []string, gmStakes ...string) {
	t.Helper()
	act(t, st, 0, "open")
	act(t, st, 0, "who", seats...)
	for _, g := range gmStakes {
		actText(t, st, 0, "gmstake", g)
	}
	act(t, st, 0, "declare")
}

func TestExampleSimpleConflict(t *testing.T) {
	st := newGame(t, 2, nil) // Gail the GM, Bob
	actText(t, st, 1, "name", "Kit")
	setupConflict(t, st, []string{"1"}, "Amanda: turn Kit down politely")
	if st.C.Sides[1].Opp != 0 {
		t.Fatalf("with one GM stake Kit opposes it by default, got %d", st.C.Sides[1].Opp)
	}
	actText(t, st, 1, "stake", "Amanda agrees to a date")
	act(t, st, 0, "cards")

	setHand(t, st, 1, "TH", "2C", "3D", "4S")
	stackDeck(t, st, "QC")
	act(t, st, 1, "play", "TH")
	ev := act(t, st, 0, "play", "deck")
	if st.Phase != PhaseBonus || !strings.Contains(texts(ev), "top of the deck") {
		t.Fatalf("phase %s after both cards, events %q", st.Phase, texts(ev))
	}
	if strings.Contains(st.Table().Description+texts(ev), "Q♣") {
		t.Fatal("a face-down card shows before the reveal")
	}
	if strings.Contains(st.Hand(0).Description, "Q♣") {
		t.Fatal("the GM sees a deck card before the reveal")
	}
	act(t, st, 1, "ready")
	ev = act(t, st, 0, "ready")
	out := texts(ev)
	if st.Phase != PhaseNarrate {
		t.Fatalf("phase %s after everyone is ready", st.Phase)
	}
	if st.C.Sides[1].Total != 10 || st.C.Sides[0].Total != 12 {
		t.Fatalf("totals Kit %d, Amanda %d", st.C.Sides[1].Total, st.C.Sides[0].Total)
	}
	for _, want := range []string{"**Amanda** beats **Kit**", "won: Amanda", "lost: Kit", "Kit (Bob) → the GM (for Amanda)", "It's **Kit**'s turn"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	if n := stories(ev); n != 1 {
		t.Errorf("the reveal should be one story event, got %d", n)
	}
	// Bob declines to narrate; the GM narrates Amanda's refusal.
	if got := st.ToAct(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("ToAct %v, want Kit's player", got)
	}
	wantRefused(t, st, 0, "done", "", "Kit's turn")
	act(t, st, 1, "done")
	if got := st.ToAct(); len(got) != 1 || got[0] != 0 {
		t.Fatalf("ToAct %v, want the GM", got)
	}
	ev = act(t, st, 0, "done")
	if st.Phase != PhaseIdle || st.C != nil || !strings.Contains(texts(ev), "Conflict 1 is over") {
		t.Fatalf("after the narration: phase %s, %q", st.Phase, texts(ev))
	}
	if len(st.Hands[1]) != 4 || len(st.Hands[0]) != 4 {
		t.Fatalf("hands not refilled: %d and %d", len(st.Hands[1]), len(st.Hands[0]))
	}
}

func TestExampleConflictWithBonuses(t *testing.T) {
	st := newGame(t, 2, nil) // Gail the GM, Bob plays Diana here
	actText(t, st, 1, "name", "Diana")
	actText(t, st, 1, "addtal", "Clever investigator 3")
	setupConflict(t, st, []string{"1"}, "Guards: find Diana and capture her")
	actText(t, st, 1, "stake", "evade the guards, get the records and escape")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "5D", "9C", "KH", "2S")
	setHand(t, st, 1, "JS", "3C", "4C", "6H")
	act(t, st, 0, "play", "5D")
	act(t, st, 1, "play", "JS")
	pool, gmTokens := st.Pool, st.Tokens[0]

	ev := act(t, st, 0, "token") // the guards are especially alert
	if !strings.Contains(texts(ev), "The GM puts a story-token on Guards' card") {
		t.Errorf("token event %q", texts(ev))
	}
	if !strings.Contains(st.Table().Fields[0].Value, "+3") {
		t.Errorf("the bonus doesn't show on the table: %q", st.Table().Fields[0].Value)
	}
	act(t, st, 1, "usetal", "0")
	act(t, st, 1, "ready")
	ev = act(t, st, 0, "ready")
	if d, g := st.C.Sides[1].Total, st.C.Sides[0].Total; d != 14 || g != 8 {
		t.Fatalf("totals: Diana %d (want 11+3), guards %d (want 5+3)", d, g)
	}
	out := texts(ev)
	for _, want := range []string{"**Diana** beats **Guards**", "the GM's 1 → the pool", "Diana checks off Clever investigator (2 left; 1 of 6 this session)"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	if st.Pool != pool+1 || st.Tokens[0] != gmTokens-1 {
		t.Errorf("pool %d (was %d), GM %d (was %d): the GM's token goes to the pool", st.Pool, pool, st.Tokens[0], gmTokens)
	}
	h := st.Heroes[1]
	if h.Talents[0].Uses != 2 || h.SessionUses != 1 {
		t.Errorf("talent uses %d, session uses %d; want 2 and 1", h.Talents[0].Uses, h.SessionUses)
	}
	// The GM narrates first, then Diana.
	if st.C.Order[0].Seat != 0 || st.C.Order[1].Seat != 1 {
		t.Errorf("narration order %+v", st.C.Order)
	}
	if !strings.Contains(st.Hand(1).Fields[0].Value, "1 of 6 talent uses, 5 left") {
		t.Errorf("hand shows %q", st.Hand(1).Fields[0].Value)
	}
}

func TestExampleMultiWayConflict(t *testing.T) {
	st := newGame(t, 3, nil) // Gail the GM, Bob plays Kit, Susan plays Diana
	actText(t, st, 1, "name", "Kit")
	actText(t, st, 2, "name", "Diana")
	setupConflict(t, st, []string{"1", "2"}, "Director: drop the investigation")
	actText(t, st, 1, "stake", "continue the investigation, headed by Kit")
	actText(t, st, 2, "stake", "continue the investigation, headed by Diana")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "5C", "8C", "8D", "8H", "8S")
	setHand(t, st, 1, "9H", "2C", "3C", "4C")
	setHand(t, st, 2, "KS", "2D", "3D", "4D")
	act(t, st, 0, "play", "5C")
	act(t, st, 1, "play", "9H")
	act(t, st, 2, "play", "KS")
	act(t, st, 0, "ready")
	act(t, st, 1, "ready")
	ev := act(t, st, 2, "ready")
	out := texts(ev)
	for _, want := range []string{
		"**Kit** beats **Director**", "**Diana** beats **Director**",
		"won: Kit and Diana", "lost: Director",
		"the GM (for Director) → Kit (Bob) → Diana (Susan)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	// The ranking, highest first, gives Diana narration rights over Kit too.
	if strings.Index(out, "**Diana** — K♠") > strings.Index(out, "**Kit** — 9♥") ||
		strings.Index(out, "**Kit** — 9♥") > strings.Index(out, "**Director** — 5♣") {
		t.Errorf("ranking out of order: %q", out)
	}
	for i, want := range []int{0, 1, 2} {
		if st.ToAct()[0] != want {
			t.Fatalf("narrator %d is seat %d, want %d", i, st.ToAct()[0], want)
		}
		act(t, st, want, "done")
	}
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s after three narrations", st.Phase)
	}
}
