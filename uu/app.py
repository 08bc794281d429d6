"""`uu app`: serve the tutor with standalone Voila on the notebook shipped inside the package.

Single-notebook mode only (never directory mode, which would render any notebook in a folder), with the safe
configuration of `uu.voila_config`. Works from any directory: the notebook is located inside the installed
package, not in the working directory.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib.resources import files
from pathlib import Path

from uu.voila_config import voila_config

log = logging.getLogger(__name__)


def notebook_path() -> Path:
    """The app notebook inside the installed package."""
    return Path(str(files("uu").joinpath("notebooks", "app.ipynb")))


def serve(port: int | None = None, open_browser: bool = True) -> int:
    """Run the app until interrupted (Ctrl-C). Returns a process exit code."""
    nb = notebook_path()
    if not nb.is_file():
        print(f"uu app: the app notebook is missing from the package: {nb}", file=sys.stderr)
        return 1
    from tornado.ioloop import IOLoop
    from voila.app import Voila  # imported here: it takes a moment, and only `uu app` needs it

    app = Voila(config=voila_config(port=port, open_browser=open_browser))
    try:
        app.initialize([str(nb)])

        def announce() -> None:
            print(f"uu app: the tutor is at http://{app.ip}:{app.port}/  (Ctrl-C stops it)", flush=True)

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
    """`python -m uu.app [--port N] [--no-browser]`, the same as `uu app` (used by the tests)."""
    p = argparse.ArgumentParser(prog="python -m uu.app", description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--no-browser", action="store_true")
    args = p.parse_args(argv)
    return serve(port=args.port, open_browser=not args.no_browser)


if __name__ == "__main__":
    # `python -m` puts the working directory first on sys.path: a stray voila.py there must not be imported.
    sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
    sys.exit(main())
