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
// decoded into the fields the bot reads (wireClick), the rest passed over;
// other interactions, which are few, as discordgo decodes them.
type interactionEvent struct {
	*discordgo.Interaction
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
	Message        *struct {
		ID        string                 `json:"id"`
		ChannelID string                 `json:"channel_id"`
		Flags     discordgo.MessageFlags `json:"flags"`
	} `json:"message"`
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

func (e *interactionEvent) UnmarshalJSON(raw []byte) error {
	var kind struct {
		Type discordgo.InteractionType `json:"type"`
	}
	var w wireClick
	if err := json.Unmarshal(raw, &w); err != nil {
		// Not a click's shape (a command's data, say): decode it as discordgo does.
		if json.Unmarshal(raw, &kind) == nil && kind.Type != discordgo.InteractionMessageComponent {
			e.Interaction = new(discordgo.Interaction)
			return json.Unmarshal(raw, e.Interaction)
		}
		return err
	}
	if w.Type != discordgo.InteractionMessageComponent {
		e.Interaction = new(discordgo.Interaction)
		return json.Unmarshal(raw, e.Interaction)
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
	e.Interaction = it
	return nil
}
