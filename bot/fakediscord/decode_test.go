package fakediscord

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// unmarshalMessage is parseMessage the plain way, without decodeMessage.
func unmarshalMessage(raw []byte) (*messageParams, error) {
	p := &messageParams{}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	p.has = topLevelKeys(raw)
	return p, nil
}

// checkDecode fails if decodeMessage takes raw and decodes it otherwise
// than json.Unmarshal.
func checkDecode(t *testing.T, raw []byte) (taken bool) {
	t.Helper()
	got, ok := decodeMessage(raw)
	if !ok {
		return false
	}
	want, err := unmarshalMessage(raw)
	if err != nil {
		t.Fatalf("decodeMessage took %s, which json.Unmarshal refuses: %v", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("decodeMessage(%s)\n%s (keys %05b)\njson.Unmarshal\n%s (keys %05b)", raw, g, got.has, w, want.has)
	}
	return true
}

// botPayloads are message payloads as discordgo sends them: callback data,
// webhook edits and channel messages.
func botPayloads(t testing.TB) [][]byte {
	hand := benchHand(3)
	hand.Embeds[0].Description += "\n<@1> & <#2> \"quoted\" \\ ♠♥ 😀 \u2028 \t tab"
	hand.Embeds[0].URL, hand.Embeds[0].Timestamp = "https://example.com/a?b=1&c=2", "2026-01-02T03:04:05Z"
	hand.Embeds[0].Footer.IconURL = "https://cdn.example.com/x.png"
	var out [][]byte
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	add(hand)
	add(benchHand(1))
	add(&discordgo.InteractionResponseData{Content: "Only you", Flags: discordgo.MessageFlagsEphemeral})
	add(&discordgo.WebhookEdit{Content: &hand.Content, Embeds: &hand.Embeds, Components: &hand.Components, AllowedMentions: hand.AllowedMentions})
	none := []discordgo.MessageComponent{}
	add(&discordgo.WebhookEdit{Components: &none})
	add(&discordgo.MessageSend{Content: "<@1> joined", Embeds: hand.Embeds, Components: hand.Components, TTS: true,
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{"1", "2"}, Roles: []string{"3"}, RepliedUser: true}})
	add(&discordgo.MessageSend{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Docs", Style: discordgo.LinkButton, URL: "https://example.com"},
	}}}})
	add(&discordgo.MessageEdit{ID: "1", Channel: "2", Content: &hand.Content, Components: &hand.Components})
	zero, many := 0, 3
	add(&discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral, Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: "pick", Placeholder: "Pick", MinValues: &zero, MaxValues: many,
			Options: []discordgo.SelectMenuOption{{Label: "2♥", Value: "2H", Description: "worth 2"}, {Label: "A♠", Value: "AS", Default: true}},
		}}},
	}})
	// What a bot that deduplicates its sends adds (discordgo has no field
	// for it).
	var send map[string]any
	json.Unmarshal(out[len(out)-4], &send)
	for _, nonce := range []any{"o1.t.674h", 1234567890123} {
		send["nonce"], send["enforce_nonce"] = nonce, true
		add(send)
	}
	return out
}

// The payloads bots send every move take the fast way, and come out as
// json.Unmarshal decodes them.
func TestDecodeMessageTakesBotPayloads(t *testing.T) {
	for _, raw := range botPayloads(t) {
		if !checkDecode(t, raw) {
			t.Errorf("decodeMessage declined %s", raw)
		}
	}
	// Discord's bodies with space around the tokens.
	indented, _ := json.MarshalIndent(benchHand(2), " ", "\t")
	if !checkDecode(t, indented) {
		t.Errorf("decodeMessage declined %s", indented)
	}
}

var decodeSeeds = []string{
	`{"content":"a\u00e9\u0000\/\b\f\n\r\t\"\\"}`, `{"content":"\ud83d\ude00"}`, `{"content":"\ud800"}`, `{"content":"\u12"}`,
	"{\"content\":\"\x01\"}", "{\"content\":\"é\xc3\"}", "{\"content\":\"\\n\xff\"}", `{"flags":1.0}`, `{"flags":1e2}`, `{"flags":-0}`, `{"flags":01}`,
	`{"flags":12345678901234567890}`, `{"flags":-9223372036854775808}`, `{"flags":64 }`, `{"flags":64x}`, `{"tts":truex}`,
	`{"tts":null}`, `{"embeds":null}`, `{"embeds":[null]}`, `{"embeds":[{}],"components":[]}`, `{"embeds":[{"color":"1"}]}`,
	`{"components":[{"type":-1}]}`, `{"components":[{"type":1,"components":[{"type":2,"components":[]}]}]}`,
	`{"allowed_mentions":{"parse":["users","x"],"users":[],"roles":["1"],"replied_user":false}}`,
	`{"allowed_mentions":{"parse":[1]}}`, `{"embeds":[{"fields":[{"name":"a","value":"b","inline":true},]}]}`,
	`{"embeds":[{"footer":{"text":"a","text":"b"}}]}`, `{"embeds":[{"footer":{"text":"a","icon_url":"b"},"footer":{"text":"c"}}]}`,
	`{"allowed_mentions":{"users":["1"]},"allowed_mentions":{"roles":["2"]}}`, `{"components":[{"type":1},{"type":2,"type":1}]}`, `{"content":"a",}`, `{,}`, `{"content" "a"}`, `{"content":"a"}}`,
	`{"content":"a"`, `{"content":"a"} `, ` {"content":"a"}`, `{"content":"a","CONTENT":"b"}`, `{"components":[{"type":2,"emoji":{"name":"x"}}]}`,
	`{"nonce":null}`, `{"nonce":"a\u003c"}`, `{"nonce":-12}`, `{"nonce":1.5}`, `{"nonce":true}`, `{"ID":1}`, `{"ID":"1","id":"2"}`, `{"Channel":null}`,
	`{"components":[{"type":3,"min_values":null,"max_values":2,"options":[{"label":"a","value":"b","default":true,"emoji":null}]}]}`,
}

// Whatever decodeMessage takes, it decodes as json.Unmarshal does.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range append(decodeSeeds, payloadSeeds...) {
		f.Add([]byte(s))
	}
	for _, raw := range botPayloads(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkDecode(t, raw)
	})
}

// Random payloads of the members decodeMessage knows, and others, with
// the strings and numbers of encode_test.go.
func TestDecodeMessageIsUnmarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	taken := 0
	for i := range 5000 {
		var p messageParams
		(&filler{rng: rng, full: i == 0}).fill(reflect.ValueOf(&p).Elem(), 0)
		for _, e := range p.Embeds {
			if e != nil && i%8 != 0 { // mostly what bots send
				e.Image, e.Thumbnail, e.Video, e.Provider, e.Author = nil, nil, nil, nil, nil
			}
		}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		// Some of its members, mostly those bots send.
		var members map[string]json.RawMessage
		json.Unmarshal(raw, &members)
		for name := range members {
			known := strings.Contains(" content embeds components flags allowed_mentions tts sticker_ids nonce enforce_nonce ", " "+name+" ")
			if rng.IntN(3) == 0 || !known && i%8 != 0 {
				delete(members, name)
			}
		}
		raw, _ = json.Marshal(members)
		if checkDecode(t, raw) {
			taken++
		}
		// The same with its members' names changed in case.
		checkDecode(t, []byte(strings.ReplaceAll(string(raw), `"content"`, `"Content"`)))
	}
	if taken < 1000 {
		t.Errorf("decodeMessage took %d of 5000 payloads", taken)
	}
}

// Whatever decodeCallback takes, it decodes as json.Unmarshal does, the
// data as decodeMessage does.
func FuzzDecodeCallback(f *testing.F) {
	for _, s := range []string{
		`{"type":6}`, `{"type":7,"data":null}`, `{"type":7,"data": {"content":"a"} }`, `{ "data" : {"content":"a"} , "type" : 4 }`,
		`{"type":7,"type":4}`, `{"type":7,"data":{"content":"a"},"data":{}}`, `{"type":256,"data":{}}`, `{"type":-1}`,
		`{"type":9,"data":{"custom_id":"m","title":"T","components":[{"type":1,"components":[{"type":4,"custom_id":"x","label":"X","style":1}]}]}}`,
		`{"type":7,"data":[]}`, `{"type":7,"data":"x"}`, `{"Type":7}`, `{"type":7,"data":{}} x`, `{"type":7.0}`,
	} {
		f.Add([]byte(s))
	}
	for _, raw := range botPayloads(f) {
		f.Add([]byte(`{"type":7,"data":` + string(raw) + `}`))
		f.Add([]byte(`{"data":` + string(raw) + `,"type":4}`))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		cb, p, ok := decodeCallback(body)
		if !ok {
			return
		}
		want := &callbackBody{}
		if err := json.Unmarshal(body, want); err != nil {
			t.Fatalf("decodeCallback took %s, which json.Unmarshal refuses: %v", body, err)
		}
		if !reflect.DeepEqual(cb, want) {
			t.Fatalf("decodeCallback(%s) = %+v, json.Unmarshal %+v", body, cb, want)
		}
		if want.Data == nil {
			if p != nil {
				t.Fatalf("decodeCallback(%s) decoded data it has not", body)
			}
			return
		}
		if wantP, err := unmarshalMessage(want.Data); err != nil || !reflect.DeepEqual(p, wantP) {
			t.Fatalf("decodeCallback(%s) decoded the data as %+v, json.Unmarshal as %+v (%v)", body, p, wantP, err)
		}
	})
}

// The callbacks bots send on every move take the fast way.
func TestDecodeCallbackTakesBotCallbacks(t *testing.T) {
	for _, raw := range botPayloads(t) {
		body := []byte(`{"type":7,"data":` + string(raw) + `}`)
		if _, _, ok := decodeCallback(body); !ok {
			t.Errorf("decodeCallback declined %s", body)
		}
	}
	if _, _, ok := decodeCallback([]byte(`{"type":6}`)); !ok {
		t.Error(`decodeCallback declined {"type":6}`)
	}
}
