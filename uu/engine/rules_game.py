"""The rule registry's statements for setup, the turn, the verbs, the card types, winning, effects, the
beginning of a turn and the effect chain (RS01-RS27). `uu.engine.rules` indexes them; see its docstring."""

from __future__ import annotations

from uu.engine.rule_model import Rule

GAME_RULES: tuple[Rule, ...] = (
    # --- RS01-RS04: setup -----------------------------------------------------------------------------
    Rule(
        "setup.components",
        "RS01",
        "The base box holds 114 black-backed cards, 13 Baby Unicorn cards and 8 rules reference cards, and "
        "setup starts by sorting the Babies and the reference cards out from the black-backed cards.",
        "001 'WHAT'S IN THE BOX', 'HOW TO START'; 002 'SPIELMATERIAL', 'SPIELVORBEREITUNG'; "
        "004 'MATÉRIEL', 'PRÉPARATION'",
    ),
    Rule(
        "setup.deal-five",
        "RS01",
        "All black-backed cards in use, expansion cards included if wanted, are shuffled into one stack and "
        "every player is dealt 5 of them.",
        "001 'HOW TO START'; 000 set-up (untitled opening); 002 'SPIELVORBEREITUNG'; 004 'PRÉPARATION'",
    ),
    Rule(
        "setup.deck-and-discard",
        "RS01",
        "The undealt cards lie face down in the middle as the deck, and beside it is room for the discard "
        "pile, which collects every card that gets sacrificed, destroyed or discarded.",
        "001 'HOW TO START', 'THE IMPORTANT TERMS'; 000 'Set-Up Terms'; 002 'SPIELVORBEREITUNG'; "
        "004 'PRÉPARATION'",
    ),
    Rule(
        "setup.reference-cards",
        "RS02",
        "Each player gets a rules reference card and unused ones go back into the box; the digital game "
        "only notes this step, because the tutor itself is the reference.",
        "000 set-up (untitled opening); 001 'HOW TO START'; 002 'SPIELVORBEREITUNG'; 004 'PRÉPARATION'",
    ),
    Rule(
        "setup.choose-baby",
        "RS03",
        "At setup every player picks one Baby Unicorn card and places it in their own Stable, their "
        "personal play area.",
        "001 'HOW TO START'; 000 set-up (untitled opening); 002 'SPIELVORBEREITUNG'; 004 'PRÉPARATION'",
    ),
    Rule(
        "setup.nursery",
        "RS03",
        "The Baby Unicorn cards nobody picked are stacked on the table as the Nursery, the home of every "
        "Baby that is not in some Stable.",
        "001 'HOW TO START', 'THE IMPORTANT TERMS'; 000 'Set-Up Terms'; 002 'SPIELVORBEREITUNG'; "
        "004 'PRÉPARATION'",
    ),
    Rule(
        "setup.babies-never-in-hand",
        "RS03",
        "Baby Unicorn cards never go into a hand, the deck or the discard pile, so further Babies can only "
        "reach a Stable through the effect of another card.",
        "001 'HOW TO START', 'THE TYPES OF CARDS' (Baby Unicorn cards); 000 card types (untitled, Baby "
        "Unicorn cards); 002 'SPIELVORBEREITUNG', 'KARTENARTEN'; 004 'PRÉPARATION', 'LES TYPES DE CARTES'",
    ),
    Rule(
        "baby.return-to-nursery",
        "RS03",
        "Whenever a Baby Unicorn would end up anywhere other than a Stable (a hand, the deck or the discard "
        "pile), it is put back into the Nursery instead.",
        "001 'HOW TO START'; 002 'SPIELVORBEREITUNG'; 004 'PRÉPARATION'",
    ),
    Rule(
        "setup.first-player",
        "RS04",
        "The rulebooks let the player wearing the most colours go first (the German edition instead lets "
        "the one in the darkest clothes pick who starts); the digital game only notes this and starts with "
        "the first seat unless a scenario says otherwise.",
        "001 'HOW TO START'; 000 set-up (untitled opening); 004 'PRÉPARATION'; 002 'SPIELVORBEREITUNG'",
    ),
    Rule(
        "turn.clockwise",
        "RS04",
        "Turns pass clockwise around the table, which the engine models as seat order, wrapping from the "
        "last seat back to the first.",
        "001 'THE TURN'; 000 the turn (untitled); 002 'SPIELABLAUF'; 004 'LE TOUR DE JEU'",
    ),
    # --- RS05-RS10: the turn --------------------------------------------------------------------------
    Rule(
        "turn.phases",
        "RS05",
        "Every turn consists of four phases taken in a fixed order: Beginning of Turn, Draw, Action and "
        "End of Turn.",
        "001 'THE TURN'; 000 the turn (untitled); 003 'Phase 1:Beginning of Turn' to 'Phase 3:Action' and "
        "the end-of-turn status check; 002 'SPIELABLAUF'; 004 'LE TOUR DE JEU'",
    ),
    Rule(
        "bot.trigger",
        "RS06",
        "Cards in your Stable whose effect is worded to fire when the card is in your Stable at the start "
        "of your turn trigger during your Beginning of Turn phase.",
        "001 'THE TURN' / 'Beginning of Turn phase'; 000 the turn (untitled) / 'Beginning of Turn Phase'; "
        "003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "bot.optional-lost",
        "RS07",
        "An optional beginning-of-turn effect has to be used before you draw for your Draw phase; once you "
        "move on to the Draw phase without using it, it is gone for this turn.",
        "001 'Mandatory vs. Optional Effects'; 000 the turn (untitled) / 'Beginning of Turn Phase'; "
        "003 'Phase 1:Beginning of Turn'; 002 'Verpflichtende und freiwillige Effekte'; "
        "004 'Effets obligatoires vs effets facultatifs'",
    ),
    Rule(
        "bot.mandatory-stays",
        "RS07",
        "A mandatory beginning-of-turn effect can never be lost: at the table it must still be carried out "
        "once anyone notices it was forgotten, and the engine simply always resolves it.",
        "001 'Mandatory vs. Optional Effects'; 003 'Phase 1:Beginning of Turn'; "
        "002 'Verpflichtende und freiwillige Effekte'; 004 'Effets obligatoires vs effets facultatifs'",
    ),
    Rule(
        "draw.phase",
        "RS08",
        "In the Draw phase the current player takes one card, the top card of the deck, into their hand.",
        "001 'THE TURN' / 'Draw phase'; 000 the turn (untitled) / 'Draw Phase'; 003 'Phase 2:Draw'",
    ),
    Rule(
        "action.one",
        "RS09",
        "In the Action phase the current player takes exactly one action, such as playing a single "
        "Unicorn, Magic, Downgrade or Upgrade card from their hand, unless a card changes that.",
        "001 'THE TURN' / 'Action phase'; 000 'Action Phase'; 003 'Phase 3:Action'; 002 'SPIELABLAUF'; "
        "004 'LE TOUR DE JEU' / 'Phase d'Action'",
    ),
    Rule(
        "action.draw-instead",
        "RS09",
        "Rather than playing a card, the current player may spend their Action phase taking one more card "
        "from the top of the deck.",
        "001 'THE TURN' / 'Action phase'; 000 'Action Phase'; 003 'Phase 3:Action'",
    ),
    Rule(
        "end.hand-limit",
        "RS10",
        "In the End of Turn phase the current player DISCARDs until their hand is no larger than the hand "
        "limit, which is 7 cards unless a card changes it.",
        "001 'THE TURN' / 'End of Turn phase'; 000 the turn (untitled) / 'End of Turn Phase'; "
        "002 'SPIELABLAUF' / 'Ende des Zugs'; 004 'LE TOUR DE JEU' / 'Phase de Fin de Tour'",
    ),
    # --- RS11-RS12: verbs -----------------------------------------------------------------------------
    Rule(
        "verb.draw",
        "RS11",
        "To DRAW is to take the top card of the deck and put it into your hand.",
        "001 'THE IMPORTANT TERMS'; 000 'Active Terms'; 002 'DIE WICHTIGSTEN BEGRIFFE'; "
        "004 'TERMES À CONNAÎTRE'",
    ),
    Rule(
        "verb.discard",
        "RS11",
        "To DISCARD is to put a card from your own hand onto the discard pile.",
        "001 'THE IMPORTANT TERMS'; 000 'Active Terms'; 002 'DIE WICHTIGSTEN BEGRIFFE'; "
        "004 'TERMES À CONNAÎTRE'",
    ),
    Rule(
        "verb.sacrifice",
        "RS11",
        "To SACRIFICE is to put a Unicorn, Upgrade or Downgrade card from your own Stable onto the discard "
        "pile.",
        "001 'THE IMPORTANT TERMS'; 000 'Active Terms'; 002 'DIE WICHTIGSTEN BEGRIFFE'; "
        "004 'TERMES À CONNAÎTRE'",
    ),
    Rule(
        "verb.destroy",
        "RS11",
        "To DESTROY is to put a Unicorn, Upgrade or Downgrade card from some other player's Stable onto the "
        "discard pile.",
        "001 'THE IMPORTANT TERMS'; 000 'Active Terms'; 002 'DIE WICHTIGSTEN BEGRIFFE'; "
        "004 'TERMES À CONNAÎTRE'",
    ),
    Rule(
        "verb.steal",
        "RS11",
        "To STEAL is to take a card out of some other player's Stable and put it into your own Stable.",
        "001 'THE IMPORTANT TERMS'; 000 'Active Terms'; 002 'DIE WICHTIGSTEN BEGRIFFE'; "
        "004 'TERMES À CONNAÎTRE'",
    ),
    Rule(
        "verb.move-to-discard",
        "RS12",
        "Besides cards that are sacrificed, destroyed or discarded, the discard pile also takes cards that "
        "an effect simply tells you to move there.",
        "000 'Set-Up Terms' (Discard pile)",
    ),
    # --- RS13-RS17: card types ------------------------------------------------------------------------
    Rule(
        "card.unicorn-stays",
        "RS13",
        "Once in a Stable, a Unicorn card remains there until something removes it, normally a SACRIFICE "
        "or a DESTROY.",
        "001 'THE TYPES OF CARDS' (Unicorn cards); 002 'KARTENARTEN'; 004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "card.unicorn-kinds",
        "RS13",
        "Unicorn cards carry a horn symbol and in the 2nd-edition base game are Baby, Basic (no effect) or "
        "Magical (with an effect) Unicorns, while Control & Chaos also has Ultimate Unicorns whose strong "
        "effects always come with a cost.",
        "001 'THE TYPES OF CARDS' (three kinds); 000 card types (untitled, four sub-types)",
    ),
    Rule(
        "card.magic-one-shot",
        "RS14",
        "A Magic card has a single one-off effect: it works as it resolves and then goes straight to the "
        "discard pile instead of staying in a Stable.",
        "001 'THE TYPES OF CARDS' (Magic cards); 000 card types (untitled, Magic cards); 002 'KARTENARTEN'; "
        "004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "card.downgrade-any-stable",
        "RS15",
        "A Downgrade card may go into any player's Stable, usually someone else's though your own is "
        "allowed, and it stays there until sacrificed or destroyed, affecting only the Stable it sits in "
        "unless it says otherwise.",
        "001 'THE TYPES OF CARDS' (Downgrade cards); 000 card types (untitled, Downgrade Cards); "
        "002 'KARTENARTEN'; 004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "card.upgrade-any-stable",
        "RS16",
        "An Upgrade card may go into any player's Stable, stays there until sacrificed or destroyed, and "
        "affects only the Stable it sits in unless it says otherwise.",
        "001 'THE TYPES OF CARDS' (Upgrade cards); 000 card types (untitled, Upgrade Cards); "
        "002 'KARTENARTEN'; 004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "card.unicorn-any-stable",
        "RS50",
        "A Unicorn card may be played into any player's Stable, not just your own.",
        "000 card types (untitled, Unicorn cards)",
    ),
    Rule(
        "instant.when",
        "RS17",
        "Instant cards are the one kind you may play outside your own turn: one can answer any card that "
        "another player plays, even if you have already played a card this turn, unless its text says "
        "otherwise.",
        "001 'THE TYPES OF CARDS' (Instant cards); 000 card types (untitled, Instant Cards); "
        "002 'KARTENARTEN' (Sofortkarten); 004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "instant.chain",
        "RS17",
        "There is no limit to how many Instant cards may be stacked in answer to one another within a "
        "single turn.",
        "001 'THE TYPES OF CARDS' (Instant cards); 000 card types (untitled, Instant Cards); "
        "002 'KARTENARTEN'; 004 'LES TYPES DE CARTES'",
    ),
    Rule(
        "instant.not-an-action",
        "RS17",
        "An Instant card is not one of the Action-phase choices, so it cannot be your action and is only "
        "ever played as an answer to a card someone else plays.",
        "001 'THE TURN' / 'Action phase', 'THE TYPES OF CARDS' (Instant cards); 000 'Action Phase'",
    ),
    # --- RS18-RS20: winning ---------------------------------------------------------------------------
    Rule(
        "win.threshold",
        "RS18",
        "A player wins when their Stable holds the number of Unicorns needed, which is 7 in a game of 2 to 5 "
        "players and 6 in a game of 6 to 8 players; the game checks for a winner whenever no effect is "
        "resolving: after each phase, and each time a chain of effects has finished.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'; 003 game status checks ('All effects resolved - Game status check')",
    ),
    Rule(
        "win.counts-one",
        "RS18",
        "For winning, every Unicorn card in a Stable is worth one Unicorn unless a card says otherwise.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'",
    ),
    Rule(
        "win.after-chain",
        "RS19",
        "A player who reaches the winning count while an effect chain is still resolving is not declared "
        "the winner until every link of that chain has resolved, and the win is judged on the board as it "
        "is then.",
        "000 winning (untitled, closing section), 'Order of Resolution: The Effect Chain'; "
        "003 game status checks ('All effects resolved')",
    ),
    Rule(
        "win.deck-out",
        "RS20",
        "If the deck is used up before anybody reaches the winning count, the game ends and whoever has the "
        "most Unicorns in their Stable wins (option.deck-out says exactly when).",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'",
    ),
    Rule(
        "win.letters",
        "RS20",
        "Players tied for the most Unicorns each count the letters in the names of all Unicorn cards in "
        "their Stable, and the highest total wins.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'",
    ),
    Rule(
        "win.everyone-loses",
        "RS20",
        "If players are still level on both Unicorns and letters, nobody wins: every player loses.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'",
    ),
    # --- RS21-RS24: effects ---------------------------------------------------------------------------
    Rule(
        "effect.hand-inactive",
        "RS21",
        "Unicorn, Upgrade and Downgrade cards do nothing while they sit in a hand; their effects only work "
        "while they are in a Stable.",
        "001 'Cards in Your Hand vs. Cards in Your Stable'; 000 'Stables and Effects'; "
        "002 'Karten auf deiner Hand / Karten in deinem Stall'; "
        "004 'Cartes en main vs cartes de votre Écurie'",
    ),
    Rule(
        "effect.enter",
        "RS22",
        "A Unicorn enters your Stable whenever it arrives there, whether you play it, STEAL it or an effect "
        "brings it in.",
        "001 'Entering and Leaving Your Stable'; 002 'Deinen Stall betreten und verlassen'; "
        "004 'Entrer et sortir de l'Écurie'",
    ),
    Rule(
        "effect.leave",
        "RS22",
        "A Unicorn leaves a Stable whenever it is sacrificed, destroyed or stolen out of it.",
        "001 'Entering and Leaving Your Stable'; 002 'Deinen Stall betreten und verlassen'; "
        "004 'Entrer et sortir de l'Écurie'",
    ),
    Rule(
        "option.return-is-leaving",
        "RS22",
        "Engine option return_is_leaving: by default a Unicorn returned to a hand does not count as leaving "
        "its Stable, since the rulebooks name only sacrifice, destroy and steal, and turning the option on "
        "makes a return count as leaving too.",
        "001 'Entering and Leaving Your Stable' (silent on returns); 002 'Deinen Stall betreten und "
        "verlassen'; 004 'Entrer et sortir de l'Écurie'",
    ),
    Rule(
        "effect.may",
        "RS23",
        "An effect is optional only when its text uses the word 'may'; every effect without it must be "
        "carried out.",
        "001 'Mandatory vs. Optional Effects'; 002 'Verpflichtende und freiwillige Effekte'; "
        "004 'Effets obligatoires vs effets facultatifs'",
    ),
    Rule(
        "effect.triggered-continuous",
        "RS24",
        "A triggered effect starts with 'if' or 'when' and happens only when its condition occurs, while "
        "any other effect on a Unicorn, Upgrade or Downgrade card is continuous and applies for as long as "
        "the card is in a Stable.",
        "000 'Triggered and Continuous Effects'; 000 card types (untitled, Magical Unicorn cards)",
    ),
    # --- RS25-RS27, RS42, RS51: beginning of turn and the effect chain --------------------------------
    Rule(
        "bot.simultaneous",
        "RS25",
        "All beginning-of-turn effects of the cards in your Stable trigger at the same moment, as one group.",
        "001 'Beginning of Turn Effects'; 000 'Order of Resolution: The Effect Chain'; "
        "003 'Phase 1:Beginning of Turn'; 002 'Zu-Beginn-des-Zugs-Effekte'; 004 'Effets de début de tour'",
    ),
    Rule(
        "bot.end-turn-others-resolve",
        "RS25",
        "When one beginning-of-turn effect ends your turn, the other beginning-of-turn effects that "
        "triggered alongside it can still be used.",
        "001 'Beginning of Turn Effects'; 003 'Phase 1:Beginning of Turn'; 002 'Zu-Beginn-des-Zugs-Effekte'; "
        "004 'Effets de début de tour'",
    ),
    Rule(
        "bot.entered-this-turn",
        "RS42",
        "A card that arrives in your Stable once the turn is under way, even during the Beginning of Turn "
        "phase, was not there when the turn began, so its beginning-of-turn effect waits for your next turn.",
        "003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "bot.skip-to-end",
        "RS42",
        "An effect that jumps straight to your End of Turn phase does not stop the other effects that "
        "triggered with it from resolving.",
        "003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "bot.order-irrelevant",
        "RS51",
        "The order in which the simultaneous beginning-of-turn effects are resolved does not change the "
        "result, so the engine may use a fixed order once all targets are chosen.",
        "003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "chain.link",
        "RS26",
        "When one effect causes another card's effect to trigger, each effect is a separate link of an "
        "effect chain, and every link is fully resolved, in order, before the next one and before play "
        "goes on.",
        "000 'Order of Resolution: The Effect Chain'",
    ),
    Rule(
        "chain.targets-before",
        "RS26",
        "Effects that trigger at the same moment, such as those of the Beginning of Turn phase, make up a "
        "single link, and all their targets are picked before that link resolves.",
        "000 'Order of Resolution: The Effect Chain'; 003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "chain.new-link",
        "RS26",
        "Effects triggered while a link resolves are added to the chain as a new link of their own.",
        "000 'Order of Resolution: The Effect Chain'",
    ),
    Rule(
        "chain.same-target",
        "RS27",
        "Within one link no card may be picked as the target of more than one of the triggered effects.",
        "000 'Order of Resolution: The Effect Chain'; 003 'Phase 1:Beginning of Turn'",
    ),
    Rule(
        "chain.not-enough-targets",
        "RS27",
        "If a link has fewer possible targets than effects needing one, only as many of those effects can "
        "be triggered as there are targets available for them.",
        "000 'Order of Resolution: The Effect Chain'",
    ),
    Rule(
        "chain.mandatory-first",
        "RS27",
        "Targets for a link's mandatory effects are picked before any targets for its optional effects.",
        "000 'Order of Resolution: The Effect Chain'; 003 'Phase 1:Beginning of Turn'",
    ),
)
