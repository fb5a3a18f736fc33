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

// MemoryLimit is the soft limit on the Go heap the bot runs with unless
// GOMEMLIMIT says otherwise. Five times a small live heap is well under
// it, so it costs nothing at ordinary loads; with thousands of busy
// channels (a live heap of 117 MiB at 5,000 in the load command) five
// times would pass a GiB, and here the collector works harder instead.
const MemoryLimit = 512 << 20

// TuneGC applies GCPercent and MemoryLimit where the process environment
// (lookup; not .env, which the Go runtime never sees) sets no GOGC or
// GOMEMLIMIT, and returns the settings in words for the log.
func TuneGC(lookup func(string) (string, bool)) string {
	var pct, limit string
	if v, ok := lookup("GOGC"); ok {
		pct = fmt.Sprintf("GOGC=%s from the environment", v)
	} else {
		debug.SetGCPercent(GCPercent)
		pct = fmt.Sprintf("GOGC=%d (the bot's default; set GOGC to change it)", GCPercent)
	}
	if v, ok := lookup("GOMEMLIMIT"); ok {
		limit = fmt.Sprintf("GOMEMLIMIT=%s from the environment", v)
	} else {
		debug.SetMemoryLimit(MemoryLimit)
		limit = fmt.Sprintf("GOMEMLIMIT=%dMiB (the bot's default)", MemoryLimit>>20)
	}
	return pct + ", " + limit
}
