package improv

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// heroSides lists the protagonists' sides of the conflict.
func (s *State) heroSides() []int {
	var out []int
	if s.C == nil {
		return nil
	}
	for i, sd := range s.C.Sides {
		if sd.Seat > 0 {
			out = append(out, i)
		}
	}
	return out
}

// gmSides lists the GM's stakes.
func (s *State) gmSides() []int {
	var out []int
	if s.C == nil {
		return nil
	}
	for i, sd := range s.C.Sides {
		if sd.Seat == 0 {
			out = append(out, i)
		}
	}
	return out
}

// bystanders reports whether side i is a group of mooks without a stake:
// they play no card, oppose nobody and can't be opposed.
func (s *State) bystanders(i int) bool {
	sd := s.C.Sides[i]
	return sd.Seat == 0 && sd.Stake == ""
}

// gmStakes lists the GM's stakes: its sides less the stakeless mooks,
// which don't count against the limit.
func (s *State) gmStakes() []int { return slices.DeleteFunc(s.gmSides(), s.bystanders) }

// sideOf is the side of seat's protagonist in the conflict, or -1.
func (s *State) sideOf(seat int) int {
	if s.C == nil || seat <= 0 {
		return -1
	}
	for i, sd := range s.C.Sides {
		if sd.Seat == seat {
			return i
		}
	}
	return -1
}

// inConflict reports whether seat's protagonist takes part in the conflict.
func (s *State) inConflict(seat int) bool { return s.sideOf(seat) >= 0 }

// opposers lists the protagonists' sides that chose side i as opponent.
func (s *State) opposers(i int) []int {
	var out []int
	for _, h := range s.heroSides() {
		if s.C.Sides[h].Opp == i {
			out = append(out, h)
		}
	}
	return out
}

// edges are the pairs of opponents: each protagonist and the side it
// chose, once per pair.
func (s *State) edges() [][2]int {
	var out [][2]int
	for _, h := range s.heroSides() {
		o := s.C.Sides[h].Opp
		if o < 0 {
			continue
		}
		if slices.ContainsFunc(out, func(e [2]int) bool { return e[0] == o && e[1] == h }) {
			continue
		}
		out = append(out, [2]int{h, o})
	}
	return out
}

// isOut reports whether side i has left an extended conflict.
func (s *State) isOut(i int) bool { return s.C.Sides[i].Out != "" }

// contested reports whether side i plays a card this round: it is still in
// the fight and faces an opponent who is too. Every protagonist does; a GM
// stake nobody opposes succeeds without a card.
func (s *State) contested(i int) bool {
	if s.isOut(i) {
		return false
	}
	for _, e := range s.edges() {
		if (e[0] == i && !s.isOut(e[1])) || (e[1] == i && !s.isOut(e[0])) {
			return true
		}
	}
	return false
}

// canPlay reports whether seat has any card to play: in hand or the deck.
func (s *State) canPlay(seat int) bool {
	return len(s.Hands[seat]) > 0 || len(s.Deck.Draw)+len(s.Deck.Discard) > 0
}

func (s *State) extended() bool { return s.C != nil && s.C.Kind == KindExtended }

// sideName names a side for the table: the NPC, or the protagonist.
func (s *State) sideName(i int) string {
	sd := s.C.Sides[i]
	if sd.Seat == 0 {
		return sd.Name
	}
	return s.heroName(sd.Seat)
}

// cardSeats are the seats that play cards this round.
func (s *State) cardSeats() []int {
	var out []int
	for i := range s.C.Sides {
		seat := s.C.Sides[i].Seat
		if s.contested(i) && !slices.Contains(out, seat) {
			out = append(out, seat)
		}
	}
	slices.Sort(out)
	return out
}

// nextUnplayed is seat's first side still waiting for a card, or -1.
func (s *State) nextUnplayed(seat int) int {
	for i, sd := range s.C.Sides {
		if sd.Seat == seat && sd.Card == nil && s.contested(i) {
			return i
		}
	}
	return -1
}

// readySeats are the seats whose ready the reveal waits for: the GM and
// the protagonists in the conflict still at the table and in the fight.
func (s *State) readySeats() []int {
	out := []int{0}
	for _, h := range s.heroSides() {
		if seat := s.C.Sides[h].Seat; !s.Gone[seat] && !s.isOut(h) {
			out = append(out, seat)
		}
	}
	return out
}

// seatName names a seat in events: "The GM" or the protagonist.
func (s *State) seatName(seat int) string {
	if seat == 0 {
		return "The GM"
	}
	return s.heroName(seat)
}

func (s *State) pickRounds(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "choose the conflict's length"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup); err != nil {
		return nil, err
	}
	n := atoi(a.Arg(0))
	if n < 1 || n > maxRounds {
		return nil, games.Refuse("A conflict lasts 1 round (simple) or 2 to %d rounds (extended).", maxRounds)
	}
	s.C.Rounds = n
	if n == 1 {
		s.C.Kind = KindSimple
		return []games.Event{games.Say("Conflict %d will be a simple conflict: one round.", s.C.No)}, nil
	}
	s.C.Kind = KindExtended
	return []games.Event{games.Say("Conflict %d will be an extended conflict of %d rounds.", s.C.No, n)}, nil
}

func (s *State) isReady(seat int) bool { return s.C != nil && slices.Contains(s.C.Ready, seat) }

// inPlay lists the sides with a card on the table.
func (s *State) inPlay() []int {
	var out []int
	for i, sd := range s.C.Sides {
		if sd.Card != nil {
			out = append(out, i)
		}
	}
	return out
}

// talentOnCard reports whether seat's talent is on a card or waiting for
// its help line.
func (s *State) talentOnCard(seat int, name string) bool {
	if s.C == nil || s.Phase != PhaseBonus {
		return false
	}
	for _, b := range s.C.Bonuses {
		if b.From == seat && strings.EqualFold(b.Talent, name) {
			return true
		}
	}
	p, ok := s.C.Pending[seat]
	return ok && strings.EqualFold(p.Talent, name)
}

// gmLimit is how many story-tokens the GM may use: in a simple conflict 1
// plus one per protagonist taking part; in an extended one 2 plus 2 per
// protagonist plus 2 per round beyond 3, and never more than the GM held
// when the card play began.
func (s *State) gmLimit() int {
	if s.extended() {
		return min(2+2*len(s.C.Seats)+2*max(0, s.C.Rounds-3), s.C.GMStart)
	}
	return 1 + len(s.C.Seats)
}

// gmUsed counts the GM's story-tokens used against the limit.
func (s *State) gmUsed() int { return s.C.GMSpent + s.gmPlaced() }

// gmRoundLimit is how many story-tokens the GM may place in one round:
// 1 plus one per protagonist taking part, in the rounds of an extended
// conflict as in a simple one (RULINGS.md), within gmLimit's total.
func (s *State) gmRoundLimit() int { return 1 + len(s.C.Seats) }

// gmRoom is how many more story-tokens the GM may place this round.
func (s *State) gmRoom() int {
	return min(s.gmRoundLimit()-s.gmPlaced(), s.gmLimit()-s.gmUsed())
}

// gmLimitRefusal explains the GM's token limit that is reached.
func (s *State) gmLimitRefusal() error {
	if s.extended() && s.gmUsed() >= s.gmLimit() {
		return games.Refuse("The GM may use at most %d story-tokens in this extended conflict "+
			"(2 + 2 per participating player + 2 per round beyond 3, and no more than held at its start), and has used them all.", s.gmLimit())
	}
	if s.extended() {
		return games.Refuse("The GM may use at most %d story-tokens in a round (1 + %s), and has placed them.",
			s.gmRoundLimit(), plural(len(s.C.Seats), "participating player"))
	}
	return games.Refuse("The GM may use at most %d story-tokens in this conflict (1 + %s), and has used them all.",
		s.gmLimit(), plural(len(s.C.Seats), "participating player"))
}

// gmPlaced counts the GM's story-tokens on the cards this round.
func (s *State) gmPlaced() int {
	n := 0
	for _, b := range s.C.Bonuses {
		if b.From == 0 {
			n++
		}
	}
	return n
}

// talentPlaced is the talent seat put on a card this round, or "".
func (s *State) talentPlaced(seat int) string {
	for _, b := range s.C.Bonuses {
		if b.From == seat && b.Talent != "" {
			return b.Talent
		}
	}
	return ""
}

// bonusesOn counts the bonuses on side i's card.
func (s *State) bonusesOn(i int) int {
	n := 0
	for _, b := range s.C.Bonuses {
		if b.On == i {
			n++
		}
	}
	return n
}

// ---- Setting up: the GM picks the protagonists and declares stakes.

func (s *State) pickSeats(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "choose who takes part"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup); err != nil {
		return nil, err
	}
	var seats []int
	for _, arg := range a.Args {
		p := atoi(arg)
		if p <= 0 || !s.seated(p) {
			return nil, games.Refuse("Choose protagonists of players at the table.")
		}
		if slices.Contains(seats, p) {
			return nil, games.Refuse("Choose each protagonist once.")
		}
		seats = append(seats, p)
	}
	if n := len(s.gmStakes()); len(seats) < n {
		return nil, games.Refuse("You have %s; the GM can't have more stakes than protagonists taking part. Remove a stake first.",
			plural(n, "GM stake"))
	}
	slices.Sort(seats)
	s.C.Seats = seats
	names := make([]string, len(seats))
	for i, p := range seats {
		names[i] = s.heroName(p)
	}
	return []games.Event{games.Say("Taking part in conflict %d: %s.", s.C.No, joinNames(names))}, nil
}

func (s *State) addGMStake(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "declare the GM's stakes"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup); err != nil {
		return nil, err
	}
	if who, what, _ := strings.Cut(a.Text, ":"); strings.TrimSpace(what) == "" && mookRe.MatchString(strings.TrimSpace(who)) {
		return s.addBystanders(who)
	}
	if len(s.C.Seats) == 0 {
		return nil, games.Refuse("Choose the protagonists taking part first: the GM can't have more stakes than them.")
	}
	if n := len(s.gmStakes()); n >= len(s.C.Seats) {
		return nil, games.Refuse("The GM can't have more stakes than participating players (%d). Group the NPCs under a common stake.",
			len(s.C.Seats))
	}
	const example = "Write who and what they want, e.g. \"Riso: gun down Vinny and get away\"."
	who, what, ok := strings.Cut(a.Text, ":")
	if !ok {
		return nil, games.Refuse("%s", example)
	}
	name, err := cleanText(who, "NPC's name", maxName)
	if err != nil {
		if strings.TrimSpace(who) == "" {
			return nil, games.Refuse("%s", example)
		}
		return nil, err
	}
	if strings.ContainsAny(name, "*_`~|") {
		return nil, games.Refuse("Keep the NPC's name to plain words. %s", example)
	}
	stake, err := cleanText(what, "stake", maxStake)
	if err != nil {
		if strings.TrimSpace(what) == "" {
			return nil, games.Refuse("%s", example)
		}
		return nil, err
	}
	mooks := 0
	if m := mookRe.FindStringSubmatch(name); m != nil {
		name, mooks = strings.TrimSpace(m[1]), atoi(m[2])
		if mooks < 2 || mooks > 20 || name == "" {
			return nil, games.Refuse("A group of mooks has 2 to 20 of them, e.g. \"Goons (4 mooks): rough up the agents\".")
		}
	}
	for _, i := range s.gmSides() {
		if strings.EqualFold(s.C.Sides[i].Name, name) {
			return nil, games.Refuse("%s already has a stake in this conflict.", name)
		}
	}
	s.C.Sides = append(s.C.Sides, Side{Seat: 0, Name: name, Stake: stake, Opp: -1, Mooks: mooks})
	if mooks > 0 {
		return []games.Event{games.Say("GM stake — **%s** (%d mooks): %s", name, mooks, stake)}, nil
	}
	return []games.Event{games.Say("GM stake — **%s**: %s", name, stake)}, nil
}

// addBystanders adds mooks without any stake ("Patrons (6 mooks)"), there
// only to be taken out in the rounds' narration.
func (s *State) addBystanders(text string) ([]games.Event, error) {
	const example = "A group of mooks without a stake has 2 to 20 of them, e.g. \"Patrons (6 mooks)\"."
	m := mookRe.FindStringSubmatch(strings.Join(strings.Fields(text), " "))
	name, mooks := strings.TrimSpace(m[1]), atoi(m[2])
	if mooks < 2 || mooks > 20 || name == "" || utf8.RuneCountInString(name) > maxName || strings.ContainsAny(name, "*_`~|") {
		return nil, games.Refuse("%s", example)
	}
	for _, i := range s.gmSides() {
		if strings.EqualFold(s.C.Sides[i].Name, name) {
			return nil, games.Refuse("%s are already in this conflict.", name)
		}
	}
	s.C.Sides = append(s.C.Sides, Side{Seat: 0, Name: name, Opp: -1, Mooks: mooks})
	return []games.Event{games.Say("Bystanders — **%s** (%d mooks), without a stake: they play no card, "+
		"and in an extended conflict a protagonist may take one out while narrating a round, whatever their total.", name, mooks)}, nil
}

func (s *State) dropGMStake(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "change the GM's stakes"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup); err != nil {
		return nil, err
	}
	gm := s.gmSides()
	if len(gm) == 0 {
		return nil, games.Refuse("There is no GM stake to remove.")
	}
	last := gm[len(gm)-1]
	name, none := s.C.Sides[last].Name, s.bystanders(last)
	s.C.Sides = slices.Delete(s.C.Sides, last, last+1)
	if none {
		return []games.Event{games.Say("The GM withdraws the %s.", name)}, nil
	}
	return []games.Event{games.Say("The GM withdraws %s's stake.", name)}, nil
}

// declareProblem says why the GM can't move on to the players' stakes yet.
func (s *State) declareProblem() string {
	switch gm := len(s.gmStakes()); {
	case len(s.C.Seats) == 0:
		return "Choose the protagonists taking part first."
	case gm == 0 && len(s.C.Seats) < 2:
		return "Declare at least one GM stake, or choose two protagonists to oppose each other."
	case gm > len(s.C.Seats):
		return "The GM can't have more stakes than participating players."
	}
	return ""
}

func (s *State) declare(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "declare the stakes"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup); err != nil {
		return nil, err
	}
	if p := s.declareProblem(); p != "" {
		return nil, games.Refuse("%s", p)
	}
	gm := s.gmStakes()
	for _, p := range s.C.Seats {
		s.C.Sides = append(s.C.Sides, Side{Seat: p, Name: s.heroName(p), Opp: -1})
	}
	heroes := s.heroSides()
	for _, h := range heroes {
		switch {
		case len(gm) == 1:
			s.C.Sides[h].Opp = gm[0]
		case len(gm) == 0 && len(heroes) == 2:
			s.C.Sides[h].Opp = heroes[0] + heroes[1] - h
		}
	}
	s.Phase = PhaseStakes
	var b strings.Builder
	names := make([]string, len(heroes))
	for i, h := range heroes {
		names[i] = "**" + s.sideName(h) + "**"
	}
	verb := "take"
	if len(names) == 1 {
		verb = "takes"
	}
	fmt.Fprintf(&b, "⚔️ **Conflict %d** — %s %s part.", s.C.No, joinNames(names), verb)
	if len(gm) == 0 {
		b.WriteString("\nNo GM stakes: the protagonists oppose each other.")
	} else {
		b.WriteString("\nThe GM's stakes:")
		for _, i := range gm {
			fmt.Fprintf(&b, "\n• **%s**: %s", s.C.Sides[i].Name, s.C.Sides[i].Stake)
		}
	}
	for _, i := range s.gmSides() {
		if s.bystanders(i) {
			fmt.Fprintf(&b, "\n• **%s** (%d mooks): bystanders, no stake.", s.C.Sides[i].Name, s.C.Sides[i].Mooks)
		}
	}
	b.WriteString("\nPlayers: write your protagonist's stake in **My hand**")
	if len(gm) > 1 {
		b.WriteString(" and choose the stake you oppose")
	}
	b.WriteString(".")
	return []games.Event{story(b.String())}, nil
}

// ---- The players' stakes.

func (s *State) writeStake(seat int, a games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseStakes); err != nil {
		return nil, err
	}
	h := s.sideOf(seat)
	if h < 0 {
		return nil, games.Refuse("Only the protagonists taking part write stakes.")
	}
	stake, err := cleanText(a.Text, "stake", maxStake)
	if err != nil {
		return nil, err
	}
	s.C.Sides[h].Stake = stake
	return []games.Event{games.Say("Stake — **%s**: %s", s.sideName(h), stake)}, nil
}

// oppChoices are the sides the protagonist of side h may oppose.
func (s *State) oppChoices(h int) []int {
	var out []int
	for i := range s.C.Sides {
		if i != h && !s.bystanders(i) {
			out = append(out, i)
		}
	}
	return out
}

func (s *State) oppose(seat int, a games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseStakes); err != nil {
		return nil, err
	}
	h := s.sideOf(seat)
	if h < 0 {
		return nil, games.Refuse("Only the protagonists taking part choose an opponent.")
	}
	o := atoi(a.Arg(0))
	if !slices.Contains(s.oppChoices(h), o) {
		return nil, games.Refuse("Choose one of the GM's stakes or another protagonist in this conflict.")
	}
	s.C.Sides[h].Opp = o
	return []games.Event{games.Say("**%s** opposes **%s**.", s.sideName(h), s.sideName(o))}, nil
}

// stakesProblem says who the card play still waits for.
func (s *State) stakesProblem() string {
	for _, h := range s.heroSides() {
		sd := s.C.Sides[h]
		if sd.Stake == "" {
			return fmt.Sprintf("Waiting for %s stake.", poss(s.sideName(h)))
		}
		if sd.Opp < 0 {
			return fmt.Sprintf("Waiting for %s to choose whom they oppose.", s.sideName(h))
		}
	}
	return ""
}

func (s *State) startCards(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "start the card play"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseStakes); err != nil {
		return nil, err
	}
	if p := s.stakesProblem(); p != "" {
		return nil, games.Refuse("%s", p)
	}
	return s.beginCards(), nil
}

// beginCards moves from the stakes to the card play and says so.
func (s *State) beginCards() []games.Event {
	s.Phase = PhaseCards
	s.C.GMStart = s.Tokens[0]
	var b strings.Builder
	fmt.Fprintf(&b, "🎴 **Conflict %d — the stakes are set.**", s.C.No)
	if s.extended() {
		fmt.Fprintf(&b, " An extended conflict of %d rounds: beat your opponent in a round to keep your card as a victory card.", s.C.Rounds)
	}
	for i, sd := range s.C.Sides {
		switch {
		case s.bystanders(i):
			fmt.Fprintf(&b, "\n• **%s** (GM, %d mooks): no stake, no card.", sd.Name, sd.Mooks)
		case sd.Seat == 0 && !s.contested(i):
			fmt.Fprintf(&b, "\n• **%s** (GM): %s — *unopposed, it succeeds automatically.*", sd.Name, sd.Stake)
		case sd.Seat == 0:
			fmt.Fprintf(&b, "\n• **%s** (GM): %s", sd.Name, sd.Stake)
		default:
			fmt.Fprintf(&b, "\n• **%s** (%s): %s — against %s", s.sideName(i), s.Players[sd.Seat], sd.Stake, s.sideName(sd.Opp))
		}
	}
	b.WriteString("\nEveryone taking part now plays a card face down in **My hand**: from the hand or the top of the deck.")
	return append([]games.Event{story(b.String())}, s.progress()...)
}

// defaultOpp is the side a protagonist who can't choose opposes: the first
// GM stake, or else the next protagonist.
func (s *State) defaultOpp(h int) int {
	if gm := s.gmStakes(); len(gm) > 0 {
		return gm[0]
	}
	for _, o := range s.heroSides() {
		if o > h {
			return o
		}
	}
	return s.heroSides()[0]
}

// standIn makes the decisions a protagonist still owes in this phase: a
// placeholder stake, the default opponent, the top card of the deck, ready.
func (s *State) standIn(seat int) []games.Event {
	h := s.sideOf(seat)
	if h < 0 {
		return nil
	}
	sd := &s.C.Sides[h]
	switch s.Phase {
	case PhaseStakes:
		if sd.Stake == "" {
			sd.Stake = "(no stake given)"
		}
		if sd.Opp < 0 {
			sd.Opp = s.defaultOpp(h)
		}
	case PhaseCards:
		// Only a side still fighting someone plays: one out of the fight
		// (or left without an opponent) gets no card.
		if sd.Card == nil && s.contested(h) {
			if c, _, ok := s.Deck.Take(&s.RNG); ok {
				sd.Card, sd.Deck = &c, true
				return []games.Event{games.Say("%s card comes from the top of the deck.", poss(s.sideName(h)))}
			}
		}
	case PhaseBonus:
		delete(s.C.Pending, seat)
		if !s.isReady(seat) {
			s.C.Ready = append(s.C.Ready, seat)
		}
	}
	return nil
}

// standInAll makes the missing decisions of everyone who left the table
// (and, for the GM's hurry, of everyone) in the fate and gift steps.
func (s *State) standInAll(all bool) []games.Event {
	var ev []games.Event
	switch s.Phase {
	case PhaseFate:
		for _, i := range slices.Clone(s.C.FateWait) {
			if all || s.Gone[s.C.Sides[i].Seat] {
				ev = append(ev, s.decideFate(i, false))
			}
		}
	case PhaseGifts:
		for _, seat := range s.giftSeats() {
			if (all || s.Gone[seat]) && !s.isReady(seat) {
				s.C.Ready = append(s.C.Ready, seat)
			}
		}
	}
	return ev
}

// progress moves the conflict on once nobody is awaited in this phase.
func (s *State) progress() []games.Event {
	switch s.Phase {
	case PhaseCards:
		for i := range s.C.Sides {
			if seat := s.C.Sides[i].Seat; s.contested(i) && s.C.Sides[i].Card == nil && !s.Gone[seat] && s.canPlay(seat) {
				return nil
			}
		}
		// A protagonist whose player left plays the top of the deck.
		var ev []games.Event
		for _, h := range s.heroSides() {
			if s.C.Sides[h].Card == nil && s.contested(h) && s.Gone[s.C.Sides[h].Seat] {
				ev = append(ev, s.standIn(s.C.Sides[h].Seat)...)
			}
		}
		s.Phase = PhaseBonus
		s.C.Ready = nil
		return append(ev, games.Say("🂠 All the cards are down. Now the bonuses: talents and story-tokens, +%d each; "+
			"mark ready when you're done, and the cards are revealed when everyone is.", bonusValue))
	case PhaseBonus:
		for _, seat := range s.readySeats() {
			if !s.isReady(seat) {
				return nil
			}
		}
		return s.reveal()
	case PhaseFate:
		ev := s.standInAll(false)
		if len(s.C.FateWait) > 0 {
			return ev
		}
		return append(ev, s.afterRound()...)
	case PhaseGifts:
		s.standInAll(false)
		for _, seat := range s.giftSeats() {
			if !s.isReady(seat) {
				return nil
			}
		}
		return s.finalVictory()
	case PhaseNarrate:
		return s.skipGone()
	}
	return nil
}

func (s *State) hurry(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "hurry the conflict along"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseStakes, PhaseCards, PhaseBonus, PhaseFate, PhaseGifts); err != nil {
		return nil, err
	}
	var ev []games.Event
	switch s.Phase {
	case PhaseFate:
		ev = append(ev, games.Say("The GM moves on: whoever hasn't chosen stays in the fight."))
		ev = append(ev, s.standInAll(true)...)
	case PhaseGifts:
		ev = append(ev, games.Say("The GM moves on to the final narration."))
		s.standInAll(true)
	case PhaseStakes:
		for _, h := range s.heroSides() {
			s.standIn(s.C.Sides[h].Seat)
		}
		ev = append(ev, games.Say("The GM moves on: missing stakes are left blank and missing opponents take the default."))
		return append(ev, s.beginCards()...), nil
	case PhaseCards:
		for i := range s.C.Sides {
			sd := &s.C.Sides[i]
			if !s.contested(i) || sd.Card != nil {
				continue
			}
			if c, _, ok := s.Deck.Take(&s.RNG); ok {
				sd.Card, sd.Deck = &c, true
			} else if h := s.Hands[sd.Seat]; len(h) > 0 { // no deck left: the lowest card in hand
				c := sortedCards(h)[0]
				s.Hands[sd.Seat], _ = games.Remove(h, c)
				sd.Card = &c
			}
		}
		ev = append(ev, games.Say("The GM moves on: every missing card comes from the top of the deck."))
	case PhaseBonus:
		s.C.Pending = nil
		for _, p := range s.readySeats() {
			if !s.isReady(p) {
				s.C.Ready = append(s.C.Ready, p)
			}
		}
		ev = append(ev, games.Say("The GM calls for the reveal."))
	}
	return append(ev, s.progress()...), nil
}

// cancel calls the conflict off: every card and story-token on the table
// goes back (an extended conflict's earlier rounds stand).
func (s *State) cancel(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "call off the conflict"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseSetup, PhaseStakes, PhaseCards, PhaseBonus); err != nil {
		return nil, err
	}
	s.returnCards(-1)
	for _, b := range s.C.Bonuses {
		switch {
		case b.Talent != "":
		case s.Gone[b.From]: // a leaver's tokens went to the pool
			s.Pool++
		default:
			s.Tokens[b.From]++
		}
	}
	no := s.C.No
	s.clearConflict()
	s.Last = fmt.Sprintf("Conflict %d was called off.", no)
	return []games.Event{games.Say("The GM calls off conflict %d; the cards and story-tokens on the table go back to their owners, and hands are refilled.", no)}, nil
}

// returnCards takes back the cards played by seat (-1: everyone): hand
// cards to the hand, unseen deck cards back on top of the deck.
func (s *State) returnCards(seat int) int {
	n := 0
	for i := len(s.C.Sides) - 1; i >= 0; i-- {
		sd := &s.C.Sides[i]
		if sd.Card == nil || (seat >= 0 && sd.Seat != seat) {
			continue
		}
		switch {
		case sd.Deck:
			s.Deck.Draw = append(s.Deck.Draw, *sd.Card)
		case s.Gone[sd.Seat]:
			s.Deck.Discard = append(s.Deck.Discard, *sd.Card)
		default:
			s.Hands[sd.Seat] = append(s.Hands[sd.Seat], *sd.Card)
		}
		sd.Card, sd.Deck = nil, false
		n++
	}
	return n
}

// ---- Cards.

func (s *State) play(seat int, a games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseCards); err != nil {
		return nil, err
	}
	i := s.nextUnplayed(seat)
	if i < 0 {
		if slices.Contains(s.cardSeats(), seat) {
			return nil, games.Refuse("Your card is already down; take it back first to change it.")
		}
		return nil, games.Refuse("You have no card to play in this conflict.")
	}
	sd := &s.C.Sides[i]
	var from string
	if a.Arg(0) == "deck" {
		c, reshuffled, ok := s.Deck.Take(&s.RNG)
		if !ok {
			return nil, games.Refuse("The deck and the discards are empty; play a card from your hand.")
		}
		sd.Card, sd.Deck = &c, true
		from = ", from the top of the deck"
		if reshuffled {
			from += " (the discards were shuffled into a new deck)"
		}
	} else {
		c, err := games.ParseCard(a.Arg(0))
		if err != nil {
			return nil, games.Refuse("Choose a card from your hand or the top of the deck.")
		}
		rest, ok := games.Remove(s.Hands[seat], c)
		if !ok {
			return nil, games.Refuse("That card isn't in your hand.")
		}
		s.Hands[seat] = rest
		sd.Card, sd.Deck = &c, false
	}
	who := s.sideName(i)
	if seat == 0 {
		who = "The GM"
		from = " for " + sd.Name + from
	}
	ev := []games.Event{games.Say("%s plays a card face down%s.", who, from)}
	return append(ev, s.progress()...), nil
}

func (s *State) unplay(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseCards); err != nil {
		return nil, err
	}
	n := s.returnCards(seat)
	if n == 0 {
		return nil, games.Refuse("You have no card on the table to take back.")
	}
	who := s.heroName(seat)
	if seat == 0 {
		who = "The GM"
	}
	return []games.Event{games.Say("%s takes back %s.", who, plural(n, "card"))}, nil
}

// ---- Bonuses.

// aimOf is the side seat's bonuses go on: as chosen, else their own card,
// else the first card in play (the GM's first NPC card).
func (s *State) aimOf(seat int) int {
	if i, ok := s.C.Aim[seat]; ok && i >= 0 && i < len(s.C.Sides) && s.C.Sides[i].Card != nil {
		return i
	}
	if i := s.sideOf(seat); i >= 0 && s.C.Sides[i].Card != nil {
		return i
	}
	// The GM backs their own side first, a player another player's: a
	// one-click default should not help the opposition.
	for _, i := range s.inPlay() {
		if (seat == 0) != (s.C.Sides[i].Seat == 0) {
			continue
		}
		return i
	}
	if p := s.inPlay(); len(p) > 0 {
		return p[0]
	}
	return -1
}

// canBonus refuses a bonus move when seat can't place bonuses now.
func (s *State) canBonus(seat int) error {
	if err := s.inPhase(PhaseBonus); err != nil {
		return err
	}
	if s.isReady(seat) {
		return games.Refuse("You've marked ready; press Not ready to change your bonuses.")
	}
	return nil
}

func (s *State) aim(seat int, a games.Action) ([]games.Event, error) {
	if err := s.canBonus(seat); err != nil {
		return nil, err
	}
	i := atoi(a.Arg(0))
	if i < 0 || i >= len(s.C.Sides) || s.C.Sides[i].Card == nil {
		return nil, games.Refuse("Choose a card on the table.")
	}
	if s.C.Aim == nil {
		s.C.Aim = map[int]int{}
	}
	s.C.Aim[seat] = i
	delete(s.C.Pending, seat)
	return nil, nil
}

func (s *State) token(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.canBonus(seat); err != nil {
		return nil, err
	}
	if seat == 0 && s.gmRoom() <= 0 {
		return nil, s.gmLimitRefusal()
	}
	if s.Tokens[seat] == 0 {
		return nil, games.Refuse("You have no story-tokens.")
	}
	on := s.aimOf(seat)
	if on < 0 {
		return nil, games.Refuse("There is no card on the table.")
	}
	s.Tokens[seat]--
	s.C.Bonuses = append(s.C.Bonuses, Bonus{From: seat, On: on})
	who := s.heroName(seat)
	if seat == 0 {
		who = "The GM"
	}
	return []games.Event{games.Say("%s puts a story-token on %s card (+%d; %s on it).",
		who, poss(s.sideName(on)), bonusValue, plural(s.bonusesOn(on), "bonus"))}, nil
}

// talentProblem says why seat can't use a talent now ("" if it can).
func (s *State) talentProblem(seat int) string {
	h := s.sideOf(seat)
	switch {
	case seat == 0:
		return "The GM has no talents; story-tokens are the GM's bonuses."
	case h < 0:
		return "Only protagonists taking part in the conflict can use talents."
	case s.isOut(h):
		return fmt.Sprintf("%s is out of the fight; story-tokens are all they can give now.", s.heroName(seat))
	case s.talentPlaced(seat) != "":
		return fmt.Sprintf("You already put a talent on a card this round (%s); one talent per player per round.", s.talentPlaced(seat))
	case s.Heroes[seat].SessionUses >= s.TalentCap:
		return fmt.Sprintf("%s has used talents %s this session, the cap.", s.heroName(seat), plural(s.TalentCap, "time"))
	}
	return ""
}

func (s *State) useTalent(seat int, a games.Action) ([]games.Event, error) {
	if err := s.canBonus(seat); err != nil {
		return nil, err
	}
	if p := s.talentProblem(seat); p != "" {
		return nil, games.Refuse("%s", p)
	}
	t := atoi(a.Arg(0))
	ts := s.Heroes[seat].Talents
	if t < 0 || t >= len(ts) {
		return nil, games.Refuse("Choose one of your talents.")
	}
	if ts[t].Uses <= 0 {
		return nil, games.Refuse("%s has no uses left.", ts[t].Name)
	}
	on := s.aimOf(seat)
	if on < 0 {
		return nil, games.Refuse("There is no card on the table.")
	}
	if on != s.sideOf(seat) {
		if s.C.Pending == nil {
			s.C.Pending = map[int]Bonus{}
		}
		s.C.Pending[seat] = Bonus{From: seat, On: on, Talent: ts[t].Name}
		return nil, nil
	}
	s.C.Bonuses = append(s.C.Bonuses, Bonus{From: seat, On: on, Talent: ts[t].Name})
	return []games.Event{games.Say("%s puts a talent-marker on their own card: %s (+%d).", s.heroName(seat), ts[t].Name, bonusValue)}, nil
}

func (s *State) help(seat int, a games.Action) ([]games.Event, error) {
	if err := s.canBonus(seat); err != nil {
		return nil, err
	}
	p, ok := s.C.Pending[seat]
	if !ok {
		return nil, games.Refuse("Choose the talent you help with first.")
	}
	line, err := cleanText(a.Text, "line", maxHelp)
	if err != nil {
		return nil, err
	}
	if s.C.Sides[p.On].Card == nil {
		return nil, games.Refuse("That card is no longer on the table.")
	}
	p.Help = line
	delete(s.C.Pending, seat)
	s.C.Bonuses = append(s.C.Bonuses, p)
	return []games.Event{games.Say("%s helps %s with %s (+%d): “%s”", s.heroName(seat), s.sideName(p.On), p.Talent, bonusValue, line)}, nil
}

func (s *State) undo(seat int, _ games.Action) ([]games.Event, error) {
	if s.Phase == PhaseGifts {
		return s.undoGift(seat)
	}
	if err := s.canBonus(seat); err != nil {
		return nil, err
	}
	if _, ok := s.C.Pending[seat]; ok {
		delete(s.C.Pending, seat)
		return nil, nil
	}
	for i := len(s.C.Bonuses) - 1; i >= 0; i-- {
		b := s.C.Bonuses[i]
		if b.From != seat {
			continue
		}
		s.C.Bonuses = slices.Delete(s.C.Bonuses, i, i+1)
		who := s.heroName(seat)
		if seat == 0 {
			who = "The GM"
		}
		if b.Talent == "" {
			s.Tokens[seat]++
			return []games.Event{games.Say("%s takes a story-token back from %s card.", who, poss(s.sideName(b.On)))}, nil
		}
		return []games.Event{games.Say("%s takes the %s marker back from %s card.", who, b.Talent, poss(s.sideName(b.On)))}, nil
	}
	return nil, games.Refuse("You have no bonus on the table to take back.")
}

func (s *State) ready(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseBonus, PhaseGifts); err != nil {
		return nil, err
	}
	if s.Phase == PhaseGifts {
		if !slices.Contains(s.giftSeats(), seat) {
			return nil, games.Refuse("You have no victory cards to give in this conflict.")
		}
		if s.isReady(seat) {
			return nil, games.Refuse("You're already done giving.")
		}
		s.C.Ready = append(s.C.Ready, seat)
		return append([]games.Event{games.Say("%s is done giving victory cards.", s.seatName(seat))}, s.progress()...), nil
	}
	if !slices.Contains(s.readySeats(), seat) {
		return nil, games.Refuse("Only the GM and the protagonists taking part mark ready.")
	}
	if s.isReady(seat) {
		return nil, games.Refuse("You're already marked ready.")
	}
	if p, ok := s.C.Pending[seat]; ok {
		return nil, games.Refuse("Say how %s helps with %s, or take the talent back, first.", s.heroName(seat), p.Talent)
	}
	s.C.Ready = append(s.C.Ready, seat)
	who := s.heroName(seat)
	if seat == 0 {
		who = "The GM"
	}
	ev := []games.Event{games.Say("%s is ready.", who)}
	return append(ev, s.progress()...), nil
}

func (s *State) unready(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.inPhase(PhaseBonus, PhaseGifts); err != nil {
		return nil, err
	}
	if !s.isReady(seat) {
		return nil, games.Refuse("You haven't marked ready.")
	}
	s.C.Ready = slices.DeleteFunc(s.C.Ready, func(x int) bool { return x == seat })
	who := s.heroName(seat)
	if seat == 0 {
		who = "The GM"
	}
	return []games.Event{games.Say("%s isn't ready after all.", who)}, nil
}
