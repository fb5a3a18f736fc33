package duel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Table is the public view: sizes, discards, damage and the exchange, never
// what is in a hand or what a player is picking. Each fact is shown once.
func (s *State) Table() games.View {
	v := games.View{
		Title:  fmt.Sprintf("Card Duel — %s vs %s", s.Names[0], s.Names[1]),
		Footer: fmt.Sprintf("Life %d · hand limit %d · a defense equal to the attack stops it", s.Life, s.HandLimit),
	}
	if s.Phase == PhaseBuild {
		var lines []string
		for seat, p := range s.Players {
			state := "still choosing a hand"
			if p.Locked {
				state = "✅ locked in"
			}
			lines = append(lines, fmt.Sprintf("**%s**: %s", s.Names[seat], state))
		}
		v.Description = fmt.Sprintf("Each player is building a hand worth at most %d from their 26 cards, in secret.\n%s",
			s.HandLimit, strings.Join(lines, "\n"))
		return v
	}
	var lines []string
	switch s.Phase {
	case PhasePlay:
		lines = append(lines,
			fmt.Sprintf("**%s** is on offense ⚔️, **%s** on defense 🛡️.", s.Names[s.Offense], s.Names[1-s.Offense]))
		if s.Step == StepAttack {
			lines = append(lines, "➡️ "+s.stepLine()+".")
		}
		if s.Last != "" {
			lines = append(lines, "Last: "+s.Last)
		}
	case PhaseOver:
		lines = append(lines, s.resultLine()+" "+s.End,
			fmt.Sprintf("Score = damage dealt: %s · %s", s.scoreTerms(s.Winner), s.scoreTerms(1-s.Winner)))
	}
	v.Description = strings.Join(lines, "\n")
	for seat := range s.Players {
		v.Fields = append(v.Fields, games.Field{Name: s.sideTitle(seat), Value: s.sidePublic(seat), Inline: true})
	}
	if s.Attack != nil {
		v.Fields = append(v.Fields, games.Field{Name: "Exchange in progress", Value: s.exchange()})
	}
	return v
}

// exchange shows the cards of the exchange and the move it waits for.
func (s *State) exchange() string {
	att, def := s.Names[s.Offense], s.Names[1-s.Offense]
	ex := fmt.Sprintf("Attack: **%s** (%d) by %s\nDefense: ", *s.Attack, value(*s.Attack), att)
	if s.Defense == nil {
		return ex + fmt.Sprintf("➡️ %s must answer it", def)
	}
	return ex + fmt.Sprintf("**%s** (%d) by %s — it got through: ➡️ %s must deal damage", *s.Defense, value(*s.Defense), def, att)
}

// exchangeLine is the exchange on the table and the move it waits for.
func (s *State) exchangeLine() string {
	att, def := s.Names[s.Offense], s.Names[1-s.Offense]
	switch s.Step {
	case StepDefend:
		return fmt.Sprintf("%s must answer %s's %s (%d)", def, att, *s.Attack, value(*s.Attack))
	case StepDamage:
		return fmt.Sprintf("%s's %s (%d) got through %s's %s (%d): %s must deal damage to %s",
			att, *s.Attack, value(*s.Attack), def, *s.Defense, value(*s.Defense), att, def)
	}
	return s.stepLine()
}

// resultLine says who won the duel and by how much damage.
func (s *State) resultLine() string {
	w := s.Winner
	return fmt.Sprintf("🏆 **%s wins the duel, %d damage to %d.**", s.Names[w],
		total(s.Players[1-w].Damage), total(s.Players[w].Damage))
}

// scoreTerms is one seat's score with every damage card that makes it up:
// "Ann 25 (A♠ 11 + K♦ 10 + 4♣ 4)".
func (s *State) scoreTerms(seat int) string {
	dealt := s.Players[1-seat].Damage
	if len(dealt) == 0 {
		return fmt.Sprintf("%s **0** (no damage)", s.Names[seat])
	}
	terms := make([]string, len(dealt))
	for i, c := range dealt {
		terms[i] = fmt.Sprintf("%s %d", c, value(c))
	}
	return fmt.Sprintf("%s **%d** (%s)", s.Names[seat], total(dealt), strings.Join(terms, " + "))
}

// sideTitle names a seat with its role.
func (s *State) sideTitle(seat int) string {
	if s.Phase != PhasePlay {
		if s.Phase == PhaseOver && s.Winner == seat {
			return "🏆 " + s.Names[seat]
		}
		return s.Names[seat]
	}
	if seat == s.Offense {
		return "⚔️ " + s.Names[seat]
	}
	return "🛡️ " + s.Names[seat]
}

// sidePublic is what everyone may know about a seat, in three short lines.
// Once the duel is over the damage is in the score line instead.
func (s *State) sidePublic(seat int) string {
	p := s.Players[seat]
	piles := fmt.Sprintf("Hand: %d · Deck: %d", len(p.Hand), len(p.Deck))
	discard := "Discard: —"
	if len(p.Discard) > 0 {
		discard = "Discard (top last): " + games.CardList(p.Discard)
	}
	if s.Phase == PhaseOver {
		return piles + fmt.Sprintf(" · Discard: %d", len(p.Discard))
	}
	dmg := fmt.Sprintf("Damage: **%d / %d**", total(p.Damage), s.Life)
	if len(p.Damage) > 0 {
		dmg += " (" + games.CardList(p.Damage) + ")"
	}
	return dmg + "\n" + piles + "\n" + discard
}

// cardCount writes "1 card", "5 cards".
func cardCount(n int) string {
	if n == 1 {
		return "1 card"
	}
	return fmt.Sprintf("%d cards", n)
}

// Hand is one seat's private view: the cards in hand and the move to make,
// with the controls for it. The public status is on the table only.
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Players) {
		return games.View{Title: "Card Duel", Description: "You are not playing in this duel."}
	}
	if s.Phase == PhaseBuild {
		return s.buildHand(seat)
	}
	p := s.Players[seat]
	v := games.View{Title: "Your cards — Card Duel"}
	v.Fields = []games.Field{
		{Name: fmt.Sprintf("Hand (%s, worth %d)", cardCount(len(p.Hand)), total(p.Hand)), Value: games.CardList(p.Hand)},
	}
	switch {
	case s.Phase == PhaseOver:
		v.Description = "The duel is over. " + s.resultLine()
	case s.actor() != seat:
		v.Description = fmt.Sprintf("It's %s's move: %s.", s.Names[s.actor()], s.exchangeLine())
	default:
		v.Description = s.moveHelp(seat)
		v.Buttons = s.moveButtons(seat)
	}
	return v
}

// moveHelp tells the player to move what the move is.
func (s *State) moveHelp(seat int) string {
	var line string
	switch s.Step {
	case StepAttack:
		line = fmt.Sprintf("**Your move: attack %s.** Play a card from your hand or the top of your deck.", s.Names[1-seat])
	case StepDefend:
		line = fmt.Sprintf("**Your move: %s attacks with %s (%d).** Answer with a card worth %d or more to stop it; anything lower lets it through.",
			s.Names[1-seat], *s.Attack, value(*s.Attack), value(*s.Attack))
	default:
		line = fmt.Sprintf("**Your attack got through: deal damage to %s.** The card's value is the damage (%d of %d taken so far).",
			s.Names[1-seat], total(s.Players[1-seat].Damage), s.Life)
	}
	p := s.Players[seat]
	switch {
	case len(p.Hand) == 0 && len(p.Deck) > 0:
		line += "\nYour hand is empty, so you play from the top of your deck."
	case len(p.Deck) == 0 && len(p.Discard) > 0 && len(p.Hand) > 0:
		line += "\nYour deck is empty: play from your hand, or shuffle your discard pile into a new deck and play its top card."
	case len(p.Deck) == 0 && len(p.Discard) > 0:
		line += "\nYour hand and deck are empty: shuffle your discard pile into a new deck and play its top card."
	case len(p.Deck) == 0:
		line += "\nYour deck and discard pile are empty: play from your hand."
	}
	return line
}

// moveButtons offers one button per distinct value in the hand (cards of the
// same value act the same; the first in hand order is played), plus the deck
// or the reshuffle. At most 10 values + 1 = 11 buttons, 3 rows.
func (s *State) moveButtons(seat int) []games.Button {
	p := s.Players[seat]
	var out []games.Button
	for i := 0; i < len(p.Hand); {
		c, n := p.Hand[i], 0
		for i < len(p.Hand) && value(p.Hand[i]) == value(c) {
			i, n = i+1, n+1
		}
		b := games.Button{Action: games.Act(VerbHand, c.Code()), Style: games.Primary}
		vn := valueName(value(c))
		switch s.Step {
		case StepAttack:
			b.Label = fmt.Sprintf("Attack with %s (×%d)", vn, n)
		case StepDefend:
			b.Label = fmt.Sprintf("Defend with %s (×%d)", vn, n)
			if value(c) >= value(*s.Attack) {
				b.Style = games.Success
			} else {
				b.Style = games.Secondary
			}
		default:
			b.Label = fmt.Sprintf("Deal %s damage (×%d)", vn, n)
			b.Style = games.Danger
		}
		out = append(out, b)
	}
	switch {
	case len(p.Deck) > 0:
		out = append(out, games.Button{Label: fmt.Sprintf("Top of deck (%d left)", len(p.Deck)), Action: games.Act(VerbDeck), Forced: true})
	case len(p.Discard) > 0:
		out = append(out, games.Button{Label: fmt.Sprintf("Reshuffle discards (%d) & play top", len(p.Discard)), Action: games.Act(VerbReshuffle), Forced: true})
	}
	return out
}

func valueName(v int) string {
	if v == 11 {
		return "A (11)"
	}
	return fmt.Sprint(v)
}

// buildHand is the private hand-building view.
func (s *State) buildHand(seat int) games.View {
	p := s.Players[seat]
	v := games.View{Title: "Build your hand — Card Duel"}
	if p.Locked {
		v.Description = fmt.Sprintf("You locked in your hand (worth %d of %d). The other %s form your deck.\n⏳ Waiting for %s to finish building.",
			total(p.Hand), s.HandLimit, cardCount(len(p.Deck)), s.waitingNames())
		v.Fields = []games.Field{{Name: "Hand (" + cardCount(len(p.Hand)) + ")", Value: games.CardList(p.Hand)}}
		return v
	}
	t := total(p.Picks)
	status := fmt.Sprintf("**Picked: %s worth %d / %d.**", cardCount(len(p.Picks)), t, s.HandLimit)
	if t > s.HandLimit {
		status += fmt.Sprintf(" ⚠️ %d over the limit: drop some cards to lock in.", t-s.HandLimit)
	}
	v.Description = fmt.Sprintf("Choose the cards for your hand: together worth at most %d (2–10 as printed, J/Q/K 10, A 11). "+
		"The rest become your shuffled deck. An empty hand is allowed. Locking in is final.\n%s", s.HandLimit, status)
	v.Fields = []games.Field{
		{Name: "Your pool (26 cards)", Value: games.CardList(p.Pool)},
		{Name: "Your picks", Value: games.CardList(p.Picks)},
	}
	for h, verb := range []string{VerbPickA, VerbPickB} {
		part := p.half(h)
		if len(part) == 0 {
			continue
		}
		ch := games.Choice{
			Verb:        verb,
			Placeholder: fmt.Sprintf("Pick from %s … %s", part[0], part[len(part)-1]),
			Min:         0,
			Max:         len(part),
		}
		for _, c := range part {
			ch.Options = append(ch.Options, games.ChoiceOption{
				Value:       c.Code(),
				Label:       c.String(),
				Description: fmt.Sprintf("worth %d", value(c)),
				Default:     slices.Contains(p.Picks, c),
			})
		}
		v.Choices = append(v.Choices, ch)
	}
	if t > s.HandLimit {
		v.Away = s.trimPicks(seat)
	}
	v.Buttons = []games.Button{
		{Label: fmt.Sprintf("Lock in hand (%d/%d)", t, s.HandLimit), Action: games.Act(VerbLock), Style: games.Success, Disabled: t > s.HandLimit},
		{Label: "Clear", Action: games.Act(VerbClear), Style: games.Secondary},
	}
	return v
}

// trimPicks is the bot's move for a player away with picks over the limit,
// where the first enabled button, Clear, would throw them all away: drop
// picks of one half until the hand fits (or that half is empty); Lock
// in is then the next deadline's move.
func (s *State) trimPicks(seat int) *games.Action {
	p := &s.Players[seat]
	top := slices.MaxFunc(p.Picks, func(a, b games.Card) int { return value(a) - value(b) })
	h := 0
	if !slices.Contains(p.half(0), top) {
		h = 1
	}
	var keep []games.Card
	for _, c := range p.Picks {
		if slices.Contains(p.half(h), c) {
			keep = append(keep, c)
		}
	}
	// Drop the cheapest pick that covers the excess, else the dearest and
	// go on, so the hand keeps as much of what they chose as fits.
	for over := total(p.Picks) - s.HandLimit; over > 0 && len(keep) > 0; {
		i := -1
		for j, c := range keep {
			if value(c) >= over && (i < 0 || value(c) < value(keep[i])) {
				i = j
			}
		}
		if i < 0 {
			i = slices.Index(values(keep), slices.Max(values(keep)))
		}
		over -= value(keep[i])
		keep = slices.Delete(keep, i, i+1)
	}
	a := games.Act([]string{VerbPickA, VerbPickB}[h])
	for _, c := range keep {
		a.Args = append(a.Args, c.Code())
	}
	return &a
}

func values(cs []games.Card) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = value(c)
	}
	return out
}
