"""What a fetch runs under, returns, or fails with: the guarded client's contract, without httpx.

Kept apart from `client.py` so that code which only reads results (and the CLI at start-up)
does not pay for importing the HTTP stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from schemas.errors import CapindexError


@dataclass(frozen=True)
class Limits:
    concurrency: int = 32
    per_host: int = 4  # polite to one server, and on 2 cores more in flight only competes with the writer
    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    total_timeout: float = 60.0
    max_bytes: int = 32 * 1024 * 1024
    max_redirects: int = 5
    allow_private: bool = False
    allowed_networks: tuple[str, ...] = ()  # CIDRs allowed despite the policy, e.g. an internal mirror


class FetchFailure(Exception):
    """A fetch that produced no usable response; str() is the reason, one line."""


@dataclass
class Response:
    url: str  # after redirects
    status: int  # 200 or 304
    body: IO[bytes] | None  # a rewound temporary file for 200
    etag: str | None
    last_modified: str | None
    fresh_for: float = 0.0  # seconds the server says this response stays fresh


class FetchError(CapindexError, RuntimeError):
    """A document could not be fetched; the message says where and why."""
