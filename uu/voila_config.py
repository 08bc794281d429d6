"""The Voila configuration `uu app` serves with (see shared/reference/jupyter-stack.md section 5.4).

Safe for a classroom: sources stripped, no tracebacks, no template/theme override from the URL, loopback only,
idle kernels culled, the unload beacon allowed to free kernels (no xsrf check, voila#1458), and a cap on the
number of kernels that answers 503 with a readable page once the class is full (a prelaunch hook; with the
opt-in preheated pool, `uu app --preheat N`, a check at the start of the page handler instead, see `uu.app`).
Config files (a `voila.py` in the working directory, jupyter config dirs) are not read: nothing found on the
machine can weaken this.
"""

from __future__ import annotations

import html
import logging
import os

import tornado.web
from traitlets.config import Config

log = logging.getLogger(__name__)

MAX_KERNELS_ENV = "UU_MAX_KERNELS"
DEFAULT_MAX_KERNELS = 40
IDLE_CULL_SECONDS = 900
FULL_TITLE = "The tutor is full"
FULL_TEXT = ("Every seat in this Unstable Unicorns tutor is taken right now. "
             "Please try again in a few minutes, or ask your teacher.")


def max_kernels() -> int:
    try:
        return max(1, int(os.environ.get(MAX_KERNELS_ENV, DEFAULT_MAX_KERNELS)))
    except ValueError:
        return DEFAULT_MAX_KERNELS


def _idle_pool_kernel_ids(kernel_manager) -> set[str]:
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


def learner_kernels(kernel_manager) -> int:
    """Kernels counted against the cap: every running kernel but the preheat pool's ready idle ones (pool kernels
    still starting count, as they cost the CPU and memory a learner's would). So at most `max_kernels()` learners,
    and at most `max_kernels() + pool size` kernel processes."""
    running = set(kernel_manager.list_kernel_ids())
    return len(running - _idle_pool_kernel_ids(kernel_manager))


def refuse_when_full(req, notebook=None, cwd=None):
    """Refuse a new session with a 503 "tutor is full" page once the cap is reached (raises tornado's Finish).
    Without preheat it is Voila's prelaunch hook (every page load starts a kernel); with preheat (Voila refuses a
    prelaunch hook then) `uu.app` calls it at the start of the page handler's GET instead."""
    n = learner_kernels(req.kernel_manager)
    if n < max_kernels():
        return
    log.warning("refusing a new session: %d kernels running (cap %s=%d)", n, MAX_KERNELS_ENV, max_kernels())
    req.set_status(503)
    req.set_header("Retry-After", "60")
    req.set_header("Content-Type", "text/html; charset=utf-8")
    req.finish(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(FULL_TITLE)}</title>"
               f"</head><body style='font-family:sans-serif;max-width:40em;margin:3em auto'>"
               f"<h1>{html.escape(FULL_TITLE)}</h1><p>{html.escape(FULL_TEXT)}</p></body></html>")
    raise tornado.web.Finish()


def voila_config(port: int | None = None, open_browser: bool = False, ip: str = "127.0.0.1",
                 preheat: int = 0) -> Config:
    """The full configuration of the standalone Voila server for `uu app`.

    `preheat` > 0: a pool of that many kernels that have already run the app notebook, so a page is served at
    once. Voila refuses a prelaunch hook with preheat, so the kernel cap is then enforced by `uu.app`'s page
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
    c.Voila.tornado_settings = {"disable_check_xsrf": True}  # voila#1458: lets the unload beacon free kernels

    c.VoilaConfiguration.strip_sources = True
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.allow_template_override = "NO"
    c.VoilaConfiguration.allow_theme_override = "NO"
    c.VoilaConfiguration.file_allowlist = [r"assets/.*\.(png|svg|jpg|gif)"]
    c.VoilaConfiguration.file_denylist = [r".*\.(ipynb|py|json|cfg|toml|env|yaml|yml)"]
    if preheat > 0:
        # progressive_rendering stays off (its default): Voila cannot combine it with preheat
        c.VoilaConfiguration.preheat_kernel = True
        c.VoilaConfiguration.default_pool_size = preheat
    else:
        c.VoilaConfiguration.prelaunch_hook = refuse_when_full

    # Reap kernels whose page went away without the unload beacon (tab crash, network loss).
    c.MappingKernelManager.cull_idle_timeout = IDLE_CULL_SECONDS
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = False   # never kill a kernel a learner still has open
    return c
