package duel

import (
	"fmt"
	"slices"

	"github.com/cardtable/cardbot/games"
)

// bigHit is the damage card value from which a hit is narrated as a story moment.
const bigHit = 10

func (s *State) applyPlay(seat int, a games.Action) ([]games.Event, error) {
	if who := s.actor(); seat != who {
		return nil, games.Refuse("It's %s's turn: %s.", s.Names[who], s.stepLine())
	}
	c, from, err := s.take(seat, a)
	if err != nil {
		return nil, err
	}
	name, other := s.Names[seat], s.Names[1-seat]
	var evs []games.Event
	switch s.Step {
	case StepAttack:
		s.Attack, s.Step = &c, StepDefend
		evs = append(evs, games.Say("%s attacks with %s %s.", name, c, from))
	case StepDefend:
		s.Defense = &c
		att := *s.Attack
		if value(c) >= value(att) {
			evs = append(evs, games.Say("%s defends with %s %s: %d stops %d, and %s takes the offense.",
				name, c, from, value(c), value(att), name))
			s.Last = fmt.Sprintf("%s stopped %s's %s with %s.", name, other, att, c)
			s.endExchange()
			s.Offense = seat
		} else {
			evs = append(evs, games.Say("%s defends with %s %s, but %d doesn't stop %d: %s must deal damage.",
				name, c, from, value(c), value(att), other))
			s.Step = StepDamage
		}
	case StepDamage:
		evs = append(evs, s.damage(seat, c, from))
	}
	return append(evs, s.settle()...), nil
}

// take removes the card the action names from the seat's cards, checking
// that the source is allowed, and says where it came from.
func (s *State) take(seat int, a games.Action) (games.Card, string, error) {
	p := &s.Players[seat]
	switch a.Verb {
	case VerbHand:
		if len(a.Args) != 1 {
			return games.Card{}, "", games.Refuse("Name one card from your hand.")
		}
		c, err := games.ParseCard(a.Args[0])
		if err != nil || !slices.Contains(p.Hand, c) {
			return games.Card{}, "", games.Refuse("%s isn't in your hand.", a.Args[0])
		}
		p.Hand, _ = games.Remove(p.Hand, c)
		return c, "from their hand", nil
	case VerbDeck:
		if len(a.Args) != 0 {
			return games.Card{}, "", games.Refuse("The top of the deck takes no card name.")
		}
		if len(p.Deck) == 0 {
			return games.Card{}, "", games.Refuse("Your deck is empty: %s.", s.emptyDeckChoices(seat))
		}
		c := p.Deck[len(p.Deck)-1]
		p.Deck = p.Deck[:len(p.Deck)-1]
		return c, "from the top of their deck", nil
	}
	// VerbReshuffle
	if len(a.Args) != 0 {
		return games.Card{}, "", games.Refuse("Reshuffling takes no card name.")
	}
	if len(p.Deck) > 0 {
		return games.Card{}, "", games.Refuse("You may only reshuffle once your deck is empty (%s left).", cardCount(len(p.Deck)))
	}
	if len(p.Discard) == 0 {
		return games.Card{}, "", games.Refuse("Your discard pile is empty: there is nothing to reshuffle.")
	}
	n := len(p.Discard)
	p.Deck, p.Discard = p.Discard, nil
	games.Shuffle(&s.RNG, p.Deck)
	c := p.Deck[len(p.Deck)-1]
	p.Deck = p.Deck[:len(p.Deck)-1]
	return c, fmt.Sprintf("from the top of a new deck (their %d discards, reshuffled)", n), nil
}

// emptyDeckChoices says what a player with an empty deck may do instead.
func (s *State) emptyDeckChoices(seat int) string {
	p := s.Players[seat]
	switch {
	case len(p.Hand) > 0 && len(p.Discard) > 0:
		return "play from your hand or reshuffle your discard pile"
	case len(p.Hand) > 0:
		return "play from your hand"
	case len(p.Discard) > 0:
		return "reshuffle your discard pile"
	}
	return "you have no cards left"
}

// damage places the damage card in front of the defender and ends the
// exchange, or the duel.
func (s *State) damage(seat int, c games.Card, from string) games.Event {
	def := &s.Players[1-seat]
	def.Damage = append(def.Damage, c)
	taken := total(def.Damage)
	name, other := s.Names[seat], s.Names[1-seat]
	if taken >= s.Life {
		s.Last = fmt.Sprintf("%s dealt %d damage to %s with %s.", name, value(c), other, c)
		s.finish(seat, fmt.Sprintf("%s took %d damage (life %d) and fell.", other, taken, s.Life))
		return games.Narrate("💀 %s deals %d damage to %s with %s %s. %s has taken %d damage (life %d) and falls: %s wins the duel!",
			name, value(c), other, c, from, other, taken, s.Life, name)
	}
	s.Last = fmt.Sprintf("%s's %s got through %s's %s; %s dealt %d damage with %s.",
		name, *s.Attack, other, *s.Defense, name, value(c), c)
	s.endExchange()
	if value(c) >= bigHit {
		return games.Narrate("💥 %s deals a heavy %d damage to %s with %s %s. %s has taken %d of %d.",
			name, value(c), other, c, from, other, taken, s.Life)
	}
	return games.Say("%s deals %d damage to %s with %s %s (%d of %d taken).",
		name, value(c), other, c, from, taken, s.Life)
}

// endExchange puts both exchange cards on their owners' discard piles; the
// offense stays where it is unless the caller changes it.
func (s *State) endExchange() {
	if s.Attack != nil {
		p := &s.Players[s.Offense]
		p.Discard = append(p.Discard, *s.Attack)
	}
	if s.Defense != nil {
		p := &s.Players[1-s.Offense]
		p.Discard = append(p.Discard, *s.Defense)
	}
	s.Attack, s.Defense, s.Step = nil, nil, StepAttack
}

// finish ends the duel with a winner.
func (s *State) finish(winner int, how string) {
	s.endExchange()
	s.Phase, s.Winner, s.End, s.Step = PhaseOver, winner, how, ""
}

// hasCards reports whether the seat has anything it may play.
func (s *State) hasCards(seat int) bool {
	p := s.Players[seat]
	return len(p.Hand)+len(p.Deck)+len(p.Discard) > 0
}

// settle applies the out-of-cards rulings until the player to move can move.
func (s *State) settle() []games.Event {
	var evs []games.Event
	for s.Phase == PhasePlay {
		seat := s.actor()
		if s.hasCards(seat) {
			break
		}
		name, other := s.Names[seat], s.Names[1-seat]
		if s.Step == StepDamage {
			s.Last = fmt.Sprintf("%s's attack got through, but %s had no card left to deal damage with.", name, name)
			evs = append(evs, games.Say("%s has no card left in hand, deck or discard pile to deal damage with: the attack lands for no damage.", name))
			s.endExchange()
			continue
		}
		s.finish(1-seat, fmt.Sprintf("%s ran out of cards and could not fight on.", name))
		evs = append(evs, games.Narrate("🏳️ %s has no card left in hand, deck or discard pile and cannot fight on: %s wins the duel!", name, other))
	}
	return evs
}

// stepLine says what the player to move must do, for the table and refusals.
func (s *State) stepLine() string {
	who := s.Names[s.actor()]
	switch s.Step {
	case StepAttack:
		return fmt.Sprintf("%s must attack", who)
	case StepDefend:
		return fmt.Sprintf("%s must answer %s's %s", who, s.Names[s.Offense], *s.Attack)
	}
	return fmt.Sprintf("%s must deal damage to %s", who, s.Names[1-s.Offense])
}
