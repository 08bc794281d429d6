"""Documentation is cited by its path in this repository, so a clone can follow every pointer.

The founders' notes lived outside the repository (a `shared/` folder beside it, with the design notes and the
reference files); what the code needs from them is now under docs/ in our own words. These tests fail when a
tracked file cites that outside folder or an absolute machine path again, when a cited `docs/*.md` file does
not exist, or when a relative Markdown link between the docs is broken.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Citations of files that are not in the repository: the old shared folder, its design notes, absolute paths.
OUTSIDE = re.compile(r"shared/[A-Za-z0-9_.-]|DESIGN\.md|/work/")

# Files other engineers are rewriting at the moment; their citations are listed in the hand-over note and
# move to docs/ with their next change. Notebooks are generated (tests/test_widgets_notebooks.py).
EXCEPTED_FILES: tuple[str, ...] = ()
EXCEPTED_DIRS: tuple[str, ...] = ()
EXCEPTED_SUFFIXES = (".ipynb",)

# Lines that name an outside path without citing it as documentation, each with its reason.
ALLOWED_LINES: frozenset[tuple[str, str]] = frozenset()


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the list of tracked files is unknown")
    return [f for f in out.decode().split("\0") if f]


def text_of(path: str) -> str | None:
    try:
        return (ROOT / path).read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None  # binary files, and files deleted but not yet committed


def excepted(path: str) -> bool:
    return (path in EXCEPTED_FILES or path.startswith(EXCEPTED_DIRS) or path.endswith(EXCEPTED_SUFFIXES)
            or path == "tests/test_docs_cited.py")


def test_no_citation_of_files_outside_the_repository() -> None:
    bad = []
    for path in tracked_files():
        if excepted(path) or (text := text_of(path)) is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line) and (path, line.strip()) not in ALLOWED_LINES:
                bad.append(f"{path}:{n}: {line.strip()}")
    assert not bad, "cite docs/ by repository path instead:\n" + "\n".join(bad)


def test_cited_docs_exist() -> None:
    missing = []
    for path in tracked_files():
        if (text := text_of(path)) is None:
            continue
        for cited in sorted(set(re.findall(r"\bdocs/[A-Za-z0-9_-]+\.md\b", text))):
            if not (ROOT / cited).is_file():
                missing.append(f"{path}: {cited}")
    assert not missing, missing


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes."""
    out = set()
    for heading in re.findall(r"^#+\s+(.+?)\s*$", markdown, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", "")).replace(" ", "-")
        out.add(slug)
    return out


def test_relative_links_between_docs_resolve() -> None:
    broken = []
    for path in tracked_files():
        if not path.endswith(".md") or (text := text_of(path)) is None:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # web addresses; same-page anchors
            file_part, _, anchor = target.partition("#")
            dest = (ROOT / path).parent / file_part
            if not dest.exists():
                broken.append(f"{path}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest.read_text(encoding="utf-8")):
                broken.append(f"{path}: {target} (no such heading)")
    assert not broken, broken
