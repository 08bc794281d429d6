"""What reaches a learner's page from its kernel, and what the page is told when its kernel goes.

Two classes `uu.server.voila_config` hands to Voila through its public configuration:

- `PageConnection` (`Voila.kernel_websocket_connection_class`): jupyter_server's websocket connection between a
  page and its kernel, passing on only what the page needs (`page_may_receive`): widget messages and the
  kernel's status on iopub, and the replies to the few requests Voila lets a page send. A kernel's stream
  output (its stderr: logs with its pid, tracebacks with the server's paths), errors and results never reach
  the page, whatever made the kernel write them. It also keeps the open pages of each kernel, so that a
  kernel's end can be told to them (`tell_pages`).
- `PageKernelManager` (`VoilaConfiguration.multi_kernel_manager_class`): jupyter_server's kernel manager, which
  tells a kernel's pages when it is removed for any reason (shut down, culled, died) by closing their websockets
  with a code the page's script reads (uu/server/voila_template), and refills Voila's preheat pool when one of
  its kernels goes (Voila refills it only when it hands a kernel out).

And the gate before any kernel websocket (`websocket_gate`, applied by `uu.server.patches.patch_websocket_gate`):
a websocket to a kernel the server does not have gets a 404 and one line in the log (jupyter_server wrote a
traceback of about 45 lines per request), and each kernel takes at most `MAX_SOCKETS_PER_KERNEL` websockets at
a time (a page needs one; a reconnecting page briefly two): 300 sockets to one's own kernel held about 2,200 of
the server's file descriptors and 130 MiB. The gate also tells the seats when a kernel's last websocket
closes or a first one opens (`uu.server.seats.Seats.away`), so that a page gone without its unload beacon
gives its seat back (`uu.server.admission.start_reaper`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

log = logging.getLogger(__name__)

# Websocket close codes (4000-4999: for applications) the page's script turns into a notice
STOPPED = 4000   # "Your session stopped: reload to continue."
REPLACED = 4001  # "This tutor is open in another tab." (the same browser opened the tutor again)
REASONS = {STOPPED: "the session stopped", REPLACED: "the tutor was opened in another tab"}

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# iopub: what the widget manager and the kernel's busy/idle/dead status need
IOPUB_ALLOWED = frozenset({"status", "comm_open", "comm_msg", "comm_close", "clear_output"})
# shell and control: replies to what Voila lets a page send (comm_info, kernel_info, shutdown)
REPLIES_ALLOWED = frozenset({"kernel_info_reply", "comm_info_reply", "shutdown_reply"})


def page_may_receive(channel: str | None, msg_type: str, content: Any = None) -> bool:
    """Whether a kernel message may go to the page. `content` is read only for display messages: a widget view
    (ipywidgets' Output widget shows widgets that way) may pass, any other output may not."""
    if channel == "iopub":
        if msg_type in IOPUB_ALLOWED:
            return True
        if msg_type in ("display_data", "update_display_data"):
            data = content.get("data") if isinstance(content, dict) else None
            return isinstance(data, dict) and WIDGET_VIEW in data and set(data) <= {WIDGET_VIEW, "text/plain"}
        return False
    if channel in ("shell", "control"):
        return msg_type in REPLIES_ALLOWED
    return False  # stdin (input requests) and anything unknown


# kernel id -> the websocket handlers of the pages connected to it; kernels whose pages were told to go
_PAGES: dict[str, set[Any]] = {}
_TOLD: dict[str, int] = {}


def tell_pages(kernel_id: str, code: int) -> int:
    """Close the websockets of `kernel_id`'s pages with `code` (their script shows the notice at once), and
    refuse any page that connects to it from now on (a page's reconnection). Returns how many were told."""
    _TOLD.setdefault(kernel_id, code)
    handlers = list(_PAGES.pop(kernel_id, ()))
    for handler in handlers:
        try:
            handler.close(code, REASONS.get(code, ""))
        except Exception as e:  # already closing
            log.info("uu app: could not close a page of kernel %s: %s", kernel_id, e)
    return len(handlers)


def forget(kernel_id: str) -> None:
    """`kernel_id` is gone: nothing can connect to it any more."""
    _TOLD.pop(kernel_id, None)
    _PAGES.pop(kernel_id, None)
    _REFUSED.pop(kernel_id, None)


def ending(kernel_id: str) -> bool:
    """Whether `kernel_id`'s pages were told it goes (a new connection to it is refused)."""
    return kernel_id in _TOLD


# websockets one kernel may hold at a time (open or opening). Each costs the server about 7 file descriptors
# (the socket and the kernel channels' ZeroMQ sockets) and some 400 KB
MAX_SOCKETS_PER_KERNEL = 3
MAX_SOCKETS_ENV = "UU_MAX_SOCKETS_PER_KERNEL"
_SOCKETS: dict[str, int] = {}  # kernel id -> websockets open or opening
_REFUSED: dict[str, int] = {}  # kernel id (or "unknown") -> websockets refused, for a log that does not flood


def max_sockets() -> int:
    try:
        return max(1, int(os.environ.get(MAX_SOCKETS_ENV, MAX_SOCKETS_PER_KERNEL)))
    except ValueError:
        return MAX_SOCKETS_PER_KERNEL


def sockets(kernel_id: str) -> int:
    """Websockets open or opening to `kernel_id`."""
    return _SOCKETS.get(kernel_id, 0)


def _log_refusal(key: str, text: str, *args: Any) -> None:
    """A refused websocket in the log: the 1st, 10th, 100th... of each kind, so a flood writes a few lines."""
    n = _REFUSED[key] = _REFUSED.get(key, 0) + 1
    if n in (1, 10, 100, 1000, 10_000) or n % 100_000 == 0:
        log.warning("uu app: " + text + " (%d so far)", *args, n)


async def websocket_gate(handler: Any, kernel_id: str, get: Callable[[], Awaitable[Any]]) -> Any:
    """Before `get` (jupyter_server's kernel websocket GET, which lasts as long as the websocket): a kernel the
    server does not have is a 404 (one log line); a kernel already holding `max_sockets()` websockets is a 429.
    Counts the kernel's websockets while `get` runs, and tells the seats when the last one closes."""
    from uu.server import seats

    known = False
    try:
        known = kernel_id in handler.kernel_manager
    except Exception:  # a manager that cannot say: let jupyter_server answer as it does
        known = True
    if not known:
        _log_refusal("unknown", "a websocket asked for kernel %s, which this server does not have",
                     kernel_id[:40])
        handler.set_status(404)
        handler.finish()
        return None
    if sockets(kernel_id) >= max_sockets():
        _log_refusal(kernel_id, "kernel %s already has %d websockets: one more refused", kernel_id,
                     sockets(kernel_id))
        handler.set_status(429)
        handler.finish()
        return None
    _SOCKETS[kernel_id] = sockets(kernel_id) + 1
    seats.current().back(kernel_id)
    try:
        return await get()
    finally:
        left = _SOCKETS[kernel_id] = sockets(kernel_id) - 1
        if left <= 0:
            _SOCKETS.pop(kernel_id, None)
            seats.current().away(kernel_id)


class PageConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection, passing on only what `page_may_receive` allows."""

    async def prepare(self) -> None:
        """Refuse at once (404) a page reconnecting to a kernel that is going: jupyter_server would first wait
        up to a minute for that kernel's kernel_info reply, and while one websocket of a host is connecting
        Chromium holds every other back (the new tab of the same browser stayed on "Loading widget...")."""
        if ending(self.kernel_id):
            from tornado import web

            self.websocket_handler.set_status(404)  # (an HTTPError would render jupyter_server's error page,
            raise web.Finish()                      # which fails under Voila and logs a traceback)
        await super().prepare()

    def connect(self) -> Any:
        kernel_id = self.kernel_id
        code = _TOLD.get(kernel_id)
        handler = self.websocket_handler
        if code is not None:  # a page reconnecting to a kernel that is going: it hears why at once
            handler.close(code, REASONS.get(code, ""))
            return None
        _PAGES.setdefault(kernel_id, set()).add(handler)
        return super().connect()

    def disconnect(self) -> None:  # type: ignore[override]  # jupyter_server's is not a coroutine
        pages = _PAGES.get(self.kernel_id)
        if pages is not None:
            pages.discard(self.websocket_handler)
            if not pages:
                _PAGES.pop(self.kernel_id, None)
        super().disconnect()

    def handle_outgoing_message(self, stream: Any, outgoing_msg: list[Any]) -> None:
        channel = stream if isinstance(stream, str) else getattr(stream, "channel", None)
        try:
            _idents, parts = self.session.feed_identities(outgoing_msg)
            # parts: signature, header, parent header, metadata, content, buffers...
            msg_type = self.session.unpack(parts[1]).get("msg_type", "")
            readable = msg_type.endswith("display_data") or msg_type in ("stream", "error")
            content = self.session.unpack(parts[4]) if readable else None
        except Exception:  # not a message we can read: not for the page
            log.info("uu app: an unreadable kernel message was not sent to the page")
            return
        if page_may_receive(channel, msg_type, content):
            super().handle_outgoing_message(stream, outgoing_msg)
        elif isinstance(content, dict) and msg_type in ("stream", "error"):
            # what the kernel wrote goes to the teacher's console instead (a launched kernel's stderr)
            text = content.get("text") or "\n".join(map(str, content.get("traceback") or [content.get("ename")]))
            try:
                kernel_id = self.kernel_id
            except AttributeError:  # a connection without its kernel (the tests)
                kernel_id = "?"
            log.warning("[kernel %s] %s", kernel_id, str(text)[:2000].rstrip())


class PageKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager; a kernel removed (shut down, culled, died) is told to its pages, and a
    preheat pool that lost a kernel is refilled."""

    _uu_stopping = False

    def remove_kernel(self, kernel_id: str) -> Any:
        removed = super().remove_kernel(kernel_id)
        tell_pages(kernel_id, STOPPED)
        forget(kernel_id)  # nothing can connect to a removed kernel: no need to remember it
        if not self._uu_stopping:
            self._refill_pool(kernel_id)
        return removed

    def _refill_pool(self, kernel_id: str) -> None:
        """Voila's `VoilaKernelManager` (`--preheat`: `_pools`, notebook -> list of tasks whose result names the
        kernel, and `fill_if_needed`) drops an entry only when it hands it out or shuts it down through the
        pool, and refills only on handing out: a pool kernel that died stayed in the pool (handed to a learner
        as a dead page) and a pool shut down from outside was never refilled. Here both are fixed."""
        pools = getattr(self, "_pools", None)
        fill = getattr(self, "fill_if_needed", None)
        if not isinstance(pools, dict) or not callable(fill):
            return
        for name, pool in list(pools.items()):
            for task in list(pool):
                try:
                    gone = task.done() and task.result()["kernel_id"] == kernel_id
                except Exception:
                    gone = task.done()  # its start failed: it can never be handed out
                if gone:
                    pool.remove(task)
            try:
                fill(delay=None, notebook_name=name)
            except Exception as e:  # a pool that cannot refill still serves: each page starts a kernel
                log.warning("uu app: the kernel pool could not refill: %s", e)

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self._uu_stopping = True  # the server stops: no refill
        await super().shutdown_all(*args, **kwargs)
