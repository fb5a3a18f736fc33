package dealt

// summary is what /rules shows: the game in our own words, with the rulings.
const summary = "**Dealt!** — 3 to 5 players, 54 cards: the numbers 1–12 four times each, two X (wild), two Redraw and two Stop cards.\n\n" +
	"**The deal.** The host deals every round: 10 cards each (7 with five players), then 2 face-up *reserve* cards each; the rest is the draw pile. Everyone starts with 2 chips (option `chips`: 3 for a longer game). " +
	"Your hand keeps the order it was dealt in: you can never rearrange it.\n\n" +
	"**Tricks.** The leader puts down a combination of 1–3 cards that sit side by side in their hand. Going left, every player still holding cards gets one action in the trick: " +
	"a higher combination, or taking one of their own reserve cards into any spot in their hand. From low to high: Solo, 2-Straight (two consecutive values), Pair, " +
	"3-Straight (three consecutive values, in any order within the group), Trips. A higher kind always wins; the same kind needs a higher value, a straight counting its top card. " +
	"X is any value 1–12 you name as you play it.\n\n" +
	"**Stop and Redraw** are played alone, on any turn, without beating anything. A Stop ends the trick at once and its player leads next. " +
	"With a Redraw in the trick, whoever played the highest combination draws 3 cards (6 if both Redraws were played), placing them one at a time wherever they like, and leads next; " +
	"if nobody played a combination after a Redraw lead, the player who led it draws.\n\n" +
	"**Next leader.** The highest combination leads. If its player has just run out of cards, the next-highest does; if no one still holding cards played one, the player on the right of the highest does.\n\n" +
	"**Losing a round.** An empty hand (reserves don't count) makes you safe for the rest of the round and you are skipped. " +
	"When a trick ends with one player still holding cards, that player loses the round; if everyone still in runs out in the same trick, all of them but the one with the highest combination lose. " +
	"A player who can't beat the trick and has no reserve left loses on the spot. Each loser gives up a chip; the host deals again and the loser leads (the host, if several lost).\n\n" +
	"**End.** Whoever must give up a chip and has none loses the game (several at once all lose); everyone else wins. Score: chips left.\n\n" +
	"**Rulings**\n" +
	"• The host deals and is the \"oldest player\"; the next seat leads the first round. Play goes left in join order.\n" +
	"• Each player acts once per trick. The leader must play cards; reserves only answer a trick.\n" +
	"• With no reserve left you must play if you can beat the trick. Stop and Redraw can be played on any turn, so holding one keeps you in; with none of these your only move is to give up the round.\n" +
	"• Straights never wrap (12-1 is no straight). X may take any value in any combination, pairs and trips included; each different value is its own choice.\n" +
	"• Redraw: 3 cards per Redraw. The drawer draws even if the trick emptied their hand, then leads, also when a Stop ended the trick. " +
	"If nobody else still holds cards, the drawer is the last one holding cards: the round ends without the draw.\n" +
	"• \"The player on the right\" skips players who are out. A Stop that was your last card hands the lead to your right wherever in the trick you played it.\n" +
	"• Rounds are decided at the end of a trick (or by giving up), so the last player holding cards still gets their action in that trick.\n" +
	"• An empty draw pile is refilled by shuffling the discards.\n" +
	"• The coloured dots in your hand only tell copies of a card apart."
