package fakediscord

import (
	"fmt"
	"strings"
	"testing"
)

// The fake's shortcuts must give what the plain way they replace gives.

func TestAtJoinsLikeSprint(t *testing.T) {
	plain := func(prefix string, keys ...any) string {
		parts := []string{}
		if prefix != "" {
			parts = append(parts, prefix)
		}
		for _, k := range keys {
			parts = append(parts, fmt.Sprint(k))
		}
		return strings.Join(parts, ".")
	}
	long := strings.Repeat("components.", 10)
	for _, c := range []struct {
		prefix string
		keys   []any
	}{
		{"", nil}, {"data", nil}, {"", []any{"content"}}, {"data", []any{"embeds", 0, "fields", 24, "name"}},
		{"", []any{"", "x"}}, {"", []any{""}}, {"data", []any{""}}, {"p", []any{-3, 1 << 40}}, {long, []any{long, 12345}},
	} {
		if got, want := at(c.prefix, c.keys...), plain(c.prefix, c.keys...); got != want {
			t.Errorf("at(%q, %v) = %q, want %q", c.prefix, c.keys, got, want)
		}
	}
}
