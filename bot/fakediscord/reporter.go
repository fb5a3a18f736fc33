package fakediscord

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"
)

// LogReporter is a Reporter for programs rather than tests: what a test
// would fail on is logged as a warning and the fake carries on, answering
// the bot as real Discord would. Fatalf, which only misuse of the fake
// itself calls, logs and panics. Close runs the cleanups, newest first,
// which shuts the fake down.
type LogReporter struct {
	Log *slog.Logger

	mu       sync.Mutex
	cleanups []func()
	closed   bool
}

// NewLogReporter returns a LogReporter writing to log (slog.Default if nil).
func NewLogReporter(log *slog.Logger) *LogReporter {
	if log == nil {
		log = slog.Default()
	}
	return &LogReporter{Log: log}
}

// Errorf logs what real Discord would have refused.
func (r *LogReporter) Errorf(format string, args ...any) {
	r.Log.Warn(fmt.Sprintf(format, args...))
}

// Fatalf logs and panics: the fake was used in a way it does not support.
func (r *LogReporter) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.Log.Error(msg)
	panic(msg)
}

// Logf logs a note at debug level.
func (r *LogReporter) Logf(format string, args ...any) {
	r.Log.Debug(fmt.Sprintf(format, args...))
}

// Cleanup registers f for Close. After Close it runs f at once.
func (r *LogReporter) Cleanup(f func()) {
	r.mu.Lock()
	if !r.closed {
		r.cleanups = append(r.cleanups, f)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	f()
}

// Close runs the registered cleanups, newest first, once.
func (r *LogReporter) Close() {
	r.mu.Lock()
	fs := slices.Clone(r.cleanups)
	r.cleanups, r.closed = nil, true
	r.mu.Unlock()
	for _, f := range slices.Backward(fs) {
		f()
	}
}
