"""A tables server for tests: the tables' JSON API (uu/server/tables.py) on a tornado server of its own, on a
free loopback port, in a thread (what `uu app --class` serves beside the app)."""

from __future__ import annotations

import asyncio
import socket
import threading

import tornado.web

from uu.server.tables import TableHub, table_handlers


class Server:
    def __init__(self, hub: TableHub):
        self.hub = hub
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}/uu/tables"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        app = tornado.web.Application(table_handlers("/", self.hub))
        self.server = app.listen(self.port, address="127.0.0.1")
        self.ready.set()
        self.loop.run_forever()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
