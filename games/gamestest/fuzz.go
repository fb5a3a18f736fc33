package gamestest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// fuzzSteps bounds the inputs one fuzz case plays, so a case stays fast.
const fuzzSteps = 300

// Fuzz is the kit's fuzz target: it reads a game from the fuzz input (player
// count, options within their declared ranges, seed) and then a sequence of
// inputs, mostly controls a view offers (as Run picks them), now and then a
// raw one no view offered: any verb, arguments and text, from any seat
// including Spectator and Clock, lines, reactions, joins and leaves.
//
// Every input must be accepted or refused with a *games.Refusal that has a
// sentence; a refused input is discarded by reloading the state saved
// before it, as the bot does. Every accepted state must round-trip through
// rules.Load, its views and events must fit Discord, and the accepted
// inputs must replay to the same state. A game package calls it as
//
//	func FuzzPlay(f *testing.F) { gamestest.Fuzz(f, Rules) }
//
// seeds are extra fuzz inputs on top of the kit's own.
func Fuzz(f *testing.F, rules games.Rules, seeds ...[]byte) {
	f.Helper()
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzPlay(t, rules, data)
	})
}

// fuzzSeeds are inputs that play a little and a lot: random bytes, and
// bytes below 0xc0, which only ever pick offered controls.
func fuzzSeeds() [][]byte {
	r := games.NewRNG(0x5eed)
	var out [][]byte
	for _, n := range []int{0, 12, 64, 400, 1200} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint64())
		}
		out = append(out, b)
	}
	for k := range 4 {
		b := make([]byte, 1500)
		for i := range b {
			b[i] = byte(r.Intn(0xc0))
		}
		b[0] = byte(k) // the player count
		out = append(out, b)
	}
	return out
}

// fuzzBytes reads the fuzz input; past its end every read is zero.
type fuzzBytes struct {
	b []byte
	i int
}

func (s *fuzzBytes) more() bool { return s.i < len(s.b) }

func (s *fuzzBytes) byte() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

// intn is a value in [0, n): one byte, or two when n is over 256.
func (s *fuzzBytes) intn(n int) int {
	if n <= 1 {
		return 0
	}
	v := int(s.byte())
	if n > 256 {
		v = v<<8 | int(s.byte())
	}
	return v % n
}

func (s *fuzzBytes) uint64() uint64 {
	var b [8]byte
	for i := range b {
		b[i] = s.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Names a Discord member may have: short, at the 32-character limit, with
// markdown, mentions and wide characters.
var fuzzNames = []string{
	"Ann", "Bob", "Zoë", "**bold**", "@everyone", "名前", "🎲 Dicey",
	"A name that is exactly 32 chars!", "x", "O'Brien_the-3rd", "`code`", "Ann",
}

// Tokens worth trying as verbs and arguments besides the ones views offer.
var fuzzTokens = []string{
	"0", "1", "2", "5", "-1", "25", "100", "9223372036854775807", "-9223372036854775808", "1e3", "0x10",
	"AS", "TD", "2C", "X0", "X1", "ZZ", "yes", "no", "all", "none", "x",
}

var fuzzRunes = []rune("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?'\"*_~`|>#@<:\n\téüßñ🎭🂠名🏳️\u200b")

var fuzzLines = []string{"", " ", "hello", "life is not fair, but draw two", "Life is not fair but game over!", "<@123456789012345678>", "@everyone"}

// fuzzer plays one fuzz case.
type fuzzer struct {
	rules games.Rules
	src   fuzzBytes
	setup games.Setup
	seats int
	log   []games.Input
	// What the game has shown so far, to build plausible raw inputs from.
	verbs, args []string
	refs        []string
	emoji       []string
	buttons     map[string][]games.Button // buttons under the game's own messages, by Ref
	loose       []games.Button            // buttons under messages without a Ref
}

func fuzzPlay(t *testing.T, rules games.Rules, data []byte) {
	z := &fuzzer{rules: rules, src: fuzzBytes{b: data}, buttons: map[string][]games.Button{}}
	z.setup = z.readSetup()
	var pending *games.Input
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v\nsetup: %+v\ninputs accepted: %+v\nthen: %+v\n%s",
				rules.ID, p, z.setup, z.log, pending, debug.Stack())
		}
	}()
	g, err := rules.New(z.setup)
	if err != nil {
		t.Fatalf("%s: New(%+v): %v", rules.ID, z.setup, err)
	}
	z.seats = len(z.setup.Players)
	if o, ok := g.(games.Opener); ok {
		z.events(o.Opening())
	}
	if !checkViews(t, rules.ID+" as dealt", g, z.seats, Config{}) {
		t.FailNow()
	}
	saved, err := games.Encode(g) // what the bot would have stored
	if err != nil {
		t.Fatalf("%s: encode: %v", rules.ID, err)
	}
	for step := 0; step < fuzzSteps && z.src.more(); step++ {
		in := z.next(g, step)
		pending = &in
		events, err := games.Step(g, in)
		var refusal *games.Refusal
		switch {
		case errors.As(err, &refusal):
			if strings.TrimSpace(refusal.Msg) == "" || utf8.RuneCountInString(refusal.Msg) > 2000 {
				t.Fatalf("%s: refusal %q for %+v\ninputs accepted: %+v", rules.ID, refusal.Msg, in, z.log)
			}
			// The bot discards a refused copy; do the same.
			if g, err = rules.Load(saved); err != nil {
				t.Fatalf("%s: reload: %v", rules.ID, err)
			}
			continue
		case err != nil:
			t.Fatalf("%s: %+v: an error that is not a refusal: %v\nsetup: %+v\ninputs accepted: %+v", rules.ID, in, err, z.setup, z.log)
		}
		if in.Kind == games.InJoin {
			z.seats++
		}
		z.log = append(z.log, in)
		name := fmt.Sprintf("%s after %+v (input %d)", rules.ID, in, len(z.log))
		if !checkEvents(t, name, events) {
			t.FailNow()
		}
		z.events(events)
		if g, saved, err = reload(rules, g, z.seats); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !checkViews(t, name, g, z.seats, Config{}) {
			t.FailNow()
		}
	}
	pending = nil
	t.Logf("%s: %d players, %d inputs accepted of %d bytes, over: %v", rules.ID, len(z.setup.Players), len(z.log), len(data), g.Over())
	if g.Over() {
		res := g.Results()
		if len(res) == 0 {
			t.Fatalf("%s: over with no results", rules.ID)
		}
		for _, x := range res {
			if x.Seat < 0 || x.Seat >= z.seats || rules.GM && x.Seat == 0 {
				t.Fatalf("%s: a result for seat %d (%d seats, GM %v)", rules.ID, x.Seat, z.seats, rules.GM)
			}
		}
	}
	again, err := games.Replay(rules, z.setup, z.log)
	if err != nil {
		t.Fatalf("%v\nsetup: %+v\ninputs: %+v", err, z.setup, z.log)
	}
	a, _ := games.Encode(g)
	b, _ := games.Encode(again)
	if !bytes.Equal(a, b) {
		t.Fatalf("%s: replay from the log differs:\n%s\n%s", rules.ID, a, b)
	}
}

// reload is roundTrip that also returns the saved bytes.
func reload(rules games.Rules, g games.Game, seats int) (games.Game, []byte, error) {
	a, err := games.Encode(g)
	if err != nil {
		return nil, nil, err
	}
	back, err := rules.Load(a)
	if err != nil {
		return nil, nil, fmt.Errorf("load what was saved: %w\n%s", err, a)
	}
	if b, err := games.Encode(back); err != nil || !bytes.Equal(a, b) {
		return nil, nil, fmt.Errorf("JSON round trip changed the state (%v):\n%s\n%s", err, a, b)
	}
	if !reflect.DeepEqual(g.Table(), back.Table()) || !reflect.DeepEqual(g.ToAct(), back.ToAct()) {
		return nil, nil, errors.New("the reloaded game shows a different table")
	}
	for s := range seats {
		if !reflect.DeepEqual(g.Hand(s), back.Hand(s)) {
			return nil, nil, fmt.Errorf("the reloaded game shows seat %d a different hand", s)
		}
	}
	return back, a, nil
}

// readSetup reads the player count, each option within its range and the seed.
func (z *fuzzer) readSetup() games.Setup {
	lo, hi := z.rules.MinPlayers, max(z.rules.MaxPlayers, z.rules.MinPlayers)
	n := lo + z.src.intn(hi-lo+1)
	s := games.Setup{Options: map[string]int{}}
	for i := range n {
		name := fmt.Sprintf("P%d", i+1)
		if b := z.src.byte(); b%4 == 0 {
			name = fuzzNames[int(b/4)%len(fuzzNames)]
		}
		s.Players = append(s.Players, name)
	}
	for _, o := range z.rules.Options {
		switch o.Kind {
		case games.BoolOption:
			s.Options[o.Name] = int(z.src.byte() & 1)
		default:
			s.Options[o.Name] = o.Min + z.src.intn(o.Max-o.Min+1)
		}
	}
	s.Seed = z.src.uint64()
	return s
}

// fuzzAskMarker stands for typed text until the move is chosen.
const fuzzAskMarker = "\x00ask\x00"

// fuzzCandidate is a control some view offers, with the text box it opens.
type fuzzCandidate struct {
	move Move
	ask  *games.Ask
}

// next chooses the next input from the fuzz bytes.
func (z *fuzzer) next(g games.Game, step int) games.Input {
	c := z.src.byte()
	r := games.NewRNG(z.setup.Seed ^ uint64(step)<<32 ^ uint64(z.src.byte()))
	switch {
	case c < 0xc0: // a control some view offers
		if in, ok := z.offered(&r, g); ok {
			return in
		}
		if in, ok := z.timer(g); ok {
			return in
		}
	case c < 0xd0: // a deadline the game lists
		if in, ok := z.timer(g); ok {
			return in
		}
	case c < 0xdc:
		return games.Input{Kind: games.InSay, Seat: z.seat(true), Name: z.name(), Action: games.Action{Text: z.text(1500)}}
	case c < 0xe8:
		return games.Input{Kind: games.InReact, Seat: z.seat(false), Ref: z.ref(), Emoji: z.emojiFor(), Add: z.src.byte()%4 != 0}
	case c < 0xec:
		return games.Input{Kind: games.InJoin, Seat: z.seats, Name: z.name()}
	case c < 0xee:
		return games.Input{Kind: games.InLeave, Seat: z.seat(true)}
	}
	// Anything at all: a move or a deadline no view offered.
	kind := games.InMove
	if c&1 == 1 {
		kind = games.InTimer
	}
	a := games.Action{Verb: z.token(z.verbs)}
	for range z.src.intn(4) {
		a.Args = append(a.Args, z.token(z.args))
	}
	if z.src.byte()%4 == 0 {
		a.Text = z.text(200)
	}
	in := games.Input{Kind: kind, Seat: z.seat(true), Action: a}
	if kind == games.InTimer {
		in.Ref = z.token(nil)
	}
	return in
}

// offered picks among the controls of every hand, the table and the
// buttons under the game's own messages.
func (z *fuzzer) offered(r *games.RNG, g games.Game) (games.Input, bool) {
	var cands []fuzzCandidate
	add := func(v games.View, seat int, anyone bool) {
		asks := map[string]*games.Ask{}
		for _, b := range v.Buttons {
			if b.Ask != nil {
				asks[b.Action.Key()] = b.Ask
			}
		}
		for _, m := range Offered(r, v, seat, func(*games.RNG, games.Action) string { return fuzzAskMarker }) {
			if anyone {
				// Anyone may click it: a random seat, or someone without one.
				m.Seat = r.Intn(z.seats+1) - 1
			}
			z.learn(m.Action)
			cands = append(cands, fuzzCandidate{m, asks[m.Action.Key()]})
		}
	}
	for s := range z.seats {
		add(g.Hand(s), s, false)
	}
	add(g.Table(), games.Spectator, true)
	refs := slices.Sorted(maps.Keys(z.buttons))
	for _, ref := range refs {
		add(games.View{Buttons: z.buttons[ref]}, games.Spectator, true)
	}
	add(games.View{Buttons: z.loose}, games.Spectator, true)
	if len(cands) == 0 {
		return games.Input{}, false
	}
	m := cands[z.src.intn(len(cands))]
	if m.move.Action.Text == fuzzAskMarker {
		limit := 4000
		if m.ask != nil && m.ask.MaxLen > 0 {
			limit = min(m.ask.MaxLen, 4000)
		}
		m.move.Action.Text = z.text(limit)
	}
	return games.Input{Seat: m.move.Seat, Action: m.move.Action}, true
}

// timer is a deadline the game lists, fired now.
func (z *fuzzer) timer(g games.Game) (games.Input, bool) {
	tm, ok := g.(games.Timed)
	if !ok {
		return games.Input{}, false
	}
	var due []games.Timer
	for _, x := range tm.Timers() {
		if !x.Remind {
			due = append(due, x)
			z.learn(x.Action)
		}
	}
	if len(due) == 0 {
		return games.Input{}, false
	}
	x := due[z.src.intn(len(due))]
	return games.Input{Kind: games.InTimer, Seat: x.Seat, Ref: x.Key, Action: x.Action}, true
}

// seat is a seat, or Spectator (and Clock if clock).
func (z *fuzzer) seat(clock bool) int {
	if clock {
		return z.src.intn(z.seats+2) - 2
	}
	return z.src.intn(z.seats+1) - 1
}

func (z *fuzzer) name() string {
	if b := z.src.byte(); b < 0x80 {
		return fuzzNames[int(b)%len(fuzzNames)]
	}
	return z.text(60)
}

// text is typed words of at most limit characters.
func (z *fuzzer) text(limit int) string {
	b := z.src.byte()
	if b < 0x60 {
		return fuzzLines[int(b)%len(fuzzLines)]
	}
	n := z.src.intn(min(limit, 80) + 1)
	if b >= 0xf0 { // long, up to the limit
		n = limit - z.src.intn(min(limit, 16)+1)
	}
	rs := make([]rune, 0, n)
	for len(rs) < n {
		k := byte(len(rs) * 7) // past the input's end, a pattern
		if z.src.more() {
			k = z.src.byte()
		}
		rs = append(rs, fuzzRunes[int(k)%len(fuzzRunes)])
	}
	return string(rs)
}

// token is a verb or argument: one the game has shown (from seen), one of
// the usual suspects, or made up; now and then something no custom_id
// could carry.
func (z *fuzzer) token(seen []string) string {
	b := z.src.byte()
	switch {
	case b < 0x80 && len(seen) > 0:
		return seen[int(b)%len(seen)]
	case b < 0xc0:
		return fuzzTokens[int(b)%len(fuzzTokens)]
	case b < 0xf8:
		n := 1 + z.src.intn(12)
		var sb strings.Builder
		for range n {
			sb.WriteByte('!' + z.src.byte()%94) // printable, no space
		}
		return strings.NewReplacer(":", "", "=", "", ",", "").Replace(sb.String() + "x")
	}
	return z.text(50)
}

func (z *fuzzer) ref() string {
	b := z.src.byte()
	if b < 0xc0 && len(z.refs) > 0 {
		return z.refs[int(b)%len(z.refs)]
	}
	return fmt.Sprintf("line%d", b%5)
}

func (z *fuzzer) emojiFor() string {
	b := z.src.byte()
	if b < 0xc0 && len(z.emoji) > 0 {
		return z.emoji[int(b)%len(z.emoji)]
	}
	return []string{"🎭", "👍", "❤️", "x", ""}[b%5]
}

// events remembers what the game posted: refs and emoji to react with,
// buttons anyone may press.
func (z *fuzzer) events(evs []games.Event) {
	for _, e := range evs {
		for _, em := range e.Emoji {
			if !slices.Contains(z.emoji, em) {
				z.emoji = append(z.emoji, em)
			}
		}
		for _, b := range e.Buttons {
			z.learn(b.Action)
		}
		if e.Ref == "" {
			if len(e.Buttons) > 0 {
				z.loose = append(z.loose, e.Buttons...)
				if len(z.loose) > 20 {
					z.loose = z.loose[len(z.loose)-20:]
				}
			}
			continue
		}
		if !slices.Contains(z.refs, e.Ref) {
			z.refs = append(z.refs, e.Ref)
		}
		// A later event with the same Ref edits the message, buttons and all.
		if len(e.Buttons) > 0 {
			z.buttons[e.Ref] = e.Buttons
		} else {
			delete(z.buttons, e.Ref)
		}
	}
}

// learn adds an action's verb and arguments to the vocabulary, within bounds.
func (z *fuzzer) learn(a games.Action) {
	if a.Verb != "" && !slices.Contains(z.verbs, a.Verb) && len(z.verbs) < 64 {
		z.verbs = append(z.verbs, a.Verb)
	}
	for _, x := range a.Args {
		if !slices.Contains(z.args, x) && len(z.args) < 128 {
			z.args = append(z.args, x)
		}
	}
}

// FuzzLoad feeds rules.Load arbitrary bytes, and real saved states with
// values changed here and there. Load must never panic; a state it accepts
// must encode and load again to the same bytes, and its Table, ToAct, Over,
// Hand for seats 0..7 (and Results once over) must not panic: the bot calls
// them on whatever the database holds. A game package calls it as
//
//	func FuzzLoad(f *testing.F) { gamestest.FuzzLoad(f, Rules) }
//
// An input whose first byte is 0xff names a saved state and the changes to
// make to it (see mutateState); any other input is given to Load as it is.
func FuzzLoad(f *testing.F, rules games.Rules) {
	f.Helper()
	states := savedStates(f, rules)
	for _, s := range states {
		f.Add(s)
	}
	f.Add([]byte("not json"))
	f.Add([]byte(`{"Unknown":1}`))
	for i := range min(len(states), 4) {
		f.Add([]byte{0xff, byte(i)}) // a saved state as it is, for the fuzzer to change
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && data[0] == 0xff && len(states) > 0 {
			data = mutateState(states, &fuzzBytes{b: data[1:]})
		}
		g, err := mustNotPanic(t, data, "Load", func() (games.Game, error) { return rules.Load(data) })
		if err != nil || g == nil {
			return
		}
		a, err := games.Encode(g)
		if err != nil {
			t.Fatalf("%s: Load accepted a state it cannot encode: %v\n%s", rules.ID, err, data)
		}
		back, err := rules.Load(a)
		if err != nil {
			t.Fatalf("%s: Load refuses what it encoded: %v\n%s", rules.ID, err, a)
		}
		if b, _ := games.Encode(back); !bytes.Equal(a, b) {
			t.Fatalf("%s: a loaded state does not round-trip:\n%s\n%s", rules.ID, a, b)
		}
		mustNotPanic(t, data, "Table", func() (games.View, error) { return g.Table(), nil })
		mustNotPanic(t, data, "ToAct", func() ([]int, error) { return g.ToAct(), nil })
		over, _ := mustNotPanic(t, data, "Over", func() (bool, error) { return g.Over(), nil })
		for s := range 8 {
			mustNotPanic(t, data, fmt.Sprintf("Hand(%d)", s), func() (games.View, error) { return g.Hand(s), nil })
		}
		if over {
			mustNotPanic(t, data, "Results", func() ([]games.Result, error) { return g.Results(), nil })
		}
	})
}

// mutateState picks a saved state and makes up to three changes to its
// JSON, each at a node counted in document order: a different number, null,
// an empty string, array or object, a card code, a copied sibling, or the
// node removed altogether.
func mutateState(states [][]byte, src *fuzzBytes) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(states[src.intn(len(states))]))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	for range src.intn(4) {
		k := src.intn(jsonNodes(v))
		v, _ = mutateJSON(v, &k, src)
	}
	b, _ := json.Marshal(v)
	return b
}

var fuzzValues = []any{
	nil, json.Number("0"), json.Number("1"), json.Number("2"), json.Number("-1"), json.Number("-2"), json.Number("5"),
	json.Number("13"), json.Number("26"), json.Number("99"), json.Number("1000000"), json.Number("-9223372036854775808"),
	"", "AS", "X0", "over", "play", []any{}, map[string]any{}, true, false,
}

func jsonNodes(v any) int {
	n := 1
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			n += jsonNodes(e)
		}
	case map[string]any:
		for _, e := range x {
			n += jsonNodes(e)
		}
	}
	return n
}

// mutateJSON changes node *k of v (counting down as it walks); remove
// reports that the node asks its parent to drop it.
func mutateJSON(v any, k *int, src *fuzzBytes) (out any, remove bool) {
	if *k == 0 {
		*k = -1
		switch c := src.byte(); {
		case c < 0x20:
			return v, true
		case c < 0x40:
			if x, ok := v.([]any); ok && len(x) > 0 { // grow an array by a copy
				return append(x, x[src.intn(len(x))]), false
			}
		case c < 0x60:
			if n, ok := v.(json.Number); ok { // nudge a number
				if i, err := n.Int64(); err == nil {
					return json.Number(fmt.Sprint(i + int64(int8(src.byte())))), false
				}
			}
		}
		return fuzzValues[src.intn(len(fuzzValues))], false
	}
	*k--
	switch x := v.(type) {
	case []any:
		out := x[:0:0]
		for _, e := range x {
			e, rm := mutateJSON(e, k, src)
			if !rm {
				out = append(out, e)
			}
		}
		return out, false
	case map[string]any:
		for _, key := range slices.Sorted(maps.Keys(x)) {
			e, rm := mutateJSON(x[key], k, src)
			if rm {
				delete(x, key)
			} else {
				x[key] = e
			}
		}
	}
	return v, false
}

// mustNotPanic calls f, turning a panic into a test failure that shows the state.
func mustNotPanic[T any](t *testing.T, state []byte, what string, f func() (T, error)) (v T, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked on a state Load accepted: %v\nstate: %s\n%s", what, p, state, debug.Stack())
		}
	}()
	return f()
}

// savedStates plays a few games at random through the offered controls and
// keeps some of the states the bot would have saved along the way.
func savedStates(f *testing.F, rules games.Rules) [][]byte {
	var out [][]byte
	keep := map[int]bool{0: true, 1: true, 3: true, 10: true, 30: true, 100: true}
	for _, n := range []int{rules.MinPlayers, rules.MaxPlayers} {
		for seed := uint64(1); seed <= 2; seed++ {
			setup := games.Setup{Seed: seed}
			for i := range n {
				setup.Players = append(setup.Players, fmt.Sprintf("P%d", i+1))
			}
			g, err := rules.New(setup)
			if err != nil {
				f.Fatalf("%s: New: %v", rules.ID, err)
			}
			r := games.NewRNG(seed)
			for step := 0; step < 400; step++ {
				if keep[step] || g.Over() {
					b, err := games.Encode(g)
					if err != nil {
						f.Fatalf("%s: encode: %v", rules.ID, err)
					}
					out = append(out, b)
				}
				if g.Over() {
					break
				}
				in, ok := pick(&r, g, n, Config{Text: defaultText}, new([]string))
				if !ok {
					break
				}
				before, _ := games.Encode(g)
				if _, err := games.Step(g, in); err != nil {
					if g, err = rules.Load(before); err != nil {
						f.Fatalf("%s: reload: %v", rules.ID, err)
					}
				}
			}
		}
	}
	return out
}
