"""What makes each page and message cheaper for `uu app`'s server (the patches that install these are in
`uu.server.patches`) (one event loop, one core, for
every learner). Measured with cProfile and py-spy (`--gil`) on the server during `uu bench --app`'s class of
30 learners arriving together.

Page templates compiled once per server (`uu.server.patches.patch_template_cache`). Voila 0.5 builds a new `VoilaExporter` for
every page (and every pool kernel), and nbconvert gives each exporter a new Jinja environment, so the page's
templates (Voila's lab template, nbconvert's base templates and ours, about ten files) were parsed and compiled
to Python again for each page: about 0.1 s of the server's CPU per learner. Every such environment now gets
a shared cache of the compiled code (Jinja's bytecode-cache hook: the code is kept with the checksum of its
source, and a changed source is compiled again). The page is the same; only the compiling is skipped.

Message dates parsed by the standard library (`uu.server.patches.patch_fast_dates`). jupyter_client parses the ISO 8601 date
in the header of every kernel message it reads with dateutil's pure-Python parser (8 us a date); the server
reads each of a kernel's messages at least twice (its activity tracker, then nbclient or the websocket), and
a learner's page is about 170 messages: 13% of the server's CPU in the burst. Python 3.11's
`datetime.fromisoformat` parses the same strings (0.2 us); anything it refuses still goes to dateutil.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from types import CodeType
from typing import Any

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


def cache_for(environment: Any) -> MemoryBytecodeCache:
    """The cache for environments with `environment`'s settings: compiled code depends on them (async or not,
    delimiters, extensions), and a bucket's key names only the template."""
    key = (*(getattr(environment, name, None) for name in _SETTINGS), tuple(sorted(environment.extensions)))
    return CACHES.setdefault(key, MemoryBytecodeCache())


def parse_iso_date(text: str) -> datetime:
    """`datetime.fromisoformat`, or dateutil's parser for what it refuses (the same result where both parse)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        from dateutil.parser import isoparse

        return isoparse(text)
