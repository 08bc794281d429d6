"""The Voila configuration `uu app` serves with (see docs/jupyter-notes.md).

Safe for a classroom: sources stripped, no tracebacks, no template/theme override from the URL, loopback only,
idle kernels culled, the unload beacon allowed to free kernels (no xsrf check, voila#1458), and a cap on the
number of seats (learners with a connected page, `uu.server.seats`) that answers 503 with a readable page once the
class is full (checked at the start of the page handler, see `uu.server.app`, and without a pool also as Voila's
prelaunch hook).
Config files (a `voila.py` in the working directory, jupyter config dirs) are not read: nothing found on the
machine can weaken this.

Also for speed under load (measured with `uu bench --app`, see docs/performance.md): the page loads only the widget
manager's labextensions and no MathJax (19 fewer requests, 0.9 MB less per learner), and a page whose
notebook ran while the server was busy still gets the app (`IOPUB_TIMEOUT_S`).
"""

from __future__ import annotations

import html
import logging
import sys
from typing import Any

import tornado.web
from traitlets.config import Config

from uu.i18n import N_, _, language
from uu.server import forkkernel, seats
from uu.server.kernels import PageConnection, PageKernelManager
from uu.server.seats import DEFAULT_MAX_KERNELS, MAX_KERNELS_ENV, max_kernels

__all__ = ["DEFAULT_MAX_KERNELS", "MAX_KERNELS_ENV", "max_kernels", "refuse_when_full", "voila_config"]

log = logging.getLogger(__name__)

IDLE_CULL_SECONDS = 900
# nbclient (which runs the notebook for Voila, in the server process) waits this long, after a cell's
# execute_reply, for the rest of the cell's output: here the App's display message, which follows about 80
# widget comm_open messages. Its default, 4 s, ran out on a busy server and the page was sent without the app,
# blank for good (nbclient logs a warning Voila does not show). Measured with stock Voila 0.5.13: 10 and 20
# requests arriving together while a `--preheat` pool was still starting got 10/10 and 20/20 pages without
# the app (twice for 20); with 60 s, 10/10 with the app. (uu.server.app's pool gate now hands out only finished
# entries; this still covers any busy server.) A kernel always ends a cell with an idle status, so a long
# limit costs nothing when all is well.
IOPUB_TIMEOUT_S = 60
# The only labextensions the page needs: the widget manager, Voila's adapter for it (7 or 8: Voila keeps
# the one that matches ipywidgets) and anywidget's, which loads the table's ES module (uu/table: without it
# the table is an "error displaying widget" box). Anything else installed next to Voila (jupyterlab_pygments, which
# ships with nbconvert, or a teacher's own) would be loaded by every page before it can start.
LABEXTENSIONS = ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8",
                 "@voila-dashboards/widgets-manager7", "anywidget"]
# Voila's page loads MathJax 3 (16 scripts, 0.9 MB) at start-up and typesets widget labels with it; the
# tutor shows no mathematics, and a "$" in a label must stay a dollar. Voila 0.5's page picks MathJax 2
# instead when the page config names a MathJax URL, and loads that URL on the first typeset: this one is a
# script that defines the few MathJax 2 calls the page makes as doing nothing, so nothing is fetched.
# (Everything after "//" is a comment: the page appends "?config=..." to the URL.)
NO_MATHJAX_URL = ("data:text/javascript,window.MathJax={Hub:{Config(){},Register:{StartupHook(){}},"
                  "Configured(){},Queue(){}}};//")
WS_MAX_MESSAGE_BYTES = 1024 * 1024
# in English here (tests compare them); the page is written in the visitor's language (uu.server.shell.page_language)
FULL_TITLE = N_("The tutor is full")
FULL_TEXT = N_("Every seat in this Unstable Unicorns tutor is taken right now. "
               "Please try again in a few minutes, or ask your teacher.")
ADDRESS_TEXT = N_("This computer already has as many tutor pages open as one computer may. "
                  "Close one of them (or reload it), or ask your teacher.")


def _idle_pool_kernel_ids(kernel_manager: Any) -> set[str]:
    """Kernels of Voila's preheat pool that are ready and not yet handed to a learner (none without preheat).
    Reads the pool of Voila 0.5's `VoilaKernelManager` (`_pools`: notebook -> list of tasks whose result holds
    `kernel_id`), a private detail: anything unexpected counts as no idle kernel (the cap errs on refusing)."""
    ids: set[str] = set()
    try:
        for pool in dict(getattr(kernel_manager, "_pools", None) or {}).values():
            for task in list(pool):
                if task.done() and not task.cancelled() and task.exception() is None:
                    ids.add(task.result()["kernel_id"])
    except Exception:
        return set()
    return ids


def learner_kernels(kernel_manager: Any) -> int:
    """Running kernels other than the preheat pool's ready idle ones: how busy the server is, for pacing the
    pool's refill (`uu.server.patches._gate_pool_starts`). The cap counts seats instead (`uu.server.seats`)."""
    running = set(kernel_manager.list_kernel_ids())
    return len(running - _idle_pool_kernel_ids(kernel_manager))


def refuse_when_full(req: Any, notebook: str | None = None, cwd: str | None = None, token: str | None = None) -> None:
    """Refuse a new page with a 503 "tutor is full" page once every seat is taken, or once this address holds
    its share of pages (`uu.server.seats.Seats.refusal`; raises tornado's Finish); the pages of `token`'s browser
    do not count (its new page replaces them). `uu.server.admission.seat_check` calls it at the start of each page
    load; without preheat it is also Voila's prelaunch hook."""
    register = seats.current()
    address = getattr(getattr(req, "request", None), "remote_ip", None) or "?"
    why = register.refusal(address, token)
    if why is None:
        return
    log.warning("refusing a new page for %s (%s): %d seated, %d pending (cap %s=%d, %d per address)", address,
                why, len(register.seated), len(register.pending), MAX_KERNELS_ENV, register.cap,
                register.per_address)
    from uu.server.shell import page_language

    request = getattr(req, "request", None)
    try:
        lang = page_language(request.full_url() if request is not None else None,
                             request.headers.get("Accept-Language") if request is not None else None)
    except Exception:  # a request object without the usual parts: the page in English
        lang = "en"
    words = ADDRESS_TEXT if why == "address" else FULL_TEXT
    with language(lang):
        title, text = _(FULL_TITLE), _(words)
    req.set_status(503)
    req.set_header("Retry-After", "60")
    req.set_header("Content-Type", "text/html; charset=utf-8")
    req.finish(f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
               f"</head><body style='font-family:sans-serif;max-width:40em;margin:3em auto'>"
               f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>")
    raise tornado.web.Finish()


def page_config_hook(page_config: dict, **_kwargs: object) -> dict:
    """Voila's `page_config_hook`: the page's MathJax is `NO_MATHJAX_URL` (see there)."""
    page_config["fullMathjaxUrl"] = NO_MATHJAX_URL
    page_config["mathjaxConfig"] = "none"
    return page_config


def configure_pages(c: Config) -> None:
    """What a learner's page is given, the same for `uu app` and a hub's learner servers: no source code, no
    traceback, no template, theme or extension of the visitor's choosing, only image assets, and no MathJax."""
    c.VoilaConfiguration.strip_sources = True
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.allow_template_override = "NO"
    c.VoilaConfiguration.allow_theme_override = "NO"
    c.VoilaConfiguration.file_allowlist = [r"assets/.*\.(png|svg|jpg|gif)"]
    c.VoilaConfiguration.file_denylist = [r".*\.(ipynb|py|json|cfg|toml|env|yaml|yml)"]
    c.VoilaConfiguration.extension_allowlist = LABEXTENSIONS
    c.VoilaConfiguration.page_config_hook = page_config_hook


def voila_config(port: int | None = None, open_browser: bool = False, ip: str = "127.0.0.1",
                 preheat: int = 0) -> Config:
    """The full configuration of the standalone Voila server for `uu app`.

    `preheat` > 0: a pool of that many kernels that have already run the app notebook, so a page is served at
    once. Voila refuses a prelaunch hook with preheat, so the kernel cap is then enforced by `uu.server.app`'s page
    handler patch (`patch_page_handler_cap`), which `serve` applies."""
    c = Config()
    c.Voila.config_file_paths = []          # read no voila.py / voila.json from cwd or jupyter dirs
    # loopback unless the teacher asks (`uu app --ip 0.0.0.0` for a classroom network): a laptop in a cafe
    # must not offer kernels to everybody around it by default
    c.Voila.ip = ip
    c.Voila.open_browser = open_browser
    if port is not None:
        c.Voila.port = port
        c.Voila.port_retries = 0            # the port asked for, or fail: never silently another one
    c.Voila.tornado_settings = {
        "disable_check_xsrf": True,  # voila#1458: lets the unload beacon free kernels
        # a bigger websocket message is refused and its connection closed (tornado's default is 10 MiB; 40
        # messages of 8 MB made one kernel hold 401 MB): the page's own pastes and uploads are refused before
        # sending above uu.yamlfile.MAX_BYTES, far below this
        "websocket_max_message_size": WS_MAX_MESSAGE_BYTES,
    }

    configure_pages(c)
    # only widget messages and the kernel's status reach a page; a kernel that goes is told to its pages, and
    # the preheat pool refills when its kernels go (uu.server.kernels)
    c.Voila.kernel_websocket_connection_class = PageConnection
    c.VoilaConfiguration.multi_kernel_manager_class = PageKernelManager
    c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT_S
    if preheat > 0:
        # progressive_rendering stays off (its default): Voila cannot combine it with preheat
        c.VoilaConfiguration.preheat_kernel = True
        c.VoilaConfiguration.default_pool_size = preheat
    else:
        c.VoilaConfiguration.prelaunch_hook = refuse_when_full

    # Learners' kernels forked from a warm process (uu.server.forkkernel): a kernel starts with about 0.6 s less CPU
    if forkkernel.enabled():
        c.KernelProvisionerFactory.default_provisioner_name = "uu-fork"
    # Kernels talk to the server over Unix sockets (files only this user can open) instead of localhost TCP
    # ports. A TCP port is picked free by the server and bound by the kernel a moment later; when a class
    # arrives together the server opens hundreds of connections meanwhile, and in one burst of 30 a kernel
    # found its port taken ("Address already in use"), died, and that learner's page never came.
    if sys.platform == "linux":
        c.KernelManager.transport = "ipc"

    # A kernel that dies (its memory ceiling, see uu.server.forkkernel) is not restarted: a restarted kernel is blank
    # (no app, a page of broken widgets) and would keep a seat. jupyter_server then removes it and tells its
    # page (a "dead" status), which says "Your session stopped: reload to continue" (uu/server/voila_template).
    c.KernelRestarter.restart_limit = 0

    # Reap kernels whose page went away without the unload beacon (tab crash, network loss).
    c.MappingKernelManager.cull_idle_timeout = IDLE_CULL_SECONDS
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = False   # never kill a kernel a learner still has open
    return c
