package games

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Suit of a playing card. The order is the tie-break order used where a game
// needs one (♣ < ♦ < ♥ < ♠).
type Suit int

const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// Rank values: 2–10 as printed, then the court cards, the ace and the joker.
const (
	Jack  = 11
	Queen = 12
	King  = 13
	Ace   = 14
	Joker = 15
)

// Card is a standard playing card. A joker has Rank Joker and Suit 0 or 1 to
// tell the two apart.
type Card struct {
	Rank int
	Suit Suit
}

const suitLetters, rankLetters = "CDHS", "??23456789TJQKA"

var suitSymbols = [...]string{"♣", "♦", "♥", "♠"}

// Code is the card's short, custom_id-safe name: "7S", "TD", "AH", "X0".
func (c Card) Code() string {
	b, _ := c.AppendText(make([]byte, 0, 2))
	return string(b)
}

// AppendText appends the card's Code. encoding/json stores a card as its
// code in quotes through it (or MarshalText before Go 1.27), writing into
// its own buffer: a MarshalJSON's bytes are allocated and then checked,
// and a game state holds dozens of cards.
func (c Card) AppendText(b []byte) ([]byte, error) {
	if c.Rank == Joker {
		return fmt.Appendf(b, "X%d", c.Suit), nil
	}
	return append(b, rankLetters[c.Rank], suitLetters[c.Suit]), nil
}

// MarshalText is the card's Code.
func (c Card) MarshalText() ([]byte, error) { return c.AppendText(nil) }

// ParseCard reads a Code.
func ParseCard(s string) (Card, error) {
	if len(s) == 2 && s[0] == 'X' && (s[1] == '0' || s[1] == '1') {
		return Card{Rank: Joker, Suit: Suit(s[1] - '0')}, nil
	}
	if len(s) == 2 {
		r := strings.IndexByte(rankLetters, s[0])
		su := strings.IndexByte(suitLetters, s[1])
		if r >= 2 && su >= 0 {
			return Card{Rank: r, Suit: Suit(su)}, nil
		}
	}
	return Card{}, fmt.Errorf("not a card: %q", s)
}

// String is how a player reads the card: "7♠", "10♥", "K♦", "Joker".
func (c Card) String() string {
	switch {
	case c.Rank == Joker:
		return "🃏 Joker"
	case c.Rank == 10:
		return "10" + suitSymbols[c.Suit]
	case c.Rank >= 2 && c.Rank <= Ace:
		return string(rankLetters[c.Rank]) + suitSymbols[c.Suit]
	}
	return "?"
}

// Red reports whether the card is a heart or a diamond.
func (c Card) Red() bool { return c.Rank != Joker && (c.Suit == Hearts || c.Suit == Diamonds) }

// PipValue is the usual "face cards 10, ace 11" value used by several games.
func (c Card) PipValue() int {
	switch {
	case c.Rank == Ace:
		return 11
	case c.Rank >= 10:
		return 10
	}
	return c.Rank
}

// UnmarshalJSON reads a card code.
func (c *Card) UnmarshalJSON(b []byte) error {
	// A game state holds dozens of cards: skip the general decoder for the
	// usual form, a two-letter code in quotes.
	if len(b) == 4 && b[0] == '"' && b[3] == '"' {
		if v, err := ParseCard(string(b[1:3])); err == nil {
			*c = v
			return nil
		}
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseCard(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// StandardDeck returns the 52 cards in a fixed order, plus jokers if asked.
func StandardDeck(jokers int) []Card {
	d := make([]Card, 0, 52+jokers)
	for s := Clubs; s <= Spades; s++ {
		for r := 2; r <= Ace; r++ {
			d = append(d, Card{Rank: r, Suit: s})
		}
	}
	for j := 0; j < jokers; j++ {
		d = append(d, Card{Rank: Joker, Suit: Suit(j)})
	}
	return d
}

// CardList joins cards for display: "7♠ 10♥ A♣", or "—" when empty.
func CardList(cs []Card) string {
	if len(cs) == 0 {
		return "—"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// Remove takes the first occurrence of c out of cs.
func Remove(cs []Card, c Card) ([]Card, bool) {
	for i, x := range cs {
		if x == c {
			return append(cs[:i:i], cs[i+1:]...), true
		}
	}
	return cs, false
}

// Pile is a draw pile with its discard pile, for any kind of card (a
// game-specific deck defines its own card type with a stable code). Drawing
// from an empty pile reshuffles the discards (the common ruling).
type Pile[C any] struct {
	Draw    []C // top is the last element
	Discard []C
}

// NewPile shuffles a deck into a draw pile.
func NewPile[C any](r *RNG, deck []C) Pile[C] {
	Shuffle(r, deck)
	return Pile[C]{Draw: deck}
}

// Take draws the top card, reshuffling the discards into the pile first when
// it is empty. ok is false when both are empty.
func (p *Pile[C]) Take(r *RNG) (c C, reshuffled, ok bool) {
	if len(p.Draw) == 0 {
		if len(p.Discard) == 0 {
			return c, false, false
		}
		p.Draw, p.Discard = p.Discard, nil
		Shuffle(r, p.Draw)
		reshuffled = true
	}
	c = p.Draw[len(p.Draw)-1]
	p.Draw = p.Draw[:len(p.Draw)-1]
	return c, reshuffled, true
}

// Deal takes n cards (fewer if the piles run dry).
func (p *Pile[C]) Deal(r *RNG, n int) []C {
	out := make([]C, 0, n)
	for range n {
		c, _, ok := p.Take(r)
		if !ok {
			break
		}
		out = append(out, c)
	}
	return out
}

// ParseCodeJSON reads a card code in quotes, as encoding/json writes a
// card type's MarshalText, and parses it.
func ParseCodeJSON[C any](b []byte, parse func(string) (C, error)) (C, error) {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var zero C
		return zero, err
	}
	return parse(s)
}
