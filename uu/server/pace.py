"""How fast one page may send its kernel messages: a token bucket per websocket (`InboundPace`), which the
websocket patch (`uu.server.patches.patch_websocket_pace`) consults before each message."""

from __future__ import annotations

import os
from collections.abc import Callable

# What one page may send its kernel, in bytes per second, with a burst: a learner's clicks are a few hundred
# bytes, and a paste or upload the page allows (uu.yamlfile.MAX_BYTES) fits in the burst. Beyond it the server
# stops reading that connection for a while (tornado reads the next message only once on_message's coroutine
# returns), so a flood costs its own kernel memory slowly and the server's one core stays with the class:
# without it, 739 messages of 900 kB in 10 s raised the other learners' click p95 to 471 ms.
INBOUND_BYTES_PER_S = 1024 * 1024
INBOUND_BURST_BYTES = 2 * 1024 * 1024
INBOUND_ENV = "UU_INBOUND_BYTES_PER_S"  # another rate (the hostile bench's test floods faster)


def inbound_rate() -> float:
    try:
        rate = float(os.environ.get(INBOUND_ENV, INBOUND_BYTES_PER_S))
    except ValueError:
        return INBOUND_BYTES_PER_S
    return rate if rate > 0 else INBOUND_BYTES_PER_S


class InboundPace:
    """A token bucket per websocket: `wait(n)` is how long to pause before handling a message of n bytes."""

    def __init__(self, rate: float | None = None, burst: float = INBOUND_BURST_BYTES,
                 clock: Callable[[], float] | None = None):
        import time

        self.rate = rate if rate is not None else inbound_rate()
        self.burst = max(burst, float(self.rate))
        self.clock = clock or time.monotonic
        self.tokens = burst
        self.at = self.clock()

    def wait(self, n: int) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= n
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate
