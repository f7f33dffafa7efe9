"""A real HTTP server on loopback that serves scripted responses and counts what it is asked."""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # before answering
    drip: float = 0.0  # seconds between body bytes
    etag: bool = False  # answer If-None-Match with 304
    chunked: bool = False  # no Content-Length
    fail_first: int = 0  # answer the first N requests with fail_status (and fail_headers) instead
    fail_status: int = 503
    fail_headers: dict[str, str] = field(default_factory=dict)


class Web:
    def __init__(self, host: str = "127.0.0.1"):
        self.routes: dict[str, Route] = {}
        self.hits: dict[str, int] = {}
        self.request_headers: dict[str, dict[str, str]] = {}  # the last request's headers, by path
        self.not_modified = 0
        self.lock = threading.Lock()
        web = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                path = self.path
                with web.lock:
                    web.hits[path] = web.hits.get(path, 0) + 1
                    web.request_headers[path] = dict(self.headers.items())
                    route = web.routes.get(path)
                if route is None:
                    return self._send(404, b"not found", {})
                if route.delay:
                    time.sleep(route.delay)
                with web.lock:
                    failing = route.fail_first > 0
                    route.fail_first -= failing
                if failing:
                    return self._send(route.fail_status, b'{"message": "try again"}', dict(route.fail_headers))
                headers = dict(route.headers)
                if route.etag:
                    tag = '"' + hashlib.sha256(route.body).hexdigest()[:16] + '"'
                    headers["ETag"] = tag
                    if self.headers.get("If-None-Match") == tag:
                        with web.lock:
                            web.not_modified += 1
                        return self._send(304, b"", headers)
                self._send(route.status, route.body, headers, route.drip, route.chunked)

            def _send(self, status, body, headers, drip=0.0, chunked=False):
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    for k, v in headers.items():
                        self.send_header(k, v)
                    if chunked:
                        self.send_header("Transfer-Encoding", "chunked")
                    elif status != 304:
                        self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if status == 304:
                        return
                    if chunked:
                        for i in range(0, len(body), 65536):
                            part = body[i:i + 65536]
                            self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                        self.wfile.write(b"0\r\n\r\n")
                    elif drip:
                        for byte in body:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(drip)
                    else:
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.handle_error = lambda request, address: None  # clients that hang up are expected here
        self.port = self.httpd.server_address[1]
        self.base = f"http://{host}:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def json(self, path: str, doc: Any, **options: Any) -> str:
        self.routes[path] = Route(body=json.dumps(doc).encode(), **options)
        return self.url(path)

    def raw(self, path: str, body: bytes, **options: Any) -> str:
        self.routes[path] = Route(body=body, **options)
        return self.url(path)

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        self.routes[path] = Route(status=status, headers={"Location": location})
        return self.url(path)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
