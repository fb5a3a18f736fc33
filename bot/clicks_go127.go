//go:build go1.27

package bot

import (
	"bytes"
	"encoding/json/jsontext"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// UnmarshalJSONFrom reads a click in one pass over the event's data. Go
// 1.27's encoding/json calls it in place of UnmarshalJSON, which gets the
// bytes only after a pass that finds where they end and then decodes them
// by reflection: under load, the difference was a twentieth of the bot's
// CPU. It reads what UnmarshalJSON reads and fails where it fails.
func (e *interactionEvent) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var w wireClick
	err := members(d, func(name []byte) error {
		switch string(name) {
		case "id":
			return readString(d, &w.ID)
		case "application_id":
			return readString(d, &w.AppID)
		case "type":
			return readInt(d, &w.Type)
		case "data":
			return members(d, func(name []byte) error {
				switch string(name) {
				case "custom_id":
					return readString(d, &w.Data.CustomID)
				case "component_type":
					return readInt(d, &w.Data.ComponentType)
				case "values":
					return readStrings(d, &w.Data.Values)
				}
				return d.SkipValue()
			})
		case "guild_id":
			return readString(d, &w.GuildID)
		case "channel_id":
			return readString(d, &w.ChannelID)
		case "member":
			return readObject(d, &w.Member, func(m *wireMember, name []byte) error {
				switch string(name) {
				case "user":
					return readObject(d, &m.User, readUserMember(d))
				case "nick":
					return readString(d, &m.Nick)
				case "permissions":
					return readQuotedInt(d, &m.Permissions)
				}
				return d.SkipValue()
			})
		case "user":
			return readObject(d, &w.User, readUserMember(d))
		case "token":
			return readString(d, &w.Token)
		case "app_permissions":
			return readQuotedInt(d, &w.AppPermissions)
		case "message":
			return readObject(d, &w.Message, func(m *wireMessage, name []byte) error {
				switch string(name) {
				case "id":
					return readString(d, &m.ID)
				case "channel_id":
					return readString(d, &m.ChannelID)
				case "flags":
					return readInt(d, &m.Flags)
				}
				return d.SkipValue()
			})
		}
		return d.SkipValue()
	})
	if err != nil {
		return err // then decoded as discordgo decodes it, if it can
	}
	e.Interaction = w.interaction()
	return nil
}

var errShape = errors.New("not the shape of a click")

// members reads an object (or null), calling member with each name while
// the decoder stands before that member's value, which member must read.
func members(d *jsontext.Decoder, member func(name []byte) error) error {
	tok, err := d.ReadToken()
	if err != nil || tok.Kind() == 'n' {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("%w: %v where an object belongs", errShape, tok.Kind())
	}
	for d.PeekKind() == '"' {
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		name := v[1 : len(v)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(nil, v)
		}
		if err := member(foldName(name)); err != nil {
			return err
		}
	}
	_, err = d.ReadToken() // the end of the object, or the error that stopped the loop
	return err
}

// foldName is name as the bot's member names are spelled (lower case
// ASCII), if encoding/json would match the two: it matches names as
// strings.EqualFold does, so "Custom_ID" is custom_id, and so are the
// Kelvin sign for k and the long s for s, the only letters beyond ASCII
// that fold to one in it.
func foldName(name []byte) []byte {
	plain := true
	for _, c := range name {
		if 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	folded := make([]byte, 0, len(name))
	for _, r := range string(name) {
		switch {
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case r == '\u212a': // Kelvin sign
			r = 'k'
		case r == '\u017f': // long s
			r = 's'
		}
		folded = utf8.AppendRune(folded, r)
	}
	return folded
}

// readString leaves *s as it is for null, as encoding/json does.
func readString(d *jsontext.Decoder, s *string) error {
	tok, err := d.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == '"':
		*s = tok.String()
	case tok.Kind() != 'n':
		return fmt.Errorf("%w: %v where a string belongs", errShape, tok.Kind())
	}
	return nil
}

func readInt[T ~int | ~int64 | ~uint8 | ~uint](d *jsontext.Decoder, n *T) error {
	tok, err := d.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == '0':
		num := tok.String()
		i, err := strconv.ParseInt(num, 10, 64)
		unsigned := T(0)-1 > 0
		if err != nil || int64(T(i)) != i || unsigned && num[0] == '-' {
			return fmt.Errorf("%w: %s is no integer of its type", errShape, num)
		}
		*n = T(i)
	case tok.Kind() != 'n':
		return fmt.Errorf("%w: %v where a number belongs", errShape, tok.Kind())
	}
	return nil
}

// readQuotedInt reads an integer Discord sends as a string (permissions).
func readQuotedInt(d *jsontext.Decoder, n *int64) error {
	var s string
	if err := readString(d, &s); err != nil || s == "" {
		return err
	}
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %q is no integer", errShape, s)
	}
	*n = i
	return nil
}

func readStrings(d *jsontext.Decoder, list *[]string) error {
	tok, err := d.ReadToken()
	if err != nil || tok.Kind() == 'n' {
		return err
	}
	if tok.Kind() != '[' {
		return fmt.Errorf("%w: %v where a list belongs", errShape, tok.Kind())
	}
	*list = []string{} // [] is an empty list, not nil, as encoding/json has it
	for d.PeekKind() != ']' {
		var s string
		if err := readString(d, &s); err != nil {
			return err
		}
		*list = append(*list, s)
	}
	_, err = d.ReadToken()
	return err
}

// readObject reads an object into a new *p, or null into nil.
func readObject[T any](d *jsontext.Decoder, p **T, member func(v *T, name []byte) error) error {
	if d.PeekKind() == 'n' {
		*p = nil
		return d.SkipValue()
	}
	v := new(T)
	*p = v
	return members(d, func(name []byte) error { return member(v, name) })
}

func readUserMember(d *jsontext.Decoder) func(*wireUser, []byte) error {
	return func(u *wireUser, name []byte) error {
		switch string(name) {
		case "id":
			return readString(d, &u.ID)
		case "username":
			return readString(d, &u.Username)
		case "global_name":
			return readString(d, &u.GlobalName)
		}
		return d.SkipValue()
	}
}
