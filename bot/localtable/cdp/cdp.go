// Package cdp drives a headless Chromium through the DevTools protocol, just
// enough to test the local table's page in a real browser and to take its
// screenshot: open a page, evaluate JavaScript, click and type as a user
// would (real input events at an element's position), and capture PNGs.
package cdp

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Find returns the path of a Chromium or Chrome executable: $CHROMIUM if
// set, else the first of the usual names on $PATH, or "".
func Find() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a running headless Chromium.
type Browser struct {
	cmd     *exec.Cmd
	dir     string
	ws      *websocket.Conn
	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan response
	events  map[string]func(method string, params json.RawMessage) // by session ID
	readErr error
	done    chan struct{}
}

type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type message struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	response
}

type request struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId,omitempty"`
}

var listening = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// Launch starts Chromium at path, headless, with a throwaway profile.
func Launch(ctx context.Context, path string) (*Browser, error) {
	dir, err := os.MkdirTemp("", "cdp-profile-")
	if err != nil {
		return nil, err
	}
	args := []string{
		"--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + dir,
		"--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
		"--hide-scrollbars", "--force-color-profile=srgb", "--lang=en-US",
		"about:blank",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to sandbox as root
	}
	cmd := exec.Command(path, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	b := &Browser{cmd: cmd, dir: dir, pending: map[int64]chan response{}, events: map[string]func(string, json.RawMessage){}, done: make(chan struct{})}
	found := make(chan string, 1)
	var tail strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if m := listening.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1]
				sent = true
			} else if !sent && tail.Len() < 4000 {
				tail.WriteString(line + "\n")
			}
		}
		if !sent {
			close(found)
		}
		io.Copy(io.Discard, stderr)
	}()
	var url string
	select {
	case u, ok := <-found:
		if !ok {
			b.Close()
			return nil, fmt.Errorf("%s exited before listening for DevTools:\n%s", path, tail.String())
		}
		url = u
	case <-time.After(30 * time.Second):
		b.Close()
		return nil, fmt.Errorf("%s did not start listening for DevTools within 30 s", path)
	case <-ctx.Done():
		b.Close()
		return nil, ctx.Err()
	}
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	ws, _, err := dialer.DialContext(ctx, url, nil)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("connect to DevTools: %w", err)
	}
	ws.SetReadLimit(64 << 20) // screenshots
	b.ws = ws
	go b.read()
	return b, nil
}

func (b *Browser) read() {
	defer close(b.done)
	for {
		var m message
		if err := b.ws.ReadJSON(&m); err != nil {
			b.mu.Lock()
			b.readErr = err
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch := b.pending[m.ID]; ch != nil {
				delete(b.pending, m.ID)
				ch <- m.response
			}
		} else if f := b.events[m.SessionID]; f != nil && m.Method != "" {
			go f(m.Method, m.Params)
		}
		b.mu.Unlock()
	}
}

// call sends one command (to a page's session, if sessionID is set) and
// decodes its result into out.
func (b *Browser) call(ctx context.Context, sessionID, method string, params, out any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	if params == nil {
		raw = []byte("{}")
	}
	ch := make(chan response, 1)
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return fmt.Errorf("%s: browser connection lost: %w", method, b.readErr)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	b.writeMu.Lock()
	err = b.ws.WriteJSON(request{ID: id, Method: method, Params: raw, SessionID: sessionID})
	b.writeMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser connection lost", method)
		}
		if r.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, r.Error.Message, r.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Close stops the browser and removes its profile.
func (b *Browser) Close() error {
	if b.ws != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		b.call(ctx, "", "Browser.close", nil, nil)
		cancel()
		b.ws.Close()
	}
	exited := make(chan struct{})
	go func() { b.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		b.cmd.Process.Kill()
		<-exited
	}
	return os.RemoveAll(b.dir)
}

// Page is one browser tab.
type Page struct {
	b       *Browser
	session string
	target  string

	mu     sync.Mutex
	errors []string // JavaScript exceptions and console errors
	loaded chan struct{}
}

// NewPage opens a tab of width × height CSS pixels (mobile: a phone's
// touch screen and viewport) at url and waits for it to load.
func (b *Browser) NewPage(ctx context.Context, url string, width, height int, mobile bool) (*Page, error) {
	var t struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &t); err != nil {
		return nil, err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &s); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: s.SessionID, target: t.TargetID, loaded: make(chan struct{}, 1)}
	b.mu.Lock()
	b.events[s.SessionID] = p.event
	b.mu.Unlock()
	for _, c := range []struct {
		method string
		params any
	}{
		{"Page.enable", nil},
		{"Runtime.enable", nil},
		{"Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}},
		{"Emulation.setTouchEmulationEnabled", map[string]any{"enabled": mobile}},
	} {
		if err := p.call(ctx, c.method, c.params, nil); err != nil {
			return nil, err
		}
	}
	return p, p.Navigate(ctx, url)
}

func (p *Page) event(method string, params json.RawMessage) {
	switch method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Runtime.exceptionThrown":
		var e struct {
			ExceptionDetails struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(params, &e)
		p.addError(e.ExceptionDetails.Text + " " + e.ExceptionDetails.Exception.Description)
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(params, &e)
		if e.Type == "error" {
			var parts []string
			for _, a := range e.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, fmt.Sprint(a.Value))
				}
			}
			p.addError("console.error: " + strings.Join(parts, " "))
		}
	}
}

func (p *Page) addError(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errors = append(p.errors, s)
}

// Errors returns the JavaScript exceptions and console errors so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

func (p *Page) call(ctx context.Context, method string, params, out any) error {
	return p.b.call(ctx, p.session, method, params, out)
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	select {
	case <-p.loaded:
	default:
	}
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return fmt.Errorf("navigate to %s: %s", url, r.ErrorText)
	}
	select {
	case <-p.loaded:
	case <-ctx.Done():
		return fmt.Errorf("navigate to %s: %w", url, ctx.Err())
	}
	// The load event may have been the blank page's: wait for this one.
	want, _ := json.Marshal(url)
	return p.WaitFor(ctx, `document.readyState === "complete" && location.href.split("#")[0] === new URL(`+string(want)+`).href.split("#")[0]`)
}

// Eval evaluates a JavaScript expression (awaiting a promise) and decodes
// its value into out, which may be nil.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("evaluate %q: %s %s", expr, e.Text, e.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// ErrNotFound is returned by Click when the expression finds no element.
var ErrNotFound = errors.New("cdp: no such element")

// Click scrolls the element the JavaScript expression returns into view and
// clicks its middle with the mouse, as a user does. While something else
// covers that point (an animation, say) it waits, up to 3 s.
func (p *Page) Click(ctx context.Context, element string) error {
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := p.click(ctx, element)
		if !errors.Is(err, errCovered) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

var errCovered = errors.New("cdp: hidden or covered where it would be clicked")

func (p *Page) click(ctx context.Context, element string) error {
	var box struct {
		Found, Visible bool
		X, Y           float64
	}
	js := `(() => { const e = (` + element + `); if (!e) return {Found: false};
		e.scrollIntoView({block: "nearest", inline: "nearest"});
		const r = e.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const top = document.elementFromPoint(x, y);
		return {Found: true, Visible: !!top && (top === e || e.contains(top)), X: x, Y: y}; })()`
	if err := p.Eval(ctx, js, &box); err != nil {
		return err
	}
	if !box.Found {
		return fmt.Errorf("%w: %s", ErrNotFound, element)
	}
	if !box.Visible {
		return fmt.Errorf("%w: %s", errCovered, element)
	}
	for _, t := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": t, "x": box.X, "y": box.Y, "button": "left", "clickCount": 1}
		if t == "mouseMoved" {
			ev["button"] = "none"
		}
		if err := p.call(ctx, "Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// Hover moves the mouse over the middle of the element the expression
// returns, as a user pointing at it.
func (p *Page) Hover(ctx context.Context, element string) error {
	var box struct {
		Found bool
		X, Y  float64
	}
	js := `(() => { const e = (` + element + `); if (!e) return {Found: false};
		e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect();
		return {Found: true, X: r.left + r.width / 2, Y: r.top + Math.min(r.height / 2, 20)}; })()`
	if err := p.Eval(ctx, js, &box); err != nil {
		return err
	}
	if !box.Found {
		return fmt.Errorf("%w: %s", ErrNotFound, element)
	}
	return p.call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": box.X, "y": box.Y}, nil)
}

// Type types text into the focused element.
func (p *Page) Type(ctx context.Context, text string) error {
	return p.call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// Press presses and releases a key such as "Enter", "Tab" or "Escape".
func (p *Page) Press(ctx context.Context, key string) error {
	codes := map[string]int{"Enter": 13, "Tab": 9, "Escape": 27, "ArrowDown": 40, "ArrowUp": 38, "Backspace": 8}
	for _, t := range []string{"rawKeyDown", "keyUp"} {
		ev := map[string]any{"type": t, "key": key, "code": key, "windowsVirtualKeyCode": codes[key]}
		if key == "Enter" && t == "rawKeyDown" {
			ev["type"], ev["text"] = "keyDown", "\r"
		}
		if err := p.call(ctx, "Input.dispatchKeyEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// WaitFor polls a JavaScript condition until it is truthy.
func (p *Page) WaitFor(ctx context.Context, cond string) error {
	for {
		var ok bool
		if err := p.Eval(ctx, "!!("+cond+")", &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", cond, ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// Screenshot captures the viewport as a PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		Data string `json:"data"`
	}
	if err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// SetViewport resizes the page.
func (p *Page) SetViewport(ctx context.Context, width, height int, mobile bool) error {
	if err := p.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, nil); err != nil {
		return err
	}
	return p.call(ctx, "Emulation.setTouchEmulationEnabled", map[string]any{"enabled": mobile}, nil)
}
