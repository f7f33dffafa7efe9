"""Helper processes: when one is worth starting, and how it dies with its parent.

Light on imports: the crawler forks its worker before loading the validation models, which the
worker then loads for itself (a re-crawl of fresh documents never needs them).
"""

from __future__ import annotations

import os
import sys
from typing import Any

PARALLEL_FROM_BYTES = 4 << 20  # below this, a helper process costs more than it saves


def die_with_parent(parent_pid: int) -> None:
    """In a helper process: exit when the parent dies, even by SIGKILL (Linux), never linger."""
    if sys.platform == "linux":
        import ctypes
        import signal

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(0)


def prepare_document(raw: bytes, where: str, expect: str | None = None) -> Any:
    """In the worker: package_stream.prepare_document, imported there on first use."""
    from .package_stream import prepare_document as prepare

    return prepare(raw, where, expect)


def warm_up() -> None:
    """In a worker: import what prepare_document needs before the first document arrives."""
    from . import package_stream  # noqa: F401
