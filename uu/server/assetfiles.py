"""Voila's page files served from memory (`uu app`).

A learner's first page fetches 77 files from Voila: its scripts (`/voila/static/`), the template's style
(`/voila/templates/lab/static/`) and the widget extensions (`/voila/labextensions/`). Voila serves each with
tornado's `StaticFileHandler` (jupyter_server's `FileFindHandler` for the extensions), which looks the file up
on disk, resolves symbolic links, reads it and, for the extensions, checks the login: 0.76-1.27 ms of the
server's one thread per file (`docs/page_files_cost.py`). 30 learners arriving together ask for 2,310 files:
about 2 s of the server's CPU, while everything else waited (the server spent 4-5.5 s in all on such a class).

`AssetHandler` answers those three paths instead, before Voila's own handlers (see `asset_handlers`). A file
is found in the same folders and in the same order as Voila finds it, read once, and kept with its headers;
every later request for it is one dictionary lookup and one write. What it answers, and how that differs:
- the same bytes and `Content-Type` (both handlers use `mimetypes`);
- `ETag` (SHA-1 of the bytes) and `Last-Modified`; `If-None-Match`, else `If-Modified-Since`, gives 304;
- `Cache-Control` as Voila sends it: a link carrying `?v=` (a versioned file) may be kept (a year here, ten
  years in tornado), none for the others (the browser then keeps a file for a while on its own), and the
  extensions' files must be checked again every time (`no-cache`);
- a `Range` header is ignored (the whole file is sent, which HTTP allows); browsers do not ask one for scripts;
- a path that leaves its folder (`..`, a link pointing outside), a hidden file, a folder, or a missing
  file: 404.
Files are read once per server and kept in its memory (a page's 77 are about 4.4 MB): a Voila upgrade takes
a restart, as it does anyway. `UU_FAST_FILES=0` turns this off, for A/B measurements or to rule it out.

What is kept is bounded, whatever visitors ask for (`KeptFiles`): a path is kept under one spelling only (its
empty segments dropped, so `a//b.js` and `a/b.js` are one entry; anything else that is not the plain path of
a real file is a 404 and kept nowhere), each real file's bytes once however many paths lead to it, and all
of it within `MAX_KEPT_TOTAL` (the least recently asked for goes first). Before, every spelling of a path
was a copy of its file: 1,300 GETs with 1 to 1,300 extra slashes took the server from 92 to 326 MiB.
"""

from __future__ import annotations

import email.utils
import hashlib
import mimetypes
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tornado import web

FAST_FILES_ENV = "UU_FAST_FILES"
YEAR_S = 365 * 24 * 3600
# a page's 77 files are about 4.4 MB in all (the largest under 1 MB); a file larger than this is served, not kept
MAX_KEPT_BYTES = 8 * 1024 * 1024
# all that the server keeps of its page files: the page's 77 files (4.4 MB) several times over
MAX_KEPT_TOTAL = 32 * 1024 * 1024


def enabled() -> bool:
    return os.environ.get(FAST_FILES_ENV, "1").strip() != "0"


def find_file(roots: Sequence[str | Path], relpath: str) -> Path | None:
    """The first regular file at `relpath` under one of `roots`, None if none has it, the path leaves its root
    (after following links) or names a hidden file or folder (as jupyter_server refuses them)."""
    if "\x00" in relpath or os.path.isabs(relpath) or any(part.startswith(".") for part in relpath.split("/")):
        return None
    for root in roots:
        base = Path(root).resolve()
        candidate = (base / relpath).resolve()
        if candidate.is_relative_to(base) and candidate.is_file():
            return candidate
    return None


def content_type(path: Path) -> str:
    """As tornado's `StaticFileHandler.get_content_type`: a compressed file is not named by what it holds."""
    mime, encoding = mimetypes.guess_type(str(path))
    if encoding == "gzip":
        return "application/gzip"
    if encoding is not None or mime is None:
        return "application/octet-stream"
    return mime


@dataclass(frozen=True)
class KeptFile:
    body: bytes
    etag: str
    modified: float  # seconds since the epoch, whole
    last_modified: str
    content_type: str


def keep(path: Path) -> KeptFile:
    body = path.read_bytes()
    modified = float(int(path.stat().st_mtime))
    return KeptFile(body=body, etag=f'"{hashlib.sha1(body).hexdigest()}"', modified=modified,
                    last_modified=email.utils.formatdate(modified, usegmt=True), content_type=content_type(path))


def plain_path(path: str) -> str:
    """A URL path's one spelling for the cache: without empty segments (`a//b.js`, `/a/b.js/` are `a/b.js`).
    Dot segments are not resolved here: `find_file` refuses them."""
    return "/".join(part for part in path.split("/") if part)


class KeptFiles:
    """The page files a server keeps: by plain path (`plain_path`), each real file's bytes once, at most
    `max_bytes` in all (least recently used first out). A file larger than `MAX_KEPT_BYTES` is never kept."""

    def __init__(self, max_bytes: int = MAX_KEPT_TOTAL):
        self.max_bytes = max_bytes
        self._by_path: OrderedDict[str, Path] = OrderedDict()
        self._by_file: dict[Path, KeptFile] = {}
        self.total = 0  # bytes of the files kept

    def __len__(self) -> int:
        return len(self._by_path)

    def get(self, path: str) -> KeptFile | None:
        real = self._by_path.get(path)
        if real is None:
            return None
        self._by_path.move_to_end(path)
        return self._by_file[real]

    def put(self, path: str, real: Path, got: KeptFile) -> KeptFile:
        """Keep `got` (the bytes of `real`, found at `path`) if it fits; returns the copy kept, if the
        same file was kept already under another path."""
        if len(got.body) > MAX_KEPT_BYTES or len(got.body) > self.max_bytes:
            return got
        known = self._by_file.get(real)
        if known is None:
            self._by_file[real] = known = got
            self.total += len(got.body)
        self._by_path[path] = real
        self._by_path.move_to_end(path)
        while self.total > self.max_bytes and self._by_path:
            self._drop(next(iter(self._by_path)))
        return known

    def _drop(self, path: str) -> None:
        real = self._by_path.pop(path)
        if real not in self._by_path.values():
            self.total -= len(self._by_file.pop(real).body)


class AssetHandler(web.RequestHandler):
    """One of Voila's three folders of page files: `find` gives a URL path's file (None: 404)."""

    def initialize(self, find: Callable[[str], Path | None], kept: KeptFiles, always_check: bool = False,
                   folder: str = "") -> None:
        self.find = find
        self.kept = kept
        self.always_check = always_check
        self.folder = folder  # this route's name in `kept`, which several routes may share

    def _file(self, path: str) -> KeptFile:
        path = plain_path(path)
        key = f"{self.folder}/{path}"
        got = self.kept.get(key)
        if got is None:
            found = self.find(path)
            if found is None:
                raise web.HTTPError(404)
            got = self.kept.put(key, found, keep(found))
        return got

    def _not_modified(self, got: KeptFile) -> bool:
        asked = self.request.headers.get("If-None-Match")
        if asked:
            return got.etag in {tag.strip().removeprefix("W/") for tag in asked.split(",")} or asked.strip() == "*"
        since = self.request.headers.get("If-Modified-Since")
        if since:
            try:
                return email.utils.parsedate_to_datetime(since).timestamp() >= got.modified
            except (TypeError, ValueError, IndexError, OverflowError):
                return False
        return False

    def get(self, path: str, include_body: bool = True) -> None:
        got = self._file(path)
        self.set_header("Etag", got.etag)
        self.set_header("Last-Modified", got.last_modified)
        self.set_header("Content-Type", got.content_type)
        self.set_header("X-Content-Type-Options", "nosniff")
        if self.always_check:
            self.set_header("Cache-Control", "no-cache")
        elif "v" in self.request.arguments:
            self.set_header("Cache-Control", f"max-age={YEAR_S}")
        if self._not_modified(got):
            self.set_status(304)
            return
        self.set_header("Content-Length", len(got.body))
        if include_body:
            self.write(got.body)

    def head(self, path: str) -> None:
        self.get(path, include_body=False)

    def compute_etag(self) -> str | None:
        return None  # set above from the kept file; tornado would hash every response again


def asset_handlers(app: Any) -> list[tuple[str, type, dict[str, Any]]]:
    """Routes for a Voila app's page files, to put before its own handlers (`Voila.init_handlers`). Each folder
    is searched as Voila searches it: `app.static_paths`; the template's static folders
    (`voila.paths.collect_static_paths`); `app.labextensions_path`."""
    from jupyter_server.utils import url_path_join
    from voila.paths import collect_static_paths

    static_roots = list(app.static_paths)
    extension_roots = list(app.labextensions_path)

    def static(path: str) -> Path | None:
        return find_file(static_roots, path)

    def template(path: str) -> Path | None:
        name, _, rest = path.partition("/")
        folder, _, relpath = rest.partition("/")
        if folder != "static" or not name or name.startswith("."):  # a template's name, never a way up
            return None
        return find_file(collect_static_paths(["voila", "nbconvert"], name), relpath)

    def extension(path: str) -> Path | None:
        return find_file(extension_roots, path)

    kept = KeptFiles()  # one bound for the three folders

    def route(folder: str, find: Callable[[str], Path | None], always_check: bool = False) -> tuple:
        return (url_path_join(app.server_url, f"/voila/{folder}/(.*)"), AssetHandler,
                {"find": find, "kept": kept, "always_check": always_check, "folder": folder})

    return [route("static", static), route("templates", template),
            route("labextensions", extension, always_check=True)]
