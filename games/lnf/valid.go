package lnf

import (
	"errors"
	"slices"
)

// Valid checks what the views, ToAct, Timers and Results rely on, so a
// damaged record is refused on load instead of breaking the table.
func (s *State) Valid() error {
	n := len(s.Names)
	seat := func(i int) bool { return i >= 0 && i < n }
	switch {
	case n < minPlayers || n > maxPlayers:
		return errors.New("2 to 8 players")
	case len(s.Hands) != n || len(s.Decided) != n:
		return errors.New("per-player lists of the wrong length")
	case s.Minutes < minVoteMinutes || s.Minutes > maxVoteMinutes:
		return errors.New("vote length out of range")
	case !slices.Contains([]string{PhaseExchange, PhasePlay, PhaseOver}, s.Phase):
		return errors.New("unknown phase")
	case !seat(s.Turn):
		return errors.New("turn is not a seat")
	case s.Phase == PhaseOver && (!seat(s.Ender) || s.Ended != endOut && s.Ended != endGameOver):
		return errors.New("an ended game without its ender")
	case s.Phase != PhaseOver && (s.Ender != -1 || s.Ended != ""):
		return errors.New("an ender before the end")
	case s.Phase == PhasePlay && slices.Contains(s.Decided, false):
		return errors.New("play before everyone decided")
	case s.Phase == PhaseExchange && !slices.Contains(s.Decided, false):
		return errors.New("an exchange nobody is waited for in")
	case s.Drawn != nil && (s.Phase != PhasePlay || !slices.Contains(s.Hands[s.Turn], *s.Drawn)):
		return errors.New("a drawn card not in the hand of the player to move")
	}
	// Every card is one of the deck's, and no more copies of it than the
	// deck has.
	left := map[Card]int{}
	for _, c := range Deck() {
		left[c]++
	}
	piles := append([][]Card{s.Pile.Draw, s.Pile.Discard}, s.Hands...)
	for _, pile := range piles {
		for _, c := range pile {
			if left[c] == 0 {
				return errors.New("not a card of the deck, or more copies than it has")
			}
			left[c]--
		}
	}
	for _, h := range s.Hands {
		if !slices.IsSortedFunc(h, less) {
			return errors.New("a hand out of order")
		}
	}
	open := map[int]bool{}
	for _, a := range s.Appeals {
		switch {
		case !seat(a.Appellant) || !seat(a.Offender) || a.Appellant == a.Offender:
			return errors.New("an appeal between no two players")
		case len(a.Votes) != n:
			return errors.New("an appeal's votes of the wrong length")
		case a.Open && s.Phase == PhaseOver:
			return errors.New("an open appeal after the end")
		case a.Open && open[a.Offender]:
			return errors.New("two open appeals against one player")
		}
		if a.Open {
			open[a.Offender] = true
		}
		for v, vote := range a.Votes {
			if vote != "" && (vote != voteYes && vote != voteNo || v == a.Appellant || v == a.Offender) {
				return errors.New("a vote that cannot be")
			}
		}
	}
	return nil
}
