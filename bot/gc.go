package bot

import (
	"fmt"
	"runtime/debug"
)

// GCPercent is the collector's target the bot runs with unless GOGC says
// otherwise. Every interaction allocates (JSON in, JSON out, a bbolt
// transaction) while the live heap stays small (about 20 MiB with 100k
// stored games), so at Go's default of 100 the collector ran hundreds of
// times a second under load and took about a fifth of the CPU; at 400 the
// load command's 100-channel duel makes 30–50 % more moves per second on
// the same cores, for a heap up to five times the live one.
const GCPercent = 400

// TuneGC applies GCPercent when the process environment (lookup; not
// .env, which the Go runtime never sees) sets no GOGC, and returns the
// setting in words for the log.
func TuneGC(lookup func(string) (string, bool)) string {
	if v, ok := lookup("GOGC"); ok {
		return fmt.Sprintf("GOGC=%s from the environment", v)
	}
	debug.SetGCPercent(GCPercent)
	return fmt.Sprintf("GOGC=%d (the bot's default; set GOGC to change it)", GCPercent)
}
