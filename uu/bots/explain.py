"""Why the hint's move is best, in one or two plain sentences built from what its playouts found.

The first sentence names the move and its strongest reason (it wins outright in most playouts, it gains you
Unicorns, or it holds back the player closest to winning), and for a card that goes onto the Neigh pile, how
likely someone is to answer it: the chance that another player holds a Neigh, from the cards the player has
not seen, and how often the playouts' opponents did answer it. The second sentence says what the main
alternative risks. Every figure comes from the search itself (`uu.bots.search`) or from what the player can see
(`neigh_chance`), never from hidden cards.
"""

from __future__ import annotations

from math import comb, prod

from uu.bots.search import Candidate, Search
from uu.engine.game import Game
from uu.render import second_person

__all__ = ["explain", "move_words", "neigh_chance", "someone_neighs", "unseen_neighs"]

INSTANTS = ("Neigh", "Super Neigh")
NOTABLE = 0.25  # a difference in mean Unicorns worth a sentence


def unseen_neighs(game: Game, viewer: int) -> tuple[int, int]:
    """(Neigh and Super Neigh cards the viewer has not seen, cards the viewer cannot see)."""
    s = game.state
    total = sum(1 for cid in range(len(s.defs)) if s.defs[cid].name in INSTANTS and s.zone_of[cid] != "box")
    seen = sum(1 for n in game.hand(viewer) + game.discard if n in INSTANTS)
    seen += sum(1 for n, _p in game.pile if n in INSTANTS)
    hidden = game.deck_size + sum(len(s.hands[p]) for p in range(s.n) if p != viewer)
    return max(total - seen, 0), hidden


def neigh_chance(game: Game, viewer: int, holder: int) -> float:
    """The chance, from what `viewer` has seen, that `holder` has at least one Neigh or Super Neigh in hand."""
    neighs, hidden = unseen_neighs(game, viewer)
    hand = len(game.state.hands[holder])
    if hidden <= 0 or hand == 0 or neighs == 0:
        return 0.0
    hand = min(hand, hidden)
    return 1.0 - comb(hidden - neighs, hand) / comb(hidden, hand)


def someone_neighs(game: Game, viewer: int) -> float:
    """The chance that at least one other player holds a Neigh (hands treated as independent: close enough
    for advice, and never more than the cards allow)."""
    others = [p for p in range(game.state.n) if p != viewer and game.state.hands[p]]
    return 1.0 - prod(1.0 - neigh_chance(game, viewer, p) for p in others)


def move_words(game: Game, c: Candidate) -> str:
    """The move in the words the table's move list uses ("DRAW a card", "play Neigh", ...)."""
    a = c.action
    if a.kind == "draw":
        return "DRAW a card"
    if a.kind == "pass":
        return "let the top card of the Neigh pile resolve"
    return second_person(game.describe(a))


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _of(k: int, n: int) -> str:
    return f"{k} of {n} playouts"


def _reason(game: Game, found: Search, best: Candidate, rest: list[Candidate]) -> str:
    me = found.player
    n = best.playouts
    if n and best.wins * 2 >= n:
        return f"it wins the game before your next turn in {_of(best.wins, n)}"
    others = [p for p in range(game.state.n) if p != me]
    leader = max(others, key=game.unicorns)
    alt = rest[0] if rest else None
    mine = best.mean_gain(me)
    if alt is not None:
        held_back = alt.mean_gain(leader) - best.mean_gain(leader)
        gained = mine - alt.mean_gain(me)
        if held_back >= NOTABLE and held_back >= gained:
            return (f"it holds back {game.players[leader]}, who leads the others with {game.unicorns(leader)} "
                    f"Unicorns (about {held_back:.1f} fewer for them by your next turn than after the next best move)")
        if gained >= NOTABLE:
            return f"by your next turn it leaves you about {gained:.1f} Unicorns better off than the next best move"
    return f"it gives you the best chance to win from here, about {_pct(best.value or 0.0)}"


def _neigh_clause(game: Game, found: Search, best: Candidate) -> str:
    d = game.pending
    a = best.action
    if d is None or d.kind != "action" or a.kind != "play" or a.card in INSTANTS:
        return ""
    chance = someone_neighs(game, found.player)
    if chance <= 0.0:
        return "; nobody else can hold a Neigh now, so nobody can stop it"
    return (f"; another player holds a Neigh about {_pct(chance)} of the time (from the cards you have not seen), "
            f"and it was answered with one in {_of(best.answered, best.playouts)}")


def _alternative(game: Game, found: Search, best: Candidate, alt: Candidate) -> str:
    me = found.player
    name = move_words(game, alt)
    n = alt.playouts
    if n and alt.answered / n - (best.answered / best.playouts if best.playouts else 0.0) >= 0.15:
        return f"The main alternative, {name}, was answered with a Neigh in {_of(alt.answered, n)}."
    others = [p for p in range(game.state.n) if p != me]
    worst = max(others, key=lambda p: alt.mean_gain(p) - best.mean_gain(p))
    helps = alt.mean_gain(worst) - best.mean_gain(worst)
    if helps >= NOTABLE:
        return (f"The main alternative, {name}, leaves {game.players[worst]} about {helps:.1f} Unicorns better "
                f"off by your next turn.")
    loses = best.mean_gain(me) - alt.mean_gain(me)
    if loses >= NOTABLE:
        return f"The main alternative, {name}, leaves you about {loses:.1f} Unicorns fewer by your next turn."
    va, vb = alt.value or 0.0, best.value or 0.0
    if vb - va < 0.02:
        return f"The main alternative, {name}, is about as good ({_pct(va)} against {_pct(vb)}): either will do."
    return f"The main alternative, {name}, wins less often: about {_pct(va)} against {_pct(vb)}."


def explain(game: Game, found: Search) -> str:
    """One or two sentences: why the best move, and what the main alternative risks."""
    best = found.best
    rest = found.candidates[1:]
    d = game.pending
    if d is not None and len(d.actions) == 1:
        return f"{move_words(game, best).capitalize()} is the only legal move here."
    if not best.playouts:
        return f"{move_words(game, best).capitalize()} is the heuristic's choice (no playout had time to run)."
    first = (f"Best: {move_words(game, best)}, because {_reason(game, found, best, rest)}"
             f"{_neigh_clause(game, found, best)}.")
    if not rest:
        return first
    return f"{first} {_alternative(game, found, best, rest[0])}"
