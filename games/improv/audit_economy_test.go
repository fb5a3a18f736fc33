package improv

import (
	"slices"
	"testing"
)

// Economy audit: the deck and hands, talents, story-tokens, the pool and
// the bank, and what a campaign carries from one conflict to the next.

// RULINGS 002: "at most one award per player per round". Taking an award
// back after its token was spent returns nothing, so the award stands: the
// giver can't hand out a second token from the pool in the same round.
func TestAwardTakenBackAfterTheTokenIsSpentStillCounts(t *testing.T) {
	st := newGame(t, 3, nil)
	startExtended(t, st, "3", "1", "2")
	playRound(t, st, map[int][]string{0: {"9C"}, 1: {"2H"}, 2: {"KD"}}, nil)
	first, _ := st.Say(2, "Susan", "Round one!")
	second, _ := st.Say(2, "Susan", "Still round one.")
	react(t, st, 1, first[0].Ref, true)
	narrateAll(t, st)
	pool := st.Pool
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"3H"}, 2: {"QD"}}, func() {
		act(t, st, 2, "token") // Susan spends the awarded token
		react(t, st, 1, first[0].Ref, false)
		reactRefused(t, st, 1, second[0].Ref, true, "already given")
	})
	if st.Pool != pool {
		t.Errorf("pool %d, was %d: a second token left it", st.Pool, pool)
	}
}

// Leaving sends a player's story-tokens to the pool (the /rules ruling);
// a token they had on a card when the GM then calls the conflict off goes
// there too, not back to an empty seat.
func TestCallOffSendsALeaversTokenToThePool(t *testing.T) {
	st := newGame(t, 4, nil)
	giveTokens(st, 3, 2)
	toBonus(t, st, "TH", "9D")
	act(t, st, 3, "aim", "1")
	act(t, st, 3, "token") // Carl, outside the conflict, backs Bob
	pool := st.Pool
	if _, err := st.Leave(3); err != nil {
		t.Fatal(err)
	}
	if st.Pool != pool+1 {
		t.Fatalf("pool %d after Carl left holding 1, want %d", st.Pool, pool+1)
	}
	act(t, st, 0, "cancel")
	if st.Tokens[3] != 0 || st.Pool != pool+2 {
		t.Errorf("after the call-off Carl (gone) holds %d, pool %d; want 0 and %d", st.Tokens[3], st.Pool, pool+2)
	}
}

// "In a simple conflict, the GM may use at most 1 story-token plus an extra
// token per player participating": players at the table who sit out don't
// count. GM tokens go to the pool whatever the colours; a player's to the
// bank when colours match.
func TestGMLimitCountsParticipantsAndGMTokensGoToThePool(t *testing.T) {
	st := newGame(t, 4, nil) // the GM holds 9; three players, one takes part
	giveTokens(st, 1, 1)
	toBonus(t, st, "TH", "9D")
	act(t, st, 0, "token")
	act(t, st, 0, "token")
	wantRefused(t, st, 0, "token", "", "at most 2 story-tokens in this conflict (1 + 1 participating player)")
	act(t, st, 1, "token")
	pool, bank := st.Pool, st.Bank
	revealAll(t, st)
	if st.Pool != pool+2 || st.Bank != bank+1 || st.Tokens[0] != 7 || st.Spent != 0 {
		t.Errorf("pool %d→%d, bank %d→%d, GM %d, out %d: want the GM's 2 in the pool, Bob's red-on-red in the bank",
			pool, st.Pool, bank, st.Bank, st.Tokens[0], st.Spent)
	}
}

// "The GM may take the bank's tokens at any time" (RULINGS 002): in a
// simple conflict, tokens taken from the bank during the bonuses can be
// spent at once (the extended "tokens held at the start" cap is not a
// simple conflict's rule).
func TestGMSpendsBankTokensInTheSameSimpleConflict(t *testing.T) {
	st := newGame(t, 2, nil)
	st.Spent += st.Tokens[0] // the GM has spent everything earlier
	st.Tokens[0] = 0
	st.Pool--
	st.Bank++
	toBonus(t, st, "TH", "9D")
	wantRefused(t, st, 0, "token", "", "no story-tokens")
	act(t, st, 0, "bank")
	act(t, st, 0, "token")
	pool := st.Pool
	revealAll(t, st)
	if st.C.Sides[0].Total != 9+3 || st.Pool != pool+1 || st.Bank != 0 {
		t.Errorf("Foe total %d, pool %d→%d, bank %d", st.C.Sides[0].Total, pool, st.Pool, st.Bank)
	}
}

// RULINGS Common and 002: when the deck runs out the discards are shuffled
// into a new deck, also for the Hand of Fate's tie-break cards; the cards
// still on the table are not among them, and go to the discards after.
func TestHandOfFateDrawsFromTheReshuffledDiscards(t *testing.T) {
	st := newGame(t, 2, nil)
	giveTokens(st, 1, 1)
	toBonus(t, st, "6H", "9H")
	act(t, st, 1, "token") // 6♥ + 3 = 9♥ against 9♥: an exact tie
	st.Deck.Discard = append(st.Deck.Discard, st.Deck.Draw...)
	st.Deck.Draw = nil
	revealAll(t, st)
	cl := st.C.Clashes[0]
	if len(cl.Fate) == 0 {
		t.Fatalf("no Hand of Fate: %+v", cl)
	}
	for _, d := range cl.Fate {
		for _, c := range d {
			if c == card(t, "6H") || c == card(t, "9H") {
				t.Errorf("the tie-break drew %s, a card on the table", c)
			}
		}
	}
	if !slices.Contains(st.Deck.Discard, card(t, "6H")) || !slices.Contains(st.Deck.Discard, card(t, "9H")) {
		t.Errorf("the played cards are not in the discards")
	}
	checkInvariants(t, st)
}

// "Hands are refilled to their size after each conflict", from the top of
// the one shared deck: only the cards played from hand are replaced (a
// card played from the deck costs the hand nothing), and a player who sat
// the conflict out keeps the hand they had.
func TestRefillReplacesOnlyCardsPlayedFromHand(t *testing.T) {
	st := newGame(t, 4, nil) // GM 3 + 3 cards
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	bob, susan, carl := slices.Clone(st.Hands[1]), slices.Clone(st.Hands[2]), slices.Clone(st.Hands[3])
	act(t, st, 0, "play", st.Hands[0][0].Code())
	act(t, st, 1, "play", bob[0].Code())
	act(t, st, 2, "play", "deck")
	revealAll(t, st)
	d := st.Deck.Draw
	top := []string{d[len(d)-1].Code(), d[len(d)-2].Code()}
	slices.Sort(top)
	narrateAll(t, st)
	if st.Phase != PhaseIdle {
		t.Fatalf("phase %s", st.Phase)
	}
	if !slices.Equal(st.Hands[2], susan) || !slices.Equal(st.Hands[3], carl) {
		t.Errorf("Susan %v (was %v), Carl %v (was %v): want unchanged", st.Hands[2], susan, st.Hands[3], carl)
	}
	if len(st.Hands[1]) != 4 || !slices.Equal(st.Hands[1][:3], bob[1:]) || len(st.Hands[0]) != 6 {
		t.Fatalf("Bob %v (was %v), GM %d cards", st.Hands[1], bob, len(st.Hands[0]))
	}
	got := []string{st.Hands[1][3].Code(), st.Hands[0][5].Code()}
	slices.Sort(got)
	if !slices.Equal(got, top) {
		t.Errorf("refills drew %v, want the deck's top two, %v", got, top)
	}
}

// "Players can only use one talent": one per player, so a helper's talent
// and the owner's own can sit on one card (+3 each). Each checks off a use
// of its own talent and its own player's session count.
func TestTwoPlayersTalentsOnOneCard(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "addtal", "Kung fu 2")
	actText(t, st, 2, "addtal", "Sharpshooter 2")
	actText(t, st, 2, "addtal", "Charm 2")
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	setHand(t, st, 1, "5H")
	act(t, st, 0, "play", st.Hands[0][0].Code())
	act(t, st, 1, "play", "5H")
	act(t, st, 2, "play", "deck")
	act(t, st, 1, "usetal", "0")
	act(t, st, 2, "aim", "1")
	act(t, st, 2, "usetal", "0")
	actText(t, st, 2, "help", "covering fire")
	act(t, st, 2, "aim", "2")
	wantRefused(t, st, 2, "usetal", "", "one talent per player per round", "1")
	revealAll(t, st)
	if st.C.Sides[1].Total != 5+6 {
		t.Errorf("Bob's total %d, want 5 + two talents", st.C.Sides[1].Total)
	}
	b, s := st.Heroes[1], st.Heroes[2]
	if b.Talents[0].Uses != 1 || b.SessionUses != 1 || s.Talents[0].Uses != 1 || s.Talents[1].Uses != 2 || s.SessionUses != 1 {
		t.Errorf("Bob %+v, Susan %+v", b, s)
	}
}

// A conflict called off in its second round: that round's tokens come
// back and its talents are not checked off; the first round's token flows
// and talent uses stand.
func TestCallOffKeepsEarlierRoundsTokensAndTalents(t *testing.T) {
	st := newGame(t, 2, nil)
	actText(t, st, 1, "addtal", "Kung fu 3")
	giveTokens(st, 1, 2)
	startExtended(t, st, "3", "1")
	playRound(t, st, map[int][]string{0: {"9D"}, 1: {"TH"}}, func() {
		act(t, st, 1, "usetal", "0")
		act(t, st, 1, "token") // red on red: the bank
		act(t, st, 0, "token") // the pool
	})
	narrateAll(t, st)
	if st.Bank != 1 || st.Heroes[1].Talents[0].Uses != 2 {
		t.Fatalf("after round 1: bank %d, talent %+v", st.Bank, st.Heroes[1].Talents[0])
	}
	gm, pool := st.Tokens[0], st.Pool
	setHand(t, st, 0, "8S")
	setHand(t, st, 1, "7H")
	act(t, st, 0, "play", "8S")
	act(t, st, 1, "play", "7H")
	act(t, st, 1, "usetal", "0")
	act(t, st, 1, "token")
	act(t, st, 0, "token")
	act(t, st, 0, "cancel")
	h := st.Heroes[1]
	if h.Talents[0].Uses != 2 || h.SessionUses != 1 {
		t.Errorf("talent %+v, session uses %d: only round 1's use counts", h.Talents[0], h.SessionUses)
	}
	if st.Tokens[1] != 1 || st.Tokens[0] != gm || st.Pool != pool || st.Bank != 1 || st.Spent != 0 {
		t.Errorf("Bob %d, GM %d (was %d), pool %d (was %d), bank %d, out %d",
			st.Tokens[1], st.Tokens[0], gm, st.Pool, pool, st.Bank, st.Spent)
	}
}

// "In large conflicts, compare the player's card color to her immediate
// opponent": with two GM stakes of different colours, each player's token
// is judged against the GM card they oppose, not the GM's first card.
func TestLargeSimpleConflictTokensFollowEachOpponent(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 1, 1)
	giveTokens(st, 2, 1)
	setupConflict(t, st, []string{"1", "2"}, "Riso: get away", "Goons: rough them up")
	actText(t, st, 1, "stake", "capture Riso")
	act(t, st, 1, "vs", "0")
	actText(t, st, 2, "stake", "take down the goons")
	act(t, st, 2, "vs", "1")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "9S", "KH")
	setHand(t, st, 1, "AH")
	setHand(t, st, 2, "2D")
	act(t, st, 0, "play", "9S") // Riso, black
	act(t, st, 0, "play", "KH") // Goons, red
	act(t, st, 1, "play", "AH")
	act(t, st, 2, "play", "2D")
	act(t, st, 1, "token") // red against Riso's black: out of play
	act(t, st, 2, "token") // red against the Goons' red: the bank
	revealAll(t, st)
	if st.Bank != 1 || st.Spent != 1 {
		t.Errorf("bank %d, out of play %d; want 1 and 1", st.Bank, st.Spent)
	}
}

// What a campaign carries from one conflict to the next: the GM's tokens
// (not reset), the cards left in hand, talent uses and the session count.
// An extended conflict's GM limit is then capped by what the GM holds.
func TestCampaignCarriesTokensHandsAndTalents(t *testing.T) {
	st := newGame(t, 2, nil) // the GM holds 3
	actText(t, st, 1, "addtal", "Kung fu 3")
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	act(t, st, 0, "cards")
	kept := slices.Clone(st.Hands[1][1:])
	act(t, st, 1, "play", st.Hands[1][0].Code())
	act(t, st, 0, "play", "deck")
	act(t, st, 0, "token")
	act(t, st, 0, "token")
	act(t, st, 1, "usetal", "0")
	revealAll(t, st)
	narrateAll(t, st)
	if st.Phase != PhaseIdle || st.Tokens[0] != 1 || st.Pool != 1+2 {
		t.Fatalf("phase %s, GM %d tokens, pool %d", st.Phase, st.Tokens[0], st.Pool)
	}
	if !slices.Equal(st.Hands[1][:3], kept) || len(st.Hands[1]) != 4 {
		t.Errorf("Bob's hand %v, want %v kept plus one new card", st.Hands[1], kept)
	}
	startExtended(t, st, "3", "1")
	if st.gmLimit() != 1 {
		t.Errorf("extended GM limit %d, want the 1 token held (2 + 2 would be 4)", st.gmLimit())
	}
	if h := st.Heroes[1]; h.Talents[0].Uses != 2 || h.SessionUses != 1 {
		t.Errorf("Bob %+v", h)
	}
}
