package bot

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/cardtable/cardbot/store"
)

// readShards reads SHARD_ID and SHARD_COUNT. With a known count above one
// the database path gets the shard in its name (store.ShardPath), so each
// shard keeps its own file.
func (c *Config) readShards(getenv func(string) string) error {
	c.ShardCount = 1
	idText := strings.TrimSpace(getenv("SHARD_ID"))
	if idText != "" {
		id, err := strconv.Atoi(idText)
		if err != nil || id < 0 {
			return fmt.Errorf("SHARD_ID must be a whole number from 0 to SHARD_COUNT-1, not %q", idText)
		}
		c.ShardID = id
	}
	switch n := strings.ToLower(strings.TrimSpace(getenv("SHARD_COUNT"))); n {
	case "":
		if c.ShardID != 0 {
			return fmt.Errorf("SHARD_ID is %d but SHARD_COUNT is not set: set SHARD_COUNT to the number of shards, the same in every process", c.ShardID)
		}
	case "auto":
		c.ShardCount, c.ShardAuto = 0, true
		return nil
	default:
		count, err := strconv.Atoi(n)
		if err != nil || count < 1 {
			return fmt.Errorf("SHARD_COUNT must be a whole number of shards (1 or more) or auto for Discord's recommendation, not %q", n)
		}
		c.ShardCount = count
	}
	return c.setShard(c.ShardCount, "SHARD_COUNT is")
}

func (c *Config) setShard(count int, source string) error {
	if c.ShardID >= count {
		return fmt.Errorf("SHARD_ID is %d but %s %d: shards are numbered 0 to %d, so give each process its own SHARD_ID in that range", c.ShardID, source, count, count-1)
	}
	c.ShardCount = count
	c.DBPath = store.ShardPath(c.DBPath, c.ShardID, count)
	return nil
}

// ResolveShards asks Discord for its recommended shard count when
// SHARD_COUNT is auto, then makes sure this shard's games are where it
// looks: a missing file beside the files of another count means the count
// changed without a reshard, and starting would hide those games.
func (c *Config) ResolveShards() error {
	base := c.DBPath
	if c.ShardAuto {
		n, err := RecommendedShards(*c)
		if err != nil {
			return err
		}
		if err := c.setShard(n, "Discord recommends a SHARD_COUNT of"); err != nil {
			return err
		}
		c.ShardAuto = false
	} else if c.ShardCount > 1 {
		base = strings.Replace(c.DBPath, fmt.Sprintf(".shard-%d-of-%d", c.ShardID, c.ShardCount), "", 1)
	}
	if _, err := os.Stat(c.DBPath); err == nil {
		return nil
	}
	ext := filepath.Ext(base)
	found, _ := filepath.Glob(strings.TrimSuffix(base, ext) + ".shard-*-of-*" + ext)
	if _, err := os.Stat(base); err == nil {
		found = append(found, base)
	}
	for _, f := range found {
		old := 1
		if m := shardName.FindStringSubmatch(f); m != nil {
			old, _ = strconv.Atoi(m[1])
		}
		if old != c.ShardCount {
			return fmt.Errorf("%s does not exist but %s does: the shard count changed from %d to %d; stop every process, move the games with "+
				"go run ./cmd/reshard -db %s -from %d -to %d, then start the new set", c.DBPath, f, old, c.ShardCount, base, old, c.ShardCount)
		}
	}
	return nil
}

var shardName = regexp.MustCompile(`\.shard-\d+-of-(\d+)(\.[^./\\]*)?$`)

// RecommendedShards is the shard count Discord recommends for the bot
// (GET /gateway/bot).
func RecommendedShards(cfg Config) (int, error) {
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return 0, err
	}
	if cfg.APIURL != "" {
		s.Client = &http.Client{Transport: newRewrite(cfg.APIURL, http.DefaultTransport), Timeout: 20 * time.Second}
	}
	g, err := s.GatewayBot()
	if err != nil {
		return 0, tokenError(fmt.Errorf("ask Discord for the recommended SHARD_COUNT: %w", err))
	}
	if g.Shards < 1 {
		return 0, fmt.Errorf("the shard count Discord recommends is %d: set SHARD_COUNT to a number instead of auto", g.Shards)
	}
	return g.Shards, nil
}
