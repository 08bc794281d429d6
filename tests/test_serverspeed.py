"""The page templates are compiled once per server and a changed template is compiled again; message dates
parse as dateutil parses them (uu/server/serverspeed.py); parsed lessons are reused only for the same text
(uu/tutor/lesson_model.py)."""

from __future__ import annotations

import nbformat
import pytest
from nbconvert import HTMLExporter
from nbconvert.exporters.templateexporter import TemplateExporter

from uu.server.patches import patch_fast_dates, patch_template_cache
from uu.server.serverspeed import cache_for, parse_iso_date
from uu.tutor.check import shipped_lessons
from uu.tutor.lesson_model import load_lesson


def _notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell("**hello** <i>class</i>"))
    return nb


def test_a_second_exporter_reuses_the_compiled_templates_and_renders_the_same_page():
    assert patch_template_cache() and patch_template_cache(), "idempotent"
    first = HTMLExporter(template_name="lab")
    cache = cache_for(first.environment)
    assert first.environment.bytecode_cache is cache
    cache.clear()
    nb = _notebook()
    html1, _ = first.from_notebook_node(nb)
    hits, misses = cache.hits, cache.misses
    assert misses > 0, "the first exporter compiled the templates"
    html2, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    assert cache.misses == misses, "a second exporter compiled nothing again"
    assert cache.hits > hits
    assert html1 == html2


def test_a_changed_template_is_compiled_again():
    patch_template_cache()
    outputs = []
    for text in ("first {{ nb.cells | length }}", "second {{ nb.cells | length }}"):
        exporter = TemplateExporter(raw_template=text)
        body, _ = exporter.from_notebook_node(_notebook())
        outputs.append(body.strip())
    assert outputs == ["first 1", "second 1"]


def test_environments_with_other_settings_get_their_own_cache():
    """Compiled code depends on the environment's settings (async or not): one key per kind."""
    patch_template_cache()
    sync = HTMLExporter(template_name="lab").environment
    asynchronous = HTMLExporter(template_name="lab", enable_async=True).environment
    assert cache_for(sync) is not cache_for(asynchronous)
    assert cache_for(sync) is cache_for(HTMLExporter(template_name="lab").environment)


def test_a_lesson_file_is_parsed_once_per_text(tmp_path):
    shipped = shipped_lessons()[0]
    assert load_lesson(shipped) is load_lesson(shipped), "the same file: the lesson parsed before"
    copy = tmp_path / "lesson.yaml"
    text = shipped.read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    before = load_lesson(copy)
    assert before is not load_lesson(shipped), "another path: parsed on its own (errors name the file)"
    changed = text.replace(f"title: {before.title}", "title: A changed title", 1)
    assert changed != text
    copy.write_text(changed, encoding="utf-8")
    assert load_lesson(copy).title == "A changed title", "a changed file is parsed again"


@pytest.mark.parametrize("text", ["2026-11-23T18:43:48.123456Z", "2026-11-23T18:43:48Z", "2026-11-23T18:43:48.1Z",
                                  "2026-11-23T18:43:48.12345+01:00", "2026-11-23T18:43:48+0100",
                                  "2026-11-23T18:43:48.123-05:30", "2026-11-23T18:43:48"])
def test_message_dates_parse_as_dateutil_parses_them(text):
    from dateutil.parser import isoparse
    from jupyter_client.jsonutil import ISO8601_PAT

    assert ISO8601_PAT.match(text), "a string jupyter_client treats as a date"
    ours, theirs = parse_iso_date(text), isoparse(text)
    assert ours == theirs and ours.isoformat() == theirs.isoformat() and ours.utcoffset() == theirs.utcoffset()


def test_jupyter_client_parses_message_headers_with_the_fast_parser():
    from jupyter_client import jsonutil
    from jupyter_client.session import Session

    assert patch_fast_dates() and patch_fast_dates(), "idempotent"
    assert jsonutil._dateutil_parse is parse_iso_date
    session = Session(key=b"k")
    msg = session.msg("status", content={"execution_state": "idle"})
    back = session.deserialize(session.serialize(msg)[1:])
    assert back["header"]["date"] == msg["header"]["date"]
    assert back["header"]["date"].tzinfo is not None
