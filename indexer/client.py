"""One guarded HTTP client for everything capindex fetches from the network.

Only http and https; redirects followed by hand (capped, each hop re-checked by the address
policy); connect/read timeouts plus a total deadline per fetch, so a server that drips bytes
cannot hold a slot forever; a byte cap enforced while streaming; a global and a per-host
concurrency limit; conditional requests when validators are known.
"""

from __future__ import annotations

import asyncio
import tempfile
from email.utils import parsedate_to_datetime
from typing import IO
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx

from .fetching import FetchError, FetchFailure, Limits, Response
from .policy import AddressRefused, GuardedBackend
from .urls import UrlError, normalize_url

REDIRECTS = {301, 302, 303, 307, 308}
USER_AGENT = "capindex/0.1 (+https://capindex.org)"


def freshness(headers: httpx.Headers) -> float:
    """Seconds a response stays fresh for a private cache (RFC 9111): max-age minus Age, else
    Expires minus Date; 0 when the server asks for revalidation or says nothing."""
    directives = {}
    for part in headers.get("Cache-Control", "").split(","):
        name, _, value = part.strip().partition("=")
        directives[name.lower()] = value.strip('"')
    if "no-store" in directives or "no-cache" in directives:
        return 0.0
    age = float(headers.get("Age", "0")) if headers.get("Age", "").isdigit() else 0.0
    if directives.get("max-age", "").isdigit():
        return max(0.0, int(directives["max-age"]) - age)
    expires, date = headers.get("Expires"), headers.get("Date")
    if expires and date:
        try:
            return max(0.0, (parsedate_to_datetime(expires) - parsedate_to_datetime(date)).total_seconds() - age)
        except (TypeError, ValueError):
            return 0.0
    return 0.0


class _GuardedTransport(httpx.AsyncHTTPTransport):
    def __init__(self, limits: Limits):
        super().__init__(trust_env=False, limits=httpx.Limits(max_connections=limits.concurrency,
                                                              max_keepalive_connections=limits.concurrency))
        # The same pool httpx builds, on a network backend that checks every address it connects to.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=limits.concurrency,
            max_keepalive_connections=limits.concurrency,
            keepalive_expiry=5.0,
            network_backend=GuardedBackend(limits.allow_private, limits.allowed_networks),
        )


async def _drain(response: httpx.Response, limit: int = 65536) -> None:
    """Read a small body to its end so the connection goes back to the pool; past `limit`, give up
    (closing the response then closes the connection)."""
    size = 0
    async for chunk in response.aiter_raw():
        size += len(chunk)
        if size > limit:
            return


class GuardedClient:
    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        # Requests go straight to the transport: redirects are followed by hand, and a crawler has
        # no use for httpx.AsyncClient's cookie jar, auth or hooks (about a tenth of its CPU per request).
        self._transport = _GuardedTransport(self.limits)
        self._timeouts = httpx.Timeout(self.limits.read_timeout, connect=self.limits.connect_timeout).as_dict()
        self._global = asyncio.Semaphore(self.limits.concurrency)
        self._hosts: dict[str, asyncio.Semaphore] = {}

    async def __aenter__(self) -> GuardedClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._transport.aclose()

    def _host_slot(self, url: str) -> asyncio.Semaphore:
        host = urlsplit(url).netloc
        if host not in self._hosts:
            self._hosts[host] = asyncio.Semaphore(self.limits.per_host)
        return self._hosts[host]

    async def fetch(self, url: str, etag: str | None = None, last_modified: str | None = None) -> Response:
        """GET `url`; FetchFailure for anything but a 200 body within the caps or a 304."""
        try:
            async with asyncio.timeout(self.limits.total_timeout):
                return await self._fetch(url, etag, last_modified)
        except TimeoutError:
            raise FetchFailure(f"timed out (no complete response within {self.limits.total_timeout:g} s)") from None

    async def _fetch(self, url: str, etag: str | None, last_modified: str | None) -> Response:
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", "Accept-Encoding": "gzip, deflate"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        current = url
        for _ in range(self.limits.max_redirects + 1):
            async with self._global, self._host_slot(current):
                try:
                    request = httpx.Request("GET", current, headers=headers, extensions={"timeout": self._timeouts})
                    response = await self._transport.handle_async_request(request)
                    try:
                        if response.status_code in REDIRECTS or response.status_code == 304:
                            await _drain(response)
                        if response.status_code in REDIRECTS:
                            location = response.headers.get("Location")
                            if not location:
                                raise FetchFailure(f"HTTP {response.status_code} without a Location")
                            try:
                                current = normalize_url(urljoin(current, location))
                            except UrlError as exc:
                                raise FetchFailure(f"redirected to {location!r}: {exc}") from None
                            continue
                        if response.status_code == 304:
                            return Response(current, 304, None, etag, last_modified, freshness(response.headers))
                        if response.status_code != 200:
                            raise FetchFailure(f"HTTP {response.status_code}")
                        return Response(current, 200, await self._read(response), response.headers.get("ETag"),
                                        response.headers.get("Last-Modified"), freshness(response.headers))
                    finally:
                        await response.aclose()
                except AddressRefused as exc:
                    raise FetchFailure(f"refused: {exc}") from None
                except httpx.TimeoutException as exc:
                    raise FetchFailure(f"timed out ({exc.__class__.__name__})") from None
                except httpx.HTTPError as exc:
                    cause = exc.__cause__ or exc.__context__
                    if isinstance(cause, AddressRefused):
                        raise FetchFailure(f"refused: {cause}") from None
                    raise FetchFailure(f"{exc.__class__.__name__}: {exc}") from None
        raise FetchFailure(f"more than {self.limits.max_redirects} redirects")

    async def _read(self, response: httpx.Response) -> IO[bytes]:
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.limits.max_bytes:
            raise FetchFailure(f"too large: Content-Length {declared} > {self.limits.max_bytes} bytes")
        body = tempfile.SpooledTemporaryFile(max_size=1 << 20)
        size = 0
        async for chunk in response.aiter_bytes():  # decoded: a compressed bomb hits the cap too
            size += len(chunk)
            if size > self.limits.max_bytes:
                body.close()
                raise FetchFailure(f"too large: more than {self.limits.max_bytes} bytes")
            body.write(chunk)
        body.seek(0)
        return body


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
