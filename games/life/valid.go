package life

import (
	"errors"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Valid checks what the views rely on, so a damaged record is refused on
// load instead of breaking the table.
func (s *State) Valid() error {
	n := len(s.Players)
	switch {
	case n < minPlayers || n > maxPlayers:
		return errors.New("1 to 6 players")
	case len(s.Boards) != n || len(s.Start) != n || len(s.Swapped) != n || len(s.DiedIn) != n || len(s.History) != n:
		return errors.New("per-player lists of the wrong length")
	case !slices.Contains([]string{phaseIntro, phaseChoose, phaseDecide, phaseOver}, s.Phase):
		return errors.New("unknown phase")
	case s.Round < 0 || s.Round > rounds || s.Turn < 0 || s.Turn >= n,
		s.Phase != phaseOver && s.Round == rounds:
		return errors.New("round or turn out of range")
	case (s.Phase == phaseChoose || s.Phase == phaseDecide) && s.Challenge == nil:
		return errors.New("no challenge to face")
	}
	for seat := range n {
		if s.DiedIn[seat] < -1 || s.DiedIn[seat] >= rounds {
			return errors.New("death in no round")
		}
		for a := range 6 {
			if !real(s.Boards[seat][a].Card) || !real(s.Start[seat][a]) {
				return errors.New("a blank card")
			}
		}
	}
	return nil
}

func real(c games.Card) bool { return c.Rank >= 2 && c.Rank <= games.Ace }
