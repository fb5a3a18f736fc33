//go:build !race

package life

const raceOn = false
