package bot

import (
	"github.com/cardtable/cardbot/games"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/games/improv"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/games/lnf"
)

// Catalog is every game the bot hosts, in the order /game new lists them.
func Catalog() []games.Rules {
	return []games.Rules{duel.Rules, life.Rules, improv.Rules, lnf.Rules, dealt.Rules}
}
