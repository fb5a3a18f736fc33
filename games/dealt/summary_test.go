package dealt

import (
	"testing"
	"unicode/utf8"
)

func TestSummaryFits(t *testing.T) {
	if n := utf8.RuneCountInString(Rules.Summary); n > 4000 {
		t.Errorf("summary is %d characters; /rules allows 4000", n)
	}
}
