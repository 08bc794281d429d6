"""The sandbox's paste and share pieces (`SharePanel`, a part of `uu.widgets.sandbox.SandboxScreen`): loading a
scenario's position from a file upload or the paste box (its errors show with their line numbers, next to the
load controls), and the export box, which holds the position on show as scenario YAML with a download link,
or says why it cannot be written (`NotExportable`).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import ipywidgets as widgets

from uu.engine.game import Game
from uu.i18n import _
from uu.render import esc
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.scenario.export import NotExportable, export_position
from uu.scenario.link import MAX_CODE_CHARS, position_code, position_link
from uu.scenario.load import ScenarioFileError
from uu.tutor.timeline import Timeline
from uu.widgets.common import safe
from uu.widgets.sandbox_build import FULL_WIDTH, HIDDEN, SHOWN
from uu.yamlfile import MAX_BYTES, YamlInputError, decode

__all__ = ["MAX_UPLOAD", "SharePanel"]

MAX_UPLOAD = MAX_BYTES  # bytes of YAML a file upload or the paste box may hold (the loaders' own limit)


def _upload_content(value: Any) -> tuple[str, bytes] | None:
    """(file name, bytes) of the first uploaded file, for ipywidgets 8 (a tuple of dicts) and 7 (a dict)."""
    if not value:
        return None
    items = list(value.values()) if isinstance(value, dict) else list(value)
    first = items[0]
    name = first.get("name") or (first.get("metadata") or {}).get("name") or "uploaded file"
    content = first.get("content", b"")
    return str(name), bytes(content)


class SharePanel:
    """Load (paste, upload) and export for the sandbox screen (mixed into `SandboxScreen`)."""

    builder: PositionBuilder
    field_errors: dict[str, str]
    load_message: str | None
    mode: Literal["build", "play"]
    message: tuple[str, str] | None
    export_text: str | None
    export_error: str | None
    upload: widgets.FileUpload
    yaml_input: widgets.Textarea
    timeline: Timeline | None
    _sync_build_widgets: Callable[[], None]  # the build panel's: redraw the build controls from the builder

    if TYPE_CHECKING:  # the screen's read-only property: the position on show in play mode
        @property
        def game(self) -> Game | None: ...
    page_href: str | None = None  # the page's address, which the App learns from the browser


    def _build_export_panel(self) -> None:
        self.export_area = widgets.Textarea(disabled=True, layout=widgets.Layout(width=FULL_WIDTH, height="12em"))
        self.export_area.add_class("uu-sb-export-text")
        self.export_link = widgets.HTML()
        self.export_link.add_class("uu-sb-download")
        self.export_msg = widgets.HTML()
        self.export_msg.add_class("uu-sb-export-msg")
        # "Link to this position": the app's address with the position in it (uu/scenario/link.py)
        self.position_link = widgets.Text(description=_("Link to this position:"), disabled=False,
                                          style={"description_width": "initial"},
                                          layout=widgets.Layout(width=FULL_WIDTH))
        self.position_link.add_class("uu-sb-link")
        self.position_link_note = widgets.HTML()
        self.position_link_note.add_class("uu-sb-link-note")
        self.export_panel = widgets.VBox([
            widgets.HTML("<h3>" + esc(_("Share this position")) + "</h3><p class='uu-why'>"
                         + esc(_("A link that opens the app's sandbox at this position: copy it and send it. Or "
                                 "the scenario YAML: copy it, or download it, and load it here or with the "
                                 "command {command}.")).format(command="<code>uu scenario check</code>")
                         + "</p>"),
            self.export_msg, self.position_link, self.position_link_note, self.export_area, self.export_link])
        self.export_panel.add_class("uu-sb-export")

    def _refresh_link(self, text: str | None) -> None:
        link, note = "", ""
        if text and len(position_code(text)) > MAX_CODE_CHARS:  # a link that would be refused when opened
            note = _("This position is too large for a link: share the YAML below instead.")
        elif text:
            link = position_link(self.page_href or "", text)
        self.position_link.value = link
        self.position_link.layout.display = SHOWN if link else HIDDEN
        self.position_link_note.value = f"<span class='uu-why'>{esc(note)}</span>" if note else ""

    def load_yaml(self, text: str, path: str = "pasted YAML") -> bool:
        """Load a scenario's position into the builder; on an error the message (with its line numbers) shows
        next to the load controls and the builder is unchanged. Returns whether it loaded."""
        if len(text.encode("utf-8", "replace")) > MAX_UPLOAD:
            self.load_message = f"{path}: the text is too long (at most {MAX_UPLOAD // 1024} KB)"
            return False
        try:
            b = PositionBuilder.from_yaml(text, path)
        except (ScenarioFileError, BuilderError) as e:
            self.load_message = str(e)
            return False
        self.builder = b
        self.field_errors = {}
        self.load_message = None
        self.mode = "build"
        self.timeline = None
        self.message = None
        self._sync_build_widgets()
        return True

    @safe
    def on_load(self, _b: Any = None) -> None:
        self.load_yaml(str(self.yaml_input.value or ""))

    @safe
    def on_upload(self, _change: Any = None) -> None:
        got = _upload_content(self.upload.value)
        if got is None:
            return
        name, data = got
        self.upload.value = ()  # forget the bytes; uploading the same file again loads it again
        if len(data) > MAX_UPLOAD:
            self.load_message = f"{name}: the file is too large (at most {MAX_UPLOAD // 1024} KB)"
            return
        try:
            text = decode(data, name)
        except YamlInputError as e:
            self.load_message = str(e)
            return
        self.yaml_input.value = text
        self.load_yaml(text, name)

    def _refresh_export(self) -> None:
        text: str | None = None
        error: str | None = None
        if self.mode == "play" and self.game is not None:
            try:
                text = export_position(self.game)
            except NotExportable as e:
                error = str(e)
        else:
            try:
                text = self.builder.to_yaml()
            except BuilderError as e:
                error = f"cannot write this position yet: {e}"
        self.export_text, self.export_error = text, error
        self.export_area.value = text or ""
        self.export_area.layout.display = SHOWN if text else HIDDEN
        self.export_msg.value = "" if not error else f"<div class='uu-fb uu-fb-other' role='status'>{esc(error)}</div>"
        self._refresh_link(text)
        if text:
            href = "data:text/yaml;charset=utf-8," + urllib.parse.quote(text, safe="")
            self.export_link.value = (f"<a class='uu-download' download='position.yaml' href='{esc(href)}' "
                                      f"target='_blank'>Download position.yaml</a>")
        else:
            self.export_link.value = ""
