"""The review of a game in words (`uu.tutor.review` gives the data): the turning points as sentences, the JSON of
`uu review`, and the chart of the player's chance to win over the turns (inline SVG, with a text alternative
for screen readers: the chart's `<title>` and `<desc>` and an `aria-label` say what it shows)."""

from __future__ import annotations

import html
from typing import Any

from uu.cards.localized import card_name
from uu.i18n import _, ngettext
from uu.tutor.movewords import move_words
from uu.tutor.review import GradedDecision, Review, TurningPoint

__all__ = ["chart_summary", "chart_svg", "decision_words", "review_json", "review_text", "turning_point_words"]


def _pct(x: float) -> str:
    return _("{percent}%").format(percent=round(100 * x))


def _move(r: Review, d: GradedDecision, best: bool = False) -> str:
    return move_words(d.best if best else d.action, r.players, r.player)


def _names(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def turning_point_words(r: Review, t: TurningPoint) -> str:
    d = r.decisions[t.decision]
    if t.kind == "missed":
        return _("Turn {turn}: you chose to {move}, but {best} was clearly better: your chance to win went from "
                 "{before} to {after}, where the better move kept {before}.").format(
                     turn=t.turn, move=_move(r, d), best=_move(r, d, best=True), before=_pct(t.before),
                     after=_pct(t.after))
    plays = [_("{player} played {card}").format(player=who, card=card_name(card)) for who, card in t.plays]
    why = _names(plays[-3:]) if plays else ""
    fell = t.after < t.before
    # one whole sentence per case (fell or rose, one turn or a span, with or without the plays behind it)
    if t.since_turn == t.turn:
        if why:
            said = (_("In turn {turn} your chance to win fell from {before} to {after}: {why}.") if fell else
                    _("In turn {turn} your chance to win rose from {before} to {after}: {why}."))
        else:
            said = (_("In turn {turn} your chance to win fell from {before} to {after}.") if fell else
                    _("In turn {turn} your chance to win rose from {before} to {after}."))
    elif why:
        said = (_("Between turn {since} and turn {turn} your chance to win fell from {before} to {after}: {why}.")
                if fell else
                _("Between turn {since} and turn {turn} your chance to win rose from {before} to {after}: {why}."))
    else:
        said = (_("Between turn {since} and turn {turn} your chance to win fell from {before} to {after}.") if fell
                else _("Between turn {since} and turn {turn} your chance to win rose from {before} to {after}."))
    return said.format(turn=t.turn, since=t.since_turn, before=_pct(t.before), after=_pct(t.after), why=why)


def decision_words(r: Review, d: GradedDecision) -> str:
    """One line for the table of decisions."""
    if d.clearly_better:
        return _("{move} ({after}); clearly better: {best} ({before})").format(
            move=_move(r, d), after=_pct(d.chance_after), best=_move(r, d, best=True), before=_pct(d.chance_before))
    return _("{move} ({after}): as good as the best the hint engine found").format(
        move=_move(r, d), after=_pct(d.chance_after))


def review_text(r: Review) -> str:
    """The review for a terminal: the result, the turning points, then every decision."""
    head = ngettext("{player}: {count} decisions graded", "{player}: {count} decisions graded",
                    len(r.decisions)).format(player=r.player_name, count=len(r.decisions))
    if r.result:
        head += f"; {r.result}."
    good = sum(1 for d in r.decisions if not d.clearly_better)
    good_words = ngettext("{good} of {count} of your moves were as good as the best found.",
                          "{good} of {count} of your moves were as good as the best found.",
                          good).format(good=good, count=len(r.decisions))
    lines = [head, good_words, "", _("Turning points:")]
    lines += [f"- {turning_point_words(r, t)}" for t in r.turning_points] or [
        "- " + _("none: no single moment changed your chance by much.")]
    lines += ["", _("Decisions:")]
    lines += [_("turn {turn}: {decision}").format(turn=f"{d.turn:>3}", decision=decision_words(r, d))
              for d in r.decisions]
    return "\n".join(lines)


def review_json(r: Review) -> dict[str, Any]:
    return {
        "player": r.player_name,
        "decisions": [{"turn": d.turn, "move": _move(r, d), "best": _move(r, d, best=True),
                       "chance_before": round(d.chance_before, 4), "chance_after": round(d.chance_after, 4),
                       "clearly_better": d.clearly_better} for d in r.decisions],
        "turning_points": [turning_point_words(r, t) for t in r.turning_points],
    }


def _points(r: Review) -> list[tuple[int, float]]:
    """(turn, chance) for the chart: the chance before each decision, and the end (1 won, 0 lost)."""
    pts = [(d.turn, d.chance_before) for d in r.decisions]
    if r.won is not None and r.decisions:
        pts.append((r.decisions[-1].turn + 1, 1.0 if r.won else 0.0))
    return pts


def chart_summary(r: Review) -> str:
    """The chart in one or two sentences (its text alternative)."""
    pts = _points(r)
    if not pts:
        return _("No decisions of {player} to chart.").format(player=r.player_name)
    low = min(pts, key=lambda p: p[1])
    high = max(pts, key=lambda p: p[1])
    values = {"player": r.player_name, "first": _pct(pts[0][1]), "first_turn": pts[0][0], "high": _pct(high[1]),
              "high_turn": high[0], "low": _pct(low[1]), "low_turn": low[0]}
    if r.won is None:
        said = _("{player}'s chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}.")
    elif r.won:
        said = _("{player}'s chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}, and the game was won.")
    else:
        said = _("{player}'s chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}, and the game was lost.")
    return said.format(**values)


def chart_svg(r: Review, width: int = 560, height: int = 220) -> str:
    """The player's chance to win before each decision, by turn: a line with a dot per decision (a missed
    better move is a red dot), a 0-100% axis, turn numbers below."""
    e = html.escape
    pts = _points(r)
    summary = chart_summary(r)
    title = _("{player}'s chance to win").format(player=r.player_name)
    turn_word = _("turn")
    left, right, top, bottom = 44, 12, 12, 30
    w, h = width - left - right, height - top - bottom
    first = pts[0][0] if pts else 1
    last = max(pts[-1][0] if pts else 1, first + 1)

    def x(turn: float) -> float:
        return left + (turn - first) / (last - first) * w

    def y(chance: float) -> float:
        return top + (1.0 - chance) * h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="uu-review-chart" role="img" viewBox="0 0 {width} '
             f'{height}" width="100%" style="max-width:{width}px" aria-label="{e(summary)}">',
             f"<title>{e(title)}</title><desc>{e(summary)}</desc>"]
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{left + w}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
                     f'stroke="#ccc" stroke-width="1"/>')
        parts.append(f'<text x="{left - 6}" y="{y(level) + 4:.1f}" text-anchor="end" font-size="11" '
                     f'fill="#333">{round(level * 100)}%</text>')
    step = max(1, (last - first) // 8)
    for turn in range(first, last + 1, step):
        parts.append(f'<text x="{x(turn):.1f}" y="{height - 10}" text-anchor="middle" font-size="11" '
                     f'fill="#333">{turn}</text>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 0}" text-anchor="middle" font-size="10" '
                 f'fill="#555">{e(turn_word)}</text>')
    if pts:
        line = " ".join(f"{x(t):.1f},{y(c):.1f}" for t, c in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="#6a4c93" stroke-width="2"/>')
    for i, d in enumerate(r.decisions):
        colour = "#c62828" if d.clearly_better else "#6a4c93"
        label = e(_("turn {turn}: {chance}; {decision}").format(turn=d.turn, chance=_pct(d.chance_before),
                                                                 decision=decision_words(r, d)))
        parts.append(f'<circle class="uu-review-point" data-decision="{i}" cx="{x(d.turn):.1f}" '
                     f'cy="{y(d.chance_before):.1f}" r="{4 if d.clearly_better else 3}" fill="{colour}">'
                     f"<title>{label}</title></circle>")
    parts.append("</svg>")
    return "".join(parts)
