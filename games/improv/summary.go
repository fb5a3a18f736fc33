package improv

// summary is what /rules shows: the conflict rules in our own words, with
// the rulings.
const summary = `**A campaign run by the GM** (who opened it). Players join any time, name a protagonist and list talents with uses ("Kung fu 3"). One shared 54-card deck; discards reshuffled when it's empty. Values 2–10, J 11, Q 12, K 13, A 14, Joker 15; suits ♣ < ♦ < ♥ < ♠.
**Hands and tokens.** Players hold 4 cards, the GM 3 + 1 per player; refilled after each conflict. The GM starts with 3 story-tokens per player, the pool 1 per player, players none.

**A conflict.** The GM picks who takes part and declares at most one GM stake (an NPC or group) per protagonist. Each player writes a stake and picks an opponent: a GM stake or a protagonist. A GM stake nobody opposes succeeds without a card.
**Cards:** everyone in it lays a card face down, from hand or the deck's top (the GM one per opposed stake).
**Bonuses,** +3 each, on any card: per player one talent with a use left (on another's card, say how you help) and any story-tokens; the GM 1 + 1 per protagonist, from its own. Bonuses are public, cards not. Once all are ready, cards turn.
**Result:** higher total wins, suit breaks a tie. Each protagonist faces their chosen opponent; the ranking gives narration rights. Losers narrate first: /say, Done.
**Hand of Fate:** opponents equal in total and suit each draw a card, bonuses ignored; higher value then suit wins, a tie draws again. A dramatic win, a spectacular setback.
**Afterwards:** GM tokens go to the pool; a player's to the bank if their card's colour matches their opponent's (Jokers match all), else out of play. A used talent loses a use, counted toward the session cap. The GM may empty the bank any time.
**Awards:** react 🎭 to another player's /say line from a conflict's narration on: its author gets a pool token. One per player per conflict (per round if extended, to the next narration); unreact to undo while the token is unspent.

**Extended conflicts** (2–6 rounds): each round is played like a simple one; whoever beats their opponent (a GM stake: any of its opponents) keeps the card as a victory card, the rest discarded; round narration runs lowest first. GM tokens: 2 + 2 per protagonist + 2 per round past 3 in all (at most those held at the start), 1 + 1 per protagonist a round. After the last round each side may give one of its own victory cards away; then bigger piles win, ties by highest values. Losing the Hand of Fate loses the round: leave the fight (stakes lost, cards removed) or stay in harmed; a second loss (even in one round) destroys.

**Rulings**
• Options: talent_cap (6 uses per session; the GM's New session resets it), lethal_fate (equal totals alone call the Hand of Fate).
• A Joker beats any suit at equal totals; two Jokers tie exactly. A deck card stays unseen until revealed.
• Players set their own talents (up to 8, 1–10 uses) until their first conflict; then the GM adjusts them ("Kit: Kung fu 4", 0 removes).
• A latecomer gets 4 cards, the GM 3 tokens and a card more per hand (at once, or when the conflict ends), the pool 1; they sit out a running conflict.
• Players outside a conflict may add story-tokens, no talents; theirs follow the card they sit on against its opponent (a GM card matches if any opponent does).
• Unopposed GM stakes narrate first; the GM narrates consecutive NPCs in one turn and may skip a narrator. The GM gives and earns no awards; awards need a pool token.
• Leaving returns your tokens to the pool; a conflict plays on for you from the deck. The GM can hurry any step or call a conflict off (this round's cards and tokens return).
• Extended: gifts come before the final narration; equal piles go to a Hand of Fate draw; a destroyed protagonist loses its stake, plays no more cards but may add tokens, and gives away all its victory cards (or one random deck card) to protagonists. A side whose opponents are all out plays no more. Mooks: "Goons (4 mooks): stake"; out-total them in a round to take one out as you narrate, once a round, never the last. Stakeless "Patrons (6 mooks)" fall to anyone.`
