"""Every third-party patch (uu/server/patches.py) still applies to the versions installed, and the versions it
was checked on are the only ones pyproject.toml allows (upper bounds): a new release that moves a patched name
fails here, not in a classroom."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import ipywidgets
from packaging.requirements import Requirement
from packaging.version import Version

from uu.server import patches

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
PATCHED = ("voila", "jupyter_server", "jupyter_client", "nbconvert", "ipywidgets")


def test_every_server_patch_applies_under_voila_and_under_jupyter_server() -> None:
    for server in ("voila", "jupyter_server"):  # `uu app`, and Voila as a server extension (Binder)
        applied = patches.apply_all(server)
        assert all(applied.values()), {name: ok for name, ok in applied.items() if not ok}


def test_the_patch_list_in_the_docstring_names_every_patch() -> None:
    listed = set(re.findall(r"^\| `(\w+)` \|", patches.__doc__ or "", flags=re.M))
    assert set(patches.apply_all()) | {"hold_widget_open"} == listed


def test_holding_widget_open_and_letting_go() -> None:
    original = ipywidgets.Widget.open
    held: list[object] = []
    def note(widget: object) -> None:
        held.append(widget)

    assert patches.hold_widget_open(note) is original
    ipywidgets.Button()
    assert len(held) == 1 and held[0].comm is None  # noted, not opened
    patches.hold_widget_open(None)
    assert ipywidgets.Widget.open is original


def test_patched_libraries_have_upper_bounds_that_the_installed_versions_meet() -> None:
    from importlib.metadata import version

    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    deps = project["dependencies"] + project["optional-dependencies"]["app"]  # the server's packages: [app]
    reqs = {Requirement(d).name.replace("-", "_").lower(): Requirement(d) for d in deps}
    for name in PATCHED:
        req = reqs.get(name)
        assert req is not None, f"{name} is patched, so pyproject.toml must name it"
        assert any(s.operator in ("<", "<=", "~=") for s in req.specifier), f"{name} needs an upper bound"
        assert Version(version(name)) in req.specifier, f"installed {name} {version(name)} is outside {req}"
