package improv

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// giveTokens moves n story-tokens from the pool to seat, as awards would.
func giveTokens(st *State, seat, n int) {
	st.Pool -= n
	st.Tokens[seat] += n
}

// toBonus runs a one-protagonist conflict (seat 1 against "Foe") up to the
// bonuses, with the given cards from hand.
func toBonus(t *testing.T, st *State, heroCard, gmCard string) {
	t.Helper()
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "win instead")
	act(t, st, 0, "cards")
	setHand(t, st, 0, gmCard)
	setHand(t, st, 1, heroCard)
	act(t, st, 0, "play", gmCard)
	act(t, st, 1, "play", heroCard)
	if st.Phase != PhaseBonus {
		t.Fatalf("phase %s", st.Phase)
	}
}

// deckRound starts the card play and has seats play the top of the deck.
func deckRound(t *testing.T, st *State, seats ...int) {
	t.Helper()
	act(t, st, 0, "cards")
	for _, seat := range seats {
		act(t, st, seat, "play", "deck")
	}
}

func revealAll(t *testing.T, st *State) string {
	t.Helper()
	var out []games.Event
	for _, seat := range st.ToAct() {
		out = append(out, act(t, st, seat, "ready")...)
	}
	if st.Phase != PhaseNarrate && st.Phase != PhaseIdle {
		t.Fatalf("not revealed: phase %s", st.Phase)
	}
	return texts(out)
}

func TestPlayerTokensByColour(t *testing.T) {
	for _, tc := range []struct {
		name, hero, gm string
		bank           bool
	}{
		{"red matches red", "TH", "9D", true},
		{"red against black", "TH", "9S", false},
		{"black matches black", "TC", "9S", true},
		{"a Joker matches any colour", "TH", "X0", true},
		{"a Joker of the player's matches too", "X1", "9S", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t, 2, nil)
			giveTokens(st, 1, 1)
			toBonus(t, st, tc.hero, tc.gm)
			act(t, st, 1, "token")
			bank, spent := st.Bank, st.Spent
			out := revealAll(t, st)
			if tc.bank && (st.Bank != bank+1 || st.Spent != spent) {
				t.Errorf("bank %d→%d, out of play %d→%d: want the token in the bank; %q", bank, st.Bank, spent, st.Spent, out)
			}
			if !tc.bank && (st.Spent != spent+1 || st.Bank != bank) {
				t.Errorf("bank %d→%d, out of play %d→%d: want the token out of play", bank, st.Bank, spent, st.Spent)
			}
		})
	}
}

func TestTokenOnAnotherCardFollowsOwnCard(t *testing.T) {
	// Kit (red) opposes the Director (black); Kit's token on Diana's card
	// still follows Kit's own card against Kit's opponent: out of play.
	st := newGame(t, 3, nil)
	giveTokens(st, 1, 1)
	setupConflict(t, st, []string{"1", "2"}, "Director: drop it")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	setHand(t, st, 0, "5C")
	setHand(t, st, 1, "9H")
	setHand(t, st, 2, "KS")
	act(t, st, 0, "play", "5C")
	act(t, st, 1, "play", "9H")
	act(t, st, 2, "play", "KS")
	act(t, st, 1, "aim", "2") // Diana's side
	act(t, st, 1, "token")
	if st.C.Bonuses[0].On != 2 {
		t.Fatalf("token on side %d", st.C.Bonuses[0].On)
	}
	revealAll(t, st)
	if st.Spent != 1 || st.Bank != 0 {
		t.Errorf("out of play %d, bank %d", st.Spent, st.Bank)
	}
}

func TestBystanderTokens(t *testing.T) {
	// Susan's protagonist sits the conflict out; her token on Kit's red card
	// against the GM's red card goes to the bank. She can't use a talent.
	st := newGame(t, 3, nil)
	giveTokens(st, 2, 1)
	actText(t, st, 2, "addtal", "Luck 2")
	toBonus(t, st, "TH", "9D")
	wantRefused(t, st, 2, "usetal", "", "taking part", "0")
	wantRefused(t, st, 2, "ready", "", "taking part")
	act(t, st, 2, "aim", "1")
	act(t, st, 2, "token")
	if got := st.ToAct(); len(got) != 2 {
		t.Errorf("ToAct %v: the bystander isn't awaited", got)
	}
	revealAll(t, st)
	if st.Bank != 1 {
		t.Errorf("bank %d", st.Bank)
	}
}

func TestGMTakesTheBank(t *testing.T) {
	st := newGame(t, 2, nil)
	wantRefused(t, st, 0, "bank", "", "empty")
	st.Pool--
	st.Bank++
	wantRefused(t, st, 1, "bank", "", "Only the GM")
	held := st.Tokens[0]
	act(t, st, 0, "bank")
	if st.Tokens[0] != held+1 || st.Bank != 0 {
		t.Errorf("GM %d bank %d", st.Tokens[0], st.Bank)
	}
	// At any time, a conflict's bonuses included.
	giveTokens(st, 1, 1)
	toBonus(t, st, "TH", "9D")
	act(t, st, 1, "token")
	revealAll(t, st)
	if st.Bank != 1 {
		t.Fatalf("bank %d", st.Bank)
	}
	act(t, st, 0, "bank")
	if st.Bank != 0 {
		t.Errorf("bank %d after taking it during the narration", st.Bank)
	}
}

func TestGMTokenLimit(t *testing.T) {
	// One protagonist: at most 1 + 1 = 2 GM tokens.
	st := newGame(t, 2, nil)
	toBonus(t, st, "TH", "9D")
	act(t, st, 0, "token")
	act(t, st, 0, "token")
	wantRefused(t, st, 0, "token", "", "at most 2 story-tokens")

	// Two protagonists: 3. Never more than held.
	st = newGame(t, 3, nil)
	setupConflict(t, st, []string{"1", "2"}, "Director: drop it")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	deckRound(t, st, 0, 1, 2)
	st.Spent += st.Tokens[0] - 2
	st.Tokens[0] = 2
	act(t, st, 0, "token")
	act(t, st, 0, "token")
	wantRefused(t, st, 0, "token", "", "no story-tokens")
	st.Tokens[0]++
	st.Spent--
	act(t, st, 0, "token")
	wantRefused(t, st, 0, "token", "", "at most 3 story-tokens in this conflict (1 + 2 participating players)")
	// Taking one back frees the limit.
	act(t, st, 0, "undo")
	act(t, st, 0, "token")
}

func TestOneTalentPerRoundAndTheSessionCap(t *testing.T) {
	st := newGame(t, 2, map[string]int{OptTalentCap: 1})
	actText(t, st, 1, "addtal", "Kung fu 3")
	actText(t, st, 1, "addtal", "Charm 1")
	toBonus(t, st, "TH", "9D")
	act(t, st, 1, "usetal", "0")
	wantRefused(t, st, 1, "usetal", "", "one talent per player per round", "1")
	revealAll(t, st)
	act(t, st, 0, "skip")
	act(t, st, 0, "skip")
	if st.Heroes[1].SessionUses != 1 {
		t.Fatalf("session uses %d", st.Heroes[1].SessionUses)
	}
	// The cap of 1 is reached for this session.
	toBonus(t, st, "5H", "9D")
	wantRefused(t, st, 1, "usetal", "", "the cap", "1")
	if strings.Contains(gamestest.Text(st.Hand(1)), "Use a talent") {
		t.Error("the talent menu is offered beyond the cap")
	}
	act(t, st, 0, "cancel")
	act(t, st, 0, "session")
	toBonus(t, st, "5H", "9D")
	act(t, st, 1, "usetal", "1")
	revealAll(t, st)
	act(t, st, 0, "skip")
	act(t, st, 0, "skip")
	// Charm is used up.
	toBonus(t, st, "5H", "9D")
	act(t, st, 0, "cancel")
	st.Heroes[1].SessionUses = 0
	toBonus(t, st, "5H", "9D")
	wantRefused(t, st, 1, "usetal", "", "no uses left", "1")
	wantRefused(t, st, 1, "usetal", "", "Choose one of your talents", "7")
	wantRefused(t, st, 0, "usetal", "", "The GM has no talents", "0")
}

func TestTalentOnAnotherCardNeedsALine(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 2, "name", "Diana")
	actText(t, st, 2, "addtal", "Sharpshooter 2")
	actText(t, st, 1, "name", "Kit")
	setupConflict(t, st, []string{"1", "2"}, "Riso: get away")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	deckRound(t, st, 0, 1, 2)
	act(t, st, 2, "aim", "1") // Kit's card
	if ev := act(t, st, 2, "usetal", "0"); len(ev) != 0 || len(st.C.Bonuses) != 0 {
		t.Fatalf("a talent on another's card is placed only with its line")
	}
	if !strings.Contains(gamestest.Text(st.Hand(2)), "Say how Diana helps") {
		t.Fatalf("no help button: %s", gamestest.Text(st.Hand(2)))
	}
	wantRefused(t, st, 2, "ready", "", "Say how")
	wantRefused(t, st, 2, "help", "  ", "empty")
	wantRefused(t, st, 2, "help", strings.Repeat("x", 201), "too long")
	ev := actText(t, st, 2, "help", "I cover him from the balcony")
	if !strings.Contains(texts(ev), "Diana helps Kit with Sharpshooter (+3): “I cover him from the balcony”") {
		t.Errorf("help event %q", texts(ev))
	}
	if b := st.C.Bonuses[0]; b.On != 1 || b.Talent != "Sharpshooter" || b.From != 2 {
		t.Errorf("bonus %+v", b)
	}
	revealAll(t, st)
	if st.Heroes[2].Talents[0].Uses != 1 || st.Heroes[2].SessionUses != 1 {
		t.Errorf("Diana's talent not checked off: %+v", st.Heroes[2])
	}
}

func TestGMStakesNoMoreThanPlayers(t *testing.T) {
	st := newGame(t, 3, nil)
	act(t, st, 0, "open")
	wantRefused(t, st, 0, "gmstake", "Riso: get away", "Choose the protagonists")
	act(t, st, 0, "who", "1")
	actText(t, st, 0, "gmstake", "Riso: get away")
	wantRefused(t, st, 0, "gmstake", "Goons: rough them up", "more stakes than participating players (1)")
	act(t, st, 0, "who", "1", "2")
	actText(t, st, 0, "gmstake", "Goons: rough them up")
	wantRefused(t, st, 0, "who", "", "more stakes", "1")
	wantRefused(t, st, 0, "gmstake", "no colon", "more stakes") // full first
	act(t, st, 0, "unstake")
	wantRefused(t, st, 0, "gmstake", "no colon", "e.g.")
	wantRefused(t, st, 0, "gmstake", ": no name", "e.g.")
	wantRefused(t, st, 0, "gmstake", "Riso: again", "already has a stake")
	wantRefused(t, st, 0, "gmstake", strings.Repeat("n", 41)+": x", "too long")
	wantRefused(t, st, 0, "gmstake", "Goons2: "+strings.Repeat("s", 201), "too long")
	wantRefused(t, st, 1, "gmstake", "X: y", "Only the GM")
	wantRefused(t, st, 0, "who", "", "protagonists of players", "0")
	wantRefused(t, st, 0, "who", "", "once", "1", "1")
}

func TestMultipleGMStakesAndUnopposed(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "name", "Kit")
	actText(t, st, 2, "name", "Diana")
	setupConflict(t, st, []string{"1", "2"}, "Riso: gun down Vinny", "Goons: rough up the agents")
	if got := st.ToAct(); len(got) != 2 {
		t.Fatalf("ToAct %v in the stakes", got)
	}
	actText(t, st, 1, "stake", "capture Riso")
	actText(t, st, 2, "stake", "keep Vinny safe")
	wantRefused(t, st, 0, "cards", "", "Waiting for Kit to choose")
	wantRefused(t, st, 1, "vs", "", "Choose one of", "2")
	act(t, st, 1, "vs", "0")
	act(t, st, 2, "vs", "0")
	ev := act(t, st, 0, "cards")
	if !strings.Contains(texts(ev), "**Goons** (GM): rough up the agents — *unopposed, it succeeds automatically.*") {
		t.Errorf("the unopposed stake isn't announced: %q", texts(ev))
	}
	if !strings.Contains(st.Table().Fields[0].Value, "unopposed") {
		t.Errorf("the table doesn't say so: %q", st.Table().Fields[0].Value)
	}
	act(t, st, 0, "play", "deck")
	wantRefused(t, st, 0, "play", "", "already down", "deck")
	act(t, st, 1, "play", "deck")
	act(t, st, 2, "play", "deck")
	out := revealAll(t, st)
	if !strings.Contains(out, "unopposed, so they succeed: Goons") {
		t.Errorf("reveal %q", out)
	}
	if st.C.Order[0].Seat != 0 || st.C.Order[0].Sides[0] != 1 {
		t.Errorf("the unopposed stake should narrate first: %+v", st.C.Order)
	}
}

func TestLargeConflictEachAgainstOwnOpponent(t *testing.T) {
	st := newGame(t, 4, nil)
	for seat, n := range []string{"", "Kit", "Jason", "Diana"} {
		if seat > 0 {
			actText(t, st, seat, "name", n)
		}
	}
	setupConflict(t, st, []string{"1", "2", "3"}, "Riso: gun down Vinny", "Goons: rough up the agents")
	for seat, vs := range map[int]string{1: "0", 2: "0", 3: "1"} {
		actText(t, st, seat, "stake", "stake")
		act(t, st, seat, "vs", vs)
	}
	act(t, st, 0, "cards")
	setHand(t, st, 0, "9S", "KC")
	setHand(t, st, 1, "AH")
	setHand(t, st, 2, "5D")
	setHand(t, st, 3, "2H")
	act(t, st, 0, "play", "9S") // Riso
	act(t, st, 0, "play", "KC") // Goons
	act(t, st, 1, "play", "AH")
	act(t, st, 2, "play", "5D")
	act(t, st, 3, "play", "2H")
	out := revealAll(t, st)
	for _, want := range []string{"**Kit** beats **Riso**", "**Riso** beats **Jason**", "**Goons** beats **Diana**",
		"partly: Riso (beat Jason, beaten by Kit)", "won: Goons and Kit", "lost: Jason and Diana"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	// Narration from the lowest: Diana 2, Jason 5, Riso 9, Goons K, Kit A;
	// the GM's Riso and Goons are one turn.
	var seats []string
	for _, tn := range st.C.Order {
		seats = append(seats, itoa(tn.Seat))
	}
	if got := strings.Join(seats, ","); got != "3,2,0,1" {
		t.Errorf("narration seats %s", got)
	}
}

func TestProtagonistAgainstProtagonist(t *testing.T) {
	st := newGame(t, 3, nil)
	act(t, st, 0, "open")
	wantRefused(t, st, 0, "declare", "", "Choose the protagonists")
	act(t, st, 0, "who", "1")
	wantRefused(t, st, 0, "declare", "", "two protagonists")
	act(t, st, 0, "who", "1", "2")
	act(t, st, 0, "declare")
	if st.C.Sides[0].Opp != 1 || st.C.Sides[1].Opp != 0 {
		t.Fatalf("two protagonists oppose each other by default: %+v", st.C.Sides)
	}
	actText(t, st, 1, "stake", "I lead")
	actText(t, st, 2, "stake", "no, I lead")
	act(t, st, 0, "cards")
	if got := st.ToAct(); len(got) != 2 || got[0] != 1 {
		t.Errorf("ToAct %v: the GM plays no card", got)
	}
	setHand(t, st, 1, "7C")
	setHand(t, st, 2, "7D")
	giveTokens(st, 1, 1)
	act(t, st, 1, "play", "7C")
	act(t, st, 2, "play", "7D")
	act(t, st, 1, "token")
	act(t, st, 0, "aim", "1")
	act(t, st, 0, "token") // the GM may still back a side
	out := revealAll(t, st)
	if !strings.Contains(out, "beats") || st.C.Sides[0].Total != 10 || st.C.Sides[1].Total != 10 {
		t.Errorf("totals %d %d: %q", st.C.Sides[0].Total, st.C.Sides[1].Total, out)
	}
	// Equal totals: ♦ beats ♣. Bob's black card against Susan's red: out of play.
	if !strings.Contains(out, "**Susan** beats **Bob** (same total, higher suit)") {
		t.Errorf("suit should break the tie: %q", out)
	}
	if st.Spent != 1 || st.Pool != 2+1-1 {
		t.Errorf("spent %d pool %d", st.Spent, st.Pool)
	}
}

func TestHandOfFate(t *testing.T) {
	st := newGame(t, 2, nil)
	actText(t, st, 1, "name", "Kit")
	giveTokens(st, 1, 1)
	toBonus(t, st, "6H", "9H")
	act(t, st, 1, "token") // 6♥ + 3 = 9♥: an exact tie
	stackDeck(t, st, "X0", "X1", "7D", "3S")
	out := revealAll(t, st)
	cl := st.C.Clashes[0]
	if len(cl.Fate) != 2 || st.C.Sides[cl.Winner].Seat != 1 {
		t.Fatalf("fate %+v, winner side %d", cl.Fate, cl.Winner)
	}
	for _, want := range []string{"The Hand of Fate!", "Fate draws 🃏 Joker for Kit and 🃏 Joker for Foe.",
		"Fate draws 7♦ for Kit and 3♠ for Foe.", "**Kit** wins an especially dramatic victory", "**Foe** suffers a spectacular setback"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal %q lacks %q", out, want)
		}
	}
	if st.Bank != 1 {
		t.Errorf("the tie-break ignores bonuses but the token still goes by colour: bank %d", st.Bank)
	}
	if st.C.Order[0].Seat != 0 {
		t.Errorf("the fate loser narrates first: %+v", st.C.Order)
	}
}

func TestHandOfFateTwoJokersAndSuits(t *testing.T) {
	st := newGame(t, 2, nil)
	toBonus(t, st, "X0", "X1")
	stackDeck(t, st, "2C", "2D")
	out := revealAll(t, st)
	if !strings.Contains(out, "Hand of Fate") || st.C.Sides[st.C.Clashes[0].Winner].Seat != 0 {
		t.Errorf("two Jokers tie exactly; 2♦ beats 2♣: %q", out)
	}

	// Equal totals, different suits: the suit decides, no fate.
	st = newGame(t, 2, nil)
	toBonus(t, st, "9S", "9H")
	out = revealAll(t, st)
	if strings.Contains(out, "Hand of Fate") || st.C.Sides[st.C.Clashes[0].Winner].Seat != 1 {
		t.Errorf("9♠ beats 9♥ by suit: %q", out)
	}
	// A Joker beats any suit at an equal total.
	st = newGame(t, 2, nil)
	st.Pool -= 2
	st.Tokens[0] += 2
	toBonus(t, st, "X0", "9S")
	act(t, st, 0, "token")
	act(t, st, 0, "token") // 9 + 6 = 15
	out = revealAll(t, st)
	if strings.Contains(out, "Hand of Fate") || st.C.Sides[st.C.Clashes[0].Winner].Seat != 1 {
		t.Errorf("the Joker wins the equal total: %q", out)
	}

	// Lethal: equal totals alone call the Hand of Fate.
	st = newGame(t, 2, map[string]int{OptLethal: 1})
	toBonus(t, st, "9S", "9H")
	stackDeck(t, st, "3C", "4C")
	out = revealAll(t, st)
	if !strings.Contains(out, "Hand of Fate") || st.C.Sides[st.C.Clashes[0].Winner].Seat != 0 {
		t.Errorf("lethal fate: 4♣ for the GM wins: %q", out)
	}
}

func TestCardsStayHiddenAndDeckCardsUnseen(t *testing.T) {
	st := newGame(t, 3, nil)
	toBonus(t, st, "QH", "2C")
	if strings.Contains(gamestest.Text(st.Table()), "Q♥") || strings.Contains(gamestest.Text(st.Hand(0)), "Q♥") ||
		strings.Contains(gamestest.Text(st.Hand(2)), "Q♥") {
		t.Error("a face-down card shows")
	}
	if !strings.Contains(st.Hand(1).Description, "Face down:** Q♥") {
		t.Errorf("the player doesn't see their own card: %q", st.Hand(1).Description)
	}
	act(t, st, 0, "cancel")
	if len(st.Hands[1]) != playerHand || !slices.Contains(st.Hands[1], card(t, "QH")) {
		t.Errorf("calling off returns the card and refills the hand: %v", st.Hands[1])
	}
}

func TestTakeBackCards(t *testing.T) {
	st := newGame(t, 3, nil)
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	act(t, st, 0, "cards")
	top := st.Deck.Draw[len(st.Deck.Draw)-1]
	act(t, st, 1, "play", "deck")
	act(t, st, 1, "unplay")
	if st.Deck.Draw[len(st.Deck.Draw)-1] != top {
		t.Error("an unseen deck card goes back on top")
	}
	wantRefused(t, st, 1, "unplay", "", "no card")
	h := st.Hands[1][0]
	act(t, st, 1, "play", h.Code())
	act(t, st, 1, "unplay")
	if len(st.Hands[1]) != 4 {
		t.Errorf("hand %v", st.Hands[1])
	}
	wantRefused(t, st, 1, "play", "", "isn't in your hand", "2C")
	wantRefused(t, st, 1, "play", "", "Choose a card", "zz")
}

func TestAwards(t *testing.T) {
	st := newGame(t, 3, nil)
	actText(t, st, 1, "name", "Kit")
	actText(t, st, 2, "name", "Diana")
	// A line before any narration earns nothing.
	ev, err := st.Say(1, "Kit", "Hello")
	if err != nil || len(ev) != 1 || ev[0].Ref != "line1" || len(ev[0].Emoji) != 1 || ev[0].Emoji[0] != "🎭" || !ev[0].Story {
		t.Fatalf("Say: %+v %v", ev, err)
	}
	reactRefused(t, st, 2, "line1", true, "during or after")

	setupConflict(t, st, []string{"1", "2"}, "Director: drop it")
	ev, _ = st.Say(1, "Kit", "Not yet")
	actText(t, st, 1, "stake", "a")
	actText(t, st, 2, "stake", "b")
	deckRound(t, st, 0, 1, 2)
	revealAll(t, st)
	reactRefused(t, st, 2, ev[0].Ref, true, "during or after")

	kit, _ := st.Say(1, "Kit", "You won't regret this, Sir.")
	kit2, _ := st.Say(1, "Kit", "National security!")
	diana, _ := st.Say(2, "Diana", "My investigation.")
	gm, _ := st.Say(0, "Director", "Hell to pay.")
	if len(gm[0].Emoji) != 0 {
		t.Errorf("the GM's line carries %v", gm[0].Emoji)
	}
	if _, err := st.Say(-1, "x", "y"); err == nil {
		t.Error("a spectator spoke")
	}
	pool := st.Pool
	reactRefused(t, st, 1, kit[0].Ref, true, "yourself")
	reactRefused(t, st, 2, gm[0].Ref, true, "not the GM's")
	reactRefused(t, st, 0, kit[0].Ref, true, "GM's reactions")
	reactRefused(t, st, -1, kit[0].Ref, true, "players of this campaign")
	if _, err := st.React(2, kit[0].Ref, "👍", true); err == nil {
		t.Error("👍 counted")
	}
	react(t, st, 2, kit[0].Ref, true)
	if st.Tokens[1] != 1 || st.Pool != pool-1 {
		t.Fatalf("Kit %d tokens, pool %d", st.Tokens[1], st.Pool)
	}
	if ev := react(t, st, 2, kit[0].Ref, true); len(ev) != 0 {
		t.Error("a repeated reaction counted twice")
	}
	reactRefused(t, st, 2, kit2[0].Ref, true, "already given a story-token for this conflict (to Kit)")
	// Removing the reaction takes it back.
	react(t, st, 2, kit[0].Ref, false)
	if st.Tokens[1] != 0 || st.Pool != pool {
		t.Fatalf("after the take-back: Kit %d, pool %d", st.Tokens[1], st.Pool)
	}
	react(t, st, 2, kit2[0].Ref, true)
	react(t, st, 1, diana[0].Ref, true)
	// Awards stay open after the narration, until the next conflict.
	for len(st.ToAct()) > 0 && st.Phase == PhaseNarrate {
		act(t, st, 0, "skip")
	}
	react(t, st, 2, kit2[0].Ref, false)
	react(t, st, 2, kit[0].Ref, true)
	late, _ := st.Say(2, "Diana", "Afterthought.")
	if late[0].Emoji == nil {
		t.Error("a line after the narration can earn an award")
	}
	act(t, st, 0, "open")
	tokens := st.Tokens[1]
	if ev := react(t, st, 2, kit[0].Ref, false); len(ev) != 0 || st.Tokens[1] != tokens {
		t.Error("a take-back after the next conflict opened changed something")
	}
	reactRefused(t, st, 1, late[0].Ref, true, "during or after the current conflict's narration")

	// An empty pool gives nothing.
	act(t, st, 0, "cancel")
	st.Spent += st.Pool
	st.Pool = 0
	setupConflict(t, st, []string{"1"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	deckRound(t, st, 0, 1)
	revealAll(t, st)
	l, _ := st.Say(1, "Kit", "Again")
	reactRefused(t, st, 2, l[0].Ref, true, "pool is empty")
}

func react(t *testing.T, st *State, seat int, ref string, add bool) []games.Event {
	t.Helper()
	ev, err := st.React(seat, ref, "🎭", add)
	if err != nil {
		t.Fatalf("React(%d, %s, %v): %v", seat, ref, add, err)
	}
	checkInvariants(t, st)
	return ev
}

func reactRefused(t *testing.T, st *State, seat int, ref string, add bool, want string) {
	t.Helper()
	before := encode(t, st)
	_, err := st.React(seat, ref, "🎭", add)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("React(%d, %s): %v, want a refusal mentioning %q", seat, ref, err, want)
	}
	if string(before) != string(encode(t, st)) {
		t.Error("a refused reaction changed the state")
	}
}

func TestJoinsAndLeaves(t *testing.T) {
	st := newGame(t, 2, nil)
	gm, pool := st.Tokens[0], st.Pool
	seat, ev, err := st.Join("Susan")
	if err != nil || seat != 2 || len(ev) == 0 {
		t.Fatalf("Join: %d %v %v", seat, ev, err)
	}
	if st.Tokens[0] != gm+3 || st.Pool != pool+1 || len(st.Hands[2]) != 4 || len(st.Hands[0]) != 5 || st.Tokens[2] != 0 {
		t.Fatalf("after a join between conflicts: GM %d, pool %d, hands %d/%d", st.Tokens[0], st.Pool, len(st.Hands[2]), len(st.Hands[0]))
	}
	checkInvariants(t, st)
	// A join during a conflict: not in it, the GM's hand grows at the refill.
	toBonus(t, st, "TH", "9D")
	seat, _, err = st.Join("Carl")
	if err != nil || seat != 3 || st.inConflict(3) {
		t.Fatalf("mid-conflict join: %d %v", seat, err)
	}
	if len(st.ToAct()) != 2 {
		t.Errorf("ToAct %v", st.ToAct())
	}
	checkInvariants(t, st)
	revealAll(t, st)
	act(t, st, 0, "skip")
	act(t, st, 0, "skip")
	if len(st.Hands[0]) != 6 {
		t.Errorf("the GM's hand is %d after the refill, want 3 + 3", len(st.Hands[0]))
	}
	// A participant who leaves mid-conflict: the deck plays for them.
	setupConflict(t, st, []string{"1", "2"}, "Foe: win")
	actText(t, st, 1, "stake", "a")
	if _, err := st.Leave(2); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, st)
	act(t, st, 0, "cards")
	act(t, st, 0, "play", "deck")
	act(t, st, 1, "play", "deck")
	if st.Phase != PhaseBonus || st.C.Sides[2].Card == nil {
		t.Fatalf("phase %s; the leaver's card %v", st.Phase, st.C.Sides[2].Card)
	}
	revealAll(t, st)
	for st.Phase == PhaseNarrate {
		if st.ToAct()[0] == 2 {
			t.Fatal("the leaver is asked to narrate")
		}
		act(t, st, st.ToAct()[0], "done")
	}
	if _, err := st.Leave(0); err == nil {
		t.Error("the GM left")
	}
	for len(st.Players) < maxSeats {
		if _, _, err := st.Join("x"); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := st.Join("one too many"); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("join past 6 players: %v", err)
	}
	checkInvariants(t, st)
}

func TestProtagonistsAndTalents(t *testing.T) {
	st := newGame(t, 3, nil)
	wantRefused(t, st, 1, "name", strings.Repeat("k", 41), "too long")
	wantRefused(t, st, 1, "name", "  ", "empty")
	wantRefused(t, st, 1, "name", "Kit: bold", "no :")
	wantRefused(t, st, 0, "name", "GM", "only players")
	actText(t, st, 1, "name", "Kit")
	wantRefused(t, st, 2, "name", "kit", "already a protagonist")
	wantRefused(t, st, 1, "addtal", "Kung fu", "e.g. \"Kung fu 3\"")
	wantRefused(t, st, 1, "addtal", "Kung fu 11", "at most 10")
	actText(t, st, 1, "addtal", "Kung fu 3")
	actText(t, st, 1, "addtal", "kung FU 2") // the same talent, new uses
	if h := st.Heroes[1]; len(h.Talents) != 1 || h.Talents[0].Uses != 2 {
		t.Fatalf("talents %+v", h.Talents)
	}
	actText(t, st, 1, "addtal", "Kung fu 0")
	if len(st.Heroes[1].Talents) != 0 {
		t.Fatal("0 uses should remove the talent")
	}
	actText(t, st, 1, "addtal", "Kung fu 3")
	// After the first conflict, only the GM changes talents.
	toBonus(t, st, "TH", "9D")
	wantRefused(t, st, 1, "name", "Kitty", "in the conflict")
	act(t, st, 1, "usetal", "0")
	wantRefused(t, st, 0, "kit", "Kit: Kung fu 5", "on a card right now")
	revealAll(t, st)
	wantRefused(t, st, 1, "addtal", "Charm 2", "the GM adjusts")
	wantRefused(t, st, 0, "kit", "Kit Kung fu 5", "e.g. \"Kit: Kung fu 4\"")
	wantRefused(t, st, 0, "kit", "Nobody: Kung fu 5", "No protagonist")
	wantRefused(t, st, 0, "kit", "Kit: Charm 0", "no talent called")
	wantRefused(t, st, 1, "kit", "Kit: Kung fu 5", "Only the GM")
	actText(t, st, 0, "kit", "kit: Kung fu 5")
	actText(t, st, 0, "kit", "Susan: Luck 2") // by player name too
	if st.Heroes[1].Talents[0].Uses != 5 || st.Heroes[2].Talents[0].Name != "Luck" {
		t.Errorf("heroes %+v", st.Heroes)
	}
}

func TestEndOfTheCampaign(t *testing.T) {
	st := newGame(t, 3, nil)
	giveTokens(st, 2, 2)
	toBonus(t, st, "TH", "9D")
	wantRefused(t, st, 0, "end", "END", "Finish or call off")
	act(t, st, 0, "cancel")
	wantRefused(t, st, 0, "end", "maybe", "type END")
	wantRefused(t, st, 1, "end", "END", "Only the GM")
	ev := actText(t, st, 0, "end", "end")
	if !st.Over() || !strings.Contains(texts(ev), "The campaign ends") {
		t.Fatalf("over %v: %q", st.Over(), texts(ev))
	}
	res := st.Results()
	if len(res) != 2 || res[0].Seat != 1 || res[1].Seat != 2 || res[1].Score != 2 || res[0].Winner || res[1].Winner {
		t.Errorf("results %+v", res)
	}
	wantRefused(t, st, 0, "open", "", "over")
	if _, _, err := st.Join("late"); err == nil {
		t.Error("joined a finished campaign")
	}
}

func TestRefusalsOutOfPhaseAndBadSeats(t *testing.T) {
	st := newGame(t, 3, nil)
	for _, v := range []string{"who", "declare", "stake", "vs", "cards", "play", "unplay", "aim", "token", "usetal",
		"help", "undo", "ready", "unready", "done", "skip", "hurry", "cancel", "unstake", "gmstake"} {
		args := []string{}
		if verbs[v].args != 0 {
			args = []string{"1"}
		}
		refused(t, st, 0, v, "x: y", args...)
		refused(t, st, 1, v, "x: y", args...)
	}
	refused(t, st, -1, "open", "")
	refused(t, st, 9, "open", "")
	refused(t, st, 0, "nonsense", "")
	refused(t, st, 0, "open", "", "extra")
	refused(t, st, 1, "open", "")
	for _, seat := range []int{-1, 3, 99} {
		if v := st.Hand(seat); len(v.Buttons)+len(v.Choices) != 0 {
			t.Errorf("seat %d has controls", seat)
		}
	}
}

func TestViewsFitInEveryPhase(t *testing.T) {
	st := newGame(t, 7, nil)
	for seat := 1; seat < 7; seat++ {
		actText(t, st, seat, "name", strings.Repeat("N", 38)+itoa(seat))
		for i := range maxTalents {
			actText(t, st, seat, "addtal", strings.Repeat("T", 38)+itoa(i)+" 9")
		}
		giveTokens(st, seat, 1)
	}
	check := func(when string) {
		t.Helper()
		if err := gamestest.Fits(st.Table(), 1); err != nil {
			t.Fatalf("%s: table: %v", when, err)
		}
		if n := strings.Count(st.Table().Description, "\n") + 1; n > 10 {
			t.Errorf("%s: table description has %d lines", when, n)
		}
		for seat := range st.Players {
			if err := gamestest.Fits(st.Hand(seat), 0); err != nil {
				t.Fatalf("%s: seat %d: %v", when, seat, err)
			}
		}
	}
	check("idle")
	act(t, st, 0, "open")
	act(t, st, 0, "who", "1", "2", "3", "4", "5", "6")
	for i := range 6 {
		actText(t, st, 0, "gmstake", strings.Repeat("G", 39)+itoa(i)+": "+strings.Repeat("s", 200))
	}
	check("setup")
	act(t, st, 0, "declare")
	for seat := 1; seat < 7; seat++ {
		actText(t, st, seat, "stake", strings.Repeat("w", 200))
		act(t, st, seat, "vs", itoa(seat-1))
	}
	check("stakes")
	act(t, st, 0, "cards")
	check("cards")
	for seat := range 7 {
		for st.nextUnplayed(seat) >= 0 {
			act(t, st, seat, "play", "deck")
		}
	}
	for seat := range 7 {
		act(t, st, seat, "token")
	}
	act(t, st, 1, "aim", "0")
	act(t, st, 1, "usetal", "3")
	check("bonus")
	actText(t, st, 1, "help", strings.Repeat("h", 200))
	for seat := range 7 {
		act(t, st, seat, "ready")
	}
	check("narrate")
	for st.Phase == PhaseNarrate {
		act(t, st, 0, "skip")
	}
	check("after")
}

func TestRulesText(t *testing.T) {
	if n := len([]rune(Rules.Summary)); n > 4000 {
		t.Errorf("summary is %d characters", n)
	}
	if !strings.Contains(Rules.Summary, "Rulings") {
		t.Error("summary has no Rulings paragraph")
	}
	if Rules.ID != "improv" || !Rules.GM || Rules.MinPlayers != 2 || Rules.MaxPlayers != 7 || Rules.Version != 1 {
		t.Errorf("rules %+v", Rules)
	}
}
