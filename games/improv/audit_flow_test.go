package improv

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Conflict-flow audit against chapter 4 and RULINGS.md 002, one rule each.

// "Play an additional random card from the deck to determine who wins;
// talent and story tokens are ignored for this tie-breaker." Bob's 6♥ and
// token tie the Foe's 9♥; his 7 would beat the Foe's 8 only with the token.
func TestFateTieBreakIgnoresBonuses(t *testing.T) {
	st := newGame(t, 2, nil)
	giveTokens(st, 1, 1)
	toBonus(t, st, "6H", "9H")
	act(t, st, 1, "token")
	stackDeck(t, st, "7D", "8C") // Bob's draw, then the Foe's
	out := revealAll(t, st)
	cl := st.C.Clashes[0]
	if len(cl.Fate) != 1 || cl.Winner != 0 {
		t.Fatalf("fate %v, winner side %d; want one draw won by the Foe: %q", cl.Fate, cl.Winner, out)
	}
	if !strings.Contains(out, "Fate draws 7♦ for Bob and 8♣ for Foe.") {
		t.Errorf("reveal %q", out)
	}
	if seats, _ := orderSeats(st); !slices.Equal(seats, []int{1, 0}) {
		t.Errorf("narration seats %v, want the tie-break loser first", seats)
	}
}

// The Hand of Fate is between "you and your opponent": in a multi-way
// conflict only the exactly tied pair draws; an equal total of another
// suit is settled by suit (RULINGS 002). Narration goes by the same order:
// the fate loser, the Foe, then Susan who beat it by suit.
func TestFateOnlyForTheExactlyTiedPair(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 1, 1)
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "9H")
	setHand(t, st, 1, "6H")
	setHand(t, st, 2, "9S")
	act(t, st, 0, "play", "9H")
	act(t, st, 1, "play", "6H")
	act(t, st, 2, "play", "9S")
	act(t, st, 1, "token") // 6♥ + 3 = 9♥, the Foe's total and suit
	stackDeck(t, st, "2C", "9D")
	out := revealAll(t, st)
	if n := strings.Count(out, "The Hand of Fate!"); n != 1 {
		t.Errorf("%d Hand of Fate draws, want 1: %q", n, out)
	}
	for _, want := range []string{"**Susan** beats **Foe** (same total, higher suit)", "Fate draws 2♣ for Bob and 9♦ for Foe.",
		"partly: Foe (beat Bob, beaten by Susan)"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	if seats, _ := orderSeats(st); !slices.Equal(seats, []int{1, 0, 2}) {
		t.Errorf("narration seats %v, want Bob, the GM, Susan", seats)
	}
}

// Extended rounds narrate "from low value to high value", and a card's
// value counts its bonuses: Bob's 2♣ with two tokens (8) narrates after
// the Foe's 7♦, Susan's 6♥ first.
func TestRoundNarrationByTotalsWithBonuses(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 1, 2)
	startExtended(t, st, "3", "1", "2")
	out := playRound(t, st, map[int][]string{0: {"7D"}, 1: {"2C"}, 2: {"6H"}}, func() {
		act(t, st, 1, "token")
		act(t, st, 1, "token")
	})
	if !strings.Contains(out, "Round 1 narration, lowest first:** Susan (Susan) → the GM (for Foe) → Bob (Bob).") {
		t.Errorf("round narration: %q", out)
	}
	if p := st.C.Sides[0].Pile; !slices.Equal(p, []games.Card{card(t, "7D")}) {
		t.Errorf("the Foe beat Susan and keeps its card: pile %v", p)
	}
	if p := st.C.Sides[1].Pile; !slices.Equal(p, []games.Card{card(t, "2C")}) {
		t.Errorf("Bob beat the Foe and keeps his card: pile %v", p)
	}
	if len(st.C.Sides[2].Pile) != 0 {
		t.Errorf("Susan lost and discards: pile %v", st.C.Sides[2].Pile)
	}
}

// "Sets with more cards beat sets with fewer cards": two low victory
// cards beat a lone Joker.
func TestFinalBiggerPileBeatsAJoker(t *testing.T) {
	st := newGame(t, 2, nil)
	startExtended(t, st, "3", "1")
	playRound(t, st, map[int][]string{0: {"2D"}, 1: {"3C"}}, nil)
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"2H"}, 1: {"4C"}}, nil)
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"5C"}}, nil)
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s after the last round: its narration is skipped", st.Phase)
	}
	var ev []games.Event
	for _, seat := range st.ToAct() {
		ev = append(ev, act(t, st, seat, "ready")...)
	}
	out := texts(ev)
	if w := st.clashOf(0, 1).Winner; w != 1 || !strings.Contains(out, "**Bob** beats **Foe** (victory cards)") {
		t.Errorf("winner side %d: %q", w, out)
	}
	if !strings.Contains(out, "Final narration, losers first:** the GM (for Foe) → Bob (Bob).") {
		t.Errorf("final narration: %q", out)
	}
}

// A GM stake that loses the Hand of Fate may be eliminated like anyone:
// its victory cards go, the protagonists facing it have nobody left to
// fight, and after the round's narration the conflict goes to its gifts
// and final victory, which both protagonists win.
func TestGMStakeEliminatedByTheHandOfFate(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2") // Foe 0, Bob 1, Susan 2
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"3D"}}, nil)
	narrateAll(t, st)
	if p := st.C.Sides[0].Pile; len(p) != 1 {
		t.Fatalf("the Foe won round 1: pile %v", p)
	}
	stackDeck(t, st, "9D", "2C") // Bob's draw beats the Foe's
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"4D"}}, nil)
	if st.Phase != PhaseFate || !slices.Equal(st.ToAct(), []int{0}) {
		t.Fatalf("phase %s ToAct %v: the GM chooses for the Foe", st.Phase, st.ToAct())
	}
	ev := texts(act(t, st, 0, "fateout"))
	if st.C.Sides[0].Out != outEliminated || len(st.C.Sides[0].Pile) != 0 {
		t.Fatalf("Foe %+v: %q", st.C.Sides[0], ev)
	}
	if p := st.C.Sides[1].Pile; !slices.Equal(p, []games.Card{card(t, "X1")}) {
		t.Errorf("Bob won the Hand of Fate and keeps his Joker: pile %v", p)
	}
	gifts := narrateAll(t, st)
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s: with the only opponent out no third round is played", st.Phase)
	}
	if !strings.Contains(gifts, "no one is left to fight after round 2 of 3") || strings.Contains(gifts, "the last round is over") {
		t.Errorf("the story says the third round was played: %q", gifts)
	}
	if rs := st.recipients(1); !slices.Equal(rs, []int{2}) {
		t.Errorf("Bob may give to %v, want Susan only (the Foe is out)", rs)
	}
	var out []games.Event
	for _, seat := range st.ToAct() {
		out = append(out, act(t, st, seat, "ready")...)
	}
	text := texts(out)
	for _, want := range []string{"**Bob** beats **Foe** (out of the fight)", "**Susan** beats **Foe** (out of the fight)",
		"won: Bob and Susan", "lost: Foe"} {
		if !strings.Contains(text, want) {
			t.Errorf("final %q lacks %q", text, want)
		}
	}
	narrateAll(t, st)
	checkInvariants(t, st)
}

// "Protagonist vs. protagonist conflicts are also possible", extended too:
// the GM plays no card and has no victory pile; each protagonist keeps
// the cards that beat the other and the piles decide.
func TestExtendedProtagonistAgainstProtagonist(t *testing.T) {
	st := newGame(t, 3, nil)
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2")
	act(t, st, 0, "rounds", "2")
	act(t, st, 0, "declare")
	actText(t, st, 1, "stake", "I lead")
	actText(t, st, 2, "stake", "no, I lead")
	act(t, st, 0, "cards")
	if got := st.ToAct(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("ToAct %v in the card play, want the two players", got)
	}
	playRound(t, st, map[int][]string{1: {"KH"}, 2: {"2D"}}, nil)
	if seats, _ := orderSeats(st); !slices.Equal(seats, []int{2, 1}) {
		t.Errorf("round narration seats %v", seats)
	}
	narrateAll(t, st)
	playRound(t, st, map[int][]string{1: {"3C"}, 2: {"4D"}}, nil)
	if st.Phase != PhaseGifts || !slices.Equal(st.giftSeats(), []int{1, 2}) {
		t.Fatalf("phase %s, gift seats %v", st.Phase, st.giftSeats())
	}
	var out []games.Event
	for _, seat := range st.ToAct() {
		out = append(out, act(t, st, seat, "ready")...)
	}
	text := texts(out)
	for _, want := range []string{"**Bob** beats **Susan** (victory cards)", "won: Bob", "lost: Susan",
		"Final narration, losers first:** Susan (Susan) → Bob (Bob)."} {
		if !strings.Contains(text, want) {
			t.Errorf("final %q lacks %q", text, want)
		}
	}
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	checkInvariants(t, st)
}

// A Joker is worth 15 during a round (RULINGS 002), not unbeatable: an
// Ace with one story-token (17) beats it, while a bare Ace loses to it.
func TestJokerIsWorthFifteenInARound(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 2, 1)
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "X0")
	setHand(t, st, 1, "AS")
	setHand(t, st, 2, "AH")
	act(t, st, 0, "play", "X0")
	act(t, st, 1, "play", "AS")
	act(t, st, 2, "play", "AH")
	act(t, st, 2, "token")
	out := revealAll(t, st)
	if st.C.Sides[0].Total != 15 || st.C.Sides[2].Total != 17 {
		t.Fatalf("totals: Joker %d, A♥ + token %d", st.C.Sides[0].Total, st.C.Sides[2].Total)
	}
	for _, want := range []string{"**Foe** beats **Bob** (higher total)", "**Susan** beats **Foe** (higher total)",
		"partly: Foe (beat Bob, beaten by Susan)"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	if seats, _ := orderSeats(st); !slices.Equal(seats, []int{1, 0, 2}) {
		t.Errorf("narration seats %v, want 14, 15, 17", seats)
	}
}

// Mooks fall to a "higher card value for this round", as Kit decks a goon
// in the book's round 2 while fighting Riso: a protagonist who lost to
// their own opponent may still take one out if they out-total the mooks.
func TestMookTakenOutByAnotherStakesLoser(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "name", "Kit")
	actText(t, st, 2, "name", "Diana")
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2")
	act(t, st, 0, "rounds", "3")
	actText(t, st, 0, "gmstake", "Riso: get away")
	actText(t, st, 0, "gmstake", "Goons (3 mooks): rough up the agents")
	act(t, st, 0, "declare")
	actText(t, st, 1, "stake", "capture Riso")
	actText(t, st, 2, "stake", "take down the goons")
	act(t, st, 1, "vs", "0")
	act(t, st, 2, "vs", "1")
	act(t, st, 0, "cards")
	playRound(t, st, map[int][]string{0: {"KS", "5C"}, 1: {"QH"}, 2: {"9D"}}, nil)
	// Lowest first: Goons 5, Diana 9, Kit 12, Riso 13.
	narrateAllBut(t, st, 1)
	if !st.beats(0, 2) {
		t.Fatal("Riso should beat Kit this round")
	}
	wantRefused(t, st, 1, "mook", "", "isn't a group of mooks", "0") // Riso has his own stake
	ev := act(t, st, 1, "mook", "1")
	if st.C.Sides[1].Mooks != 2 || !strings.Contains(texts(ev), "Kit takes out one of the Goons (2 left)") {
		t.Errorf("goons %d: %q", st.C.Sides[1].Mooks, texts(ev))
	}
	act(t, st, 1, "done")
	checkInvariants(t, st)
}
