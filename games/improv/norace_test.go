//go:build !race

package improv

const raceOn = false
