package improv

import (
	"strings"
	"testing"
)

// One protagonist in a conflict reads in the singular, on the GM's screen
// and in the channel.
func TestWordingOneProtagonist(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "name", "Kit")
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1")
	if d := st.Hand(0).Description; !strings.Contains(d, "at most 1 GM stake (one per protagonist taking part)") {
		t.Errorf("GM screen:\n%s", d)
	}
	actText(t, st, 0, "gmstake", "Riso: get away")
	evs := act(t, st, 0, "declare")
	if txt := texts(evs); !strings.Contains(txt, "— **Kit** takes part.") {
		t.Errorf("events: %s", txt)
	}
}

// The extended conflict's GM token allowance names its unit once, up
// front, not after "beyond 3".
func TestWordingExtendedGMAllowance(t *testing.T) {
	st := newGame(t, 3, nil)
	act(t, st, 0, "open")
	act(t, st, 0, "rounds", "3")
	act(t, st, 0, "who", "1")
	d := st.Hand(0).Description
	if !strings.Contains(d, "allows 2 story-tokens + 2 per protagonist + 2 per round beyond 3, at most") {
		t.Errorf("GM screen:\n%s", d)
	}
}

// The GM's token limit refusal says what was reached, not "and has.".
func TestWordingGMTokenLimitRefusal(t *testing.T) {
	st := newGame(t, 4, nil)
	toBonus(t, st, "TH", "9D")
	act(t, st, 0, "token")
	act(t, st, 0, "token")
	wantRefused(t, st, 0, "token", "", "(1 + 1 participating player), and has used them all.")
}
