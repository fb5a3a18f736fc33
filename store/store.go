// Package store keeps games and per-server results in a bbolt file. Every
// write is one transaction, committed (fsynced) before it returns, so a move
// the bot has acknowledged survives a crash.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

var (
	bucketGames = []byte("games")  // channel id → running or lobby Game
	bucketEnded = []byte("ended")  // game id → Ended, so old buttons get a precise answer
	bucketStats = []byte("stats")  // guild id → Stats
	bucketOut   = []byte("outbox") // channel/sequence → Output still owed
)

// Store is the bot's database.
type Store struct {
	db *bolt.DB
}

// Open opens (or creates) the database file.
func Open(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("open database %s: another process is using it", path)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketGames, bucketEnded, bucketStats, bucketOut} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("prepare database %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Game returns the game open in a channel, or nil.
func (s *Store) Game(channel string) (*Game, error) {
	g, err := get[Game](s, bucketGames, channel)
	if err != nil {
		return nil, fmt.Errorf("load game in channel %s: %w", channel, err)
	}
	return g, nil
}

// get decodes one record, or returns nil if the key is absent.
func get[T any](s *Store, bucket []byte, key string) (*T, error) {
	var out *T
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get([]byte(key))
		if v == nil {
			return nil
		}
		out = new(T)
		return json.Unmarshal(v, out)
	})
	return out, err
}

// Save commits a game. The ids of the bot's own messages (the table, the
// ping, role-play lines) are kept as stored: they change only through Patch,
// from the bot's output lane, which works beside the moves and must not be
// undone by them.
func (s *Store) Save(g *Game) error {
	if err := s.db.Update(func(tx *bolt.Tx) error { return saveTx(tx, g) }); err != nil {
		return fmt.Errorf("save game %s: %w", g.ID, err)
	}
	return nil
}

// Ending is how a game ended, for Commit.
type Ending struct {
	How     string
	Results []PlayerResult
}

// Commit saves a move together with the output it owes the channel, in one
// transaction, so a crash before that output is done leaves it pending; with
// end set the game ends in the same transaction. It sets out.Key.
func (s *Store) Commit(g *Game, out *Output, end *Ending) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		if end != nil {
			err = endTx(tx, g, end.How, end.Results)
		} else {
			err = saveTx(tx, g)
		}
		if err != nil || out == nil {
			return err
		}
		return putOutput(tx, out)
	})
	if err != nil {
		return fmt.Errorf("commit game %s: %w", g.ID, err)
	}
	return nil
}

// stored returns the channel's record if it is game id, and whether the
// channel holds another game.
func stored(b *bolt.Bucket, channel, id string) (cur *Game, other bool, err error) {
	v := b.Get([]byte(channel))
	if v == nil {
		return nil, false, nil
	}
	cur = new(Game)
	if err := json.Unmarshal(v, cur); err != nil {
		return nil, false, err
	}
	if cur.ID != id {
		return nil, true, nil
	}
	return cur, false, nil
}

// keepOwned copies what only Patch may change from the stored record.
func keepOwned(g, cur *Game) {
	g.TableMsg, g.PingMsg, g.RolePlay = cur.TableMsg, cur.PingMsg, cur.RolePlay
}

func saveTx(tx *bolt.Tx, g *Game) error {
	b := tx.Bucket(bucketGames)
	cur, _, err := stored(b, g.Channel, g.ID)
	if err != nil {
		return err
	}
	if cur != nil {
		keepOwned(g, cur)
	}
	out, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return b.Put([]byte(g.Channel), out)
}

// Patch changes a game's bookkeeping (message ids) in one transaction on
// the record as it is now, so it never undoes a move saved meanwhile. It
// reports false, changing nothing, if the channel holds another game or none.
func (s *Store) Patch(channel, id string, f func(*Game)) (bool, error) {
	found := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		found, err = patchTx(tx, channel, id, f)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("update game %s: %w", id, err)
	}
	return found, nil
}

func patchTx(tx *bolt.Tx, channel, id string, f func(*Game)) (bool, error) {
	b := tx.Bucket(bucketGames)
	g, _, err := stored(b, channel, id)
	if err != nil || g == nil {
		return false, err
	}
	f(g)
	out, err := json.Marshal(g)
	if err != nil {
		return false, err
	}
	return true, b.Put([]byte(channel), out)
}

// Running lists every game that is open (lobby or in play).
func (s *Store) Running() ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			g := new(Game)
			if err := json.Unmarshal(v, g); err != nil {
				return err
			}
			out = append(out, g)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	return out, nil
}

// End closes a game in one transaction: it frees the channel, remembers how
// the game ended, and adds its results (if any) to the server's stats. A
// newer game in the channel is left alone.
func (s *Store) End(g *Game, how string, results []PlayerResult) error {
	if err := s.db.Update(func(tx *bolt.Tx) error { return endTx(tx, g, how, results) }); err != nil {
		return fmt.Errorf("end game %s: %w", g.ID, err)
	}
	return nil
}

func endTx(tx *bolt.Tx, g *Game, how string, results []PlayerResult) error {
	games := tx.Bucket(bucketGames)
	cur, other, err := stored(games, g.Channel, g.ID)
	if err != nil || other {
		return err // another game has begun since
	}
	if cur != nil {
		keepOwned(g, cur)
	}
	end, err := json.Marshal(Ended{ID: g.ID, Kind: g.Kind, Channel: g.Channel, How: how, Final: g})
	if err != nil {
		return err
	}
	if err := games.Delete([]byte(g.Channel)); err != nil {
		return err
	}
	if err := tx.Bucket(bucketEnded).Put([]byte(g.ID), end); err != nil {
		return err
	}
	if len(results) == 0 {
		return nil
	}
	return addResults(tx.Bucket(bucketStats), g.Guild, g.Kind, results)
}

func putOutput(tx *bolt.Tx, out *Output) error {
	b := tx.Bucket(bucketOut)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	out.Key = fmt.Sprintf("%s/%020d", out.Channel, seq)
	v, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return b.Put([]byte(out.Key), v)
}

// Done removes output that has been carried out and, in the same
// transaction, records what it changed on its game (f may be nil). It
// reports whether the game was still open to record it on.
func (s *Store) Done(out *Output, f func(*Game)) (bool, error) {
	found := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		if out.Key != "" {
			if err := tx.Bucket(bucketOut).Delete([]byte(out.Key)); err != nil {
				return err
			}
		}
		if f == nil {
			return nil
		}
		var err error
		found, err = patchTx(tx, out.Channel, out.Game, f)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("finish output of game %s: %w", out.Game, err)
	}
	return found, nil
}

// Pending lists the output still owed, per channel in the order it was owed.
func (s *Store) Pending() ([]*Output, error) {
	var out []*Output
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOut).ForEach(func(k, v []byte) error {
			o := new(Output)
			if err := json.Unmarshal(v, o); err != nil {
				return err
			}
			o.Key = string(k)
			out = append(out, o)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list pending output: %w", err)
	}
	return out, nil
}

// Ended looks up a finished game by id; nil if unknown.
func (s *Store) Ended(id string) (*Ended, error) {
	e, err := get[Ended](s, bucketEnded, id)
	if err != nil {
		return nil, fmt.Errorf("load ended game %s: %w", id, err)
	}
	return e, nil
}

// Stats returns a server's results, keyed by user id.
func (s *Store) Stats(guild string) (Stats, error) {
	st := Stats{}
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketStats).Get([]byte(guild)); v != nil {
			return json.Unmarshal(v, &st)
		}
		return nil
	})
	return st, err
}

func addResults(b *bolt.Bucket, guild, kind string, results []PlayerResult) error {
	st := Stats{}
	if v := b.Get([]byte(guild)); v != nil {
		if err := json.Unmarshal(v, &st); err != nil {
			return err
		}
	}
	for _, r := range results {
		p := st[r.User]
		if p == nil {
			p = &PlayerStats{Games: map[string]*Tally{}}
			st[r.User] = p
		}
		p.Name = r.Name
		t := p.Games[kind]
		if t == nil {
			t = &Tally{}
			p.Games[kind] = t
		}
		t.Played++
		if r.Won {
			t.Won++
		}
	}
	v, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return b.Put([]byte(guild), v)
}
