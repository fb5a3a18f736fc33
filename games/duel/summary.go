package duel

// summary is what /rules shows: the game in our own words, with the rulings.
const summary = `**Card Duel** — two players, one 52-card deck without jokers.

**Building.** The deck is shuffled and each player gets 26 cards: their *pool*. In secret, each player chooses a *hand* from the pool worth **30 points or less** in total (option ` + "`hand_limit`" + `). Points: 2–10 as printed, J/Q/K 10, A 11 — points are also a card's strength. An empty hand is fine. Every card not chosen becomes that player's *deck*, shuffled face down. Locking in a hand is final; the duel starts once both have locked in.

**Exchanges.** The host (the dealer) starts on offense. The attacker plays a card face up, from their hand or the top of their deck. The defender answers the same way.
• A defense **worth as much or more** than the attack blocks it, and the two players trade roles.
• A defense worth less: the attack gets through. The attacker plays one more card (hand or deck top) as *damage*; it is laid in front of the defender and its points are the damage. The attacker keeps the offense.
Then both exchange cards go to their owners' discard piles and the next exchange begins.

**Winning.** Whoever has taken **22 or more** damage in total (option ` + "`life`" + `) falls, and the other player wins. Score = damage dealt to the opponent.

**Running low.** With an empty hand you can only play the top of your deck. With an empty deck you either play from your hand or shuffle your own discard pile to make a fresh deck and play its top card.

**Public:** hand and deck sizes, discard piles, damage taken, who is on offense and the cards of the current exchange. **Secret:** the cards in a hand and the picks while building. A deck card is unknown until it is played.

**Rulings**
• After a successful attack the same player attacks again; only a stopped attack swaps the roles.
• Damage cards stay with the player who took them for the rest of the duel: they never return to any hand, deck or discard pile.
• The duel ends the moment damage reaches life; overkill counts in full toward the score.
• Reshuffling is allowed only once your deck is empty, uses only your own discard pile, and leaves a card you already have on the table where it is.
• Cards of equal value play the same, so the buttons offer one per value.
• Out of cards: if you must attack or defend and have nothing in hand, deck or discard pile, you cannot fight on and lose. If you must deal damage and have nothing, the attack lands for no damage and you keep the offense. (With the allowed life values neither can happen — a player always keeps at least 9 cards — but the rule is fixed in case.)
• There is no turn limit.`
