"""A session: one game and who sits at it, the only way a move reaches the engine.

    session = Session(game, bots={1: bot_a.choose, 2: bot_b.choose})   # seats without a bot are persons
    session.decider, session.version                # who must decide now; grows with every move and undo
    session.legal(seat)                             # that seat's legal actions ([] unless it decides)
    session.choose(seat, index, version)            # a person's choice: checked once, pushed, recorded
    session.run_bots()                              # the one loop: bots decide until a person must
    session.steps_since(version)                    # what happened since a version, decision by decision
    session.undo(seat)                              # take back that person's last move, while allowed
    session.subscribe(listener)                     # progress saving, the class view, the coach listen

A table, a lesson, the game against bots and a table of several people are sessions with different seats.
Pure Python: no ipywidgets; a screen turns an observation and the recorded steps into messages (uu/table/).
"""

from uu.session.session import (
    BotChooser,
    ChoiceRefused,
    Moved,
    NotYourDecision,
    Session,
    SessionEvent,
    StaleChoice,
    Undone,
    UndoRefused,
)
from uu.session.steps import Step

__all__ = ["BotChooser", "ChoiceRefused", "Moved", "NotYourDecision", "Session", "SessionEvent", "StaleChoice",
           "Step", "UndoRefused", "Undone"]
