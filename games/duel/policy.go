package duel

import (
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// Policies are Card Duel's computer players, by name (ai.Random is always
// available besides).
var Policies = map[string]ai.Policy{
	ai.SensibleName: Sensible,
}

// Sensible is a computer player that reads only its own views:
//   - Building: it weighs each card of its pool against the pool's mean
//     value — the deck's expected draw — and keeps the hand worth most
//     within the limit. Simulation says a low card kept out of the deck
//     (every later draw is better for it) is worth more than a high card
//     held for one sure hit, so it mostly keeps its lowest cards and fights
//     from a strong deck: a hand of high cards wins only 16% of its games
//     against it (8000 games).
//   - Defending: it stops an attack with the cheapest card in hand that
//     does, when the deck is unlikely to and the hit would hurt; otherwise it
//     trusts the deck.
//   - Damage: a card that kills if it has one, else its highest card when
//     that beats the deck's expected draw.
//   - Attacking: from the deck, keeping the hand for damage and defense,
//     unless it holds more high cards than it needs.
//
// It cannot see what is left in its own deck (the view does not list it),
// so it takes the cards it has not seen anywhere as its deck's likely
// draws. Given the exact deck it wins no more often (50.1%, 8000 games).
var Sensible ai.Policy = duelPolicy{tuning: sensibleTuning}

// tuning is the sensible player's few numbers, chosen by playing variants
// against each other (see cmd/simulate/BALANCE.md). Only the building
// weights matter: once the hand is low cards, the defending and attacking
// numbers never change the outcome (variants of them win exactly 50.0% of
// 8000 games against it).
type tuning struct {
	// Building: a card's worth in hand is high·(value − mean)⁺ +
	// low·(mean − value)⁺, with mean the pool's mean value.
	high, low float64
	// Defending: spend a hand card when (1 − P(deck stops)) × (expected
	// hit + tempo) ≥ keep × (card − deck mean)⁺ + spend.
	tempo, keep, spend float64
	// Attacking from hand: only with a card worth at least attackMin, and
	// only while the hand keeps more than spare such cards for damage.
	attackMin, spare int
}

var sensibleTuning = tuning{high: 0.5, low: 1, tempo: 3, keep: 1, spend: 1, attackMin: 10, spare: 1}

type duelPolicy struct{ tuning }

// Choose reads the seat's views and picks a move.
func (p duelPolicy) Choose(_ *games.RNG, table, hand games.View, seat int) (games.Action, bool) {
	if _, ok := ai.Menu(hand, VerbPickA); ok {
		return p.build(table, hand)
	}
	moves := slices.Concat(ai.Buttons(hand, VerbHand), ai.Buttons(hand, VerbDeck), ai.Buttons(hand, VerbReshuffle))
	if len(moves) == 0 {
		return games.Action{}, false
	}
	s := readPlay(table, hand, seat)
	var a games.Action
	switch s.step {
	case StepAttack:
		a = p.attack(s)
	case StepDefend:
		a = p.defend(s)
	default:
		a = p.damage(s)
	}
	return asOffered(moves, a), true
}

// asOffered maps a chosen move onto the buttons the view offers: a hand card
// becomes the button for its value, and a move the view does not offer
// (the view was misread) becomes the first one it does, so the policy is
// never refused.
func asOffered(moves []games.Button, a games.Action) games.Action {
	for _, b := range moves {
		if b.Action.Verb != a.Verb {
			continue
		}
		if a.Verb != VerbHand {
			return b.Action
		}
		c, err1 := games.ParseCard(a.Arg(0))
		d, err2 := games.ParseCard(b.Action.Arg(0))
		if err1 == nil && err2 == nil && value(c) == value(d) {
			return b.Action
		}
	}
	return moves[0].Action
}

// build moves the tentative picks towards the chosen hand one menu at a
// time, then locks in.
func (p duelPolicy) build(table, hand games.View) (games.Action, bool) {
	var pool, picked []games.Card
	menus := map[string][]games.Card{}
	for _, verb := range []string{VerbPickA, VerbPickB} {
		m, ok := ai.Menu(hand, verb)
		if !ok {
			continue
		}
		for _, o := range m.Options {
			c, err := games.ParseCard(o.Value)
			if err != nil {
				continue
			}
			pool = append(pool, c)
			menus[verb] = append(menus[verb], c)
			if o.Default {
				picked = append(picked, c)
			}
		}
	}
	limit, ok := ai.IntAfter(table.Footer, "hand limit")
	if !ok {
		limit = DefaultHandLimit
	}
	want := p.chooseHand(pool, limit)
	for _, verb := range []string{VerbPickA, VerbPickB} {
		var have, need []string
		for _, c := range menus[verb] {
			if slices.Contains(picked, c) {
				have = append(have, c.Code())
			}
			if slices.Contains(want, c) {
				need = append(need, c.Code())
			}
		}
		if !slices.Equal(have, need) {
			return games.Action{Verb: verb, Args: need}, true
		}
	}
	if a, ok := ai.Has(hand, VerbLock); ok {
		return a, true
	}
	return games.Action{Verb: VerbClear}, true
}

// chooseHand picks the hand worth most (by the tuning's card worth) within
// the limit: a knapsack over the pool, exact (limit ≤ 60, 26 cards).
func (p duelPolicy) chooseHand(pool []games.Card, limit int) []games.Card {
	mean := meanValue(pool)
	worth := func(c games.Card) float64 {
		d := float64(value(c)) - mean
		if d > 0 {
			return p.high * d
		}
		return -p.low * d
	}
	// best[i][w]: best worth from the first i cards within w points.
	n := len(pool)
	best := make([][]float64, n+1)
	for i := range best {
		best[i] = make([]float64, limit+1)
	}
	for i, c := range pool {
		v, u := value(c), worth(c)
		for w := 0; w <= limit; w++ {
			best[i+1][w] = best[i][w]
			if v <= w && best[i][w-v]+u > best[i+1][w] {
				best[i+1][w] = best[i][w-v] + u
			}
		}
	}
	var out []games.Card
	for i, w := n, limit; i > 0; i-- {
		if best[i][w] != best[i-1][w] {
			out = append(out, pool[i-1])
			w -= value(pool[i-1])
		}
	}
	return out
}

// side is what a view says about one player.
type side struct {
	hand, deck int
	discard    []games.Card
	damage     []games.Card // damage cards in front of this player
	taken      int
}

// playView is everything the seat may know during the exchanges.
type playView struct {
	step            string
	life            int
	hand            []games.Card // sorted by value, as the view lists it
	attack, defense *games.Card
	me, opp         side
	canDraw         bool         // the deck button is offered
	canReshuffle    bool         // the reshuffle button is offered
	deck            []games.Card // the seat's deck as far as it can tell
	deckKnown       bool         // deck is the deck's exact contents
}

// readPlay reads the seat's hand view (its cards, the move) and the table
// (each side's piles and damage, one field per seat in seat order, and the
// exchange).
func readPlay(table, hand games.View, seat int) playView {
	s := playView{life: DefaultLife}
	if n, ok := ai.IntAfter(table.Footer, "Life"); ok {
		s.life = n
	}
	_, s.canDraw = ai.Has(hand, VerbDeck)
	_, s.canReshuffle = ai.Has(hand, VerbReshuffle)
	handRead := false
	for _, f := range hand.Fields {
		switch {
		case strings.HasPrefix(f.Name, "Hand ("):
			s.hand, handRead = ai.CardNames(f.Value), true
		case strings.HasPrefix(f.Name, "Your deck"):
			// Not shown today; if the view ever lists the seat's own deck
			// (which the seat may know: it built it), use it.
			s.deck, s.deckKnown = ai.CardNames(f.Value), true
		}
	}
	if !handRead { // one card per value from the buttons
		for _, b := range ai.Buttons(hand, VerbHand) {
			if c, err := games.ParseCard(b.Action.Arg(0)); err == nil {
				s.hand = append(s.hand, c)
			}
		}
		sortCards(s.hand)
	}
	var sides []side
	for _, f := range table.Fields {
		if strings.Contains(f.Value, "Deck:") {
			sides = append(sides, readSide(f.Value))
		}
	}
	if len(sides) == 2 && (seat == 0 || seat == 1) {
		s.me, s.opp = sides[seat], sides[1-seat]
	}
	if f, ok := ai.FieldWithPrefix(table, "Exchange in progress"); ok {
		if l, ok := ai.Line(f.Value, "Attack:"); ok {
			s.attack = boldCard(l)
		}
		if l, ok := ai.Line(f.Value, "Defense:"); ok {
			s.defense = boldCard(l)
		}
	}
	d := hand.Description
	switch {
	case strings.HasPrefix(d, "**Your move: attack"):
		s.step = StepAttack
	case strings.HasPrefix(d, "**Your move:"):
		s.step = StepDefend
	case strings.HasPrefix(d, "**Your attack got through"):
		s.step = StepDamage
	case s.attack == nil:
		s.step = StepAttack
	case s.defense == nil:
		s.step = StepDefend
	default:
		s.step = StepDamage
	}
	if !s.deckKnown {
		s.deck = s.unseen()
	}
	return s
}

// boldCard reads the first **card** of a line.
func boldCard(line string) *games.Card {
	_, rest, ok := strings.Cut(line, "**")
	if !ok {
		return nil
	}
	name, _, ok := strings.Cut(rest, "**")
	if !ok {
		return nil
	}
	c, err := ai.ParseCardName(name)
	if err != nil {
		return nil
	}
	return &c
}

func readSide(text string) side {
	var sd side
	sd.hand, _ = ai.IntAfter(text, "Hand:")
	sd.deck, _ = ai.IntAfter(text, "Deck:")
	if l, ok := ai.Line(text, "Discard"); ok {
		if _, list, ok := strings.Cut(l, ":"); ok {
			sd.discard = ai.CardNames(list)
		}
	}
	if l, ok := ai.Line(text, "Damage:"); ok {
		sd.taken, _ = ai.IntAfter(l, "Damage:")
		if _, list, ok := strings.Cut(l, "("); ok {
			sd.damage = ai.CardNames(list)
		}
	}
	return sd
}

// unseen is every card of the 52 the seat has not seen where it is now: its
// own deck is among them (with the other player's hand and deck), so it
// stands in for the deck.
func (s playView) unseen() []games.Card {
	seen := map[games.Card]bool{}
	for _, pile := range [][]games.Card{s.hand, s.me.discard, s.me.damage, s.opp.discard, s.opp.damage} {
		for _, c := range pile {
			seen[c] = true
		}
	}
	for _, c := range []*games.Card{s.attack, s.defense} {
		if c != nil {
			seen[*c] = true
		}
	}
	var out []games.Card
	for _, c := range games.StandardDeck(0) {
		if !seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// draw is what playing "from the deck" gives: the deck, or after a
// reshuffle the discard pile. ok is false when neither is offered.
func (s playView) draw() (cards []games.Card, act games.Action, ok bool) {
	switch {
	case s.canDraw:
		return s.deck, games.Act(VerbDeck), true
	case s.canReshuffle:
		return s.me.discard, games.Act(VerbReshuffle), true
	}
	return nil, games.Action{}, false
}

// lowest and highest are the hand's extremes (ok false for an empty hand).
func (s playView) lowest() (games.Card, bool) {
	if len(s.hand) == 0 {
		return games.Card{}, false
	}
	return s.hand[0], true
}

func (s playView) highest() (games.Card, bool) {
	if len(s.hand) == 0 {
		return games.Card{}, false
	}
	return s.hand[len(s.hand)-1], true
}

func meanValue(cs []games.Card) float64 {
	if len(cs) == 0 {
		return 0
	}
	return float64(total(cs)) / float64(len(cs))
}

// atLeast is the share of cards worth x or more.
func atLeast(cs []games.Card, x int) float64 {
	if len(cs) == 0 {
		return 0
	}
	n := 0
	for _, c := range cs {
		if value(c) >= x {
			n++
		}
	}
	return float64(n) / float64(len(cs))
}

func fromHand(c games.Card) games.Action { return games.Act(VerbHand, c.Code()) }

// attack plays from the deck unless the hand holds spare high cards.
func (p duelPolicy) attack(s playView) games.Action {
	_, act, ok := s.draw()
	if !ok { // no deck, no discards: the hand is all there is
		if c, ok := s.highest(); ok {
			return fromHand(c)
		}
		return act
	}
	high := 0
	for _, c := range s.hand {
		if value(c) >= p.attackMin {
			high++
		}
	}
	if high > p.spare {
		// The lowest of the high cards: the highest stay for damage.
		for _, c := range s.hand {
			if value(c) >= p.attackMin {
				return fromHand(c)
			}
		}
	}
	return act
}

// defend stops the attack with the cheapest hand card that does when the
// deck is unlikely to and the hit would hurt.
func (p duelPolicy) defend(s playView) games.Action {
	x := 0
	if s.attack != nil {
		x = value(*s.attack)
	}
	draw, act, ok := s.draw()
	var stop *games.Card
	for _, c := range s.hand {
		if value(c) >= x {
			stop = &c
			break
		}
	}
	if !ok {
		if stop != nil {
			return fromHand(*stop)
		}
		if c, ok := s.lowest(); ok {
			return fromHand(c)
		}
		return act
	}
	if stop == nil {
		return act
	}
	pDeck := atLeast(draw, x)
	hit := p.expectedHit(s)
	cost := p.keep*max(0, float64(value(*stop))-meanValue(draw)) + p.spend
	if float64(s.life-s.me.taken) <= hit+2 { // this hit may be the last
		cost = 0
	}
	if (1-pDeck)*(hit+p.tempo) >= cost {
		return fromHand(*stop)
	}
	return act
}

// expectedHit guesses the damage an attack that gets through will do: a
// high card while the opponent still holds cards, else an average draw.
func (p duelPolicy) expectedHit(s playView) float64 {
	if s.opp.hand > 0 {
		return 10
	}
	return meanValue(s.unseen())
}

// damage kills if a hand card can, else deals the highest hand card when it
// beats the deck's expected draw.
func (p duelPolicy) damage(s playView) games.Action {
	left := s.life - s.opp.taken
	for _, c := range s.hand {
		if value(c) >= left {
			return fromHand(c)
		}
	}
	draw, act, ok := s.draw()
	best, has := s.highest()
	if !has {
		return act
	}
	if !ok || float64(value(best)) >= meanValue(draw) {
		return fromHand(best)
	}
	return act
}
