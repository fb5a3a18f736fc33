package fakediscord

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// The hand-written JSON must be json.Marshal's, byte for byte.

var encodeStrings = []string{
	"", "s", `a"b\c/d`, "<b>&amp;</b>", "line\nbreak\r\ttab", "\b\f\x00\x01\x1f\x7f", "é ♠ 😀 — ✓",
	"\u2028\u2029", "x\u2028y", "\xff\xfe bad", "ok\xc3", "\ufffd", "move:dukh8yuu:29:deck", "\u00a0\u200d",
}

// filler sets values of any type at random: each field, element and
// pointer zero, empty or set, so that every member of every type the
// encoders write turns up present, absent and empty.
type filler struct {
	rng  *rand.Rand
	full bool // no zero values where a value can be set
}

var rawJSONs = []json.RawMessage{nil, json.RawMessage(`"n<1>"`), json.RawMessage(` 12345 `), json.RawMessage(`null`), json.RawMessage(`{"a": [1, "&"]}`)}

func (f *filler) zero() bool { return !f.full && f.rng.IntN(4) == 0 }

func (f *filler) fill(v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		raw := rawJSONs[f.rng.IntN(len(rawJSONs))]
		if f.full {
			raw = rawJSONs[1]
		}
		v.Set(reflect.ValueOf(raw))
		return
	}
	switch v.Kind() {
	case reflect.String:
		if !f.zero() {
			s := encodeStrings[1+f.rng.IntN(len(encodeStrings)-1)]
			if f.rng.IntN(3) == 0 {
				s += encodeStrings[f.rng.IntN(len(encodeStrings))]
			}
			v.SetString(s)
		}
	case reflect.Int, reflect.Int64:
		if !f.zero() {
			v.SetInt([]int64{1, -1, 7, 16777215, 1 << 40, -1 << 63}[f.rng.IntN(6)])
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !f.zero() {
			v.SetUint(uint64(1 + f.rng.IntN(20)))
		}
	case reflect.Bool:
		v.SetBool(f.full || f.rng.IntN(2) == 0)
	case reflect.Pointer:
		if depth < 4 && !f.zero() {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem(), depth+1)
		}
	case reflect.Slice:
		if depth >= 4 || f.zero() {
			return
		}
		n := 1 + f.rng.IntN(3)
		if !f.full && f.rng.IntN(4) == 0 {
			n = 0
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if f.zero() {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range f.rng.IntN(3) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k, depth+1)
			f.fill(e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() || sf.Anonymous { // json promotes embedded fields
				f.fill(v.Field(i), depth)
			}
		}
	case reflect.Interface:
		// What an interaction's data and channel hold, and a few others.
		kinds := []any{wireComponentData{}, wireModalData{}, wireCommandData{}, wireChannel{}, wireThread{}, "s", 5}
		if f.zero() {
			return
		}
		p := reflect.New(reflect.TypeOf(kinds[f.rng.IntN(len(kinds))]))
		f.fill(p.Elem(), depth+1)
		v.Set(p.Elem())
	default:
		panic("filler: " + v.Kind().String())
	}
}

// prefixed is what an encoder appends after a few bytes already there, as
// it is called to do inside other payloads.
func prefixed(appendTo func([]byte) []byte) string {
	return string(appendTo([]byte(`{"x":`))[len(`{"x":`):])
}

func TestAppendMessageIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		var w wireMessage
		(&filler{rng: rng, full: i == 0}).fill(reflect.ValueOf(&w).Elem(), 0)
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := prefixed(func(b []byte) []byte { return appendMessage(b, &w) }); got != string(want) {
			t.Fatalf("appendMessage\n%s\njson.Marshal\n%s", got, want)
		}
	}
}

func TestAppendInteractionIsMarshal(t *testing.T) {
	type whole struct {
		wireInteraction
		Message *wireMessage `json:"message,omitempty"`
		wireInteractionRest
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 5000 {
		var x whole
		(&filler{rng: rng, full: i == 0}).fill(reflect.ValueOf(&x).Elem(), 0)
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		var msg []byte
		if x.Message != nil {
			msg = appendMessage(nil, x.Message)
		}
		if got := prefixed(func(b []byte) []byte { return appendInteraction(b, &x.wireInteraction, msg, &x.wireInteractionRest) }); got != string(want) {
			t.Fatalf("appendInteraction\n%s\njson.Marshal\n%s", got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range encodeStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := prefixed(func(b []byte) []byte { return appendString(b, s) }); got != string(want) {
			t.Fatalf("appendString(%q) = %s, json.Marshal %s", s, got, want)
		}
	})
}

func TestAppendTimestampIsFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	east := time.FixedZone("east", 5*3600+1800)
	times := []time.Time{
		{}, time.Unix(0, 0), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 2, 3, 4, 5, 6, 7000, east), time.Now(),
	}
	for range 1000 {
		times = append(times, time.Unix(rng.Int64N(1<<36)-1<<35, rng.Int64N(1e9)).In(east))
	}
	for _, tm := range times {
		if got, want := timestamp(tm), tm.UTC().Format(timestampLayout); got != want {
			t.Errorf("timestamp(%v) = %s, want %s", tm, got, want)
		}
	}
}
