package fakediscord

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The hand-written copies must equal a JSON round trip and share nothing
// with their source, or tests could see (and change) the fake's state.
func TestCloneEmbedsCopiesEverything(t *testing.T) {
	e := &discordgo.MessageEmbed{}
	fill(reflect.ValueOf(e).Elem())
	embeds := []*discordgo.MessageEmbed{e, {Title: "second"}}
	got := cloneEmbeds(embeds)
	if !reflect.DeepEqual(got, cloneJSON(embeds)) {
		t.Fatalf("cloneEmbeds differs from the JSON round trip:\n%+v", got[0])
	}
	got[0].Footer.Text, got[0].Fields[0].Name, got[0].Author.Name = "x", "x", "x"
	if e.Footer.Text == "x" || e.Fields[0].Name == "x" || e.Author.Name == "x" {
		t.Fatal("the copy shares pointers with the original")
	}

	a := &discordgo.MessageAllowedMentions{}
	fill(reflect.ValueOf(a).Elem())
	ga := cloneAllowed(a)
	if !reflect.DeepEqual(ga, cloneJSON(a)) {
		t.Fatalf("cloneAllowed differs from the JSON round trip: %+v", ga)
	}
	ga.Users[0] = "x"
	if a.Users[0] == "x" {
		t.Fatal("the allowed-mentions copy shares its slices")
	}
}

// fill sets every field, through pointers and slices, to a non-zero value,
// so a field the copy forgets shows.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	default:
		panic("fill: " + v.Kind().String())
	}
}

// A body parsed before the lock is the one the handler gets, once; other
// bytes, or a second parse, are parsed afresh; invalid JSON stays refused.
func TestPreparedParse(t *testing.T) {
	data := `{"content":"hi","flags":64}`
	c := &call{prep: prepare("POST", "/interactions/{id}/{token}/callback", []byte(`{"type":4,"data":`+data+`}`))}
	if !c.prep.valid || c.prep.msg == nil {
		t.Fatalf("the callback's data was not prepared: %+v", c.prep)
	}
	want := c.prep.msg
	if p, err := c.parseMessage([]byte(data)); err != nil || p != want || p.Content != "hi" || p.has&keyFlags == 0 {
		t.Fatalf("the handler did not get the prepared parse: %+v, %v", p, err)
	}
	if p, err := c.parseMessage([]byte(data)); err != nil || p == want || p.Content != "hi" {
		t.Fatalf("a second parse of the same bytes was not fresh: %+v, %v", p, err)
	}
	c = &call{prep: prepare("PATCH", "/webhooks/{app}/{token}/messages/{message}", []byte(`{"content":"a"}`))}
	if p, _ := c.parseMessage([]byte(`{"content":"b"}`)); p.Content != "b" {
		t.Fatalf("other bytes got the prepared parse: %+v", p)
	}
	if p := prepare("PATCH", "/webhooks/{app}/{token}/messages/{message}", []byte(`{"content":`)); p.valid || p.msg != nil {
		t.Fatalf("invalid JSON was prepared: %+v", p)
	}
	if p := prepare("GET", "/channels/{channel}/messages", nil); p.msg != nil {
		t.Fatalf("a GET was parsed as a message: %+v", p)
	}
}

// A dispatch frame written by hand must be what WriteJSON would have sent.
func TestDispatchFrameIsTheJSONOfThePayload(t *testing.T) {
	data := json.RawMessage(`{"id":"1","content":"a \"quoted\" line\n","n":[1,2]}`)
	seq, name := 42, "MESSAGE_CREATE"
	want, err := json.Marshal(gwPayload{Op: 0, D: data, S: &seq, T: &name})
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	got := dispatchFrame(0, seq, name, data)
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatalf("the frame is not JSON: %v\n%s", err, got)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("frame %s\nwant  %s", got, want)
	}
}
