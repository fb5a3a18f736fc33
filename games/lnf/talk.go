package lnf

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cardtable/cardbot/games"
)

// Appeal is one rudeness appeal: the players other than Appellant and
// Offender vote on whether Offender was rude.
type Appeal struct {
	Appellant int
	Offender  int
	Quote     string   `json:",omitempty"`
	Votes     []string // per seat: "", voteYes or voteNo
	Open      bool
	Result    string `json:",omitempty"` // how it closed
}

const (
	voteYes     = "yes"
	voteNo      = "no"
	appealDraws = 2
)

// Say posts a player's table talk ("talk it up, in a positive way").
func (s *State) Say(seat int, speaker, line string) ([]games.Event, error) {
	if seat < 0 || seat >= len(s.Names) {
		return nil, games.Refuse("Only the players of this game can talk at its table.")
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, games.Refuse("Say something first.")
	}
	return []games.Event{games.Narrate("🗣️ %s: %s", speaker, oneLine(line, 1800))}, nil
}

// Timers lists one deadline per open appeal: the Clock closes the vote.
func (s *State) Timers() []games.Timer {
	var out []games.Timer
	for i, a := range s.Appeals {
		if a.Open {
			n := strconv.Itoa(i + 1)
			out = append(out, games.Timer{Key: "appeal" + n, Delay: time.Duration(s.Minutes) * time.Minute,
				Seat: games.Clock, Action: games.Act(VerbClose, n)})
		}
	}
	return out
}

// appeal opens a vote on whether the player in seat offender was rude to
// the appellant; quote is the message complained about.
func (s *State) appeal(seat int, offender, quote string) ([]games.Event, error) {
	if len(s.Names) < 3 {
		return nil, games.Refuse("Appeals need at least 3 players: someone other than the two of you has to judge.")
	}
	off, err := strconv.Atoi(offender)
	if err != nil || off < 0 || off >= len(s.Names) {
		return nil, games.Refuse("You can only appeal against a player in this game.")
	}
	if off == seat {
		return nil, games.Refuse("You can't appeal against yourself.")
	}
	for _, a := range s.Appeals {
		if a.Open && a.Offender == off {
			return nil, games.Refuse("There is already an open appeal against %s; wait for that vote to close.", s.Names[off])
		}
	}
	s.Appeals = append(s.Appeals, Appeal{Appellant: seat, Offender: off, Quote: oneLine(quote, 300),
		Votes: make([]string, len(s.Names)), Open: true})
	s.Last = fmt.Sprintf("%s appealed against %s for rudeness.", s.Names[seat], s.Names[off])
	return []games.Event{s.appealEvent(len(s.Appeals))}, nil
}

// appealNumber finds appeal n (counting from 1).
func (s *State) appealNumber(arg string) (int, *Appeal, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(s.Appeals) {
		return 0, nil, games.Refuse("There is no such appeal in this game.")
	}
	return n, &s.Appeals[n-1], nil
}

// vote records (or changes) a voter's verdict; once every voter has voted
// the appeal closes at once.
func (s *State) vote(seat int, arg, verdict string) ([]games.Event, error) {
	n, a, err := s.appealNumber(arg)
	if err != nil {
		return nil, err
	}
	switch {
	case !a.Open:
		return nil, games.Refuse("That appeal is closed.")
	case seat < 0 || seat >= len(s.Names):
		return nil, games.Refuse("Only the players of this game vote on its appeals.")
	case seat == a.Appellant:
		return nil, games.Refuse("You made this appeal: the other players decide it.")
	case seat == a.Offender:
		return nil, games.Refuse("This appeal is about you: the other players decide it.")
	case verdict != voteYes && verdict != voteNo:
		return nil, games.Refuse("Vote with the buttons: rude, or fair enough.")
	case a.Votes[seat] == verdict:
		return nil, nil // a double click: the vote stands as it was
	}
	a.Votes[seat] = verdict
	if a.voted() == len(s.Names)-2 {
		return s.settle(n), nil
	}
	return []games.Event{s.appealEvent(n)}, nil
}

// close ends a vote when its time is up; only the Clock does that.
func (s *State) close(seat int, arg string) ([]games.Event, error) {
	if seat != games.Clock {
		return nil, games.Refuse("An appeal closes by itself when its time is up.")
	}
	n, a, err := s.appealNumber(arg)
	if err != nil {
		return nil, err
	}
	if !a.Open {
		return nil, games.Refuse("That appeal is already closed.")
	}
	return s.settle(n), nil
}

// settle closes appeal n: a strict majority of the votes cast makes the
// offender draw two; a tie or no votes, no penalty.
func (s *State) settle(n int) []games.Event {
	a := &s.Appeals[n-1]
	a.Open = false
	yes, no := a.count()
	off := s.Names[a.Offender]
	var line string
	switch {
	case yes+no == 0:
		line = fmt.Sprintf("Nobody voted on the appeal against %s: no penalty.", off)
		a.Result = "Closed: nobody voted, so there is no penalty."
	case yes > no:
		got, re := s.drawCards(a.Offender, appealDraws)
		line = fmt.Sprintf("The table finds %s rude (%d–%d): %s draws %d.", off, yes, no, off, got)
		if re {
			line += " " + reshuffleNote
		}
		a.Result = fmt.Sprintf("Closed: rude, %d–%d. %s draws %d.", yes, no, off, got)
		s.Last = fmt.Sprintf("%s was found rude and drew %d.", off, got)
	default:
		line = fmt.Sprintf("The appeal against %s fails (%d–%d): no penalty.", off, yes, no)
		a.Result = fmt.Sprintf("Closed: fair enough, %d–%d. No penalty.", yes, no)
	}
	return []games.Event{s.appealEvent(n), games.Narrate("⚖️ %s", line)}
}

func (a Appeal) count() (yes, no int) {
	for _, v := range a.Votes {
		switch v {
		case voteYes:
			yes++
		case voteNo:
			no++
		}
	}
	return yes, no
}

func (a Appeal) voted() int { y, n := a.count(); return y + n }

// voters are the seats that judge an appeal.
func (s *State) voters(a Appeal) []int {
	var out []int
	for seat := range s.Names {
		if seat != a.Appellant && seat != a.Offender {
			out = append(out, seat)
		}
	}
	return out
}

// AppealVerb: rudeness is appealed against with VerbAppeal (games.Appealer).
func (s *State) AppealVerb() string { return VerbAppeal }

// ActVerbs: the appeal messages' vote buttons (games.MessageActor).
func (s *State) ActVerbs() []string { return []string{VerbVote} }

// appealEvent is the appeal's own message: the complaint, who votes, the
// tally (counts only) and, while it is open, the vote buttons.
func (s *State) appealEvent(n int) games.Event {
	a := s.Appeals[n-1]
	app, off := s.Names[a.Appellant], s.Names[a.Offender]
	var b strings.Builder
	fmt.Fprintf(&b, "⚖️ **%s** appeals against **%s** for rudeness", app, off)
	if a.Quote != "" {
		fmt.Fprintf(&b, ": \"%s\"", a.Quote)
	}
	b.WriteString("\n")
	yes, no := a.count()
	e := games.Event{Ref: "appeal" + strconv.Itoa(n), Story: true}
	if a.Open {
		fmt.Fprintf(&b, "%s: was it rude? A majority of the votes cast makes %s draw two. Voting closes in %s.\n",
			s.names(s.voters(a)), off, plural(s.Minutes, "minute"))
		fmt.Fprintf(&b, "Votes so far: %d rude, %d fair enough (%d of %d voted).", yes, no, yes+no, len(s.voters(a)))
		id := strconv.Itoa(n)
		e.Buttons = []games.Button{
			{Label: "Rude — draw two", Action: games.Act(VerbVote, id, voteYes), Style: games.Danger},
			{Label: "Fair enough", Action: games.Act(VerbVote, id, voteNo), Style: games.Secondary},
		}
	} else {
		b.WriteString(a.Result)
	}
	e.Text = b.String()
	return e
}
