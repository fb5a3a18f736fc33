package improv

import (
	"testing"

	"github.com/cardtable/cardbot/games/gamestest"
)

func FuzzPlay(f *testing.F) { gamestest.Fuzz(f, Rules) }

func FuzzLoad(f *testing.F) { gamestest.FuzzLoad(f, Rules) }
