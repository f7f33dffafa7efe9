"""Fetch one document over HTTP(S) with a byte cap enforced while streaming."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx

from .fetching import FetchError

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
MAX_REDIRECTS = 5


def fetch_bytes(url: str, *, max_bytes: int = DEFAULT_MAX_BYTES, timeout: httpx.Timeout = DEFAULT_TIMEOUT) -> bytes:
    if urlsplit(url).scheme not in ("http", "https"):
        raise FetchError(f"{url}: only http and https URLs can be fetched")
    try:
        with httpx.Client(follow_redirects=True, max_redirects=MAX_REDIRECTS, timeout=timeout) as client:
            with client.stream("GET", url, headers={"Accept": "application/json"}) as response:
                if urlsplit(str(response.url)).scheme not in ("http", "https"):
                    raise FetchError(f"{url}: redirected to a non-http(s) URL")
                if response.status_code != 200:
                    raise FetchError(f"{url}: HTTP {response.status_code}")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > max_bytes:
                        raise FetchError(f"{url}: larger than {max_bytes} bytes")
                    chunks.append(chunk)
                return b"".join(chunks)
    except httpx.TooManyRedirects:
        raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects") from None
    except httpx.TimeoutException:
        raise FetchError(f"{url}: timed out") from None
    except httpx.HTTPError as exc:
        raise FetchError(f"{url}: {exc.__class__.__name__}: {exc}") from None
