"""The rule registry's statements for Neigh and the pile, targeting, the clarifications, two players,
Babies, the phase flow and the engine options (RS28-RS52). `uu.engine.rules` indexes them; see its docstring."""

from __future__ import annotations

from uu.engine.rule_model import Rule

DETAIL_RULES: tuple[Rule, ...] = (
    # --- RS28-RS29, RS45: Neigh and the pile ----------------------------------------------------------
    Rule(
        "neigh.cards-only",
        "RS28",
        "A Neigh can only stop a card that a player is playing from their hand, never an effect, such as "
        "the beginning-of-turn effect of a card already in a Stable.",
        "001 'Neighing Card Effects'; 002 'Karten nühüen'; 004 'Effets des cartes Huue'",
    ),
    Rule(
        "neigh.stops-card",
        "RS28",
        "A card that is Neighed is not played at all: it goes to the discard pile without entering a Stable "
        "or having any effect.",
        "001 'Neighing Card Effects'; 002 'Karten nühüen' and the printed Neigh card text",
    ),
    Rule(
        "pile.top-only",
        "RS29",
        "An Instant played in answer to a card goes on top of it, forming a pile, and from then on only the "
        "top card of the pile may be answered.",
        "000 'Resolving Instant Cards'",
    ),
    Rule(
        "pile.fastest",
        "RS29",
        "If several players answer the same top card, only the quickest one's Instant joins the pile and "
        "the others go back to their owners' hands (the engine replaces speed with option.responder-order).",
        "000 'Resolving Instant Cards'",
    ),
    Rule(
        "pile.respond-again",
        "RS29",
        "Answering goes on until every player has said they will not respond, and whenever a resolution "
        "removes cards from the pile, the newly exposed top card may be answered again.",
        "000 'Resolving Instant Cards'",
    ),
    Rule(
        "pile.resolve-top-down",
        "RS29",
        "A pile resolves from the top down: the card played last resolves first, then each card beneath it "
        "in turn.",
        "000 'Resolving Instant Cards'",
    ),
    Rule(
        "option.responder-order",
        "RS29",
        "Engine choice standing in for 'the fastest': when several players want to answer one top card, "
        "they are asked one at a time in seat order starting with the player to the left of whoever played "
        "that top card, and the first to answer is the one whose Instant joins the pile.",
        "000 'Resolving Instant Cards'; 003 'Phase 3:Action' (everyone gets the chance)",
    ),
    Rule(
        "pile.everyone-asked",
        "RS45",
        "Whenever a card is announced as played, every other player must get the chance to answer with an "
        "Instant, and the card resolves only after all of them have passed.",
        "003 'Phase 3:Action'",
    ),
    Rule(
        "pile.no-neigh-after-pass",
        "RS45",
        "Once everybody has passed and a card has resolved, it is too late to Neigh it, though having "
        "passed does not stop a player from answering a later top card.",
        "003 'Phase 3:Action'; 000 'Resolving Instant Cards'",
    ),
    # --- RS30-RS31: targeting -------------------------------------------------------------------------
    Rule(
        "target.players",
        "RS30",
        "Cards name players precisely: 'any player' is one player who may be you, 'another player' or "
        "'any other player' is one player other than you, 'each player' is everyone including you, 'each "
        "other player' is everyone except you, and 'any number of players' is as many as you like, "
        "excluding you.",
        "001 'Player Targeting'; 000 'Player Targeting'; 002 'Begriffe, die auf Spieler Bezug nehmen'; "
        "004 'Joueurs ciblés'",
    ),
    Rule(
        "target.option",
        "RS31",
        "The rulebook offers two targeting styles, naming targets before anyone decides whether to Neigh "
        "(Option 1) or deciding on Neighs before targets are named (Option 2), and one style is used for "
        "the whole game.",
        "001 'Choosing Targets for Effects'; 002 'Ziele für Effekte auswählen'; "
        "004 'Choisir les cibles des effets'",
    ),
    Rule(
        "option.targeting",
        "RS31",
        "Engine option targeting: the default declare-first follows Option 1, so a card's targets are named "
        "when it is played and before the Neigh window, while neigh-first follows Option 2, so the Neigh "
        "window comes first and targets are chosen when the card resolves.",
        "001 'Choosing Targets for Effects'; 002 'Ziele für Effekte auswählen'; "
        "004 'Choisir les cibles des effets'",
    ),
    # --- RS32-RS38: clarifications --------------------------------------------------------------------
    Rule(
        "search.reveal",
        "RS32",
        "A card taken by searching the deck or the discard pile is shown to every other player before it "
        "goes into the searcher's hand.",
        "001 'Searching for Cards'; 000 'Searching for Cards'; 003 effects list (untitled, Deck search); "
        "002 'Nach Karten suchen'; 004 'Chercher des cartes'",
    ),
    Rule(
        "search.must-find",
        "RS47",
        "When a deck search is carried out and a card of the wanted kind is there, the searcher must take "
        "one and cannot pretend to find nothing.",
        "003 effects list (untitled, Deck search)",
    ),
    Rule(
        "downgrade.sacrifice-a-card",
        "RS33",
        "An effect that lets you SACRIFICE 'a card' may be spent on a Downgrade in your own Stable, which "
        "is a way to get rid of it besides the effects that remove Downgrades by name.",
        "001 'Getting Rid of Downgrade Cards'; 002 'Abwertungskarten loswerden'; "
        "004 'Se débarrasser des cartes Attaque'",
    ),
    Rule(
        "effect.order",
        "RS34",
        "When an effect lists several actions, they are carried out one after another in the order printed "
        "on the card.",
        "000 'Card Effects with Multiple Actions'",
    ),
    Rule(
        "effect.and",
        "RS34",
        "Two actions joined by 'and' must both be carried out.",
        "000 'Card Effects with Multiple Actions'",
    ),
    Rule(
        "effect.then",
        "RS34",
        "With two actions joined by 'then', the second happens only if the first one actually happened.",
        "000 'Card Effects with Multiple Actions'; 001 'Card Effects with Multiple Actions'; "
        "002 'Karteneffekte mit mehreren Aktionen'; 004 'Effets de cartes comportant plusieurs actions'",
    ),
    Rule(
        "effect.if-you-do",
        "RS34",
        "With a second action introduced by 'if you do', it happens only if the player chose to carry out "
        "the first one.",
        "000 'Card Effects with Multiple Actions'",
    ),
    Rule(
        "effect.impossible-play",
        "RS35",
        "A card in your hand whose effect would require you to do something impossible cannot be played.",
        "000 'Impossible Actions'",
    ),
    Rule(
        "effect.impossible-skip",
        "RS35",
        "When an effect from your own Stable, or from a card someone else played, demands an impossible "
        "action of you, such as DISCARDing with an empty hand or SACRIFICing with nothing (or nothing "
        "sacrificeable) in your Stable, that action is simply left out.",
        "000 'Impossible Actions'; 001 'Impossible Actions'; 002 'Unausführbare Aktionen'; "
        "004 'Actions impossibles'",
    ),
    Rule(
        "effect.bring-not-play",
        "RS36",
        "Only putting a card from your hand into play in your Action phase, or an Instant when allowed, "
        "counts as playing it, so a card an effect brings straight into a Stable is not played and cannot "
        "be Neighed.",
        "000 'Play vs. Bring Directly into Your Stable'",
    ),
    Rule(
        "bring.from-discard",
        "RS48",
        "Some effects take a card from the discard pile and put it straight into a Stable, which brings it "
        "in rather than plays it.",
        "003 effects list (untitled, discard pile search / Bring effect); "
        "000 'Play vs. Bring Directly into Your Stable'",
    ),
    Rule(
        "effect.immunity",
        "RS37",
        "An effect touches a card directly when it targets it alone or in a group and indirectly when it "
        "makes a player target or act on it, and a card that 'cannot be affected' is protected from both.",
        "000 'Immunity'",
    ),
    Rule(
        "effect.pull-choose",
        "RS38",
        "To pull a card means taking one at random without looking, whereas to choose a card means looking "
        "at the options and taking whichever you want.",
        "000 'Pull vs. Choose'",
    ),
    Rule(
        "option.open-hand-pull",
        "RS38",
        "Engine option open_hand_pull: the default choose lets a player who pulls from a hand kept face up "
        "for everyone (Nanny Cam) look at it and take the card they want, as the wiki's terminology pages "
        "tell a pull from a seen hand, while random keeps every pull random, as the Control & Chaos page says.",
        "Unstable Games wiki terminology pages 'Pull' and 'Choose'; 000 'Pull vs. Choose' (a pulled card is "
        "always picked at random); Nanny Cam's card text",
    ),
    # --- RS39: two players ----------------------------------------------------------------------------
    Rule(
        "two-player.removals",
        "RS39",
        "In a 2-player game all Basic Unicorns plus Queen Bee Unicorn, Seductive Unicorn, Rainbow Unicorn, "
        "Mother Goose Unicorn, Necromancer Unicorn, Nanny Cam, Sadistic Ritual, Slowdown and Yay are put "
        "back in the box before the game.",
        "001 '2-PLAYER RULES'; 004 'PARTIES À 2 JOUEURS'; 002 '2-SPIELER-REGELN' (the NSFW deck's own list)",
    ),
    Rule(
        "two-player.neigh",
        "RS39",
        "In a 2-player game one Neigh card is handed to each player before the deck is shuffled, so each "
        "starts with that Neigh plus the usual 5 dealt cards, 6 in all.",
        "001 '2-PLAYER RULES'; 004 'PARTIES À 2 JOUEURS'; 002 '2-SPIELER-REGELN'",
    ),
    # --- RS40: Babies ---------------------------------------------------------------------------------
    Rule(
        "baby.nursery-only",
        "RS40",
        "The Control & Chaos wording has a Baby Unicorn enter a Stable only ever from the Nursery, a "
        "sentence the 2nd edition dropped, so the engine applies it only when option.baby-moves is "
        "nursery-only.",
        "000 card types (untitled, Baby Unicorn cards)",
    ),
    Rule(
        "option.baby-moves",
        "RS40",
        "Engine option baby_moves: the default allowed follows the 2nd edition, where a Baby may be stolen "
        "or moved between Stables (and still goes to the Nursery whenever it would go anywhere else), while "
        "nursery-only applies the older Control & Chaos wording that a Baby enters a Stable only from the "
        "Nursery.",
        "000 card types (untitled, Baby Unicorn cards); 001 'HOW TO START'; the 2nd-edition change is "
        "recorded in docs/cards.md ruling 1",
    ),
    # --- RS41, RS43, RS44, RS46, RS49, RS52: phase flow (gameplay-structure page) ---------------------
    Rule(
        "status.check",
        "RS41",
        "Before the turn starts and after each phase, once all effects have resolved, the game status is "
        "checked, and either someone has won or play moves on to the next phase or the next turn.",
        "003 game status checks ('All effects resolved - Game status check') before Phase 1, after "
        "'Phase 1:Beginning of Turn', 'Phase 2:Draw', 'Phase 3:Action' and End of Turn",
    ),
    Rule(
        "status.skipped-phase",
        "RS41",
        "If a mandatory effect skips the phase that would come next, play moves on to the next phase that "
        "is not skipped.",
        "003 game status checks ('If a mandatory effect skips that phase')",
    ),
    Rule(
        "draw.extra",
        "RS43",
        "An effect that grants extra cards in the Draw phase is carried out within the Draw phase, and "
        "those cards come from the deck.",
        "003 'Phase 2:Draw'; 003 effects list (untitled, 'extra' cards drawn)",
    ),
    Rule(
        "action.requirements",
        "RS44",
        "A card can be played only if the player's Stable or hand meets its requirement, if it has one; "
        "Unicorn cards have none of their own, but cards in play can impose one on them.",
        "003 'Phase 3:Action'",
    ),
    Rule(
        "action.valid-stable",
        "RS44",
        "A Unicorn, Upgrade or Downgrade card that resolves must be put into a Stable it is allowed to go "
        "into.",
        "003 'Phase 3:Action'",
    ),
    Rule(
        "action.magic-target",
        "RS44",
        "A Magic card that targets must have a valid player or card to aim at when it resolves.",
        "003 'Phase 3:Action'",
    ),
    Rule(
        "end.never-skipped",
        "RS46",
        "No effect skips the End of Turn phase, so an effect that ends your turn early sends you to it and "
        "the hand limit is still enforced.",
        "003 end-of-turn status check (untitled, 'no effects that will specifically skip'); "
        "003 'Phase 1:Beginning of Turn' (skip to End of Turn)",
    ),
    Rule(
        "turn.skips-add-up",
        "RS46",
        "Skipped turns accumulate, so a player can have several of their coming turns skipped in a row.",
        "003 end-of-turn status check (untitled, 'Skipped turns are cumulative')",
    ),
    Rule(
        "turn.extra",
        "RS49",
        "An extra turn is a complete turn with all four phases, taken right after the current turn is over.",
        "003 effects list (untitled, 'take another turn')",
    ),
    Rule(
        "turn.skip-phase",
        "RS52",
        "Several effects may skip the same phase at once, and that single skipped phase satisfies every one "
        "of them that required the skip.",
        "003 effects list (untitled, 'Skip phases of the current turn')",
    ),
    Rule(
        "turn.skip-other",
        "RS52",
        "An effect may cause another player's turn to be skipped.",
        "003 effects list (untitled, 'Skip another player's turn')",
    ),
    Rule(
        "turn.another",
        "RS52",
        "An effect may let the current player take another turn once this one is over (see turn.extra).",
        "003 effects list (untitled, 'Allow the current player to take another turn')",
    ),
    # --- engine options for RS18 and RS20 -------------------------------------------------------------
    Rule(
        "option.simultaneous-win",
        "RS18",
        "Engine choice where the sources are silent: if several players reach the winning count at the same "
        "game-status check, the current player wins if among them, and otherwise the first of them in seat "
        "order after the current player wins.",
        "001 'THE END OF THE GAME' and 000 winning (untitled, closing section), both silent on this",
    ),
    Rule(
        "option.deck-out",
        "RS20",
        "Engine option deck_out: the default end finishes the game at the first game-status check that "
        "finds the deck empty and then applies the most-Unicorns, letters and everyone-loses tie-breaks, "
        "while reshuffle, a house variant from the official FAQ, shuffles the discard pile into a new deck "
        "whenever a DRAW meets an empty deck.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 004 'FIN DE LA PARTIE'; "
        "FAQ variant recorded in docs/cards.md ruling 2",
    ),
    Rule(
        "option.pandas",
        "RS21",
        "Engine option pandas: the default unicorn-effects keeps Pandamonium's Pandas safe only from effects "
        "that name Unicorn cards, while all-effects follows the newer wiki reading that no effect, whoever "
        "controls it (their owner included), may SACRIFICE, DESTROY, STEAL, move or return them, nor pick "
        "them for a replacement effect.",
        "001 'Cards in Your Hand vs. Cards in Your Stable' (effects work only in a Stable); the disputed "
        "ruling is recorded in docs/cards.md ruling 3",
    ),
)
