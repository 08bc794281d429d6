"""Turn a validated `Scenario` into a live `Game` at the position it describes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from uu.cards import catalog
from uu.cards.localized import card_name
from uu.cards.schema import CardType
from uu.engine.errors import GameError
from uu.engine.frame_types import Stage, Zone
from uu.engine.game import Game, blank_state, build_defs
from uu.engine.state import GameState
from uu.i18n import N_
from uu.scenario.model import Scenario, name_problems


class PositionError(GameError, ValueError):
    """The position asks for something impossible (too many copies, a Baby in a hand, ...)."""


def _card(name: str) -> Callable[[], str]:
    """The card's name as the message is shown (a PositionError is translated when shown, uu/engine/errors.py)."""
    return lambda: card_name(name)


def _quoted_card(name: str) -> Callable[[], str]:
    return lambda: repr(card_name(name))


def is_fresh_game(sc: Scenario) -> bool:
    """No position given: deal a normal game from the seed and let the players choose Babies."""
    return sc.turn is None and sc.stables is None and sc.hands is None and not sc.deck and not sc.discard


def build_state(sc: Scenario) -> GameState:
    problems = name_problems(sc)
    if problems:
        raise PositionError("; ".join(f"{'.'.join(str(x) for x in loc)}: {msg}" for loc, msg in problems))
    cat = catalog()
    players = sc.players
    seat = {name: i for i, name in enumerate(players)}
    two = len(players) == 2
    defs, removed = build_defs(two)
    removed_set = set(removed)
    s = blank_state(players, sc.options, defs)
    free: dict[str, list[int]] = defaultdict(list)
    for cid, d in enumerate(defs):
        free[d.name].append(cid)
    # prefer instances the 2-player rules would keep; removed ones are only used when listed explicitly
    for name in free:
        free[name].sort(key=lambda c: c in removed_set)

    def take(name: str, where: str) -> int:
        if name not in cat:
            cat[name]  # raises KeyError with suggestions
        if not free[name]:
            raise PositionError(N_("{where}: {card} is listed more times than the deck has copies ({copies})"),
                                where=where, card=_quoted_card(name), copies=cat[name].copies)
        return free[name].pop(0)

    def put(names: list[str], zone: Zone, owner: int, where: str) -> None:
        for name in names:
            cid = take(name, where)
            d = defs[cid]
            if d.type is CardType.BABY and zone not in ("stable", "nursery"):
                raise PositionError(N_("{where}: {card} is a Baby Unicorn; Babies are only ever in a Stable or "
                                       "the Nursery (setup.babies-never-in-hand)"), where=where, card=_card(name))
            if zone in ("stable", "nursery") and d.type is not CardType.BABY and zone == "nursery":
                raise PositionError(N_("nursery: {card} is not a Baby Unicorn; only Babies live in the Nursery"),
                                    card=_card(name))
            if zone == "stable" and d.type is CardType.INSTANT:
                raise PositionError(N_("{where}: {card} is an Instant; Instants never stay in a Stable"),
                                    where=where, card=_card(name))
            s.place(cid, zone, owner, top=False)

    for p, names in (sc.stables or {}).items():
        put(names, "stable", seat[p], f"stables.{p}")
    for p, names in (sc.hands or {}).items():
        put(names, "hand", seat[p], f"hands.{p}")
    put(sc.deck, "deck", -1, "deck")
    put(sc.discard, "discard", -1, "discard")
    if sc.nursery != "auto":
        put(sc.nursery, "nursery", -1, "nursery")
    fresh = is_fresh_game(sc)
    rest = []
    for cid, d in enumerate(defs):
        if s.zone_of[cid]:
            continue
        if d.type is CardType.BABY:
            s.place(cid, "nursery" if sc.nursery == "auto" else "box")
        elif cid in removed_set or sc.rest == "box":
            s.place(cid, "box")
        else:
            rest.append(cid)
    if two and fresh:
        neighs = [c for c in rest if defs[c].name == "Neigh"][:2]
        for seat_no, cid in enumerate(neighs):
            s.place(cid, "hand", seat_no)
            rest.remove(cid)
        s.say("Each player takes a Neigh before the deck is shuffled.", "two-player.neigh")
    s.rng.shuffle(rest)
    for cid in rest:
        s.place(cid, "deck", top=False)
    if fresh:
        for _ in range(5):
            for seat_no in range(len(players)):
                s.place(s.deck[0], "hand", seat_no)
        s.say("The deck is shuffled and each player is dealt 5 cards.", "setup.deal-five")
        return s
    _set_turn(s, sc)
    return s


def _set_turn(s: GameState, sc: Scenario) -> None:
    turn = sc.turn
    player = turn.player if turn and turn.player else sc.players[0]
    phase = turn.phase if turn else "beginning"
    number = turn.number if turn else 1
    s.current = sc.players.index(player)
    s.turn_number = number - 1 if phase == "beginning" else number
    s.phase = phase
    s.turn_start_snapshot = list(s.stables[s.current])
    stage_at: dict[str, Stage] = {"beginning": "turn-start", "draw": "after-beginning", "action": "after-draw",
                                  "end": "after-action"}
    s.stage = stage_at[phase]
    s.win_check_due = False
    s.state_check_due = True


def build_game(sc: Scenario) -> Game:
    return Game(build_state(sc))
