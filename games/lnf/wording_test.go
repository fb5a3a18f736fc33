package lnf

import (
	"strings"
	"testing"
)

// A wild card with the wrong words is dead for a wrong line, not a
// missing one; the table's last line says which.
func TestWordingDeadCardWrongOrMissingLine(t *testing.T) {
	for line, want := range map[string]string{"": "was dead: no line.", "hello": "was dead: wrong line."} {
		s := rigged(t, "G5 R2", "Y1 B4 Y9 Y8", "W2 B5", "G1", "Y2")
		must(t, s, 0, play("W2", line))
		if !strings.Contains(s.Last, want) {
			t.Errorf("%q: last line %q, want %q", line, s.Last, want)
		}
	}
}
