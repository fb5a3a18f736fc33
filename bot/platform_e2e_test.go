package bot_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot"
	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
)

// council is a small game that uses what the five games need from the
// platform: a GM who is not a competitor, players who join while it runs,
// a vote on a message of the game's own counted by reactions, and a
// deadline that closes the vote.
type council struct {
	Players []string
	Voting  bool
	Votes   map[string]int // seat → +1 / -1
	Round   int
	Ayes    []int // per seat, ayes given over the game
	Done    bool
}

var councilRules = games.Rules{
	ID: "council", Name: "Council", Blurb: "A test game: the GM proposes, players vote", GM: true,
	MinPlayers: 2, MaxPlayers: 6, Version: 1, Summary: "Vote on what the GM proposes.",
	New: func(s games.Setup) (games.Game, error) {
		return &council{Players: s.Players, Ayes: make([]int, len(s.Players))}, nil
	},
	Load: games.LoadJSON[council],
}

func (c *council) ref() string { return fmt.Sprintf("vote%d", c.Round) }

func (c *council) tally() string {
	aye, nay := 0, 0
	for _, v := range c.Votes {
		if v > 0 {
			aye++
		} else {
			nay++
		}
	}
	return fmt.Sprintf("%d aye, %d nay", aye, nay)
}

func (c *council) Apply(seat int, a games.Action) ([]games.Event, error) {
	switch {
	case a.Verb == "propose" && seat == 0 && !c.Voting && !c.Done:
		c.Round++
		c.Voting, c.Votes = true, map[string]int{}
		return []games.Event{{Ref: c.ref(), Text: "Motion " + fmt.Sprint(c.Round) + ": vote with 👍 or 👎.", Emoji: []string{"👍", "👎"}, Story: true}}, nil
	case a.Verb == "close" && seat == games.Clock && c.Voting && a.Arg(0) == c.ref():
		c.Voting = false
		return []games.Event{{Ref: c.ref(), Text: "Motion " + fmt.Sprint(c.Round) + " closed: " + c.tally() + "."}, games.Narrate("The council has voted: %s.", c.tally())}, nil
	case a.Verb == "end" && seat == 0:
		c.Done = true
		return []games.Event{games.Narrate("The council rises.")}, nil
	}
	return nil, games.Refuse("Not now.")
}

func (c *council) React(seat int, ref, emoji string, add bool) ([]games.Event, error) {
	if seat <= 0 || seat >= len(c.Players) {
		return nil, games.Refuse("Only the council's members vote.")
	}
	if !c.Voting || ref != c.ref() {
		return nil, games.Refuse("That vote is closed.")
	}
	key := fmt.Sprint(seat)
	v := map[string]int{"👍": 1, "👎": -1}[emoji]
	if !add {
		if c.Votes[key] == v {
			delete(c.Votes, key)
		}
		return []games.Event{{Ref: ref, Text: "Motion " + fmt.Sprint(c.Round) + ": " + c.tally() + " so far.", Emoji: []string{"👍", "👎"}}}, nil
	}
	c.Votes[key] = v
	if v > 0 {
		c.Ayes[seat]++
	}
	return []games.Event{{Ref: ref, Text: "Motion " + fmt.Sprint(c.Round) + ": " + c.tally() + " so far.", Emoji: []string{"👍", "👎"}}}, nil
}

func (c *council) Join(name string) (int, []games.Event, error) {
	c.Players = append(c.Players, name)
	c.Ayes = append(c.Ayes, 0)
	return len(c.Players) - 1, []games.Event{games.Narrate("%s takes a seat on the council.", name)}, nil
}

func (c *council) Leave(seat int) ([]games.Event, error) {
	return nil, games.Refuse("No one leaves the council.")
}

func (c *council) Timers() []games.Timer {
	if !c.Voting {
		return nil
	}
	return []games.Timer{{Key: c.ref(), Delay: time.Minute, Seat: games.Clock, Action: games.Act("close", c.ref())}}
}

func (c *council) ToAct() []int {
	if c.Done || c.Voting {
		return nil
	}
	return []int{0}
}
func (c *council) Over() bool { return c.Done }
func (c *council) Table() games.View {
	return games.View{Title: "Council", Description: strings.Join(c.Players, ", ") + " · " + c.tally()}
}
func (c *council) Hand(seat int) games.View {
	v := games.View{Title: "Your seat"}
	if seat == 0 && !c.Done {
		v.Buttons = []games.Button{{Label: "Propose", Action: games.Act("propose"), Disabled: c.Voting}, {Label: "End", Action: games.Act("end")}}
	}
	return v
}
func (c *council) Results() []games.Result {
	var out []games.Result
	for s := 1; s < len(c.Players); s++ {
		out = append(out, games.Result{Seat: s, Score: c.Ayes[s], Winner: c.Ayes[s] > 0})
	}
	return out
}

func TestPlatformGMJoinVoteAndDeadlineAcrossRestart(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.games = append(bot.Catalog(), councilRules) })
	gm, bea, cy, dee := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")
	gm.Command(h.ch, "game", newGame("council"))
	if !strings.Contains(h.table().Text(), "Ann (GM)") {
		t.Fatalf("the lobby does not name the GM:\n%s", h.table().Text())
	}
	bea.Click(h.table(), h.table().ButtonID("Join"))
	gm.Click(h.table(), h.table().ButtonID("Start"))

	// Cy joins the running game from its table.
	r := cy.Click(h.table(), h.table().ButtonID("Join"))
	if r == nil || !r.Ephemeral || !strings.Contains(r.Content, "joined") {
		t.Fatalf("joining mid-game answered %+v", r)
	}
	if rec := h.record(); len(rec.Seats) != 3 || rec.StartSeats != 2 || rec.SeatOf(cy.ID) != 2 {
		t.Fatalf("seats after the join: %+v", rec.Seats)
	}
	mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("Join")), "already at this table")

	// The GM proposes; the vote is a message of the game's own.
	hand := gm.Click(h.table(), h.table().ButtonID("My hand"))
	gm.Click(hand.Message, hand.Message.ButtonID("Propose"))
	var vote *fakediscord.Message
	for _, m := range h.fake.Messages(h.ch) {
		if strings.HasPrefix(m.Content, "Motion 1") {
			vote = m
		}
	}
	if vote == nil || h.refOf(vote) != "vote1" {
		t.Fatal("the vote message was not posted as the game's own")
	}
	bea.React(vote, "👍")
	cy.React(vote, "👎")
	gm.React(vote, "👍")  // the GM does not vote: refused by the game
	dee.React(vote, "👍") // a spectator: refused
	bea.React(vote, "🎲") // an emoji the game does not count
	bea.React(vote, "👍") // a repeated event
	if got := h.fake.Message(h.ch, vote.ID).Content; got != "Motion 1: 1 aye, 1 nay so far." {
		t.Fatalf("the vote message reads %q", got)
	}

	// Not due yet: nothing fires.
	h.advance(30 * time.Second)
	h.bot.FireDue()
	h.bot.Idle()
	if !strings.Contains(h.fake.Message(h.ch, vote.ID).Content, "so far") {
		t.Fatal("the vote closed before its deadline")
	}

	// The bot is down when the deadline passes; the vote closes once it is back.
	h.stop()
	h.advance(time.Minute)
	h.start()
	h.bot.FireDue()
	h.bot.Idle()
	if got := h.fake.Message(h.ch, vote.ID).Content; got != "Motion 1 closed: 1 aye, 1 nay." {
		t.Fatalf("after the restart the vote reads %q", got)
	}
	closed := 0
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Content, "The council has voted") {
			closed++
		}
	}
	// Firing again changes nothing: each deadline fires once.
	h.advance(time.Hour)
	h.bot.FireDue()
	h.bot.Idle()
	for _, m := range h.fake.Messages(h.ch) {
		if strings.Contains(m.Content, "The council has voted") {
			closed--
		}
	}
	if closed != 0 {
		t.Fatal("the deadline fired more than once")
	}

	rec := h.record()
	gameID := rec.ID
	hand = gm.Click(h.table(), h.table().ButtonID("My hand"))
	gm.Click(hand.Message, hand.Message.ButtonID("End"))

	// The GM is no competitor: not in the server's results.
	st, _ := h.db.Stats(h.fake.GuildID())
	if _, ok := st[gm.ID]; ok || st[bea.ID] == nil || st[bea.ID].Games["council"].Won != 1 || st[cy.ID].Games["council"].Won != 0 {
		t.Fatalf("stats: %+v", st)
	}
	r = bea.Command(h.ch, "game", fakediscord.Sub("stats"))
	if r == nil || !strings.Contains(r.Content, "Bea") || strings.Contains(r.Content, "Ann") {
		t.Fatalf("/game stats shows %+v", r)
	}

	// The whole game replays from its seed and log to the same state,
	// the join, the reactions and the deadline's firing included.
	ended, err := h.db.Ended(gameID)
	if err != nil || ended == nil {
		t.Fatal(err)
	}
	log, err := h.db.History(gameID)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var inputs []games.Input
	for _, e := range log {
		inputs = append(inputs, e.Input)
		kinds = append(kinds, e.Input.Kind)
	}
	for _, k := range []string{games.InJoin, games.InReact, games.InTimer, games.InMove} {
		if !slices.Contains(kinds, k) {
			t.Fatalf("the log lacks a %q input: %v", k, kinds)
		}
	}
	again, err := games.Replay(councilRules, ended.Final.Setup(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := games.Encode(again); !bytes.Equal(b, ended.Final.State) {
		t.Fatalf("replay differs:\n%s\n%s", b, ended.Final.State)
	}
}
