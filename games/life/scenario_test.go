package life

import (
	"slices"
	"testing"
)

// Scenario tests for rule combinations the other tests leave unplayed: the
// snake-eyes ruling meeting turn order, the Romance/Career swap and the
// scoring of the winner.

var snakeNoRP = map[string]int{"roleplay": 0, "snake_eyes": 1}

// Rule 6 with the snake-eyes ruling: when the character left of the dealer
// dies, every later round starts with the next living seat, the dealer
// still last; the dead seat never draws again.
func TestScenarioRoundsStartWithTheNextLivingSeatAfterADeath(t *testing.T) {
	st := started(t, 3, snakeNoRP)
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "family") // Bea, left of the dealer, dies in Childhood
	var order []int
	for !st.Over() {
		seat := st.ToAct()[0]
		order = append(order, seat)
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, seat)
	}
	want := []int{2, 0} // the rest of Childhood
	for range rounds - 1 {
		want = append(want, 2, 0)
	}
	if !slices.Equal(order, want) {
		t.Fatalf("turns after the death %v, want %v", order, want)
	}
	if len(st.History[1]) != 1 || len(st.History[0]) != rounds || len(st.History[2]) != rounds {
		t.Fatalf("chapters %d/%d/%d", len(st.History[0]), len(st.History[1]), len(st.History[2]))
	}
}

// Rule 11 with the snake-eyes ruling: a dead character's face-up cards at
// death are their score, and with the highest score they win.
func TestScenarioDeadCharacterCanStillWin(t *testing.T) {
	st := started(t, 2, snakeNoRP)
	setBoard(t, st, 1, "AS", "AH", "AD", "AC", "KS", "KH") // 64 on the cards
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "mind")
	if !st.dead(1) {
		t.Fatal("snake eyes should have killed Bea")
	}
	for !st.Over() {
		seat := st.ToAct()[0]
		setBoard(t, st, seat, "2S", "2H", "2D", "2C", "3S", "3H")
		forceRoll(t, st, 12) // every advantage fails
		playTurnKeeping(t, st, seat)
	}
	res := st.Results()
	if res[1].Score != 64 || !res[1].Winner || res[0].Winner {
		t.Fatalf("results %+v: the dead Bea's 64 should win", res)
	}
}

// The snake-eyes ruling with the swap: a character who swapped and dies in
// the third round dies in their own Career, and that is the stage recorded.
func TestScenarioDeathAfterASwapIsInThePlayersOwnStage(t *testing.T) {
	st := newGame(t, 1, map[string]int{"roleplay": 0, "snake_eyes": 1, "swap": 1}, 5)
	apply(t, st, 0, "swap")
	apply(t, st, 0, "begin")
	for st.Round < 2 {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, 0)
	}
	forceDice(t, st, 1, 1)
	playTurnKeeping(t, st, 0)
	if !st.Over() || st.DiedIn[0] != 3 || lastChapter(t, st, 0).Stage != 3 {
		t.Fatalf("over %v, died in stage %d, last chapter %+v: want Career (3)", st.Over(), st.DiedIn[0], lastChapter(t, st, 0))
	}
}

// Rules 8 and 9: after a loss the challenge goes to the discards while the
// lost advantage stays on the board face down, so a later win can replace
// it, and only then is the old card discarded.
func TestScenarioLostCardStaysOnTheBoardUntilReplaced(t *testing.T) {
	st := started(t, 1, noRP)
	setBoard(t, st, 0, "9S", "8H", "7D", "6C", "5S", "4H")
	setChallenge(t, st, "QC")
	forceRoll(t, st, 10)
	apply(t, st, 0, "use", "family") // 10 > 9: lost
	if sl := st.Boards[0][0]; sl.Up || sl.Card != card(t, "9S") {
		t.Fatalf("Family after the loss %+v: want the 9♠ face down", sl)
	}
	if slices.Contains(st.Pile.Discard, card(t, "9S")) || !slices.Contains(st.Pile.Discard, card(t, "QC")) {
		t.Fatalf("discards %v: want the Q♣ challenge, not the lost 9♠", st.Pile.Discard)
	}
	setChallenge(t, st, "TD")
	forceRoll(t, st, 10)
	setBoard(t, st, 0, "-9S", "AH", "7D", "6C", "5S", "4H")
	apply(t, st, 0, "use", "money")
	apply(t, st, 0, "replace", "family")
	if sl := st.Boards[0][0]; !sl.Up || sl.Card != card(t, "TD") {
		t.Fatalf("Family after the replacement %+v", sl)
	}
	if !slices.Contains(st.Pile.Discard, card(t, "9S")) || slices.Contains(st.Pile.Discard, card(t, "TD")) {
		t.Fatalf("discards %v: want the replaced 9♠ there and the T♦ on the board", st.Pile.Discard)
	}
}
