package gamestest

import (
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestLines(t *testing.T) {
	f := func(name, value string, inline bool) games.Field {
		return games.Field{Name: name, Value: value, Inline: inline}
	}
	for _, tc := range []struct {
		name string
		v    games.View
		want int
	}{
		{"empty: the bot's footer", games.View{}, 1},
		{"title and footer", games.View{Title: "T", Footer: "F"}, 2},
		{"description lines", games.View{Title: "T", Description: "a\nb\n\nc\n"}, 1 + 4 + 1},
		{"a field", games.View{Fields: []games.Field{f("N", "1\n2", false)}}, 3 + 1},
		{"an empty value still shows", games.View{Fields: []games.Field{f("N", "", false)}}, 2 + 1},
		{"inline side by side", games.View{Fields: []games.Field{f("A", "1", true), f("B", "1\n2\n3", true), f("C", "1\n2", true)}}, 4 + 1},
		{"a fourth inline field starts a row", games.View{Fields: []games.Field{
			f("A", "1", true), f("B", "1", true), f("C", "1", true), f("D", "1\n2", true)}}, 2 + 3 + 1},
		{"a plain field breaks a row", games.View{Fields: []games.Field{
			f("A", "1\n2", true), f("B", "1", false), f("C", "1", true)}}, 3 + 2 + 2 + 1},
	} {
		if got := Lines(tc.v); got != tc.want {
			t.Errorf("%s: Lines = %d, want %d\n%s", tc.name, got, tc.want, Render(tc.v))
		}
	}
}
