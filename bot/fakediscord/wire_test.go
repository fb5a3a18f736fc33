package fakediscord

import (
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
