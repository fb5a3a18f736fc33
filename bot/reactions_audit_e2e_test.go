package bot_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/cardtable/cardbot/bot/fakediscord"
	"github.com/cardtable/cardbot/games/improv"
)

// An audit of role-play awards given with reactions, through Discord: who
// may award, what a repeated or cleared reaction does, reactions given while
// the bot was away or its gateway session was lost, and lines that are gone.

// footer is the game's latest log line, which the table shows under it.
func footer(h *harness) string {
	h.t.Helper()
	l := h.record().Log
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}

// reactors is who reacted with emoji to m, as Discord shows it.
func reactors(h *harness, channel string, m *fakediscord.Message, emoji string) []string {
	h.t.Helper()
	got := h.fake.Message(channel, m.ID)
	if got == nil {
		h.t.Fatalf("message %s is gone", m.ID)
	}
	return got.Reactions[emoji]
}

// botReacts adds the bot's own reaction to m through Discord's REST API,
// as the bot's code would with MessageReactionAdd.
func botReacts(t *testing.T, h *harness, channel string, m *fakediscord.Message, emoji string) {
	t.Helper()
	u := h.fake.APIURL() + "/channels/" + channel + "/messages/" + m.ID + "/reactions/" + url.PathEscape(emoji) + "/@me"
	req, err := http.NewRequest(http.MethodPut, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bot "+fakediscord.BotToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("the bot's own reaction answered %s", res.Status)
	}
	h.fake.Sync()
	h.bot.Idle()
}

// lifeWithSpectator starts a life game of Ann, Bea and Cy, with Dee
// watching, and Bea's line posted.
func lifeWithSpectator(t *testing.T, h *harness) (ann, bea, cy, dee *fakediscord.User, line *fakediscord.Message) {
	t.Helper()
	ann, bea, cy, dee = h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy"), h.fake.AddUser("Dee")
	ann.Command(h.ch, "game", newGame("life"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	cy.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	bea.Command(h.ch, "say", fakediscord.Str("line", "I was raised by wolves."))
	return ann, bea, cy, dee, rolePlayLine(t, h, "I was raised by wolves.")
}

// Reactions that must not award: the author's own, a spectator's, the
// bot's, and any emoji but 🎭. None changes the game or its log, none
// survives a restart as a marker, the refused 🎭 are taken off the line,
// and the bot leaves other emoji and its own reaction alone.
func TestAuditReactionsThatMustNotCount(t *testing.T) {
	h := newHarness(t)
	ann, bea, _, dee, line := lifeWithSpectator(t, h)
	before := h.snapshot()

	bea.React(line, "🎭") // her own line
	dee.React(line, "🎭") // not in the game
	ann.React(line, "👍") // not the marker emoji
	botReacts(t, h, h.ch, line, "🎭")
	if got := reactors(h, h.ch, line, "🎭"); !slices.Equal(got, []string{h.fake.BotUserID()}) {
		t.Fatalf("🎭 on Bea's line by %v; want only the bot's own (the refused ones taken off)", got)
	}
	if got := reactors(h, h.ch, line, "👍"); !slices.Equal(got, []string{ann.ID}) {
		t.Fatalf("👍 on Bea's line by %v; the bot must leave other emoji alone", got)
	}
	if h.snapshot() != before {
		t.Fatalf("reactions that award nothing changed the game: %q", footer(h))
	}
	h.restart()
	if h.snapshot() != before {
		t.Fatalf("the start-up recount counted a reaction that awards nothing: %q", footer(h))
	}
	if n := len(lifeState(t, h).Awards); n != 0 {
		t.Fatalf("%d awards; want none", n)
	}
}

// Reacting twice is one reaction on Discord (the second is no event), so
// one award; one removal takes it back; the marker can then be given again.
func TestAuditSameUserTwiceThenRemoveOnce(t *testing.T) {
	h := newHarness(t)
	ann, _, _, _, line := lifeWithSpectator(t, h)
	v := h.record().Version
	ann.React(line, "🎭")
	ann.React(line, "🎭")
	if g, r := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("Ann gave %d markers (Bea received %d); want 1", g, r)
	}
	if got := footer(h); h.record().Version != v+1 || !strings.Contains(got, "Ann gives Bea a 🎭 marker") {
		t.Fatalf("after a double 🎭: %d changes, the table says %q; want one award", h.record().Version-v, got)
	}
	if !strings.Contains(h.table().Text(), "Ann gives Bea a 🎭 marker") {
		t.Fatalf("the table does not say what happened:\n%s", h.table().Text())
	}
	ann.Unreact(line, "🎭")
	if g, _ := markers(lifeState(t, h), 0); g != 0 {
		t.Fatalf("Ann still gives %d markers after taking hers back", g)
	}
	if got := footer(h); h.record().Version != v+2 || !strings.Contains(got, "Ann takes back the 🎭 marker given to Bea") {
		t.Fatalf("after the take-back: %d changes, the table says %q", h.record().Version-v, got)
	}
	ann.React(line, "🎭")
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("Ann gave %d markers after giving it again; want 1", g)
	}
}

// A line of a game that ended belongs to no game: a 🎭 on it after a new
// game opened in the channel changes neither game.
func TestAuditReactionOnAnEndedGamesLine(t *testing.T) {
	h := newHarness(t)
	ann, bea, _, _, old := lifeWithSpectator(t, h)
	oldID := h.record().ID
	if r := h.endGame(ann, h.ch); r == nil {
		t.Fatal("/game end answered nothing")
	}
	ended := len(endedLife(t, h, oldID).Awards)
	ann.Command(h.ch, "game", newGame("life"))
	bea.Click(h.table(), h.table().ButtonID("Join"))
	ann.Click(h.table(), h.table().ButtonID("Start"))
	bea.Command(h.ch, "say", fakediscord.Str("line", "A new life."))
	before := h.snapshot()
	ann.React(old, "🎭")
	h.restart()
	if h.snapshot() != before {
		t.Fatalf("a 🎭 on the ended game's line changed the new game: %v", h.record().Log)
	}
	if n := len(endedLife(t, h, oldID).Awards); n != ended {
		t.Fatalf("the ended game's awards went from %d to %d", ended, n)
	}
}

// While the bot is down: a self-award, a spectator's 🎭, a 👍, a 🎭 given
// and taken back, and one real award. The start-up recount counts only the
// real one, and takes the refused 🎭 off the line.
func TestAuditReactionsWhileDown(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, dee, line := lifeWithSpectator(t, h)
	v := h.record().Version
	h.stop()
	bea.React(line, "🎭")
	dee.React(line, "🎭")
	ann.React(line, "👍")
	cy.React(line, "🎭")
	cy.Unreact(line, "🎭")
	ann.React(line, "🎭")
	h.start()
	st := lifeState(t, h)
	if g, _ := markers(st, 0); g != 1 || len(st.Awards) != 1 {
		t.Fatalf("after the recount: %d awards, Ann gave %d; want only Ann's", len(st.Awards), g)
	}
	if got := reactors(h, h.ch, line, "🎭"); !slices.Equal(got, []string{ann.ID}) {
		t.Fatalf("🎭 on Bea's line by %v; want only Ann's", got)
	}
	if got := reactors(h, h.ch, line, "👍"); !slices.Equal(got, []string{ann.ID}) {
		t.Fatalf("👍 on Bea's line by %v", got)
	}
	if got := footer(h); h.record().Version != v+1 || !strings.Contains(got, "Ann gives Bea") {
		t.Fatalf("after the recount: %d changes, the table says %q; want Ann's award", h.record().Version-v, got)
	}
}

// Discord ends the bot's gateway session (INVALID_SESSION, not
// resumable): what was dispatched meanwhile is lost for good. A 🎭 given
// and one taken back in that gap must still count once the bot is back,
// as after a restart.
func TestAuditReactionsWhileTheGatewaySessionWasLost(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, _, line := lifeWithSpectator(t, h)
	cy.React(line, "🎭")
	cy.Command(h.ch, "say", fakediscord.Str("line", "Cy's line."))
	cyLine := rolePlayLine(t, h, "Cy's line.")
	h.fake.InvalidSession(false)
	ann.React(line, "🎭")   // lost with the session
	cy.Unreact(line, "🎭")  // lost too
	bea.React(cyLine, "🎭") // and this
	if !h.fake.AwaitConnected() {
		t.Fatal("the bot did not come back")
	}
	h.bot.Idle()
	st := lifeState(t, h)
	if g, _ := markers(st, 0); g != 1 {
		t.Fatalf("Ann's 🎭, given while the session was lost, counts %d; want 1", g)
	}
	if g, _ := markers(st, 2); g != 0 {
		t.Fatalf("Cy's 🎭, taken back while the session was lost, still counts")
	}
	if g, _ := markers(st, 1); g != 1 {
		t.Fatalf("Bea's 🎭 on Cy's line counts %d; want 1", g)
	}
}

// A moderator's "remove all of 👍" leaves the markers alone; "remove all
// 🎭" and "remove all reactions" take them back, each with a line on the
// table; the players can give them again afterwards.
func TestAuditModeratorClearsThenAwardsAgain(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, _, line := lifeWithSpectator(t, h)
	mod := h.fake.AddAdmin("Mo")
	ann.React(line, "🎭")
	cy.React(line, "🎭")
	ann.React(line, "👍")
	before, v := h.snapshot(), h.record().Version
	mod.ClearReactions(line, "👍")
	if h.snapshot() != before {
		t.Fatalf("clearing 👍 changed the game: %q", footer(h))
	}
	mod.ClearReactions(line, "🎭")
	if n := len(lifeState(t, h).Awards); n != 0 {
		t.Fatalf("%d awards after a moderator removed every 🎭", n)
	}
	if got := footer(h); h.record().Version != v+2 || !strings.Contains(got, "takes back the 🎭 marker given to Bea") {
		t.Fatalf("after the clear: %d changes, the table says %q; want Ann's and Cy's take-backs", h.record().Version-v, got)
	}
	ann.React(line, "🎭")
	cy.React(line, "🎭")
	if _, r := markers(lifeState(t, h), 1); r != 2 {
		t.Fatalf("Bea received %d after the 🎭 were given again; want 2", r)
	}
	mod.ClearReactions(line, "")
	if _, r := markers(lifeState(t, h), 1); r != 0 {
		t.Fatalf("Bea received %d after a moderator removed all reactions; want 0", r)
	}
	bea.Command(h.ch, "say", fakediscord.Str("line", "Wolves are family."))
	ann.React(rolePlayLine(t, h, "Wolves are family."), "🎭")
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("Ann gave %d after the clears; want 1", g)
	}
}

// A moderator deletes a line that earned a marker. Discord sends no
// reaction events for it: the marker stands, through restarts, and the bot
// does not keep asking Discord about the deleted message.
func TestAuditDeletedLineKeepsItsMarker(t *testing.T) {
	h := newHarness(t)
	ann, _, _, _, line := lifeWithSpectator(t, h)
	mod := h.fake.AddAdmin("Mo")
	ann.React(line, "🎭")
	mod.DeleteMessage(line)
	before := h.snapshot()
	h.restart()
	h.restart() // the fake fails the test if the bot asks about the deleted line again
	if h.snapshot() != before {
		t.Fatalf("the deleted line's marker changed: %v", h.record().Log)
	}
	if g, _ := markers(lifeState(t, h), 0); g != 1 {
		t.Fatalf("Ann gave %d markers; want 1 (on the deleted line)", g)
	}
}

// In the game's thread: a 🎭 given and a self-award made while the bot is
// down are recounted there, and a moderator clearing the line in the
// thread takes the marker back.
func TestAuditThreadReactionsWhileDownAndCleared(t *testing.T) {
	h := newHarness(t, withThreads)
	ann, bea, cy := h.fake.AddUser("Ann"), h.fake.AddUser("Bea"), h.fake.AddUser("Cy")
	mod := h.fake.AddAdmin("Mo")
	openIn(t, h, "life", []*fakediscord.User{ann, bea, cy})
	th := threadOf(t, h)
	ann.Command(th.ID, "say", fakediscord.Str("line", "I hum as I deal."))
	var line *fakediscord.Message
	for _, m := range h.fake.Messages(th.ID) {
		if strings.HasPrefix(m.Content, "🎭") && strings.Contains(m.Content, "I hum as I deal.") {
			line = m
		}
	}
	if line == nil {
		t.Fatal("the /say line is not in the thread")
	}
	h.stop()
	bea.React(line, "🎭")
	ann.React(line, "🎭")
	h.start()
	if _, r := markers(lifeState(t, h), 0); r != 1 {
		t.Fatalf("Ann received %d markers after the recount; want Bea's", r)
	}
	if got := reactors(h, th.ID, line, "🎭"); !slices.Equal(got, []string{bea.ID}) {
		t.Fatalf("🎭 on Ann's line by %v; want only Bea's", got)
	}
	mod.ClearReactions(line, "")
	if _, r := markers(lifeState(t, h), 0); r != 0 {
		t.Fatalf("Ann received %d markers after a moderator cleared her line; want 0", r)
	}
}

// Improv, in an extended conflict with Bea, Cy and Dee. Round 1's
// narration opens an award window: the GM's, a spectator's, a self-award
// and a 👍 change nothing (the refused 🎭 are taken off); Cy awards Bea,
// Bea awards Cy. In round 2
// Bea spends her token, then Cy takes back the 🎭: the award stands (Bea has
// nothing to return) and stays Cy's one for the window, so Cy's 🎭 on Dee's
// line is refused and taken off, and Cy's 🎭 put back on Bea's line changes
// nothing. Round 2's narration opens a new window: Dee's award empties the
// pool, Cy's is refused (and taken off, with nothing said), and once Dee
// takes hers back Cy's 🎭 given again counts.
func TestAuditImprovAwardStandsAndEmptyPool(t *testing.T) {
	h := newHarness(t)
	gm, players := improvCampaign(h, "Bea", "Cy", "Dee")
	bea, cy, dee, eve := players[0], players[1], players[2], h.fake.AddUser("Eve")
	everyone := append([]*fakediscord.User{gm}, players...)
	openRiso(h, gm, players, "3 rounds", "Riso: gun down Vinny and get away")

	say := func(u *fakediscord.User, text string) *fakediscord.Message {
		t.Helper()
		if r := u.Command(h.ch, "say", fakediscord.Str("line", text)); r == nil || !r.Ephemeral {
			t.Fatalf("/say answered %+v", r)
		}
		return rolePlayLine(t, h, text)
	}
	var beaLine, deaLine *fakediscord.Message
	did := map[string]bool{}
	for step := 0; step < 300 && !did["round 2 awards"]; step++ {
		st := improvState(t, h)
		if st.C == nil {
			t.Fatal("the conflict ended before round 2's narration")
		}
		rec := h.record()
		u := userAt(h, rec.Waiting[0], everyone)
		switch {
		case st.Phase == improv.PhaseNarrate && st.C.Round == 1 && !did["round 1 awards"]:
			did["round 1 awards"] = true
			beaLine, deaLine = say(bea, "Kit vaults the bar."), say(dee, "Jason ducks.")
			cyLine := say(cy, "Diana draws.")
			pool := st.Pool
			snap := h.snapshot()
			gm.React(beaLine, "🎭")  // the GM's reactions don't award
			eve.React(beaLine, "🎭") // nor do those of someone not in the campaign
			bea.React(beaLine, "🎭") // nor one's own
			cy.React(beaLine, "👍")  // nor other emoji
			if got := reactors(h, h.ch, beaLine, "🎭"); h.snapshot() != snap || len(got) != 0 {
				t.Fatalf("refused 🎭 by %v still on the line, or the campaign changed: %q", got, footer(h))
			}
			cy.React(beaLine, "🎭")
			bea.React(cyLine, "🎭")
			if st := improvState(t, h); st.Pool != pool-2 || st.Tokens[1] != 1 || st.Tokens[2] != 1 {
				t.Fatalf("after two awards: pool %d (was %d), Bea %d, Cy %d tokens", st.Pool, pool, st.Tokens[1], st.Tokens[2])
			}
		case st.Phase == improv.PhaseBonus && st.C.Round == 2 && u == bea && !did["spent"]:
			did["spent"] = true
			h.press(bea, "+1 story-token", "")
			if improvState(t, h).Tokens[1] != 0 {
				t.Fatal("Bea's token was not spent")
			}
			before, v := improvState(t, h), h.record().Version
			cy.Unreact(beaLine, "🎭")
			if got := footer(h); h.record().Version != v+1 || !strings.Contains(got, "award stands") {
				t.Fatalf("after Cy's take-back of a spent token: %d changes, the table says %q", h.record().Version-v, got)
			}
			if st := improvState(t, h); st.Pool != before.Pool || st.Tokens[1] != 0 || st.Awards[2].Ref == "" {
				t.Fatalf("after the take-back that stands: pool %d (was %d), Bea %d tokens, Cy's award %+v", st.Pool, before.Pool, st.Tokens[1], st.Awards[2])
			}
			snap := h.snapshot()
			cy.React(deaLine, "🎭") // a second award in the window: refused
			if got := reactors(h, h.ch, deaLine, "🎭"); len(got) != 0 {
				t.Fatalf("Cy's refused 🎭 on Dee's line is still there: %v", got)
			}
			cy.React(beaLine, "🎭") // back on the line whose award stands
			if h.snapshot() != snap {
				t.Fatalf("a refused or repeated 🎭 changed the campaign: %q", footer(h))
			}
			h.restart()
			if h.snapshot() != snap {
				t.Fatalf("the recount changed the campaign: %q", footer(h))
			}
			h.press(bea, "Ready", "")
		case st.Phase == improv.PhaseNarrate && st.C.Round == 2:
			did["round 2 awards"] = true
			line := say(bea, "Kit lands on Riso.")
			pool := st.Pool
			if pool != 1 {
				t.Fatalf("the pool holds %d at round 2's narration; want 1", pool)
			}
			dee.React(line, "🎭")
			snap := h.snapshot()
			cy.React(line, "🎭") // the pool is empty
			if h.snapshot() != snap || improvState(t, h).Tokens[1] != 1 {
				t.Fatalf("an award from an empty pool changed the campaign: %q", footer(h))
			}
			if got := reactors(h, h.ch, line, "🎭"); !slices.Equal(got, []string{dee.ID}) {
				t.Fatalf("🎭 on Bea's line by %v; want only Dee's", got)
			}
			dee.Unreact(line, "🎭")
			cy.React(line, "🎭")
			if st := improvState(t, h); st.Pool != 0 || st.Tokens[1] != 1 || st.Awards[2].Ref == "" || st.Awards[3].Ref != "" {
				t.Fatalf("after Dee took hers back and Cy gave his: pool %d, Bea %d, awards %+v", st.Pool, st.Tokens[1], st.Awards)
			}
		case st.Phase == improv.PhaseCards:
			h.choose(u, "play")
		case st.Phase == improv.PhaseBonus:
			h.press(u, "Ready", "")
		case st.Phase == improv.PhaseFate:
			h.press(u, "", "")
		case st.Phase == improv.PhaseNarrate:
			u.Command(h.ch, "say", fakediscord.Str("line", "narrating"))
			h.press(u, "Done narrating", "")
		default:
			t.Fatalf("unexpected phase %s", st.Phase)
		}
	}
	if !did["spent"] || !did["round 2 awards"] {
		t.Fatalf("the scenario did not play out: %v", did)
	}
}

// Ann's fourth 🎭 is refused, and the bot's removal of it waits behind
// slow output. Meanwhile she takes back one marker and gives the fourth
// line its 🎭 again, which now counts: the removal queued for the refused
// reaction must not take away the one that counts.
func TestAuditRefusedReactionTakenOffLate(t *testing.T) {
	h := newHarness(t)
	ann, bea, cy, _, first := lifeWithSpectator(t, h)
	var lines []*fakediscord.Message
	for i := 1; i <= 4; i++ {
		text := fmt.Sprintf("Bea's line %d.", i)
		bea.Command(h.ch, "say", fakediscord.Str("line", text))
		lines = append(lines, rolePlayLine(t, h, text))
	}
	for _, m := range lines[:3] {
		ann.React(m, "🎭")
	}
	h.fake.SetSettler(nil) // the output lane waits on the held request
	held, release := h.fake.Hold("PATCH", fakediscord.RouteMessage)
	cy.React(first, "🎭") // its table edit holds up the channel's output
	<-held
	ann.React(lines[3], "🎭") // a fourth: refused, to be taken off
	ann.Unreact(lines[0], "🎭")
	ann.Unreact(lines[3], "🎭")
	ann.React(lines[3], "🎭")
	ann.Command(h.ch, "game", fakediscord.Sub("hand")) // answered after the reactions in the channel's lane
	release()
	h.bot.Idle()
	h.fake.SetSettler(h.bot.Idle)
	h.fake.Sync()
	h.bot.Idle()
	on := map[string]bool{}
	for _, a := range lifeState(t, h).Awards {
		if a.From == 0 {
			on[a.Ref] = true
		}
	}
	got := reactors(h, h.ch, lines[3], "🎭")
	if !on[h.refOf(lines[3])] || len(on) != 3 || !slices.Equal(got, []string{ann.ID}) {
		t.Fatalf("Ann's awards on %v, her 🎭 on the fourth line by %v; want it counted and shown", on, got)
	}
}
