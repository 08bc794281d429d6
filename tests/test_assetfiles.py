"""Voila's page files served from memory (uu/server/assetfiles.py): the same answers as a static file server
for the files it has, nothing outside its folders, and each file read once."""

from __future__ import annotations

import asyncio
import email.utils
import http.client
import os
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port
from tornado.web import Application

from uu.server.assetfiles import AssetHandler, KeptFiles, find_file, keep


def _roots(tmp: Path) -> tuple[Path, Path]:
    first, second = tmp / "first", tmp / "second"
    (first / "sub").mkdir(parents=True)
    second.mkdir()
    (first / "app.js").write_text("console.log('first');")
    (second / "app.js").write_text("console.log('second');")  # hidden by the first root's
    (second / "only.css").write_text("body{}")
    (first / "sub" / "chunk.js").write_text("x")
    (tmp / "secret.txt").write_text("not served")
    (first / "link.txt").symlink_to(tmp / "secret.txt")
    (first / ".hidden.js").write_text("hidden")
    return first, second


def test_find_file_takes_the_first_root_and_never_leaves_it(tmp_path):
    first, second = _roots(tmp_path)
    roots = [first, second]
    assert find_file(roots, "app.js") == (first / "app.js").resolve()
    assert find_file(roots, "only.css") == (second / "only.css").resolve()
    assert find_file(roots, "sub/chunk.js") == (first / "sub" / "chunk.js").resolve()
    for bad in ["../secret.txt", "sub/../../secret.txt", "link.txt", str(tmp_path / "secret.txt"), "sub",
                "missing.js", "app.js\x00.png", "", ".hidden.js", "sub/./chunk.js"]:
        assert find_file(roots, bad) is None, bad


class Served:
    """An Application with two AssetHandler routes, served from a thread with its own event loop (the browser
    tests of the same worker keep one running in the main thread)."""

    def __init__(self, tmp: Path):
        self.first, self.second = _roots(tmp)
        roots = [self.first, self.second]
        self.kept = KeptFiles()
        app = Application([
            (r"/static/(.*)", AssetHandler, {"find": lambda p: find_file(roots, p), "kept": self.kept,
                                             "folder": "static"}),
            (r"/ext/(.*)", AssetHandler, {"find": lambda p: find_file(roots, p), "kept": self.kept,
                                          "always_check": True, "folder": "ext"}),
        ])
        sock, self.port = bind_unused_port()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            HTTPServer(app).add_sockets([sock])
            self.loop.call_soon(started.set)
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(10)

    def fetch(self, path: str, method: str = "GET", headers: dict[str, str] | None = None
              ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request(method, path, headers=headers or {})  # sent as written: no normalization of dot segments
        resp = conn.getresponse()
        body = resp.read()
        conn.close()
        return resp.status, dict(resp.getheaders()), body

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path)
    yield server
    server.stop()


def test_a_file_is_served_with_its_type_and_validators(served):
    code, headers, body = served.fetch("/static/app.js")
    assert code == 200 and body == b"console.log('first');"
    assert headers["Content-Type"] in ("text/javascript", "application/javascript")
    assert headers["Etag"].startswith('"') and headers["Last-Modified"]
    assert "Cache-Control" not in headers  # no ?v=: the browser decides, as with Voila's handler
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert served.fetch("/static/only.css")[1]["Content-Type"] == "text/css"


def test_a_versioned_link_may_be_kept_except_an_extensions_file(served):
    assert served.fetch("/static/app.js?v=abc")[1]["Cache-Control"].startswith("max-age=")
    assert served.fetch("/ext/app.js?v=abc")[1]["Cache-Control"] == "no-cache"
    assert served.fetch("/ext/app.js")[1]["Cache-Control"] == "no-cache"


def test_a_file_is_read_once(served):
    assert served.fetch("/static/app.js")[2] == b"console.log('first');"
    (served.first / "app.js").write_text("changed")
    assert served.fetch("/static/app.js")[2] == b"console.log('first');"


def test_an_unchanged_file_answers_304(served):
    _code, headers, _body = served.fetch("/static/app.js")
    etag, modified = headers["Etag"], headers["Last-Modified"]
    assert served.fetch("/static/app.js", headers={"If-None-Match": etag})[0] == 304
    assert served.fetch("/static/app.js", headers={"If-None-Match": f'"other", W/{etag}'})[0] == 304
    assert served.fetch("/static/app.js", headers={"If-None-Match": '"other"'})[0] == 200
    assert served.fetch("/static/app.js", headers={"If-Modified-Since": modified})[0] == 304
    older = email.utils.formatdate(os.path.getmtime(served.first / "app.js") - 3600, usegmt=True)
    assert served.fetch("/static/app.js", headers={"If-Modified-Since": older})[0] == 200
    assert served.fetch("/static/app.js", headers={"If-Modified-Since": "yesterday"})[0] == 200


def test_head_has_the_length_and_no_body(served):
    code, headers, body = served.fetch("/static/only.css", method="HEAD")
    assert code == 200 and body == b"" and headers["Content-Length"] == "6"


def test_nothing_outside_the_folders_and_no_folder_is_served(served):
    for path in ["/static/../secret.txt", "/static/..%2fsecret.txt", "/static/sub%2f..%2f..%2fsecret.txt",
                 "/static/link.txt", "/static/sub", "/static/sub/", "/static/missing.js", "/static/",
                 "/static/%2e%2e/secret.txt", "/static/.hidden.js"]:
        code, _headers, body = served.fetch(path)
        assert code == 404, (path, code)
        assert b"not served" not in body and b"hidden" not in body and b"Traceback" not in body, path


def test_every_spelling_of_a_path_is_one_kept_file(served):
    """Issue #39: each spelling of a path (extra slashes anywhere) was a copy of its file in the server's memory."""
    spellings = ["/static/" + "/" * n + "sub/" + "/" * (n % 7) + "chunk.js" + "/" * (n % 3) for n in range(300)]
    for path in spellings:
        code, _headers, body = served.fetch(path)
        assert code == 200 and body == b"x", path
    served.fetch("/static/app.js")
    served.fetch("/ext//app.js")  # the same file through another folder: another path, the same bytes
    assert len(served.kept) == 3 and served.kept.total == len(b"x") + len(b"console.log('first');")
    for path in ["/static/sub/./chunk.js", "/static/sub/../sub/chunk.js", "/static//sub//", "/static/nothing.js"]:
        assert served.fetch(path)[0] == 404, path
    assert len(served.kept) == 3


def test_what_is_kept_stays_within_its_bound(tmp_path):
    files = []
    for n in range(10):
        f = tmp_path / f"f{n}.js"
        f.write_bytes(bytes([65 + n]) * 1000)
        files.append(f)
    kept = KeptFiles(max_bytes=3500)
    for n, f in enumerate(files):
        assert kept.put(f"static/f{n}.js", f, keep(f)).body == f.read_bytes()
        assert kept.total <= 3500
    assert len(kept) == 3 and kept.get("static/f9.js") is not None and kept.get("static/f0.js") is None
    kept.get("static/f7.js")  # asked for again: the last to go
    kept.put("static/again.js", files[0], keep(files[0]))
    assert kept.get("static/f7.js") is not None and kept.get("static/f8.js") is None
    big = tmp_path / "big.js"
    big.write_bytes(b"b" * 4000)
    assert kept.put("static/big.js", big, keep(big)).body == b"b" * 4000  # served, not kept
    assert kept.get("static/big.js") is None and kept.total <= 3500


def test_the_apps_files_are_voilas_files_byte_for_byte(voila_url, tmp_path, monkeypatch):
    """Every file the page and its scripts load, from `uu app` and from `uu app` with UU_FAST_FILES=0 (Voila's
    own handlers): the same status, bytes, Content-Type and kind of Cache-Control."""
    from uu.benchmarks.voila_wire import page_assets
    from uu.server.appserver import AppServer, open_page

    status, page, _token = open_page(voila_url)
    assert status == 200
    paths = [p for p in page_assets(page) if p.startswith("/voila/")]
    share = Path(sys.prefix) / "share" / "jupyter"
    voila_static = sorted((share / "voila" / "templates" / "base" / "static").glob("*.js"))  # voila.js, chunks
    paths += [f"/voila/static/{f.name}" for f in voila_static]
    for ext in ("@jupyter-widgets/jupyterlab-manager", "anywidget", "@voila-dashboards/widgets-manager8"):
        folder = share / "voila" / "labextensions" / ext
        if not folder.is_dir():
            folder = share / "labextensions" / ext
        paths += [f"/voila/labextensions/{ext}/{f.relative_to(folder).as_posix()}"
                  for f in sorted(folder.rglob("*.js"))]
    paths += ["/voila/static/no-such-file.js", "/voila/labextensions/no-such/remoteEntry.js"]
    assert len(paths) > 60, paths

    def etag(base: str) -> str:
        with urllib.request.urlopen(base.rstrip("/") + "/voila/static/voila.js", timeout=60) as resp:
            return resp.headers.get("Etag") or ""

    def answers(base: str) -> dict[str, tuple[int, bytes, str, str]]:
        out = {}
        for path in paths:
            try:
                with urllib.request.urlopen(base.rstrip("/") + path, timeout=60) as resp:
                    cache = (resp.headers.get("Cache-Control") or "").split("=")[0]  # the kind, not the age
                    out[path] = (resp.status, resp.read(), resp.headers.get("Content-Type"), cache)
            except urllib.error.HTTPError as e:
                out[path] = (e.code, b"", "", "")
        return out

    ours = answers(voila_url)
    assert len(etag(voila_url)) == 42  # ours: SHA-1 (tornado's own handler sends SHA-512)
    monkeypatch.setenv("UU_FAST_FILES", "0")
    with AppServer(tmp_path, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        voilas = answers(server.url)
        assert len(etag(server.url)) != 42  # this one is Voila's handler
    assert sum(answer[0] == 200 for answer in ours.values()) > 60
    for path in paths:
        if "no-such" in path:  # Voila's handler answers 403 for some missing files; a missing file is a 404 here
            assert ours[path][0] == 404 and voilas[path][0] in (403, 404), path
        else:
            assert ours[path] == voilas[path], path
