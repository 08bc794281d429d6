"""Learner-facing words for the rule registry: a short title, one or two sentences, and where to read more.

The registry (`uu.engine.rules`) is written for the engine, its tests and teachers: it speaks in rule ids,
checklist numbers and source-file keys. Learners read none of that. This module gives every rule id a plain
title and a pointer to the place in the printed rules where a player at the table would look it up, and
cleans the registry's statement into a sentence a learner can read.

    >>> learner_rule("pile.top-only").title
    'Answer only the top card'
    >>> internal_ids_in("See verb.destroy (RS11).")
    ['verb.destroy', 'RS11']

`internal_ids_in` lets a test check any learner-facing text (lessons, feedback) for leaked ids. Nothing here
raises for an unknown id: learners never see errors, so unknown ids are skipped.

The words answer in the language in use (`uu.i18n.current_language`). English lives in this module; French and
German live beside it in `rulewords.fr.yaml` and `rulewords.de.yaml` (rule id -> title, text, where), their
"where" naming the section of that language's rulebook. A rule missing from a language's file falls back to
English, so a new rule is never shown as an id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import yaml

from uu import i18n  # i18n._ (gettext): the words modules import no underscored name (tests/test_whynot.py)
from uu.engine.rules import RULES
from uu.htmlsafe import esc
from uu.i18n import current_language
from uu.i18n.typography import colon

__all__ = ["TUTOR_CHOICE", "WORDS", "LearnerRule", "internal_ids_in", "learner_rule", "learner_rules", "rules_html",
           "translated_words"]

# Where a player finds a rule. The English rulebook comes first because it is what most players own; rules
# it does not state come from the Control & Chaos rules page, then the wiki's gameplay-structure page.
_BOOK: Final = "Rulebook: "
_CC: Final = "Control & Chaos rules: "
_WIKI: Final = "Rules wiki: Gameplay structure"
TUTOR_CHOICE: Final = "A choice of this tutor"

#: rule id -> (title, where). Titles are 2-6 plain words; "where" names a section a player can open.
WORDS: Final[dict[str, tuple[str, str]]] = {
    # setup
    "setup.components": ("What is in the box", _BOOK + "What's in the Box"),
    "setup.deal-five": ("Everyone is dealt 5 cards", _BOOK + "How to Start"),
    "setup.deck-and-discard": ("The deck and discard pile", _BOOK + "How to Start"),
    "setup.reference-cards": ("Rules reference cards", _BOOK + "How to Start"),
    "setup.choose-baby": ("Choose a Baby Unicorn", _BOOK + "How to Start"),
    "setup.nursery": ("The Nursery", _BOOK + "How to Start"),
    "setup.babies-never-in-hand": ("Babies never enter a hand", _BOOK + "How to Start"),
    "baby.return-to-nursery": ("Babies go back to the Nursery", _BOOK + "How to Start"),
    "setup.first-player": ("Who goes first", _BOOK + "How to Start"),
    # the turn
    "turn.clockwise": ("Turns go clockwise", _BOOK + "The Turn"),
    "turn.phases": ("Four phases in every turn", _BOOK + "The Turn"),
    "bot.trigger": ("Beginning of Turn effects", _BOOK + "The Turn (Beginning of Turn phase)"),
    "bot.optional-lost": ("Optional effects before you draw", _BOOK + "Mandatory vs. Optional Effects"),
    "bot.mandatory-stays": ("Mandatory effects always happen", _BOOK + "Mandatory vs. Optional Effects"),
    "draw.phase": ("Draw a card", _BOOK + "The Turn (Draw phase)"),
    "action.one": ("One action per turn", _BOOK + "The Turn (Action phase)"),
    "action.draw-instead": ("Draw instead of playing", _BOOK + "The Turn (Action phase)"),
    "end.hand-limit": ("Hand limit of 7", _BOOK + "The Turn (End of Turn phase)"),
    # verbs
    "verb.draw": ("What DRAW means", _BOOK + "Important Terms"),
    "verb.discard": ("What DISCARD means", _BOOK + "Important Terms"),
    "verb.sacrifice": ("What SACRIFICE means", _BOOK + "Important Terms"),
    "verb.destroy": ("What DESTROY means", _BOOK + "Important Terms"),
    "verb.steal": ("What STEAL means", _BOOK + "Important Terms"),
    "verb.move-to-discard": ("Moving cards to the discard pile", _CC + "Set-Up Terms (Discard pile)"),
    # card types
    "card.unicorn-stays": ("Unicorns stay in a Stable", _BOOK + "Types of Cards (Unicorn cards)"),
    "card.unicorn-kinds": ("Kinds of Unicorn cards", _BOOK + "Types of Cards (Unicorn cards)"),
    "card.magic-one-shot": ("Magic cards work once", _BOOK + "Types of Cards (Magic cards)"),
    "card.downgrade-any-stable": ("Downgrades go in any Stable", _BOOK + "Types of Cards (Downgrade cards)"),
    "card.upgrade-any-stable": ("Upgrades go in any Stable", _BOOK + "Types of Cards (Upgrade cards)"),
    "card.unicorn-any-stable": ("Unicorns go in any Stable", _CC + "Card types (Unicorn cards)"),
    "instant.when": ("When Instants can be played", _BOOK + "Types of Cards (Instant cards)"),
    "instant.chain": ("Instants can be stacked", _BOOK + "Types of Cards (Instant cards)"),
    "instant.not-an-action": ("An Instant is never your action", _BOOK + "The Turn (Action phase)"),
    # winning
    "win.threshold": ("Unicorns needed to win", _BOOK + "End of the Game"),
    "win.counts-one": ("Each Unicorn counts as one", _BOOK + "End of the Game"),
    "win.after-chain": ("No win in mid-chain", _CC + "Order of Resolution: The Effect Chain"),
    "win.deck-out": ("When the deck runs out", _BOOK + "End of the Game"),
    "win.letters": ("Ties: count the letters", _BOOK + "End of the Game"),
    "win.everyone-loses": ("A full tie: everyone loses", _BOOK + "End of the Game"),
    # effects
    "effect.hand-inactive": ("Cards in hand do nothing", _BOOK + "Cards in Your Hand vs. Cards in Your Stable"),
    "effect.enter": ("Entering a Stable", _BOOK + "Entering and Leaving Your Stable"),
    "effect.leave": ("Leaving a Stable", _BOOK + "Entering and Leaving Your Stable"),
    "option.return-is-leaving": ("Returning to a hand", TUTOR_CHOICE),
    "effect.may": ("'May' means optional", _BOOK + "Mandatory vs. Optional Effects"),
    "effect.triggered-continuous": ("Triggered and continuous effects", _CC + "Triggered and Continuous Effects"),
    # beginning of turn and the effect chain
    "bot.simultaneous": ("Start-of-turn effects happen together", _BOOK + "Beginning of Turn Effects"),
    "bot.end-turn-others-resolve": ("Ending the turn early", _BOOK + "Beginning of Turn Effects"),
    "bot.entered-this-turn": ("New cards wait a turn", _WIKI + " (Phase 1: Beginning of Turn)"),
    "bot.skip-to-end": ("Skipping to End of Turn", _WIKI + " (Phase 1: Beginning of Turn)"),
    "bot.order-irrelevant": ("Order of start-of-turn effects", _WIKI + " (Phase 1: Beginning of Turn)"),
    "chain.link": ("One effect at a time", _CC + "Order of Resolution: The Effect Chain"),
    "chain.targets-before": ("Choose targets first", _CC + "Order of Resolution: The Effect Chain"),
    "chain.new-link": ("New effects wait their turn", _CC + "Order of Resolution: The Effect Chain"),
    "chain.same-target": ("No card chosen twice", _CC + "Order of Resolution: The Effect Chain"),
    "chain.not-enough-targets": ("Too few targets", _CC + "Order of Resolution: The Effect Chain"),
    "chain.mandatory-first": ("Mandatory targets come first", _CC + "Order of Resolution: The Effect Chain"),
    # Neigh and the pile
    "neigh.cards-only": ("Neigh stops cards, not effects", _BOOK + "Neighing Card Effects"),
    "neigh.stops-card": ("A Neighed card is discarded", _BOOK + "Neighing Card Effects"),
    "pile.top-only": ("Answer only the top card", _CC + "Resolving Instant Cards"),
    "pile.fastest": ("The fastest answer counts", _CC + "Resolving Instant Cards"),
    "pile.respond-again": ("Answering again", _CC + "Resolving Instant Cards"),
    "pile.resolve-top-down": ("The pile resolves from the top", _CC + "Resolving Instant Cards"),
    "option.responder-order": ("Who is asked first", TUTOR_CHOICE),
    "pile.everyone-asked": ("Everyone may answer", _WIKI + " (Phase 3: Action)"),
    "pile.no-neigh-after-pass": ("Too late after passing", _CC + "Resolving Instant Cards"),
    # targeting
    "target.players": ("Which players a card means", _BOOK + "Player Targeting"),
    "target.option": ("Two ways to choose targets", _BOOK + "Choosing Targets for Effects"),
    "option.targeting": ("Targets are named when played", TUTOR_CHOICE),
    # clarifications
    "search.reveal": ("Show the card you found", _BOOK + "Searching for Cards"),
    "search.must-find": ("A search must find", _WIKI + " (effects list: deck search)"),
    "downgrade.sacrifice-a-card": ("Getting rid of Downgrades", _BOOK + "Getting Rid of Downgrade Cards"),
    "effect.order": ("Actions in printed order", _CC + "Card Effects with Multiple Actions"),
    "effect.and": ("'And' means both", _CC + "Card Effects with Multiple Actions"),
    "effect.then": ("'Then' needs the first part", _BOOK + "Card Effects with Multiple Actions"),
    "effect.if-you-do": ("'If you do' means chosen", _CC + "Card Effects with Multiple Actions"),
    "effect.impossible-play": ("Impossible cards cannot be played", _CC + "Impossible Actions"),
    "effect.impossible-skip": ("Impossible actions are skipped", _BOOK + "Impossible Actions"),
    "effect.bring-not-play": ("Bringing a card is not playing", _CC + "Play vs. Bring Directly into Your Stable"),
    "bring.from-discard": ("Bringing back from the discard pile",
                           _CC + "Play vs. Bring Directly into Your Stable"),
    "effect.immunity": ("Cards that cannot be affected", _CC + "Immunity"),
    "effect.pull-choose": ("Pull versus choose", _CC + "Pull vs. Choose"),
    "option.open-hand-pull": ("Pulling from a face-up hand", TUTOR_CHOICE),
    # two players
    "two-player.removals": ("Cards left out for 2 players", _BOOK + "2-Player Rules"),
    "two-player.neigh": ("A Neigh for each player", _BOOK + "2-Player Rules"),
    # Babies
    "baby.nursery-only": ("Babies come from the Nursery", _CC + "Card types (Baby Unicorn cards)"),
    "option.baby-moves": ("Babies may change Stables", TUTOR_CHOICE),
    # phase flow
    "status.check": ("Checking for a winner", _WIKI + " (game status checks)"),
    "status.skipped-phase": ("Skipped phases", _WIKI + " (game status checks)"),
    "draw.extra": ("Extra cards in the Draw phase", _WIKI + " (Phase 2: Draw)"),
    "action.requirements": ("Cards with requirements", _WIKI + " (Phase 3: Action)"),
    "action.valid-stable": ("A Stable the card may enter", _WIKI + " (Phase 3: Action)"),
    "action.magic-target": ("Magic cards need a target", _WIKI + " (Phase 3: Action)"),
    "end.never-skipped": ("End of Turn always happens", _WIKI + " (End of Turn)"),
    "turn.skips-add-up": ("Skipped turns add up", _WIKI + " (End of Turn)"),
    "turn.extra": ("An extra turn is complete", _WIKI + " (effects list: another turn)"),
    "turn.skip-phase": ("One skip serves many", _WIKI + " (effects list: skipping phases)"),
    "turn.skip-other": ("Skipping another player's turn", _WIKI + " (effects list: skipping turns)"),
    "turn.another": ("Taking another turn", _WIKI + " (effects list: another turn)"),
    # the tutor's own choices
    "option.simultaneous-win": ("Two winners at once", TUTOR_CHOICE),
    "option.deck-out": ("When the deck is empty", TUTOR_CHOICE),
    "option.pandas": ("How safe Pandas are", TUTOR_CHOICE),
}

# Sentences written for the learner where the registry's statement talks about the engine, its options or
# other ids. Every other rule shows its statement, cleaned by `_clean`.
_TEXT: Final[dict[str, str]] = {
    # shown in early lessons: only words the course has taught by then, or explained in place (tests/test_glossary.py)
    "action.one": (
        "In your Action phase you take exactly one action: play one card from your hand, or take a card from "
        "the deck instead, unless a card changes that."
    ),
    "card.unicorn-stays": (
        "Once in a Stable, a Unicorn card stays there until an effect removes it: its owner may have to give it "
        "up (SACRIFICE) or another player may take it out (DESTROY)."
    ),
    "setup.deck-and-discard": (
        "The undealt cards lie face down in the middle as the deck, and beside it is the discard pile, which "
        "collects every card that is used up or thrown away (sacrificed, destroyed or discarded)."
    ),
    "card.upgrade-any-stable": (
        "An Upgrade card may go into any player's Stable, stays there until an effect removes it, and affects "
        "only the Stable it sits in unless it says otherwise."
    ),
    "card.downgrade-any-stable": (
        "A Downgrade card may go into any player's Stable, usually someone else's though your own is allowed; "
        "it stays there until an effect removes it and affects only the Stable it sits in unless it says "
        "otherwise."
    ),
    "effect.enter": (
        "A Unicorn enters your Stable whenever it arrives there, whether you play it, STEAL it or an effect "
        "puts it there directly (brings it in)."
    ),
    "chain.mandatory-first": (
        "Targets for the mandatory effects of a link (effects that trigger at the same moment, such as at the "
        "start of your turn) are picked before any targets for its optional effects."
    ),
    "setup.reference-cards": (
        "Each player may take a rules reference card and the unused ones go back into the box; here the tutor "
        "itself is your reference."
    ),
    "setup.first-player": (
        "The rulebook lets the player wearing the most colours go first (the German edition lets the one in "
        "the darkest clothes choose who starts); in this tutor the game or lesson says who starts."
    ),
    "turn.clockwise": "Turns pass clockwise around the table, and after the last player it is the first again.",
    "bot.mandatory-stays": (
        "A mandatory beginning-of-turn effect is never lost: at the table it must still be carried out once "
        "anyone notices it was forgotten, and this tutor always carries it out."
    ),
    "win.deck-out": (
        "If the deck is used up before anybody reaches the winning count, the game ends and whoever has the "
        "most Unicorns in their Stable wins."
    ),
    "option.return-is-leaving": (
        "In this tutor a Unicorn sent back to a hand does not count as leaving its Stable, because the "
        "rulebook names only SACRIFICE, DESTROY and STEAL; the other choice would count a return as leaving "
        "too."
    ),
    "bot.order-irrelevant": (
        "The order in which beginning-of-turn effects resolve does not change the result, so this tutor "
        "resolves them in a fixed order once all their targets are chosen."
    ),
    "pile.fastest": (
        "If several players answer the same top card, only the quickest one's Instant joins the pile and the "
        "others go back to their owners' hands; this tutor asks players one at a time instead of timing them."
    ),
    "option.responder-order": (
        "Instead of timing who answers fastest, this tutor asks players one at a time, starting with the "
        "player to the left of whoever played the card being answered, and the first to answer is the one "
        "whose Instant counts."
    ),
    "option.targeting": (
        "In this tutor you name a card's targets when you play it, before anyone decides whether to answer it "
        "(the rulebook's Option 1); with Option 2 the answers come first and targets are chosen as the card "
        "resolves."
    ),
    "baby.nursery-only": (
        "The Control & Chaos rules say a Baby Unicorn enters a Stable only from the Nursery; the 2nd-edition "
        "rulebook dropped that sentence."
    ),
    "option.baby-moves": (
        "This tutor follows the 2nd edition: a Baby Unicorn may be stolen or moved from Stable to Stable, and "
        "still goes to the Nursery whenever it would go anywhere else; the older rule lets a Baby enter a "
        "Stable only from the Nursery."
    ),
    "turn.another": "An effect may let the current player take another turn once this one is over.",
    "option.simultaneous-win": (
        "The rules do not say what happens if several players reach the winning count at the same moment: "
        "in this tutor the current player wins if among them, otherwise the first of them after the current "
        "player in turn order."
    ),
    "option.deck-out": (
        "In this tutor the game ends at the first check after a phase that finds the deck empty, and the most "
        "Unicorns wins (then the most letters); a common house rule instead shuffles the discard pile into a new "
        "deck whenever someone must DRAW from an empty deck."
    ),
    "option.open-hand-pull": (
        "In this tutor a card pulled from a hand kept face up for everyone (Nanny Cam) is chosen, not taken "
        "at random: the cards are in plain sight, so you look and take the one you want; the other choice "
        "keeps every pull random."
    ),
    "option.pandas": (
        "In this tutor Pandamonium's Pandas are safe only from effects that name Unicorn cards; another "
        "reading says no effect at all, not even their owner's, may SACRIFICE, DESTROY, STEAL, move or return "
        "them."
    ),
}


@dataclass(frozen=True, slots=True)
class LearnerRule:
    """A rule as a learner reads it: a short title, one or two sentences, and where to look it up."""

    title: str
    text: str
    where: str


# ---- finding internal ids -------------------------------------------------------------------------------

def _id_alternation() -> str:
    # longest first, so "setup.deck-and-discard" wins over any shorter id it might start with
    return "|".join(re.escape(r) for r in sorted(RULES, key=len, reverse=True))


# A registry id as a whole word: not part of a longer dotted or hyphenated word ("verb.destroyer",
# "xverb.destroy"), but a sentence may end right after it ("... verb.destroy.").
_REGISTRY_ID: Final = re.compile(rf"(?<![\w.-])(?:{_id_alternation()})(?![\w-]|\.\w)")
_RS: Final = re.compile(r"\bRS\d{2}\b")
# Any option id, even one the registry does not (yet) have: "option." glued to a lowercase word. Prose puts
# a space after a full stop, so "an option. The" is not matched.
_OPTION: Final = re.compile(r"(?<![\w.-])option\.[a-z][a-z0-9_-]*")
# Source-file keys: "seed 001", or 000-004 right before a quoted or untitled section name.
_SEED: Final = re.compile(r"\bseeds?\s+\d{3}\b")
_SEED_KEY: Final = re.compile(r"(?<![\w.-])00[0-4](?=\s*['\"‘’“”]|\s+[\w -]{0,40}\(untitled)")
_PATTERNS: Final = (_REGISTRY_ID, _RS, _OPTION, _SEED, _SEED_KEY)


def internal_ids_in(text: str) -> list[str]:
    """The internal ids in a learner-facing text, in order of appearance, each once: checklist numbers
    (RS29), registry rule ids (pile.top-only), option ids (option.pandas) and source-file keys (seed 001,
    or 001 before a quoted section name). Ordinary prose ("e.g.", "Basic Unicorn (Red)") gives nothing."""
    found: list[tuple[int, int, str]] = []
    for pattern in _PATTERNS:
        found.extend((m.start(), -m.end(), m.group(0)) for m in pattern.finditer(text or ""))
    found.sort()  # by start, the longest match first
    out: list[str] = []
    end = -1
    for start, neg_end, s in found:
        if start < end:  # inside a match already taken ("001" inside "seed 001")
            continue
        end = -neg_end
        out.append(s)
    return list(dict.fromkeys(out))


# ---- statements for learners ----------------------------------------------------------------------------

# A parenthesis that mentions an id ("(see turn.extra)", "(option.deck-out says exactly when)") is a
# pointer for teachers: the whole parenthesis goes.
_PAREN: Final = re.compile(r"\s*\([^()]*\)")


def _clean(statement: str) -> str:
    def drop(m: re.Match[str]) -> str:
        return "" if internal_ids_in(m.group(0)) else m.group(0)

    text = _PAREN.sub(drop, statement)
    for found in internal_ids_in(text):  # an id left in running text: say it as words
        text = text.replace(found, found.rsplit(".", 1)[-1].replace("-", " "))
    return re.sub(r"\s{2,}", " ", text).strip()


def plain(text: str) -> str:
    """`text` with its internal ids taken out (a parenthesis that cites one goes whole), for learners."""
    return _clean(text)


_WORDS_DIR: Final = Path(__file__).resolve().parent


@cache
def translated_words(lang: str) -> dict[str, LearnerRule]:
    """The rule words of `lang` from `rulewords.<lang>.yaml` (empty for English or a language without a file)."""
    path = _WORDS_DIR / f"rulewords.{lang}.yaml"
    if lang == "en" or not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {
        str(rid): LearnerRule(str(w["title"]), str(w["text"]), str(w["where"]))
        for rid, w in data.items()
        if isinstance(w, dict) and w.get("title") and w.get("text") and w.get("where")
    }


def learner_rule(rule_id: str) -> LearnerRule:
    """The learner's words for `rule_id`, in the language in use. An id the registry has but this table lacks
    still gets a readable entry (from its statement), so a new rule never shows an id; a wholly unknown id
    raises KeyError (use `learner_rules` where an id may be unknown)."""
    r = RULES[rule_id]
    translated = translated_words(current_language()).get(rule_id)
    if translated is not None:
        return translated
    title, where = WORDS.get(rule_id, ("About this rule", "Rulebook"))
    return LearnerRule(title, _TEXT.get(rule_id) or _clean(r.statement), where)


def learner_rules(ids: Iterable[str] | str) -> list[LearnerRule]:
    """The learner's words for each id, in order, each once; ids the registry does not know are skipped."""
    if isinstance(ids, str):
        ids = [ids]
    out: list[LearnerRule] = []
    for rid in dict.fromkeys(ids):
        if rid in RULES:
            out.append(learner_rule(rid))
    return out


def rules_html(rule_ids: Iterable[str], label: str | None = None, open_: bool = False) -> str:
    """A collapsible box for learners: the summary lists the rules' titles; inside, each rule's title in
    bold, its sentence and where to read it. Everything is escaped; "" when no id is known. The label
    defaults to "The rule" in the language in use; a caller's own label is looked up in the catalogs too (a
    caller should mark it for translation where it writes it)."""
    rules = learner_rules(rule_ids)
    if not rules:
        return ""
    # gettext maps "" to the catalog header, so an empty label stays empty
    label = i18n._("The rule") if label is None else (i18n._(label) if label else label)
    sep = colon()
    items = "".join(
        f"<div class='uu-why'><b>{esc(r.title)}</b>{sep}{esc(r.text)} <span class='uu-where'>({esc(r.where)})</span>"
        "</div>"
        for r in rules
    )
    # titles start with a capital: a comma between them would read as one sentence with capitals inside it
    titles = " · ".join(dict.fromkeys(r.title for r in rules))
    return (f"<details class='uu-rules'{' open' if open_ else ''}><summary>{esc(label)}{sep}{esc(titles)}</summary>"
            f"{items}</details>")
