package fakediscord

import (
	"net/http"
	"testing"

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
