package fakediscord

import (
	"time"
)

// Gateway faults. Each takes the bot's connection away at once: dispatches
// from then on wait in the session's resume buffer. discordgo recovers by
// itself (with ShouldReconnectOnError, its default): it closes, waits about
// a second, reconnects and resumes; the fake replays what the bot missed and
// sends RESUMED. A session that is invalidated instead (InvalidSession(false),
// or a clean close) cannot be resumed: the bot identifies afresh and what
// was dispatched meanwhile is lost, as on Discord. Interactions pending or
// dispatched while the bot is disconnected are answered if the bot is back
// in time, and otherwise recorded in FailedInteractions without failing the
// test. AwaitConnected waits until the bot is back.

// reconnectTimeout bounds AwaitConnected: discordgo waits a second before
// it reconnects, and backs off 1, 2, 4… s after a failed attempt.
const reconnectTimeout = 15 * time.Second

// Reconnect sends op 7 RECONNECT on the bot's connection, as Discord does
// before it moves a session; the bot should reconnect and resume.
func (s *Server) Reconnect() {
	if c := s.detachCurrent("Reconnect", false); c != nil {
		c.send(gwPayload{Op: 7, D: nil})
	}
}

// InvalidSession sends op 9 INVALID_SESSION with d = resumable on the bot's
// connection. If resumable is false the session is over: the bot must
// identify again, and dispatches since are lost (interactions among them
// fail). discordgo identifies again in either case.
func (s *Server) InvalidSession(resumable bool) {
	if c := s.detachCurrent("InvalidSession", !resumable); c != nil {
		c.send(gwPayload{Op: 9, D: resumable})
	}
}

// Killed tells the fake that the bot's process was just killed (SIGKILL),
// and drops its connections as DropSockets does. Interactions it had not
// answered fail without failing the test. What it asked of Discord and did
// not live to record, the next process may ask again, once: starting the
// thread of a message that already had one before the kill, or editing or
// deleting a message the bot deleted before the kill, is then refused as
// Discord does (400 code 160004, 404 code 10008) without failing the test;
// so is asking once more about a message a user deleted.
func (s *Server) Killed() {
	s.mu.Lock()
	if s.threadsBeforeKill == nil {
		s.threadsBeforeKill = map[string]bool{}
	}
	for _, th := range s.threads {
		s.threadsBeforeKill[th.id] = true
	}
	if s.deletedBeforeKill == nil {
		s.deletedBeforeKill = map[string]bool{}
	}
	for id := range s.deletedByBot {
		s.deletedBeforeKill[id] = true
	}
	s.deletedByBot = map[string]bool{}
	s.goneTold = nil
	s.mu.Unlock()
	s.DropSockets()
}

// DropSockets closes every gateway connection abruptly, without a close
// frame, as a network failure would. Sessions stay resumable.
func (s *Server) DropSockets() {
	s.mu.Lock()
	var conns []*gwConn
	for c := range s.conns {
		conns = append(conns, c)
		if sess := c.session; sess != nil {
			sess.conn, c.session = nil, nil
		}
	}
	s.gatewayFaultLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close() // closes the TCP connection; no close frame
	}
}

// detachCurrent takes the current session's connection away from it, so
// that dispatches wait in the resume buffer (or, with end, invalidates the
// session), and returns the connection.
func (s *Server) detachCurrent(what string, end bool) *gwConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.current
	if sess == nil || sess.conn == nil {
		s.failLocked(what + ": the bot has no connected gateway session")
		return nil
	}
	c := sess.conn
	sess.conn, c.session = nil, nil
	if end {
		s.endSessionLocked(sess)
	}
	s.gatewayFaultLocked()
	return c
}

// gatewayFaultLocked records a gateway fault: interactions still waiting for
// their callback are now affected by it.
func (s *Server) gatewayFaultLocked() {
	s.gatewayFaults++
	for _, it := range s.interactions {
		if it.callback == 0 && !it.expired {
			it.faulted = true
		}
	}
	s.gatewayChangedLocked()
}

// AwaitConnected waits until the bot's current session has a connection
// again (resumed, or identified afresh) and then Syncs. It fails the test
// and returns false if that takes longer than 15 s.
func (s *Server) AwaitConnected() bool {
	timeout := time.NewTimer(reconnectTimeout)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		ok := s.current != nil && s.current.conn != nil
		changed := s.gwChanged
		s.mu.Unlock()
		if ok {
			s.Sync()
			return true
		}
		select {
		case <-changed:
		case <-timeout.C:
			s.failf("AwaitConnected: the bot did not reconnect within %v", reconnectTimeout)
			return false
		}
	}
}

// AwaitNoConnection waits until the bot holds no gateway connection, as
// after it closed every session it opened. It fails the test and returns
// false if that takes longer than 15 s.
func (s *Server) AwaitNoConnection() bool {
	timeout := time.NewTimer(reconnectTimeout)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		n, changed := len(s.conns), s.gwChanged
		s.mu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-changed:
		case <-timeout.C:
			s.failf("AwaitNoConnection: %d gateway connections still open after %v", n, reconnectTimeout)
			return false
		}
	}
}

// GatewayStats counts gateway sessions and connections.
type GatewayStats struct {
	Identifies     int // sessions started with IDENTIFY
	Resumes        int // sessions resumed with RESUME
	RefusedResumes int // RESUMEs answered with INVALID_SESSION
	Connections    int // websocket connections open now
}

// GatewayStats returns the gateway counts so far.
func (s *Server) GatewayStats() GatewayStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return GatewayStats{Identifies: s.identifies, Resumes: s.resumes, RefusedResumes: s.resumesRefused, Connections: len(s.conns)}
}
