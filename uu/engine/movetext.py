"""The engine's words for a learner, in the language in use: a move's label and a decision's prompt.

The engine itself only ever speaks English, and it speaks it in the hot loop: an `Action` is described and a
`Decision`'s prompt is made for every step of a 100,000-game playout, where a catalog lookup would cost time
for words nobody reads. So the translation happens here, when a screen shows the words:

- `describe_action(action, names)` is `Action.describe` in the language in use (byte for byte the same in
  English): a verb for the action's kind and its details, each phrase translated whole.
- `log_text(line)` does the same for a line of the game's narrated log (`GameState.say`).
- `prompt_text(prompt)` takes the English prompt the engine made and gives it in the language in use: each
  prompt the engine can make is listed below as one English template (marked for the catalogs), read back
  from the prompt and filled again in the learner's language. A prompt that fits no template stays English.

Card names in both go through `uu.cards.localized.card_name` (the engine's ids stay English).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from uu.cards.localized import card_name
from uu.engine.actions import Action, Target
from uu.i18n import N_, _, current_language

__all__ = ["LOG_LINES", "PROMPTS", "describe_action", "fits_a_template", "log_text", "prompt_text"]

# i18n: the verb that starts a move's label in the move list, one per kind of action ("play Narwhal")
_VERBS: dict[str, str] = {
    "play": N_("play"), "draw": N_("draw"), "respond": N_("respond"), "pass": N_("pass"),
    "target": N_("target"), "discard": N_("discard"), "sacrifice": N_("sacrifice"), "use": N_("use"),
    "decline": N_("decline"), "choose": N_("choose"), "order": N_("order"), "baby": N_("baby"),
}
_FROM_ZONE: dict[str, str] = {
    "discard": N_("{card} from the discard pile"), "nursery": N_("{card} from the Nursery"),
    "deck": N_("{card} from the deck"),
}


def _is_you(name: str) -> bool:
    """The learner's seat is named "You" (or its word in the language in use): "your Stable", not "You's"."""
    low = name.lower()
    return low == "you" or low == _("You").lower()


def _target(t: Target, names: list[str]) -> str:
    if t.player is not None:
        return names[t.player]
    card = card_name(str(t.card))
    if t.zone in ("stable", "hand") and t.owner is not None:
        owner = names[t.owner]
        if t.zone == "stable":
            if _is_you(owner):
                return _("{card} in your Stable").format(card=card)
            return _("{card} in {player}'s Stable").format(card=card, player=owner)
        if _is_you(owner):
            return _("{card} in your hand").format(card=card)
        return _("{card} in {player}'s hand").format(card=card, player=owner)
    if t.zone == "stable":
        return card
    template = _FROM_ZONE.get(t.zone)
    if template is None:  # a zone no move names today: say it as the engine does
        return _("{card} from the {zone}").format(card=card, zone=t.zone)
    return _(template).format(card=card)


def describe_action(action: Action, names: list[str]) -> str:
    """The move's label in the language in use ("jouer Narval dans l'Écurie de Ben"); in English exactly
    `action.describe(names)`, which tests and saved records pin."""
    if current_language() == "en":
        return action.describe(names)
    parts = []
    if action.card:
        parts.append(card_name(action.card))
    if action.into is not None:
        owner = names[action.into]
        parts.append(_("into your Stable") if _is_you(owner)
                     else _("into {player}'s Stable").format(player=owner))
    if action.target:
        parts.append("→ " + ", ".join(_target(t, names) for t in action.target))
    if action.option:
        parts.append(repr(_option(action.option)))
    if action.cards:
        parts.append(", ".join(card_name(c) for c in action.cards))
    verb = _(_VERBS.get(action.kind, action.kind))
    if not parts:
        return verb
    # i18n: a move's label: {verb} is the kind of move ("play"), {details} the cards and places it names
    return _("{verb} {details}").format(verb=verb, details=" ".join(parts))


# ---- prompts ------------------------------------------------------------------------------------------------
# Every prompt the engine makes (uu/engine/flow.py, pile.py, effects.py, verb_handlers.py), as a template whose fields
# are read back from the English prompt. {player} and {other} are players' names, {card} a card's name,
# {what} "a Unicorn card" and the like (its own table below). Keep in step with the engine's f-strings:
# tests/test_i18n_engine.py plays games and checks that every prompt met fits one of these.
PROMPTS: tuple[str, ...] = (
    N_("{player}: choose a Baby Unicorn for your Stable."),
    N_("{player}: DISCARD down to the hand limit of {limit} ({extra} more)."),
    N_("{player}: play a card from your hand, or DRAW a card."),
    N_("{player}: respond to {other}'s {card} with an Instant, or pass."),
    N_("{player}: DISCARD {what}."),
    N_("{player}: SACRIFICE {what} from your Stable."),
    N_("{player}: DESTROY {what} in another player's Stable."),
    N_("{player}: STEAL {what}."),
    N_("{player}: return {what} from a Stable to its owner's hand."),
    N_("{player}'s hand is face up: take the card of your choice from it."),
    N_("Choose another player."),
    N_("Choose for {card} ({verb}) before the link resolves."),
    N_("{card} would be destroyed: use a replacement effect instead?"),
    N_("{card} would be sacrificed: use a replacement effect instead?"),
    N_("Use the optional part '{verb}' of {card}?"),
    N_("Use the effect of {card}?"),
    N_("Use the beginning-of-turn effect of {card}?"),
    N_("Bring {what} from the discard into your Stable."),
    N_("Bring {what} from the nursery into your Stable."),
    N_("Bring {what} from the deck into your Stable."),
    N_("Bring {what} from the hand into your Stable."),
    N_("Take {what} from the discard pile."),
    N_("Search the deck for {what}."),
    N_("STEAL a Unicorn card from {player}."),
    N_("Return a card from {player}'s Stable to their hand."),
    N_("Choose {what} to move."),
    N_("Move {card} into whose Stable?"),
    N_("Take a card of your choice from {player}'s hand."),
    N_("Choose the card to put into your hand."),
    N_("Put the other cards back on top, in this order (top first)."),
    N_("Choose one."),
)
# The "what" of a verb's prompt, with its article (uu/engine/verb_handlers.py, _a_what, from the catalog's `what:`)
_WHATS: dict[str, str] = {
    "a card": N_("a card"), "a Unicorn card": N_("a Unicorn card"),
    "a Basic Unicorn card": N_("a Basic Unicorn card"), "a Baby Unicorn": N_("a Baby Unicorn"),
    "an Upgrade or Downgrade card": N_("an Upgrade or Downgrade card"), "this card": N_("this card"),
    "a magic card": N_("a magic card"), "an upgrade card": N_("an upgrade card"),
    "a downgrade card": N_("a downgrade card"), "a narwhal card": N_("a narwhal card"),
    "a neigh card": N_("a neigh card"),
}
# The options of a "choose one" card (the catalog's choose_one names), as the move list and the log show them
_OPTIONS: dict[str, str] = {"DESTROY an Upgrade": N_("DESTROY an Upgrade"),
                            "SACRIFICE a Downgrade": N_("SACRIFICE a Downgrade")}


def _option(name: str) -> str:
    return _(_OPTIONS[name]) if name in _OPTIONS else card_name(name)


# Every line the engine narrates (GameState.say in uu/engine/*.py), the same way. A template that would also
# fit a longer line comes after the longer one ("plays {card} into ..." before "plays {card}.").
LOG_LINES: tuple[str, ...] = (
    N_("The part after 'then' does not happen: the first part was not carried out."),
    N_("{player} declines."),
    N_("{card}'s optional effect could do nothing, so it is not offered."),
    N_("{player} does not use {card}."),
    N_("{player} uses {card}: instead of {other_card} being destroyed, something else happens."),
    N_("{player} uses {card}: instead of {other_card} being sacrificed, something else happens."),
    N_("{player} uses {card}."),
    N_("{card}'s effect resolves for {player}."),
    N_("Not enough targets left for {card}: it does not trigger this turn."),
    N_("Not enough targets for {card}: that part is skipped."),
    N_("{card}'s beginning-of-turn effect resolves."),
    N_("{player} DESTROYs {card} from {other}'s Stable."),
    N_("{player} SACRIFICEs {card} from {other}'s Stable."),
    N_("{player} DESTROYs {card}."),
    N_("{player} SACRIFICEs {card}."),
    N_("{player} chooses: {option}."),
    N_("{player} chooses {card}."),
    N_("{player} DISCARDs {card} (hand limit)."),
    N_("{player} has {count} Unicorns and wins!"),
    N_("The deck has run out: {player} has the most Unicorns ({count}) and wins."),
    N_("The deck has run out with a tie at {count} Unicorns: {player} has the most letters ({letters}) and wins."),
    N_("The deck has run out and the tie-breaks are tied too: everyone loses."),
    N_("{player} has more than {limit} Unicorns with {card}: they must SACRIFICE a Unicorn card."),
    N_("The {phase} phase is skipped: the turn is ending."),
    N_("The {phase} phase is skipped."),
    N_("{player}'s next turn is skipped (skips add up: {count})."),
    N_("{player}'s turn is skipped."),
    N_("Turn {number}: {player}'s turn begins."),
    N_("{player} takes another turn."),
    N_("{player} shuffles this card, their hand and the discard pile into the deck."),
    N_("{card} goes back to the Nursery instead of a hand."),
    N_("{card} goes back to the Nursery."),
    N_("2-player game: {count} cards are removed from the deck."),
    N_("The Baby Unicorns form the Nursery; the other cards form the deck."),
    N_("Each player takes a Neigh before the deck is shuffled."),
    N_("The deck is shuffled and each player is dealt 5 cards."),
    N_("The deck is empty: the discard pile is shuffled into a new deck."),
    N_("{player} cannot DRAW: the deck is empty."),
    N_("{player} DRAWs 1 card."),
    N_("{player} DRAWs {count} cards."),
    N_("{player} plays {card} into {other}'s Stable."),
    N_("{player} plays {card}."),
    N_("{player} responds with {card} to {other_card}."),
    N_("{card} resolves: {player}'s {other_card} is not played and goes to the discard pile."),
    N_("{card} enters {player}'s Stable."),
    N_("{card} cannot enter {player}'s Stable any more and is discarded."),
    N_("{card} takes effect."),
    N_("{player} DISCARDs {card}."),
    N_("{player} has no card to DISCARD: that part is disregarded."),
    N_("{player} STEALs {card} from {other}."),
    N_("{card} returns to {player}'s hand."),
    N_("{card} moves from {player}'s Stable to {other}'s."),
    N_("{player} brings {card} directly into their Stable (not played, so it cannot be Neigh'd)."),
    N_("{player} takes {card} from the discard pile into their hand."),
    N_("{player} searches the deck, reveals {card}, takes it and shuffles the deck."),
    N_("{player} searches the deck and finds no {kind}; the deck is shuffled."),
    N_("{player} takes {card} from {other}'s face-up hand."),
    N_("{player} pulls a random card from {other}'s hand."),
    N_("{player} looks at {other}'s hand."),
    N_("{player} takes a card from {other}'s hand."),
    N_("{player} and {other} exchange hands."),
    N_("The discard pile is shuffled into the deck."),
    N_("{player} looks at the top {count} cards and takes one."),
    N_("{player}'s turn will end once this link resolves (End of Turn still happens)."),
    N_("{player} will take another turn after this one."),
    N_("{player} may play an extra card this Action phase."),
    N_("End of Turn is never skipped."),
    N_("{player} will skip the {phase} phase."),
)
# The lessons name the learner's seat "You". A line about them is said to them ("Tu PIOCHES 1 carte.", not
# "Toi PIOCHE 1 carte."): each line of LOG_LINES that can be about them has its second-person twin, when they
# are {player}, when they are {other}, and when they are both. (English needs none: uu.render.second_person
# fixes the verb of the English line; these English texts are the twins' keys in the catalogs.)
_YOU_PLAYER: dict[str, str] = {
    "{player} declines.": N_("You decline."),
    "{player} does not use {card}.": N_("You do not use {card}."),
    "{player} uses {card}: instead of {other_card} being destroyed, something else happens.":
        N_("You use {card}: instead of {other_card} being destroyed, something else happens."),
    "{player} uses {card}: instead of {other_card} being sacrificed, something else happens.":
        N_("You use {card}: instead of {other_card} being sacrificed, something else happens."),
    "{player} uses {card}.": N_("You use {card}."),
    "{card}'s effect resolves for {player}.": N_("{card}'s effect resolves for you."),
    "{player} DESTROYs {card} from {other}'s Stable.": N_("You DESTROY {card} from {other}'s Stable."),
    "{player} SACRIFICEs {card} from {other}'s Stable.": N_("You SACRIFICE {card} from {other}'s Stable."),
    "{player} DESTROYs {card}.": N_("You DESTROY {card}."),
    "{player} SACRIFICEs {card}.": N_("You SACRIFICE {card}."),
    "{player} chooses: {option}.": N_("You choose: {option}."),
    "{player} chooses {card}.": N_("You choose {card}."),
    "{player} DISCARDs {card} (hand limit).": N_("You DISCARD {card} (hand limit)."),
    "{player} has {count} Unicorns and wins!": N_("You have {count} Unicorns and win!"),
    "The deck has run out: {player} has the most Unicorns ({count}) and wins.":
        N_("The deck has run out: you have the most Unicorns ({count}) and win."),
    "The deck has run out with a tie at {count} Unicorns: {player} has the most letters ({letters}) and wins.":
        N_("The deck has run out with a tie at {count} Unicorns: you have the most letters ({letters}) and win."),
    "{player} has more than {limit} Unicorns with {card}: they must SACRIFICE a Unicorn card.":
        N_("You have more than {limit} Unicorns with {card}: you must SACRIFICE a Unicorn card."),
    "{player}'s next turn is skipped (skips add up: {count}).": N_("Your next turn is skipped (skips add up: {count})."),
    "{player}'s turn is skipped.": N_("Your turn is skipped."),
    "Turn {number}: {player}'s turn begins.": N_("Turn {number}: your turn begins."),
    "{player} takes another turn.": N_("You take another turn."),
    "{player} shuffles this card, their hand and the discard pile into the deck.":
        N_("You shuffle this card, your hand and the discard pile into the deck."),
    "{player} cannot DRAW: the deck is empty.": N_("You cannot DRAW: the deck is empty."),
    "{player} DRAWs 1 card.": N_("You DRAW 1 card."),
    "{player} DRAWs {count} cards.": N_("You DRAW {count} cards."),
    "{player} plays {card} into {other}'s Stable.": N_("You play {card} into {other}'s Stable."),
    "{player} plays {card}.": N_("You play {card}."),
    "{player} responds with {card} to {other_card}.": N_("You respond with {card} to {other_card}."),
    "{card} resolves: {player}'s {other_card} is not played and goes to the discard pile.":
        N_("{card} resolves: your {other_card} is not played and goes to the discard pile."),
    "{card} enters {player}'s Stable.": N_("{card} enters your Stable."),
    "{card} cannot enter {player}'s Stable any more and is discarded.":
        N_("{card} cannot enter your Stable any more and is discarded."),
    "{player} DISCARDs {card}.": N_("You DISCARD {card}."),
    "{player} has no card to DISCARD: that part is disregarded.":
        N_("You have no card to DISCARD: that part is disregarded."),
    "{player} STEALs {card} from {other}.": N_("You STEAL {card} from {other}."),
    "{card} returns to {player}'s hand.": N_("{card} returns to your hand."),
    "{card} moves from {player}'s Stable to {other}'s.": N_("{card} moves from your Stable to {other}'s."),
    "{player} brings {card} directly into their Stable (not played, so it cannot be Neigh'd).":
        N_("You bring {card} directly into your Stable (not played, so it cannot be Neigh'd)."),
    "{player} takes {card} from the discard pile into their hand.":
        N_("You take {card} from the discard pile into your hand."),
    "{player} searches the deck, reveals {card}, takes it and shuffles the deck.":
        N_("You search the deck, reveal {card}, take it and shuffle the deck."),
    "{player} searches the deck and finds no {kind}; the deck is shuffled.":
        N_("You search the deck and find no {kind}; the deck is shuffled."),
    "{player} takes {card} from {other}'s face-up hand.": N_("You take {card} from {other}'s face-up hand."),
    "{player} pulls a random card from {other}'s hand.": N_("You pull a random card from {other}'s hand."),
    "{player} looks at {other}'s hand.": N_("You look at {other}'s hand."),
    "{player} takes a card from {other}'s hand.": N_("You take a card from {other}'s hand."),
    "{player} and {other} exchange hands.": N_("You and {other} exchange hands."),
    "{player} looks at the top {count} cards and takes one.": N_("You look at the top {count} cards and take one."),
    "{player}'s turn will end once this link resolves (End of Turn still happens).":
        N_("Your turn will end once this link resolves (End of Turn still happens)."),
    "{player} will take another turn after this one.": N_("You will take another turn after this one."),
    "{player} may play an extra card this Action phase.": N_("You may play an extra card this Action phase."),
    "{player} will skip the {phase} phase.": N_("You will skip the {phase} phase."),
}
_YOU_OTHER: dict[str, str] = {
    "{player} DESTROYs {card} from {other}'s Stable.": N_("{player} DESTROYs {card} from your Stable."),
    "{player} SACRIFICEs {card} from {other}'s Stable.": N_("{player} SACRIFICEs {card} from your Stable."),
    "{player} plays {card} into {other}'s Stable.": N_("{player} plays {card} into your Stable."),
    "{player} STEALs {card} from {other}.": N_("{player} STEALs {card} from you."),
    "{card} moves from {player}'s Stable to {other}'s.": N_("{card} moves from {player}'s Stable to yours."),
    "{player} takes {card} from {other}'s face-up hand.": N_("{player} takes {card} from your face-up hand."),
    "{player} pulls a random card from {other}'s hand.": N_("{player} pulls a random card from your hand."),
    "{player} looks at {other}'s hand.": N_("{player} looks at your hand."),
    "{player} takes a card from {other}'s hand.": N_("{player} takes a card from your hand."),
    "{player} and {other} exchange hands.": N_("{player} and you exchange hands."),
}
_YOU_BOTH: dict[str, str] = {
    "{player} DESTROYs {card} from {other}'s Stable.": N_("You DESTROY {card} from your Stable."),
    "{player} SACRIFICEs {card} from {other}'s Stable.": N_("You SACRIFICE {card} from your Stable."),
    "{player} plays {card} into {other}'s Stable.": N_("You play {card} into your Stable."),
}
# The "what" of a search that found nothing (uu/engine/verb_handlers.py, _what: no article)
_KINDS: dict[str, str] = {
    "card": N_("card"), "Unicorn card": N_("Unicorn card"), "Basic Unicorn card": N_("Basic Unicorn card"),
    "Baby Unicorn": N_("Baby Unicorn"), "Upgrade or Downgrade card": N_("Upgrade or Downgrade card"),
    "magic card": N_("magic card"), "upgrade card": N_("upgrade card"), "downgrade card": N_("downgrade card"),
    "narwhal card": N_("narwhal card"), "neigh card": N_("neigh card"),
}
# The phases as the log names them (the engine says its ids: "The draw phase is skipped.")
_PHASES: dict[str, str] = {"beginning": N_("Beginning of Turn"), "draw": N_("Draw"), "action": N_("Action"),
                           "end": N_("End of Turn")}


@cache
def _patterns(templates: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each template with the regular expression that reads its fields back from an English text."""
    out = []
    for template in templates:
        pieces = re.split(r"\{(\w+)\}", template)
        rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces))
        out.append((template, re.compile(rx + r"\Z", re.S)))
    return tuple(out)


def _field(key: str, value: str) -> str:
    if key in ("card", "other_card"):
        return card_name(value)
    if key == "option":
        return _option(value)
    if key == "what":
        return _(_WHATS[value]) if value in _WHATS else value
    if key == "kind":
        return _(_KINDS[value]) if value in _KINDS else value
    if key == "phase":
        return _(_PHASES[value]) if value in _PHASES else value
    if value == "You":  # the lessons' seat for the learner: its name is a word of the interface ("Toi", "Du")
        return _("You")
    return value


@lru_cache(maxsize=4096)  # texts repeat (a screen redraws); players' names make them many
def _translated(text: str, templates: tuple[str, ...], lang: str) -> str:
    for template, rx in _patterns(templates):
        m = rx.match(text)
        if m is not None:
            found = m.groupdict()
            fields = {k: _field(k, v) for k, v in found.items()}
            return _(_to_you(template, found.get("player") == "You", found.get("other") == "You")).format(**fields)
    return text


def _to_you(template: str, player: bool, other: bool) -> str:
    """The template's twin said to the learner when their seat ("You") is {player}, {other} or both."""
    if player and other and template in _YOU_BOTH:
        return _YOU_BOTH[template]
    if player and template in _YOU_PLAYER:
        return _YOU_PLAYER[template]
    if other and template in _YOU_OTHER:
        return _YOU_OTHER[template]
    return template


def prompt_text(prompt: str) -> str:
    """The engine's (English) prompt in the language in use; unchanged in English or when no template fits."""
    lang = current_language()
    if lang == "en" or not prompt:
        return prompt
    return _translated(prompt, PROMPTS, lang)


def log_text(line: str) -> str:
    """A line of the engine's (English) log in the language in use; unchanged in English or when no template
    fits."""
    lang = current_language()
    if lang == "en" or not line:
        return line
    return _translated(line, LOG_LINES, lang)


def fits_a_template(text: str, templates: tuple[str, ...] = PROMPTS) -> bool:
    """Whether an English prompt (or log line, with LOG_LINES) is one this module can translate (the tests
    check every one met in many games)."""
    return not text or any(rx.match(text) for _t, rx in _patterns(templates))
