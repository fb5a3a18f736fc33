package fakediscord

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// Tests and benchmarks pass themselves.
var _ Reporter = testing.TB(nil)

func TestLogReporterLogsViolationsAndCloses(t *testing.T) {
	var buf bytes.Buffer
	rep := NewLogReporter(slog.New(slog.NewTextHandler(&buf, nil)))
	s := New(rep)
	// A request real Discord refuses: no token.
	resp, err := http.Get(s.URL() + "/api/v10/channels/" + s.ChannelID())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
	if len(s.Failures()) == 0 {
		t.Error("the refusal was not recorded")
	}
	if !strings.Contains(buf.String(), "level=WARN") {
		t.Errorf("the refusal was not logged as a warning:\n%s", buf.String())
	}
	rep.Close()
	if _, err := http.Get(s.URL()); err == nil {
		t.Error("the fake still serves after Close")
	}
	rep.Close() // twice is fine
}
