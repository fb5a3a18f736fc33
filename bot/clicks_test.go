package bot

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// A clicked message as Discord sends it: an ephemeral hand with buttons.
const clickedMessage = `{"id":"1574504049749786624","type":19,"content":"","channel_id":"1574504030560845880",
"author":{"id":"1574504030531485699","username":"cardbot","global_name":null,"discriminator":"0","avatar":null,"bot":true,"public_flags":0},
"attachments":[],"embeds":[{"type":"rich","title":"Your cards — Card Duel","description":"**Your move.**","color":3112283,
"footer":{"text":"only you can see this"},"fields":[{"name":"Hand (0 cards, worth 0)","value":"—"}]}],
"mentions":[],"mention_roles":[],"pinned":false,"mention_everyone":false,"tts":false,
"timestamp":"2026-11-23T19:16:58.331071+00:00","edited_timestamp":"2026-11-23T19:16:58.911109+00:00","flags":64,
"components":[{"type":1,"id":1,"components":[{"type":2,"id":2,"custom_id":"move:7wu4zzs8:39:deck","style":2,"label":"Top of deck (9 left)"},
{"type":3,"id":3,"custom_id":"pick:7wu4zzs8","options":[{"label":"a","value":"a"}]}]}],
"webhook_id":"1574504030531485699","application_id":"1574504030531485699",
"interaction_metadata":{"id":"1574504049733009408","type":3,"user":{"id":"1574504030560845882","username":"p18b"},"interacted_message_id":"1574504049619763200"}}`

func interactionJSON(typ int, data, message string) string {
	s := `{"id":"1574504052182482944","application_id":"1574504030531485699","type":` + strconv.Itoa(typ) + `,"data":` + data + `,
"guild":{"features":[],"id":"1574504030531485696","locale":"en-US"},"guild_id":"1574504030531485696",
"channel":{"id":"1574504030560845880","type":0,"name":"cards","permissions":"380104690752"},"channel_id":"1574504030560845880",
"member":{"user":{"id":"1574504030560845882","username":"p18b","global_name":"Bea","discriminator":"0","avatar":null,"public_flags":0},
"nick":"B","avatar":null,"roles":["1"],"joined_at":"2026-11-22T19:56:53.749599+00:00","premium_since":null,"deaf":false,"mute":false,
"flags":0,"pending":false,"permissions":"380104690752"},
"token":"aW50ZXJhY3Rpb246MTU3NDUwNDA1MjE4MjQ4Mjk0NDp4eXo","version":1,`
	if message != "" {
		s += `"message":` + message + `,`
	}
	return s + `"app_permissions":"277025778752","locale":"en-US","guild_locale":"en-GB","entitlements":[],
"authorizing_integration_owners":{"0":"1574504030531485696"},"context":0,"attachment_size_limit":10485760}`
}

// A click decodes to what discordgo decodes in every field the bot reads;
// other interactions decode exactly as discordgo decodes them. Both ways
// in: encoding/json's (UnmarshalJSONFrom since Go 1.27) and UnmarshalJSON.
func TestInteractionsDecodeAsDiscordgoDoes(t *testing.T) {
	button := `{"custom_id":"move:7wu4zzs8:39:deck","component_type":2}`
	for name, raw := range map[string]string{
		"button":     interactionJSON(3, button, clickedMessage),
		"select":     interactionJSON(3, `{"custom_id":"pick:7wu4zzs8","component_type":3,"values":["a","b"]}`, clickedMessage),
		"no values":  interactionJSON(3, `{"custom_id":"pick:7wu4zzs8","component_type":3,"values":[]}`, clickedMessage),
		"no message": interactionJSON(3, `{"custom_id":"hand:7wu4zzs8","component_type":2}`, ""),
		"nulls":      strings.Replace(interactionJSON(3, button, "null"), `"member":{`, `"user":null,"guild_id":null,"member":{"user":null,"nick":null,`, 1),
		"escapes": strings.Replace(interactionJSON(3, `{"custom_id":"move:\u0037wu4zzs8:39:deck","component_type":2,"\u0076alues":["\u00e9"]}`, clickedMessage),
			`"token":`, `"t\u006fken":`, 1),
		"a user, no member": strings.Replace(interactionJSON(3, button, clickedMessage), `"member":`, `"user":{"id":"3","username":"dm"},"x":`, 1),
		"command":           interactionJSON(2, `{"id":"9","name":"game","type":1,"options":[{"name":"new","type":2,"options":[{"name":"duel","type":1,"options":[{"name":"life","type":4,"value":60}]}]}]}`, ""),
		"modal": interactionJSON(5, `{"custom_id":"say:7wu4zzs8","components":[{"type":1,"components":[{"type":4,"custom_id":"text","value":"I draw my sword."}]}]}`,
			clickedMessage),
	} {
		var want discordgo.InteractionCreate
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatalf("%s: discordgo: %v", name, err)
		}
		for way, decode := range map[string]func(*interactionEvent) error{
			"encoding/json": func(ev *interactionEvent) error { return json.Unmarshal([]byte(raw), ev) },
			"UnmarshalJSON": func(ev *interactionEvent) error { return ev.UnmarshalJSON([]byte(raw)) },
		} {
			ev := interactionEvents{}.New().(*interactionEvent)
			if err := decode(ev); err != nil {
				t.Fatalf("%s, %s: %v", name, way, err)
			}
			if (ev.Interaction != nil) != (want.Type == discordgo.InteractionMessageComponent) {
				t.Errorf("%s, %s: decoded %v here; only clicks are", name, way, ev.Interaction)
			}
			it, err := ev.decoded([]byte(raw))
			if err != nil {
				t.Fatalf("%s, %s: %v", name, way, err)
			}
			got, w := *it, *want.Interaction
			if got.Type == discordgo.InteractionMessageComponent {
				got, w = readByTheBot(got), readByTheBot(w)
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s, %s: decoded\n%+v\ndiscordgo decodes\n%+v", name, way, got, w)
			}
			if name == "button" && (got.Member == nil || got.Member.User == nil || got.Member.User.ID == "" ||
				got.Member.Permissions == 0 || got.AppPermissions == 0 || got.MessageComponentData().CustomID == "" || got.Message == nil) {
				t.Errorf("%s, %s: fields the bot reads came out empty: %+v", name, way, got)
			}
		}
	}
	for _, bad := range []string{
		interactionJSON(3, `{"custom_id":7}`, ""),
		interactionJSON(3, `{"custom_id":"a","component_type":-0}`, ""),
		interactionJSON(3, `{"custom_id":"a","component_type":2.5}`, ""),
		strings.Replace(interactionJSON(3, button, ""), `"app_permissions":"277025778752"`, `"app_permissions":"x"`, 1),
		strings.Replace(interactionJSON(3, button, ""), `"type":3`, `"type":300`, 1),
		interactionJSON(3, button, "") + "}",
	} {
		if err := json.Unmarshal([]byte(bad), new(interactionEvent)); err == nil {
			t.Errorf("decoded %s", bad)
		}
		if err := new(interactionEvent).UnmarshalJSON([]byte(bad)); err == nil && json.Valid([]byte(bad)) {
			t.Errorf("UnmarshalJSON decoded %s", bad)
		}
	}
}

// readByTheBot is what the bot reads of a click.
func readByTheBot(i discordgo.Interaction) discordgo.Interaction {
	user := func(u *discordgo.User) *discordgo.User {
		if u == nil {
			return nil
		}
		return &discordgo.User{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName}
	}
	out := discordgo.Interaction{ID: i.ID, AppID: i.AppID, Type: i.Type, Data: i.Data, GuildID: i.GuildID, ChannelID: i.ChannelID,
		User: user(i.User), Token: i.Token, AppPermissions: i.AppPermissions}
	if m := i.Member; m != nil {
		out.Member = &discordgo.Member{User: user(m.User), Nick: m.Nick, Permissions: m.Permissions}
	}
	if m := i.Message; m != nil {
		out.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, Flags: m.Flags}
	}
	return out
}

// Decoding a click, as the bot does and as discordgo does.
func BenchmarkDecodeClick(b *testing.B) {
	raw := []byte(interactionJSON(3, `{"custom_id":"move:7wu4zzs8:39:deck","component_type":2}`, clickedMessage))
	for _, c := range []struct {
		name string
		into func() any
	}{
		{"bot", func() any { return new(interactionEvent) }},
		{"discordgo", func() any { return new(discordgo.InteractionCreate) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(raw, c.into()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discordgo hands INTERACTION_CREATE to the bot's decoding.
func TestDiscordgoUsesTheBotsInteractionDecoding(t *testing.T) {
	p, ok := eventTypes["INTERACTION_CREATE"]
	if !ok {
		t.Fatal("discordgo's event table has no INTERACTION_CREATE")
	}
	if _, ok := p.New().(*interactionEvent); !ok {
		t.Fatalf("INTERACTION_CREATE decodes into %T", p.New())
	}
	if len(eventTypes) < 50 {
		t.Errorf("discordgo's event table holds %d types: not the table", len(eventTypes))
	}
}

// FuzzDecodeClick: whatever the bot's click decoding accepts as a click,
// discordgo's decoding, where it accepts the same bytes, reads the same in
// every field the bot reads; and the two ways in (UnmarshalJSONFrom and
// UnmarshalJSON) never disagree on a click they both read.
func FuzzDecodeClick(f *testing.F) {
	f.Add(interactionJSON(3, `{"custom_id":"move:7wu4zzs8:39:deck","component_type":2}`, clickedMessage))
	f.Add(interactionJSON(3, `{"custom_id":"pick:7wu4zzs8","component_type":3,"values":["a","\u00e9"]}`, "null"))
	f.Add(`{"type":3,"data":{"custom_id":"a"},"member":null,"user":{"id":"1"},"app_permissions":"8"}`)
	f.Add(interactionJSON(2, `{"id":"9","name":"game","type":1}`, ""))
	f.Fuzz(func(t *testing.T, raw string) {
		var ways [2]*discordgo.Interaction
		for i, decode := range []func(*interactionEvent) error{
			func(ev *interactionEvent) error { return json.Unmarshal([]byte(raw), ev) },
			func(ev *interactionEvent) error { return ev.UnmarshalJSON([]byte(raw)) },
		} {
			ev := new(interactionEvent)
			if decode(ev) != nil || ev.Interaction == nil {
				continue
			}
			ways[i] = ev.Interaction
			if ev.Type != discordgo.InteractionMessageComponent {
				t.Fatalf("way %d decoded a %v as a click", i, ev.Type)
			}
			var want discordgo.InteractionCreate
			if json.Unmarshal([]byte(raw), &want) != nil || want.Interaction == nil {
				continue
			}
			if got, w := readByTheBot(*ev.Interaction), readByTheBot(*want.Interaction); !reflect.DeepEqual(got, w) {
				t.Fatalf("way %d decoded\n%+v\ndiscordgo decodes\n%+v", i, got, w)
			}
		}
		if ways[0] != nil && ways[1] != nil && !reflect.DeepEqual(readByTheBot(*ways[0]), readByTheBot(*ways[1])) {
			t.Fatalf("UnmarshalJSONFrom decoded\n%+v\nUnmarshalJSON\n%+v", *ways[0], *ways[1])
		}
	})
}
