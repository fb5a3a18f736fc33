package store

import (
	"maps"
	"slices"
	"sync"
)

// cache keeps decoded copies of what the bot reads on every interaction
// and every publish, so a record is not decoded from JSON each time:
//
//   - games: each channel's last committed record, replaced by the
//     committer in commit order. Readers get a private deep copy.
//   - posts: a game's message ids while writes to them are on their way
//     to disk (Done does not wait for its commit), so the output lane
//     reads what it last wrote.
type cache struct {
	mu    sync.Mutex
	games map[string]*Game // channel → record; never handed out
	// writes counts records committed; a read that missed puts its record
	// in only if none was committed meanwhile, which could be newer.
	writes uint64
	posts  map[string]*pendingPosts // game id → posts with writes under way
}

type pendingPosts struct {
	p      *Posts
	writes int // not yet committed
}

// maxCached bounds the cached records; past it an arbitrary one goes.
const maxCached = 10000

func newCache() *cache {
	return &cache{games: map[string]*Game{}, posts: map[string]*pendingPosts{}}
}

// game returns a copy of the channel's cached record, and the write count
// to pass to fill on a miss.
func (c *cache) game(channel string) (*Game, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.games[channel]; ok {
		return g.clone(), 0
	}
	return nil, c.writes
}

// gameIf returns a copy of the channel's cached record if want says so,
// and whether the channel's record was cached.
func (c *cache) gameIf(channel string, want func(*Game) bool) (*Game, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.games[channel]
	if !ok || !want(g) {
		return nil, ok
	}
	return g.clone(), true
}

// fill caches a record read from the file, unless a commit came between.
func (c *cache) fill(g *Game, writes uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writes == writes {
		c.putLocked(g.Channel, g.clone())
	}
}

// committed returns the committer's hook for a write of g: the record
// as it is now becomes the channel's, or (gone) the channel's is dropped.
func (c *cache) committed(g *Game, gone bool) func(error) {
	kept := g.clone()
	return func(err error) {
		if err != nil {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.writes++
		if gone {
			if cur, ok := c.games[kept.Channel]; ok && cur.ID == kept.ID {
				delete(c.games, kept.Channel)
			}
			return
		}
		c.putLocked(kept.Channel, kept)
	}
}

func (c *cache) putLocked(channel string, g *Game) {
	if _, ok := c.games[channel]; !ok && len(c.games) >= maxCached {
		for k := range c.games {
			delete(c.games, k)
			break
		}
	}
	c.games[channel] = g
}

// clone is a deep copy: nothing a reader changes reaches the cache.
// TestCloneCoversEveryField fails when a field is added that it misses.
func (g *Game) clone() *Game {
	c := *g
	c.Seats = slices.Clone(g.Seats)
	c.Options = maps.Clone(g.Options)
	c.State = slices.Clone(g.State)
	c.Waiting = slices.Clone(g.Waiting)
	c.Log = slices.Clone(g.Log)
	c.Tail = slices.Clone(g.Tail)
	c.Timers = maps.Clone(g.Timers)
	c.Reacts = cloneLists(g.Reacts)
	return &c
}

func (p *Posts) clone() *Posts {
	c := *p
	c.Refs = maps.Clone(p.Refs)
	c.Emoji = cloneLists(p.Emoji)
	return &c
}

// cloneLists copies a map of lists, the lists too; nil stays nil.
func cloneLists(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	c := make(map[string][]string, len(m))
	for k, v := range m {
		c[k] = slices.Clone(v)
	}
	return c
}

// pendingPosts returns a copy of a game's posts while writes are under way.
func (c *cache) pendingPosts(game string) *Posts {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pp, ok := c.posts[game]; ok {
		return pp.p.clone()
	}
	return nil
}

// patchPosts applies f to a game's posts as the next write will leave
// them (read reads the file when no write is under way), and returns the
// committer's hook that forgets them once no write is left.
func (c *cache) patchPosts(game string, f func(*Posts), read func() (*Posts, error)) (func(error), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pp, ok := c.posts[game]
	if !ok {
		p, err := read()
		if err != nil {
			return nil, err
		}
		pp = &pendingPosts{p: p}
		c.posts[game] = pp
	}
	f(pp.p)
	pp.writes++
	return func(error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if pp.writes--; pp.writes == 0 && c.posts[game] == pp {
			delete(c.posts, game)
		}
	}, nil
}
