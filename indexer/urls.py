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


def is_valid_ref_name(ref: str) -> bool:
    """A branch or tag name git accepts (check-ref-format's rules): never one that looks like an
    option, so it is safe on a git command line and in an API path."""
    return not (not ref or ref.startswith(("-", "/", ".")) or ref.endswith(("/", ".", ".lock")) or ".." in ref
                or "//" in ref or "@{" in ref or ref == "@" or "/." in ref
                or any(ord(c) < 0x21 or ord(c) == 0x7F or c in "~^:?*[\\" for c in ref))
