package wirejson

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Objects whose members may all be left out (omitempty) are appended
// without their brace, each member after a comma: EndObject turns the
// first comma into the brace, or appends {} when there is none.

// Key appends a member's comma and name.
func Key(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// EndObject closes the object whose members began at start.
func EndObject(b []byte, start int) []byte {
	if len(b) == start {
		return append(b, "{}"...)
	}
	b[start] = '{'
	return append(b, '}')
}

// OmitString appends an omitempty string member, if not empty. It is
// small enough to inline, so an empty member costs no call.
func OmitString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return stringMember(b, key, s)
}

func stringMember(b []byte, key, s string) []byte { return String(Key(b, key), s) }

// OmitInt appends an omitempty number member, if not zero; inlined too.
func OmitInt(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return appendInt(Key(b, key), n)
}

// List appends list as json.Marshal writes a slice (nil is null), each
// element by each.
func List[T any](b []byte, list []T, each func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, v)
	}
	return append(b, ']')
}

// Embeds appends embeds as json.Marshal writes discordgo's: nil is null.
func Embeds(b []byte, embeds []*discordgo.MessageEmbed) []byte { return List(b, embeds, embed) }

func embed(b []byte, e *discordgo.MessageEmbed) []byte {
	if e == nil {
		return append(b, "null"...)
	}
	start := len(b)
	b = OmitString(b, "url", e.URL)
	b = OmitString(b, "type", string(e.Type))
	b = OmitString(b, "title", e.Title)
	b = OmitString(b, "description", e.Description)
	b = OmitString(b, "timestamp", e.Timestamp)
	b = OmitInt(b, "color", e.Color)
	if f := e.Footer; f != nil {
		b = Key(b, "footer")
		at := len(b)
		b = OmitString(b, "text", f.Text)
		b = OmitString(b, "icon_url", f.IconURL)
		b = OmitString(b, "proxy_icon_url", f.ProxyIconURL)
		b = EndObject(b, at)
	}
	if im := e.Image; im != nil {
		b = Key(b, "image")
		b = image(b, im.URL, im.ProxyURL, im.Width, im.Height)
	}
	if th := e.Thumbnail; th != nil {
		b = Key(b, "thumbnail")
		b = image(b, th.URL, th.ProxyURL, th.Width, th.Height)
	}
	if v := e.Video; v != nil {
		b = Key(b, "video")
		at := len(b)
		b = OmitString(b, "url", v.URL)
		b = OmitInt(b, "width", v.Width)
		b = OmitInt(b, "height", v.Height)
		b = EndObject(b, at)
	}
	if p := e.Provider; p != nil {
		b = Key(b, "provider")
		at := len(b)
		b = OmitString(b, "url", p.URL)
		b = OmitString(b, "name", p.Name)
		b = EndObject(b, at)
	}
	if a := e.Author; a != nil {
		b = Key(b, "author")
		at := len(b)
		b = OmitString(b, "url", a.URL)
		b = Key(b, "name")
		b = String(b, a.Name)
		b = OmitString(b, "icon_url", a.IconURL)
		b = OmitString(b, "proxy_icon_url", a.ProxyIconURL)
		b = EndObject(b, at)
	}
	if len(e.Fields) > 0 {
		b = Key(b, "fields")
		b = append(b, '[')
		for i, f := range e.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			if f == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, `{"name":`...)
			b = String(b, f.Name)
			b = append(b, `,"value":`...)
			b = String(b, f.Value)
			if f.Inline {
				b = append(b, `,"inline":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return EndObject(b, start)
}

// image appends an embed's image or thumbnail, which share a shape.
func image(b []byte, url, proxy string, width, height int) []byte {
	b = append(b, `{"url":`...)
	b = String(b, url)
	b = OmitString(b, "proxy_url", proxy)
	b = OmitInt(b, "width", width)
	b = OmitInt(b, "height", height)
	return append(b, '}')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
