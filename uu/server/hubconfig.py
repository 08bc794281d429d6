"""A user's server on JupyterHub, set up for the tutor (uu/server/hubsingleuser/jupyter_server_config.py applies it).

On a hub each user runs a jupyter server of their own with Voila's server extension, and the tutor opens at
`/user/<name>/voila/render/app.ipynb` (the hub's `/hub/user-redirect/voila/render/app.ipynb?lesson=...` lands
there, query included). What `uu app` sets for a classroom and still applies on a hub:
- sources stripped and tracebacks hidden in the page, no template or theme from the URL, only the labextensions
  the app needs, no MathJax (the settings of uu.server.voila_config);
- the server's root is the folder of the app notebook inside the installed package, so that notebook is all
  Voila renders there;
- idle kernels culled (a culled learner's progress stays in their browser), kernels on Unix sockets (Linux);
- TCP_NODELAY on the kernel websocket (about 40 ms less per click), as on Binder.
- JupyterLab, its language servers, the classic notebook pages and terminals off: the server serves the tutor.
What does not apply: the seat cap and the per-address share (the hub's spawner limits each user instead), and
"no code from the page": this server is the learner's own, and jupyter_server's kernel API lets its owner send
code to their own kernel. The hub keeps learners apart (one server, one account or container each), and the
class view takes from a kernel only its own user's row (uu/server/hubservice.py).
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from uu.server.app import notebook_path
from uu.server.voila_config import IDLE_CULL_SECONDS, IOPUB_TIMEOUT_S, configure_pages

__all__ = ["APP_URL", "SINGLEUSER_CONFIG_DIR", "configure_singleuser", "kernel_socket_dir", "socket_dir_for"]

log = logging.getLogger(__name__)

APP_URL = "/voila/render/app.ipynb"
SINGLEUSER_CONFIG_DIR = str(Path(__file__).resolve().parent / "hubsingleuser")
UNUSED_EXTENSIONS = ("jupyterlab", "jupyter_lsp", "notebook", "notebook_shim", "jupyter_server_terminals")


def socket_dir_for(user: str, home: str) -> Path:
    """`<tmp>/uu-<uid>-<hash of the hub user and their home>`: short, and one per user's server."""
    digest = hashlib.sha256(f"{user}\0{home}".encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"uu-{os.getuid()}-{digest}"


def kernel_socket_dir() -> Path | None:
    """This server's runtime folder, for its kernels' sockets (`socket_dir_for`), mode 700. None when not on Linux or when the folder is not safely this account's
    own (another account may have made it first): then the kernels use TCP."""
    if sys.platform != "linux":
        return None
    folder = socket_dir_for(os.environ.get("JUPYTERHUB_USER", ""), os.environ.get("HOME", ""))
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        log.warning("uu: %s is not this user's own private folder; kernels use TCP", folder)
        return None
    return folder


def configure_singleuser(c: Any) -> None:
    """Apply the settings above to a jupyter server's config object `c`."""
    # only what the tutor needs: no JupyterLab, language servers, classic notebook pages or terminals in a
    # learner's server (they cost start-up time and memory for every learner; the tutor is all they open)
    c.ServerApp.jpserver_extensions = {name: False for name in UNUSED_EXTENSIONS}
    c.ServerApp.terminals_enabled = False
    c.ServerApp.root_dir = str(notebook_path().parent)
    c.ServerApp.default_url = APP_URL
    configure_pages(c)
    c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT_S
    sockets = kernel_socket_dir()
    if sockets is not None:
        # kernels on Unix sockets, as `uu app` (uu.server.voila_config explains): with localhost TCP ports, a port
        # picked free by one user's server was taken by another's kernel a moment later ("Address already in
        # use", seen in `dev.py hub-check`), the kernel died and that learner's page stayed on "Running ...".
        # The sockets sit beside the kernels' connection files in the server's runtime folder, here a short one:
        # a socket's path may not be longer than 107 bytes, and one under a home's .local/share/jupyter/runtime
        # can be.
        # (runtime_dir is not a config option; the server reads this variable when it first needs the folder,
        # after loading its config files)
        c.KernelManager.transport = "ipc"
        os.environ["JUPYTER_RUNTIME_DIR"] = str(sockets)
    c.MappingKernelManager.cull_idle_timeout = IDLE_CULL_SECONDS
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = False
    try:
        from uu.server.patches import patch_kernel_websocket_nodelay

        patch_kernel_websocket_nodelay("jupyter_server")
    except Exception as e:  # never stop the learner's server for a speed-up
        log.warning("uu: TCP_NODELAY patch not applied: %s", e)
