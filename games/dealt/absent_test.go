package dealt

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

// away is the move the bot makes for a player who lets the deadline pass,
// as bot.defaultMove picks it: the view's Away move, else its first enabled
// button without a text box, else the first option of its first menu.
func away(t *testing.T, v games.View) games.Action {
	t.Helper()
	if v.Away != nil {
		return *v.Away
	}
	for _, b := range v.Buttons {
		if !b.Disabled && b.Ask == nil {
			return b.Action
		}
	}
	for _, c := range v.Choices {
		if len(c.Options) > 0 {
			return games.Act(c.Verb, c.Options[0].Value)
		}
	}
	t.Fatalf("no move offered: %+v", v)
	return games.Action{}
}

// longHand is 25 number cards: with the gap menus it needs, each reserve
// card gets a "Take reserve…" button.
const longHand = "1 2 3 4 5 6 7 8 9 10 11 12 1 2 3 4 5 6 7 8 9 10 11 12 9"

// A player away with a long hand and a reserve card, who can beat the
// trick, plays: the reserve card stays for a trick they can't beat.
func TestAbsentLongHandPlaysRatherThanTakeReserve(t *testing.T) {
	s := rigged(t, 0, "4 |", longHand+" | 6", "7")
	must(t, s, 0, VerbPlay, "1_solo_4")
	v := s.Hand(1)
	if !strings.Contains(strings.Join(offered(v), " "), VerbTake+"=") {
		t.Fatalf("the view has no Take reserve button: the test proves nothing: %v", offered(v))
	}
	a := away(t, v)
	if baseVerb(a.Verb) != VerbPlay {
		t.Fatalf("away move %v, want a play", a.Key())
	}
	must(t, s, 1, a.Verb, a.Args...)
	if len(s.Players[1].Reserve) != 1 || len(s.Players[1].Hand) >= 25 {
		t.Fatalf("after the away move: hand %d cards, reserve %v", len(s.Players[1].Hand), s.Players[1].Reserve)
	}
}

// A player away who has started a two-step choice is not moved by Back,
// which would undo it and leave them still to move.
func TestAbsentTwoStepMenusNeverGoBack(t *testing.T) {
	s := rigged(t, 0, "4 |", longHand+" | 6", "7")
	must(t, s, 0, VerbPlay, "1_solo_4")
	for _, open := range []games.Action{games.Act(VerbTake, s.Players[1].Reserve[0].Code()), games.Act(VerbFrom, "8")} {
		g, err := games.Clone(s)
		if err != nil {
			t.Fatal(err)
		}
		c := g.(*State)
		must(t, c, 1, open.Verb, open.Args...)
		a := away(t, c.Hand(1))
		if a.Verb == VerbBack {
			t.Fatalf("after %v the away move is Back", open.Key())
		}
		must(t, c, 1, a.Verb, a.Args...)
		if c.Turn == 1 || len(c.Players[1].Reserve) != 1 {
			t.Fatalf("after %v and the away move %v: turn %d, reserve %v", open.Key(), a.Key(), c.Turn, c.Players[1].Reserve)
		}
		if open.Verb == VerbFrom && !strings.HasPrefix(a.Args[0], "8_") && !strings.HasPrefix(a.Args[0], "8.") {
			t.Fatalf("the away move %v does not start at card 8, where the player chose", a.Key())
		}
	}
}

// Leading, a player away plays a plain card rather than spend a Stop,
// a Redraw or an X standing first in their hand.
func TestAbsentLeadKeepsStopRedrawAndX(t *testing.T) {
	for _, hand := range []string{"S 7 9", "R 7 9", "X 7 9", "S R X 7"} {
		s := rigged(t, 0, hand+" |", "3", "5")
		a := away(t, s.Hand(0))
		must(t, s, 0, a.Verb, a.Args...)
		if got := faces(s.Trick[0].Cards); got != "7" {
			t.Errorf("hand %s: the away lead is %s, want the 7", hand, got)
		}
	}
}
