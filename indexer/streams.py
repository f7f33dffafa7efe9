"""httpcore network streams on asyncio's own streams.

httpcore's default backend goes through anyio, whose per-call attribute lookups cost more CPU
than the crawl's parsing of small documents (every pooled request asks each connection whether
it "is_readable"). These streams do the same job directly: same timeouts, same exceptions.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
from httpcore._utils import is_socket_readable

_READ_ERRORS = (OSError, EOFError, asyncio.IncompleteReadError)


class AsyncioStream(httpcore.AsyncNetworkStream):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._reader = reader
        self._writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            async with asyncio.timeout(timeout):
                return await self._reader.read(max_bytes)
        except TimeoutError:
            raise httpcore.ReadTimeout(f"no data within {timeout:g} s") from None
        except _READ_ERRORS as exc:
            raise httpcore.ReadError(str(exc) or exc.__class__.__name__) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            async with asyncio.timeout(timeout):
                self._writer.write(buffer)
                await self._writer.drain()
        except TimeoutError:
            raise httpcore.WriteTimeout(f"could not send within {timeout:g} s") from None
        except OSError as exc:
            raise httpcore.WriteError(str(exc) or exc.__class__.__name__) from exc

    async def aclose(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (OSError, ssl.SSLError):
            pass  # closing a connection the peer already dropped

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                await self._writer.start_tls(ssl_context, server_hostname=server_hostname)
        except TimeoutError:
            await self.aclose()
            raise httpcore.ConnectTimeout(f"TLS handshake not done within {timeout:g} s") from None
        except (OSError, ssl.SSLError, EOFError) as exc:
            await self.aclose()
            raise httpcore.ConnectError(str(exc) or exc.__class__.__name__) from exc
        return self

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # a pooled connection the server closed (EOF or stray bytes) must not be reused
            return self._reader.at_eof() or self._writer.is_closing() or is_socket_readable(
                self._writer.get_extra_info("socket"))
        if info == "ssl_object":
            return self._writer.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._writer.get_extra_info("sockname")
        if info == "server_addr":
            return self._writer.get_extra_info("peername")
        if info == "socket":
            return self._writer.get_extra_info("socket")
        return None


async def connect(ip: str, port: int, timeout: float | None = None, local_address: str | None = None,
                  socket_options: Iterable[Any] | None = None) -> AsyncioStream:
    """A TCP connection to an address (never a name: the caller has resolved and checked it)."""
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                ip, port, local_addr=(local_address, 0) if local_address else None, limit=1 << 20)
    except TimeoutError:
        raise httpcore.ConnectTimeout(f"no connection to {ip} port {port} within {timeout:g} s") from None
    except OSError as exc:
        raise httpcore.ConnectError(str(exc) or exc.__class__.__name__) from exc
    sock = writer.get_extra_info("socket")
    for option in socket_options or ():
        sock.setsockopt(*option)
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return AsyncioStream(reader, writer)
