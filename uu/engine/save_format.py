"""The save format, version 2 (docs/save-format.md): pydantic models of the external form, and the tables
that translate the engine's frames (uu/engine/frame_types.py) to it and back.

The external names are the format's own: renaming a key inside the engine changes only a table here
(tests/test_save.py fails until every frame key has its external name), never the files people keep.
Every number that names a card or a seat is checked against the save's own card list and players
(`context` of the validation), so a save that loads is one the engine can continue.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from uu.engine.options import Options

__all__ = ["FORMAT", "FRAME_KEYS", "FRAME_KINDS", "SaveV2"]

FORMAT: Final = 2
MAX_CARDS: Final = 400  # instances in one game (the base game has 127)
MAX_LOG: Final = 200_000  # narration lines (a long game has a few thousand)
MAX_LIST: Final = 2_000  # any other list


def _card(v: int, info: ValidationInfo) -> int:
    n = int((info.context or {}).get("cards", 0))
    if not 0 <= v < n:
        raise ValueError(f"there is no card {v}: the save's cards are numbered 0 to {n - 1}")
    return v


def _seat(v: int, info: ValidationInfo) -> int:
    n = int((info.context or {}).get("seats", 0))
    if not 0 <= v < n:
        raise ValueError(f"there is no seat {v}: the save's seats are numbered 0 to {n - 1}")
    return v


def _number(v: int, info: ValidationInfo) -> int:  # a card or a seat (declared targets hold both)
    if not 0 <= v < max(int((info.context or {}).get("cards", 0)), int((info.context or {}).get("seats", 0))):
        raise ValueError(f"{v} is neither a card nor a seat of this save")
    return v


Card = Annotated[StrictInt, AfterValidator(_card)]
Seat = Annotated[StrictInt, AfterValidator(_seat)]
CardOrSeat = Annotated[StrictInt, AfterValidator(_number)]
def _without_choices(op: Any, info: ValidationInfo) -> Any:
    """The op with the targets declared into it (`chosen`, at any depth) checked and taken out."""
    if isinstance(op, list):
        return [_without_choices(x, info) for x in op]
    if not isinstance(op, dict):
        return op
    chosen = op.get("chosen")
    if chosen is not None:
        if not isinstance(chosen, list) or not all(type(x) is int for x in chosen):
            raise ValueError("an op's declared choices (chosen) are a list of cards or seats")
        for x in chosen:
            _number(x, info)
    return {k: _without_choices(x, info) for k, x in op.items() if k != "chosen"}


def _op(v: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
    """One op of card data, as the catalog has it (uu.cards.schema.OpModel), with the targets declared into
    it (`chosen`)."""
    from uu.cards.schema import OpModel

    try:
        OpModel.model_validate(_without_choices(v, info))
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ValueError(f"not an op of card data ({where}: {first['msg']})") from None
    return v


Count = Annotated[StrictInt, Field(ge=-1, le=1_000_000)]
Cards = Annotated[list[Card], Field(max_length=MAX_CARDS)]
Seats = Annotated[list[Seat], Field(max_length=MAX_LIST)]
Declared = Annotated[list[Annotated[list[CardOrSeat], Field(max_length=MAX_CARDS)]], Field(max_length=64)]
OpData = Annotated[dict[StrictStr, Any], Field(max_length=64), AfterValidator(_op)]  # docs/cards.md
Phase = Literal["beginning", "draw", "action", "end"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---- frames (the engine's half-resolved effects), in their external form --------------------------------
class SetupSaved(_Model):
    kind: Literal["setup"]
    queue: Seats  # seats still to choose their Baby Unicorn


class TurnStartSaved(_Model):
    kind: Literal["turn_start"]


class ActionPhaseSaved(_Model):
    kind: Literal["action"]
    step: Literal["ask", "after"]


class EndPhaseSaved(_Model):
    kind: Literal["end_phase"]


class PileWindowSaved(_Model):
    kind: Literal["pile"]
    step: Literal["window", "resolve"]
    to_ask: Seats | None
    pile_seen: Count


class MagicSaved(_Model):
    kind: Literal["magic"]
    card: Card
    controller: Seat
    declared: Declared
    step: Literal["start", "done"]


class EffectData(_Model):
    """A card's effect as the catalog has it (uu.cards.schema.EffectModel)."""

    may: StrictBool = False
    ops: Annotated[list[OpData], Field(max_length=64)]


class TriggeredSaved(_Model):
    card: Card
    controller: Seat
    effect: EffectData
    kind: Literal["enter", "leave", "turn_start", "watch", "play"]


class TurnStartEffectSaved(_Model):
    card: Card
    controller: Seat
    kind: Literal["turn_start"]
    may: StrictBool
    ops: Annotated[list[OpData], Field(max_length=64)]
    use: StrictBool | None


class LinkSaved(_Model):
    kind: Literal["link"]
    effects: Annotated[list[TurnStartEffectSaved | TriggeredSaved], Field(max_length=MAX_LIST)]
    step: Literal["start", "ask", "declare", "resolve"]
    used: Cards | None = None
    queue: Annotated[list[Annotated[list[Count], Field(max_length=2)]], Field(max_length=MAX_LIST)] | None = None
    resolve_next: Count | None = None
    checked: Annotated[list[Count], Field(max_length=MAX_LIST)] | None = None


class OpsSaved(_Model):
    kind: Literal["ops"]
    ops: Annotated[list[OpData], Field(max_length=64)]
    next_op: Count
    controller: Seat
    source: Card | None


class OpSaved(_Model):
    kind: Literal["op"]
    op: OpData
    controller: Seat
    source: Card | None
    actor: Seat
    step: Literal["init", "run"]
    picks_made: Count
    picks_carried_out: Count
    asked: StrictBool | None = None
    chose: StrictBool | None = None
    actor_set: StrictBool | None = None
    acting: StrictBool | None = None
    picked: Cards | None = None
    all_cards: Cards | None = None
    queue: Seats | None = None
    card: Card | None = None
    destination: Seat | None = None
    player: Seat | None = None
    looked_at: Cards | None = None
    kept: Card | None = None


class EachSaved(_Model):
    kind: Literal["each"]
    op: OpData
    controller: Seat
    source: Card | None
    queue: Seats
    all_carried_out: StrictBool
    child_running: StrictBool


class WouldSaved(_Model):
    kind: Literal["would"]
    event: Literal["destroy", "sacrifice"]
    victim: Card
    controller: Seat
    source: Card | None
    step: Literal["start", "replaced"]


FrameSaved = Annotated[SetupSaved | TurnStartSaved | ActionPhaseSaved | EndPhaseSaved | PileWindowSaved | MagicSaved
                       | LinkSaved | OpsSaved | OpSaved | EachSaved | WouldSaved, Field(discriminator="kind")]

# internal frame kind -> external kind; internal key -> external key, per internal kind ("effect" and "pile"
# are the entries of a link and of the Neigh pile)
FRAME_KINDS: Final[dict[str, str]] = {
    "setup": "setup", "turn_start": "turn_start", "action": "action", "endphase": "end_phase", "pile": "pile",
    "magic": "magic", "link": "link", "prog": "ops", "op": "op", "each": "each", "would": "would",
}
_FRAME: Final = {"kind": "kind", "step": "step", "you": "controller", "src": "source", "cid": "card",
                 "decl": "declared", "queue": "queue", "op": "op", "ops": "ops"}
FRAME_KEYS: Final[dict[str, dict[str, str]]] = {
    "setup": {"kind": "kind", "queue": "queue"},
    "turn_start": {"kind": "kind"},
    "action": {"kind": "kind", "step": "step"},
    "endphase": {"kind": "kind"},
    "pile": {"kind": "kind", "step": "step", "ask": "to_ask", "pile_seen": "pile_seen"},
    "magic": {k: _FRAME[k] for k in ("kind", "cid", "you", "decl", "step")},
    "link": {"kind": "kind", "effects": "effects", "step": "step", "used": "used", "queue": "queue",
             "resolve_next": "resolve_next", "checked": "checked"},
    "prog": {"kind": "kind", "ops": "ops", "next_op": "next_op", "you": "controller", "src": "source"},
    "op": {"kind": "kind", "op": "op", "you": "controller", "src": "source", "actor": "actor", "step": "step",
           "picks_made": "picks_made", "picks_carried_out": "picks_carried_out", "asked": "asked",
           "chose": "chose", "actor_set": "actor_set", "acting": "acting", "picked": "picked", "all": "all_cards",
           "queue": "queue", "card": "card", "dest": "destination", "player": "player", "seen": "looked_at",
           "kept": "kept"},
    "each": {"kind": "kind", "op": "op", "you": "controller", "src": "source", "queue": "queue",
             "all_carried_out": "all_carried_out", "child_running": "child_running"},
    "would": {"kind": "kind", "event": "event", "victim": "victim", "you": "controller", "src": "source",
              "step": "step"},
    "effect": {"cid": "card", "you": "controller", "eff": "effect", "kind": "kind", "may": "may", "ops": "ops",
               "use": "use"},
    "pile_entry": {"cid": "card", "p": "player", "into": "into", "decl": "declared"},
}


# ---- the save ------------------------------------------------------------------------------------------
class RngSaved(_Model):
    """The state of Python's Mersenne Twister (`random.Random.getstate()`)."""

    version: Literal[3]
    state: Annotated[list[Annotated[StrictInt, Field(ge=0, le=2**32 - 1)]], Field(min_length=625, max_length=625)]
    gauss: float | None

    @model_validator(mode="after")
    def _position(self) -> RngSaved:
        if self.state[-1] > 624:
            raise ValueError("the generator's position (the last of its 625 numbers) must be at most 624")
        return self


class ZonesSaved(_Model):
    hands: Annotated[list[Cards], Field(max_length=8)]  # per seat
    stables: Annotated[list[Cards], Field(max_length=8)]
    deck: Cards  # the top first
    discard: Cards  # the top last
    nursery: Cards
    limbo: Cards  # a Magic card while it resolves
    box: Cards  # out of the game
    pile: Cards  # the Neigh pile, bottom first


class PileEntrySaved(_Model):
    card: Card
    player: Seat
    into: Seat | None
    declared: Declared


class TurnSaved(_Model):
    stage: Literal["setup", "turn-start", "after-beginning", "after-draw", "after-action", "after-end"]
    player: Seat
    phase: Phase
    number: Annotated[StrictInt, Field(ge=0, le=1_000_000)]
    actions_left: Annotated[StrictInt, Field(ge=0, le=1_000)]
    ending: StrictBool
    start_stable: Cards  # the Stable as the turn began
    skip_phases: Annotated[list[Phase], Field(max_length=4)]
    last_end: Annotated[list[Annotated[StrictInt, Field(ge=0, le=1_000_000)]], Field(max_length=3)]


class LogLineSaved(_Model):
    text: Annotated[StrictStr, Field(max_length=5_000)]
    rules: Annotated[list[Annotated[StrictStr, Field(max_length=80)]], Field(max_length=50)]
    player: Seat | None


class SaveV2(_Model):
    """A whole position: validate with `context={"cards": len(cards), "seats": len(players)}`."""

    format: Literal[2]
    cards: Annotated[list[Annotated[StrictStr, Field(max_length=80)]], Field(min_length=1, max_length=MAX_CARDS)]
    players: Annotated[list[Annotated[StrictStr, Field(min_length=1, max_length=80)]],
                       Field(min_length=2, max_length=8)]
    options: Options
    rng: RngSaved
    zones: ZonesSaved
    turn: TurnSaved
    skip_turns: Annotated[list[Annotated[StrictInt, Field(ge=0, le=1_000)]], Field(max_length=8)]  # per seat
    extra_turns: Seats
    pile: Annotated[list[PileEntrySaved], Field(max_length=MAX_CARDS)]
    chain: Annotated[list[LinkSaved], Field(max_length=MAX_LIST)]
    stack: Annotated[list[FrameSaved], Field(max_length=MAX_LIST)]
    last_ok: StrictBool
    ctx_player: Seat | None
    win_check_due: StrictBool
    state_check_due: StrictBool
    winner: Seat | Literal["everyone-loses"] | None
    over: StrictBool
    revealed: Annotated[list[Card], Field(max_length=MAX_LIST)]
    decisions: Annotated[StrictInt, Field(ge=0)]
    info_epoch: Annotated[StrictInt, Field(ge=0)]
    log: Annotated[list[LogLineSaved], Field(max_length=MAX_LOG)]

    @model_validator(mode="after")
    def _consistent(self) -> SaveV2:
        n = len(self.players)
        if len(set(self.players)) != n:
            raise ValueError(f"player names must be different: {self.players}")
        z = self.zones
        for name, per_seat in (("zones.hands", z.hands), ("zones.stables", z.stables), ("skip_turns", self.skip_turns)):
            if len(per_seat) != n:
                raise ValueError(f"{name} has {len(per_seat)} entries for {n} players")
        seen: set[int] = set()
        for cards in [*z.hands, *z.stables, z.deck, z.discard, z.nursery, z.limbo, z.box, z.pile]:
            twice = seen.intersection(cards) or (len(set(cards)) != len(cards))
            if twice:
                raise ValueError("a card is in two places at once (every card is in exactly one zone)")
            seen.update(cards)
        if len(seen) != len(self.cards):
            raise ValueError(f"{len(self.cards) - len(seen)} of the {len(self.cards)} cards are in no zone")
        if [e.card for e in self.pile] != z.pile:
            raise ValueError("the Neigh pile's entries and its cards (zones.pile) disagree")
        if self.turn.last_end and len(self.turn.last_end) != 3:
            raise ValueError("turn.last_end is empty or [turn number, seat, hand size]")
        return self
