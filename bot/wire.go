package bot

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/cardtable/cardbot/bot/wirejson"
)

// hook's bodies are written here rather than by json.Marshal: each of
// discordgo's components marshals a copy of itself, which encoding/json
// then validates and compacts, and under load that cost about 5 % of the
// bot's CPU. The writer knows the shapes the bot sends and emits what
// json.Marshal would, byte for byte for valid UTF-8; anything else (a
// field it does not write, a component it does not know) goes to
// json.Marshal whole. wire_test.go holds it to json.Marshal, and to the
// fields of discordgo's structs, so an upgrade that adds one fails there.

// encodePayload is json.Marshal(data) for hook's bodies.
func encodePayload(data any) ([]byte, error) {
	w := payloadWriters.Get().(*payloadWriter)
	defer w.release()
	if !w.payload(data) {
		return json.Marshal(data)
	}
	return bytes.Clone(w.b), nil
}

var payloadWriters = sync.Pool{New: func() any { return &payloadWriter{b: make([]byte, 0, 4096)} }}

// payloadWriter appends JSON to b. Every value is followed by a comma,
// which closing its object or array replaces.
type payloadWriter struct{ b []byte }

func (w *payloadWriter) release() {
	if cap(w.b) > 64<<10 {
		return // a rare huge body: not worth keeping
	}
	w.b = w.b[:0]
	payloadWriters.Put(w)
}

// payload writes data and reports whether it could; false leaves b to be
// thrown away.
func (w *payloadWriter) payload(data any) bool {
	w.b = w.b[:0]
	ok := false
	switch p := data.(type) {
	case *discordgo.InteractionResponse:
		ok = p != nil && w.response(p)
	case discordgo.InteractionResponse:
		ok = w.response(&p)
	case *discordgo.WebhookEdit:
		ok = p != nil && w.webhookEdit(p)
	case *discordgo.WebhookParams:
		ok = p != nil && w.webhookParams(p)
	}
	if ok {
		w.b = w.b[:len(w.b)-1] // the comma after the body
	}
	return ok
}

func (w *payloadWriter) response(r *discordgo.InteractionResponse) bool {
	w.open('{')
	if r.Type != 0 {
		w.unum(`"type":`, uint64(r.Type))
	}
	if d := r.Data; d != nil {
		// Attachments and polls are never sent by the bot; choices answer
		// autocompletes, which it does not offer.
		if d.Attachments != nil || d.Poll != nil || len(d.Choices) > 0 {
			return false
		}
		w.key(`"data":`)
		w.open('{')
		w.boolean(`"tts":`, d.TTS)
		w.str(`"content":`, d.Content)
		w.key(`"components":`)
		if !w.components(d.Components) {
			return false
		}
		w.key(`"embeds":`)
		if !w.embeds(d.Embeds) {
			return false
		}
		w.mentions(d.AllowedMentions)
		if d.Flags != 0 {
			w.num(`"flags":`, int64(d.Flags))
		}
		if d.CustomID != "" {
			w.str(`"custom_id":`, d.CustomID)
		}
		if d.Title != "" {
			w.str(`"title":`, d.Title)
		}
		w.close('}')
	}
	w.close('}')
	return true
}

// webhookEdit: its nil pointers leave a field alone at Discord, while a
// pointer to an empty list clears it.
func (w *payloadWriter) webhookEdit(e *discordgo.WebhookEdit) bool {
	if e.Attachments != nil {
		return false
	}
	w.open('{')
	if e.Content != nil {
		w.str(`"content":`, *e.Content)
	}
	if e.Components != nil {
		w.key(`"components":`)
		if !w.components(*e.Components) {
			return false
		}
	}
	if e.Embeds != nil {
		w.key(`"embeds":`)
		if !w.embeds(*e.Embeds) {
			return false
		}
	}
	w.mentions(e.AllowedMentions)
	w.close('}')
	return true
}

func (w *payloadWriter) webhookParams(p *discordgo.WebhookParams) bool {
	if len(p.Attachments) > 0 {
		return false
	}
	w.open('{')
	if p.Content != "" {
		w.str(`"content":`, p.Content)
	}
	if p.Username != "" {
		w.str(`"username":`, p.Username)
	}
	if p.AvatarURL != "" {
		w.str(`"avatar_url":`, p.AvatarURL)
	}
	if p.TTS {
		w.boolean(`"tts":`, true)
	}
	w.key(`"components":`) // no omitempty: nil is null
	if !w.components(p.Components) {
		return false
	}
	if len(p.Embeds) > 0 {
		w.key(`"embeds":`)
		if !w.embeds(p.Embeds) {
			return false
		}
	}
	w.mentions(p.AllowedMentions)
	if p.Flags != 0 {
		w.num(`"flags":`, int64(p.Flags))
	}
	if p.ThreadName != "" {
		w.str(`"thread_name":`, p.ThreadName)
	}
	w.close('}')
	return true
}

func (w *payloadWriter) components(cs []discordgo.MessageComponent) bool {
	if cs == nil {
		w.null()
		return true
	}
	w.open('[')
	for _, c := range cs {
		if !w.component(c) {
			return false
		}
	}
	w.close(']')
	return true
}

// component writes the components the bot builds; discordgo's MarshalJSON
// adds each one's "type" after its own fields.
func (w *payloadWriter) component(c discordgo.MessageComponent) bool {
	switch c := c.(type) {
	case discordgo.ActionsRow:
		return w.row(&c)
	case *discordgo.ActionsRow:
		return c != nil && w.row(c)
	case discordgo.Button:
		w.button(&c)
		return true
	case *discordgo.Button:
		if c != nil {
			w.button(c)
		}
		return c != nil
	case discordgo.SelectMenu:
		return w.menu(&c)
	case *discordgo.SelectMenu:
		return c != nil && w.menu(c)
	case discordgo.TextInput:
		w.textInput(&c)
		return true
	case *discordgo.TextInput:
		if c != nil {
			w.textInput(c)
		}
		return c != nil
	}
	// nil, a nil pointer (json.Marshal panics on those) or a kind the bot
	// does not build.
	return false
}

func (w *payloadWriter) row(r *discordgo.ActionsRow) bool {
	w.open('{')
	w.key(`"components":`)
	if !w.components(r.Components) {
		return false
	}
	if r.ID != 0 {
		w.num(`"id":`, int64(r.ID))
	}
	w.unum(`"type":`, uint64(discordgo.ActionsRowComponent))
	w.close('}')
	return true
}

func (w *payloadWriter) button(b *discordgo.Button) {
	style := b.Style
	if style == 0 {
		style = discordgo.PrimaryButton // as Button.MarshalJSON does
	}
	w.open('{')
	w.str(`"label":`, b.Label)
	w.unum(`"style":`, uint64(style))
	w.boolean(`"disabled":`, b.Disabled)
	if b.Emoji != nil {
		w.emoji(b.Emoji)
	}
	if b.URL != "" {
		w.str(`"url":`, b.URL)
	}
	if b.CustomID != "" {
		w.str(`"custom_id":`, b.CustomID)
	}
	if b.SKUID != "" {
		w.str(`"sku_id":`, b.SKUID)
	}
	if b.ID != 0 {
		w.num(`"id":`, int64(b.ID))
	}
	w.unum(`"type":`, uint64(discordgo.ButtonComponent))
	w.close('}')
}

// menu: the menu's own "type" (MenuType, omitempty) is shadowed by the
// one MarshalJSON adds, Type(), which is 3 for a zero MenuType.
func (w *payloadWriter) menu(m *discordgo.SelectMenu) bool {
	if len(m.DefaultValues) > 0 || len(m.ChannelTypes) > 0 {
		return false
	}
	w.open('{')
	if m.CustomID != "" {
		w.str(`"custom_id":`, m.CustomID)
	}
	w.str(`"placeholder":`, m.Placeholder)
	if m.MinValues != nil {
		w.num(`"min_values":`, int64(*m.MinValues))
	}
	if m.MaxValues != 0 {
		w.num(`"max_values":`, int64(m.MaxValues))
	}
	if len(m.Options) > 0 {
		w.key(`"options":`)
		w.open('[')
		for i := range m.Options {
			o := &m.Options[i]
			w.open('{')
			if o.Label != "" {
				w.str(`"label":`, o.Label)
			}
			w.str(`"value":`, o.Value)
			w.str(`"description":`, o.Description)
			if o.Emoji != nil {
				w.emoji(o.Emoji)
			}
			w.boolean(`"default":`, o.Default)
			w.close('}')
		}
		w.close(']')
	}
	w.boolean(`"disabled":`, m.Disabled)
	if m.ID != 0 {
		w.num(`"id":`, int64(m.ID))
	}
	w.unum(`"type":`, uint64(m.Type()))
	w.close('}')
	return true
}

func (w *payloadWriter) textInput(t *discordgo.TextInput) {
	w.open('{')
	w.str(`"custom_id":`, t.CustomID)
	w.str(`"label":`, t.Label)
	w.unum(`"style":`, uint64(t.Style)) // not defaulted, unlike a button's
	if t.Placeholder != "" {
		w.str(`"placeholder":`, t.Placeholder)
	}
	if t.Value != "" {
		w.str(`"value":`, t.Value)
	}
	w.boolean(`"required":`, t.Required)
	if t.MinLength != 0 {
		w.num(`"min_length":`, int64(t.MinLength))
	}
	if t.MaxLength != 0 {
		w.num(`"max_length":`, int64(t.MaxLength))
	}
	if t.ID != 0 {
		w.num(`"id":`, int64(t.ID))
	}
	w.unum(`"type":`, uint64(discordgo.TextInputComponent))
	w.close('}')
}

func (w *payloadWriter) emoji(e *discordgo.ComponentEmoji) {
	w.key(`"emoji":`)
	w.open('{')
	if e.Name != "" {
		w.str(`"name":`, e.Name)
	}
	if e.ID != "" {
		w.str(`"id":`, e.ID)
	}
	if e.Animated {
		w.boolean(`"animated":`, true)
	}
	w.close('}')
}

func (w *payloadWriter) embeds(es []*discordgo.MessageEmbed) bool {
	for _, e := range es {
		// The bot's embeds have no pictures, video, provider or author.
		if e != nil && (e.Image != nil || e.Thumbnail != nil || e.Video != nil || e.Provider != nil || e.Author != nil) {
			return false
		}
	}
	w.b = append(wirejson.Embeds(w.b, es), ',')
	return true
}

// mentions writes allowed_mentions (omitempty) where set. Its parse has no
// omitempty: nil is null, which Discord reads as no mentions at all.
func (w *payloadWriter) mentions(m *discordgo.MessageAllowedMentions) {
	if m == nil {
		return
	}
	w.key(`"allowed_mentions":`)
	w.open('{')
	w.key(`"parse":`)
	if m.Parse == nil {
		w.null()
	} else {
		w.open('[')
		for _, p := range m.Parse {
			w.b = wirejson.String(w.b, string(p))
			w.b = append(w.b, ',')
		}
		w.close(']')
	}
	if len(m.Roles) > 0 {
		w.strs(`"roles":`, m.Roles)
	}
	if len(m.Users) > 0 {
		w.strs(`"users":`, m.Users)
	}
	w.boolean(`"replied_user":`, m.RepliedUser)
	w.close('}')
}

func (w *payloadWriter) strs(key string, ss []string) {
	w.key(key)
	w.open('[')
	for _, s := range ss {
		w.b = wirejson.String(w.b, s)
		w.b = append(w.b, ',')
	}
	w.close(']')
}

func (w *payloadWriter) key(k string) { w.b = append(w.b, k...) }

func (w *payloadWriter) open(c byte) { w.b = append(w.b, c) }

// close ends an object or array, in place of its last value's comma, and
// puts the comma after it.
func (w *payloadWriter) close(c byte) {
	if n := len(w.b) - 1; w.b[n] == ',' {
		w.b[n] = c
	} else {
		w.b = append(w.b, c)
	}
	w.b = append(w.b, ',')
}

func (w *payloadWriter) null() { w.b = append(w.b, "null,"...) }

func (w *payloadWriter) str(key, s string) {
	w.b = append(w.b, key...)
	w.b = wirejson.String(w.b, s)
	w.b = append(w.b, ',')
}

func (w *payloadWriter) num(key string, n int64) {
	w.b = append(w.b, key...)
	w.b = strconv.AppendInt(w.b, n, 10)
	w.b = append(w.b, ',')
}

func (w *payloadWriter) unum(key string, n uint64) {
	w.b = append(w.b, key...)
	w.b = strconv.AppendUint(w.b, n, 10)
	w.b = append(w.b, ',')
}

func (w *payloadWriter) boolean(key string, v bool) {
	w.b = append(w.b, key...)
	w.b = strconv.AppendBool(w.b, v)
	w.b = append(w.b, ',')
}
