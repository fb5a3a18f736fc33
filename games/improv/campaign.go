package improv

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// Opening welcomes the table once the campaign starts.
func (s *State) Opening() []games.Event {
	return []games.Event{story(fmt.Sprintf("🎬 **A new Improv campaign begins, run by %s.**\n"+
		"Players: open **My hand** to name your protagonist and add talents (e.g. \"Kung fu 3\"). "+
		"The GM holds %s and the pool %s. When a scene calls for it, the GM opens a conflict.",
		s.Players[0], plural(s.Tokens[0], "story-token"), plural(s.Pool, "story-token")))}
}

// Join seats a new player. The GM gets 3 more story-tokens, the pool 1,
// and the GM's hand grows by one card.
func (s *State) Join(name string) (int, []games.Event, error) {
	if s.Phase == PhaseOver {
		return 0, nil, games.Refuse("The campaign is over.")
	}
	if len(s.Players) >= maxSeats {
		return 0, nil, games.Refuse("The table is full: a GM and %d players.", maxSeats-1)
	}
	seat := len(s.Players)
	s.Players = append(s.Players, name)
	s.Gone = append(s.Gone, false)
	s.Tokens = append(s.Tokens, 0)
	s.Heroes = append(s.Heroes, Hero{})
	s.Hands = append(s.Hands, s.Deck.Deal(&s.RNG, playerHand))
	s.Tokens[0] += gmTokensPerPlayer
	s.Pool += poolPerPlayer
	when := "at once"
	if s.C != nil {
		when = "when this conflict ends"
	} else {
		s.refill(0)
	}
	text := fmt.Sprintf("👋 **%s** joins the campaign and is dealt %d cards. The GM gains %d story-tokens and the pool %d; "+
		"the GM's hand grows to %d cards (%s).", name, playerHand, gmTokensPerPlayer, poolPerPlayer, s.handSize(0), when)
	switch {
	case s.Phase == PhaseSetup:
		text += " The GM may still bring them into this conflict."
	case s.C != nil:
		text += " " + name + " sits this conflict out."
	}
	return seat, []games.Event{games.Say("%s", text)}, nil
}

// Leave marks a player as gone: their cards go to the discards and their
// story-tokens to the pool; a conflict they are in no longer waits on them.
func (s *State) Leave(seat int) ([]games.Event, error) {
	if seat == 0 {
		return nil, games.Refuse("The GM can't leave the campaign; end it instead.")
	}
	if !s.seated(seat) {
		return nil, games.Refuse("That seat isn't at the table.")
	}
	ev := []games.Event{games.Say("%s leaves the campaign; their cards go to the discards and their %s to the pool. "+
		"From the next refill the GM's hand holds %d cards (%d + 1 per player).",
		s.Players[seat], plural(s.Tokens[seat], "story-token"), s.handSize(0)-1, gmBaseHand)} // -1: still seated here
	if s.C != nil {
		delete(s.C.Pending, seat)
		s.C.Seats = slices.DeleteFunc(s.C.Seats, func(x int) bool { return x == seat && s.Phase == PhaseSetup })
		if s.inConflict(seat) && s.Phase != PhaseNarrate {
			ev = append(ev, s.standIn(seat)...)
		}
	}
	s.Gone[seat] = true
	s.Deck.Discard = append(s.Deck.Discard, s.Hands[seat]...)
	s.Hands[seat] = nil
	s.Pool += s.Tokens[seat]
	s.Tokens[seat] = 0
	if s.C != nil {
		ev = append(ev, s.progress()...)
	}
	return mergeStories(ev), nil
}

// refill deals a seat's hand back up to its size. A hand over its size
// (the GM's, 3 + 1 per player, after a player left) comes down to it:
// cards picked at random go to the discards.
func (s *State) refill(seat int) {
	if s.Gone[seat] {
		return
	}
	for len(s.Hands[seat]) > s.handSize(seat) {
		k := s.RNG.Intn(len(s.Hands[seat]))
		s.Deck.Discard = append(s.Deck.Discard, s.Hands[seat][k])
		s.Hands[seat] = slices.Delete(s.Hands[seat], k, k+1)
	}
	if need := s.handSize(seat) - len(s.Hands[seat]); need > 0 {
		s.Hands[seat] = append(s.Hands[seat], s.Deck.Deal(&s.RNG, need)...)
	}
}

func (s *State) open(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "open a conflict"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseIdle); err != nil {
		return nil, err
	}
	if s.players() == 0 {
		return nil, games.Refuse("There are no players at the table to take part.")
	}
	s.Conflicts++
	s.C = &Conflict{No: s.Conflicts, Kind: KindSimple, Rounds: 1, Round: 1}
	s.Phase = PhaseSetup
	s.closeWindow()
	return []games.Event{games.Say("⚔️ The GM opens conflict %d: choosing who takes part and the GM's stakes.", s.C.No)}, nil
}

func (s *State) newSession(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "start a new game session"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseIdle); err != nil {
		return nil, games.Refuse("Finish the conflict before starting a new session.")
	}
	s.Session++
	for i := range s.Heroes {
		s.Heroes[i].SessionUses = 0
	}
	s.Last = fmt.Sprintf("Session %d began.", s.Session)
	return []games.Event{games.Narrate("📅 **Session %d begins.** Every protagonist may use talents %s this session.",
		s.Session, plural(s.TalentCap, "time"))}, nil
}

func (s *State) takeBank(seat int, _ games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "take the bank's story-tokens"); err != nil {
		return nil, err
	}
	if s.Bank == 0 {
		return nil, games.Refuse("The bank is empty.")
	}
	n := s.Bank
	s.Tokens[0] += n
	s.Bank = 0
	return []games.Event{games.Say("The GM takes %s from the bank (now holding %d).", plural(n, "story-token"), s.Tokens[0])}, nil
}

// endCampaign ends the campaign for good once the GM types END.
func (s *State) endCampaign(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "end the campaign"); err != nil {
		return nil, err
	}
	if err := s.inPhase(PhaseIdle); err != nil {
		return nil, games.Refuse("Finish or call off the conflict before ending the campaign.")
	}
	if !strings.EqualFold(strings.TrimSpace(a.Text), "end") {
		return nil, games.Refuse("The campaign goes on: type END to end it for good.")
	}
	s.Phase = PhaseOver
	s.closeWindow()
	var b strings.Builder
	fmt.Fprintf(&b, "🏁 **The campaign ends** after %s and %s.", plural(s.Conflicts, "conflict"), plural(s.Session, "session"))
	for seat := 1; seat < len(s.Players); seat++ {
		fmt.Fprintf(&b, "\n• **%s** (%s): %s", s.heroName(seat), s.Players[seat], plural(s.Tokens[seat], "story-token"))
	}
	s.Last = "The campaign is over."
	return []games.Event{story(b.String())}, nil
}

// cleanText trims typed text and refuses what is empty or too long.
func cleanText(text, what string, limit int) (string, error) {
	t := strings.Join(strings.Fields(text), " ")
	if t == "" {
		return "", games.Refuse("The %s is empty.", what)
	}
	if utf8.RuneCountInString(t) > limit {
		return "", games.Refuse("The %s is too long: keep it to %d characters.", what, limit)
	}
	return t, nil
}

func (s *State) nameHero(seat int, a games.Action) ([]games.Event, error) {
	if seat == 0 {
		return nil, games.Refuse("The GM plays the NPCs; only players have protagonists.")
	}
	if s.inConflict(seat) {
		return nil, games.Refuse("%s is in the conflict; rename them once it is over.", s.heroName(seat))
	}
	name, err := cleanText(a.Text, "name", maxName)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(name, ":*_`~|") {
		return nil, games.Refuse("Keep the name to letters, digits and plain punctuation (no : * _ ` ~ |), e.g. \"Kit Walker\".")
	}
	for other := 1; other < len(s.Players); other++ {
		// Only those still at the table hold a name: one who left may
		// come back and take theirs again.
		if other != seat && s.seated(other) && strings.EqualFold(s.heroName(other), name) {
			return nil, games.Refuse("%s is already a protagonist at this table; choose another name.", name)
		}
	}
	old := s.heroName(seat)
	s.Heroes[seat].Name = name
	return []games.Event{games.Say("%s's protagonist is now called **%s** (was %s).", s.Players[seat], name, old)}, nil
}

var talentRe = regexp.MustCompile(`^(.+?)\s+(\d{1,3})$`)

// parseTalent reads "Kung fu 3": a talent name and a number of uses.
func parseTalent(text string, maxU int) (string, int, error) {
	t := strings.Join(strings.Fields(text), " ")
	m := talentRe.FindStringSubmatch(t)
	if m == nil {
		return "", 0, games.Refuse("Write the talent's name and then its uses, e.g. \"Kung fu 3\".")
	}
	name := m[1]
	uses, _ := strconv.Atoi(m[2])
	if utf8.RuneCountInString(name) > maxName {
		return "", 0, games.Refuse("That talent's name is too long: keep it to %d characters.", maxName)
	}
	if strings.ContainsAny(name, "*_`~|") {
		return "", 0, games.Refuse("Keep the talent's name to plain words, e.g. \"Kung fu 3\".")
	}
	if uses > maxU {
		return "", 0, games.Refuse("A talent can have at most %d uses.", maxU)
	}
	return name, uses, nil
}

// setTalent gives a protagonist a talent with uses (0 removes it).
func (s *State) setTalent(seat int, name string, uses int) (string, error) {
	h := &s.Heroes[seat]
	for i, t := range h.Talents {
		if !strings.EqualFold(t.Name, name) {
			continue
		}
		if s.talentOnCard(seat, t.Name) {
			return "", games.Refuse("%s is on a card right now; change it after the reveal.", t.Name)
		}
		if uses == 0 {
			h.Talents = append(h.Talents[:i:i], h.Talents[i+1:]...)
			return fmt.Sprintf("%s loses the talent %s.", s.heroName(seat), t.Name), nil
		}
		h.Talents[i].Uses = uses
		return fmt.Sprintf("%s's talent %s now has %s.", s.heroName(seat), t.Name, plural(uses, "use")), nil
	}
	if uses == 0 {
		return "", games.Refuse("%s has no talent called %s.", s.heroName(seat), name)
	}
	if len(h.Talents) >= maxTalents {
		return "", games.Refuse("A protagonist can have at most %d talents.", maxTalents)
	}
	h.Talents = append(h.Talents, Talent{Name: name, Uses: uses})
	return fmt.Sprintf("%s gains the talent %s (%s).", s.heroName(seat), name, plural(uses, "use")), nil
}

func (s *State) addTalent(seat int, a games.Action) ([]games.Event, error) {
	if seat == 0 {
		return nil, games.Refuse("The GM adjusts talents with \"Adjust talents\", e.g. \"Kit: Kung fu 4\".")
	}
	if s.Heroes[seat].Played {
		return nil, games.Refuse("%s has already been in a conflict; from now on the GM adjusts their talents.", s.heroName(seat))
	}
	if s.inConflict(seat) {
		return nil, games.Refuse("%s is in the conflict; add talents once it is over.", s.heroName(seat))
	}
	name, uses, err := parseTalent(a.Text, 10)
	if err != nil {
		return nil, err
	}
	msg, err := s.setTalent(seat, name, uses)
	if err != nil {
		return nil, err
	}
	return []games.Event{games.Say("%s", msg)}, nil
}

// kit is the GM's talent adjustment: "Kit: Kung fu 4" (0 removes it).
func (s *State) kit(seat int, a games.Action) ([]games.Event, error) {
	if err := s.gmOnly(seat, "adjust talents"); err != nil {
		return nil, err
	}
	who, rest, ok := strings.Cut(a.Text, ":")
	if !ok {
		return nil, games.Refuse("Write the protagonist, a colon, the talent and its uses, e.g. \"Kit: Kung fu 4\" (0 removes it).")
	}
	target := s.findHero(strings.TrimSpace(who))
	if target < 0 {
		return nil, games.Refuse("No protagonist or player here is called %q.", strings.TrimSpace(who))
	}
	name, uses, err := parseTalent(rest, maxUses)
	if err != nil {
		return nil, games.Refuse("Write the protagonist, a colon, the talent and its uses, e.g. \"Kit: Kung fu 4\" (0 removes it).")
	}
	msg, err := s.setTalent(target, name, uses)
	if err != nil {
		return nil, err
	}
	return []games.Event{games.Say("The GM adjusts talents: %s", msg)}, nil
}

// findHero finds a seated player by protagonist or player name.
func (s *State) findHero(name string) int {
	for seat := 1; seat < len(s.Players); seat++ {
		if s.seated(seat) && strings.EqualFold(s.heroName(seat), name) {
			return seat
		}
	}
	for seat := 1; seat < len(s.Players); seat++ {
		if s.seated(seat) && strings.EqualFold(s.Players[seat], name) {
			return seat
		}
	}
	return -1
}

// story builds a story event kept within a message.
func story(text string) games.Event { return games.Narrate("%s", clip(text, maxEvent)) }

func clip(text string, n int) string {
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	return string(r[:n-1]) + "…"
}

// poss is a name's possessive: "Kit's", "Goons'".
func poss(name string) string {
	if strings.HasSuffix(name, "s") || strings.HasSuffix(name, "S") {
		return name + "'"
	}
	return name + "'s"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") { // bonus
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return "nobody"
	case 1, 2:
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
