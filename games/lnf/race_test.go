//go:build race

package lnf

// raceOn lets the randomized tests play fewer games under the (slow) race detector.
const raceOn = true
