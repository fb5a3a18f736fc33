package duel

import (
	"slices"

	"github.com/cardtable/cardbot/games"
)

// Apply validates and performs one action.
func (s *State) Apply(seat int, a games.Action) ([]games.Event, error) {
	if seat < 0 || seat >= len(s.Players) {
		return nil, games.Refuse("You are not playing in this duel.")
	}
	switch a.Verb {
	case VerbPickA, VerbPickB, VerbClear, VerbLock:
		if s.Phase != PhaseBuild {
			return nil, games.Refuse("The hands are already built.")
		}
		return s.applyBuild(seat, a)
	case VerbHand, VerbDeck, VerbReshuffle:
		switch s.Phase {
		case PhaseOver:
			return nil, games.Refuse("The duel is over.")
		case PhaseBuild:
			return nil, games.Refuse("The duel hasn't started: hands are still being built (waiting for %s).", s.waitingNames())
		}
		return s.applyPlay(seat, a)
	}
	return nil, games.Refuse("That isn't a Card Duel move.")
}

// half returns the low (0) or high (1) half of a player's pool.
func (p *Player) half(h int) []games.Card {
	if len(p.Pool) <= halfSize {
		if h == 0 {
			return p.Pool
		}
		return nil
	}
	if h == 0 {
		return p.Pool[:halfSize]
	}
	return p.Pool[halfSize:]
}

func (s *State) applyBuild(seat int, a games.Action) ([]games.Event, error) {
	p := &s.Players[seat]
	if p.Locked {
		return nil, games.Refuse("You have already locked in your hand; waiting for %s.", s.waitingNames())
	}
	switch a.Verb {
	case VerbPickA, VerbPickB:
		h := 0
		if a.Verb == VerbPickB {
			h = 1
		}
		part := p.half(h)
		chosen := map[games.Card]bool{}
		for _, code := range a.Args {
			c, err := games.ParseCard(code)
			if err != nil || !slices.Contains(part, c) {
				return nil, games.Refuse("%s isn't in that part of your card pool.", code)
			}
			if chosen[c] {
				return nil, games.Refuse("%s is picked twice.", c)
			}
			chosen[c] = true
		}
		var picks []games.Card
		for _, c := range p.Pool {
			if slices.Contains(part, c) {
				if chosen[c] {
					picks = append(picks, c)
				}
			} else if slices.Contains(p.Picks, c) {
				picks = append(picks, c)
			}
		}
		p.Picks = picks
		return nil, nil // the tentative hand is private
	case VerbClear:
		if len(a.Args) != 0 {
			return nil, games.Refuse("Clear takes no cards.")
		}
		p.Picks = nil
		return nil, nil
	}
	// VerbLock
	if len(a.Args) != 0 {
		return nil, games.Refuse("Lock in takes no cards: pick them in the menus first.")
	}
	if t := total(p.Picks); t > s.HandLimit {
		return nil, games.Refuse("Your picks are worth %d; a hand may be worth at most %d.", t, s.HandLimit)
	}
	p.Hand = slices.Clone(p.Picks)
	sortCards(p.Hand)
	for _, c := range p.Pool {
		if !slices.Contains(p.Hand, c) {
			p.Deck = append(p.Deck, c)
		}
	}
	p.Pool, p.Picks, p.Locked = nil, nil, true
	evs := []games.Event{games.Say("%s has locked in their hand.", s.Names[seat])}
	if s.Players[1-seat].Locked {
		evs = append(evs, s.begin()...)
	}
	return evs, nil
}

// begin shuffles both decks and starts the first exchange.
func (s *State) begin() []games.Event {
	for seat := range s.Players {
		games.Shuffle(&s.RNG, s.Players[seat].Deck)
	}
	s.Phase, s.Offense, s.Step = PhasePlay, 0, StepAttack
	a, d := s.Players[0], s.Players[1]
	evs := []games.Event{games.Narrate(
		"⚔️ The duel begins! %s (hand of %d, deck of %d) takes the offense against %s (hand of %d, deck of %d). The first to take %d damage falls.",
		s.Names[0], len(a.Hand), len(a.Deck), s.Names[1], len(d.Hand), len(d.Deck), s.Life)}
	return append(evs, s.settle()...)
}

// waitingNames names the players still building.
func (s *State) waitingNames() string {
	var names []string
	for _, seat := range s.ToAct() {
		names = append(names, s.Names[seat])
	}
	if len(names) == 0 {
		return "nobody"
	}
	if len(names) == 2 {
		return names[0] + " and " + names[1]
	}
	return names[0]
}
