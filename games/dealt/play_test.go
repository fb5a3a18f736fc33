package dealt

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/games"
)

func TestNewDeal(t *testing.T) {
	for _, c := range []struct{ players, hand, chips int }{{3, 10, 2}, {4, 10, 3}, {5, 7, 2}} {
		g, err := New(games.Setup{Players: names[:c.players], Seed: 9, Options: map[string]int{OptChips: c.chips}})
		if err != nil {
			t.Fatal(err)
		}
		s := g.(*State)
		seen := map[Card]bool{}
		for _, p := range s.Players {
			if len(p.Hand) != c.hand || len(p.Reserve) != 2 || p.Chips != c.chips {
				t.Errorf("%d players: hand %d, reserve %d, chips %d", c.players, len(p.Hand), len(p.Reserve), p.Chips)
			}
			for _, x := range append(slices.Clone(p.Hand), p.Reserve...) {
				seen[x] = true
			}
		}
		for _, x := range s.Pile.Draw {
			seen[x] = true
		}
		if len(seen) != 54 || len(s.Pile.Draw) != 54-c.players*(c.hand+2) {
			t.Errorf("%d players: %d distinct cards, pile %d", c.players, len(seen), len(s.Pile.Draw))
		}
		// The host deals; the player on their left leads the first trick.
		if s.Leader != 1 || !slices.Equal(s.ToAct(), []int{1}) || s.Round != 1 {
			t.Errorf("leader %d, to act %v", s.Leader, s.ToAct())
		}
	}
	for _, n := range []int{2, 6} {
		if _, err := New(games.Setup{Players: []string{"a", "b", "c", "d", "e", "f"}[:n]}); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
	if _, err := New(games.Setup{Players: names[:3], Options: map[string]int{OptChips: 4}}); err == nil {
		t.Error("4 chips accepted")
	}
}

func example(t *testing.T, leader int, specs ...string) *State {
	s := rigged(t, leader, specs...)
	s.Names = []string{"Andy", "Carla", "Nico", "Susie"}
	return s
}

// Andy plays an 8, Carla a 12, Nico 5-4, Susie 5-6.
func TestExampleClimbingATrick(t *testing.T) {
	s := example(t, 0, "8 3 3 | 1 2", "12 9 | 1 2", "5 4 10 | 2 3", "5 6 11 | 3 4")
	must(t, s, 0, VerbPlay, "1_solo_8")
	refused(t, s, 0, "It's Carla's turn", VerbPlay, "2_solo_3") // Andy can't act twice
	must(t, s, 1, VerbPlay, "1_solo_12")
	refused(t, s, 2, "A Solo 10 doesn't beat a Solo 12", VerbPlay, "3_solo_10")
	must(t, s, 2, VerbPlay, "1.2_str2_5") // 5-4 is a 2-Straight, above any Solo
	if v := tokens(s.Hand(3)); !slices.Equal(v, []string{"1.2_str2_6"}) {
		t.Errorf("Susie is offered %q, want only 5-6", v)
	}
	refused(t, s, 3, "A Solo 11 doesn't beat a 2-Straight 4-5", VerbPlay, "3_solo_11")
	evs := must(t, s, 3, VerbPlay, "1.2_str2_6")
	// Everyone acted once: the trick is over and Susie's 5-6 leads.
	if s.Leader != 3 || s.Turn != 3 || len(s.Trick) != 0 || len(s.Pile.Discard) != 6 {
		t.Fatalf("leader %d turn %d trick %v discard %d", s.Leader, s.Turn, s.Trick, len(s.Pile.Discard))
	}
	if !strings.Contains(events(evs), "Susie's 2-Straight 5-6 was highest: Susie leads") {
		t.Errorf("events: %s", events(evs))
	}
}

// Susie plays a Pair of 11s, Andy 6-7-8; Carla takes her reserve 7 next to
// her 6, Nico takes his 12.
func TestExampleTakingReserves(t *testing.T) {
	s := example(t, 3, "6 7 8 3 | 1 2", "4 6 1 | 7 3", "9 10 2 | 12 5", "11 11 2 | 1 1")
	must(t, s, 3, VerbPlay, "1.2_pair_11")
	must(t, s, 0, VerbPlay, "1.2.3_str3_8")
	carla := s.Hand(1)
	if len(tokens(carla)) != 0 {
		t.Errorf("Carla can't beat 6-7-8 but is offered %q", tokens(carla))
	}
	seven := s.Players[1].Reserve[0]
	if !slices.Contains(offered(carla), "res="+seven.Code()+".2") {
		t.Fatalf("Carla isn't offered her 7 between 6 and 1: %q", offered(carla))
	}
	refused(t, s, 1, "You still have a reserve card; you can't give up the round", VerbLose)
	refused(t, s, 1, "isn't one of your reserve cards", VerbRes, s.Players[2].Reserve[0].Code()+".0")
	refused(t, s, 1, "Pick a place in your hand", VerbRes, seven.Code()+".4")
	must(t, s, 1, VerbRes, seven.Code()+".2")
	if got := faces(s.Players[1].Hand); got != "4 6 7 1" {
		t.Fatalf("Carla's hand %s, want 4 6 7 1", got)
	}
	must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".3")
	if got := faces(s.Players[2].Hand); got != "9 10 2 12" || faces(s.Players[2].Reserve) != "5" {
		t.Fatalf("Nico's hand %s reserve %s", got, faces(s.Players[2].Reserve))
	}
	if s.Leader != 0 || len(s.Trick) != 0 {
		t.Fatalf("Andy's 6-7-8 was highest, but %d leads", s.Leader)
	}
	// Later, Carla can play her 6 and 7 together.
	if !slices.Contains(movesFor(s.Players[1].Hand, nil), Move{Pos: 1, Combo: Combo{Straight2, 7}}) {
		t.Error("Carla can't play 6-7")
	}
}

// Andy 12, Carla 7-6, Nico 11-12, Susie a Redraw: Nico draws three.
func TestExampleRedraw(t *testing.T) {
	s := example(t, 0, "12 1 | 2 3", "7 6 1 | 2 3", "11 12 4 | 5 6", "R 2 | 3 4")
	must(t, s, 0, VerbPlay, "1_solo_12")
	must(t, s, 1, VerbPlay, "1.2_str2_7")
	must(t, s, 2, VerbPlay, "1.2_str2_12")
	pile := len(s.Pile.Draw)
	evs := must(t, s, 3, VerbPlay, "1_redraw")
	if !strings.Contains(events(evs), "Nico draws 3 cards") {
		t.Errorf("events: %s", events(evs))
	}
	if s.Drawing == nil || s.Drawing.Seat != 2 || !slices.Equal(s.ToAct(), []int{2}) {
		t.Fatalf("drawing %+v, to act %v", s.Drawing, s.ToAct())
	}
	refused(t, s, 0, "It's Nico's turn: they are placing", VerbPlay, "2_solo_1")
	refused(t, s, 2, "First place the card you drew", VerbPlay, "1_solo_4")
	refused(t, s, 2, "Pick a place in your hand", VerbPut, "2")
	var drawn []Card
	for i := range 3 {
		d := s.Drawing
		v := s.Hand(2)
		if !strings.Contains(v.Description, d.Card.String()) || len(v.Choices) != 1 || len(v.Choices[0].Options) != len(s.Players[2].Hand)+1 {
			t.Fatalf("Nico's view while drawing: %q, %d menus", v.Description, len(v.Choices))
		}
		for seat := range 4 {
			if seat != 2 && strings.Contains(gamesText(s, seat), d.Card.String()) {
				t.Fatalf("seat %d sees Nico's drawn card", seat)
			}
		}
		drawn = append(drawn, d.Card)
		must(t, s, 2, VerbPut, []string{"0", "1", "3"}[i]) // front, between, end
	}
	want := labels([]Card{drawn[0], drawn[1], {4, 0}, drawn[2]})
	if s.Drawing != nil || faces(s.Players[2].Hand) != want || len(s.Pile.Draw) != pile-3 {
		t.Fatalf("after drawing: %+v hand %s want %s, pile %d", s.Drawing, faces(s.Players[2].Hand), want, len(s.Pile.Draw))
	}
	if s.Leader != 2 || s.Turn != 2 || len(s.Trick) != 0 {
		t.Fatalf("Nico should lead, leader %d", s.Leader)
	}
}

func gamesText(s *State, seat int) string {
	var b strings.Builder
	for _, v := range []games.View{s.Table(), s.Hand(seat)} {
		b.WriteString(v.Description)
		for _, f := range v.Fields {
			b.WriteString(f.Value)
		}
		for _, c := range v.Choices {
			for _, o := range c.Options {
				b.WriteString(o.Label)
			}
		}
	}
	return b.String()
}

func TestRedrawLeaderDrawsWhenNobodyPlaysACombination(t *testing.T) {
	cases := []struct {
		name      string
		bea, cat  string // actions after Ann leads her Redraw
		n, drawer int
	}{
		{"everyone takes a reserve", "res", "res", 3, 0},
		{"both Redraws", "redraw", "res", 6, 0},
		{"a Stop", "stop", "", 3, 0},
		{"a combination", "solo", "res", 3, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Ann's Redraw is her last card: she must draw all the same.
			s := rigged(t, 0, "R | 1", "R S 5 | 2", "3 | 4")
			must(t, s, 0, VerbPlay, "1_redraw")
			act := func(seat int, what string) {
				switch what {
				case "res":
					must(t, s, seat, VerbRes, s.Players[seat].Reserve[0].Code()+".0")
				case "redraw":
					must(t, s, seat, VerbPlay, "1_redraw")
				case "stop":
					must(t, s, seat, VerbPlay, "2_stop")
				case "solo": // anything goes after a Redraw lead, even a 5
					must(t, s, seat, VerbPlay, "3_solo_5")
				}
			}
			act(1, c.bea)
			if c.cat != "" {
				act(2, c.cat)
			}
			if s.Drawing == nil || s.Drawing.Seat != c.drawer || s.Drawing.Total != c.n {
				t.Fatalf("drawing %+v, want seat %d drawing %d", s.Drawing, c.drawer, c.n)
			}
			for s.Drawing != nil {
				must(t, s, c.drawer, VerbPut, "0")
			}
			if s.Leader != c.drawer || len(s.Players[c.drawer].Hand) < c.n {
				t.Fatalf("leader %d, drawer's hand %d", s.Leader, len(s.Players[c.drawer].Hand))
			}
		})
	}
}

func TestRedrawOnlyDrawerLeftEndsTheRound(t *testing.T) {
	// Ann goes out with a 5, Bea goes out with a Redraw, Cat is already out:
	// Ann has the highest combination and must draw, so she alone holds cards.
	s := rigged(t, 0, "5", "R", "")
	must(t, s, 0, VerbPlay, "1_solo_5")
	evs := must(t, s, 1, VerbPlay, "1_redraw")
	if s.Round != 2 || s.Players[0].Chips != 1 || s.Players[1].Chips != 2 || s.Leader != 0 || s.Drawing != nil {
		t.Fatalf("round %d, chips %d/%d, leader %d", s.Round, s.Players[0].Chips, s.Players[1].Chips, s.Leader)
	}
	if stories(evs) != 1 || !strings.Contains(events(evs), "Ann gives up a chip and has 1 left") {
		t.Errorf("events: %s", events(evs))
	}
}

func TestLeaderAfterTheTrick(t *testing.T) {
	cases := []struct {
		name   string
		leader int
		specs  []string
		moves  []string // "seat verb arg"; "res" takes the first reserve to the front
		next   int
		why    string
	}{
		{"highest leads", 0, []string{"5 1", "7 1", "3 | 2"}, []string{"0 1_solo_5", "1 1_solo_7", "2 res"}, 1, "Bea's Solo 7 was highest"},
		{"highest went out: second-highest", 0, []string{"5 1", "7", "3 | 2"}, []string{"0 1_solo_5", "1 1_solo_7", "2 res"}, 0, "the next highest"},
		{"only player who played went out: right-hand neighbour", 0, []string{"5", "1 | 2", "1 | 2", "1 | 2"},
			[]string{"0 1_solo_5", "1 res", "2 res", "3 res"}, 3, "the player on their right"},
		{"right-hand neighbour out too: the next on the right", 0, []string{"5", "1 | 2", "1 | 2", ""},
			[]string{"0 1_solo_5", "1 res", "2 res"}, 2, "the player on their right"},
		{"every combination player out", 0, []string{"5", "7", "3 | 2", "1 | 2"},
			[]string{"0 1_solo_5", "1 1_solo_7", "2 res", "3 res"}, 3, "the player on their right"}, // right of Bea, past Ann
		{"Stop ends the trick at once", 0, []string{"5 1", "S 2", "3 | 4"}, []string{"0 1_solo_5", "1 1_stop"}, 1, "Bea's Stop ends the trick"},
		{"Stop that opens a trick as the last card", 0, []string{"S", "1", "2"}, []string{"0 1_stop"}, 2, "was their last card"},
		{"Stop as the last card later in the trick", 0, []string{"5 1", "S", "3 | 4"}, []string{"0 1_solo_5", "1 1_stop"}, 0, "was their last card"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := rigged(t, c.leader, c.specs...)
			var evs []games.Event
			for _, m := range c.moves {
				f := strings.Fields(m)
				seat := int(f[0][0] - '0')
				if f[1] == "res" {
					evs = must(t, s, seat, VerbRes, s.Players[seat].Reserve[0].Code()+".0")
				} else {
					evs = must(t, s, seat, VerbPlay, f[1])
				}
			}
			if len(s.Trick) != 0 || s.Leader != c.next || s.Turn != c.next || s.Round != 1 {
				t.Fatalf("trick %v, leader %d turn %d round %d; want %d", s.Trick, s.Leader, s.Turn, s.Round, c.next)
			}
			if !strings.Contains(events(evs), c.why) {
				t.Errorf("events: %s", events(evs))
			}
		})
	}
}

func TestTurnsSkipPlayersWithoutCardsAndEveryoneActsOnce(t *testing.T) {
	s := rigged(t, 0, "5 1", "6 1", "", "7 1")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_6")
	if s.Turn != 3 {
		t.Fatalf("Cat has no cards and is skipped, but turn is %d", s.Turn)
	}
	refused(t, s, 2, "It's Dan's turn", VerbPlay, "1_solo_7")
	if v := s.Hand(2); len(v.Choices)+len(v.Buttons) != 0 || !strings.Contains(v.Description, "safe this round") {
		t.Errorf("Cat's view: %q", v.Description)
	}
	must(t, s, 3, VerbPlay, "1_solo_7")
	// Back at the leader: nobody acts twice.
	if len(s.Trick) != 0 || s.Leader != 3 {
		t.Fatalf("trick %v leader %d", s.Trick, s.Leader)
	}
}

func TestRefusals(t *testing.T) {
	s := rigged(t, 0, "8 8 3", "5 S 5 7 9 12 1 | 4", "5 5 | 2")
	refused(t, s, 0, "You lead this trick", VerbRes, "4a.0")
	refused(t, s, 0, "You lead this trick: play something", VerbLose)
	refused(t, s, 1, "It's Ann's turn", VerbPlay, "1_solo_5")
	refused(t, s, games.Spectator, "You are not playing", VerbPlay, "1_solo_8")
	refused(t, s, 7, "You are not playing", VerbPlay, "1_solo_8")
	refused(t, s, 0, "Dealt! has no move called", "dance")
	refused(t, s, 0, "Pick exactly one option", VerbPlay)
	refused(t, s, 0, "That move takes no options", VerbLose, "x")
	refused(t, s, 0, "isn't a play", VerbPlay, "eight")
	refused(t, s, 0, "You have only 3 cards", VerbPlay, "4_solo_8")
	refused(t, s, 0, "Those cards don't touch in your hand", VerbPlay, "1.3_pair_8")
	refused(t, s, 0, "8 3 can't make a 2-Straight 2-3", VerbPlay, "2.3_str2_3")
	refused(t, s, 0, "Card 1 is a 8, not a Stop card", VerbPlay, "1_stop")
	refused(t, s, 0, "You have no drawn card", VerbPut, "0")
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	refused(t, s, 1, "A Stop card is played on its own", VerbPlay, "1.2.3_trips_5")
	refused(t, s, 1, "A Solo 5 doesn't beat a Pair of 8s", VerbPlay, "1_solo_5")
	refused(t, s, 1, "Straights run within 1–12 and never wrap", VerbPlay, "6.7_str2_1")
	refused(t, s, 1, "You still have a reserve card", VerbLose)
	s.Players[1].Reserve = nil
	refused(t, s, 1, "You can still play your Stop card", VerbLose)
	s.Players[1].Hand = []Card{{9, 2}, {9, 3}}
	refused(t, s, 1, "You can still beat the Pair of 8s, so you must play", VerbLose)
}

func TestSameRefusalForAPairThatDoesNotBeat(t *testing.T) {
	s := rigged(t, 0, "8 8 1", "5 5 2 | 3", "1 | 2")
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	refused(t, s, 1, "A Pair of 5s doesn't beat a Pair of 8s", VerbPlay, "1.2_pair_5")
}

func TestCannotBeatWithoutReserveLosesTheRound(t *testing.T) {
	s := rigged(t, 0, "8 8 1", "3 4 1", "6 | 2")
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	v := s.Hand(1)
	if got := offered(v); !slices.Equal(got, []string{VerbLose}) {
		t.Fatalf("Bea is offered %q, want only giving up", got)
	}
	if !strings.Contains(v.Description, "no way to beat the Pair of 8s and no reserve card left") {
		t.Errorf("prompt: %q", v.Description)
	}
	evs := must(t, s, 1, VerbLose)
	if stories(evs) != 1 || !strings.Contains(events(evs), "Bea can't beat the Pair of 8s and has no reserve card left. Bea gives up a chip and has 1 left") {
		t.Errorf("events: %s", events(evs))
	}
	// The round ends at once; the host deals again and the loser leads.
	if s.Round != 2 || s.Leader != 1 || s.Players[1].Chips != 1 || len(s.Players[2].Hand) != 10 || s.Over() {
		t.Fatalf("round %d leader %d chips %d", s.Round, s.Leader, s.Players[1].Chips)
	}
}

func TestStopOrRedrawKeepsAStuckPlayerIn(t *testing.T) {
	s := rigged(t, 0, "8 8 1", "3 R 4", "6 | 2")
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	if got := offered(s.Hand(1)); !slices.Equal(got, []string{"play=2_redraw"}) {
		t.Fatalf("Bea is offered %q, want only her Redraw", got)
	}
	refused(t, s, 1, "You can still play your Redraw card", VerbLose)
	if d := s.Hand(1).Description; d != "**Your turn.** Nothing in your hand beats **Pair of 8s** (Ann): you may play a Stop or Redraw, which needs to beat nothing." {
		t.Errorf("prompt %q", d)
	}
}

func TestLastPlayerHoldingCardsLoses(t *testing.T) {
	// Ann and Bea go out; Cat still answers the trick, then is left alone.
	s := rigged(t, 0, "5", "7", "3 3 | 2")
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_7")
	if s.Round != 1 || s.Turn != 2 {
		t.Fatalf("Cat must still act in the trick (round %d, turn %d)", s.Round, s.Turn)
	}
	evs := must(t, s, 2, VerbRes, s.Players[2].Reserve[0].Code()+".0")
	if !strings.Contains(events(evs), "Cat is the last player holding cards. Cat gives up a chip and has 1 left") {
		t.Errorf("events: %s", events(evs))
	}
	if s.Round != 2 || s.Leader != 2 || s.Players[2].Chips != 1 || s.Players[0].Chips != 2 {
		t.Fatalf("round %d leader %d chips %v", s.Round, s.Leader, s.Players)
	}
}

func TestEveryoneOutInOneTrickAllButTheHighestPay(t *testing.T) {
	s := rigged(t, 1, "9", "5", "7")
	must(t, s, 1, VerbPlay, "1_solo_5")
	must(t, s, 2, VerbPlay, "1_solo_7")
	evs := must(t, s, 0, VerbPlay, "1_solo_9")
	chips := []int{s.Players[0].Chips, s.Players[1].Chips, s.Players[2].Chips}
	if !slices.Equal(chips, []int{2, 1, 1}) {
		t.Fatalf("chips %v, want Bea and Cat to pay", chips)
	}
	// Several paid: the host ("the oldest player") leads, though Ann paid nothing.
	if s.Round != 2 || s.Leader != 0 {
		t.Fatalf("round %d leader %d", s.Round, s.Leader)
	}
	if stories(evs) != 1 || !strings.Contains(events(evs), "Bea and Cat each give up a chip (left: Bea 1, Cat 1)") {
		t.Errorf("events: %s", events(evs))
	}
}

func TestGameEndsWhenAChipIsOwed(t *testing.T) {
	s := rigged(t, 0, "8 8 1", "3 4 1", "6 | 2")
	s.Players[1].Chips = 0
	must(t, s, 0, VerbPlay, "1.2_pair_8")
	evs := must(t, s, 1, VerbLose)
	if !s.Over() || !slices.Equal(s.Losers, []int{1}) || s.ToAct() != nil {
		t.Fatalf("over %v losers %v to act %v", s.Over(), s.Losers, s.ToAct())
	}
	if stories(evs) != 1 || !strings.Contains(events(evs), "Bea owes a chip with none left and loses the game! Ann and Cat win.") {
		t.Errorf("events: %s", events(evs))
	}
	res := s.Results()
	want := []games.Result{{Seat: 0, Score: 2, Winner: true}, {Seat: 1, Score: 0}, {Seat: 2, Score: 2, Winner: true}}
	if !slices.Equal(res, want) {
		t.Errorf("results %v", res)
	}
	refused(t, s, 0, "The game is over", VerbPlay, "3_solo_1")
	if d := s.Table().Description; !strings.Contains(d, "Game over") || !strings.Contains(d, "Ann and Cat win") {
		t.Errorf("table: %q", d)
	}
}

func TestSeveralOweAtOnceAllLose(t *testing.T) {
	s := rigged(t, 0, "5", "7", "9", "1 | 2")
	s.Players[0].Chips, s.Players[1].Chips, s.Players[2].Chips = 0, 0, 0
	s.Players[3].Chips = 1
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_7")
	must(t, s, 2, VerbPlay, "1_solo_9")
	evs := must(t, s, 3, VerbRes, s.Players[3].Reserve[0].Code()+".0")
	// Dan is the last with cards and pays his chip: not a loser. Nobody owes.
	if s.Over() || s.Players[3].Chips != 0 || s.Leader != 3 {
		t.Fatalf("over %v, Dan's chips %d: %s", s.Over(), s.Players[3].Chips, events(evs))
	}
	// Next: everyone out in one trick, Ann, Bea and Cat owe with none left.
	s = rigged(t, 0, "5", "7", "9")
	s.Players[0].Chips, s.Players[1].Chips = 0, 0
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_7")
	evs = must(t, s, 2, VerbPlay, "1_solo_9")
	if !s.Over() || !slices.Equal(s.Losers, []int{0, 1}) {
		t.Fatalf("losers %v", s.Losers)
	}
	if !strings.Contains(events(evs), "Ann and Bea owe a chip with none left and lose the game! Cat wins.") {
		t.Errorf("events: %s", events(evs))
	}
	if r := s.Results(); r[0].Winner || r[1].Winner || !r[2].Winner {
		t.Errorf("results %v", r)
	}
}

func TestOneOwesWhileAnotherPays(t *testing.T) {
	s := rigged(t, 0, "5", "7", "9")
	s.Players[0].Chips = 0
	must(t, s, 0, VerbPlay, "1_solo_5")
	must(t, s, 1, VerbPlay, "1_solo_7")
	evs := must(t, s, 2, VerbPlay, "1_solo_9")
	if !s.Over() || !slices.Equal(s.Losers, []int{0}) || s.Players[1].Chips != 1 {
		t.Fatalf("losers %v, Bea's chips %d", s.Losers, s.Players[1].Chips)
	}
	if stories(evs) != 1 {
		t.Errorf("%d story events", stories(evs))
	}
}
