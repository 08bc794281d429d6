"""The shapes of the engine's plain-data state: frames, links of the effect chain, entries of the Neigh pile,
and the words for kinds, zones and phases.

Frames are plain dicts at run time (the compiled engine builds and reads them as dicts, and a save stores
them as they are); the TypedDicts below only tell mypy, and the reader, which keys each kind of frame has
and what they mean. A frame is on `GameState.stack` while its handler (`uu.engine.frames.HANDLERS`, by
`kind`) has not finished; keys marked NotRequired are added by the handler as it goes.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Op = dict[str, Any]  # one op of card data: {"do": verb, ...} (uu.cards.schema.OpModel)

Zone = Literal["hand", "stable", "deck", "discard", "nursery", "pile", "limbo", "box"]
Phase = Literal["beginning", "draw", "action", "end"]
# What the turn flow does next when nothing else is running (uu.engine.flow.flow_step).
Stage = Literal["setup", "turn-start", "after-beginning", "after-draw", "after-action", "after-end"]
FrameKind = Literal["setup", "turn_start", "action", "pile", "magic", "endphase", "link", "prog", "op", "each",
                    "would"]
# Where a triggered effect comes from: the card's enter, leave or beginning-of-turn effect, or a watcher.
EffectKind = Literal["enter", "leave", "turn_start", "watch", "play"]


class PileEntry(TypedDict):
    """A card on the Neigh pile, waiting to resolve or be stopped."""

    cid: int
    p: int  # the player who played it
    into: int | None  # the Stable it goes into (Unicorns, Upgrades, Downgrades)
    decl: list[list[int]]  # targets declared with the play, one list per declarable op


class TriggeredEffect(TypedDict):
    """One effect of a link: a card's enter or leave effect, or a watcher's trigger."""

    cid: int
    you: int  # its controller
    eff: dict[str, Any]  # {"may": bool, "ops": [...]}
    kind: EffectKind


class TurnStartEffect(TypedDict):
    """One beginning-of-turn effect of the turn-start link; its ops are a copy that declared choices
    ("chosen") are written into."""

    cid: int
    you: int
    kind: Literal["turn_start"]
    may: bool
    ops: list[Op]
    use: bool | None  # None until the player said whether to use an optional effect


class SetupFrame(TypedDict):
    kind: Literal["setup"]
    queue: list[int]  # seats that have still to choose their Baby Unicorn


class TurnStartFrame(TypedDict):
    kind: Literal["turn_start"]


class ActionFrame(TypedDict):
    kind: Literal["action"]
    step: Literal["ask", "after"]  # asking for the play, or a play has been made


class EndPhaseFrame(TypedDict):
    kind: Literal["endphase"]


class PileFrame(TypedDict):
    """The Neigh pile's response window and its resolution."""

    kind: Literal["pile"]
    step: Literal["window", "resolve"]
    ask: list[int] | None  # seats still to be asked whether they answer the top card
    pile_seen: int  # the pile's height when the seats to ask were listed (-1: list them again)


class MagicFrame(TypedDict):
    """A Magic card resolving from limbo."""

    kind: Literal["magic"]
    cid: int
    you: int
    decl: list[list[int]]
    step: Literal["start", "done"]


class LinkFrame(TypedDict):
    """A link of the effect chain: effects resolving together. A link of triggered effects holds
    `TriggeredEffect`s; the beginning-of-turn link holds `TurnStartEffect`s and goes through ask (use or
    decline each optional effect), declare (choose targets in advance), resolve."""

    kind: Literal["link"]
    effects: list[Any]  # TriggeredEffect or TurnStartEffect, never mixed
    step: Literal["start", "ask", "declare", "resolve"]
    used: NotRequired[list[int]]  # cards the link's declared choices took (chain.same-target)
    queue: NotRequired[list[list[int]] | None]  # [effect index, declarable op index] still to declare
    resolve_next: NotRequired[int]  # the next effect to resolve
    checked: NotRequired[list[int]]  # effects whose targets were found to be enough


class ProgFrame(TypedDict):
    """A list of ops running in the printed order."""

    kind: Literal["prog"]
    ops: list[Op]
    next_op: int
    you: int  # the controller of the effect
    src: int | None  # the card whose effect it is


class OpFrame(TypedDict):
    """One op (a verb with its arguments) being carried out; the verb's handler keeps its progress here."""

    kind: Literal["op"]
    op: Op
    you: int
    src: int | None
    actor: int  # who performs it: the controller, or each player in turn, or the player hit last
    step: Literal["init", "run"]
    picks_made: int
    picks_carried_out: int  # of the picks, those that happened (a replacement effect may stop one)
    asked: NotRequired[bool]  # the optional op's use-or-decline was asked
    chose: NotRequired[bool]  # ... and the player chose to use it (for if_you_do)
    actor_set: NotRequired[bool]
    acting: NotRequired[bool]  # a pick pushed a frame whose outcome arrives in state.last_ok
    picked: NotRequired[list[int]]
    all: NotRequired[list[int]]  # "SACRIFICE all ...": the cards, fixed when the op starts
    queue: NotRequired[list[int]]  # "return ... from each": the seats still to pick from
    card: NotRequired[int]  # move: the card chosen
    dest: NotRequired[int]  # move: the Stable it goes into
    player: NotRequired[int | None]  # the other player chosen (None: nobody could be)
    seen: NotRequired[list[int]]  # look_top: the cards looked at
    kept: NotRequired[int]  # look_top: the one taken


class EachFrame(TypedDict):
    """"Each player ...": the op runs once per seat, in seat order from the controller."""

    kind: Literal["each"]
    op: Op
    you: int
    src: int | None
    queue: list[int]
    all_carried_out: bool
    child_running: bool


class WouldFrame(TypedDict):
    """A card would be destroyed or sacrificed: replacement effects may act instead."""

    kind: Literal["would"]
    event: Literal["destroy", "sacrifice"]
    victim: int
    you: int
    src: int | None
    step: Literal["start", "replaced"]


Frame = (SetupFrame | TurnStartFrame | ActionFrame | EndPhaseFrame | PileFrame | MagicFrame | LinkFrame | ProgFrame
         | OpFrame | EachFrame | WouldFrame)
