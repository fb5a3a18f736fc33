package games

import "fmt"

// Input kinds: everything that can change a game, as the log records it.
const (
	InMove  = ""      // Apply(Seat, Action)
	InSay   = "say"   // Talker.Say(Seat, Name, Action.Text)
	InReact = "react" // Reactor.React(Seat, Ref, Emoji, Add)
	InJoin  = "join"  // Joiner.Join(Name)
	InLeave = "leave" // Joiner.Leave(Seat)
	InTimer = "timer" // a deadline: Apply(Seat, Action), Ref is the timer's key
)

// Input is one change to a game. The log of a game is its Setup and the
// inputs applied to it, so any game can be replayed to the same state.
type Input struct {
	Kind   string `json:"k,omitempty"`
	Seat   int    `json:"s"`
	Action Action `json:"a,omitempty"`
	Name   string `json:"n,omitempty"`
	Ref    string `json:"r,omitempty"`
	Emoji  string `json:"e,omitempty"`
	Add    bool   `json:"add,omitempty"`
}

// Step applies one input to a game.
func Step(g Game, in Input) ([]Event, error) {
	switch in.Kind {
	case InMove, InTimer:
		return g.Apply(in.Seat, in.Action)
	case InSay:
		t, ok := g.(Talker)
		if !ok {
			return nil, Refuse("This game has no role play.")
		}
		return t.Say(in.Seat, in.Name, in.Action.Text)
	case InReact:
		r, ok := g.(Reactor)
		if !ok {
			return nil, Refuse("Reactions don't count in this game.")
		}
		return r.React(in.Seat, in.Ref, in.Emoji, in.Add)
	case InJoin, InLeave:
		j, ok := g.(Joiner)
		if !ok {
			return nil, Refuse("Nobody can join or leave this game once it has started.")
		}
		if in.Kind == InLeave {
			return j.Leave(in.Seat)
		}
		_, ev, err := j.Join(in.Name)
		return ev, err
	}
	return nil, fmt.Errorf("unknown input kind %q", in.Kind)
}

// Replay rebuilds a game from its setup and its log. Every logged input was
// accepted once, so a refusal here means the game is not deterministic.
func Replay(r Rules, setup Setup, log []Input) (Game, error) {
	g, err := r.New(setup)
	if err != nil {
		return nil, fmt.Errorf("replay %s: new: %w", r.ID, err)
	}
	for i, in := range log {
		if _, err := Step(g, in); err != nil {
			return nil, fmt.Errorf("replay %s: input %d (%+v): %w", r.ID, i, in, err)
		}
	}
	return g, nil
}

// Label is a short human-readable form of an input, for histories.
func (in Input) Label() string {
	switch in.Kind {
	case InMove:
		s := in.Action.Key()
		if in.Action.Text != "" {
			s += fmt.Sprintf(" %q", in.Action.Text)
		}
		return s
	case InTimer:
		return fmt.Sprintf("deadline %s → %s", in.Ref, in.Action.Key())
	case InSay:
		return fmt.Sprintf("says %q", in.Action.Text)
	case InReact:
		if in.Add {
			return fmt.Sprintf("reacts %s on %s", in.Emoji, in.Ref)
		}
		return fmt.Sprintf("takes back %s on %s", in.Emoji, in.Ref)
	case InJoin:
		return fmt.Sprintf("%s joins", in.Name)
	case InLeave:
		return "leaves"
	}
	return in.Kind
}
