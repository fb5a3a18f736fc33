// Package improv is Improv's conflict rules as a campaign: a GM runs
// conflicts between the players' protagonists and the NPCs, with one shared
// deck, talents and story-tokens, and narration in the channel.
package improv

import (
	"slices"
	"strconv"

	"github.com/cardtable/cardbot/games"
)

// Option names.
const (
	OptTalentCap = "talent_cap"
	OptLethal    = "lethal_fate"
)

// Table sizes and limits.
const (
	maxSeats          = 7 // the GM and six players
	playerHand        = 4
	gmBaseHand        = 3
	gmTokensPerPlayer = 3
	poolPerPlayer     = 1
	bonusValue        = 3 // each story-token or talent-marker on a card
	maxName           = 40
	maxStake          = 200
	maxHelp           = 200
	maxTalents        = 8
	maxUses           = 20
	maxEvent          = 1900
)

// Phases of the campaign. Between conflicts the campaign is idle; a
// conflict goes setup → stakes → cards → bonus → narrate and back to idle.
const (
	PhaseIdle    = "idle"    // between conflicts: protagonists, talents, sessions
	PhaseSetup   = "setup"   // the GM picks the protagonists and declares the GM stakes
	PhaseStakes  = "stakes"  // the players write their stakes and choose whom they oppose
	PhaseCards   = "cards"   // every participant plays a card face down
	PhaseBonus   = "bonus"   // talents and story-tokens go on the cards; everyone marks ready
	PhaseFate    = "fate"    // extended: losers of the Hand of Fate choose to leave the fight or stay in
	PhaseGifts   = "gifts"   // extended, after the last round: each side may give a victory card away
	PhaseNarrate = "narrate" // the reveal is done; participants narrate in turn, losers first
	PhaseOver    = "over"    // the GM ended the campaign
)

// Conflict kinds: a simple conflict is one round; an extended one is
// several, won by victory piles.
const (
	KindSimple   = "simple"
	KindExtended = "extended"
	maxRounds    = 6
)

// Rules registers Improv conflicts with the bot.
var Rules = games.Rules{
	ID:         "improv",
	Name:       gameName,
	Blurb:      "A GM-run campaign: stakes, face-down cards, talents and story-tokens, then narration",
	MinPlayers: 2,
	MaxPlayers: maxSeats,
	GM:         true,
	Version:    1,
	Options:    options,
	Summary:    summary,
	New:        New,
	Load:       games.LoadJSON[State],
}

const gameName = "Improv conflicts"

var options = []games.Option{
	{Name: OptTalentCap, Label: "Talent uses per session", Description: "Most talent uses per protagonist in one game session (default 6)",
		Kind: games.IntOption, Default: 6, Min: 1, Max: 20},
	{Name: OptLethal, Label: "Lethal Hand of Fate", Description: "Opponents with equal totals call the Hand of Fate even when the suits differ",
		Kind: games.BoolOption, Default: 0},
}

// Talent is one of a protagonist's talents with the uses it has left.
type Talent struct {
	Name string
	Uses int
}

// Hero is a player's protagonist. The GM's seat has an empty one.
type Hero struct {
	Name        string   `json:",omitempty"`
	Talents     []Talent `json:",omitempty"`
	SessionUses int      // talent uses this game session, against the cap
	// Played: the protagonist has taken part in a conflict, and from then
	// on only the GM changes its talents.
	Played bool `json:",omitempty"`
}

// Side is one stake in a conflict with the card played for it: a GM stake
// (Seat 0, an NPC or group) or a protagonist's.
type Side struct {
	Seat  int
	Name  string
	Stake string `json:",omitempty"`
	// Opp is the side a protagonist opposes (-1 until chosen). GM sides
	// oppose whoever opposes them, and keep -1.
	Opp   int
	Card  *games.Card `json:",omitempty"`
	Deck  bool        `json:",omitempty"` // the card came unseen from the top of the deck
	Total int         `json:",omitempty"` // after the reveal
	// Extended conflicts: the cards this side won (its own), the cards
	// given to it, and whether the Hand of Fate took it out.
	Pile   []games.Card `json:",omitempty"`
	Got    []games.Card `json:",omitempty"`
	Out    string       `json:",omitempty"` // "", outEliminated or outDestroyed
	Harmed bool         `json:",omitempty"` // lost to the Hand of Fate once and stayed in
	Mooks  int          `json:",omitempty"` // a GM group of mooks: how many are still standing
}

// Ways a side leaves an extended conflict.
const (
	outEliminated = "eliminated"
	outDestroyed  = "destroyed"
)

// Gift is a victory card given before the final narration. Deck: a
// destroyed side with no victory cards gave a random card from the deck.
type Gift struct {
	From, To int
	Card     games.Card
	Deck     bool `json:",omitempty"`
}

// Bonus is a story-token or talent-marker From a seat on the card of side On.
type Bonus struct {
	From   int
	On     int
	Talent string `json:",omitempty"` // the talent's name; "" for a story-token
	Help   string `json:",omitempty"` // how the protagonist helps, for a talent on another's card
}

// Clash is the result between a pair of opposed sides.
type Clash struct {
	A, B   int
	Winner int
	Fate   [][2]games.Card `json:",omitempty"` // Hand of Fate draws, A's card then B's
}

// Turn is one narrator's turn: a seat and the sides they narrate for.
type Turn struct {
	Seat  int
	Sides []int
}

// Conflict is the conflict being played.
type Conflict struct {
	No     int
	Kind   string
	Rounds int // 1 for a simple conflict
	Round  int // 1-based
	Seats  []int
	Sides  []Side
	// Bonuses on the cards this round, in the order they were placed.
	Bonuses []Bonus       `json:",omitempty"`
	Ready   []int         `json:",omitempty"` // seats that marked ready
	Aim     map[int]int   `json:",omitempty"` // seat → side its bonuses go on
	Pending map[int]Bonus `json:",omitempty"` // seat → talent waiting for a help line
	Clashes []Clash       `json:",omitempty"`
	Order   []Turn        `json:",omitempty"`
	Turn    int
	// Extended conflicts.
	Final    bool        `json:",omitempty"` // the final narration (after the gifts)
	GMStart  int         `json:",omitempty"` // GM tokens held when the card play began
	GMSpent  int         `json:",omitempty"` // GM tokens spent in earlier rounds
	FateWait []int       `json:",omitempty"` // sides whose owner chooses: leave the fight or stay in
	Gifts    []Gift      `json:",omitempty"`
	From     map[int]int `json:",omitempty"` // the GM's giving side
	MookHits []int       `json:",omitempty"` // seats that took out a mook this round
}

// Line is a /say line: who wrote it, and the award window it was posted
// in (0: none open, so it can't earn an award).
type Line struct {
	Seat   int
	Window int
}

// Award is a story-token From one player To the author of the line Ref.
type Award struct {
	From, To int
	Ref      string
}

// State is one campaign.
type State struct {
	Players   []string
	Gone      []bool
	TalentCap int
	Lethal    bool

	RNG    games.RNG
	Deck   games.Pile[games.Card]
	Hands  [][]games.Card
	Tokens []int // story-tokens held, by seat (the GM's at 0)
	Pool   int
	Bank   int
	Spent  int // out of play
	Heroes []Hero

	Session   int
	Phase     string
	Conflicts int       // conflicts opened so far
	C         *Conflict `json:",omitempty"`

	// Awards: a window opens with a conflict's narration and closes when
	// the next conflict opens; lines and awards belong to one window.
	Window     int
	WindowOpen bool `json:",omitempty"`
	LineNo     int
	Lines      map[string]Line `json:",omitempty"`
	Awards     map[int]Award   `json:",omitempty"` // by giver
	Last       string          `json:",omitempty"`
}

// New starts a campaign: seat 0 is the GM.
func New(setup games.Setup) (games.Game, error) {
	n := len(setup.Players)
	if n < 2 || n > maxSeats {
		return nil, games.Refuse("%s needs a GM and 1 to %d players.", gameName, maxSeats-1)
	}
	opts, err := games.Rules{Name: gameName, Options: options}.Validate(setup.Options)
	if err != nil {
		return nil, err
	}
	s := &State{
		Players:   append([]string(nil), setup.Players...),
		Gone:      make([]bool, n),
		TalentCap: opts[OptTalentCap],
		Lethal:    opts[OptLethal] == 1,
		RNG:       games.NewRNG(setup.Seed),
		Hands:     make([][]games.Card, n),
		Tokens:    make([]int, n),
		Heroes:    make([]Hero, n),
		Session:   1,
		Phase:     PhaseIdle,
	}
	s.Deck = games.NewPile(&s.RNG, games.StandardDeck(2))
	players := n - 1
	s.Tokens[0] = gmTokensPerPlayer * players
	s.Pool = poolPerPlayer * players
	for seat := 1; seat < n; seat++ {
		s.Hands[seat] = s.Deck.Deal(&s.RNG, playerHand)
	}
	s.Hands[0] = s.Deck.Deal(&s.RNG, s.handSize(0))
	return s, nil
}

// players counts the seated players (the GM and those who left excluded).
func (s *State) players() int {
	n := 0
	for seat := 1; seat < len(s.Players); seat++ {
		if !s.Gone[seat] {
			n++
		}
	}
	return n
}

// handSize is how many cards a seat's hand is refilled to.
func (s *State) handSize(seat int) int {
	if seat == 0 {
		return gmBaseHand + s.players()
	}
	return playerHand
}

func (s *State) seated(seat int) bool {
	return seat >= 0 && seat < len(s.Players) && !s.Gone[seat]
}

// heroName is a protagonist's name, or the player's while it has none.
func (s *State) heroName(seat int) string {
	if c := s.Character(seat); c != "" {
		return c
	}
	return s.Players[seat]
}

// Character is a player's protagonist, once named: /say speaks as it.
func (s *State) Character(seat int) string {
	if seat > 0 && seat < len(s.Heroes) {
		return s.Heroes[seat].Name
	}
	return ""
}

// Over reports whether the GM has ended the campaign.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// ToAct lists the seats whose decision the campaign waits for.
func (s *State) ToAct() []int {
	c := s.C
	switch s.Phase {
	case PhaseIdle, PhaseSetup:
		return []int{0}
	case PhaseStakes:
		var out []int
		for _, i := range s.heroSides() {
			if sd := c.Sides[i]; !s.Gone[sd.Seat] && (sd.Stake == "" || sd.Opp < 0) {
				out = append(out, sd.Seat)
			}
		}
		if len(out) == 0 {
			return []int{0}
		}
		return out
	case PhaseCards:
		var out []int
		for _, seat := range s.cardSeats() {
			if s.nextUnplayed(seat) >= 0 && s.canPlay(seat) {
				out = append(out, seat)
			}
		}
		return out
	case PhaseBonus:
		var out []int
		for _, seat := range s.readySeats() {
			if !s.isReady(seat) {
				out = append(out, seat)
			}
		}
		return out
	case PhaseFate:
		var out []int
		for _, i := range c.FateWait {
			if seat := c.Sides[i].Seat; !slices.Contains(out, seat) {
				out = append(out, seat)
			}
		}
		slices.Sort(out)
		return out
	case PhaseGifts:
		var out []int
		for _, seat := range s.giftSeats() {
			if !s.isReady(seat) {
				out = append(out, seat)
			}
		}
		return out
	case PhaseNarrate:
		if c.Turn < len(c.Order) {
			return []int{c.Order[c.Turn].Seat}
		}
	}
	return nil
}

// Results: every player with the story-tokens they hold; nobody wins a
// campaign.
func (s *State) Results() []games.Result {
	var out []games.Result
	for seat := 1; seat < len(s.Players); seat++ {
		out = append(out, games.Result{Seat: seat, Score: s.Tokens[seat]})
	}
	return out
}

// verb is one move: how many arguments it takes (-1: one or more) and
// whether it needs typed text.
type verb struct {
	args int
	text bool
	do   func(s *State, seat int, a games.Action) ([]games.Event, error)
}

var verbs = map[string]verb{
	// The GM, between conflicts and at any time.
	"open":    {0, false, (*State).open},
	"session": {0, false, (*State).newSession},
	"bank":    {0, false, (*State).takeBank},
	"kit":     {0, true, (*State).kit},
	"end":     {0, true, (*State).endCampaign},
	// Players, for their protagonist.
	"name":   {0, true, (*State).nameHero},
	"addtal": {0, true, (*State).addTalent},
	// Setting up a conflict and its stakes.
	"who":     {-1, false, (*State).pickSeats},
	"gmstake": {0, true, (*State).addGMStake},
	"unstake": {0, false, (*State).dropGMStake},
	"declare": {0, false, (*State).declare},
	"stake":   {0, true, (*State).writeStake},
	"vs":      {1, false, (*State).oppose},
	"cards":   {0, false, (*State).startCards},
	"cancel":  {0, false, (*State).cancel},
	"hurry":   {0, false, (*State).hurry},
	"rounds":  {1, false, (*State).pickRounds},
	// Cards and bonuses.
	"play":    {1, false, (*State).play},
	"unplay":  {0, false, (*State).unplay},
	"aim":     {1, false, (*State).aim},
	"token":   {0, false, (*State).token},
	"usetal":  {1, false, (*State).useTalent},
	"help":    {0, true, (*State).help},
	"undo":    {0, false, (*State).undo},
	"ready":   {0, false, (*State).ready},
	"unready": {0, false, (*State).unready},
	// Extended conflicts: the Hand of Fate's choice and the gifts.
	"fatestay": {0, false, (*State).fateStay},
	"fateout":  {0, false, (*State).fateOut},
	"from":     {1, false, (*State).giveFrom},
	"to":       {1, false, (*State).giveTo},
	"give":     {1, false, (*State).give},
	"mook":     {1, false, (*State).takeOutMook},
	// Narration.
	"done": {0, false, (*State).doneNarrating},
	"skip": {0, false, (*State).skipNarrator},
}

// Apply validates and performs one move.
func (s *State) Apply(seat int, a games.Action) ([]games.Event, error) {
	if !s.seated(seat) {
		return nil, games.Refuse("You don't have a seat in this campaign.")
	}
	if s.Phase == PhaseOver {
		return nil, games.Refuse("The campaign is over.")
	}
	v, ok := verbs[a.Verb]
	if !ok {
		return nil, games.Refuse("That isn't a move in %s.", gameName)
	}
	if (v.args >= 0 && len(a.Args) != v.args) || (v.args < 0 && len(a.Args) == 0) {
		return nil, games.Refuse("That move doesn't look right; open your hand again for fresh controls.")
	}
	ev, err := v.do(s, seat, a)
	return mergeStories(ev), err
}

// mergeStories folds the story events of one move into one message.
func mergeStories(ev []games.Event) []games.Event {
	first := -1
	var out []games.Event
	for _, e := range ev {
		if !e.Story || e.Ref != "" {
			out = append(out, e)
			continue
		}
		if first < 0 {
			first = len(out)
			out = append(out, e)
			continue
		}
		out[first].Text = clip(out[first].Text+"\n"+e.Text, maxEvent)
	}
	return out
}

// gmOnly refuses a move by anyone but the GM.
func (s *State) gmOnly(seat int, what string) error {
	if seat != 0 {
		return games.Refuse("Only the GM (%s) can %s.", s.Players[0], what)
	}
	return nil
}

// inPhase refuses a move outside the given phases, saying what is going on.
func (s *State) inPhase(phases ...string) error {
	for _, p := range phases {
		if s.Phase == p {
			return nil
		}
	}
	return games.Refuse("%s", s.phaseRefusal())
}

func (s *State) phaseRefusal() string {
	switch s.Phase {
	case PhaseIdle:
		return "No conflict is running; the GM opens one."
	case PhaseSetup:
		return "The GM is still setting up the conflict."
	case PhaseStakes:
		return "The conflict is still at its stakes."
	case PhaseCards:
		return "The cards are still being played."
	case PhaseBonus:
		return "The bonuses are being placed; the cards aren't revealed yet."
	case PhaseFate:
		return "The Hand of Fate's losers are choosing whether to stay in the fight."
	case PhaseGifts:
		return "The victory cards are being given before the final narration."
	case PhaseNarrate:
		return "The conflict is being narrated."
	}
	return "The campaign is over."
}

func itoa(n int) string { return strconv.Itoa(n) }

// atoi reads a small non-negative number argument; -1 when it isn't one.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1000 {
		return -1
	}
	return n
}
