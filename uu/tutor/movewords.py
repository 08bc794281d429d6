"""A move as a player says it ("play Unicorn Poison on Bramble's Narwhal", "DRAW a card"), for the hint's words and
the coach: the deciding player is "you", everyone else is named as the table shows them, and no word comes
twice in a row (the engine's own description says "baby Baby Unicorn (Red)")."""

from __future__ import annotations

from typing import Protocol

from uu.cards.localized import card_name
from uu.engine.actions import Action
from uu.i18n import N_, _

__all__ = ["card_of", "join_and", "move_words", "stable_of", "who", "whose"]


class PileCard(Protocol):
    """What `move_words` needs of the card a pass lets through (`uu.bots.explain.Threat`)."""

    player: str
    card: str


def whose(name: str | None, me: str) -> str:
    """The English possessive ("your", "Bramble's"): for English sentences built around it only; a sentence
    that names a card or a Stable says it whole with `card_of` / `stable_of`, so every language can order it."""
    if name is None:
        return "a player's"
    return "your" if name == me else f"{name}'s"


def move_first(move: str, players: list[str]) -> str:
    """A move phrase that opens a sentence: its first letter in capitals, unless the phrase opens on a player's
    name (German puts the owner first: "hard 3s Karte ... KLAUEN"), which stays as the player wrote it."""
    if any(name and move.startswith(name) for name in players):
        return move
    return move[:1].upper() + move[1:]


def who(name: str | None, me: str) -> str:
    if name is None:
        return _("a player")
    return _("you") if name == me else name


def card_of(owner: str | None, me: str, card: str | None) -> str:
    """A card with its owner, as one phrase in the language in use ("your Narwhal", "Bramble's Narwhal")."""
    shown = card_name(card) if card else _("a card")
    if owner is None:
        return _("a player's {card}").format(card=shown)
    if owner == me:
        return _("your {card}").format(card=shown)
    return _("{player}'s {card}").format(player=owner, card=shown)


def stable_of(owner: str | None, me: str) -> str:
    """A player's Stable as one phrase ("your Stable", "Bramble's Stable")."""
    if owner is None:
        return _("a player's Stable")
    if owner == me:
        return _("your Stable")
    return _("{player}'s Stable").format(player=owner)


def join_and(items: list[str]) -> str:
    """"a", "a and b", "a and b and c" in the language in use (the items are already in that language)."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = _("{first} and {last}").format(first=out, last=item)
    return out


# A card chosen for an effect, said with the effect's verb (the decision's `verb`), one phrase per verb so each
# language orders it its own way; any other verb, or a player chosen, is "choose ...".
_TARGET_VERBS = {
    "destroy": N_("DESTROY {aim}"), "steal": N_("STEAL {aim}"), "steal_after_move": N_("STEAL {aim}"),
    "sacrifice": N_("SACRIFICE {aim}"), "bring": N_("bring {aim} into your Stable"),
    "return": N_("send {aim} back to its owner's hand"), "take": N_("take {aim} into your hand"),
    "look_take": N_("take {aim} into your hand"), "search": N_("take {aim} from the deck into your hand"),
}


def move_words(action: Action, players: list[str], me: int, threat: PileCard | None = None,
               verb: str | None = None) -> str:
    """The move as a player says it ("play Unicorn Poison on Bramble's Narwhal", "DRAW a card"), a phrase that
    stands alone (after a colon, on a button), never bent into a clause. `verb`: the decision's verb, for a
    card chosen for an effect ("DESTROY Bramble's Narwhal" rather than "choose Bramble's Narwhal")."""
    name = players[me]
    cards: list[str] = []
    seats: list[str] = []
    for target in action.target:
        if target.player is not None:
            seats.append(who(players[target.player], name))
        elif target.owner is not None:
            cards.append(card_of(players[target.owner], name, target.card))
        else:
            cards.append(card_name(str(target.card)))
    aim = join_and(cards)
    if seats:
        aim = _("{cards} to {players}").format(cards=aim, players=join_and(seats)) if aim else join_and(seats)
    k = action.kind
    card = card_name(action.card) if action.card else ""
    if k == "play":
        if aim:
            return _("play {card} on {aim}").format(card=card, aim=aim)
        if action.into is not None and action.into != me:
            return _("play {card} into {stable}").format(card=card, stable=stable_of(players[action.into], name))
        return _("play {card}").format(card=card)
    if k == "draw":
        return _("DRAW a card")
    if k == "respond":
        return _("answer with {card}").format(card=card)
    if k == "pass":
        if threat:
            return _("let {card} through").format(card=card_of(threat.player, name, threat.card))
        return _("pass")
    if k == "baby":
        return _("choose {card}").format(card=card)
    if k == "target":
        if cards and not seats and verb in _TARGET_VERBS:
            return _(_TARGET_VERBS[verb]).format(aim=aim)
        return _("choose {aim}").format(aim=aim) if aim else _("choose")
    if k in ("discard", "sacrifice"):
        cards_named = card or ", ".join(card_name(c) for c in action.cards)
        if k == "discard":
            return _("DISCARD {cards}").format(cards=cards_named)
        return _("SACRIFICE {cards}").format(cards=cards_named)
    if k == "use":  # the card is already in play: its effect is what is used
        return _("use the effect of {card}").format(card=card)
    if k == "decline":
        return _("do not use the effect of {card}").format(card=card)
    if k == "choose":
        return _("choose {option}").format(option=action.option)
    if k == "order":
        return _("keep {card} on top").format(card=card_name(action.cards[0])) if action.cards else _("keep the order")
    return k
