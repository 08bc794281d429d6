"""Compile Voila's page templates once per server instead of once per page.

Voila 0.5 builds a new `VoilaExporter` for every page (and every pool kernel), and nbconvert gives each
exporter a new Jinja environment, so the templates of the page (Voila's lab template, nbconvert's base and
ours, about ten files) are parsed and compiled to Python again each time. Profiled with py-spy during
`uu bench --app`'s class of 30 arriving together, that compilation was over 80% of the server's event loop,
about 0.25 s of CPU per page, and the server's loop is one core for every learner.

`patch_template_cache()` gives every such environment a shared Jinja bytecode cache (Jinja's own mechanism
for this: a template's compiled code is stored with the checksum of its source, and a changed source is
compiled again). The output is the same page; only the compiling is skipped.
"""

from __future__ import annotations

import logging
import threading
from types import CodeType

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

log = logging.getLogger(__name__)

_MARK = "_uu_template_cache"


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept in this process's memory as code objects, with the checksum of the source they
    were compiled from. Keeping the code objects themselves (immutable; a template binds its environment only
    when it runs the code) skips even the unmarshalling that Jinja's file and memcached caches do, which was
    still a fifth of a page's rendering."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType]] = {}
        self._lock = threading.Lock()  # nbconvert may render in worker threads
        self.hits = 0
        self.misses = 0

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            entry = self._code.get(bucket.key)
        if entry is None or entry[0] != bucket.checksum:  # never compiled, or its source changed since
            self.misses += 1
            return
        bucket.code = entry[1]
        self.hits += 1

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            with self._lock:
                self._code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        with self._lock:
            self._code.clear()


_SETTINGS = ("is_async", "optimized", "block_start_string", "block_end_string", "variable_start_string",
             "variable_end_string", "comment_start_string", "comment_end_string", "line_statement_prefix",
             "line_comment_prefix", "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline",
             "autoescape")
CACHES: dict[tuple, MemoryBytecodeCache] = {}


def cache_for(environment) -> MemoryBytecodeCache:
    """The cache for environments with `environment`'s settings: compiled code depends on them (async or not,
    delimiters, extensions), and a bucket's key names only the template."""
    key = (*(getattr(environment, name, None) for name in _SETTINGS), tuple(sorted(environment.extensions)))
    return CACHES.setdefault(key, MemoryBytecodeCache())


def patch_template_cache() -> bool:
    """Make every nbconvert template exporter's Jinja environment use a shared cache (`cache_for`). Wraps
    `TemplateExporter._create_environment` (nbconvert's, stable since nbconvert 6; Voila's exporter inherits
    it). Guarded: if nbconvert has no such method, it logs a warning and pages are compiled as before.
    Idempotent. Returns True if patched."""
    try:
        from nbconvert.exporters.templateexporter import TemplateExporter

        original = TemplateExporter._create_environment
    except (ImportError, AttributeError) as e:
        log.warning("uu app: page templates are compiled for each page (%s)", e)
        return False
    if getattr(TemplateExporter, _MARK, False):
        return True

    def create_environment(self):
        environment = original(self)
        environment.bytecode_cache = cache_for(environment)
        return environment

    create_environment.__doc__ = original.__doc__
    TemplateExporter._create_environment = create_environment
    setattr(TemplateExporter, _MARK, True)
    return True
