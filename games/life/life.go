// Package life is "Play the Hand You're Dealt": each player's six face-up
// cards are a character's Advantages, and six rounds of Challenge cards and
// 2d6 rolls tell the story of that character's life.
package life

import (
	"github.com/cardtable/cardbot/games"
)

// Rules registers the game with the bot.
var Rules = games.Rules{
	ID:         "life",
	Name:       gameName,
	MinPlayers: minPlayers,
	MaxPlayers: maxPlayers,
	Options:    options,
	Summary:    summary,
	New:        New,
	Load:       games.LoadJSON[State],
	Version:    1,
	Blurb:      "A whole life in six rounds of cards and dice, told in the channel",
}

const (
	gameName   = "Play the Hand You're Dealt"
	minPlayers = 1
	maxPlayers = 6
)

var options = []games.Option{
	{Name: "roleplay", Label: "Role-play markers", Description: "Role-play markers: 3 each, awarded with 🎭 reactions, counted in the score",
		Kind: games.BoolOption, Default: 1},
	{Name: "snake_eyes", Label: "Snake eyes kill", Description: "Advanced: rolling snake eyes (1+1) kills your character on the spot",
		Kind: games.BoolOption, Default: 0},
	{Name: "swap", Label: "Romance/Career swap", Description: "Advanced: each player may swap their Romance and Career rounds before Romance",
		Kind: games.BoolOption, Default: 0},
}

const summary = `**A life in six chapters.** Everyone gets six face-up cards from a shuffled 52-card deck: their character's Advantages, always in this order — Family, Money, Friends, Mind, Body, Heart. Cards count their number; J, Q and K count 10 and an ace 11, for advantages, challenges and the final score alike.

**Before it starts.** Introduce your character in a few lines with /say. The dealer (the host) opens the first chapter when the table is ready.

**Rounds.** Childhood, Adolescence, Romance, Career, Achievement, Old age. In each round every living character faces one Challenge card, drawn when their turn begins. Turns start left of the dealer (the player who joined after the host) and go round in join order, the dealer last.

**A challenge.** Pick one of your face-up advantages; the bot rolls two dice in public. You win when the roll is at least the challenge and at most the advantage. You must pick and roll even with no chance of winning. With no advantage face up you still roll (it can matter for snake eyes) and fail.
• Lose: the advantage you used turns face down and stays that way.
• Win: you may take the challenge card into your life in place of any one advantage, face up or face down. It comes in face up and the old card is discarded. Or keep your cards and discard the challenge.

**Deck.** When the draw pile runs out the discards are shuffled into a new one. If there is nothing at all to draw, that challenge is skipped.

**End.** Your score is the total of your face-up advantages. Highest wins; on a tie the character with more advantages still face up wins; still tied, the win is shared.

**Role play** *(option, on).* Each player has 3 🎭 markers. React with 🎭 to another player's /say message in this game to award one; removing the reaction takes it back while the game runs. No self-awards, spectators can't award, and one message earns at most one marker from each player. At the end: +1 per marker received, −1 per marker never given away.

**Advanced rules** *(options, off).*
• Snake eyes: a roll of 1 and 1 kills the character at once — nothing is flipped, their later turns are skipped and their cards score as they lay at death. Their player keeps role-playing (the death, then as a memory), and the 🎭 markers they give or earn still count. So with this rule a roll of 2 never wins: the winning range starts at 3.
• Swap: until the Romance round begins (before the game, in Childhood or in Adolescence) each player may swap Romance and Career for themselves. Only the chapter names and prompts they get change; the table shows their order.

**Rulings we made.** The dealer starts Childhood with a button, so the table can meet the characters first. The dice for a character with nothing face up are still rolled in public. A repeated 🎭 on the same message counts once, and once the game is over markers can no longer be given or taken back.`

// Advantage and stage names, in their fixed order.
var (
	advNames   = [6]string{"Family", "Money", "Friends", "Mind", "Body", "Heart"}
	advTokens  = [6]string{"family", "money", "friends", "mind", "body", "heart"}
	stageNames = [6]string{"Childhood", "Adolescence", "Romance", "Career", "Achievement", "Old age"}
)

const (
	rounds       = 6
	startMarkers = 3
	maxEvent     = 1800
)

// Phases of the game.
const (
	phaseIntro  = "intro"  // the deal is done; the dealer starts Childhood
	phaseChoose = "choose" // the player to act picks an advantage (or rolls with none)
	phaseDecide = "decide" // the player beat the challenge: replace or keep
	phaseOver   = "over"
)

// Slot is one Advantage: the card and whether it is still face up.
type Slot struct {
	Card games.Card
	Up   bool
}

// Award is one role-play marker given by From to To for the message Ref.
type Award struct {
	From int
	To   int
	Ref  string
}

// Chapter is one challenge in a character's life, kept for the end-of-game
// life summary.
type Chapter struct {
	Stage  int         // index into stageNames, after the player's own swap
	Card   *games.Card `json:",omitempty"` // the challenge; nil when skipped
	Adv    int         // advantage used, -1 for none
	With   *games.Card `json:",omitempty"` // the advantage card used
	Dice   [2]int
	Result string      // won, lost, bare (nothing face up), died, skipped
	Took   int         // after a win: advantage replaced, -1 if kept
	Old    *games.Card `json:",omitempty"` // the card replaced
	OldUp  bool        // whether the replaced card was face up
}

// Chapter results.
const (
	resWon     = "won"
	resLost    = "lost"
	resBare    = "bare"
	resDied    = "died"
	resSkipped = "skipped"
)

// State is one game of Play the Hand You're Dealt.
type State struct {
	Players   []string
	Roleplay  bool
	SnakeEyes bool
	SwapRule  bool

	RNG       games.RNG
	Pile      games.Pile[games.Card]
	Boards    [][6]Slot
	Start     [][6]games.Card // each character's starting advantages
	Phase     string
	Round     int         // 0..5
	Turn      int         // position in this round's turn order
	Challenge *games.Card `json:",omitempty"`

	Swapped []bool // Romance and Career swapped for this seat
	DiedIn  []int  // stage index of death, -1 while alive

	Lines   map[string]int   // the players' /say lines: ref → author
	Awards  map[string]Award // keyed by awardKey(ref, from)
	History [][]Chapter
	Last    string // the latest outcome, for the table
}

// New deals a game.
func New(setup games.Setup) (games.Game, error) {
	n := len(setup.Players)
	if n < minPlayers || n > maxPlayers {
		return nil, games.Refuse("%s needs %d to %d players.", gameName, minPlayers, maxPlayers)
	}
	opts, err := games.Rules{Name: gameName, Options: options}.Validate(setup.Options)
	if err != nil {
		return nil, err
	}
	s := &State{
		Players:   append([]string(nil), setup.Players...),
		Roleplay:  opts["roleplay"] == 1,
		SnakeEyes: opts["snake_eyes"] == 1,
		SwapRule:  opts["swap"] == 1,
		RNG:       games.NewRNG(setup.Seed),
		Phase:     phaseIntro,
		Boards:    make([][6]Slot, n),
		Start:     make([][6]games.Card, n),
		Swapped:   make([]bool, n),
		DiedIn:    make([]int, n),
		Awards:    map[string]Award{},
		History:   make([][]Chapter, n),
	}
	deck := games.StandardDeck(0)
	games.Shuffle(&s.RNG, deck)
	// Deal one advantage at a time round the table, starting left of the dealer.
	for a := 0; a < 6; a++ {
		for i := 0; i < n; i++ {
			seat := s.seatAt(i)
			c := deck[len(deck)-1]
			deck = deck[:len(deck)-1]
			s.Boards[seat][a] = Slot{Card: c, Up: true}
			s.Start[seat][a] = c
		}
	}
	s.Pile.Draw = deck
	for i := range s.DiedIn {
		s.DiedIn[i] = -1
	}
	return s, nil
}

// seatAt is the seat at position i of a round's turn order: left of the
// dealer first, the dealer (seat 0) last.
func (s *State) seatAt(i int) int { return (i + 1) % len(s.Players) }

// current is the seat whose turn it is.
func (s *State) current() int { return s.seatAt(s.Turn) }

func (s *State) dead(seat int) bool { return s.DiedIn[seat] >= 0 }

// stage is the life stage a seat is in during round r, after their swap.
func (s *State) stage(seat, r int) int {
	if s.Swapped[seat] {
		switch r {
		case 2:
			return 3
		case 3:
			return 2
		}
	}
	return r
}

// canSwap reports whether the swap toggle is open to seat now.
func (s *State) canSwap(seat int) bool {
	return s.SwapRule && s.Phase != phaseOver && s.Round < 2 && !s.dead(seat)
}

func (s *State) faceUp(seat int) int {
	n := 0
	for _, sl := range s.Boards[seat] {
		if sl.Up {
			n++
		}
	}
	return n
}

func (s *State) cardPoints(seat int) int {
	t := 0
	for _, sl := range s.Boards[seat] {
		if sl.Up {
			t += sl.Card.PipValue()
		}
	}
	return t
}

// Over reports whether the six rounds are done.
func (s *State) Over() bool { return s.Phase == phaseOver }

// ToAct is the seat the game waits for.
func (s *State) ToAct() []int {
	switch s.Phase {
	case phaseIntro:
		return []int{0}
	case phaseChoose, phaseDecide:
		return []int{s.current()}
	}
	return nil
}

// Score is a seat's score now: face-up cards plus markers received minus
// markers still unspent (with role play).
func (s *State) Score(seat int) int {
	sc := s.cardPoints(seat)
	if s.Roleplay {
		given, received := s.markers(seat)
		sc += received - (startMarkers - given)
	}
	return sc
}

// Results scores every seat and marks the winners.
func (s *State) Results() []games.Result {
	res := make([]games.Result, len(s.Players))
	for i := range res {
		res[i] = games.Result{Seat: i, Score: s.Score(i)}
	}
	for _, w := range s.winners() {
		res[w].Winner = true
	}
	return res
}

// winners: highest score, then most face-up advantages, then shared.
func (s *State) winners() []int {
	var best []int
	for seat := range s.Players {
		if len(best) == 0 {
			best = []int{seat}
			continue
		}
		b := best[0]
		switch c := compare(s.Score(seat), s.faceUp(seat), s.Score(b), s.faceUp(b)); {
		case c > 0:
			best = []int{seat}
		case c == 0:
			best = append(best, seat)
		}
	}
	return best
}

func compare(score, up, score2, up2 int) int {
	switch {
	case score != score2:
		return score - score2
	default:
		return up - up2
	}
}

func advIndex(tok string) int {
	for i, t := range advTokens {
		if t == tok {
			return i
		}
	}
	return -1
}

// Apply performs one player's move.
func (s *State) Apply(seat int, a games.Action) ([]games.Event, error) {
	if seat < 0 || seat >= len(s.Players) {
		return nil, games.Refuse("You don't have a seat in this game.")
	}
	if s.Phase == phaseOver {
		return nil, games.Refuse("The game is over.")
	}
	n, known := verbArgs[a.Verb]
	if !known {
		return nil, games.Refuse("That isn't a move in this game.")
	}
	if err := wantArgs(a, n); err != nil {
		return nil, err
	}
	switch a.Verb {
	case "begin":
		return s.begin(seat)
	case "use":
		return s.use(seat, a.Arg(0))
	case "roll":
		return s.rollBare(seat)
	case "replace":
		return s.replace(seat, a.Arg(0))
	case "keep":
		return s.keep(seat)
	default: // "swap"
		return s.swap(seat)
	}
}

// verbArgs is every move and how many arguments it takes.
var verbArgs = map[string]int{"begin": 0, "use": 1, "roll": 0, "replace": 1, "keep": 0, "swap": 0}

func wantArgs(a games.Action, n int) error {
	if len(a.Args) != n {
		return games.Refuse("That move doesn't look right; open your hand again for fresh buttons.")
	}
	return nil
}

// Opening introduces the cast right after the deal and invites the players
// to introduce their characters before the dealer begins.
func (s *State) Opening() []games.Event { return []games.Event{s.castEvent()} }

func (s *State) begin(seat int) ([]games.Event, error) {
	if s.Phase != phaseIntro {
		return nil, games.Refuse("The story has already begun.")
	}
	if seat != 0 {
		return nil, games.Refuse("%s, the dealer, opens the first chapter.", s.Players[0])
	}
	ev := []games.Event{games.Say("%s opened the first chapter.", s.Players[0])}
	s.Round, s.Turn = 0, 0
	return append(ev, s.openTurn()...), nil
}

// onTurn checks that it is seat's turn in the given phase.
func (s *State) onTurn(seat int, phase string) error {
	if s.Phase == phaseIntro {
		return games.Refuse("The story hasn't begun yet; %s opens the first chapter.", s.Players[0])
	}
	if cur := s.current(); cur != seat {
		return games.Refuse("It's %s's turn.", s.Players[cur])
	}
	if s.Phase != phase {
		if s.Phase == phaseDecide {
			return games.Refuse("You already beat this challenge: take the card in place of an advantage, or keep yours.")
		}
		return games.Refuse("You haven't beaten a challenge this turn.")
	}
	return nil
}

func (s *State) use(seat int, tok string) ([]games.Event, error) {
	if err := s.onTurn(seat, phaseChoose); err != nil {
		return nil, err
	}
	idx := advIndex(tok)
	if idx < 0 {
		return nil, games.Refuse("Choose one of your advantages: family, money, friends, mind, body or heart.")
	}
	if !s.Boards[seat][idx].Up {
		return nil, games.Refuse("Your %s is face down; it can't be used again.", advNames[idx])
	}
	return s.resolve(seat, idx), nil
}

func (s *State) rollBare(seat int) ([]games.Event, error) {
	if err := s.onTurn(seat, phaseChoose); err != nil {
		return nil, err
	}
	if s.faceUp(seat) > 0 {
		return nil, games.Refuse("You still have an advantage face up: choose one to face the challenge.")
	}
	return s.resolve(seat, -1), nil
}

// resolve rolls the dice for seat's challenge with advantage idx (-1: none).
func (s *State) resolve(seat, idx int) []games.Event {
	d1, d2 := s.RNG.D6(), s.RNG.D6()
	ch := *s.Challenge
	st := s.stage(seat, s.Round)
	chap := Chapter{Stage: st, Card: &ch, Adv: idx, Dice: [2]int{d1, d2}, Took: -1}
	if idx >= 0 {
		w := s.Boards[seat][idx].Card
		chap.With = &w
	}
	total := d1 + d2
	switch {
	case s.SnakeEyes && d1 == 1 && d2 == 1:
		chap.Result = resDied
		s.DiedIn[seat] = st
	case idx < 0:
		chap.Result = resBare
	case ch.PipValue() <= total && total <= s.Boards[seat][idx].Card.PipValue():
		chap.Result = resWon
	default:
		chap.Result = resLost
		s.Boards[seat][idx].Up = false
	}
	s.History[seat] = append(s.History[seat], chap)
	ev := []games.Event{s.rollEvent(seat, chap)}
	s.Last = s.lastLine(seat, chap)
	if chap.Result == resWon {
		s.Phase = phaseDecide
		return ev
	}
	s.Pile.Discard = append(s.Pile.Discard, ch)
	s.Challenge = nil
	return append(ev, s.advance()...)
}

func (s *State) replace(seat int, tok string) ([]games.Event, error) {
	if err := s.onTurn(seat, phaseDecide); err != nil {
		return nil, err
	}
	idx := advIndex(tok)
	if idx < 0 {
		return nil, games.Refuse("Choose which advantage to replace: family, money, friends, mind, body or heart.")
	}
	ch := *s.Challenge
	old := s.Boards[seat][idx]
	s.Boards[seat][idx] = Slot{Card: ch, Up: true}
	s.Pile.Discard = append(s.Pile.Discard, old.Card)
	s.Challenge = nil
	h := s.History[seat]
	chap := &h[len(h)-1]
	chap.Took, chap.Old, chap.OldUp = idx, &old.Card, old.Up
	ev := []games.Event{s.replaceEvent(seat, *chap)}
	s.Last = s.Players[seat] + " took the " + ch.String() + " as their new " + advNames[idx] + "."
	return append(ev, s.advance()...), nil
}

func (s *State) keep(seat int) ([]games.Event, error) {
	if err := s.onTurn(seat, phaseDecide); err != nil {
		return nil, err
	}
	ch := *s.Challenge
	s.Pile.Discard = append(s.Pile.Discard, ch)
	s.Challenge = nil
	ev := []games.Event{games.Say("%s keeps their advantages; the %s goes to the discards.", s.Players[seat], ch)}
	s.Last = s.Players[seat] + " kept their advantages."
	return append(ev, s.advance()...), nil
}

func (s *State) swap(seat int) ([]games.Event, error) {
	if !s.SwapRule {
		return nil, games.Refuse("The Romance/Career swap isn't in play in this game.")
	}
	if s.dead(seat) {
		return nil, games.Refuse("Your character's story has already ended.")
	}
	if s.Round >= 2 {
		return nil, games.Refuse("Too late: Romance and Career can only be swapped before the Romance round begins.")
	}
	s.Swapped[seat] = !s.Swapped[seat]
	if s.Swapped[seat] {
		return []games.Event{games.Say("%s will face Career before Romance.", s.Players[seat])}, nil
	}
	return []games.Event{games.Say("%s is back to Romance before Career.", s.Players[seat])}, nil
}

// advance ends the current turn and opens the next one.
func (s *State) advance() []games.Event {
	s.Turn++
	return s.openTurn()
}

// openTurn starts the turn at s.Turn (rolling over into the next round, or
// ending the game), skipping dead characters and challenges that cannot be
// drawn, and draws the challenge.
func (s *State) openTurn() []games.Event {
	var ev []games.Event
	header := s.Turn == 0
	for {
		if s.Turn >= len(s.Players) {
			s.Turn = 0
			s.Round++
			header = true
		}
		if s.Round >= rounds {
			return append(ev, s.finish()...)
		}
		seat := s.current()
		if s.dead(seat) {
			s.Turn++
			continue
		}
		c, reshuffled, ok := s.Pile.Take(&s.RNG)
		if reshuffled {
			ev = append(ev, games.Say("The draw pile is empty: the discards are shuffled into a new one."))
		}
		if !ok {
			st := s.stage(seat, s.Round)
			s.History[seat] = append(s.History[seat], Chapter{Stage: st, Adv: -1, Took: -1, Result: resSkipped})
			ev = append(ev, games.Narrate("There is no card left to draw, so %s's %s challenge is skipped.",
				s.Players[seat], stageNames[st]))
			s.Turn++
			continue
		}
		s.Challenge = &c
		s.Phase = phaseChoose
		return append(ev, s.challengeEvent(seat, c, header))
	}
}

// finish ends the game and tells everyone's life story.
func (s *State) finish() []games.Event {
	s.Phase = phaseOver
	s.Challenge = nil
	var ev []games.Event
	for seat := range s.Players {
		ev = append(ev, s.lifeEvent(seat))
	}
	return append(ev, s.scoresEvent())
}
