"""The table: one component every screen draws the game with (observation JSON in, an action index out).

`uu.table.seat_view` builds what a viewer sees and the gestures of their legal actions (pure Python);
`uu.table.widget.TableWidget` is the anywidget that draws it in the browser (imported on its own, so that
the observation code never pulls in ipywidgets).
"""

from uu.table.seat_view import legal_actions, observe

__all__ = ["legal_actions", "observe"]
