// Package wirejson holds what the bot's and the fake Discord's hand-written
// JSON encoders share: strings quoted and embeds written as json.Marshal
// writes them, byte for byte.
package wirejson

import (
	"strings"
	"unicode/utf8"
)

// plainJSON marks the bytes of valid UTF-8 that encoding/json writes as
// they are: not control characters, quotes or backslashes, nor <, > and &
// (HTML-escaped); 0xe2 may start U+2028 or U+2029, which are escaped too.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && c != 0xe2
	}
	return t
}()

// String appends s quoted as json.Marshal quotes it. strconv's quoting is Go
// syntax (\x00, \U0001f600), not JSON.
func String(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if plainJSON[c] {
			continue
		}
		if c == 0xe2 {
			// Line and paragraph separators (e2 80 a8, e2 80 a9), escaped
			// for JavaScript.
			if i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xa8 {
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', '8'+s[i+2]-0xa8)
				i += 2
				start = i + 1
			}
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// replaceInvalid replaces each byte of s that is not UTF-8 with U+FFFD, as
// encoding/json v2 writes it (v1 writes \ufffd: the same once decoded).
func replaceInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
