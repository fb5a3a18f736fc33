package store

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// A game's record is JSON. A big table's (six players of Play the Hand
// You're Dealt with their histories, eight of Life is not fair) ran to 5-8
// KiB with Discord-sized tokens, over the 4 KiB an open game may keep. So a
// record that, with its entries in the timer index, would pass packOver
// bytes is stored deflated, behind a zero byte that no JSON value begins
// with. Smaller ones, a duel's among them, stay JSON: deflating costs about
// a tenth of a move's CPU. Records of earlier builds are all JSON, and are
// read as they are.
const packOver = 3 << 10

// timerCost is about what one timer adds to the index: its key, the game's
// id and bbolt's entry header.
const timerCost = 64

// maxUnpacked bounds what a damaged packed record may inflate to; a real
// one is a few KiB.
const maxUnpacked = 4 << 20

// packedMark begins a deflated record.
const packedMark = 0

// Deflaters and inflaters are kept for the next record: a deflater costs
// 475 KiB and 63 µs to make (an inflater 44 KiB), ten times the deflating
// of a record, and a sync.Pool would drop them at every collection. A few
// are enough for the channels committing and reading at once.
var (
	packers   = make(chan *flate.Writer, 4)
	unpackers = make(chan io.ReadCloser, 4)
)

// packRecord returns g's encoded record as it is stored: deflated when the
// game is big and that pays.
func packRecord(g *Game, rec []byte) []byte {
	if len(rec)+timerCost*len(g.Timers) <= packOver || len(rec) > maxUnpacked {
		return rec // beyond maxUnpacked, packed would not read back
	}
	var buf bytes.Buffer
	buf.Grow(len(rec) / 2)
	buf.WriteByte(packedMark)
	var w *flate.Writer
	select {
	case w = <-packers:
		w.Reset(&buf)
	default:
		w, _ = flate.NewWriter(&buf, flate.BestSpeed)
	}
	_, err := w.Write(rec)
	if err == nil {
		err = w.Close()
	}
	select {
	case packers <- w:
	default:
	}
	if err != nil || buf.Len() >= len(rec) {
		return rec
	}
	return buf.Bytes()
}

// recordJSON is a stored record's JSON.
func recordJSON(v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != packedMark {
		return v, nil
	}
	src := bytes.NewReader(v[1:])
	var r io.ReadCloser
	select {
	case r = <-unpackers:
		if err := r.(flate.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
	default:
		r = flate.NewReader(src)
	}
	out := bytes.NewBuffer(make([]byte, 0, 3*len(v)))
	n, err := out.ReadFrom(io.LimitReader(r, maxUnpacked+1))
	select {
	case unpackers <- r:
	default:
	}
	if err == nil && n > maxUnpacked {
		err = fmt.Errorf("over %d bytes", maxUnpacked)
	}
	if err != nil {
		return nil, fmt.Errorf("inflate record: %w", err)
	}
	return out.Bytes(), nil
}

// unpackInto decodes a stored record, packed or not, into dst.
func unpackInto(v []byte, dst any) error {
	js, err := recordJSON(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(js, dst)
}

// Footprint is what an open game keeps in the file apart from its log (the
// history, which grows with every move and is kept as such): its record as
// stored, its messages, its due timers and its reaction watch, keys
// included, in bytes. 0 if the channel holds no game.
func (s *Store) Footprint(channel string) (int, error) {
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketGames).Get([]byte(channel))
		if v == nil {
			return nil
		}
		var g head
		if err := unpackInto(v, &g); err != nil {
			return err
		}
		n += len(channel) + len(v)
		for _, b := range [][]byte{bucketPosts, bucketWatch} {
			if v := tx.Bucket(b).Get([]byte(g.ID)); v != nil {
				n += len(g.ID) + len(v)
			}
		}
		for key, at := range g.Timers {
			k := timerKey(channel, key, at)
			if v := tx.Bucket(bucketTimers).Get(k); v != nil {
				n += len(k) + len(v)
			}
		}
		return nil
	})
	return n, err
}
