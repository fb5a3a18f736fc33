package fakediscord

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Threads. A thread is a channel of its own (type 11 public, 12 private)
// under a text channel: messages, reactions and interactions work in it as
// in any channel, and Messages(threadID) lists its messages.
//
// As on Discord, a thread archives itself once nothing happened in it for
// its auto_archive_duration: in an archived thread messages cannot be
// edited (400, code 50083) and reactions cannot be changed. Sending a
// message, or PATCH /channels/{thread} with archived false, unarchives it;
// so does a user's click on one of its buttons (the client unarchives the
// thread before it sends the interaction).
//
// A moderator may lock a thread (LockThread): its metadata says locked, and
// only members with Manage Threads, which the bot lacks, may unarchive it
// (PATCH archived false: 403 Missing Permissions, 50013) or post, edit or
// react in it, archived or not (400 Thread is archived, 50083, as Discord
// answers bots there). A member's click no longer unarchives it either.
// Public interaction responses there are refused the same way; ephemeral
// ones are not. app_permissions do not change: Discord does not fold the
// lock into them, the interaction's channel.thread_metadata.locked says it.

const (
	threadPublic  = int(discordgo.ChannelTypeGuildPublicThread)
	threadPrivate = int(discordgo.ChannelTypeGuildPrivateThread)

	threadCreatePerms = discordgo.PermissionCreatePublicThreads | discordgo.PermissionCreatePrivateThreads
)

// Thread is a snapshot of a thread.
type Thread struct {
	ID, ParentID, Name, OwnerID string
	Private                     bool
	Members                     []string // user IDs, in the order they joined
	MessageCount                int      // messages sent in it, the starter message excluded
}

// Threads returns the threads of a text channel, oldest first.
func (s *Server) Threads(channelID string) []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Thread
	for _, th := range s.threads {
		if th.parentID == channelID {
			out = append(out, Thread{
				ID: th.id, ParentID: th.parentID, Name: th.name, OwnerID: th.ownerID, Private: th.kind == threadPrivate,
				Members: slices.Clone(th.members), MessageCount: th.messageCount,
			})
		}
	}
	return out
}

// DenyThreads takes the bot's Create Public Threads and Create Private
// Threads permissions away in a text channel, as a server that does not
// grant them would: creating a thread there is answered 403 Missing
// Permissions (50013), which does not fail the test, and interactions in the
// channel carry app_permissions without those bits.
func (s *Server) DenyThreads(channelID string) {
	s.setTextChannel("DenyThreads", channelID, func(ch *channel) { ch.threadsDenied = true })
}

// AllowThreads undoes DenyThreads.
func (s *Server) AllowThreads(channelID string) {
	s.setTextChannel("AllowThreads", channelID, func(ch *channel) { ch.threadsDenied = false })
}

// setTextChannel changes a text channel's settings; what names the caller.
func (s *Server) setTextChannel(what, channelID string, set func(*channel)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channelLocked(channelID)
	if ch == nil || ch.kind != 0 {
		s.failLocked(fmt.Sprintf("%s: %s is not a text channel", what, channelID))
		return
	}
	set(ch)
}

// DenyPosting takes the bot's Send Messages and Send Messages in Threads
// permissions away in a text channel (its threads too), as a channel an
// admin has not opened to the bot: posting there is answered 403 Missing
// Permissions (50013), an invalid request that does not fail the test, and
// interactions there carry app_permissions without those bits.
func (s *Server) DenyPosting(channelID string) {
	s.setTextChannel("DenyPosting", channelID, func(ch *channel) { ch.postingDenied = true })
}

// AllowPosting undoes DenyPosting.
func (s *Server) AllowPosting(channelID string) {
	s.setTextChannel("AllowPosting", channelID, func(ch *channel) { ch.postingDenied = false })
}

// DenyAccess takes the bot's View Channel permission away in a text channel
// (its threads too), as an admin locking the channel mid-game would: every
// request about the channel or its messages, an edit of the bot's own
// message included, is answered 403 Missing Access (50001), an invalid
// request that does not fail the test. Members' interactions there still
// reach the bot, with app_permissions without View Channel.
func (s *Server) DenyAccess(channelID string) {
	s.setTextChannel("DenyAccess", channelID, func(ch *channel) { ch.accessDenied = true })
}

// AllowAccess undoes DenyAccess.
func (s *Server) AllowAccess(channelID string) {
	s.setTextChannel("AllowAccess", channelID, func(ch *channel) { ch.accessDenied = false })
}

// accessDeniedLocked tells whether the bot may not view a channel.
func (s *Server) accessDeniedLocked(channelID string) bool {
	ch := s.channelLocked(channelID)
	if ch != nil && ch.kind != 0 {
		ch = s.channelLocked(ch.parentID)
	}
	return ch != nil && ch.accessDenied
}

// DenyManageMessages takes the bot's Manage Messages permission away in a
// text channel (its threads too): removing someone else's reaction there is
// answered 403 Missing Permissions (50013), an invalid request that does
// not fail the test, and interactions carry app_permissions without it.
func (s *Server) DenyManageMessages(channelID string) {
	s.setTextChannel("DenyManageMessages", channelID, func(ch *channel) { ch.manageDenied = true })
}

// manageDeniedLocked tells whether the bot may not manage messages in a channel.
func (s *Server) manageDeniedLocked(channelID string) bool {
	ch := s.channelLocked(channelID)
	if ch != nil && ch.kind != 0 {
		ch = s.channelLocked(ch.parentID)
	}
	return ch != nil && ch.manageDenied
}

// postingDeniedLocked tells whether the bot may not post in a channel.
func (s *Server) postingDeniedLocked(channelID string) bool {
	ch := s.channelLocked(channelID)
	if ch != nil && ch.kind != 0 {
		ch = s.channelLocked(ch.parentID)
	}
	return ch != nil && ch.postingDenied
}

// botChannelPermsLocked is the bot's permissions in a channel.
func (s *Server) botChannelPermsLocked(channelID string) int64 {
	p := int64(botPermissions)
	if ch := s.channelLocked(channelID); ch != nil {
		if ch.kind != 0 {
			ch = s.channelLocked(ch.parentID)
		}
		if ch != nil && ch.threadsDenied {
			p &^= threadCreatePerms
		}
		if ch != nil && ch.postingDenied {
			p &^= discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads
		}
		if ch != nil && ch.manageDenied {
			p &^= discordgo.PermissionManageMessages
		}
		if ch != nil && ch.accessDenied {
			// Without View Channel nothing else in it is allowed.
			p &^= discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads |
				discordgo.PermissionReadMessageHistory | discordgo.PermissionAddReactions | discordgo.PermissionManageMessages
		}
	}
	return p
}

// canSeeLocked tells whether a member can see a channel: private threads
// only show to their members and to those who can manage threads.
func (s *Server) canSeeLocked(u *User, channelID string) bool {
	ch := s.channelLocked(channelID)
	return ch == nil || ch.kind != threadPrivate || u.bot || slices.Contains(ch.members, u.ID) ||
		s.permissionsLocked(u)&(discordgo.PermissionAdministrator|discordgo.PermissionManageThreads) != 0
}

// joinThreadLocked adds a member to a thread.
func (ch *channel) joinLocked(userID string) {
	if ch.kind != 0 && !slices.Contains(ch.members, userID) {
		ch.members = append(ch.members, userID)
	}
}

type wireThreadMeta struct {
	Archived            bool   `json:"archived"`
	ArchiveTimestamp    string `json:"archive_timestamp"`
	AutoArchiveDuration int    `json:"auto_archive_duration"`
	Locked              bool   `json:"locked"`
	Invitable           *bool  `json:"invitable,omitempty"` // private threads only
	CreateTimestamp     string `json:"create_timestamp"`
}

type wireThreadMember struct {
	ID            string `json:"id"`
	UserID        string `json:"user_id"`
	JoinTimestamp string `json:"join_timestamp"`
	Flags         int    `json:"flags"`
}

// wireThread is a thread channel object.
type wireThread struct {
	ID               string            `json:"id"`
	Type             int               `json:"type"`
	GuildID          string            `json:"guild_id"`
	ParentID         string            `json:"parent_id"`
	OwnerID          string            `json:"owner_id"`
	Name             string            `json:"name"`
	LastMessageID    *string           `json:"last_message_id"`
	RateLimitPerUser int               `json:"rate_limit_per_user"`
	Flags            int               `json:"flags"`
	MessageCount     int               `json:"message_count"`
	MemberCount      int               `json:"member_count"`
	TotalMessageSent int               `json:"total_message_sent"`
	ThreadMetadata   wireThreadMeta    `json:"thread_metadata"`
	Member           *wireThreadMember `json:"member,omitempty"`
	Permissions      string            `json:"permissions,omitempty"` // only inside interactions
	NewlyCreated     bool              `json:"newly_created,omitempty"`
}

func (s *Server) threadWireLocked(th *channel) wireThread {
	w := wireThread{
		ID: th.id, Type: th.kind, GuildID: s.channelGuildLocked(th.id).id, ParentID: th.parentID, OwnerID: th.ownerID, Name: th.name,
		RateLimitPerUser: th.rateLimit, MessageCount: th.messageCount, MemberCount: min(len(th.members), 50),
		TotalMessageSent: th.messageCount,
		ThreadMetadata: wireThreadMeta{
			Archived: s.archivedLocked(th), Locked: th.locked,
			ArchiveTimestamp: timestamp(th.activeAt), AutoArchiveDuration: th.autoArchive, CreateTimestamp: timestamp(th.created),
		},
	}
	if th.lastMessageID != "" {
		id := th.lastMessageID
		w.LastMessageID = &id
	}
	if th.kind == threadPrivate {
		inv := th.invitable
		w.ThreadMetadata.Invitable = &inv
	}
	return w
}

// channelObjectLocked renders any channel, text or thread.
func (s *Server) channelObjectLocked(ch *channel) any {
	if ch.kind == 0 {
		return s.channelWireLocked(ch)
	}
	return s.threadWireLocked(ch)
}

type threadParams struct {
	Name                *string `json:"name"`
	AutoArchiveDuration *int    `json:"auto_archive_duration"`
	RateLimitPerUser    *int    `json:"rate_limit_per_user"`
	Type                *int    `json:"type"`
	Invitable           *bool   `json:"invitable"`
}

// threadParent resolves {channel} for the thread routes: a text channel in
// which the bot may create threads.
func (c *call) threadParent() *channel {
	ch := c.channel()
	switch {
	case ch == nil:
	case ch.kind != 0:
		c.reject(http.StatusBadRequest, 50024, "Cannot execute action on this channel type", "threads can only be started in text channels")
	case ch.threadsDenied:
		c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "DenyThreads: the bot may not create threads in "+ch.id)
	default:
		return ch
	}
	return nil
}

// startThread serves POST /channels/{channel}/messages/{message}/threads:
// a public thread whose ID is the message's.
func (s *Server) startThread(c *call) {
	parent := c.threadParent()
	if parent == nil {
		return
	}
	m := c.channelMessage()
	if m == nil {
		return
	}
	if s.channelLocked(m.id) != nil {
		if s.threadsBeforeKill[m.id] {
			c.refuse(http.StatusBadRequest, 160004, "A thread has already been created for this message", "started before the bot was killed")
			return
		}
		c.reject(http.StatusBadRequest, 160004, "A thread has already been created for this message", "")
		return
	}
	var p threadParams
	if !c.decode(&p) {
		return
	}
	var errs formErrors
	checkThread(&p, false, &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return
	}
	th := s.newThreadLocked(parent, m.id, threadPublic, &p)
	c.emit(s.threadCreateLocked(th))
	c.reply(http.StatusCreated, s.threadWireLocked(th))
}

// createThread serves POST /channels/{channel}/threads: a thread without a
// starter message, private unless the type says otherwise (API v9 and v10).
func (s *Server) createThread(c *call) {
	parent := c.threadParent()
	if parent == nil {
		return
	}
	var p threadParams
	if !c.decode(&p) {
		return
	}
	var errs formErrors
	checkThread(&p, true, &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return
	}
	kind := threadPrivate
	if p.Type != nil {
		kind = *p.Type
	}
	th := s.newThreadLocked(parent, s.newIDLocked(), kind, &p)
	c.emit(s.threadCreateLocked(th))
	if kind == threadPublic {
		// Discord announces a public thread without a starter message in
		// its channel with a THREAD_CREATED system message.
		m := &message{channelID: parent.id, author: s.bot, kind: 18, content: th.name, threadRef: th.id}
		s.storeLocked(m)
		c.emit(s.eventLocked("MESSAGE_CREATE", s.messageWireLocked(m, true)))
	}
	c.reply(http.StatusCreated, s.threadWireLocked(th))
}

func checkThread(p *threadParams, withType bool, errs *formErrors) {
	if p.Name == nil {
		errs.add("name", "BASE_TYPE_REQUIRED", "This field is required")
	} else {
		errs.lenBetween(field("name"), *p.Name, 1, 100)
	}
	if d := p.AutoArchiveDuration; d != nil && !slices.Contains([]int{60, 1440, 4320, 10080}, *d) {
		errs.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
	}
	if r := p.RateLimitPerUser; r != nil {
		errs.between(field("rate_limit_per_user"), *r, 0, 21600)
	}
	if withType && p.Type != nil && *p.Type != threadPublic && *p.Type != threadPrivate {
		// 10 (ANNOUNCEMENT_THREAD) needs an announcement channel; the fake
		// guild has none.
		errs.add("type", "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
	}
}

func (s *Server) newThreadLocked(parent *channel, id string, kind int, p *threadParams) *channel {
	th := &channel{
		id: id, name: *p.Name, kind: kind, parentID: parent.id, ownerID: s.bot.ID, guild: parent.guild,
		created: s.nowLocked(), autoArchive: 4320, invitable: true,
	}
	th.activeAt = th.created
	if p.AutoArchiveDuration != nil {
		th.autoArchive = *p.AutoArchiveDuration
	}
	if p.RateLimitPerUser != nil {
		th.rateLimit = *p.RateLimitPerUser
	}
	if p.Invitable != nil {
		th.invitable = *p.Invitable
	}
	th.joinLocked(s.bot.ID)
	s.putChannelLocked(th, true)
	return th
}

// threadCreateLocked is THREAD_CREATE for a thread the bot just created.
func (s *Server) threadCreateLocked(th *channel) event {
	w := s.threadWireLocked(th)
	w.NewlyCreated = true
	w.Member = &wireThreadMember{ID: th.id, UserID: s.bot.ID, JoinTimestamp: timestamp(th.created)}
	return s.eventLocked("THREAD_CREATE", w)
}

// threadMember serves PUT and DELETE /channels/{thread}/thread-members/{user}
// (or @me).
func (s *Server) threadMember(c *call) {
	th := c.channel()
	if th == nil {
		return
	}
	if th.kind == 0 {
		c.reject(http.StatusBadRequest, 50024, "Cannot execute action on this channel type", "not a thread")
		return
	}
	id := c.r.PathValue("user")
	if id == "" {
		id = s.bot.ID
	}
	if s.userLocked(id) == nil {
		c.reject(http.StatusNotFound, 10013, "Unknown User", "")
		return
	}
	if c.r.Method == http.MethodPut {
		th.joinLocked(id)
	} else {
		th.members = slices.DeleteFunc(th.members, func(m string) bool { return m == id })
	}
	c.noContent()
}

// threadMembers serves GET /channels/{thread}/thread-members.
func (s *Server) threadMembers(c *call) {
	th := c.channel()
	if th == nil {
		return
	}
	if th.kind == 0 {
		c.reject(http.StatusBadRequest, 50024, "Cannot execute action on this channel type", "not a thread")
		return
	}
	out := []wireThreadMember{}
	for _, id := range th.members {
		out = append(out, wireThreadMember{ID: th.id, UserID: id, JoinTimestamp: timestamp(th.created)})
	}
	c.ok(out)
}

// noteThreadMessageLocked counts a message posted in a thread, whose
// mentioned members (and author) join it, as on Discord.
func (s *Server) noteThreadMessageLocked(m *message) {
	th := s.channelLocked(m.channelID)
	if th == nil || th.kind == 0 || m.ephemeral {
		return
	}
	th.messageCount++
	th.lastMessageID = m.id
	th.activeAt, th.archived = s.nowLocked(), false
	th.joinLocked(m.author.ID)
	for _, id := range m.mentions {
		th.joinLocked(id)
	}
}

// DeleteChannel deletes a text channel and its threads, as a member with
// Manage Channels would: the bot is told with CHANNEL_DELETE, and every
// request about the channel or its messages answers 404 Unknown Channel.
func (s *Server) DeleteChannel(channelID string) {
	s.mu.Lock()
	ch := s.channelLocked(channelID)
	if ch == nil || ch.kind != 0 {
		s.failLocked(fmt.Sprintf("DeleteChannel: %s is not a text channel", channelID))
		s.mu.Unlock()
		return
	}
	ev := s.eventLocked("CHANNEL_DELETE", s.channelWireLocked(ch))
	s.channels = slices.DeleteFunc(s.channels, func(c *channel) bool { return c == ch })
	s.threads = slices.DeleteFunc(s.threads, func(th *channel) bool {
		if th.parentID == ch.id {
			delete(s.channelByID, th.id)
			s.markDeletedLocked(th.id)
			return true
		}
		return false
	})
	delete(s.channelByID, ch.id)
	s.markDeletedLocked(ch.id)
	s.mu.Unlock()
	s.emit(ev)
	s.settle()
}

// markDeletedLocked remembers a deleted channel or thread.
func (s *Server) markDeletedLocked(id string) {
	if s.deletedChannels == nil {
		s.deletedChannels = map[string]bool{}
	}
	s.deletedChannels[id] = true
}

// DeleteThread deletes a thread: the bot is told with THREAD_DELETE (its
// id, guild, parent and type), and requests about it answer 404.
func (s *Server) DeleteThread(threadID string) {
	s.mu.Lock()
	th := s.channelLocked(threadID)
	if th == nil || th.kind == 0 {
		s.failLocked(fmt.Sprintf("DeleteThread: %s is not a thread", threadID))
		s.mu.Unlock()
		return
	}
	ev := s.eventLocked("THREAD_DELETE", map[string]any{
		"id": th.id, "guild_id": s.channelGuildLocked(th.id).id, "parent_id": th.parentID, "type": th.kind,
	})
	s.threads = slices.DeleteFunc(s.threads, func(c *channel) bool { return c == th })
	delete(s.channelByID, th.id)
	s.markDeletedLocked(th.id)
	s.mu.Unlock()
	s.emit(ev)
	s.settle()
}

// archivedLocked tells whether ch is an archived thread: archived by
// request, or idle for its auto_archive_duration.
func (s *Server) archivedLocked(ch *channel) bool {
	if ch == nil || ch.kind == 0 {
		return false
	}
	return ch.archived || s.nowLocked().Sub(ch.activeAt) >= time.Duration(ch.autoArchive)*time.Minute
}

// ArchivedRefusals counts the requests refused because their thread was
// archived.
func (s *Server) ArchivedRefusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.archivedRefusals
}

// Archived tells whether a thread is archived now.
func (s *Server) Archived(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.archivedLocked(s.channelLocked(threadID))
}

// touchLocked is activity in a thread that unarchives it.
func (s *Server) touchLocked(channelID string) {
	if th := s.channelLocked(channelID); th != nil && th.kind != 0 {
		th.activeAt, th.archived = s.nowLocked(), false
	}
}

// LockThread locks a thread as a moderator would, archived or not; the bot
// is told with THREAD_UPDATE.
func (s *Server) LockThread(threadID string) { s.setLocked("LockThread", threadID, true) }

// UnlockThread undoes LockThread (the thread stays archived if it was).
func (s *Server) UnlockThread(threadID string) { s.setLocked("UnlockThread", threadID, false) }

func (s *Server) setLocked(what, threadID string, locked bool) {
	s.mu.Lock()
	th := s.channelLocked(threadID)
	if th == nil || th.kind == 0 {
		s.failLocked(fmt.Sprintf("%s: %s is not a thread", what, threadID))
		s.mu.Unlock()
		return
	}
	th.locked = locked
	ev := s.eventLocked("THREAD_UPDATE", s.threadWireLocked(th))
	s.mu.Unlock()
	s.emit(ev)
	s.settle()
}

// Locked tells whether a thread is locked now.
func (s *Server) Locked(threadID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.channelLocked(threadID)
	return th != nil && th.locked
}

// LockedRefusals counts the requests refused because their thread was
// locked: each is an invalid request on Discord.
func (s *Server) LockedRefusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lockedRefusals
}

// lockedLocked tells whether channelID is a locked thread.
func (s *Server) lockedLocked(channelID string) bool {
	th := s.channelLocked(channelID)
	return th != nil && th.kind != 0 && th.locked
}

// rejectLocked refuses a post, edit or reaction in a locked thread as
// Discord does (the bot has no Manage Threads). Like rejectArchived it is
// Discord's answer, not a failure of the test.
func (c *call) rejectLocked(channelID, what string) bool {
	if !c.s.lockedLocked(channelID) {
		return false
	}
	c.s.lockedRefusals++
	c.refuse(http.StatusBadRequest, 50083, "Thread is archived", fmt.Sprintf("%s in locked thread %s", what, channelID))
	return true
}

// rejectArchived refuses what an archived thread does not allow. A bot
// cannot always know a thread archived (after a restart nothing said so),
// so the refusal is Discord's answer to a correct bot too, not a failure;
// ArchivedRefusals counts them.
func (c *call) rejectArchived(channelID, what string) bool {
	if c.rejectLocked(channelID, what) {
		return true
	}
	th := c.s.channelLocked(channelID)
	if !c.s.archivedLocked(th) {
		return false
	}
	c.s.archivedRefusals++
	c.refuse(http.StatusBadRequest, 50083, "Thread is archived",
		fmt.Sprintf("%s in thread %s, idle since %s", what, channelID, th.activeAt.Format(time.RFC3339)))
	return true
}

// editChannel serves PATCH /channels/{channel}, for threads only: the bot
// has no Manage Channels on text channels. It may archive or unarchive a
// thread it may post in (an unlocked one).
func (s *Server) editChannel(c *call) {
	ch := c.channel()
	if ch == nil {
		return
	}
	if ch.kind == 0 {
		c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "the bot may not edit text channel "+ch.id)
		return
	}
	var p struct {
		Archived            *bool `json:"archived"`
		AutoArchiveDuration *int  `json:"auto_archive_duration"`
	}
	if !c.decode(&p) {
		return
	}
	if s.postingDeniedLocked(ch.id) {
		c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "DenyPosting: the bot may not unarchive "+ch.id)
		return
	}
	if ch.locked && p.Archived != nil {
		// Only Manage Threads may (un)archive a locked thread.
		s.lockedRefusals++
		c.refuse(http.StatusForbidden, 50013, "Missing Permissions", "LockThread: the bot may not unarchive locked thread "+ch.id)
		return
	}
	if d := p.AutoArchiveDuration; d != nil {
		if !slices.Contains([]int{60, 1440, 4320, 10080}, *d) {
			var errs formErrors
			errs.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
			c.invalid(errs)
			return
		}
		ch.autoArchive = *d
	}
	if p.Archived != nil {
		if *p.Archived {
			ch.archived = true
		} else {
			s.touchLocked(ch.id)
		}
	}
	c.ok(s.channelObjectLocked(ch))
}
