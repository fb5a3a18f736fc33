package lnf

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games/gamestest"
)

func TestTableView(t *testing.T) {
	s := rigged(t, "B1 Y3", "R1 R2 R3", "R7 Y1", "G1 G2 B6", "B1")
	s.Last = "Cy played 🟨 Yellow 3."
	v := s.Table()
	tv := text(v)
	for _, want := range []string{"Top card: **🟨 Yellow 3** — relationships · played by Cy", "▶ **Ann** to play", "**Bob** — 3 cards",
		"**Cy** — 1 card", "Deck 3 cards · discard pile 2 cards"} {
		if !strings.Contains(tv, want) {
			t.Errorf("table lacks %q:\n%s", want, tv)
		}
	}
	// The play is the top card: it is not told twice.
	if strings.Contains(tv, "Last:") || strings.Count(tv, "Yellow 3") != 1 {
		t.Errorf("the table repeats the last play:\n%s", tv)
	}
	s.Last = "Cy drew a card and passed."
	if tv := text(s.Table()); !strings.Contains(tv, "Last: Cy drew a card and passed.") || strings.Contains(tv, "played by") {
		t.Errorf("a move that isn't the top card is told as the last one:\n%s", tv)
	}
	for _, secret := range []string{"Red 7", "Yellow 1", "Green", "Blue 6"} {
		if strings.Contains(tv, secret) {
			t.Errorf("table shows %q", secret)
		}
	}
	if n := strings.Count(tv, "\n"); n > 20 || len(v.Buttons)+len(v.Choices) != 0 {
		t.Errorf("table: %d lines, %d controls", n, len(v.Buttons))
	}
	if err := gamestest.Fits(v, 1); err != nil {
		t.Error(err)
	}
	for c, area := range map[string]string{"R4": "body", "G4": "money", "B4": "mind", "Y4": "relationships"} {
		s.Pile.Discard = cards(t, c)
		if !strings.Contains(s.Table().Description, "— "+area) {
			t.Errorf("%s: %s", c, s.Table().Description)
		}
	}
}

func TestHandView(t *testing.T) {
	s := rigged(t, "B1 Y3", "R1 R2 R3", "R7 Y1 Y9 W3 B3", "G1 G2 B6", "B1")
	v := s.Hand(0)
	if len(v.Fields) != 2 || v.Fields[0].Name != "Playable now" || v.Fields[0].Value != "🟦 Blue 3, 🟨 Yellow 1, 🟨 Yellow 9" ||
		v.Fields[1].Value != "🟥 Red 7, ⬜ Draw Three (3)" {
		t.Fatalf("fields %+v", v.Fields)
	}
	if got := strings.Join(keys(v), " "); got != "play=B3 play=Y1 play=Y9" {
		t.Fatalf("buttons %s", got)
	}
	if !strings.Contains(v.Description, "Wild cards only when nothing else fits") {
		t.Fatalf("no note: %s", v.Description)
	}
	if err := gamestest.Fits(v, 0); err != nil {
		t.Error(err)
	}
	// Not your turn: just the cards.
	v = s.Hand(1)
	if len(v.Buttons)+len(v.Choices) != 0 || len(v.Fields) != 1 || v.Fields[0].Name != "Your cards (3)" ||
		!strings.Contains(v.Description, "**Ann** is playing") {
		t.Fatalf("off-turn view %+v", v)
	}
	// A big hand still fits: one button per distinct legal card.
	s.Hands[0] = cards(t, "Y1 Y1 Y2 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 R3 G3 B3 R1 R2 R4 R5 R6 R7 R8 R9 G1 G2 G4 G5 G6 G7 G8 G9 W3 WG")
	v = s.Hand(0)
	if len(v.Buttons) != 12 {
		t.Fatalf("%d buttons: %v", len(v.Buttons), keys(v))
	}
	if err := gamestest.Fits(v, 0); err != nil {
		t.Error(err)
	}
}

func TestRulesText(t *testing.T) {
	if n := len([]rune(Rules.Summary)); n > 4000 || !strings.Contains(Rules.Summary, "**Rulings**") {
		t.Fatalf("summary of %d characters", n)
	}
	if n := len([]rune(Rules.Blurb)); n == 0 || n > 100 {
		t.Fatalf("blurb of %d characters", n)
	}
	if Rules.ID != "lnf" || Rules.Name != "Life is not fair, but…" || Rules.MinPlayers != 2 || Rules.MaxPlayers != 8 {
		t.Fatalf("rules %+v", Rules)
	}
}
