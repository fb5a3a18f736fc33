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
// decoded without its message's Components (left nil); other
// interactions, which are few, as discordgo decodes them.
type interactionEvent struct {
	*discordgo.Interaction
}

type (
	interactionFields discordgo.Interaction // discordgo's fields without its decoder
	messageFields     discordgo.Message
)

type wireClick struct {
	interactionFields
	Data    json.RawMessage `json:"data"`
	Message *struct {
		messageFields
		Components skipped `json:"components"`
	} `json:"message"`
}

// skipped is a JSON value passed over unread.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

func (e *interactionEvent) UnmarshalJSON(raw []byte) error {
	var w wireClick
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	if w.Type != discordgo.InteractionMessageComponent {
		e.Interaction = new(discordgo.Interaction)
		return json.Unmarshal(raw, e.Interaction)
	}
	var data discordgo.MessageComponentInteractionData
	if err := json.Unmarshal(w.Data, &data); err != nil {
		return err
	}
	it := discordgo.Interaction(w.interactionFields)
	it.Data = data
	if w.Message != nil {
		m := discordgo.Message(w.Message.messageFields)
		it.Message = &m
	}
	e.Interaction = &it
	return nil
}
