package dealt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Action verbs. A view may show several menus for one verb (a long hand
// needs more than 25 options); every control needs its own verb, so the
// extra menus carry a number ("play2", "res3") that Apply ignores.
const (
	VerbPlay = "play" // arg: a Move token ("3.4_pair_9", "7_stop")
	VerbRes  = "res"  // arg: "<reserve code>.<gap>": take that reserve card into the hand at gap 0..len
	VerbPut  = "put"  // arg: gap 0..len: place the card a Redraw gave you
	VerbLose = "lose" // no higher play, no reserve, nothing else: give up the round
	VerbFrom = "from" // arg: 1-based position: list the plays that start there (long hands)
	VerbTake = "take" // arg: reserve code: list where it can go (long hands)
	VerbBack = "back" // forget a from/take choice
)

// verbArgs is how many arguments each verb takes.
var verbArgs = map[string]int{VerbPlay: 1, VerbRes: 1, VerbPut: 1, VerbLose: 0, VerbFrom: 1, VerbTake: 1, VerbBack: 0}

func baseVerb(v string) string { return strings.TrimRight(v, "0123456789") }

func menuVerb(base string, i int) string {
	if i == 0 {
		return base
	}
	return base + strconv.Itoa(i+1)
}

// Apply validates and performs one action. Every check runs before the
// state changes.
func (s *State) Apply(seat int, a games.Action) ([]games.Event, error) {
	if s.Over() {
		return nil, games.Refuse("The game is over.")
	}
	if seat < 0 || seat >= len(s.Players) {
		return nil, games.Refuse("You are not playing in this game.")
	}
	if who := s.actor(); seat != who {
		if s.Drawing != nil {
			return nil, games.Refuse("It's %s's turn: they are placing the cards a Redraw gave them.", s.Names[who])
		}
		return nil, games.Refuse("It's %s's turn.", s.Names[who])
	}
	verb := baseVerb(a.Verb)
	want, known := verbArgs[verb]
	if !known {
		return nil, games.Refuse("Dealt! has no move called %q.", a.Verb)
	}
	if len(a.Args) != want {
		if want == 0 {
			return nil, games.Refuse("That move takes no options.")
		}
		return nil, games.Refuse("Pick exactly one option.")
	}
	if s.Drawing != nil && verb != VerbPut {
		return nil, games.Refuse("First place the card you drew.")
	}
	arg := a.Arg(0)
	var evs []games.Event
	var err error
	switch verb {
	case VerbPlay:
		evs, err = s.play(seat, arg)
	case VerbRes:
		evs, err = s.reserve(seat, arg)
	case VerbPut:
		evs, err = s.put(seat, arg)
	case VerbLose:
		evs, err = s.giveUp(seat)
	case VerbFrom:
		return nil, s.chooseFrom(seat, arg)
	case VerbTake:
		return nil, s.chooseTake(seat, arg)
	case VerbBack:
		if s.From == 0 && s.Taking == "" {
			return nil, games.Refuse("There is no choice to go back from.")
		}
		s.From, s.Taking = 0, ""
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.From, s.Taking = 0, ""
	s.Last = s.Last[:0]
	for _, e := range evs {
		s.Last = append(s.Last, e.Text)
	}
	return evs, nil
}

// moves lists the seat's legal plays now: the single source the menus are
// built from and Apply checks against.
func (s *State) moves(seat int) []Move {
	return movesFor(s.Players[seat].Hand, s.toBeat())
}

// checkPlay turns a play token into a legal Move, or says why it isn't one.
func (s *State) checkPlay(seat int, tok string) (Move, error) {
	t, ok := parseToken(tok)
	if !ok {
		return Move{}, games.Refuse("That isn't a play: pick one from the menu.")
	}
	hand := s.Players[seat].Hand
	for i, p := range t.pos {
		if p >= len(hand) {
			return Move{}, games.Refuse("You have only %s in your hand.", cardCount(len(hand)))
		}
		if i > 0 && p != t.pos[i-1]+1 {
			return Move{}, games.Refuse("Those cards don't touch in your hand.")
		}
	}
	cs := hand[t.pos[0] : t.pos[0]+len(t.pos)]
	m := Move{Pos: t.pos[0], Special: t.special, Combo: Combo{t.kind, t.top}}
	if t.special != 0 {
		m.Combo = Combo{}
		if len(cs) != 1 {
			return Move{}, games.Refuse("A %s card is played on its own.", Card{Face: t.special}.Label())
		}
		if cs[0].Face != t.special {
			return Move{}, games.Refuse("Card %d is a %s, not a %s card.", t.pos[0]+1, cs[0].Label(), Card{Face: t.special}.Label())
		}
	} else {
		for _, c := range cs {
			if c.Special() {
				return Move{}, games.Refuse("A %s card is played on its own, never in a combination.", c.Label())
			}
		}
		if len(cs) != t.kind.Size() {
			return Move{}, games.Refuse("A %s takes %s.", kindName(t.kind), cardCount(t.kind.Size()))
		}
		if _, ok := wilds(cs, m.Combo); !ok {
			if t.kind.straight() && (t.top < len(cs) || t.top > 12) {
				return Move{}, games.Refuse("Straights run within 1–12 and never wrap around.")
			}
			return Move{}, games.Refuse("%s can't make a %s.", labels(cs), m.Combo)
		}
		if b := s.toBeat(); b != nil && !m.Combo.Beats(*b) {
			return Move{}, games.Refuse("A %s doesn't beat a %s.", m.Combo, *b)
		}
	}
	if !slices.Contains(s.moves(seat), m) { // the menus and Apply share one list
		return Move{}, games.Refuse("That play isn't open to you now.")
	}
	return m, nil
}

func kindName(k Kind) string {
	return map[Kind]string{Solo: "Solo", Straight2: "2-Straight", Pair: "Pair", Straight3: "3-Straight", Trips: "Trips"}[k]
}

func cardCount(n int) string {
	if n == 1 {
		return "1 card"
	}
	return fmt.Sprintf("%d cards", n)
}

// play takes touching cards (or a Stop or Redraw) from the hand to the trick.
func (s *State) play(seat int, tok string) ([]games.Event, error) {
	m, err := s.checkPlay(seat, tok)
	if err != nil {
		return nil, err
	}
	p := &s.Players[seat]
	cs := slices.Clone(p.Hand[m.Pos : m.Pos+m.Len()])
	p.Hand = slices.Delete(slices.Clone(p.Hand), m.Pos, m.Pos+m.Len())
	pl := Play{Seat: seat, Cards: cs}
	name := s.Names[seat]
	var line string
	switch m.Special {
	case Stop:
		pl.What = PlayStop
		line = fmt.Sprintf("%s plays a Stop", name)
	case Redraw:
		pl.What = PlayRedraw
		line = fmt.Sprintf("%s plays a Redraw", name)
	default:
		pl.What, pl.Kind, pl.Top = PlayCombo, m.Combo.Kind, m.Combo.Top
		line = fmt.Sprintf("%s plays %s: %s%s", name, labels(cs), m.Combo, xNote(cs, m.Combo))
	}
	if len(p.Hand) == 0 {
		line += " — and has no cards left"
	}
	s.Trick = append(s.Trick, pl)
	evs := []games.Event{games.Say("%s.", line)}
	if m.Special == Stop {
		return append(evs, s.endTrick(seat)...), nil
	}
	return append(evs, s.advance()...), nil
}

// xNote says what the X cards were declared as: " (X as 9)".
func xNote(cs []Card, c Combo) string {
	vals, ok := wilds(cs, c)
	if !ok || len(vals) == 0 {
		return ""
	}
	if len(vals) == 2 && vals[0] == vals[1] {
		return fmt.Sprintf(" (both X as %d)", vals[0])
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = "X as " + strconv.Itoa(v)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// reserveCard finds a reserve card the seat may take now.
func (s *State) reserveCard(seat int, code string) (int, error) {
	if len(s.Trick) == 0 {
		return 0, games.Refuse("You lead this trick: play cards, a Stop or a Redraw. Reserve cards are for answering a trick.")
	}
	c, err := ParseCard(code)
	i := slices.Index(s.Players[seat].Reserve, c)
	if err != nil || i < 0 {
		return 0, games.Refuse("That isn't one of your reserve cards.")
	}
	return i, nil
}

// gap reads a place in a hand of n cards: 0 is before the first card, n after the last.
func gap(arg string, n int) (int, error) {
	g, err := strconv.Atoi(arg)
	if err != nil || g < 0 || g > n {
		return 0, games.Refuse("Pick a place in your hand from the menu (0 to %d).", n)
	}
	return g, nil
}

// reserve takes a reserve card into the hand instead of playing.
func (s *State) reserve(seat int, arg string) ([]games.Event, error) {
	code, at, _ := strings.Cut(arg, ".")
	i, err := s.reserveCard(seat, code)
	if err != nil {
		return nil, err
	}
	p := &s.Players[seat]
	g, err := gap(at, len(p.Hand))
	if err != nil {
		return nil, err
	}
	c := p.Reserve[i]
	p.Reserve = slices.Delete(slices.Clone(p.Reserve), i, i+1)
	p.Hand = slices.Insert(slices.Clone(p.Hand), g, c)
	s.Trick = append(s.Trick, Play{Seat: seat, What: PlayReserve, Cards: []Card{c}})
	evs := []games.Event{games.Say("%s takes the reserve %s into their hand.", s.Names[seat], c.Label())}
	return append(evs, s.advance()...), nil
}

func (s *State) chooseFrom(seat int, arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || !slices.ContainsFunc(s.moves(seat), func(m Move) bool { return m.Pos == n-1 }) {
		return games.Refuse("No play of yours starts there.")
	}
	s.From, s.Taking = n, ""
	return nil
}

func (s *State) chooseTake(seat int, code string) error {
	if _, err := s.reserveCard(seat, code); err != nil {
		return err
	}
	s.From, s.Taking = 0, code
	return nil
}

// advance passes the turn to the left, to the next player holding cards who
// hasn't acted yet; back at the leader, the trick is over.
func (s *State) advance() []games.Event {
	n := len(s.Players)
	for i := 1; i < n; i++ {
		o := (s.Turn + i) % n
		if o == s.Leader {
			break
		}
		if s.holds(o) && !s.acted(o) {
			s.Turn = o
			return nil
		}
	}
	return s.endTrick(-1)
}

// giveUp: a player who can't beat the trick, has no reserve card and no
// Stop or Redraw loses the round.
func (s *State) giveUp(seat int) ([]games.Event, error) {
	p := s.Players[seat]
	if len(s.Trick) == 0 {
		return nil, games.Refuse("You lead this trick: play something.")
	}
	if len(p.Reserve) > 0 {
		return nil, games.Refuse("You still have a reserve card; you can't give up the round.")
	}
	b := s.toBeat()
	ms := s.moves(seat)
	if i := slices.IndexFunc(ms, func(m Move) bool { return m.Special == 0 }); i >= 0 {
		if b == nil {
			return nil, games.Refuse("Nothing needs beating yet: you can play any combination.")
		}
		return nil, games.Refuse("You can still beat the %s, so you must play.", *b)
	}
	if len(ms) > 0 {
		return nil, games.Refuse("You can still play your %s card.", Card{Face: ms[0].Special}.Label())
	}
	why := "and has no reserve card left"
	if b != nil {
		why = fmt.Sprintf("can't beat the %s and has no reserve card left", *b)
	}
	return s.endRound([]int{seat}, fmt.Sprintf("%s %s", s.Names[seat], why)), nil
}

// endTrick clears the trick: everyone has acted, or stopper played a Stop.
func (s *State) endTrick(stopper int) []games.Event {
	trick := s.Trick
	s.Trick = nil
	redraws := 0
	for _, p := range trick {
		if p.What != PlayReserve {
			s.Pile.Discard = append(s.Pile.Discard, p.Cards...)
		}
		if p.What == PlayRedraw {
			redraws++
		}
	}
	top := best(trick)
	if redraws > 0 {
		return s.startDraw(trick, top, 3*redraws)
	}
	hs := s.holders()
	switch len(hs) {
	case 1:
		return s.endRound(hs, fmt.Sprintf("%s is the last player holding cards", s.Names[hs[0]]))
	case 0:
		// Everyone still in went out in this trick: all but the highest pay.
		var payers []int
		for _, p := range trick {
			if (top == nil || p.Seat != top.Seat) && !slices.Contains(payers, p.Seat) {
				payers = append(payers, p.Seat)
			}
		}
		slices.Sort(payers)
		why := "everyone still in ran out of cards in the same trick"
		if top != nil {
			why += fmt.Sprintf(", and %s's %s was highest", s.Names[top.Seat], top.Combo())
		}
		return s.endRound(payers, why)
	}
	lead, why := s.nextLeader(trick, top, stopper)
	s.Leader, s.Turn = lead, lead
	return []games.Event{games.Say("%s: %s leads the next trick.", why, s.Names[lead])}
}

// nextLeader applies the text's leader rules, and says which one applied.
func (s *State) nextLeader(trick []Play, top *Play, stopper int) (int, string) {
	if stopper >= 0 {
		if s.holds(stopper) {
			return stopper, fmt.Sprintf("%s's Stop ends the trick", s.Names[stopper])
		}
		return s.rightOf(stopper), fmt.Sprintf("%s's Stop ends the trick and was their last card, so the player on their right", s.Names[stopper])
	}
	if top == nil { // only reserves taken: can't happen, the leader always plays
		if s.holds(s.Leader) {
			return s.Leader, "Trick over"
		}
		return s.rightOf(s.Leader), "Trick over"
	}
	if s.holds(top.Seat) {
		return top.Seat, fmt.Sprintf("Trick over, %s's %s was highest", s.Names[top.Seat], top.Combo())
	}
	for i := len(trick) - 1; i >= 0; i-- {
		if p := trick[i]; p.What == PlayCombo && s.holds(p.Seat) {
			return p.Seat, fmt.Sprintf("Trick over, %s went out with the highest combination, so the next highest", s.Names[top.Seat])
		}
	}
	return s.rightOf(top.Seat), fmt.Sprintf("Trick over, %s went out and nobody still holding cards played any, so the player on their right", s.Names[top.Seat])
}

// startDraw resolves a trick with Redraws in it: the player with the highest
// combination (or, with none, the one who led the Redraw) draws n cards one
// at a time and leads next, even if the trick emptied their hand.
func (s *State) startDraw(trick []Play, top *Play, n int) []games.Event {
	drawer := s.Leader
	if top != nil {
		drawer = top.Seat
	}
	whose := fmt.Sprintf("%s led the Redraw and nobody played a combination", s.Names[drawer])
	if top != nil {
		whose = fmt.Sprintf("%s's %s was highest", s.Names[drawer], top.Combo())
	}
	if !slices.ContainsFunc(s.holders(), func(o int) bool { return o != drawer }) {
		// Nobody else holds cards: the drawer is the last one with cards,
		// whatever they draw, so the draw is skipped.
		return s.endRound([]int{drawer}, fmt.Sprintf("%s and must draw for the Redraw while everyone else is out", whose))
	}
	s.Drawing = &Draw{Seat: drawer, Left: n, Total: n}
	evs := []games.Event{games.Say("Redraw! %s: %s draws %d cards and leads the next trick.", whose, s.Names[drawer], n)}
	return append(evs, s.drawNext()...)
}

// drawNext draws the next Redraw card, or finishes when there are no more.
func (s *State) drawNext() []games.Event {
	d := s.Drawing
	if d.Left == 0 {
		return s.drawDone()
	}
	c, reshuffled, ok := s.Pile.Take(&s.RNG)
	if !ok { // nothing left to draw anywhere: the draw is skipped
		return s.drawDone()
	}
	d.Card, d.Left = c, d.Left-1
	if reshuffled {
		return []games.Event{games.Say("The draw pile ran out: the discards are shuffled into a new one.")}
	}
	return nil
}

// put places the drawn card and draws the next.
func (s *State) put(seat int, arg string) ([]games.Event, error) {
	if s.Drawing == nil {
		return nil, games.Refuse("You have no drawn card to place.")
	}
	p := &s.Players[seat]
	g, err := gap(arg, len(p.Hand))
	if err != nil {
		return nil, err
	}
	p.Hand = slices.Insert(slices.Clone(p.Hand), g, s.Drawing.Card)
	d := *s.Drawing
	evs := []games.Event{games.Say("%s places a drawn card (%d of %d).", s.Names[seat], d.Total-d.Left, d.Total)}
	return append(evs, s.drawNext()...), nil
}

// drawDone: the drawer leads the next trick.
func (s *State) drawDone() []games.Event {
	seat := s.Drawing.Seat
	s.Drawing = nil
	if hs := s.holders(); len(hs) < 2 { // only when the whole deck ran dry
		return s.endRound(hs, "nobody else holds cards")
	}
	lead := seat
	if !s.holds(seat) {
		lead = s.rightOf(seat)
	}
	s.Leader, s.Turn = lead, lead
	return []games.Event{games.Say("%s leads the next trick.", s.Names[lead])}
}

// endRound takes a chip from each payer. Someone who owes one and has none
// ends the game; otherwise the host deals again and the payer (the host, if
// several paid) leads.
func (s *State) endRound(payers []int, why string) []games.Event {
	s.Trick, s.Drawing = nil, nil
	var owing, paid, left []string
	var broke, chips []int
	for _, seat := range payers {
		p := &s.Players[seat]
		if p.Chips == 0 {
			broke = append(broke, seat)
			owing = append(owing, s.Names[seat])
			continue
		}
		p.Chips--
		paid = append(paid, s.Names[seat])
		left = append(left, fmt.Sprintf("%s %d", s.Names[seat], p.Chips))
		chips = append(chips, p.Chips)
	}
	// The count after the payment follows it: "Ann (1 left) gives up a
	// chip" read as if Ann had one before paying.
	pays := ""
	switch {
	case len(paid) == 1 && chips[0] == 0:
		pays = fmt.Sprintf(" %s gives up a chip and has none left.", paid[0])
	case len(paid) == 1:
		pays = fmt.Sprintf(" %s gives up a chip and has %d left.", paid[0], chips[0])
	case len(paid) > 1:
		pays = fmt.Sprintf(" %s each give up a chip (left: %s).", andList(paid), strings.Join(left, ", "))
	}
	if len(broke) > 0 {
		s.Losers = broke
		var winners []string
		for i, n := range s.Names {
			if !slices.Contains(broke, i) {
				winners = append(winners, n)
			}
		}
		return []games.Event{games.Narrate("🏁 Round %d ends: %s.%s %s %s a chip with none left and %s the game! %s %s.",
			s.Round, why, pays, andList(owing), plural(len(broke), "owes", "owe"), plural(len(broke), "loses", "lose"),
			andList(winners), plural(len(winners), "wins", "win"))}
	}
	starter := 0
	if len(payers) == 1 {
		starter = payers[0]
	}
	ended := s.Round
	s.deal(starter)
	return []games.Event{
		games.Narrate("💸 Round %d ends: %s.%s", ended, why, pays),
		games.Say("Round %d: %s deals fresh hands; %s leads.", s.Round, s.Names[0], s.Names[starter]),
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// andList joins names: "Ann", "Ann and Bea", "Ann, Bea and Cat".
func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
