package games

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseAction: an action travels in a custom_id as its Key. Whatever
// ParseAction accepts is exactly the Key of what it returns, and an action
// built from valid tokens reads back from its Key as itself.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"deck", "picka=AS,2H,TD", "use=family", "x=", "=x", "a=b=c", "a,b", "a=b,,c", "a:b", "a b", "é",
		strings.Repeat("v", 40), strings.Repeat("v", 41), "v=" + strings.Repeat("a", 41), ""} {
		f.Add(s, "verb", "arg", "")
	}
	f.Add("", "hand", "TD", "QS")
	f.Add("", "pick", "", "x")
	f.Add("", "a=b", "c", "")
	f.Fuzz(func(t *testing.T, s, verb, arg1, arg2 string) {
		if a, err := ParseAction(s); err == nil {
			if a.Key() != s {
				t.Fatalf("%q parsed as %+v, whose Key is %q", s, a, a.Key())
			}
			if a.Text != "" || (a.Args != nil && len(a.Args) == 0) {
				t.Fatalf("%q parsed as %+v", s, a)
			}
			for _, tok := range append([]string{a.Verb}, a.Args...) {
				if !validToken(tok) {
					t.Fatalf("%q parsed with the token %q", s, tok)
				}
			}
		} else if !reflect.DeepEqual(a, Action{}) {
			t.Fatalf("%q refused but returned %+v", s, a)
		}

		var args []string
		for _, x := range []string{arg1, arg2} {
			if x != "" {
				args = append(args, x)
			}
		}
		a := Act(verb, args...)
		back, err := ParseAction(a.Key())
		valid := validToken(verb)
		for _, x := range args {
			valid = valid && validToken(x)
		}
		switch {
		case valid && err != nil:
			t.Fatalf("%+v: its Key %q does not parse: %v", a, a.Key(), err)
		case valid && !reflect.DeepEqual(a, back):
			t.Fatalf("%+v: its Key %q reads back as %+v", a, a.Key(), back)
		case !valid && err == nil && reflect.DeepEqual(a, back):
			t.Fatalf("%+v has an invalid token but round-trips through %q", a, a.Key())
		}
	})
}
