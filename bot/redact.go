package bot

import (
	"log/slog"
	"regexp"
)

// tokenInPath finds the interaction token in a webhook or interaction
// callback URL.
var tokenInPath = regexp.MustCompile(`(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.\-]+`)

// RedactTokens is a slog.HandlerOptions.ReplaceAttr that blanks interaction
// tokens in logged values. net/http's errors carry the request's URL, and
// a webhook's or callback's URL holds the interaction's token, which lets
// whoever has it post as the bot in that channel for 15 minutes.
func RedactTokens(_ []string, a slog.Attr) slog.Attr {
	var s string
	switch a.Value.Kind() {
	case slog.KindString:
		s = a.Value.String()
	case slog.KindAny:
		err, ok := a.Value.Any().(error)
		if !ok {
			return a
		}
		s = err.Error()
	default:
		return a
	}
	if !tokenInPath.MatchString(s) {
		return a
	}
	return slog.String(a.Key, tokenInPath.ReplaceAllString(s, "${1}<token>"))
}
