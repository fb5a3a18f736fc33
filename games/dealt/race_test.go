//go:build race

package dealt

// raceOn lets the randomized test play fewer games under the (slow) race detector.
const raceOn = true
