"""The console script: `capindex …`.

A crawl forks a worker process that must load the HTTP stack and the validation models (about 0.15 s)
before it can handle the first document. Started here, before the CLI itself loads, that work
overlaps with the CLI's own start-up. Any other command never starts it.
"""

from __future__ import annotations

import sys


def main() -> None:
    if "crawl" in sys.argv[1:]:
        from .worker_process import start_early

        start_early()
    from .cli import entry_point

    entry_point()
