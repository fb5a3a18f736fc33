package bot

import (
	"encoding/json"
	_ "unsafe" // go:linkname, to reach discordgo's event table

	"github.com/bwmarrin/discordgo"
)

// discordgo decodes each gateway event into the type its table names. For
// INTERACTION_CREATE that is the whole clicked message, its components
// decoded one by one twice over: under load, a tenth of the bot's CPU went
// there, and the bot never reads a clicked message's components. The table
// is not exported, so it is reached by name; a discordgo that renames it
// fails to link, loudly.
//
//go:linkname eventTypes github.com/bwmarrin/discordgo.registeredInterfaceProviders
var eventTypes map[string]discordgo.EventInterfaceProvider

// Installed before any session can read the table, which is never written
// again.
func init() { eventTypes[interactionEventType] = interactionEvents{} }

const interactionEventType = "INTERACTION_CREATE"

type interactionEvents struct{}

func (interactionEvents) Type() string { return interactionEventType }
func (interactionEvents) New() any     { return new(interactionEvent) }

// interactionEvent is INTERACTION_CREATE as the bot reads it: a click is
// decoded into the fields the bot reads (wireClick), the rest passed over.
// Other interactions, which are few, are left nil here and decoded as
// discordgo decodes them by decoded.
type interactionEvent struct {
	*discordgo.Interaction
}

// decoded is the event's interaction, raw being the event's data.
func (e *interactionEvent) decoded(raw []byte) (*discordgo.Interaction, error) {
	if e.Interaction != nil {
		return e.Interaction, nil
	}
	it := new(discordgo.Interaction)
	if err := json.Unmarshal(raw, it); err != nil {
		return nil, err
	}
	return it, nil
}

// wireClick is what the bot reads of a click. A field the bot starts to
// read must be added here: everything else stays zero.
type wireClick struct {
	ID             string                                    `json:"id"`
	AppID          string                                    `json:"application_id"`
	Type           discordgo.InteractionType                 `json:"type"`
	Data           discordgo.MessageComponentInteractionData `json:"data"`
	GuildID        string                                    `json:"guild_id"`
	ChannelID      string                                    `json:"channel_id"`
	Member         *wireMember                               `json:"member"`
	User           *wireUser                                 `json:"user"`
	Token          string                                    `json:"token"`
	AppPermissions int64                                     `json:"app_permissions,string"`
	Message        *wireMessage                              `json:"message"`
}

type wireMessage struct {
	ID        string                 `json:"id"`
	ChannelID string                 `json:"channel_id"`
	Flags     discordgo.MessageFlags `json:"flags"`
}

type wireMember struct {
	User        *wireUser `json:"user"`
	Nick        string    `json:"nick"`
	Permissions int64     `json:"permissions,string"`
}

type wireUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

func (u *wireUser) user() *discordgo.User {
	if u == nil {
		return nil
	}
	return &discordgo.User{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName}
}

// UnmarshalJSON is for Go before 1.27; later, encoding/json calls
// UnmarshalJSONFrom (clicks_go127.go).
func (e *interactionEvent) UnmarshalJSON(raw []byte) error {
	var w wireClick
	if err := json.Unmarshal(raw, &w); err != nil {
		var kind struct {
			Type discordgo.InteractionType `json:"type"`
		}
		if json.Unmarshal(raw, &kind) == nil && kind.Type != discordgo.InteractionMessageComponent {
			return nil // not a click's shape (a command's data, say): decoded
		}
		return err
	}
	e.Interaction = w.interaction()
	return nil
}

// interaction is the click as discordgo's type, or nil if w is no click.
func (w *wireClick) interaction() *discordgo.Interaction {
	if w.Type != discordgo.InteractionMessageComponent {
		return nil
	}
	it := &discordgo.Interaction{
		ID: w.ID, AppID: w.AppID, Type: w.Type, Data: w.Data,
		GuildID: w.GuildID, ChannelID: w.ChannelID, User: w.User.user(),
		Token: w.Token, AppPermissions: w.AppPermissions,
	}
	if m := w.Member; m != nil {
		it.Member = &discordgo.Member{User: m.User.user(), Nick: m.Nick, Permissions: m.Permissions}
	}
	if m := w.Message; m != nil {
		it.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, Flags: m.Flags}
	}
	return it
}
