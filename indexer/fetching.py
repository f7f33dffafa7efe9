"""What a fetch runs under, returns, or fails with: the guarded client's contract, without httpx.

Kept apart from `client.py` so that code which only reads results (and the CLI at start-up)
does not pay for importing the HTTP stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    retries: int = 2  # after a 429, a 5xx or a dropped connection, within total_timeout
    retry_backoff: float = 0.5  # seconds before the first retry, doubling (a Retry-After header wins)


class FetchFailure(Exception):
    """A fetch that produced no usable response; str() is the reason, one line."""


class HttpStatusError(FetchFailure):
    """The server answered with a status the caller did not accept; what it said is kept (a
    registry's 404, an API's rate-limit headers)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes, url: str):
        super().__init__(f"HTTP {status}")
        self.status, self.headers, self.body, self.url = status, headers, body, url


@dataclass
class Response:
    url: str  # after redirects
    status: int  # 200 (or another accepted status) or 304
    body: IO[bytes] | None  # a rewound temporary file, None for 304
    etag: str | None
    last_modified: str | None
    fresh_for: float = 0.0  # seconds the server says this response stays fresh
    headers: dict[str, str] = field(default_factory=dict)  # by lower-case name
    digests: dict[str, str] = field(default_factory=dict)  # hashlib name -> hex digest of the (decoded) body


class FetchError(CapindexError, RuntimeError):
    """A document could not be fetched; the message says where and why."""


def read_location(location: str, limits: Limits | None = None) -> bytes:
    """The bytes of a file, or of an http(s) URL fetched through the guarded client (address
    policy, caps and retries included). FetchError names the location and why."""
    from urllib.parse import urlsplit

    if urlsplit(location).scheme in ("http", "https"):
        from .client import fetch_once

        with fetch_once(location, limits) as fp:
            return fp.read()
    try:
        with open(location, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise FetchError(f"{location}: cannot read ({exc.strerror or exc})") from None
