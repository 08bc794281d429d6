"""`AppServer`: `uu app` started as a separate process on a free loopback port, for the benchmarks, the
browser tests and the screenshot script (one way to start, wait for and stop it, instead of one per caller).

    with AppServer(workdir, max_kernels=30) as server:
        server.wait_ready()          # the server answers (a static file: costs no kernel)
        ...  server.url ...

`open_page(url)` gets the tutor's page as a browser does (the first page, its seat cookie and ticket, then the
page itself: `uu.server.shell`), for clients without a browser.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from types import TracebackType

from uu.server.seats import CONNECT_TIMEOUT_ENV, COOKIE, MAX_KERNELS_ENV, PER_ADDRESS_ENV
from uu.server.shell import TICKET_COOKIE, ticket_in

__all__ = ["AppServer", "free_port", "open_page", "seat_cookie"]


def seat_cookie(headers: list[str]) -> str | None:
    """The seat token among a response's Set-Cookie headers."""
    for header in headers:
        jar: SimpleCookie = SimpleCookie()
        jar.load(header)
        if COOKIE in jar:
            return jar[COOKIE].value
    return None


def _get(url: str, cookies: dict[str, str], timeout: float) -> tuple[int, str, list[str]]:
    header = "; ".join(f"{k}={v}" for k, v in cookies.items())
    request = urllib.request.Request(url, headers={"Cookie": header} if header else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            return resp.status, resp.read().decode(), resp.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), e.headers.get_all("Set-Cookie") or []


def open_page(url: str, token: str | None = None, timeout: float = 120) -> tuple[int, str, str | None]:
    """GET the tutor's page at `url` as a browser does, with the seat token `token` (None: a new browser):
    the first page, then, with its ticket, the page itself. Returns (status, page, the seat token)."""
    cookies = {COOKIE: token} if token else {}
    status, page, set_cookies = _get(url, cookies, timeout)
    token = seat_cookie(set_cookies) or token
    ticket = ticket_in(page)
    if status != 200 or ticket is None or token is None:
        return status, page, token
    status, page, _ = _get(url, {COOKIE: token, TICKET_COOKIE: ticket}, timeout)
    return status, page, token


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class AppServer:
    """`uu app --port N --no-browser [extra_args]` run from `workdir` (its log in `workdir`), with
    `UU_MAX_KERNELS=max_kernels` when given. Every page it serves comes from this machine, so the limit of
    pages per address is `per_address`, by default the cap (`UU_MAX_PER_ADDRESS`); `connect_timeout` sets
    how long a page's kernel waits for its websocket (`UU_CONNECT_TIMEOUT_S`). `console_script=True` runs
    the installed `uu` command when it exists (what a teacher types), else `python -m uu.server.app`. `t0` is the
    launch time (perf_counter)."""

    def __init__(self, workdir: Path, max_kernels: int | None = None, extra_args: tuple[str, ...] = (),
                 console_script: bool = False, per_address: int | None = None,
                 connect_timeout: float | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log_path = workdir / f"uu-app-{self.port}.log"
        uu_command = Path(sys.executable).with_name("uu")
        command = ([str(uu_command), "app"] if console_script and uu_command.exists()
                   else [sys.executable, "-m", "uu.server.app"])
        env = dict(os.environ)
        if max_kernels is not None:
            env[MAX_KERNELS_ENV] = str(max_kernels)
        if per_address is not None or max_kernels is not None:
            env[PER_ADDRESS_ENV] = str(per_address if per_address is not None else max_kernels)
        if connect_timeout is not None:
            env[CONNECT_TIMEOUT_ENV] = str(connect_timeout)
        with open(self.log_path, "w") as log:
            self.t0 = time.perf_counter()
            self.proc = subprocess.Popen([*command, "--port", str(self.port), "--no-browser", *extra_args],
                                         cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)

    def wait_port(self, timeout: float = 120) -> float:
        """Seconds from launch until the port accepts connections."""
        deadline = time.perf_counter() + timeout
        while not _port_open(self.port):
            if self.proc.poll() is not None or time.perf_counter() > deadline:
                raise RuntimeError(f"uu app did not start:\n{self.log_tail()}")
            time.sleep(0.02)
        return time.perf_counter() - self.t0

    def wait_ready(self, timeout: float = 60) -> None:
        """Until Voila serves a static file (spawns no kernel, unlike a page load)."""
        deadline = time.perf_counter() + timeout
        while True:
            try:
                urllib.request.urlopen(self.url + "voila/static/voila.js", timeout=2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.perf_counter() > deadline:
                    raise RuntimeError(f"uu app did not start:\n{self.log_tail()}") from None
                time.sleep(0.2)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text()
        except OSError:
            return ""

    def log_tail(self, n: int = 3000) -> str:
        return self.log_text()[-n:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def __enter__(self) -> AppServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
