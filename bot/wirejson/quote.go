// Package wirejson holds what the hand-written JSON encoders of the bot,
// the fake Discord and the store's records share: strings quoted and
// embeds written as json.Marshal writes them, byte for byte.
package wirejson

import (
	"strings"
	"unicode/utf8"
)

// plainASCII marks the ASCII bytes encoding/json writes as they are: not
// control characters, quotes or backslashes, nor <, > and & (HTML-escaped).
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// Plain reports whether encoding/json writes the byte c inside a string as
// it is, c being ASCII.
func Plain(c byte) bool { return c < utf8.RuneSelf && plainASCII[c] }

// String appends s quoted as json.Marshal quotes it. strconv's quoting is Go
// syntax (\x00, \U0001f600), not JSON.
func String(b []byte, s string) []byte {
	if q, ok := ValidString(b, s); ok {
		return q
	}
	q, _ := ValidString(b, replaceInvalid(s))
	return q
}

// ValidString appends s quoted as String does and reports true, or appends
// nothing and reports false if s is not valid UTF-8, which encoding/json
// writes as \ufffd up to Go 1.26 and as U+FFFD itself from Go 1.27 on.
func ValidString(b []byte, s string) ([]byte, bool) {
	const hex = "0123456789abcdef"
	n := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return b[:n], false
			}
			if r == '\u2028' || r == '\u2029' { // line and paragraph separators, escaped for JavaScript
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', byte('8'+r-'\u2028'))
				start = i + size
			}
			i += size
			continue
		}
		if i++; plainASCII[c] {
			continue
		}
		b = append(b, s[start:i-1]...)
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
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"'), true
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
