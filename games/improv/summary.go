package improv

// summary is what /rules shows: the conflict rules in our own words, with
// the rulings.
const summary = `**A campaign run by the GM** (the player who opened it). Players join at any time, name a protagonist and list talents with a number of uses ("Kung fu 3"). One shared 54-card deck; discards are reshuffled when it runs out. Card values 2–10, J 11, Q 12, K 13, A 14, Joker 15.

**Hands and tokens.** A player holds 4 cards, the GM 3 plus 1 per player; hands are topped up after every conflict. The GM starts with 3 story-tokens per player, the pool with 1 per player, players with none.

**A conflict.** The GM picks the protagonists taking part and declares up to one GM stake (an NPC or group and what it wants) per protagonist. Each player writes a stake and picks an opponent: a GM stake or another protagonist. A GM stake nobody opposes succeeds without a card.
**Cards:** everyone taking part lays one card face down, from hand or the top of the deck (the GM one per opposed GM stake).
**Bonuses:** each +3. A player may add one talent (a use left, within the session cap) and any story-tokens they hold, on any card; a talent on someone else's card needs a line on how they help. The GM may add 1 + one per protagonist taking part, from what the GM holds. Bonuses are public, the cards are not. When all have marked ready, the cards turn over.
**Result:** highest total wins; equal totals go to the higher suit (♣ < ♦ < ♥ < ♠). Each protagonist is measured against the opponent they chose; the ranking of all cards gives narration rights. Narration runs losers first: each narrator uses /say, then presses Done.
**Hand of Fate:** opponents tied on total and suit each draw from the deck, bonuses ignored; higher value then suit wins, a new tie draws again. The winner gets an especially dramatic victory, the loser a spectacular setback.
**After the reveal:** GM tokens go to the pool; a player's token goes to the bank if their card's colour matches their opponent's (a Joker matches anything), otherwise out of play. Used talents lose a use, which also counts toward the session cap. The GM may empty the bank into their own tokens at any time.
**Awards:** react 🎭 to another player's /say line posted during or after a conflict's narration: its author gets a story-token from the pool. One award per player per conflict; removing the reaction before the next conflict takes it back.

**Rulings**
• Options: talent_cap (6 uses per protagonist per session; the GM's New session resets it) and lethal_fate (opponents equal on total alone call the Hand of Fate).
• A Joker beats any suit at an equal total; two Jokers tie exactly.
• A deck card stays unseen, even by its player, until the reveal.
• Players set their own talents (up to 8, 1–10 uses) until their protagonist's first conflict; after that the GM adjusts them ("Kit: Kung fu 4", 0 removes).
• A latecomer is dealt 4 cards; the GM gains 3 tokens, the pool 1, and the GM's hand size grows by one (dealt at once between conflicts, else at the next refill). Latecomers sit out the running conflict.
• Players outside a conflict may still add story-tokens, no talents; their tokens follow the colour of the card they are on against that card's opponent. A GM stake's card matches if it matches any protagonist opposing it.
• Unopposed GM stakes narrate first; the GM narrates consecutive NPCs in one turn and may skip a narrator.
• The GM can't award tokens and the GM's lines earn none; awards need a token in the pool.
• A player who leaves returns their tokens to the pool and cards to the discards; in a conflict their card comes from the deck and they count as ready. The GM can hurry a stalled phase or call a conflict off (everything goes back).`
