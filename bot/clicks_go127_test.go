//go:build go1.27

package bot

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// foldName agrees with strings.EqualFold on every rune: a name's letter
// becomes a lower-case ASCII letter exactly when EqualFold matches the two.
func TestFoldNameIsEqualFold(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		ascii := rune(-1)
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if 'a' <= f && f <= 'z' {
				ascii = f
			}
		}
		if 'a' <= r && r <= 'z' {
			ascii = r
		}
		got := string(foldName([]byte(string(r))))
		if ascii >= 0 && got != string(ascii) {
			t.Errorf("%U folds to %q, want %q", r, got, ascii)
		}
		if ascii < 0 && utf8.RuneSelf > r && got != string(r) {
			t.Errorf("%U folds to %q, want itself", r, got)
		}
		if ascii < 0 && r >= utf8.RuneSelf && len(got) == 1 {
			t.Errorf("%U folds to %q, which no EqualFold matches", r, got)
		}
	}
	if got := string(foldName([]byte("Custom_ID"))); got != "custom_id" {
		t.Errorf("Custom_ID folds to %q", got)
	}
}
