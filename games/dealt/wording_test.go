package dealt

import (
	"strings"
	"testing"
)

// The chips left are told after the payment: "Ann (1 left) gives up a
// chip" read as though Ann had one chip before paying.
func TestWordingChipsLeftAfterPaying(t *testing.T) {
	s := rigged(t, 0, "5", "R", "")
	s.Players[0].Chips = 1
	must(t, s, 0, VerbPlay, "1_solo_5")
	evs := must(t, s, 1, VerbPlay, "1_redraw")
	if got := events(evs); !strings.Contains(got, "Ann gives up a chip and has none left.") || strings.Contains(got, "left) gives") {
		t.Errorf("events: %s", got)
	}
}
