"""The review of a game in words (`uu.tutor.game_review` gives the data): the turning points as sentences, the JSON of
`uu review`, and the chart of the player's chance to win over the turns (inline SVG, with a text alternative
for screen readers: the chart's `<title>` and `<desc>` and an `aria-label` say what it shows)."""

from __future__ import annotations

import html
from typing import Any

from uu.bots.judge import BLUNDER, INACCURACY, MISTAKE
from uu.cards.localized import card_name
from uu.i18n import N_, _, ngettext
from uu.tutor.game_review import GradedDecision, Review, TurningPoint
from uu.tutor.movewords import move_first, move_words

__all__ = ["GRADE_WORDS", "accuracy_words", "chart_summary", "chart_svg", "decision_words", "grade_words",
           "result_words", "review_json", "review_text", "turning_point_words"]


def _pct(x: float) -> str:
    return _("{percent}%").format(percent=round(100 * x))


def _points_of(x: float) -> int:
    """A loss in chance to win as whole percentage points."""
    return round(100 * x)


def _move(r: Review, d: GradedDecision, best: bool = False) -> str:
    return move_words(d.best if best else d.action, r.players, r.player, verb=d.verb)


def _names(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


# The grade of a move as a learner reads it, alone after a colon (the thresholds: uu.bots.judge)
GRADE_WORDS = {
    "best": N_("the best move found"),
    "good": N_("about as good as the best move found"),
    "inaccuracy": N_("an inaccuracy"),
    "mistake": N_("a mistake"),
    "blunder": N_("a blunder"),
}


def _count_words(grade: str, count: int) -> str:
    """"3 inaccuracies", "1 mistake": a grade's count, singular or plural as the language says it."""
    if grade == "inaccuracy":
        said = ngettext("{count} inaccuracy", "{count} inaccuracies", count)
    elif grade == "mistake":
        said = ngettext("{count} mistake", "{count} mistakes", count)
    else:
        said = ngettext("{count} blunder", "{count} blunders", count)
    return said.format(count=count)


def grade_words(grade: str) -> str:
    return _(GRADE_WORDS[grade])


def _cost(d: GradedDecision) -> str:
    """"a mistake that cost you about 12 points of chance to win" (the grade and the loss, one phrase)."""
    return ngettext("{grade} that cost you about {points} point of chance to win",
                    "{grade} that cost you about {points} points of chance to win", _points_of(d.loss)).format(
                        grade=grade_words(d.grade), points=_points_of(d.loss))


def turning_point_words(r: Review, t: TurningPoint) -> str:
    """A key moment as one or two sentences. The moves are said after a colon, as the move buttons say them,
    so no language has to bend a move into a clause ("you chose to do not use ..." is the shape avoided)."""
    d = r.decisions[t.decision]
    if t.kind == "missed":
        return _("Turn {turn}, your move: {move}. {cost} (from {before} to {after}). Better: {best}.").format(
            turn=t.turn, move=_move(r, d), cost=move_first(_cost(d), []), before=_pct(t.before),
            after=_pct(t.after), best=_move(r, d, best=True))
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
    """One line for the list of decisions: the move, its grade, and the better move only when graded worse."""
    if d.worse:
        return _("{move}: {cost}. Better: {best}.").format(move=move_first(_move(r, d), r.players),
                                                          cost=_cost(d), best=_move(r, d, best=True))
    return _("{move}: {grade}.").format(move=move_first(_move(r, d), r.players), grade=grade_words(d.grade))


def result_words(r: Review) -> str:
    """How the game ended, said to the reviewed player."""
    if r.won:
        return _("You won this game.")
    if r.won is None:
        return _("The record ends before the game does.")
    if r.winner is None:
        return _("Nobody won this game.")
    return _("{player} won this game.").format(player=r.winner)


def accuracy_words(r: Review) -> str:
    """"Accuracy 80%: 40 of your 50 decisions were about as good as the best move found." and the counts."""
    if r.accuracy is None:
        return _("No decision of yours to grade: every one had a single legal move.")
    good = r.counts["good"]
    # the verb agrees with the good ones ("1 of your 2 decisions was"), whatever the count
    head = ngettext("Accuracy {percent}: {good} of your {count} decisions was about as good as the best move found.",
                    "Accuracy {percent}: {good} of your {count} decisions were about as good as the best move found.",
                    good).format(percent=_pct(r.accuracy), good=good, count=len(r.decisions))
    counts = [_count_words(g, r.counts[g]) for g in ("inaccuracy", "mistake", "blunder")]
    return head + " " + _("The others: {counts}.").format(counts=_names(counts)) if good < len(r.decisions) else head


def review_text(r: Review) -> str:
    """The review for a terminal: the result, the key moments, the accuracy and counts, then every decision."""
    lines = [result_words(r), accuracy_words(r), "", _("Key moments:")]
    lines += [f"- {turning_point_words(r, t)}" for t in r.turning_points] or [
        "- " + _("none: no single moment changed your chance by much.")]
    lines += ["", _("Every decision:")]
    lines += [_("Turn {turn}: {decision}").format(turn=d.turn, decision=decision_words(r, d)) for d in r.decisions]
    return "\n".join(lines)


def _r4(x: float) -> float:
    return round(x, 4)


def review_json(r: Review) -> dict[str, Any]:
    """`uu review --json`: per decision its grade, the move made and the best move found with their chances
    and 95% intervals, and the loss with its paired 95% interval (uu.bots.judge)."""
    return {
        "player": r.player_name,
        "winner": r.winner,
        "won": r.won,
        "accuracy": None if r.accuracy is None else _r4(r.accuracy),
        "counts": r.counts,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "decisions": [{"number": d.number, "turn": d.turn, "kind": d.kind, "grade": d.grade,
                       "move": _move(r, d), "chance": _r4(d.chance_after),
                       "interval": [_r4(x) for x in d.after_interval],
                       "best": _move(r, d, best=True), "best_chance": _r4(d.chance_before),
                       "best_interval": [_r4(x) for x in d.before_interval],
                       "loss": _r4(d.loss), "loss_interval": [_r4(d.loss_low), _r4(d.loss_high)],
                       "words": decision_words(r, d)} for d in r.decisions],
        "key_moments": [{"turn": t.turn, "decision": t.decision, "kind": t.kind, "words": turning_point_words(r, t)}
                        for t in r.turning_points],
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
        return _("No decisions of yours to chart.")
    low = min(pts, key=lambda p: p[1])
    high = max(pts, key=lambda p: p[1])
    values = {"first": _pct(pts[0][1]), "first_turn": pts[0][0], "high": _pct(high[1]),
              "high_turn": high[0], "low": _pct(low[1]), "low_turn": low[0]}
    if r.won is None:
        said = _("Your chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}.")
    elif r.won:
        said = _("Your chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}, and the game was won.")
    else:
        said = _("Your chance to win over the turns: {first} at turn {first_turn}, highest {high} at turn "
                 "{high_turn}, lowest {low} at turn {low_turn}, and the game was lost.")
    return said.format(**values)


def chart_svg(r: Review, width: int = 560, height: int = 220) -> str:
    """The player's chance to win before each decision, by turn: a line with a dot per decision (a missed
    move graded worse is a red dot), a 0-100% axis, turn numbers below."""
    e = html.escape
    pts = _points(r)
    summary = chart_summary(r)
    title = _("Your chance to win")
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
        colour = "#c62828" if d.worse else "#6a4c93"
        label = e(_("turn {turn}: {chance}; {decision}").format(turn=d.turn, chance=_pct(d.chance_before),
                                                                 decision=decision_words(r, d)))
        parts.append(f'<circle class="uu-review-point" data-decision="{i}" cx="{x(d.turn):.1f}" '
                     f'cy="{y(d.chance_before):.1f}" r="{4 if d.worse else 3}" fill="{colour}">'
                     f"<title>{label}</title></circle>")
    parts.append("</svg>")
    return "".join(parts)
