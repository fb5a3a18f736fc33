package improv

import (
	"slices"
	"strings"
	"testing"
)

// Scenario tests from a third reading of the chapter and RULINGS.md 002,
// one rule each.

// orderSeats lists the narration turns by seat, and every side narrated.
func orderSeats(st *State) (seats, sides []int) {
	for _, tn := range st.C.Order {
		seats = append(seats, tn.Seat)
		sides = append(sides, tn.Sides...)
	}
	return seats, sides
}

// Extended conflicts, round narration: everyone narrates the round once,
// from the lowest value to the highest. A protagonist the Hand of Fate has
// just put out of the fight still narrates that round (once), and so does
// the opponent left without anyone to fight.
func TestRoundNarrationAfterEliminationNamesEachSideOnce(t *testing.T) {
	// Bob and Susan against the Foe: Bob ties the Foe exactly, loses the
	// tie-break and leaves the fight; Susan fights on.
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	ev := texts(act(t, st, 1, "fateout"))
	seats, sides := orderSeats(st)
	if !slices.Equal(seats, []int{2, 1, 0}) || !slices.Equal(sides, []int{2, 1, 0}) {
		t.Errorf("round narration seats %v sides %v, want Susan (13), Bob (15, lost the tie-break), the Foe (15): %q", seats, sides, ev)
	}
	if !strings.Contains(ev, "Round 1 narration, lowest first:** Susan (Susan) → Bob (Bob) → the GM (for Foe).") {
		t.Errorf("narration line: %q", ev)
	}

	// One protagonist against the Foe: once Bob is out the Foe has nobody
	// left to fight, yet both narrate the round, once each.
	st = newGame(t, 2, nil)
	startExtended(t, st, "3", "1")
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}}, nil)
	act(t, st, 1, "fateout")
	if st.Phase != PhaseNarrate {
		t.Fatalf("phase %s", st.Phase)
	}
	seats, sides = orderSeats(st)
	if !slices.Equal(seats, []int{1, 0}) || !slices.Equal(sides, []int{1, 0}) {
		t.Errorf("round narration seats %v sides %v, want Bob then the Foe, once each", seats, sides)
	}
	act(t, st, 1, "done")
	act(t, st, 0, "done")
	if st.Phase != PhaseNarrate || !st.C.Final {
		t.Fatalf("phase %s: with nobody left to fight the conflict goes to its final narration", st.Phase)
	}
	checkInvariants(t, st)
}

// Extended conflicts, round narration: a GM stake nobody opposes plays no
// card and narrates only at the end; the NPC beside it that played the
// lowest card narrates the round once, not twice.
func TestRoundNarrationNamesEachNPCOnce(t *testing.T) {
	st := risoAndGoons(t)
	out := playRound(t, st, map[int][]string{0: {"2C"}, 1: {"9H"}, 2: {"KD"}}, nil)
	if len(st.C.Order) == 0 || st.C.Order[0].Seat != 0 || !slices.Equal(st.C.Order[0].Sides, []int{0}) {
		t.Errorf("the GM's turn %+v, want Riso alone", st.C.Order)
	}
	if !strings.Contains(out, "Round 1 narration, lowest first:** the GM (for Riso) → Bob (Bob) → Susan (Susan).") {
		t.Errorf("narration line: %q", out)
	}
}

// Each participant gets a chance to narrate, losers first: a protagonist
// who had no card to play (hand, deck and discards all empty) loses, and
// still narrates first.
func TestCardlessLoserStillNarrates(t *testing.T) {
	st := newGame(t, 2, nil)
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "win instead")
	act(t, st, 0, "cards")
	st.Hands[0] = append(st.Hands[0], st.Deck.Draw...)
	st.Hands[0] = append(st.Hands[0], st.Hands[1]...)
	st.Deck.Draw, st.Hands[1] = nil, nil
	if slices.Contains(st.ToAct(), 1) {
		t.Fatalf("ToAct %v waits for a player with no card to play", st.ToAct())
	}
	act(t, st, 0, "play", st.Hands[0][0].Code())
	out := revealAll(t, st)
	if !strings.Contains(out, "**Foe** beats **Bob** (no card)") {
		t.Errorf("reveal %q", out)
	}
	seats, _ := orderSeats(st)
	if !slices.Equal(seats, []int{1, 0}) {
		t.Errorf("narration seats %v, want Bob (the loser) then the GM: %q", seats, out)
	}
	narrateAll(t, st)
	checkInvariants(t, st)
}

// The largest table: a GM and six players. The GM holds 3 + 6 cards and
// 3 story-tokens per player, the pool 1 per player; nobody else may join.
// In a simple conflict with all six the GM may use 1 + 6 story-tokens.
func TestSixPlayers(t *testing.T) {
	st := newGame(t, 7, nil)
	if len(st.Hands[0]) != 9 || st.Tokens[0] != 18 || st.Pool != 6 {
		t.Errorf("GM %d cards, %d tokens; pool %d", len(st.Hands[0]), st.Tokens[0], st.Pool)
	}
	for seat := 1; seat < 7; seat++ {
		if len(st.Hands[seat]) != 4 || st.Tokens[seat] != 0 {
			t.Errorf("seat %d: %d cards, %d tokens", seat, len(st.Hands[seat]), st.Tokens[seat])
		}
	}
	if _, _, err := st.Join("Late"); err == nil {
		t.Error("a seventh player joined")
	}
	setupConflict(t, st, []string{"1", "2", "3", "4", "5", "6"}, "Horde: overrun the town")
	for seat := 1; seat < 7; seat++ {
		actText(t, st, seat, "stake", "hold the gate")
	}
	deckRound(t, st, 0, 1, 2, 3, 4, 5, 6)
	for range 7 {
		act(t, st, 0, "token")
	}
	wantRefused(t, st, 0, "token", "", "at most 7 story-tokens in this conflict")
	revealAll(t, st)
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	checkInvariants(t, st)
}

// Extended conflicts: the GM may use 2 + 2 per participating player over
// the whole conflict; with four players that is 10 over 3 rounds.
func TestFourPlayerExtendedGMLimit(t *testing.T) {
	st := newGame(t, 5, nil) // the GM holds 12
	startExtended(t, st, "3", "1", "2", "3", "4")
	if st.gmLimit() != 10 {
		t.Fatalf("limit %d, want 10", st.gmLimit())
	}
	all := map[int][]string{0: {"deck"}, 1: {"deck"}, 2: {"deck"}, 3: {"deck"}, 4: {"deck"}}
	for round := 1; round <= 2; round++ {
		playRound(t, st, all, func() {
			for range 5 {
				act(t, st, 0, "token")
			}
		})
		for st.Phase == PhaseFate {
			act(t, st, 0, "hurry")
		}
		narrateAll(t, st)
	}
	playRound(t, st, all, func() {
		wantRefused(t, st, 0, "token", "", "at most 10 story-tokens in this extended conflict")
	})
}
