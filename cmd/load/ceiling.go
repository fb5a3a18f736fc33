package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ceiling measures what one writer gets from bbolt on this disk: sequential
// Update transactions, each putting one 2 KiB value (about a stored duel)
// and committing with fsync, for about window. The bot batches many moves
// into one commit, so it should beat this; the ratio is the batching's gain.
func ceiling(dir string, window time.Duration) (commits int, took time.Duration, err error) {
	f, err := os.CreateTemp(dir, "ceiling-*.db")
	if err != nil {
		return 0, 0, err
	}
	path := f.Name()
	f.Close()
	os.Remove(path)
	defer os.Remove(path)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		return 0, 0, fmt.Errorf("open ceiling database: %w", err)
	}
	defer db.Close()
	bucket := []byte("games")
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err }); err != nil {
		return 0, 0, err
	}
	value := make([]byte, 2048)
	rand.Read(value)
	key := make([]byte, 8)
	start := time.Now()
	for time.Since(start) < window {
		binary.BigEndian.PutUint64(key, uint64(commits%1024)) // a working set of games, overwritten
		binary.BigEndian.PutUint64(value, uint64(commits))    // every value differs
		err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(key, value) })
		if err != nil {
			return commits, time.Since(start), fmt.Errorf("ceiling commit: %w", err)
		}
		commits++
	}
	return commits, time.Since(start), nil
}

// cpuCheck is how many 1 KiB blocks per second the machine hashes on all
// its cores for about window: a fixed computation, so a low figure says the
// host gave this machine less CPU than usual (a virtual machine's share
// varies, and /proc/loadavg does not show it).
func cpuCheck(cores int, window time.Duration) float64 {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	start := time.Now()
	for range cores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			block := make([]byte, 1024)
			n := 0
			for time.Since(start) < window {
				for range 64 {
					sum := sha256.Sum256(block)
					block[0] = sum[0]
				}
				n += 64
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	return float64(total) / time.Since(start).Seconds()
}

// loopCheck is how many round trips a second a 64-byte message makes over a
// loopback TCP connection for about window. A move is mostly such work for
// the kernel (socket writes and reads, and the wake-ups between them), and
// a virtual machine's host can slow that far more than it slows arithmetic:
// the CPU check alone does not show it. 0 if the socket fails.
func loopCheck(window time.Duration) float64 {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c) // echo until the other end closes
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return 0
	}
	defer c.Close()
	buf := make([]byte, 64)
	n := 0
	start := time.Now()
	for time.Since(start) < window {
		if _, err := c.Write(buf); err != nil {
			return 0
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			return 0
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

// memory reads the process's resident set, its peak, and how much of the
// set is file-backed (the database's mapped pages, which the kernel can
// drop and reread), in bytes.
func memory() (rss, hwm, file uint64) {
	b, err := readFile("/proc/self/status")
	if err != nil {
		return 0, 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) < 1 {
			continue
		}
		n, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmRSS":
			rss = n << 10
		case "VmHWM":
			hwm = n << 10
		case "RssFile":
			file = n << 10
		}
	}
	return rss, hwm, file
}

// liveHeap is the Go heap the last collection found in use, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// loadavg is the machine's load average, as /proc/loadavg gives it.
func loadavg() string {
	b, err := readFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// cpuTime is the user and system time the process has used so far, and
// how often its threads were switched off a CPU (voluntary and involuntary
// context switches: mostly a thread with nothing to do going to sleep, to
// be woken when there is).
func cpuTime() (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), int64(ru.Nvcsw + ru.Nivcsw)
}
