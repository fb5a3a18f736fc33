package life

import (
	"strconv"

	"github.com/cardtable/cardbot/games"
)

// markerEmoji is the reaction that awards a role-play marker.
const markerEmoji = "🎭"

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

// Say posts a player's in-character line; with role play on, 🎭 on it
// awards a marker to its author.
func (s *State) Say(seat int, speaker, line string) ([]games.Event, error) {
	if seat < 0 || seat >= len(s.Players) {
		return nil, games.Refuse("Only players in this game can speak in character.")
	}
	if s.Lines == nil {
		s.Lines = map[string]int{}
	}
	ref := "line" + strconv.Itoa(len(s.Lines)+1)
	s.Lines[ref] = seat
	e := games.Event{Text: "🎭 " + speaker + ": " + line, Story: true, Ref: ref}
	if s.Roleplay && s.Phase != phaseOver {
		e.Emoji = []string{markerEmoji}
	}
	return []games.Event{e}, nil
}

// React awards (add) or takes back (!add) a role-play marker: from reacted
// with 🎭 to the line ref. A repeated add for the same line and player is a
// duplicate delivery and changes nothing.
func (s *State) React(from int, ref, emoji string, add bool) ([]games.Event, error) {
	if emoji != markerEmoji {
		return nil, games.Refuse("Only 🎭 awards a marker.")
	}
	if !s.Roleplay {
		return nil, games.Refuse("Role-play markers aren't in play in this game.")
	}
	if s.Phase == phaseOver {
		return nil, games.Refuse("The game is over; the markers have been counted.")
	}
	if from < 0 || from >= len(s.Players) {
		return nil, games.Refuse("Only the players of this game can award markers.")
	}
	to, ok := s.Lines[ref]
	if !ok {
		return nil, games.Refuse("Markers go to the players' own lines.")
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
