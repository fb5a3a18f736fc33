package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/store"
)

// reply is a handler's answer to an interaction. Handlers return it rather
// than sending it, so every path answers exactly once.
type reply struct {
	kind      discordgo.InteractionResponseType
	ephemeral bool
	msg       msg
	modal     *discordgo.InteractionResponseData
	held      *heldHand // the answer shows this hand; its token is kept only if Discord takes it
}

// heldHand names the seat whose hand an answer shows.
type heldHand struct {
	channel, game, token string
	seat                 int
}

// after is what follows an answered interaction, run in the channel's
// output lane; answered says whether Discord accepted the answer.
type after func(answered bool)

// tell answers with a short sentence only the user sees: every refusal.
func tell(format string, args ...any) reply {
	return reply{kind: discordgo.InteractionResponseChannelMessageWithSource, ephemeral: true, msg: textMsg(format, args...)}
}

// private answers with a message only the user sees.
func private(m msg) reply {
	return reply{kind: discordgo.InteractionResponseChannelMessageWithSource, ephemeral: true, msg: m}
}

// update replaces the message whose component was used.
func update(m msg) reply {
	return reply{kind: discordgo.InteractionResponseUpdateMessage, msg: m}
}

// hand marks the answer as showing seat's hand.
func (r reply) hand(rec *store.Game, seat int, i *discordgo.Interaction) reply {
	r.held = &heldHand{channel: rec.Channel, game: rec.ID, token: i.Token, seat: seat}
	return r
}

func (r reply) response() *discordgo.InteractionResponse {
	if r.modal != nil {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: r.modal}
	}
	return &discordgo.InteractionResponse{Type: r.kind, Data: r.msg.data(r.ephemeral)}
}

// answerWindow is how long an answer may be retried: Discord drops an
// interaction not answered within three seconds of its creation.
const answerWindow = 2500 * time.Millisecond

// respond sends an answer, retrying a 5xx, a network error or a 429 that
// outlasted the request's own tries while Discord's window is open: an
// unanswered click fails in the user's face. An answer Discord reports as
// already given counts as given: the first attempt got through and only its
// reply was lost. alone: an update went to the clicker alone instead, its
// message being gone (forClickerAlone).
func (b *Bot) respond(i *discordgo.Interaction, r reply, received time.Time) (answered, alone bool) {
	deadline := received.Add(answerWindow)
	for attempt := 0; ; attempt++ {
		err := b.answer(i, r.response(), received)
		if err == nil || alreadyAnswered(err) {
			return true, alone
		}
		if r.kind == discordgo.InteractionResponseUpdateMessage && messageGone(err) {
			// The clicked message was deleted while the click was on its
			// way (a moderator, or a table replaced meanwhile): there is
			// nothing to update, and the interaction is still unanswered.
			b.goneClicked(i)
			r, alone = r.forClickerAlone(), true
			continue
		}
		wait := time.Duration(attempt+1) * 100 * time.Millisecond
		var rest *discordgo.RESTError
		if limited(err) && errors.As(err, &rest) {
			wait = max(wait, retryAfter(rest.Response, rest.ResponseBody)) // never sooner than Discord asks
		}
		if !(retryable(err) || limited(err)) || time.Now().Add(wait).After(deadline) {
			b.log.Warn("answer interaction", "type", i.Type.String(), "attempts", attempt+1, "err", err)
			return false, alone
		}
		time.Sleep(wait)
	}
}

// goneClicked notes that the clicked message is gone: a table there is
// posted anew rather than edited, which would be a 404 again.
func (b *Bot) goneClicked(i *discordgo.Interaction) {
	if i.Message != nil {
		b.dead.take(i.Message.ID)
	}
}

// goneNote heads an update shown to the clicker alone (forClickerAlone).
const goneNote = "*The message you clicked was deleted. Here is what your click made of it, for you alone:*"

// forClickerAlone turns an update of the clicked message into a message
// only the clicker sees, with the same content and buttons.
func (r reply) forClickerAlone() reply {
	r.kind, r.ephemeral = discordgo.InteractionResponseChannelMessageWithSource, true
	if utf8.RuneCountInString(r.msg.content)+1+utf8.RuneCountInString(goneNote) <= maxContent {
		r.msg.content = strings.TrimSuffix(goneNote+"\n"+r.msg.content, "\n")
	}
	return r
}

// messageGone is Discord's 404 Unknown Message: the message a request
// names was deleted. (A 404 Unknown Interaction is not: that token is dead.)
func messageGone(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound &&
		rest.Message != nil && rest.Message.Code == discordgo.ErrCodeUnknownMessage
}

// retryable: Discord's own trouble (5xx) or the network's, not a refusal.
func retryable(err error) bool {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		return rest.Response.StatusCode >= 500
	}
	if errors.Is(err, errRevoked) {
		return false // refused here, before any request: trying again changes nothing
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, discordgo.ErrJSONUnmarshal)
}

// limited is a 429.
func limited(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusTooManyRequests
}

// alreadyAnswered is Discord's "Interaction has already been acknowledged".
func alreadyAnswered(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusBadRequest &&
		rest.Message != nil && rest.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged
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
	if err := b.editOriginal(context.Background(), i.AppID, i.Token, textMsg("%s", text).webhookEdit()); err != nil {
		b.log.Warn("amend answer", "err", err)
	}
}
