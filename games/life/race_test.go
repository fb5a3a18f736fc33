//go:build race

package life

// raceOn shortens the randomized test under the race detector, which makes
// the JSON round trips at every step about ten times slower.
const raceOn = true
