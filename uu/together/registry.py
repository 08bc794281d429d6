"""The tables of one server: made, found by code, bounded, kept in a store and given back after a restart.

Bounds keep one classroom's server safe from a page that makes tables in a loop: at most `MAX_TABLES` tables
that are not over. A table that cannot be made again from its stored moves (a store from another version of
the engine) is left out with a log line, never a server that does not start.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

from uu.together.store import TableStore
from uu.together.table import Clock, SharedTable, TableOptions, TableRefused, new_code

__all__ = ["MAX_TABLES", "Tables"]

log = logging.getLogger(__name__)
MAX_TABLES = 100
TOO_MANY = "This server has as many tables as it can hold now: join one of them, or wait for one to end."
NO_TABLE = "There is no table with that code (check the code, or ask for the table's link again)."


class Tables:
    def __init__(self, store: TableStore | None = None, clock: Clock = time.monotonic,
                 max_tables: int = MAX_TABLES):
        self._store = store
        self._clock = clock
        self.max_tables = max_tables
        self._tables: dict[str, SharedTable] = {}
        self._lock = threading.Lock()
        if store is not None:
            for record, moves in store.load():
                try:
                    table = SharedTable.restore(record, moves, clock)
                except Exception:  # one bad table must not keep the server from starting
                    log.exception("stored table %s could not be made again; left out", record.get("code"))
                    continue
                self._keep(table)

    def _keep(self, table: SharedTable) -> None:
        self._tables[table.code] = table
        store = self._store
        if store is not None:
            table.on_move = store.add_move
            table.on_change = store.save

    def make(self, name: str, options: TableOptions | None = None) -> tuple[SharedTable, str]:
        """A new table with its maker in seat 0; returns (the table, the maker's seat token)."""
        with self._lock:
            if sum(t.phase != "ended" for t in self._tables.values()) >= self.max_tables:
                raise TableRefused(TOO_MANY)
            code = new_code()
            while code in self._tables:
                code = new_code()
            table = SharedTable(code, options or TableOptions(), secrets.randbelow(2**32), self._clock)
            self._keep(table)
            try:
                _seat, token = table.join(name)
            except TableRefused:
                del self._tables[code]
                raise
            return table, token

    def get(self, code: object) -> SharedTable:
        table = self._tables.get(code.strip().upper()) if isinstance(code, str) else None
        if table is None:
            raise TableRefused(NO_TABLE)
        return table

    def all(self) -> list[SharedTable]:
        return list(self._tables.values())
