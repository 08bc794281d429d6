"""Reading scenario files: YAML syntax errors and validation errors name the file, the line and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from uu.i18n import _
from uu.i18n.validation import validation_message
from uu.scenario.model import Scenario, name_problems
from uu.yamlfile import YamlInputError, compose_user_yaml, construct, data_read_before, read_user_file


class ScenarioFileError(ValueError):
    """A scenario file that cannot be loaded; the message says where and what was expected."""


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """Line (1-based) of the YAML node at path `loc`, as deep as the path can be followed."""
    line = None
    for key in loc:
        if node is None:
            break
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == key:
                    nxt = v
                    line = k.start_mark.line + 1
                    break
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
    if node is not None:
        line = node.start_mark.line + 1
    return line


def format_validation(path: str, err: ValidationError, root: yaml.Node | None) -> str:
    lines = []
    for e in err.errors():
        loc = tuple(x for x in e["loc"] if not (isinstance(x, str) and x in ("function-after",)))
        field = ".".join(str(x) for x in loc) or _("(top level)")
        line = _line_of(root, loc)
        at = _("line {line}, ").format(line=line) if line else ""
        msg = validation_message(e)
        lines.append(f"{path}: {at}{field}: {msg}")
    return "\n".join(lines)


def parse_scenario(text: str, path: str = "<text>") -> Scenario:
    data, root = data_read_before(text), None
    if data is None:
        try:
            root = compose_user_yaml(text, path)
            data = construct(root, path)
        except YamlInputError as e:
            raise ScenarioFileError(str(e)) from None
    if not isinstance(data, dict):
        raise ScenarioFileError(f"{path}: " + _("expected a mapping with at least `name` and `players`"))
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as e:
        raise ScenarioFileError(format_validation(path, e, root)) from None
    problems = name_problems(sc)
    if problems:
        lines = []
        for loc, msg in problems:
            line = _line_of(root, loc)
            at = _("line {line}, ").format(line=line) if line else ""
            lines.append(f"{path}: {at}{'.'.join(str(x) for x in loc)}: {msg}")
        raise ScenarioFileError("\n".join(lines))
    return sc


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        text = read_user_file(p)
    except YamlInputError as e:
        raise ScenarioFileError(str(e)) from None
    return parse_scenario(text, str(p))


def scenario_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.rglob("*.yaml")))
        else:
            out.append(p)
    return out


def empty_folders(paths: list[str]) -> list[str]:
    """The folders among `paths` that hold no *.yaml file (checking nothing is not a pass)."""
    return [p for p in paths if Path(p).is_dir() and next(Path(p).rglob("*.yaml"), None) is None]
