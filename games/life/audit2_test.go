package life

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Second audit: rule combinations the other tests leave unplayed — deaths
// at the edges of the turn order and of the game, the swap meeting death and
// the last moment before Romance, markers earned during introductions, and
// reshuffles that bring replaced advantages back into play.

// stagesOf lists the life stages of seat's chapters, in order.
func stagesOf(st *State, seat int) []int {
	var out []int
	for _, ch := range st.History[seat] {
		out = append(out, ch.Stage)
	}
	return out
}

// Rule 6 with the snake-eyes ruling: when the dealer dies, every later round
// still starts left of the dealer, and the dealer's seat is simply skipped.
func TestAudit2DeadDealerLaterRoundsStillStartLeftOfTheDealer(t *testing.T) {
	st := started(t, 3, snakeNoRP)
	for _, seat := range []int{1, 2} {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, seat)
	}
	forceDice(t, st, 1, 1)
	apply(t, st, 0, "use", "family") // Ann, the dealer, dies last in Childhood
	if !st.dead(0) || st.Round != 1 || st.current() != 1 {
		t.Fatalf("dead %v, round %d, current %d: want round 2 opened by Bea", st.dead(0), st.Round, st.current())
	}
	var order []int
	for !st.Over() {
		seat := st.ToAct()[0]
		order = append(order, seat)
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, seat)
	}
	var want []int
	for range rounds - 1 {
		want = append(want, 1, 2)
	}
	if !slices.Equal(order, want) {
		t.Fatalf("turns after the dealer's death %v, want %v", order, want)
	}
	if len(st.History[0]) != 1 || st.DiedIn[0] != 0 {
		t.Fatalf("the dead dealer has %d chapters, died in %d", len(st.History[0]), st.DiedIn[0])
	}
}

// Snake eyes on the very last turn of Old age, with a challenge the chosen
// advantage could never beat: the character dies, nothing is flipped (the
// score is what was face up at death) and the game ends with the scores.
func TestAudit2SnakeEyesOnTheLastTurnEndsTheGameWithNothingFlipped(t *testing.T) {
	st := started(t, 2, snakeNoRP)
	for !(st.Round == rounds-1 && st.current() == 0) {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, st.ToAct()[0])
	}
	setBoard(t, st, 0, "AS", "-KH", "9D", "2C", "TH", "5S")
	setChallenge(t, st, "AC") // the 2♣ has no chance: a plain loss would flip it
	forceDice(t, st, 1, 1)
	ev := apply(t, st, 0, "use", "mind")
	if !st.Over() || st.DiedIn[0] != rounds-1 || lastChapter(t, st, 0).Result != resDied {
		t.Fatalf("over %v, died in %d, chapter %+v", st.Over(), st.DiedIn[0], lastChapter(t, st, 0))
	}
	if !st.Boards[0][3].Up {
		t.Error("death flipped the advantage used")
	}
	if s := st.Results()[0].Score; s != 11+9+2+10+5 {
		t.Errorf("score %d, want 37: what was face up at death", s)
	}
	all := texts(ev)
	if !strings.Contains(all, "Final scores") || !strings.Contains(all, "died in Old age") {
		t.Errorf("the end doesn't tell the death and the scores:\n%s", all)
	}
}

// The swap ruling meets snake eyes: a dead character can no longer swap
// (nor is offered it), while a living one still can, in Childhood, and then
// lives Career before Romance.
func TestAudit2DeadCharacterCannotSwapButTheLivingStillCan(t *testing.T) {
	st := newGame(t, 2, map[string]int{"roleplay": 0, "snake_eyes": 1, "swap": 1}, 3)
	apply(t, st, 0, "begin")
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "family") // Bea dies in Childhood
	if msg := refused(t, st, 1, "swap"); !strings.Contains(msg, "ended") {
		t.Errorf("a dead character's swap: %q", msg)
	}
	if hasVerb(st.Hand(1), "swap") {
		t.Error("a dead character is offered the swap")
	}
	if !hasVerb(st.Hand(0), "swap") {
		t.Fatal("the living dealer should still be offered the swap in Childhood")
	}
	apply(t, st, 0, "swap")
	for !st.Over() {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, 0)
	}
	if got := stagesOf(st, 0); !slices.Equal(got, []int{0, 1, 3, 2, 4, 5}) {
		t.Fatalf("Ann's stages %v, want Career before Romance", got)
	}
	if st.Swapped[1] {
		t.Error("the dead Bea's order changed")
	}
}

// The swap ruling at its edge: a swap made while the dealer is still
// deciding on their Adolescence win counts (Romance hasn't begun); once the
// dealer keeps, Romance begins and the swap is closed.
func TestAudit2SwapDuringTheLastAdolescenceDecisionCounts(t *testing.T) {
	st := newGame(t, 2, map[string]int{"roleplay": 0, "swap": 1}, 9)
	apply(t, st, 0, "begin")
	for !(st.Round == 1 && st.current() == 0) {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, st.ToAct()[0])
	}
	setBoard(t, st, 0, "9S", "2H", "3D", "4C", "5S", "6H")
	setChallenge(t, st, "5C")
	forceRoll(t, st, 7)
	apply(t, st, 0, "use", "family")
	if st.Phase != phaseDecide {
		t.Fatalf("expected Ann to win, chapter %+v", lastChapter(t, st, 0))
	}
	apply(t, st, 1, "swap") // Bea, not on turn, at the last moment
	apply(t, st, 0, "keep")
	if st.Round != 2 {
		t.Fatalf("round %d after Adolescence", st.Round)
	}
	if msg := refused(t, st, 1, "swap"); !strings.Contains(msg, "Too late") {
		t.Errorf("swap in Romance: %q", msg)
	}
	for st.Round == 2 {
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, st.ToAct()[0])
	}
	if got := stagesOf(st, 1); !slices.Equal(got, []int{0, 1, 3}) {
		t.Errorf("Bea's stages %v: the last-moment swap should make round 3 her Career", got)
	}
	if got := stagesOf(st, 0); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("Ann's stages %v", got)
	}
}

// Role play, first suggestion: characters are introduced after the deal.
// Markers awarded for those introductions, before the dealer begins, count
// in the final score; after the end they can't be given or taken back.
func TestAudit2MarkersForIntroductionsCountAtTheEnd(t *testing.T) {
	st := newGame(t, 3, nil, 7)
	say := func(seat int, line string) string {
		ev, err := st.Say(seat, names[seat], line)
		if err != nil || len(ev) != 1 || !slices.Contains(ev[0].Emoji, markerEmoji) {
			t.Fatalf("introduction by %d: %v %+v", seat, err, ev)
		}
		return ev[0].Ref
	}
	bea := say(1, "I am a girl with a neglectful family.")
	ann := say(0, "Old money, cold house.")
	for _, r := range []struct {
		from int
		ref  string
	}{{0, bea}, {2, bea}, {1, ann}} {
		if _, err := st.React(r.from, r.ref, markerEmoji, true); err != nil {
			t.Fatalf("award during introductions: %v", err)
		}
	}
	apply(t, st, 0, "begin")
	playOut(t, st)
	res := st.Results()
	// Ann +1 received −2 unspent; Bea +2 −2; Cy +0 −2.
	for seat, adj := range []int{-1, 0, -2} {
		if want := st.cardPoints(seat) + adj; res[seat].Score != want {
			t.Errorf("seat %d scored %d, want %d", seat, res[seat].Score, want)
		}
	}
	reactRefused(t, st, 2, 0, ann, true)
	reactRefused(t, st, 0, 1, bea, false)
}

// Rule 9: after a win any advantage may be replaced, the one just used
// included, even by a weaker card; the used card goes to the discards and
// the score follows the new card.
func TestAudit2ReplacingTheAdvantageJustUsedEvenWithAWeakerCard(t *testing.T) {
	st := started(t, 1, noRP)
	setBoard(t, st, 0, "9S", "2H", "3D", "4C", "5S", "6H")
	setChallenge(t, st, "7C")
	forceRoll(t, st, 8)
	apply(t, st, 0, "use", "family")
	apply(t, st, 0, "replace", "family")
	if sl := st.Boards[0][0]; !sl.Up || sl.Card != card(t, "7C") {
		t.Fatalf("Family %+v, want the 7♣ face up", sl)
	}
	if !slices.Contains(st.Pile.Discard, card(t, "9S")) {
		t.Errorf("discards %v: the replaced 9♠ should be there", st.Pile.Discard)
	}
	if got := st.cardPoints(0); got != 7+2+3+4+5+6 {
		t.Errorf("card points %d, want 27", got)
	}
}

// Rule 9 with the reshuffle ruling: a face-down advantage replaced after a
// win goes to the discards, so when the pile runs out it is shuffled back
// and can be drawn as a challenge; advantages still on a board, face down
// or not, never are.
func TestAudit2ReplacedLostAdvantageComesBackThroughTheReshuffle(t *testing.T) {
	st := started(t, 2, noRP)
	st.Pile = games.Pile[games.Card]{}
	setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "-KC")
	setBoard(t, st, 0, "2S", "2H", "2D", "2C", "3S", "-QS")
	setChallenge(t, st, "8D")
	forceRoll(t, st, 9)
	apply(t, st, 1, "use", "family")
	ev := apply(t, st, 1, "replace", "heart")
	if !strings.Contains(texts(ev), "shuffled") {
		t.Errorf("no reshuffle announced:\n%s", texts(ev))
	}
	if st.Challenge == nil || *st.Challenge != card(t, "KC") || st.current() != 0 {
		t.Fatalf("Ann's challenge %v, want the K♣ Bea just replaced", st.Challenge)
	}
	if len(st.Pile.Draw) != 0 || len(st.Pile.Discard) != 0 {
		t.Fatalf("piles %v / %v: only the K♣ should have been reshuffled", st.Pile.Draw, st.Pile.Discard)
	}
	if sl := st.Boards[0][5]; sl.Up || sl.Card != card(t, "QS") {
		t.Errorf("Ann's lost Heart %+v should stay on her board face down", sl)
	}
}

// Rule 11 and the tie ruling across the living and the dead: a character
// who died with the same score and as many face-up advantages shares the
// win; one more face-up advantage decides it.
func TestAudit2DeadAndLivingCharactersTieAndShare(t *testing.T) {
	st := started(t, 3, snakeNoRP)
	setBoard(t, st, 1, "TS", "TH", "-AS", "-AH", "-AD", "-AC")
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "family") // Bea dies with 20 on two cards
	for !st.Over() {
		seat := st.ToAct()[0]
		forceRoll(t, st, 7)
		playTurnKeeping(t, st, seat)
	}
	setBoard(t, st, 2, "KS", "QH", "-2S", "-2H", "-2D", "-2C")
	setBoard(t, st, 0, "9S", "9H", "-2S", "-2H", "-2D", "-2C")
	res := st.Results()
	if !res[1].Winner || !res[2].Winner || res[0].Winner {
		t.Fatalf("results %+v: the dead Bea and Cy should share the win", res)
	}
	setBoard(t, st, 2, "8S", "8H", "4D", "-2H", "-2D", "-2C")
	if res := st.Results(); res[1].Winner || !res[2].Winner {
		t.Fatalf("results %+v: Cy's third face-up card should win the tie", res)
	}
}

// /rules states the rule text and the rulings in the game's own words.
func TestAudit2SummaryStatesTheCoreRules(t *testing.T) {
	for _, want := range []string{
		"Family, Money, Friends, Mind, Body, Heart",
		"Childhood, Adolescence, Romance, Career, Achievement, Old age",
		"J, Q and K count 10 and an ace 11",
		"at least the challenge and at most the advantage",
		"must pick and roll",
		"face up or face down",
		"more advantages still face up wins",
		"the win is shared",
		"3 🎭 markers",
		"No self-awards",
		"+1 per marker received, −1 per marker never given away",
		"left of the dealer",
		"until the Romance round begins",
	} {
		if !strings.Contains(Rules.Summary, want) {
			t.Errorf("the summary doesn't say %q", want)
		}
	}
}
