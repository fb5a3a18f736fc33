package fakediscord

import (
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Routes the fake does not model, by path or by method only, are answered
// 404 and fail the test; the gateway is not among them.
func TestUnmodelledRoutes(t *testing.T) {
	t.Parallel()
	s := New(t)
	sess := connect(t, s, nil)
	ch := s.ChannelID()
	for _, r := range []struct{ method, path string }{
		{http.MethodPut, discordgo.EndpointChannelMessages(ch)},
		{http.MethodPost, discordgo.EndpointChannel(ch)},
		{http.MethodGet, discordgo.EndpointGuildBans(s.GuildID())},
		{http.MethodPost, discordgo.EndpointGateway},
	} {
		s.ExpectFailure("unexpected request (not modelled by the fake)")
		_, err := sess.RequestWithBucketID(r.method, r.path, nil, r.path)
		if re := restErr(t, err, 0); re.Response.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s: status %d, want 404", r.method, r.path, re.Response.StatusCode)
		}
	}
	if _, err := sess.ChannelMessageSend(ch, "still served"); err != nil {
		t.Errorf("a modelled route after them: %v", err)
	}
}

// SetLatency's jitter draws each request's extra time afresh, below the
// jitter given; without one there is none.
func TestLatencyJitter(t *testing.T) {
	s := New(t)
	s.SetLatency(50*time.Millisecond, 0)
	if d := s.jitterOnce(); d != 0 {
		t.Fatalf("jitter %v without any set", time.Duration(d))
	}
	const jitter = 40 * time.Millisecond
	s.SetLatency(50*time.Millisecond, jitter)
	seen := map[int64]bool{}
	for range 100 {
		d := s.jitterOnce()
		if d < 0 || d >= int64(jitter) {
			t.Fatalf("jitter %v outside [0, %v)", time.Duration(d), jitter)
		}
		seen[d] = true
	}
	if len(seen) < 50 {
		t.Fatalf("100 draws gave %d different jitters", len(seen))
	}
}
