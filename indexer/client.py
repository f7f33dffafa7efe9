"""One guarded HTTP client for everything capindex fetches from the network.

Only http and https; redirects followed by hand (capped, each hop re-checked by the address
policy); connect/read timeouts plus a total deadline per fetch, so a server that drips bytes
cannot hold a slot forever; a byte cap enforced while streaming; a global and a per-host
concurrency limit; conditional requests when validators are known.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import ssl
import tempfile
import zlib
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import IO
from urllib.parse import SplitResult, urljoin, urlsplit

import httpcore

from .fetching import FetchError, FetchFailure, HttpStatusError, Limits, Response
from .policy import AddressRefused, GuardedBackend
from .urls import UrlError, normalize_url

REDIRECTS = {301, 302, 303, 307, 308}
USER_AGENT = "capindex/0.1 (+https://capindex.org)"


def freshness(headers: Mapping[str, str]) -> float:
    """Seconds a response stays fresh for a private cache (RFC 9111): max-age minus Age, else
    Expires minus Date; 0 when the server asks for revalidation or says nothing. `headers` is
    looked up by lower-case names."""
    directives = {}
    for part in headers.get("cache-control", "").split(","):
        name, _, value = part.strip().partition("=")
        directives[name.lower()] = value.strip('"')
    if "no-store" in directives or "no-cache" in directives:
        return 0.0
    age = float(headers.get("age", "0")) if headers.get("age", "").isdigit() else 0.0
    if directives.get("max-age", "").isdigit():
        return max(0.0, int(directives["max-age"]) - age)
    expires, date = headers.get("expires"), headers.get("date")
    if expires and date:
        try:
            return max(0.0, (parsedate_to_datetime(expires) - parsedate_to_datetime(date)).total_seconds() - age)
        except (TypeError, ValueError):
            return 0.0
    return 0.0


def header_map(pairs: list[tuple[bytes, bytes]]) -> dict[str, str]:
    """Response headers by lower-case name; a repeated header's values joined with ", " (RFC 9110 5.3)."""
    out: dict[str, str] = {}
    for raw_name, raw_value in pairs:
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1").strip()
        out[name] = f"{out[name]}, {value}" if name in out else value
    return out


@functools.cache
def ssl_context() -> ssl.SSLContext:
    """One TLS context for every client in the process, hostnames checked: the system's trust store
    (which honours SSL_CERT_FILE / SSL_CERT_DIR, and holds a site's own CA, e.g. a proxy's) plus
    certifi's bundle (httpx's default). Loading them takes ~20 ms."""
    import certifi

    context = ssl.create_default_context()
    context.load_verify_locations(cafile=certifi.where())
    return context


class _Decoder:
    """Undo a gzip or deflate Content-Encoding, never producing more than `limit` bytes: a small
    compressed body that inflates past the cap (a "bomb") fails as early as a big plain one."""

    def __init__(self, coding: str, limit: int):
        self.limit = limit
        self.produced = 0
        self._first = True
        self._coding = coding
        self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> bytes:
        if self._coding == "deflate" and self._first:  # "deflate" is zlib-wrapped by the RFC, raw by some servers
            self._first = False
            if data and (data[0] & 0x0F) != 8:
                self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        out = []
        while data:
            try:
                chunk = self._inflate.decompress(data, self.limit - self.produced + 1)
            except zlib.error as exc:
                raise FetchFailure(f"cannot decode its {self._coding} Content-Encoding ({exc})") from None
            self.produced += len(chunk)
            out.append(chunk)
            if self.produced > self.limit:
                break
            data = self._inflate.unconsumed_tail
        return b"".join(out)


def _decoder(coding: str, limit: int) -> _Decoder | None:
    coding = coding.strip().lower()
    if coding in ("", "identity"):
        return None
    if coding in ("gzip", "x-gzip", "deflate"):
        return _Decoder(coding, limit)
    raise FetchFailure(f"unsupported Content-Encoding {coding!r}")


def _host_header(parts: SplitResult) -> bytes:
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host.encode("idna").decode("ascii")
    return (f"{host}:{parts.port}" if parts.port else host).encode("ascii")


async def _drain(response: httpcore.Response, limit: int = 65536) -> None:
    """Read a small body to its end so the connection goes back to the pool; past `limit`, give up
    (closing the response then closes the connection)."""
    size = 0
    async for chunk in response.aiter_stream():
        size += len(chunk)
        if size > limit:
            return


class GuardedClient:
    """httpx's connection pool (httpcore) on a guarded network backend, used directly: redirects
    are followed by hand, content codings undone here, and a crawler has no use for the cookie
    jar, auth or URL models of httpx.AsyncClient (about a quarter of the CPU of a small fetch,
    and half the import time)."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context(),
            max_connections=self.limits.concurrency,
            max_keepalive_connections=self.limits.concurrency,
            keepalive_expiry=5.0,
            network_backend=GuardedBackend(self.limits.allow_private, self.limits.allowed_networks),
        )
        read = self.limits.read_timeout
        self._timeouts = {"connect": self.limits.connect_timeout, "read": read, "write": read, "pool": read}
        self._global = asyncio.Semaphore(self.limits.concurrency)
        self._hosts: dict[str, asyncio.Semaphore] = {}

    async def __aenter__(self) -> GuardedClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._pool.aclose()

    def _host_slot(self, url: str) -> asyncio.Semaphore:
        host = urlsplit(url).netloc
        if host not in self._hosts:
            self._hosts[host] = asyncio.Semaphore(self.limits.per_host)
        return self._hosts[host]

    async def fetch(self, url: str, etag: str | None = None, last_modified: str | None = None) -> Response:
        """GET a capability document: a 200 body within the caps, or a 304; FetchFailure otherwise."""
        return await self.get(url, etag=etag, last_modified=last_modified)

    async def get(self, url: str, *, headers: Mapping[str, str] | None = None, etag: str | None = None,
                  last_modified: str | None = None, accept: tuple[int, ...] = (200,),
                  hash_with: tuple[str, ...] = ()) -> Response:
        """GET `url` under the limits: a Response for a status in `accept` (or 304 to a conditional
        request), HttpStatusError for another status, FetchFailure for anything else. 429, 5xx
        and dropped connections are retried with backoff while the total deadline allows.
        `hash_with` names hashlib algorithms computed over the body as it streams."""
        request = [(b"User-Agent", USER_AGENT.encode()), (b"Accept", b"application/json"),
                   (b"Accept-Encoding", b"gzip, deflate")]
        for name, value in (headers or {}).items():
            request = [h for h in request if h[0].lower() != name.lower().encode()]
            request.append((name.encode("ascii"), value.encode("latin-1", "replace")))
        if etag:
            request.append((b"If-None-Match", etag.encode("latin-1", "replace")))
        if last_modified:
            request.append((b"If-Modified-Since", last_modified.encode("latin-1", "replace")))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.total_timeout
        attempt = 0
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    return await self._get(url, request, accept, hash_with, etag, last_modified)
            except TimeoutError:
                raise FetchFailure(f"timed out (no complete response within {self.limits.total_timeout:g} s)") from None
            except FetchFailure as exc:
                wait = _retry_after(exc, attempt, self.limits)
                if wait is None or loop.time() + wait >= deadline:
                    raise
                attempt += 1
                await asyncio.sleep(wait)

    async def _get(self, url: str, headers: list[tuple[bytes, bytes]], accept: tuple[int, ...],
                   hash_with: tuple[str, ...], etag: str | None, last_modified: str | None) -> Response:
        current = url
        for _ in range(self.limits.max_redirects + 1):
            parts = urlsplit(current)
            if parts.scheme not in ("http", "https"):
                raise FetchFailure(f"not an http(s) URL: {current}")
            async with self._global, self._host_slot(current):
                try:
                    async with self._pool.stream("GET", current, headers=[(b"Host", _host_header(parts)), *headers],
                                                 extensions={"timeout": self._timeouts}) as response:
                        status = response.status
                        found = header_map(response.headers)
                        if status in REDIRECTS:
                            await _drain(response)
                            location = found.get("location")
                            if not location:
                                raise FetchFailure(f"HTTP {status} without a Location")
                            try:
                                target = normalize_url(urljoin(current, location))
                            except UrlError as exc:
                                raise FetchFailure(f"redirected to {location!r}: {exc}") from None
                            if _origin(target) != _origin(current):  # credentials stay with their origin
                                headers = [h for h in headers if h[0].lower() not in _CREDENTIALS]
                            current = target
                            continue
                        if status == 304 and (etag or last_modified):
                            await _drain(response)
                            return Response(current, 304, None, etag, last_modified, freshness(found), found)
                        if status not in accept:
                            raise HttpStatusError(status, found, await _small_body(response), current)
                        body, digests = await self._read(response, found, hash_with)
                        return Response(current, status, body, found.get("etag"), found.get("last-modified"),
                                        freshness(found), found, digests)
                except AddressRefused as exc:
                    raise FetchFailure(f"refused: {exc}") from None
                except httpcore.TimeoutException as exc:
                    raise FetchFailure(f"timed out ({exc.__class__.__name__})") from None
                except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol, OSError) as exc:
                    cause = exc.__cause__ or exc.__context__
                    if isinstance(cause, AddressRefused):
                        raise FetchFailure(f"refused: {cause}") from None
                    raise _Dropped(f"{exc.__class__.__name__}: {exc}") from None
        raise FetchFailure(f"more than {self.limits.max_redirects} redirects")

    async def _read(self, response: httpcore.Response, headers: dict[str, str],
                    hash_with: tuple[str, ...] = ()) -> tuple[IO[bytes], dict[str, str]]:
        limit = self.limits.max_bytes
        declared = headers.get("content-length")
        coding = headers.get("content-encoding", "")
        if declared and declared.isdigit() and int(declared) > limit:
            raise FetchFailure(f"too large: Content-Length {declared} > {limit} bytes")
        decoder = _decoder(coding, limit)
        hashers = [hashlib.new(name) for name in hash_with]
        body = tempfile.SpooledTemporaryFile(max_size=1 << 20)
        size = 0
        try:
            async for chunk in response.aiter_stream():
                if decoder is not None:  # the cap applies to decoded bytes
                    chunk = decoder.feed(chunk)
                size += len(chunk)
                if size > limit:
                    raise FetchFailure(f"too large: more than {limit} bytes")
                body.write(chunk)
                for hasher in hashers:
                    hasher.update(chunk)
        except BaseException:
            body.close()
            raise
        body.seek(0)
        return body, {name: hasher.hexdigest() for name, hasher in zip(hash_with, hashers, strict=True)}


_CREDENTIALS = {b"authorization", b"cookie", b"proxy-authorization"}


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower()


class _Dropped(FetchFailure):
    """The connection failed or dropped: worth another try."""


RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER = 30.0


def _retry_after(failure: FetchFailure, attempt: int, limits: Limits) -> float | None:
    """Seconds to wait before retrying after `failure`, or None when it is not worth retrying."""
    if attempt >= limits.retries:
        return None
    if isinstance(failure, HttpStatusError):
        if failure.status not in RETRY_STATUSES:
            return None
        given = failure.headers.get("retry-after", "")
        if given.isdigit():
            return min(float(given), MAX_RETRY_AFTER)
    elif not isinstance(failure, _Dropped):
        return None
    return limits.retry_backoff * (2 ** attempt)


async def _small_body(response: httpcore.Response, limit: int = 65536) -> bytes:
    """Up to `limit` bytes of an error response (an API says why in it)."""
    parts, size = [], 0
    async for chunk in response.aiter_stream():
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            break
    return b"".join(parts)[:limit]


def fetch_once(url: str, limits: Limits | None = None) -> IO[bytes]:
    """Fetch one document synchronously through the guarded client; a rewound temporary file."""
    async def fetch() -> IO[bytes]:
        async with GuardedClient(limits) as client:
            response = await client.fetch(url)
            assert response.body is not None  # no validators sent: never a 304
            return response.body

    try:
        return asyncio.run(fetch())
    except FetchFailure as exc:
        raise FetchError(f"{url}: {exc}") from None
