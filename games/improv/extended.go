package improv

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Extended conflicts: several rounds, each like a simple conflict; a side
// that beats its opponent in a round keeps its card as a victory card, and
// after the last round the victory piles decide.

// wonRound reports whether side i won this round: a protagonist by beating
// its opponent, a GM stake by beating any protagonist opposing it. A side
// that lost the Hand of Fate lost the round, whatever else it beat: to
// stay in the fight is to "only lose the current round".
func (s *State) wonRound(i int) bool {
	for _, cl := range s.C.Clashes {
		if len(cl.Fate) > 0 && (cl.A == i || cl.B == i) && cl.Winner != i {
			return false
		}
	}
	if s.C.Sides[i].Seat > 0 {
		return s.beats(i, s.C.Sides[i].Opp)
	}
	for _, h := range s.opposers(i) {
		if s.beats(i, h) {
			return true
		}
	}
	return false
}

// revealRound reveals one round of an extended conflict.
func (s *State) revealRound() []games.Event {
	c := s.C
	s.setTotals()
	c.Clashes = nil
	for _, e := range s.edges() {
		if s.contested(e[0]) && s.contested(e[1]) {
			c.Clashes = append(c.Clashes, s.clash(e[0], e[1]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🃏 **Conflict %d, round %d of %d — the cards are revealed!**\n", c.No, c.Round, c.Rounds)
	b.WriteString(s.rankingText())
	b.WriteString(s.clashText())
	var kept, lost []string
	for i := range c.Sides {
		sd := &c.Sides[i]
		if sd.Card == nil {
			continue
		}
		if s.wonRound(i) {
			sd.Pile = append(sd.Pile, *sd.Card)
			kept = append(kept, fmt.Sprintf("%s keeps the %s", s.sideName(i), *sd.Card))
		} else {
			s.Deck.Discard = append(s.Deck.Discard, *sd.Card)
			lost = append(lost, s.sideName(i))
		}
	}
	b.WriteString("**Victory cards:** ")
	if len(kept) > 0 {
		b.WriteString(strings.Join(kept, " · "))
	} else {
		b.WriteString("nobody keeps a card")
	}
	if len(lost) > 0 {
		b.WriteString(" · discarded: " + joinNames(lost))
	}
	b.WriteString("\n")
	b.WriteString(s.settleBonuses())
	c.GMSpent += s.gmPlaced()
	c.Bonuses, c.Pending, c.Ready, c.Aim = nil, nil, nil, nil
	for _, seat := range c.Seats {
		s.Heroes[seat].Played = true
	}
	for _, cl := range c.Clashes {
		if len(cl.Fate) == 0 {
			continue
		}
		loser := cl.A + cl.B - cl.Winner
		sd := &c.Sides[loser]
		if sd.Harmed || slices.Contains(c.FateWait, loser) { // a second loss, also in the same round
			c.FateWait = slices.DeleteFunc(c.FateWait, func(x int) bool { return x == loser })
			sd.Out = outDestroyed
			fmt.Fprintf(&b, "💀 **%s** loses to the Hand of Fate a second time and is **destroyed**: permanently disabled, killed or ruined. "+
				"The victory cards stay, to be given away at the end.\n", s.sideName(loser))
			continue
		}
		c.FateWait = append(c.FateWait, loser)
	}
	s.Last = s.resultLine()
	if len(c.FateWait) > 0 {
		s.Phase = PhaseFate
		names := make([]string, len(c.FateWait))
		for i, x := range c.FateWait {
			names[i] = "**" + s.sideName(x) + "**"
		}
		fmt.Fprintf(&b, "✋ %s lost to the Hand of Fate: leave the fight (eliminated: stakes lost, victory cards removed), "+
			"or stay in, seriously harmed — a second loss destroys.", joinNames(names))
		return []games.Event{story(b.String())}
	}
	return s.joinStory(b.String(), s.afterRound())
}

// joinStory puts text in front of the first story event of ev, keeping one
// story event per move.
func (s *State) joinStory(text string, ev []games.Event) []games.Event {
	if strings.TrimSpace(text) == "" { // no lead: no blank first line
		return ev
	}
	for i := range ev {
		if ev[i].Story {
			ev[i].Text = clip(strings.TrimRight(text, "\n")+"\n"+ev[i].Text, maxEvent)
			return ev
		}
	}
	return append([]games.Event{story(text)}, ev...)
}

// afterRound opens the round's narration, or the gifts after the last round.
func (s *State) afterRound() []games.Event {
	c := s.C
	if c.Round >= c.Rounds {
		return s.beginGifts(0)
	}
	s.narrationOrder()
	// Unopposed GM stakes, and sides out of the fight since an earlier
	// round, narrate only at the end.
	var sides []int
	for _, t := range c.Order {
		for _, i := range t.Sides {
			if c.Sides[i].Card != nil || s.contested(i) {
				sides = append(sides, i)
			}
		}
	}
	s.setOrder(sides)
	s.Phase = PhaseNarrate
	c.Final = false
	s.openWindow()
	c.Turn = 0
	for c.Turn < len(c.Order) && s.Gone[c.Order[c.Turn].Seat] {
		c.Turn++
	}
	if c.Turn >= len(c.Order) {
		return s.nextRound()
	}
	return []games.Event{story(fmt.Sprintf("**Round %d narration, lowest first:** %s.\n%s",
		c.Round, s.orderText(), s.promptText()))}
}

// nextRound clears the table for the next round's cards.
func (s *State) nextRound() []games.Event {
	c := s.C
	c.Round++
	for i := range c.Sides {
		c.Sides[i].Card, c.Sides[i].Deck, c.Sides[i].Total = nil, false, 0
	}
	c.Clashes, c.Order, c.Turn, c.MookHits = nil, nil, 0, nil
	// The round's award window stays open while the next round's cards
	// are played: players award the narration once it is told, as the
	// book's table does between rounds. The next narration settles it.
	fighting := false
	for i := range c.Sides {
		fighting = fighting || s.contested(i)
	}
	if !fighting || c.Round > c.Rounds {
		early := 0
		if c.Round <= c.Rounds {
			early = c.Round - 1
		}
		c.Round = c.Rounds
		return s.beginGifts(early)
	}
	s.Phase = PhaseCards
	ev := []games.Event{story(fmt.Sprintf("⚔️ **Conflict %d, round %d of %d.** Play your cards face down (on your victory pile).",
		c.No, c.Round, c.Rounds))}
	return append(ev, s.progress()...)
}

// ---- The Hand of Fate's choice.

func (s *State) fateSide(seat int) int {
	for _, i := range s.C.FateWait {
		if s.C.Sides[i].Seat == seat {
			return i
		}
	}
	return -1
}

func (s *State) fateStay(seat int, _ games.Action) ([]games.Event, error) {
	return s.fateChoice(seat, false)
}
func (s *State) fateOut(seat int, _ games.Action) ([]games.Event, error) {
	return s.fateChoice(seat, true)
}

func (s *State) fateChoice(seat int, out bool) ([]games.Event, error) {
	if err := s.inPhase(PhaseFate); err != nil {
		return nil, err
	}
	i := s.fateSide(seat)
	if i < 0 {
		return nil, games.Refuse("You have no choice to make: the Hand of Fate didn't go against you.")
	}
	return append([]games.Event{s.decideFate(i, out)}, s.progress()...), nil
}

// decideFate applies the choice of side i after losing to the Hand of Fate.
func (s *State) decideFate(i int, out bool) games.Event {
	c := s.C
	c.FateWait = slices.DeleteFunc(c.FateWait, func(x int) bool { return x == i })
	sd := &c.Sides[i]
	if out {
		sd.Out = outEliminated
		s.Deck.Discard = append(s.Deck.Discard, sd.Pile...)
		s.Deck.Discard = append(s.Deck.Discard, sd.Got...)
		sd.Pile, sd.Got = nil, nil
		return story(fmt.Sprintf("🩸 **%s** is eliminated: badly hurt and out of the conflict. Their stakes are lost and their victory cards removed.",
			s.sideName(i)))
	}
	sd.Harmed = true
	return story(fmt.Sprintf("🩹 **%s** stays in the fight, seriously harmed, and only loses this round. Another loss to the Hand of Fate will destroy them.",
		s.sideName(i)))
}

// ---- Gifts.

// giftsFrom counts the gifts side i has made.
func (s *State) giftsFrom(i int) int {
	n := 0
	for _, g := range s.C.Gifts {
		if g.From == i {
			n++
		}
	}
	return n
}

// canGive reports whether side i may give a victory card now: one of its
// own, once; a destroyed side all of its own, or one random card from the
// deck when it has none.
func (s *State) canGive(i int) bool {
	sd := s.C.Sides[i]
	if sd.Out == outEliminated || len(s.recipients(i)) == 0 {
		return false
	}
	if sd.Out == outDestroyed {
		return len(sd.Pile) > 0 || (s.giftsFrom(i) == 0 && len(s.Deck.Draw)+len(s.Deck.Discard) > 0)
	}
	return s.giftsFrom(i) == 0 && len(sd.Pile) > 0
}

// recipients are the sides i may give to: any other side still in the
// fight, its own kind first (protagonists for a protagonist, NPCs for an NPC).
// A destroyed protagonist gives only to other players' protagonists: its
// sacrifice helps its allies.
func (s *State) recipients(i int) []int {
	var same, other []int
	hero := s.C.Sides[i].Seat > 0
	for j := range s.C.Sides {
		if j == i || s.isOut(j) || s.bystanders(j) {
			continue
		}
		if (s.C.Sides[j].Seat > 0) == hero {
			same = append(same, j)
		} else {
			other = append(other, j)
		}
	}
	if hero && s.C.Sides[i].Out == outDestroyed {
		return same
	}
	return append(same, other...)
}

// giftSeats are the seats the gifts wait for: those with a side that can
// give, or that has given (and may take it back).
func (s *State) giftSeats() []int {
	var out []int
	for i, sd := range s.C.Sides {
		if s.Gone[sd.Seat] || slices.Contains(out, sd.Seat) {
			continue
		}
		if s.canGive(i) || s.giftsFrom(i) > 0 {
			out = append(out, sd.Seat)
		}
	}
	slices.Sort(out)
	return out
}

// giver is the side seat gives from now, or -1.
func (s *State) giver(seat int) int {
	if seat > 0 {
		if i := s.sideOf(seat); i >= 0 && s.canGive(i) {
			return i
		}
		return -1
	}
	if i, ok := s.C.From[0]; ok && i >= 0 && i < len(s.C.Sides) && s.C.Sides[i].Seat == 0 && s.canGive(i) {
		return i
	}
	for _, i := range s.gmSides() {
		if s.canGive(i) {
			return i
		}
	}
	return -1
}

// receiver is the side seat's gift goes to from giver.
func (s *State) receiver(seat, giver int) int {
	rs := s.recipients(giver)
	if i, ok := s.C.Aim[seat]; ok && slices.Contains(rs, i) {
		return i
	}
	if len(rs) == 0 {
		return -1
	}
	return rs[0]
}

func (s *State) canGift(seat int) error {
	if err := s.inPhase(PhaseGifts); err != nil {
		return err
	}
	if s.isReady(seat) {
		return games.Refuse("You're done giving; press Not done to change your mind.")
	}
	return nil
}

func (s *State) giveFrom(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "choose which NPC gives"); err != nil {
		return nil, err
	}
	if err := s.canGift(seat); err != nil {
		return nil, err
	}
	i := atoi(a.Arg(0))
	if i < 0 || i >= len(s.C.Sides) || s.C.Sides[i].Seat != 0 || !s.canGive(i) {
		return nil, games.Refuse("Choose a GM stake that still has a victory card of its own to give.")
	}
	if s.C.From == nil {
		s.C.From = map[int]int{}
	}
	s.C.From[0] = i
	return nil, nil
}

func (s *State) giveTo(seat int, a games.Action) ([]games.Event, error) {
	if err := s.canGift(seat); err != nil {
		return nil, err
	}
	g := s.giver(seat)
	if g < 0 {
		return nil, games.Refuse("You have no victory card of your own left to give.")
	}
	i := atoi(a.Arg(0))
	if !slices.Contains(s.recipients(g), i) {
		return nil, games.Refuse("Give to another side still in the conflict.")
	}
	if s.C.Aim == nil {
		s.C.Aim = map[int]int{}
	}
	s.C.Aim[seat] = i
	return nil, nil
}

func (s *State) give(seat int, a games.Action) ([]games.Event, error) {
	if err := s.canGift(seat); err != nil {
		return nil, err
	}
	g := s.giver(seat)
	if g < 0 {
		if s.sideOf(seat) >= 0 || seat == 0 {
			return nil, games.Refuse("You can give only one victory card, and only one of your own.")
		}
		return nil, games.Refuse("You have no victory cards in this conflict.")
	}
	to := s.receiver(seat, g)
	sd := &s.C.Sides[g]
	gift := Gift{From: g, To: to}
	if a.Arg(0) == "deck" {
		if sd.Out != outDestroyed || len(sd.Pile) > 0 {
			return nil, games.Refuse("Only a destroyed protagonist without victory cards gives a random card from the deck.")
		}
		c, _, ok := s.Deck.Take(&s.RNG)
		if !ok {
			return nil, games.Refuse("There is no card left to draw.")
		}
		gift.Card, gift.Deck = c, true
	} else {
		c, err := games.ParseCard(a.Arg(0))
		if err != nil {
			return nil, games.Refuse("Choose one of your own victory cards.")
		}
		rest, ok := games.Remove(sd.Pile, c)
		if !ok {
			return nil, games.Refuse("That isn't one of %s own victory cards.", poss(s.sideName(g)))
		}
		sd.Pile = rest
		gift.Card = c
	}
	s.C.Sides[to].Got = append(s.C.Sides[to].Got, gift.Card)
	s.C.Gifts = append(s.C.Gifts, gift)
	how := "gives the"
	if gift.Deck {
		how = "gives a random card from the deck,"
	}
	return []games.Event{games.Say("🎁 %s %s %s to %s.", s.sideName(g), how, gift.Card, s.sideName(to))}, nil
}

func (s *State) undoGift(seat int) ([]games.Event, error) {
	if err := s.canGift(seat); err != nil {
		return nil, err
	}
	for k := len(s.C.Gifts) - 1; k >= 0; k-- {
		g := s.C.Gifts[k]
		if s.C.Sides[g.From].Seat != seat {
			continue
		}
		to := &s.C.Sides[g.To]
		to.Got, _ = games.Remove(to.Got, g.Card)
		if g.Deck {
			s.Deck.Draw = append(s.Deck.Draw, g.Card)
		} else {
			s.C.Sides[g.From].Pile = append(s.C.Sides[g.From].Pile, g.Card)
		}
		s.C.Gifts = slices.Delete(s.C.Gifts, k, k+1)
		return []games.Event{games.Say("%s takes back the %s given to %s.", s.sideName(g.From), g.Card, s.sideName(g.To))}, nil
	}
	return nil, games.Refuse("You haven't given a victory card.")
}

// beginGifts ends the last round: the victory piles are shown and each
// side may give a card before the final narration. early is the round
// after which no one was left to fight (0: all rounds were played).
func (s *State) beginGifts(early int) []games.Event {
	c := s.C
	s.Phase = PhaseGifts
	c.Ready, c.Aim, c.From = nil, nil, nil
	s.openWindow()
	var b strings.Builder
	if early > 0 {
		fmt.Fprintf(&b, "🏁 **Conflict %d: no one is left to fight after round %d of %d.** Victory piles:\n", c.No, early, c.Rounds)
	} else {
		fmt.Fprintf(&b, "🏁 **Conflict %d: the last round is over.** Victory piles:\n", c.No)
	}
	b.WriteString(s.pilesText())
	if len(s.giftSeats()) == 0 {
		return s.joinStory(b.String(), s.finalVictory())
	}
	b.WriteString("Before the final narration each side may give **one** of its own victory cards to another side " +
		"(a destroyed protagonist may give all of theirs). Then press **Done giving**.")
	return []games.Event{story(b.String())}
}

// finalPile is side i's victory pile with the cards given to it, highest first.
func (s *State) finalPile(i int) []games.Card {
	p := append(slices.Clone(s.C.Sides[i].Pile), s.C.Sides[i].Got...)
	slices.SortFunc(p, func(a, b games.Card) int {
		return cmp.Or(cmp.Compare(value(b), value(a)), cmp.Compare(suitKey(b), suitKey(a)))
	})
	return p
}

// comparePiles: more cards win; then the highest values in turn; then the
// suits of the highest cards.
func (s *State) comparePiles(a, b int) int {
	pa, pb := s.finalPile(a), s.finalPile(b)
	if len(pa) != len(pb) {
		return len(pa) - len(pb)
	}
	for k := range pa {
		if d := value(pa[k]) - value(pb[k]); d != 0 {
			return d
		}
	}
	for k := range pa {
		if d := suitKey(pa[k]) - suitKey(pb[k]); d != 0 {
			return d
		}
	}
	return 0
}

func (s *State) pilesText() string {
	var b strings.Builder
	for i, sd := range s.C.Sides {
		if !s.contestedEver(i) {
			continue
		}
		status := ""
		switch sd.Out {
		case outEliminated:
			status = " — eliminated"
		case outDestroyed:
			status = " — destroyed"
		}
		fmt.Fprintf(&b, "• **%s**: %s%s\n", s.sideName(i), games.CardList(s.finalPile(i)), status)
	}
	return b.String()
}

// giftsText tells the gifts made, which the piles above include: the
// narrators say how they helped.
func (s *State) giftsText() string {
	var parts []string
	for _, g := range s.C.Gifts {
		how := "the " + g.Card.String()
		if g.Deck {
			how = "a random card from the deck (" + g.Card.String() + ")"
		}
		parts = append(parts, fmt.Sprintf("%s gave %s to %s", s.sideName(g.From), how, s.sideName(g.To)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "🎁 **Gifts:** " + strings.Join(parts, " · ") + "\n"
}

// contestedEver reports whether side i faces anyone in the conflict.
func (s *State) contestedEver(i int) bool {
	for _, e := range s.edges() {
		if e[0] == i || e[1] == i {
			return true
		}
	}
	return false
}

// finalClash settles a pair of opponents by their victory piles.
func (s *State) finalClash(a, b int) Clash {
	cl := Clash{A: a, B: b, Winner: a}
	outA, outB := s.isOut(a), s.isOut(b)
	switch {
	case outA && outB:
		cl.Winner = -1
		return cl
	case outA:
		cl.Winner = b
		return cl
	case outB:
		return cl
	}
	r := s.comparePiles(a, b)
	if r == 0 {
		r = s.fateDraw(&cl)
	}
	if r < 0 {
		cl.Winner = b
	}
	return cl
}

// finalRank orders sides for the final narration: out of the fight first,
// then by victory piles, then the final Hand of Fate.
func (s *State) finalRank(a, b int) int {
	if oa, ob := s.isOut(a), s.isOut(b); oa != ob {
		if oa {
			return -1
		}
		return 1
	}
	if r := s.comparePiles(a, b); r != 0 {
		return r
	}
	if cl := s.clashOf(a, b); cl != nil && cl.Winner >= 0 {
		if cl.Winner == a {
			return 1
		}
		return -1
	}
	return 0
}

// finalVictory compares the victory piles and opens the final narration.
func (s *State) finalVictory() []games.Event {
	c := s.C
	c.Clashes = nil
	c.Final = true
	for _, e := range s.edges() {
		c.Clashes = append(c.Clashes, s.finalClash(e[0], e[1]))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🏆 **Conflict %d — final victory.**\n", c.No)
	b.WriteString(s.pilesText())
	b.WriteString(s.giftsText())
	b.WriteString(s.clashText())
	b.WriteString(s.stakesText())
	var sides []int
	for i := range c.Sides {
		if !s.contestedEver(i) && !s.bystanders(i) {
			sides = append(sides, i)
		}
	}
	ranked := slices.DeleteFunc(func() []int {
		var out []int
		for i := range c.Sides {
			out = append(out, i)
		}
		return out
	}(), func(i int) bool { return !s.contestedEver(i) })
	slices.SortStableFunc(ranked, s.finalRank)
	s.setOrder(append(sides, ranked...))
	s.Phase = PhaseNarrate
	c.Turn = 0
	for c.Turn < len(c.Order) && s.Gone[c.Order[c.Turn].Seat] {
		c.Turn++
	}
	var parts []string
	for _, cl := range c.Clashes {
		if cl.Winner >= 0 {
			l := cl.A + cl.B - cl.Winner
			parts = append(parts, fmt.Sprintf("%s beat %s", s.sideName(cl.Winner), s.sideName(l)))
		}
	}
	s.Last = fmt.Sprintf("Conflict %d, final: %s.", c.No, strings.Join(parts, "; "))
	fmt.Fprintf(&b, "**Final narration, losers first:** %s.", s.orderText())
	if c.Turn >= len(c.Order) {
		return []games.Event{story(b.String()), s.closeConflict()}
	}
	b.WriteString("\n" + s.promptText())
	return []games.Event{story(b.String())}
}

// ---- Mooks.

var mookRe = regexp.MustCompile(`(?i)^(.*?)\s*\((\d+)\s*mooks?\)$`)

// mookTargets are the mook groups seat's protagonist may take one out of
// now: during a round's narration (not the last), on their turn, once a
// round, when their card total beat the group's this round, and while more
// than one mook would remain; mooks without a stake whatever the total.
func (s *State) mookTargets(seat int) []int {
	if s.mookProblem(seat, -1) != "" {
		return nil
	}
	var out []int
	for _, m := range s.gmSides() {
		if s.mookProblem(seat, m) == "" {
			out = append(out, m)
		}
	}
	return out
}

// mookProblem says why seat can't take a mook out of side m (-1: any).
func (s *State) mookProblem(seat, m int) string {
	h := s.sideOf(seat)
	switch {
	case !s.extended() || s.Phase != PhaseNarrate || s.C.Final:
		return "Mooks are taken out during the round narrations of an extended conflict."
	case h < 0 || s.C.Sides[h].Card == nil:
		return "Only a protagonist who played a card this round can take out a mook."
	case s.C.Order[s.C.Turn].Seat != seat:
		return "Take out a mook while you narrate."
	case slices.Contains(s.C.MookHits, seat):
		return "You've already taken out a mook this round."
	case m < 0:
		return ""
	case m >= len(s.C.Sides) || s.C.Sides[m].Seat != 0 || s.C.Sides[m].Mooks == 0 && !s.bystanders(m):
		return "That isn't a group of mooks."
	case s.bystanders(m) && s.C.Sides[m].Mooks == 0:
		return fmt.Sprintf("None of the %s is left standing.", s.sideName(m))
	case s.bystanders(m): // no stake: they fall whatever the total
		return ""
	case s.C.Sides[m].Card == nil || s.rank(h, m) <= 0:
		return fmt.Sprintf("Your card total has to beat the %s card this round.", poss(s.sideName(m)))
	case s.C.Sides[m].Mooks <= 1:
		return fmt.Sprintf("The last of the %s stays standing until the end: enough must remain to pursue their stake.", s.sideName(m))
	}
	return ""
}

func (s *State) takeOutMook(seat int, a games.Action) ([]games.Event, error) {
	m := atoi(a.Arg(0))
	if m < 0 {
		return nil, games.Refuse("That isn't a group of mooks.")
	}
	if p := s.mookProblem(seat, m); p != "" {
		return nil, games.Refuse("%s", p)
	}
	s.C.Sides[m].Mooks--
	s.C.MookHits = append(s.C.MookHits, seat)
	return []games.Event{games.Say("💥 %s takes out one of the %s (%d left).", s.heroName(seat), s.sideName(m), s.C.Sides[m].Mooks)}, nil
}
