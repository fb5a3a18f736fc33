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

// payloadKeysOf is the set parseMessage computed by decoding the payload
// into a map.
func payloadKeysOf(t *testing.T, raw []byte) payloadKeys {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var has payloadKeys
	for k := range keys {
		has |= payloadKeyByName[k]
	}
	return has
}

var payloadSeeds = []string{
	``, `null`, ` null `, `{}`, `[]`, `"content"`, `5`, `{"content":"x"}`, `{"content":null,"flags":64}`,
	`{"Content":"x","FLAGS":1}`, `{"cont\u0065nt":"x"}`, `{"\u0063omponents":[],"embeds\u0000":[]}`,
	`{"tts":true,"embeds":[{"title":"content","fields":[{"name":"flags","value":"{\"attachments\":1}"}]}]}`,
	`{"nonce":"a\\","attachments":[{"id":"1"}],"components":[{"type":1,"components":[{"type":2,"custom_id":"flags"}]}]}`,
	` { "content" : "a" , "embeds" : [ ] , "flags" : 0 } `, `{"poll":{"content":{"flags":[{}]}},"x":"}"}`,
	`{"content":"x","content":"y"}`, `{"content":"x"`, `{"content":"\xff"}`, `{"\xffcontent":1}`, `{"content":"x"} x`,
	`{"message_reference":{"message_id":"1"},"allowed_mentions":{"parse":[]},"sticker_ids":["content"]}`,
}

// Which edit keys a payload has is what decoding it into a map tells.
func FuzzTopLevelKeys(f *testing.F) {
	for _, s := range payloadSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := parseMessage(raw)
		if err != nil {
			return
		}
		if want := payloadKeysOf(t, raw); p.has != want {
			t.Fatalf("%s: keys %05b, want %05b", raw, p.has, want)
		}
	})
}

// A body is valid for prepare exactly when json.Valid says so, on every
// route that parses it there.
func FuzzPrepareValid(f *testing.F) {
	for _, s := range payloadSeeds {
		f.Add([]byte(s))
		f.Add([]byte(`{"type":7,"data":` + s + `}`))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, route := range []string{"/interactions/{id}/{token}/callback", "/webhooks/{app}/{token}/messages/{message}", "/channels/{channel}/messages", "/channels/{channel}/threads"} {
			for _, method := range []string{"POST", "PATCH", "GET"} {
				if p := prepare(method, route, body); p.valid != json.Valid(body) {
					t.Fatalf("%s %s %q: valid %v", method, route, body, p.valid)
				}
			}
		}
	})
}

// The structs an interaction carries instead of maps marshal as the maps.
func TestInteractionStructsMarshalAsMaps(t *testing.T) {
	for _, c := range []struct{ got, want any }{
		{wireInteractionGuild{Features: []string{}, ID: "1", Locale: "en-US"}, map[string]any{"id": "1", "locale": "en-US", "features": []string{}}},
		{wireIntegrationOwners{Guild: "1"}, map[string]string{"0": "1"}},
	} {
		got, _ := json.Marshal(c.got)
		want, _ := json.Marshal(c.want)
		if string(got) != string(want) {
			t.Errorf("%s, want %s", got, want)
		}
	}
}

// handWorld is a server holding an ephemeral hand like benchHand's,
// answering a slash command, and a click on it.
func handWorld(t testing.TB) (*Server, *User, *interaction, *message) {
	s := New(t)
	u := s.AddUser("Ann")
	raw, _ := json.Marshal(benchHand(1))
	p, err := parseMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := &interaction{id: s.newIDLocked(), kind: discordgo.InteractionApplicationCommand, user: u, channelID: s.channels[0].id, command: "deal"}
	m := &message{channelID: cmd.channelID, author: s.bot, webhook: true, it: cmd, kind: 20, ephemeral: true, owner: u.ID}
	m.content, m.embeds, m.components = p.Content, richEmbeds(p.Embeds), normalize(p.Components)
	s.storeLocked(m)
	click := &interaction{id: s.newIDLocked(), token: randomToken(32), kind: discordgo.InteractionMessageComponent, user: u, channelID: m.channelID, source: m}
	return s, u, click, m
}

// A message rendered once is what marshalling it gives, newline and all,
// through edits, reactions and a thread started from it.
func TestRenderedMessageIsItsWire(t *testing.T) {
	s, u, _, m := handWorld(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	check := func(when string) {
		t.Helper()
		for range 2 { // rendered, then kept
			want, _ := json.Marshal(s.messageWireLocked(m, false))
			if got := s.messageJSONLocked(m); string(got) != string(want)+"\n" {
				t.Fatalf("%s: rendered\n%s\nwant\n%s", when, got, want)
			}
		}
	}
	check("new")
	p, _ := parseMessage([]byte(`{"content":"edited","components":[]}`))
	if !s.editLocked(&call{s: s}, m, p, "") {
		t.Fatal("edit refused")
	}
	check("edited")
	s.reactLocked(m, u, "👍", true)
	check("with a reaction")
	s.reactLocked(m, u, "👍", false)
	check("without it again")
	name := "talk"
	s.newThreadLocked(s.channels[0], m.id, threadPublic, &threadParams{Name: &name})
	check("with a thread")
}

// INTERACTION_CREATE, the message spliced in, is what marshalling it as
// one struct gives.
func TestInteractionJSONIsItsWire(t *testing.T) {
	type whole struct {
		wireInteraction
		Message *wireMessage `json:"message,omitempty"`
		wireInteractionRest
	}
	s, _, click, m := handWorld(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range []struct {
		it   *interaction
		data any
		msg  *wireMessage
	}{
		{click, wireComponentData{CustomID: "x", ComponentType: 2}, &wireMessage{}},
		{m.it, wireCommandData{ID: "1", Name: "deal", Type: 1}, nil},
	} {
		if c.msg != nil {
			*c.msg = s.messageWireLocked(m, false)
		}
		w, r := s.interactionWireLocked(c.it, c.data)
		want, _ := json.Marshal(whole{w, c.msg, r})
		if got := s.interactionJSONLocked(c.it, c.data); string(got) != string(want) {
			t.Errorf("INTERACTION_CREATE\n%s\nwant\n%s", got, want)
		}
	}
}

func TestRowsOfIsWhatAppendsGive(t *testing.T) {
	plain := func(rows []*component) []Row {
		var out []Row
		for _, row := range rows {
			var r Row
			for _, c := range row.Components {
				switch c.Type {
				case discordgo.ButtonComponent:
					r.Buttons = append(r.Buttons, Button{
						CustomID: c.CustomID, Label: c.Label, Style: discordgo.ButtonStyle(c.Style),
						Disabled: c.Disabled, Emoji: emojiString(c.Emoji), URL: c.URL,
					})
				case discordgo.SelectMenuComponent:
					sel := Select{CustomID: c.CustomID, Placeholder: c.Placeholder, Min: *c.MinValues, Max: *c.MaxValues, Disabled: c.Disabled}
					for _, o := range c.Options {
						sel.Options = append(sel.Options, SelectOption{Label: o.Label, Value: o.Value, Description: o.Description, Default: o.Default})
					}
					r.Select = &sel
				}
			}
			out = append(out, r)
		}
		return out
	}
	button := &component{Type: discordgo.ButtonComponent, CustomID: "b", Label: "B", Style: 1, Emoji: &discordgo.ComponentEmoji{Name: "x", ID: "1"}}
	sel := &component{Type: discordgo.SelectMenuComponent, CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "o", Value: "v"}}}
	empty := &component{Type: discordgo.SelectMenuComponent, CustomID: "e"}
	for _, rows := range [][]*component{
		nil, {}, {{Type: discordgo.ActionsRowComponent}},
		{{Type: discordgo.ActionsRowComponent, Components: []*component{button, button}}, {Type: discordgo.ActionsRowComponent, Components: []*component{sel}}},
		{{Type: discordgo.ActionsRowComponent, Components: []*component{empty}}},
	} {
		rows = normalize(rows)
		if got, want := rowsOf(rows), plain(rows); !reflect.DeepEqual(got, want) {
			t.Errorf("rowsOf = %#v, want %#v", got, want)
		}
	}
}

// However many messages are rendered, no more than renderedKept keep it.
func TestRenderedJSONIsKeptForSoMany(t *testing.T) {
	s, _, _, m := handWorld(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []*message
	for range renderedKept + 10 {
		c := *m
		s.storeLocked(&c)
		s.messageJSONLocked(&c)
		all = append(all, &c)
	}
	kept := 0
	for _, c := range all {
		if c.rendered != nil {
			kept++
		}
	}
	if kept != renderedKept || all[0].rendered != nil || all[len(all)-1].rendered == nil {
		t.Fatalf("%d of %d messages keep their JSON, want the last %d", kept, len(all), renderedKept)
	}
}
