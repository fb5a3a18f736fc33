package store

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cardtable/cardbot/bot/wirejson"
)

// encodeGame returns json.Marshal(g), byte for byte. encoding/json finds
// Game's fields by reflection and checks and rewrites State, which
// json.Marshal wrote in the first place: together about 4% of the bot's
// CPU under load. Written out by hand, a record is one allocation and one
// read of its state. Whatever the hand-written encoder is not sure to
// write as json.Marshal does goes to json.Marshal, errors included.
func encodeGame(g *Game) ([]byte, error) {
	if b, ok := g.appendJSON(make([]byte, 0, g.sizeHint())); ok {
		return b, nil
	}
	return json.Marshal(g)
}

// sizeHint is about the length of g's JSON, so that appendJSON rarely
// grows its buffer.
func (g *Game) sizeHint() int {
	n := 320 + len(g.ID) + len(g.Guild) + len(g.Channel) + len(g.Host) + len(g.State) +
		24*(len(g.Options)+len(g.Timers)) + 8*len(g.Waiting) + 64*len(g.Reacts)
	for i := range g.Seats {
		s := &g.Seats[i]
		n += 96 + len(s.User) + len(s.Name) + len(s.Character) + len(s.Computer) + len(s.HandToken)
	}
	for _, l := range g.Log {
		n += 4 + len(l)
	}
	return n + 112*len(g.Tail)
}

// appendJSON appends g as json.Marshal writes it, or reports false if it
// cannot be sure to: then json.Marshal must write the record. The fields
// follow Game's struct tags; TestGameJSONKnowsEveryField fails when one of
// the encoded types changes.
func (g *Game) appendJSON(b []byte) ([]byte, bool) {
	e := recEncoder{b: b}
	e.lit(`{"schema":`)
	e.num(int64(g.Schema))
	e.lit(`,"id":`)
	e.str(g.ID)
	e.lit(`,"kind":`)
	e.str(g.Kind)
	e.lit(`,"guild":`)
	e.str(g.Guild)
	e.lit(`,"channel":`)
	e.str(g.Channel)
	e.lit(`,"host":`)
	e.str(g.Host)
	e.lit(`,"status":`)
	e.str(g.Status)
	e.lit(`,"version":`)
	e.num(int64(g.Version))
	e.lit(`,"seats":`)
	if g.Seats == nil {
		e.lit("null")
	} else {
		e.lit("[")
		for i := range g.Seats {
			if i > 0 {
				e.lit(",")
			}
			e.seat(&g.Seats[i])
		}
		e.lit("]")
	}
	if g.StartSeats != 0 {
		e.lit(`,"start_seats":`)
		e.num(int64(g.StartSeats))
	}
	e.lit(`,"options":`)
	appendIntMap(&e, g.Options)
	if g.NoAutoplay {
		e.lit(`,"no_autoplay":true`)
	}
	if g.Threaded {
		e.lit(`,"threaded":true`)
	}
	e.lit(`,"seed":`)
	e.b = strconv.AppendUint(e.b, g.Seed, 10)
	if g.StateVersion != 0 {
		e.lit(`,"state_version":`)
		e.num(int64(g.StateVersion))
	}
	if len(g.State) > 0 {
		e.lit(`,"state":`)
		if isCompact(g.State) {
			e.b = append(e.b, g.State...)
		} else {
			e.bad = true
		}
	}
	if len(g.Waiting) > 0 {
		e.lit(`,"waiting":[`)
		for i, w := range g.Waiting {
			if i > 0 {
				e.lit(",")
			}
			e.num(int64(w))
		}
		e.lit("]")
	}
	if len(g.Log) > 0 {
		e.lit(`,"log":`)
		e.strs(g.Log)
	}
	if g.Steps != 0 {
		e.lit(`,"steps":`)
		e.num(int64(g.Steps))
	}
	if len(g.Tail) > 0 {
		e.lit(`,"tail":[`)
		for i := range g.Tail {
			if i > 0 {
				e.lit(",")
			}
			e.entry(&g.Tail[i])
		}
		e.lit("]")
	}
	if len(g.Reacts) > 0 {
		e.lit(`,"reacts":{`)
		var buf [16]string
		for i, k := range sortedKeys(g.Reacts, buf[:0]) {
			if i > 0 {
				e.lit(",")
			}
			e.str(k)
			e.lit(":")
			e.strs(g.Reacts[k])
		}
		e.lit("}")
	}
	if len(g.Timers) > 0 {
		e.lit(`,"timers":`)
		appendIntMap(&e, g.Timers)
	}
	e.lit(`,"created":`)
	e.stamp(g.Created)
	e.lit("}")
	return e.b, !e.bad
}

// recEncoder appends JSON to b; bad records that something was met that
// json.Marshal may write otherwise, or refuse.
type recEncoder struct {
	b   []byte
	bad bool
}

func (e *recEncoder) lit(s string) { e.b = append(e.b, s...) }

func (e *recEncoder) num(n int64) { e.b = strconv.AppendInt(e.b, n, 10) }

func (e *recEncoder) seat(s *Seat) {
	e.lit(`{"user":`)
	e.str(s.User)
	e.lit(`,"name":`)
	e.str(s.Name)
	if s.Character != "" {
		e.lit(`,"character":`)
		e.str(s.Character)
	}
	if s.Left {
		e.lit(`,"left":true`)
	}
	if s.Computer != "" {
		e.lit(`,"computer":`)
		e.str(s.Computer)
	}
	if s.Away {
		e.lit(`,"away":true`)
	}
	if s.HandToken != "" {
		e.lit(`,"hand_token":`)
		e.str(s.HandToken)
	}
	// omitempty never omits a struct, a zero time.Time included.
	e.lit(`,"hand_at":`)
	e.stamp(s.HandAt)
	if s.ViewVersion != 0 {
		e.lit(`,"view_version":`)
		e.num(int64(s.ViewVersion))
	}
	if s.Moved != 0 {
		e.lit(`,"moved":`)
		e.num(int64(s.Moved))
	}
	if s.WaitingSince != 0 {
		e.lit(`,"waiting_since":`)
		e.num(int64(s.WaitingSince))
	}
	e.lit("}")
}

func (e *recEncoder) entry(en *Entry) {
	e.lit(`{"at":`)
	e.stamp(en.At)
	in := &en.Input
	e.lit(`,"in":{`)
	if in.Kind != "" {
		e.lit(`"k":`)
		e.str(in.Kind)
		e.lit(",")
	}
	e.lit(`"s":`)
	e.num(int64(in.Seat))
	// "a" is omitempty, which never omits a struct.
	e.lit(`,"a":{"Verb":`)
	e.str(in.Action.Verb)
	if len(in.Action.Args) > 0 {
		e.lit(`,"Args":`)
		e.strs(in.Action.Args)
	}
	if in.Action.Text != "" {
		e.lit(`,"Text":`)
		e.str(in.Action.Text)
	}
	e.lit("}")
	if in.Name != "" {
		e.lit(`,"n":`)
		e.str(in.Name)
	}
	if in.Ref != "" {
		e.lit(`,"r":`)
		e.str(in.Ref)
	}
	if in.Emoji != "" {
		e.lit(`,"e":`)
		e.str(in.Emoji)
	}
	if in.Add {
		e.lit(`,"add":true`)
	}
	e.lit("}}")
}

// stamp writes t as its MarshalJSON does; a time RFC 3339 cannot hold is
// json.Marshal's to refuse.
func (e *recEncoder) stamp(t time.Time) {
	b, err := t.AppendText(append(e.b, '"'))
	if err != nil {
		e.bad = true
		return
	}
	e.b = append(b, '"')
}

func (e *recEncoder) strs(ss []string) {
	if ss == nil {
		e.lit("null")
		return
	}
	e.lit("[")
	for i, s := range ss {
		if i > 0 {
			e.lit(",")
		}
		e.str(s)
	}
	e.lit("]")
}

// str writes s quoted as json.Marshal quotes it; invalid UTF-8 is left to
// json.Marshal (see wirejson.ValidString).
func (e *recEncoder) str(s string) {
	var ok bool
	if e.b, ok = wirejson.ValidString(e.b, s); !ok {
		e.bad = true
	}
}

// appendIntMap writes m with its keys sorted, as json.Marshal does.
func appendIntMap[V int | int64](e *recEncoder, m map[string]V) {
	if m == nil {
		e.lit("null")
		return
	}
	e.lit("{")
	var buf [16]string
	for i, k := range sortedKeys(m, buf[:0]) {
		if i > 0 {
			e.lit(",")
		}
		e.str(k)
		e.lit(":")
		e.num(int64(m[k]))
	}
	e.lit("}")
}

// sortedKeys returns m's keys in encoding/json's order, in buf while they
// fit, so that a small map's keys stay on the stack.
func sortedKeys[V any](m map[string]V, buf []string) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// maxStateDepth bounds the nesting isCompact follows; states nest a few
// levels, and a deeper one is json.Marshal's to check.
const maxStateDepth = 64

// isCompact reports whether s is one JSON value that json.Marshal writes
// unchanged: valid, no space between tokens, valid UTF-8, and no <, >, &,
// U+2028 or U+2029 it would escape. Whatever json.Marshal wrote is all of
// that. It may say false of some such values: json.Marshal then decides.
func isCompact(s []byte) bool {
	i, ok := compactValue(s, 0, 0)
	return ok && i == len(s)
}

// compactValue checks the value at s[i:] and returns where it ends.
func compactValue(s []byte, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; c {
	case '"':
		return compactString(s, i)
	case '{', '[':
		if depth == maxStateDepth {
			return i, false
		}
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		i++
		if i < len(s) && s[i] == end {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				if i, ok = compactString(s, i); !ok || i >= len(s) || s[i] != ':' {
					return i, false
				}
				i++
			}
			if i, ok = compactValue(s, i, depth+1); !ok || i >= len(s) {
				return i, false
			}
			switch s[i] {
			case ',':
				i++
			case end:
				return i + 1, true
			default:
				return i, false
			}
		}
	case 't':
		return compactLiteral(s, i, "true")
	case 'f':
		return compactLiteral(s, i, "false")
	case 'n':
		return compactLiteral(s, i, "null")
	}
	return compactNumber(s, i)
}

func compactLiteral(s []byte, i int, lit string) (int, bool) {
	if len(s)-i < len(lit) || string(s[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

func compactNumber(s []byte, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(s []byte, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// compactString checks the string at s[i:] and returns where it ends.
func compactString(s []byte, i int) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return i, false
	}
	for i++; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
				return i, false
			}
			i += n
			continue
		}
		switch {
		case wirejson.Plain(c):
			i++
		case c == '"':
			return i + 1, true
		case c == '\\':
			n := escapeLen(s[i:])
			if n == 0 {
				return i, false
			}
			i += n
		default: // a control character, or <, > or & to escape
			return i, false
		}
	}
	return i, false
}

// escapeLen is the length of the escape sequence at the start of s, or 0
// if it is not one json.Marshal surely keeps. That leaves out escaped
// surrogates, which json.Marshal never writes.
func escapeLen(s []byte) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s) < 6 {
			return 0
		}
		var r rune
		for _, c := range s[2:6] {
			switch {
			case '0' <= c && c <= '9':
				r = r<<4 | rune(c-'0')
			case 'a' <= c && c <= 'f':
				r = r<<4 | rune(c-'a'+10)
			case 'A' <= c && c <= 'F':
				r = r<<4 | rune(c-'A'+10)
			default:
				return 0
			}
		}
		if utf16.IsSurrogate(r) {
			return 0
		}
		return 6
	}
	return 0
}
