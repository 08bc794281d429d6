"""How the suite's work is shared between pytest-xdist workers (`python3 dev.py test` runs `-n N`; `-n 0` runs
everything in one process, where nothing here changes what runs).

Each test is a unit of work on its own, sent to whichever worker is free, except where tests share something
costly or stateful; those run on one worker, one after the other:

- the cells of one notebook (nbval runs them in order in one kernel);
- the tests of a file listed in SHARED: they share a fixture wider than a test (a module's Voila or class
  app, a built wheel), which each worker would otherwise start for itself, and the later tests of a module
  may need what the earlier ones left. `uu app` of `voila_url` is not one of them (CHEAP): each worker that
  runs a browser test starts its own, once.

The scheduler is xdist's own LoadScopeScheduling with this grouping (xdist's `--dist loadgroup` reads marks
through the test ids, which pytest 9.2 no longer lets a plugin change: pytest-xdist issue 1386). The groups
go by file name, which the scheduler knows before any test runs; `pytest_collection_modifyitems` checks
them against the fixtures each test really uses, so a new shared fixture outside SHARED stops the run with
what to add.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent
# file -> its group: files in one group share a session fixture (voila_url: one `uu app` for all of them)
SHARED = {
    "tests/test_hint.py": "tests/test_hint.py",                    # positions
    "tests/test_hostile_server.py": "tests/test_hostile_server.py",  # server
    "tests/test_i18n_e2e.py": "tests/test_i18n_e2e.py",            # class_app
    "tests/test_lessons.py": "tests/test_lessons.py",              # every lesson explored once (shared_report)
    "tests/test_lite_site.py": "tests/test_lite_site.py",          # site_url
    "tests/test_review.py": "tests/test_review.py",                # record
    "tests/test_table_e2e.py": "tests/test_table_e2e.py",          # table_url
    "tests/test_teacher_e2e.py": "tests/test_teacher_e2e.py",      # teacher_server
    "tests/test_wheel_install.py": "tests/test_wheel_install.py",  # wheel
}
# Wider than a test, but cheap for each worker to set up for itself: the arguments of the browser that each
# worker starts anyway (pytest-playwright), and `uu app` of `voila_url` (about 10 s). The browser tests on
# `voila_url` once ran as one group on one worker, one after the other: about 15 minutes of a 22-minute suite
# on two cores; as units of their own, they spread over the workers.
CHEAP = {"browser_type_launch_args", "voila_url"}


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its group, its notebook, or itself."""
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        return path
    return SHARED.get(path, nodeid)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, absent without it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """This grouping for `-n N` (xdist's `--dist load`, its default); another `--dist` asked for is xdist's."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        """Units of work by `scope_of`; the units with most tests go first (xdist's default order)."""

        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return Scheduling(config, log)


def _ours(func: Any) -> bool:
    """Defined in this repository's tests (not by a plugin)."""
    try:
        path = Path(inspect.getfile(func)).resolve()
    except TypeError:
        return False
    return path.is_relative_to(ROOT) and ".venv" not in path.relative_to(ROOT).parts


def _shared_fixtures(item: pytest.Item) -> list[str]:
    """The fixtures of this repository wider than one test that `item` uses."""
    info = getattr(item, "_fixtureinfo", None)  # pytest's record of a test's fixtures (nbval cells have none)
    if info is None:
        return []
    out = []
    for name in getattr(item, "fixturenames", ()):
        defs = info.name2fixturedefs.get(name)
        if defs and name not in CHEAP and defs[-1].scope != "function" and _ours(defs[-1].func):
            out.append(name)
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every fixture wider than a test is used by the tests of one unit of work only."""
    units: dict[str, set[str]] = defaultdict(set)
    for item in items:
        for name in _shared_fixtures(item):
            units[name].add(scope_of(item.nodeid))
    split = {name: sorted(s) for name, s in units.items() if len(s) > 1}
    if split:
        raise pytest.UsageError(
            "conftest.py: these fixtures are shared by tests that xdist would run on different workers (each "
            f"would set them up again): {split}; add their files to SHARED, in one group")
