package life

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// Scenario tests for rules the other tests left unplayed, and a random-play
// check of every step against a separate reading of the rule text and
// RULINGS.md.

// worth is a card's value as the ruling states it (2–10 their number,
// J/Q/K 10, A 11), written apart from PipValue so a change there shows.
func worth(c games.Card) int {
	switch c.Rank {
	case games.Ace:
		return 11
	case games.Jack, games.Queen, games.King:
		return 10
	}
	return c.Rank
}

// Rule 7: the player must choose an advantage and roll even when none can
// beat the challenge; there is no way to pass.
func TestMustChooseAndRollWithNoChance(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 1, "2S", "3H", "4D", "5C", "6H", "7C")
	setChallenge(t, st, "KS")
	h := st.Hand(1)
	var keys []string
	for _, b := range h.Buttons {
		keys = append(keys, b.Action.Key())
		if !strings.Contains(b.Label, "no chance") {
			t.Errorf("label %q should say there is no chance", b.Label)
		}
	}
	want := []string{"use=family", "use=money", "use=friends", "use=mind", "use=body", "use=heart"}
	if !slices.Equal(keys, want) {
		t.Fatalf("controls %v, want every face-up advantage and nothing else", keys)
	}
	refused(t, st, 1, "roll")
	refused(t, st, 1, "keep")
	forceDice(t, st, 6, 6)
	apply(t, st, 1, "use", "heart")
	if ch := lastChapter(t, st, 1); ch.Result != resLost || ch.Dice != [2]int{6, 6} {
		t.Fatalf("chapter %+v", ch)
	}
	if st.Boards[1][5].Up {
		t.Error("the hopeless advantage should still be flipped face down")
	}
}

// Rule 8: a lost advantage stays face down for the rest of the game and
// counts nothing at the end.
func TestLostAdvantageStaysDownToTheEnd(t *testing.T) {
	st := started(t, 1, noRP)
	setBoard(t, st, 0, "AS", "KH", "QD", "JC", "TS", "9H")
	setChallenge(t, st, "5C")
	forceRoll(t, st, 12) // above every card: a loss
	apply(t, st, 0, "use", "money")
	for !st.Over() {
		if st.Boards[0][1].Up {
			t.Fatalf("round %d: Money came back face up", st.Round)
		}
		for _, b := range st.Hand(0).Buttons {
			if b.Action.Key() == "use=money" {
				t.Fatalf("round %d: the lost Money is offered", st.Round)
			}
		}
		refused(t, st, 0, "use", "money")
		setChallenge(t, st, "5C")
		forceRoll(t, st, 10)
		apply(t, st, 0, "use", "friends")
		apply(t, st, 0, "keep")
	}
	if s := st.Results()[0].Score; s != 11+10+10+10+9 {
		t.Fatalf("score %d, want 50: everything but the lost K♥", s)
	}
}

// Rule 9 and the ruling: a challenge taken in place of a lost advantage
// comes in face up and can face the next challenge.
func TestTakenChallengeCanBeUsedNextRound(t *testing.T) {
	st := started(t, 1, noRP)
	setBoard(t, st, 0, "JS", "-KH", "2D", "2C", "2S", "2H")
	setChallenge(t, st, "QD")
	forceRoll(t, st, 10)
	apply(t, st, 0, "use", "family")
	apply(t, st, 0, "replace", "money")
	setChallenge(t, st, "4C")
	forceRoll(t, st, 10)
	apply(t, st, 0, "use", "money")
	if ch := lastChapter(t, st, 0); ch.Result != resWon || ch.With == nil || *ch.With != card(t, "QD") {
		t.Fatalf("chapter %+v: the Q♦ should have held a 10", ch)
	}
}

// Rule 10: the score is the face-up cards only, at 2–10 face value,
// J/Q/K 10 and A 11.
func TestScoreCountsFaceUpCardsAtRulingValues(t *testing.T) {
	st := started(t, 2, noRP)
	setBoard(t, st, 0, "AS", "KH", "QD", "JC", "TS", "-AH")
	setBoard(t, st, 1, "2S", "3H", "4D", "5C", "8S", "9H")
	res := st.Results()
	if res[0].Score != 51 || res[1].Score != 31 {
		t.Fatalf("scores %d and %d, want 51 and 31", res[0].Score, res[1].Score)
	}
	if !res[0].Winner || res[1].Winner {
		t.Fatalf("winners %+v", res)
	}
}

// Rule 11 with markers: the tie is on the final score (markers included),
// and only then on face-up advantages.
func TestTieBreakUsesScoreWithMarkers(t *testing.T) {
	st := started(t, 2, nil)
	react(t, st, 1, 0, "a", true)
	react(t, st, 1, 0, "b", true)
	react(t, st, 1, 0, "c", true)
	// Ann: 20 on cards, 2 up, +3 received −3 unspent = 20.
	// Bea: 17 on cards, 3 up, +0 −0 = 17: behind despite more cards up.
	setBoard(t, st, 0, "TS", "TH", "-AS", "-AH", "-AD", "-AC")
	setBoard(t, st, 1, "7S", "5H", "5D", "-AH", "-AD", "-AC")
	if res := st.Results(); res[0].Score != 20 || res[1].Score != 17 || !res[0].Winner || res[1].Winner {
		t.Fatalf("results %+v", res)
	}
	// Bea at 20 with 3 up now ties Ann on score and wins on face-up cards.
	setBoard(t, st, 1, "TS", "5H", "5D", "-AH", "-AD", "-AC")
	if res := st.Results(); res[1].Score != 20 || res[0].Winner || !res[1].Winner {
		t.Fatalf("results %+v", res)
	}
}

// Role play alone: nobody can receive a solo player's markers, so all three
// stay unspent and cost 3 points, as the text's scoring says.
func TestSoloPlayerLosesThreeForUnspentMarkers(t *testing.T) {
	st := started(t, 1, nil)
	ev, err := st.Say(0, "Ann", "I am a girl with a neglectful family.")
	if err != nil || len(ev) != 1 || ev[0].Ref == "" {
		t.Fatalf("say: %v %+v", err, ev)
	}
	reactRefused(t, st, 0, 0, ev[0].Ref, true)
	playOut(t, st)
	if got, want := st.Results()[0].Score, st.cardPoints(0)-3; got != want {
		t.Fatalf("solo score %d, want cards %d − 3", got, st.cardPoints(0))
	}
	if !st.Results()[0].Winner {
		t.Error("a solo player is the only one in the results")
	}
}

// Snake eyes alone: the only character dies, and the story ends there.
func TestSoloDeathEndsTheGame(t *testing.T) {
	st := started(t, 1, map[string]int{"roleplay": 0, "snake_eyes": 1})
	setBoard(t, st, 0, "AS", "-KH", "9D", "9C", "9H", "KC")
	forceDice(t, st, 1, 1)
	ev := apply(t, st, 0, "use", "family")
	if !st.Over() || len(st.History[0]) != 1 || st.DiedIn[0] != 0 {
		t.Fatalf("over %v history %+v", st.Over(), st.History[0])
	}
	if s := st.Results()[0].Score; s != 11+9+9+9+10 {
		t.Errorf("score %d, want what was face up at death", s)
	}
	if !strings.Contains(texts(ev), "Final scores") {
		t.Errorf("no final scores:\n%s", texts(ev))
	}
}

// Snake eyes for everyone: once all characters are dead the game ends.
func TestEveryoneDeadEndsTheGame(t *testing.T) {
	st := started(t, 2, map[string]int{"roleplay": 0, "snake_eyes": 1})
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "family")
	if st.Over() || st.current() != 0 {
		t.Fatal("the dealer should still play")
	}
	forceDice(t, st, 1, 1)
	apply(t, st, 0, "use", "heart")
	if !st.Over() || len(st.History[0]) != 1 || len(st.History[1]) != 1 {
		t.Fatalf("over %v, histories %d and %d", st.Over(), len(st.History[0]), len(st.History[1]))
	}
}

// The ruling on dead characters: their player still role-plays, and the
// markers they give and receive count.
func TestDeadCharacterStillGivesAndEarnsMarkers(t *testing.T) {
	st := started(t, 3, map[string]int{"snake_eyes": 1})
	forceDice(t, st, 1, 1)
	apply(t, st, 1, "use", "family")
	if !st.dead(1) {
		t.Fatal("Bea should be dead")
	}
	line, err := st.Say(1, "Bea", "I never saw the bus coming.")
	if err != nil || len(line) != 1 || !slices.Contains(line[0].Emoji, markerEmoji) {
		t.Fatalf("a dead character's line: %v %+v", err, line)
	}
	if _, err := st.React(0, line[0].Ref, markerEmoji, true); err != nil {
		t.Fatalf("award to a dead character's line: %v", err)
	}
	react(t, st, 1, 2, "cy1", true)
	cards := st.cardPoints(1)
	// Bea: +1 received, −2 unspent.
	if got := st.Score(1); got != cards-1 {
		t.Fatalf("Bea's score %d, want %d", got, cards-1)
	}
	if _, r := st.markers(2); r != 1 {
		t.Fatalf("Cy received %d markers from the dead Bea", r)
	}
}

// Rule 9: after a win the player may replace any one advantage; with
// several face down, each can be the one restored, and only that one.
func TestReplaceRestoresOnlyTheChosenFaceDownCard(t *testing.T) {
	for slot, tok := range advTokens {
		st := started(t, 2, noRP)
		setBoard(t, st, 1, "AS", "-3H", "-9D", "-9C", "-9H", "-KC")
		setChallenge(t, st, "8D")
		forceRoll(t, st, 9)
		apply(t, st, 1, "use", "family")
		apply(t, st, 1, "replace", tok)
		for i, sl := range st.Boards[1] {
			wantUp := i == 0 || i == slot
			if sl.Up != wantUp {
				t.Fatalf("replace %s: slot %d up=%v", tok, i, sl.Up)
			}
		}
		if st.Boards[1][slot].Card != card(t, "8D") {
			t.Fatalf("replace %s: slot holds %s", tok, st.Boards[1][slot].Card)
		}
	}
}

// Rule 6 at the table's largest: six players each face exactly one
// challenge per round, left of the dealer first, through all six stages,
// with the discards reshuffled when the draw pile runs out.
func TestSixPlayersLiveSixFullRounds(t *testing.T) {
	st := started(t, 6, noRP)
	var order []int
	var reshuffles int
	for !st.Over() {
		seat := st.ToAct()[0]
		order = append(order, seat)
		forceRoll(t, st, 7)
		before := len(st.Pile.Draw)
		playTurnKeeping(t, st, seat)
		if before == 0 && !st.Over() {
			reshuffles++
		}
	}
	if len(order) != 36 {
		t.Fatalf("%d turns, want 36", len(order))
	}
	for i, seat := range order {
		if want := (i%6 + 1) % 6; seat != want {
			t.Fatalf("turn %d went to seat %d, want %d", i, seat, want)
		}
	}
	for seat := range 6 {
		if len(st.History[seat]) != rounds {
			t.Fatalf("seat %d faced %d challenges", seat, len(st.History[seat]))
		}
		for r, ch := range st.History[seat] {
			if ch.Stage != r || ch.Result == resSkipped {
				t.Fatalf("seat %d chapter %d: %+v", seat, r, ch)
			}
		}
	}
	if reshuffles == 0 {
		t.Error("16 cards can't cover 36 challenges without a reshuffle")
	}
}

// TestRandomPlayKeepsTheRules plays seeded games with 1 to 6 players and
// every option, mixing offered moves, arbitrary moves and 🎭 reactions, and
// checks each step against refModel, a separate reading of the rules.
func TestRandomPlayKeepsTheRules(t *testing.T) {
	count := 90
	if raceOn || testing.Short() {
		count = 48 // still every player count with every option
	}
	for g := range count {
		n := g%6 + 1
		opts := map[string]int{"roleplay": g / 6 % 2, "snake_eyes": g / 12 % 2, "swap": g / 24 % 2}
		st := newGame(t, n, opts, uint64(1000+g))
		m := newRefModel(t, st)
		r := games.NewRNG(uint64(g))
		for step := 0; !st.Over(); step++ {
			where := fmt.Sprintf("game %d (n=%d %v) step %d", g, n, opts, step)
			if step > 600 {
				t.Fatalf("%s: the game did not end", where)
			}
			m.checkViews(t, st, where)
			talk := r.Intn(5) == 0
			if st.Phase == phaseIntro {
				talk = r.Intn(8) > 0 // introductions: time for lines and markers
			}
			switch k := r.Intn(5); {
			case talk:
				m.randomTalk(t, st, &r, where)
			case k == 0:
				seat := r.Intn(n+2) - 1
				verbs := []string{"begin", "use", "roll", "replace", "keep", "swap"}
				verb := verbs[r.Intn(len(verbs))]
				var args []string
				if verb == "use" || verb == "replace" {
					args = []string{advTokens[r.Intn(6)]}
				}
				m.step(t, st, seat, games.Act(verb, args...), where)
			default:
				moves := legalMoves(t, st)
				mv := moves[r.Intn(len(moves))]
				m.step(t, st, mv.seat, mv.a, where)
			}
		}
		m.checkEnd(t, st, fmt.Sprintf("game %d", g))
	}
}

// refModel is what the rules say the game holds.
type refModel struct {
	n                     int
	roleplay, snake, swap bool
	boards                [][6]Slot
	dead, swapped         []bool
	phase                 string
	round, pos            int // round 0..5; pos in the turn order, left of the dealer first
	challenge             games.Card
	lines                 map[string]int
	awards                map[string]int // ref+"/"+from → to
	givers                map[string]int // ref+"/"+from → from
	chapters              []int
}

func newRefModel(t *testing.T, st *State) *refModel {
	t.Helper()
	n := len(st.Players)
	m := &refModel{
		n: n, roleplay: st.Roleplay, snake: st.SnakeEyes, swap: st.SwapRule,
		boards: make([][6]Slot, n), dead: make([]bool, n), swapped: make([]bool, n),
		phase: phaseIntro, lines: map[string]int{}, awards: map[string]int{}, givers: map[string]int{},
		chapters: make([]int, n),
	}
	// Rules 1–4: a jokerless 52-card deck, six face-up advantages each,
	// the rest face down in the draw pile, no discards yet.
	seen := map[games.Card]bool{}
	for seat := range n {
		for i, sl := range st.Boards[seat] {
			if !sl.Up || seen[sl.Card] || sl.Card.Rank < 2 || sl.Card.Rank > games.Ace {
				t.Fatalf("deal: seat %d slot %d %+v", seat, i, sl)
			}
			seen[sl.Card] = true
		}
		m.boards[seat] = st.Boards[seat]
	}
	for _, c := range st.Pile.Draw {
		seen[c] = true
	}
	if len(seen) != 52 || len(st.Pile.Draw) != 52-6*n || len(st.Pile.Discard) != 0 {
		t.Fatalf("deal: %d cards, draw %d", len(seen), len(st.Pile.Draw))
	}
	return m
}

func (m *refModel) seat() int { return (m.pos + 1) % m.n }

func (m *refModel) faceUp(seat int) int {
	k := 0
	for _, sl := range m.boards[seat] {
		if sl.Up {
			k++
		}
	}
	return k
}

func (m *refModel) given(seat int) int {
	k := 0
	for _, from := range m.givers {
		if from == seat {
			k++
		}
	}
	return k
}

func (m *refModel) score(seat int) int {
	s := 0
	for _, sl := range m.boards[seat] {
		if sl.Up {
			s += worth(sl.Card)
		}
	}
	if m.roleplay {
		for _, to := range m.awards {
			if to == seat {
				s++
			}
		}
		s -= 3 - m.given(seat)
	}
	return s
}

// legal says whether the rules allow seat's action now.
func (m *refModel) legal(seat int, a games.Action) bool {
	if seat < 0 || seat >= m.n || m.phase == phaseOver {
		return false
	}
	idx := -1
	if len(a.Args) == 1 {
		idx = advIndex(a.Arg(0))
	}
	onTurn := seat == m.seat()
	switch a.Verb {
	case "begin":
		return len(a.Args) == 0 && m.phase == phaseIntro && seat == 0
	case "use":
		return idx >= 0 && m.phase == phaseChoose && onTurn && m.boards[seat][idx].Up
	case "roll":
		return len(a.Args) == 0 && m.phase == phaseChoose && onTurn && m.faceUp(seat) == 0
	case "replace":
		return idx >= 0 && m.phase == phaseDecide && onTurn
	case "keep":
		return len(a.Args) == 0 && m.phase == phaseDecide && onTurn
	case "swap":
		return len(a.Args) == 0 && m.swap && !m.dead[seat] && m.round < 2
	}
	return false
}

// checkViews: the controls offered are exactly the legal moves.
func (m *refModel) checkViews(t *testing.T, st *State, where string) {
	t.Helper()
	for seat := range m.n {
		offered := map[string]bool{}
		for _, b := range st.Hand(seat).Buttons {
			if !m.legal(seat, b.Action) {
				t.Fatalf("%s: seat %d is offered %s", where, seat, b.Action.Key())
			}
			offered[b.Action.Key()] = true
		}
		for _, a := range []games.Action{games.Act("begin"), games.Act("roll"), games.Act("keep"), games.Act("swap")} {
			if m.legal(seat, a) && !offered[a.Key()] {
				t.Fatalf("%s: seat %d isn't offered %s", where, seat, a.Key())
			}
		}
		for _, tok := range advTokens {
			for _, verb := range []string{"use", "replace"} {
				if a := games.Act(verb, tok); m.legal(seat, a) && !offered[a.Key()] {
					t.Fatalf("%s: seat %d isn't offered %s", where, seat, a.Key())
				}
			}
		}
	}
}

// step applies one action and checks the outcome against the rules.
func (m *refModel) step(t *testing.T, st *State, seat int, a games.Action, where string) {
	t.Helper()
	where += ": " + a.Key() + fmt.Sprintf(" by %d", seat)
	before := encode(t, st)
	draw := append([]games.Card(nil), st.Pile.Draw...)
	dice := st.RNG
	d1, d2 := dice.D6(), dice.D6()
	_, err := st.Apply(seat, a)
	if !m.legal(seat, a) {
		var r *games.Refusal
		if !errors.As(err, &r) || string(before) != string(encode(t, st)) {
			t.Fatalf("%s: an illegal move was not refused cleanly: %v", where, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: a legal move was refused: %v", where, err)
	}
	var discarded []games.Card
	next := false
	switch a.Verb {
	case "begin":
		m.phase, m.round, m.pos = phaseChoose, 0, -1
		next = true
	case "swap":
		m.swapped[seat] = !m.swapped[seat]
	case "use", "roll":
		idx := -1
		if a.Verb == "use" {
			idx = advIndex(a.Arg(0))
		}
		m.checkChapter(t, st, seat, d1, d2, where)
		sum := d1 + d2
		switch {
		case m.snake && d1 == 1 && d2 == 1:
			m.dead[seat] = true // nothing flipped
		case idx >= 0 && worth(m.challenge) <= sum && sum <= worth(m.boards[seat][idx].Card):
			m.phase = phaseDecide
		case idx >= 0:
			m.boards[seat][idx].Up = false
		}
		if m.phase != phaseDecide {
			discarded = append(discarded, m.challenge)
			next = true
		}
	case "replace":
		idx := advIndex(a.Arg(0))
		discarded = append(discarded, m.boards[seat][idx].Card)
		m.boards[seat][idx] = Slot{Card: m.challenge, Up: true}
		next = true
	case "keep":
		discarded = append(discarded, m.challenge)
		next = true
	}
	if next {
		m.advance(t, st, draw, discarded, where)
	}
	m.compare(t, st, where)
}

// checkChapter: the roll used exactly the next two dice, in the player's own
// stage (after a Romance/Career swap).
func (m *refModel) checkChapter(t *testing.T, st *State, seat, d1, d2 int, where string) {
	t.Helper()
	m.chapters[seat]++
	if len(st.History[seat]) != m.chapters[seat] {
		t.Fatalf("%s: seat %d has %d chapters, want %d", where, seat, len(st.History[seat]), m.chapters[seat])
	}
	ch := st.History[seat][m.chapters[seat]-1]
	stage := m.round
	if m.swapped[seat] && (stage == 2 || stage == 3) {
		stage = 5 - stage
	}
	if ch.Dice != [2]int{d1, d2} || ch.Stage != stage || ch.Card == nil || *ch.Card != m.challenge {
		t.Fatalf("%s: chapter %+v, want dice %d+%d, stage %d, challenge %s", where, ch, d1, d2, stage, m.challenge)
	}
}

// advance passes the turn to the next living character, round after
// round, and checks the challenge they draw from the top of the pile.
func (m *refModel) advance(t *testing.T, st *State, draw, discarded []games.Card, where string) {
	t.Helper()
	for {
		m.pos++
		if m.pos == m.n {
			m.pos = 0
			m.round++
		}
		if m.round == rounds {
			m.phase = phaseOver
			return
		}
		if !m.dead[m.seat()] {
			break
		}
	}
	m.phase = phaseChoose
	if st.Challenge == nil {
		t.Fatalf("%s: no challenge drawn", where)
	}
	m.challenge = *st.Challenge
	if len(draw) > 0 {
		if top := draw[len(draw)-1]; m.challenge != top || !slices.Equal(st.Pile.Draw, draw[:len(draw)-1]) {
			t.Fatalf("%s: drew %s, want the top card %s", where, m.challenge, top)
		}
		return
	}
	// An empty pile: the discards, this turn's included, become the pile.
	if len(st.Pile.Discard) != 0 {
		t.Fatalf("%s: discards left after a reshuffle", where)
	}
	pool := append(slices.Clone(st.Pile.Draw), m.challenge)
	for _, c := range discarded {
		if !slices.Contains(pool, c) {
			t.Fatalf("%s: %s was not reshuffled into the pile", where, c)
		}
	}
}

// compare checks the game against the model after a move.
func (m *refModel) compare(t *testing.T, st *State, where string) {
	t.Helper()
	if st.Phase != m.phase {
		t.Fatalf("%s: phase %s, want %s", where, st.Phase, m.phase)
	}
	switch m.phase {
	case phaseChoose, phaseDecide:
		if st.Round != m.round || !slices.Equal(st.ToAct(), []int{m.seat()}) {
			t.Fatalf("%s: round %d to act %v, want round %d seat %d", where, st.Round, st.ToAct(), m.round, m.seat())
		}
		if *st.Challenge != m.challenge {
			t.Fatalf("%s: challenge %s, want %s", where, st.Challenge, m.challenge)
		}
	case phaseOver:
		if len(st.ToAct()) != 0 {
			t.Fatalf("%s: to act %v after the end", where, st.ToAct())
		}
	}
	for seat := range m.n {
		if st.Boards[seat] != m.boards[seat] {
			t.Fatalf("%s: seat %d board %v, want %v", where, seat, st.Boards[seat], m.boards[seat])
		}
		if st.dead(seat) != m.dead[seat] || st.Swapped[seat] != m.swapped[seat] {
			t.Fatalf("%s: seat %d dead %v swapped %v", where, seat, st.dead(seat), st.Swapped[seat])
		}
		if got, want := st.Score(seat), m.score(seat); got != want {
			t.Fatalf("%s: seat %d scores %d, want %d", where, seat, got, want)
		}
	}
}

// randomTalk posts a /say line or reacts to one, and checks the markers.
func (m *refModel) randomTalk(t *testing.T, st *State, r *games.RNG, where string) {
	t.Helper()
	if r.Intn(3) == 0 || len(m.lines) == 0 {
		seat := r.Intn(m.n+1) - 1
		ev, err := st.Say(seat, "X", "A line.")
		if seat < 0 {
			if err == nil {
				t.Fatalf("%s: a spectator's /say was accepted", where)
			}
			return
		}
		if err != nil || len(ev) != 1 || ev[0].Ref == "" {
			t.Fatalf("%s: say by %d: %v %+v", where, seat, err, ev)
		}
		if on := slices.Contains(ev[0].Emoji, markerEmoji); on != (m.roleplay && m.phase != phaseOver) {
			t.Fatalf("%s: 🎭 counted on a line: %v", where, on)
		}
		m.lines[ev[0].Ref] = seat
		return
	}
	refs := []string{"nope"}
	for ref := range m.lines {
		refs = append(refs, ref)
	}
	slices.Sort(refs)
	ref := refs[r.Intn(len(refs))]
	from := r.Intn(m.n+1) - 1
	add := r.Intn(4) > 0
	emoji := markerEmoji
	if r.Intn(8) == 0 {
		emoji = "👍"
	}
	before := encode(t, st)
	_, err := st.React(from, ref, emoji, add)
	to, isLine := m.lines[ref]
	key := fmt.Sprintf("%s/%d", ref, from)
	_, had := m.awards[key]
	open := m.roleplay && m.phase != phaseOver && emoji == markerEmoji && from >= 0 && isLine
	switch {
	case open && add && !had && from != to && m.given(from) < 3:
		if err != nil {
			t.Fatalf("%s: award %d→%d refused: %v", where, from, to, err)
		}
		m.awards[key], m.givers[key] = to, from
	case open && !add && had:
		if err != nil {
			t.Fatalf("%s: take-back refused: %v", where, err)
		}
		delete(m.awards, key)
		delete(m.givers, key)
	default:
		var rf *games.Refusal
		if (err != nil && !errors.As(err, &rf)) || string(before) != string(encode(t, st)) {
			t.Fatalf("%s: reaction %d on %s (add %v) should change nothing: %v", where, from, ref, add, err)
		}
	}
	m.compare(t, st, where+" after a reaction")
}

// checkEnd: six chapters per living character, and the winners by score,
// then face-up advantages, then shared.
func (m *refModel) checkEnd(t *testing.T, st *State, where string) {
	t.Helper()
	m.compare(t, st, where)
	best, bestUp := -1<<30, -1
	for seat := range m.n {
		if !m.dead[seat] && len(st.History[seat]) != rounds {
			t.Fatalf("%s: seat %d lived %d chapters", where, seat, len(st.History[seat]))
		}
		if s, up := m.score(seat), m.faceUp(seat); s > best || s == best && up > bestUp {
			best, bestUp = s, up
		}
	}
	for _, res := range st.Results() {
		want := m.score(res.Seat) == best && m.faceUp(res.Seat) == bestUp
		if res.Score != m.score(res.Seat) || res.Winner != want {
			t.Fatalf("%s: result %+v, want score %d winner %v", where, res, m.score(res.Seat), want)
		}
	}
}

// The ruling on dead characters belongs in /rules: their player keeps
// role-playing and the markers they give and receive still count (the
// summary said only that their cards count as they were at death).
func TestSummaryStatesTheDeadCharacterMarkerRuling(t *testing.T) {
	for _, want := range []string{"keeps role-playing", "markers they give or earn still count"} {
		if !strings.Contains(Rules.Summary, want) {
			t.Errorf("the summary doesn't say %q", want)
		}
	}
}
