"""Who parses the next document: the worker, or the crawler's own process (the store's writer).

The worker fetches and parses; the writer stores. Which one is short of time depends on the
machine, the documents and the disk (a checkpoint's fsync blocks the writer without using its
CPU), so the split is measured, not fixed: every BALANCE_SECONDS the writer compares how busy
each side was (the writer: the share of time its event loop was not waiting for events; the
worker: CPU time) and moves part of the parsing towards the less busy side.
"""

from __future__ import annotations

import asyncio
import selectors
import time

BALANCE_SECONDS = 0.1
MAX_LOCAL_SHARE = 0.8  # the writer never takes all the parsing: it must keep up with the writes
GAIN = 0.5  # share moved per unit of busy-ness difference, per interval


class IdleTimingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """The event loop's selector, adding up the time the loop spent waiting for events."""

    def __init__(self) -> None:
        super().__init__()
        self.idle = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        started = time.monotonic()
        try:
            return super().select(timeout)
        finally:
            self.idle += time.monotonic() - started


def timed_event_loop() -> asyncio.AbstractEventLoop:
    return asyncio.SelectorEventLoop(IdleTimingSelector())


class ParseBalancer:
    def __init__(self, selector: IdleTimingSelector | None = None):
        """`selector`: the writer's event loop's (without one, the writer never parses)."""
        self.local_share = 0.0  # of documents the writer parses itself
        self._selector = selector
        self._credit = 0.0
        self._window_start = time.monotonic()
        self._idle_at_start = selector.idle if selector else 0.0
        self._worker_cpu: float | None = None  # the worker's CPU seconds, as last reported
        self._worker_cpu_at_start: float | None = None

    def worker_cpu(self, seconds: float) -> None:
        if self._worker_cpu_at_start is None:
            self._worker_cpu_at_start = seconds
        self._worker_cpu = seconds

    def parse_here(self) -> bool:
        """Whether the writer should parse the next document itself."""
        now = time.monotonic()
        elapsed = now - self._window_start
        if (elapsed >= BALANCE_SECONDS and self._selector is not None and self._worker_cpu is not None
                and self._worker_cpu_at_start is not None):
            writer = 1.0 - (self._selector.idle - self._idle_at_start) / elapsed
            worker = (self._worker_cpu - self._worker_cpu_at_start) / elapsed
            self.local_share = min(MAX_LOCAL_SHARE, max(0.0, self.local_share + GAIN * (worker - writer)))
            self._window_start, self._idle_at_start, self._worker_cpu_at_start = now, self._selector.idle, self._worker_cpu
        self._credit += self.local_share
        if self._credit >= 1.0:
            self._credit -= 1.0
            return True
        return False
