"""A move as a player says it ("play Unicorn Poison on Bramble's Narwhal", "DRAW a card"), for the hint's words and
the coach: the deciding player is "you", everyone else is named as the table shows them, and no word comes
twice in a row (the engine's own description says "baby Baby Unicorn (Red)")."""

from __future__ import annotations

from typing import Protocol

from uu.engine.actions import Action

__all__ = ["move_words", "who", "whose"]


class PileCard(Protocol):
    """What `move_words` needs of the card a pass lets through (`uu.bots.explain.Threat`)."""

    player: str
    card: str


def whose(name: str | None, me: str) -> str:
    if name is None:
        return "a player's"
    return "your" if name == me else f"{name}'s"


def who(name: str | None, me: str) -> str:
    if name is None:
        return "a player"
    return "you" if name == me else name


def move_words(action: Action, players: list[str], me: int, threat: PileCard | None = None) -> str:
    """The move as a player says it ("play Unicorn Poison on Bramble's Narwhal", "DRAW a card")."""
    name = players[me]
    cards: list[str] = []
    seats: list[str] = []
    for target in action.target:
        if target.player is not None:
            seats.append(who(players[target.player], name))
        elif target.owner is not None:
            cards.append(f"{whose(players[target.owner], name)} {target.card}")
        else:
            cards.append(str(target.card))
    aim = " and ".join(cards)
    if seats:
        aim = f"{aim} to {' and '.join(seats)}" if aim else " and ".join(seats)
    k = action.kind
    if k == "play":
        out = f"play {action.card}"
        if aim:
            return f"{out} on {aim}"
        if action.into is not None and action.into != me:
            return f"{out} into {whose(players[action.into], name)} Stable"
        return out
    if k == "draw":
        return "DRAW a card"
    if k == "respond":
        return f"answer with {action.card}"
    if k == "pass":
        return f"let {whose(threat.player, name)} {threat.card} through" if threat else "pass"
    if k == "baby":
        return f"choose {action.card}"
    if k == "target":
        return f"choose {aim}" if aim else "choose"
    if k in ("discard", "sacrifice"):
        return f"{k.upper()} {action.card or ', '.join(action.cards)}"
    if k == "use":
        return f"use {action.card}"
    if k == "decline":
        return f"do not use {action.card}"
    if k == "choose":
        return f"choose {action.option}"
    if k == "order":
        return f"keep {action.cards[0]} on top" if action.cards else "keep the order"
    return k
