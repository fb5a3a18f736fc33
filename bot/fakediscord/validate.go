package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

const (
	flagSuppressEmbeds        = int(discordgo.MessageFlagsSuppressEmbeds)
	flagEphemeral             = int(discordgo.MessageFlagsEphemeral)
	flagSuppressNotifications = int(discordgo.MessageFlagsSuppressNotifications)
	flagComponentsV2          = int(discordgo.MessageFlagsIsComponentsV2)

	channelFlags     = flagSuppressEmbeds | flagSuppressNotifications
	interactionFlags = channelFlags | flagEphemeral
	anyFlags         = -1 // edits: Discord ignores flags it does not let you change
)

// formError is one entry of a 50035 "Invalid Form Body" error.
type formError struct{ path, code, message string }

type formErrors []formError

func (e *formErrors) add(path, code, format string, args ...any) {
	*e = append(*e, formError{path, code, fmt.Sprintf(format, args...)})
}

// body nests the errors by path the way Discord reports them:
// {"content": {"_errors": [{"code": ..., "message": ...}]}}.
func (e formErrors) body() map[string]any {
	root := map[string]any{}
	for _, fe := range e {
		node := root
		if fe.path != "" {
			for _, k := range strings.Split(fe.path, ".") {
				child, ok := node[k].(map[string]any)
				if !ok {
					child = map[string]any{}
					node[k] = child
				}
				node = child
			}
		}
		errs, _ := node["_errors"].([]any)
		node["_errors"] = append(errs, map[string]string{"code": fe.code, "message": fe.message})
	}
	return root
}

func (e formErrors) String() string {
	parts := make([]string, len(e))
	for i, fe := range e {
		parts[i] = fe.path + ": " + fe.message + " [" + fe.code + "]"
	}
	return strings.Join(parts, "; ")
}

// at joins a path's keys (strings and ints) with dots. The checks join the
// paths of a payload's parts (each row, each component) whether or not
// anything is wrong, so it does so without fmt.
func at(prefix string, keys ...any) string {
	var buf [64]byte
	b := append(buf[:0], prefix...)
	for i, k := range keys {
		if i > 0 || prefix != "" {
			b = append(b, '.')
		}
		switch k := k.(type) {
		case string:
			b = append(b, k...)
		case int:
			b = strconv.AppendInt(b, int64(k), 10)
		default:
			panic("fakediscord: a path key must be a string or an int")
		}
	}
	return string(b)
}

// fieldPath is a path at would join, joined only once an error names it:
// the checks of a valid payload, the usual one, name none.
type fieldPath struct {
	prefix string
	keys   []any
}

func field(prefix string, keys ...any) fieldPath { return fieldPath{prefix, keys} }

func (f fieldPath) String() string { return at(f.prefix, f.keys...) }

func runes(s string) int { return utf8.RuneCountInString(s) }

func (e *formErrors) maxLen(path fieldPath, s string, max int) {
	if runes(s) > max {
		e.add(path.String(), "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", max)
	}
}

func (e *formErrors) lenBetween(path fieldPath, s string, min, max int) {
	if n := runes(s); n < min || n > max {
		if n == 0 {
			e.add(path.String(), "BASE_TYPE_REQUIRED", "This field is required")
			return
		}
		e.add(path.String(), "BASE_TYPE_BAD_LENGTH", "Must be between %d and %d in length.", min, max)
	}
}

// between records Discord's answer to a number outside [min, max].
func (e *formErrors) between(path fieldPath, v, min, max int) {
	if v < min || v > max {
		e.add(path.String(), "NUMBER_TYPE_MAX", "Must be between %d and %d.", min, max)
	}
}

func (e *formErrors) unsupported(path, what string) {
	e.add(path, "FAKEDISCORD_UNSUPPORTED", "fakediscord does not model %s", what)
}

// messageParams is a message payload: create, edit, interaction callback data
// or webhook execution.
type messageParams struct {
	Content          string                            `json:"content"`
	Embeds           []*discordgo.MessageEmbed         `json:"embeds"`
	Components       []*component                      `json:"components"`
	Flags            int                               `json:"flags"`
	AllowedMentions  *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	TTS              bool                              `json:"tts"`
	MessageReference *struct {
		MessageID       string `json:"message_id"`
		FailIfNotExists *bool  `json:"fail_if_not_exists"`
	} `json:"message_reference"`
	Attachments []struct {
		ID any `json:"id"`
	} `json:"attachments"`
	Poll  json.RawMessage `json:"poll"`
	Nonce json.RawMessage `json:"nonce"`
	// EnforceNonce: create nothing if a message with this nonce was created
	// moments ago (channel message creates only).
	EnforceNonce bool     `json:"enforce_nonce"`
	StickerIDs   []string `json:"sticker_ids"`
	ThreadName   string   `json:"thread_name"`

	has payloadKeys // the keys an edit replaces present in the payload, even as null
}

// payloadKeys is a set of the message payload keys whose presence an edit
// tells apart from their absence.
type payloadKeys uint8

const (
	keyContent payloadKeys = 1 << iota
	keyEmbeds
	keyComponents
	keyAttachments
	keyFlags
)

var payloadKeyByName = map[string]payloadKeys{
	"content": keyContent, "embeds": keyEmbeds, "components": keyComponents, "attachments": keyAttachments, "flags": keyFlags,
}

func parseMessage(raw []byte) (*messageParams, error) {
	if p, ok := decodeMessage(raw); ok {
		return p, nil
	}
	p := &messageParams{}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	p.has = topLevelKeys(raw)
	return p, nil
}

// topLevelKeys finds the payload keys among the names of the object in raw,
// JSON that Unmarshal accepted: a scan of the bytes rather than a second
// decode, into a map of every value.
func topLevelKeys(raw []byte) payloadKeys {
	var has payloadKeys
	depth, atName := 0, false
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{':
			depth++
			atName = depth == 1
		case '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			atName = depth == 1
		case '"':
			start := i
			for i++; raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if atName {
				has |= payloadKeyOf(raw[start : i+1])
				atName = false
			}
		}
	}
	return has
}

// payloadKeyOf is the payload key a quoted object name stands for, if any.
func payloadKeyOf(quoted []byte) payloadKeys {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return payloadKeyByName[string(quoted[1:len(quoted)-1])]
	}
	var name string
	json.Unmarshal(quoted, &name) // valid: Unmarshal accepted the object
	return payloadKeyByName[name]
}

// checkMessage validates a message payload against Discord's limits.
func checkMessage(p *messageParams, prefix string, allowedFlags int, errs *formErrors) {
	errs.maxLen(field(prefix, "content"), p.Content, 2000)
	checkEmbeds(p.Embeds, at(prefix, "embeds"), errs)
	if p.Flags&flagComponentsV2 != 0 {
		errs.unsupported(at(prefix, "flags"), "components v2 (IS_COMPONENTS_V2)")
	} else {
		checkComponents(p.Components, at(prefix, "components"), errs)
	}
	if allowedFlags != anyFlags && p.Flags&^allowedFlags != 0 {
		errs.add(at(prefix, "flags"), "MESSAGE_FLAGS_INVALID", "Invalid flags %d: only %d may be set here", p.Flags, allowedFlags)
	}
	if p.AllowedMentions != nil {
		checkAllowedMentions(p.AllowedMentions, at(prefix, "allowed_mentions"), errs)
	}
	if len(p.Poll) > 0 && string(p.Poll) != "null" {
		errs.unsupported(at(prefix, "poll"), "polls")
	}
	if len(p.StickerIDs) > 0 {
		errs.unsupported(at(prefix, "sticker_ids"), "stickers")
	}
	if p.ThreadName != "" {
		errs.unsupported(at(prefix, "thread_name"), "threads")
	}
}

func checkEmbeds(embeds []*discordgo.MessageEmbed, prefix string, errs *formErrors) {
	if len(embeds) > 10 {
		errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
	}
	total := 0
	// Discord trims leading and trailing whitespace before it measures an
	// embed's texts: a field named " " has no name.
	trim := strings.TrimSpace
	for i, e := range embeds {
		p := at(prefix, i)
		if e == nil {
			errs.add(p, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		title, desc := trim(e.Title), trim(e.Description)
		errs.maxLen(field(p, "title"), title, 256)
		errs.maxLen(field(p, "description"), desc, 4096)
		total += runes(title) + runes(desc)
		if len(e.Fields) > 25 {
			errs.add(at(p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		for j, f := range e.Fields {
			if f == nil {
				errs.add(at(p, "fields", j), "BASE_TYPE_REQUIRED", "This field is required")
				continue
			}
			name, value := trim(f.Name), trim(f.Value)
			errs.lenBetween(field(p, "fields", j, "name"), name, 1, 256)
			errs.lenBetween(field(p, "fields", j, "value"), value, 1, 1024)
			total += runes(name) + runes(value)
		}
		if e.Footer != nil {
			text := trim(e.Footer.Text)
			errs.lenBetween(field(p, "footer", "text"), text, 1, 2048)
			checkURL(field(p, "footer", "icon_url"), e.Footer.IconURL, true, errs)
			total += runes(text)
		}
		if e.Author != nil {
			name := trim(e.Author.Name)
			errs.lenBetween(field(p, "author", "name"), name, 1, 256)
			checkURL(field(p, "author", "url"), e.Author.URL, false, errs)
			checkURL(field(p, "author", "icon_url"), e.Author.IconURL, true, errs)
			total += runes(name)
		}
		checkURL(field(p, "url"), e.URL, false, errs)
		if e.Image != nil {
			checkURL(field(p, "image", "url"), e.Image.URL, true, errs)
		}
		if e.Thumbnail != nil {
			checkURL(field(p, "thumbnail", "url"), e.Thumbnail.URL, true, errs)
		}
		checkTimestamp(field(p, "timestamp"), e.Timestamp, errs)
		if e.Color < 0 || e.Color > 0xFFFFFF {
			errs.add(at(p, "color"), "NUMBER_TYPE_MAX", "int value should be less than or equal to 16777215.")
		}
	}
	if total > 6000 {
		errs.add(prefix, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
	}
}

// checkURL checks an optional URL's scheme; media may also be attachment://.
func checkURL(path fieldPath, raw string, media bool, errs *formErrors) {
	if raw == "" {
		return
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		errs.add(path.String(), "URL_TYPE_INVALID_URL", "Not a well formed URL.")
		return
	}
	if u.Scheme != "http" && u.Scheme != "https" && !(media && u.Scheme == "attachment") {
		errs.add(path.String(), "URL_TYPE_INVALID_SCHEME", "Scheme %q is not supported. Scheme must be one of ('http', 'https').", u.Scheme)
	}
}

func checkAllowedMentions(am *discordgo.MessageAllowedMentions, prefix string, errs *formErrors) {
	for i, t := range am.Parse {
		if t != discordgo.AllowedMentionTypeUsers && t != discordgo.AllowedMentionTypeRoles && t != discordgo.AllowedMentionTypeEveryone {
			errs.add(at(prefix, "parse", i), "BASE_TYPE_CHOICES", "Value must be one of ('roles', 'users', 'everyone').")
		}
	}
	if slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) && len(am.Users) > 0 {
		errs.add(prefix, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["users"] and users: [ids] are mutually exclusive.`)
	}
	if slices.Contains(am.Parse, discordgo.AllowedMentionTypeRoles) && len(am.Roles) > 0 {
		errs.add(prefix, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["roles"] and roles: [ids] are mutually exclusive.`)
	}
	// Each list is a set of at most 100 snowflakes.
	unique := func(field string, list []string) {
		if len(list) > 100 {
			errs.add(at(prefix, field), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
		}
		for i, v := range list {
			if slices.Contains(list[:i], v) {
				errs.add(at(prefix, field), "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains the value %s.", v)
			}
		}
	}
	parse := make([]string, len(am.Parse))
	for i, t := range am.Parse {
		parse[i] = string(t)
	}
	unique("parse", parse)
	unique("users", am.Users)
	unique("roles", am.Roles)
}

// checkTimestamp checks an embed's ISO8601 timestamp.
func checkTimestamp(path fieldPath, ts string, errs *formErrors) {
	if ts == "" {
		return
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if _, err := time.Parse(layout, ts); err == nil {
			return
		}
	}
	errs.add(path.String(), "DATE_TIME_TYPE_PARSE", "Could not parse %s. Should be ISO8601.", ts)
}

// checkComponents validates a message's action rows.
func checkComponents(rows []*component, prefix string, errs *formErrors) {
	if len(rows) > 5 {
		errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
	}
	// Sized once: growing it step by step cost more than the rest of the
	// checks together.
	n := 0
	for _, row := range rows {
		if row != nil {
			n += len(row.Components)
		}
	}
	ids := make(map[string]bool, n)
	var numbered []int // the optional numeric ids set so far
	for i, row := range rows {
		p := at(prefix, i)
		if row == nil || row.Type != discordgo.ActionsRowComponent {
			errs.add(at(p, "type"), "COMPONENT_TYPE_INVALID", "Top-level components must be action rows (type 1) without IS_COMPONENTS_V2")
			continue
		}
		checkComponentID(row.ID, p, &numbered, errs)
		if len(row.Components) == 0 {
			errs.add(at(p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		buttons := 0
		for j, c := range row.Components {
			cp := at(p, "components", j)
			if c == nil {
				errs.add(cp, "BASE_TYPE_REQUIRED", "This field is required")
				continue
			}
			checkComponentID(c.ID, cp, &numbered, errs)
			switch {
			case c.Type == discordgo.ButtonComponent:
				buttons++
				checkButton(c, cp, errs)
			case c.Type == discordgo.SelectMenuComponent:
				if len(row.Components) > 1 {
					errs.add(at(p, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
				}
				checkSelect(c, cp, errs)
			case c.Type >= discordgo.UserSelectMenuComponent && c.Type <= discordgo.ChannelSelectMenuComponent:
				errs.unsupported(at(cp, "type"), "user, role, mentionable and channel selects")
			default:
				errs.add(at(cp, "type"), "COMPONENT_TYPE_INVALID", "Component type %d is not valid in a message action row", c.Type)
			}
			if c.CustomID != "" {
				if ids[c.CustomID] {
					errs.add(at(cp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
				}
				ids[c.CustomID] = true
			}
		}
		if buttons > 5 {
			errs.add(at(p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
	}
}

func checkButton(c *component, p string, errs *formErrors) {
	switch {
	case c.Style < 1 || c.Style > 6:
		errs.add(at(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	case c.Style == int(discordgo.PremiumButton):
		errs.unsupported(at(p, "style"), "premium buttons")
	case c.Style == int(discordgo.LinkButton):
		if c.URL == "" {
			errs.add(at(p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
		} else {
			errs.maxLen(field(p, "url"), c.URL, 512)
			checkURL(field(p, "url"), c.URL, false, errs)
		}
		if c.CustomID != "" {
			errs.add(at(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A custom id cannot be set on link buttons")
		}
	default:
		errs.lenBetween(field(p, "custom_id"), c.CustomID, 1, 100)
		if c.URL != "" {
			errs.add(at(p, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "A url can only be set on link buttons")
		}
	}
	errs.maxLen(field(p, "label"), c.Label, 80)
	if c.Label == "" && c.Emoji == nil {
		errs.add(p, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
	}
	checkComponentEmoji(c.Emoji, p, errs)
}

// checkComponentID checks a component's optional numeric id: a 32-bit
// integer that Discord requires to be unique within the message or modal,
// since it numbers the components without one around those that have one.
func checkComponentID(id int, p string, seen *[]int, errs *formErrors) {
	if id == 0 {
		return
	}
	if id < 0 || id > math.MaxInt32 {
		errs.add(at(p, "id"), "NUMBER_TYPE_MAX", "Must be between 1 and %d.", math.MaxInt32)
	}
	if slices.Contains(*seen, id) {
		errs.add(at(p, "id"), "COMPONENT_ID_DUPLICATED", "Component id %d is already used in this message", id)
	}
	*seen = append(*seen, id)
}

// checkComponentEmoji checks the emoji of the component or option at p.
func checkComponentEmoji(e *discordgo.ComponentEmoji, p string, errs *formErrors) {
	if e != nil && e.ID == "" && !isEmoji(e.Name) {
		errs.add(at(p, "emoji", "name"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")
	}
}

func checkSelect(c *component, p string, errs *formErrors) {
	errs.lenBetween(field(p, "custom_id"), c.CustomID, 1, 100)
	errs.maxLen(field(p, "placeholder"), c.Placeholder, 150)
	n := len(c.Options)
	if n < 1 || n > 25 {
		errs.add(at(p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
	}
	min, max := 1, 1
	if c.MinValues != nil {
		min = *c.MinValues
	}
	if c.MaxValues != nil {
		max = *c.MaxValues
	}
	errs.between(field(p, "min_values"), min, 0, 25)
	errs.between(field(p, "max_values"), max, 1, 25)
	if min > max {
		errs.add(at(p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be less than or equal to max_values")
	}
	if n > 0 && max > n {
		errs.add(at(p, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE", "max_values must be less than or equal to the number of options")
	}
	values := map[string]bool{}
	defaults := 0
	for i, o := range c.Options {
		op := at(p, "options", i)
		errs.lenBetween(field(op, "label"), o.Label, 1, 100)
		errs.lenBetween(field(op, "value"), o.Value, 1, 100)
		errs.maxLen(field(op, "description"), o.Description, 100)
		checkComponentEmoji(o.Emoji, op, errs)
		if values[o.Value] {
			errs.add(at(op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select option values must be unique")
		}
		values[o.Value] = true
		if o.Default {
			defaults++
		}
	}
	if defaults > max {
		errs.add(at(p, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULTS", "More options are marked default than max_values allows")
	}
}

// modalParams is the data of a MODAL interaction callback.
type modalParams struct {
	CustomID   string       `json:"custom_id"`
	Title      string       `json:"title"`
	Components []*component `json:"components"`
}

func checkModal(m *modalParams, prefix string, errs *formErrors) {
	errs.lenBetween(field(prefix, "title"), m.Title, 1, 45)
	errs.lenBetween(field(prefix, "custom_id"), m.CustomID, 1, 100)
	if n := len(m.Components); n < 1 || n > 5 {
		errs.add(at(prefix, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	ids := map[string]bool{}
	var numbered []int
	for i, row := range m.Components {
		p := at(prefix, "components", i)
		if row == nil || row.Type != discordgo.ActionsRowComponent {
			errs.unsupported(at(p, "type"), "modal components other than action rows of text inputs")
			continue
		}
		checkComponentID(row.ID, p, &numbered, errs)
		if len(row.Components) != 1 {
			errs.add(at(p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1 in length.")
		}
		for j, c := range row.Components {
			cp := at(p, "components", j)
			if c == nil || c.Type != discordgo.TextInputComponent {
				errs.add(at(cp, "type"), "COMPONENT_TYPE_INVALID", "Modal action rows may only hold a text input")
				continue
			}
			checkComponentID(c.ID, cp, &numbered, errs)
			checkTextInput(c, cp, errs)
			if ids[c.CustomID] {
				errs.add(at(cp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
			}
			ids[c.CustomID] = true
		}
	}
}

func checkTextInput(c *component, p string, errs *formErrors) {
	if c.Style != int(discordgo.TextInputShort) && c.Style != int(discordgo.TextInputParagraph) {
		errs.add(at(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
	}
	errs.lenBetween(field(p, "custom_id"), c.CustomID, 1, 100)
	errs.lenBetween(field(p, "label"), c.Label, 1, 45)
	min, max := textLimits(c)
	errs.between(field(p, "min_length"), min, 0, 4000)
	errs.between(field(p, "max_length"), max, 1, 4000)
	if min > max {
		errs.add(at(p, "min_length"), "TEXT_INPUT_MIN_LENGTH_TOO_LARGE", "min_length must be less than or equal to max_length")
	}
	errs.maxLen(field(p, "value"), c.Value, 4000)
	errs.maxLen(field(p, "placeholder"), c.Placeholder, 100)
}

// textLimits returns a text input's length bounds with Discord's defaults.
func textLimits(c *component) (min, max int) {
	min, max = 0, 4000
	if c.MinLength != nil {
		min = *c.MinLength
	}
	if c.MaxLength != nil {
		max = *c.MaxLength
	}
	return min, max
}

// isEmoji tells whether s looks like one unicode emoji (possibly a ZWJ
// sequence, keycap or flag); Discord answers 10014 Unknown Emoji otherwise.
func isEmoji(s string) bool {
	pictograph, keycap := false, false
	for _, r := range s {
		switch {
		case r == 0x200D || r == 0xFE0F || r == 0xFE0E: // joiner, variation selectors
		case r == 0x20E3:
			keycap = true
		case r >= 0x1F3FB && r <= 0x1F3FF: // skin tones
		case r >= 0xE0020 && r <= 0xE007F: // tag sequences
		case r >= '0' && r <= '9' || r == '#' || r == '*': // keycap bases
		case unicode.In(r, unicode.So, unicode.Sm) || slices.Contains([]rune{0x203C, 0x2049, 0x2139, 0x3030, 0x303D}, r):
			pictograph = true
		default:
			return false
		}
	}
	return pictograph || keycap
}

// checkNonce validates a message create's nonce, an integer (int64) or a
// string of at most 25 characters, and returns it as a string ("" if none).
func checkNonce(raw json.RawMessage, path string, errs *formErrors) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		errs.maxLen(field(path), str, 25)
		return str
	}
	var num json.Number
	if json.Unmarshal(raw, &num) == nil {
		if _, err := strconv.ParseInt(num.String(), 10, 64); err != nil {
			errs.add(path, "NUMBER_TYPE_COERCE", "Value \"%s\" is not int.", num)
			return ""
		}
		return num.String()
	}
	errs.add(path, "BASE_TYPE_INVALID", "Must be an integer or a string.")
	return ""
}
