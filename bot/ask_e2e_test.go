package bot_test

import (
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
)

// shout is a one-player game that exists to exercise moves with typed text:
// the player types a line twice; a line that isn't loud is refused.
type shout struct {
	Lines []string
}

var shoutRules = games.Rules{
	ID: "shout", Name: "Shout", MinPlayers: 1, MaxPlayers: 1, Summary: "Type two lines in capitals.",
	New:  func(games.Setup) (games.Game, error) { return &shout{}, nil },
	Load: games.LoadJSON[shout],
}

func (s *shout) Apply(seat int, a games.Action) ([]games.Event, error) {
	if a.Verb != "shout" {
		return nil, games.Refuse("Only shouting here.")
	}
	if a.Text == "" || strings.ToUpper(a.Text) != a.Text {
		return nil, games.Refuse("Louder! %q isn't in capitals.", a.Text)
	}
	s.Lines = append(s.Lines, a.Text)
	return []games.Event{games.Narrate("Someone shouts: %s", a.Text)}, nil
}
func (s *shout) ToAct() []int {
	if s.Over() {
		return nil
	}
	return []int{0}
}
func (s *shout) Over() bool { return len(s.Lines) >= 2 }
func (s *shout) Table() games.View {
	return games.View{Title: "Shout", Description: strings.Join(s.Lines, "\n")}
}
func (s *shout) Results() []games.Result {
	return []games.Result{{Seat: 0, Score: len(s.Lines), Winner: true}}
}
func (s *shout) Hand(seat int) games.View {
	return games.View{Title: "Your turn to shout", Buttons: []games.Button{{
		Label: "Shout", Action: games.Act("shout"),
		Ask: &games.Ask{Title: "Shout something", Label: "Your line, in capitals", MaxLen: 40},
	}}}
}

func TestTypedMovesGoThroughAModal(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.games = append(h.games, shoutRules) })
	ann := h.fake.AddUser("Ann")
	ann.Command(h.ch, "game", fakediscordNew("shout"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	hand := ann.Click(h.table(), h.table().ButtonID("My hand")).Message

	r := ann.Click(hand, hand.ButtonID("Shout"))
	if r == nil || r.Type != 9 || r.Modal == nil || r.Modal.Inputs[0].MaxLength != 40 {
		t.Fatalf("the shout button answered %+v", r)
	}
	mustRefuse(t, ann.Submit(r.Modal, map[string]string{"text": "quiet please"}), "Louder!")

	// Two text boxes opened from the same view: the first one submitted
	// counts; the other is then out of date and changes nothing.
	early := ann.Click(hand, hand.ButtonID("Shout")).Modal
	r = ann.Click(hand, hand.ButtonID("Shout"))
	if r := ann.Submit(r.Modal, map[string]string{"text": "HELLO"}); r == nil || r.Type != 7 {
		t.Fatalf("a good line answered %+v", r)
	}
	if !strings.Contains(h.table().Text(), "HELLO") {
		t.Fatalf("the table lacks the line:\n%s", h.table().Text())
	}
	if r := ann.Submit(early, map[string]string{"text": "AGAIN"}); r == nil || !strings.Contains(r.Content, "earlier moment") {
		t.Fatalf("a stale text box answered %+v", r)
	}
	if strings.Contains(h.table().Text(), "AGAIN") {
		t.Fatal("a stale text box was applied")
	}
}

func fakediscordNew(game string) fakediscord.Option {
	return newGame(game)
}
