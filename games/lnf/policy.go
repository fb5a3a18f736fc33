package lnf

import (
	"strings"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/ai"
)

// Policies are the computer players of "Life is not fair, but…", by name
// (ai.Random is always available besides).
var Policies = map[string]ai.Policy{
	ai.SensibleName: Sensible,
}

// Sensible sheds high cards first and always says the line. It reads only
// the seat's hand view (the buttons carry card codes, the fields list the
// hand):
//   - Exchange: it keeps its hand unless its highest coloured card is
//     clearly bad (swapHigh or more), which it swaps for the deck's top.
//   - Play: Game Over whenever it may (it scores 20 less the cards left,
//     more than anyone who did not go out can score), else the
//     highest-numbered playable card; the rules already keep the other wild
//     cards for when nothing else fits. A card just drawn is played when it
//     fits. A wild card always goes with its line, said right.
//   - Appeals: it never appeals, and the votes are on the channel's appeal
//     message, not in the seat's views, so it never votes.
var Sensible ai.Policy = ai.Func(sensible)

// swapHigh is the lowest number the exchange treats as clearly bad: a
// fresh card averages about 5.
const swapHigh = 8

// byString maps a card as views write it to the card.
var byString = func() map[string]Card {
	m := map[string]Card{}
	for _, c := range Deck() {
		m[c.String()] = c
	}
	return m
}()

// viewCards reads the seat's cards from its hand view's fields.
func viewCards(hand games.View) []Card {
	var out []Card
	for _, f := range hand.Fields {
		for _, part := range strings.Split(f.Value, ", ") {
			if c, ok := byString[strings.TrimSpace(part)]; ok {
				out = append(out, c)
			}
		}
	}
	return out
}

func sensible(_ *games.RNG, _, hand games.View, _ int) (games.Action, bool) {
	if a, ok := exchange(hand); ok {
		return a, true
	}
	var best games.Action
	bestScore, found := -1, false
	for _, b := range ai.Buttons(hand, VerbPlay) {
		c, err := ParseCard(b.Action.Arg(0))
		if err != nil {
			continue
		}
		score := c.Num
		if c.GameOver {
			score = 100
		}
		if !found || score > bestScore {
			best, bestScore, found = b.Action, score, true
			if c.Wild() {
				best.Text = c.line()
			}
		}
	}
	if found {
		return best, true
	}
	for _, verb := range []string{VerbDraw, VerbPass} {
		if a, ok := ai.Has(hand, verb); ok {
			return a, true
		}
	}
	return games.Action{}, false
}

// exchange keeps the hand, or swaps its highest coloured card when that is
// swapHigh or more. ok is false outside the exchange.
func exchange(hand games.View) (games.Action, bool) {
	keep, ok := ai.Has(hand, VerbReady)
	if !ok {
		return games.Action{}, false
	}
	var offered []Card
	for _, b := range ai.Buttons(hand, VerbSwap) {
		if c, err := ParseCard(b.Action.Arg(0)); err == nil {
			offered = append(offered, c)
		}
	}
	if m, ok := ai.Menu(hand, VerbSwap); ok {
		for _, o := range m.Options {
			if c, err := ParseCard(o.Value); err == nil {
				offered = append(offered, c)
			}
		}
	}
	if len(offered) == 0 {
		offered = viewCards(hand)
	}
	var worst *Card
	for _, c := range offered {
		if !c.Wild() && c.Num >= swapHigh && (worst == nil || c.Num > worst.Num) {
			worst = &c
		}
	}
	if worst == nil {
		return keep, true
	}
	return games.Act(VerbSwap, worst.Code()), true
}
