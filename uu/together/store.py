"""Where shared tables are kept: SQLite beside the class store, so a server restart loses no table.

A table is its record (code, options, seed, phase, seats with their names and token hashes) and its moves, one
row per move (the index of the action chosen in that decision's legal actions). A move is written as it is
made, in its own short transaction (WAL mode, like the class store): a crash loses at most the move being
made. `load` gives every table back; `SharedTable.restore` makes each game again from its moves.
"""

from __future__ import annotations

import json
from pathlib import Path

from uu.together.table import SharedTable

__all__ = ["TableStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS shared_tables (code TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS shared_moves (code TEXT NOT NULL, n INTEGER NOT NULL, move INTEGER NOT NULL,
                                         PRIMARY KEY (code, n));
"""


class TableStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        import sqlite3  # here, not at import: the static build's screens import this package and have no sqlite3

        self._conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(SCHEMA)

    def save(self, table: SharedTable) -> None:
        """The table's record (seats, phase), written again whenever it changes."""
        self._conn.execute("INSERT OR REPLACE INTO shared_tables (code, record) VALUES (?, ?)",
                           (table.code, json.dumps(table.record())))

    def add_move(self, table: SharedTable, index: int) -> None:
        self._conn.execute("INSERT OR REPLACE INTO shared_moves (code, n, move) VALUES (?, ?, ?)",
                           (table.code, len(table.moves) - 1, index))

    def remove(self, code: str) -> None:
        with self._conn:
            self._conn.execute("BEGIN")
            self._conn.execute("DELETE FROM shared_tables WHERE code = ?", (code,))
            self._conn.execute("DELETE FROM shared_moves WHERE code = ?", (code,))

    def load(self) -> list[tuple[dict, list[int]]]:
        """Every stored table: (its record, its moves first first)."""
        out = []
        for code, record in self._conn.execute("SELECT code, record FROM shared_tables ORDER BY rowid"):
            moves = [m for (m,) in self._conn.execute(
                "SELECT move FROM shared_moves WHERE code = ? ORDER BY n", (code,))]
            out.append((json.loads(record), moves))
        return out

    def close(self) -> None:
        self._conn.close()
