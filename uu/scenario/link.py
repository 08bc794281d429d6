"""A position as a link: the sandbox's "Link to this position" (`?position=v1.<code>` on the app's address).

The code is the position's scenario YAML (what the sandbox exports, `uu.scenario.export`), compressed with
zlib and written in base64url without padding, after a version prefix (`v1.`) so that a later form can be
told apart. A link is read as a paste is: size-limited first (the code, then the decompressed text, so a
small code cannot expand into gigabytes), then through the hardened YAML reader (`uu.yamlfile`) and the
scenario format. Every failure is a `LinkError` whose message says what was wrong in plain words.

    code = position_code(yaml_text)           # "v1.eJy..."
    text = position_text(code)                # the same YAML text again, or LinkError
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import unicodedata
import zlib
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

from uu.i18n import _
from uu.textcheck import REFUSED_CATEGORIES
from uu.yamlfile import MAX_BYTES

__all__ = ["LinkError", "MAX_CODE_CHARS", "PREFIX", "link_query", "page_base", "position_code", "position_link",
           "position_text", "shown_text"]

PREFIX = "v1."
# a shipped scenario's position compresses to about 1 kB of code; browsers and servers take addresses of 8 kB
MAX_CODE_CHARS = 6000
_CODE = re.compile(r"[A-Za-z0-9_-]*")


class LinkError(ValueError):
    """A link that cannot be opened; the message says why."""


def position_code(text: str) -> str:
    data = zlib.compress(text.encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def position_text(code: str) -> str:
    """The scenario YAML in a link's code. Raises `LinkError` for a code that is too long, of another
    version, not base64url, not zlib, too large once expanded, or not UTF-8 text."""
    code = code.strip()
    if len(code) > MAX_CODE_CHARS:
        raise LinkError(_("The position in this link is too long (at most {count} characters).")
                        .format(count=f"{MAX_CODE_CHARS:,}"))
    if not code.startswith(PREFIX):
        raise LinkError(_("This link's position is not one this tutor can read: it should start with "
                          "'{prefix}'. Ask for a new link from the sandbox's \"Link to this position\".")
                        .format(prefix=PREFIX))
    body = code[len(PREFIX):]
    if not body or not _CODE.fullmatch(body):
        raise LinkError(_("This link's position is damaged: it may only hold letters, digits, '-' and '_' "
                          "after 'v1.'. Was the link cut or changed when it was copied?"))
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        z = zlib.decompressobj()
        raw = z.decompress(data, MAX_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise LinkError(_("This link's position is damaged and cannot be read. Was the link cut or changed "
                          "when it was copied?")) from None
    if len(raw) > MAX_BYTES or z.unconsumed_tail:
        raise LinkError(_("The position in this link is too large once unpacked (at most {size} KB).")
                        .format(size=MAX_BYTES // 1024))
    if not z.eof:
        raise LinkError(_("This link's position is cut short. Was the whole link copied?"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LinkError(_("This link's position is not text and cannot be read.")) from None


def page_base(href: str) -> str:
    """The app's address without its query or fragment: the base a link is built on."""
    parts = urlsplit(href)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def position_link(href: str, text: str) -> str:
    """A link that opens the app at `href` (the page's address) in the sandbox at this position. On Binder
    (BinderHub sets BINDER_LAUNCH_HOST and BINDER_REQUEST) the page's address lasts as long as the session, so
    the link is the repository's launch link, with the app and the position in its `urlpath`."""
    query = f"position={position_code(text)}"
    path = urlsplit(href).path
    host, request = os.environ.get("BINDER_LAUNCH_HOST", ""), os.environ.get("BINDER_REQUEST", "")
    if host and request and "voila/render/" in path:
        urlpath = path[path.index("voila/render/"):] + "?" + query
        return f"{host.rstrip('/')}/{request.strip('/')}?urlpath={quote(urlpath, safe='/')}"
    return f"{page_base(href)}?{query}"


def shown_text(text: str) -> str:
    """Text from a link, fit to be shown back: without control and format characters (the direction
    overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E/U+200F, zero-width characters),
    which would reorder or hide the message around it."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in REFUSED_CATEGORIES)


def link_query(href: str) -> dict[str, str]:
    """The first value of each of the page's query parameters that links use (`lesson`, `position`, `table`), as
    `shown_text`. An empty one is kept (`?lesson=` is a bad link, which gets a message); the page's address is
    at most 16,384 characters (longer ones are refused before the app starts, uu/server/shell.py)."""
    try:
        query = parse_qs(urlsplit(href).query, keep_blank_values=True, max_num_fields=10_000)
    except ValueError:
        return {}
    return {k: shown_text(v[0]) for k, v in query.items() if k in ("lesson", "position", "table") and v}
