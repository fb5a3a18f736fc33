package improv

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// playRound plays one round: cards[seat] lists the codes each seat plays,
// in the order of its sides; then everyone marks ready.
func playRound(t *testing.T, st *State, cards map[int][]string, bonuses func()) string {
	t.Helper()
	for seat := range st.Players {
		for _, code := range cards[seat] {
			if code != "deck" {
				c := card(t, code)
				takeOut(st, c)
				st.Hands[seat] = append(st.Hands[seat], c)
			}
			act(t, st, seat, "play", code)
		}
	}
	if bonuses != nil {
		bonuses()
	}
	var out []games.Event
	for _, seat := range st.ToAct() {
		out = append(out, act(t, st, seat, "ready")...)
	}
	return texts(out)
}

// narrateAll lets every narrator of the current narration finish.
func narrateAll(t *testing.T, st *State) string {
	t.Helper()
	var out []games.Event
	for st.Phase == PhaseNarrate {
		out = append(out, act(t, st, st.ToAct()[0], "done")...)
	}
	return texts(out)
}

// exampleToGifts plays the chapter's extended example (Kit, Jason and
// Diana against Riso and his goons) through its three rounds, up to the
// gifts. Sides: Riso 0, Goons 1, Kit 2, Jason 3, Diana 4. check, if set,
// sees round 0 once the cards are open, then each round's text before its
// narration, which it may run itself.
func exampleToGifts(t *testing.T, check func(st *State, round int, out string)) *State {
	t.Helper()
	if check == nil {
		check = func(*State, int, string) {}
	}
	st := newGame(t, 4, nil)
	for seat, n := range []string{"", "Kit", "Jason", "Diana"} {
		if seat > 0 {
			actText(t, st, seat, "name", n)
		}
	}
	actText(t, st, 2, "addtal", "Bodyguard 3")
	actText(t, st, 3, "addtal", "Bar brawler 3")
	actText(t, st, 1, "addtal", "Tackle 2")
	giveTokens(st, 1, 1) // Kit's token for round 2
	giveTokens(st, 2, 1) // Jason's and Diana's for round 3
	giveTokens(st, 3, 1)
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2", "3")
	act(t, st, 0, "rounds", "3")
	actText(t, st, 0, "gmstake", "Riso: gun down Vinny and get away")
	actText(t, st, 0, "gmstake", "Goons: protect Riso and rough up the agents")
	act(t, st, 0, "declare")
	for seat, stake := range map[int]string{1: "capture Riso", 2: "keep Vinny safe", 3: "protect the patrons, take down the goons"} {
		actText(t, st, seat, "stake", stake)
	}
	act(t, st, 1, "vs", "0")
	act(t, st, 2, "vs", "0")
	act(t, st, 3, "vs", "1")
	act(t, st, 0, "cards")
	check(st, 0, "")

	// Round 1: Kit, the goons and Riso win.
	check(st, 1, playRound(t, st, map[int][]string{0: {"QS", "KC"}, 1: {"X0"}, 2: {"7C"}, 3: {"3D"}}, nil))
	narrateAll(t, st)

	// Round 2: Kit's A♥ + token beats Riso's A♣ + token by suit.
	check(st, 2, playRound(t, st, map[int][]string{0: {"AC", "2S"}, 1: {"AH"}, 2: {"8D"}, 3: {"JH"}}, func() {
		act(t, st, 1, "token")
		act(t, st, 0, "token") // on Riso
		act(t, st, 2, "usetal", "0")
		act(t, st, 3, "usetal", "0")
	}))
	narrateAll(t, st)

	// Round 3: Riso 9 + 2 tokens = 15 beats Kit (13) but not Jason (16).
	check(st, 3, playRound(t, st, map[int][]string{0: {"9H", "5C"}, 1: {"TC"}, 2: {"TD"}, 3: {"JS"}}, func() {
		act(t, st, 0, "token")
		act(t, st, 0, "token")
		act(t, st, 2, "token")
		act(t, st, 2, "aim", "3")
		act(t, st, 2, "usetal", "0")
		act(t, st, 1, "usetal", "0")
		act(t, st, 3, "aim", "4")
		act(t, st, 3, "token")
	}))
	if st.Phase != PhaseGifts {
		t.Fatalf("after the last round: phase %s", st.Phase)
	}
	return st
}

// The chapter's extended example, round by round, then its gifts and the
// final victory.
func TestExampleExtendedConflict(t *testing.T) {
	var pool int
	st := exampleToGifts(t, func(st *State, round int, out string) {
		switch round {
		case 0:
			if st.gmLimit() != 8 {
				t.Errorf("GM limit %d, want 2 + 2×3", st.gmLimit())
			}
		case 1:
			for _, want := range []string{"round 1 of 3", "Kit keeps the 🃏 Joker", "Riso keeps the Q♠", "Goons keeps the K♣", "discarded: Jason and Diana",
				"Round 1 narration, lowest first:** Diana (Carl) → Jason (Susan) → the GM (for Riso and Goons) → Kit (Bob)"} {
				if !strings.Contains(out, want) {
					t.Errorf("round 1 %q lacks %q", out, want)
				}
			}
			ev := narrateAll(t, st)
			if st.Phase != PhaseCards || st.C.Round != 2 || !strings.Contains(ev, "round 2 of 3") {
				t.Fatalf("after round 1's narration: phase %s round %d %q", st.Phase, st.C.Round, ev)
			}
			pool = st.Pool
		case 2:
			for _, want := range []string{"**Kit** beats **Riso** (same total, higher suit)", "**Riso** beats **Jason**", "**Diana** beats **Goons**",
				"Kit's 1 → out of play (colours differ)", "the GM's 1 → the pool"} {
				if !strings.Contains(out, want) {
					t.Errorf("round 2 %q lacks %q", out, want)
				}
			}
			if st.Pool != pool+1 || st.Spent != 1 {
				t.Errorf("pool %d spent %d", st.Pool, st.Spent)
			}
			// One award per player per round.
			line, _ := st.Say(3, "Diana", "Pistol whip!")
			react(t, st, 1, line[0].Ref, true)
		case 3:
			for _, want := range []string{"**Riso** beats **Kit**", "**Jason** beats **Riso**", "Jason's 1 → the bank", "Diana's 1 → the bank",
				"• **Riso**: A♣ Q♠ 9♥", "• **Goons**: K♣", "• **Kit**: 🃏 Joker A♥", "• **Jason**: 10♦", "• **Diana**: J♠ J♥"} {
				if !strings.Contains(out, want) {
					t.Errorf("round 3 %q lacks %q", out, want)
				}
			}
			if st.gmUsed() != 3 || st.Bank != 2 {
				t.Errorf("GM used %d, bank %d", st.gmUsed(), st.Bank)
			}
		}
	})

	// Gifts: Jason's 10 to Kit, the goons' King to Riso, one of Diana's Jacks to Kit.
	act(t, st, 2, "to", "2")
	act(t, st, 2, "give", "TD")
	wantRefused(t, st, 2, "give", "", "only one", "TD")
	act(t, st, 0, "from", "1")
	act(t, st, 0, "to", "0")
	act(t, st, 0, "give", "KC")
	act(t, st, 3, "to", "2")
	act(t, st, 3, "give", "JH")
	wantRefused(t, st, 1, "give", "", "own victory cards", "TD") // Kit can't pass on a gift
	act(t, st, 2, "ready")
	act(t, st, 3, "ready")
	act(t, st, 1, "ready")
	out := texts(act(t, st, 0, "ready"))
	for _, want := range []string{"final victory", "**Kit** beats **Riso** (victory cards)", "**Riso** beats **Jason**", "**Diana** beats **Goons**",
		"won: Kit and Diana", "partly: Riso (beat Jason, beaten by Kit)", "lost: Goons and Jason",
		"Final narration, losers first:** the GM (for Goons) → Jason (Susan) → Diana (Carl) → the GM (for Riso) → Kit (Bob)"} {
		if !strings.Contains(out, want) {
			t.Errorf("final %q lacks %q", out, want)
		}
	}
	narrateAll(t, st)
	if st.Phase != PhaseIdle || st.C != nil {
		t.Fatalf("phase %s after the final narration", st.Phase)
	}
	act(t, st, 0, "bank")
	for seat := range st.Players {
		if len(st.Hands[seat]) != st.handSize(seat) {
			t.Errorf("seat %d holds %d cards after the refill", seat, len(st.Hands[seat]))
		}
	}
}

// startExtended opens an extended conflict of n rounds: seat 1 against
// the GM's Foe.
func startExtended(t *testing.T, st *State, rounds string, seats ...string) {
	t.Helper()
	act(t, st, 0, "open")
	act(t, st, 0, "who", seats...)
	act(t, st, 0, "rounds", rounds)
	actText(t, st, 0, "gmstake", "Foe: win")
	act(t, st, 0, "declare")
	for _, x := range seats {
		actText(t, st, atoi(x), "stake", "win instead")
	}
	act(t, st, 0, "cards")
}

func TestExtendedGMLimit(t *testing.T) {
	st := newGame(t, 2, nil)
	startExtended(t, st, "5", "1")
	// 2 + 2×1 + 2×2 extra rounds = 8, but the GM holds only 3.
	if st.gmLimit() != 3 {
		t.Errorf("limit %d, want the 3 tokens held", st.gmLimit())
	}
	act(t, st, 0, "cancel")
	st.Tokens[0] += 10
	st.Spent -= 10
	startExtended(t, st, "5", "1")
	if st.gmLimit() != 8 {
		t.Errorf("limit %d, want 8", st.gmLimit())
	}
	// 8 over the conflict, and in each round at most 1 + 1 protagonist, as
	// in a simple conflict: four rounds of 2 use them up.
	for round := 1; round <= 4; round++ {
		playRound(t, st, map[int][]string{0: {"deck"}, 1: {"deck"}}, func() {
			act(t, st, 0, "token")
			act(t, st, 0, "token")
			if round == 1 {
				wantRefused(t, st, 0, "token", "", "at most 2 story-tokens in a round (1 + 1 participating player)")
				act(t, st, 0, "undo")
				act(t, st, 0, "token")
			}
		})
		if st.gmUsed() != 2*round {
			t.Fatalf("round %d: the GM has used %d tokens, want %d", round, st.gmUsed(), 2*round)
		}
		narrateAll(t, st)
	}
	playRound(t, st, map[int][]string{0: {"deck"}, 1: {"deck"}}, func() {
		wantRefused(t, st, 0, "token", "", "at most 8 story-tokens in this extended conflict")
		for _, b := range st.Hand(0).Buttons {
			if strings.Contains(b.Label, "story-token") {
				t.Errorf("the GM screen offers %q past the limit", b.Label)
			}
		}
	})
	checkInvariants(t, st)
}

// RULINGS.md 002 limits the GM to 1 + the participating players a round;
// an extended conflict's rounds are rounds too, within its larger total.
func TestExtendedGMLimitPerRound(t *testing.T) {
	st := newGame(t, 3, nil) // the GM holds 6 tokens
	startExtended(t, st, "3", "1", "2")
	if st.gmLimit() != 6 {
		t.Fatalf("whole-conflict limit %d, want 2 + 2×2", st.gmLimit())
	}
	playRound(t, st, map[int][]string{0: {"deck"}, 1: {"deck"}, 2: {"deck"}}, func() {
		var ev []games.Event
		for range 3 { // 1 + 2 participating players
			ev = act(t, st, 0, "token")
		}
		if !strings.Contains(texts(ev), "3 bonuses on it") {
			t.Errorf("the third token: %q", texts(ev))
		}
		wantRefused(t, st, 0, "token", "", "at most 3 story-tokens in a round")
		if hand := st.Hand(0).Description; !strings.Contains(hand, "at most 3 a round") {
			t.Errorf("the GM screen does not say the round's limit:\n%s", hand)
		}
	})
}

func TestExtendedHandOfFate(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	// Round 1: Bob ties the Foe exactly and loses the tie-break.
	stackDeck(t, st, "2C", "9D")
	out := playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	if st.Phase != PhaseFate || len(st.ToAct()) != 1 || st.ToAct()[0] != 1 {
		t.Fatalf("phase %s ToAct %v: %q", st.Phase, st.ToAct(), out)
	}
	wantRefused(t, st, 2, "fatestay", "", "no choice")
	ev := texts(act(t, st, 1, "fatestay"))
	if !strings.Contains(ev, "stays in the fight, seriously harmed") || !strings.Contains(ev, "Round 1 narration") {
		t.Errorf("stay: %q", ev)
	}
	narrateAll(t, st)
	// Round 2: another exact tie lost: destroyed.
	stackDeck(t, st, "3C", "9S")
	out = playRound(t, st, map[int][]string{0: {"5S"}, 1: {"8S"}, 2: {"2D"}}, func() {
		act(t, st, 0, "token") // 5♠ + 3 = 8♠: an exact tie
	})
	if st.C.Sides[1].Out != outDestroyed || !strings.Contains(out, "destroyed") {
		t.Fatalf("Bob's side %+v: %q", st.C.Sides[1], out)
	}
	narrateAll(t, st)
	// Round 3: Bob sits out; Susan still fights; Bob may still spend tokens.
	if st.contested(1) || !st.contested(2) {
		t.Fatal("the destroyed protagonist still plays")
	}
	giveTokens(st, 1, 1)
	playRound(t, st, map[int][]string{0: {"4D"}, 2: {"5D"}}, func() {
		wantRefused(t, st, 1, "usetal", "", "out of the fight", "0")
		act(t, st, 1, "token")
	})
	// Gifts: the destroyed protagonist gives all its victory cards (none
	// here: a random card from the deck instead).
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s", st.Phase)
	}
	act(t, st, 1, "give", "deck")
	wantRefused(t, st, 1, "give", "", "only one", "deck")
	act(t, st, 1, "undo")
	act(t, st, 1, "give", "deck")
	if len(st.C.Sides[2].Got) != 1 {
		t.Fatalf("Susan got %v", st.C.Sides[2].Got)
	}
	act(t, st, 0, "hurry")
	if st.Phase != PhaseNarrate || !st.C.Final {
		t.Fatalf("phase %s", st.Phase)
	}
	if w := st.clashOf(0, 1).Winner; w != 0 {
		t.Errorf("a destroyed protagonist loses to its opponent, winner %d", w)
	}
	narrateAll(t, st)
}

func TestExtendedElimination(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "2", "1", "2")
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	ev := texts(act(t, st, 1, "fateout"))
	if st.C.Sides[1].Out != outEliminated || !strings.Contains(ev, "eliminated") {
		t.Fatalf("%+v %q", st.C.Sides[1], ev)
	}
	narrateAll(t, st)
	playRound(t, st, map[int][]string{0: {"4D"}, 2: {"5D"}}, nil)
	if st.Phase != PhaseGifts {
		t.Fatalf("phase %s", st.Phase)
	}
	if containsInt(st.giftSeats(), 1) {
		t.Error("an eliminated protagonist gives cards")
	}
	for _, seat := range st.ToAct() {
		act(t, st, seat, "ready")
	}
	if st.clashOf(0, 1).Winner != 0 {
		t.Error("the eliminated protagonist should lose its stake")
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestMooks(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "name", "Kit")
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2")
	act(t, st, 0, "rounds", "3")
	wantRefused(t, st, 0, "gmstake", "Goons (1 mooks): rough them up", "2 to 20")
	actText(t, st, 0, "gmstake", "Goons (3 mooks): rough up the agents")
	if sd := st.C.Sides[0]; sd.Name != "Goons" || sd.Mooks != 3 {
		t.Fatalf("side %+v", sd)
	}
	act(t, st, 0, "declare")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	playRound(t, st, map[int][]string{0: {"5C"}, 1: {"9D"}, 2: {"2S"}}, nil)
	// Narration lowest first: Susan (2), Goons (5), Kit (9).
	wantRefused(t, st, 2, "mook", "", "has to beat the Goons' card", "0")
	wantRefused(t, st, 1, "mook", "", "while you narrate", "0")
	act(t, st, 2, "done")
	act(t, st, 0, "done")
	if !strings.Contains(gamestest.Text(st.Hand(1)), "Take out one of the Goons") {
		t.Fatalf("no mook button: %s", gamestest.Text(st.Hand(1)))
	}
	wantRefused(t, st, 1, "mook", "", "isn't a group", "x")
	ev := act(t, st, 1, "mook", "0")
	if st.C.Sides[0].Mooks != 2 || !strings.Contains(texts(ev), "Kit takes out one of the Goons (2 left)") {
		t.Fatalf("%+v %q", st.C.Sides[0], texts(ev))
	}
	wantRefused(t, st, 1, "mook", "", "already taken out a mook this round", "0")
	act(t, st, 1, "done")
	playRound(t, st, map[int][]string{0: {"6C"}, 1: {"2D"}, 2: {"8S"}}, nil)
	narrateAllBut(t, st, 2)
	act(t, st, 2, "mook", "0")
	act(t, st, 2, "done")
	if st.C.Sides[0].Mooks != 1 {
		t.Fatalf("mooks %d", st.C.Sides[0].Mooks)
	}
	if !strings.Contains(st.Table().Fields[0].Value, "**Goons** (1 mook)") {
		t.Errorf("table %q", st.Table().Fields[0].Value)
	}
}

// narrateAllBut lets narrators finish until it is seat's turn.
func narrateAllBut(t *testing.T, st *State, seat int) {
	t.Helper()
	for st.Phase == PhaseNarrate && st.ToAct()[0] != seat {
		act(t, st, st.ToAct()[0], "done")
	}
}

// A conflict called off is over like any other: every hand is refilled,
// the cards of earlier rounds gone to the discards, and a latecomer's
// card joins the GM's hand as the join promised.
func TestCallOffRefillsHands(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	playRound(t, st, map[int][]string{0: {"deck"}, 1: {st.Hands[1][0].Code()}, 2: {st.Hands[2][0].Code()}}, nil)
	narrateAll(t, st)
	if _, ev, err := st.Join("Late"); err != nil || !strings.Contains(texts(ev), "when this conflict ends") {
		t.Fatalf("join: %q, %v", texts(ev), err)
	}
	if len(st.Hands[1]) == playerHand && len(st.Hands[2]) == playerHand {
		t.Fatal("round 1 took no card from a hand: no test of the refill")
	}
	act(t, st, 0, "cancel")
	for seat := range st.Players {
		if len(st.Hands[seat]) != st.handSize(seat) {
			t.Errorf("seat %d holds %d cards after the call-off, want %d", seat, len(st.Hands[seat]), st.handSize(seat))
		}
	}
	checkInvariants(t, st)
}

// A GM stake that loses the Hand of Fate to one protagonist loses the
// round, though it beat another: "you only lose the current round" is the
// price of staying in, and no victory card comes of that round.
func TestHandOfFateLoserKeepsNoCard(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	stackDeck(t, st, "9D", "2C") // Bob draws the 9, the Foe the 2
	out := playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	if st.Phase != PhaseFate || len(st.ToAct()) != 1 || st.ToAct()[0] != 0 {
		t.Fatalf("phase %s ToAct %v: %q", st.Phase, st.ToAct(), out)
	}
	if len(st.C.Sides[0].Pile) != 0 || strings.Contains(out, "Foe keeps") {
		t.Errorf("the Foe lost the Hand of Fate yet keeps %v: %q", st.C.Sides[0].Pile, out)
	}
	act(t, st, 0, "fatestay")
	checkInvariants(t, st)
}

// Two protagonists tie a GM stake exactly in one round and both win the
// Hand of Fate: the stake has lost to it twice in the conflict, so it is
// destroyed, with no choice to stay in.
func TestTwoHandOfFateLossesInOneRoundDestroy(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	stackDeck(t, st, "9D", "2C", "9H", "2S")
	giveTokens(st, 1, 1)
	giveTokens(st, 2, 2)
	out := playRound(t, st, map[int][]string{0: {"KS"}, 1: {"TS"}, 2: {"7S"}}, func() {
		act(t, st, 1, "token") // 10♠ + 3 = 13♠
		act(t, st, 2, "token") // 7♠ + 6 = 13♠
		act(t, st, 2, "token")
	})
	if strings.Count(out, "The Hand of Fate!") != 2 {
		t.Fatalf("want two draws of the Hand of Fate: %q", out)
	}
	if st.C.Sides[0].Out != outDestroyed || st.Phase == PhaseFate || !strings.Contains(out, "destroyed") {
		t.Fatalf("phase %s, Foe %+v: %q", st.Phase, st.C.Sides[0], out)
	}
	checkInvariants(t, st)
}

// A destroyed protagonist has no card of its own: its story-token button
// backs the other protagonist by default, not the GM's side it fought.
func TestOutPlayerBacksAnotherPlayerByDefault(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	stackDeck(t, st, "2C", "9D")
	playRound(t, st, map[int][]string{0: {"X0"}, 1: {"X1"}, 2: {"KS"}}, nil)
	act(t, st, 1, "fatestay")
	narrateAll(t, st)
	stackDeck(t, st, "3C", "9S")
	playRound(t, st, map[int][]string{0: {"5S"}, 1: {"8S"}, 2: {"2D"}}, func() {
		act(t, st, 0, "token")
	})
	if st.C.Sides[1].Out != outDestroyed {
		t.Fatalf("Bob's side %+v", st.C.Sides[1])
	}
	narrateAll(t, st)
	giveTokens(st, 1, 1)
	playRound(t, st, map[int][]string{0: {"4D"}, 2: {"5D"}}, func() {
		label := ""
		for _, b := range st.Hand(1).Buttons {
			if strings.Contains(b.Label, "story-token") {
				label = b.Label
			}
		}
		if want := "+1 story-token on " + poss(st.sideName(st.sideOf(2))) + " card"; label != want {
			t.Errorf("Bob's token button %q, want %q", label, want)
		}
		act(t, st, 1, "token")
		if b := st.C.Bonuses[len(st.C.Bonuses)-1]; b.From != 1 || st.C.Sides[b.On].Seat != 2 {
			t.Errorf("Bob's token went on side %d (seat %d), want Susan's", b.On, st.C.Sides[b.On].Seat)
		}
	})
}
