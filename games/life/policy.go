package life

import (
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// Policies are this game's computer players, by name (ai.Random is always
// available besides).
var Policies = map[string]ai.Policy{
	ai.SensibleName: Sensible,
	"likeliest":     Likeliest,
}

// Sensible plays for the final score. Facing a challenge it weighs each
// face-up advantage by what it stands to win and lose: with p the chance
// that lowest win ≤ 2d6 ≤ advantage (the lowest win is the challenge, or 3
// when snake eyes kill and the challenge is 2), it picks the advantage with
// the best p × (what taking the challenge card would add) − (1 − p) ×
// (the advantage's value) — so with no real chance it risks its weakest
// card rather than its best. After a win it takes the challenge card in
// place of a face-down advantage, or of its weakest one if the challenge is
// stronger. As the dealer it begins at once; it never swaps Romance and Career
// (the order changes the story, not the odds).
var Sensible ai.Policy = lifePolicy{expected: true}

// Likeliest picks the advantage with the best chance of beating the
// challenge, whatever it risks; otherwise it plays like Sensible.
var Likeliest ai.Policy = lifePolicy{}

type lifePolicy struct{ expected bool }

// Choose reads the seat's hand view and picks a move.
func (p lifePolicy) Choose(_ *games.RNG, _, hand games.View, _ int) (games.Action, bool) {
	if a, ok := ai.Has(hand, "begin"); ok {
		return a, true
	}
	if a, ok := ai.Has(hand, "roll"); ok {
		return a, true
	}
	// Without a readable challenge (a view this policy does not know) it
	// still moves: the first advantage, or keeping its cards.
	challenge, known := challengeCard(hand.Description)
	if uses := ai.Buttons(hand, "use"); len(uses) > 0 {
		if !known {
			return uses[0].Action, true
		}
		return p.use(hand, uses, challenge), true
	}
	if keep, ok := ai.Has(hand, "keep"); ok {
		if !known {
			return keep, true
		}
		return p.decide(hand, challenge), true
	}
	return games.Action{}, false
}

// use picks the advantage to face the challenge with.
func (p lifePolicy) use(hand games.View, uses []games.Button, challenge games.Card) games.Action {
	lo, ok := ai.IntAfter(hand.Description, "at least")
	if !ok {
		lo = challenge.PipValue()
	}
	board := readBoard(hand)
	best, bestScore, bestChance := uses[0].Action, 0.0, -1.0
	for _, b := range uses {
		i := advIndex(b.Action.Arg(0))
		if i < 0 || board[i] == nil {
			continue
		}
		a := board[i].PipValue()
		chance := ai.TwoDice(lo, a)
		score := chance
		if p.expected {
			score = chance*gain(board, challenge) - (1-chance)*float64(a)
		}
		if bestChance < 0 || score > bestScore+1e-9 || (score > bestScore-1e-9 && chance > bestChance) {
			best, bestScore, bestChance = b.Action, score, chance
		}
	}
	return best
}

// gain is what taking the challenge card adds to the score: it replaces a
// face-down advantage (worth 0) or the weakest face-up one.
func gain(board [6]*games.Card, challenge games.Card) float64 {
	_, worst := weakest(board)
	return float64(max(0, challenge.PipValue()-worst))
}

// weakest is the slot worth least to the score: face down first (0), then
// the lowest face-up card.
func weakest(board [6]*games.Card) (slot, worth int) {
	slot, worth = -1, 99
	for i, c := range board {
		w := 0
		if c != nil {
			w = c.PipValue()
		}
		if w < worth {
			slot, worth = i, w
		}
	}
	return slot, worth
}

// decide takes the challenge card in place of the weakest slot when that
// raises the score; otherwise it keeps its advantages.
func (p lifePolicy) decide(hand games.View, challenge games.Card) games.Action {
	board := readBoard(hand)
	slot, worth := weakest(board)
	if slot >= 0 && challenge.PipValue() > worth {
		a := games.Act("replace", advTokens[slot])
		for _, b := range ai.Buttons(hand, "replace") {
			if b.Action.Arg(0) == advTokens[slot] {
				return a
			}
		}
	}
	a, _ := ai.Has(hand, "keep")
	return a
}

// challengeCard reads "Your … challenge: **K♠** (10)." from the hand's
// description.
func challengeCard(d string) (games.Card, bool) {
	for _, l := range strings.Split(d, "\n") {
		if strings.HasPrefix(l, "Last:") {
			continue
		}
		_, rest, ok := strings.Cut(l, "challenge: **")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "**")
		if c, err := ai.ParseCardName(name); err == nil {
			return c, true
		}
	}
	return games.Card{}, false
}

// readBoard reads the seat's six advantages — a card for each face-up one,
// nil for a face-down one — from the hand's "Family: **7♠**" / "🂠 Family
// (lost)" lines, or failing those from the buttons' labels ("Family — 7♠
// (needs …)" for each face-up advantage, "Replace Family (🂠 lost 7♠)").
func readBoard(hand games.View) [6]*games.Card {
	var board [6]*games.Card
	found := false
	for _, f := range hand.Fields {
		for _, l := range strings.Split(f.Value, "\n") {
			name, card, ok := strings.Cut(l, ": ")
			if i := slices.Index(advNames[:], name); ok && i >= 0 {
				if c, err := ai.ParseCardName(strings.Trim(card, "*")); err == nil {
					board[i], found = &c, true
				}
			}
		}
	}
	if found {
		return board
	}
	for _, b := range hand.Buttons {
		i := advIndex(b.Action.Arg(0))
		if i < 0 || b.Action.Verb != "use" && b.Action.Verb != "replace" || strings.Contains(b.Label, "lost") {
			continue
		}
		if cs := ai.CardNames(b.Label); len(cs) == 1 {
			board[i] = &cs[0]
		}
	}
	return board
}
