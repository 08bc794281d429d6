"""The wire of a Voila page, for the emulated learner (`uu.benchmarks.learner`): jupyter_server's v1 websocket
encoding, and reading the kernel id, the widget views and the static files out of the page's HTML."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Sequence
from typing import Any

PROTOCOL = "v1.kernel.websocket.jupyter.org"
WIDGET_TARGET = "jupyter.widget"
CONTROL_TARGET = "jupyter.widget.control"
BROWSER_CONNECTIONS = 6       # a browser's parallel connections to one host (HTTP/1.1)
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
OUTPUT_MIME = "application/vnd.voila.cell-output+json"  # Voila 0.5 puts each cell output in one such script
_OUTPUT = re.compile(r'<script type="' + re.escape(OUTPUT_MIME) + r'">(.*?)</script>', re.S)
_HEAD_LINK = re.compile(r"""<(?:script|link)[^>]+(?:src|href)=["'](/[^"']+)["']""")
REF = "IPY_MODEL_"


class LearnerError(RuntimeError):
    """The emulated page could not do what a page does (server refused, timeout, unexpected answer)."""


# ---- the v1 websocket encoding (jupyter_server's `v1.kernel.websocket.jupyter.org`) ----------------------
def encode_v1(channel: str, parts: Sequence[bytes]) -> bytes:
    """One binary frame: n (8 bytes little-endian), then n offsets (8 bytes each) into the frame, then the
    channel name and the parts (header, parent header, metadata, content, buffers...). The offsets mark
    where the channel and every part start, the last one where the frame ends."""
    chan = channel.encode()
    pieces = [chan, *parts]
    n = len(pieces) + 1
    offsets = [8 * (n + 1)]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    head = n.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(pieces)


def decode_v1(frame: bytes) -> tuple[str, list[bytes]]:
    """The inverse of `encode_v1`: (channel, [header, parent header, metadata, content, buffers...])."""
    n = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1): 8 * (i + 2)], "little") for i in range(n)]
    channel = frame[offsets[0]:offsets[1]].decode()
    return channel, [frame[offsets[i]:offsets[i + 1]] for i in range(1, n - 1)]


def message_detail(content: dict[str, Any]) -> str:
    """What distinguishes a widget message beyond its type: a comm_open's target, a comm_msg's method (and a
    custom message's event); "" for others. Used to compare this learner's messages with a page's."""
    if "target_name" in content:
        return str(content["target_name"])
    data = content.get("data")
    if isinstance(data, dict) and "method" in data:
        inner = data.get("content")
        event = (inner.get("event") or inner.get("type")) if isinstance(inner, dict) else None
        return f"{data['method']}:{event}" if event else str(data["method"])
    return ""


def page_views(html: str) -> list[str]:
    """Model ids of the widget views in the page's cell outputs (`"model_id"` of their
    application/vnd.jupyter.widget-view+json data), in page order: what the page draws."""
    out = []
    for text in _OUTPUT.findall(html):
        try:
            view = json.loads(text).get("data", {}).get(VIEW_MIME) or {}
        except ValueError:
            continue
        if view.get("model_id"):
            out.append(str(view["model_id"]))
    return out


def page_assets(html: str) -> list[str]:
    """The same-host files the HTML itself names (scripts and stylesheets): what a learner without a recorded
    asset list fetches. The browser then loads many more (webpack chunks named inside those scripts)."""
    return list(dict.fromkeys(u for u in _HEAD_LINK.findall(html) if not u.startswith("//")))


# ---- HTTP as a browser fetches a page's files ------------------------------------------------------------
async def fetch_keepalive(host: str, port: int, paths: Sequence[str], connections: int = BROWSER_CONNECTIONS,
                          timeout: float = 120.0) -> dict[str, bytes | BaseException]:
    """GET every path (absolute, e.g. "/voila/static/voila.js") over at most `connections` persistent HTTP/1.1
    connections, each sending its next request once the previous answer is in, as a browser does. Returns
    path -> body, or the error (an HTTP status other than 200 is a LearnerError)."""
    queue = list(dict.fromkeys(paths))
    out: dict[str, bytes | BaseException] = {}

    async def worker() -> None:
        reader: asyncio.StreamReader | None = None
        writer: asyncio.StreamWriter | None = None
        try:
            while queue:
                path = queue.pop(0)
                try:
                    if writer is None:
                        reader, writer = await asyncio.open_connection(host, port)
                    assert reader is not None
                    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: keep-alive\r\n"
                                 "Accept-Encoding: identity\r\n\r\n".encode("latin-1"))
                    status, headers, body = await _read_response(reader)
                    out[path] = body if status == 200 else LearnerError(f"GET {path}: HTTP {status}")
                    if headers.get("connection", "").lower() == "close":
                        await _close(writer)
                        reader = writer = None
                except (OSError, asyncio.IncompleteReadError, ValueError) as e:
                    out[path] = e
                    if writer is not None:
                        await _close(writer)
                    reader = writer = None
        finally:
            if writer is not None:
                await _close(writer)

    workers = [worker() for _ in range(max(1, min(connections, len(queue))))]
    await asyncio.wait_for(asyncio.gather(*workers), timeout)
    return out


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response: status, headers (lower-case names), body (Content-Length or chunked)."""
    status_line = (await reader.readline()).decode("latin-1")
    if not status_line.startswith("HTTP/1."):
        raise ValueError(f"not an HTTP response: {status_line[:40]!r}")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readline()
        while await reader.readline() not in (b"\r\n", b"\n", b""):  # trailers
            pass
        return status, headers, b"".join(chunks)
    if status in (204, 304) or 100 <= status < 200:
        return status, headers, b""
    headers["connection"] = "close"  # the body runs to the end of the connection
    return status, headers, await reader.read()
