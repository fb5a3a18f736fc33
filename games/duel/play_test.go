package duel

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestWrongPlayerIsToldWhoseTurnItIs(t *testing.T) {
	s := playing(t, "8S", "2C 3C", "9H", "2D 3D")
	refused(t, s, 1, "It's Ann's turn: Ann must attack", VerbDeck)
	if v := s.Hand(1); len(v.Buttons) != 0 || !strings.Contains(v.Description, "It's Ann's move") {
		t.Errorf("off-turn hand: %q with %d buttons", v.Description, len(v.Buttons))
	}
	must(t, s, 0, VerbHand, "8S")
	refused(t, s, 0, "It's Bob's turn: Bob must answer Ann's 8♠", VerbDeck)
	refused(t, s, 1, "isn't in your hand", VerbHand, "8S")
	refused(t, s, 1, "Name one card", VerbHand)
	refused(t, s, 1, "takes no card", VerbDeck, "2D")
	refused(t, s, 1, "only reshuffle once your deck is empty (2 cards left)", VerbReshuffle)
}

func TestExchangeOutcome(t *testing.T) {
	cases := []struct {
		attack, defend string
		stopped        bool
	}{
		{"8S", "8H", true}, // equal values stop the attack
		{"8S", "9H", true},
		{"8S", "7H", false},
		{"KS", "TH", true}, // 10 = 10
		{"KS", "AH", true},
		{"AS", "KH", false},
		{"AS", "AH", true},
		{"2S", "2H", true},
	}
	for _, c := range cases {
		t.Run(c.attack+"-"+c.defend, func(t *testing.T) {
			s := playing(t, c.attack+" 5S", "2C 3C", c.defend, "2D 3D")
			must(t, s, 0, VerbHand, c.attack)
			if s.Step != StepDefend || *s.Attack != card(t, c.attack) || !slices.Equal(s.ToAct(), []int{1}) {
				t.Fatalf("after the attack: step %s, ToAct %v", s.Step, s.ToAct())
			}
			evs := must(t, s, 1, VerbHand, c.defend)
			if c.stopped {
				if s.Offense != 1 || s.Step != StepAttack || s.Attack != nil || s.Defense != nil {
					t.Fatalf("stopped attack: offense %d step %s", s.Offense, s.Step)
				}
				if !slices.Equal(s.Players[0].Discard, cards(t, c.attack)) || !slices.Equal(s.Players[1].Discard, cards(t, c.defend)) {
					t.Fatalf("discards %v %v", s.Players[0].Discard, s.Players[1].Discard)
				}
				if !strings.Contains(events(evs), "Bob takes the offense") {
					t.Errorf("events: %s", events(evs))
				}
				return
			}
			if s.Offense != 0 || s.Step != StepDamage || !slices.Equal(s.ToAct(), []int{0}) {
				t.Fatalf("attack through: offense %d step %s", s.Offense, s.Step)
			}
			if !strings.Contains(s.Hand(0).Description, "deal damage") {
				t.Errorf("damage prompt: %q", s.Hand(0).Description)
			}
			must(t, s, 0, VerbHand, "5S")
			if total(s.Players[1].Damage) != 5 || s.Offense != 0 || s.Step != StepAttack {
				t.Fatalf("after damage: %v offense %d", s.Players[1].Damage, s.Offense)
			}
			if !slices.Equal(s.Players[0].Discard, cards(t, c.attack)) || !slices.Equal(s.Players[1].Discard, cards(t, c.defend)) {
				t.Fatalf("discards %v %v", s.Players[0].Discard, s.Players[1].Discard)
			}
			if contains(s.Players[0].Discard, card(t, "5S")) || contains(s.Players[0].Hand, card(t, "5S")) {
				t.Fatal("the damage card went back into play")
			}
		})
	}
}

// hitBob has Ann land one attack on Bob with the given damage card.
func hitBob(t *testing.T, s *State, dmg string) []games.Event {
	t.Helper()
	must(t, s, 0, VerbHand, "AC")
	must(t, s, 1, VerbDeck) // Bob's deck is all low cards
	return must(t, s, 0, VerbHand, dmg)
}

func TestDamageAccumulatesAndKillsAtLife(t *testing.T) {
	cases := []struct {
		life    int
		hits    []string
		dies    bool
		damage  int
		stories int // narrated hits (heavy damage or the kill)
	}{
		{22, []string{"AD", "KH"}, false, 21, 2},
		{22, []string{"AD", "AH"}, true, 22, 2},
		{22, []string{"TH", "TS", "2H"}, true, 22, 3},
		{22, []string{"TH", "9S", "2H"}, false, 21, 1},
		{22, []string{"AD", "TS", "9H"}, true, 30, 3}, // overkill counts in full
		{5, []string{"2H", "2S"}, false, 4, 0},
		{5, []string{"2H", "3S"}, true, 5, 1},
		{60, []string{"AD", "AH", "KH", "KS", "QH"}, false, 52, 5},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.hits, "+"), func(t *testing.T) {
			s := playing(t, "AC "+strings.Join(c.hits, " "), "", "", "2C 2D 2S 3C 3D 3H 3S 4C")
			s.Life = c.life
			stories := 0
			for i, h := range c.hits {
				// Ann's attack card comes back through a reshuffle after the first exchange.
				if i > 0 {
					s.Players[0].Hand = append(s.Players[0].Hand, card(t, "AC"))
					s.Players[0].Discard = nil
					sortCards(s.Players[0].Hand)
				}
				evs := hitBob(t, s, h)
				if hasStory(evs) {
					stories++
				}
				if i < len(c.hits)-1 && s.Over() {
					t.Fatalf("Bob died after %d hits", i+1)
				}
			}
			if got := total(s.Players[1].Damage); got != c.damage {
				t.Fatalf("damage %d, want %d", got, c.damage)
			}
			if s.Over() != c.dies {
				t.Fatalf("over = %v after %d damage (life %d)", s.Over(), c.damage, c.life)
			}
			if stories != c.stories {
				t.Errorf("%d narrated hits, want %d", stories, c.stories)
			}
			res := s.Results()
			if res[0].Score != c.damage || res[1].Score != 0 {
				t.Errorf("results %+v", res)
			}
			if !c.dies {
				if res[0].Winner || res[1].Winner {
					t.Errorf("a winner before the end: %+v", res)
				}
				return
			}
			if !res[0].Winner || res[1].Winner || s.Winner != 0 || len(s.ToAct()) != 0 {
				t.Errorf("results %+v, ToAct %v", res, s.ToAct())
			}
			if !strings.Contains(s.Table().Description, "Ann wins") {
				t.Errorf("table: %q", s.Table().Description)
			}
			refused(t, s, 0, "over", VerbDeck)
			refused(t, s, 1, "over", VerbDeck)
			if v := s.Hand(1); len(v.Buttons) != 0 {
				t.Error("controls offered after the end")
			}
		})
	}
}

func TestEmptyHandPlaysOnlyTheDeck(t *testing.T) {
	s := playing(t, "", "2C 3C", "9H", "2D 3D")
	v := s.Hand(0)
	if got := verbs(v); !slices.Equal(got, []string{VerbDeck}) {
		t.Fatalf("controls with an empty hand: %v", got)
	}
	if !strings.Contains(v.Description, "hand is empty") {
		t.Errorf("description %q", v.Description)
	}
	refused(t, s, 0, "isn't in your hand", VerbHand, "2C")
	refused(t, s, 0, "only reshuffle once your deck is empty", VerbReshuffle)
	evs := must(t, s, 0, VerbDeck)
	if *s.Attack != card(t, "3C") || !strings.Contains(events(evs), "Ann attacks with 3♣ from the top of their deck") {
		t.Fatalf("played %v: %s", s.Attack, events(evs))
	}
}

func TestEmptyDeckPlaysHandOrReshuffles(t *testing.T) {
	s := playing(t, "9S KS", "", "9H", "2D 3D")
	s.Players[0].Discard = cards(t, "4C 5C 6C")
	v := s.Hand(0)
	want := []string{"hand=9S", "hand=KS", VerbReshuffle}
	if got := verbs(v); !slices.Equal(got, want) {
		t.Fatalf("controls with an empty deck: %v, want %v", got, want)
	}
	if l := labels(v); l[2] != "Reshuffle discards (3) & play top" || l[0] != "Attack with 9 (×1)" {
		t.Errorf("labels %v", l)
	}
	refused(t, s, 0, "deck is empty: play from your hand or reshuffle", VerbDeck)

	evs := must(t, s, 0, VerbReshuffle)
	p := s.Players[0]
	if len(p.Discard) != 0 || len(p.Deck) != 2 || s.Attack == nil {
		t.Fatalf("after reshuffle: deck %v discard %v attack %v", p.Deck, p.Discard, s.Attack)
	}
	moved := append(slices.Clone(p.Deck), *s.Attack)
	slices.SortFunc(moved, func(a, b games.Card) int { return a.Rank - b.Rank })
	if !slices.Equal(moved, cards(t, "4C 5C 6C")) {
		t.Fatalf("the discard pile did not become the deck: %v", moved)
	}
	if !strings.Contains(events(evs), "reshuffled") {
		t.Errorf("events %s", events(evs))
	}
	if !slices.Equal(p.Hand, cards(t, "9S KS")) {
		t.Errorf("hand changed: %v", p.Hand)
	}
}

func TestEmptyDeckAndDiscardPlaysOnlyTheHand(t *testing.T) {
	s := playing(t, "9S KS", "", "9H", "2D 3D")
	if got := verbs(s.Hand(0)); !slices.Equal(got, []string{"hand=9S", "hand=KS"}) {
		t.Fatalf("controls: %v", got)
	}
	refused(t, s, 0, "deck is empty: play from your hand", VerbDeck)
	refused(t, s, 0, "discard pile is empty", VerbReshuffle)
}

func TestReshuffleLeavesTheTableCardAlone(t *testing.T) {
	// Ann attacks with her last deck card, it gets through, and she deals
	// damage by reshuffling: the attack card on the table is not in the new deck.
	s := playing(t, "", "9C", "", "2D")
	s.Players[0].Discard = cards(t, "4C 5C")
	must(t, s, 0, VerbDeck)
	must(t, s, 1, VerbDeck)
	if got := verbs(s.Hand(0)); !slices.Equal(got, []string{VerbReshuffle}) {
		t.Fatalf("controls: %v", got)
	}
	must(t, s, 0, VerbReshuffle)
	p := s.Players[0]
	if len(p.Deck) != 1 || contains(p.Deck, card(t, "9C")) || !slices.Equal(p.Discard, cards(t, "9C")) {
		t.Fatalf("deck %v discard %v", p.Deck, p.Discard)
	}
	if d := s.Players[1].Damage; len(d) != 1 || (d[0] != card(t, "4C") && d[0] != card(t, "5C")) {
		t.Fatalf("damage %v", d)
	}
}

func TestOneButtonPerValue(t *testing.T) {
	s := playing(t, "2C 2D TS JH QD KC AS AH 5S", "3C", "9H", "2H")
	v := s.Hand(0)
	want := []string{"Attack with 2 (×2)", "Attack with 5 (×1)", "Attack with 10 (×4)", "Attack with A (11) (×2)", "Top of deck (1 left)"}
	if got := labels(v); !slices.Equal(got, want) {
		t.Fatalf("labels %v, want %v", got, want)
	}
	if got := verbs(v); !slices.Equal(got, []string{"hand=2C", "hand=5S", "hand=TS", "hand=AH", VerbDeck}) {
		t.Fatalf("actions %v", got)
	}
	must(t, s, 0, VerbHand, "2D") // any card of the hand is still playable by name
	v = s.Hand(1)
	if v.Buttons[0].Style != games.Success || v.Buttons[0].Label != "Defend with 9 (×1)" {
		t.Errorf("defend button %+v", v.Buttons[0])
	}
	s = playing(t, "QD", "3C", "9H", "2H")
	must(t, s, 0, VerbHand, "QD")
	if b := s.Hand(1).Buttons[0]; b.Style != games.Secondary {
		t.Errorf("a defense too weak to stop the attack is styled %v", b.Style)
	}
}

// Out-of-cards rulings: unreachable with the allowed life values, so the
// states are constructed.
func TestOutOfCardsRulings(t *testing.T) {
	t.Run("attacker with nothing loses", func(t *testing.T) {
		s := playing(t, "", "", "9H", "2D")
		evs := s.settle()
		if !s.Over() || s.Winner != 1 || !hasStory(evs) || !strings.Contains(events(evs), "Ann has no card left") {
			t.Fatalf("over %v winner %d: %s", s.Over(), s.Winner, events(evs))
		}
		if res := s.Results(); !res[1].Winner || res[0].Winner {
			t.Errorf("results %+v", res)
		}
	})
	t.Run("defender with nothing loses", func(t *testing.T) {
		s := playing(t, "8S", "", "", "")
		evs := must(t, s, 0, VerbHand, "8S")
		if !s.Over() || s.Winner != 0 || !strings.Contains(events(evs), "Bob has no card left") {
			t.Fatalf("over %v winner %d: %s", s.Over(), s.Winner, events(evs))
		}
		if len(s.Players[0].Discard) != 1 || s.Attack != nil {
			t.Error("the attack card was not cleared off the table")
		}
	})
	t.Run("attacker with nothing to deal damage with", func(t *testing.T) {
		s := playing(t, "8S", "", "", "2D")
		must(t, s, 0, VerbHand, "8S")
		evs := must(t, s, 1, VerbDeck)
		if s.Over() || len(s.Players[1].Damage) != 0 || s.Offense != 0 || s.Step != StepAttack {
			t.Fatalf("over %v damage %v offense %d step %s", s.Over(), s.Players[1].Damage, s.Offense, s.Step)
		}
		if !strings.Contains(events(evs), "lands for no damage") {
			t.Errorf("events %s", events(evs))
		}
		// Ann attacks again with her reshuffled attack card.
		if got := verbs(s.Hand(0)); !slices.Equal(got, []string{VerbReshuffle}) {
			t.Fatalf("controls %v", got)
		}
	})
}

func TestTableShowsPublicInfoOnly(t *testing.T) {
	s := playing(t, "2C 9S KS", "4C 5C", "9H AD", "2D 3D")
	s.Players[1].Damage = cards(t, "7S")
	s.Players[0].Discard = cards(t, "6D 8D")
	must(t, s, 0, VerbHand, "KS")
	v := s.Table()
	text := viewText(v)
	for _, want := range []string{"Ann** is on offense", "Attack: **K♠** (10) by Ann", "Bob must answer it", "Hand: 2 · Deck: 2",
		"Discard (top last): 6♦ 8♦", "Damage: **7 / 22** (7♠)"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	for _, secret := range []string{"2♣", "9♠", "9♥", "A♦"} {
		if strings.Contains(text, secret) {
			t.Errorf("table shows hand card %s", secret)
		}
	}
	checkLayout(t, v)
	if h := s.Hand(0); !strings.Contains(viewText(h), "2♣ 9♠") || !strings.Contains(h.Description, "It's Bob's move") {
		t.Errorf("Ann's hand view: %s", viewText(h))
	}
	// The attack card is on the table once.
	if n := strings.Count(text, "K♠"); n != 1 {
		t.Errorf("the table shows the attack %d times:\n%s", n, text)
	}
	// The hand does not repeat the table's public status.
	for seat := range s.Players {
		if h := viewText(s.Hand(seat)); strings.Contains(h, "Damage") || strings.Contains(h, "Discard") || strings.Contains(h, "6♦") {
			t.Errorf("seat %d's hand repeats the table:\n%s", seat, h)
		}
	}
}

// TestLayoutWorstCase checks the largest views: every value in hand (more
// than any legal hand can hold) at each step, and the build menus.
func TestLayoutWorstCase(t *testing.T) {
	all := "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"
	s := playing(t, all, "2H 3H", all, "2S 3S")
	s.Players[1].Hand = cards(t, strings.ReplaceAll(strings.ReplaceAll(all, "C", "H"), "D", "S"))
	s.Players[1].Deck = cards(t, "4H")
	sortCards(s.Players[1].Hand)
	for _, seat := range []int{0, 1, 0} { // attack, defend (letting it through), damage
		v := s.Hand(seat)
		checkLayout(t, v)
		if len(v.Buttons) != 11 {
			t.Fatalf("%d buttons: %v", len(v.Buttons), labels(v))
		}
		checkLayout(t, s.Table())
		if seat == 0 && s.Step == StepAttack {
			must(t, s, 0, VerbHand, "AC")
		} else if seat == 1 {
			must(t, s, 1, VerbHand, "2H")
		}
	}
	if s.Step != StepDamage {
		t.Fatalf("step %s", s.Step)
	}
	b := newDuel(t, 9, map[string]int{OptHandLimit: 60})
	checkLayout(t, b.Hand(0))
	if v := b.Hand(0); len(v.Choices) != 2 || len(v.Choices[0].Options) != 13 || len(v.Choices[1].Options) != 13 {
		t.Fatalf("build menus: %+v", v.Choices)
	}
}
