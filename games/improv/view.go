package improv

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cardtable/cardbot/games"
)

var phaseNames = map[string]string{
	PhaseFate:    "the Hand of Fate",
	PhaseGifts:   "victory cards",
	PhaseSetup:   "setting up",
	PhaseStakes:  "stakes",
	PhaseCards:   "playing cards",
	PhaseBonus:   "bonuses",
	PhaseNarrate: "narration",
}

// Table is the public view: protagonists, tokens, the pool and the bank,
// and the conflict with its stakes and bonuses, never a card before the
// reveal.
func (s *State) Table() games.View {
	v := games.View{
		Title:  fmt.Sprintf("%s — session %d", gameName, s.Session),
		Footer: fmt.Sprintf("Deck %d · discards %d · out of play %d · talent cap %d per session", len(s.Deck.Draw), len(s.Deck.Discard), s.Spent, s.TalentCap),
	}
	if s.Lethal {
		v.Footer += " · lethal Hand of Fate"
	}
	if s.C != nil {
		v.Title += fmt.Sprintf(" · conflict %d", s.C.No)
		if s.extended() && s.Phase != PhaseSetup && s.Phase != PhaseStakes {
			v.Title += fmt.Sprintf(" (round %d of %d)", s.C.Round, s.C.Rounds)
		}
		v.Title += ": " + phaseNames[s.Phase]
		if s.Phase == PhaseNarrate && s.C.Final {
			v.Title += " (final)"
		}
	}
	if s.Phase == PhaseOver {
		v.Title += " · the end"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GM **%s**: %s · pool %d · bank %d\n", s.Players[0], plural(s.Tokens[0], "story-token"), s.Pool, s.Bank)
	for seat := 1; seat < len(s.Players); seat++ {
		if s.Gone[seat] {
			fmt.Fprintf(&b, "~~%s (%s)~~ left\n", s.heroName(seat), s.Players[seat])
			continue
		}
		mark := ""
		if slices.Contains(s.ToAct(), seat) {
			mark = "▶ "
		}
		fmt.Fprintf(&b, "%s**%s** (%s) · %s\n", mark, s.heroName(seat), s.Players[seat], plural(s.Tokens[seat], "token"))
	}
	if s.Last != "" {
		b.WriteString("Last: " + s.Last)
	}
	v.Description = strings.TrimSpace(b.String())
	if s.C != nil {
		v.Fields = s.conflictFields()
	}
	return v
}

// conflictFields shows the conflict: the stakes, who plays what, bonuses.
func (s *State) conflictFields() []games.Field {
	c := s.C
	var gm, heroes []string
	for i, sd := range c.Sides {
		line := "• **" + s.sideName(i) + "**"
		if sd.Mooks > 0 {
			line += " (" + plural(sd.Mooks, "mook") + ")"
		}
		if sd.Seat > 0 && sd.Opp >= 0 {
			line += " vs " + s.sideName(sd.Opp)
		}
		stake := clip(sd.Stake, 60)
		if s.bystanders(i) {
			stake = "*bystanders, no stake*"
		} else if stake == "" {
			stake = "*(writing a stake…)*"
		}
		line += ": " + stake
		switch {
		case s.Phase != PhaseSetup && s.Phase != PhaseStakes:
			if st := s.sideStatus(i); st != "" {
				line += " — " + st
			}
		}
		if sd.Seat == 0 {
			gm = append(gm, line)
		} else {
			heroes = append(heroes, line)
		}
	}
	var out []games.Field
	switch s.Phase {
	case PhaseSetup:
		names := make([]string, len(c.Seats))
		for i, p := range c.Seats {
			names[i] = s.heroName(p)
		}
		who := "*(the GM is choosing)*"
		if len(names) > 0 {
			who = joinNames(names)
		}
		out = append(out, games.Field{Name: "Taking part", Value: who})
	}
	if len(gm) > 0 {
		out = append(out, games.Field{Name: "GM stakes", Value: clip(strings.Join(gm, "\n"), 1000)})
	}
	if len(heroes) > 0 {
		out = append(out, games.Field{Name: "Protagonists' stakes", Value: clip(strings.Join(heroes, "\n"), 1000)})
	}
	if st := s.statusLine(); st != "" {
		out = append(out, games.Field{Name: "Now", Value: st})
	}
	return out
}

// sideStatus shows a side's card (face down until the reveal) and bonuses.
func (s *State) sideStatus(i int) string {
	sd := s.C.Sides[i]
	pile := ""
	if s.extended() {
		if p := s.finalPile(i); len(p) > 0 {
			pile = " · 🏆 " + games.CardList(p)
		}
	}
	switch {
	case sd.Out != "":
		return "*" + sd.Out + "*" + pile
	case s.bystanders(i):
		return ""
	case !s.contestedEver(i):
		return "*unopposed: succeeds*"
	case s.Phase == PhaseGifts || (s.Phase == PhaseNarrate && s.C.Final):
		return strings.TrimPrefix(pile, " · ")
	case !s.contested(i):
		return "*no opponent left in the fight*" + pile
	case s.Phase == PhaseNarrate || s.Phase == PhaseFate:
		if sd.Card == nil {
			return "no card" + pile
		}
		return fmt.Sprintf("total **%d**", sd.Total) + pile
	case sd.Card == nil:
		return "no card yet" + pile
	}
	if sd.Harmed {
		pile += " · harmed"
	}
	t := "🂠"
	if sd.Deck {
		t += " (deck)"
	}
	if n := s.bonusesOn(i); n > 0 {
		t += fmt.Sprintf(" +%d (%s)", n*bonusValue, s.bonusList(i))
	}
	if s.Phase == PhaseBonus && s.isReady(sd.Seat) {
		t += " ✅"
	}
	return t + pile
}

// bonusList names who put what on side i's card.
func (s *State) bonusList(i int) string {
	var parts []string
	for _, b := range s.C.Bonuses {
		if b.On != i {
			continue
		}
		who := "GM"
		if b.From > 0 {
			who = s.heroName(b.From)
		}
		if b.Talent != "" {
			parts = append(parts, who+": "+b.Talent)
		} else {
			parts = append(parts, who+": token")
		}
	}
	return strings.Join(parts, ", ")
}

// statusLine says what the conflict waits for.
func (s *State) statusLine() string {
	names := func(seats []int) string {
		var out []string
		for _, p := range seats {
			if p == 0 {
				out = append(out, "the GM")
			} else {
				out = append(out, s.heroName(p))
			}
		}
		return joinNames(out)
	}
	switch s.Phase {
	case PhaseSetup:
		return "The GM chooses the protagonists taking part and declares the GM's stakes."
	case PhaseStakes:
		if p := s.stakesProblem(); p != "" {
			return p
		}
		return "All stakes are in; the GM starts the card play."
	case PhaseCards:
		return "Waiting for cards from " + names(s.ToAct()) + "."
	case PhaseBonus:
		return fmt.Sprintf("Bonuses +%d each. GM tokens used %d of %d. Waiting for %s to be ready.",
			bonusValue, s.gmUsed(), s.gmLimit(), names(s.ToAct()))
	case PhaseFate:
		return "Waiting for " + names(s.ToAct()) + " to choose: leave the fight, or stay in seriously harmed."
	case PhaseGifts:
		return "Each side may give one of its own victory cards before the final narration. Waiting for " + names(s.ToAct()) + "."
	case PhaseNarrate:
		if s.C.Turn < len(s.C.Order) {
			return "Narrating: " + s.turnName(s.C.Order[s.C.Turn]) + "."
		}
	}
	return ""
}

// Hand is one seat's private view with its controls.
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Players) {
		return games.View{Title: gameName, Description: "You don't have a seat in this campaign."}
	}
	if s.Gone[seat] {
		return games.View{Title: gameName, Description: "You've left this campaign."}
	}
	if seat == 0 {
		return s.gmHand()
	}
	return s.playerHand(seat)
}

func sortedCards(cs []games.Card) []games.Card {
	out := slices.Clone(cs)
	slices.SortFunc(out, func(a, b games.Card) int {
		return cmp.Or(cmp.Compare(value(a), value(b)), cmp.Compare(suitKey(a), suitKey(b)), cmp.Compare(a.Suit, b.Suit))
	})
	return out
}

// myCards describes the cards seat has on the table this round.
func (s *State) myCards(seat int) string {
	if s.C == nil || (s.Phase != PhaseCards && s.Phase != PhaseBonus) {
		return ""
	}
	var parts []string
	for i, sd := range s.C.Sides {
		if sd.Seat != seat || sd.Card == nil {
			continue
		}
		c := sd.Card.String()
		if sd.Deck {
			c = "🂠 from the deck, unseen"
		}
		t := c
		if seat == 0 {
			t = sd.Name + ": " + c
		}
		if n := s.bonusesOn(i); n > 0 {
			t += fmt.Sprintf(" +%d", n*bonusValue)
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return ""
	}
	return "**Face down:** " + strings.Join(parts, " · ")
}

func (s *State) playChoice(seat int) *games.Choice {
	i := s.nextUnplayed(seat)
	if s.Phase != PhaseCards || i < 0 {
		return nil
	}
	ph := "Play your card face down"
	if seat == 0 {
		ph = "Card for " + s.C.Sides[i].Name + ", face down"
	}
	ch := &games.Choice{Verb: "play", Placeholder: ph, Min: 1, Max: 1}
	for _, c := range sortedCards(s.Hands[seat]) {
		ch.Options = append(ch.Options, games.ChoiceOption{Value: c.Code(), Label: c.String()})
	}
	ch.Options = append(ch.Options, games.ChoiceOption{Value: "deck", Label: "Top of the deck (unseen)"})
	return ch
}

func (s *State) aimChoice(seat int) *games.Choice {
	p := s.inPlay()
	if s.Phase != PhaseBonus || len(p) < 2 || s.isReady(seat) {
		return nil
	}
	cur := s.aimOf(seat)
	ch := &games.Choice{Verb: "aim", Placeholder: "Bonuses go on " + poss(s.sideName(cur)) + " card", Min: 1, Max: 1}
	for _, i := range p {
		label := poss(s.sideName(i)) + " card"
		if i == s.sideOf(seat) {
			label = "My card (" + s.sideName(i) + ")"
		} else if s.C.Sides[i].Seat == 0 {
			label += " (GM)"
		}
		ch.Options = append(ch.Options, games.ChoiceOption{Value: itoa(i), Label: clip(label, 100), Default: i == cur})
	}
	return ch
}

// bonusButtons are the token, undo and ready buttons of the bonus phase.
func (s *State) bonusButtons(seat int) []games.Button {
	var out []games.Button
	if s.Phase != PhaseBonus {
		return nil
	}
	ready := s.isReady(seat)
	if !ready {
		if on := s.aimOf(seat); on >= 0 && s.Tokens[seat] > 0 && (seat != 0 || s.gmRoom() > 0) {
			out = append(out, games.Button{Label: clip("+1 story-token on "+poss(s.sideName(on))+" card", 80),
				Action: games.Act("token"), Style: games.Primary})
		}
		mine := false
		for _, b := range s.C.Bonuses {
			mine = mine || b.From == seat
		}
		if _, pending := s.C.Pending[seat]; mine || pending {
			out = append(out, games.Button{Label: "Take back my last bonus", Action: games.Act("undo")})
		}
	}
	if slices.Contains(s.readySeats(), seat) {
		if ready {
			out = append(out, games.Button{Label: "Not ready", Action: games.Act("unready")})
		} else if _, pending := s.C.Pending[seat]; !pending {
			out = append(out, games.Button{Label: "Ready — reveal when all are", Action: games.Act("ready"), Style: games.Success})
		}
	}
	return out
}

func (s *State) gmHand() games.View {
	v := games.View{Title: "GM screen — " + s.Players[0]}
	var b strings.Builder
	fmt.Fprintf(&b, "**Your hand:** %s\n", games.CardList(sortedCards(s.Hands[0])))
	fmt.Fprintf(&b, "**Story-tokens:** %d · bank %d · pool %d\n", s.Tokens[0], s.Bank, s.Pool)
	if s.C != nil && s.Phase != PhaseNarrate && s.Phase != PhaseFate && s.Phase != PhaseGifts {
		if s.Phase == PhaseSetup || s.Phase == PhaseStakes {
			fmt.Fprintf(&b, "**Limits:** at most %s (one per protagonist taking part); ", plural(max(len(s.C.Seats), 1), "GM stake"))
		} else {
			b.WriteString("**Limits:** ")
		}
		if s.C.GMStart == 0 && s.extended() && (s.Phase == PhaseSetup || s.Phase == PhaseStakes) {
			fmt.Fprintf(&b, "an extended conflict allows 2 story-tokens + 2 per protagonist + 2 per round beyond 3, at most the %d you hold.\n", s.Tokens[0])
		} else {
			fmt.Fprintf(&b, "%d of %d story-tokens left to use this conflict", max(min(s.gmLimit()-s.gmUsed(), s.Tokens[0]), 0), s.gmLimit())
			if s.extended() {
				fmt.Fprintf(&b, ", at most %d a round", s.gmRoundLimit())
			}
			b.WriteString(".\n")
		}
		if m := s.myCards(0); m != "" {
			b.WriteString(m + "\n")
		}
	}
	if s.C != nil {
		if st := s.statusLine(); st != "" {
			b.WriteString(st + "\n")
		}
	}
	v.Description = strings.TrimSpace(b.String())
	bank := games.Button{Label: fmt.Sprintf("Take the bank (%d)", s.Bank), Action: games.Act("bank")}
	kit := games.Button{Label: "Adjust talents", Action: games.Act("kit"),
		Ask: &games.Ask{Title: "Adjust a protagonist's talent", Label: "Protagonist: talent and uses (0 removes)",
			Placeholder: "Kit: Kung fu 4", MaxLen: 100}}
	cancel := games.Button{Label: "Call off the conflict", Action: games.Act("cancel"), Style: games.Danger}
	add := func(bs ...games.Button) { v.Buttons = append(v.Buttons, bs...) }
	switch s.Phase {
	case PhaseIdle:
		add(games.Button{Label: "Open a conflict", Action: games.Act("open"), Style: games.Primary},
			games.Button{Label: fmt.Sprintf("New session (now %d)", s.Session), Action: games.Act("session")})
		if s.Bank > 0 {
			add(bank)
		}
		add(kit, games.Button{Label: "End the campaign…", Action: games.Act("end"), Style: games.Danger,
			Ask: &games.Ask{Title: "End the campaign for good?", Label: "Type END to confirm", Placeholder: "END", MaxLen: 10}})
	case PhaseSetup:
		ch := games.Choice{Verb: "who", Placeholder: "Protagonists taking part", Min: 1}
		for seat := 1; seat < len(s.Players); seat++ {
			if s.seated(seat) {
				ch.Options = append(ch.Options, games.ChoiceOption{Value: itoa(seat),
					Label: clip(s.heroName(seat)+" ("+s.Players[seat]+")", 100), Default: slices.Contains(s.C.Seats, seat)})
			}
		}
		ch.Max = len(ch.Options)
		if len(ch.Options) > 0 {
			v.Choices = append(v.Choices, ch)
		}
		rounds := games.Choice{Verb: "rounds", Placeholder: "Simple conflict (one round)", Min: 1, Max: 1}
		for n := 1; n <= maxRounds; n++ {
			label := "Simple conflict (one round)"
			if n > 1 {
				label = fmt.Sprintf("Extended conflict, %d rounds", n)
			}
			if n == s.C.Rounds {
				rounds.Placeholder = label
			}
			rounds.Options = append(rounds.Options, games.ChoiceOption{Value: itoa(n), Label: label, Default: n == s.C.Rounds})
		}
		v.Choices = append(v.Choices, rounds)
		if full := len(s.gmStakes()) >= len(s.C.Seats); full && len(s.C.Seats) > 0 {
			// Stakeless mooks count against no limit.
			add(games.Button{Label: "Add mooks without a stake", Action: games.Act("gmstake"),
				Ask: &games.Ask{Title: "Mooks without a stake", Label: "Who, and how many", Placeholder: "Patrons (6 mooks)", MaxLen: maxName + 12}})
		} else {
			add(games.Button{Label: "Add a GM stake", Action: games.Act("gmstake"), Disabled: full, Style: games.Primary,
				Ask: &games.Ask{Title: "A GM stake", Label: "NPC or group: what they want", Placeholder: "Riso: gun down Vinny and get away", MaxLen: maxName + maxStake + 2}})
		}
		if len(s.gmSides()) > 0 {
			add(games.Button{Label: "Remove the last GM stake", Action: games.Act("unstake")})
		}
		add(games.Button{Label: "Stakes declared: players' turn", Action: games.Act("declare"), Style: games.Success,
			Disabled: s.declareProblem() != ""}, cancel, kit)
	case PhaseStakes:
		problem := s.stakesProblem()
		add(games.Button{Label: "Start the card play", Action: games.Act("cards"), Style: games.Success, Disabled: problem != ""})
		if problem != "" {
			add(games.Button{Label: "Hurry: fill in what's missing", Action: games.Act("hurry")})
		}
		add(cancel, kit)
	case PhaseCards:
		if ch := s.playChoice(0); ch != nil {
			v.Choices = append(v.Choices, *ch)
		}
		if s.myCards(0) != "" {
			add(games.Button{Label: "Take back my cards", Action: games.Act("unplay")})
		}
		add(games.Button{Label: "Hurry: deck cards for the rest", Action: games.Act("hurry")}, cancel)
	case PhaseBonus:
		if ch := s.aimChoice(0); ch != nil {
			v.Choices = append(v.Choices, *ch)
		}
		add(s.bonusButtons(0)...)
		add(games.Button{Label: "Reveal now", Action: games.Act("hurry")}, cancel)
	case PhaseFate:
		add(s.fateButtons(0)...)
		add(games.Button{Label: "Hurry: the rest stay in", Action: games.Act("hurry")})
	case PhaseGifts:
		v.Choices = append(v.Choices, s.giftChoices(0)...)
		add(s.giftButtons(0)...)
		add(games.Button{Label: "Hurry: on to the final narration", Action: games.Act("hurry")})
	case PhaseNarrate:
		cur := s.C.Order[s.C.Turn].Seat
		if cur == 0 {
			add(games.Button{Label: "Done narrating", Action: games.Act("done"), Style: games.Success})
		} else {
			add(games.Button{Label: clip("Skip "+s.heroName(cur)+"'s narration", 80), Action: games.Act("skip")})
		}
		add(kit)
	}
	if s.Bank > 0 && s.Phase != PhaseIdle && s.Phase != PhaseOver {
		add(bank)
	}
	return v
}

func (s *State) playerHand(seat int) games.View {
	h := s.Heroes[seat]
	v := games.View{Title: fmt.Sprintf("%s — %s's protagonist", s.heroName(seat), s.Players[seat])}
	var b strings.Builder
	fmt.Fprintf(&b, "**Your hand:** %s\n", games.CardList(sortedCards(s.Hands[seat])))
	fmt.Fprintf(&b, "**Story-tokens:** %d · pool %d\n", s.Tokens[seat], s.Pool)
	if m := s.myCards(seat); m != "" {
		b.WriteString(m + "\n")
	}
	if s.C != nil {
		if i := s.sideOf(seat); i >= 0 {
			sd := s.C.Sides[i]
			stake := sd.Stake
			if stake == "" {
				stake = "*(not written yet)*"
			}
			opp := "*(choose whom you oppose)*"
			if sd.Opp >= 0 {
				opp = s.sideName(sd.Opp)
			}
			fmt.Fprintf(&b, "**Your stake:** %s — against %s\n", stake, opp)
			if s.extended() {
				fmt.Fprintf(&b, "**Your victory cards:** %s", games.CardList(s.finalPile(i)))
				switch {
				case sd.Out != "":
					b.WriteString(" — " + sd.Out)
				case sd.Harmed:
					b.WriteString(" — seriously harmed")
				}
				b.WriteString("\n")
			}
		} else if s.Phase != PhaseSetup {
			b.WriteString("You sit this conflict out, but you may put story-tokens on the cards during the bonuses.\n")
		}
		if p, ok := s.C.Pending[seat]; ok {
			fmt.Fprintf(&b, "**%s** is ready to help %s: say how.\n", p.Talent, s.sideName(p.On))
		}
		if st := s.statusLine(); st != "" {
			b.WriteString(st + "\n")
		}
	}
	v.Description = strings.TrimSpace(b.String())
	var tl []string
	for _, t := range h.Talents {
		tl = append(tl, fmt.Sprintf("%s — %s left", t.Name, plural(t.Uses, "use")))
	}
	if len(tl) == 0 {
		tl = append(tl, "*none yet*")
	}
	tl = append(tl, fmt.Sprintf("This session: %d of %d talent uses, %d left.", h.SessionUses, s.TalentCap, max(s.TalentCap-h.SessionUses, 0)))
	v.Fields = append(v.Fields, games.Field{Name: "Talents", Value: clip(strings.Join(tl, "\n"), 1000)})
	add := func(bs ...games.Button) { v.Buttons = append(v.Buttons, bs...) }
	if s.Phase == PhaseOver {
		return v
	}
	in := s.inConflict(seat)
	if !in {
		label := "Name your protagonist"
		if h.Name != "" {
			label = "Rename your protagonist"
		}
		add(games.Button{Label: label, Action: games.Act("name"),
			Ask: &games.Ask{Title: "Your protagonist", Label: "Name", Placeholder: "Kit Walker", MaxLen: maxName}})
		if !h.Played && len(h.Talents) < maxTalents {
			add(games.Button{Label: "Add or change a talent", Action: games.Act("addtal"),
				Ask: &games.Ask{Title: "A talent", Label: "Talent and uses (0 removes it)", Placeholder: "Kung fu 3", MaxLen: maxName + 4}})
		}
	}
	switch s.Phase {
	case PhaseStakes:
		if !in {
			break
		}
		i := s.sideOf(seat)
		label := "Write your stake"
		if s.C.Sides[i].Stake != "" {
			label = "Change your stake"
		}
		add(games.Button{Label: label, Action: games.Act("stake"), Style: games.Primary,
			Ask: &games.Ask{Title: "Your stake", Label: "What happens if " + clip(s.heroName(seat), 20) + " wins?",
				Placeholder: "Get the records and escape unseen", MaxLen: maxStake, Long: true}})
		opts := s.oppChoices(i)
		if len(opts) > 1 || s.C.Sides[i].Opp < 0 {
			ch := games.Choice{Verb: "vs", Placeholder: "Whom do you oppose?", Min: 1, Max: 1}
			for _, o := range opts {
				label := "Oppose " + s.sideName(o)
				if s.C.Sides[o].Seat == 0 {
					label += " (GM): " + s.C.Sides[o].Stake
				} else {
					label += " (" + s.Players[s.C.Sides[o].Seat] + ")"
				}
				ch.Options = append(ch.Options, games.ChoiceOption{Value: itoa(o), Label: clip(label, 100), Default: o == s.C.Sides[i].Opp})
			}
			v.Choices = append(v.Choices, ch)
		}
	case PhaseCards:
		if ch := s.playChoice(seat); ch != nil {
			v.Choices = append(v.Choices, *ch)
		} else if s.myCards(seat) != "" {
			add(games.Button{Label: "Take back my card", Action: games.Act("unplay")})
		}
	case PhaseBonus:
		if !in && s.Tokens[seat] == 0 {
			mine := false
			for _, b := range s.C.Bonuses {
				mine = mine || b.From == seat
			}
			if !mine {
				break
			}
		}
		if ch := s.aimChoice(seat); ch != nil {
			v.Choices = append(v.Choices, *ch)
		}
		_, pending := s.C.Pending[seat]
		if in && !s.isReady(seat) && !pending && s.talentProblem(seat) == "" {
			ch := games.Choice{Verb: "usetal", Placeholder: "Use a talent on " + poss(s.sideName(s.aimOf(seat))) + " card", Min: 1, Max: 1}
			for t, tal := range h.Talents {
				if tal.Uses > 0 {
					ch.Options = append(ch.Options, games.ChoiceOption{Value: itoa(t),
						Label: clip(fmt.Sprintf("%s (%s left)", tal.Name, plural(tal.Uses, "use")), 100)})
				}
			}
			if len(ch.Options) > 0 {
				v.Choices = append(v.Choices, ch)
			}
		}
		if pending {
			p := s.C.Pending[seat]
			add(games.Button{Label: clip("Say how "+s.heroName(seat)+" helps", 80), Action: games.Act("help"), Style: games.Primary,
				Ask: &games.Ask{Title: clip("Helping with "+p.Talent, 45), Label: "How does your protagonist help?",
					Placeholder: "I cover her from the rooftop", MaxLen: maxHelp}})
		}
		add(s.bonusButtons(seat)...)
	case PhaseFate:
		add(s.fateButtons(seat)...)
	case PhaseGifts:
		v.Choices = append(v.Choices, s.giftChoices(seat)...)
		add(s.giftButtons(seat)...)
	case PhaseNarrate:
		if s.C.Order[s.C.Turn].Seat == seat {
			for _, m := range s.mookTargets(seat) {
				add(games.Button{Label: clip("Take out one of the "+s.sideName(m), 80), Action: games.Act("mook", itoa(m))})
			}
			add(games.Button{Label: "Done narrating", Action: games.Act("done"), Style: games.Success})
		}
	}
	return v
}

// fateButtons offer the choice after losing to the Hand of Fate.
func (s *State) fateButtons(seat int) []games.Button {
	i := s.fateSide(seat)
	if i < 0 {
		return nil
	}
	name := clip(s.sideName(i), 40)
	return []games.Button{
		{Label: name + " stays in, seriously harmed", Action: games.Act("fatestay"), Style: games.Primary},
		{Label: name + " leaves the fight (eliminated)", Action: games.Act("fateout"), Style: games.Danger},
	}
}

// giftChoices are the menus of the gift step: which NPC gives (the GM),
// to whom, and which card.
func (s *State) giftChoices(seat int) []games.Choice {
	if s.isReady(seat) {
		return nil
	}
	g := s.giver(seat)
	if g < 0 {
		return nil
	}
	var out []games.Choice
	if seat == 0 {
		from := games.Choice{Verb: "from", Placeholder: "Giving: " + s.sideName(g), Min: 1, Max: 1}
		for _, i := range s.gmSides() {
			if s.canGive(i) {
				from.Options = append(from.Options, games.ChoiceOption{Value: itoa(i), Label: clip(s.sideName(i)+" gives", 100), Default: i == g})
			}
		}
		if len(from.Options) > 1 {
			out = append(out, from)
		}
	}
	to := s.receiver(seat, g)
	if rs := s.recipients(g); len(rs) > 1 {
		ch := games.Choice{Verb: "to", Placeholder: "Give to " + s.sideName(to), Min: 1, Max: 1}
		for _, r := range rs {
			ch.Options = append(ch.Options, games.ChoiceOption{Value: itoa(r), Label: clip("Give to "+s.sideName(r), 100), Default: r == to})
		}
		out = append(out, ch)
	}
	give := games.Choice{Verb: "give", Placeholder: clip(fmt.Sprintf("%s gives %s a victory card", s.sideName(g), s.sideName(to)), 150), Min: 1, Max: 1}
	sd := s.C.Sides[g]
	for _, c := range sortedCards(sd.Pile) {
		give.Options = append(give.Options, games.ChoiceOption{Value: c.Code(), Label: c.String()})
	}
	if sd.Out == outDestroyed && len(sd.Pile) == 0 {
		give.Options = append(give.Options, games.ChoiceOption{Value: "deck", Label: "A random card from the deck"})
	}
	if len(give.Options) > 0 {
		out = append(out, give)
	}
	return out
}

// giftButtons: take a gift back, done giving.
func (s *State) giftButtons(seat int) []games.Button {
	if !slices.Contains(s.giftSeats(), seat) {
		return nil
	}
	if s.isReady(seat) {
		return []games.Button{{Label: "Not done giving", Action: games.Act("unready")}}
	}
	var out []games.Button
	for _, g := range s.C.Gifts {
		if s.C.Sides[g.From].Seat == seat {
			out = append(out, games.Button{Label: "Take back my gift", Action: games.Act("undo")})
			break
		}
	}
	return append(out, games.Button{Label: "Done giving", Action: games.Act("ready"), Style: games.Success})
}
