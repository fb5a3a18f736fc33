package ai

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// Helpers for reading views. Views are made for people, so a policy reads
// their structured parts first (button actions, menu values) and the text
// only for facts the structure does not carry.

var suitBySymbol = map[string]games.Suit{"♣": games.Clubs, "♦": games.Diamonds, "♥": games.Hearts, "♠": games.Spades}

// ParseCardName reads a card as games.Card.String writes it: "7♠", "10♥",
// "K♦", "🃏 Joker" (the first joker).
func ParseCardName(s string) (games.Card, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "Joker") {
		return games.Card{Rank: games.Joker}, nil
	}
	for sym, suit := range suitBySymbol {
		rank, ok := strings.CutSuffix(s, sym)
		if !ok {
			continue
		}
		switch rank {
		case "J":
			return games.Card{Rank: games.Jack, Suit: suit}, nil
		case "Q":
			return games.Card{Rank: games.Queen, Suit: suit}, nil
		case "K":
			return games.Card{Rank: games.King, Suit: suit}, nil
		case "A":
			return games.Card{Rank: games.Ace, Suit: suit}, nil
		}
		if n, err := strconv.Atoi(rank); err == nil && n >= 2 && n <= 10 {
			return games.Card{Rank: n, Suit: suit}, nil
		}
	}
	return games.Card{}, fmt.Errorf("not a card name: %q", s)
}

// CardNames reads a list written by games.CardList ("7♠ 10♥ A♣", or "—"
// for none). Words that are not cards are skipped.
func CardNames(s string) []games.Card {
	var out []games.Card
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, "*()_,.")
		if c, err := ParseCardName(w); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// FieldWithPrefix returns the first field whose name starts with prefix.
func FieldWithPrefix(v games.View, prefix string) (games.Field, bool) {
	for _, f := range v.Fields {
		if strings.HasPrefix(f.Name, prefix) {
			return f, true
		}
	}
	return games.Field{}, false
}

// IntAfter reads the integer that follows the first occurrence of marker
// in s (after any spaces or '*'), e.g. IntAfter("Deck: 12 cards", "Deck:").
func IntAfter(s, marker string) (int, bool) {
	i := strings.Index(s, marker)
	if i < 0 {
		return 0, false
	}
	rest := strings.TrimLeft(s[i+len(marker):], " *(")
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	return n, err == nil
}

// Line returns the first line of s that starts with prefix.
func Line(s, prefix string) (string, bool) {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l, true
		}
	}
	return "", false
}

// TwoDice is P(lo ≤ 2d6 ≤ hi).
func TwoDice(lo, hi int) float64 {
	lo = max(lo, 2)
	hi = min(hi, 12)
	n := 0
	for t := lo; t <= hi; t++ {
		n += 6 - abs(t-7)
	}
	return float64(n) / 36
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
