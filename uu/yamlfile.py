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
        raise YamlInputError(f"{p}: cannot read ({e.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise YamlInputError(f"{p}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        # a FIFO would block until someone writes to it, a device may never end
        raise YamlInputError(f"{p}: not a regular file (a pipe, socket or device); give a .yaml file")
    if st.st_size > limit:
        raise YamlInputError(f"{p}: the file is too large ({st.st_size // 1024} kB; at most {limit // 1024} kB)")
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the check, opening it does not wait
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise YamlInputError(f"{p}: not a regular file (a pipe, socket or device); give a .yaml file")
            data = f.read(limit + 1)
    except OSError as e:
        raise YamlInputError(f"{p}: cannot read ({e.strerror})") from None
    if len(data) > limit:
        raise YamlInputError(f"{p}: the file is too large (more than {limit // 1024} kB)")
    return decode(data, str(p))


def decode(data: bytes, path: str) -> str:
    """UTF-8 text (a UTF-8 byte-order mark is allowed); a clear YamlInputError for anything else."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) >= 2 and (data[0] == 0 or data[1] == 0)):
        raise YamlInputError(f"{path}: the file looks like UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise YamlInputError(f"{path}: line {line}: not UTF-8 text (byte {data[e.start]:#04x} at offset "
                             f"{e.start}); save the file as UTF-8") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise YamlInputError(f"{path}: line {line}: a NUL character; this is not a text file")
    return text


def _where(mark: Any) -> str:
    return f"line {mark.line + 1}: " if mark is not None else ""


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
                raise YamlInputError(f"{path}: {_where(ev.start_mark)}nested more than {MAX_DEPTH} levels deep")
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
        raise YamlInputError(f"{path}: the text is too long (at most {MAX_BYTES // 1024} kB)")
    try:
        _check_events(text, path)
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = str(getattr(e, "problem", None) or e)
        if "nesting depth" in problem:  # libyaml's own limit, met while it scans ahead of our check
            raise YamlInputError(f"{path}: {_where(mark)}nested more than {MAX_DEPTH} levels deep") from None
        raise YamlInputError(f"{path}: {_where(mark)}not valid YAML ({problem})") from None
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
        raise YamlInputError(f"{path}: {_where(mark)}not valid YAML ({getattr(e, 'problem', None) or e})") from None
    except (ValueError, OverflowError, TypeError) as e:
        # e.g. int() refuses more than 4,300 digits; a timestamp with day 99. The node is not known here,
        # so find the first scalar whose own construction fails.
        raise YamlInputError(f"{path}: {_where(_bad_scalar(root))}a value that cannot be read ({_plain(e)})") from None
    finally:
        loader.dispose()


def _plain(e: Exception) -> str:
    """The reason a value cannot be read, in words for a learner: Python's message for a too-long number
    names `sys.set_int_max_str_digits()`, which means nothing to them."""
    text = str(e)
    if isinstance(e, ValueError) and "digits" in text and "int" in text:
        return "a number with more than 4,300 digits"
    return text


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
