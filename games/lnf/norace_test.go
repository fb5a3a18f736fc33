//go:build !race

package lnf

const raceOn = false
