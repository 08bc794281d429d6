"""`uu app`: serve the tutor with standalone Voila on the notebook shipped inside the package.

Single-notebook mode only (never directory mode, which would render any notebook in a folder), with the safe
configuration of `uu.voila_config`. Works from any directory: the notebook is located inside the installed
package, not in the working directory.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import sys
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

NODELAY_ENV = "UU_TCP_NODELAY"  # "0" turns the latency patch below off (for A/B measurements)
_NODELAY_MARK = "_uu_nodelay_patched"


def _websocket_handler(server: str) -> type:
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
    (docs/jupyter-notes.md, "What `uu/app.py` relies on"). This wraps `VoilaKernelWebsocketHandler.open` (a
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

    def nodelay(self) -> None:
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

    async def wrapped(self, *args, **kwargs):
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
    def wrapped(*args, **kwargs):
        return after(original(*args, **kwargs))

    setattr(owner, name, wrapped)
    setattr(owner, mark, True)
    return True


_CAP_MARK = "_uu_cap_patched"
_SEAT_MARK = "_uu_seat_patched"
_REAPER_ATTR = "_uu_seat_reaper"


async def _shutdown(kernel_manager: Any, kernel_id: str, why: str) -> None:
    from jupyter_core.utils import ensure_async

    from uu import seats

    seats.current().forget(kernel_id)
    if kernel_id not in set(kernel_manager.list_kernel_ids()):
        return
    # a warning: the teacher's console shows which kernels went and why (the root logger's default level)
    log.warning("uu app: shutting down kernel %s (%s)", kernel_id, why)
    try:
        await ensure_async(kernel_manager.shutdown_kernel(kernel_id))
    except Exception as e:  # gone meanwhile
        log.warning("uu app: could not shut down kernel %s: %s", kernel_id, e)


def _start_reaper(kernel_manager: Any) -> None:
    """Once per kernel manager: every few seconds, forget kernels that are gone and shut down pending ones whose
    page never connected (`uu.seats.Seats.expired`)."""
    if getattr(kernel_manager, _REAPER_ATTR, None) is not None:
        return
    import asyncio

    from tornado.ioloop import PeriodicCallback

    from uu import seats

    register = seats.current()

    async def reap() -> None:
        register.keep_only(kernel_manager.list_kernel_ids())
        expired = register.expired()
        register.reaped += len(expired)
        await asyncio.gather(*[_shutdown(kernel_manager, k, "its page never connected") for k in expired])

    interval_ms = max(200.0, min(5000.0, register.connect_timeout * 1000 / 4))
    reaper = PeriodicCallback(reap, interval_ms)
    setattr(kernel_manager, _REAPER_ATTR, reaper)
    reaper.start()


async def _seat_check(handler: Any) -> None:
    """Before a page load: give the browser its seat token, free the kernels of its previous pages (a reload
    frees its old seat before the check), then check the cap (`refuse_when_full`, raises Finish)."""
    from uu import seats
    from uu.voila_config import refuse_when_full

    register = seats.current()
    _start_reaper(handler.kernel_manager)
    token = seats.valid_token(handler.get_cookie(seats.COOKIE))
    if token is None:
        token = seats.new_token()
        # Lax: sent when the learner opens or reloads the tutor, not with another site's <img> or fetch
        handler.set_cookie(seats.COOKIE, token, httponly=True, samesite="Lax", path="/")
    for old in register.held_by_token(token):
        await _shutdown(handler.kernel_manager, old, "the same browser loaded a new page")
    register.keep_only(handler.kernel_manager.list_kernel_ids())  # seats freed by beacons since the last reap
    refuse_when_full(handler)
    address = handler.request.remote_ip or "?"
    write = handler.write

    def write_noting_kernel(chunk: Any) -> Any:
        # the kernel id this page hands out is in its head (jupyter-config-data): note it once, as pending
        if isinstance(chunk, str) and not getattr(handler, "_uu_kernel_noted", False):
            kernel_id = seats.kernel_id_in(chunk)
            if kernel_id is not None:
                handler._uu_kernel_noted = True
                register.handed_out(kernel_id, address, token)
        return write(chunk)

    handler.write = write_noting_kernel


def patch_page_handler_cap() -> bool:
    """Seats and the cap in the page handler: wraps `TornadoVoilaHandler.get` (Voila 0.5's page route, a
    private detail) so that each page load first runs `_seat_check`. Not optional: if this Voila has no such
    handler it raises, and `serve` refuses to start rather than serve without a cap. Idempotent."""
    import inspect

    from voila.tornado.handler import TornadoVoilaHandler

    if getattr(TornadoVoilaHandler, _CAP_MARK, False):
        return True
    original = TornadoVoilaHandler.get
    if not inspect.iscoroutinefunction(inspect.unwrap(original)):  # under @tornado.web.authenticated
        raise TypeError("TornadoVoilaHandler.get is not a coroutine")

    async def get(self, *args, **kwargs):
        await _seat_check(self)  # may raise tornado.web.Finish after writing the "full" page
        return await original(self, *args, **kwargs)

    get.__doc__ = original.__doc__
    get._uu_seat_check = _seat_check  # type: ignore[attr-defined]
    TornadoVoilaHandler.get = get
    setattr(TornadoVoilaHandler, _CAP_MARK, True)
    return True


_PACE_MARK = "_uu_paced"
# What one page may send its kernel, in bytes per second, with a burst: a learner's clicks are a few hundred
# bytes, and a paste or upload the page allows (uu.yamlfile.MAX_BYTES) fits in the burst. Beyond it the server
# stops reading that connection for a while (tornado reads the next message only once on_message's coroutine
# returns), so a flood costs its own kernel memory slowly and the server's one core stays with the class:
# without it, 739 messages of 900 kB in 10 s raised the other learners' click p95 to 471 ms.
INBOUND_BYTES_PER_S = 1024 * 1024
INBOUND_BURST_BYTES = 2 * 1024 * 1024
INBOUND_ENV = "UU_INBOUND_BYTES_PER_S"  # another rate (the hostile bench's test floods faster)


def inbound_rate() -> float:
    try:
        rate = float(os.environ.get(INBOUND_ENV, INBOUND_BYTES_PER_S))
    except ValueError:
        return INBOUND_BYTES_PER_S
    return rate if rate > 0 else INBOUND_BYTES_PER_S


class InboundPace:
    """A token bucket per websocket: `wait(n)` is how long to pause before handling a message of n bytes."""

    def __init__(self, rate: float | None = None, burst: float = INBOUND_BURST_BYTES,
                 clock: Callable[[], float] | None = None):
        import time

        self.rate = rate if rate is not None else inbound_rate()
        self.burst = max(burst, float(self.rate))
        self.clock = clock or time.monotonic
        self.tokens = burst
        self.at = self.clock()

    def wait(self, n: int) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= n
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


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

    async def on_message(self, message):
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
    """A page's kernel websocket connecting takes its seat (`uu.seats.Seats.connected`): wraps the handler's
    `open(kernel_id)` (jupyter_server's, which Voila's subclasses). Not optional either (without it no page
    would ever hold a seat and the cap would not hold): raises if `open` is not the coroutine expected."""
    import inspect

    handler = _websocket_handler(server)
    if getattr(handler, _SEAT_MARK, False):
        return True
    if not inspect.iscoroutinefunction(handler.open):
        raise TypeError(f"{handler.__name__}.open is not a coroutine")

    def seat(self) -> None:
        from uu import seats

        kernel_id = getattr(self, "kernel_id", None)
        if kernel_id:
            seats.current().connected(kernel_id, self.request.remote_ip or "?")

    _run_first(handler, "open", seat, _SEAT_MARK)
    return True


_POOL_MARK = "_uu_pool_patched"
POOL_STARTS_AT_ONCE = 1  # pool kernels started (kernel + notebook run) at the same time
# While learners are connected, the pool refills one kernel at a time with this pause after each, so the
# refill never competes with learners' clicks for long. (A start cost about 1.3 s of CPU when this was set,
# and an unpaced refill after a class arrived took a core for a minute; with forked kernels and the cheaper
# page it is about 0.3 s.)
REFILL_PAUSE_S = 3.0


def _gate_pool_starts(manager_class: type) -> bool:
    """Make a preheat pool start its kernels `POOL_STARTS_AT_ONCE` at a time, and count a pool entry as ready
    only once its notebook has run. Voila 0.5 starts every missing pool kernel at once (after a burst of 30
    learners, 30 kernel starts and notebook runs on 2 cores), and an entry is "done" as soon as its kernel
    process is launched, so a learner arriving meanwhile got an entry whose notebook was still running (on a
    busy server such pages came without the app, see `uu.voila_config.IOPUB_TIMEOUT_S`; the bench's wait for
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

    async def initialize_gated(self, notebook_path, kernel_id=None, **kwargs):
        from uu.voila_config import learner_kernels

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


def notebook_path() -> Path:
    """The app notebook inside the installed package."""
    return Path(str(files("uu").joinpath("notebooks", "app.ipynb")))


def template_dir() -> Path:
    """uu's page template (uu/voila_template/index.html.j2: Voila's lab page without CDN stylesheets)."""
    return Path(str(files("uu").joinpath("voila_template")))


def use_uu_template(app: Any) -> bool:
    """Put uu's page template first on an initialized Voila's template path (before `start()` builds the
    Jinja environments). Its `index.html.j2` extends Voila's lab template, so only the CDN links change.
    Guarded like the latency patch: a Voila without `template_paths` serves its own page. Returns True if
    the template is in use."""
    folder = template_dir()
    paths = getattr(app, "template_paths", None)
    if not (folder / "index.html.j2").is_file() or not isinstance(paths, list):
        log.warning("uu app: page template not applied; pages will wait for a CDN stylesheet")
        return False
    if str(folder) not in paths:
        paths.insert(0, str(folder))
    return True


IP_HELP = ("address to listen on (default 127.0.0.1: this machine only); 0.0.0.0 lets a classroom's "
           "machines reach the app")


# Kernels kept ready by default. Measured (`uu bench --app`, README): a new learner's home is served about
# 0.2 s faster from the pool (the kernel has started and run the notebook), and two idle forked kernels hold
# about 50 MiB. A class arriving together gets the pool's two, and the rest start a kernel each (30 in about
# 9 s on 2 cores).
DEFAULT_PREHEAT = 2

PREHEAT_HELP = ("keep N kernels that have already run the app ready, so arriving learners are served at once "
                f"(default {DEFAULT_PREHEAT}; 0: none; each idle kernel holds about 26 MiB; the kernel cap still "
                "applies)")


def serve(port: int | None = None, open_browser: bool = True, ip: str = "127.0.0.1",
          preheat: int | None = None, lessons: str | None = None, class_view: bool = False,
          class_db: str | None = None, class_token: str | None = None) -> int:
    """Run the app until interrupted (Ctrl-C). Returns a process exit code. `preheat` None: the default pool
    (`DEFAULT_PREHEAT`), served without a pool if this Voila cannot enforce the kernel cap with one; a number
    given explicitly is required. `lessons`: the teacher's lessons folder; `class_view`: the class view
    (`uu.classview`), kept in `class_db`, behind `class_token`."""
    preheat = DEFAULT_PREHEAT if preheat is None else preheat
    if preheat < 0:
        print("uu app: --preheat takes a number of kernels, 0 or more", file=sys.stderr)
        return 2
    nb = notebook_path()
    if not nb.is_file():
        print(f"uu app: the app notebook is missing from the package: {nb}", file=sys.stderr)
        return 1
    from uu.app_teacher import class_view_setup, teacher_lessons

    code = teacher_lessons(lessons)
    if code:
        return code
    got = class_view_setup(class_view, class_db, class_token)
    if isinstance(got, int):
        return got
    class_db_path, token = got
    from tornado.ioloop import IOLoop
    from voila.app import Voila  # imported here: it takes a moment, and only `uu app` needs it

    from uu.serverspeed import patch_fast_dates, patch_template_cache
    from uu.voila_config import voila_config  # tornado too: `uu --help` and other commands stay quick

    patch_kernel_websocket_nodelay()
    patch_template_cache()
    patch_fast_dates()
    try:
        patch_page_handler_cap()
        patch_websocket_seats()
        patch_websocket_pace()
    except Exception as e:  # never serve without the cap
        print(f"uu app: this Voila is not supported (seats cannot be counted: {e})", file=sys.stderr)
        return 1
    if preheat:
        patch_preheat_pool()
    voila_class: type = Voila
    if class_view:
        from uu.classview import class_handlers

        class ClassVoila(Voila):
            def init_handlers(self) -> list:
                # first: Voila's last handler serves the app for any other path
                return [*class_handlers(self.server_url, class_db_path, token), *super().init_handlers()]

        voila_class = ClassVoila
    app = voila_class(config=voila_config(port=port, open_browser=open_browser, ip=ip, preheat=preheat))
    try:
        app.initialize([str(nb)])
        use_uu_template(app)

        def announce() -> None:
            print(f"uu app: the tutor is at http://{app.ip}:{app.port}/  (Ctrl-C stops it)", flush=True)
            if class_view:
                host = "127.0.0.1" if app.ip in ("0.0.0.0", "::", "") else app.ip
                print(f"uu app: your class view (keep this address to yourself): "
                      f"http://{host}:{app.port}/uu/class?token={token}  (kept in {class_db_path})", flush=True)

        IOLoop.current().add_callback(announce)  # runs once the server listens and the loop has started
        app.start()
    except SystemExit as e:  # Voila exits with 1 when it cannot listen (port taken, port_retries=0)
        code = e.code if isinstance(e.code, int) else 1
        if code:
            where = f"port {port}" if port is not None else "any port near 8866"
            print(f"uu app: could not serve on {where} (in use?)", file=sys.stderr)
        return code
    except KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m uu.app [--port N] [--no-browser] [--ip ADDRESS] [--preheat N]`, the same as `uu app` (used by
    the tests)."""
    p = argparse.ArgumentParser(prog="python -m uu.app", description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--no-browser", action="store_true")
    p.add_argument("--ip", default="127.0.0.1", help=IP_HELP)
    p.add_argument("--preheat", type=int, default=None, metavar="N", help=PREHEAT_HELP)
    from uu.app_teacher import add_teacher_options

    add_teacher_options(p)
    args = p.parse_args(argv)
    return serve(port=args.port, open_browser=not args.no_browser, ip=args.ip, preheat=args.preheat,
                 lessons=args.lessons, class_view=args.class_view, class_db=args.class_db,
                 class_token=args.class_token)



if __name__ == "__main__":
    # `python -m` puts the working directory first on sys.path: a stray voila.py there must not be imported.
    sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
    sys.exit(main())
