"""`ReviewScreen`: "Review my game": how the game ended and the learner's accuracy with the counts per grade,
then three to five key moments (each a button that opens that position in the sandbox), the chart of the
learner's chance to win over the turns, and every decision graded by the hint engine, folded away (each a
button too). The grades are the one judgement of "better" of the hint and the coach (`uu.bots.judge`).

The review (`uu.tutor.game_review`) runs when the screen is built (a few seconds for a whole game; a progress bar
shows it). A decision button calls `on_open(yaml_text, note)` with the position before that decision as
scenario YAML, or the latest position before it that can be written down (an effect half-resolved or a card
on the Neigh pile cannot); the app opens it in the sandbox.

CSS classes: uu-review-screen, uu-review-summary, uu-review-chart (the SVG), uu-review-turning (the key moments'
box), uu-review-moment (a key moment's button), uu-review-all (the folded list), uu-review-decisions,
uu-review-decision (+ uu-review-missed for a move graded worse), uu-review-home.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from uu.bots.search import DEFAULT_SECONDS
from uu.i18n import _
from uu.render import esc
from uu.scenario.record import GameRecord
from uu.tutor.game_review import Review, openable_position, review
from uu.widgets.common import ScreenBase, make_button, safe
from uu.words.review_text import accuracy_words, chart_svg, decision_words, result_words, turning_point_words

__all__ = ["REVIEW_SECONDS", "ReviewScreen"]

# The hint engine's time cap per decision graded, half the hint's: a 3-player game has about 80 decisions to
# grade, and the learner waits for all of them (`uu review` on the command line keeps the hint's full second).
REVIEW_SECONDS: float | None = DEFAULT_SECONDS / 2
# a decision's button reads as a line of text: left-aligned, wrapped on a narrow screen
STYLE = ("<style>.uu-review-decision, .uu-review-moment { text-align:left; white-space:normal; height:auto; "
         "min-height:28px; line-height:1.3; padding:4px 8px; }</style>")


class ReviewScreen(ScreenBase):
    def __init__(self, record: GameRecord, player: int = 0, on_open: Callable[[str, str], object] | None = None,
                 on_home: Callable[[], object] | None = None, seconds: float | None = None, **kwargs: Any):
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
        self.turning = widgets.VBox()
        self.turning.add_class("uu-review-turning")
        self.decisions = widgets.VBox()
        self.decisions.add_class("uu-review-decisions")
        self.all = widgets.Accordion(children=[widgets.VBox([
            widgets.HTML("<p style='margin:0'>" + esc(_("Click one to open that position in the sandbox and try "
                                                       "another move.")) + "</p>"), self.decisions])])
        self.all.set_title(0, _("Every decision"))
        self.all.selected_index = None  # folded: the key moments come first
        self.all.add_class("uu-review-all")
        self.note = widgets.HTML()
        self.home_button = make_button(_("Home"), ("uu-home", "uu-review-home"), self._home)
        if on_home is None:
            self.home_button.layout.display = "none"
        self.children = [widgets.HTML(STYLE), widgets.HTML("<h2 style='margin:4px 0'>" + esc(_("Review of your game")) + "</h2>"),
                         self.progress, self.summary, self.note, self.error_box, self.turning, self.chart, self.all,
                         self.home_button]
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
            if d.worse:
                b.add_class("uu-review-missed")
                b.button_style = "warning"
            buttons.append(b)
        self.decisions.children = buttons
        self.all.set_title(0, _("Every decision ({count})").format(count=len(buttons)))
        moments: list[widgets.Widget] = [widgets.HTML("<h3 style='margin:8px 0 2px'>" + esc(_("Key moments"))
                                                      + "</h3>")]
        for t in r.turning_points:
            b = make_button(turning_point_words(r, t), "uu-review-moment", self._opener(t.decision), width="100%")
            b.layout.justify_content = "flex-start"
            b.tooltip = _("Open this position in the sandbox")
            moments.append(b)
        if not r.turning_points:
            moments.append(widgets.HTML("<p>" + esc(_("No single moment changed your chance to win by much."))
                                        + "</p>"))
        else:
            moments.append(widgets.HTML("<p style='margin:0'>" + esc(_("Click a moment to open that position in "
                                                                       "the sandbox and try another move.")) + "</p>"))
        self.turning.children = moments

    def _opener(self, index: int) -> Callable[[widgets.Button], None]:
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
    def _home(self, _b: object = None) -> None:
        if self.on_home is not None:
            self.on_home()

    def refresh(self) -> None:
        r = self.result
        if r is None:
            return
        self.summary.value = f"<p><b>{esc(result_words(r))}</b> {esc(accuracy_words(r))}</p>"
        self.chart.value = f"<figure style='margin:4px 0'>{chart_svg(r)}</figure>"
        self.note.value = ("<div class='uu-fb uu-fb-info' role='status'>"
                           + esc(_("Opened in the sandbox: {position}.").format(position=self.opened)) + "</div>"
                           if self.opened else "")
