package life

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Table is the public view: everything in this game is public, and each
// fact is on it once — a seat is two lines, its score and its advantages.
func (s *State) Table() games.View {
	v := games.View{
		Title:       s.title(),
		Description: s.status(),
		Footer:      fmt.Sprintf("🂠 lost (face down) · draw pile %d · discards %d", len(s.Pile.Draw), len(s.Pile.Discard)),
	}
	for seat := range s.Players {
		v.Fields = append(v.Fields, games.Field{Name: s.fieldName(seat), Value: s.board(seat)})
	}
	return v
}

// Hand is one player's decision: nothing in this game is private, so it
// holds the challenge and, on the player's move, their advantages with the
// controls for it, and what only concerns this player (markers to give, the
// swap).
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Players) {
		return games.View{Title: gameName, Description: "You don't have a seat in this game."}
	}
	v := games.View{
		Title:       s.Players[seat] + " — your life",
		Description: s.prompt(seat),
	}
	if (s.Phase == phaseChoose || s.Phase == phaseDecide) && s.current() == seat {
		// The advantages are what the move is decided on.
		v.Fields = []games.Field{{Name: "Your advantages", Value: s.advantages(seat)}}
	}
	switch {
	case s.Phase == phaseIntro && seat == 0:
		v.Buttons = append(v.Buttons, games.Button{Label: "Begin: open Childhood", Action: games.Act("begin"), Style: games.Primary})
	case s.Phase == phaseChoose && s.current() == seat:
		c := *s.Challenge
		for i, sl := range s.Boards[seat] {
			if !sl.Up {
				continue
			}
			label, style := fmt.Sprintf("%s — %s (no chance)", advNames[i], sl.Card), games.Secondary
			if lo, hi := s.lowestWin(c), sl.Card.PipValue(); lo <= hi {
				label, style = fmt.Sprintf("%s — %s (needs %s)", advNames[i], sl.Card, need(lo, hi)), games.Primary
			}
			v.Buttons = append(v.Buttons, games.Button{Label: label, Action: games.Act("use", advTokens[i]), Style: style})
		}
		if len(v.Buttons) == 0 {
			v.Buttons = append(v.Buttons, games.Button{Label: "Roll anyway", Action: games.Act("roll"), Style: games.Secondary, Forced: true})
		}
	case s.Phase == phaseDecide && s.current() == seat:
		for i, sl := range s.Boards[seat] {
			shown := sl.Card.String()
			if !sl.Up {
				shown = "🂠 lost " + shown
			}
			v.Buttons = append(v.Buttons, games.Button{
				Label:  fmt.Sprintf("Replace %s (%s)", advNames[i], shown),
				Action: games.Act("replace", advTokens[i]),
			})
		}
		v.Buttons = append(v.Buttons, games.Button{Label: "Keep my advantages", Action: games.Act("keep"), Style: games.Success})
	}
	if s.canSwap(seat) {
		label := "Swap my Romance and Career"
		if s.Swapped[seat] {
			label = "Undo swap: Romance before Career"
		}
		v.Buttons = append(v.Buttons, games.Button{Label: label, Action: games.Act("swap")})
	}
	return v
}

// need describes the rolls that beat challenge c with advantage a.
func need(lo, hi int) string {
	if lo == hi {
		return fmt.Sprintf("exactly %d", lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// lowestWin is the smallest roll that beats challenge c: its value, but
// never snake eyes when that rule is on, since a 2 then kills instead.
func (s *State) lowestWin(c games.Card) int {
	if s.SnakeEyes && c.PipValue() <= 2 {
		return 3
	}
	return c.PipValue()
}

func (s *State) title() string {
	switch s.Phase {
	case phaseIntro:
		return gameName + " — the deal"
	case phaseOver:
		return gameName + " — the end"
	}
	return fmt.Sprintf("%s — Round %d of %d: %s", gameName, s.Round+1, rounds, stageNames[s.Round])
}

// status is the table's description: the latest outcome and whose move it
// is, or the result.
func (s *State) status() string {
	var lines []string
	switch s.Phase {
	case phaseIntro:
		intro := "The cards are dealt. "
		if s.Roleplay {
			intro += "Introduce your character with /say. "
		}
		lines = append(lines, fmt.Sprintf("%s**%s** (the dealer) opens Childhood when the table is ready.", intro, s.Players[0]))
	case phaseChoose, phaseDecide:
		if s.Last != "" {
			lines = append(lines, "Last: "+s.Last)
		}
		cur := s.current()
		c := *s.Challenge
		line := fmt.Sprintf("▶ **%s**'s %s challenge: **%s** (%d) — ", s.Players[cur], stageNames[s.stage(cur, s.Round)], c, c.PipValue())
		if s.Phase == phaseDecide {
			line += "beaten; deciding whether to take it into their life."
		} else {
			line += "choosing an advantage."
		}
		lines = append(lines, line)
	case phaseOver:
		if s.Last != "" {
			lines = append(lines, "Last: "+s.Last)
		}
		lines = append(lines, "Every life has been lived. "+s.winnerLine())
	}
	return strings.Join(lines, "\n")
}

// prompt is a hand's description: the move at hand, addressed to viewer.
func (s *State) prompt(viewer int) string {
	var lines []string
	switch s.Phase {
	case phaseIntro:
		if viewer == 0 {
			lines = append(lines, "Press **Begin** to open Childhood when everyone is ready.")
		} else {
			lines = append(lines, fmt.Sprintf("Waiting for **%s** (the dealer) to open Childhood.", s.Players[0]))
		}
	case phaseChoose, phaseDecide:
		cur := s.current()
		c := *s.Challenge
		stage := stageNames[s.stage(cur, s.Round)]
		switch {
		case viewer != cur:
			lines = append(lines, fmt.Sprintf("▶ **%s**'s turn: %s challenge %s (%d).", s.Players[cur], stage, c, c.PipValue()))
		case s.Phase == phaseDecide:
			lines = append(lines, fmt.Sprintf("Your %s challenge: **%s** (%d) — you beat it! Take it in place of any one advantage (face up or face down), or keep yours.",
				stage, c, c.PipValue()))
		case s.faceUp(cur) == 0:
			lines = append(lines, fmt.Sprintf("Your %s challenge: **%s** (%d). Nothing is left face up: roll anyway, for the story.", stage, c, c.PipValue()))
		default:
			lines = append(lines, fmt.Sprintf("Your %s challenge: **%s** (%d). Choose a face-up advantage: you need a roll of at least %d and at most that advantage.",
				stage, c, c.PipValue(), s.lowestWin(c)))
		}
	case phaseOver:
		lines = append(lines, "Every life has been lived. Your score: "+s.scoreTerms(viewer)+".")
	}
	if s.dead(viewer) && s.Phase != phaseOver {
		lines = append(lines, fmt.Sprintf("Your character died in %s; the others play on.", stageNames[s.DiedIn[viewer]]))
	}
	if s.canSwap(viewer) {
		if s.Swapped[viewer] {
			lines = append(lines, "You face Career before Romance; you can change that until Romance begins.")
		} else {
			lines = append(lines, "You may swap Romance and Career for your character until Romance begins.")
		}
	}
	if given, _ := s.markers(viewer); s.Roleplay && s.Phase != phaseOver && given < startMarkers {
		lines = append(lines, fmt.Sprintf("🎭 You have %s to give: react 🎭 to another player's /say line.",
			plural(startMarkers-given, "marker")))
	}
	return strings.Join(lines, "\n")
}

// fieldName is a seat's first line: who, and the score with every term.
func (s *State) fieldName(seat int) string {
	name := s.Players[seat]
	if s.dead(seat) {
		name = "💀 " + name + " (died in " + stageNames[s.DiedIn[seat]] + ")"
	}
	switch {
	case s.Phase == phaseOver && slices.Contains(s.winners(), seat):
		name = "🏆 " + name
	case (s.Phase == phaseChoose || s.Phase == phaseDecide) && s.current() == seat:
		name = "▶ " + name
	}
	return name + " — " + s.scoreTerms(seat)
}

// scoreTerms is a score with the terms that make it up: "47 pts = 50 on
// cards + 1 🎭 received − 4 🎭 not given".
func (s *State) scoreTerms(seat int) string {
	if !s.Roleplay {
		return scorePts(s.Score(seat)) + " on the face-up cards"
	}
	given, received := s.markers(seat)
	return fmt.Sprintf("%s = %d on cards + %d 🎭 received − %d 🎭 not given",
		scorePts(s.Score(seat)), s.cardPoints(seat), received, startMarkers-given)
}

// scorePts is a score with its short unit: "1 pt", "−3 pts".
func scorePts(n int) string {
	if n == 1 {
		return "1 pt"
	}
	return signed(n) + " pts"
}

// signed writes a number with a real minus sign.
func signed(n int) string {
	if n < 0 {
		return fmt.Sprintf("−%d", -n)
	}
	return fmt.Sprint(n)
}

// advantages lists a seat's six advantages one to a line, for its own move.
func (s *State) advantages(seat int) string {
	lines := make([]string, len(advNames))
	for i, sl := range s.Boards[seat] {
		if sl.Up {
			lines[i] = fmt.Sprintf("%s: **%s**", advNames[i], sl.Card)
		} else {
			lines[i] = fmt.Sprintf("🂠 %s (lost)", advNames[i])
		}
	}
	return strings.Join(lines, "\n")
}

// board shows a seat's six advantages on one line.
func (s *State) board(seat int) string {
	parts := make([]string, 0, len(advNames)+1)
	for i, sl := range s.Boards[seat] {
		if sl.Up {
			parts = append(parts, fmt.Sprintf("%s **%s**", advNames[i], sl.Card))
		} else {
			parts = append(parts, advNames[i]+" 🂠")
		}
	}
	if s.Swapped[seat] && s.Round < 4 && s.Phase != phaseOver {
		parts = append(parts, "🔀 Career before Romance")
	}
	return strings.Join(parts, " · ")
}
