package duel

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// The tests in this file check the duel against the rule text (004) and
// RULINGS.md, independently of how the code is written.

// ruleValue is the text's card value: number cards as printed, J/Q/K 10, A 11.
func ruleValue(c games.Card) int {
	switch {
	case c.Rank == games.Ace:
		return 11
	case c.Rank > 10:
		return 10
	}
	return c.Rank
}

func ruleTotal(cs []games.Card) int {
	n := 0
	for _, c := range cs {
		n += ruleValue(c)
	}
	return n
}

func sameCards(a, b []games.Card) bool { return slices.Equal(sorted(a), sorted(b)) }

// model is the duel as the rule text describes it, kept apart from State.
type model struct {
	life     int
	hand     [2][]games.Card
	deck     [2][]games.Card // top last, as the state keeps it
	discard  [2][]games.Card // top last
	damage   [2][]games.Card // cards placed in front of that seat
	offense  int
	step     string
	att, def *games.Card
	over     bool
	winner   int
}

func (m *model) actor() int {
	if m.step == StepDefend {
		return 1 - m.offense
	}
	return m.offense
}

// legal lists every action the text allows the actor: any hand card, the
// deck top while the deck has cards, a reshuffle once it is empty.
func (m *model) legal() []games.Action {
	seat := m.actor()
	var out []games.Action
	for _, c := range m.hand[seat] {
		out = append(out, games.Act(VerbHand, c.Code()))
	}
	if len(m.deck[seat]) > 0 {
		out = append(out, games.Act(VerbDeck))
	} else if len(m.discard[seat]) > 0 {
		out = append(out, games.Act(VerbReshuffle))
	}
	return out
}

// endExchange puts the exchange cards on their owners' discard piles.
func (m *model) endExchange() {
	m.discard[m.offense] = append(m.discard[m.offense], *m.att)
	m.discard[1-m.offense] = append(m.discard[1-m.offense], *m.def)
	m.att, m.def, m.step = nil, nil, StepAttack
}

// play applies card c, already taken from the actor's cards.
func (m *model) play(c games.Card) {
	switch m.step {
	case StepAttack:
		m.att, m.step = &c, StepDefend
	case StepDefend:
		m.def = &c
		if ruleValue(c) >= ruleValue(*m.att) { // stopped: the defender takes the offense
			m.endExchange()
			m.offense = 1 - m.offense
		} else {
			m.step = StepDamage
		}
	case StepDamage:
		d := 1 - m.offense
		m.damage[d] = append(m.damage[d], c)
		m.endExchange()
		if ruleTotal(m.damage[d]) >= m.life {
			m.over, m.winner, m.step = true, m.offense, ""
		}
	}
}

// check compares the state with the model.
func (m *model) check(t *testing.T, s *State, where string) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s", where, fmt.Sprintf(format, args...))
	}
	if s.Over() != m.over {
		fail("over = %v, the rules say %v", s.Over(), m.over)
	}
	if m.over {
		if s.Winner != m.winner {
			fail("winner %d, want %d", s.Winner, m.winner)
		}
		res := s.Results()
		for seat := range res {
			if res[seat].Winner != (seat == m.winner) || res[seat].Score != ruleTotal(m.damage[1-seat]) {
				fail("results %+v", res)
			}
		}
		if len(s.ToAct()) != 0 {
			fail("ToAct %v after the end", s.ToAct())
		}
	} else {
		if s.Offense != m.offense || s.Step != m.step {
			fail("offense %d step %s, want %d %s", s.Offense, s.Step, m.offense, m.step)
		}
		if !slices.Equal(s.ToAct(), []int{m.actor()}) {
			fail("ToAct %v, want %d", s.ToAct(), m.actor())
		}
		if (s.Attack == nil) != (m.att == nil) || m.att != nil && *s.Attack != *m.att ||
			(s.Defense == nil) != (m.def == nil) || m.def != nil && *s.Defense != *m.def {
			fail("exchange %v/%v, want %v/%v", s.Attack, s.Defense, m.att, m.def)
		}
	}
	for seat, p := range s.Players {
		if !sameCards(p.Hand, m.hand[seat]) || !slices.Equal(p.Deck, m.deck[seat]) ||
			!slices.Equal(p.Discard, m.discard[seat]) || !slices.Equal(p.Damage, m.damage[seat]) {
			fail("seat %d: hand %v deck %v discard %v damage %v; want %v %v %v %v", seat,
				p.Hand, p.Deck, p.Discard, p.Damage, m.hand[seat], m.deck[seat], m.discard[seat], m.damage[seat])
		}
	}
	// Sizes, discards and damage are public.
	table := viewText(s.Table())
	for seat, p := range s.Players {
		if want := fmt.Sprintf("Hand: %d · Deck: %d", len(p.Hand), len(p.Deck)); !strings.Contains(table, want) {
			fail("the table lacks %q:\n%s", want, table)
		}
		if want := fmt.Sprintf("Damage: **%d / %d**", ruleTotal(m.damage[seat]), m.life); !m.over && !strings.Contains(table, want) {
			fail("the table lacks %q:\n%s", want, table)
		}
	}
}

// randomHand draws a random hand within limit from pool; with over set it
// tries to exceed the limit instead.
func randomHand(r *games.RNG, pool []games.Card, limit int, over bool) []games.Card {
	cs := slices.Clone(pool)
	games.Shuffle(r, cs)
	want := r.Intn(len(cs) + 1)
	var out []games.Card
	for _, c := range cs {
		if len(out) >= want && !over {
			break
		}
		if over || ruleTotal(out)+ruleValue(c) <= limit {
			out = append(out, c)
		}
		if over && ruleTotal(out) > limit {
			break
		}
	}
	return out
}

// TestAuditRandomPlayFollowsTheRules plays seeded random duels, every move
// chosen from what the text allows, and checks each step against the model:
// who moves, what is refused, where every card goes, damage, the end.
func TestAuditRandomPlayFollowsTheRules(t *testing.T) {
	n := 200
	if testing.Short() || raceOn {
		n = 40
	}
	reshuffles, kills := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := games.NewRNG(seed*104729 + 11)
		opts := map[string]int{}
		switch seed % 4 {
		case 1:
			opts = map[string]int{OptLife: maxLife, OptHandLimit: maxHandLimit}
		case 2:
			opts = map[string]int{OptLife: minLife, OptHandLimit: minHandLimit}
		case 3:
			opts = map[string]int{OptLife: minLife + r.Intn(maxLife-minLife+1), OptHandLimit: minHandLimit + r.Intn(maxHandLimit-minHandLimit+1)}
		}
		s := newDuel(t, seed, opts)
		limit, life := DefaultHandLimit, DefaultLife
		if len(opts) > 0 {
			limit, life = opts[OptHandLimit], opts[OptLife]
		}
		if s.HandLimit != limit || s.Life != life {
			t.Fatalf("seed %d: limit %d life %d, options say %d %d", seed, s.HandLimit, s.Life, limit, life)
		}
		// 26 cards each, from one 52-card deck without jokers.
		var pools [2][]games.Card
		for seat := range pools {
			pools[seat] = slices.Clone(s.Players[seat].Pool)
			if len(pools[seat]) != 26 {
				t.Fatalf("seed %d: pool of %d", seed, len(pools[seat]))
			}
		}
		if !sameCards(slices.Concat(pools[0], pools[1]), games.StandardDeck(0)) {
			t.Fatalf("seed %d: the pools are not one deck", seed)
		}

		// Building, in a random order of locking.
		m := &model{life: life, winner: -1}
		order := []int{0, 1}
		games.Shuffle(&r, order)
		for _, seat := range order {
			if r.Intn(3) == 0 {
				if h := randomHand(&r, pools[seat], limit, true); ruleTotal(h) > limit {
					pick(t, s, seat, h)
					refused(t, s, seat, "at most", VerbLock)
				}
			}
			h := randomHand(&r, pools[seat], limit, false)
			pick(t, s, seat, h)
			must(t, s, seat, VerbLock)
			p := s.Players[seat]
			if !sameCards(p.Hand, h) || !sameCards(slices.Concat(p.Hand, p.Deck), pools[seat]) {
				t.Fatalf("seed %d seat %d: hand %v deck %v from picks %v", seed, seat, p.Hand, p.Deck, h)
			}
			m.hand[seat] = h
		}
		// The dealer (the host, seat 0) starts on offense.
		if s.Phase != PhasePlay || s.Offense != 0 || s.Step != StepAttack {
			t.Fatalf("seed %d: start phase %s offense %d step %s", seed, s.Phase, s.Offense, s.Step)
		}
		for seat := range m.deck {
			m.deck[seat] = slices.Clone(s.Players[seat].Deck) // shuffled: adopt the order
		}
		m.offense, m.step = 0, StepAttack
		m.check(t, s, fmt.Sprintf("seed %d start", seed))

		for step := 0; !m.over; step++ {
			where := fmt.Sprintf("seed %d step %d", seed, step)
			if step > 20000 {
				t.Fatalf("%s: no end", where)
			}
			seat := m.actor()
			legal := m.legal()
			if len(legal) == 0 {
				t.Fatalf("%s: seat %d has no card at all", where, seat)
			}
			// The buttons: one per value in hand, then the deck or the reshuffle.
			var want []string
			for i, c := range sorted(m.hand[seat]) {
				if i == 0 || ruleValue(c) != ruleValue(sorted(m.hand[seat])[i-1]) {
					want = append(want, games.Act(VerbHand, c.Code()).Key())
				}
			}
			want = append(want, legal[len(legal)-1].Key())
			if legal[len(legal)-1].Verb == VerbHand {
				want = want[:len(want)-1]
			}
			v := s.Hand(seat)
			if got := verbs(v); !slices.Equal(got, want) {
				t.Fatalf("%s: offered %v, want %v", where, got, want)
			}
			// With an empty hand the only move has nothing to decide.
			if len(m.hand[seat]) == 0 && !v.Buttons[0].Forced {
				t.Fatalf("%s: the only move %q is not marked forced", where, v.Buttons[0].Label)
			}
			if len(verbs(s.Hand(1-seat))) != 0 {
				t.Fatalf("%s: the seat not to move is offered moves", where)
			}
			// A few moves the text forbids.
			refused(t, s, 1-seat, "turn", VerbDeck)
			if len(m.deck[seat]) == 0 {
				refused(t, s, seat, "deck is empty", VerbDeck)
			} else {
				refused(t, s, seat, "only reshuffle once your deck is empty", VerbReshuffle)
			}
			if len(m.deck[seat]) == 0 && len(m.discard[seat]) == 0 {
				refused(t, s, seat, "nothing to reshuffle", VerbReshuffle)
			}
			if x := games.StandardDeck(0)[r.Intn(52)]; !contains(m.hand[seat], x) {
				refused(t, s, seat, "isn't in your hand", VerbHand, x.Code())
			}

			// A random legal move, leaning to the deck so that decks run out.
			a := legal[r.Intn(len(legal))]
			if last := legal[len(legal)-1]; last.Verb != VerbHand && r.Intn(2) == 0 {
				a = last
			}
			var c games.Card
			preDiscard := slices.Clone(m.discard[seat])
			switch a.Verb {
			case VerbHand:
				c = card(t, a.Arg(0))
				m.hand[seat], _ = games.Remove(m.hand[seat], c)
			case VerbDeck:
				d := m.deck[seat]
				c, m.deck[seat] = d[len(d)-1], d[:len(d)-1]
			}
			must(t, s, seat, a.Verb, a.Args...)
			if a.Verb == VerbReshuffle {
				// The whole discard pile becomes the deck; the card played is its top.
				p := s.Players[seat]
				c = m.reshuffled(t, where, s, seat)
				if !sameCards(append(slices.Clone(p.Deck), c), preDiscard) {
					t.Fatalf("%s: reshuffle made deck %v + %v from discards %v", where, p.Deck, c, preDiscard)
				}
				m.deck[seat], m.discard[seat] = slices.Clone(p.Deck), nil
				reshuffles++
			}
			m.play(c)
			m.check(t, s, where+" after "+a.Key())
		}
		if strings.Contains(s.End, "took") {
			kills++
		}
	}
	if reshuffles == 0 || kills != n {
		t.Fatalf("%d reshuffles, %d of %d duels ended by damage", reshuffles, kills, n)
	}
	t.Logf("%d duels, %d reshuffles", n, reshuffles)
}

// reshuffled finds the card a reshuffle played (its order is the RNG's):
// the one the exchange, the discard pile or the damage pile gained.
func (m *model) reshuffled(t *testing.T, where string, s *State, seat int) games.Card {
	t.Helper()
	switch m.step {
	case StepAttack:
		if s.Attack != nil {
			return *s.Attack
		}
	case StepDefend:
		if s.Defense != nil {
			return *s.Defense
		}
		// Stopped: the defence is now on top of the seat's discard pile.
		if d := s.Players[seat].Discard; len(d) > 0 {
			return d[len(d)-1]
		}
	case StepDamage:
		if d := s.Players[1-seat].Damage; len(d) > 0 {
			return d[len(d)-1]
		}
	}
	t.Fatalf("%s: cannot find the reshuffled card", where)
	return games.Card{}
}

// TestAuditEmptyHandAndDeckOnlyReshuffles: with no hand and no deck the
// text leaves one move, the reshuffle; like the deck top with an empty
// hand it has nothing to decide, so the bot may make it (Forced), and the
// help does not offer a hand that is empty.
func TestAuditEmptyHandAndDeckOnlyReshuffles(t *testing.T) {
	s := playing(t, "", "", "9H", "2D 3D")
	s.Players[0].Discard = cards(t, "4C 5C")
	v := s.Hand(0)
	if got := verbs(v); !slices.Equal(got, []string{VerbReshuffle}) {
		t.Fatalf("controls %v", got)
	}
	if !v.Buttons[0].Forced {
		t.Error("the reshuffle, the only move, is not marked forced")
	}
	if strings.Contains(v.Description, "play from your hand") {
		t.Errorf("help offers the empty hand: %q", v.Description)
	}
	refused(t, s, 0, "deck is empty: reshuffle your discard pile", VerbDeck)
	refused(t, s, 0, "isn't in your hand", VerbHand, "4C")
	must(t, s, 0, VerbReshuffle)
	if s.Attack == nil || !sameCards(append(slices.Clone(s.Players[0].Deck), *s.Attack), cards(t, "4C 5C")) {
		t.Fatalf("attack %v deck %v", s.Attack, s.Players[0].Deck)
	}
	// With a hand left, the reshuffle is one choice of several.
	s = playing(t, "9S", "", "9H", "2D 3D")
	s.Players[0].Discard = cards(t, "4C")
	if d := s.Hand(0).Description; !strings.Contains(d, "play from your hand, or shuffle") {
		t.Errorf("help %q", d)
	}
}

// examplePool gives Ann a pool holding every hand of the text's example.
func examplePool(t *testing.T, s *State) {
	t.Helper()
	splitDeck(s, cards(t, "2C 2D 3C 3D 3H 4C 5C 5D 7C 8C AC AD KC KD QC 6C 6D 6H 9C 9D 9H TC TD TH JC JD"))
	sortCards(s.Players[1].Pool)
}

// TestAuditExampleHands locks each hand the text says A could take.
func TestAuditExampleHands(t *testing.T) {
	for _, h := range []string{"2C 2D AC 8C 7C", "AC AD", "KC KD QC", "2C 2D 3C 3D 3H 4C 5C 5D"} {
		t.Run(h, func(t *testing.T) {
			s := newDuel(t, 1, nil)
			examplePool(t, s)
			hand := cards(t, h)
			pick(t, s, 0, hand)
			must(t, s, 0, VerbLock)
			p := s.Players[0]
			if !sameCards(p.Hand, hand) || len(p.Deck) != 26-len(hand) || total(p.Hand) > 30 {
				t.Fatalf("hand %v (worth %d), deck of %d", p.Hand, total(p.Hand), len(p.Deck))
			}
		})
	}
	// The last hand keeps every poor card out of the deck.
	s := newDuel(t, 1, nil)
	examplePool(t, s)
	pick(t, s, 0, cards(t, "2C 2D 3C 3D 3H 4C 5C 5D"))
	must(t, s, 0, VerbLock)
	for _, c := range s.Players[0].Deck {
		if value(c) < 6 {
			t.Fatalf("deck holds %v", c)
		}
	}
}

// TestAuditHostAttacksFirstWhenLockingLast: the dealer (host, seat 0)
// starts on offense whoever finishes building first.
func TestAuditHostAttacksFirstWhenLockingLast(t *testing.T) {
	s := newDuel(t, 2, nil)
	must(t, s, 1, VerbLock)
	must(t, s, 0, VerbLock)
	if s.Offense != 0 || !slices.Equal(s.ToAct(), []int{0}) {
		t.Fatalf("offense %d, ToAct %v", s.Offense, s.ToAct())
	}
	refused(t, s, 1, "It's Ann's turn: Ann must attack", VerbDeck)
}

// TestAuditDamageFromDeckTop: the damage card may be the top of the deck,
// and it kills when the total reaches life exactly.
func TestAuditDamageFromDeckTop(t *testing.T) {
	s := playing(t, "", "5C 4C 9C", "", "2D 3D 2H")
	s.Players[1].Damage = cards(t, "KS AS") // 21 taken
	must(t, s, 0, VerbDeck)                 // 9♣ attacks
	must(t, s, 1, VerbDeck)                 // 2♥ does not stop it
	if s.Step != StepDamage {
		t.Fatalf("step %s", s.Step)
	}
	must(t, s, 0, VerbDeck) // 4♣ damage: 25
	if !s.Over() || s.Winner != 0 || !slices.Equal(s.Players[1].Damage, cards(t, "KS AS 4C")) {
		t.Fatalf("over %v winner %d damage %v", s.Over(), s.Winner, s.Players[1].Damage)
	}
	if !slices.Equal(s.Players[0].Deck, cards(t, "5C")) {
		t.Errorf("Ann's deck %v", s.Players[0].Deck)
	}
}

// TestAuditDefenderReshufflesOwnDiscards: a defender with an empty deck may
// answer from a reshuffle of their own discard pile; the attacker's card on
// the table and the attacker's discards stay put.
func TestAuditDefenderReshufflesOwnDiscards(t *testing.T) {
	s := playing(t, "8S", "2C", "", "")
	s.Players[0].Discard = cards(t, "3S")
	s.Players[1].Discard = cards(t, "9H")
	must(t, s, 0, VerbHand, "8S")
	if got := verbs(s.Hand(1)); !slices.Equal(got, []string{VerbReshuffle}) {
		t.Fatalf("Bob's controls %v", got)
	}
	must(t, s, 1, VerbReshuffle) // his only discard, the 9♥, stops the 8♠
	if s.Offense != 1 || !slices.Equal(s.Players[1].Discard, cards(t, "9H")) || len(s.Players[1].Deck) != 0 ||
		!slices.Equal(s.Players[0].Discard, cards(t, "3S 8S")) || !slices.Equal(s.Players[0].Deck, cards(t, "2C")) {
		t.Fatalf("offense %d; Ann %v/%v; Bob %v/%v", s.Offense, s.Players[0].Deck, s.Players[0].Discard, s.Players[1].Deck, s.Players[1].Discard)
	}
}
