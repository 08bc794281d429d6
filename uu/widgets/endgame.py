"""The end of a game, said once: who won and why, the final Stables, and a short recap of the learner's turns
(HTML for the play screen's panel; every name is escaped)."""

from __future__ import annotations

from collections import Counter

from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.render import esc, plural, result_text, second_person

__all__ = ["end_card_html", "learner_recap", "why_it_ended"]


def why_it_ended(game: Game) -> str:
    """The log line that ended the game (a win, the deck running out), in the learner's words."""
    for e in reversed(game.state.log):
        text = e.text
        if "wins" in text or "everyone loses" in text or "run out" in text:
            return second_person(text)
    return ""


def learner_recap(game: Game, viewer: int, moves: list[Action]) -> list[str]:
    """A few lines on the learner's game: turns taken, cards played by type, Neighs, draws."""
    s = game.state
    types: Counter[str] = Counter()
    neighs = draws = 0
    for a in moves:
        if a.kind == "play" and a.card:
            d = next((d for d in s.defs if d.name == a.card), None)
            types[getattr(getattr(d, "type", None), "value", "card")] += 1
        elif a.kind == "respond":
            neighs += 1
        elif a.kind == "draw":
            draws += 1
    turns = sum(1 for e in s.log if e.text.startswith("Turn ") and f": {s.players[viewer]}'s turn" in e.text)
    words = {"basic": "Basic Unicorn", "magical": "Magical Unicorn", "magic": "Magic card", "upgrade": "Upgrade",
             "downgrade": "Downgrade", "instant": "Instant", "baby": "Baby Unicorn"}
    played = ", ".join(plural(n, words.get(t, t)) for t, n in types.most_common())
    lines = [f"You took {plural(turns, 'turn')} and ended with {plural(q.unicorns(s, viewer), 'Unicorn')}."]
    lines.append(f"You played {played}." if played else "You played no card from your hand.")
    if neighs or draws:
        lines.append(f"You answered with a Neigh {plural(neighs, 'time')} and drew {plural(draws, 'extra card')} "
                     "as your action.")
    return lines


def end_card_html(game: Game, viewer: int, moves: list[Action]) -> str:
    s = game.state
    stables = "".join(
        f"<li><b>{esc('You' if p == viewer else name)}</b>: {plural(q.unicorns(s, p), 'Unicorn')}"
        f"<span class='uu-end-cards'> ({esc(', '.join(s.names(s.stables[p])) or 'empty')})</span></li>"
        for p, name in enumerate(s.players))
    recap = "".join(f"<li>{esc(line)}</li>" for line in learner_recap(game, viewer, moves))
    why = why_it_ended(game)
    return (f"<div class='uu-banner uu-end-card' role='status' data-role='prompt'>"
            f"<div class='uu-end-title'>Game over: {esc(result_text(game, viewer))}</div>"
            + (f"<p class='uu-end-why'>{esc(why)}</p>" if why else "")
            + f"<div class='uu-end-stables'><b>Final Stables</b><ul>{stables}</ul></div>"
            f"<div class='uu-end-recap'><b>Your game</b><ul>{recap}</ul></div>"
            "<p class='uu-end-next'>Press <b>New game</b> for a new deal.</p></div>")
