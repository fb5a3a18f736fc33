package games

// View is what one audience sees: the public table or one player's hand. The
// bot renders it as an embed with components; games never see Discord types.
type View struct {
	Title       string
	Description string
	Fields      []Field
	Footer      string
	Buttons     []Button
	Choices     []Choice
	// Away is the move the bot makes for a player whose deadline passed,
	// where the first control is not the sensible one (it would spend a
	// reserve or undo a choice); nil: the first control.
	Away *Action `json:",omitempty"`
}

// Field is a titled block of the view.
type Field struct {
	Name, Value string
	Inline      bool
}

// Style is a button's colour.
type Style int

const (
	Secondary Style = iota
	Primary
	Success
	Danger
)

// Button performs Action when clicked. With Ask set, clicking first asks the
// player to type a line, which arrives as the action's Text.
type Button struct {
	Label    string
	Action   Action
	Style    Style
	Disabled bool
	Ask      *Ask
	// Forced marks a move with nothing to decide (draw, roll, give up):
	// when it is a seat's only move, the bot makes it for them.
	Forced bool `json:",omitempty"`
}

// Ask describes the text box a button opens.
type Ask struct {
	Title       string // ≤ 45 characters
	Label       string // ≤ 45 characters
	Placeholder string
	MaxLen      int
	Long        bool
}

// Choice is a select menu: the chosen values become the action's Args.
type Choice struct {
	Verb        string
	Placeholder string
	Options     []ChoiceOption
	Min, Max    int
}

// ChoiceOption is one entry of a Choice.
type ChoiceOption struct {
	Value, Label, Description string
	Default                   bool
}
