package fakediscord

import (
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Option is an argument of a slash command invocation; build them with Sub,
// Group, Str, Int, Num, Bool and UserOpt.
type Option struct {
	name  string
	typ   discordgo.ApplicationCommandOptionType
	value any
	opts  []Option
}

// Sub selects a subcommand, with its options.
func Sub(name string, opts ...Option) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionSubCommand, opts: opts}
}

// Group selects a subcommand group; it must contain one Sub.
func Group(name string, opts ...Option) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionSubCommandGroup, opts: opts}
}

// Str fills a STRING option.
func Str(name, value string) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionString, value: value}
}

// Int fills an INTEGER (or NUMBER) option.
func Int(name string, value int) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionInteger, value: value}
}

// Num fills a NUMBER option.
func Num(name string, value float64) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionNumber, value: value}
}

// Bool fills a BOOLEAN option.
func Bool(name string, value bool) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionBoolean, value: value}
}

// UserOpt fills a USER (or MENTIONABLE) option with a guild member.
func UserOpt(name string, u *User) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionUser, value: u}
}

type wireCommandData struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Type     int           `json:"type"`
	GuildID  string        `json:"guild_id,omitempty"`
	Options  []wireOption  `json:"options,omitempty"`
	Resolved *wireResolved `json:"resolved,omitempty"`
	TargetID string        `json:"target_id,omitempty"` // context menu commands
}

type wireOption struct {
	Name    string                                 `json:"name"`
	Type    discordgo.ApplicationCommandOptionType `json:"type"`
	Value   any                                    `json:"value,omitempty"`
	Options []wireOption                           `json:"options,omitempty"`
}

type wireResolved struct {
	Users    map[string]wireUser    `json:"users,omitempty"`
	Members  map[string]wireMember  `json:"members,omitempty"`
	Messages map[string]wireMessage `json:"messages,omitempty"`
}

// findCommandLocked finds the CHAT_INPUT command a user can pick: guild
// commands shadow global ones of the same name in this lookup.
func (s *Server) findCommandLocked(guildID, name string) *discordgo.ApplicationCommand {
	return s.findTypedCommandLocked(guildID, discordgo.ChatApplicationCommand, name)
}

func (s *Server) findTypedCommandLocked(guildID string, t discordgo.ApplicationCommandType, name string) *discordgo.ApplicationCommand {
	for _, scope := range []string{guildID, ""} {
		for _, cmd := range s.commands[scope] {
			if cmd.Type == t && cmd.Name == name {
				return cmd
			}
		}
	}
	return nil
}

// commandOfferedLocked lists why the client would not offer a command to a
// user in a guild: default_member_permissions and contexts.
func (s *Server) commandOfferedLocked(u *User, cmd *discordgo.ApplicationCommand) []string {
	var problems []string
	if p := cmd.DefaultMemberPermissions; p != nil {
		perms := s.permissionsLocked(u)
		if perms&discordgo.PermissionAdministrator == 0 && (*p == 0 || perms&*p != *p) {
			problems = append(problems, fmt.Sprintf("%s needs permissions %d (default_member_permissions), which %s lacks: the client would not offer it", commandLabel(cmd), *p, u.Name))
		}
	}
	if cmd.Contexts != nil && !slices.Contains(*cmd.Contexts, discordgo.InteractionContextGuild) {
		problems = append(problems, fmt.Sprintf("%s is not available in guilds (contexts)", commandLabel(cmd)))
	}
	return problems
}

// commandLabel names a command as a user finds it.
func commandLabel(cmd *discordgo.ApplicationCommand) string {
	switch cmd.Type {
	case discordgo.MessageApplicationCommand:
		return fmt.Sprintf("message command %q", cmd.Name)
	case discordgo.UserApplicationCommand:
		return fmt.Sprintf("user command %q", cmd.Name)
	}
	return "/" + cmd.Name
}

// commandDataLocked checks an invocation the way the Discord client enforces
// it and builds the interaction data. Problems are test (or registration) bugs.
func (s *Server) commandDataLocked(g *guild, u *User, cmd *discordgo.ApplicationCommand, given []Option) (wireCommandData, string, []string) {
	problems := s.commandOfferedLocked(u, cmd)
	res := &wireResolved{Users: map[string]wireUser{}, Members: map[string]wireMember{}}
	opts, path, more := s.matchOptionsLocked(g, "/"+cmd.Name, cmd.Options, given, res)
	data := wireCommandData{ID: cmd.ID, Name: cmd.Name, Type: int(discordgo.ChatApplicationCommand), GuildID: cmd.GuildID, Options: opts}
	if len(res.Users) > 0 {
		data.Resolved = res
	}
	return data, path, append(problems, more...)
}

func (s *Server) matchOptionsLocked(gd *guild, path string, defs []*discordgo.ApplicationCommandOption, given []Option, res *wireResolved) ([]wireOption, string, []string) {
	if len(defs) > 0 && isNested(defs[0].Type) {
		if len(given) != 1 || !isNested(given[0].typ) {
			return nil, path, []string{fmt.Sprintf("%s needs exactly one subcommand or group, one of %s", path, optionNames(defs))}
		}
		g := given[0]
		def := findOption(defs, g.name)
		if def == nil || def.Type != g.typ {
			return nil, path, []string{fmt.Sprintf("%s has no %s %q (it has %s)", path, g.typ, g.name, optionNames(defs))}
		}
		sub, full, problems := s.matchOptionsLocked(gd, path+" "+g.name, def.Options, g.opts, res)
		return []wireOption{{Name: g.name, Type: g.typ, Options: sub}}, full, problems
	}
	var out []wireOption
	var problems []string
	seen := map[string]bool{}
	for _, g := range given {
		def := findOption(defs, g.name)
		switch {
		case def == nil:
			problems = append(problems, fmt.Sprintf("%s has no option %q (it has %s)", path, g.name, optionNames(defs)))
		case seen[g.name]:
			problems = append(problems, fmt.Sprintf("%s: option %q given twice", path, g.name))
		case !fits(def.Type, g.typ):
			problems = append(problems, fmt.Sprintf("%s: option %q is a %s, not a %s", path, g.name, def.Type, g.typ))
		default:
			if p := checkValue(def, g.value); p != "" {
				problems = append(problems, fmt.Sprintf("%s: option %q: %s", path, g.name, p))
			}
			value := g.value
			if u, ok := value.(*User); ok {
				value = u.ID
				res.Users[u.ID] = u.wire()
				res.Members[u.ID] = s.memberLocked(gd, u, false, true)
			}
			out = append(out, wireOption{Name: g.name, Type: def.Type, Value: value})
		}
		seen[g.name] = true
	}
	for _, d := range defs {
		if d.Required && !seen[d.Name] {
			problems = append(problems, fmt.Sprintf("%s: required option %q is missing", path, d.Name))
		}
	}
	return out, path, problems
}

func isNested(t discordgo.ApplicationCommandOptionType) bool {
	return t == discordgo.ApplicationCommandOptionSubCommand || t == discordgo.ApplicationCommandOptionSubCommandGroup
}

func findOption(defs []*discordgo.ApplicationCommandOption, name string) *discordgo.ApplicationCommandOption {
	for _, d := range defs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

func optionNames(defs []*discordgo.ApplicationCommandOption) string {
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	return "[" + strings.Join(names, " ") + "]"
}

// fits tells whether a value built by a helper can fill an option type.
func fits(def, given discordgo.ApplicationCommandOptionType) bool {
	switch def {
	case discordgo.ApplicationCommandOptionNumber:
		return given == discordgo.ApplicationCommandOptionNumber || given == discordgo.ApplicationCommandOptionInteger
	case discordgo.ApplicationCommandOptionMentionable:
		return given == discordgo.ApplicationCommandOptionUser
	}
	return def == given
}

// checkValue enforces what the client enforces: choices, ranges and lengths.
func checkValue(def *discordgo.ApplicationCommandOption, v any) string {
	var num float64
	switch x := v.(type) {
	case string:
		if n := runes(x); def.MinLength != nil && n < *def.MinLength || def.MaxLength > 0 && n > def.MaxLength {
			return fmt.Sprintf("length %d is outside the allowed range", n)
		}
		if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == x }) {
			return fmt.Sprintf("%q is not one of the declared choices", x)
		}
		return ""
	case int:
		num = float64(x)
	case float64:
		num = x
	default:
		return ""
	}
	if def.Type == discordgo.ApplicationCommandOptionInteger && math.Abs(num) > 1<<53-1 {
		return "integer out of range"
	}
	if def.MinValue != nil && num < *def.MinValue || def.MaxValue != 0 && num > def.MaxValue {
		return fmt.Sprintf("%v is outside the allowed range", num)
	}
	if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == num }) {
		return fmt.Sprintf("%v is not one of the declared choices", num)
	}
	return ""
}

// Registration.

var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// commandScope resolves {app} and {guild}; "" is the global scope.
func (c *call) commandScope() (string, bool) {
	if c.r.PathValue("app") != c.s.bot.ID {
		c.reject(http.StatusForbidden, 50001, "Missing Access", "application ID "+c.r.PathValue("app")+" is not the bot's ("+c.s.bot.ID+")")
		return "", false
	}
	if c.r.PathValue("guild") == "" {
		return "", true
	}
	g := c.guild()
	if g == nil {
		return "", false
	}
	return g.id, true
}

func (s *Server) listCommands(c *call) {
	if scope, ok := c.commandScope(); ok {
		c.ok(nonNil(s.commands[scope]))
	}
}

func (s *Server) overwriteCommands(c *call) {
	scope, ok := c.commandScope()
	if !ok {
		return
	}
	var cmds []*discordgo.ApplicationCommand
	if !c.decode(&cmds) {
		return
	}
	if s.registerLocked(c, scope, cmds) {
		c.ok(nonNil(s.commands[scope]))
	}
}

// createCommand upserts one command by type and name.
func (s *Server) createCommand(c *call) {
	scope, ok := c.commandScope()
	if !ok {
		return
	}
	var cmd *discordgo.ApplicationCommand
	if !c.decode(&cmd) {
		return
	}
	if cmd.Type == 0 {
		cmd.Type = discordgo.ChatApplicationCommand
	}
	cmds := slices.DeleteFunc(slices.Clone(s.commands[scope]), func(o *discordgo.ApplicationCommand) bool {
		return o.Type == cmd.Type && o.Name == cmd.Name
	})
	status := http.StatusCreated
	if len(cmds) < len(s.commands[scope]) {
		status = http.StatusOK
	}
	if s.registerLocked(c, scope, append(cmds, cmd)) {
		c.reply(status, s.commands[scope][len(s.commands[scope])-1])
	}
}

func (s *Server) deleteCommand(c *call) {
	scope, ok := c.commandScope()
	if !ok {
		return
	}
	id := c.r.PathValue("command")
	cmds := s.commands[scope]
	i := slices.IndexFunc(cmds, func(o *discordgo.ApplicationCommand) bool { return o.ID == id })
	if i < 0 {
		c.reject(http.StatusNotFound, 10063, "Unknown application command", "")
		return
	}
	s.commands[scope] = slices.Delete(slices.Clone(cmds), i, i+1)
	c.noContent()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// registerLocked validates a scope's complete command list and installs it,
// keeping the IDs of commands that already existed.
func (s *Server) registerLocked(c *call, scope string, cmds []*discordgo.ApplicationCommand) bool {
	var errs formErrors
	checkCommands(cmds, &errs)
	if len(errs) > 0 {
		c.invalid(errs)
		return false
	}
	for _, cmd := range cmds {
		cmd.ID = s.newIDLocked()
		for _, old := range s.commands[scope] {
			if old.Type == cmd.Type && old.Name == cmd.Name {
				cmd.ID = old.ID
			}
		}
		cmd.ApplicationID, cmd.GuildID, cmd.Version = s.bot.ID, scope, s.newIDLocked()
	}
	s.commands[scope] = cmds
	return true
}

// checkCommands validates commands as Discord does on registration.
func checkCommands(cmds []*discordgo.ApplicationCommand, errs *formErrors) {
	counts := map[discordgo.ApplicationCommandType]int{}
	seen := map[string]bool{}
	for i, cmd := range cmds {
		p := at("", i)
		if cmd == nil {
			errs.add(p, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		if cmd.Type == 0 {
			cmd.Type = discordgo.ChatApplicationCommand
		}
		switch cmd.Type {
		case discordgo.ChatApplicationCommand:
			checkName(at(p, "name"), cmd.Name, errs)
			errs.lenBetween(field(p, "description"), cmd.Description, 1, 100)
			checkOptions(at(p, "options"), cmd.Options, 0, errs)
			if size := commandSize(cmd); size > 4000 {
				errs.add(p, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000), is %d", size)
			}
		case discordgo.UserApplicationCommand, discordgo.MessageApplicationCommand:
			errs.lenBetween(field(p, "name"), cmd.Name, 1, 32)
			if cmd.Description != "" {
				errs.add(at(p, "description"), "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED", "Context menu commands cannot have a description")
			}
			if len(cmd.Options) > 0 {
				errs.add(at(p, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Context menu commands cannot have options")
			}
		default:
			errs.add(at(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
			continue
		}
		checkContexts(at(p, "contexts"), cmd.Contexts, 3, errs)                  // GUILD, BOT_DM, PRIVATE_CHANNEL
		checkContexts(at(p, "integration_types"), cmd.IntegrationTypes, 2, errs) // GUILD_INSTALL, USER_INSTALL
		key := fmt.Sprint(cmd.Type, "/", cmd.Name)
		if seen[key] {
			errs.add(at(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
		counts[cmd.Type]++
	}
	limits := map[discordgo.ApplicationCommandType]int{
		discordgo.ChatApplicationCommand: 100, discordgo.UserApplicationCommand: 5, discordgo.MessageApplicationCommand: 5,
	}
	for t, n := range counts {
		if n > limits[t] {
			errs.add("", "APPLICATION_COMMANDS_MAX_EXCEEDED", "Maximum number of type %d application commands reached (%d)", t, limits[t])
		}
	}
}

func checkName(p, name string, errs *formErrors) {
	if !commandName.MatchString(name) || strings.ToLower(name) != name {
		errs.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name %q is invalid (lowercase letters, digits, - _ ', 1 to 32)", name)
	}
}

// checkOptions validates one level of options. depth 0 is the command itself,
// 1 inside a subcommand group, 2 inside a subcommand.
func checkOptions(p string, opts []*discordgo.ApplicationCommandOption, depth int, errs *formErrors) {
	if len(opts) > 25 {
		errs.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	names := map[string]bool{}
	nested, plain, optional := 0, 0, false
	for i, o := range opts {
		op := at(p, i)
		if o == nil {
			errs.add(op, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		checkName(at(op, "name"), o.Name, errs)
		errs.lenBetween(field(op, "description"), o.Description, 1, 100)
		if names[o.Name] {
			errs.add(at(op, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		if depth == 1 && o.Type != discordgo.ApplicationCommandOptionSubCommand {
			errs.add(at(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommand groups may only contain subcommands")
			continue
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommandGroup:
			nested++
			if depth != 0 {
				errs.add(at(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommand groups can only be top-level options")
			}
			if len(o.Options) == 0 {
				errs.add(at(op, "options"), "BASE_TYPE_MIN_LENGTH", "A subcommand group needs at least one subcommand")
			}
			checkOptions(at(op, "options"), o.Options, 1, errs)
		case discordgo.ApplicationCommandOptionSubCommand:
			nested++
			if depth == 2 {
				errs.add(at(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands cannot be nested in subcommands")
			}
			checkOptions(at(op, "options"), o.Options, 2, errs)
		default:
			if o.Type < discordgo.ApplicationCommandOptionString || o.Type > discordgo.ApplicationCommandOptionAttachment {
				errs.add(at(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of 1 to 11.")
				continue
			}
			plain++
			if o.Required && optional {
				errs.add(at(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			optional = optional || !o.Required
			if len(o.Options) > 0 {
				errs.add(at(op, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Only subcommands and groups have options")
			}
			checkValueOption(op, o, errs)
		}
		if isNested(o.Type) && o.Required {
			errs.add(at(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Subcommands and groups cannot be required")
		}
	}
	if nested > 0 && plain > 0 {
		errs.add(p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types")
	}
}

// checkValueOption validates the constraints of a value option.
func checkValueOption(p string, o *discordgo.ApplicationCommandOption, errs *formErrors) {
	isString := o.Type == discordgo.ApplicationCommandOptionString
	isNumber := o.Type == discordgo.ApplicationCommandOptionInteger || o.Type == discordgo.ApplicationCommandOptionNumber
	if len(o.Choices) > 0 && !isString && !isNumber {
		errs.add(at(p, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED", "Only string, integer and number options have choices")
	}
	if len(o.Choices) > 25 {
		errs.add(at(p, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	if o.Autocomplete && (len(o.Choices) > 0 || !isString && !isNumber) {
		errs.add(at(p, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete needs a string, integer or number option without choices")
	}
	for j, ch := range o.Choices {
		cp := at(p, "choices", j)
		errs.lenBetween(field(cp, "name"), ch.Name, 1, 100)
		switch v := ch.Value.(type) {
		case string:
			if !isString {
				errs.add(at(cp, "value"), "BASE_TYPE_NUMBER", "Must be a number.")
			}
			errs.lenBetween(field(cp, "value"), v, 1, 100)
		case float64:
			if isString || o.Type == discordgo.ApplicationCommandOptionInteger && v != math.Trunc(v) {
				errs.add(at(cp, "value"), "BASE_TYPE_CHOICES", "Choice value does not match the option type")
			} else {
				checkBound(at(cp, "value"), o.Type, v, errs)
			}
		default:
			errs.add(at(cp, "value"), "BASE_TYPE_REQUIRED", "This field is required")
		}
	}
	if !isNumber && (o.MinValue != nil || o.MaxValue != 0) {
		errs.add(at(p, "min_value"), "APPLICATION_COMMAND_OPTION_MIN_MAX_NOT_ALLOWED", "Only integer and number options have min_value and max_value")
	} else if isNumber {
		if o.MinValue != nil {
			checkBound(at(p, "min_value"), o.Type, *o.MinValue, errs)
		}
		checkBound(at(p, "max_value"), o.Type, o.MaxValue, errs)
	}
	if !isString && (o.MinLength != nil || o.MaxLength != 0) {
		errs.add(at(p, "min_length"), "APPLICATION_COMMAND_OPTION_MIN_MAX_NOT_ALLOWED", "Only string options have min_length and max_length")
	}
	if o.MinLength != nil && (*o.MinLength < 0 || *o.MinLength > 6000) {
		errs.add(at(p, "min_length"), "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")
	}
	if o.MaxLength < 0 || o.MaxLength > 6000 {
		errs.add(at(p, "max_length"), "NUMBER_TYPE_MAX", "Must be between 1 and 6000.")
	}
	if len(o.ChannelTypes) > 0 && o.Type != discordgo.ApplicationCommandOptionChannel {
		errs.add(at(p, "channel_types"), "APPLICATION_COMMAND_OPTION_CHANNEL_TYPES_NOT_ALLOWED", "Only channel options have channel_types")
	}
}

// checkBound checks a number an INTEGER or NUMBER option declares (a choice,
// min_value or max_value): an INTEGER option's are integers between -2^53+1
// and 2^53-1, a NUMBER option's doubles between -2^53 and 2^53.
func checkBound(p string, t discordgo.ApplicationCommandOptionType, v float64, errs *formErrors) {
	limit, kind := float64(1<<53), "float"
	if t == discordgo.ApplicationCommandOptionInteger {
		limit, kind = 1<<53-1, "int"
		if v != math.Trunc(v) {
			errs.add(p, "NUMBER_TYPE_COERCE", "Value \"%v\" is not int.", v)
			return
		}
	}
	switch {
	case v > limit:
		errs.add(p, "NUMBER_TYPE_MAX", "%s value should be less than or equal to %.0f.", kind, limit)
	case v < -limit:
		errs.add(p, "NUMBER_TYPE_MIN", "%s value should be greater than or equal to %.0f.", kind, -limit)
	}
}

// checkContexts validates a command's contexts or integration_types: when
// given (not null), a non-empty list of distinct known values.
func checkContexts[T ~uint](p string, list *[]T, known T, errs *formErrors) {
	if list == nil {
		return
	}
	if len(*list) == 0 {
		errs.add(p, "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
	}
	seen := map[T]bool{}
	for i, v := range *list {
		if v >= known {
			errs.add(at(p, i), "ENUM_TYPE_COERCE", "Value \"%d\" is not a valid enum value.", v)
		}
		if seen[v] {
			errs.add(p, "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains the value %d.", v)
		}
		seen[v] = true
	}
}

// commandSize is what counts toward the 4000 character limit of a command.
func commandSize(cmd *discordgo.ApplicationCommand) int {
	var size func([]*discordgo.ApplicationCommandOption) int
	size = func(opts []*discordgo.ApplicationCommandOption) int {
		n := 0
		for _, o := range opts {
			if o == nil {
				continue
			}
			n += runes(o.Name) + runes(o.Description) + size(o.Options)
			for _, c := range o.Choices {
				n += runes(c.Name)
				if v, ok := c.Value.(string); ok {
					n += runes(v)
				}
			}
		}
		return n
	}
	return runes(cmd.Name) + runes(cmd.Description) + size(cmd.Options)
}
