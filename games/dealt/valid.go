package dealt

import (
	"errors"
	"slices"
)

// Valid checks what the views, ToAct and Results rely on, so a damaged
// record is refused on load instead of breaking the table.
func (s *State) Valid() error {
	n := len(s.Players)
	seat := func(i int) bool { return i >= 0 && i < n }
	switch {
	case n < minPlayers || n > maxPlayers:
		return errors.New("3 to 5 players")
	case len(s.Names) != n:
		return errors.New("names and players disagree")
	case s.Chips < 2 || s.Chips > 3:
		return errors.New("starting chips out of range")
	case s.Round < 1:
		return errors.New("no round dealt")
	case !seat(s.Leader) || !seat(s.Turn):
		return errors.New("leader or turn is not a seat")
	case s.From < 0 || s.From > len(Deck()):
		return errors.New("start position out of range")
	case s.Drawing != nil && (!seat(s.Drawing.Seat) || s.Drawing.Left < 0 || s.Drawing.Total < 1 || s.Drawing.Left >= s.Drawing.Total):
		return errors.New("a redraw out of range")
	case s.Drawing != nil && (s.From != 0 || s.Taking != ""):
		return errors.New("a half-made choice while placing drawn cards")
	case s.Drawing != nil && len(s.Trick) > 0:
		return errors.New("a trick while placing drawn cards")
	case s.From != 0 && s.Taking != "":
		return errors.New("two half-made choices")
	}
	for _, p := range s.Players {
		if p.Chips < 0 || p.Chips > s.Chips {
			return errors.New("chips out of range")
		}
		if len(p.Reserve) > 2 {
			return errors.New("more than two reserve cards")
		}
	}
	if s.Taking != "" {
		c, err := ParseCard(s.Taking)
		if err != nil || !slices.Contains(s.Players[s.Turn].Reserve, c) {
			return errors.New("taking a card that is not a reserve")
		}
	}
	for i, l := range s.Losers {
		if !seat(l) || slices.Contains(s.Losers[:i], l) {
			return errors.New("a loser who is not a seat")
		}
	}
	if len(s.Losers) > 0 && (len(s.Trick) > 0 || s.Drawing != nil) {
		return errors.New("a trick in an ended game")
	}
	for _, p := range s.Trick {
		if !seat(p.Seat) {
			return errors.New("a play by no seat")
		}
		switch p.What {
		case PlayCombo:
			c := p.Combo()
			if c.Kind < Solo || c.Kind > Trips || c.Top < 1 || c.Top > 12 || len(p.Cards) != c.Kind.Size() {
				return errors.New("a combination of no kind")
			}
		case PlayReserve, PlayStop, PlayRedraw:
			if len(p.Cards) != 1 || p.Kind != 0 || p.Top != 0 {
				return errors.New("a lone card play of the wrong shape")
			}
			if p.What == PlayStop && p.Cards[0].Face != Stop || p.What == PlayRedraw && p.Cards[0].Face != Redraw {
				return errors.New("a special play of the wrong card")
			}
		default:
			return errors.New("unknown play")
		}
	}
	// Every card is one of the 54, and no card is in two places. (A
	// reserve taken in this trick is in its taker's hand and named in the
	// trick too.)
	seen := map[Card]bool{}
	var piles [][]Card
	for _, p := range s.Players {
		piles = append(piles, p.Hand, p.Reserve)
	}
	piles = append(piles, s.Pile.Draw, s.Pile.Discard)
	for _, p := range s.Trick {
		if p.What != PlayReserve {
			piles = append(piles, p.Cards)
		}
	}
	if s.Drawing != nil && s.Drawing.Card != (Card{}) {
		piles = append(piles, []Card{s.Drawing.Card})
	}
	for _, pile := range piles {
		for _, c := range pile {
			if _, err := ParseCard(c.Code()); err != nil || seen[c] {
				return errors.New("not a card of the deck, or a card in two places")
			}
			seen[c] = true
		}
	}
	if len(s.Losers) == 0 && len(seen) != len(Deck()) {
		return errors.New("cards missing")
	}
	return nil
}
