package main

import (
	"github.com/cardtable/cardbot/games/ai"
	"github.com/cardtable/cardbot/games/dealt"
	"github.com/cardtable/cardbot/games/duel"
	"github.com/cardtable/cardbot/games/life"
	"github.com/cardtable/cardbot/games/lnf"
)

// catalog is every competitive game the simulator can play, with the
// computer players its package offers; every game also plays "random".
// When a game package gains `var Policies = map[string]ai.Policy{…}`, its
// line here gets `Policies: pkg.Policies`. (Improv is left out: its GM runs
// an open-ended campaign, with no winner to count.)
var catalog = ai.Catalog{
	{Rules: duel.Rules, Policies: duel.Policies},
	{Rules: life.Rules, Policies: life.Policies},
	{Rules: lnf.Rules, Policies: lnf.Policies},
	{Rules: dealt.Rules, Policies: dealt.Policies},
}
