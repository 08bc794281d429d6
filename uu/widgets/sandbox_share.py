"""The sandbox's share panel (`SharePanel`): loading a scenario's position from a file upload or the paste box
(its errors show with their line numbers, next to the load controls), and the export box, which holds the
position on show as scenario YAML with a download link and "Link to this position", or says why it cannot be
written (`NotExportable`). What is loaded and exported is the session's (`uu.tutor.sandbox_session.SandboxSession`:
`load_yaml`, `read_upload`, `export`); this panel owns the widgets and the page's address the link is built on.

Its widgets sit in two places of the screen: `load_controls` inside the build panel (given to it to place), and
`box`, the export panel (CSS class uu-sb-export), under the build and play panels.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import ipywidgets as widgets

from uu.i18n import _
from uu.render import esc
from uu.scenario.link import MAX_CODE_CHARS, position_code, position_link
from uu.tutor.sandbox_session import SandboxSession
from uu.widgets.common import make_button
from uu.widgets.sandbox_panel import FULL_WIDTH, HIDDEN, SHOWN, Changed, Panel, handler

__all__ = ["SharePanel"]


def _upload_content(value: Any) -> tuple[str, bytes] | None:
    """(file name, bytes) of the first uploaded file, for ipywidgets 8 (a tuple of dicts) and 7 (a dict)."""
    if not value:
        return None
    items = list(value.values()) if isinstance(value, dict) else list(value)
    first = items[0]
    name = first.get("name") or (first.get("metadata") or {}).get("name") or "uploaded file"
    content = first.get("content", b"")
    return str(name), bytes(content)


class SharePanel(Panel):
    """Load (paste, upload) and export; `page_href`: the page's address, which the App learns from the browser."""

    def __init__(self, session: SandboxSession, changed: Changed, page_href: str | None = None):
        super().__init__(session, changed)
        self.page_href = page_href
        self.upload = widgets.FileUpload(accept=".yaml,.yml,.txt", multiple=False, description=_("Open file"))
        self.upload.add_class("uu-sb-upload")
        self.upload.observe(self.on_upload, names="value")
        self.yaml_input = widgets.Textarea(placeholder=_("Paste a scenario (YAML) here, then press Load"),
                                           layout=widgets.Layout(width=FULL_WIDTH, height="10em"))
        self.yaml_input.add_class("uu-sb-yaml")
        self.load_button = make_button(_("Load"), "uu-sb-load", self.on_load,
                                       tooltip=_("Load the pasted scenario's position (its steps are not run)"))
        self.load_msg = widgets.HTML()
        self.load_msg.add_class("uu-field-msg")
        self.load_msg.add_class("uu-msg-load")
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.load_controls: list[widgets.Widget] = [
            widgets.HTML("<h3>" + esc(_("Load a scenario")) + "</h3>"),
            widgets.HBox([self.upload, self.load_button], layout=row),
            self.yaml_input,
            self.load_msg,
        ]

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
        self.box = widgets.VBox([
            widgets.HTML("<h3>" + esc(_("Share this position")) + "</h3><p class='uu-why'>"
                         + esc(_("A link that opens the app's sandbox at this position: copy it and send it. Or "
                                 "the scenario YAML: copy it, or download it, and load it here or with the "
                                 "command {command}.")).format(command="<code>uu scenario check</code>")
                         + "</p>"),
            self.export_msg, self.position_link, self.position_link_note, self.export_area, self.export_link])
        self.box.add_class("uu-sb-export")

    def set_page_href(self, href: str | None) -> None:
        """The page's address changed: the link is built on it from now on (redrawn now)."""
        self.page_href = href
        self._refresh_link(self.session.export_text)

    @handler
    def on_load(self, _b: object = None) -> None:
        self.session.load_yaml(str(self.yaml_input.value or ""))

    @handler
    def on_upload(self, _change: object = None) -> None:
        got = _upload_content(self.upload.value)
        if got is None:
            return
        name, data = got
        self.upload.value = ()  # forget the bytes; uploading the same file again loads it again
        text = self.session.read_upload(name, data)
        if text is not None:
            self.yaml_input.value = text
            self.session.load_yaml(text, name)

    def refresh(self) -> None:
        """Redraw from the session: the load message, and the export of the position on show."""
        message = self.session.load_message
        self.load_msg.value = "" if not message else \
            f"<div class='uu-field-error' role='alert' data-field='load'>{esc(message)}</div>"
        text, error = self.session.export()
        self.export_area.value = text or ""
        self.export_area.layout.display = SHOWN if text else HIDDEN
        self.export_msg.value = "" if not error else f"<div class='uu-fb uu-fb-other' role='status'>{esc(error)}</div>"
        self._refresh_link(text)
        if text:
            href = "data:text/yaml;charset=utf-8," + urllib.parse.quote(text, safe="")
            self.export_link.value = (f"<a class='uu-download' download='position.yaml' href='{esc(href)}' "
                                      f"target='_blank'>{esc(_('Download {file}').format(file='position.yaml'))}</a>")
        else:
            self.export_link.value = ""

    def _refresh_link(self, text: str | None) -> None:
        link, note = "", ""
        if text and len(position_code(text)) > MAX_CODE_CHARS:  # a link that would be refused when opened
            note = _("This position is too large for a link: share the YAML below instead.")
        elif text:
            link = position_link(self.page_href or "", text)
        self.position_link.value = link
        self.position_link.layout.display = SHOWN if link else HIDDEN
        self.position_link_note.value = f"<span class='uu-why'>{esc(note)}</span>" if note else ""
