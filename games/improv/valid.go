package improv

import (
	"errors"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Valid checks what the views, ToAct and Results rely on, so a damaged
// record is refused on load instead of breaking the table.
func (s *State) Valid() error {
	n := len(s.Players)
	seat := func(i int) bool { return i >= 0 && i < n }
	switch {
	case n < 2 || n > maxSeats:
		return errors.New("a GM and 1 to 6 players")
	case len(s.Gone) != n || len(s.Hands) != n || len(s.Tokens) != n || len(s.Heroes) != n:
		return errors.New("per-seat lists of the wrong length")
	case s.Gone[0]:
		return errors.New("the GM left")
	case s.TalentCap < 1 || s.TalentCap > 20:
		return errors.New("talent cap out of range")
	case s.Pool < 0 || s.Bank < 0 || s.Spent < 0 || s.Session < 1 || s.Conflicts < 0 || s.Window < 0 || s.LineNo < 0:
		return errors.New("a negative count")
	case phaseNames[s.Phase] == "" && s.Phase != PhaseIdle && s.Phase != PhaseOver:
		return errors.New("unknown phase")
	case (s.Phase == PhaseIdle || s.Phase == PhaseOver) != (s.C == nil):
		return errors.New("a conflict in the wrong phase")
	}
	for seat := range n {
		if s.Tokens[seat] < 0 {
			return errors.New("negative story-tokens")
		}
		h := s.Heroes[seat]
		if h.SessionUses < 0 || len(h.Talents) > maxTalents {
			return errors.New("talent uses out of range")
		}
		for _, t := range h.Talents {
			if t.Uses < 0 || t.Name == "" {
				return errors.New("a talent out of range")
			}
		}
	}
	for _, l := range s.Lines {
		if !seat(l.Seat) || l.Window < 0 || l.Window > s.Window {
			return errors.New("a line by no seat")
		}
	}
	for from, a := range s.Awards {
		if !seat(from) || a.From != from || !seat(a.To) {
			return errors.New("an award between no seats")
		}
	}
	piles := append([][]games.Card{s.Deck.Draw, s.Deck.Discard}, s.Hands...)
	if c := s.C; c != nil {
		if err := s.validConflict(); err != nil {
			return err
		}
		for _, sd := range c.Sides {
			if sd.Card != nil {
				piles = append(piles, []games.Card{*sd.Card})
			}
			piles = append(piles, sd.Pile, sd.Got)
		}
		for _, cl := range c.Clashes {
			for _, f := range cl.Fate {
				piles = append(piles, f[:])
			}
		}
		for _, g := range c.Gifts {
			piles = append(piles, []games.Card{g.Card})
		}
	}
	for _, pile := range piles {
		for _, c := range pile {
			if !real(c) {
				return errors.New("not a card of the deck")
			}
		}
	}
	return nil
}

func real(c games.Card) bool {
	switch {
	case c.Rank >= 2 && c.Rank <= games.Ace:
		return c.Suit >= games.Clubs && c.Suit <= games.Spades
	case c.Rank == games.Joker:
		return c.Suit == 0 || c.Suit == 1
	}
	return false
}

// validConflict checks the conflict being played: every seat and side
// index in range.
func (s *State) validConflict() error {
	c := s.C
	n, ns := len(s.Players), len(c.Sides)
	seat := func(i int) bool { return i >= 0 && i < n }
	side := func(i int) bool { return i >= 0 && i < ns }
	switch {
	case c.Kind != KindSimple && c.Kind != KindExtended:
		return errors.New("unknown conflict kind")
	case c.Rounds < 1 || c.Rounds > maxRounds || c.Round < 1 || c.Round > c.Rounds:
		return errors.New("rounds out of range")
	case c.Kind == KindSimple && c.Rounds != 1:
		return errors.New("a simple conflict of several rounds")
	case c.Turn < 0 || c.Turn > len(c.Order):
		return errors.New("narration turn out of range")
	case s.Phase == PhaseNarrate && c.Turn == len(c.Order):
		return errors.New("narration with nobody to narrate")
	case c.GMStart < 0 || c.GMSpent < 0:
		return errors.New("a negative count")
	}
	for i, p := range c.Seats {
		if p < 1 || p >= n || slices.Contains(c.Seats[:i], p) {
			return errors.New("a protagonist who is not a player")
		}
	}
	for i, sd := range c.Sides {
		switch {
		case !seat(sd.Seat):
			return errors.New("a side of no seat")
		case sd.Opp < -1 || sd.Opp >= ns || sd.Opp == i:
			return errors.New("a side opposing no side")
		case sd.Seat == 0 && sd.Opp != -1:
			return errors.New("a GM side that chose an opponent")
		case sd.Seat > 0 && !slices.Contains(c.Seats, sd.Seat):
			return errors.New("a protagonist's side not taking part")
		case sd.Out != "" && sd.Out != outEliminated && sd.Out != outDestroyed:
			return errors.New("a side out in no way")
		case sd.Mooks < 0:
			return errors.New("negative mooks")
		}
	}
	for _, b := range c.Bonuses {
		if !seat(b.From) || !side(b.On) {
			return errors.New("a bonus between no seat and side")
		}
	}
	for _, p := range c.Ready {
		if !seat(p) {
			return errors.New("ready seat out of range")
		}
	}
	for p, i := range c.Aim {
		if !seat(p) || !side(i) {
			return errors.New("an aim out of range")
		}
	}
	for p, b := range c.Pending {
		if !seat(p) || b.From != p || !side(b.On) {
			return errors.New("a pending talent out of range")
		}
	}
	for _, cl := range c.Clashes {
		if !side(cl.A) || !side(cl.B) || cl.Winner != -1 && cl.Winner != cl.A && cl.Winner != cl.B {
			return errors.New("a clash between no sides")
		}
	}
	for _, t := range c.Order {
		if !seat(t.Seat) {
			return errors.New("a narrator of no seat")
		}
		for _, i := range t.Sides {
			if !side(i) {
				return errors.New("narrating no side")
			}
		}
	}
	for _, i := range c.FateWait {
		if !side(i) {
			return errors.New("a fate choice of no side")
		}
	}
	for _, g := range c.Gifts {
		if !side(g.From) || !side(g.To) {
			return errors.New("a gift between no sides")
		}
	}
	for p, i := range c.From {
		if !seat(p) || !side(i) {
			return errors.New("a giving side out of range")
		}
	}
	for _, p := range c.MookHits {
		if !seat(p) {
			return errors.New("a mook hit by no seat")
		}
	}
	return nil
}
