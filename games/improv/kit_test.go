package improv

import (
	"testing"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/gamestest"
)

// kitText answers the text boxes with a mix of good and bad lines.
func kitText(r *games.RNG, a games.Action) string {
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	switch a.Verb {
	case "gmstake":
		return pick("Riso: gun down Vinny and get away", "Goons: rough up the agents", "Amanda: say no", "no colon here", ": empty name", "Riso:", "Patrons (3 mooks)")
	case "kit":
		return pick("P2: Kung fu 4", "P3: Charm 0", "P2: Charm 2", "Nobody: Kung fu 2", "P2 Kung fu 4", "P4: Luck 99")
	case "addtal":
		return pick("Kung fu 3", "Charm 2", "Clever investigator 1", "Kung fu 0", "no uses", "Luck 11")
	case "name":
		return pick("Kit", "Diana", "Jason", "", "Kit: the bold", "A name far too long to be a protagonist's name at all")
	case "stake":
		return pick("capture Riso", "keep Vinny safe", "", "get the records and escape")
	case "end":
		return pick("END", "no", "", "", "", "", "", "", "", "")
	case "help":
		return pick("I cover her from the roof", "", "a distraction at the door")
	}
	return pick("", "hello", "x")
}

func TestConformance(t *testing.T) {
	seeds, steps := 30, 1500
	if raceOn || testing.Short() {
		seeds, steps = 2, 800
	}
	reveals := 0
	phases := map[string]int{}
	gamestest.Run(t, Rules, gamestest.Config{
		Seeds:    seeds,
		Players:  []int{2, 4, 7},
		Options:  []map[string]int{nil, {OptLethal: 1, OptTalentCap: 2}},
		MaxSteps: steps,
		Endless:  true,
		Joins:    []string{"J1", "J2"},
		Text:     kitText,
		Secrets: func(g games.Game, seat int) []string {
			st := g.(*State)
			var out []string
			for _, c := range st.Hands[seat] {
				if c.Rank != games.Joker { // both Jokers read the same
					out = append(out, c.String())
				}
			}
			if st.C != nil && st.Phase != PhaseNarrate {
				for _, sd := range st.C.Sides {
					if sd.Seat == seat && sd.Card != nil && !sd.Deck && sd.Card.Rank != games.Joker {
						out = append(out, sd.Card.String())
					}
				}
			}
			return out
		},
		Check: func(t testing.TB, g games.Game) {
			st := g.(*State)
			checkInvariants(t, st)
			if st.Phase == PhaseNarrate && st.C.Turn == 0 {
				reveals++
			}
			phases[st.Phase]++
		},
	})
	if reveals == 0 {
		t.Errorf("no random campaign reached a reveal")
	}
	t.Logf("%d reveals; steps by phase %v", reveals, phases)
}
