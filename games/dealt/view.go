package dealt

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cardtable/cardbot/games"
)

// Discord's limits the controls are laid out in.
const (
	menuSize = 25 // options per select menu
	maxRows  = 5  // rows of components per message
)

const ranking = "Solo < 2-Straight < Pair < 3-Straight < Trips"

// Table is the public view: the trick, hand sizes, reserves, chips, never
// the cards in a hand (which would carry the owner's copy marks).
func (s *State) Table() games.View {
	v := games.View{
		Title:  fmt.Sprintf("Dealt! — round %d", s.Round),
		Footer: fmt.Sprintf("Draw pile %d · discards %d · %s deals · %s", len(s.Pile.Draw), len(s.Pile.Discard), s.Names[0], ranking),
	}
	lines := []string{s.status()}
	if just := s.justNow(); just != "" {
		lines = append(lines, "*Just now:* "+just)
	}
	v.Description = strings.Join(lines, "\n")
	if len(s.Trick) > 0 {
		v.Fields = append(v.Fields, games.Field{Name: "Trick", Value: s.trickLines()})
	}
	v.Fields = append(v.Fields, games.Field{Name: "Players", Value: s.playerLines()})
	return v
}

// narrated marks the texts of the story events (endRound's "🏁 Round n
// ends" and "💸 Round n ends"): the channel shows them as narration, so the
// table does not repeat them.
var narrated = []string{"🏁", "💸"}

// justNow is what the last move did that the table no longer shows: a
// trick that ended, a new deal. While a trick is on, the trick itself shows
// the move, and once the game is over the result says it all.
func (s *State) justNow() string {
	if s.Over() || len(s.Trick) > 0 || s.Drawing != nil {
		return ""
	}
	var out []string
	for _, l := range s.Last {
		if !slices.ContainsFunc(narrated, func(p string) bool { return strings.HasPrefix(l, p) }) {
			out = append(out, l)
		}
	}
	return clip(strings.Join(out, " "), 300)
}

// status says whose move it is and what it is, or how the game ended.
func (s *State) status() string {
	if s.Over() {
		var lost, won []string
		for i, r := range s.Results() {
			if r.Winner {
				won = append(won, s.Names[i])
			} else {
				lost = append(lost, s.Names[i])
			}
		}
		return fmt.Sprintf("🏁 **Game over.** %s owed a chip with none left. 🏆 %s %s.", andList(lost), andList(won), plural(len(won), "wins", "win"))
	}
	who := "**" + s.Names[s.actor()] + "**"
	switch {
	case s.Drawing != nil:
		d := s.Drawing
		return fmt.Sprintf("🔁 %s is placing the cards a Redraw gave them (%d of %d).", who, d.Total-d.Left, d.Total)
	case len(s.Trick) == 0:
		return fmt.Sprintf("▶️ %s leads a new trick.", who)
	}
	or := ""
	if len(s.Players[s.actor()].Reserve) > 0 {
		or = ", or take a reserve card"
	}
	if b := best(s.Trick); b != nil {
		return fmt.Sprintf("▶️ %s to beat **%s** (%s)%s.", who, b.Combo(), s.Names[b.Seat], or)
	}
	return fmt.Sprintf("▶️ %s may play any combination%s.", who, or)
}

// trickLines lists who did what in the current trick, the highest marked.
func (s *State) trickLines() string {
	top := best(s.Trick)
	var out []string
	for i, p := range s.Trick {
		var what string
		switch p.What {
		case PlayCombo:
			what = fmt.Sprintf("%s — %s", labels(p.Cards), p.Combo())
			if top != nil && &s.Trick[i] == top {
				what += " ⭐"
			}
		case PlayReserve:
			what = "took a reserve card into their hand"
		case PlayStop:
			what = "🛑 Stop"
		case PlayRedraw:
			what = "🔁 Redraw"
		}
		out = append(out, fmt.Sprintf("%s: %s", s.Names[p.Seat], what))
	}
	return strings.Join(out, "\n")
}

// playerLines: one public line per seat.
func (s *State) playerLines() string {
	var out []string
	for i, p := range s.Players {
		if s.Over() {
			out = append(out, s.finalLine(i))
			continue
		}
		mark := "▫️"
		switch {
		case s.actor() == i:
			mark = "▶️"
		case !s.holds(i):
			mark = "✅"
		}
		hand := cardCount(len(p.Hand))
		if len(p.Hand) == 0 {
			hand = "no cards (safe)"
		}
		res := "no reserves"
		if len(p.Reserve) > 0 {
			res = "reserve " + labels(p.Reserve)
		}
		out = append(out, fmt.Sprintf("%s **%s**: %s · %s · %s", mark, s.Names[i], hand, res, plural(p.Chips, "1 chip", fmt.Sprintf("%d chips", p.Chips))))
	}
	return strings.Join(out, "\n")
}

// finalLine is a seat's score, chips left, as the sum that made it.
func (s *State) finalLine(seat int) string {
	p := s.Players[seat]
	lost := s.Chips - p.Chips
	line := fmt.Sprintf("**%s**: %s = %d at the start − %s lost", s.Names[seat],
		plural(p.Chips, "1 chip", fmt.Sprintf("%d chips", p.Chips)), s.Chips, plural(lost, "1 round", fmt.Sprintf("%d rounds", lost)))
	if slices.Contains(s.Losers, seat) {
		return "💀 " + line + ", then owed one more"
	}
	return "🏆 " + line
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// handRow is the hand as its owner sees it: positions and marked cards.
func handRow(hand []Card) string {
	if len(hand) == 0 {
		return "—"
	}
	parts := make([]string, len(hand))
	for i, c := range hand {
		parts[i] = fmt.Sprintf("`%d` %s", i+1, c)
	}
	return strings.Join(parts, " · ")
}

// Hand is one seat's private view: its hand in order, and the controls for
// exactly its legal moves. Reserves, chips and the trick are on the table;
// the prompt names what the move has to beat.
func (s *State) Hand(seat int) games.View {
	if seat < 0 || seat >= len(s.Players) {
		return games.View{Title: "Dealt!", Description: "You are not playing in this game."}
	}
	p := s.Players[seat]
	v := games.View{
		Title:  "Your hand — Dealt!",
		Footer: "Coloured dots only tell copies apart · " + ranking,
		Fields: []games.Field{
			{Name: fmt.Sprintf("Your hand (%s, in the order you must keep)", cardCount(len(p.Hand))), Value: handRow(p.Hand)},
		},
	}
	switch {
	case s.Over():
		v.Description = s.status()
	case s.actor() != seat:
		v.Description = s.status()
		if !s.holds(seat) {
			v.Description = "✅ You're out of cards: safe this round.\n" + v.Description
		}
	default:
		s.controls(seat, &v)
	}
	return v
}

// controls fills in the description and the controls for the player to act.
// Worst case is a hand of ~50 cards: 3 menus of start positions plus a row of
// buttons; then at most 2 menus of plays (40 options from one start) or
// 3 menus of places (51 gaps), each with a Back button.
func (s *State) controls(seat int, v *games.View) {
	p := s.Players[seat]
	v.Away = s.awayMove(seat)
	switch {
	case s.Drawing != nil:
		d := s.Drawing
		v.Description = fmt.Sprintf("🔁 **Redraw:** place the card you drew, **%s** (%d of %d), anywhere in your hand.", d.Card, d.Total-d.Left, d.Total)
		v.Choices = gapMenus(VerbPut, p.Hand, "Put "+d.Card.String()+" at…", func(g int) string { return fmt.Sprint(g) })
		return
	case s.Taking != "":
		c, _ := ParseCard(s.Taking)
		v.Description = fmt.Sprintf("Choose where the reserve **%s** goes in your hand, or go back.", c.Label())
		v.Choices = gapMenus(VerbRes, p.Hand, "Take reserve "+c.Label()+" into your hand at…", func(g int) string { return fmt.Sprintf("%s.%d", c.Code(), g) })
		v.Buttons = []games.Button{{Label: "Back", Action: games.Act(VerbBack)}}
		return
	case s.From > 0:
		var ms []Move
		for _, m := range s.moves(seat) {
			if m.Pos == s.From-1 {
				ms = append(ms, m)
			}
		}
		v.Description = fmt.Sprintf("Choose your play starting at card %d, or go back.", s.From)
		v.Choices = playMenus(p.Hand, ms)
		v.Buttons = []games.Button{{Label: "Back", Action: games.Act(VerbBack)}}
		return
	}
	ms := s.moves(seat)
	canTake := len(s.Trick) > 0 && len(p.Reserve) > 0
	v.Description = s.prompt(seat, ms, canTake)
	if len(ms) > 0 {
		if len(ms) <= 3*menuSize {
			v.Choices = playMenus(p.Hand, ms)
		} else {
			v.Choices = fromMenus(p.Hand, ms)
		}
	}
	if canTake {
		// One menu of places per reserve card when each fits in one menu and
		// the rows allow; otherwise a button per card opens its places.
		if len(p.Hand)+1 <= menuSize && len(v.Choices)+len(p.Reserve) <= maxRows {
			for _, c := range p.Reserve {
				for _, ch := range gapMenus(VerbRes, p.Hand, "…or take reserve "+c.Label()+" into your hand at…", func(g int) string { return fmt.Sprintf("%s.%d", c.Code(), g) }) {
					ch.Verb = menuVerb(VerbRes, countVerb(v.Choices, VerbRes))
					v.Choices = append(v.Choices, ch)
				}
			}
		} else {
			for _, c := range p.Reserve {
				v.Buttons = append(v.Buttons, games.Button{Label: "Take reserve " + c.Label() + "…", Action: games.Act(VerbTake, c.Code())})
			}
		}
	}
	if len(ms) == 0 && !canTake {
		v.Buttons = append(v.Buttons, games.Button{Label: "Give up the round", Action: games.Act(VerbLose), Style: games.Danger, Forced: true})
	}
}

// awayMove is the bot's move for a player who lets the deadline pass: a
// play rather than a reserve card (kept for a trick they can't beat), a
// plain one rather than a Stop, Redraw or X, from the card they chose to
// start at if they did. Nil leaves the first control: a Redraw's place,
// or giving up when nothing else is open.
func (s *State) awayMove(seat int) *games.Action {
	if s.Drawing != nil || s.Over() || seat != s.Turn {
		return nil // only the player on turn is moved for
	}
	p := s.Players[seat]
	ms := s.moves(seat)
	if s.From > 0 {
		ms = slices.DeleteFunc(slices.Clone(ms), func(m Move) bool { return m.Pos != s.From-1 })
	}
	cost := func(m Move) int {
		switch {
		case m.Special != 0:
			return 2
		case slices.ContainsFunc(p.Hand[m.Pos:m.Pos+m.Len()], func(c Card) bool { return c.Face == Wild }):
			return 1
		}
		return 0
	}
	if len(ms) > 0 {
		best := ms[0]
		for _, m := range ms {
			if cost(m) < cost(best) {
				best = m
			}
		}
		a := games.Act(VerbPlay, best.Token())
		return &a
	}
	if len(s.Trick) > 0 && len(p.Reserve) > 0 {
		code := p.Reserve[0].Code()
		if s.Taking != "" {
			code = s.Taking
		}
		a := games.Act(VerbRes, code+".0")
		return &a
	}
	return nil
}

// countVerb counts the menus already using a verb, to number the next one.
func countVerb(cs []games.Choice, base string) int {
	n := 0
	for _, c := range cs {
		if baseVerb(c.Verb) == base {
			n++
		}
	}
	return n
}

// prompt tells the player to act what they may do.
func (s *State) prompt(seat int, ms []Move, canTake bool) string {
	if len(s.Trick) == 0 {
		return "**Your lead.** Play 1–3 touching cards as a combination, or a Stop or a Redraw on its own."
	}
	b := s.toBeat()
	if len(ms) == 0 && !canTake {
		what := "nothing to beat yet"
		if b != nil {
			what = "no way to beat the " + b.String()
		}
		return fmt.Sprintf("**You have %s and no reserve card left: you lose this round.** Give up to end it.", what)
	}
	var can []string
	head := "**Your turn.** You may "
	combos := slices.ContainsFunc(ms, func(m Move) bool { return m.Special == 0 })
	switch {
	case combos && b != nil:
		can = append(can, fmt.Sprintf("beat **%s** (%s) with touching cards", b, s.Names[best(s.Trick).Seat]))
	case combos:
		can = append(can, "play any combination of touching cards")
	case b != nil:
		// The trick is on the table only: say what can't be beaten.
		head = fmt.Sprintf("**Your turn.** Nothing in your hand beats **%s** (%s): you may ", b, s.Names[best(s.Trick).Seat])
	}
	if canTake {
		can = append(can, "take a reserve card into your hand")
	}
	if slices.ContainsFunc(ms, func(m Move) bool { return m.Special != 0 }) {
		can = append(can, "play a Stop or Redraw, which needs to beat nothing")
	}
	return head + strings.Join(can, ", or ") + "."
}

// playLabel shows a play as its owner reads it.
func playLabel(hand []Card, m Move) (label, desc string) {
	cs := hand[m.Pos : m.Pos+m.Len()]
	desc = fmt.Sprintf("card %d", m.Pos+1)
	if m.Len() > 1 {
		desc = fmt.Sprintf("cards %d–%d", m.Pos+1, m.Pos+m.Len())
	}
	switch m.Special {
	case Stop:
		// Who leads next depends on the rest of the trick (a Redraw in it,
		// a Stop as the last card): the table says so when it ends.
		return cs[0].String() + " · ends the trick at once", desc
	case Redraw:
		return cs[0].String() + " · the trick's highest play draws 3 more cards", desc
	}
	return marked(cs) + " · " + m.Combo.String(), desc + xNote(cs, m.Combo)
}

// playMenus splits plays into menus of 25 (play, play2, play3).
func playMenus(hand []Card, ms []Move) []games.Choice {
	var out []games.Choice
	for i := 0; i < len(ms); i += menuSize {
		part := ms[i:min(i+menuSize, len(ms))]
		last := part[len(part)-1]
		ch := games.Choice{Verb: menuVerb(VerbPlay, len(out)), Min: 1, Max: 1,
			Placeholder: fmt.Sprintf("Play… (cards %d–%d)", part[0].Pos+1, last.Pos+last.Len())}
		if len(ms) <= menuSize {
			ch.Placeholder = "Play…"
		}
		for _, m := range part {
			l, d := playLabel(hand, m)
			ch.Options = append(ch.Options, games.ChoiceOption{Value: m.Token(), Label: l, Description: d})
		}
		out = append(out, ch)
	}
	return out
}

// fromMenus is the first step for a hand with too many plays for three
// menus: pick the card the play starts at.
func fromMenus(hand []Card, ms []Move) []games.Choice {
	var starts []int
	count := map[int]int{}
	for _, m := range ms {
		if count[m.Pos] == 0 {
			starts = append(starts, m.Pos)
		}
		count[m.Pos]++
	}
	var out []games.Choice
	for i := 0; i < len(starts); i += menuSize {
		part := starts[i:min(i+menuSize, len(starts))]
		ch := games.Choice{Verb: menuVerb(VerbFrom, len(out)), Min: 1, Max: 1,
			Placeholder: fmt.Sprintf("Play… first choose the card it starts at (%d–%d)", part[0]+1, part[len(part)-1]+1)}
		for _, pos := range part {
			ch.Options = append(ch.Options, games.ChoiceOption{
				Value:       fmt.Sprint(pos + 1),
				Label:       fmt.Sprintf("From card %d: %s", pos+1, hand[pos]),
				Description: plural(count[pos], "1 play", fmt.Sprintf("%d plays", count[pos])),
			})
		}
		out = append(out, ch)
	}
	return out
}

// gapMenus offers every place in the hand, 0 (first) to len (last), 25 to a menu.
func gapMenus(verb string, hand []Card, placeholder string, value func(int) string) []games.Choice {
	n := len(hand) + 1
	var out []games.Choice
	for i := 0; i < n; i += menuSize {
		ch := games.Choice{Verb: menuVerb(verb, len(out)), Min: 1, Max: 1, Placeholder: placeholder}
		if n > menuSize {
			ch.Placeholder += fmt.Sprintf(" (places %d–%d of %d)", i+1, min(i+menuSize, n), n)
		}
		for g := i; g < min(i+menuSize, n); g++ {
			ch.Options = append(ch.Options, games.ChoiceOption{Value: value(g), Label: gapLabel(hand, g),
				Description: fmt.Sprintf("becomes card %d of %d", g+1, n)})
		}
		out = append(out, ch)
	}
	return out
}

func gapLabel(hand []Card, g int) string {
	switch {
	case len(hand) == 0:
		return "Into your empty hand"
	case g == 0:
		return "First, before " + hand[0].String()
	case g == len(hand):
		return "Last, after " + hand[g-1].String()
	}
	return fmt.Sprintf("Between %s and %s", hand[g-1], hand[g])
}
