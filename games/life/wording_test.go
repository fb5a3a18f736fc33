package life

import (
	"strings"
	"testing"
)

// A score of 1 is "1 pt", not "1 pts".
func TestWordingOnePoint(t *testing.T) {
	st := started(t, 2, map[string]int{"roleplay": 1})
	setBoard(t, st, 0, "4C", "-5C", "-6C", "-7C", "-8C", "-9C") // 4 on cards − 3 markers not given
	name := st.Table().Fields[0].Name
	if !strings.Contains(name, "— 1 pt = 4 on cards") || strings.Contains(name, "1 pts") {
		t.Errorf("seat 0's line: %q", name)
	}
}
