""""What would this do?": preview an action on a copy of the game, up to the next decision only.

    >>> from uu.engine import new_game
    >>> game = new_game(["Ana", "Ben"], seed=1)
    >>> while game.pending.kind == "baby": game.push(game.pending.actions[0])
    >>> p = preview(game, game.legal_actions[0])   # the real game is never changed
    >>> p.unicorns_before == p.unicorns_after, p.response_window, p.game_over, p.winner
    (True, True, False, None)
    >>> print(p.text())
    Ana: play Tiny Stable into Ana's Stable
      Tiny Stable: Ana's hand → the Neigh pile
      Unicorns: no change (Ana 1, Ben 1)
      Response window: Tiny Stable is on the Neigh pile and has not resolved yet; Ben may respond first (the preview stops here).
    >>> len(preview_all(game)) == len(game.legal_actions)   # one per legal action of the pending decision
    True

The copy runs until somebody must decide again, exactly as `Game.push` would: when the action opens a
response window (a card played onto the Neigh pile), the preview stops there and says so — the card has not
resolved, and what happens next depends on the responses. When chance took part (a shuffle, a random pull),
`chance` is True: the preview shows one possible outcome (the one the game's own RNG would give).

`viewer` (a seat) hides what that player may not know: cards coming out of the deck or another player's hand
(unless Nanny Cam shows it) are shown as "a card", and the log is left out (it can name such cards). Without
a viewer (the sandbox, tests) everything is shown.
"""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field
from typing import Any, TypedDict

from uu.cards.localized import card_name
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.movetext import describe_action, prompt_text
from uu.i18n import N_, _
from uu.i18n.typography import colon

HIDDEN = "a card"  # the `card` of a move the viewer may not see (data: English; said with `_()`)

__all__ = ["HIDDEN", "CardMove", "Preview", "preview", "preview_all"]

ZONE_WORDS = {"deck": N_("the deck"), "discard": N_("the discard pile"), "nursery": N_("the Nursery"),
              "pile": N_("the Neigh pile"), "limbo": N_("resolving"), "box": N_("out of the game")}
# a turn that passes to the next player, one whole sentence per phase it passes in
TURN_PASSES = {
    "beginning": N_("{before}'s turn ends; turn {number} is {after}'s (beginning phase)."),
    "draw": N_("{before}'s turn ends; turn {number} is {after}'s (draw phase)."),
    "action": N_("{before}'s turn ends; turn {number} is {after}'s (action phase)."),
    "end": N_("{before}'s turn ends; turn {number} is {after}'s (end phase)."),
}
# "Next: Ana decides ({kind})": what the next decision is
KIND_WORDS = {"baby": N_("Baby"), "action": N_("action"), "respond": N_("respond"), "target": N_("target"),
              "discard": N_("DISCARD"), "sacrifice": N_("SACRIFICE"), "use": N_("use"), "choose": N_("choose"),
              "order": N_("order")}


@dataclass(frozen=True)
class CardMove:
    card: str  # the card's name, or "a card" when hidden from the viewer
    from_zone: str
    from_owner: str | None  # player name for a hand or Stable
    to_zone: str
    to_owner: str | None

    @staticmethod
    def where(zone: str, owner: str | None) -> str:
        if zone == "hand" and owner is not None:
            return _("{player}'s hand").format(player=owner)
        if zone == "stable" and owner is not None:
            return _("{player}'s Stable").format(player=owner)
        return _(ZONE_WORDS[zone]) if zone in ZONE_WORDS else zone

    def text(self) -> str:
        card = _(HIDDEN) if self.card == HIDDEN else card_name(self.card)
        return _("{card}: {source} → {destination}").format(
            card=card, source=self.where(self.from_zone, self.from_owner),
            destination=self.where(self.to_zone, self.to_owner))

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "from": self.from_zone, "from_owner": self.from_owner, "to": self.to_zone,
                "to_owner": self.to_owner}


class TurnSeen(TypedDict):
    """Whose turn, in which phase, and its number, with the player by name (what a learner reads)."""

    player: str
    phase: str
    number: int


class NextDecision(TypedDict):
    """Who decides next and what: the player by name, the decision's kind and its prompt."""

    player: str
    kind: str
    prompt: str


NO_TURN = TurnSeen(player="", phase="", number=0)  # before a preview is made


@dataclass
class Preview:
    action: str  # the action in words
    actor: str
    moves: list[CardMove] = field(default_factory=list)
    unicorns_before: dict[str, int] = field(default_factory=dict)
    unicorns_after: dict[str, int] = field(default_factory=dict)
    next: NextDecision | None = None  # None if the game ends
    response_window: bool = False  # the next decision is a response to a card on the Neigh pile
    pile: list[str] = field(default_factory=list)  # the Neigh pile after the action, bottom first
    turn: TurnSeen = field(default_factory=NO_TURN.copy)  # after the action
    turn_before: TurnSeen = field(default_factory=NO_TURN.copy)
    game_over: bool = False
    winner: str | None = None  # a name, "everyone-loses", or None
    chance: bool = False  # the outcome depended on the RNG (one possible outcome is shown)
    shuffled: bool = False  # the deck was shuffled
    log: list[str] = field(default_factory=list)  # the engine's narration of the action (None for a viewer)
    label: str = ""  # the action in words in the language in use when made (`action` stays English)

    @property
    def unicorn_changes(self) -> dict[str, tuple[int, int]]:
        return {p: (self.unicorns_before[p], self.unicorns_after[p]) for p in self.unicorns_before
                if self.unicorns_before[p] != self.unicorns_after.get(p)}

    def summary(self) -> list[str]:
        """The preview as plain sentences (shared by `text` and `html`)."""
        lines = [m.text() for m in self.moves] or [_("No card moves.")]
        if self.shuffled:
            lines.append(_("The deck is shuffled."))
        changes = self.unicorn_changes
        if changes:
            lines.append(_("Unicorns: {changes}").format(
                changes=", ".join(f"{p} {a} → {b}" for p, (a, b) in changes.items())))
        else:
            lines.append(_("Unicorns: no change ({counts})").format(
                counts=", ".join(f"{p} {n}" for p, n in self.unicorns_after.items())))
        tb, ta = self.turn_before, self.turn
        if tb and ta and (tb["player"], tb["number"]) != (ta["player"], ta["number"]):
            said = _(TURN_PASSES.get(ta["phase"], TURN_PASSES["action"]))
            lines.append(said.format(before=tb["player"], number=ta["number"], after=ta["player"]))
        if self.game_over:
            lines.append(_("The game ends: everyone loses.") if self.winner == "everyone-loses"
                         else _("The game ends: {player} wins.").format(player=self.winner))
        elif self.next is not None:
            if self.response_window:
                said = (_("Response window: {card} is on the Neigh pile and has not resolved yet; {player} may "
                          "respond first (the preview stops here).") if self.pile else
                        _("Response window: the card is on the Neigh pile and has not resolved yet; {player} may "
                          "respond first (the preview stops here)."))
                lines.append(said.format(card=card_name(self.pile[-1]) if self.pile else "",
                                         player=self.next["player"]))
            else:
                # the engine's prompt starts with the player's name, which this line has already said
                who = self.next["player"]
                prompt = prompt_text(self.next["prompt"]).removeprefix(f"{who}: ")
                key = str(self.next["kind"])
                kind = _(KIND_WORDS[key]) if key in KIND_WORDS else key
                lines.append(_("Next: {player} decides ({kind}): {prompt}").format(player=who, kind=kind,
                                                                                  prompt=prompt))
        if self.chance:
            lines.append(_("Chance is involved: this is one possible outcome."))
        return lines

    def text(self) -> str:
        return f"{self.actor}: {self.action}\n" + "\n".join(f"  {line}" for line in self.summary())

    def html(self) -> str:
        e = _html.escape
        items = "".join(f"<li>{e(line)}</li>" for line in self.summary())
        cls = "uu-preview" + (" uu-preview-ends" if self.game_over else "") + \
            (" uu-preview-window" if self.response_window else "")
        return (f'<div class="{cls}"><div class="uu-preview-action"><b>{e(self.actor)}</b>{colon()}'
                f'{e(self.label or self.action)}'
                f"</div><ul>{items}</ul></div>")

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "actor": self.actor, "moves": [m.to_dict() for m in self.moves],
                "unicorns_before": dict(self.unicorns_before), "unicorns_after": dict(self.unicorns_after),
                "next": None if self.next is None else dict(self.next), "response_window": self.response_window,
                "pile": list(self.pile), "turn": dict(self.turn),
                "turn_before": dict(self.turn_before), "game_over": self.game_over,
                "winner": self.winner, "chance": self.chance, "shuffled": self.shuffled, "log": list(self.log)}


_ZONE_ORDER = {z: i for i, z in enumerate(("pile", "limbo", "stable", "hand", "discard", "nursery", "deck",
                                           "box"))}


def preview(game: Game, action: Action, viewer: int | None = None) -> Preview:
    """What `action` would do, computed on a copy (`game` is never changed). An action that is not legal
    raises the engine's error (IllegalAction, AmbiguousAction, ...), exactly as `push` would."""
    legal = game.find(action)
    g = game.copy()
    s0 = game.state
    s = g.state
    names = s0.players
    actor = names[game.pending.player]  # type: ignore[union-attr]
    before = [(z, o) for z, o in zip(s0.zone_of, s0.owner_of)]
    deck_before = list(s0.deck)
    rng_before = s.rng.getstate()
    log_at = len(s.log)
    g.push(legal)
    chance = s.rng.getstate() != rng_before
    visible_hands = {p for p in range(s0.n) if viewer is None or p == viewer or q.hand_visible(s0, p)}

    def hidden(zone: str, owner: int) -> bool:
        return viewer is not None and (zone == "deck" or (zone == "hand" and owner not in visible_hands))

    moves = []
    for cid, (z0, o0) in enumerate(before):
        z1, o1 = s.zone_of[cid], s.owner_of[cid]
        if (z0, o0) == (z1, o1):
            continue
        name = HIDDEN if hidden(z0, o0) else s.name(cid)
        moves.append(CardMove(name, z0, names[o0] if o0 >= 0 else None, z1, names[o1] if o1 >= 0 else None))
    moves.sort(key=lambda m: (_ZONE_ORDER.get(m.to_zone, 99), m.to_owner or "", m.from_zone, m.card))
    was, now = set(deck_before), set(s.deck)
    shuffled = [c for c in s.deck if c in was] != [c for c in deck_before if c in now]
    d = g.pending
    w = s.winner
    return Preview(
        action=game.describe(legal), label=describe_action(legal, names), actor=actor, moves=moves,
        unicorns_before={names[p]: q.unicorns(s0, p) for p in range(s0.n)},
        unicorns_after={names[p]: q.unicorns(s, p) for p in range(s.n)},
        next=None if d is None else NextDecision(player=names[d.player], kind=d.kind, prompt=d.prompt),
        response_window=d is not None and d.kind == "respond",
        pile=[s.name(e["cid"]) for e in s.pile],
        turn=TurnSeen(player=names[s.current], phase=s.phase, number=s.turn_number),
        turn_before=TurnSeen(player=names[s0.current], phase=s0.phase, number=s0.turn_number),
        game_over=s.over, winner=None if w is None else (w if isinstance(w, str) else names[w]),
        chance=chance, shuffled=shuffled,
        log=[] if viewer is not None else [e.text for e in s.log[log_at:]],
    )


def preview_all(game: Game, viewer: int | None = None) -> list[Preview]:
    """A preview of every legal action of the pending decision, in the engine's order ([] when over)."""
    return [preview(game, a, viewer) for a in game.legal_actions]
