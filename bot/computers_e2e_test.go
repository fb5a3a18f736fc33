package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games"
)

// One person plays a whole game against computer players through Discord:
// a Card Duel against one, and Dealt! against two. The computers move by
// themselves after each of the person's moves, never illegally, and only
// the person counts in the server's stats.
func TestOnePersonAgainstComputers(t *testing.T) {
	for _, tc := range []struct {
		game      string
		computers int
	}{{"duel", 1}, {"dealt", 2}} {
		t.Run(tc.game, func(t *testing.T) {
			h := newHarness(t, func(h *harness) { h.computerBeat = time.Nanosecond })
			ann, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Cy")
			ann.Command(h.ch, "game", newGame(tc.game))
			mustRefuse(t, cy.Click(h.table(), h.table().ButtonID("Add a computer")), "Only the host")
			for range tc.computers {
				if r := ann.Click(h.table(), h.table().ButtonID("Add a computer")); r == nil || r.Type != 7 {
					t.Fatalf("adding a computer answered %+v", r)
				}
			}
			if text := h.table().Text(); strings.Count(text, "🤖") != tc.computers {
				t.Fatalf("the lobby:\n%s", text)
			}
			ann.Click(h.table(), h.table().ButtonID("Start"))
			gameID := h.record().ID
			if tc.game == "duel" {
				buildCheapHand(t, h, ann, 30)
			}
			playAlone(t, h, ann, 2000)
			log, _ := h.db.History(gameID)
			byComputer := 0
			for _, e := range log {
				if e.Input.Seat > 0 && e.Input.Kind == games.InMove {
					byComputer++
				}
			}
			if byComputer == 0 {
				t.Fatal("no move was made by a computer")
			}
			st, _ := h.db.Stats(h.fake.GuildID())
			if len(st) != 1 || st[ann.ID] == nil {
				t.Fatalf("stats: %v", st)
			}
			if pings := h.fake.Pings(ann.ID); pings > 1+len(log)/2 {
				t.Fatalf("Ann was pinged %d times", pings)
			}
			// A rematch seats the same computers, which go on playing by
			// themselves and stay out of the stats.
			posts, _ := h.db.Posts(gameID)
			final := h.fake.Message(h.ch, posts.Table)
			if r := ann.Click(final, final.ButtonID("Rematch")); r == nil || !strings.Contains(r.Content, "rematch lobby") {
				t.Fatalf("rematch answered %+v", r)
			}
			for _, seat := range h.record().Seats[1:] {
				if seat.Computer == "" {
					t.Fatalf("the rematch made %s a person", seat.Name)
				}
			}
			ann.Click(h.table(), h.table().ButtonID("Start"))
			if tc.game == "duel" {
				buildCheapHand(t, h, ann, 30)
			}
			playAlone(t, h, ann, 2000)
			if st, _ := h.db.Stats(h.fake.GuildID()); len(st) != 1 || st[ann.ID] == nil || st[ann.ID].Games[tc.game] == nil || st[ann.ID].Games[tc.game].Played != 2 {
				t.Fatalf("stats after the rematch: %v", st)
			}
			_ = fmt.Sprint
		})
	}
}

// The host takes an absent player out: the bot plays their seat, the game
// runs to its end without them, and they still count in the stats.
func TestHostRemovesAnAbsentPlayer(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.computerBeat = time.Nanosecond })
	ann, bea := h.fake.AddUser("Ann"), h.fake.AddUser("Bea")
	openDuel(t, h, ann, bea)
	ann.Click(h.table(), h.table().ButtonID("Start"))
	buildCheapHand(t, h, ann, 30)
	mustRefuse(t, bea.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann))), "Only the host, Ann, or someone with Manage Channel can take a player out")
	r := ann.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea)))
	if r == nil || !strings.Contains(r.Content, "I play Bea's seat") {
		t.Fatalf("/game remove answered %+v", r)
	}
	gameID := h.record().ID
	playAlone(t, h, ann, 2000)
	st, _ := h.db.Stats(h.fake.GuildID())
	if st[bea.ID] == nil || st[ann.ID] == nil {
		t.Fatalf("stats: %v", st)
	}
	// In a rematch Bea plays for herself again.
	posts, _ := h.db.Posts(gameID)
	final := h.fake.Message(h.ch, posts.Table)
	ann.Click(final, final.ButtonID("Rematch"))
	if seats := h.record().Seats; len(seats) != 2 || seats[1].User != bea.ID || seats[1].Computer != "" || seats[1].Away {
		t.Fatalf("the rematch seats: %+v", seats)
	}
}

// A player the host took out comes back by pressing My hand: the bot stops
// playing their seat, and the game waits for their own moves again.
func TestRemovedPlayerComesBackWithTheirHand(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.computerBeat = time.Hour }) // the bot's seat moves only when told
	ann, bea := duelTable(t, h, h.ch, 0)
	ann.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", bea)))
	if s := h.record().Seats[1]; !s.Away || s.Computer == "" {
		t.Fatalf("Bea's seat after /game remove: %+v", s)
	}
	r := bea.Click(h.table(), h.table().ButtonID("My hand"))
	if r == nil || !r.Ephemeral || r.Message == nil {
		t.Fatalf("My hand answered %+v", r)
	}
	rec := h.record()
	if s := rec.Seats[1]; s.Away || s.Computer != "" || s.HandToken == "" {
		t.Fatalf("Bea's seat after My hand: %+v", s)
	}
	if !strings.Contains(h.table().Text(), bea.Name+" is back") {
		t.Fatalf("the table does not say Bea is back:\n%s", h.table().Text())
	}
	for key := range rec.Timers {
		if strings.HasPrefix(key, "bot:cpu:1:") {
			t.Fatalf("the bot still means to play Bea's seat: %v", rec.Timers)
		}
	}
}

// Computers don't role-play: a life game with markers refuses them; without
// markers one plays a whole life beside a person.
func TestComputersInLifeOnlyWithoutRolePlay(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.computerBeat = time.Nanosecond })
	ann := h.fake.AddUser("Ann")
	ann.Command(h.ch, "game", newGame("life"))
	mustRefuse(t, ann.Click(h.table(), h.table().ButtonID("Add a computer")), "can't role-play")
	h.endGame(ann, h.ch)
	ann.Command(h.ch, "game", newGame("life", fakediscord.Bool("roleplay", false)))
	ann.Click(h.table(), h.table().ButtonID("Add a computer"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	playAlone(t, h, ann, 300)
}

// playAlone plays the channel's game to its end as the one person in seat
// 0: after each of their moves the bot's seats must have played, so the
// game always waits for them.
func playAlone(t *testing.T, h *harness, u *fakediscord.User, limit int) {
	t.Helper()
	for moves := 0; ; moves++ {
		if moves > limit {
			t.Fatal("the game did not end")
		}
		rec, _ := h.db.Game(h.ch)
		if rec == nil {
			return
		}
		if len(rec.Waiting) == 0 || rec.Waiting[0] != 0 {
			t.Fatalf("after %s's move the game waits for %v, not them: the bot's seats did not play", u.Name, rec.Waiting)
		}
		playOn(t, h, []*fakediscord.User{u})
	}
}

// A host who walks away from Play the Hand You're Dealt (a role-play game,
// whose turn timer only reminds) would hold the game for a week: a
// moderator hands the host's seat to the bot, and the game goes on. Neither
// the host nor a player may, and a GM's seat is never handed over.
func TestModeratorHandsAnAbsentHostsSeatToTheBot(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.computerBeat = time.Nanosecond })
	ann, bea := h.startedWith("life", "Ann", "Bea")
	mod := h.fake.AddAdmin("Mo")
	if w := h.record().Waiting; len(w) != 1 || w[0] != 0 {
		t.Fatalf("waiting for %v; want the host to begin", w)
	}
	remove := func(u *fakediscord.User) *fakediscord.Reply {
		return u.Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", ann)))
	}
	mustRefuse(t, remove(bea), "Only the host")
	mustRefuse(t, remove(ann), "Only someone with Manage Channel can hand the host's seat")
	if r := remove(mod); r == nil || !strings.Contains(r.Content, "I play Ann's seat") {
		t.Fatalf("the moderator's /game remove answered %+v", r)
	}
	h.tick(time.Second) // the bot's turn for the seat
	if w := h.record().Waiting; len(w) != 1 || w[0] != 1 {
		t.Fatalf("waiting for %v after the bot played the host's seat; want Bea", w)
	}
}

func TestGMsSeatIsNeverHandedOver(t *testing.T) {
	h := newHarness(t)
	gm, _ := h.startedWith("improv", "Gia", "Bo")
	mustRefuse(t, h.fake.AddAdmin("Mo").Command(h.ch, "game", fakediscord.Sub("remove", fakediscord.UserOpt("player", gm))), "The GM's seat runs the game")
}
