"""`uu app`: serve the tutor with standalone Voila on the notebook shipped inside the package.

Single-notebook mode only (never directory mode, which would render any notebook in a folder), with the safe
configuration of `uu.server.voila_config`. Works from any directory: the notebook is located inside the installed
package, not in the working directory.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

def notebook_path() -> Path:
    """The app notebook inside the installed package."""
    return Path(str(files("uu").joinpath("notebooks", "app.ipynb")))


def template_dir() -> Path:
    """uu's page template (uu/server/voila_template/index.html.j2: Voila's lab page without CDN stylesheets)."""
    return Path(str(files("uu.server").joinpath("voila_template")))


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


def skip_dropped_records(logger: logging.Logger) -> None:
    """Raise `logger`'s level to its handlers' lowest. traitlets leaves an application's logger at DEBUG and
    filters in its handler, so every debug line of the server was made and then dropped: jupyter_server's
    kernel activity tracker writes one for each message a kernel sends (5 a click, about 170 a new page)."""
    levels = [h.level for h in logger.handlers]
    if levels and all(levels):  # a handler at NOTSET takes every record
        logger.setLevel(max(logger.level, min(levels)))


ALLOW_HOST_HELP = ("another name learners reach the tutor by (repeat for several), e.g. the name a reverse proxy "
                   "serves it as; IP addresses, localhost and, with --ip 0.0.0.0, this computer's own name are "
                   "always accepted")
IP_HELP = ("address to listen on (default 127.0.0.1: this machine only); 0.0.0.0 lets a classroom's "
           "machines reach the app")


# Kernels kept ready by default. Measured (`uu bench --app`, docs/performance.md): a new learner's home is served about
# 0.2 s faster from the pool (the kernel has started and run the notebook), and two idle forked kernels hold
# about 50 MiB. A class arriving together gets the pool's two, and the rest start a kernel each (30 in about
# 9 s on 2 cores).
DEFAULT_PREHEAT = 2
# With --class a class is expected: a class's worth of kernels waits. Measured (`uu bench --app --preheat 30`,
# docs/performance.md): 30 learners opening the link together are all interactive in about 3.5 s instead of 7-8 s, since
# on 2 cores the 30 kernels' start and first page are some 10 s of CPU; 30 idle kernels hold about 700 MiB
# (and the pool refills once the class has taken it, one kernel every few seconds: docs/teachers.md).
CLASS_PREHEAT = 30

PREHEAT_HELP = ("keep N kernels that have already run the app ready, so arriving learners are served at once "
                f"(default {DEFAULT_PREHEAT}, with --class {CLASS_PREHEAT}; 0: none; each idle kernel holds about "
                "26 MiB; never more than the kernel cap)")


def pool_size(preheat: int | None, class_view: bool, cap: int | None = None) -> int:
    """The kernels kept ready: `preheat` when given, else `CLASS_PREHEAT` for a class and `DEFAULT_PREHEAT`
    otherwise; the default is never more than the kernel cap (`cap`, by default this process's
    `UU_MAX_KERNELS`)."""
    if preheat is not None:
        return preheat
    from uu.server.seats import max_kernels

    return min(CLASS_PREHEAT if class_view else DEFAULT_PREHEAT, max_kernels() if cap is None else cap)


def serve(port: int | None = None, open_browser: bool = True, ip: str = "127.0.0.1",
          preheat: int | None = None, lessons: str | None = None, class_view: bool = False,
          class_db: str | None = None, class_token: str | None = None, lang: str | None = None,
          allowed_hosts: list[str] | None = None) -> int:
    """Run the app until interrupted (Ctrl-C). Returns a process exit code. `preheat` None: the default pool
    (`pool_size`), served without a pool if this Voila cannot enforce the kernel cap with one; a number
    given explicitly is required. `lessons`: the teacher's lessons folder; `class_view`: the class view
    (`uu.server.classview`), kept in `class_db`, behind `class_token`. `allowed_hosts`: names a request's Host
    may be besides addresses and localhost (`uu.server.hosts`)."""
    preheat = pool_size(preheat, class_view)
    if preheat < 0:
        print("uu app: --preheat takes a number of kernels, 0 or more", file=sys.stderr)
        return 2
    if lang:
        # the class default (uu/widgets/language.py): the kernels inherit it, the first page reads it
        os.environ["UU_LANG"] = lang
    nb = notebook_path()
    if not nb.is_file():
        print(f"uu app: the app notebook is missing from the package: {nb}", file=sys.stderr)
        return 1
    from uu.server.teacher import class_view_setup, teacher_lessons

    code = teacher_lessons(lessons)
    if code:
        return code
    got = class_view_setup(class_view, class_db, class_token)
    if isinstance(got, int):
        return got
    class_db_path, token = got
    from tornado.ioloop import IOLoop
    from voila.app import Voila  # imported here: it takes a moment, and only `uu app` needs it

    from uu.server.patches import (
        patch_fast_dates,
        patch_kernel_websocket_nodelay,
        patch_page_handler_cap,
        patch_preheat_pool,
        patch_template_cache,
        patch_websocket_gate,
        patch_websocket_pace,
        patch_websocket_seats,
    )
    from uu.server.voila_config import voila_config  # tornado too: `uu --help` and other commands stay quick

    patch_kernel_websocket_nodelay()
    patch_template_cache()
    patch_fast_dates()
    try:
        patch_page_handler_cap()
        patch_websocket_seats()
        patch_websocket_pace()
        patch_websocket_gate()
    except Exception as e:  # never serve without the cap
        print(f"uu app: this Voila is not supported (seats cannot be counted: {e})", file=sys.stderr)
        return 1
    if preheat:
        patch_preheat_pool()
    from tornado.routing import AnyMatches, Rule

    from uu.server import assetfiles
    from uu.server.classview import class_handlers
    from uu.server.hosts import AllowedHost, WrongHostHandler, host_policy

    policy = host_policy(ip, allowed_hosts or ())

    class UuVoila(Voila):
        def init_handlers(self) -> list:
            # first: Voila's last handler serves the app for any other path, and its own page files come later
            ours = []
            if class_view:
                table_routes, hub = serve_tables(self, class_db_path)
                ours += [*class_handlers(self.server_url, class_db_path, token, hub.tables), *table_routes]
            if assetfiles.enabled():
                ours += assetfiles.asset_handlers(self)
            # every route only for a request naming an allowed host (against DNS rebinding)
            return [Rule(AllowedHost(policy), [*ours, *super().init_handlers()]),
                    Rule(AnyMatches(), WrongHostHandler)]

    app = UuVoila(config=voila_config(port=port, open_browser=open_browser, ip=ip, preheat=preheat))
    try:
        app.initialize([str(nb)])
        use_uu_template(app)
        skip_dropped_records(app.log)

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


def serve_tables(app: Any, class_db_path: str) -> tuple[list, Any]:
    """The tables for several people (uu/server/tables.py), kept beside the class store; the learners' kernels
    are told where to reach them (the server's loopback address), and seats left too long go to bots. Returns
    their routes and the `TableHub` (the class view lists its tables)."""
    from tornado.ioloop import IOLoop, PeriodicCallback

    from uu.server.tables import AWAY_CHECK_S, DEADLINE_CHECK_S, open_hub, table_handlers
    from uu.together.client import TABLES_URL_ENV, url_file

    hub = open_hub(class_db_path)

    def listening() -> None:  # the port is final now: kernels started before (a preheated pool) read the file
        host = "127.0.0.1" if app.ip in ("0.0.0.0", "::", "", "localhost") else app.ip
        host = f"[{host}]" if ":" in host else host
        url = f"http://{host}:{app.port}{app.server_url.rstrip('/')}/uu/tables"
        os.environ[TABLES_URL_ENV] = url
        where = url_file(class_db_path)
        where.write_text(url, encoding="utf-8")
        where.chmod(0o600)
        PeriodicCallback(hub.check_away, AWAY_CHECK_S * 1000).start()
        PeriodicCallback(hub.check_deadlines, DEADLINE_CHECK_S * 1000).start()

    IOLoop.current().add_callback(listening)
    return table_handlers(app.server_url, hub), hub


def main(argv: list[str] | None = None) -> int:
    """`python -m uu.server.app [--port N] [--no-browser] [--ip ADDRESS] [--preheat N]`, the same as `uu app` (used by
    the tests)."""
    p = argparse.ArgumentParser(prog="python -m uu.server.app", description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--no-browser", action="store_true")
    p.add_argument("--ip", default="127.0.0.1", help=IP_HELP)
    p.add_argument("--preheat", type=int, default=None, metavar="N", help=PREHEAT_HELP)
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME", help=ALLOW_HOST_HELP)
    from uu.server.teacher import add_teacher_options

    add_teacher_options(p)
    args = p.parse_args(argv)
    return serve(port=args.port, open_browser=not args.no_browser, ip=args.ip, preheat=args.preheat,
                 lessons=args.lessons, class_view=args.class_view, class_db=args.class_db,
                 class_token=args.class_token, allowed_hosts=args.allow_host)



if __name__ == "__main__":
    # `python -m` puts the working directory first on sys.path: a stray voila.py there must not be imported.
    sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
    sys.exit(main())
