package lnf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// maxSwapButtons: more distinct cards than this (a hand swollen by appeal
// penalties before play) are offered in a select menu instead.
const maxSwapButtons = 19

// Table is the public view: the top card, whose turn, hand sizes, piles and,
// at the end, the scores with what was left in each hand. Each fact once.
func (s *State) Table() games.View {
	v := games.View{Title: Name, Footer: fmt.Sprintf("Deck %s · discard pile %s",
		plural(len(s.Pile.Draw), "card"), plural(len(s.Pile.Discard), "card"))}
	var b strings.Builder
	last := s.Last
	switch s.Phase {
	case PhaseExchange:
		b.WriteString("Before the first card is turned, everyone may swap one card with the deck.")
	case PhasePlay:
		top := s.topLine()
		// A plain play is the top card: say who played it there, once.
		if t, ok := s.top(); ok && strings.HasSuffix(s.Last, " played "+t.String()+".") {
			top += " · played by " + strings.TrimSuffix(s.Last, " played "+t.String()+".")
			last = ""
		}
		fmt.Fprintf(&b, "%s\n▶ **%s** to play.", top, s.Names[s.Turn])
	case PhaseOver:
		how := "went out"
		if s.Ended == endGameOver {
			how = "played Game Over"
		}
		fmt.Fprintf(&b, "🏁 **Game over:** %s %s.", s.Names[s.Ender], how)
	}
	if last != "" {
		fmt.Fprintf(&b, "\nLast: %s", last)
	}
	var votes []string
	for _, a := range s.Appeals {
		if a.Open {
			votes = append(votes, fmt.Sprintf("%s's appeal against %s", s.Names[a.Appellant], s.Names[a.Offender]))
		}
	}
	if len(votes) > 0 {
		b.WriteString("\n⚖️ Vote open: " + strings.Join(votes, "; ") + ".")
	}
	v.Description = b.String()
	if s.Over() {
		v.Fields = []games.Field{{Name: "Scores: out 20 · Game Over 20 − cards left · others 10 − numbers left", Value: s.finalScores()}}
		return v
	}
	var lines []string
	for seat, h := range s.Hands {
		mark := ""
		switch {
		case s.Phase == PhaseExchange && s.Decided[seat]:
			mark = "✅ "
		case s.Phase == PhaseExchange:
			mark = "⏳ "
		}
		lines = append(lines, fmt.Sprintf("%s**%s** — %s", mark, s.Names[seat], plural(len(h), "card")))
	}
	v.Fields = []games.Field{{Name: "Players", Value: strings.Join(lines, "\n")}}
	return v
}

// finalScores is one line per seat: the score with every term of it and
// the cards left in hand.
func (s *State) finalScores() string {
	var lines []string
	for _, r := range s.Results() {
		line := ""
		if r.Winner {
			line = "🏆 "
		}
		line += "**" + s.Names[r.Seat] + "**"
		switch {
		case r.Seat == s.Ender && s.Ended == endOut:
			line += fmt.Sprintf(" (went out): **%s**", signed(r.Score))
		case r.Seat == s.Ender:
			line += " (Game Over): " + s.scoreTerms(r.Seat)
		default:
			line += ": " + s.scoreTerms(r.Seat)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// scoreTerms writes the score of a seat that did not go out as its terms
// and the cards they count: "10 − 14 = **−4** (🟥5 🟩9)".
func (s *State) scoreTerms(seat int) string {
	h := s.Hands[seat]
	var terms string
	if seat == s.Ender { // Game Over counts the cards left, not their numbers
		terms = fmt.Sprintf("%d − %s", outScore, plural(len(h), "card"))
	} else {
		terms = fmt.Sprintf("%d − %d", keepScore, sum(h))
	}
	out := fmt.Sprintf("%s = **%s**", terms, signed(s.score(seat)))
	if len(h) > 0 {
		out += " (" + short(h) + ")"
	}
	return out
}

// short lists cards by colour and number, "🟥5 🟩9", at most twelve.
func short(cs []Card) string {
	const most = 12
	var parts []string
	for _, c := range cs[:min(len(cs), most)] {
		parts = append(parts, fmt.Sprintf("%s%d", colorEmoji[c.Color], c.Num))
	}
	if len(cs) > most {
		parts = append(parts, fmt.Sprintf("… %d more", len(cs)-most))
	}
	return strings.Join(parts, " ")
}

// topLine names the top card and its area of life.
func (s *State) topLine() string {
	t, ok := s.top()
	switch {
	case !ok:
		return "No card is face up: any coloured card goes."
	case t.Wild():
		return fmt.Sprintf("Top card: **%s** — only a %d matches it.", t, t.Num)
	}
	return fmt.Sprintf("Top card: **%s** — %s", t, areas[t.Color])
}

// Hand is one seat's cards, playable ones first, with a button for every
// legal move when it is that seat's move.
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Names) {
		return games.View{Title: Name, Description: "You don't have a seat in this game."}
	}
	v := games.View{Title: "Your hand — " + Name}
	hand := s.Hands[seat]
	var b strings.Builder
	switch s.Phase {
	case PhaseExchange:
		if s.Decided[seat] {
			fmt.Fprintf(&b, "You're ready. ⏳ Waiting for %s.", s.names(s.ToAct()))
		} else {
			b.WriteString("Before the first card is turned you may swap **one** card for the top card of the deck " +
				"(yours is shuffled back in), or keep your hand.")
			s.swapControls(&v, seat)
		}
	case PhasePlay:
		if s.Turn != seat {
			fmt.Fprintf(&b, "▶ **%s** is playing.", s.Names[s.Turn])
			break
		}
		b.WriteString(s.topLine() + "\n")
		legal := s.legal(seat)
		switch {
		case s.Drawn != nil && len(legal) > 0:
			fmt.Fprintf(&b, "**Your turn.** You drew **%s** and it fits: play it now, or keep it and pass.", *s.Drawn)
		case s.Drawn != nil:
			fmt.Fprintf(&b, "**Your turn.** You drew **%s**; keep it and pass.", *s.Drawn)
		case len(legal) > 0:
			b.WriteString("**Your turn:** play a card of the same colour or the same number.")
		default:
			b.WriteString("**Your turn:** nothing in your hand fits, so draw a card.")
		}
		if note := s.wildNote(seat); note != "" {
			b.WriteString("\n" + note)
		}
		v.Buttons = s.playButtons(seat, legal)
	case PhaseOver:
		fmt.Fprintf(&b, "The game is over. Your score: %s.", s.yourScore(seat))
	}
	v.Description = b.String()
	// Playable cards first.
	var now, rest []Card
	for _, c := range hand {
		if s.Phase == PhasePlay && s.Turn == seat && slices.Contains(s.legal(seat), c) {
			now = append(now, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(now) > 0 {
		v.Fields = append(v.Fields, games.Field{Name: "Playable now", Value: list(now)})
		v.Fields = append(v.Fields, games.Field{Name: "Other cards", Value: list(rest)})
	} else {
		v.Fields = append(v.Fields, games.Field{Name: fmt.Sprintf("Your cards (%d)", len(hand)), Value: list(rest)})
	}
	return v
}

// wildNote explains why a wild card in hand can't be played now.
func (s *State) wildNote(seat int) string {
	if s.Drawn != nil {
		return ""
	}
	blocked, offNumber := false, false
	for _, c := range s.Hands[seat] {
		if c.Wild() && !s.playable(seat, c) {
			if s.fits(c) {
				blocked = true
			} else {
				offNumber = true
			}
		}
	}
	switch {
	case blocked:
		return "⬜ Wild cards only when nothing else fits."
	case offNumber:
		t, _ := s.top()
		return fmt.Sprintf("⬜ A wild card only goes on a card with its own number (the top card shows %d).", t.Num)
	}
	return ""
}

// playButtons: one button per distinct legal card (at most the 9 of the top
// colour and 3 of its number, so buttons always fit), then draw or pass.
func (s *State) playButtons(seat int, legal []Card) []games.Button {
	var out []games.Button
	for _, c := range legal {
		b := games.Button{Label: "Play " + c.String(), Action: games.Act(VerbPlay, c.Code()), Style: games.Primary}
		if c.Wild() {
			b.Label += " — say the line!"
			b.Style = games.Danger
			b.Ask = &games.Ask{Title: "Life is not fair, but…", Label: "Say the line of " + c.Name(),
				Placeholder: "Life is not fair, but…", MaxLen: 100}
		}
		out = append(out, b)
	}
	switch {
	case s.Drawn != nil:
		out = append(out, games.Button{Label: "Keep it and pass", Action: games.Act(VerbPass)})
	case len(legal) == 0:
		out = append(out, games.Button{Label: "Draw a card", Action: games.Act(VerbDraw), Style: games.Primary, Forced: true})
	}
	return out
}

// swapControls offers the exchange: a button per distinct card (a select
// menu if penalties made the hand large) and keeping the hand.
func (s *State) swapControls(v *games.View, seat int) {
	// Keep first: the first button is what the bot presses for a player
	// who is away, and it should not change their hand at random.
	v.Buttons = append(v.Buttons, games.Button{Label: "Keep my hand", Action: games.Act(VerbReady), Style: games.Success})
	cards := slices.Compact(slices.Clone(s.Hands[seat]))
	if len(cards) <= maxSwapButtons {
		for _, c := range cards {
			v.Buttons = append(v.Buttons, games.Button{Label: "Swap " + c.String(), Action: games.Act(VerbSwap, c.Code())})
		}
	} else {
		ch := games.Choice{Verb: VerbSwap, Placeholder: "Swap a card with the deck", Min: 1, Max: 1}
		for _, c := range cards[:min(len(cards), 25)] {
			ch.Options = append(ch.Options, games.ChoiceOption{Value: c.Code(), Label: c.String()})
		}
		v.Choices = []games.Choice{ch}
	}
}

// yourScore is the seat's own score for its hand view, with its terms.
func (s *State) yourScore(seat int) string {
	sc := "**" + signed(s.score(seat)) + "**"
	switch {
	case seat == s.Ender && s.Ended == endOut:
		return sc + " for going out"
	case seat == s.Ender:
		return fmt.Sprintf("%s = %d for Game Over − %s left", sc, outScore, plural(len(s.Hands[seat]), "card"))
	}
	return fmt.Sprintf("%s = %d − %d, the numbers left in your hand", sc, keepScore, sum(s.Hands[seat]))
}
