package improv

import (
	"strings"
	"testing"
)

// Scenarios from a second reading of the chapter, one rule each.

// "If the storeowner beats the robbers but the robbers beat the cops, the
// store is saved but the robbers get away": with all three played by
// players, the robbers (opposing the cops) are also opposed by the
// storeowner, and only partly win.
func TestThreeWayProtagonistsPartlyWin(t *testing.T) {
	st := newGame(t, 4, nil)
	for seat, n := range []string{"", "Cops", "Robbers", "Storeowner"} {
		if seat > 0 {
			actText(t, st, seat, "name", n)
		}
	}
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2", "3")
	act(t, st, 0, "declare")
	for seat, stake := range map[int]string{1: "capture the robbers", 2: "get away with the money", 3: "protect the store"} {
		actText(t, st, seat, "stake", stake)
	}
	act(t, st, 1, "vs", "1") // sides: Cops 0, Robbers 1, Storeowner 2
	act(t, st, 2, "vs", "0")
	act(t, st, 3, "vs", "1")
	act(t, st, 0, "cards")
	setHand(t, st, 1, "5C")
	setHand(t, st, 2, "9H")
	setHand(t, st, 3, "KS")
	act(t, st, 1, "play", "5C")
	act(t, st, 2, "play", "9H")
	act(t, st, 3, "play", "KS")
	out := revealAll(t, st)
	for _, want := range []string{"**Robbers** beats **Cops**", "**Storeowner** beats **Robbers**",
		"won: Storeowner", "partly: Robbers (beat Cops, beaten by Storeowner)", "lost: Cops"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
}

// "The GM may even include mooks without any stake at all in the conflict.
// These mooks are just bystanders and can be taken out even if the player
// got the lowest card total in a round." They are no GM stake: they don't
// count against the limit, can't be opposed, play no card, and never
// narrate or win.
func TestMooksWithoutAStake(t *testing.T) {
	st := newGame(t, 2, nil)
	actText(t, st, 1, "name", "Kit")
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1")
	act(t, st, 0, "rounds", "3")
	actText(t, st, 0, "gmstake", "Riso: gun down Vinny and get away")
	wantRefused(t, st, 0, "gmstake", "Goons: rough them up", "more stakes than participating players (1)")
	actText(t, st, 0, "gmstake", "Patrons (2 mooks)") // no stake: one protagonist is enough
	wantRefused(t, st, 0, "gmstake", "Patrons (3 mooks)", "already")
	act(t, st, 0, "declare")
	if st.C.Sides[2].Opp != 0 {
		t.Fatalf("with one GM stake Kit opposes Riso by default, not side %d", st.C.Sides[2].Opp)
	}
	actText(t, st, 1, "stake", "capture Riso")
	wantRefused(t, st, 1, "vs", "", "Choose one of", "1")
	act(t, st, 0, "cards")
	if got := st.cardSeats(); len(got) != 2 || st.nextUnplayed(0) != 0 {
		t.Fatalf("card seats %v: the GM plays for Riso only", got)
	}
	// Kit has the lowest total and still takes out a patron.
	out := playRound(t, st, map[int][]string{0: {"KS"}, 1: {"2C"}}, nil)
	if strings.Contains(out, "Patrons (GM") || strings.Contains(out, "unopposed") {
		t.Errorf("the bystanders narrate or succeed: %q", out)
	}
	narrateAllBut(t, st, 1)
	act(t, st, 1, "mook", "1")
	act(t, st, 1, "done")
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"KH"}, 1: {"3C"}}, nil)
	narrateAllBut(t, st, 1)
	act(t, st, 1, "mook", "1") // the last one too: they have no goal to pursue
	if st.C.Sides[1].Mooks != 0 {
		t.Fatalf("patrons standing: %d", st.C.Sides[1].Mooks)
	}
	narrateAll(t, st)
	out = playRound(t, st, map[int][]string{0: {"KD"}, 1: {"4C"}}, nil)
	for _, seat := range st.ToAct() {
		out += texts(act(t, st, seat, "ready"))
	}
	if strings.Contains(out, "Patrons") || !strings.Contains(out, "Final narration, losers first:** Kit (Bob) → the GM (for Riso).") {
		t.Errorf("final %q", out)
	}
}
