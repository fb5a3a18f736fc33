package life

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

var (
	_ games.Reactor = (*State)(nil)
	_ games.Talker  = (*State)(nil)
)

// lineBy makes ref a line written by seat to, as /say would, unless ref is
// already someone's line or to is no seat.
func lineBy(st *State, ref string, to int) {
	if _, ok := st.Lines[ref]; ok || to < 0 || to >= len(st.Players) {
		return
	}
	if st.Lines == nil {
		st.Lines = map[string]int{}
	}
	st.Lines[ref] = to
}

func react(t *testing.T, st *State, from, to int, ref string, add bool) []games.Event {
	t.Helper()
	lineBy(st, ref, to)
	ev, err := st.React(from, ref, markerEmoji, add)
	if err != nil {
		t.Fatalf("React(%d→%d %q %v): %v", from, to, ref, add, err)
	}
	return ev
}

func reactRefused(t *testing.T, st *State, from, to int, ref string, add bool) string {
	t.Helper()
	lineBy(st, ref, to)
	before := encode(t, st)
	ev, err := st.React(from, ref, markerEmoji, add)
	var r *games.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("React(%d→%d %q %v): want a refusal, got %v %v", from, to, ref, add, ev, err)
	}
	if string(before) != string(encode(t, st)) {
		t.Fatal("a refused reaction changed the state")
	}
	return r.Msg
}

func markerCounts(st *State, seat int) (given, received, left int) {
	g, r := st.markers(seat)
	return g, r, startMarkers - g
}

func TestMarkers(t *testing.T) {
	st := started(t, 3, nil)

	if msg := reactRefused(t, st, 1, 1, "m1", true); !strings.Contains(msg, "yourself") {
		t.Errorf("self-award: %q", msg)
	}
	reactRefused(t, st, -1, 1, "m1", true) // not a seat
	reactRefused(t, st, 3, 1, "m1", true)
	reactRefused(t, st, 0, 5, "not-a-line", true) // not a line of any player

	ev := react(t, st, 0, 1, "m1", true)
	if len(ev) != 1 || !strings.Contains(ev[0].Text, "Ann gives Bea") {
		t.Fatalf("award events %+v", ev)
	}
	if ev := react(t, st, 0, 1, "m1", true); len(ev) != 0 {
		t.Errorf("a duplicate add produced events %+v", ev)
	}
	if g, r, l := markerCounts(st, 0); g != 1 || r != 0 || l != 2 {
		t.Fatalf("Ann given %d received %d left %d", g, r, l)
	}
	if _, r, _ := markerCounts(st, 1); r != 1 {
		t.Fatalf("Bea received %d", r)
	}
	// The same message rewarded by another player counts separately.
	react(t, st, 2, 1, "m1", true)
	if _, r, _ := markerCounts(st, 1); r != 2 {
		t.Fatalf("Bea received %d", r)
	}

	react(t, st, 0, 2, "m2", true)
	react(t, st, 0, 1, "m3", true)
	if msg := reactRefused(t, st, 0, 2, "m4", true); !strings.Contains(msg, "all 3") {
		t.Errorf("over-award: %q", msg)
	}
	// A duplicate delivery once the markers are all given is still a no-op.
	if ev := react(t, st, 0, 2, "m2", true); len(ev) != 0 {
		t.Error("duplicate at the limit produced events")
	}

	// Removal gives exactly that marker back.
	if ev := react(t, st, 0, 1, "nope", false); len(ev) != 0 {
		t.Error("removing a missing award produced events")
	}
	ev = react(t, st, 0, 1, "m3", false)
	if len(ev) != 1 || !strings.Contains(ev[0].Text, "takes back") {
		t.Fatalf("removal events %+v", ev)
	}
	if g, _, l := markerCounts(st, 0); g != 2 || l != 1 {
		t.Fatalf("after removal Ann given %d left %d", g, l)
	}
	if _, r, _ := markerCounts(st, 1); r != 2 {
		t.Fatalf("after removal Bea received %d", r)
	}
	react(t, st, 0, 2, "m4", true) // the marker is available again

	// Each score shows every term: cards, markers received, markers not given.
	if f := st.Table().Fields[0]; !strings.Contains(f.Name, fmt.Sprintf("— %s = %d on cards + 0 🎭 received − 0 🎭 not given",
		scorePts(st.Score(0)), st.cardPoints(0))) {
		t.Errorf("table markers: %s", f.Name)
	}
	if f := st.Table().Fields[1]; !strings.Contains(f.Name, fmt.Sprintf("— %s = %d on cards + 2 🎭 received − 3 🎭 not given",
		scorePts(st.Score(1)), st.cardPoints(1))) {
		t.Errorf("table markers: %s", f.Name)
	}

	// The awards survive a reload.
	back := reload(t, st)
	if len(back.Awards) != len(st.Awards) {
		t.Fatal("awards lost in the round trip")
	}
	if ev := react(t, back, 2, 1, "m1", true); len(ev) != 0 {
		t.Error("a duplicate after reload counted again")
	}
}

func TestFinalScoreCountsMarkers(t *testing.T) {
	st := started(t, 3, nil)
	react(t, st, 0, 1, "a", true) // Ann gives 1
	react(t, st, 2, 1, "b", true) // Cy gives 1
	react(t, st, 2, 0, "c", true) // Cy gives 2
	react(t, st, 2, 0, "d", true) // Cy gives 3
	setBoard(t, st, 0, "TS", "-TH", "-AS", "-AH", "-AD", "-AC")
	setBoard(t, st, 1, "TS", "-TH", "-AS", "-AH", "-AD", "-AC")
	setBoard(t, st, 2, "TS", "-TH", "-AS", "-AH", "-AD", "-AC")
	res := st.Results()
	// cards 10 each; Ann +2 received −2 unspent; Bea +2 −3; Cy +0 −0.
	if res[0].Score != 10 || res[1].Score != 9 || res[2].Score != 10 {
		t.Fatalf("scores %+v", res)
	}
	if !res[0].Winner || res[1].Winner || !res[2].Winner {
		t.Fatalf("winners %+v", res)
	}
	// Without role play the markers are not scored.
	off := started(t, 1, noRP)
	setBoard(t, off, 0, "TS", "-TH", "-AS", "-AH", "-AD", "-AC")
	if s := off.Results()[0].Score; s != 10 {
		t.Errorf("score without role play %d", s)
	}
	if strings.Contains(off.Table().Fields[0].Name+off.Table().Fields[0].Value, "🎭") {
		t.Error("markers shown without role play")
	}
}

func TestNoMarkersWhenOffOrOver(t *testing.T) {
	off := started(t, 2, noRP)
	if msg := reactRefused(t, off, 0, 1, "m", true); !strings.Contains(msg, "aren't in play") {
		t.Errorf("role play off: %q", msg)
	}
	st := started(t, 2, nil)
	react(t, st, 0, 1, "m", true)
	playOut(t, st)
	if msg := reactRefused(t, st, 1, 0, "late", true); !strings.Contains(msg, "over") {
		t.Errorf("after the end: %q", msg)
	}
	reactRefused(t, st, 0, 1, "m", false)
	if _, r := st.markers(1); r != 1 {
		t.Error("the award changed after the end")
	}
}
