"""Every change uu makes to a third-party library, in one place.

Each patch wraps or replaces one name of Voila, jupyter_server, jupyter_client, nbconvert or ipywidgets that is
not (or not fully) a public API, so each is checked against the versions `pyproject.toml` allows (upper bounds
there: a new major version must be tried before it is allowed) and by `tests/test_patches.py`, which applies
every patch and fails when one stops applying. Every patch is idempotent (a mark on the patched object), and
each says what happens when its target is missing: the optional ones log a warning and leave the server as it
was (slower), the ones the classroom's safety rests on (the seat cap) raise, and `uu app` refuses to start.

| patch | target | why |
|---|---|---|
| `patch_kernel_websocket_nodelay` | kernel websocket handler `open` (Voila 0.5 / jupyter_server 2) | TCP_NODELAY: a click's answer 40 ms sooner |
| `patch_page_handler_cap` | `voila.tornado.handler.TornadoVoilaHandler.get` | the first page (no kernel without a ticket), seats and the cap on every page load |
| `patch_websocket_seats` | kernel websocket handler `open` | a page's websocket connecting takes its seat |
| `patch_websocket_pace` | kernel websocket handler `on_message` | a flooding page is slowed, not the class |
| `patch_websocket_gate` | kernel websocket handler `get` | an unknown kernel is one log line; a few websockets per kernel; a page's last websocket closing is told to the seats |
| `patch_preheat_pool` | `voila.app.voila_kernel_manager_factory`, the manager's `_initialize` | a warm pool that refills gently |
| `patch_template_cache` | `nbconvert`'s `TemplateExporter._create_environment` | page templates compiled once per server |
| `patch_fast_dates` | `jupyter_client.jsonutil._dateutil_parse` | message dates parsed by the standard library |
| `hold_widget_open` | `ipywidgets.Widget.open` (during `uu.widgets.common.built_whole`; code in `uu/widgets/widgetopen.py`) | a screen sent whole, in one message per widget |
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from typing import Any

from uu.server.pace import InboundPace

log = logging.getLogger(__name__)

NODELAY_ENV = "UU_TCP_NODELAY"  # "0" turns the latency patch below off (for A/B measurements)
_NODELAY_MARK = "_uu_nodelay_patched"


def _websocket_handler(server: str) -> Any:
    if server == "voila":
        from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

        return VoilaKernelWebsocketHandler
    if server == "jupyter_server":  # Voila as a server extension (Binder): jupyter_server's own handler
        from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

        return KernelWebsocketHandler
    raise ValueError(f"unknown server {server!r}")


def patch_kernel_websocket_nodelay(server: str = "voila") -> bool:
    """Set TCP_NODELAY on Voila's kernel websocket: click -> screen update goes from about 51 ms to about 11 ms.

    Tornado leaves Nagle's algorithm on unless a handler calls `set_nodelay(True)`, and neither jupyter_server
    nor Voila does; Nagle plus the peer's delayed ACK hold each small widget message back for about 40 ms
    (docs/jupyter-notes.md, "What `uu/server/app.py` relies on"). This wraps `VoilaKernelWebsocketHandler.open` (a
    private detail of Voila, checked on 0.5.x) so the socket gets TCP_NODELAY as the websocket opens.
    `server="jupyter_server"` patches jupyter_server's kernel websocket handler instead (Voila's subclasses
    it), for Voila running as a server extension as on Binder (binder/postBuild).

    Guarded: if this Voila has no such handler or its `open` is not the coroutine we expect, it logs a
    warning and changes nothing (the app serves normally, only slower). Idempotent. Returns True if patched.
    """
    if os.environ.get(NODELAY_ENV, "1").strip() == "0":
        log.info("TCP_NODELAY patch off (%s=0)", NODELAY_ENV)
        return False
    try:
        import inspect

        handler = _websocket_handler(server)
        if getattr(handler, _NODELAY_MARK, False):
            return True
        original = handler.open
        if not inspect.iscoroutinefunction(original) or not callable(getattr(handler, "set_nodelay", None)):
            raise TypeError(f"{handler.__name__}.open is not a coroutine or set_nodelay is missing")
    except Exception as e:  # an incompatible Voila: serve anyway, just without the patch
        log.warning("uu app: TCP_NODELAY patch not applied (%s changed: %s); clicks will be ~40 ms slower",
                    server, e)
        return False

    def nodelay(self: Any) -> None:
        try:
            self.set_nodelay(True)
        except Exception as e:  # never let the latency patch break a connection
            log.warning("uu app: set_nodelay failed: %s", e)

    _run_first(handler, "open", nodelay, _NODELAY_MARK)
    return True


def _run_first(cls: type, method: str, first: Callable[[Any], None], mark: str) -> None:
    """Replace the coroutine method `cls.method` by one that calls `first(self)`, then the original; `mark`
    set on the class tells later calls the patch is in place."""
    original = getattr(cls, method)

    async def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        first(self)
        return await original(self, *args, **kwargs)

    wrapped.__doc__ = original.__doc__
    setattr(cls, method, wrapped)
    setattr(cls, mark, True)


def wrap_result(find_owner: Callable[[], Any], name: str, after: Callable[[Any], Any], mark: str,
                unpatched: str) -> bool:
    """Replace the function or method `name` of `find_owner()` (a class or module, imported there) by one that
    returns `after(<what the original returned>)`; `mark` set on the owner tells later calls the patch is in
    place. Guarded: if the owner cannot be imported or has no such attribute, logs "uu app: <unpatched>" and
    changes nothing. Returns True if patched."""
    try:
        owner = find_owner()
        original = getattr(owner, name)
    except (ImportError, AttributeError) as e:
        log.warning("uu app: %s (%s)", unpatched, e)
        return False
    if getattr(owner, mark, False):
        return True

    @functools.wraps(original)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return after(original(*args, **kwargs))

    setattr(owner, name, wrapped)
    setattr(owner, mark, True)
    return True


_CAP_MARK = "_uu_cap_patched"
_SEAT_MARK = "_uu_seat_patched"



def patch_page_handler_cap() -> bool:
    """Seats and the cap in the page handler: wraps `TornadoVoilaHandler.get` (Voila 0.5's page route, a
    private detail) so that each page load first runs `uu.server.seats.seat_check`. Not optional: if this Voila has no such
    handler it raises, and `serve` refuses to start rather than serve without a cap. Idempotent."""
    import inspect

    from voila.tornado.handler import TornadoVoilaHandler

    from uu.server.admission import seat_check

    if getattr(TornadoVoilaHandler, _CAP_MARK, False):
        return True
    original = TornadoVoilaHandler.get
    if not inspect.iscoroutinefunction(inspect.unwrap(original)):  # under @tornado.web.authenticated
        raise TypeError("TornadoVoilaHandler.get is not a coroutine")

    async def get(self: Any, *args: Any, **kwargs: Any) -> Any:
        path = args[0] if args else kwargs.get("path")
        # single-notebook mode: any other path is only redirected to a file (no kernel), as Voila does
        if not (getattr(self, "notebook_path", None) and path):
            await seat_check(self)  # may raise tornado.web.Finish after writing the first or the "full" page
        return await original(self, *args, **kwargs)

    get.__doc__ = original.__doc__
    get._uu_seat_check = seat_check  # type: ignore[attr-defined]
    TornadoVoilaHandler.get = get
    setattr(TornadoVoilaHandler, _CAP_MARK, True)
    return True



_PACE_MARK = "_uu_paced"


def patch_websocket_pace(server: str = "voila") -> bool:
    """Pace what each page sends (`InboundPace`): wraps the kernel websocket handler's `on_message` (tornado's
    public override point; jupyter_server's is a plain method) in a coroutine that first sleeps as the bucket
    says. Raises if `on_message` is missing. Idempotent."""
    import asyncio
    import inspect

    handler = _websocket_handler(server)
    if getattr(handler, _PACE_MARK, False):
        return True
    original = handler.on_message

    async def on_message(self: Any, message: str | bytes) -> Any:
        pace = self.__dict__.get("_uu_pace")
        if pace is None:
            pace = self._uu_pace = InboundPace()
        delay = pace.wait(len(message))
        if delay > 0:
            await asyncio.sleep(delay)
        result = original(self, message)
        if inspect.isawaitable(result):
            await result

    on_message.__doc__ = original.__doc__
    handler.on_message = on_message
    setattr(handler, _PACE_MARK, True)
    return True


def patch_websocket_seats(server: str = "voila") -> bool:
    """A page's kernel websocket connecting takes its seat (`uu.server.seats.Seats.connected`): wraps the handler's
    `open(kernel_id)` (jupyter_server's, which Voila's subclasses). Not optional either (without it no page
    would ever hold a seat and the cap would not hold): raises if `open` is not the coroutine expected."""
    import inspect

    handler = _websocket_handler(server)
    if getattr(handler, _SEAT_MARK, False):
        return True
    if not inspect.iscoroutinefunction(handler.open):
        raise TypeError(f"{handler.__name__}.open is not a coroutine")

    def seat(self: Any) -> None:
        from uu.server import kernels, seats

        kernel_id = getattr(self, "kernel_id", None)
        if kernel_id and not kernels.ending(kernel_id):  # a tab reconnecting to a kernel that goes: no seat
            seats.current().connected(kernel_id, self.request.remote_ip or "?")

    _run_first(handler, "open", seat, _SEAT_MARK)
    return True


_GATE_MARK = "_uu_gated"


def patch_websocket_gate(server: str = "voila") -> bool:
    """Every kernel websocket through `uu.server.kernels.websocket_gate`: wraps the handler's `get(kernel_id)`
    (jupyter_server's, under its `ws_authenticated`, which lasts as long as the websocket). Not optional: the
    limit of websockets per kernel and the seats' view of a page gone rest on it; raises if `get` is not the
    coroutine expected. Idempotent."""
    import inspect

    from uu.server.kernels import websocket_gate

    handler = _websocket_handler(server)
    if getattr(handler, _GATE_MARK, False):
        return True
    original = handler.get
    if not inspect.iscoroutinefunction(inspect.unwrap(original)):
        raise TypeError(f"{handler.__name__}.get is not a coroutine")

    async def get(self: Any, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        return await websocket_gate(self, kernel_id, lambda: original(self, kernel_id, *args, **kwargs))

    get.__doc__ = original.__doc__
    handler.get = get
    setattr(handler, _GATE_MARK, True)
    return True


_POOL_MARK = "_uu_pool_patched"
POOL_STARTS_AT_ONCE = 1  # pool kernels started (kernel + notebook run) at the same time
# While learners are connected, the pool refills one kernel at a time with this pause after each, so the
# refill never competes with learners' clicks for long. (A start cost about 1.3 s of CPU when this was set,
# and an unpaced refill after a class arrived took a core for a minute; with forked kernels and the cheaper
# page it is about 0.3 s.)
REFILL_PAUSE_S = 3.0


def _gate_pool_starts(manager_class: Any) -> bool:
    """Make a preheat pool start its kernels `POOL_STARTS_AT_ONCE` at a time, and count a pool entry as ready
    only once its notebook has run. Voila 0.5 starts every missing pool kernel at once (after a burst of 30
    learners, 30 kernel starts and notebook runs on 2 cores), and an entry is "done" as soon as its kernel
    process is launched, so a learner arriving meanwhile got an entry whose notebook was still running (on a
    busy server such pages came without the app, see `uu.server.voila_config.IOPUB_TIMEOUT_S`; the bench's wait for
    a full pool was fooled the same way). Wraps the manager's
    `_initialize(notebook_path, kernel_id=None, **kwargs)` (a private detail of Voila 0.5's
    VoilaKernelManager, which returns {"task": <the notebook render>, ...}). Returns True if patched."""
    original = getattr(manager_class, "_initialize", None)
    if getattr(manager_class, _POOL_MARK, False):
        return True
    import asyncio
    import inspect

    if original is None or not inspect.iscoroutinefunction(original):
        log.warning("uu app: preheat pool left as Voila starts it (no coroutine _initialize)")
        return False
    gates: dict[int, asyncio.Semaphore] = {}  # one per event loop (tests may run several)

    async def initialize_gated(self: Any, notebook_path: str, kernel_id: str | None = None, **kwargs: Any) -> Any:
        from uu.server.voila_config import learner_kernels

        loop = asyncio.get_running_loop()
        gate = gates.setdefault(id(loop), asyncio.Semaphore(POOL_STARTS_AT_ONCE))
        await gate.acquire()
        try:
            result = await original(self, notebook_path, kernel_id, **kwargs)
            task = result.get("task") if isinstance(result, dict) else None
            if isinstance(task, asyncio.Future):
                # until the notebook has run; its errors stay in the task for the page handler, as before
                await asyncio.wait([task])
            try:
                learners = learner_kernels(self) - 1  # this new kernel still counts until its entry is done
            except Exception:
                learners = 1
        except BaseException:
            gate.release()
            raise

        if learners > 0 and REFILL_PAUSE_S > 0:
            loop.call_later(REFILL_PAUSE_S, gate.release)  # the entry is ready now; the next start waits
        else:
            gate.release()
        return result

    initialize_gated.__doc__ = original.__doc__
    manager_class._initialize = initialize_gated
    setattr(manager_class, _POOL_MARK, True)
    return True


def patch_preheat_pool() -> bool:
    """Apply `_gate_pool_starts` to the kernel manager class Voila builds for `--preheat`: wraps
    `voila.app.voila_kernel_manager_factory` (Voila 0.5 creates the class in `Voila.initialize`, and the
    pool's first kernels are queued as the manager is constructed, so the class must be patched as it is made).
    Guarded: on a Voila without that factory it logs a warning and the pool works as Voila made it."""

    def voila_app() -> Any:
        import voila.app

        return voila.app

    def gated(cls: type) -> type:
        if hasattr(cls, "fill_if_needed"):  # only the preheat manager has a pool to fill
            _gate_pool_starts(cls)
        return cls

    return wrap_result(voila_app, "voila_kernel_manager_factory", gated, _POOL_MARK,
                       "preheat pool left as Voila starts it")


_TEMPLATE_MARK = "_uu_template_cache"
_DATES_MARK = "_uu_fast_dates"


def patch_fast_dates() -> bool:
    """Make jupyter_client parse message dates with `parse_iso_date`. Replaces `jupyter_client.jsonutil`'s
    module-level `_dateutil_parse` (what its `parse_date` calls for a string that looks like an ISO 8601
    date, jupyter_client 7 and 8). Guarded: without that name it logs a warning and changes nothing.
    Idempotent. Returns True if patched."""
    from uu.server.serverspeed import parse_iso_date  # here, not at the top: serverspeed needs jinja2, and
    # `hold_widget_open` below is imported by the screens, which also run in the browser (uu/lite)

    try:
        from jupyter_client import jsonutil
    except ImportError as e:
        log.warning("uu app: message dates parsed as before (%s)", e)
        return False
    if getattr(jsonutil, _DATES_MARK, False):
        return True
    if not callable(getattr(jsonutil, "_dateutil_parse", None)):
        log.warning("uu app: message dates parsed as before (jupyter_client changed)")
        return False
    jsonutil._dateutil_parse = parse_iso_date
    setattr(jsonutil, _DATES_MARK, True)
    return True


def patch_template_cache() -> bool:
    """Make every nbconvert template exporter's Jinja environment use a shared cache (`cache_for`). Wraps
    `TemplateExporter._create_environment` (nbconvert's, stable since nbconvert 6; Voila's exporter inherits
    it). Guarded: if nbconvert has no such method, it logs a warning and pages are compiled as before.
    Idempotent. Returns True if patched."""
    def template_exporter() -> type:
        from nbconvert.exporters.templateexporter import TemplateExporter

        return TemplateExporter

    from uu.server.serverspeed import cache_for  # needs jinja2: see patch_fast_dates

    def with_cache(environment: Any) -> Any:
        environment.bytecode_cache = cache_for(environment)
        # the app page's own words in every language (uu/server/voila_template, uu.server.shell.page_words_json)
        from uu.server.shell import page_words_json

        environment.globals.setdefault("uu_page_words", page_words_json)
        return environment

    return wrap_result(template_exporter, "_create_environment", with_cache, _TEMPLATE_MARK,
                       "page templates are compiled for each page")


# ---- ipywidgets: hold widgets back while a screen is built ----------------------------------------------

def hold_widget_open(note: Callable[[Any], None] | None) -> Callable[..., Any]:
    """`uu.widgets.widgetopen.hold_widget_open`: listed here with the other patches; its code lives with the
    widgets, in the kernels (a lower layer never imports the server)."""
    from uu.widgets.widgetopen import hold_widget_open as hold

    return hold(note)


def apply_all(server: str = "voila") -> dict[str, bool]:
    """Apply every server patch (not the widget one, which belongs to the kernels) and say which applied: what
    `tests/test_patches.py` checks. `patch_preheat_pool` is applied here too, although `serve` applies it only
    with a pool."""
    return {
        "patch_kernel_websocket_nodelay": patch_kernel_websocket_nodelay(server),
        "patch_page_handler_cap": patch_page_handler_cap() if server == "voila" else True,
        "patch_websocket_seats": patch_websocket_seats(server),
        "patch_websocket_pace": patch_websocket_pace(server),
        "patch_websocket_gate": patch_websocket_gate(server),
        "patch_preheat_pool": patch_preheat_pool() if server == "voila" else True,
        "patch_template_cache": patch_template_cache(),
        "patch_fast_dates": patch_fast_dates(),
    }
