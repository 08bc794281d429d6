"""A learner's kernel logs to the server's log, never to the learner's page.

In an ipykernel kernel `sys.stderr` is a stream to the page (iopub `stream` messages), and Python's logging
writes there: a logger without handlers falls back to `logging.lastResort`, which writes to `sys.stderr` as it
is at that moment, and so do warnings. Errors logged by the tutor, ipykernel ("No such comm: ...") and
ipywidgets thus reached the browser, with server file paths, visible in its developer tools. Here every such
record goes to the process's own stderr (`sys.__stderr__`: the server's, which a forked kernel inherits).
"""

from __future__ import annotations

import logging
import sys
from typing import IO

FORMAT = "[kernel %(process)d] %(levelname)s %(name)s: %(message)s"


def _is_page_stream(stream: object, target: IO[str]) -> bool:
    """A stream that is not the process's own stderr or stdout, or a file: ipykernel's `OutStream` (the page)."""
    if stream is target or stream in (sys.__stderr__, sys.__stdout__):
        return False
    return type(stream).__module__.startswith("ipykernel")


def logs_to_server(target: IO[str] | None = None) -> logging.Handler:
    """Route the kernel's logging and warnings to `target` (default `sys.__stderr__`); returns the root's
    handler. Handlers made earlier that write to the page (ipykernel's `OutStream`) are pointed at `target`."""
    target = target if target is not None else sys.__stderr__
    handler = logging.StreamHandler(target)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.handlers = [handler]
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    loggers = [root, *(lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger))]
    for lg in loggers:
        for h in lg.handlers:
            if isinstance(h, logging.StreamHandler) and _is_page_stream(h.stream, target):
                h.setStream(target)
    logging.lastResort = handler  # a record no handler takes (propagate off) still goes to the server
    logging.captureWarnings(True)  # warnings.warn -> the "py.warnings" logger -> the root's handler
    return handler
