"""The Voila configuration `uu app` serves with (see shared/reference/jupyter-stack.md section 5.4).

Safe for a classroom: sources stripped, no tracebacks, no template/theme override from the URL, loopback only,
idle kernels culled, the unload beacon allowed to free kernels (no xsrf check, voila#1458), and a cap on the
number of kernels that answers 503 with a readable page once the class is full.
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


def refuse_when_full(req, notebook, cwd):
    """Voila prelaunch hook: every page load starts a kernel; refuse with 503 once the cap is reached."""
    n = len(req.kernel_manager.list_kernel_ids())
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


def voila_config(port: int | None = None, open_browser: bool = False, ip: str = "127.0.0.1") -> Config:
    """The full configuration of the standalone Voila server for `uu app`."""
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
    c.VoilaConfiguration.prelaunch_hook = refuse_when_full

    # Reap kernels whose page went away without the unload beacon (tab crash, network loss).
    c.MappingKernelManager.cull_idle_timeout = IDLE_CULL_SECONDS
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = False   # never kill a kernel a learner still has open
    return c
