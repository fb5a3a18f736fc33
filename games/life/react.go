package life

import (
	"strconv"

	"github.com/cardtable/cardbot/games"
)

// awardKey identifies one award: the message and the player who reacted.
// from has no '#', so the key is unambiguous whatever ref holds.
func awardKey(ref string, from int) string { return ref + "#" + strconv.Itoa(from) }

// markers counts the markers seat has given and received.
func (s *State) markers(seat int) (given, received int) {
	for _, a := range s.Awards {
		if a.From == seat {
			given++
		}
		if a.To == seat {
			received++
		}
	}
	return given, received
}

// RolePlay reports whether markers are in play.
func (s *State) RolePlay() bool { return s.Roleplay }

// React awards (add) or takes back (!add) a role-play marker: from reacted
// with 🎭 to the message ref written by to. A repeated add for the same
// message and player is a duplicate delivery and changes nothing.
func (s *State) React(from, to int, ref string, add bool) ([]games.Event, error) {
	if !s.Roleplay {
		return nil, games.Refuse("Role-play markers aren't in play in this game.")
	}
	if s.Phase == phaseOver {
		return nil, games.Refuse("The game is over; the markers have been counted.")
	}
	if from < 0 || from >= len(s.Players) {
		return nil, games.Refuse("Only the players of this game can award markers.")
	}
	if to < 0 || to >= len(s.Players) {
		return nil, games.Refuse("Markers go to the players of this game.")
	}
	key := awardKey(ref, from)
	prev, had := s.Awards[key]
	if !add {
		if !had {
			return nil, nil
		}
		delete(s.Awards, key)
		return []games.Event{games.Say("%s takes back the 🎭 marker given to %s.",
			s.Players[from], s.Players[prev.To])}, nil
	}
	if from == to {
		return nil, games.Refuse("You can't award a marker to yourself.")
	}
	if had {
		return nil, nil
	}
	if given, _ := s.markers(from); given >= startMarkers {
		return nil, games.Refuse("You have given away all %d of your markers.", startMarkers)
	}
	if s.Awards == nil {
		s.Awards = map[string]Award{}
	}
	s.Awards[key] = Award{From: from, To: to, Ref: ref}
	return []games.Event{games.Say("%s gives %s a 🎭 marker for their role play.",
		s.Players[from], s.Players[to])}, nil
}
