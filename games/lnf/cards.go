package lnf

import (
	"fmt"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Color is a card's colour: one of the four areas of life, or grey for the
// four wild cards.
type Color int

const (
	Red Color = iota
	Green
	Blue
	Yellow
	Grey
)

const colorLetters = "RGBYW"

var (
	colorNames = [...]string{"Red", "Green", "Blue", "Yellow", "Grey"}
	colorEmoji = [...]string{"🟥", "🟩", "🟦", "🟨", "⬜"}
	// areas are the areas of life the colours stand for.
	areas = [...]string{"body", "money", "mind", "relationships", "wild"}
	// numberWords spell the Draw N cards and the digits of a typed line.
	numberWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
)

// Card is one card of the 76-card deck. A wild card is Grey with the number
// printed on it; GameOver tells the Game Over wild (2) from Draw Two (2).
type Card struct {
	Color    Color
	Num      int
	GameOver bool
}

// The four wild cards.
var (
	DrawTwo   = Card{Color: Grey, Num: 2}
	DrawThree = Card{Color: Grey, Num: 3}
	DrawFour  = Card{Color: Grey, Num: 4}
	GameOver  = Card{Color: Grey, Num: 2, GameOver: true}
)

// Deck is the 76 cards in a fixed order: each colour 1–9 twice, then the wilds.
func Deck() []Card {
	d := make([]Card, 0, 76)
	for c := Red; c <= Yellow; c++ {
		for n := 1; n <= 9; n++ {
			d = append(d, Card{Color: c, Num: n}, Card{Color: c, Num: n})
		}
	}
	return append(d, DrawTwo, DrawThree, DrawFour, GameOver)
}

// Wild reports whether c is one of the four grey cards.
func (c Card) Wild() bool { return c.Color == Grey }

// Draws is how many cards a Draw N card makes the next player draw (0 for
// every other card).
func (c Card) Draws() int {
	if c.Wild() && !c.GameOver {
		return c.Num
	}
	return 0
}

// Code is the card's short, custom_id-safe name: "R7", "Y1", "W2", "W3",
// "W4", "WG".
func (c Card) Code() string {
	if c.GameOver {
		return "WG"
	}
	return fmt.Sprintf("%c%d", colorLetters[c.Color], c.Num)
}

// ParseCard reads a Code.
func ParseCard(s string) (Card, error) {
	if s == "WG" {
		return GameOver, nil
	}
	if len(s) == 2 {
		col, n := strings.IndexByte(colorLetters, s[0]), int(s[1]-'0')
		switch {
		case col >= 0 && col < int(Grey) && n >= 1 && n <= 9:
			return Card{Color: Color(col), Num: n}, nil
		case col == int(Grey) && n >= 2 && n <= 4:
			return Card{Color: Grey, Num: n}, nil
		}
	}
	return Card{}, fmt.Errorf("not a card: %q", s)
}

// Name is the card's name without decoration: "Red 7", "Draw Two", "Game Over".
func (c Card) Name() string {
	switch {
	case c.GameOver:
		return "Game Over"
	case c.Wild():
		return "Draw " + strings.ToUpper(numberWords[c.Num][:1]) + numberWords[c.Num][1:]
	}
	return fmt.Sprintf("%s %d", colorNames[c.Color], c.Num)
}

// String is how players read the card: "🟥 Red 7", "⬜ Draw Two (2)".
func (c Card) String() string {
	if c.Wild() {
		return fmt.Sprintf("%s %s (%d)", colorEmoji[Grey], c.Name(), c.Num)
	}
	return colorEmoji[c.Color] + " " + c.Name()
}

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

// less orders a hand: by colour, then number, the wilds last.
func less(a, b Card) int {
	if a.Color != b.Color {
		return int(a.Color) - int(b.Color)
	}
	if a.Num != b.Num {
		return a.Num - b.Num
	}
	if a.GameOver != b.GameOver {
		if a.GameOver {
			return 1
		}
		return -1
	}
	return 0
}

// sum is what a hand counts against its holder: every card its number.
func sum(cs []Card) int {
	t := 0
	for _, c := range cs {
		t += c.Num
	}
	return t
}

// list joins cards for display, or "—" when there are none.
func list(cs []Card) string {
	if len(cs) == 0 {
		return "—"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ", ")
}

// line is what the player of a wild card must say.
func (c Card) line() string { return "Life is not fair, but " + strings.ToLower(c.Name()) }

// saidLine reports whether text is the card's line. Case, punctuation and
// spacing don't matter, and a digit counts as its word ("draw 2" = "draw two").
func (c Card) saidLine(text string) bool { return normalize(text) == normalize(c.line()) }

func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteString(numberWords[r-'0'])
		}
	}
	return b.String()
}
