"""The end of a game, said once: who won and why, the final Stables, and a short recap of the learner's turns
(HTML for the play screen's panel; every name is escaped)."""

from __future__ import annotations

from collections import Counter

from uu.cards.localized import card_name
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import _, ngettext
from uu.i18n.typography import colon
from uu.render import esc, result_text, second_person

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
    played = ", ".join(_count(n, t) for t, n in types.most_common())
    lines = [_("You took {turns} and ended with {unicorns}.").format(
        turns=ngettext("{n} turn", "{n} turns", turns).format(n=turns),
        unicorns=_unicorns(q.unicorns(s, viewer)))]
    lines.append(_("You played {cards}.").format(cards=played) if played else _("You played no card from your hand."))
    if neighs or draws:
        lines.append(_("You answered with a Neigh {times} and drew {cards} as your action.").format(
            times=ngettext("{n} time", "{n} times", neighs).format(n=neighs),
            cards=ngettext("{n} extra card", "{n} extra cards", draws).format(n=draws)))
    return lines


def _unicorns(n: int) -> str:
    return ngettext("{n} Unicorn", "{n} Unicorns", n).format(n=n)


def _count(n: int, kind: str) -> str:
    """"2 Magic cards": a count of cards of one type, in the learner's language."""
    forms = {"basic": lambda: ngettext("{n} Basic Unicorn", "{n} Basic Unicorns", n),
             "magical": lambda: ngettext("{n} Magical Unicorn", "{n} Magical Unicorns", n),
             "magic": lambda: ngettext("{n} Magic card", "{n} Magic cards", n),
             "upgrade": lambda: ngettext("{n} Upgrade", "{n} Upgrades", n),
             "downgrade": lambda: ngettext("{n} Downgrade", "{n} Downgrades", n),
             "instant": lambda: ngettext("{n} Instant", "{n} Instants", n),
             "baby": lambda: ngettext("{n} Baby Unicorn", "{n} Baby Unicorns", n)}
    form = forms.get(kind)
    return form().format(n=n) if form else f"{n} {kind}"


def end_card_html(game: Game, viewer: int, moves: list[Action]) -> str:
    s = game.state
    stables = "".join(
        f"<li><b>{esc(_('You') if p == viewer else name)}</b>{colon()}{esc(_unicorns(q.unicorns(s, p)))}"
        f"<span class='uu-end-cards'> ({esc(', '.join(card_name(c) for c in s.names(s.stables[p])) or _('empty'))})"
        "</span></li>"
        for p, name in enumerate(s.players))
    recap = "".join(f"<li>{esc(line)}</li>" for line in learner_recap(game, viewer, moves))
    why = why_it_ended(game)
    # the prompt is the card's head: the whole card is taller than a phone's sheet (the explorer's game walk)
    return ("<div class='uu-banner uu-end-card' role='status'><div class='uu-end-head' data-role='prompt'>"
            "<div class='uu-end-title'>" + esc(_("Game over: {result}").format(result=result_text(game, viewer)))
            + "</div>" + (f"<p class='uu-end-why'>{esc(why)}</p>" if why else "")
            + "</div><div class='uu-end-stables'><b>" + esc(_("Final Stables")) + f"</b><ul>{stables}</ul></div>"
            "<div class='uu-end-recap'><b>" + esc(_("Your game")) + f"</b><ul>{recap}</ul></div>"
            "<p class='uu-end-next'>" + esc(_("Press New game for a new deal.")) + "</p></div>")
