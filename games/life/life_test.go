package life

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

var noRP = map[string]int{"roleplay": 0}

func TestRulesDeclaration(t *testing.T) {
	if Rules.ID != "life" || Rules.Name != "Play the Hand You're Dealt" || Rules.MinPlayers != 1 || Rules.MaxPlayers != 6 {
		t.Fatalf("rules header = %+v", Rules)
	}
	want := map[string]int{"roleplay": 1, "snake_eyes": 0, "swap": 0}
	if len(Rules.Options) != len(want) {
		t.Fatalf("options = %+v", Rules.Options)
	}
	for _, o := range Rules.Options {
		if d, ok := want[o.Name]; !ok || o.Default != d || o.Kind != games.BoolOption {
			t.Errorf("option %+v", o)
		}
		if n := utf8.RuneCountInString(o.Description); n == 0 || n > 100 {
			t.Errorf("option %s description has %d characters", o.Name, n)
		}
	}
	if n := utf8.RuneCountInString(Rules.Summary); n > 3800 {
		t.Errorf("summary has %d characters", n)
	}
	for _, n := range []int{0, 7} {
		if _, err := Rules.New(games.Setup{Players: make([]string, n)}); err == nil {
			t.Errorf("New accepted %d players", n)
		}
	}
	if _, err := Rules.New(games.Setup{Players: names[:2], Options: map[string]int{"jokers": 1}}); err == nil {
		t.Error("New accepted an unknown option")
	}
}

func TestDealSixFaceUpInOrderFromFullDeck(t *testing.T) {
	for n := 1; n <= 6; n++ {
		st := newGame(t, n, nil, uint64(n))
		seen := map[games.Card]bool{}
		for seat := 0; seat < n; seat++ {
			for i, sl := range st.Boards[seat] {
				if !sl.Up || sl.Card != st.Start[seat][i] {
					t.Fatalf("seat %d slot %d = %+v, start %v", seat, i, sl, st.Start[seat][i])
				}
				seen[sl.Card] = true
			}
		}
		for _, c := range st.Pile.Draw {
			if c.Rank == games.Joker {
				t.Fatal("a joker in the deck")
			}
			seen[c] = true
		}
		if len(seen) != 52 || len(st.Pile.Draw) != 52-6*n || len(st.Pile.Discard) != 0 {
			t.Fatalf("n=%d: %d distinct cards, draw %d", n, len(seen), len(st.Pile.Draw))
		}
		if st.Phase != phaseIntro || !slices.Equal(st.ToAct(), []int{0}) || st.Challenge != nil {
			t.Fatalf("after the deal: phase %s, to act %v", st.Phase, st.ToAct())
		}
	}
	a, b := newGame(t, 4, nil, 99), newGame(t, 4, nil, 99)
	if string(encode(t, a)) != string(encode(t, b)) {
		t.Fatal("same seed dealt differently")
	}
}

func TestDealerOpensTheStoryWithTheCast(t *testing.T) {
	st := newGame(t, 3, nil, 5)
	setBoard(t, st, 2, "5C", "AD", "9H", "2S", "7C", "KH")
	st.Start[2] = [6]games.Card{card(t, "5C"), card(t, "AD"), card(t, "9H"), card(t, "2S"), card(t, "7C"), card(t, "KH")}
	if msg := refused(t, st, 1, "begin"); !strings.Contains(msg, "Ann") {
		t.Errorf("begin by seat 1: %q", msg)
	}
	refused(t, st, 1, "use", "family")
	if len(st.Hand(1).Buttons) != 0 || len(st.Hand(0).Buttons) != 1 {
		t.Fatal("only the dealer should have a control before the story begins")
	}
	opening := st.Opening()
	if len(opening) != 1 || !opening[0].Story {
		t.Fatalf("opening events = %+v", opening)
	}
	cast := opening[0].Text
	ev := apply(t, st, 0, "begin")
	if len(ev) != 2 || ev[0].Story || !ev[1].Story {
		t.Fatalf("begin events = %+v", ev)
	}
	if !strings.Contains(cast, "Cy") || !strings.Contains(cast, "Money (A♦)") || !strings.Contains(cast, "Mind (2♠)") ||
		!strings.Contains(cast, "/say") || !strings.Contains(cast, "Ann presses **Begin**") {
		t.Errorf("cast narration lacks Cy's strongest/weakest or the invitation:\n%s", cast)
	}
	if !strings.Contains(ev[1].Text, "Bea") || !strings.Contains(ev[1].Text, "Childhood") ||
		!strings.Contains(ev[1].Text, st.Challenge.String()) {
		t.Errorf("first challenge narration: %s", ev[1].Text)
	}
	if st.Phase != phaseChoose || !slices.Equal(st.ToAct(), []int{1}) {
		t.Fatalf("after begin: phase %s to act %v", st.Phase, st.ToAct())
	}
	refused(t, st, 0, "begin")
}

func TestTurnOrderStartsLeftOfDealer(t *testing.T) {
	for n, want := range map[int][]int{
		1: {0, 0, 0},
		2: {1, 0, 1, 0},
		4: {1, 2, 3, 0, 1, 2, 3, 0},
	} {
		st := started(t, n, noRP)
		var got []int
		var rounds []int
		for len(got) < len(want) {
			seat := st.ToAct()[0]
			got = append(got, seat)
			rounds = append(rounds, st.Round)
			playTurnKeeping(t, st, seat)
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: order %v, want %v", n, got, want)
		}
		if rounds[n] != 1 || rounds[n-1] != 0 {
			t.Errorf("n=%d: rounds %v", n, rounds)
		}
	}
}

// playTurnKeeping plays seat's turn with its first face-up advantage and
// keeps the advantages after a win.
func playTurnKeeping(t *testing.T, st *State, seat int) {
	t.Helper()
	up := -1
	for i, sl := range st.Boards[seat] {
		if sl.Up {
			up = i
			break
		}
	}
	if up < 0 {
		apply(t, st, seat, "roll")
	} else {
		apply(t, st, seat, "use", advTokens[up])
	}
	if st.Phase == phaseDecide {
		apply(t, st, seat, "keep")
	}
}

func TestSuccessNeedsChallengeAtMostRollAtMostAdvantage(t *testing.T) {
	cases := []struct {
		name       string
		challenge  string
		advantage  string
		d1, d2     int
		wantResult string
	}{
		{"roll equals challenge", "7C", "9S", 3, 4, resWon},
		{"roll equals advantage", "5C", "9S", 4, 5, resWon},
		{"roll in between", "4C", "9S", 3, 3, resWon},
		{"roll below challenge", "7C", "9S", 2, 4, resLost},
		{"roll above advantage", "5C", "8S", 4, 5, resLost},
		{"ace advantage counts 11", "5C", "AS", 5, 6, resWon},
		{"king advantage counts 10, not 13", "5C", "KS", 5, 6, resLost},
		{"queen advantage reaches 10", "5C", "QS", 4, 6, resWon},
		{"jack challenge counts 10", "JC", "TS", 4, 6, resWon},
		{"ace challenge counts 11, a 10 can't hold it", "AC", "KS", 5, 6, resLost},
		{"ace challenge met by an ace", "AC", "AS", 5, 6, resWon},
		{"ace challenge, roll 12 is above the ace", "AC", "AS", 6, 6, resLost},
		{"advantage below challenge always fails", "9C", "6S", 4, 4, resLost},
		{"snake eyes without the option is just 2", "2C", "5S", 1, 1, resWon},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := started(t, 2, noRP)
			setBoard(t, st, 1, tc.advantage, "2H", "2H", "2H", "2H", "2H")
			setChallenge(t, st, tc.challenge)
			forceDice(t, st, tc.d1, tc.d2)
			ev := apply(t, st, 1, "use", "family")
			ch := lastChapter(t, st, 1)
			if ch.Result != tc.wantResult || ch.Dice != [2]int{tc.d1, tc.d2} {
				t.Fatalf("result %s dice %v, want %s", ch.Result, ch.Dice, tc.wantResult)
			}
			if !ev[0].Story || !strings.Contains(ev[0].Text, "🎲") {
				t.Errorf("the roll was not narrated: %+v", ev)
			}
			switch tc.wantResult {
			case resWon:
				if st.Phase != phaseDecide || st.current() != 1 || !st.Boards[1][0].Up {
					t.Errorf("after a win: phase %s, current %d", st.Phase, st.current())
				}
				if !strings.Contains(ev[0].Text, "Success") {
					t.Errorf("win narration: %s", ev[0].Text)
				}
			case resLost:
				if st.Boards[1][0].Up {
					t.Error("the failed advantage is still face up")
				}
				if st.current() != 0 || st.Phase != phaseChoose {
					t.Errorf("after a loss the turn should pass to the dealer; current %d phase %s", st.current(), st.Phase)
				}
				if !strings.Contains(ev[0].Text, "Family is lost") {
					t.Errorf("loss narration doesn't say what is lost: %s", ev[0].Text)
				}
			}
		})
	}
}

func TestAceChallengeIsNeverBeatenByATen(t *testing.T) {
	for d1 := 1; d1 <= 6; d1++ {
		for d2 := 1; d2 <= 6; d2++ {
			st := started(t, 1, noRP)
			setBoard(t, st, 0, "TS", "KH", "2H", "2H", "2H", "2H")
			setChallenge(t, st, "AH")
			forceDice(t, st, d1, d2)
			apply(t, st, 0, "use", "money")
			if r := lastChapter(t, st, 0).Result; r != resLost {
				t.Fatalf("dice %d+%d: ace challenge with a king: %s", d1, d2, r)
			}
		}
	}
}

func TestFaceDownAdvantageCannotBeUsed(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 1, "9S", "9H", "9D", "-KS", "9C", "8C")
	msg := refused(t, st, 1, "use", "mind")
	if !strings.Contains(msg, "face down") {
		t.Errorf("refusal: %q", msg)
	}
	for _, b := range st.Hand(1).Buttons {
		if b.Action.Key() == "use=mind" {
			t.Error("a button is offered for a face-down advantage")
		}
	}
	refused(t, st, 1, "use", "soul")
	refused(t, st, 1, "use")
	refused(t, st, 1, "use", "body", "mind")
	refused(t, st, 1, "roll") // something is still face up
	refused(t, st, 0, "use", "family")
	if msg := refused(t, st, 0, "use", "family"); msg != "It's Bea's turn." {
		t.Errorf("wrong-seat refusal %q", msg)
	}
	refused(t, st, 1, "replace", "family")
	refused(t, st, 1, "keep")
	refused(t, st, 9, "use", "family")
	refused(t, st, 1, "dance")
}

func TestNoFaceUpAdvantageStillRollsAndFails(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 1, "-AS", "-AH", "-AD", "-AC", "-KS", "-KH")
	setChallenge(t, st, "2C")
	h := st.Hand(1)
	if len(h.Buttons) != 1 || h.Buttons[0].Action.Key() != "roll" {
		t.Fatalf("controls with nothing face up: %+v", h.Buttons)
	}
	refused(t, st, 1, "use", "family")
	forceDice(t, st, 3, 4)
	rng := st.RNG
	rng.D6()
	rng.D6()
	ev := apply(t, st, 1, "roll")
	ch := lastChapter(t, st, 1)
	if ch.Result != resBare || ch.Dice != [2]int{3, 4} || ch.Adv != -1 {
		t.Fatalf("chapter %+v", ch)
	}
	if st.RNG != rng {
		t.Error("the roll with nothing face up didn't use exactly two dice (or text used the RNG)")
	}
	if !strings.Contains(ev[0].Text, "3 + 4") || !strings.Contains(ev[0].Text, "Failure") {
		t.Errorf("narration: %s", ev[0].Text)
	}
	if st.Pile.Discard[len(st.Pile.Discard)-1] != card(t, "2C") || st.current() != 0 {
		t.Error("the challenge should be discarded and the turn passed")
	}
}

func TestReplaceAfterWin(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target string
		slot   int
		oldUp  bool
	}{
		{"face-down card comes back face up", "heart", 5, false},
		{"face-up card is replaced", "money", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := started(t, 2, noRP)
			setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "-KC")
			setChallenge(t, st, "QD")
			forceRoll(t, st, 10)
			apply(t, st, 1, "use", "family")
			if st.Phase != phaseDecide {
				t.Fatalf("expected a win, chapter %+v", lastChapter(t, st, 1))
			}
			h := st.Hand(1)
			var keys []string
			for _, b := range h.Buttons {
				keys = append(keys, b.Action.Key())
			}
			want := []string{"replace=family", "replace=money", "replace=friends", "replace=mind", "replace=body", "replace=heart", "keep"}
			if !slices.Equal(keys, want) {
				t.Fatalf("decide controls %v", keys)
			}
			if !strings.Contains(h.Buttons[5].Label, "Heart") || !strings.Contains(h.Buttons[1].Label, "Replace Money (3♥)") {
				t.Errorf("labels: %q / %q", h.Buttons[1].Label, h.Buttons[5].Label)
			}
			old := st.Boards[1][tc.slot].Card
			discards := len(st.Pile.Discard)
			ev := apply(t, st, 1, "replace", tc.target)
			if sl := st.Boards[1][tc.slot]; !sl.Up || sl.Card != card(t, "QD") {
				t.Fatalf("slot after replace: %+v", sl)
			}
			if len(st.Pile.Discard) != discards+1 || st.Pile.Discard[discards] != old {
				t.Error("the replaced card should go to the discards")
			}
			if !ev[0].Story || !strings.Contains(ev[0].Text, "Q♦") || !strings.Contains(ev[0].Text, advNames[tc.slot]) {
				t.Errorf("replacement narration: %s", ev[0].Text)
			}
			ch := lastChapter(t, st, 1)
			if ch.Took != tc.slot || ch.OldUp != tc.oldUp || *ch.Old != old {
				t.Errorf("history %+v", ch)
			}
		})
	}
}

func TestKeepDiscardsTheChallenge(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "KC")
	before := st.Boards[1]
	setChallenge(t, st, "6D")
	forceRoll(t, st, 8)
	apply(t, st, 1, "use", "family")
	refused(t, st, 1, "use", "money")
	refused(t, st, 1, "roll")
	refused(t, st, 0, "keep")
	refused(t, st, 1, "replace", "soul")
	apply(t, st, 1, "keep")
	if st.Boards[1] != before {
		t.Error("keeping changed the advantages")
	}
	if st.Pile.Discard[len(st.Pile.Discard)-1] != card(t, "6D") {
		t.Error("the kept challenge should be discarded")
	}
	if st.current() != 0 || st.Phase != phaseChoose {
		t.Error("the turn should pass after keeping")
	}
}

func TestEmptyDrawPileReshufflesTheDiscards(t *testing.T) {
	st := started(t, 2, noRP)
	setChallenge(t, st, "5C")
	st.Pile.Draw = nil
	st.Pile.Discard = []games.Card{card(t, "2D"), card(t, "3D"), card(t, "4D")}
	setBoard(t, st, 1, "2S", "9H", "9D", "9C", "9H", "KC")
	forceRoll(t, st, 7)
	ev := apply(t, st, 1, "use", "family") // fails: 2♠ can't hold a 7
	if !strings.Contains(texts(ev), "shuffled") {
		t.Errorf("no reshuffle announced: %s", texts(ev))
	}
	if len(st.Pile.Draw) != 3 || len(st.Pile.Discard) != 0 || st.Challenge == nil {
		t.Fatalf("after reshuffle: draw %v discard %v challenge %v", st.Pile.Draw, st.Pile.Discard, st.Challenge)
	}
	all := append(append([]games.Card{}, st.Pile.Draw...), *st.Challenge)
	for _, want := range []string{"2D", "3D", "4D", "5C"} {
		if !slices.Contains(all, card(t, want)) {
			t.Errorf("%s missing after the reshuffle", want)
		}
	}
}

func TestNothingToDrawSkipsTheChallenge(t *testing.T) {
	st := newGame(t, 2, noRP, 3)
	st.Pile = games.Pile[games.Card]{}
	ev := apply(t, st, 0, "begin")
	if !st.Over() {
		t.Fatal("with nothing to draw every challenge is skipped and the game ends")
	}
	if n := strings.Count(texts(ev), "is skipped"); n != 12 {
		t.Errorf("%d skipped challenges announced, want 12", n)
	}
	if len(st.History[0]) != 6 || st.History[0][0].Result != resSkipped {
		t.Errorf("history %+v", st.History[0])
	}
	if encode(t, reload(t, st)) == nil {
		t.Fatal("round trip")
	}
}

func TestTieBreaks(t *testing.T) {
	st := started(t, 3, noRP)
	// Ann 20 with two up, Bea 20 with three up, Cy 19.
	setBoard(t, st, 0, "TS", "TH", "-AS", "-AH", "-AD", "-AC")
	setBoard(t, st, 1, "8S", "8H", "4D", "-AH", "-AD", "-AC")
	setBoard(t, st, 2, "9S", "TD", "-2S", "-AH", "-AD", "-AC")
	res := st.Results()
	if res[0].Winner || !res[1].Winner || res[2].Winner || res[0].Score != 20 || res[1].Score != 20 {
		t.Fatalf("more face-up advantages should break the tie: %+v", res)
	}
	setBoard(t, st, 0, "TS", "6H", "4C", "-AH", "-AD", "-AC")
	res = st.Results()
	if !res[0].Winner || !res[1].Winner || res[2].Winner {
		t.Fatalf("a full tie should be shared: %+v", res)
	}
	st.Phase = phaseOver
	if line := st.winnerLine(); !strings.Contains(line, "Ann") || !strings.Contains(line, "Bea") || !strings.Contains(line, "share") {
		t.Errorf("shared win line: %s", line)
	}
}

func TestSnakeEyesKillsWithTheOption(t *testing.T) {
	st := started(t, 3, map[string]int{"roleplay": 0, "snake_eyes": 1})
	setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "KC")
	setChallenge(t, st, "2C") // 1+1 would otherwise be a win
	labels := ""
	for _, b := range st.Hand(1).Buttons {
		labels += b.Label + "\n"
	}
	// With snake eyes a 2 kills, so the lowest winning roll is 3.
	if !strings.Contains(labels, "Mind — 9♣ (needs 3–9)") || !strings.Contains(labels, "Friends — 9♦ (needs 3–9)") ||
		!strings.Contains(labels, "Money — 3♥ (needs exactly 3)") {
		t.Errorf("advantage labels with snake eyes:\n%s", labels)
	}
	forceDice(t, st, 1, 1)
	ev := apply(t, st, 1, "use", "family")
	if st.DiedIn[1] != 0 || !st.dead(1) {
		t.Fatalf("DiedIn = %v", st.DiedIn)
	}
	if !st.Boards[1][0].Up {
		t.Error("death must not flip the advantage")
	}
	if !ev[0].Story || !strings.Contains(ev[0].Text, "Snake eyes") || !strings.Contains(ev[0].Text, "Childhood") {
		t.Errorf("death narration: %s", ev[0].Text)
	}
	if st.Phase != phaseChoose || st.current() != 2 {
		t.Fatal("the turn should pass on")
	}
	score := st.Results()[1].Score
	if score != 11+3+9+9+9+10 {
		t.Errorf("dead score %d", score)
	}
	// Bea's later turns are skipped.
	for !st.Over() {
		seat := st.ToAct()[0]
		if seat == 1 {
			t.Fatal("a dead character got a turn")
		}
		forceRoll(t, st, 12) // fail everything but aces can't hold 12
		playTurnKeeping(t, st, seat)
	}
	if len(st.History[1]) != 1 || st.Results()[1].Score != score {
		t.Errorf("dead history %+v score %d", st.History[1], st.Results()[1].Score)
	}
	if !strings.Contains(st.lifeEvent(1).Text, "died in Childhood") {
		t.Errorf("life summary: %s", st.lifeEvent(1).Text)
	}
}

func TestSnakeEyesWithNothingFaceUpStillKills(t *testing.T) {
	st := started(t, 2, map[string]int{"snake_eyes": 1})
	setBoard(t, st, 1, "-AS", "-3H", "-9D", "-9C", "-9H", "-KC")
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "roll")
	if !st.dead(1) {
		t.Fatal("snake eyes with nothing face up should still kill")
	}
}

func TestSnakeEyesWithoutTheOptionIsAFailureLikeAnyOther(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "KC")
	setChallenge(t, st, "5C")
	forceDice(t, st, 1, 1)
	ev := apply(t, st, 1, "use", "family")
	if st.dead(1) || st.Boards[1][0].Up || strings.Contains(texts(ev), "Snake") {
		t.Fatalf("dead=%v up=%v\n%s", st.dead(1), st.Boards[1][0].Up, texts(ev))
	}
}

func TestRomanceCareerSwap(t *testing.T) {
	st := newGame(t, 2, map[string]int{"roleplay": 0}, 11)
	if msg := refused(t, st, 1, "swap"); !strings.Contains(msg, "isn't in play") {
		t.Errorf("swap without the option: %q", msg)
	}
	for _, b := range st.Hand(1).Buttons {
		if b.Action.Verb == "swap" {
			t.Error("swap offered without the option")
		}
	}

	st = newGame(t, 2, map[string]int{"roleplay": 0, "swap": 1}, 11)
	apply(t, st, 1, "swap") // before the game starts
	apply(t, st, 1, "swap") // toggled back
	apply(t, st, 0, "begin")
	apply(t, st, 0, "swap") // Ann, not on turn, in Childhood
	if !st.Swapped[0] || st.Swapped[1] {
		t.Fatalf("swapped %v", st.Swapped)
	}
	if !hasVerb(st.Hand(0), "swap") || !hasVerb(st.Hand(1), "swap") {
		t.Error("swap should be offered in Childhood")
	}
	if !strings.Contains(st.Table().Fields[0].Value, "Career before Romance") {
		t.Errorf("table doesn't show Ann's order:\n%s", st.Table().Fields[0].Value)
	}
	if strings.Contains(st.Table().Fields[1].Value, "Career before Romance") {
		t.Error("an unswapped player's order is shown")
	}
	// Play Childhood and Adolescence; swapping stays open until Romance begins.
	for st.Round < 2 {
		if !hasVerb(st.Hand(1), "swap") {
			t.Fatalf("swap closed early in round %d", st.Round)
		}
		playTurnKeeping(t, st, st.ToAct()[0])
	}
	if msg := refused(t, st, 0, "swap"); !strings.Contains(msg, "Too late") {
		t.Errorf("swap in Romance: %q", msg)
	}
	refused(t, st, 1, "swap")
	if hasVerb(st.Hand(0), "swap") {
		t.Error("swap offered in Romance")
	}
	// Round 3: Bea faces Romance, Ann (swapped) faces Career.
	if st.current() != 1 || !strings.Contains(st.Table().Description, "Romance challenge") {
		t.Fatalf("Bea's table: %s", st.Table().Description)
	}
	playTurnKeeping(t, st, 1)
	if st.current() != 0 || !strings.Contains(st.Hand(0).Description, "Your Career challenge") {
		t.Fatalf("Ann's hand: %s", st.Hand(0).Description)
	}
	playTurnKeeping(t, st, 0)
	for st.Round == 3 {
		playTurnKeeping(t, st, st.ToAct()[0])
	}
	stages := func(seat int) []int {
		var out []int
		for _, ch := range st.History[seat] {
			out = append(out, ch.Stage)
		}
		return out
	}
	if got := stages(0); !slices.Equal(got, []int{0, 1, 3, 2}) {
		t.Errorf("Ann's stages %v", got)
	}
	if got := stages(1); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Bea's stages %v", got)
	}
}

func TestSwapNarratesThePlayersOwnStage(t *testing.T) {
	st := newGame(t, 1, map[string]int{"roleplay": 0, "swap": 1}, 4)
	apply(t, st, 0, "swap")
	apply(t, st, 0, "begin")
	var last []games.Event
	for st.Round < 2 {
		forceRoll(t, st, 12)
		setBoard(t, st, 0, "AS", "AH", "AD", "AC", "KS", "KH")
		last = apply(t, st, 0, "use", "family") // 12 > 11: fails, next challenge drawn
	}
	draw := last[len(last)-1].Text
	if !strings.Contains(draw, "Round 3 of 6: Romance") || !strings.Contains(draw, "Career") {
		t.Errorf("round 3 narration for a swapped player: %s", draw)
	}
	if !strings.Contains(st.Table().Description, "Career challenge") {
		t.Errorf("round 3 description for a swapped player: %s", st.Table().Description)
	}
}

func hasVerb(v games.View, verb string) bool {
	for _, b := range v.Buttons {
		if b.Action.Verb == verb {
			return true
		}
	}
	return false
}

func TestTextVarietyDoesNotUseTheRNG(t *testing.T) {
	st := started(t, 3, nil)
	setBoard(t, st, 1, "AS", "3H", "9D", "9C", "9H", "KC")
	setChallenge(t, st, "5C")
	forceRoll(t, st, 12)
	want := st.RNG
	want.D6()
	want.D6()
	apply(t, st, 1, "use", "family") // 12 fails; the next draw needs no reshuffle
	if st.RNG != want {
		t.Fatal("narration or drawing consumed randomness beyond the two dice")
	}
}

func TestEndOfGameNarration(t *testing.T) {
	st := started(t, 3, nil)
	ev := playOut(t, st)
	if !st.Over() || len(st.ToAct()) != 0 {
		t.Fatal("not over")
	}
	n := len(ev)
	if n < 4 {
		t.Fatal("too few events")
	}
	tail := ev[n-4:]
	for seat := 0; seat < 3; seat++ {
		e := tail[seat]
		if !e.Story || !strings.Contains(e.Text, names[seat]) || !strings.Contains(e.Text, "started life") {
			t.Errorf("life summary %d: %s", seat, e.Text)
		}
		for _, stage := range stageNames {
			if !strings.Contains(e.Text, stage) {
				t.Errorf("summary for %s doesn't mention %s:\n%s", names[seat], stage, e.Text)
			}
		}
	}
	if !strings.Contains(tail[3].Text, "Final scores") || !strings.Contains(tail[3].Text, "🏆") {
		t.Errorf("scores: %s", tail[3].Text)
	}
	for _, e := range ev {
		if utf8.RuneCountInString(e.Text) > maxEvent {
			t.Errorf("event too long: %d", utf8.RuneCountInString(e.Text))
		}
	}
	refused(t, st, 1, "use", "family")
	refused(t, st, 0, "begin")
	if !strings.Contains(st.Table().Title, "end") {
		t.Errorf("final table title %q", st.Table().Title)
	}
}

func TestVariantsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for r := 0; r < 6; r++ {
		for seat := 0; seat < 6; seat++ {
			for k := 8; k < 60; k += 5 {
				seen[pick(stagePrompts[0], r, seat, k)] = true
			}
		}
	}
	if len(seen) != len(stagePrompts[0]) {
		t.Errorf("only %d of %d prompts ever chosen", len(seen), len(stagePrompts[0]))
	}
}

func TestPointsSayOnePointAndARealMinus(t *testing.T) {
	for n, want := range map[int]string{1: "1 point", 0: "0 points", 2: "2 points", -1: "−1 points", -3: "−3 points"} {
		if got := points(n); got != want {
			t.Errorf("points(%d) = %q, want %q", n, got, want)
		}
	}
}
