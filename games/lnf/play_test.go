package lnf

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestPlayMatchesColourOrNumber(t *testing.T) {
	s := rigged(t, "R7", "B1 B2 B3", "R3 B7 G3 Y9", "G1 G2", "Y1 Y2")
	if got := codes(s.legal(0)); got != "R3 B7" {
		t.Fatalf("legal %q", got)
	}
	refused(t, s, 0, "Green 3 doesn't match 🟥 Red 7", play("G3", ""))
	refused(t, s, 1, "It's Ann's turn", play("G1", ""))
	refused(t, s, 0, "isn't in your hand", play("R9", ""))
	refused(t, s, 0, "You can play 🟥 Red 3: you only draw when nothing fits", games.Act(VerbDraw))
	evs := must(t, s, 0, play("B7", ""))
	if top, _ := s.top(); top != card(t, "B7") || s.Turn != 1 || codes(s.Hands[0]) != "R3 G3 Y9" {
		t.Fatalf("top %v turn %d hand %v", top, s.Turn, s.Hands[0])
	}
	if len(stories(evs)) != 0 || !strings.Contains(allText(evs), "Ann plays 🟦 Blue 7") {
		t.Errorf("events: %s", allText(evs))
	}
}

func TestWildOnlyWhenNothingElseFits(t *testing.T) {
	// A coloured card fits: the Draw Two waits, and the view says why.
	s := rigged(t, "R2", "B1 B2 B3", "W2 R5", "G1 G2")
	refused(t, s, 0, "Wild cards only when nothing else fits: you can play 🟥 Red 5", play("W2", "life is not fair but draw two"))
	v := s.Hand(0)
	if !slices.Equal(keys(v), []string{"play=R5"}) || !strings.Contains(v.Description, "Wild cards only when nothing else fits") {
		t.Fatalf("hand view: %v\n%s", keys(v), v.Description)
	}
	// Nothing coloured fits: now it may go, on the equal number.
	s = rigged(t, "R2", "B1 B2 B3", "W2 B5", "G1 G2")
	v = s.Hand(0)
	if !slices.Equal(keys(v), []string{"play=W2"}) || v.Buttons[0].Ask == nil {
		t.Fatalf("hand view: %v", keys(v))
	}
	if a := v.Buttons[0].Ask; len([]rune(a.Title)) > 45 || len([]rune(a.Label)) > 45 || a.Title == "" || a.Label == "" {
		t.Fatalf("ask %+v", a)
	}
	must(t, s, 0, play("W2", "Life is not fair, but draw two"))
	// Only on the same number: a Draw Three can't go on a 2.
	s = rigged(t, "R2", "B1 B2 B3", "W3 B5", "G1 G2")
	refused(t, s, 0, "only goes on a card with the same number", play("W3", "life is not fair but draw three"))
	v = s.Hand(0)
	if !slices.Equal(keys(v), []string{"draw"}) || !strings.Contains(v.Description, "own number (the top card shows 2)") {
		t.Fatalf("hand view: %v\n%s", keys(v), v.Description)
	}
	// Another wild card in hand doesn't block the one that matches.
	s = rigged(t, "G2", "B1 B2 B3", "W2 W3 WG", "G1 G2")
	if got := codes(s.legal(0)); got != "W2 WG" {
		t.Fatalf("legal %q", got)
	}
}

func TestDrawNHitsTheNextPlayerThenTurnsACard(t *testing.T) {
	// Deck top is last: Bob draws Y8 and Y9, then B4 is turned up.
	s := rigged(t, "G5 R2", "Y1 B4 Y9 Y8", "W2 B5", "G1", "Y2")
	evs := must(t, s, 0, play("W2", "LIFE is not fair... but, draw 2!!"))
	if got := codes(s.Hands[1]); got != "G1 Y8 Y9" {
		t.Fatalf("Bob holds %s", got)
	}
	if top, _ := s.top(); top != card(t, "B4") || codes(s.Pile.Discard) != "G5 R2 W2 B4" {
		t.Fatalf("discard %s", codes(s.Pile.Discard))
	}
	if s.Turn != 2 || codes(s.legal(2)) != "" || codes(s.Pile.Draw) != "Y1" {
		t.Fatalf("turn %d, draw %s", s.Turn, codes(s.Pile.Draw))
	}
	st := stories(evs)
	if len(st) != 1 || !strings.HasPrefix(st[0].Text, `🗣️ **Ann**: "LIFE is not fair... but, draw 2!!"`) ||
		!strings.Contains(st[0].Text, "**Bob** draws 2 and loses their turn") || !strings.Contains(st[0].Text, "🟦 Blue 4** (mind)") {
		t.Fatalf("events: %s", allText(evs))
	}
	// With two players the turn comes straight back.
	s = rigged(t, "R4", "Y1 B4 Y9 Y8 Y7 Y6", "W4 B5", "G1")
	must(t, s, 0, play("W4", "life is not fair but draw four"))
	if len(s.Hands[1]) != 5 || s.Turn != 0 {
		t.Fatalf("Bob holds %v, turn %d", s.Hands[1], s.Turn)
	}
	if top, _ := s.top(); top != card(t, "B4") {
		t.Fatalf("top %v", top)
	}
}

func TestDrawNWithAShortDeck(t *testing.T) {
	// The deck holds one card; the discards under W3 are reshuffled (W3 stays
	// on top), and then there is nothing left to turn: the Draw Three stays.
	s := rigged(t, "G3", "Y8", "W3 B5", "G1", "Y2")
	evs := must(t, s, 0, play("W3", "life is not fair but draw three"))
	if got := codes(s.Hands[1]); got != "G1 G3 Y8" {
		t.Fatalf("Bob holds %s", got)
	}
	if top, _ := s.top(); top != DrawThree || len(s.Pile.Draw) != 0 || s.Turn != 2 {
		t.Fatalf("top %v draw %v turn %d", top, s.Pile.Draw, s.Turn)
	}
	if !strings.Contains(allText(evs), "should draw 3 but the deck gives only 2") || !strings.Contains(allText(evs), "top card stays") {
		t.Fatalf("events: %s", allText(evs))
	}
	// Now only a 3 fits the grey card.
	if got := codes(s.legal(2)); got != "" {
		t.Fatalf("Cy may play %s", got)
	}
	s.Hands[2] = cards(t, "Y2 R3")
	if got := codes(s.legal(2)); got != "R3" {
		t.Fatalf("Cy may play %s", got)
	}
}

func TestWildTurnedUpAfterDrawSetsTheNumber(t *testing.T) {
	// Bob draws Y7, Y6, Y5 and B6; the deck's next card, W3, is turned up
	// as the rules say (burying is only for starting the pile): now only a
	// 3 fits, and the wild card does nothing, as it was turned, not played.
	s := rigged(t, "G4", "R1 W3 B6 Y5 Y6 Y7", "W4 B5", "G1", "Y2 R3 G2")
	evs := must(t, s, 0, play("W4", "life is not fair but draw four"))
	if top, _ := s.top(); top != DrawThree || codes(s.Pile.Draw) != "R1" {
		t.Fatalf("top %v, draw %s", top, codes(s.Pile.Draw))
	}
	if txt := allText(evs); strings.Contains(txt, "buried") || !strings.Contains(txt, "Draw Three (3)**: grey, so only a 3 fits it") {
		t.Fatalf("events: %s", txt)
	}
	if s.Turn != 2 || len(s.Hands[2]) != 3 {
		t.Fatalf("turn %d, Cy holds %s", s.Turn, codes(s.Hands[2]))
	}
	if got := codes(s.legal(2)); got != "R3" {
		t.Fatalf("Cy may play %s", got)
	}
}

func TestDeadCard(t *testing.T) {
	for _, line := range []string{"", "hello", "Life is not fair, but draw three"} {
		s := rigged(t, "G5 R2", "Y1 B4 Y9 Y8", "W2 B5", "G1", "Y2")
		evs := must(t, s, 0, play("W2", line))
		if codes(s.Hands[0]) != "B5" || codes(s.Hands[1]) != "G1" || len(s.Pile.Draw) != 4 {
			t.Fatalf("%q: hands %v draw %v", line, s.Hands, s.Pile.Draw)
		}
		// The dead card lies under the top card, which still rules.
		if codes(s.Pile.Discard) != "G5 W2 R2" || s.Turn != 1 || s.Over() {
			t.Fatalf("%q: discard %s turn %d", line, codes(s.Pile.Discard), s.Turn)
		}
		st := stories(evs)
		if len(st) != 1 || !strings.Contains(st[0].Text, "the card is dead and does nothing") || strings.Contains(st[0].Text, "🗣️") {
			t.Fatalf("%q: events %s", line, allText(evs))
		}
		if line != "" && !strings.Contains(st[0].Text, `said "`+line+`" instead of the line`) {
			t.Fatalf("%q: events %s", line, allText(evs))
		}
	}
	// A dead Game Over doesn't end the game.
	s := rigged(t, "R2", "Y1", "WG B5", "G1", "Y2")
	must(t, s, 0, play("WG", "life is not fair but draw two"))
	if s.Over() || s.Turn != 1 {
		t.Fatal("a dead Game Over ended the game")
	}
	// A dead last card still leaves the hand: the player goes out.
	s = rigged(t, "R2", "Y1", "W2", "G1 G9", "Y2")
	evs := must(t, s, 0, play("W2", "nope"))
	if !s.Over() || s.Ender != 0 || s.Results()[0].Score != 20 || !strings.Contains(allText(evs), "they go out") {
		t.Fatalf("over %v, results %v, %s", s.Over(), s.Results(), allText(evs))
	}
}

func TestGameOverEndsAtOnce(t *testing.T) {
	s := rigged(t, "G2", "Y1 Y2", "WG B5 R4", "G1 G9", "Y3 Y4", "B8")
	evs := must(t, s, 0, play("WG", "Life is not fair, but game over!"))
	if !s.Over() || s.ToAct() != nil || s.Ender != 0 || s.Ended != endGameOver {
		t.Fatalf("over %v ender %d", s.Over(), s.Ender)
	}
	if got, want := results(s), "0:18* 1:0 2:3 3:2"; got != want { // 20 − 2 cards left, 10 − (1+9), …
		t.Fatalf("results %s, want %s", got, want)
	}
	st := stories(evs)
	if len(st) != 1 || !strings.Contains(st[0].Text, `🗣️ **Ann**: "Life is not fair, but game over!"`) ||
		!strings.Contains(st[0].Text, "🏆 **Ann**: 20 − 2 = 18 (played Game Over)") || !strings.Contains(st[0].Text, "**Bob**: 10 − 10 = 0") {
		t.Fatalf("events: %s", allText(evs))
	}
	if tv := text(s.Table()); !strings.Contains(tv, "🏆 **Ann** (Game Over): 20 − 2 cards = **18** (🟥4 🟦5)") ||
		!strings.Contains(tv, "**Bob**: 10 − 10 = **0** (🟩1 🟩9)") || !strings.Contains(tv, "Game over:** Ann played Game Over") {
		t.Fatalf("table: %s", tv)
	}
	refused(t, s, 1, "The game is over", play("G1", ""))
	if v := s.Hand(1); len(v.Buttons) != 0 || !strings.Contains(v.Description, "Your score: **0** = 10 − 10") {
		t.Fatalf("hand after the end: %v %s", keys(v), v.Description)
	}
}

func TestGoingOutAndScores(t *testing.T) {
	// The rule text's examples: a 2 and a 4 left score 4; a 5 and a 9, −4.
	s := rigged(t, "R2", "Y1", "R7", "Y2 B4", "R5 G9", "W4 Y9")
	evs := must(t, s, 0, play("R7", ""))
	if !s.Over() || s.Ended != endOut {
		t.Fatal("not over")
	}
	if got, want := results(s), "0:20* 1:4 2:-4 3:-3"; got != want { // wilds count their number
		t.Fatalf("results %s, want %s", got, want)
	}
	if !strings.Contains(allText(evs), "**Cy**: 10 − 14 = −4") || !strings.Contains(allText(evs), "🏆 **Ann**: 20 (went out)") {
		t.Fatalf("events: %s", allText(evs))
	}
	tv := text(s.Table())
	if !strings.Contains(tv, "Cy**: 10 − 14 = **−4** (🟥5 🟩9)") || !strings.Contains(tv, "🏆 **Ann** (went out): **20**") ||
		!strings.Contains(tv, "Game over:** Ann went out") {
		t.Fatalf("table: %s", tv)
	}
	// Ties share the win.
	s = rigged(t, "R2", "Y1", "R7", "R5 G9", "Y5 B9")
	must(t, s, 0, play("R7", ""))
	if r := s.Results(); !r[0].Winner || r[1].Winner || r[2].Winner {
		t.Fatalf("results %v", r)
	}
	s = rigged(t, "R2", "Y1", "R7 R1", "R5 G9", "Y5 B9")
	s.Phase, s.Ender = PhaseOver, 2
	s.Hands[2] = nil
	if r := s.Results(); r[0].Winner || r[1].Winner || !r[2].Winner {
		t.Fatalf("results %v", r)
	}
}

func TestDrawNAsLastCardStillHits(t *testing.T) {
	s := rigged(t, "R2", "Y1 Y6 Y7", "W2", "R5", "B1")
	must(t, s, 0, play("W2", "life is not fair but draw two"))
	if !s.Over() || codes(s.Hands[1]) != "R5 Y6 Y7" || s.Results()[1].Score != 10-18 || s.Results()[0].Score != 20 {
		t.Fatalf("over %v, Bob %v, results %v", s.Over(), s.Hands[1], s.Results())
	}
}

func TestDrawOneThenPlayOrPass(t *testing.T) {
	// The drawn card fits: Ann may play it at once, or keep it and pass.
	s := rigged(t, "R2", "Y1 R8", "B5 G6", "G1", "Y2")
	refused(t, s, 0, "only pass after drawing", games.Act(VerbPass))
	must(t, s, 0, games.Act(VerbDraw))
	if s.Drawn == nil || *s.Drawn != card(t, "R8") || s.Turn != 0 {
		t.Fatalf("drawn %v turn %d", s.Drawn, s.Turn)
	}
	v := s.Hand(0)
	if !slices.Equal(keys(v), []string{"play=R8", "pass"}) || !strings.Contains(v.Description, "You drew **🟥 Red 8** and it fits") {
		t.Fatalf("view %v %s", keys(v), v.Description)
	}
	refused(t, s, 0, "already drew", games.Act(VerbDraw))
	s2 := clone(t, s)
	must(t, s, 0, play("R8", ""))
	if s.Turn != 1 || s.Drawn != nil || codes(s.Hands[0]) != "G6 B5" {
		t.Fatalf("turn %d hand %v", s.Turn, s.Hands[0])
	}
	must(t, s2, 0, games.Act(VerbPass))
	if s2.Turn != 1 || s2.Drawn != nil || codes(s2.Hands[0]) != "R8 G6 B5" {
		t.Fatalf("turn %d hand %v", s2.Turn, s2.Hands[0])
	}
	// Only the drawn card may be played.
	s = rigged(t, "R2", "Y1 R8", "B5 G6", "G1", "Y2")
	must(t, s, 0, games.Act(VerbDraw))
	s.Hands[0] = append(s.Hands[0], card(t, "R3")) // as if it fitted all along
	refused(t, s, 0, "You drew 🟥 Red 8: play that card now", play("R3", ""))
	// The drawn card doesn't fit: the turn passes.
	s = rigged(t, "R2", "Y1 B8", "B5 G6", "G1", "Y2")
	evs := must(t, s, 0, games.Act(VerbDraw))
	if s.Turn != 1 || s.Drawn != nil || codes(s.Hands[0]) != "G6 B5 B8" || !strings.Contains(allText(evs), "draws a card and passes") {
		t.Fatalf("turn %d hand %v %s", s.Turn, s.Hands[0], allText(evs))
	}
	// Nothing at all to draw: the draw is skipped and the turn passes.
	s = rigged(t, "R2", "", "B5 G6", "G1", "Y2")
	evs = must(t, s, 0, games.Act(VerbDraw))
	if s.Turn != 1 || len(s.Hands[0]) != 2 || !strings.Contains(allText(evs), "nothing left to draw") {
		t.Fatalf("turn %d %s", s.Turn, allText(evs))
	}
	// A drawn wild card fits on its number and asks for the line.
	s = rigged(t, "R3", "Y1 W3", "B5 G6", "G1", "Y2")
	must(t, s, 0, games.Act(VerbDraw))
	if v := s.Hand(0); !slices.Equal(keys(v), []string{"play=W3", "pass"}) || v.Buttons[0].Ask == nil {
		t.Fatalf("view %v", keys(v))
	}
	must(t, s, 0, play("W3", "life is not fair, but draw three"))
	// The deck held Y1; the reshuffle (keeping W3 on top) gave R3.
	if codes(s.Hands[1]) != "R3 G1 Y1" || codes(s.Pile.Discard) != "W3" {
		t.Fatalf("Bob holds %v", codes(s.Hands[1]))
	}
}

func TestReshuffleKeepsTheTopCard(t *testing.T) {
	s := rigged(t, "B1 B2 G4 R7", "", "B5 G6", "G1", "Y2")
	evs := must(t, s, 0, games.Act(VerbDraw))
	if codes(s.Pile.Discard) != "R7" || len(s.Pile.Draw) != 2 || len(s.Hands[0]) != 3 || count(s) != 4+2+1+1 {
		t.Fatalf("discard %s draw %s hand %s", codes(s.Pile.Discard), codes(s.Pile.Draw), codes(s.Hands[0]))
	}
	if !strings.Contains(allText(evs), reshuffleNote) {
		t.Fatalf("events: %s", allText(evs))
	}
	got := append(slices.Clone(s.Pile.Draw), s.Hands[0]...)
	slices.SortFunc(got, less)
	if codes(got) != "G4 G6 B1 B2 B5" {
		t.Fatalf("cards %s", codes(got))
	}
}

func TestExchangeBeforeTheFirstTurn(t *testing.T) {
	s := newGame(t, 3, 11)
	refused(t, s, 1, "The first card isn't turned yet", games.Act(VerbDraw))
	refused(t, s, 0, "The first card isn't turned yet", play(s.Hands[0][0].Code(), ""))
	old := s.Hands[0][2]
	topOfDeck := s.Pile.Draw[len(s.Pile.Draw)-1]
	refused(t, s, 0, "isn't in your hand", games.Act(VerbSwap, s.Hands[1][0].Code()))
	v := s.Hand(0)
	// Keep first: what the bot presses for a player who is away.
	if len(v.Buttons) != 5 || v.Buttons[0].Action.Key() != VerbReady {
		t.Fatalf("exchange buttons %v", keys(v))
	}
	must(t, s, 0, games.Act(VerbSwap, old.Code()))
	hand := slices.Clone(s.Hands[0])
	if !slices.Contains(hand, topOfDeck) || len(hand) != 4 || count(s) != 76 {
		t.Fatalf("hand %s after swapping %s for %s", codes(hand), old.Code(), topOfDeck.Code())
	}
	if !slices.Contains(s.Pile.Draw, old) {
		t.Fatal("the swapped card didn't go back into the deck")
	}
	refused(t, s, 0, "already made your choice", games.Act(VerbReady))
	refused(t, s, 0, "already made your choice", games.Act(VerbSwap, hand[0].Code()))
	if !slices.Equal(s.ToAct(), []int{1, 2}) || len(s.Hand(0).Buttons) != 0 {
		t.Fatalf("ToAct %v", s.ToAct())
	}
	must(t, s, 2, games.Act(VerbReady))
	evs := must(t, s, 1, games.Act(VerbReady))
	if s.Phase != PhasePlay || s.Turn != 1 || !slices.Equal(s.ToAct(), []int{1}) || len(s.Pile.Discard) != 1 {
		t.Fatalf("phase %s turn %d", s.Phase, s.Turn)
	}
	if top, _ := s.top(); top.Wild() {
		t.Fatal("a wild card starts the pile")
	}
	if st := stories(evs); len(st) != 1 || !strings.Contains(st[0].Text, "**Bob** plays first") {
		t.Fatalf("events: %s", allText(evs))
	}
	refused(t, s, 0, "exchange is over", games.Act(VerbReady))
}

func TestWildTurnedUpFirstIsBuried(t *testing.T) {
	s := newGame(t, 2, 5)
	s.Pile.Draw = append(s.Pile.Draw, card(t, "R4"), DrawThree, GameOver) // top last
	n := len(s.Pile.Draw)
	must(t, s, 0, games.Act(VerbReady))
	evs := must(t, s, 1, games.Act(VerbReady))
	if top, _ := s.top(); top != card(t, "R4") || s.Pile.Draw[0] != GameOver || s.Pile.Draw[1] != DrawThree || len(s.Pile.Draw) != n-1 {
		t.Fatalf("top %v, bottom %v", top, s.Pile.Draw[:2])
	}
	if !strings.Contains(allText(evs), "2 wild cards turned up and are buried") {
		t.Fatalf("events: %s", allText(evs))
	}
}

func TestBadActions(t *testing.T) {
	s := rigged(t, "R2", "Y1", "R7", "Y2 B4", "R5 G9")
	refused(t, s, 0, "isn't a move", games.Act("fly"))
	refused(t, s, 0, "doesn't look right", games.Act(VerbPlay))
	refused(t, s, 5, "don't have a seat", play("R7", ""))
	refused(t, s, games.Spectator, "don't have a seat", games.Act(VerbDraw))
	refused(t, s, games.Clock, "don't have a seat", games.Act(VerbDraw))
	if v := s.Hand(9); v.Description == "" || len(v.Buttons) != 0 {
		t.Fatal("a bad seat's hand")
	}
	if v := s.Hand(-1); len(v.Buttons) != 0 {
		t.Fatal("a spectator's hand")
	}
}
