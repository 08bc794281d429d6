"""A tables server for tests: the tables' JSON API (uu/server/tables.py) on a tornado server of its own, on a
free loopback port, in a thread (what `uu app --class` serves beside the app)."""

from __future__ import annotations

import asyncio
import socket
import threading

import tornado.web

from uu.server.classview import class_handlers
from uu.server.tables import TableHub, table_handlers


class Server:
    def __init__(self, hub: TableHub, class_db: str | None = None, class_token: str = "teacher-token"):
        """`class_db`: also serve the teacher's class view (with its list of these tables) under /uu/class."""
        self.hub = hub
        self.class_db, self.class_token = class_db, class_token
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)
        self.root = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.root}/uu/tables"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        routes = table_handlers("/", self.hub)
        if self.class_db is not None:
            routes += class_handlers("/", self.class_db, self.class_token, self.hub.tables)
        app = tornado.web.Application(routes)
        self.server = app.listen(self.port, address="127.0.0.1")
        self.ready.set()
        self.loop.run_forever()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
