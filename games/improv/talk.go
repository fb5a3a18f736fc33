package improv

import (
	"strconv"

	"github.com/cardtable/cardbot/games"
)

// awardEmoji is the reaction that gives a story-token from the pool.
const awardEmoji = "🎭"

// openWindow starts a new award window with a conflict's narration; lines
// and awards of earlier windows are settled and forgotten.
func (s *State) openWindow() {
	s.Window++
	s.WindowOpen = true
	s.Lines = nil
	s.Awards = nil
}

// closeWindow settles the awards when the next conflict opens.
func (s *State) closeWindow() {
	s.WindowOpen = false
	s.Lines = nil
	s.Awards = nil
}

// Counts says whether reactions on the line ref can still award: only the
// open window's lines (and those since the last one closed) are kept.
func (s *State) Counts(ref string) bool {
	_, ok := s.Lines[ref]
	return ok
}

// Say posts an in-character line. A player's line posted while an award
// window is open (during or after a conflict's narration, until the next
// conflict opens) can earn its author a story-token with 🎭.
func (s *State) Say(seat int, speaker, line string) ([]games.Event, error) {
	if !s.seated(seat) {
		return nil, games.Refuse("Only the GM and the players of this campaign can speak in character.")
	}
	s.LineNo++
	ref := "line" + strconv.Itoa(s.LineNo)
	w := 0
	if s.WindowOpen {
		w = s.Window
	}
	if s.Lines == nil {
		s.Lines = map[string]Line{}
	}
	s.Lines[ref] = Line{Seat: seat, Window: w}
	e := games.Event{Text: clip("🎭 "+speaker+": "+line, maxEvent), Story: true, Ref: ref}
	if seat != 0 && s.Phase != PhaseOver {
		e.Emoji = []string{awardEmoji}
	}
	return []games.Event{e}, nil
}

// React gives (add) or takes back (!add) a story-token from the pool for a
// player's narration line. Each player gives at most one per conflict.
func (s *State) React(seat int, ref, emoji string, add bool) ([]games.Event, error) {
	if emoji != awardEmoji {
		return nil, games.Refuse("Only 🎭 gives a story-token.")
	}
	if s.Phase == PhaseOver {
		return nil, games.Refuse("The campaign is over; the story-tokens have been counted.")
	}
	if !s.seated(seat) {
		return nil, games.Refuse("Only the players of this campaign can award story-tokens.")
	}
	if !add {
		a, ok := s.Awards[seat]
		if !ok || a.Ref != ref {
			return nil, nil // nothing of this player's stands on that line
		}
		if s.Tokens[a.To] == 0 {
			// Nothing to return (spent, or its owner left): the award
			// stands and stays this round's one.
			return []games.Event{games.Say("%s's 🎭 award stands: %s has no story-token left to return.",
				s.heroName(seat), s.heroName(a.To))}, nil
		}
		delete(s.Awards, seat)
		s.Tokens[a.To]--
		s.Pool++
		return []games.Event{games.Say("%s takes back the 🎭 award; %s's story-token goes back to the pool.",
			s.heroName(seat), s.heroName(a.To))}, nil
	}
	if seat == 0 {
		return nil, games.Refuse("The players award story-tokens; the GM's reactions don't count.")
	}
	line, ok := s.Lines[ref]
	if !ok {
		return nil, games.Refuse("Awards are for players' lines posted during or after the current conflict's narration.")
	}
	if line.Seat == seat {
		return nil, games.Refuse("You can't award a story-token to yourself.")
	}
	if line.Seat == 0 {
		return nil, games.Refuse("Story-tokens go to the players' lines, not the GM's.")
	}
	if line.Window == 0 || !s.WindowOpen || line.Window != s.Window {
		return nil, games.Refuse("Awards are for players' lines posted during or after the current conflict's narration.")
	}
	if a, ok := s.Awards[seat]; ok {
		if a.Ref == ref {
			return nil, nil // a repeated delivery
		}
		return nil, games.Refuse("You've already given a story-token for this conflict (to %s).", s.heroName(a.To))
	}
	if s.Pool == 0 {
		return nil, games.Refuse("The pool is empty: there is no story-token to give.")
	}
	if s.Gone[line.Seat] {
		return nil, games.Refuse("%s has left the campaign.", s.Players[line.Seat])
	}
	if s.Awards == nil {
		s.Awards = map[int]Award{}
	}
	s.Awards[seat] = Award{From: seat, To: line.Seat, Ref: ref}
	s.Pool--
	s.Tokens[line.Seat]++
	return []games.Event{games.Say("🎭 %s gives %s a story-token from the pool for that line.",
		s.heroName(seat), s.heroName(line.Seat))}, nil
}
