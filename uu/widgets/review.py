"""`ReviewScreen`: "Review my game": the learner's decisions graded by the hint engine, the turning points in
words, the chart of the learner's chance to win over the turns; a click on a decision opens that position in
the sandbox.

The review (`uu.tutor.review`) runs when the screen is built (a few seconds for a whole game; a progress bar
shows it). A decision button calls `on_open(yaml_text, note)` with the position before that decision as
scenario YAML, or the latest position before it that can be written down (an effect half-resolved or a card
on the Neigh pile cannot); the app opens it in the sandbox.

CSS classes: uu-review-screen, uu-review-summary, uu-review-chart (the SVG), uu-review-turning,
uu-review-decisions, uu-review-decision (+ uu-review-missed for a clearly better move missed), uu-review-home.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.bots.search import DEFAULT_SECONDS
from uu.i18n import _
from uu.i18n.typography import colon
from uu.render import esc
from uu.scenario.record import GameRecord
from uu.tutor.review import Review, openable_position, review
from uu.widgets.common import ScreenBase, make_button, safe
from uu.words.review import chart_svg, decision_words, turning_point_words

__all__ = ["REVIEW_SECONDS", "ReviewScreen"]

# The hint engine's time cap per decision graded, half the hint's: a 3-player game has about 80 decisions to
# grade, and the learner waits for all of them (`uu review` on the command line keeps the hint's full second).
REVIEW_SECONDS: float | None = DEFAULT_SECONDS / 2
# a decision's button reads as a line of text: left-aligned, wrapped on a narrow screen
STYLE = ("<style>.uu-review-decision { text-align:left; white-space:normal; height:auto; min-height:28px; "
         "line-height:1.3; padding:4px 8px; }</style>")


class ReviewScreen(ScreenBase):
    def __init__(self, record: GameRecord, player: int = 0, on_open: Callable[[str, str], Any] | None = None,
                 on_home: Callable[[], Any] | None = None, seconds: float | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-review-screen")
        self.record = record
        self.player = player
        self.on_open = on_open
        self.on_home = on_home
        self.result: Review | None = None
        self.opened: str | None = None  # what the last decision click opened (a sentence)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description=_("Reviewing"))
        self.summary = widgets.HTML()
        self.summary.add_class("uu-review-summary")
        self.chart = widgets.HTML()
        self.turning = widgets.HTML()
        self.turning.add_class("uu-review-turning")
        self.decisions = widgets.VBox()
        self.decisions.add_class("uu-review-decisions")
        self.note = widgets.HTML()
        self.home_button = make_button(_("Home"), ("uu-home", "uu-review-home"), self._home)
        if on_home is None:
            self.home_button.layout.display = "none"
        self.children = [widgets.HTML(STYLE), widgets.HTML("<h2 style='margin:4px 0'>" + esc(_("Review of your game")) + "</h2>"),
                         self.progress,
                         self.summary, self.chart, self.turning,
                         widgets.HTML("<h3 style='margin:8px 0 2px'>" + esc(_("Your decisions")) + "</h3><p style='margin:0'>"
                                      + esc(_("Click one to open that position in the sandbox and try another "
                                              "move.")) + "</p>"),
                         self.note, self.error_box, self.decisions, self.home_button]
        self._run(seconds)

    @safe
    def _run(self, seconds: float | None) -> None:
        cap = REVIEW_SECONDS if seconds is None else seconds
        self.result = review(self.record, self.player, seconds=cap, progress=self._progress)
        self.progress.layout.display = "none"
        r = self.result
        buttons = []
        for i, d in enumerate(r.decisions):
            b = make_button(_("Turn {number}: {decision}").format(number=d.turn, decision=decision_words(r, d)), "uu-review-decision",
                            self._opener(i), width="100%")
            b.layout.justify_content = "flex-start"
            if d.clearly_better:
                b.add_class("uu-review-missed")
                b.button_style = "warning"
            buttons.append(b)
        self.decisions.children = buttons

    def _opener(self, index: int) -> Callable[[Any], None]:
        return lambda _b: self.open_decision(index)

    def _progress(self, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = min(done, self.progress.max)

    @safe
    def open_decision(self, index: int) -> None:
        """Open the position of decision `index` (or the nearest earlier one that can be written down)."""
        assert self.result is not None
        d = self.result.decisions[index]
        text, number, _game = openable_position(self.record, d.number)
        note = (_("the position before your decision in turn {number}").format(number=d.turn)
                if number == d.number else
                _("the nearest position before your decision in turn {number} that the sandbox can set up (an "
                  "effect was still resolving at the decision itself)").format(number=d.turn))
        self.opened = note
        if self.on_open is not None:
            self.on_open(text, note)

    @safe
    def _home(self, _b: Any = None) -> None:
        if self.on_home is not None:
            self.on_home()

    def refresh(self) -> None:
        r = self.result
        if r is None:
            return
        good = sum(1 for d in r.decisions if not d.clearly_better)
        result = f" {esc(r.result)}." if r.result else ""
        words = esc(_("{good} of your {count} decisions were as good as the best move the hint engine found; the "
                      "others are marked, with the clearly better move.")).format(good=good, count=len(r.decisions))
        self.summary.value = f"<p><b>{esc(r.player_name)}</b>{colon().rstrip()}{result} {words}</p>"
        self.chart.value = f"<figure style='margin:4px 0'>{chart_svg(r)}</figure>"
        points = "".join(f"<li>{esc(turning_point_words(r, t))}</li>" for t in r.turning_points)
        self.turning.value = ("<h3 style='margin:8px 0 2px'>" + esc(_("Turning points")) + "</h3>"
                              + (f"<ul>{points}</ul>" if points else
                                 "<p>" + esc(_("No single moment changed your chance to win by much.")) + "</p>"))
        self.note.value = ("<div class='uu-fb uu-fb-info' role='status'>"
                           + esc(_("Opened in the sandbox: {position}.").format(position=self.opened)) + "</div>"
                           if self.opened else "")
