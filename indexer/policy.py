"""Which network addresses the crawler may connect to.

Every TCP connection, the first and each one after a redirect, goes through GuardedBackend:
the host is resolved, every address it resolves to is checked, and the connection is made to
an address that was checked, so a DNS answer that changes between check and use changes
nothing. A document on the internet must not make capindex read an internal service.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from typing import Any

import httpcore

from . import streams


class AddressRefused(OSError):
    """The target resolves to an address the policy does not allow."""


def address_problem(ip: str) -> str | None:
    """Why the crawler must not connect to `ip` by default, or None for a public address."""
    addr = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    for test, name in (
        ("is_loopback", "loopback"),
        ("is_private", "private"),
        ("is_link_local", "link-local"),
        ("is_multicast", "multicast"),
        ("is_reserved", "reserved"),
        ("is_unspecified", "unspecified"),
    ):
        if getattr(addr, test):
            return f"{name} address {addr}"
    if not addr.is_global:  # shared (100.64/10), documentation ranges and the like
        return f"non-global address {addr}"
    return None


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """asyncio connections for httpcore, with every address checked before it is connected to."""

    def __init__(self, allow_private: bool = False, allowed_networks: Iterable[str] = ()):
        self.allow_private = allow_private
        self.allowed = [ipaddress.ip_network(n, strict=False) for n in allowed_networks]

    def problem(self, ip: str) -> str | None:
        if self.allow_private:
            return None
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
        if any(addr in net for net in self.allowed):
            return None
        return address_problem(ip)

    async def _addresses(self, host: str, port: int) -> list[str]:
        try:
            ipaddress.ip_address(host.strip("[]"))
            return [host.strip("[]")]
        except ValueError:
            pass
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        return list(dict.fromkeys(info[4][0] for info in infos))

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self._addresses(host, port)
        for ip in addresses:  # one bad answer refuses the host: round-robin DNS must not pick it later
            problem = self.problem(ip)
            if problem:
                raise AddressRefused(f"{host} resolves to a {problem} (use --allow-private to allow)")
        last: Exception | None = None
        for ip in addresses:
            try:
                return await streams.connect(ip, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout, OSError) as exc:
                last = exc
        raise last if last else httpcore.ConnectError(f"{host}: no address")

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options=None):
        raise AddressRefused("unix sockets are not crawled")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def check_git_remote(url: str, allow_private: bool = False, allowed_networks: Iterable[str] = ()) -> None:
    """Apply the address policy to a git remote before git connects to it (git resolves the name
    again itself, so this narrows rather than closes the window; clone URLs from untrusted
    metadata must not reach an internal service). file:// and local paths are not network remotes."""
    from urllib.parse import urlsplit

    if allow_private or url.startswith("file://") or "://" not in url and ":" not in url.split("/", 1)[0]:
        return
    host = urlsplit(url).hostname if "://" in url else url.split(":", 1)[0].rpartition("@")[2]
    if not host:
        return
    guard = GuardedBackend(False, allowed_networks)
    try:
        infos = socket.getaddrinfo(host.strip("[]"), None, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise AddressRefused(f"{host}: cannot resolve ({exc.strerror or exc})") from None
    for info in infos:
        problem = guard.problem(info[4][0])
        if problem:
            raise AddressRefused(f"{host} resolves to a {problem} (use --allow-private to allow)")
