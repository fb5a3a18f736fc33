package localtable

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/bot/fakediscord"
)

//go:embed static
var static embed.FS

// Page is the local table's web page and the small JSON API behind it.
type Page struct {
	t       *Table
	exposed bool            // bound beyond loopback: anyone who reaches it can play
	hosts   map[string]bool // Host headers accepted on loopback (no DNS rebinding)
	mux     *http.ServeMux
	done    chan struct{} // closed by Close: event streams end
	closing sync.Once

	mu     sync.Mutex
	snaps  map[string]*fakediscord.Message // "id/edits" → the message as a page showed it
	order  []string                        // snaps keys, oldest first
	modals map[string]*openModal           // by id
	nextID int
}

type openModal struct {
	user  string
	modal *fakediscord.Modal
	at    time.Time
}

// How much the page remembers of what it showed: enough for a click on a
// view that changed under the pointer to reach the bot as on Discord.
const (
	maxSnapshots = 4000
	maxModals    = 200
)

// NewPage serves the table's page for a listener at addr.
func NewPage(t *Table, addr net.Addr) *Page {
	p := &Page{
		t: t, exposed: !IsLoopback(addr), hosts: map[string]bool{}, mux: http.NewServeMux(), done: make(chan struct{}),
		snaps: map[string]*fakediscord.Message{}, modals: map[string]*openModal{},
	}
	if _, port, err := net.SplitHostPort(addr.String()); err == nil {
		for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
			p.hosts[h+":"+port] = true
		}
		p.hosts[addr.String()] = true
	}
	files, _ := fs.Sub(static, "static")
	p.mux.Handle("GET /", noCache(http.FileServerFS(files)))
	p.mux.HandleFunc("GET /api/state", p.state)
	p.mux.HandleFunc("GET /api/events", p.events)
	p.mux.HandleFunc("POST /api/players", p.addPlayer)
	p.mux.HandleFunc("POST /api/channels", p.addChannel)
	p.mux.HandleFunc("POST /api/act", p.act)
	return p
}

// IsLoopback tells whether a listener only takes connections from this machine.
func IsLoopback(addr net.Addr) bool {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// Exposed tells whether the page is reachable from other machines.
func (p *Page) Exposed() bool { return p.exposed }

// Close ends the live-update streams, so that an http.Server can shut down.
func (p *Page) Close() { p.closing.Do(func() { close(p.done) }) }

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// On loopback only this machine's names are served, so that a web page
	// elsewhere cannot reach the table through a DNS name of its own.
	if !p.exposed && !p.hosts[r.Host] {
		http.Error(w, "unknown host "+r.Host, http.StatusMisdirectedRequest)
		return
	}
	if r.Method == http.MethodPost {
		// Only this page posts: JSON (which a cross-site form cannot send
		// without asking) from its own origin.
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			http.Error(w, "JSON only", http.StatusUnsupportedMediaType)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
			http.Error(w, "cross-site request", http.StatusForbidden)
			return
		}
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	p.mux.ServeHTTP(w, r)
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func refuse(w http.ResponseWriter, msg string) {
	reply(w, http.StatusOK, actResult{Error: msg})
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// stateJSON is everything the page shows for one player in one channel.
type stateJSON struct {
	Exposed  bool                            `json:"exposed"`
	Bot      fakediscord.Member              `json:"bot"`
	Members  []fakediscord.Member            `json:"members"`
	Channels []fakediscord.Channel           `json:"channels"`
	Channel  string                          `json:"channel"`
	Messages []fakediscord.ChatMessage       `json:"messages"`
	Commands []*discordgo.ApplicationCommand `json:"commands"`
}

func (p *Page) state(w http.ResponseWriter, r *http.Request) {
	fake := p.t.fake
	user := r.URL.Query().Get("user")
	if fake.User(user) == nil {
		user = ""
	}
	st := stateJSON{
		Exposed: p.exposed, Bot: fake.Bot(), Members: fake.Members(), Channels: fake.ChannelsFor(user),
		Commands: p.commands(), Messages: []fakediscord.ChatMessage{},
	}
	st.Channel = r.URL.Query().Get("channel")
	known := false
	for _, c := range st.Channels {
		known = known || c.ID == st.Channel
	}
	if !known {
		st.Channel = st.Channels[0].ID
	}
	if user != "" {
		st.Messages = fake.ChatView(user, st.Channel)
		p.remember(st.Messages)
	}
	if st.Messages == nil {
		st.Messages = []fakediscord.ChatMessage{}
	}
	// Read again after the messages: a thread the bot opened meanwhile is
	// then listed with the note that names it.
	st.Channels = fake.ChannelsFor(user)
	reply(w, http.StatusOK, st)
}

// commands are those a member of the guild is offered: guild commands,
// then global ones not shadowed by a guild command of the same kind and name.
func (p *Page) commands() []*discordgo.ApplicationCommand {
	fake := p.t.fake
	out := fake.Commands(fake.GuildID())
	seen := map[string]bool{}
	for _, c := range out {
		seen[string(rune(c.Type))+c.Name] = true
	}
	for _, c := range fake.Commands("") {
		if !seen[string(rune(c.Type))+c.Name] {
			out = append(out, c)
		}
	}
	if out == nil {
		out = []*discordgo.ApplicationCommand{}
	}
	return out
}

// remember keeps the messages as the page showed them.
func (p *Page) remember(msgs []fakediscord.ChatMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range msgs {
		key := snapKey(m.ID, m.Edits)
		if _, ok := p.snaps[key]; ok {
			continue
		}
		p.snaps[key] = m.Snapshot
		p.order = append(p.order, key)
	}
	if n := len(p.order) - maxSnapshots; n > 0 {
		for _, k := range p.order[:n] {
			delete(p.snaps, k)
		}
		p.order = append([]string(nil), p.order[n:]...)
	}
}

func snapKey(id string, edits int) string { return id + "/" + itoa(edits) }

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// snapshot is the message as the player's page showed it (edits), so that a
// click on a view the bot has just replaced reaches the bot as on Discord,
// which judges it; or the message as it is now.
func (p *Page) snapshot(channel, id string, edits int) *fakediscord.Message {
	p.mu.Lock()
	m := p.snaps[snapKey(id, edits)]
	p.mu.Unlock()
	if m != nil && m.ChannelID == channel {
		return m
	}
	return p.t.fake.Message(channel, id)
}

// events streams a line whenever something a player could see changed;
// the page then fetches its state again.
func (p *Page) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("retry: 1000\n\n"))
	flusher.Flush()
	keepAlive := time.NewTicker(20 * time.Second)
	defer keepAlive.Stop()
	changed := p.t.fake.Changes()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-p.done:
			return
		case <-keepAlive.C:
			w.Write([]byte(": still here\n\n"))
		case <-changed:
			// A move is a burst of changes (answer, table, hands): gather it.
			select {
			case <-time.After(30 * time.Millisecond):
			case <-p.done:
				return
			case <-r.Context().Done():
				return
			}
			// Watch for the next change before telling of this one, so that
			// none made after the page's fetch goes untold.
			changed = p.t.fake.Changes()
			w.Write([]byte("data: change\n\n"))
		}
		flusher.Flush()
	}
}

func (p *Page) addPlayer(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !decode(w, r, &in) {
		return
	}
	name := strings.Join(strings.Fields(in.Name), " ")
	if n := utf8.RuneCountInString(name); n < 1 || n > 32 {
		refuse(w, "A player's name is 1 to 32 characters.")
		return
	}
	for _, m := range p.t.fake.Members() {
		if strings.EqualFold(m.Name, name) {
			refuse(w, "There is already a player called "+m.Name+".")
			return
		}
	}
	u := p.t.fake.AddUser(name)
	reply(w, http.StatusOK, fakediscord.Member{ID: u.ID, Name: u.Name})
}

func (p *Page) addChannel(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !decode(w, r, &in) {
		return
	}
	name := strings.ToLower(strings.Join(strings.Fields(in.Name), "-"))
	if n := utf8.RuneCountInString(name); n < 1 || n > 100 {
		refuse(w, "A channel's name is 1 to 100 characters.")
		return
	}
	for _, c := range p.t.fake.ChannelsFor("") {
		if !c.Thread && c.Name == name {
			refuse(w, "There is already a #"+name+".")
			return
		}
	}
	id := p.t.fake.NewChannel(name)
	reply(w, http.StatusOK, fakediscord.Channel{ID: id, Name: name})
}

// actRequest is one thing a player does.
type actRequest struct {
	User    string `json:"user"`
	Channel string `json:"channel"`
	// Kind is click, select, submit, react, unreact, command,
	// message_command, user_command or say.
	Kind     string            `json:"kind"`
	Message  string            `json:"message"`
	Edits    int               `json:"edits"`
	CustomID string            `json:"custom_id"`
	Values   []string          `json:"values"`
	Modal    string            `json:"modal"`
	Fields   map[string]string `json:"fields"`
	Emoji    string            `json:"emoji"`
	Command  string            `json:"command"`
	Path     []string          `json:"path"`
	Options  []optionValue     `json:"options"`
	Target   string            `json:"target"`
	Content  string            `json:"content"`
}

type optionValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// actResult is how it went: a refusal by the client (nothing was sent),
// an interaction that failed (the bot did not answer in time), or a modal
// the bot opened.
type actResult struct {
	Error  string     `json:"error,omitempty"`
	Failed bool       `json:"failed,omitempty"`
	Modal  *modalJSON `json:"modal,omitempty"`
}

type modalJSON struct {
	ID     string                  `json:"id"`
	Title  string                  `json:"title"`
	Inputs []fakediscord.TextInput `json:"inputs"`
}

func (p *Page) act(w http.ResponseWriter, r *http.Request) {
	var in actRequest
	if !decode(w, r, &in) {
		return
	}
	fake := p.t.fake
	u := fake.User(in.User)
	if u == nil {
		refuse(w, "Pick who you are first.")
		return
	}
	c := u.Client()
	var res *fakediscord.Reply
	var err error
	message := func() *fakediscord.Message {
		m := p.snapshot(in.Channel, in.Message, in.Edits)
		if m == nil {
			err = sorry("That message is gone.")
		}
		return m
	}
	switch in.Kind {
	case "click":
		if m := message(); m != nil {
			res, err = c.Click(m, in.CustomID)
		}
	case "select":
		if m := message(); m != nil {
			res, err = c.Select(m, in.CustomID, in.Values...)
		}
	case "react", "unreact":
		if m := message(); m != nil {
			if in.Kind == "react" {
				err = c.React(m, in.Emoji)
			} else {
				err = c.Unreact(m, in.Emoji)
			}
		}
	case "submit":
		p.mu.Lock()
		open := p.modals[in.Modal]
		delete(p.modals, in.Modal)
		p.mu.Unlock()
		if open == nil || open.user != u.ID {
			err = sorry("That text box was closed.")
			break
		}
		res, err = c.Submit(open.modal, in.Fields)
	case "command":
		var opts []fakediscord.Option
		if opts, err = p.options(in.Command, in.Path, in.Options); err == nil {
			res, err = c.Command(in.Channel, in.Command, opts...)
		}
	case "message_command":
		if m := message(); m != nil {
			res, err = c.MessageCommand(in.Channel, in.Command, m)
		}
	case "user_command":
		target := fake.User(in.Target)
		if target == nil {
			err = sorry("No such member.")
			break
		}
		res, err = c.UserCommand(in.Channel, in.Command, target)
	case "say":
		_, err = c.Say(in.Channel, in.Content)
	default:
		http.Error(w, "unknown action "+in.Kind, http.StatusBadRequest)
		return
	}
	if err != nil {
		refuse(w, err.Error())
		return
	}
	var out actResult
	switch {
	case res == nil:
	case res.Modal != nil:
		out.Modal = p.openModal(u.ID, res.Modal)
	case res.Type == 0:
		out.Failed = true
	}
	reply(w, http.StatusOK, out)
}

func (p *Page) openModal(user string, m *fakediscord.Modal) *modalJSON {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	id := "m" + itoa(p.nextID)
	if len(p.modals) >= maxModals {
		// Forget the oldest: a text box left open long ago.
		var oldest string
		for k, o := range p.modals {
			if oldest == "" || o.at.Before(p.modals[oldest].at) {
				oldest = k
			}
		}
		delete(p.modals, oldest)
	}
	p.modals[id] = &openModal{user: user, modal: m, at: time.Now()}
	return &modalJSON{ID: id, Title: m.Title, Inputs: m.Inputs}
}
