"""Static MCP listings in a repository: what a server says it offers, read without running it.

- tool listings: a `tools/list` result (`{"tools": [...]}`), the same inside a JSON-RPC response
  (`{"jsonrpc": "2.0", "id": 1, "result": {...}}`), or a recorded session (an array of JSON-RPC
  messages, whose `initialize` result names the server); resources (`resources/list`) and
  resource templates (`resources/templates/list`) likewise. Each tool or resource is one Declared.
- a server manifest of the MCP registry (`server.json`): it describes a server, not its tools, so
  read() only checks it; `server_info()` returns what the integration attaches to the tools found
  in the same repository.

MCP annotations (`readOnlyHint`, `destructiveHint`, ...) are the publisher's hints: they go into
`hints`, never into facts. read_only stays None and effects are never narrowed by a hint; an
explicit `openWorldHint: true` adds `network.connect`, the conservative direction.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from miners import doc_lines
from miners.declared import Declared, Imported, Problem, canonical_json, load_document, sha256

HEAD = 16 * 1024  # how much of a file sniff() looks at
_LISTING_MARKS = ((b'"tools"', b'"inputSchema"'), (b'"resources"', b'"uri"'), (b'"resourceTemplates"', b'"uriTemplate"'),
                  (b'"jsonrpc"', b'"serverInfo"'))
_REGISTRY_SCHEMA = re.compile(rb'"\$schema"\s*:\s*"[^"]*modelcontextprotocol[^"]*server[^"]*"')
_REGISTRY_FIELDS = (b'"registryType"', b'"registry_type"', b'"registry_name"', b'"remotes"')
_SNAPSHOT_NAME = re.compile(r"tool|resource|mcp")  # a recorded error response is sniffed only under such a name

HINTS = {"readOnlyHint": bool, "destructiveHint": bool, "idempotentHint": bool, "openWorldHint": bool, "title": str}
UNKNOWN_EFFECTS = "effects unknown: an MCP listing declares none, and its annotations are publisher hints, not facts"
OPEN_WORLD = "network.connect added because the publisher hints openWorldHint: true"
MORE_PAGES = "the listing continues past this page (nextCursor): the server may offer more than this file shows"


def sniff(path: str, data: bytes) -> bool:
    name = _basename(path)
    if not name.endswith(".json"):
        return False
    head = data[:HEAD]
    if _REGISTRY_SCHEMA.search(head) or (name == "server.json" and any(m in head for m in _REGISTRY_FIELDS)):
        return True
    if any(a in head and b in head for a, b in _LISTING_MARKS):
        return True
    if head.lstrip().startswith(b"[") and b'"inputSchema"' in head:  # a bare array of tools
        return True
    return b'"jsonrpc"' in head and b'"error"' in head and _SNAPSHOT_NAME.search(name) is not None


def read(path: str, data: bytes) -> Imported:
    out = Imported()
    if (loaded := load_document(path, data, out)) is None:
        return out
    value, lines = loaded
    if _is_server_document(path, value):
        out.problems += [Problem(path, where, reason) for where, reason in _server_problems(value)]
        return out
    _Listing(path, data, lines, out).read(value)
    return out


def server_info(path: str, data: bytes) -> dict[str, Any] | None:
    """What an MCP registry `server.json` says of its server (name, title, version, description,
    packages, remotes, repository, websiteUrl), or None when the file is not one or names no server.
    Entries of `packages` and `remotes` that are not objects are left out (read() reports them)."""
    try:
        value, _ = doc_lines.load(path, data)
    except doc_lines.DocumentError:
        return None
    if not _is_server_document(path, value) or not isinstance(value, dict) or not _text(value.get("name")):
        return None
    return {
        "name": value["name"],
        "title": _text(value.get("title")),
        "version": _server_version(value),
        "description": _text(value.get("description")),
        "packages": _objects(value.get("packages")),
        "remotes": _objects(value.get("remotes")),
        "repository": value["repository"] if isinstance(value.get("repository"), dict) else None,
        "websiteUrl": _text(value.get("websiteUrl")),
    }


# -- listings --------------------------------------------------------------------------------------


class _Listing:
    def __init__(self, path: str, data: bytes, lines: dict[str, int], out: Imported):
        self.path, self.lines, self.out = path, lines, out
        self.source = sha256(data)
        self.server: dict[str, Any] | None = None

    def problem(self, ptr: str, reason: str) -> None:
        self.out.problems.append(Problem(self.path, doc_lines.json_path(ptr), reason))

    def read(self, value: Any) -> None:
        if _bare_tools(value):
            self.entries(value, "", self.tool, more=False)
            return
        results = self.results(value)
        for result, _ in results:  # the initialize result names the server, wherever it sits in a session
            info = result.get("serverInfo")
            if isinstance(info, dict) and _text(info.get("name")):
                self.server = {k: info[k] for k in ("name", "title", "version") if isinstance(info.get(k), str)}
                break
        found = False
        for result, ptr in results:
            more = isinstance(result.get("nextCursor"), str)
            for field, entry in (("tools", self.tool), ("resources", self.resource),
                                 ("resourceTemplates", self.template)):
                if field not in result:
                    continue
                found = True
                items, here = result[field], doc_lines.pointer(ptr, field)
                if not isinstance(items, list):
                    self.problem(here, f"must be an array of {field}")
                    continue
                self.entries(items, here, entry, more)
        if not found and self.server is None and not self.out.problems:
            self.problem("", "not an MCP listing: no tools, resources, resourceTemplates or serverInfo")

    def results(self, value: Any) -> list[tuple[dict[str, Any], str]]:
        """(result object, its pointer) of a bare result, a JSON-RPC response or a recorded session;
        an error response is a Problem."""
        messages = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        found = []
        for index, message in messages:
            ptr = "" if index is None else doc_lines.pointer("", index)
            if not isinstance(message, dict):
                self.problem(ptr, "must be an object (a JSON-RPC message or an MCP result)")
            elif "error" in message and ("jsonrpc" in message or "id" in message):
                self.problem(doc_lines.pointer(ptr, "error"), _rpc_error(message["error"]))
            elif "result" in message and ("jsonrpc" in message or "id" in message):
                if isinstance(message["result"], dict):
                    found.append((message["result"], doc_lines.pointer(ptr, "result")))
                else:
                    self.problem(doc_lines.pointer(ptr, "result"), "must be an object")
            elif "method" not in message:  # a request or notification of a session says nothing offered
                found.append((message, ptr))
        return found

    def entries(self, items: list[Any], here: str, entry: Any, more: bool) -> None:
        ends = doc_lines.ends(self.lines, {doc_lines.pointer(here, i) for i in range(len(items))})
        seen: set[str] = set()
        for index, item in enumerate(items):
            ptr = doc_lines.pointer(here, index)
            if not isinstance(item, dict):
                self.problem(ptr, "must be an object")
                continue
            declared = entry(item, ptr, seen)
            if declared is None:
                continue
            try:
                declared.declaration_digest = sha256(canonical_json(item))
            except UnicodeEncodeError:  # JSON may spell a lone surrogate (\ud800); UTF-8 cannot
                self.problem(ptr, "holds text with no UTF-8 form (a lone surrogate), so it has no digest")
                continue
            declared.line, declared.end_line = self.lines.get(ptr, 1), ends[ptr]
            if more:
                declared.notes.append(MORE_PAGES)
            self.out.operations.append(declared)

    def identity(self, item: dict[str, Any], ptr: str, key: str, seen: set[str]) -> str | None:
        """The entry's identifying string (a tool's name, a resource's uri), once per listing."""
        value = item.get(key)
        where = doc_lines.pointer(ptr, key)
        if key not in item:
            self.problem(where, "is missing; the entry was skipped")
        elif not isinstance(value, str) or not value.strip():
            self.problem(where, "must be a non-empty string; the entry was skipped")
        elif value in seen:
            self.problem(where, f"{value!r} is listed again; the first entry was kept")
        else:
            seen.add(value)
            return value
        return None

    def field(self, item: dict[str, Any], ptr: str, key: str, kind: type) -> Any:
        """item[key] when it has the type MCP gives it; else None, and a Problem when present."""
        value = item.get(key)
        if value is None or isinstance(value, kind):
            return value
        self.problem(doc_lines.pointer(ptr, key), f"must be {_KIND_NAMES[kind]}; ignored")
        return None

    def base(self, ptr: str, original_id: str, name: str, description: str | None, metadata: dict[str, Any],
             hints: dict[str, Any]) -> Declared:
        if self.server:
            metadata["server"] = self.server
        return Declared(format="mcp", original_id=original_id, name=name, description=description or "",
                        path=self.path, pointer=ptr, namespace=self.server["name"] if self.server else "",
                        source_digest=self.source, digest_of="canonical-json", read_only=None, hints=hints,
                        metadata=metadata, notes=[UNKNOWN_EFFECTS])

    def hints(self, item: dict[str, Any], ptr: str) -> dict[str, Any]:
        annotations = self.field(item, ptr, "annotations", dict) or {}
        here = doc_lines.pointer(ptr, "annotations")
        hints = {}
        for key, value in annotations.items():
            kind = HINTS.get(key)
            if kind is not None and not isinstance(value, kind):
                self.problem(doc_lines.pointer(here, key), f"must be {_KIND_NAMES[kind]}; the hint was ignored")
            else:
                hints[key] = value  # every annotation is the publisher's word, known or not
        return hints

    def tool(self, item: dict[str, Any], ptr: str, seen: set[str]) -> Declared | None:
        name = self.identity(item, ptr, "name", seen)
        if name is None:
            return None
        # fields in the order MCP's Tool lists them, so the problems come in that order too
        title = self.field(item, ptr, "title", str)
        description = self.field(item, ptr, "description", str)
        input_schema = self.field(item, ptr, "inputSchema", dict)
        if "inputSchema" not in item:
            self.problem(doc_lines.pointer(ptr, "inputSchema"), "is missing (MCP requires one)")
        output_schema = self.field(item, ptr, "outputSchema", dict)
        hints = self.hints(item, ptr)
        extra = {k: v for k, v in item.items() if k not in _TOOL_FIELDS}
        declared = self.base(ptr, name, title or hints.get("title") or name, description,
                             {"kind": "tool", **_keep(extra)}, hints)
        declared.input_schema, declared.output_schema = input_schema, output_schema
        if hints.get("openWorldHint") is True:  # may add authority, never remove it
            declared.effects.append("network.connect")
            declared.notes.append(OPEN_WORLD)
        return declared

    def resource(self, item: dict[str, Any], ptr: str, seen: set[str]) -> Declared | None:
        return self.readable(item, ptr, seen, "uri", "resource")

    def template(self, item: dict[str, Any], ptr: str, seen: set[str]) -> Declared | None:
        return self.readable(item, ptr, seen, "uriTemplate", "resource-template")

    def readable(self, item: dict[str, Any], ptr: str, seen: set[str], key: str, kind: str) -> Declared | None:
        """A resource or resource template: data a client reads by uri, not a tool to call."""
        uri = self.identity(item, ptr, key, seen)
        if uri is None:
            return None
        name = self.field(item, ptr, "name", str)
        if "name" not in item:
            self.problem(doc_lines.pointer(ptr, "name"), "is missing (MCP requires one)")
        title = self.field(item, ptr, "title", str)
        metadata = {"kind": kind, key: uri, "mimeType": self.field(item, ptr, "mimeType", str)}
        extra = {k: v for k, v in item.items() if k not in _RESOURCE_FIELDS and k != key}
        hints = self.field(item, ptr, "annotations", dict) or {}
        return self.base(ptr, uri, title or name or uri, self.field(item, ptr, "description", str),
                         metadata | _keep(extra), dict(hints))


_TOOL_FIELDS = frozenset({"name", "title", "description", "inputSchema", "outputSchema", "annotations"})
_RESOURCE_FIELDS = frozenset({"name", "title", "description", "mimeType", "annotations"})
_KIND_NAMES = {str: "a string", bool: "a boolean", dict: "an object", list: "an array"}


def _bare_tools(value: Any) -> bool:
    """An array of tool definitions, as some repositories keep them (no JSON-RPC message among them)."""
    return (isinstance(value, list) and any(isinstance(v, dict) and "inputSchema" in v for v in value)
            and not any(isinstance(v, dict) and ("jsonrpc" in v or "result" in v) for v in value))


def _keep(extra: dict[str, Any]) -> dict[str, Any]:
    """Fields MCP has beyond those read (icons, _meta, size...): kept, never dropped."""
    return {"extra": extra} if extra else {}


def _rpc_error(error: Any) -> str:
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        text = f"{message}" if isinstance(message, str) else "no message"
        return f"a JSON-RPC error response ({code}: {text})" if isinstance(code, int) else f"a JSON-RPC error ({text})"
    return "a JSON-RPC error response"


# -- server.json -----------------------------------------------------------------------------------

_SERVER_NAME = re.compile(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+")
_RANGE = re.compile(r"^[\^~<>=]|(^|\.)[xX*](\.|$)|\|\||\s")  # what the registry rejects as "not a specific version"


def _is_server_document(path: str, value: Any) -> bool:
    if isinstance(value, dict):
        schema = value.get("$schema")
        if isinstance(schema, str) and "modelcontextprotocol" in schema and "server" in schema:
            return True
        if any(k in value for k in ("tools", "resources", "resourceTemplates", "jsonrpc", "serverInfo")):
            return False
    return _basename(path) == "server.json" and not isinstance(value, list)


def _server_problems(value: Any) -> list[tuple[str, str]]:
    """(JSON path, reason) for each way a server.json breaks the registry's schema, read loosely
    enough to take every published version of it (2025-07-09's snake_case fields included)."""
    if not isinstance(value, dict):
        return [("$", "a server.json must be an object")]
    problems = []
    name = value.get("name")
    if not isinstance(name, str) or not name:
        problems.append(("$.name", "is missing" if "name" not in value else "must be a non-empty string"))
    elif not _SERVER_NAME.fullmatch(name):
        problems.append(("$.name", f"{name!r} is not a reverse-DNS server name (namespace/name)"))
    if not isinstance(value.get("description"), str):
        problems.append(("$.description", "is missing" if "description" not in value else "must be a string"))
    if _server_version(value) is None:
        problems.append(("$.version", "is missing" if "version" not in value else "must be a non-empty string"))
    for key in ("title", "websiteUrl"):
        if key in value and not isinstance(value[key], str):
            problems.append((f"$.{key}", "must be a string"))
    if "repository" in value and not (isinstance(value["repository"], dict)
                                      and isinstance(value["repository"].get("url"), str)):
        problems.append(("$.repository", "must be an object with a url"))
    problems += _list_problems(value, "packages", _package_problems)
    problems += _list_problems(value, "remotes", _remote_problems)
    return problems


def _list_problems(value: dict[str, Any], key: str, check: Any) -> list[tuple[str, str]]:
    if key not in value:
        return []
    items = value[key]
    if not isinstance(items, list):
        return [(f"$.{key}", "must be an array")]
    problems = []
    for index, item in enumerate(items):
        here = f"$.{key}[{index}]"
        if not isinstance(item, dict):
            problems.append((here, "must be an object"))
        else:
            problems += [(f"{here}.{field}", reason) for field, reason in check(item)]
    return problems


def _package_problems(package: dict[str, Any]) -> list[tuple[str, str]]:
    problems = []
    registry = _first_key(package, "registryType", "registry_type", "registry_name")
    identifier = _first_key(package, "identifier", "name")
    if registry is None:
        problems.append(("registryType", "is missing"))
    elif not _text(package[registry]):
        problems.append((registry, "must be a non-empty string"))
    if identifier is None:
        problems.append(("identifier", "is missing"))
    elif not _text(package[identifier]):
        problems.append((identifier, "must be a non-empty string"))
    version = package.get("version")
    if "version" in package and not _text(version):
        problems.append(("version", "must be a non-empty string"))
    elif isinstance(version, str) and (version == "latest" or _RANGE.search(version)):
        problems.append(("version", f"{version!r} is not a specific version"))
    transport = package.get("transport")
    if "transport" in package and not (isinstance(transport, dict) and _text(transport.get("type"))):
        problems.append(("transport", "must be an object with a type"))
    return problems


def _remote_problems(remote: dict[str, Any]) -> list[tuple[str, str]]:
    problems = []
    kind = _first_key(remote, "type", "transport_type")
    if kind is None:
        problems.append(("type", "is missing"))
    elif not _text(remote[kind]):
        problems.append((kind, "must be a non-empty string"))
    if not _text(remote.get("url")):
        problems.append(("url", "is missing" if "url" not in remote else "must be a non-empty string"))
    return problems


def _server_version(value: dict[str, Any]) -> str | None:
    detail = value.get("version_detail")  # the 2025-07-09 schema's place for it
    return _text(value.get("version")) or (_text(detail.get("version")) if isinstance(detail, dict) else None)


# -- shared ----------------------------------------------------------------------------------------


def _basename(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/")).lower()


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _first_key(item: dict[str, Any], *keys: str) -> str | None:
    return next((key for key in keys if key in item), None)


def _objects(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
