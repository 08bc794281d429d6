"""The one YAML reader for files and pastes from users (scenario files, lessons, the sandbox's paste box) and
for the card catalog.

Files from users are read as if written carelessly or with hostile intent, so reading one never crashes the
process, never hangs and never uses much more memory than the text itself:

- `read_user_file` reads only regular files (a FIFO or a device would block or never end) and at most
  `MAX_BYTES`; it decodes UTF-8 and says so when the bytes are something else (UTF-16 has its own message).
- `load_user_yaml` first walks the parser's events (libyaml's parser keeps its own stack on the heap, so a
  deep file cannot overflow the C stack there) and refuses nesting deeper than `MAX_DEPTH` before anything
  recursive (the composer, C or Python, recurses once per level: 25,000 levels crash the C one). It refuses
  anchors and aliases (a few kB of aliases expand to gigabytes; no scenario needs them) and mapping keys
  given twice, naming the line. Values the constructor cannot turn into Python (a 5,000-digit number, a
  date that does not exist) become a `YamlInputError` with their line, not a ValueError from deep inside.

Every failure is a `YamlInputError` whose message starts with the path (and line when known).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from uu.i18n import N_, _, current_language

# PyYAML's C (libyaml) loader when available: ten times faster, the same nodes and line marks. The one
# definition every reader in the project uses.
LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

MAX_BYTES = 256 * 1024  # the largest file or paste read (the shipped scenarios and lessons are under 20 kB)
MAX_DEPTH = 64  # nesting of mappings and lists; the formats need fewer than 12


# Data of YAML texts read before, by the SHA-256 of the text: the static build (uu/lite) ships the shipped
# lessons and the card catalog already read, since pure-Python PyYAML (there is no libyaml in the browser)
# takes seconds over them. Only the same text gets the data, so an edited file is read as usual.
_PREREAD: dict[str, Any] = {}


def preread(table: dict[str, Any]) -> None:
    """Add {SHA-256 of a YAML text: its data} (`uu.lite` loads the table its build wrote)."""
    _PREREAD.update(table)


def data_read_before(text: str) -> Any | None:
    """The data of `text` if it was read before (see `preread`), else None. A copy: callers may change it."""
    if not _PREREAD:
        return None
    import copy
    import hashlib

    data = _PREREAD.get(hashlib.sha256(text.encode("utf-8")).hexdigest())
    return None if data is None else copy.deepcopy(data)


class YamlInputError(ValueError):
    """A file or text that cannot be read as YAML safely; the message names the path, the line and what."""


def read_user_file(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes, decoded as UTF-8; YamlInputError otherwise."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise YamlInputError(f"{p}: " + _("cannot read ({reason})").format(reason=e.strerror)) from None
    if stat.S_ISDIR(st.st_mode):
        raise YamlInputError(f"{p}: " + _("is a folder, not a file"))
    if not stat.S_ISREG(st.st_mode):
        # a FIFO would block until someone writes to it, a device may never end
        raise YamlInputError(f"{p}: " + _("not a regular file (a pipe, socket or device); give a .yaml file"))
    if st.st_size > limit:
        raise YamlInputError(f"{p}: " + _("the file is too large ({size} kB; at most {limit} kB)").format(
            size=st.st_size // 1024, limit=limit // 1024))
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the check, opening it does not wait
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise YamlInputError(f"{p}: " + _("not a regular file (a pipe, socket or device); give a .yaml file"))
            data = f.read(limit + 1)
    except OSError as e:
        raise YamlInputError(f"{p}: " + _("cannot read ({reason})").format(reason=e.strerror)) from None
    if len(data) > limit:
        raise YamlInputError(f"{p}: " + _("the file is too large (more than {limit} kB)").format(limit=limit // 1024))
    return decode(data, str(p))


def decode(data: bytes, path: str) -> str:
    """UTF-8 text (a UTF-8 byte-order mark is allowed); a clear YamlInputError for anything else."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) >= 2 and (data[0] == 0 or data[1] == 0)):
        raise YamlInputError(f"{path}: " + _("the file looks like UTF-16 text; save it as UTF-8"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise YamlInputError(f"{path}: " + _("line {line}: not UTF-8 text (byte {byte} at offset {offset}); save "
                                             "the file as UTF-8").format(line=line, byte=f"{data[e.start]:#04x}",
                                                                          offset=e.start)) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise YamlInputError(f"{path}: " + _("line {line}: a NUL character; this is not a text file").format(line=line))
    return text


# PyYAML's reasons, in English; the ones a learner meets when pasting or typing, in our own words
_YAML_PROBLEMS = {
    "mapping values are not allowed here": N_("a colon where no name with a value may start (is a line indented "
                                              "wrongly, or does a text need quotes?)"),
    "could not find expected ':'": N_("a name without its colon"),
    "found character that cannot start any token": N_("a character that cannot start a value here (a tab? use "
                                                      "spaces to indent)"),
    "found unexpected end of stream": N_("the text ends inside a quoted text"),
    "found a tab character that violates indentation": N_("a tab in the indentation: indent with spaces"),
    "found undefined tag handle": N_("an unknown tag (a word after '!')"),
}


def _not_yaml(problem: str) -> str:
    """"not valid YAML" with PyYAML's reason, in our words where we have them (English keeps PyYAML's)."""
    if current_language() == "en":
        return f"not valid YAML ({problem})"
    for english, ours in _YAML_PROBLEMS.items():
        if problem.startswith(english.split(" that ")[0]):
            return _("not valid YAML ({reason})").format(reason=_(ours))
    return _("not valid YAML")


def _where(mark: Any) -> str:
    return _("line {line}: ").format(line=mark.line + 1) if mark is not None else ""


def _check_events(text: str, path: str) -> None:
    """Refuse deep nesting, anchors and aliases from the event stream (no recursion, no expansion)."""
    depth = 0
    for ev in yaml.parse(text, Loader=LOADER):
        if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None) is not None:
            raise YamlInputError(f"{path}: {_where(ev.start_mark)}anchors and aliases (&name, *name) are not "
                                 "allowed; write the value out")
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlInputError(f"{path}: {_where(ev.start_mark)}" + _("nested more than {depth} levels deep").format(
                    depth=MAX_DEPTH))
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


def _check_duplicates(node: yaml.Node, path: str) -> None:
    """A key given twice in one mapping (YAML would silently keep the last one) names both lines."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen: dict[tuple[str, str], int] = {}
            for k, v in n.value:
                if isinstance(k, yaml.ScalarNode):
                    key = (k.tag, k.value)
                    if key in seen:
                        raise YamlInputError(f"{path}: line {k.start_mark.line + 1}: the key {k.value!r} is "
                                             f"given twice in one mapping (first on line {seen[key]})")
                    seen[key] = k.start_mark.line + 1
                stack.append(k)
                stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


def compose_user_yaml(text: str, path: str = "<text>") -> yaml.Node | None:
    """The checked node tree of one YAML document (None for an empty one)."""
    if len(text) > MAX_BYTES:
        raise YamlInputError(f"{path}: " + _("the text is too long (at most {limit} kB)").format(limit=MAX_BYTES // 1024))
    try:
        _check_events(text, path)
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = str(getattr(e, "problem", None) or e)
        if "nesting depth" in problem:  # libyaml's own limit, met while it scans ahead of our check
            raise YamlInputError(f"{path}: {_where(mark)}" + _("nested more than {depth} levels deep").format(
                depth=MAX_DEPTH)) from None
        raise YamlInputError(f"{path}: {_where(mark)}{_not_yaml(problem)}") from None
    if root is not None:
        _check_duplicates(root, path)
    return root


def construct(root: yaml.Node | None, path: str = "<text>") -> Any:
    """Python data from a node tree composed by `compose_user_yaml`."""
    if root is None:
        return None
    loader = LOADER("")
    try:
        return loader.construct_document(root)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise YamlInputError(f"{path}: {_where(mark)}{_not_yaml(str(getattr(e, 'problem', None) or e))}") from None
    except (ValueError, OverflowError, TypeError) as e:
        # e.g. int() refuses more than 4,300 digits; a timestamp with day 99. The node is not known here,
        # so find the first scalar whose own construction fails.
        raise YamlInputError(f"{path}: {_where(_bad_scalar(root))}"
                             + _("a value that cannot be read ({reason})").format(reason=_plain(e))) from None
    finally:
        loader.dispose()


def _plain(e: Exception) -> str:
    """The reason a value cannot be read, in words for a learner: Python's message for a too-long number
    names `sys.set_int_max_str_digits()`, which means nothing to them."""
    text = str(e)
    if isinstance(e, ValueError) and "digits" in text and "int" in text:
        return _("a number with more than 4,300 digits")
    return text if current_language() == "en" else _("not a value this file may hold")


def _bad_scalar(root: yaml.Node) -> Any:
    loader = LOADER("")
    stack = [root]
    try:
        while stack:
            n = stack.pop()
            if isinstance(n, yaml.ScalarNode):
                try:
                    loader.construct_object(n)
                except (ValueError, OverflowError, TypeError, yaml.YAMLError):
                    return n.start_mark
            elif isinstance(n, yaml.MappingNode):
                stack.extend(x for kv in reversed(n.value) for x in reversed(kv))
            elif isinstance(n, yaml.SequenceNode):
                stack.extend(reversed(n.value))
    finally:
        loader.dispose()
    return None


def load_user_yaml(text: str, path: str = "<text>") -> tuple[Any, yaml.Node | None]:
    """The data of one YAML document from a user, and its node tree (for line numbers of later errors)."""
    root = compose_user_yaml(text, path)
    return construct(root, path), root
