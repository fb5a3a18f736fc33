package fakediscord

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/cardtable/cardbot/bot/wirejson"
)

// The JSON of the payloads the fake sends on every move, written by hand:
// a message (REST responses, MESSAGE_CREATE and MESSAGE_UPDATE, and the
// message inside INTERACTION_CREATE) and INTERACTION_CREATE itself.
// encoding/json, walking the types by reflection, took three to four times
// as long (BenchmarkRenderMessage, BenchmarkInteractionJSON). The bytes
// are exactly json.Marshal's: encode_test.go compares the two on values
// with every field of every type set at random. What no move sends
// (reactions, threads, attachments, select options, emoji, nonces, other
// interaction data) still goes through json.Marshal.

// appendJSON appends v as json.Marshal writes it.
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, j...)
}

func appendString(b []byte, s string) []byte { return wirejson.String(b, s) }

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// appendStringPtr appends *p, or null.
func appendStringPtr(b []byte, p *string) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return appendString(b, *p)
}

func appendStrings(b []byte, list []string) []byte { return wirejson.List(b, list, appendString) }

// appendEmpties appends a list of empty objects, as []struct{} marshals.
func appendEmpties(b []byte, list []struct{}) []byte {
	return wirejson.List(b, list, func(b []byte, _ struct{}) []byte { return append(b, "{}"...) })
}

func appendKey(b []byte, key string) []byte { return wirejson.Key(b, key) }
func endObject(b []byte, start int) []byte  { return wirejson.EndObject(b, start) }

func appendUser(b []byte, u *wireUser) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, u.ID)
	b = append(b, `,"username":`...)
	b = appendString(b, u.Username)
	b = append(b, `,"global_name":`...)
	b = appendStringPtr(b, u.GlobalName)
	b = append(b, `,"discriminator":`...)
	b = appendString(b, u.Discriminator)
	b = append(b, `,"avatar":`...)
	b = appendStringPtr(b, u.Avatar)
	if u.Bot {
		b = append(b, `,"bot":true`...)
	}
	b = append(b, `,"public_flags":`...)
	b = appendInt(b, u.PublicFlags)
	return append(b, '}')
}

func appendMember(b []byte, m *wireMember) []byte {
	start := len(b)
	if m.User != nil {
		b = appendKey(b, "user")
		b = appendUser(b, m.User)
	}
	b = appendKey(b, "nick")
	b = appendStringPtr(b, m.Nick)
	b = append(b, `,"avatar":`...)
	b = appendStringPtr(b, m.Avatar)
	b = append(b, `,"roles":`...)
	b = appendStrings(b, m.Roles)
	b = append(b, `,"joined_at":`...)
	b = appendString(b, m.JoinedAt)
	b = append(b, `,"premium_since":`...)
	b = appendStringPtr(b, m.PremiumSince)
	b = append(b, `,"deaf":`...)
	b = appendBool(b, m.Deaf)
	b = append(b, `,"mute":`...)
	b = appendBool(b, m.Mute)
	b = append(b, `,"flags":`...)
	b = appendInt(b, m.Flags)
	b = append(b, `,"pending":`...)
	b = appendBool(b, m.Pending)
	b = wirejson.OmitString(b, "permissions", m.Permissions)
	return endObject(b, start)
}

func appendChannel(b []byte, c *wireChannel) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, c.ID)
	b = append(b, `,"type":`...)
	b = appendInt(b, c.Type)
	b = append(b, `,"guild_id":`...)
	b = appendString(b, c.GuildID)
	b = append(b, `,"name":`...)
	b = appendString(b, c.Name)
	b = append(b, `,"position":`...)
	b = appendInt(b, c.Position)
	b = append(b, `,"permission_overwrites":`...)
	b = appendEmpties(b, c.PermissionOverwrites)
	b = append(b, `,"nsfw":`...)
	b = appendBool(b, c.NSFW)
	b = append(b, `,"topic":`...)
	b = appendStringPtr(b, c.Topic)
	b = append(b, `,"last_message_id":`...)
	b = appendStringPtr(b, c.LastMessageID)
	b = append(b, `,"parent_id":`...)
	b = appendStringPtr(b, c.ParentID)
	b = append(b, `,"rate_limit_per_user":`...)
	b = appendInt(b, c.RateLimitPerUser)
	b = append(b, `,"flags":`...)
	b = appendInt(b, c.Flags)
	b = wirejson.OmitString(b, "permissions", c.Permissions)
	return append(b, '}')
}

func appendComponents(b []byte, cs []*component) []byte { return wirejson.List(b, cs, appendComponent) }

func appendComponent(b []byte, c *component) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"type":`...)
	b = appendInt(b, int(c.Type))
	b = wirejson.OmitInt(b, "id", c.ID)
	b = wirejson.OmitString(b, "custom_id", c.CustomID)
	b = wirejson.OmitInt(b, "style", c.Style)
	b = wirejson.OmitString(b, "label", c.Label)
	if c.Emoji != nil {
		b = append(b, `,"emoji":`...)
		b = appendJSON(b, c.Emoji)
	}
	b = wirejson.OmitString(b, "url", c.URL)
	b = wirejson.OmitString(b, "sku_id", c.SKUID)
	if c.Disabled {
		b = append(b, `,"disabled":true`...)
	}
	b = wirejson.OmitString(b, "placeholder", c.Placeholder)
	b = appendIntPtr(b, `,"min_values":`, c.MinValues)
	b = appendIntPtr(b, `,"max_values":`, c.MaxValues)
	if len(c.Options) > 0 {
		b = append(b, `,"options":`...)
		b = appendJSON(b, c.Options)
	}
	b = appendIntPtr(b, `,"min_length":`, c.MinLength)
	b = appendIntPtr(b, `,"max_length":`, c.MaxLength)
	if c.Required != nil {
		b = append(b, `,"required":`...)
		b = appendBool(b, *c.Required)
	}
	b = wirejson.OmitString(b, "value", c.Value)
	if len(c.Components) > 0 {
		b = append(b, `,"components":`...)
		b = appendComponents(b, c.Components)
	}
	return append(b, '}')
}

// appendIntPtr appends an omitempty *int member, key and all, if set.
func appendIntPtr(b []byte, key string, p *int) []byte {
	if p == nil {
		return b
	}
	b = append(b, key...)
	return appendInt(b, *p)
}

func appendIntegrationOwners(b []byte, o *wireIntegrationOwners) []byte {
	b = append(b, `{"0":`...)
	b = appendString(b, o.Guild)
	return append(b, '}')
}

func appendInteractionMeta(b []byte, m *wireInteractionMeta) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, m.ID)
	b = append(b, `,"type":`...)
	b = appendInt(b, m.Type)
	b = append(b, `,"user":`...)
	b = appendUser(b, &m.User)
	b = append(b, `,"authorizing_integration_owners":`...)
	b = appendIntegrationOwners(b, &m.AuthorizingIntegrationOwners)
	b = wirejson.OmitString(b, "interacted_message_id", m.InteractedMessageID)
	if m.TriggeringInteractionMeta != nil {
		b = append(b, `,"triggering_interaction_metadata":`...)
		b = appendInteractionMeta(b, m.TriggeringInteractionMeta)
	}
	return append(b, '}')
}

// appendMessage appends a message as json.Marshal(*w) writes it.
func appendMessage(b []byte, w *wireMessage) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, w.ID)
	b = append(b, `,"type":`...)
	b = appendInt(b, w.Type)
	b = append(b, `,"content":`...)
	b = appendString(b, w.Content)
	b = append(b, `,"channel_id":`...)
	b = appendString(b, w.ChannelID)
	b = append(b, `,"author":`...)
	b = appendUser(b, &w.Author)
	b = append(b, `,"attachments":`...)
	if len(w.Attachments) == 0 && w.Attachments != nil {
		b = append(b, "[]"...)
	} else {
		b = appendJSON(b, w.Attachments)
	}
	b = append(b, `,"embeds":`...)
	b = wirejson.Embeds(b, w.Embeds)
	b = append(b, `,"mentions":`...)
	if w.Mentions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range w.Mentions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendUser(b, &w.Mentions[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"mention_roles":`...)
	b = appendStrings(b, w.MentionRoles)
	b = append(b, `,"pinned":`...)
	b = appendBool(b, w.Pinned)
	b = append(b, `,"mention_everyone":`...)
	b = appendBool(b, w.MentionEveryone)
	b = append(b, `,"tts":`...)
	b = appendBool(b, w.TTS)
	b = append(b, `,"timestamp":`...)
	b = appendString(b, w.Timestamp)
	b = append(b, `,"edited_timestamp":`...)
	b = appendStringPtr(b, w.EditedTimestamp)
	b = append(b, `,"flags":`...)
	b = appendInt(b, w.Flags)
	b = append(b, `,"components":`...)
	b = appendComponents(b, w.Components)
	if len(w.Reactions) > 0 {
		b = append(b, `,"reactions":`...)
		b = appendJSON(b, w.Reactions)
	}
	b = wirejson.OmitString(b, "webhook_id", w.WebhookID)
	b = wirejson.OmitString(b, "application_id", w.ApplicationID)
	if r := w.MessageReference; r != nil {
		b = append(b, `,"message_reference":{"type":`...)
		b = appendInt(b, r.Type)
		b = wirejson.OmitString(b, "message_id", r.MessageID)
		b = append(b, `,"channel_id":`...)
		b = appendString(b, r.ChannelID)
		b = append(b, `,"guild_id":`...)
		b = appendString(b, r.GuildID)
		b = append(b, '}')
	}
	if w.InteractionMetadata != nil {
		b = append(b, `,"interaction_metadata":`...)
		b = appendInteractionMeta(b, w.InteractionMetadata)
	}
	if it := w.Interaction; it != nil {
		b = append(b, `,"interaction":{"id":`...)
		b = appendString(b, it.ID)
		b = append(b, `,"type":`...)
		b = appendInt(b, it.Type)
		b = append(b, `,"name":`...)
		b = appendString(b, it.Name)
		b = append(b, `,"user":`...)
		b = appendUser(b, &it.User)
		b = append(b, '}')
	}
	b = wirejson.OmitString(b, "guild_id", w.GuildID)
	if w.Member != nil {
		b = append(b, `,"member":`...)
		b = appendMember(b, w.Member)
	}
	if len(w.Nonce) > 0 {
		b = append(b, `,"nonce":`...)
		b = appendJSON(b, w.Nonce)
	}
	if w.Thread != nil {
		b = append(b, `,"thread":`...)
		b = appendJSON(b, w.Thread)
	}
	return append(b, '}')
}

// appendInteraction appends INTERACTION_CREATE's payload: w, then msg (a
// message's JSON, if not nil) as "message", then r.
func appendInteraction(b []byte, w *wireInteraction, msg []byte, r *wireInteractionRest) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, w.ID)
	b = append(b, `,"application_id":`...)
	b = appendString(b, w.ApplicationID)
	b = append(b, `,"type":`...)
	b = appendInt(b, w.Type)
	b = append(b, `,"data":`...)
	if d, ok := w.Data.(wireComponentData); ok {
		b = append(b, `{"custom_id":`...)
		b = appendString(b, d.CustomID)
		b = append(b, `,"component_type":`...)
		b = appendInt(b, d.ComponentType)
		if d.Values != nil {
			b = append(b, `,"values":`...)
			b = appendStrings(b, *d.Values)
		}
		b = append(b, '}')
	} else {
		b = appendJSON(b, w.Data)
	}
	b = append(b, `,"guild":{"features":`...)
	b = appendStrings(b, w.Guild.Features)
	b = append(b, `,"id":`...)
	b = appendString(b, w.Guild.ID)
	b = append(b, `,"locale":`...)
	b = appendString(b, w.Guild.Locale)
	b = append(b, `},"guild_id":`...)
	b = appendString(b, w.GuildID)
	b = append(b, `,"channel":`...)
	if c, ok := w.Channel.(wireChannel); ok {
		b = appendChannel(b, &c)
	} else {
		b = appendJSON(b, w.Channel)
	}
	b = append(b, `,"channel_id":`...)
	b = appendString(b, w.ChannelID)
	b = append(b, `,"member":`...)
	b = appendMember(b, &w.Member)
	b = append(b, `,"token":`...)
	b = appendString(b, w.Token)
	b = append(b, `,"version":`...)
	b = appendInt(b, w.Version)
	if msg != nil {
		b = append(b, `,"message":`...)
		b = append(b, msg...)
	}
	b = append(b, `,"app_permissions":`...)
	b = appendString(b, r.AppPermissions)
	b = append(b, `,"locale":`...)
	b = appendString(b, r.Locale)
	b = append(b, `,"guild_locale":`...)
	b = appendString(b, r.GuildLocale)
	b = append(b, `,"entitlements":`...)
	b = appendEmpties(b, r.Entitlements)
	b = append(b, `,"authorizing_integration_owners":`...)
	b = appendIntegrationOwners(b, &r.AuthorizingIntegrationOwners)
	b = append(b, `,"context":`...)
	b = appendInt(b, r.Context)
	b = append(b, `,"attachment_size_limit":`...)
	b = appendInt(b, r.AttachmentSizeLimit)
	return append(b, '}')
}

// timestampLayout is how Discord writes times.
const timestampLayout = "2006-01-02T15:04:05.000000+00:00"

// appendTimestamp appends t in UTC as t.UTC().AppendFormat(b,
// timestampLayout) does, without interpreting the layout every time.
func appendTimestamp(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, timestampLayout)
	}
	hour, min, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, min, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, t.Nanosecond()/1000, 6)
	return append(b, "+00:00"...)
}

// appendDigits appends n, 0 ≤ n < 10^width, zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	b = append(b, "000000"[:width]...)
	for i := len(b) - 1; n > 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return b
}
