//go:build !race

package dealt

const raceOn = false
