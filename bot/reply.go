package bot

import (
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
)

// reply is a handler's answer to an interaction. Handlers return it rather
// than sending it, so every path answers exactly once.
type reply struct {
	kind      discordgo.InteractionResponseType
	ephemeral bool
	msg       msg
	modal     *discordgo.InteractionResponseData
}

// tell answers with a short sentence only the user sees: every refusal.
func tell(format string, args ...any) reply {
	return reply{kind: discordgo.InteractionResponseChannelMessageWithSource, ephemeral: true, msg: textMsg(format, args...)}
}

// private answers with a message only the user sees.
func private(m msg) reply {
	return reply{kind: discordgo.InteractionResponseChannelMessageWithSource, ephemeral: true, msg: m}
}

// public answers with a message in the channel.
func public(m msg) reply {
	return reply{kind: discordgo.InteractionResponseChannelMessageWithSource, msg: m}
}

// update replaces the message whose component was used.
func update(m msg) reply {
	return reply{kind: discordgo.InteractionResponseUpdateMessage, msg: m}
}

func (r reply) response() *discordgo.InteractionResponse {
	if r.modal != nil {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: r.modal}
	}
	return &discordgo.InteractionResponse{Type: r.kind, Data: r.msg.data(r.ephemeral)}
}

// oops is the answer when something on our side failed; the error is logged,
// never shown, and nothing was changed.
func (b *Bot) oops(err error) reply {
	b.log.Error("handling interaction", "err", err)
	return tell("Something went wrong on my side, so nothing was changed. Please try again in a moment.")
}

// refusalOr turns a game's refusal into its sentence and anything else into oops.
func (b *Bot) refusalOr(err error) reply {
	var r *games.Refusal
	if errors.As(err, &r) {
		return tell("%s", r.Msg)
	}
	return b.oops(fmt.Errorf("apply: %w", err))
}

// amend replaces the answer already given to an interaction, for output
// work that failed after the user was answered.
func (b *Bot) amend(i *discordgo.Interaction, text string) {
	if _, err := b.s.InteractionResponseEdit(i, textMsg("%s", text).webhookEdit()); err != nil {
		b.log.Warn("amend answer", "err", err)
	}
}
