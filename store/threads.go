package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketGuilds  = []byte("guilds")  // guild id → Settings
	bucketThreads = []byte("threads") // thread id → Thread, for games that moved into one
)

// Settings are a server's choices, set with /game settings.
type Settings struct {
	// NoThreads keeps games in their channel even where the bot may start
	// threads (the default is a thread per game).
	NoThreads bool `json:"no_threads,omitempty"`
}

// Thread ties a thread the bot started to the channel whose game lives in
// it: events from the thread are that channel's.
type Thread struct {
	Channel string `json:"channel"`
	Game    string `json:"game"`
	Guild   string `json:"guild"`
}

// Settings returns a server's settings (the defaults if never set).
func (s *Store) Settings(guild string) (Settings, error) {
	v, err := get[Settings](s, bucketGuilds, guild)
	if err != nil {
		return Settings{}, fmt.Errorf("load settings of server %s: %w", guild, err)
	}
	if v == nil {
		return Settings{}, nil
	}
	return *v, nil
}

// SetSettings saves a server's settings.
func (s *Store) SetSettings(guild string, v Settings) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketGuilds).Put([]byte(guild), data) }); err != nil {
		return fmt.Errorf("save settings of server %s: %w", guild, err)
	}
	return nil
}

// ThreadOf returns what a thread belongs to, or nil for any other channel.
func (s *Store) ThreadOf(thread string) (*Thread, error) {
	t, err := get[Thread](s, bucketThreads, thread)
	if err != nil {
		return nil, fmt.Errorf("load thread %s: %w", thread, err)
	}
	return t, nil
}

// MoveToThread records that a game now lives in a thread, its message ids
// and the thread's tie to its channel in one transaction; f patches the
// game's Posts further.
func (s *Store) MoveToThread(thread string, t Thread, f func(*Posts)) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	err = s.update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketThreads).Put([]byte(thread), data); err != nil {
			return err
		}
		return patchPosts(tx, t.Game, t.Channel, f)
	})
	if err != nil {
		return fmt.Errorf("move game %s to thread %s: %w", t.Game, thread, err)
	}
	return nil
}

// forgetThread drops a pruned game's thread tie.
func forgetThread(tx *bolt.Tx, game string) error {
	v := tx.Bucket(bucketPosts).Get([]byte(game))
	if v == nil {
		return nil
	}
	var p Posts
	if err := json.Unmarshal(v, &p); err != nil || p.Thread == "" {
		return err
	}
	return tx.Bucket(bucketThreads).Delete([]byte(p.Thread))
}
