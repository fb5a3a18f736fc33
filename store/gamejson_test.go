package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/duel"
)

// A record the size of a duel mid-play, with everything a record holds.
func realisticGame(tb testing.TB) *Game {
	tb.Helper()
	st, err := duel.New(games.Setup{Players: []string{"Ann", "Bø <the> & \"Best\""}, Options: map[string]int{duel.OptLife: 22}, Seed: 42})
	if err != nil {
		tb.Fatal(err)
	}
	state, err := json.Marshal(st)
	if err != nil {
		tb.Fatal(err)
	}
	at := time.Date(2025, 11, 24, 10, 18, 7, 123456789, time.UTC)
	token := "aW50ZXJhY3Rpb246MTMxNzQ2NTU0MzIxMDk4NzY1NDpYcDNrUzlxVjJ3TjhtTDVyVDF5Wjc" + strings.Repeat("Qx-_", 20)
	g := &Game{
		Schema: Schema, ID: "k3v9x2qa", Kind: "duel", Guild: "1098765432109876543", Channel: "1234567890123456789",
		Host: "1176543210987654321", Status: Playing, Version: 17,
		Seats: []Seat{
			{User: "1176543210987654321", Name: "Ann", HandToken: token, HandAt: at, ViewVersion: 15, WaitingSince: 17},
			{User: "1187654321098765432", Name: "Bø <the> & \"Best\"", Character: "Sir Lancelot\u2028du Lac", Computer: "greedy", Away: true,
				HandAt: at.Add(time.Minute), ViewVersion: 16},
		},
		StartSeats: 2, Options: map[string]int{duel.OptLife: 22, duel.OptHandLimit: 30, "z": 0, "a": -1},
		Threaded: true, Seed: 1<<63 + 12345, StateVersion: duel.Rules.Version, State: state,
		Waiting: []int{1}, Log: []string{"Ann attacks with 6♠ from the top of their deck.\n\tBob\tdefends."}, Steps: 21,
		Reacts:  map[string][]string{"line1 🎭": {"1176543210987654321", "1187654321098765432"}, "line2 👍": nil, "line0 ❤": {}},
		Timers:  map[string]int64{"act:1": 1764000000000, "bot:idle": 1764003600000, "act:0": -5},
		Created: time.Date(2025, 11, 24, 10, 0, 0, 0, time.FixedZone("CET", 3600)),
	}
	for i := range 3 {
		g.Tail = append(g.Tail, Entry{At: at.Add(time.Duration(i) * time.Second), Input: games.Input{Seat: i % 2, Action: games.Act(duel.VerbHand, "6H")}})
	}
	g.Tail = append(g.Tail,
		Entry{At: at, Input: games.Input{Kind: games.InTimer, Ref: "act:1", Action: games.Act(duel.VerbDeck)}},
		Entry{At: at, Input: games.Input{Kind: games.InSay, Seat: 1, Name: "Bob", Action: games.Action{Text: "Hi <all> \x01"}}},
		Entry{At: at, Input: games.Input{Kind: games.InReact, Ref: "line1", Emoji: "🎭", Add: true, Action: games.Action{Args: []string{}}}},
	)
	return g
}

// checkGameJSON fails unless encodeGame writes g as json.Marshal does, and
// returns whether the hand-written encoder took it.
func checkGameJSON(t *testing.T, g *Game) bool {
	t.Helper()
	want, wantErr := json.Marshal(g)
	got, err := encodeGame(g)
	if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("encodeGame = %s, %v\njson.Marshal = %s, %v", got, err, want, wantErr)
	}
	fast, ok := g.appendJSON([]byte("prefix"))
	if !ok {
		return false
	}
	if wantErr != nil || string(fast) != "prefix"+string(want) {
		t.Fatalf("appendJSON = %s\njson.Marshal = %s, %v", fast, want, wantErr)
	}
	return true
}

func TestGameJSON(t *testing.T) {
	spaced := realisticGame(t)
	spaced.State = json.RawMessage(`{ "a" : [1, 2] }`)
	invalid := realisticGame(t)
	invalid.State = json.RawMessage(`{"a":[1,2}`)
	badUTF8 := realisticGame(t)
	badUTF8.Seats[0].Name = "Ann\xff"
	year10000 := realisticGame(t)
	year10000.Tail[0].At = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		g    *Game
		fast bool // the usual records must not go to json.Marshal
	}{
		{"realistic", realisticGame(t), true},
		{"zero", &Game{}, true},
		{"empty", &Game{Seats: []Seat{}, Options: map[string]int{}, State: json.RawMessage{}, Waiting: []int{}, Log: []string{},
			Tail: []Entry{}, Reacts: map[string][]string{}, Timers: map[string]int64{}}, true},
		{"fuzz test's", fullGame(), true},
		{"state not compact", spaced, false},
		{"state not JSON", invalid, false},
		{"invalid UTF-8", badUTF8, false},
		{"year 10000", year10000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if fast := checkGameJSON(t, c.g); fast != c.fast {
				t.Errorf("fast path taken: %v, want %v", fast, c.fast)
			}
		})
	}
}

// The hand-written encoder knows these fields as they are; it must learn
// of any change before this list does.
func TestGameJSONKnowsEveryField(t *testing.T) {
	want := map[reflect.Type]string{
		reflect.TypeFor[Game](): `Schema int json:"schema"; ID string json:"id"; Kind string json:"kind"; Guild string json:"guild"; ` +
			`Channel string json:"channel"; Host string json:"host"; Status string json:"status"; Version int json:"version"; ` +
			`Seats []store.Seat json:"seats"; StartSeats int json:"start_seats,omitempty"; Options map[string]int json:"options"; ` +
			`NoAutoplay bool json:"no_autoplay,omitempty"; Threaded bool json:"threaded,omitempty"; Seed uint64 json:"seed"; ` +
			`StateVersion int json:"state_version,omitempty"; State json.RawMessage json:"state,omitempty"; ` +
			`Waiting []int json:"waiting,omitempty"; Log []string json:"log,omitempty"; Steps int json:"steps,omitempty"; ` +
			`Tail []store.Entry json:"tail,omitempty"; Reacts map[string][]string json:"reacts,omitempty"; ` +
			`Timers map[string]int64 json:"timers,omitempty"; Created time.Time json:"created"; `,
		reflect.TypeFor[Seat](): `User string json:"user"; Name string json:"name"; Character string json:"character,omitempty"; ` +
			`Left bool json:"left,omitempty"; Computer string json:"computer,omitempty"; Away bool json:"away,omitempty"; ` +
			`HandToken string json:"hand_token,omitempty"; HandAt time.Time json:"hand_at,omitempty"; ` +
			`ViewVersion int json:"view_version,omitempty"; Moved int json:"moved,omitempty"; WaitingSince int json:"waiting_since,omitempty"; `,
		reflect.TypeFor[Entry](): `At time.Time json:"at"; Input games.Input json:"in"; `,
		reflect.TypeFor[games.Input](): `Kind string json:"k,omitempty"; Seat int json:"s"; Action games.Action json:"a,omitempty"; ` +
			`Name string json:"n,omitempty"; Ref string json:"r,omitempty"; Emoji string json:"e,omitempty"; Add bool json:"add,omitempty"; `,
		reflect.TypeFor[games.Action](): `Verb string ; Args []string json:",omitempty"; Text string json:",omitempty"; `,
	}
	for typ, fields := range want {
		var got strings.Builder
		for i := range typ.NumField() {
			f := typ.Field(i)
			name := f.Type.String()
			if f.Type == reflect.TypeFor[json.RawMessage]() {
				name = "json.RawMessage" // from Go 1.27 on, an alias of jsontext.Value
			}
			fmt.Fprintf(&got, "%s %s %s; ", f.Name, name, f.Tag)
		}
		if got.String() != fields {
			t.Errorf("%s changed: teach Game.appendJSON, then update this test.\nnow:  %s\nwas:  %s", typ, &got, fields)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[Game](), reflect.TypeFor[Seat](), reflect.TypeFor[Entry](), reflect.TypeFor[games.Input](), reflect.TypeFor[games.Action]()} {
		if typ.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Marshaler]()) {
			t.Errorf("%s has a MarshalJSON method, which appendJSON does not call", typ)
		}
	}
}

// FuzzGameJSON: encodeGame writes every record as json.Marshal does, and
// appendJSON leaves to json.Marshal only what it should.
func FuzzGameJSON(f *testing.F) {
	rec, err := json.Marshal(realisticGame(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add("Ann", "line1 🎭", "u1", rec, uint64(0), int64(7), int64(1700000000), int64(123456789), int32(3600))
	f.Add("<b>&amp;", "\u2028\u2029", "\x00\x1f\x7f\b\f\n\r\t\"\\", []byte(`{ "a" : 1 }`), uint64(1<<20), int64(-1), int64(0), int64(0), int32(0))
	f.Add("\xff\xfe", "é\xc3", "", []byte(`{"a":`), ^uint64(0), int64(1<<62), int64(253402300800), int64(-1), int32(-86399))
	f.Add("x", "y", "z", []byte(`"\ud800"`), uint64(3<<20), int64(0), int64(-62135596801), int64(1e9), int32(5025))
	for _, s := range []string{`{"a":"<"}`, `"\u003c\/\u2028"`, "\"\u2028\"", `[1,-0.5e+10,true,false,null,{},[]]`, "\"\x7f\"", `01`, `[1,]`, ` 1`, `"\x01"`} {
		f.Add("a", "b", "c", []byte(s), uint64(0), int64(0), int64(0), int64(0), int32(0))
	}
	f.Fuzz(func(t *testing.T, a, b, c string, state []byte, shape uint64, n, sec, nsec int64, zone int32) {
		bit := func(i int) bool { return shape>>i&1 == 1 }
		at := time.Unix(sec, nsec).In(time.FixedZone(b, int(zone)))
		switch shape >> 40 & 3 {
		case 1:
			at = time.Time{}
		case 2:
			at = at.UTC()
		}
		g := &Game{Schema: int(n), ID: a, Kind: b, Guild: c, Channel: a + b, Host: c + a, Status: b, Version: int(-n),
			StartSeats: int(shape >> 8 & 3), NoAutoplay: bit(2), Threaded: bit(3), Seed: uint64(n) ^ shape,
			StateVersion: int(zone), Steps: int(sec), Created: at}
		if bit(4) {
			g.Seats = []Seat{}
		}
		for i := range int(shape >> 10 & 3) {
			s := Seat{User: a, Name: b, HandAt: at, ViewVersion: int(n) + i, WaitingSince: i}
			if bit(12 + i) {
				s.Character, s.Computer, s.HandToken, s.Left, s.Away = c, a, b+c, true, true
			}
			g.Seats = append(g.Seats, s)
		}
		if bit(5) {
			g.Options = map[string]int{}
			if bit(6) {
				g.Options = map[string]int{a: int(n), b: 1, c: -1, a + c: int(zone), "life": 22}
			}
		}
		if bit(7) {
			g.Waiting, g.Log = []int{}, []string{}
			if bit(15) {
				g.Waiting, g.Log = []int{int(n), 0, -1}, []string{a, b, c}
			}
		}
		if bit(16) {
			g.Reacts = map[string][]string{}
			if bit(17) {
				g.Reacts = map[string][]string{a: {b, c}, b: nil, c: {}, a + b + c: {a}}
			}
		}
		if bit(18) {
			g.Timers = map[string]int64{}
			if bit(19) {
				g.Timers = map[string]int64{a: n, b: -n, c: sec, c + b: nsec}
			}
		}
		if bit(22) {
			g.Tail = []Entry{}
		}
		for i := range int(shape >> 23 & 3) {
			in := games.Input{Kind: a, Seat: int(n) - i, Action: games.Action{Verb: b, Text: c}, Name: b, Ref: c, Emoji: a, Add: bit(25 + i)}
			switch shape >> 28 & 3 {
			case 1:
				in.Action.Args = []string{}
			case 2:
				in.Action.Args = []string{c, a, ""}
			case 3:
				in = games.Input{}
			}
			g.Tail = append(g.Tail, Entry{At: at, Input: in})
		}
		stateMarshaled := false
		switch shape >> 20 & 3 {
		case 0:
			g.State = state
		case 1, 2: // what the games store: a state json.Marshal wrote
			v := map[string]any{a: []any{b, n, float64(sec) / 7, nil, true}, b: map[string]string{c: a}, c: state}
			var err error
			if bit(21) {
				g.State, err = json.MarshalIndent(v, "", " ")
			} else {
				g.State, err = json.Marshal(v)
				stateMarshaled = true
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		checkGameJSON(t, g)
		usual := stateMarshaled && utf8.ValidString(a) && utf8.ValidString(b) && utf8.ValidString(c) &&
			0 <= at.Year() && at.Year() <= 9999 && -24*3600 < zone && zone < 24*3600
		if _, ok := g.appendJSON(nil); usual && !ok {
			t.Fatalf("a record json.Marshal writes went to json.Marshal: %+v", g)
		}
	})
}

// BenchmarkGameJSON: encoding a duel's record, 2.3 KiB.
func BenchmarkGameJSON(b *testing.B) {
	g := realisticGame(b)
	rec, _ := json.Marshal(g)
	for _, c := range []struct {
		name   string
		encode func(*Game) ([]byte, error)
	}{
		{"json.Marshal", func(g *Game) ([]byte, error) { return json.Marshal(g) }},
		{"encodeGame", encodeGame},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(rec)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.encode(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
