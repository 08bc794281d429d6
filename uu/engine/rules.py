"""The rule registry: every rule the engine applies, with an id, a statement and where the rulebooks say it.

Each `Rule` has a stable dotted id (``pile.top-only``), the id of the checklist statement it belongs to
(``RS29``, from the checklist in ``docs/rules.md``), one sentence in our own words, and a pointer to the
seed rulebook(s) and section that state it. Seed keys: 000 = Control & Chaos rules page (wiki), 001 = English
2nd-edition rulebook, 002 = German NSFW rulebook, 003 = wiki gameplay-structure page, 004 = French rulebook.

Engine log events carry the ids of the rules that caused them, so the tutor can always answer "why did that
happen?" and "why can't I do that?" with `explain(entry.rules)`. Lessons and tests cite the same ids.

Ids starting with ``option.`` document an engine option (or a fixed engine choice) for a point where the
sources disagree or are silent: the statement names the default and what the alternative changes.

Pure standard library: importing this module never imports anything else from the project.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["RS_IDS", "RULES", "Rule", "UnknownRuleError", "explain", "rule", "rules_for_rs"]

#: The checklist ids RS01..RS52 of ``docs/rules.md``, in order.
RS_IDS: tuple[str, ...] = tuple(f"RS{n:02d}" for n in range(1, 53))


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: a stable id, its checklist statement, a one-sentence paraphrase and its source."""

    id: str  # e.g. "pile.top-only"
    rs: str  # the RS id it belongs to, e.g. "RS29"
    statement: str  # one sentence in our own words
    seed: str  # seed file key(s) and section, e.g. "000 'Resolving Instant Cards'"


_ALL: tuple[Rule, ...] = (
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
        "A player wins as soon as their Stable holds the number of Unicorns needed, which is 7 in a game "
        "of 2 to 5 players and 6 in a game of 6 to 8 players.",
        "001 'THE END OF THE GAME'; 000 winning (untitled, closing section); 002 'SPIELENDE'; "
        "004 'FIN DE LA PARTIE'",
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
        "effect.pull-open-hand",
        "RS38",
        "A hand kept face up for everyone to see (Nanny Cam) hides nothing, so pulling a card from it is a "
        "choice: the player looks at the cards and takes the one they want.",
        "000 'Pull vs. Choose' (pulling is random because the cards are unseen); Nanny Cam's card text",
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


class UnknownRuleError(KeyError):
    """An id or RS number not in the registry; a KeyError whose text reads plainly (no repr quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _index(rules: Iterable[Rule]) -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for r in rules:
        if r.id in out:
            raise ValueError(f"duplicate rule id {r.id!r}")
        out[r.id] = r
    return out


#: Every rule by id, grouped in the order of the checklist topics above.
RULES: dict[str, Rule] = _index(_ALL)


def rule(rule_id: str) -> Rule:
    """The rule with this id; an unknown id raises KeyError naming the closest known ids."""
    try:
        return RULES[rule_id]
    except KeyError:
        pass
    close = difflib.get_close_matches(rule_id, list(RULES), n=5, cutoff=0.6)
    tail = rule_id.rsplit(".", 1)[-1]
    for rid in RULES:  # also offer ids whose last part matches, e.g. "top-only" -> "pile.top-only"
        if tail and rid.rsplit(".", 1)[-1] == tail and rid not in close:
            close.append(rid)
    hint = f"did you mean: {', '.join(close)}?" if close else "no similar id; see uu.engine.rules.RULES"
    raise UnknownRuleError(f"unknown rule id {rule_id!r}; {hint}")


_RS_RE = re.compile(r"(?:RS)?0*(\d{1,2})", re.IGNORECASE)


def rules_for_rs(rs: str) -> list[Rule]:
    """Every rule belonging to checklist statement `rs` ("RS29"; "rs29" and "29" are accepted too).

    Raises KeyError if `rs` is not one of RS01..RS52.
    """
    m = _RS_RE.fullmatch(rs.strip())
    key = f"RS{int(m.group(1)):02d}" if m else rs
    if key not in RS_IDS:
        raise UnknownRuleError(f"unknown rule statement {rs!r}; expected one of RS01..RS52")
    return [r for r in RULES.values() if r.rs == key]


def explain(rule_ids: Iterable[str]) -> list[str]:
    """One line per rule id, "RS29 pile.top-only: <statement> (seed <seed>)", in the given order.

    Repeated ids are listed once; a single id may be passed as a plain string. Unknown ids raise KeyError
    (see `rule`).
    """
    ids = [rule_ids] if isinstance(rule_ids, str) else list(rule_ids)
    lines: list[str] = []
    seen: set[str] = set()
    for rid in ids:
        if rid in seen:
            continue
        seen.add(rid)
        r = rule(rid)
        lines.append(f"{r.rs} {r.id}: {r.statement} (seed {r.seed})")
    return lines
