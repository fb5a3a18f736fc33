package lnf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

const reshuffleNote = "The deck ran out: the discard pile, all but its top card, is shuffled into a new deck."

func (s *State) next(seat int) int { return (seat + 1) % len(s.Names) }

// top is the face-up card that sets colour and number.
func (s *State) top() (Card, bool) {
	d := s.Pile.Discard
	if len(d) == 0 {
		return Card{}, false
	}
	return d[len(d)-1], true
}

// fits reports whether c matches the top card: same number, or same colour
// (grey matches nothing by colour).
func (s *State) fits(c Card) bool {
	t, ok := s.top()
	if !ok { // only if the deck was drained before the first card: anything coloured goes
		return !c.Wild()
	}
	return c.Num == t.Num || !c.Wild() && c.Color == t.Color
}

// playable reports whether seat may play c, a card in its hand: it fits,
// and a wild card only when no coloured card in the hand fits.
func (s *State) playable(seat int, c Card) bool {
	if !s.fits(c) {
		return false
	}
	if !c.Wild() {
		return true
	}
	return !slices.ContainsFunc(s.Hands[seat], func(o Card) bool { return !o.Wild() && s.fits(o) })
}

// legal lists the distinct cards seat may play now, in hand order.
func (s *State) legal(seat int) []Card {
	if s.Phase != PhasePlay || s.Turn != seat {
		return nil
	}
	if s.Drawn != nil {
		// Only the card just drawn; an appeal's penalty cards may since
		// have made a drawn wild unplayable.
		if s.playable(seat, *s.Drawn) {
			return []Card{*s.Drawn}
		}
		return nil
	}
	var out []Card
	for _, c := range s.Hands[seat] {
		if s.playable(seat, c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// whyNot is the refusal for a card that doesn't fit.
func (s *State) whyNot(seat int, c Card) error {
	t, _ := s.top()
	switch {
	case c.Wild() && !s.fits(c):
		return games.Refuse("A wild card only goes on a card with the same number, and the top card is %s.", t)
	case c.Wild():
		i := slices.IndexFunc(s.Hands[seat], func(o Card) bool { return !o.Wild() && s.fits(o) })
		return games.Refuse("Wild cards only when nothing else fits: you can play %s.", s.Hands[seat][i])
	}
	return games.Refuse("%s doesn't match %s: play the same colour or the same number.", c, t)
}

func (s *State) give(seat int, c Card) {
	s.Hands[seat] = append(s.Hands[seat], c)
	slices.SortFunc(s.Hands[seat], less)
}

func (s *State) takeFromHand(seat int, c Card) {
	i := slices.Index(s.Hands[seat], c)
	s.Hands[seat] = slices.Delete(s.Hands[seat], i, i+1)
}

// take draws the top card of the deck. An empty deck is first rebuilt from
// the discard pile, all but its face-up top card (the common ruling); ok is
// false when there is still nothing to draw.
func (s *State) take() (c Card, reshuffled, ok bool) {
	p := &s.Pile
	if len(p.Draw) == 0 && len(p.Discard) > 1 {
		n := len(p.Discard) - 1
		p.Draw = slices.Clone(p.Discard[:n])
		p.Discard = []Card{p.Discard[n]}
		games.Shuffle(&s.RNG, p.Draw)
		reshuffled = true
	}
	if len(p.Draw) == 0 {
		return c, reshuffled, false
	}
	c = p.Draw[len(p.Draw)-1]
	p.Draw = p.Draw[:len(p.Draw)-1]
	return c, reshuffled, true
}

// drawCards gives seat up to n cards from the deck.
func (s *State) drawCards(seat, n int) (got int, reshuffled bool) {
	for range n {
		c, re, ok := s.take()
		reshuffled = reshuffled || re
		if !ok {
			break
		}
		s.give(seat, c)
		got++
	}
	return got, reshuffled
}

// turnUp turns the deck's top card onto the discard pile to set colour and
// number. To start the pile (bury) a wild card is buried at the bottom of
// the deck and the next one turned; after a Draw card the top card is
// turned whatever it is, as the rules say. ok is false when no card (to
// start: no coloured card) is left to turn.
func (s *State) turnUp(bury bool) (c Card, buried int, reshuffled, ok bool) {
	var wilds []Card
	for {
		var re bool
		c, re, ok = s.take()
		reshuffled = reshuffled || re
		if !ok || !bury || !c.Wild() {
			break
		}
		wilds = append(wilds, c)
	}
	s.Pile.Draw = append(wilds, s.Pile.Draw...)
	if ok {
		s.Pile.Discard = append(s.Pile.Discard, c)
	}
	return c, len(wilds), reshuffled, ok
}

// turnedLine says what turnUp did, for narration.
func turnedLine(c Card, buried int, reshuffled, ok bool) string {
	var parts []string
	if reshuffled {
		parts = append(parts, "the discards are shuffled into a new deck")
	}
	if buried > 0 {
		parts = append(parts, fmt.Sprintf("%s turned up and %s buried in the deck", plural(buried, "wild card"), map[bool]string{true: "is", false: "are"}[buried == 1]))
	}
	if ok && c.Wild() {
		parts = append(parts, fmt.Sprintf("the card turned up is **%s**: grey, so only a %d fits it", c, c.Num))
	} else if ok {
		parts = append(parts, fmt.Sprintf("the card turned up is **%s** (%s)", c, areas[c.Color]))
	} else {
		parts = append(parts, "no card is left to turn up, so the top card stays")
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// advance ends the turn.
func (s *State) advance() {
	s.Drawn = nil
	s.Turn = s.next(s.Turn)
}

// onTurn checks that seat is the player to move.
func (s *State) onTurn(seat int) error {
	if s.Phase == PhaseExchange {
		return games.Refuse("The first card isn't turned yet: waiting for %s to swap a card or keep their hand.", s.names(s.ToAct()))
	}
	if s.Turn != seat {
		return games.Refuse("It's %s's turn.", s.Names[s.Turn])
	}
	return nil
}

// swap exchanges one card for the top of the deck, once, before play.
func (s *State) swap(seat int, code string) ([]games.Event, error) {
	if err := s.exchanging(seat); err != nil {
		return nil, err
	}
	c, err := ParseCard(code)
	if err != nil || !slices.Contains(s.Hands[seat], c) {
		return nil, games.Refuse("That card isn't in your hand.")
	}
	got, _, ok := s.take()
	if !ok {
		return nil, games.Refuse("The deck is empty: keep your hand.")
	}
	// The new card comes off the top; the old one goes back and the deck is shuffled.
	s.takeFromHand(seat, c)
	s.give(seat, got)
	s.Pile.Draw = append(s.Pile.Draw, c)
	games.Shuffle(&s.RNG, s.Pile.Draw)
	s.Decided[seat] = true
	s.Last = s.Names[seat] + " swapped a card with the deck."
	return s.afterDecision(games.Say("%s swaps a card with the deck.", s.Names[seat])), nil
}

// ready keeps the dealt hand.
func (s *State) ready(seat int) ([]games.Event, error) {
	if err := s.exchanging(seat); err != nil {
		return nil, err
	}
	s.Decided[seat] = true
	s.Last = s.Names[seat] + " kept their hand."
	return s.afterDecision(games.Say("%s keeps their hand.", s.Names[seat])), nil
}

func (s *State) exchanging(seat int) error {
	if s.Phase != PhaseExchange {
		return games.Refuse("The exchange is over: it only happens before the first card is turned.")
	}
	if s.Decided[seat] {
		return games.Refuse("You have already made your choice; waiting for %s.", s.names(s.ToAct()))
	}
	return nil
}

// afterDecision starts play once everyone has swapped or kept.
func (s *State) afterDecision(ev games.Event) []games.Event {
	if slices.Contains(s.Decided, false) {
		return []games.Event{ev}
	}
	c, buried, re, ok := s.turnUp(true)
	s.Phase = PhasePlay
	s.Turn = s.next(0) // left of the dealer
	s.Last = "The first card is turned up."
	return []games.Event{ev, games.Narrate("🂠 Everyone is ready. %s **%s** plays first: same colour or same number.",
		turnedLine(c, buried, re, ok), s.Names[s.Turn])}
}

// play plays a card; a wild card's Text is the line its player said.
func (s *State) play(seat int, code, text string) ([]games.Event, error) {
	if err := s.onTurn(seat); err != nil {
		return nil, err
	}
	c, err := ParseCard(code)
	if err != nil || !slices.Contains(s.Hands[seat], c) {
		return nil, games.Refuse("That card isn't in your hand.")
	}
	if s.Drawn != nil && c != *s.Drawn {
		return nil, games.Refuse("You drew %s: play that card now, or keep it and pass.", *s.Drawn)
	}
	if !s.playable(seat, c) {
		return nil, s.whyNot(seat, c)
	}
	s.takeFromHand(seat, c)
	s.Drawn = nil
	name := s.Names[seat]
	out := len(s.Hands[seat]) == 0
	if !c.Wild() {
		s.Pile.Discard = append(s.Pile.Discard, c)
		s.Last = fmt.Sprintf("%s played %s.", name, c)
		if out {
			return s.finish(seat, endOut, fmt.Sprintf("🏁 %s plays %s, their last card, and goes out!", name, c)), nil
		}
		s.advance()
		return []games.Event{games.Say("%s plays %s.", name, c)}, nil
	}
	words := oneLine(text, 200)
	if !c.saidLine(words) {
		return s.dead(seat, c, words), nil
	}
	s.Pile.Discard = append(s.Pile.Discard, c)
	said := fmt.Sprintf("🗣️ **%s**: \"%s\"\n", name, words)
	if c.GameOver {
		s.Last = fmt.Sprintf("%s played %s.", name, c)
		return s.finish(seat, endGameOver, said+fmt.Sprintf("🛑 %s plays %s: the game ends at once!", name, c)), nil
	}
	victim := s.next(seat)
	got, re := s.drawCards(victim, c.Draws())
	hit := fmt.Sprintf("%s plays %s: **%s** draws %d and loses their turn", name, c, s.Names[victim], c.Draws())
	if got < c.Draws() {
		hit = fmt.Sprintf("%s plays %s: **%s** should draw %d but the deck gives only %d, and they lose their turn", name, c, s.Names[victim], c.Draws(), got)
	}
	if re {
		hit += " (the discards were shuffled into a new deck)"
	}
	s.Last = fmt.Sprintf("%s played %s; %s drew %d and lost their turn.", name, c, s.Names[victim], got)
	if out {
		return s.finish(seat, endOut, said+hit+fmt.Sprintf(".\n🏁 That was %s's last card: they go out!", name)), nil
	}
	turned := turnedLine(s.turnUp(false))
	s.Turn, s.Drawn = s.next(victim), nil
	return []games.Event{games.Narrate("%s%s.\n%s **%s** to play.", said, hit, turned, s.Names[s.Turn])}, nil
}

// dead discards a wild card played without its line. It does nothing: it
// goes under the top card, which keeps setting colour and number, and the
// turn passes (or the game ends, if it was the last card).
func (s *State) dead(seat int, c Card, words string) []games.Event {
	d := s.Pile.Discard
	n := len(d) - 1
	s.Pile.Discard = append(d[:n:n], c, d[n])
	how := "didn't say the line"
	if words != "" {
		how = fmt.Sprintf("said \"%s\" instead of the line", words)
	}
	name := s.Names[seat]
	msg := fmt.Sprintf("💀 %s played %s but %s: the card is dead and does nothing.", name, c, how)
	why := "no line"
	if words != "" {
		why = "wrong line"
	}
	s.Last = fmt.Sprintf("%s's %s was dead: %s.", name, c.Name(), why)
	if len(s.Hands[seat]) == 0 {
		return s.finish(seat, endOut, msg+fmt.Sprintf("\n🏁 It was %s's last card, so they go out!", name))
	}
	s.advance()
	return []games.Event{games.Narrate("%s **%s** to play.", msg, s.Names[s.Turn])}
}

// draw takes a card when nothing in hand fits; a card that fits may then be
// played at once, otherwise the turn passes.
func (s *State) draw(seat int) ([]games.Event, error) {
	if err := s.onTurn(seat); err != nil {
		return nil, err
	}
	if s.Drawn != nil {
		return nil, games.Refuse("You already drew %s: play it or pass.", *s.Drawn)
	}
	if l := s.legal(seat); len(l) > 0 {
		return nil, games.Refuse("You can play %s: you only draw when nothing fits.", l[0])
	}
	var evs []games.Event
	c, re, ok := s.take()
	if re {
		evs = append(evs, games.Say(reshuffleNote))
	}
	name := s.Names[seat]
	if !ok {
		s.Last = name + " had nothing to draw and passed."
		s.advance()
		return append(evs, games.Say("There is nothing left to draw: %s passes.", name)), nil
	}
	s.give(seat, c)
	if s.playable(seat, c) {
		s.Drawn = &c
		s.Last = name + " drew a card."
		return append(evs, games.Say("%s draws a card.", name)), nil
	}
	s.Last = name + " drew a card and passed."
	s.advance()
	return append(evs, games.Say("%s draws a card and passes.", name)), nil
}

// pass keeps the card just drawn.
func (s *State) pass(seat int) ([]games.Event, error) {
	if err := s.onTurn(seat); err != nil {
		return nil, err
	}
	if s.Drawn == nil {
		return nil, games.Refuse("You can only pass after drawing a card that fits; otherwise play a card or draw.")
	}
	s.Last = s.Names[seat] + " drew a card and kept it."
	s.advance()
	return []games.Event{games.Say("%s keeps the card they drew and passes.", s.Names[seat])}, nil
}

// finish ends the game: story is the move that ended it, to which the final
// scores are added. Appeals still open are closed without a penalty.
func (s *State) finish(seat int, how, story string) []games.Event {
	s.Phase, s.Ender, s.Ended, s.Drawn = PhaseOver, seat, how, nil
	var closed []games.Event
	for i := range s.Appeals {
		if a := &s.Appeals[i]; a.Open {
			a.Open = false
			a.Result = "The game ended before the vote closed: no penalty."
			closed = append(closed, s.appealEvent(i+1))
		}
	}
	if len(closed) > 0 {
		story += "\nOpen appeals are closed without a penalty."
	}
	return append([]games.Event{games.Narrate("%s\n%s", story, s.scoreLines(true, false))}, closed...)
}

// scoreLines lists the final scores, one line per seat, with what was left
// in each hand if hands is set.
func (s *State) scoreLines(bold, hands bool) string {
	var b strings.Builder
	for _, r := range s.Results() {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if r.Winner {
			b.WriteString("🏆 ")
		}
		name := s.Names[r.Seat]
		if bold {
			name = "**" + name + "**"
		}
		base, what := keepScore, ""
		if r.Seat == s.Ender {
			base, what = outScore, " (went out)"
			if s.Ended == endGameOver {
				what = " (played Game Over)"
			}
		}
		h := s.Hands[r.Seat]
		if len(h) == 0 {
			fmt.Fprintf(&b, "%s: %s%s", name, signed(r.Score), what)
			continue
		}
		left := sum(h)
		if r.Seat == s.Ender {
			left = len(h) // Game Over counts the cards left
		}
		fmt.Fprintf(&b, "%s: %d − %d = %s%s", name, base, left, signed(r.Score), what)
		if hands {
			var ns []string
			for _, c := range h[:min(len(h), 6)] {
				ns = append(ns, c.Name())
			}
			if len(h) > 6 {
				ns = append(ns, fmt.Sprintf("+%d more", len(h)-6))
			}
			b.WriteString(" · " + strings.Join(ns, ", "))
		}
	}
	return b.String()
}

// signed writes a score with a real minus sign.
func signed(n int) string {
	if n < 0 {
		return fmt.Sprintf("−%d", -n)
	}
	return fmt.Sprint(n)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// names joins the names of seats: "Ann", "Ann and Bob", "Ann, Bob and Cy".
func (s *State) names(seats []int) string {
	var ns []string
	for _, seat := range seats {
		ns = append(ns, s.Names[seat])
	}
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// oneLine flattens typed text to one trimmed line of at most limit runes.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit-1]) + "…"
	}
	return s
}
