package lnf

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/games"
)

func appealAct(offender, quote string) games.Action {
	a := games.Act(VerbAppeal, offender)
	a.Text = quote
	return a
}

func vote(n, v string) games.Action { return games.Act(VerbVote, n, v) }

// five: Ann, Bob, Cy, Dot and Eve in play, Ann to move.
func five(t *testing.T) *State {
	return rigged(t, "R2", "Y1 Y2 Y3 Y4 Y5 Y6", "R7 R1", "G1 G2", "B1 B2", "Y7 Y8", "G5 G6")
}

func TestAppealMajorityMakesTheOffenderDrawTwo(t *testing.T) {
	s := five(t)
	evs := must(t, s, 0, appealAct("1", "nice 1, genius"))
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	e := evs[0]
	if e.Ref != "appeal1" || !e.Story || len(e.Buttons) != 2 ||
		!strings.Contains(e.Text, `**Ann** appeals against **Bob** for rudeness: "nice 1, genius"`) ||
		!strings.Contains(e.Text, "Cy, Dot and Eve: was it rude?") || !strings.Contains(e.Text, "closes in 1 minute.") {
		t.Fatalf("appeal event %+v", e)
	}
	if e.Buttons[0].Action.Key() != "vote=1,yes" || e.Buttons[0].Label != "Rude — draw two" ||
		e.Buttons[1].Action.Key() != "vote=1,no" || e.Buttons[1].Label != "Fair enough" {
		t.Fatalf("buttons %+v", e.Buttons)
	}
	if !strings.Contains(s.Table().Description, "Vote open: Ann's appeal against Bob") {
		t.Fatalf("table %s", s.Table().Description)
	}
	evs = must(t, s, 2, vote("1", "yes"))
	if len(evs) != 1 || evs[0].Ref != "appeal1" || len(evs[0].Buttons) != 2 ||
		!strings.Contains(evs[0].Text, "Votes so far: 1 rude, 0 fair enough (1 of 3 voted).") {
		t.Fatalf("tally %+v", evs)
	}
	must(t, s, 3, vote("1", "no"))
	evs = must(t, s, 3, vote("1", "yes")) // a voter may change their mind
	if !strings.Contains(evs[0].Text, "2 rude, 0 fair enough (2 of 3 voted)") || strings.Contains(evs[0].Text, "Dot voted") {
		t.Fatalf("tally %s", evs[0].Text)
	}
	// The last eligible vote closes it at once.
	evs = must(t, s, 4, vote("1", "no"))
	if len(evs) != 2 || evs[0].Ref != "appeal1" || len(evs[0].Buttons) != 0 || !evs[1].Story || evs[1].Ref != "" {
		t.Fatalf("closing events %+v", evs)
	}
	if !strings.Contains(evs[0].Text, "Closed: rude, 2–1. Bob draws 2.") || !strings.Contains(evs[1].Text, "The table finds Bob rude (2–1): Bob draws 2.") {
		t.Fatalf("closing events %s", allText(evs))
	}
	if codes(s.Hands[1]) != "G1 G2 Y5 Y6" || s.Appeals[0].Open || len(s.Timers()) != 0 {
		t.Fatalf("Bob %s, appeals %+v", codes(s.Hands[1]), s.Appeals)
	}
	refused(t, s, 2, "That appeal is closed", vote("1", "no"))
	refused(t, s, games.Clock, "already closed", games.Act(VerbClose, "1"))
	// Bob may be appealed against again now.
	evs = must(t, s, 2, appealAct("1", ""))
	if evs[0].Ref != "appeal2" || !strings.Contains(evs[0].Text, "**Cy** appeals against **Bob** for rudeness\n") {
		t.Fatalf("second appeal %s", evs[0].Text)
	}
}

func TestAppealTieOrNoVotesNoPenalty(t *testing.T) {
	s := rigged(t, "R2", "Y1 Y2 Y3", "R7", "G1", "B1", "Y7")
	must(t, s, 0, appealAct("1", "slow much?"))
	must(t, s, 2, vote("1", "yes"))
	evs := must(t, s, 3, vote("1", "no"))
	if len(s.Hands[1]) != 1 || !strings.Contains(allText(evs), "The appeal against Bob fails (1–1): no penalty.") {
		t.Fatalf("Bob %v: %s", s.Hands[1], allText(evs))
	}
	// Nobody votes: the Clock closes it, no penalty.
	must(t, s, 1, appealAct("0", ""))
	ts := s.Timers()
	want := games.Timer{Key: "appeal2", Delay: time.Minute, Seat: games.Clock, Action: games.Act(VerbClose, "2")}
	if len(ts) != 1 || ts[0].Key != want.Key || ts[0].Delay != want.Delay || ts[0].Seat != want.Seat || ts[0].Action.Key() != "close=2" {
		t.Fatalf("timers %+v", ts)
	}
	refused(t, s, 2, "closes by itself", games.Act(VerbClose, "2"))
	evs = must(t, s, games.Clock, ts[0].Action)
	if len(s.Hands[0]) != 1 || len(evs) != 2 || len(evs[0].Buttons) != 0 || !strings.Contains(evs[1].Text, "Nobody voted on the appeal against Ann: no penalty.") {
		t.Fatalf("Ann %v: %s", s.Hands[0], allText(evs))
	}
	if len(s.Timers()) != 0 {
		t.Fatal("a closed appeal keeps its timer")
	}
	// The Clock also closes a vote with a majority.
	must(t, s, 2, appealAct("3", ""))
	must(t, s, 0, vote("3", "yes"))
	must(t, s, games.Clock, games.Act(VerbClose, "3"))
	if len(s.Hands[3]) != 3 {
		t.Fatalf("Dot %v", s.Hands[3])
	}
}

func TestAppealRefusals(t *testing.T) {
	two := rigged(t, "R2", "Y1", "R7", "G1")
	refused(t, two, 0, "Appeals need at least 3 players", appealAct("1", ""))
	s := five(t)
	refused(t, s, 0, "can't appeal against yourself", appealAct("0", ""))
	refused(t, s, 0, "player in this game", appealAct("5", ""))
	refused(t, s, 0, "player in this game", appealAct("-1", ""))
	refused(t, s, 0, "player in this game", appealAct("bob", ""))
	refused(t, s, games.Spectator, "don't have a seat", appealAct("1", ""))
	must(t, s, 0, appealAct("1", "x"))
	refused(t, s, 2, "already an open appeal against Bob", appealAct("1", "y"))
	must(t, s, 1, appealAct("0", "")) // a counter-appeal is a different offender
	refused(t, s, games.Spectator, "Only the players of this game vote", vote("1", "yes"))
	refused(t, s, 9, "Only the players of this game vote", vote("1", "yes"))
	refused(t, s, 0, "You made this appeal", vote("1", "yes"))
	refused(t, s, 1, "This appeal is about you", vote("1", "yes"))
	refused(t, s, 2, "Vote with the buttons", vote("1", "maybe"))
	refused(t, s, 2, "no such appeal", vote("3", "yes"))
	refused(t, s, 2, "no such appeal", vote("0", "yes"))
	refused(t, s, games.Clock, "no such appeal", games.Act(VerbClose, "7"))
	if ts := s.Timers(); len(ts) != 2 || ts[0].Key != "appeal1" || ts[1].Key != "appeal2" {
		t.Fatalf("timers %+v", ts)
	}
}

func TestAppealsCloseWhenTheGameEnds(t *testing.T) {
	s := rigged(t, "R2", "Y1 Y2 Y3", "R7", "G1", "B1", "Y7")
	must(t, s, 2, appealAct("1", ""))
	must(t, s, 0, vote("1", "yes"))
	evs := must(t, s, 0, play("R7", ""))
	if !s.Over() || len(s.Hands[1]) != 1 || len(s.Timers()) != 0 {
		t.Fatalf("over %v, Bob %v, timers %v", s.Over(), s.Hands[1], s.Timers())
	}
	if len(evs) != 2 || len(stories(evs)) != 2 || evs[1].Ref != "appeal1" || len(evs[1].Buttons) != 0 ||
		!strings.Contains(evs[1].Text, "no penalty") || !strings.Contains(evs[0].Text, "Open appeals are closed without a penalty") {
		t.Fatalf("events %+v", evs)
	}
	refused(t, s, 2, "The game is over", appealAct("0", ""))
	refused(t, s, 3, "That appeal is closed", vote("1", "yes"))
}

func TestVoteMinutesOption(t *testing.T) {
	g, err := New(games.Setup{Players: names[:3], Options: map[string]int{OptVoteMinutes: 3}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := g.(*State)
	evs := must(t, s, 0, appealAct("2", ""))
	if !strings.Contains(evs[0].Text, "Bob: was it rude?") || !strings.Contains(evs[0].Text, "closes in 3 minutes") {
		t.Fatalf("appeal %s", evs[0].Text)
	}
	if ts := s.Timers(); len(ts) != 1 || ts[0].Delay != 3*time.Minute {
		t.Fatalf("timers %+v", ts)
	}
	// During the exchange a penalty just adds to the hand.
	must(t, s, 1, vote("1", "yes"))
	if len(s.Hands[2]) != 6 || s.Phase != PhaseExchange || !slices.Contains(s.ToAct(), 2) {
		t.Fatalf("Cy %v phase %s", s.Hands[2], s.Phase)
	}
	if v := s.Hand(2); len(v.Buttons) < 2 {
		t.Fatalf("Cy's exchange %v", keys(v))
	}
}

func TestSay(t *testing.T) {
	s := five(t)
	evs, err := s.Say(2, "Cy", "The widow's two mites were precious.")
	if err != nil || len(evs) != 1 || !evs[0].Story || evs[0].Text != "🗣️ Cy: The widow's two mites were precious." || evs[0].Ref != "" {
		t.Fatalf("%+v %v", evs, err)
	}
	if _, err := s.Say(games.Spectator, "Zed", "hi"); err == nil {
		t.Error("a spectator talked")
	}
	if _, err := s.Say(0, "Ann", "   "); err == nil {
		t.Error("an empty line was posted")
	}
	var g games.Game = s
	if _, ok := g.(games.Talker); !ok {
		t.Error("not a Talker")
	}
	if _, ok := g.(games.Timed); !ok {
		t.Error("not Timed")
	}
}
