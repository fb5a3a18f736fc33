package life

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cardtable/cardbot/games"
)

// pick chooses a text variant from the game's situation, so that variety
// never consumes the RNG and a replay reads the same.
func pick(list []string, keys ...int) string {
	h := uint64(14695981039346656037)
	for _, k := range keys {
		h ^= uint64(k)
		h *= 1099511628211
		h ^= h >> 29
	}
	return list[h%uint64(len(list))]
}

func cardKey(c games.Card) int { return c.Rank*4 + int(c.Suit) }

// story builds a Narrate event, kept within the bot's message budget.
func story(text string) games.Event { return games.Narrate("%s", clip(text)) }

func clip(text string) string {
	r := []rune(text)
	if len(r) <= maxEvent {
		return text
	}
	return string(r[:maxEvent-1]) + "…"
}

// bounds returns the strongest and weakest advantage of a set of cards:
// the first highest and the first lowest in the fixed order.
func bounds(cards [6]games.Card) (hi, lo int) {
	for i, c := range cards {
		if c.PipValue() > cards[hi].PipValue() {
			hi = i
		}
		if c.PipValue() < cards[lo].PipValue() {
			lo = i
		}
	}
	return hi, lo
}

var castOpeners = []string{
	"🎴 **The cards are dealt — meet the cast.**",
	"🎴 **The cards are down and the characters take shape.**",
	"🎴 **Everyone has been dealt a hand. Now to play it.**",
}

var castLines = []string{
	"• **%s** — strongest in %s (%s), weakest in %s (%s).",
	"• **%s** — blessed with %s (%s), short on %s (%s).",
	"• **%s** — can count on %s (%s), not so much on %s (%s).",
}

func (s *State) castEvent() games.Event {
	var b strings.Builder
	b.WriteString(pick(castOpeners, len(s.Players), cardKey(s.Start[0][0])))
	b.WriteString("\n")
	for seat, name := range s.Players {
		hi, lo := bounds(s.Start[seat])
		if s.Start[seat][hi].PipValue() == s.Start[seat][lo].PipValue() {
			fmt.Fprintf(&b, "• **%s** — every advantage the same strength (%s): a perfectly even start.\n",
				name, s.Start[seat][hi])
			continue
		}
		fmt.Fprintf(&b, pick(castLines, seat, cardKey(s.Start[seat][hi]))+"\n", name,
			advNames[hi], s.Start[seat][hi], advNames[lo], s.Start[seat][lo])
	}
	if s.Roleplay {
		b.WriteString("Introduce your character with /say — two or three sentences: who they are, where they come from, " +
			"what they lean on and what they lack. ")
	}
	fmt.Fprintf(&b, "When everyone is ready, %s presses **Begin** in their hand and Childhood starts.", s.Players[0])
	return story(b.String())
}

var stagePrompts = [6][]string{
	{ // Childhood
		"What did the world ask of a small child — a new baby at home, a schoolyard bully, a long winter with too little?",
		"Somewhere between the first day of school and the last day of summer, something went wrong. What was it?",
		"Every childhood has one storm in it. Tell us about this one.",
		"A grown-up broke a promise, or a best friend moved away. What happened?",
	},
	{ // Adolescence
		"Exams, first jobs, slammed doors: which one is about to define these years?",
		"The teen years ask who you are going to be. What is forcing the question?",
		"Independence is close enough to taste. What stands between you and it?",
		"A choice about school, friends or leaving home hangs in the balance. Which one?",
	},
	{ // Romance
		"Someone has caught your eye — or you have noticed that nobody has. How does your heart's story go?",
		"Love asks for courage. What do you risk to find it, or to keep it?",
		"A proposal, a breakup, a confession held back for years: what happens?",
		"How does your character make peace with love, in whatever shape it takes for them?",
	},
	{ // Career
		"The work you do in the world starts here. Which door are you trying to open?",
		"A boss, a studio, a rival or a bank: someone has to believe in you. Who?",
		"Your calling may pay or it may not. What are you building, and what threatens it?",
		"A first break, a promotion, a risky side venture — what do you need to land?",
	},
	{ // Achievement
		"With love and work in place, what summit are you reaching for now?",
		"This is the chance to leave a mark — a child, a masterpiece, a town that remembers you. What is it?",
		"What would make all of it feel worth it? Here is your shot.",
		"Something bigger than yourself is within reach. What stands in the way?",
	},
	{ // Old age
		"The years are catching up. What arrives first — illness, loneliness, or a final reckoning?",
		"Bones ache and old friends grow fewer. What does late life demand of you?",
		"There is a last battle in every life. What is yours?",
		"Memory, health, pride: old age comes for one of them. Which?",
	},
}

var drawLines = []string{
	"🃏 **%s** — %s. The challenge: **%s** (%d).",
	"🃏 %[2]s comes for **%[1]s**: **%[3]s**, worth %[4]d.",
	"🃏 **%s** draws %s challenge: **%s** (%d).",
}

func (s *State) challengeEvent(seat int, c games.Card, header bool) games.Event {
	var b strings.Builder
	if header {
		fmt.Fprintf(&b, "**— Round %d of %d: %s —**\n", s.Round+1, rounds, stageNames[s.Round])
	}
	st := s.stage(seat, s.Round)
	k := cardKey(c)
	line := pick(drawLines, s.Round, seat, k)
	stage := stageNames[st]
	if strings.Contains(line, "draws %s") {
		stage = article(stage)
	}
	fmt.Fprintf(&b, line, s.Players[seat], stage, c, c.PipValue())
	b.WriteString("\n*" + pick(stagePrompts[st], s.Round, seat, k, 1) + "*\n")
	if s.faceUp(seat) == 0 {
		fmt.Fprintf(&b, "With nothing left face up, %s can only roll and see what the dice say.", s.Players[seat])
	} else {
		fmt.Fprintf(&b, "To win, the dice must show at least %d and no more than the advantage %s chooses.",
			s.lowestWin(c), s.Players[seat])
	}
	return story(b.String())
}

var advFlavour = [6][]string{
	{ // Family
		"%s turns to Family — parents, siblings, or the people they chose as kin.",
		"%s calls home. Family will have to carry this one.",
		"%s leans on the people who share their table and their name.",
	},
	{ // Money
		"%s reaches for the wallet: Money should smooth the way.",
		"%s tries to pay their way through with Money.",
		"%s spends what they have — Money is the plan.",
	},
	{ // Friends
		"%s rallies their Friends.",
		"%s makes a few calls; their Friends owe them one.",
		"%s trusts that their Friends will show up.",
	},
	{ // Mind
		"%s thinks it through — Mind against the problem.",
		"%s studies, plans and tries to out-think it.",
		"%s bets on wit: Mind it is.",
	},
	{ // Body
		"%s trusts their Body — strength, looks and health.",
		"%s puts their Body on the line.",
		"%s meets it head on; Body will decide.",
	},
	{ // Heart
		"%s answers with Heart — courage and an open hand.",
		"%s leads with Heart, come what may.",
		"%s digs deep into their Heart and keeps going.",
	},
}

var lossLines = [6][]string{
	{ // Family
		"Words are said that can't be taken back, and the family drifts apart.",
		"The calls home get shorter, then stop.",
		"The family table has an empty chair now.",
	},
	{ // Money
		"The savings drain away and don't come back.",
		"A bad bet, a worse loan, and the money is gone.",
		"The bills win.",
	},
	{ // Friends
		"One by one, the friends stop answering.",
		"Asked for too much, the friends quietly step back.",
		"The group chat goes silent.",
	},
	{ // Mind
		"The confidence in their own judgement cracks.",
		"The plan falls apart, and with it their faith in their wits.",
		"Too clever by half — and now nobody listens.",
	},
	{ // Body
		"An injury that never quite heals.",
		"The body gives out at the worst moment.",
		"Health, once taken for granted, is gone.",
	},
	{ // Heart
		"Something inside goes quiet and stays quiet.",
		"They close up to keep from getting hurt again.",
		"The courage drains away.",
	},
}

var winLines = []string{
	"They rise to the moment.",
	"It isn't easy, but it works.",
	"Life bends their way this time.",
	"Against the odds, they come through.",
}

var bareLines = []string{
	"With nothing to lean on, the moment passes them by.",
	"No advantage left to spend: the challenge wins.",
	"The dice roll, but there is nothing left to stake.",
}

var deathLines = []string{
	"%s's life ends suddenly, in %s.",
	"The story of %s stops mid-sentence, in %s.",
	"Without warning, %s is gone — taken in %s.",
}

func (s *State) rollEvent(seat int, ch Chapter) games.Event {
	var b strings.Builder
	name := s.Players[seat]
	c := *ch.Card
	k := cardKey(c)
	total := ch.Dice[0] + ch.Dice[1]
	if ch.Adv >= 0 {
		b.WriteString(fmt.Sprintf(pick(advFlavour[ch.Adv], s.Round, seat, k), name) + "\n")
		fmt.Fprintf(&b, "🎲 %d + %d = **%d** against the %s (%d), with %s %s (%d).\n",
			ch.Dice[0], ch.Dice[1], total, c, c.PipValue(), advNames[ch.Adv], ch.With, ch.With.PipValue())
	} else {
		fmt.Fprintf(&b, "%s has nothing left to lean on, but rolls all the same.\n", name)
		fmt.Fprintf(&b, "🎲 %d + %d = **%d** against the %s (%d).\n", ch.Dice[0], ch.Dice[1], total, c, c.PipValue())
	}
	switch ch.Result {
	case resDied:
		b.WriteString("💀 **Snake eyes.** " + fmt.Sprintf(pick(deathLines, s.Round, seat, k), name, stageNames[ch.Stage]))
		if s.Roleplay {
			b.WriteString("\n*Tell us how it happened.*")
		}
	case resBare:
		b.WriteString("**Failure.** " + pick(bareLines, s.Round, seat, k))
	case resWon:
		fmt.Fprintf(&b, "**Success!** %s %s may take the %s into their life in place of any one advantage, or keep the cards they have.",
			pick(winLines, s.Round, seat, k), name, c)
		if s.Roleplay {
			b.WriteString("\n*Tell us how they pulled it off.*")
		}
	case resLost:
		if total < c.PipValue() {
			fmt.Fprintf(&b, "**Failure** — not enough; it needed at least %d. ", c.PipValue())
		} else {
			fmt.Fprintf(&b, "**Failure** — too much; %s only reaches %d. ", advNames[ch.Adv], ch.With.PipValue())
		}
		fmt.Fprintf(&b, "%s **%s is lost** and turns face down.", pick(lossLines[ch.Adv], s.Round, seat, k), advNames[ch.Adv])
		if s.Roleplay {
			b.WriteString("\n*Tell us what it cost them.*")
		}
	}
	return story(b.String())
}

var replaceUpLines = []string{
	"%[1]s takes the %[2]s into their life as their new %[3]s, letting the %[4]s go.",
	"%[1]s's %[3]s is reshaped by what they went through: the %[2]s replaces the %[4]s.",
	"Changed by the challenge, %[1]s trades the %[4]s for the %[2]s as their %[3]s.",
}

var replaceDownLines = []string{
	"%[1]s rebuilds their lost %[3]s with the %[2]s — it is back, face up.",
	"What was lost returns: the %[2]s restores %[1]s's %[3]s.",
	"Out of the struggle, %[1]s finds a new %[3]s: the %[2]s.",
}

func (s *State) replaceEvent(seat int, ch Chapter) games.Event {
	k := cardKey(*ch.Card)
	lines := replaceUpLines
	if !ch.OldUp {
		lines = replaceDownLines
	}
	return story(fmt.Sprintf(pick(lines, s.Round, seat, k), s.Players[seat], *ch.Card, advNames[ch.Took], *ch.Old))
}

// lastLine is the short account of a roll shown on the table.
func (s *State) lastLine(seat int, ch Chapter) string {
	name := s.Players[seat]
	total := ch.Dice[0] + ch.Dice[1]
	with := "nothing face up"
	if ch.Adv >= 0 {
		with = fmt.Sprintf("%s (%s)", advNames[ch.Adv], ch.With)
	}
	head := fmt.Sprintf("%s rolled %d+%d = %d with %s against the %s", name, ch.Dice[0], ch.Dice[1], total, with, ch.Card)
	switch ch.Result {
	case resDied:
		return head + ": snake eyes — " + name + " died."
	case resWon:
		return head + ": success."
	case resLost:
		return head + ": failure, " + advNames[ch.Adv] + " lost."
	}
	return head + ": failure."
}

var wonChapter = []string{
	"In %[1]s, %[2]s carried them through (rolled %[3]d against the %[4]s)",
	"%[1]s was won with %[2]s (rolled %[3]d against the %[4]s)",
	"In %[1]s they trusted %[2]s and it held (rolled %[3]d against the %[4]s)",
}

var lostChapter = []string{
	"In %[1]s they leaned on %[2]s and lost it (rolled %[3]d against the %[4]s).",
	"%[1]s cost them their %[2]s (rolled %[3]d against the %[4]s).",
	"In %[1]s, %[2]s failed them for good (rolled %[3]d against the %[4]s).",
}

// lifeEvent tells one character's life from their history.
func (s *State) lifeEvent(seat int) games.Event {
	var b strings.Builder
	name := s.Players[seat]
	hi, lo := bounds(s.Start[seat])
	fmt.Fprintf(&b, "📖 **%s** ", name)
	if s.Start[seat][hi].PipValue() == s.Start[seat][lo].PipValue() {
		fmt.Fprintf(&b, "started life with every advantage equal (%s).", s.Start[seat][hi])
	} else {
		fmt.Fprintf(&b, "started life with %s as their greatest strength (%s) and %s as their weak spot (%s).",
			advNames[hi], s.Start[seat][hi], advNames[lo], s.Start[seat][lo])
	}
	wins, losses := 0, 0
	for i, ch := range s.History[seat] {
		b.WriteString("\n")
		stage := stageNames[ch.Stage]
		switch ch.Result {
		case resWon:
			wins++
			fmt.Fprintf(&b, pick(wonChapter, seat, i, cardKey(*ch.Card)), stage, advNames[ch.Adv], ch.Dice[0]+ch.Dice[1], ch.Card)
			switch {
			case ch.Took < 0:
				b.WriteString(", and they kept what they had.")
			case ch.OldUp:
				fmt.Fprintf(&b, ", and the %s became their %s in place of the %s.", ch.Card, advNames[ch.Took], ch.Old)
			default:
				fmt.Fprintf(&b, ", and the %s gave them back the %s they had lost.", ch.Card, advNames[ch.Took])
			}
		case resLost:
			losses++
			fmt.Fprintf(&b, pick(lostChapter, seat, i, cardKey(*ch.Card)), stage, advNames[ch.Adv], ch.Dice[0]+ch.Dice[1], ch.Card)
		case resBare:
			fmt.Fprintf(&b, "In %s, with nothing left to lean on, the %s passed them by.", stage, ch.Card)
		case resDied:
			fmt.Fprintf(&b, "In %s, snake eyes: their life ended without warning.", stage)
		case resSkipped:
			fmt.Fprintf(&b, "In %s, no challenge came.", stage)
		}
	}
	b.WriteString("\n")
	switch {
	case wins == 0 && losses == 0:
	case losses == 0:
		fmt.Fprintf(&b, "They won %s and never lost an advantage. ", plural(wins, "challenge"))
	case wins == 0:
		fmt.Fprintf(&b, "They never won a challenge, and lost %s. ", plural(losses, "advantage"))
	default:
		fmt.Fprintf(&b, "Along the way they won %s and lost %s. ", plural(wins, "challenge"), plural(losses, "advantage"))
	}
	var standing []string
	for i, sl := range s.Boards[seat] {
		if sl.Up {
			standing = append(standing, fmt.Sprintf("%s %s", advNames[i], sl.Card))
		}
	}
	pts := s.cardPoints(seat)
	switch {
	case s.dead(seat) && len(standing) == 0:
		fmt.Fprintf(&b, "They died in %s with nothing left face up.", stageNames[s.DiedIn[seat]])
	case s.dead(seat):
		fmt.Fprintf(&b, "They died in %s with %s still standing: %s — %d points on the cards.",
			stageNames[s.DiedIn[seat]], plural(len(standing), "advantage"), strings.Join(standing, ", "), pts)
	case len(standing) == 0:
		b.WriteString("They reach the end of the road with nothing left face up.")
	default:
		fmt.Fprintf(&b, "They reach old age's end with %s standing: %s — %d points on the cards.",
			plural(len(standing), "advantage"), strings.Join(standing, ", "), pts)
	}
	return story(b.String())
}

// article puts "a" or "an" before a stage name.
func article(word string) string {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// points writes a score with its noun: "1 point", "−3 points".
func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return signed(n) + " points"
}

// scoreLine explains one seat's score.
func (s *State) scoreLine(seat int) string {
	if !s.Roleplay {
		return fmt.Sprintf("%s (%s face up)", signed(s.Score(seat)), plural(s.faceUp(seat), "advantage"))
	}
	given, received := s.markers(seat)
	// signed: the table writes a score below zero with a real minus sign.
	return fmt.Sprintf("%s (cards %d, markers +%d −%d; %s face up)", signed(s.Score(seat)), s.cardPoints(seat),
		received, startMarkers-given, plural(s.faceUp(seat), "advantage"))
}

func (s *State) scoresEvent() games.Event {
	var b strings.Builder
	b.WriteString("🏁 **Final scores**\n")
	order := make([]int, len(s.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, c := order[i], order[j]
		return compare(s.Score(a), s.faceUp(a), s.Score(c), s.faceUp(c)) > 0
	})
	for _, seat := range order {
		fmt.Fprintf(&b, "**%s** — %s\n", s.Players[seat], s.scoreLine(seat))
	}
	b.WriteString(s.winnerLine())
	return story(b.String())
}

func (s *State) winnerLine() string {
	w := s.winners()
	names := make([]string, len(w))
	for i, seat := range w {
		names[i] = "**" + s.Players[seat] + "**"
	}
	top := s.Score(w[0])
	tiedOnScore := 0
	for seat := range s.Players {
		if s.Score(seat) == top {
			tiedOnScore++
		}
	}
	switch {
	case len(w) > 1:
		return fmt.Sprintf("🏆 %s share the win with %s and %s face up each.",
			joinNames(names), points(top), plural(s.faceUp(w[0]), "advantage"))
	case tiedOnScore > 1:
		return fmt.Sprintf("🏆 %s wins the tie on %s with the most advantages still face up.", names[0], points(top))
	case len(s.Players) == 1:
		return fmt.Sprintf("🏆 %s finishes with %s.", names[0], points(top))
	}
	return fmt.Sprintf("🏆 %s wins with %s.", names[0], points(top))
}

func joinNames(names []string) string {
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
