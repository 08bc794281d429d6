"""The widgets' messages between Python, in the static site's web worker, and the page's widget manager.

In Jupyter a kernel carries ipywidgets' messages (comms) between Python and the browser. The static site has no
kernel: Python runs in a web worker of the page (uu/lite/worker.mjs) and ipywidgets' own manager for pages
without Jupyter draws the widgets in the page (uu/lite/page.js). `install()` registers `PageComm` as the `comm`
package's implementation (`comm.create_comm`, the hook that package keeps for a kernel's own), so every widget's
messages go to the page through the worker's `uu_page` module, and `receive` hands the page's back to the widget
they are for.

Messages travel as JSON text made here, not through Pyodide's conversion of Python objects, which turns a None
into JavaScript's `undefined`, a key JSON then drops: a widget value reset to None would never arrive.

What goes to the page ({"type": ...}): "comm_open", "comm_msg", "comm_close" (a widget's, with its `comm_id`,
`data` and `metadata`), "display" (show the widget `model_id` as the page's content), "stage" (how far the
tutor's start is, for the loading screen), "failed" (the tutor could not start) and "idle" (Python is done with
the page's message `parent`). What comes back: "comm_msg" and "comm_close", each with a `msg_id`. As a kernel's
messages do, whatever Python sends while it handles one of the page's names it as its `parent`: ipywidgets
matches the echo of a change the page made by it, and sends a widget's next change once the last is done.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

import comm
from comm.base_comm import BaseComm, BuffersType, MaybeDict

__all__ = ["PageComm", "install", "receive", "send_to_page", "show", "stage"]

logger = logging.getLogger(__name__)

# text and binary buffers to the page; set by `install` (the worker's `uu_page.send`, or a test's)
_send: Callable[[str, list[bytes]], object] | None = None
_parent: str | None = None  # the page's message being handled now


def send_to_page(message: dict[str, Any], buffers: Sequence[bytes | memoryview] = ()) -> None:
    if _send is None:
        raise RuntimeError("uu.lite.bridge.install() has not been called: there is no page to send to")
    _send(json.dumps(message, default=str, separators=(",", ":")), [bytes(b) for b in buffers])


class PageComm(BaseComm):
    """A comm whose messages go to the page's widget manager (`send_to_page`)."""

    def publish_msg(self, msg_type: str, data: MaybeDict = None, metadata: MaybeDict = None,
                    buffers: BuffersType = None, **keys: Any) -> None:
        message = {"type": msg_type, "comm_id": self.comm_id, "data": data or {}, "metadata": metadata or {}}
        message.update(keys)  # target_name and target_module when it opens
        if _parent is not None:
            message["parent"] = _parent
        send_to_page(message, buffers or [])


def install(send: Callable[[str, list[bytes]], object] | None = None) -> None:
    """Send every widget's messages to the page through `send(text, buffers)`; by default the web worker's
    (`uu_page.send`, a module uu/lite/worker.mjs gives Python)."""
    global _send
    if send is None:
        from pyodide.ffi import to_js  # type: ignore[import-not-found]  # Pyodide's, in the browser
        from uu_page import send as page_send  # type: ignore[import-not-found]  # uu/lite/worker.mjs

        def send(text: str, buffers: list[bytes]) -> object:
            return page_send(text, to_js(buffers))

    _send = send
    comm.create_comm = PageComm


def receive(text: str, buffers: Sequence[Any] = ()) -> None:
    """A message from the page for one widget: a change the learner made, a custom message, or its close. A
    message for a widget that is gone is dropped; a bad one is logged, never raised into the page."""
    global _parent
    parent = None
    try:
        message = json.loads(text)
        kind, comm_id, parent = message["type"], message["comm_id"], str(message["msg_id"])
        target = comm.get_comm_manager().get_comm(comm_id)
        if target is None:
            return
        _parent = parent
        as_bytes = [memoryview(b.to_bytes() if hasattr(b, "to_bytes") else bytes(b)) for b in buffers]
        msg = {"content": {"comm_id": comm_id, "data": message.get("data") or {}}, "buffers": as_bytes,
               "metadata": {}, "header": {"msg_type": kind}}
        if kind == "comm_msg":
            target.handle_msg(msg)
        elif kind == "comm_close":
            target.handle_close(msg)
    except Exception:  # one bad message must not stop the page's others
        logger.exception("a message from the page could not be handled: %.200s", text)
    finally:
        _parent = None
        if parent is not None:
            send_to_page({"type": "idle", "parent": parent})


def show(widget: Any) -> None:
    """Make `widget` the page's content."""
    send_to_page({"type": "display", "model_id": widget.model_id})


def stage(name: str) -> None:
    """Tell the loading screen that the tutor's start reached `name` (uu/lite/page.js `STAGES`)."""
    send_to_page({"type": "stage", "stage": name})
