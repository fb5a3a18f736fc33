package fakediscord

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// decodeMessage decodes the message payloads bots send on every move
// (content, embeds, buttons and selects, allowed mentions) as
// json.Unmarshal into a messageParams does, in a third of its time
// (BenchmarkParseMessage). It declines (ok false) all it is not sure of,
// and parseMessage then asks json.Unmarshal: other members, names in
// another case or escaped, a member twice, null where Unmarshal would not
// leave the zero value, a number that is not a plain integer, a surrogate
// escape, invalid UTF-8, anything that is not valid JSON. decode_test.go
// compares the two on payloads bots send and on fuzzed ones.
func decodeMessage(raw []byte) (*messageParams, bool) {
	d := decoder{data: raw}
	p, ok := d.message()
	if !ok || !d.end() {
		return nil, false
	}
	return p, true
}

// decodeCallback decodes an interaction callback, {"type":…,"data":…}, as
// json.Unmarshal into a callbackBody does, and its data as decodeMessage
// does, in one pass. It declines what either would, and data that is
// null or not a message payload (a modal's).
func decodeCallback(body []byte) (*callbackBody, *messageParams, bool) {
	d := decoder{data: body}
	cb := &callbackBody{}
	var p *messageParams
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "type":
			return 1
		case "data":
			if d.isNull() {
				return 0 // json.Unmarshal keeps it as null
			}
			return 2
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			var t int
			t, ok = d.uint()
			ok = ok && t <= 255 // a uint8
			cb.Type = discordgo.InteractionResponseType(t)
		case 2:
			d.space()
			start := d.i
			if p, ok = d.message(); ok {
				cb.Data = append([]byte(nil), d.data[start:d.i]...)
			}
		}
		return ok
	})
	if !ok || !d.end() {
		return nil, nil, false
	}
	return cb, p, true
}

// message reads a message payload.
func (d *decoder) message() (*messageParams, bool) {
	p := &messageParams{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "content":
			p.has |= keyContent
			return 1
		case "embeds":
			p.has |= keyEmbeds
			return 2
		case "components":
			p.has |= keyComponents
			return 4
		case "flags":
			p.has |= keyFlags
			return 8
		case "allowed_mentions":
			return 16
		case "tts":
			return 32
		case "sticker_ids":
			return 64
		case "nonce":
			if d.isNull() {
				return 0 // json.Unmarshal keeps it as null
			}
			return 128
		case "enforce_nonce":
			return 256
		// Sent by discordgo's MessageEdit, which leaves them untagged;
		// json.Unmarshal passes over them.
		case "ID":
			return 512
		case "Channel":
			return 1024
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			p.Content, ok = d.string()
		case 2:
			p.Embeds, ok = decodeList(d, decodeEmbed)
		case 4:
			p.Components, ok = decodeList(d, decodeComponent)
		case 8:
			p.Flags, ok = d.int()
		case 16:
			p.AllowedMentions, ok = decodeAllowed(d)
		case 32:
			p.TTS, ok = d.bool()
		case 64:
			p.StickerIDs, ok = decodeList(d, (*decoder).string)
		case 128:
			p.Nonce, ok = d.nonce()
		case 256:
			p.EnforceNonce, ok = d.bool()
		case 512, 1024:
			_, ok = d.string()
		}
		return ok
	})
	return p, ok
}

func decodeEmbed(d *decoder) (*discordgo.MessageEmbed, bool) {
	e := &discordgo.MessageEmbed{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "url":
			return 1
		case "type":
			return 2
		case "title":
			return 4
		case "description":
			return 8
		case "timestamp":
			return 16
		case "color":
			return 32
		case "footer":
			return 64
		case "fields":
			return 128
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			e.URL, ok = d.string()
		case 2:
			var t string
			t, ok = d.string()
			e.Type = discordgo.EmbedType(t)
		case 4:
			e.Title, ok = d.string()
		case 8:
			e.Description, ok = d.string()
		case 16:
			e.Timestamp, ok = d.string()
		case 32:
			e.Color, ok = d.int()
		case 64:
			e.Footer, ok = decodeFooter(d)
		case 128:
			e.Fields, ok = decodeList(d, decodeField)
		}
		return ok
	})
	return e, ok
}

func decodeFooter(d *decoder) (*discordgo.MessageEmbedFooter, bool) {
	f := &discordgo.MessageEmbedFooter{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "text":
			return 1
		case "icon_url":
			return 2
		case "proxy_icon_url":
			return 4
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			f.Text, ok = d.string()
		case 2:
			f.IconURL, ok = d.string()
		case 4:
			f.ProxyIconURL, ok = d.string()
		}
		return ok
	})
	return f, ok
}

func decodeField(d *decoder) (*discordgo.MessageEmbedField, bool) {
	f := &discordgo.MessageEmbedField{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "name":
			return 1
		case "value":
			return 2
		case "inline":
			return 4
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			f.Name, ok = d.string()
		case 2:
			f.Value, ok = d.string()
		case 4:
			f.Inline, ok = d.bool()
		}
		return ok
	})
	return f, ok
}

func decodeComponent(d *decoder) (*component, bool) {
	c := &component{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "type":
			return 1
		case "id":
			return 2
		case "custom_id":
			return 4
		case "style":
			return 8
		case "label":
			return 16
		case "url":
			return 32
		case "disabled":
			return 64
		case "placeholder":
			return 128
		case "components":
			return 256
		case "min_values":
			return 512
		case "max_values":
			return 1024
		case "options":
			return 2048
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			var t int
			t, ok = d.uint()
			c.Type = discordgo.ComponentType(t)
		case 2:
			c.ID, ok = d.int()
		case 4:
			c.CustomID, ok = d.string()
		case 8:
			c.Style, ok = d.int()
		case 16:
			c.Label, ok = d.string()
		case 32:
			c.URL, ok = d.string()
		case 64:
			c.Disabled, ok = d.bool()
		case 128:
			c.Placeholder, ok = d.string()
		case 256:
			c.Components, ok = decodeList(d, decodeComponent)
		case 512:
			c.MinValues, ok = d.intPtr()
		case 1024:
			c.MaxValues, ok = d.intPtr()
		case 2048:
			c.Options, ok = decodeList(d, decodeOption)
		}
		return ok
	})
	return c, ok
}

func decodeOption(d *decoder) (discordgo.SelectMenuOption, bool) {
	var o discordgo.SelectMenuOption
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "label":
			return 1
		case "value":
			return 2
		case "description":
			return 4
		case "default":
			return 8
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			o.Label, ok = d.string()
		case 2:
			o.Value, ok = d.string()
		case 4:
			o.Description, ok = d.string()
		case 8:
			o.Default, ok = d.bool()
		}
		return ok
	})
	return o, ok
}

func decodeAllowed(d *decoder) (*discordgo.MessageAllowedMentions, bool) {
	a := &discordgo.MessageAllowedMentions{}
	ok := d.object(func(name []byte) uint16 {
		switch string(name) {
		case "parse":
			return 1
		case "roles":
			return 2
		case "users":
			return 4
		case "replied_user":
			return 8
		}
		return 0
	}, func(member uint16) (ok bool) {
		switch member {
		case 1:
			var parse []string
			if parse, ok = decodeList(d, (*decoder).string); ok {
				a.Parse = make([]discordgo.AllowedMentionType, len(parse))
				for i, t := range parse {
					a.Parse[i] = discordgo.AllowedMentionType(t)
				}
			}
		case 2:
			a.Roles, ok = decodeList(d, (*decoder).string)
		case 4:
			a.Users, ok = decodeList(d, (*decoder).string)
		case 8:
			a.RepliedUser, ok = d.bool()
		}
		return ok
	})
	return a, ok
}

// decodeList decodes an array, [] as an empty list, not nil.
func decodeList[T any](d *decoder, elem func(*decoder) (T, bool)) ([]T, bool) {
	if !d.consume('[') {
		return nil, false
	}
	if d.consume(']') {
		return []T{}, true
	}
	list := make([]T, 0, 4)
	for {
		v, ok := elem(d)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if d.consume(']') {
			return list, true
		}
		if !d.consume(',') {
			return nil, false
		}
	}
}

// decoder reads JSON that decodeMessage is sure of.
type decoder struct {
	data []byte
	i    int
}

func (d *decoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// consume skips space and c, if c comes next.
func (d *decoder) consume(c byte) bool {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

// end tells whether nothing but space is left.
func (d *decoder) end() bool {
	d.space()
	return d.i == len(d.data)
}

// object reads an object. member gives each member's bit, 0 for one
// decodeMessage does not know; value reads the value of the others. A
// member that is null is left zero, as json.Unmarshal leaves it in a new
// value: only strings, numbers, booleans, slices and pointers are read.
func (d *decoder) object(member func(name []byte) uint16, value func(member uint16) bool) bool {
	if !d.consume('{') {
		return false
	}
	if d.consume('}') {
		return true
	}
	var seen uint16
	for {
		d.space()
		name, ok := d.name()
		if !ok || !d.consume(':') {
			return false
		}
		bit := member(name)
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		if !d.null() && !value(bit) {
			return false
		}
		if d.consume('}') {
			return true
		}
		if !d.consume(',') {
			return false
		}
	}
}

// isNull tells whether null comes next.
func (d *decoder) isNull() bool {
	d.space()
	if d.null() {
		d.i -= 4
		return true
	}
	return false
}

// null reads null, if it comes next.
func (d *decoder) null() bool {
	d.space()
	if len(d.data)-d.i >= 4 && string(d.data[d.i:d.i+4]) == "null" {
		if d.i += 4; d.delimited() {
			return true
		}
		d.i -= 4
	}
	return false
}

// name reads a member's name: a string of plain ASCII, no escapes.
func (d *decoder) name() ([]byte, bool) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return nil, false
	}
	for j := d.i + 1; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			name := d.data[d.i+1 : j]
			d.i = j + 1
			return name, true
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

func (d *decoder) string() (string, bool) {
	d.space()
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			if !ascii && !utf8.Valid(d.data[start:j]) {
				return "", false
			}
			d.i = j + 1
			return string(d.data[start:j]), true
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// escaped reads the rest of a string that has escapes, from start, just
// after its quote.
func (d *decoder) escaped(start int) (string, bool) {
	b := make([]byte, 0, 64)
	done := start
	for j := start; j < len(d.data); {
		c := d.data[j]
		switch {
		case c == '"':
			b = append(b, d.data[done:j]...)
			if !utf8.Valid(b) {
				return "", false
			}
			d.i = j + 1
			return string(b), true
		case c < 0x20:
			return "", false
		case c != '\\':
			j++
			continue
		}
		b = append(b, d.data[done:j]...)
		if j+1 >= len(d.data) {
			return "", false
		}
		switch e := d.data[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if j+6 > len(d.data) {
				return "", false
			}
			r, err := strconv.ParseUint(string(d.data[j+2:j+6]), 16, 16)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", false
			}
			b = utf8.AppendRune(b, rune(r))
			j += 4
		default:
			return "", false
		}
		j += 2
		done = j
	}
	return "", false
}

// int reads an integer written plainly: no fraction, exponent or leading
// zeros, and short enough not to overflow.
func (d *decoder) int() (int, bool) {
	d.space()
	start := d.i
	j := start
	if j < len(d.data) && d.data[j] == '-' {
		j++
	}
	digits := j
	for j < len(d.data) && d.data[j] >= '0' && d.data[j] <= '9' {
		j++
	}
	n := j - digits
	if n == 0 || n > 18 || n > 1 && d.data[digits] == '0' {
		return 0, false
	}
	if j < len(d.data) {
		switch d.data[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
		default:
			return 0, false
		}
	}
	v, err := strconv.Atoi(string(d.data[start:j]))
	if err != nil {
		return 0, false
	}
	d.i = j
	return v, true
}

// uint reads an integer for an unsigned field: json.Unmarshal refuses any
// sign there, "-0" included.
func (d *decoder) uint() (int, bool) {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == '-' {
		return 0, false
	}
	return d.int()
}

func (d *decoder) intPtr() (*int, bool) {
	n, ok := d.int()
	return &n, ok
}

// nonce reads a nonce, a string or an integer, as the bytes it was sent
// as: a json.RawMessage.
func (d *decoder) nonce() ([]byte, bool) {
	d.space()
	start := d.i
	var ok bool
	if d.i < len(d.data) && d.data[d.i] == '"' {
		_, ok = d.string()
	} else {
		_, ok = d.int()
	}
	return append([]byte(nil), d.data[start:d.i]...), ok
}

func (d *decoder) bool() (bool, bool) {
	d.space()
	rest := d.data[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, d.delimited()
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, d.delimited()
	}
	return false, false
}

// delimited tells whether a literal just read ends where it should.
func (d *decoder) delimited() bool {
	if d.i == len(d.data) {
		return true
	}
	switch d.data[d.i] {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}
