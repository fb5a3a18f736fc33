package life

import (
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

func policyGames() int {
	if raceOn || testing.Short() {
		return 200
	}
	return 1000
}

// TestSensibleBeatsRandom compares win rates in two-player games, seats
// alternating, on fixed seeds. Measured: 82.0% [79.5%, 84.3%] over 1000
// games (a shared win counts for both).
func TestSensibleBeatsRandom(t *testing.T) {
	for _, opts := range []map[string]int{nil, {"snake_eyes": 1, "swap": 1, "roleplay": 0}} {
		tl, err := ai.HeadToHead(Rules, opts, Sensible, ai.Random, policyGames(), 1)
		if err != nil {
			t.Fatal(err)
		}
		rate, lo, hi := tl.RateA()
		t.Logf("%v: sensible %.1f%% [%.1f%%, %.1f%%], random %.1f%%, over %d games",
			opts, 100*rate, 100*lo, 100*hi, 100*float64(tl.WinsB)/float64(tl.Games), tl.Games)
		if rate < 0.6 || lo <= 0.5 {
			t.Errorf("%v: sensible wins %.1f%% [%.1f%%, %.1f%%]; want ≥ 60%% with the interval above 50%%", opts, 100*rate, 100*lo, 100*hi)
		}
		if tl.RefusedA != 0 || tl.Unfinished != 0 {
			t.Errorf("%v: %d refused moves, %d unfinished games", opts, tl.RefusedA, tl.Unfinished)
		}
	}
}

// TestSensibleBeatsLikeliest: risking the weakest card when no advantage
// has a real chance beats always taking the likeliest advantage.
// Measured: 65.9% [62.9%, 68.8%] over 1000 games.
func TestSensibleBeatsLikeliest(t *testing.T) {
	tl, err := ai.HeadToHead(Rules, nil, Sensible, Likeliest, policyGames(), 2)
	if err != nil {
		t.Fatal(err)
	}
	rate, lo, hi := tl.RateA()
	t.Logf("sensible vs likeliest: %.1f%% [%.1f%%, %.1f%%]", 100*rate, 100*lo, 100*hi)
	if lo <= 0.5 {
		t.Errorf("sensible wins %.1f%% [%.1f%%, %.1f%%] against likeliest", 100*rate, 100*lo, 100*hi)
	}
}

func choose(t *testing.T, p ai.Policy, st *State, seat int) (games.Action, bool) {
	t.Helper()
	return p.Choose(nil, st.Table(), st.Hand(seat), seat)
}

func mustChoose(t *testing.T, p ai.Policy, st *State, seat int) string {
	t.Helper()
	a, ok := choose(t, p, st, seat)
	if !ok {
		t.Fatalf("seat %d: no move", seat)
	}
	return a.Key()
}

func TestSensibleBeginsAsTheDealer(t *testing.T) {
	st := newGame(t, 2, map[string]int{"swap": 1}, 3)
	if _, ok := choose(t, Sensible, st, 1); ok {
		t.Error("seat 1 moved before the dealer began")
	}
	if got := mustChoose(t, Sensible, st, 0); got != "begin" {
		t.Fatalf("dealer: %s", got)
	}
	apply(t, st, 0, "begin")
	if _, ok := choose(t, Sensible, st, 0); ok {
		t.Error("the dealer moved out of turn (a swap is never worth it)")
	}
}

func TestSensibleChoosesAnAdvantage(t *testing.T) {
	cases := []struct {
		name      string
		opts      map[string]int
		board     []string
		challenge string
		sensible  string
		likeliest string
	}{
		// 5 to beat: the ace is likeliest (29/36) and worth the risk.
		{"easy", nil, []string{"2C", "7C", "KC", "AC", "3C", "4C"}, "5D", "use=mind", "use=mind"},
		// 10 to beat: the ace has 5/36 and risks 11; risk the 2 instead.
		{"hopeless", nil, []string{"AC", "2C", "5C", "7C", "9C", "3C"}, "KD", "use=money", "use=family"},
		// 8 to beat with a 9 (9/36) or a 10 (12/36): a win would gain 8, but
		// either is likelier lost; giving up the 2 costs least.
		{"sacrifice", nil, []string{"2C", "9C", "TC", "-4C", "-5C", "-6C"}, "8D", "use=family", "use=friends"},
		// Snake eyes kill, so against a 2 the lowest win is 3: the 3 has
		// 2/36 and risks 3, the 2 has none and risks 2.
		{"snake", map[string]int{"snake_eyes": 1}, []string{"3C", "2C", "-5C", "-6C", "-7C", "-8C"}, "2D", "use=money", "use=family"},
		// Nothing face up: roll anyway.
		{"bare", nil, []string{"-3C", "-2C", "-5C", "-6C", "-7C", "-8C"}, "2D", "roll", "roll"},
	}
	for _, c := range cases {
		st := newGame(t, 2, c.opts, 4)
		apply(t, st, 0, "begin") // seat 1 is first
		setBoard(t, st, 1, c.board...)
		setChallenge(t, st, c.challenge)
		if got := mustChoose(t, Sensible, st, 1); got != c.sensible {
			t.Errorf("%s: sensible %s, want %s", c.name, got, c.sensible)
		}
		if got := mustChoose(t, Likeliest, st, 1); got != c.likeliest {
			t.Errorf("%s: likeliest %s, want %s", c.name, got, c.likeliest)
		}
		if _, ok := choose(t, Sensible, st, 0); ok {
			t.Errorf("%s: seat 0 moved out of turn", c.name)
		}
	}
}

func TestSensibleReplacesAfterAWin(t *testing.T) {
	cases := []struct {
		board     []string
		challenge string
		want      string
	}{
		{[]string{"9C", "-KC", "8C", "7C", "6C", "5C"}, "3D", "replace=money"}, // a face-down card is worth nothing
		{[]string{"9C", "QC", "8C", "7C", "6C", "5C"}, "7D", "replace=heart"},  // the 7 beats the weakest, the 5
		{[]string{"9C", "QC", "8C", "7C", "6C", "5C"}, "5D", "keep"},           // no better than the weakest
	}
	for _, c := range cases {
		st := newGame(t, 2, nil, 4)
		apply(t, st, 0, "begin")
		setBoard(t, st, 1, c.board...)
		setChallenge(t, st, c.challenge)
		forceRoll(t, st, 8)
		apply(t, st, 1, "use", "family")
		if st.Phase != phaseDecide {
			t.Fatalf("%v: the roll did not win", c.board)
		}
		if got := mustChoose(t, Sensible, st, 1); got != c.want {
			t.Errorf("%v against %s: %s, want %s", c.board, c.challenge, got, c.want)
		}
	}
}

// TestSensibleReadsTheView pins down what the policy reads, so a change of
// wording that blinds it fails here.
func TestSensibleReadsTheView(t *testing.T) {
	st := newGame(t, 2, nil, 4)
	apply(t, st, 0, "begin")
	setBoard(t, st, 1, "AC", "-2C", "TC", "7C", "KH", "3C")
	setChallenge(t, st, "TD")
	v := st.Hand(1)
	c, ok := challengeCard(v.Description)
	if !ok || c != card(t, "TD") {
		t.Fatalf("challenge %v %v from %q", c, ok, v.Description)
	}
	if lo, ok := ai.IntAfter(v.Description, "at least"); !ok || lo != 10 {
		t.Fatalf("lowest win %d %v from %q", lo, ok, v.Description)
	}
	st.SnakeEyes = true
	setChallenge(t, st, "2D")
	if lo, ok := ai.IntAfter(st.Hand(1).Description, "at least"); !ok || lo != 3 {
		t.Fatalf("lowest win with snake eyes %d %v from %q", lo, ok, st.Hand(1).Description)
	}
	want := []string{"AC", "", "TC", "7C", "KH", "3C"}
	noFields := v
	noFields.Fields = nil
	for _, v := range []games.View{v, noFields} {
		b := readBoard(v)
		for i, w := range want {
			if (b[i] == nil) != (w == "") || b[i] != nil && *b[i] != card(t, w) {
				t.Errorf("slot %d: %v, want %q (fields %v)", i, b[i], w, v.Fields)
			}
		}
	}
}
