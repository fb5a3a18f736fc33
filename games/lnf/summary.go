package lnf

// summary is what /rules shows: the game in our own words, with the rulings.
const summary = `**Life is not fair, but…** — 2 to 8 players, 76 cards. Get rid of your cards: what you still hold at the end counts against you.

**The deck.** Four colours, one for each area of life: 🟥 Red = body, 🟩 Green = money, 🟦 Blue = mind, 🟨 Yellow = relationships. Each colour has the numbers 1–9 twice (72 cards). Four grey wild cards are added: Draw Two (2), Draw Three (3), Draw Four (4) and Game Over (2).

**Starting.** Everyone gets 4 secret cards. Before play, each player may once trade one card of their choice for the top card of the deck; the traded card goes back and the deck is shuffled. Then the first card is turned face up, and the player after the host (the dealer) begins.

**Your turn.** Play a card with the same colour or the same number as the top card. If nothing fits, draw one: if the new card fits you may play it straight away, otherwise your turn is over. With a playable card in hand you must play rather than draw.

**Wild cards.** A grey card may only be played when none of your coloured cards fits, and only onto a card showing its own number. When you play one you must type its line, for example "Life is not fair, but draw two" or "Life is not fair, but game over".
• Draw Two/Three/Four: the next player draws that many and misses their turn; then the deck's top card is turned onto the pile and sets the colour and number.
• Game Over: the game stops immediately.
• Wrong or missing line: the card is dead — it is discarded and does nothing.

**Scoring.** Emptying your hand ends the game and scores 20. Playing Game Over scores 20 minus the number of cards still in your hand. Everyone else scores 10 minus the numbers in their hand (a wild card counts its number), so a 5 and a 9 left over mean 10 − 14 = −4. Highest score wins; ties share the win.

**Talk it up, kindly.** Use /say to cheer each other on — a 🟨 card is a good moment to tell someone you're glad they're your friend. If someone is rude or sarcastic to you, appeal (3 or more players): the other players vote with buttons, and a strict majority of the votes cast makes the offender draw two cards.

**Rulings**
• The deck above is our own design: the original card chart isn't available.
• The exchange happens for everyone at once; the first card is turned when all have swapped or kept. Appeal penalties drawn before then simply join the hand.
• With a card that fits you must play it; you draw only when nothing fits.
• The typed line ignores case, punctuation and spaces; a digit counts as its word ("draw 2" = "draw two").
• A dead wild card goes under the top card, which keeps setting colour and number, and the turn passes to the next player. It still leaves your hand: if it was your last card, you go out.
• "No other card playable" means no coloured card: holding two wild cards never blocks the one that matches.
• Draw N as your last card: the next player still draws, then the game ends and you score 20.
• A wild card turned up to start the pile is buried at the bottom of the deck and the next card is turned. After a Draw card the deck's top card is turned whatever it is: a grey card turned up sets only the number (it does nothing, as nobody played it). If no card is left to turn, the Draw card stays on top.
• The deck runs out: the discard pile except its top card is shuffled into a new deck; if there is still nothing, the draw is skipped (a player who must draw simply passes).
• Appeals: one open appeal per offender; not against yourself; the appellant and the offender don't vote; voters may change their vote until it closes. Voting lasts 1 minute (option ` + "`vote_minutes`" + `, 1–10) and closes early once everyone eligible has voted. A tie or no votes: no penalty. Appeals still open when the game ends close without a penalty.`
