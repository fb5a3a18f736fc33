package life

import (
	"fmt"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Table is the public view: everything in this game is public.
func (s *State) Table() games.View {
	v := games.View{
		Title:       s.title(),
		Description: s.status(-1),
		Footer:      fmt.Sprintf("Draw pile %d · discards %d", len(s.Pile.Draw), len(s.Pile.Discard)),
	}
	for seat := range s.Players {
		v.Fields = append(v.Fields, games.Field{Name: s.fieldName(seat), Value: s.board(seat), Inline: true})
	}
	return v
}

// Hand is one player's own board with the controls for their move.
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Players) {
		return games.View{Title: gameName, Description: "You don't have a seat in this game."}
	}
	v := games.View{
		Title:       s.Players[seat] + " — your life",
		Description: s.status(seat),
		Fields:      []games.Field{{Name: s.fieldName(seat), Value: s.board(seat)}},
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
			v.Buttons = append(v.Buttons, games.Button{Label: "Roll anyway", Action: games.Act("roll"), Style: games.Secondary})
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

// status is the description: what is happening, addressed to viewer (-1: everyone).
func (s *State) status(viewer int) string {
	var b strings.Builder
	switch s.Phase {
	case phaseIntro:
		b.WriteString("The cards are dealt. Meet the characters:\n")
		for seat, name := range s.Players {
			hi, lo := bounds(s.Start[seat])
			fmt.Fprintf(&b, "• **%s** — strongest %s (%s), weakest %s (%s)\n",
				name, advNames[hi], s.Start[seat][hi], advNames[lo], s.Start[seat][lo])
		}
		if s.Roleplay {
			b.WriteString("Introduce your character with /say. ")
		}
		fmt.Fprintf(&b, "%s (the dealer) opens Childhood when the table is ready.", s.Players[0])
		if viewer == 0 {
			b.WriteString("\nPress **Begin** when everyone is ready.")
		}
	case phaseChoose, phaseDecide:
		if s.Last != "" {
			b.WriteString("Last: " + s.Last + "\n")
		}
		cur := s.current()
		c := *s.Challenge
		stage := stageNames[s.stage(cur, s.Round)]
		who := "**" + s.Players[cur] + "**'s"
		if viewer == cur {
			who = "Your"
		}
		fmt.Fprintf(&b, "%s %s challenge: **%s** (%d).\n", who, stage, c, c.PipValue())
		switch {
		case s.Phase == phaseDecide && viewer == cur:
			fmt.Fprintf(&b, "You beat it! Take the %s in place of any one advantage (face up or face down), or keep yours.", c)
		case s.Phase == phaseDecide:
			fmt.Fprintf(&b, "%s beat it and is deciding whether to take the %s into their life.", s.Players[cur], c)
		case viewer == cur && s.faceUp(cur) == 0:
			b.WriteString("Nothing is left face up: roll anyway, for the story.")
		case viewer == cur:
			fmt.Fprintf(&b, "Choose a face-up advantage. You need a roll of at least %d and at most that advantage.", s.lowestWin(c))
		default:
			fmt.Fprintf(&b, "Waiting for %s to choose an advantage.", s.Players[cur])
		}
	case phaseOver:
		if s.Last != "" {
			b.WriteString("Last: " + s.Last + "\n")
		}
		b.WriteString("Every life has been lived.")
		for _, r := range s.Results() {
			mark := ""
			if r.Winner {
				mark = " 🏆"
			}
			fmt.Fprintf(&b, "\n**%s** — %s%s", s.Players[r.Seat], s.scoreLine(r.Seat), mark)
		}
	}
	if viewer >= 0 && s.dead(viewer) && s.Phase != phaseOver {
		fmt.Fprintf(&b, "\nYour character died in %s; the others play on.", stageNames[s.DiedIn[viewer]])
	}
	if viewer >= 0 && s.canSwap(viewer) {
		if s.Swapped[viewer] {
			b.WriteString("\nYou face Career before Romance; you can change that until Romance begins.")
		} else {
			b.WriteString("\nYou may swap Romance and Career for your character until Romance begins.")
		}
	}
	return b.String()
}

func (s *State) fieldName(seat int) string {
	name := s.Players[seat]
	switch {
	case s.dead(seat):
		name = "💀 " + name
	case (s.Phase == phaseChoose || s.Phase == phaseDecide) && s.current() == seat:
		name = "▶ " + name
	}
	if seat == 0 {
		name += " (dealer)"
	}
	return fmt.Sprintf("%s — %s", name, plural(s.Score(seat), "pt"))
}

// board shows a seat's six advantages, score and markers.
func (s *State) board(seat int) string {
	var b strings.Builder
	for i, sl := range s.Boards[seat] {
		if sl.Up {
			fmt.Fprintf(&b, "%s: **%s**\n", advNames[i], sl.Card)
		} else {
			fmt.Fprintf(&b, "🂠 %s (lost)\n", advNames[i])
		}
	}
	if s.Phase == phaseOver {
		fmt.Fprintf(&b, "Final score: %d", s.Score(seat))
	} else {
		fmt.Fprintf(&b, "Score so far: %d", s.Score(seat))
	}
	if s.Roleplay {
		given, received := s.markers(seat)
		fmt.Fprintf(&b, "\n🎭 given %d · received %d · left %d", given, received, startMarkers-given)
	}
	if s.Swapped[seat] {
		order := make([]string, rounds)
		for r := range order {
			order[r] = stageNames[s.stage(seat, r)]
		}
		b.WriteString("\nOrder: " + strings.Join(order, " → "))
	}
	if s.dead(seat) {
		fmt.Fprintf(&b, "\nDied in %s", stageNames[s.DiedIn[seat]])
	}
	return b.String()
}
