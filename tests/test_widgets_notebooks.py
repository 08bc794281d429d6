"""The tutor's notebooks: one per shipped lesson (`notebooks/lesson-NN-<id>.ipynb`), the home
(`notebooks/index.ipynb`), the game (`notebooks/play.ipynb`), the sandbox (`notebooks/sandbox.ipynb`) and the
app `uu app` serves
(`uu/notebooks/app.ipynb`). Each is a few lines, stored without outputs, and ends with an assert cell that
nbval runs (pytest collects the notebooks themselves).

When lessons are added or renamed, regenerate the notebooks: `.venv/bin/python tests/test_widgets_notebooks.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
APP_NOTEBOOK = ROOT / "uu" / "notebooks" / "app.ipynb"

BUILD = """from IPython.display import display

from uu.widgets import App

app = App({args})
display(app)"""

HOME_CHECK = """assert app.error is None and app.screen is app.home, app.error  # nbval: the home screen is up
assert len(app.home.lessons.ids) == len(app.lessons) > 0"""

LESSON_CHECK = """screen = app.screen
assert app.error is None and screen.error is None, (app.error, screen.error)
assert screen.runner.lesson.id == {lid!r} and screen.runner.progress[0] == 1  # the first step is shown
assert "Step 1 of" in screen.progress_label.value and screen.narration.value"""

SANDBOX_CHECK = """screen = app.screen
assert app.error is None and screen.error is None, (app.error, screen.error)
screen.build.start_button.click()  # play on from the default position
assert screen.error is None and screen.game is not None and screen.moves, screen.error"""

PLAY_CHECK = """screen = app.screen
assert app.error is None and screen.error is None, (app.error, screen.error)
assert screen.game is not None and screen.moves, "the learner's first decision is offered\""""


def _lessons() -> list[tuple[str, str]]:
    from uu.tutor.check import shipped_lessons
    from uu.tutor.lesson_model import load_lesson

    out = []
    for path in shipped_lessons():
        lesson = load_lesson(path)
        out.append((f"lesson-{lesson.order:02d}-{lesson.id}.ipynb", lesson.id))
    return out


def expected() -> dict[Path, list[str]]:
    """Every notebook this project ships, and the source of its code cells."""
    nbs = {
        NOTEBOOKS / "index.ipynb": [BUILD.format(args=""), HOME_CHECK],
        APP_NOTEBOOK: [BUILD.format(args=""), HOME_CHECK],
        NOTEBOOKS / "play.ipynb": [BUILD.format(args='start="play"'), PLAY_CHECK],
        NOTEBOOKS / "sandbox.ipynb": [BUILD.format(args='start="sandbox"'), SANDBOX_CHECK],
    }
    for name, lid in _lessons():
        nbs[NOTEBOOKS / name] = [BUILD.format(args=f"start={lid!r}"), LESSON_CHECK.format(lid=lid)]
    return nbs


def build(cells: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    for i, c in enumerate(nb.cells):
        c.id = f"cell-{i}"
    return nb


def write() -> None:
    for old in NOTEBOOKS.glob("lesson-*.ipynb"):
        old.unlink()
    for path, cells in expected().items():
        nbformat.write(build(cells), path)
        print("wrote", path.relative_to(ROOT))


@pytest.mark.parametrize("path", list(expected()), ids=lambda p: p.name)
def test_notebook_is_current_small_and_without_outputs(path: Path):
    assert path.is_file(), f"{path} is missing: run `python tests/test_widgets_notebooks.py`"
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.source for c in code] == expected()[path], f"{path.name} is stale: regenerate it"
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, "store notebooks without outputs"
    lines = [ln for c in code for ln in c.source.splitlines() if ln.strip()]
    assert len(lines) <= 10, lines
    assert code[-1].source.startswith(("assert", "screen = app.screen")), "the last cell must check something"


def test_no_stray_lesson_notebooks():
    shipped = {p.name for p in expected()}
    stray = [p.name for p in NOTEBOOKS.glob("lesson-*.ipynb") if p.name not in shipped]
    assert not stray, f"notebooks for lessons that do not exist: {stray}"


if __name__ == "__main__":
    write()
    sys.exit(0)
