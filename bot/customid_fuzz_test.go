package bot

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
)

// FuzzParseCustomID: the custom_id grammar (customid.go) is the only door a
// click comes through. Whatever it accepts is in the grammar and writes back
// to an id that reads the same; no id it accepts is longer than one the bot
// could have produced for it.
func FuzzParseCustomID(f *testing.F) {
	for _, s := range []string{
		"hand:abcdefgh",
		"lobby:abcdefgh:0:join", "lobby:abcdefgh:12:start", "lobby:abcdefgh:3:cancel=x",
		"move:abcdefgh:7:picka=AS,2H,TD", "move:abcdefgh:7:hand=TD", "move:abcdefgh:+7:deck", "move:abcdefgh:007:deck",
		"ask:mnpqrstu:1:line", "text:mnpqrstu:1:line", "act:23456789:0:vote=2",
		"move:abcdefgh:-1:deck", "move:abcdefgi:1:deck", "move:abcdefgh:1:", "move:abcdefgh:1:a=", "move:abcdefgh:1:a=b,,c",
		"hand:abcdefgh:1:x", "hand:abcdefg", "Move:abcdefgh:1:deck", "move:abcdefgh:1:deck:x", "move:abcdefgh:99999999999999999999:x",
		"", ":", ":::", "hand:", "move:abcdefgh:1:" + strings.Repeat("a", 40) + "=" + strings.Repeat("b,", 30) + "c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseCustomID(s)
		if err != nil {
			if !reflect.DeepEqual(c, customID{}) {
				t.Fatalf("%q refused but returned %+v", s, c)
			}
			return
		}
		parts := strings.Split(s, ":")
		switch {
		case c.kind == "hand" && len(parts) == 2:
		case len(parts) == 4 && (c.kind == "lobby" || c.kind == "move" || c.kind == "ask" || c.kind == "text" || c.kind == "act"):
		default:
			t.Fatalf("%q is outside the grammar but parsed as %+v", s, c)
		}
		if c.kind != parts[0] || c.game != parts[1] || !validGameID(c.game) || c.version < 0 {
			t.Fatalf("%q parsed as %+v", s, c)
		}
		if c.kind == "lobby" && (!lobbyActions[c.action.Verb] || len(c.action.Args) > 0) {
			t.Fatalf("%q: a lobby id with the action %+v", s, c.action)
		}
		if c.kind == "hand" && (c.version != 0 || !reflect.DeepEqual(c.action, games.Action{})) {
			t.Fatalf("%q: a hand id with %+v", s, c)
		}
		if c.action.Text != "" {
			t.Fatalf("%q: typed text from a custom_id", s)
		}
		back := c.String()
		again, err := parseCustomID(back)
		if err != nil {
			t.Fatalf("%q parsed as %+v, which writes as %q, which does not parse: %v", s, c, back, err)
		}
		if !reflect.DeepEqual(c, again) {
			t.Fatalf("%q parsed as %+v, written as %q, read back as %+v", s, c, back, again)
		}
		if again.String() != back {
			t.Fatalf("%q: writing is not stable: %q then %q", s, back, again.String())
		}
		// Writing never lengthens an id (it only drops a '+' or leading
		// zeros from the version), so an id Discord could deliver (≤ 100)
		// stays within what the bot may send.
		if len(back) > len(s) {
			t.Fatalf("%q writes back longer, as %q", s, back)
		}
		// The bot produces move, act and ask ids in layout: one it sends
		// reads back as itself, and over 100 characters (which Discord
		// would never deliver) it refuses to send one at all.
		if c.kind == "move" || c.kind == "act" || c.kind == "ask" {
			kind, b := c.kind, games.Button{Label: "x", Action: c.action}
			if kind == "ask" {
				kind, b.Ask = "move", &games.Ask{Title: "x", Label: "x"}
			}
			rows, err := layout(kind, c.game, c.version, games.View{Buttons: []games.Button{b}})
			switch {
			case len(back) > maxCustomID:
				if err == nil {
					t.Fatalf("layout sends the %d-character custom_id %q", len(back), back)
				}
			case err != nil:
				t.Fatalf("layout refuses %q: %v", back, err)
			default:
				if sent := rows[0].(discordgo.ActionsRow).Components[0].(discordgo.Button).CustomID; sent != back {
					t.Fatalf("layout sends %q for %+v, not %q", sent, c, back)
				}
			}
		}
	})
}
