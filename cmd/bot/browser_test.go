package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cardtable/cardbot/bot/localtable/cdp"
)

var screenshot = flag.String("screenshot", "", "write a PNG of the local table with a Card Duel in progress to this file (TestLocalTableInABrowser)")

// browser is a player's browser on the local table's page.
type browser struct {
	t   *testing.T
	ctx context.Context
	p   *cdp.Page
}

func js(s string) string { b, _ := json.Marshal(s); return string(b) }

// sel is the first element matching a CSS selector.
func sel(css string) string { return "document.querySelector(" + js(css) + ")" }

// player is the selector of a player's button in "You are".
func player(name string, active bool) string {
	css := ".player"
	if active {
		css += ".active"
	}
	return sel(css + "[data-name=" + js(name) + "]")
}

func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	if err := b.p.Eval(b.ctx, expr, out); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) click(element string) {
	b.t.Helper()
	if err := b.p.Click(b.ctx, element); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) waitFor(cond string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if err := b.p.WaitFor(ctx, cond); err != nil {
		var text string
		b.p.Eval(b.ctx, `document.querySelector("#messages").innerText.slice(-1500) + "\n[notice] " + document.querySelector("#notice").innerText +
			"\n[page] " + JSON.stringify({user: app.user, channel: app.channel, fetching: app.fetching, busy: app.busy, sinceChange: Date.now() - app.lastChange})`, &text)
		b.t.Fatalf("%v\nthe page shows:\n%s", err, text)
	}
}

// settle waits until the page has fetched what the table last announced
// and nothing is in flight.
func (b *browser) settle() {
	b.t.Helper()
	b.waitFor(`!app.fetching && app.busy === 0 && Date.now() - app.lastChange > 150`)
}

func (b *browser) typeText(text string) {
	b.t.Helper()
	if err := b.p.Type(b.ctx, text); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) press(key string) {
	b.t.Helper()
	if err := b.p.Press(b.ctx, key); err != nil {
		b.t.Fatal(err)
	}
}

// addPlayer types a name into "+ add a player"; the page then plays as them.
func (b *browser) addPlayer(name string) {
	b.t.Helper()
	b.click(`document.querySelector("#add-player input")`)
	b.typeText(name)
	b.press("Enter")
	b.waitFor(player(name, true))
	b.settle()
}

// as switches the page to another player.
func (b *browser) as(name string) {
	b.t.Helper()
	// The page redraws its player bar with every state it fetches: a click
	// between finding the button and pressing it lands on the one replaced,
	// and the user stays who it was (seen once in CI). Switching to the
	// same user again is harmless, so the click is made again.
	for try := 1; try < 3; try++ {
		b.click(player(name, false))
		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
		err := b.p.WaitFor(ctx, player(name, true))
		cancel()
		if err == nil {
			break
		}
	}
	b.waitFor(player(name, true) + ` && !app.fetching`)
	b.settle()
}

// send types a line into the message box and sends it.
func (b *browser) send(line string) {
	b.t.Helper()
	b.click(`document.querySelector("#input")`)
	b.typeText(line)
	b.press("Enter")
	b.waitFor(`document.querySelector("#input").value === ""`)
	b.settle()
}

// newestButton is the newest message's enabled button labelled label.
func newestButton(label string) string {
	return `[...document.querySelectorAll("#messages .msg")].reverse().map(m =>
		[...m.querySelectorAll(".rows button.btn")].find(b => b.textContent.includes(` + js(label) + `) && !b.disabled)).find(Boolean)`
}

// clickButton clicks the newest enabled button labelled label.
func (b *browser) clickButton(label string) {
	b.t.Helper()
	b.waitFor(newestButton(label))
	b.click(newestButton(label))
	b.settle()
}

// ownMove is the first enabled button of the player's newest ephemeral
// message with controls: their open hand, if it is their move.
const ownMove = `(() => { const eph = [...document.querySelectorAll("#messages .msg.eph")];
	for (let i = eph.length - 1; i >= 0; i--) {
		const bs = [...eph[i].querySelectorAll(".rows button.btn")];
		if (!bs.length) continue;
		return bs.find(b => !b.disabled) || null;
	}
	return null; })()`

// buildHand opens the player's hand, picks cards worth up to limit in the
// first menu, and locks in.
func (b *browser) buildHand(limit int) {
	b.t.Helper()
	b.clickButton("My hand")
	lastEph := `[...document.querySelectorAll("#messages .msg.eph")].pop()`
	b.waitFor(lastEph + `?.querySelector(".select .sel-button")`)
	b.click(lastEph + `.querySelector(".select .sel-button")`)
	b.waitFor(`document.querySelector(".sel-menu .sel-option")`)
	var worth []int
	b.eval(`[...document.querySelectorAll(".sel-menu .sel-option")].map(o => Number((o.querySelector(".desc")?.textContent.match(/\d+/) || [99])[0]))`, &worth)
	total := 0
	for i, w := range worth {
		if total+w > limit {
			continue
		}
		total += w
		b.click(fmt.Sprintf(`document.querySelectorAll(".sel-menu .sel-option")[%d]`, i))
	}
	b.click(`document.querySelector(".sel-menu .sel-apply")`)
	b.waitFor(`!document.querySelector(".sel-menu")`)
	b.settle()
	b.clickButton("Lock in hand")
}

// threadEntry is the sidebar's entry for the thread named name.
func threadEntry(name string) string {
	return `[...document.querySelectorAll("#channels li.thread a")].find(a => a.textContent === ` + js("🧵 "+name) + `)`
}

// threadLink is the link to the thread named name under the message that
// started it.
func threadLink(name string) string {
	return `[...document.querySelectorAll("#messages .thread-box a")].find(a => a.textContent === ` + js(name) + `)`
}

// inThread is true when the page shows the thread named name.
func inThread(name string) string {
	return `document.querySelector("#channel-name").textContent === ` + js("🧵 "+name)
}

// navigate clicks a link and waits until cond holds. A message redrawn
// between finding the link and the click moves it from under the mouse,
// so a click that took the page nowhere is tried again.
func (b *browser) navigate(link, cond string) {
	b.t.Helper()
	for try := 0; ; try++ {
		b.click(link)
		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
		err := b.p.WaitFor(ctx, cond)
		cancel()
		if err == nil || try == 4 {
			break
		}
	}
	b.waitFor(cond)
}

// toChannel opens a text channel from the sidebar.
func (b *browser) toChannel(name string) {
	b.t.Helper()
	b.navigate(`[...document.querySelectorAll("#channels li:not(.thread) a")].find(a => a.textContent === `+js("# "+name)+`)`,
		`document.querySelector("#channel-name").textContent === `+js("# "+name))
	b.settle()
}

// toThread opens a thread from the sidebar.
func (b *browser) toThread(name string) {
	b.t.Helper()
	b.waitFor(threadEntry(name))
	b.navigate(threadEntry(name), inThread(name))
	b.settle()
}

// followGame waits for the game just started in this channel to move into
// its thread, named name (the lobby becomes a note with a link to it, and
// the sidebar lists it), and follows the link.
func (b *browser) followGame(name string) {
	b.t.Helper()
	b.waitFor(threadLink(name) + ` && ` + threadEntry(name))
	if text := b.text(); !strings.Contains(text, "has started with") || !strings.Contains(text, "the result will be posted here") {
		b.t.Fatalf("the lobby did not become a note on the started game:\n%s", text)
	}
	b.settle()
	b.navigate(threadLink(name), inThread(name))
	b.settle()
}

func (b *browser) text() string {
	var s string
	b.eval(`document.querySelector("#messages").innerText`, &s)
	return s
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// The whole local table in a real browser: players added on the page, a
// Card Duel opened from the command list, followed into its thread, and
// played to its end by clicking (a select menu to build the hands, buttons
// to play) with a restart of the program in the middle, the result back in
// the channel, a life game beside it in another channel's thread with a
// line in character and a 🎭 reaction, a message command, and the page on a
// phone-sized screen.
func TestLocalTableInABrowser(t *testing.T) {
	path := cdp.Find()
	if path == "" {
		if os.Getenv("CI") == "" {
			t.Skip("chromium is not installed (apt-get install chromium); CI installs it and runs this test")
		}
		t.Fatal("CI is set but no chromium was found: .ci/run installs the Debian package chromium")
	}
	shotPath, err := filepath.Abs(*screenshot) // before the test leaves the package's folder
	if *screenshot == "" {
		shotPath = ""
	}
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	t.Chdir(t.TempDir())
	dbPath := filepath.Join(t.TempDir(), "bot.db")
	addr := freePort(t)
	lt := startLocal(t, addr, dbPath)
	first := lt

	br, err := cdp.Launch(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	page, err := br.NewPage(ctx, lt.url, 1100, 780, false)
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, ctx: ctx, p: page}
	defer func() {
		if errs := page.Errors(); len(errs) > 0 {
			t.Errorf("the page had JavaScript errors:\n%s", strings.Join(errs, "\n"))
		}
	}()
	b.waitFor(`document.querySelector(".empty h2")?.textContent.includes("Welcome")`)
	if b.text() == "" {
		t.Fatal("the welcome is empty")
	}
	b.addPlayer("Ann")
	b.addPlayer("Bea")

	// Ann opens a Card Duel: "/ga" offers the commands, she picks
	// "/game new duel" from the list and types its option.
	b.as("Ann")
	b.click(`document.querySelector("#input")`)
	b.typeText("/ga")
	item := `document.querySelector("#suggest .item[data-label=\"/game new duel\"]")`
	b.waitFor(item)
	b.click(item)
	b.waitFor(`document.querySelector("#input").value === "/game new duel " && document.querySelector("#hints .opt[data-option=life]")`)
	b.typeText("life:15")
	b.press("Enter")
	b.waitFor(newestButton("Join"))
	b.settle()
	if text := b.text(); !strings.Contains(text, "Ann (host)") || !strings.Contains(text, "Ann used /game new duel") {
		t.Fatalf("no lobby, or no command header:\n%s", text)
	}

	b.as("Bea")
	b.clickButton("Join")
	b.as("Ann")
	b.clickButton("Start")
	// The game moves into a thread of its own; Ann follows the link.
	const duelThread = "Card Duel · Ann, Bea"
	b.followGame(duelThread)
	b.waitFor(`document.querySelector("#messages").innerText.includes("Ann vs Bea")`)

	// A second game beside it: a life game in a new channel.
	b.click(`document.querySelector("#add-channel input")`)
	b.typeText("side table")
	b.press("Enter")
	b.waitFor(`document.querySelector("#channel-name").textContent === "# side-table"`)
	b.settle()
	b.send("/game new life")
	b.as("Bea")
	b.clickButton("Join")
	b.as("Ann")
	b.clickButton("Start")
	const lifeThread = "Play the Hand You're Dealt · Ann, Bea"
	b.waitFor(threadLink(lifeThread))
	// Back to the duel's thread, from the sidebar.
	b.toThread(duelThread)

	// The hands are built in secret: Bea does not see Ann's.
	b.buildHand(30)
	b.as("Bea")
	if n := strings.Count(b.text(), "Build your hand"); n != 0 {
		t.Fatalf("Bea sees %d hand-building views before opening her own", n)
	}
	b.buildHand(30)

	moves, restarted, shot := 0, false, shotPath == ""
	players := []string{"Ann", "Bea"}
	for ; ; moves++ {
		if moves > 300 {
			t.Fatal("the duel did not end after 300 moves")
		}
		if moves == 6 && !restarted {
			// The program stops and starts again; the page reconnects.
			restarted = true
			if err := lt.stop(); err != nil {
				t.Fatal(err)
			}
			b.waitFor(`!document.querySelector("#offline").hidden`)
			lt = startLocal(t, addr, dbPath)
			b.waitFor(`document.querySelector("#offline").hidden`)
			b.settle()
		}
		if !shot && moves >= 8 {
			shot = true
			b.as("Ann")
			b.clickButton("My hand")
			png, err := page.Screenshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(shotPath, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", shotPath, len(png))
		}
		moved := false
		for _, p := range players {
			b.as(p)
			var has bool
			b.eval("!!"+ownMove, &has)
			if has {
				b.click(ownMove)
				b.settle()
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		if text := b.text(); strings.Contains(text, "wins") || strings.Contains(text, " won") {
			break
		}
		// Nobody's open hand offers a move (a hand not redrawn): open them.
		for _, p := range players {
			b.as(p)
			b.clickButton("My hand")
		}
	}
	if !restarted {
		t.Fatalf("the duel ended after %d moves, before the restart", moves)
	}
	for _, p := range players {
		b.as(p)
		b.waitFor(`document.querySelector("#messages").innerText.includes("The duel is over")`)
	}
	t.Logf("Card Duel: %d moves, done after %v", moves, time.Since(start).Round(time.Millisecond))

	// The channel is told how the duel ended, with a link to its thread;
	// the table stayed in the thread.
	b.toChannel("general")
	b.waitFor(`[...document.querySelectorAll("#messages .msg")].some(m => m.innerText.includes("The game of Card Duel in") && m.innerText.includes("is over") && m.querySelector("a.mention")?.textContent === ` + js("#"+duelThread) + `)`)
	var posts []string
	b.eval(`[...document.querySelectorAll("#messages .msg:not(.eph)")].map(m => m.innerText)`, &posts)
	if len(posts) != 2 || strings.Contains(b.text(), "Build your hand") {
		t.Fatalf("the channel has %d messages; want the note on the start and the result, the rest in the thread:\n%s", len(posts), strings.Join(posts, "\n---\n"))
	}

	// To the side table's game, in its thread: a line in character, and a
	// 🎭 for it.
	b.toChannel("side-table")
	b.followGame(lifeThread)
	b.as("Ann")
	b.send("/say line:I grew up above my parents' bakery. character:Ada")
	line := `[...document.querySelectorAll("#messages .msg:not(.eph)")].find(m => m.innerText.includes("above my parents' bakery"))`
	b.waitFor(line)
	if text := b.text(); !strings.Contains(text, "Ada (Ann)") {
		t.Fatalf("the line is not attributed to Ada (Ann):\n%s", text)
	}
	b.as("Bea")
	if err := page.Hover(ctx, line); err != nil {
		t.Fatal(err)
	}
	b.click(line + `.querySelector(".add-reaction")`)
	b.click(`document.querySelector("#popup .emojis button[data-emoji=\"🎭\"]")`)
	b.waitFor(line + `?.querySelector(".reaction.me[data-emoji=\"🎭\"]")`)
	b.settle()
	b.waitFor(`document.querySelector("#messages").innerText.includes("marker")`)

	// The message's Apps menu lists the bot's message command.
	if err := page.Hover(ctx, line); err != nil {
		t.Fatal(err)
	}
	b.click(line + `.querySelector(".more")`)
	app := `document.querySelector("#popup .app[data-command=\"Appeal rudeness\"]")`
	b.waitFor(app)
	before := 0
	b.eval(`document.querySelectorAll("#messages .msg.eph").length`, &before)
	b.click(app)
	b.waitFor(fmt.Sprintf(`document.querySelectorAll("#messages .msg.eph").length > %d`, before))
	b.settle()

	// A text box: in an Improv campaign, Bea names her protagonist.
	b.click(`document.querySelector("#add-channel input")`)
	b.typeText("campaign")
	b.press("Enter")
	b.waitFor(`document.querySelector("#channel-name").textContent === "# campaign"`)
	b.settle()
	b.as("Ann")
	b.send("/game new improv")
	b.as("Bea")
	b.clickButton("Join")
	b.as("Ann")
	b.clickButton("Start")
	b.as("Bea")
	b.followGame("Improv conflicts · Ann, Bea")
	b.clickButton("My hand")
	b.clickButton("Name your protagonist")
	b.waitFor(`document.querySelector("#modal").open && document.querySelector("#modal-fields input")`)
	b.click(`document.querySelector("#modal-fields input")`)
	b.typeText("Kit Walker")
	b.click(`document.querySelector("#modal-submit")`)
	b.waitFor(`!document.querySelector("#modal").open`)
	b.waitFor(`[...document.querySelectorAll("#messages .msg.eph")].pop()?.innerText.includes("Kit Walker")`)
	b.settle()

	// On a phone: nothing wider than the screen, the channels behind ☰.
	if err := page.SetViewport(ctx, 390, 844, true); err != nil {
		t.Fatal(err)
	}
	b.settle()
	var fits bool
	b.eval(`document.documentElement.scrollWidth <= innerWidth && [...document.querySelectorAll("#messages .msg")].every(m => m.getBoundingClientRect().right <= innerWidth + 1)`, &fits)
	if !fits {
		t.Error("the page is wider than a phone's screen")
	}
	b.click(`document.querySelector("#menu")`)
	b.toChannel("general")
	t.Logf("the browser test took %v", time.Since(start).Round(time.Millisecond))
	for _, logs := range []string{first.logs.String(), lt.logs.String()} {
		if strings.Contains(logs, "level=WARN") || strings.Contains(logs, "level=ERROR") {
			t.Errorf("the program warned (the Discord stand-in logs what Discord would refuse):\n%s", logs)
		}
	}
}
