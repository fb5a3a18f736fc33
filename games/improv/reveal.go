package improv

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// suitKey orders suits for ties, ♣ < ♦ < ♥ < ♠; a Joker is above them all,
// and the two Jokers are equal.
func suitKey(c games.Card) int {
	if c.Rank == games.Joker {
		return 4
	}
	return int(c.Suit)
}

// value is a card's value: 2–10, J 11, Q 12, K 13, A 14, Joker 15.
func value(c games.Card) int { return c.Rank }

// colourMatch: ♥♦ red, ♣♠ black; a Joker matches any colour.
func colourMatch(a, b games.Card) bool {
	if a.Rank == games.Joker || b.Rank == games.Joker {
		return true
	}
	return a.Red() == b.Red()
}

// compareSides compares two revealed sides by total, then suit: > 0 when a
// is ahead, 0 when they are exactly tied (or, lethal, tied on total).
func (s *State) compareSides(a, b int) int {
	sa, sb := s.C.Sides[a], s.C.Sides[b]
	if (sa.Card == nil) != (sb.Card == nil) { // a side without a card (none left to play) loses
		if sa.Card == nil {
			return -1
		}
		return 1
	}
	if sa.Total != sb.Total {
		return sa.Total - sb.Total
	}
	if s.Lethal || sa.Card == nil || sb.Card == nil {
		return 0
	}
	return suitKey(*sa.Card) - suitKey(*sb.Card)
}

// clash settles a pair of opposed sides, calling the Hand of Fate on a tie.
func (s *State) clash(a, b int) Clash {
	cl := Clash{A: a, B: b, Winner: a}
	r := s.compareSides(a, b)
	if r == 0 {
		r = s.fateDraw(&cl)
	}
	if r < 0 {
		cl.Winner = b
	}
	return cl
}

// fateDraw is the Hand of Fate: a card from the deck for each side,
// bonuses ignored; higher value then suit wins; a tie draws again.
func (s *State) fateDraw(cl *Clash) int {
	r := 0
	for try := 0; r == 0 && try < 20; try++ {
		ca, _, okA := s.Deck.Take(&s.RNG)
		if !okA {
			break
		}
		cb, _, okB := s.Deck.Take(&s.RNG)
		if !okB {
			s.Deck.Discard = append(s.Deck.Discard, ca)
			break // no card to draw at all: the first side keeps it
		}
		cl.Fate = append(cl.Fate, [2]games.Card{ca, cb})
		s.Deck.Discard = append(s.Deck.Discard, ca, cb)
		if r = value(ca) - value(cb); r == 0 {
			r = suitKey(ca) - suitKey(cb)
		}
	}
	if r == 0 {
		r = 1
	}
	return r
}

// clashOf finds the clash between a and b, if they are opponents.
func (s *State) clashOf(a, b int) *Clash {
	for i, cl := range s.C.Clashes {
		if (cl.A == a && cl.B == b) || (cl.A == b && cl.B == a) {
			return &s.C.Clashes[i]
		}
	}
	return nil
}

// rank orders two sides for narration rights: total, the Hand of Fate
// between opponents, then suit.
func (s *State) rank(a, b int) int {
	sa, sb := s.C.Sides[a], s.C.Sides[b]
	if sa.Total != sb.Total {
		return sa.Total - sb.Total
	}
	if cl := s.clashOf(a, b); cl != nil {
		if cl.Winner == a {
			return 1
		}
		return -1
	}
	if sa.Card == nil || sb.Card == nil {
		return 0
	}
	return suitKey(*sa.Card) - suitKey(*sb.Card)
}

// opponentsOf are the sides side i is measured against: a protagonist's
// chosen opponent, or the protagonists opposing a GM stake.
func (s *State) opponentsOf(i int) []int {
	if s.C.Sides[i].Seat > 0 {
		return []int{s.C.Sides[i].Opp}
	}
	return s.opposers(i)
}

// tokenToBank decides where a player's spent story-token goes: to the bank
// when their card's colour matches their opponent's, else out of play. A
// player whose protagonist isn't in the conflict is judged by the card the
// token is on.
func (s *State) tokenToBank(b Bonus) bool {
	own := s.sideOf(b.From)
	if own < 0 || s.C.Sides[own].Card == nil {
		own = b.On
	}
	mine := s.C.Sides[own].Card
	if mine == nil {
		return false
	}
	for _, o := range s.opponentsOf(own) {
		if theirs := s.C.Sides[o].Card; theirs != nil && colourMatch(*mine, *theirs) {
			return true
		}
	}
	return false
}

// reveal turns the cards over, settles every pair of opponents, moves the
// tokens and talent uses, and opens the narration.
func (s *State) reveal() []games.Event {
	if s.extended() {
		return s.revealRound()
	}
	c := s.C
	s.setTotals()
	c.Clashes = nil
	for _, h := range s.heroSides() {
		if s.clashOf(h, c.Sides[h].Opp) == nil {
			c.Clashes = append(c.Clashes, s.clash(h, c.Sides[h].Opp))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🃏 **Conflict %d — the cards are revealed!**\n", c.No)
	b.WriteString(s.rankingText())
	b.WriteString(s.clashText())
	b.WriteString(s.stakesText())
	b.WriteString(s.settleBonuses())
	for _, seat := range c.Seats {
		s.Heroes[seat].Played = true
	}
	for i := range c.Sides {
		if sd := c.Sides[i]; sd.Card != nil {
			s.Deck.Discard = append(s.Deck.Discard, *sd.Card)
		}
	}
	s.narrationOrder()
	s.Phase = PhaseNarrate
	s.openWindow()
	c.Turn = 0
	for c.Turn < len(c.Order) && s.Gone[c.Order[c.Turn].Seat] {
		c.Turn++
	}
	fmt.Fprintf(&b, "**Narration, losers first:** %s.", s.orderText())
	s.Last = s.resultLine()
	if c.Turn >= len(c.Order) {
		return []games.Event{story(b.String()), s.closeConflict()}
	}
	b.WriteString("\n" + s.promptText())
	return []games.Event{story(b.String())}
}

// setTotals adds up each card in play with its bonuses.
func (s *State) setTotals() {
	for i := range s.C.Sides {
		if sd := &s.C.Sides[i]; sd.Card != nil {
			sd.Total = value(*sd.Card) + bonusValue*s.bonusesOn(i)
		}
	}
}

// cardText shows a revealed side: the card, where it came from, bonuses.
func (s *State) cardText(i int) string {
	sd := s.C.Sides[i]
	if sd.Card == nil {
		return "no card"
	}
	t := sd.Card.String()
	if sd.Deck {
		t += " (deck)"
	}
	tokens, talents := 0, 0
	for _, b := range s.C.Bonuses {
		if b.On == i {
			if b.Talent == "" {
				tokens++
			} else {
				talents++
			}
		}
	}
	if tokens > 0 {
		t += " + " + plural(tokens, "token")
	}
	if talents > 0 {
		t += " + " + plural(talents, "talent")
	}
	return t
}

func (s *State) rankingText() string {
	order := s.inPlay()
	slices.SortStableFunc(order, func(a, b int) int { return s.rank(b, a) })
	var b strings.Builder
	for _, i := range order {
		fmt.Fprintf(&b, "• **%s** — %s = **%d**\n", s.sideName(i), s.cardText(i), s.C.Sides[i].Total)
	}
	return b.String()
}

func (s *State) clashText() string {
	var b strings.Builder
	for _, cl := range s.C.Clashes {
		if cl.Winner < 0 {
			fmt.Fprintf(&b, "⚔️ **%s** and **%s** have both fallen: neither wins.\n", s.sideName(cl.A), s.sideName(cl.B))
			continue
		}
		w, l := cl.Winner, cl.A+cl.B-cl.Winner
		if len(cl.Fate) == 0 {
			how := "higher total"
			switch {
			case s.C.Final && s.isOut(l):
				how = "out of the fight"
			case s.C.Final:
				how = "victory cards"
			case s.C.Sides[l].Card == nil:
				how = "no card"
			case s.C.Sides[w].Total == s.C.Sides[l].Total:
				how = "same total, higher suit"
			}
			fmt.Fprintf(&b, "⚔️ **%s** beats **%s** (%s).\n", s.sideName(w), s.sideName(l), how)
			continue
		}
		fmt.Fprintf(&b, "✋ **The Hand of Fate!** %s and %s are tied.", s.sideName(cl.A), s.sideName(cl.B))
		for _, d := range cl.Fate {
			fmt.Fprintf(&b, " Fate draws %s for %s and %s for %s.", d[0], s.sideName(cl.A), d[1], s.sideName(cl.B))
		}
		fmt.Fprintf(&b, " **%s** wins an especially dramatic victory, beyond the stakes; **%s** suffers a spectacular setback.\n",
			s.sideName(w), s.sideName(l))
	}
	return b.String()
}

// beats reports whether side a won its clash against b.
func (s *State) beats(a, b int) bool {
	cl := s.clashOf(a, b)
	return cl != nil && cl.Winner == a
}

func (s *State) stakesText() string {
	var won, lost, partly, free []string
	for i, sd := range s.C.Sides {
		if s.bystanders(i) {
			continue
		}
		name := s.sideName(i)
		opp := s.opposers(i)
		if sd.Seat > 0 {
			// Other protagonists may oppose this one too: who beats whom
			// decides, as for the robbers of a three-way conflict.
			opp = append([]int{sd.Opp}, slices.DeleteFunc(opp, func(o int) bool { return o == sd.Opp })...)
		} else if len(opp) == 0 {
			free = append(free, name)
			continue
		}
		var beat, beatenBy []string
		for _, h := range opp {
			if s.beats(i, h) {
				beat = append(beat, s.sideName(h))
			} else {
				beatenBy = append(beatenBy, s.sideName(h))
			}
		}
		switch {
		case len(beatenBy) == 0:
			won = append(won, name)
		case len(beat) == 0:
			lost = append(lost, name)
		default:
			partly = append(partly, fmt.Sprintf("%s (beat %s, beaten by %s)", name, joinNames(beat), joinNames(beatenBy)))
		}
	}
	var parts []string
	if len(won) > 0 {
		parts = append(parts, "won: "+joinNames(won))
	}
	if len(partly) > 0 {
		parts = append(parts, "partly: "+strings.Join(partly, "; "))
	}
	if len(lost) > 0 {
		parts = append(parts, "lost: "+joinNames(lost))
	}
	if len(free) > 0 {
		parts = append(parts, "unopposed, so they succeed: "+joinNames(free))
	}
	return "**Stakes** — " + strings.Join(parts, " · ") + "\n"
}

// settleBonuses moves the spent story-tokens and checks off talent uses.
func (s *State) settleBonuses() string {
	type flow struct{ pool, bank, out int }
	flows := map[int]*flow{}
	var seats []int
	var talents []string
	for _, bn := range s.C.Bonuses {
		if bn.Talent != "" {
			h := &s.Heroes[bn.From]
			for i := range h.Talents {
				if strings.EqualFold(h.Talents[i].Name, bn.Talent) && h.Talents[i].Uses > 0 {
					h.Talents[i].Uses--
					h.SessionUses++
					talents = append(talents, fmt.Sprintf("%s checks off %s (%d left; %d of %d this session)",
						s.heroName(bn.From), h.Talents[i].Name, h.Talents[i].Uses, h.SessionUses, s.TalentCap))
					break
				}
			}
			continue
		}
		f := flows[bn.From]
		if f == nil {
			f = &flow{}
			flows[bn.From] = f
			seats = append(seats, bn.From)
		}
		switch {
		case bn.From == 0:
			s.Pool++
			f.pool++
		case s.tokenToBank(bn):
			s.Bank++
			f.bank++
		default:
			s.Spent++
			f.out++
		}
	}
	var b strings.Builder
	if len(seats) > 0 {
		slices.Sort(seats)
		var parts []string
		for _, seat := range seats {
			f := flows[seat]
			if seat == 0 {
				parts = append(parts, fmt.Sprintf("the GM's %d → the pool", f.pool))
				continue
			}
			if f.bank > 0 {
				parts = append(parts, fmt.Sprintf("%s's %d → the bank (colours match)", s.heroName(seat), f.bank))
			}
			if f.out > 0 {
				parts = append(parts, fmt.Sprintf("%s's %d → out of play (colours differ)", s.heroName(seat), f.out))
			}
		}
		b.WriteString("**Story-tokens:** " + strings.Join(parts, " · ") + "\n")
	}
	if len(talents) > 0 {
		b.WriteString("**Talents:** " + strings.Join(talents, " · ") + "\n")
	}
	return b.String()
}

// narrationOrder lists the narrators, losers first: unopposed GM stakes,
// then the cards from the lowest rank to the highest, with consecutive
// sides of one seat narrated in one turn. Every side narrates once: a side
// with a card by its rank, even when the Hand of Fate has just put it (or
// its last opponent) out of the fight; a side left without a card to play
// as the lowest.
func (s *State) narrationOrder() {
	var sides, played []int
	for i, sd := range s.C.Sides {
		switch {
		case s.bystanders(i):
		case sd.Card != nil || s.contested(i):
			played = append(played, i)
		default:
			sides = append(sides, i)
		}
	}
	slices.SortStableFunc(played, s.rank)
	s.setOrder(append(sides, played...))
}

// setOrder makes the narration turns from sides in order, one turn for
// consecutive sides of one seat.
func (s *State) setOrder(sides []int) {
	s.C.Order = nil
	for _, i := range sides {
		seat := s.C.Sides[i].Seat
		if n := len(s.C.Order); n > 0 && s.C.Order[n-1].Seat == seat {
			s.C.Order[n-1].Sides = append(s.C.Order[n-1].Sides, i)
			continue
		}
		s.C.Order = append(s.C.Order, Turn{Seat: seat, Sides: []int{i}})
	}
}

// orderText announces the narration turns in order, without those of
// players who left the table: their turns are skipped.
func (s *State) orderText() string {
	var names []string
	for _, t := range s.C.Order {
		if !s.Gone[t.Seat] {
			names = append(names, s.turnName(t))
		}
	}
	if len(names) == 0 {
		return "nobody"
	}
	return strings.Join(names, " → ")
}

// turnName names a narration turn: "the GM (for Riso)" or "Kit (Bob)".
func (s *State) turnName(t Turn) string {
	if t.Seat == 0 {
		names := make([]string, len(t.Sides))
		for i, x := range t.Sides {
			names[i] = s.sideName(x)
		}
		return "the GM (for " + joinNames(names) + ")"
	}
	return fmt.Sprintf("%s (%s)", s.heroName(t.Seat), s.Players[t.Seat])
}

func (s *State) promptText() string {
	t := s.C.Order[s.C.Turn]
	if t.Seat == 0 {
		return fmt.Sprintf("🎙️ It's the GM's turn to narrate, for %s: /say your lines, then press **Done narrating**.",
			strings.TrimSuffix(strings.TrimPrefix(s.turnName(t), "the GM (for "), ")"))
	}
	return fmt.Sprintf("🎙️ It's **%s**'s turn to narrate (%s): /say your lines, then press **Done narrating**.",
		s.heroName(t.Seat), s.Players[t.Seat])
}

// resultLine is the short account of the reveal for the table.
func (s *State) resultLine() string {
	var parts []string
	for _, cl := range s.C.Clashes {
		if cl.Winner < 0 {
			continue
		}
		w, l := cl.Winner, cl.A+cl.B-cl.Winner
		fate := ""
		if len(cl.Fate) > 0 {
			fate = " by the Hand of Fate"
		}
		parts = append(parts, fmt.Sprintf("%s %d beat %s %d%s", s.sideName(w), s.C.Sides[w].Total,
			s.sideName(l), s.C.Sides[l].Total, fate))
	}
	return fmt.Sprintf("Conflict %d: %s.", s.C.No, strings.Join(parts, "; "))
}

// ---- Narration.

func (s *State) doneNarrating(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseNarrate); err != nil {
		return nil, err
	}
	cur := s.C.Order[s.C.Turn].Seat
	if seat != cur {
		if cur == 0 {
			return nil, games.Refuse("It's the GM's turn to narrate.")
		}
		return nil, games.Refuse("It's %s's turn to narrate.", s.heroName(cur))
	}
	return s.nextNarrator(""), nil
}

func (s *State) skipNarrator(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "skip a narrator"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseNarrate); err != nil {
		return nil, err
	}
	cur := s.C.Order[s.C.Turn].Seat
	if cur == 0 {
		return s.nextNarrator(""), nil
	}
	return s.nextNarrator(fmt.Sprintf("The GM skips %s's narration. ", s.heroName(cur))), nil
}

// nextNarrator ends the current turn and prompts the next narrator, or
// closes the conflict after the last.
func (s *State) nextNarrator(lead string) []games.Event {
	s.C.Turn++
	for s.C.Turn < len(s.C.Order) && s.Gone[s.C.Order[s.C.Turn].Seat] {
		s.C.Turn++
	}
	if s.C.Turn >= len(s.C.Order) {
		if s.extended() && !s.C.Final {
			return s.joinStory(lead, s.nextRound())
		}
		return []games.Event{s.closeConflict()}
	}
	return []games.Event{story(lead + s.promptText())}
}

// skipGone passes over a narrator who left the table.
func (s *State) skipGone() []games.Event {
	if s.C.Turn < len(s.C.Order) && s.Gone[s.C.Order[s.C.Turn].Seat] {
		s.C.Turn--
		return s.nextNarrator("")
	}
	return nil
}

// clearConflict puts the conflict's piles on the discards and refills
// every hand, as after every conflict, also one called off.
func (s *State) clearConflict() {
	for _, sd := range s.C.Sides {
		s.Deck.Discard = append(s.Deck.Discard, sd.Pile...)
		s.Deck.Discard = append(s.Deck.Discard, sd.Got...)
	}
	for seat := 1; seat < len(s.Players); seat++ {
		s.refill(seat)
	}
	s.refill(0)
	s.C = nil
	s.Phase = PhaseIdle
}

// closeConflict ends the conflict: hands are refilled; the award window
// stays open until the next conflict.
func (s *State) closeConflict() games.Event {
	no := s.C.No
	s.clearConflict()
	return story(fmt.Sprintf("📜 **Conflict %d is over.** Hands are refilled. Players: react 🎭 to another player's narration line "+
		"to give them a story-token from the pool (one each, until the next conflict).", no))
}
