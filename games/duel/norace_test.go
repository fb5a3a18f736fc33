//go:build !race

package duel

const raceOn = false
