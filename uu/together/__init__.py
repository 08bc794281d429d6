"""Tables for several people: learners and bots at one game, each seat seeing only what it may.

    tables = Tables(TableStore(path))                    # a server's tables, kept beside the class store
    table, token = tables.make("Ana", TableOptions(players=4, bot_level="easy"))
    seat, token_b = tables.get(table.code).join("Ben")   # a learner takes a seat: its secret token
    table.start(token)                                   # the maker only; empty seats become bots
    view = table.view(token_b, since=version)            # that seat's observation, legal actions, steps
    table.choose(token_b, index, view.version)           # a move: checked once, through the session

Built on `uu.session.Session` (a table is a session with several person seats); the Neigh moment asks every
seat that may answer at once (uu/together/answers.py). Pure Python: the server serves it (uu/server/).
"""

from uu.together.registry import MAX_TABLES, Tables
from uu.together.store import TableStore
from uu.together.table import AWAY_S, SeatInfo, SharedTable, TableOptions, TableRefused, TableView

__all__ = ["AWAY_S", "MAX_TABLES", "SeatInfo", "SharedTable", "TableOptions", "TableRefused", "TableStore",
           "TableView", "Tables"]
