package dealt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Faces above the numbers 1–12.
const (
	Wild   = 13 // X: any value 1–12, declared when played
	Redraw = 14
	Stop   = 15
)

// Card is one of the 54 cards. Copy tells identical faces apart (0–3 for
// numbers, 0–1 for specials) so every physical card has its own code.
type Card struct {
	Face int
	Copy int
}

const copyLetters = "abcd"

// copyMarks colour the copies in the owner's hand view only: a card shown
// with its mark is one particular card, so a mark seen anywhere else would
// be a leak (the conformance kit checks for exactly that).
var copyMarks = [...]string{"🔴", "🔵", "🟢", "🟡"}

// Deck returns the 54 cards in a fixed order.
func Deck() []Card {
	d := make([]Card, 0, 54)
	for f := 1; f <= 12; f++ {
		for c := range 4 {
			d = append(d, Card{f, c})
		}
	}
	for _, f := range []int{Wild, Redraw, Stop} {
		d = append(d, Card{f, 0}, Card{f, 1})
	}
	return d
}

// Number reports whether the card has a printed value 1–12.
func (c Card) Number() bool { return c.Face >= 1 && c.Face <= 12 }

// Special reports whether the card is a Stop or a Redraw: played alone, never
// part of a combination.
func (c Card) Special() bool { return c.Face == Stop || c.Face == Redraw }

func (c Card) copies() int {
	if c.Number() {
		return 4
	}
	return 2
}

// Code is the card's short custom_id-safe name: "7a", "12d", "Xb", "Ra", "Sb".
func (c Card) Code() string {
	var f string
	switch c.Face {
	case Wild:
		f = "X"
	case Redraw:
		f = "R"
	case Stop:
		f = "S"
	default:
		f = strconv.Itoa(c.Face)
	}
	return f + string(copyLetters[c.Copy])
}

// ParseCard reads a Code.
func ParseCard(s string) (Card, error) {
	if len(s) < 2 {
		return Card{}, fmt.Errorf("not a card: %q", s)
	}
	face, cp := s[:len(s)-1], strings.IndexByte(copyLetters, s[len(s)-1])
	var c Card
	switch face {
	case "X":
		c.Face = Wild
	case "R":
		c.Face = Redraw
	case "S":
		c.Face = Stop
	default:
		n, err := strconv.Atoi(face)
		if err != nil || n < 1 || n > 12 || face != strconv.Itoa(n) {
			return Card{}, fmt.Errorf("not a card: %q", s)
		}
		c.Face = n
	}
	c.Copy = cp
	if cp < 0 || cp >= c.copies() {
		return Card{}, fmt.Errorf("not a card: %q", s)
	}
	return c, nil
}

// Label is the face alone, the way the table shows a card: "7", "X", "Stop".
func (c Card) Label() string {
	switch c.Face {
	case Wild:
		return "X"
	case Redraw:
		return "Redraw"
	case Stop:
		return "Stop"
	}
	return strconv.Itoa(c.Face)
}

// String is the face with its copy mark, for the owner's own hand: "🔴7".
func (c Card) String() string { return copyMarks[c.Copy] + c.Label() }

// AppendText appends the card's code, which encoding/json stores in quotes.
func (c Card) AppendText(b []byte) ([]byte, error) { return append(b, c.Code()...), nil }

// MarshalText is the card's code (encoding/json before Go 1.27 uses it).
func (c Card) MarshalText() ([]byte, error) { return []byte(c.Code()), nil }

// UnmarshalJSON reads a card code.
func (c *Card) UnmarshalJSON(b []byte) error {
	v, err := games.ParseCodeJSON(b, ParseCard)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// labels writes cards as the table shows them: "7 X 9".
func labels(cs []Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Label()
	}
	return strings.Join(parts, " ")
}

// marked writes cards as their owner sees them: "🔴7 🟢X 🔵9".
func marked(cs []Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}
