//go:build race

package improv

// raceOn shortens the randomized tests under the race detector.
const raceOn = true
