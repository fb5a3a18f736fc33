package games

// RNG is a seeded SplitMix64 generator whose whole state is one exported
// number, so it is saved with the game and a restart never re-rolls.
type RNG struct {
	S uint64
}

// NewRNG seeds a generator.
func NewRNG(seed uint64) RNG { return RNG{S: seed} }

// Uint64 returns the next value.
func (r *RNG) Uint64() uint64 {
	r.S += 0x9e3779b97f4a7c15
	z := r.S
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform value in [0, n), without modulo bias.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("games: Intn needs n > 0")
	}
	limit := ^uint64(0) - ^uint64(0)%uint64(n)
	for {
		if v := r.Uint64(); v < limit {
			return int(v % uint64(n))
		}
	}
}

// D6 rolls one six-sided die.
func (r *RNG) D6() int { return r.Intn(6) + 1 }

// Shuffle permutes s in place (Fisher–Yates).
func Shuffle[T any](r *RNG, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}
