package bot

import (
	"context"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// clicked counts, per public message, the clicks on it still waiting for
// their answer. A message is not deleted under such a click: its answer
// (an update of the message, or its acknowledgement as one) would meet a
// deleted message, which Discord answers 404, and the click fails. A table
// replaced below the story is removed just after such an answer instead.
type clicked struct {
	mu sync.Mutex
	on map[string]*clicks
}

type clicks struct {
	n    int
	done chan struct{} // closed when the last of them is answered
}

// clickedOn is the public message i was clicked on, or "".
func clickedOn(i *discordgo.Interaction) string {
	if i.Message == nil || i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return "" // an ephemeral message is never deleted
	}
	if i.Type != discordgo.InteractionMessageComponent && i.Type != discordgo.InteractionModalSubmit {
		return ""
	}
	return i.Message.ID
}

func (c *clicked) enter(id string) {
	if id == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on == nil {
		c.on = map[string]*clicks{}
	}
	k := c.on[id]
	if k == nil {
		k = &clicks{done: make(chan struct{})}
		c.on[id] = k
	}
	k.n++
}

func (c *clicked) leave(id string) {
	if id == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.on[id]; k != nil {
		if k.n--; k.n == 0 {
			close(k.done)
			delete(c.on, id)
		}
	}
}

// maxClickWait bounds how long a deletion waits for the answers to clicks
// on the message: past Discord's 3 s, and a deferred answer's edit.
const maxClickWait = 5 * time.Second

// answered waits until no click on message id waits for its answer.
func (c *clicked) answered(ctx context.Context, id string) {
	c.mu.Lock()
	k := c.on[id]
	c.mu.Unlock()
	if k == nil {
		return
	}
	t := time.NewTimer(maxClickWait)
	defer t.Stop()
	select {
	case <-k.done:
	case <-t.C:
	case <-ctx.Done():
	}
}
