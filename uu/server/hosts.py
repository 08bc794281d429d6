"""Which `Host` a request to `uu app` may name (against DNS rebinding).

A web page on any site can make a learner's browser send requests to a name it controls, then point that name
at 127.0.0.1 (DNS rebinding): the browser then treats the tutor as part of that site, and a websocket whose
Origin matches its own forged Host was let in. So every request must name the app as it is served:

- an IP address (rebinding needs a name: an address names this machine, or the request would not be here);
- `localhost` and any `*.localhost` name (browsers resolve those to this machine themselves);
- when the app listens beyond this machine (`uu app --ip 0.0.0.0` for a class), this machine's own name, as
  the system knows it (`socket.gethostname()`, and with `.local` for the names a school network announces);
- the names the teacher lists (`uu app --allow-host NAME`, or `UU_ALLOWED_HOSTS=name1,name2`), e.g. the
  name a reverse proxy serves the tutor as.

Anything else gets a 403 page saying which option adds a name. jupyter_server's own websocket check then
admits only an Origin equal to the Host, so a websocket's Origin is one of these hosts too.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable
from typing import Any

from tornado import httputil, web
from tornado.routing import Matcher

ALLOWED_HOSTS_ENV = "UU_ALLOWED_HOSTS"
LOOPBACK_LISTEN = ("127.0.0.1", "::1", "localhost")

__all__ = ["ALLOWED_HOSTS_ENV", "AllowedHost", "HostPolicy", "WrongHostHandler", "host_policy"]


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


class HostPolicy:
    """The names (besides IP addresses and localhost) a request's Host may be, lowercased, without port."""

    def __init__(self, names: Iterable[str] = ()):
        self.names = frozenset(n.strip().lower().rstrip(".") for n in names if n.strip())

    def allows(self, host: str) -> bool:
        """`host`: the request's host name (tornado's `request.host_name`: lowercase, without the port)."""
        host = host.strip().lower().rstrip(".")
        if not host:
            return False
        if _is_address(host) or host == "localhost" or host.endswith(".localhost"):
            return True
        return host in self.names


def host_policy(ip: str, extra: Iterable[str] = ()) -> HostPolicy:
    """The policy for an app listening on `ip` with the teacher's names `extra` (and `UU_ALLOWED_HOSTS`)."""
    names = [*extra, *os.environ.get(ALLOWED_HOSTS_ENV, "").split(",")]
    if ip not in LOOPBACK_LISTEN:
        machine = socket.gethostname()
        names += [machine, f"{machine}.local"]
        if ip and not _is_address(ip):
            names.append(ip)  # `--ip tutor.school.org`: the name it listens as
    return HostPolicy(names)


class AllowedHost(Matcher):
    """A tornado routing rule's matcher: the request names an allowed host."""

    def __init__(self, policy: HostPolicy):
        self.policy = policy

    def match(self, request: httputil.HTTPServerRequest) -> dict[str, Any] | None:
        return {} if self.policy.allows(request.host_name) else None


class WrongHostHandler(web.RequestHandler):
    """Any request that names another host: 403, in words for whoever set the tutor up."""

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        host = self.request.host_name[:100]
        self.finish(f"This tutor does not answer to the name {host!r}. It answers to its IP address and to "
                    "localhost; to reach it by another name, start it with: uu app --allow-host NAME\n")

    def check_xsrf_cookie(self) -> None:  # answers every method the same, with nothing done
        return None
