package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/wirejson"
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
	"github.com/cardtable/cardbot/store"
)

// tricky has everything encoding/json escapes, and what it leaves alone.
const tricky = "say \"hi\" \\ back\\slash \x00\x01\x1f\x7f \b\f\n\r\t <b>&amp;</b> é ü 漢字 🃏👍🏽 \u2028\u2029 \ufeff end"

// fastPath reports whether p is written without json.Marshal.
func fastPath(p any) bool {
	var w payloadWriter
	return w.payload(p)
}

// sameJSON checks that encodePayload writes what json.Marshal does: the
// same value once decoded, and the same bytes when every string is valid
// UTF-8 (encoding/json v1 and v2 write a replaced byte differently).
func sameJSON(t *testing.T, name string, p any, sameBytes bool) {
	t.Helper()
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("%s: json.Marshal: %v", name, err)
	}
	got, err := encodePayload(p)
	if err != nil {
		t.Fatalf("%s: encodePayload: %v", name, err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: invalid JSON %s: %v", name, got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: json.Marshal's output: %v", name, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: decodes differently\n got %s\nwant %s", name, got, want)
		return
	}
	if sameBytes && !bytes.Equal(got, want) {
		t.Errorf("%s: different bytes\n got %s\nwant %s", name, got, want)
	}
}

func ptr[T any](v T) *T { return &v }

func TestEncodePayloadMatchesJSON(t *testing.T) {
	noComps, noEmbeds := []discordgo.MessageComponent{}, []*discordgo.MessageEmbed{}
	var nilComps []discordgo.MessageComponent
	var nilEmbeds []*discordgo.MessageEmbed
	buttons := discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Primary", Style: discordgo.PrimaryButton, CustomID: "move:abcdefgh:1:a"},
		discordgo.Button{Label: "Secondary", Style: discordgo.SecondaryButton, CustomID: "move:abcdefgh:1:b", Disabled: true},
		discordgo.Button{Label: "Success", Style: discordgo.SuccessButton, CustomID: "move:abcdefgh:1:c"},
		discordgo.Button{Label: "Danger", Style: discordgo.DangerButton, CustomID: "move:abcdefgh:1:d"},
		discordgo.Button{Label: "Unstyled", CustomID: "move:abcdefgh:1:e"}, // written as primary
	}}
	odd := &discordgo.ActionsRow{ID: 7, Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tricky, Style: discordgo.LinkButton, URL: "https://example.com/?a=1&b=<2>", Emoji: &discordgo.ComponentEmoji{Name: "🃏"}},
		&discordgo.Button{Style: discordgo.SecondaryButton, CustomID: "e", Emoji: &discordgo.ComponentEmoji{Name: "party", ID: "123", Animated: true}, ID: 3},
		discordgo.Button{Label: "Buy", Style: discordgo.PremiumButton, SKUID: "42"},
		discordgo.Button{Label: "Empty emoji", CustomID: "f", Emoji: &discordgo.ComponentEmoji{}},
	}}
	menu := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: "move:abcdefgh:1:pick", Placeholder: "Pick <two> & \"more\"",
		MinValues: ptr(0), MaxValues: 2,
		Options: []discordgo.SelectMenuOption{
			{Label: "Ace ♠", Value: "as", Description: "the best", Default: true},
			{Value: "unlabelled"},
			{Label: "Joker", Value: "jk", Emoji: &discordgo.ComponentEmoji{Name: "🃏"}, Description: tricky},
		},
	}}}
	menus := &discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: "m1"}, // no type, no options, no min: type 3, the rest left out
		&discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, CustomID: "m2", MinValues: ptr(1), Disabled: true, ID: 9},
	}}
	nested := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.ActionsRow{}, &discordgo.ActionsRow{Components: noComps}}}
	embeds := []*discordgo.MessageEmbed{
		{
			Title: "Duel — turn 3", Description: tricky, Color: feltGreen,
			Fields: []*discordgo.MessageEmbedField{
				{Name: "Ann", Value: "20 life", Inline: true},
				{Name: "\u200b", Value: "<@123> & co"},
				nil,
			},
			Footer: &discordgo.MessageEmbedFooter{Text: "only you can see this"},
		},
		{URL: "https://example.com", Type: discordgo.EmbedTypeRich, Timestamp: "2024-01-02T03:04:05Z", Color: -1,
			Footer: &discordgo.MessageEmbedFooter{IconURL: "https://example.com/i.png", ProxyIconURL: "https://p/i.png"}},
		{},
		nil,
	}
	full := &discordgo.InteractionResponseData{
		TTS: true, Content: tricky,
		Components:      []discordgo.MessageComponent{menu, buttons, odd, menus, nested},
		Embeds:          embeds,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Roles: []string{"1"}, Users: []string{"2", "3"}, RepliedUser: true},
		Flags:           discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsSuppressEmbeds,
	}
	modal := &discordgo.InteractionResponseData{
		CustomID: "text:abcdefgh:4:say", Title: "Say <it>",
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "text", Label: "Line", Style: discordgo.TextInputShort, Placeholder: "a & b", Required: true, MaxLength: 4000},
			}},
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				&discordgo.TextInput{CustomID: "long", Label: "Story", Style: discordgo.TextInputParagraph, Value: tricky, MinLength: 1, ID: 2},
				discordgo.TextInput{}, // style 0 stays 0
			}},
		},
	}
	cases := []struct {
		name string
		p    any
	}{
		{"zero response", &discordgo.InteractionResponse{}},
		{"deferred update", &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}},
		{"deferred ephemeral", &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}},
		{"response by value", discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: full}},
		{"nil components and embeds", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "x"}}},
		{"empty components and embeds", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Components: noComps, Embeds: noEmbeds, AllowedMentions: noMentions}}},
		{"nil parse", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{AllowedMentions: &discordgo.MessageAllowedMentions{}}}},
		{"empty users", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: []string{}, Roles: []string{}}}}},
		{"full", &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: full}},
		{"modal", &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: modal}},
		{"files are not JSON", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Files: []*discordgo.File{{Name: "a.txt"}}}}},

		{"zero edit", &discordgo.WebhookEdit{}},
		{"edit to nothing", &discordgo.WebhookEdit{Content: ptr(""), Components: &noComps, Embeds: &noEmbeds, AllowedMentions: noMentions}},
		{"edit to nil lists", &discordgo.WebhookEdit{Components: &nilComps, Embeds: &nilEmbeds}},
		{"edit content only", &discordgo.WebhookEdit{Content: ptr(tricky)}},
		{"full edit", &discordgo.WebhookEdit{Content: ptr("x"), Components: &full.Components, Embeds: &embeds, AllowedMentions: full.AllowedMentions}},

		{"zero params", &discordgo.WebhookParams{}},
		{"params with empty lists", &discordgo.WebhookParams{Components: noComps, Embeds: noEmbeds, Attachments: []*discordgo.MessageAttachment{}}},
		{"full params", &discordgo.WebhookParams{Content: tricky, Username: "Deal<er>", AvatarURL: "https://a/b?c&d", TTS: true,
			Components: full.Components, Embeds: embeds, AllowedMentions: noMentions, Flags: discordgo.MessageFlagsEphemeral, ThreadName: "t & t"}},
	}
	for _, c := range cases {
		if !fastPath(c.p) {
			t.Errorf("%s: not on the fast path", c.name)
			continue
		}
		sameJSON(t, c.name, c.p, true)
	}

	// A string that is not UTF-8 decodes the same; v1 and v2 write its
	// replacement characters differently.
	bad := "bad \xff\xfe utf8 \xed\xa0\x80 \xe2\x80 end \xc3"
	p := &discordgo.WebhookEdit{Content: &bad, Components: &[]discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: bad, CustomID: bad}}}}}
	if !fastPath(p) {
		t.Fatal("invalid UTF-8: not on the fast path")
	}
	sameJSON(t, "invalid UTF-8", p, false)
}

func TestJSONStringEscapes(t *testing.T) {
	// Every rune up to U+0800 and a few beyond, one at a time and together.
	var all strings.Builder
	for r := rune(0); r < 0x800; r++ {
		all.WriteRune(r)
	}
	for _, r := range []rune{0x2027, 0x2028, 0x2029, 0x202a, 0xfeff, 0xfffd, 0x1f0cf, utf8.MaxRune} {
		all.WriteRune(r)
	}
	strs := []string{"", "plain", all.String()}
	for _, r := range all.String() {
		strs = append(strs, string(r), "a"+string(r)+"b")
	}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := wirejson.String(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
}

// renderedMessages plays every game of the catalogue at random and returns
// what the bot shows along the way: lobbies, tables and every seat's hand.
// Players are named by the format name, given their seat from 1, and
// every hand carries note.
func renderedMessages(t testing.TB, name, note string) map[string]msg {
	b := &Bot{lanes: newLanes(), catalog: Catalog()}
	out := map[string]msg{}
	text := func(*games.RNG, games.Action) string { return "a line" }
	for _, rules := range Catalog() {
		for _, n := range []int{rules.MinPlayers, rules.MaxPlayers} {
			opts, err := rules.Validate(nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &store.Game{ID: "abcdefgh", Kind: rules.ID, Channel: "c1", Options: opts}
			var names []string
			for s := range n {
				names = append(names, fmt.Sprintf(name, s+1))
				rec.Seats = append(rec.Seats, store.Seat{User: fmt.Sprint(100 + s), Name: names[s]})
			}
			key := fmt.Sprintf("%s/%d", rules.ID, n)
			out[key+"/lobby"] = b.lobbyMsg(rec, rules)
			g, err := rules.New(games.Setup{Players: names, Options: opts, Seed: uint64(n)})
			if err != nil {
				t.Fatal(err)
			}
			r := games.NewRNG(uint64(n))
			for step := 0; ; step++ {
				rec.Version = step
				m, err := tableMsg(rec, g)
				if err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprintf("%s/%d/table", key, step)] = m
				for seat := range n {
					if m, err = b.handMsg(rec, g, seat, note); err != nil {
						t.Fatal(err)
					}
					out[fmt.Sprintf("%s/%d/hand%d", key, step, seat)] = m
				}
				if step == 60 || g.Over() {
					break
				}
				moves := gamestest.Offered(&r, g.Table(), games.Spectator, text)
				for seat := range n {
					moves = append(moves, gamestest.Offered(&r, g.Hand(seat), seat, text)...)
				}
				for range 20 {
					if len(moves) == 0 {
						break
					}
					mv := moves[r.Intn(len(moves))]
					c, err := games.Clone(g)
					if err != nil {
						t.Fatal(err)
					}
					if ev, err := c.Apply(mv.Seat, mv.Action); err == nil {
						g = c
						if len(ev) > 0 {
							rec.Log = []string{ev[len(ev)-1].Text}
						}
						break
					}
				}
			}
		}
	}
	return out
}

// realPayloads are the bodies hook sends for each rendered message.
func realPayloads(m msg) map[string]any {
	d := m.data(true)
	return map[string]any{
		"update":   update(m).response(),
		"private":  private(m).response(),
		"edit":     m.webhookEdit(),
		"followUp": &discordgo.WebhookParams{Content: d.Content, Embeds: d.Embeds, Components: d.Components, AllowedMentions: d.AllowedMentions, Flags: d.Flags},
	}
}

func TestEncodePayloadOnRealMessages(t *testing.T) {
	msgs := renderedMessages(t, "Player \"%d\" <&>", "a note <&>")
	msgs["text"] = textMsg("%s", tricky)
	msgs["mentions"] = msg{content: "<@100> your turn", mentions: []string{"100"}}
	kinds := map[string]bool{}
	for name, m := range msgs {
		for shape, p := range realPayloads(m) {
			if !fastPath(p) {
				t.Fatalf("%s %s: not on the fast path", name, shape)
			}
			sameJSON(t, name+" "+shape, p, true)
		}
		kinds[strings.SplitN(name, "/", 2)[0]] = true
	}
	for _, r := range Catalog() {
		if !kinds[r.ID] {
			t.Errorf("no messages of %s", r.ID)
		}
	}
	t.Logf("%d messages", len(msgs))
}

func TestEncodePayloadFallsBack(t *testing.T) {
	row := func(c discordgo.MessageComponent) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{c}}}
	}
	data := func(d discordgo.InteractionResponseData) *discordgo.InteractionResponse {
		return &discordgo.InteractionResponse{Type: 4, Data: &d}
	}
	embed := func(e discordgo.MessageEmbed) *discordgo.WebhookParams {
		return &discordgo.WebhookParams{Embeds: []*discordgo.MessageEmbed{&e}}
	}
	cases := []struct {
		name string
		p    any
	}{
		{"attachments", data(discordgo.InteractionResponseData{Attachments: &[]*discordgo.MessageAttachment{}})},
		{"poll", data(discordgo.InteractionResponseData{Poll: &discordgo.Poll{Question: discordgo.PollMedia{Text: "?"}}})},
		{"choices", &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Duel", Value: "duel"}}}}},
		{"edit attachments", &discordgo.WebhookEdit{Attachments: &[]*discordgo.MessageAttachment{}}},
		{"params attachments", &discordgo.WebhookParams{Attachments: []*discordgo.MessageAttachment{{ID: "0", Filename: "a.txt"}}}},
		{"menu defaults", data(discordgo.InteractionResponseData{Components: row(discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu,
			DefaultValues: []discordgo.SelectMenuDefaultValue{{ID: "1", Type: discordgo.SelectMenuDefaultValueUser}}})})},
		{"menu channel types", data(discordgo.InteractionResponseData{Components: row(discordgo.SelectMenu{MenuType: discordgo.ChannelSelectMenu,
			ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}})})},
		{"text display", data(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "hi"}}})},
		{"container", &discordgo.WebhookEdit{Components: &[]discordgo.MessageComponent{discordgo.Container{Components: row(discordgo.Button{Label: "x"})}}}},
		{"separator in a row", &discordgo.WebhookParams{Components: row(discordgo.Separator{})}},
		{"nil component", &discordgo.WebhookParams{Components: []discordgo.MessageComponent{nil}}},
		{"image", embed(discordgo.MessageEmbed{Image: &discordgo.MessageEmbedImage{URL: "https://i"}})},
		{"thumbnail", embed(discordgo.MessageEmbed{Thumbnail: &discordgo.MessageEmbedThumbnail{URL: "https://t"}})},
		{"video", embed(discordgo.MessageEmbed{Video: &discordgo.MessageEmbedVideo{URL: "https://v"}})},
		{"provider", embed(discordgo.MessageEmbed{Provider: &discordgo.MessageEmbedProvider{Name: "p"}})},
		{"author", embed(discordgo.MessageEmbed{Author: &discordgo.MessageEmbedAuthor{Name: "a"}})},
		{"nil edit", (*discordgo.WebhookEdit)(nil)},
		{"edit by value", discordgo.WebhookEdit{Content: ptr("x")}},
		{"a message send", &discordgo.MessageSend{Content: "x"}},
		{"a map", map[string]any{"content": "x"}},
	}
	for _, c := range cases {
		if fastPath(c.p) {
			t.Errorf("%s: took the fast path", c.name)
			continue
		}
		want, _ := json.Marshal(c.p)
		got, err := encodePayload(c.p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: got %s (%v), want %s", c.name, got, err, want)
		}
	}
	// json.Marshal panics on a nil *Button (a value method): the fast path
	// leaves that to it.
	if fastPath(&discordgo.WebhookParams{Components: row((*discordgo.Button)(nil))}) {
		t.Error("nil *Button: took the fast path")
	}
	// A payload that falls back part-way leaves nothing behind in the pool.
	sameJSON(t, "after a fallback", &discordgo.WebhookEdit{Content: ptr("x")}, true)
}

// TestPayloadWriterKnowsEveryField lists the JSON fields of each struct the
// fast path writes, as it writes or refuses them: a discordgo that adds a
// field fails here rather than losing it from the bot's requests.
func TestPayloadWriterKnowsEveryField(t *testing.T) {
	known := map[reflect.Type]string{
		reflect.TypeFor[discordgo.InteractionResponse]():     "type data",
		reflect.TypeFor[discordgo.InteractionResponseData](): "tts content components embeds allowed_mentions attachments poll flags choices custom_id title",
		reflect.TypeFor[discordgo.WebhookEdit]():             "content components embeds attachments allowed_mentions",
		reflect.TypeFor[discordgo.WebhookParams]():           "content username avatar_url tts components embeds attachments allowed_mentions flags thread_name",
		reflect.TypeFor[discordgo.ActionsRow]():              "components id",
		reflect.TypeFor[discordgo.Button]():                  "label style disabled emoji url custom_id sku_id id",
		reflect.TypeFor[discordgo.ComponentEmoji]():          "name id animated",
		reflect.TypeFor[discordgo.SelectMenu]():              "type custom_id placeholder min_values max_values default_values options disabled channel_types id",
		reflect.TypeFor[discordgo.SelectMenuOption]():        "label value description emoji default",
		reflect.TypeFor[discordgo.TextInput]():               "custom_id label style placeholder value required min_length max_length id",
		reflect.TypeFor[discordgo.MessageEmbed]():            "url type title description timestamp color footer image thumbnail video provider author fields",
		reflect.TypeFor[discordgo.MessageEmbedFooter]():      "text icon_url proxy_icon_url",
		reflect.TypeFor[discordgo.MessageEmbedField]():       "name value inline",
		reflect.TypeFor[discordgo.MessageAllowedMentions]():  "parse roles users replied_user",
	}
	for typ, want := range known {
		var names []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "-" {
				names = append(names, name)
			}
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s has the fields\n%s\nthe payload writer knows\n%s", typ, got, want)
		}
	}
}

// handEdit is the hand edit with the most rows among the rendered messages
// (then the most controls, then the longest): an embed, select menus and
// buttons.
func handEdit(b *testing.B) *discordgo.WebhookEdit {
	msgs := renderedMessages(b, "Player %d", "")
	var names []string
	for name := range msgs {
		if strings.Contains(name, "/hand") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	rank := func(m msg) []int {
		n := 0
		for _, r := range m.components {
			n += len(r.(discordgo.ActionsRow).Components)
		}
		p, _ := json.Marshal(m.webhookEdit())
		return []int{len(m.components), n, len(p)}
	}
	var best msg
	for _, name := range names {
		if m := msgs[name]; slices.Compare(rank(m), rank(best)) > 0 {
			best = m
		}
	}
	return best.webhookEdit()
}

// BenchmarkEncodePayload: the fast path against json.Marshal on a hand
// edit, one of the two requests every move makes.
func BenchmarkEncodePayload(b *testing.B) {
	e := handEdit(b)
	p, _ := json.Marshal(e)
	b.Logf("%d bytes, %d rows", len(p), len(*e.Components))
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodePayload(e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
