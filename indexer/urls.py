"""URL normalisation, so one document is one URL however a federation spells it."""

from __future__ import annotations

import posixpath
from urllib.parse import urljoin, urlsplit, urlunsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


class UrlError(ValueError):
    pass


def normalize_url(url: str, base: str | None = None) -> str:
    """Absolute http(s) URL with lower-case scheme and host, no default port, no dot segments,
    no fragment, and '/' for an empty path. Relative URLs resolve against `base`."""
    raw = urljoin(base, url) if base else url
    try:
        parts = urlsplit(raw.strip())
        port = parts.port
    except ValueError as exc:
        raise UrlError(f"{url!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise UrlError(f"{url!r}: only http and https URLs can be crawled")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise UrlError(f"{url!r}: no host")
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = parts.path or "/"
    trailing = path.endswith("/")
    path = posixpath.normpath(path)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    if trailing and path != "/":
        path += "/"
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def site_documents(origin: str) -> list[str]:
    """Where a site advertises its indexes, in the order the standard tries them."""
    base = normalize_url(origin)
    root = urlunsplit(urlsplit(base)[:2] + ("/", "", ""))
    return [root + ".well-known/capabilities", root + ".well-known/capabilities.json"]
