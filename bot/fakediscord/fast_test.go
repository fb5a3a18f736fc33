package fakediscord

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
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

// fillComponent is a component with every field set, holding depth levels
// of such components.
func fillComponent(depth int) *component {
	c := &component{}
	v := reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case v.Type().Field(i).Name == "Components":
			if depth > 0 {
				c.Components = []*component{fillComponent(depth - 1), nil, fillComponent(depth - 1)}
			}
		case f.Kind() == reflect.Uint:
			f.SetUint(3)
		default:
			fill(f)
		}
	}
	return c
}

func TestCloneComponentsIsAJSONRoundTrip(t *testing.T) {
	zero, no := 0, false
	cases := [][]*component{
		nil,
		{},
		{nil},
		{{}},
		{fillComponent(2), {Type: discordgo.ActionsRowComponent, Components: []*component{}}},
		{{Type: discordgo.SelectMenuComponent, Options: []discordgo.SelectMenuOption{}, MinValues: &zero, Required: &no}},
		{{Options: []discordgo.SelectMenuOption{{Label: "a"}, {Emoji: &discordgo.ComponentEmoji{}}}}},
	}
	for _, rows := range cases {
		want := cloneJSON(rows)
		got := cloneComponents(rows)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("cloneComponents differs from the JSON round trip:\n got %s\nwant %s", g, w)
		}
	}
	rows := []*component{fillComponent(2)}
	c := cloneComponents(rows)
	*c[0].Emoji, *c[0].MinValues, *c[0].Required, c[0].Options[0].Emoji.Name = discordgo.ComponentEmoji{}, 99, false, "x"
	c[0].Components[0].Label = "x"
	if !reflect.DeepEqual(rows, []*component{fillComponent(2)}) {
		t.Fatal("the copy shares memory with the original")
	}
}
