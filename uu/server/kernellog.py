"""A learner's kernel logs to the server's log, never to the learner's page.

In an ipykernel kernel `sys.stderr` is a stream to the page (iopub `stream` messages), and Python's logging
writes there: a logger without handlers falls back to `logging.lastResort`, which writes to `sys.stderr` as it
is at that moment, and so do warnings. Errors logged by the tutor, ipykernel ("No such comm: ...") and
ipywidgets thus reached the browser, with server file paths, visible in its developer tools. Here every such
record goes to the process's own stderr (`sys.__stderr__`: the server's, which a forked kernel inherits).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import IO

FORMAT = "[kernel %(process)d] %(levelname)s %(name)s: %(message)s"
MEMORY_EXIT_CODE = 70  # a kernel that ran out of memory (its ceiling, uu.server.forkkernel) exits with this


class EndOnMemoryError(logging.Filter):
    """A MemoryError that ipykernel or ipywidgets caught and logged (in a message handler) ends the kernel: it
    hit its memory ceiling, and a kernel that lost part of a message or of a widget's state cannot be trusted.
    The server does not restart it (uu.server.voila_config) and the learner's page says their session stopped."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0] if record.exc_info else None
        if exc is not None and issubclass(exc, MemoryError):
            try:
                os.write(2, b"uu kernel: out of memory (its ceiling, UU_KERNEL_MEMORY_MB); the kernel ends\n")
            finally:
                os._exit(MEMORY_EXIT_CODE)
        return True


def _is_page_stream(stream: object, target: object) -> bool:
    """A stream that is not the process's own stderr or stdout, or a file: ipykernel's `OutStream` (the page)."""
    if stream is target or stream in (sys.__stderr__, sys.__stdout__):
        return False
    return type(stream).__module__.startswith("ipykernel")


def logs_to_server(target: IO[str] | None = None) -> logging.Handler:
    """Route the kernel's logging and warnings to `target` (default `sys.__stderr__`); returns the root's
    handler. Handlers made earlier that write to the page (ipykernel's `OutStream`) are pointed at `target`;
    every handler ends the kernel on a logged MemoryError (`EndOnMemoryError`)."""
    target = target if target is not None else sys.__stderr__
    handler = logging.StreamHandler(target)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.handlers = [handler]
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    loggers = [root, *(lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger))]
    end = EndOnMemoryError()
    for lg in loggers:
        for h in lg.handlers:
            if isinstance(h, logging.StreamHandler) and _is_page_stream(h.stream, target):
                h.setStream(target)
            h.addFilter(end)
    logging.lastResort = handler  # a record no handler takes (propagate off) still goes to the server
    logging.captureWarnings(True)  # warnings.warn -> the "py.warnings" logger -> the root's handler
    return handler
