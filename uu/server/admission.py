"""Seats in the running server: the check before each page load (the first page without a kernel for a request
without a ticket, `uu.server.shell`; the browser's seat token; freeing that browser's previous pages and telling
their tabs; the cap) and the reaper of kernels whose page never connected. The page handler patch
(`uu.server.patches.patch_page_handler_cap`) calls `seat_check`; `uu.server.seats` keeps the register."""

from __future__ import annotations

import logging
from typing import Any

from uu.server import seats

log = logging.getLogger(__name__)

_REAPER_ATTR = "_uu_seat_reaper"


async def shutdown_kernel(kernel_manager: Any, kernel_id: str, why: str) -> None:
    from jupyter_core.utils import ensure_async

    seats.current().forget(kernel_id)
    if kernel_id not in set(kernel_manager.list_kernel_ids()):
        from uu.server.kernels import forget

        forget(kernel_id)  # gone already: nothing will connect to it
        return
    # a warning: the teacher's console shows which kernels went and why (the root logger's default level)
    log.warning("uu app: shutting down kernel %s (%s)", kernel_id, why)
    try:
        await ensure_async(kernel_manager.shutdown_kernel(kernel_id))
    except Exception as e:  # gone meanwhile
        log.warning("uu app: could not shut down kernel %s: %s", kernel_id, e)


def start_reaper(kernel_manager: Any) -> None:
    """Once per kernel manager: every few seconds, forget kernels that are gone and shut down pending ones whose
    page never connected (`uu.server.seats.Seats.expired`) and seated ones whose page went away
    (`uu.server.seats.Seats.abandoned`)."""
    if getattr(kernel_manager, _REAPER_ATTR, None) is not None:
        return
    import asyncio

    from tornado.ioloop import PeriodicCallback

    register = seats.current()

    async def reap() -> None:
        register.keep_only(kernel_manager.list_kernel_ids())
        expired = register.expired()
        abandoned = register.abandoned()
        register.reaped += len(expired) + len(abandoned)
        away = f"its page has had no connection for {register.away_s:g} s"
        await asyncio.gather(*[shutdown_kernel(kernel_manager, k, "its page never connected") for k in expired],
                             *[shutdown_kernel(kernel_manager, k, away) for k in abandoned])

    interval_ms = max(200.0, min(5000.0, min(register.connect_timeout, register.away_s) * 1000 / 4))
    reaper = PeriodicCallback(reap, interval_ms)
    setattr(kernel_manager, _REAPER_ATTR, reaper)
    reaper.start()


def _finish_with(handler: Any, status: int, page: str) -> None:
    import tornado.web

    handler.set_status(status)
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(page)
    raise tornado.web.Finish()


async def seat_check(handler: Any) -> None:
    """Before a page load. A request without a valid ticket (`uu.server.shell`) gets the first page, which costs
    no kernel, and so does any browserless request; with one: free the kernels of this browser's previous pages
    (their tabs are told, `uu.server.kernels`), make room among the pages waiting to connect, then check the cap
    (`refuse_when_full`, raises Finish). An address longer than the app reads gets a page saying so."""
    from uu.server import kernels, shell
    from uu.server.voila_config import refuse_when_full

    register = seats.current()
    start_reaper(handler.kernel_manager)
    home = handler.base_url or "/"
    url = handler.request.full_url()
    lang = shell.page_language(url if not shell.link_too_long(url) else None,
                               handler.request.headers.get("Accept-Language"))
    if lang != "en":
        home = f"{home}?lang={lang}"  # the way home keeps the visitor's language
    if shell.link_too_long(url):
        _finish_with(handler, 414, shell.long_link_page(home, lang))
    register.keep_only(handler.kernel_manager.list_kernel_ids())  # seats freed by beacons since the last reap
    token = seats.valid_token(handler.get_cookie(seats.COOKIE))
    ticket = handler.get_cookie(shell.TICKET_COOKIE)
    if not shell.current().redeem(token, ticket):
        if token is None:
            token = seats.new_token()
            # Lax: sent when the learner opens or reloads the tutor, not with another site's <img> or fetch.
            # Kept for a year: it is also the learner's row in the class view (a browser closed between two
            # lessons comes back to the same row)
            handler.set_cookie(seats.COOKIE, token, httponly=True, samesite="Lax", path="/",
                               expires_days=seats.COOKIE_DAYS)
        if ticket:
            handler.clear_cookie(shell.TICKET_COOKIE, path="/")
        refuse_when_full(handler, token=token)  # a full class is said at once, before the reload
        _finish_with(handler, 200, shell.first_page(shell.current().issue(token), home, lang))
    handler.clear_cookie(shell.TICKET_COOKIE, path="/")  # taken: the next reload asks for a new one
    seat_token: str = token or ""  # a redeemed ticket names its token
    for old in register.held_by_token(token):
        kernels.tell_pages(old, kernels.REPLACED)
        await shutdown_kernel(handler.kernel_manager, old, "the same browser opened the tutor again")
    register.keep_only(handler.kernel_manager.list_kernel_ids())
    for old in register.overflow():
        await shutdown_kernel(handler.kernel_manager, old, "too many pages waiting to connect")
    refuse_when_full(handler, token=token)
    address = handler.request.remote_ip or "?"
    write = handler.write

    def write_noting_kernel(chunk: Any) -> Any:
        # the kernel id this page hands out is in its head (jupyter-config-data): note it once, as pending
        if isinstance(chunk, str) and not getattr(handler, "_uu_kernel_noted", False):
            kernel_id = seats.kernel_id_in(chunk)
            if kernel_id is not None:
                handler._uu_kernel_noted = True
                register.handed_out(kernel_id, address, seat_token)
                bind_learner(kernel_id, seat_token)
        return write(chunk)

    handler.write = write_noting_kernel


def bind_learner(kernel_id: str, token: str) -> None:
    """With the class view on: the kernel's learner row is the one of this browser's seat token
    (`uu.server.classroom.bind_kernel`), never an id the page claims."""
    import os

    from uu.server.classroom import CLASS_DB_ENV, bind_kernel

    path = os.environ.get(CLASS_DB_ENV, "").strip()
    if path:
        bind_kernel(path, kernel_id, token)
