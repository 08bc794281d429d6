"""Invariants every reachable state must satisfy; checked by the random-playout tests and `uu bench --check`."""

from __future__ import annotations

from uu.cards.schema import CardType
from uu.engine.game import Game
from uu.engine.state import ZONES


def zone_errors(game: Game) -> list[str]:
    """Cards conserved: every instance is in exactly one zone list, matching zone_of/owner_of; Babies only
    in Stables, the Nursery or out of the game."""
    s = game.state
    seen: dict[int, str] = {}
    errors = []
    lists = [("hand", p, s.hands[p]) for p in range(s.n)] + [("stable", p, s.stables[p]) for p in range(s.n)]
    lists += [(z, -1, s.zone_list(z, -1)) for z in ZONES if z not in ("hand", "stable")]
    for zone, owner, cids in lists:
        for c in cids:
            if c in seen:
                errors.append(f"{s.name(c)} (#{c}) is in both {seen[c]} and {zone}")
            seen[c] = zone
            if s.zone_of[c] != zone or (zone in ("hand", "stable") and s.owner_of[c] != owner):
                errors.append(f"{s.name(c)} (#{c}) is listed in {zone} but recorded in {s.zone_of[c]}")
            if s.defs[c].type is CardType.BABY and zone not in ("stable", "nursery", "box"):
                errors.append(f"Baby {s.name(c)} is in {zone}")
    if len(seen) != len(s.defs):
        errors.append(f"{len(s.defs) - len(seen)} cards are in no zone")
    if len(s.pile) != len(s.pile_cards):
        errors.append("the pile entries and the pile zone disagree")
    return errors


def mid_chain_win(game: Game) -> bool:
    """A win declared while links were still waiting or resolving (win.after-chain)."""
    s = game.state
    if not s.over or s.winner is None:
        return False
    return bool(s.chain) or any(f["kind"] in ("link", "prog", "op", "each", "would") for f in s.stack)


class Checker:
    """Feeds on every action of a game and collects invariant violations."""

    def __init__(self, game: Game):
        self.game = game
        self.errors: list[str] = []
        self._last_end: list[int] = []

    def after_apply(self) -> None:
        g = self.game
        errs = zone_errors(g)
        if mid_chain_win(g):
            errs.append("a winner was declared before the effect chain resolved")
        end = g.state.last_end
        if end and end != self._last_end:
            number, player, size = end
            if size > g.state.options.hand_limit:
                errs.append(f"{g.players[player]} ended turn {number} with {size} cards")
            self._last_end = list(end)
        self.errors.extend(f"turn {g.turn[2]}: {e}" for e in errs)
