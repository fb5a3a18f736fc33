package improv

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Scenario tests from an audit of the chapter and RULINGS.md 002, one rule
// (or worked example) each.

// RULINGS 002: players start with 4 cards and no story-tokens; the GM with
// 3 cards + 1 per player and 3 story-tokens per player; the pool with 1 per
// player. One 54-card deck with two Jokers serves everyone.
func TestSetUpHandsAndTokens(t *testing.T) {
	st := newGame(t, 4, nil) // the GM and three players
	for seat := 1; seat < 4; seat++ {
		if len(st.Hands[seat]) != 4 || st.Tokens[seat] != 0 {
			t.Errorf("seat %d: %d cards, %d tokens; want 4 and none", seat, len(st.Hands[seat]), st.Tokens[seat])
		}
	}
	if len(st.Hands[0]) != 3+3 || st.Tokens[0] != 3*3 || st.Pool != 3 || st.Bank != 0 || st.Spent != 0 {
		t.Errorf("GM %d cards, %d tokens; pool %d, bank %d, out %d", len(st.Hands[0]), st.Tokens[0], st.Pool, st.Bank, st.Spent)
	}
	all := slices.Clone(st.Deck.Draw)
	for _, h := range st.Hands {
		all = append(all, h...)
	}
	jokers := 0
	seen := map[games.Card]bool{}
	for _, c := range all {
		seen[c] = true
		if c.Rank == games.Joker {
			jokers++
		}
	}
	if len(all) != 54 || len(seen) != 54 || jokers != 2 {
		t.Errorf("%d cards, %d different, %d Jokers", len(all), len(seen), jokers)
	}
}

// Hands are refilled after every conflict (RULINGS 002), not between the
// rounds of an extended one: its rounds are played from what is left.
func TestHandsRefilledAfterTheConflictNotBetweenRounds(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	setHand(t, st, 0, "KS", "KH", "KD", "KC", "QS")
	setHand(t, st, 1, "2C", "3C", "4C", "5C")
	setHand(t, st, 2, "2D", "3D", "4D", "5D")
	plays := [][3]string{{"KS", "2C", "2D"}, {"KH", "3C", "3D"}, {"KD", "4C", "4D"}}
	for r, p := range plays {
		for seat, code := range p {
			act(t, st, seat, "play", code)
		}
		for _, seat := range st.ToAct() {
			act(t, st, seat, "ready")
		}
		if got := []int{len(st.Hands[0]), len(st.Hands[1]), len(st.Hands[2])}; !slices.Equal(got, []int{4 - r, 3 - r, 3 - r}) {
			t.Fatalf("round %d: hands %v, want no refill during the conflict", r+1, got)
		}
		narrateAll(t, st)
	}
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s after the last round", st.Phase)
	}
	act(t, st, 0, "ready")
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	if got := []int{len(st.Hands[0]), len(st.Hands[1]), len(st.Hands[2])}; !slices.Equal(got, []int{5, 4, 4}) {
		t.Errorf("hands %v after the conflict, want 3 + 2 for the GM and 4 each", got)
	}
}

// RULINGS 002: one shared deck; the discards are reshuffled into it when it
// runs out, for a card played from the deck and for the refill.
func TestDiscardsReshuffledWhenTheDeckRunsOut(t *testing.T) {
	st := newGame(t, 2, nil)
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "win instead")
	act(t, st, 0, "cards")
	st.Deck.Discard = append(st.Deck.Discard, st.Deck.Draw...)
	st.Deck.Draw = nil
	ev := act(t, st, 1, "play", "deck")
	if !strings.Contains(texts(ev), "the discards were shuffled into a new deck") || st.C.Sides[1].Card == nil {
		t.Fatalf("play from an empty deck: %q", texts(ev))
	}
	act(t, st, 0, "play", st.Hands[0][0].Code())
	revealAll(t, st)
	st.Deck.Discard = append(st.Deck.Discard, st.Deck.Draw...)
	st.Deck.Draw = nil
	narrateAll(t, st)
	if len(st.Hands[0]) != 4 || len(st.Hands[1]) != 4 {
		t.Errorf("hands %d and %d after a refill from the discards", len(st.Hands[0]), len(st.Hands[1]))
	}
	checkInvariants(t, st)
}

// The chapter's multi-stake example: cops and a storeowner both oppose the
// robbers; the outcome follows who beats whom, pair by pair.
func TestExampleCopsRobbersAndStoreowner(t *testing.T) {
	for _, tc := range []struct {
		name                string
		robbers, cops, shop string
		want                []string
	}{
		{"both beat the robbers", "5C", "9H", "KS",
			[]string{"won: Cops and Storeowner", "lost: Robbers"}},
		{"the robbers beat both", "KS", "9H", "5C",
			[]string{"won: Robbers", "lost: Cops and Storeowner"}},
		{"the storeowner beats the robbers, the robbers beat the cops", "9H", "5C", "KS",
			[]string{"partly: Robbers (beat Cops, beaten by Storeowner)"}},
		{"the cops beat the robbers, the robbers beat the storeowner", "9H", "KS", "5C",
			[]string{"partly: Robbers (beat Storeowner, beaten by Cops)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t, 3, nil)
			actText(t, st, 1, "name", "Cops")
			actText(t, st, 2, "name", "Storeowner")
			setupConflict(t, st, []string{"1", "2"}, "Robbers: get away with the money")
			actText(t, st, 1, "stake", "capture the robbers")
			actText(t, st, 2, "stake", "protect the store")
			act(t, st, 0, "cards")
			setHand(t, st, 0, tc.robbers)
			setHand(t, st, 1, tc.cops)
			setHand(t, st, 2, tc.shop)
			act(t, st, 0, "play", tc.robbers)
			act(t, st, 1, "play", tc.cops)
			act(t, st, 2, "play", tc.shop)
			out := revealAll(t, st)
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("reveal %q lacks %q", out, want)
				}
			}
		})
	}
}

// The two ends of the Hand of Fate's choice in an extended conflict.
// Leaving: stakes lost and every victory card removed, so the opponent
// wins with fewer. Staying: only the round is lost; the earlier victory
// cards still count.
func TestHandOfFateLeaveOrStay(t *testing.T) {
	for _, leave := range []bool{true, false} {
		st := newGame(t, 2, nil)
		startExtended(t, st, "3", "1")
		playRound(t, st, map[int][]string{0: {"5C"}, 1: {"9H"}}, nil)
		narrateAll(t, st)
		playRound(t, st, map[int][]string{0: {"6C"}, 1: {"TH"}}, nil)
		narrateAll(t, st)
		if p := st.C.Sides[1].Pile; len(p) != 2 {
			t.Fatalf("the protagonist's pile %v after two won rounds", p)
		}
		stackDeck(t, st, "2C", "9D")
		playRound(t, st, map[int][]string{0: {"5S"}, 1: {"8S"}}, func() {
			act(t, st, 0, "token") // 5♠ + 3 = 8♠: an exact tie
		})
		if st.Phase != PhaseFate {
			t.Fatalf("phase %s after an exact tie lost", st.Phase)
		}
		if leave {
			act(t, st, 1, "fateout")
			if len(st.C.Sides[1].Pile) != 0 || !slices.Contains(st.Deck.Discard, card(t, "9H")) {
				t.Errorf("an eliminated side keeps %v", st.C.Sides[1].Pile)
			}
			if w := st.clashOf(0, 1).Winner; w != 0 || st.Phase != PhaseNarrate || !st.C.Final {
				t.Errorf("phase %s, final winner %d: the Foe wins with 1 card against none", st.Phase, w)
			}
		} else {
			act(t, st, 1, "fatestay")
			if len(st.C.Sides[1].Pile) != 2 || !st.C.Sides[1].Harmed {
				t.Errorf("a harmed side keeps its cards: %+v", st.C.Sides[1])
			}
			for _, seat := range st.ToAct() {
				if st.Phase == PhaseGifts {
					act(t, st, seat, "ready")
				}
			}
			if w := st.clashOf(0, 1).Winner; w != 1 || !st.C.Final {
				t.Errorf("phase %s, final winner %d: the harmed protagonist wins 2 cards to 1", st.Phase, w)
			}
		}
		checkInvariants(t, st)
	}
}

// The chapter's alternate ending: Diana and Kit give Jason a Jack and the
// Joker. Jason's three cards (Joker high) now beat Riso's three (Ace
// high); Riso still beats Kit; Diana's remaining Jack loses to the goons'
// King. Jason can reward only one helper: one award per player per round.
func TestExampleExtendedAlternateEnding(t *testing.T) {
	st := exampleToGifts(t, nil)
	act(t, st, 3, "to", "3")
	act(t, st, 3, "give", "JH")
	act(t, st, 1, "to", "3")
	act(t, st, 1, "give", "X0")
	// The GM lets the goons keep their King; Jason keeps his 10.
	var out []games.Event
	for _, seat := range st.ToAct() {
		out = append(out, act(t, st, seat, "ready")...)
	}
	text := texts(out)
	for _, want := range []string{"• **Jason**: 🃏 Joker J♥ 10♦", "**Jason** beats **Riso** (victory cards)", "**Riso** beats **Kit** (victory cards)",
		"**Goons** beats **Diana** (victory cards)", "partly: Riso (beat Kit, beaten by Jason)"} {
		if !strings.Contains(text, want) {
			t.Errorf("final %q lacks %q", text, want)
		}
	}
	kit, _ := st.Say(1, "Kit", "I'll hold Riso off.")
	diana, _ := st.Say(3, "Diana", "Watch out, Kit!")
	react(t, st, 2, kit[0].Ref, true)
	reactRefused(t, st, 2, diana[0].Ref, true, "already given a story-token")
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
}

// Final victory: the bigger pile wins, equal piles by their highest
// values, then (RULINGS 002) by suit; identical piles call the Hand of
// Fate, as the rules summary says.
func TestFinalVictoryTies(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hero, foe [2]string // round 1: the protagonist wins; round 2: the Foe
		fate      []string
		winner    int
		wantText  string
	}{
		{"highest value", [2]string{"9H", "5C"}, [2]string{"2D", "KC"}, nil, 0, "**Foe** beats **Bob** (victory cards)"},
		{"then suit", [2]string{"9S", "5C"}, [2]string{"2D", "9H"}, nil, 1, "**Bob** beats **Foe** (victory cards)"},
		{"identical: the Hand of Fate", [2]string{"X0", "5C"}, [2]string{"2D", "X1"}, []string{"3C", "8D"}, 0, "The Hand of Fate!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t, 2, nil)
			startExtended(t, st, "2", "1")
			playRound(t, st, map[int][]string{0: {tc.hero[1]}, 1: {tc.hero[0]}}, nil)
			narrateAll(t, st)
			playRound(t, st, map[int][]string{0: {tc.foe[1]}, 1: {tc.foe[0]}}, nil)
			if len(tc.fate) > 0 {
				stackDeck(t, st, tc.fate...)
			}
			var out []games.Event
			for _, seat := range st.ToAct() {
				out = append(out, act(t, st, seat, "ready")...)
			}
			if st.Phase != PhaseNarrate || !st.C.Final {
				t.Fatalf("phase %s", st.Phase)
			}
			if w := st.clashOf(0, 1).Winner; w != tc.winner || !strings.Contains(texts(out), tc.wantText) {
				t.Errorf("winner side %d, want %d: %q", w, tc.winner, texts(out))
			}
			if st.C.Sides[0].Out != "" || st.C.Sides[1].Out != "" {
				t.Error("a final Hand of Fate put a side out")
			}
		})
	}
}

// A destroyed protagonist keeps its victory cards and gives them all away
// at the end, split as it likes; it can still spend story-tokens but no
// talents. No bonuses at all once the last round is over.
func TestDestroyedGivesAwayAllItsVictoryCards(t *testing.T) {
	st := newGame(t, 4, nil)
	actText(t, st, 1, "addtal", "Kung fu 5")
	startExtended(t, st, "5", "1", "2", "3") // Foe 0; Bob 1, Susan 2, Carl 3
	playRound(t, st, map[int][]string{0: {"5C"}, 1: {"AH"}, 2: {"2D"}, 3: {"3D"}}, nil)
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"6C"}, 1: {"KH"}, 2: {"4D"}, 3: {"2H"}}, nil)
	narrateAll(t, st)
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"6S"}, 1: {"9S"}, 2: {"KD"}, 3: {"3H"}}, func() {
		act(t, st, 0, "token") // 6♠ + 3 = 9♠ against Bob's 9♠
	})
	act(t, st, 1, "fatestay")
	narrateAll(t, st)
	stackDeck(t, st, "3C", "9H")
	playRound(t, st, map[int][]string{0: {"4S"}, 1: {"7S"}, 2: {"QD"}, 3: {"4H"}}, func() {
		act(t, st, 0, "token") // 4♠ + 3 = 7♠ against Bob's 7♠
	})
	if st.C.Sides[1].Out != outDestroyed {
		t.Fatalf("Bob %+v", st.C.Sides[1])
	}
	if p := st.C.Sides[1].Pile; len(p) != 2 {
		t.Fatalf("a destroyed protagonist keeps its victory cards, got %v", p)
	}
	narrateAll(t, st)
	giveTokens(st, 1, 1)
	playRound(t, st, map[int][]string{0: {"8C"}, 2: {"JD"}, 3: {"5H"}}, func() {
		wantRefused(t, st, 1, "usetal", "", "out of the fight", "0")
		act(t, st, 1, "aim", "2")
		act(t, st, 1, "token") // to help Susan
	})
	if st.C.Sides[2].Total != 11+3 {
		t.Errorf("Susan's total %d with Bob's token", st.C.Sides[2].Total)
	}
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s", st.Phase)
	}
	giveTokens(st, 2, 1)
	wantRefused(t, st, 2, "token", "", "victory cards are being given")
	wantRefused(t, st, 1, "give", "", "Only a destroyed protagonist without victory cards", "deck")
	act(t, st, 1, "to", "2")
	act(t, st, 1, "give", "AH")
	act(t, st, 1, "to", "3")
	act(t, st, 1, "give", "KH")
	wantRefused(t, st, 1, "give", "", "only one of your own", "KH")
	if !slices.Contains(st.C.Sides[2].Got, card(t, "AH")) || !slices.Contains(st.C.Sides[3].Got, card(t, "KH")) {
		t.Errorf("gifts: Susan %v, Carl %v", st.C.Sides[2].Got, st.C.Sides[3].Got)
	}
	act(t, st, 0, "hurry")
	if st.Phase != PhaseNarrate || !st.C.Final {
		t.Fatalf("phase %s", st.Phase)
	}
	wantRefused(t, st, 2, "token", "", "being narrated")
	checkInvariants(t, st)
}

// "If the GM starts the conflict with fewer tokens than his limit, he is
// limited to the number he started with": taking the bank mid-conflict
// doesn't raise it.
func TestGMBankMidConflictKeepsTheStartLimit(t *testing.T) {
	st := newGame(t, 2, nil) // the GM holds 3; the limit would be 2 + 2 = 4
	giveTokens(st, 1, 1)
	startExtended(t, st, "3", "1")
	if st.gmLimit() != 3 {
		t.Fatalf("limit %d, want the 3 held", st.gmLimit())
	}
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"TH"}}, func() {
		act(t, st, 1, "token") // red on red: to the bank
		act(t, st, 0, "token")
	})
	if st.Bank != 1 {
		t.Fatalf("bank %d", st.Bank)
	}
	act(t, st, 0, "bank")
	if st.Tokens[0] != 3 {
		t.Fatalf("the GM holds %d", st.Tokens[0])
	}
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"8D"}, 1: {"2D"}}, func() { act(t, st, 0, "token") })
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"7D"}, 1: {"3D"}}, func() {
		act(t, st, 0, "token")
		wantRefused(t, st, 0, "token", "", "at most 3 story-tokens in this extended conflict")
	})
}

// Talents in an extended conflict: one per player per round, every round
// if uses are left, each checked off against the session cap.
func TestTalentsRoundByRound(t *testing.T) {
	st := newGame(t, 2, map[string]int{OptTalentCap: 2})
	actText(t, st, 1, "addtal", "Kung fu 5")
	actText(t, st, 1, "addtal", "Charm 5")
	startExtended(t, st, "3", "1")
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}}, func() {
		act(t, st, 1, "usetal", "0")
		wantRefused(t, st, 1, "usetal", "", "one talent per player per round", "1")
	})
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"3H"}}, func() { act(t, st, 1, "usetal", "1") })
	if h := st.Heroes[1]; h.Talents[0].Uses != 4 || h.Talents[1].Uses != 4 || h.SessionUses != 2 {
		t.Fatalf("talents %+v", h)
	}
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"9S"}, 1: {"4H"}}, func() {
		wantRefused(t, st, 1, "usetal", "", "the cap", "0")
	})
}

// Awards: at most one per player per round, and each round of an extended
// conflict is a round.
func TestAwardsRoundByRound(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"KD"}}, nil)
	first, _ := st.Say(2, "Susan", "Round one!")
	other, _ := st.Say(2, "Susan", "Still round one.")
	react(t, st, 1, first[0].Ref, true)
	reactRefused(t, st, 1, other[0].Ref, true, "already given")
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"3H"}, 2: {"QD"}}, nil)
	second, _ := st.Say(2, "Susan", "Round two!")
	react(t, st, 1, second[0].Ref, true)
	if st.Tokens[2] != 2 {
		t.Errorf("Susan holds %d tokens after an award in each round", st.Tokens[2])
	}
}

// A round's narration can be awarded once it is told, while the next
// round's cards are played (the book's example awards Diana's line between
// rounds 2 and 3); the next round's narration starts a new window.
func TestRoundAwardsOutlastTheirNarration(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"KD"}}, nil)
	told, _ := st.Say(2, "Susan", "Pistol whip!")
	narrateAll(t, st)
	if st.Phase != PhaseCards || st.C.Round != 2 {
		t.Fatalf("phase %s round %d", st.Phase, st.C.Round)
	}
	react(t, st, 1, told[0].Ref, true)
	between, _ := st.Say(2, "Susan", "Said while the cards go down.")
	reactRefused(t, st, 1, between[0].Ref, true, "already given")
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"3H"}, 2: {"QD"}}, nil)
	reactRefused(t, st, 1, between[0].Ref, true, "during or after the current conflict's narration")
	second, _ := st.Say(2, "Susan", "Round two!")
	react(t, st, 1, second[0].Ref, true)
	if st.Tokens[2] != 2 {
		t.Errorf("Susan holds %d tokens after an award for each round", st.Tokens[2])
	}
}

// GM-only moves, tried by a player at a time they would be allowed.
func TestGMOnlyMoves(t *testing.T) {
	st := newGame(t, 3, nil)
	try := func(verb, text string, args ...string) {
		t.Helper()
		wantRefused(t, st, 1, verb, text, "Only the GM", args...)
	}
	st.Pool--
	st.Bank++
	for _, v := range []string{"open", "session", "bank", "end", "kit"} {
		try(v, "END")
	}
	act(t, st, 0, "open")
	try("who", "", "1")
	act(t, st, 0, "who", "1", "2")
	for _, v := range []string{"gmstake", "unstake", "declare", "cancel"} {
		try(v, "Foe: win")
	}
	try("rounds", "", "3")
	act(t, st, 0, "rounds", "3")
	actText(t, st, 0, "gmstake", "Foe: win")
	act(t, st, 0, "declare")
	try("cards", "")
	try("hurry", "")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	try("hurry", "")
	try("cancel", "")
	stackDeck(t, st, "2C", "9D") // Bob loses the Hand of Fate
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, func() {
		try("hurry", "")
		try("cancel", "")
	})
	if st.Phase != PhaseFate {
		t.Fatalf("phase %s", st.Phase)
	}
	try("hurry", "")
	act(t, st, 1, "fatestay")
	try("skip", "")
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"3C"}, 1: {"4H"}, 2: {"5D"}}, nil)
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"6C"}, 1: {"7H"}, 2: {"8D"}}, nil)
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s", st.Phase)
	}
	try("from", "", "0")
	try("hurry", "")
	// And what only players do.
	wantRefused(t, st, 0, "name", "Gail", "only players")
	wantRefused(t, st, 0, "addtal", "Kung fu 3", "Adjust talents")
}

// risoAndGoons opens an extended conflict of two rounds in which the GM
// stakes Riso and the Goons and both players oppose Riso alone, up to the
// cards.
func risoAndGoons(t *testing.T) *State {
	t.Helper()
	st := newGame(t, 3, nil)
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2")
	act(t, st, 0, "rounds", "2")
	actText(t, st, 0, "gmstake", "Riso: get away")
	actText(t, st, 0, "gmstake", "Goons: wreck the bar")
	act(t, st, 0, "declare")
	for seat := 1; seat <= 2; seat++ {
		actText(t, st, seat, "stake", "capture Riso")
		act(t, st, seat, "vs", "0")
	}
	act(t, st, 0, "cards")
	return st
}

// An unopposed GM stake in an extended conflict plays no card, keeps no
// pile, skips the round narrations, and succeeds at the end.
func TestUnopposedGMStakeInAnExtendedConflict(t *testing.T) {
	st := risoAndGoons(t)
	out := playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"KD"}}, nil)
	if st.C.Sides[1].Card != nil || len(st.C.Sides[1].Pile) != 0 {
		t.Errorf("the unopposed Goons played %v", st.C.Sides[1])
	}
	for _, tn := range st.C.Order {
		if slices.Contains(tn.Sides, 1) {
			t.Errorf("the unopposed stake narrates a round: %q", out)
		}
	}
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"8C"}, 1: {"3H"}, 2: {"QD"}}, nil)
	var ev []games.Event
	for st.Phase == PhaseGifts {
		ev = append(ev, act(t, st, st.ToAct()[0], "ready")...)
	}
	if !strings.Contains(texts(ev), "unopposed, so they succeed: Goons") || st.C.Order[0].Seat != 0 || st.C.Order[0].Sides[0] != 1 {
		t.Errorf("final %q, order %+v", texts(ev), st.C.Order)
	}
}

// Lethal Hand of Fate in an extended conflict: equal totals of different
// suits are enough, and the loser chooses to leave or stay.
func TestLethalHandOfFateInAnExtendedConflict(t *testing.T) {
	st := newGame(t, 2, map[string]int{OptLethal: 1})
	startExtended(t, st, "2", "1")
	stackDeck(t, st, "2C", "9D")
	out := playRound(t, st, map[int][]string{0: {"9H"}, 1: {"9S"}}, nil)
	if st.Phase != PhaseFate || !strings.Contains(out, "The Hand of Fate!") || st.ToAct()[0] != 1 {
		t.Fatalf("phase %s ToAct %v: %q", st.Phase, st.ToAct(), out)
	}
	act(t, st, 1, "fatestay")
	if !st.C.Sides[1].Harmed || len(st.C.Sides[0].Pile) != 1 {
		t.Errorf("sides %+v", st.C.Sides)
	}
}

// A participant who leaves mid-way through an extended conflict: their
// story-tokens go to the pool, the deck plays their card every round, and
// nobody waits for them.
func TestLeavingDuringAnExtendedConflict(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 2, 2)
	startExtended(t, st, "3", "1", "2")
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"KD"}}, nil)
	narrateAll(t, st)
	pool := st.Pool
	if _, err := st.Leave(2); err != nil {
		t.Fatal(err)
	}
	if st.Pool != pool+2 || st.Tokens[2] != 0 {
		t.Errorf("pool %d (was %d) after Susan left with 2 tokens", st.Pool, pool)
	}
	for round := 2; round <= 3; round++ {
		act(t, st, 0, "play", "deck")
		act(t, st, 1, "play", "deck")
		if st.Phase != PhaseBonus || st.C.Sides[2].Card == nil {
			t.Fatalf("round %d: phase %s, Susan's card %v", round, st.Phase, st.C.Sides[2].Card)
		}
		if slices.Contains(st.ToAct(), 2) {
			t.Fatalf("round %d waits for the leaver", round)
		}
		for _, seat := range st.ToAct() {
			act(t, st, seat, "ready")
		}
		for st.Phase == PhaseFate || st.Phase == PhaseGifts {
			act(t, st, 0, "hurry")
		}
		for st.Phase == PhaseNarrate {
			if st.ToAct()[0] == 2 {
				t.Fatal("the leaver is asked to narrate")
			}
			act(t, st, st.ToAct()[0], "done")
		}
	}
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	if len(st.Hands[2]) != 0 || len(st.Hands[0]) < 3+1 {
		t.Errorf("hands after: leaver %d, GM %d", len(st.Hands[2]), len(st.Hands[0]))
	}
}

// An eliminated protagonist is out of the conflict and plays no more
// cards: when its player then leaves, the deck doesn't play for it.
func TestLeaverOutOfTheFightPlaysNoCard(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	stackDeck(t, st, "2C", "9D") // Bob loses the Hand of Fate
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	act(t, st, 1, "fateout")
	narrateAll(t, st)
	if _, err := st.Leave(1); err != nil {
		t.Fatal(err)
	}
	if st.C.Sides[1].Card != nil {
		t.Fatalf("the deck plays %v for an eliminated protagonist", st.C.Sides[1].Card)
	}
	out := playRound(t, st, map[int][]string{0: {"4D"}, 2: {"5D"}}, nil)
	if strings.Contains(out, "**Bob** —") {
		t.Errorf("the eliminated protagonist shows a card in round 2: %q", out)
	}
	checkInvariants(t, st)
}

// RULINGS 002: the GM's hand is 3 cards + 1 per player, and hands are
// refilled to their size after each conflict. When a player leaves, the
// next refill brings the GM's hand to the new size, even when the GM
// played from the deck and still holds the old number of cards.
func TestGMHandFollowsThePlayersAtTheNextRefill(t *testing.T) {
	st := newGame(t, 3, nil) // the GM holds 3 + 2
	ev, err := st.Leave(2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(texts(ev), "the GM's hand holds 4 cards") {
		t.Errorf("leave event %q", texts(ev))
	}
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "win instead")
	deckRound(t, st, 0, 1)
	revealAll(t, st)
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	if len(st.Hands[0]) != 3+1 || len(st.Hands[1]) != 4 {
		t.Errorf("after the refill the GM holds %d cards (want 3 + 1 player), the player %d", len(st.Hands[0]), len(st.Hands[1]))
	}
	checkInvariants(t, st)
}

// "If your character is destroyed ... you may give your victory cards to
// other players": a destroyed protagonist's cards go to the other
// protagonists, never to the NPCs it fought.
func TestDestroyedGivesOnlyToOtherProtagonists(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2") // Foe 0; Bob 1, Susan 2
	playRound(t, st, map[int][]string{0: {"5C"}, 1: {"AH"}, 2: {"2D"}}, nil)
	narrateAll(t, st)
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"6S"}, 1: {"9S"}, 2: {"4D"}}, func() {
		act(t, st, 0, "token") // 6♠ + 3 = 9♠ against Bob's 9♠
	})
	act(t, st, 1, "fatestay")
	narrateAll(t, st)
	stackDeck(t, st, "3C", "9H")
	playRound(t, st, map[int][]string{0: {"4S"}, 1: {"7S"}, 2: {"QD"}}, func() {
		act(t, st, 0, "token") // 4♠ + 3 = 7♠ against Bob's 7♠
	})
	if st.Phase != PhaseGifts || st.C.Sides[1].Out != outDestroyed {
		t.Fatalf("phase %s, Bob %+v", st.Phase, st.C.Sides[1])
	}
	wantRefused(t, st, 1, "to", "", "Give to another side", "0")
	if rs := st.recipients(1); len(rs) != 1 || rs[0] != 2 {
		t.Errorf("a destroyed protagonist may give to %v, want Susan's side only", rs)
	}
	act(t, st, 1, "to", "2")
	act(t, st, 1, "give", "AH")
	if !slices.Contains(st.C.Sides[2].Got, card(t, "AH")) {
		t.Errorf("Susan got %v", st.C.Sides[2].Got)
	}
	checkInvariants(t, st)
}
