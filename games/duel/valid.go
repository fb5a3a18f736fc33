package duel

import (
	"errors"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Valid checks what the views rely on, so a damaged record is refused on
// load instead of breaking the table.
func (s *State) Valid() error {
	switch {
	case len(s.Names) != 2 || len(s.Players) != 2:
		return errors.New("a duel has two players")
	case s.Offense != 0 && s.Offense != 1:
		return errors.New("offense is not a seat")
	case !slices.Contains([]string{PhaseBuild, PhasePlay, PhaseOver}, s.Phase):
		return errors.New("unknown phase")
	case s.Phase == PhaseOver && s.Winner != 0 && s.Winner != 1:
		return errors.New("an ended duel without a winner")
	case s.Phase == PhasePlay && !slices.Contains([]string{StepAttack, StepDefend, StepDamage}, s.Step):
		return errors.New("unknown step")
	case s.Phase == PhasePlay && s.Step != StepAttack && s.Attack == nil:
		return errors.New("no attack card to answer")
	case s.Phase == PhasePlay && s.Step == StepDamage && s.Defense == nil:
		return errors.New("no defense card")
	}
	for _, p := range s.Players {
		for _, pile := range [][]games.Card{p.Pool, p.Picks, p.Hand, p.Deck, p.Discard, p.Damage} {
			for _, c := range pile {
				if c.Rank < 2 || c.Rank > games.Ace {
					return errors.New("not a card of the deck")
				}
			}
		}
	}
	return nil
}
