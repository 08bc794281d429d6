"""Seats of `uu app`: who holds a learner's place in the class, for the kernel cap.

A seat is a learner with a connected page. Counting kernels instead (as `uu app` once did) let anything that
fetches `/` (a `curl`, an `<img src="http://tutor:8866/">` on any web page a learner visits) take a seat for
the 15 minutes until the idle culler freed it, and counted a pool kernel still starting as a learner. Here:

- A request without a ticket gets a first page without a kernel (`uu.server.shell`): its script asks for the
  real page. A browserless request (a `curl`, an `<img>` on another site, a link preview) never gets further,
  so it costs no kernel and holds nothing.
- A page handed out (its kernel id written into the HTML) is *pending*: it holds no seat. If its websocket
  has not connected within `connect_timeout` seconds its kernel is shut down (`reap`).
- A kernel whose page's websocket connected is *seated* until the kernel goes (unload beacon, culler, reload).
- The cap counts seats only. Pending pages never keep anyone out: there are at most twice the cap of them, and
  a new page beyond that shuts the oldest pending one down (`overflow`). Each address may hold at most
  `per_address` pages, pending or seated, so one machine cannot take the room (except this machine's own
  addresses: a reverse proxy's requests all come from 127.0.0.1).
- Each browser gets a token in a cookie (`COOKIE`); a page load with a token whose previous page still holds
  a kernel shuts that kernel down first, so a reload at full capacity gets its page (the old page's unload
  beacon arrives too late for the new page's check), and the other tab is told (`uu.server.kernels`).
- Kernels of the preheat pool are never handed out until a page takes them, so they are not seats.
- A seated kernel whose page has had no websocket open for `away_s` seconds (a page closed without its unload
  beacon: a crash, a lost network, a browser killed) is shut down (`abandoned`, by the reaper), so its seat
  is free within about a minute of the websocket's end instead of the 15 minutes of the idle culler.
  jupyter_server pings each websocket every 30 s and closes one that has not answered for 90 s.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

MAX_KERNELS_ENV = "UU_MAX_KERNELS"
DEFAULT_MAX_KERNELS = 40
PER_ADDRESS_ENV = "UU_MAX_PER_ADDRESS"
# a learner may reload, or open a second tab (which takes over the seat of the same browser, see COOKIE);
# a few pages per machine also covers two learners sharing one computer
DEFAULT_PER_ADDRESS = 4
CONNECT_TIMEOUT_ENV = "UU_CONNECT_TIMEOUT_S"
DEFAULT_CONNECT_TIMEOUT_S = 60.0
AWAY_ENV = "UU_SEAT_AWAY_S"
# a page without a websocket this long has gone (a page reconnects within seconds after a network blip; a
# laptop closed for longer comes back to "Your session stopped: reload to continue", its progress kept)
DEFAULT_AWAY_S = 60.0
# pages handed out and not yet connected, at most this many times the cap (a class arriving together is all
# pending for a few seconds; beyond it the oldest pending page's kernel is shut down, see Seats.overflow)
PENDING_PER_SEAT = 2
COOKIE = "uu_seat"
COOKIE_DAYS = 365
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def _env_int(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


def _env_float(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def _loopback(address: str) -> bool:
    """This machine: the teacher's own browser, or a reverse proxy on it (docs/teachers.md), through which every
    learner's page comes from 127.0.0.1, so a limit per address there would be a limit for the whole class."""
    import ipaddress

    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def max_kernels() -> int:
    return _env_int(MAX_KERNELS_ENV, DEFAULT_MAX_KERNELS)


def valid_token(value: str | None) -> str | None:
    """The cookie's token if it has the form `new_token` gives, else None (a forged cookie is just ignored)."""
    return value if value and _TOKEN.fullmatch(value) else None


def new_token() -> str:
    return secrets.token_urlsafe(16)


def kernel_id_in(html: str) -> str | None:
    """The kernel id a Voila page names (its `jupyter-config-data`), None if this chunk has none."""
    m = _KERNEL_ID.search(html)
    return m.group(1) if m else None


@dataclass
class Claim:
    address: str
    token: str | None
    since: float
    away_since: float | None = None  # when its page's last websocket closed (None: one is open)


class Seats:
    """The server's register of pages handed out (pending) and connected (seated), by kernel id."""

    def __init__(self, cap: int | None = None, per_address: int | None = None,
                 connect_timeout: float | None = None, clock: Callable[[], float] = time.monotonic,
                 away_s: float | None = None):
        self.cap = cap if cap is not None else max_kernels()
        self.per_address = per_address if per_address is not None else _env_int(PER_ADDRESS_ENV,
                                                                                  DEFAULT_PER_ADDRESS)
        self.connect_timeout = (connect_timeout if connect_timeout is not None
                                else _env_float(CONNECT_TIMEOUT_ENV, DEFAULT_CONNECT_TIMEOUT_S))
        self.away_s = away_s if away_s is not None else _env_float(AWAY_ENV, DEFAULT_AWAY_S)
        self.clock = clock
        self.pending: dict[str, Claim] = {}
        self.seated: dict[str, Claim] = {}
        self.reaped = 0  # kernels shut down because their page never connected

    # ---- events ----------------------------------------------------------------------------------------
    def handed_out(self, kernel_id: str, address: str, token: str | None) -> None:
        if kernel_id not in self.seated:
            self.pending[kernel_id] = Claim(address, token, self.clock())

    def connected(self, kernel_id: str, address: str) -> None:
        """A page's websocket connected to `kernel_id`: it takes a seat (a second connection changes nothing)."""
        if kernel_id in self.seated:
            return
        claim = self.pending.pop(kernel_id, None) or Claim(address, None, self.clock())
        self.seated[kernel_id] = claim

    def away(self, kernel_id: str) -> None:
        """The last websocket of `kernel_id`'s page closed."""
        claim = self.seated.get(kernel_id)
        if claim is not None and claim.away_since is None:
            claim.away_since = self.clock()

    def back(self, kernel_id: str) -> None:
        """A websocket of `kernel_id`'s page opens (a reconnection, or the first)."""
        claim = self.seated.get(kernel_id)
        if claim is not None:
            claim.away_since = None

    def forget(self, kernel_id: str) -> None:
        self.pending.pop(kernel_id, None)
        self.seated.pop(kernel_id, None)

    def keep_only(self, running: Iterable[str]) -> None:
        """Forget kernels that are gone (shut down by the beacon or the culler, or dead)."""
        alive = set(running)
        for register in (self.pending, self.seated):
            for kid in [k for k in register if k not in alive]:
                del register[kid]

    # ---- questions -------------------------------------------------------------------------------------
    def held_by_token(self, token: str | None) -> list[str]:
        """Kernels of the pages this browser loaded (to free on its next page load)."""
        if token is None:
            return []
        return [k for reg in (self.seated, self.pending) for k, c in reg.items() if c.token == token]

    def held_by_address(self, address: str, but: set[str] | frozenset[str] = frozenset()) -> int:
        return sum(c.address == address and k not in but for reg in (self.seated, self.pending)
                   for k, c in reg.items())

    def expired(self) -> list[str]:
        """Pending kernels whose page has not connected within the timeout."""
        now = self.clock()
        return [k for k, c in self.pending.items() if now - c.since >= self.connect_timeout]

    def abandoned(self) -> list[str]:
        """Seated kernels whose page has had no websocket for `away_s` seconds."""
        now = self.clock()
        return [k for k, c in self.seated.items() if c.away_since is not None and now - c.away_since >= self.away_s]

    def overflow(self) -> list[str]:
        """Pending kernels to shut down before one more page is handed out: the oldest, beyond the bound of
        `PENDING_PER_SEAT` times the cap. Pending pages never refuse anyone (a flood of pages that never
        connect would keep a class out); the bound keeps them from starting kernels without limit."""
        excess = len(self.pending) - (PENDING_PER_SEAT * self.cap - 1)
        if excess <= 0:
            return []
        oldest = sorted(self.pending, key=lambda k: self.pending[k].since)
        return oldest[:excess]

    def refusal(self, address: str, token: str | None = None) -> str | None:
        """Why a new page for `address` is refused now ("full" or "address"), None if it may have one. The
        pages `token`'s browser holds do not count: its new page replaces them."""
        own = set(self.held_by_token(token))
        if len(set(self.seated) - own) >= self.cap:
            return "full"
        if not _loopback(address) and self.held_by_address(address, own) >= self.per_address:
            return "address"
        return None

SEATS: Seats | None = None  # the server's register, made by `uu.server.app.serve` (None: seats not tracked)


def current() -> Seats:
    global SEATS
    if SEATS is None:
        SEATS = Seats()
    return SEATS
