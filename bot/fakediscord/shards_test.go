package fakediscord

import (
	"strconv"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// Two sessions identify as shards 0 and 1 of 2: each gets READY and
// GUILD_CREATE for its own guild only, and an interaction, a reaction or a
// new channel in a guild reaches the shard that owns it and no other.
func TestShardsGetTheirGuildsOnly(t *testing.T) {
	t.Parallel()
	s := New(t)
	first, _ := strconv.ParseUint(s.GuildID(), 10, 64)
	own := int((first >> 22) % 2)
	other := s.AddGuild("Other Guild", 1-own, 2)
	guilds := map[int]string{own: s.GuildID(), 1 - own: other}
	s.SetRecommendedShards(2)

	type seen struct {
		mu       sync.Mutex
		ready    []string
		created  []string
		commands []string
		channels []string
	}
	var got [2]*seen
	var sess [2]*discordgo.Session
	for shard := range 2 {
		got[shard] = &seen{}
		g := got[shard]
		sess[shard] = session(s, BotToken)
		sess[shard].ShardID, sess[shard].ShardCount = shard, 2
		if shard == 0 {
			gw, err := sess[shard].GatewayBot()
			if err != nil || gw.Shards != 2 {
				t.Fatalf("GET /gateway/bot = %+v, %v; want 2 shards", gw, err)
			}
		}
		sess[shard].AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
			g.mu.Lock()
			defer g.mu.Unlock()
			for _, x := range r.Guilds {
				g.ready = append(g.ready, x.ID)
			}
		})
		sess[shard].AddHandler(func(_ *discordgo.Session, c *discordgo.GuildCreate) {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.created = append(g.created, c.ID)
		})
		sess[shard].AddHandler(func(_ *discordgo.Session, c *discordgo.ChannelCreate) {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.channels = append(g.channels, c.GuildID)
		})
		sess[shard].AddHandler(func(ds *discordgo.Session, i *discordgo.InteractionCreate) {
			g.mu.Lock()
			g.commands = append(g.commands, i.GuildID)
			g.mu.Unlock()
			respond(ds, i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{Content: "pong from " + strconv.Itoa(shard)})
		})
		if err := sess[shard].Open(); err != nil {
			t.Fatalf("shard %d: Open: %v", shard, err)
		}
		t.Cleanup(func() { go sess[shard].Close() })
	}
	if _, err := sess[0].ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{pingCmd}); err != nil {
		t.Fatal(err)
	}
	s.Sync()

	u := s.AddUser("Ann")
	for shard := range 2 {
		r := u.Command(s.GuildChannelID(guilds[shard]), "ping")
		if r == nil || r.Content != "pong from "+strconv.Itoa(shard) {
			t.Errorf("/ping in the guild of shard %d answered %+v", shard, r)
		}
		s.NewChannelIn(guilds[shard], "more")
	}
	s.Sync()
	for shard := range 2 {
		g := got[shard]
		g.mu.Lock()
		want := []string{guilds[shard]}
		for name, list := range map[string][]string{"READY guilds": g.ready, "GUILD_CREATE": g.created, "interactions": g.commands, "CHANNEL_CREATE": g.channels} {
			if len(list) != 1 || list[0] != want[0] {
				t.Errorf("shard %d: %s for guilds %v; want %v", shard, name, list, want)
			}
		}
		g.mu.Unlock()
	}
}

// AddGuild's IDs land on the shard asked for, under any count.
func TestAddGuildShard(t *testing.T) {
	t.Parallel()
	s := New(t)
	for count := 1; count <= 5; count++ {
		for shard := range count {
			id, err := strconv.ParseUint(s.AddGuild("G", shard, count), 10, 64)
			if err != nil || int((id>>22)%uint64(count)) != shard {
				t.Errorf("AddGuild on shard %d of %d gave %d (%v)", shard, count, id, err)
			}
		}
	}
}

// An identify with a shard outside its count is closed with 4010.
func TestInvalidShard(t *testing.T) {
	t.Parallel()
	s := New(t)
	s.ExpectFailure("identify with shard [2 2]")
	sess := session(s, BotToken)
	sess.Identify.Shard = &[2]int{2, 2} // discordgo would refuse ShardID >= ShardCount itself
	if err := sess.Open(); err == nil {
		defer sess.Close()
	}
	s.Sync()
}
