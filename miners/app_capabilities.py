"""App capability declarations ("app" format): an application's `defineCapabilities({ types,
queries, actions, commands })` in TypeScript or JavaScript source, read statically with tree-sitter
(nothing is executed), and the live catalog JSON such apps publish (`GET /api/capabilities/v1/catalog`,
`{ protocolVersion, apps: [{ appId, appName, ..., manifest }], page }`), or one app's manifest.

Local ids are qualified with the app id as Cloud does (`item.read` -> `inventory.item.read`): in
source, from `defineApp({ id })` in the same file (or the `app_id` a caller found elsewhere, see
`app_ids`); in a catalog, from the manifest's appId. Queries are read-only; Actions are not;
Commands only resolve a link to a page (the seed: they call no handler and create nothing), so they
are read-only too. Types name resources, not operations: they are kept as discovery-only records.
`openWorld: true` is the network.connect effect; destructive, openWorld, idempotency, approval and
policy are the publisher's hints. An entry that is not an object, has a non-literal id or lacks a
field the seed requires is a Problem (by line, or JSON path) and is not read; the others still are.
"""

from __future__ import annotations

import bisect
import functools
import re
from pathlib import Path
from typing import Any

from miners import parsing
from miners.declared import Declared, Imported, Problem, canonical_json, load_document, sha256
from miners.doc_lines import json_path
from miners.zod_schema import (
    NotLiteral,
    Source,
    describe_reference,
    literal,
    named,
    property_name,
    resolve,
    to_json_schema,
)

SOURCE_SUFFIXES = (".ts", ".tsx", ".js", ".mjs", ".mts", ".cts", ".cjs", ".jsx")
QUERY_FILE = Path(__file__).resolve().parent / "queries" / "declared" / "app_capabilities.scm"

# declaration key -> kind; the order Cloud compiles them in
KINDS = {"types": "type", "queries": "query", "actions": "action", "commands": "command"}
# Fields the seed requires of each kind ("every Query and Action declares openWorld, and every Action
# also declares destructive and idempotency"; titles and descriptions of every entry; the input and
# data schemas every operation publishes; a Command's path).
REQUIRED = {
    "type": ("title", "description"),
    "query": ("title", "description", "input", "data", "openWorld"),
    "action": ("title", "description", "input", "data", "destructive", "openWorld", "idempotency"),
    "command": ("title", "description", "input", "path"),
}
# The same requirement on a published manifest entry (schemas projected, ids explicit).
MANIFEST_REQUIRED = {
    "type": ("title", "description"),
    "query": ("title", "description", "inputSchema", "dataSchema", "openWorld"),
    "action": ("title", "description", "inputSchema", "dataSchema", "destructive", "openWorld", "idempotency"),
    "command": ("title", "description", "inputSchema", "path"),
}
# Manifest fields a reader of this release knows; Cloud leaves out an entry with any other field.
MANIFEST_FIELDS = {
    "type": {"localId", "title", "description", "icon", "reader"},
    "query": {"localId", "title", "description", "inputSchema", "dataSchema", "schemaHash", "openWorld",
              "universalSearch", "stream"},
    "action": {"localId", "title", "description", "inputSchema", "dataSchema", "schemaHash", "destructive",
               "openWorld", "idempotency", "approval", "review", "stream"},
    "command": {"localId", "title", "description", "icon", "keywords", "inputSchema", "path"},
}
HINTS = ("destructive", "openWorld", "idempotency", "approval", "policy")
# Presentation and wiring Capability has no field for, kept as metadata (declaration key -> metadata key).
METADATA = {"icon": "icon", "keywords": "keywords", "path": "path", "stream": "stream",
            "universalSearch": "universal_search"}
APP_ID = re.compile(r"[a-z][a-z0-9-]{0,79}")  # the seed: lowercase kebab-case, at most 80 characters
LOCAL_ID = re.compile(r"[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*")  # starts lower-case; may contain . _ -
PROTOCOL_VERSION = 2  # the seed's current protocolVersion


def sniff(path: str, data: bytes) -> bool:
    lower = path.lower()
    if lower.endswith(SOURCE_SUFFIXES) and not lower.endswith(".d.ts"):
        return b"defineCapabilities" in data
    if lower.endswith(".json"):
        return _looks_like_catalog(data[:1024])
    return False


def _looks_like_catalog(head: bytes) -> bool:
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    if b'"apps"' in head and (b'"appId"' in head or b'"manifest"' in head):
        return True  # a catalog page
    named_app = b'"appId"' in head or b'"localId"' in head
    return named_app and any(k in head for k in (b'"manifestHash"', b'"schemaHash"', b'"inputSchema"',
                                                 b'"dataSchema"'))  # one manifest


def read(path: str, data: bytes, app_id: str | None = None) -> Imported:
    """The declared operations of a source file or catalog. `app_id` qualifies a source file's local
    ids when the file itself has no `defineApp({ id })` (the seed keeps that in src/config.ts)."""
    try:
        if path.lower().endswith(".json"):
            return _read_catalog(path, data)
        return _SourceReader(path, data, app_id).read()
    except RecursionError:  # expressions nested deeper than the stack: bad input, not a crash
        return Imported(problems=[Problem(path, "line 1", "nested too deeply to read")])


def app_ids(path: str, data: bytes) -> list[str]:
    """The literal ids of the `defineApp({ id })` calls of a source file, in source order."""
    if b"defineApp" not in data:
        return []
    try:
        return [app for app, _ in _SourceReader(path, data, None).app_calls() if app]
    except RecursionError:
        return []


# --- source ---------------------------------------------------------------------------------------

@functools.cache
def _query(language: str) -> Any:
    from tree_sitter import Query

    return Query(parsing.language(language), QUERY_FILE.read_text(encoding="utf-8"))


def _language(path: str) -> str:
    language = parsing.language_of(path)
    return language if language in ("typescript", "tsx", "javascript") else "typescript"


def _line(node: Any) -> int:
    return node.start_point[0] + 1


class _SourceReader:
    def __init__(self, path: str, data: bytes, app_id: str | None):
        from tree_sitter import QueryCursor

        self.path, self.data, self.given_app = path, data, app_id
        self.out = Imported()
        self.broken: list[tuple[int, int]] = []  # byte spans of entries not read for a syntax error
        self.tree = parsing.parse(_language(path), data)
        self.calls: list[tuple[str, Any, Any]] = []  # (callee, call node, argument node)
        consts: dict[str, Any] = {}
        imports: dict[str, str] = {}
        for _, match in QueryCursor(_query(_language(path))).matches(self.tree.root_node):
            if "call" in match:
                self.calls.append((_text(match["callee"][0]), match["call"][0], match["argument"][0]))
            elif "const.name" in match:
                name = _text(match["const.name"][0])
                consts[name] = None if name in consts else match["const.value"][0]  # None: ambiguous
            elif "import.name" in match:
                imports[_text(match["import.name"][0])] = _plain(_text(match["import.source"][0]))
        zod = frozenset({"z", *(name for name, module in imports.items() if module.split("/")[0] == "zod")})
        self.source = Source(data, consts, imports, zod)
        self.calls.sort(key=lambda c: c[1].start_byte)

    def problem(self, node: Any, reason: str) -> None:
        self.out.problems.append(Problem(self.path, f"line {_line(node)}", reason))

    # defineApp({ id: "inventory" }) -> "inventory"; (None, reason) when the id is not literal
    def app_calls(self) -> list[tuple[str | None, str]]:
        found = []
        for callee, _, argument in self.calls:
            if callee != "defineApp":
                continue
            obj, _ = resolve(argument, self.source)
            fields = self.fields(obj)[0] if obj is not None and obj.type == "object" else {}
            if "id" not in fields or fields["id"] is None:
                found.append((None, f"defineApp at line {_line(argument)} has no literal id"))
                continue
            try:
                value = literal(fields["id"], self.source)
            except NotLiteral as exc:
                found.append((None, f"defineApp id at line {_line(fields['id'])} is not literal ({exc})"))
                continue
            found.append((value, "") if isinstance(value, str) else (None, "defineApp id is not a string"))
        return found

    def namespace(self) -> tuple[str, list[str]]:
        calls = self.app_calls()
        ids = sorted({app for app, _ in calls if app})
        notes = [reason for app, reason in calls if not app]
        if len(ids) == 1:
            app = ids[0]
        elif len(ids) > 1:
            return "", [*notes, f"several defineApp ids in this file ({', '.join(ids)}): local ids left unqualified"]
        elif self.given_app:
            app = self.given_app
        else:
            return "", [*notes, "no defineApp({ id }) in this file: local ids left unqualified"]
        if not APP_ID.fullmatch(app):
            notes.append(f"app id {app!r} is not lowercase kebab-case of at most 80 characters as the seed requires")
        return app, notes

    def read(self) -> Imported:
        declarations = [(call, argument) for callee, call, argument in self.calls if callee == "defineCapabilities"]
        if not declarations:
            if self.tree.root_node.has_error and b"defineCapabilities(" in self.data:
                first = _first_error(self.tree.root_node)
                self.problem(first, "syntax error: no defineCapabilities call could be read")
            return self.out
        app, notes = self.namespace()
        for call, argument in declarations:
            self.declaration(call, argument, app, notes)
        return self.out

    def declaration(self, call: Any, argument: Any, app: str, app_notes: list[str]) -> None:
        obj, _ = resolve(argument, self.source)
        if obj is None or obj.type != "object":
            # Other libraries name a function defineCapabilities too: only an import from Cloud makes
            # a non-object argument this format's problem.
            if self.source.imports.get("defineCapabilities", "").startswith("@k2b/cloud"):
                self.problem(argument, "defineCapabilities argument is not an object literal; nothing read")
            return
        fields, _ = self.fields(obj)
        if not ({"protocolVersion", *KINDS} & fields.keys()):
            return  # not an app capability declaration
        notes = list(app_notes)
        version = self.literal_or_none(fields.get("protocolVersion"))
        if version != PROTOCOL_VERSION:
            stated = "no literal protocolVersion" if version is None else f"protocolVersion {version!r}"
            notes.append(f"{stated}; the seed describes {PROTOCOL_VERSION}")
        seen: dict[str, int] = {}
        read: list[Declared] = []
        for key, kind in KINDS.items():
            if key not in fields:
                continue
            for local, entry, node in self.entries(fields[key], key):
                if local in seen:
                    self.problem(node, f"local id {local!r} is declared more than once (first at line {seen[local]})")
                seen.setdefault(local, _line(node))
                declared = self.entry(kind, local, entry, node, app, notes, version)
                if declared is not None:
                    read.append(declared)
        self.link_readers(read)
        self.out.operations.extend(read)
        for error in _errors(call):  # those outside an entry already reported as unreadable
            if not any(start <= error.start_byte < end for start, end in self.broken):
                self.problem(error, "syntax error in the defineCapabilities call")

    def entries(self, value: Any, key: str, seen: frozenset[int] = frozenset()) -> list[tuple[str, Any, Any]]:
        """(local id, entry object, node to report and digest) of one kind's map; `seen`: the maps
        already spread into it (a const spread into itself is read once)."""
        if value is None:
            return []
        obj, _ = resolve(value, self.source)
        if obj is not None and obj.start_byte in seen:
            return []
        if obj is None or obj.type != "object":
            reason = describe_reference(obj, self.source) if obj is not None and obj.type in (
                "identifier", "shorthand_property_identifier") else "not an object literal"
            self.problem(value, f"{key}: {reason}; its entries are not read")
            return []
        out: list[tuple[str, Any, Any]] = []
        for item in named(obj):
            if item.type == "spread_element":
                out.extend(self.entries(named(item)[0], f"{key} spread", seen | {obj.start_byte}))
                continue
            if item.type == "shorthand_property_identifier":
                local, value_node = self.source.text(item), item
            elif item.type == "pair":
                try:
                    local = property_name(item.child_by_field_name("key"), self.source)
                except NotLiteral as exc:
                    self.problem(item, f"{key}: id is not a literal ({exc}); entry not read")
                    continue
                value_node = item.child_by_field_name("value")
            else:
                self.problem(item, f"{key}: a {item.type.replace('_', ' ')} is not an entry; not read")
                continue
            if item.has_error:
                self.problem(item, f"{key} {local!r}: syntax error in the entry; not read")
                self.broken.append((item.start_byte, item.end_byte))
                continue
            entry, via = resolve(value_node, self.source)
            if entry is None or entry.type != "object":
                what = describe_reference(entry, self.source) if entry is not None and entry.type in (
                    "identifier", "shorthand_property_identifier") else f"a {entry.type.replace('_', ' ')}"
                self.problem(item, f"{key} {local!r} is not an object ({what}); not read")
                continue
            out.append((local, entry, entry if via else item))  # by reference: the const's object
        return out

    def fields(self, obj: Any, seen: frozenset[int] = frozenset()) -> tuple[dict[str, Any], list[str]]:
        """{field: value node, or None for a method} of an object literal, spreads of same-file
        objects merged as JS does (later wins); and the spreads that could not be followed."""
        seen |= {obj.start_byte}
        fields: dict[str, Any] = {}
        unresolved: list[str] = []
        for item in named(obj):
            if item.type == "pair":
                try:
                    name = property_name(item.child_by_field_name("key"), self.source)
                except NotLiteral:
                    continue
                fields[name] = item.child_by_field_name("value")
            elif item.type == "shorthand_property_identifier":
                fields[self.source.text(item)] = item
            elif item.type == "method_definition":
                fields[self.source.text(item.child_by_field_name("name"))] = None
            elif item.type == "spread_element":
                spread, _ = resolve(named(item)[0], self.source)
                if spread is not None and spread.type == "object" and spread.start_byte not in seen:
                    fields.update(self.fields(spread, seen)[0])
                else:
                    unresolved.append(self.source.text(named(item)[0]))
        return fields, unresolved

    def literal_or_none(self, node: Any) -> Any:
        if node is None:
            return None
        try:
            return literal(node, self.source)
        except NotLiteral:
            return None

    def entry(self, kind: str, local: str, obj: Any, node: Any, app: str, notes: list[str],
              version: Any) -> Declared | None:
        fields, unresolved = self.fields(obj)
        missing = [name for name in REQUIRED[kind] if name not in fields]
        if missing:
            hint = f" (the unresolved spread {', '.join(unresolved)} may hold them)" if unresolved else ""
            self.problem(node, f"{kind} {local!r} lacks {', '.join(missing)}, which the seed requires{hint}; not read")
            return None
        notes = list(notes)
        if unresolved:
            notes.append(f"spread {', '.join(unresolved)} not followed: fields it holds are unknown")
        if not LOCAL_ID.fullmatch(local):
            notes.append(f"local id {local!r} does not match the seed's id rule")
        texts = {}
        for name in ("title", "description"):
            value = self.literal_or_none(fields[name])
            texts[name] = value if isinstance(value, str) else ""
            if not isinstance(value, str):
                notes.append(f"{name} is not a literal string")
        qualified = f"{app}.{local}" if app else local
        declared = Declared(
            format="app", original_id=qualified, name=texts["title"] or local, description=texts["description"],
            path=self.path, line=_line(node), end_line=node.end_point[0] + 1, namespace=app,
            source_digest=sha256(self.data), declaration_digest=sha256(self.data[node.start_byte:node.end_byte]),
            digest_of="bytes", notes=notes,
            metadata={"kind": kind, "local_id": local, "protocol_version": version},
        )
        if app and kind in ("query", "action"):
            declared.metadata["mcp_tool"] = f"{app}__{kind}__{local}"  # the seed's Cloud MCP tool name
        self.claims(declared, fields)
        if kind == "type":
            declared.discovery_only = True
            reader = self.literal_or_none(fields.get("reader"))
            if isinstance(reader, str):
                declared.metadata["reader"] = f"{app}.{reader}" if app else reader
                declared.metadata["reader_local_id"] = reader
            return declared
        declared.read_only = kind in ("query", "command")
        if kind == "command":
            declared.notes.append("a Command resolves a link to an app page; it calls no handler and changes nothing")
        declared.input_schema = self.schema(fields["input"], "input", "input", declared.notes)
        if "data" in fields and kind != "command":
            declared.output_schema = self.schema(fields["data"], "output", "data", declared.notes)
        if "review" in fields:
            declared.metadata["review"] = True  # a review callback exists; Cloud advertises review: true
        if declared.hints.get("openWorld") is True:
            declared.effects.append("network.connect")
        if kind == "action":
            declared.notes.extend(_action_rules(declared.hints, "review" in fields))
        return declared

    def claims(self, declared: Declared, fields: dict[str, Any]) -> None:
        """The publisher's hints and the metadata Capability has no field for, where literal."""
        for name in HINTS:
            if name not in fields:
                continue
            try:
                declared.hints[name] = literal(fields[name], self.source) if fields[name] is not None else None
            except NotLiteral as exc:
                declared.notes.append(f"{name} is not a literal ({exc}); its claim is unknown")
        for name, key in METADATA.items():
            if name not in fields:
                continue
            try:
                declared.metadata[key] = literal(fields[name], self.source)
            except NotLiteral:
                declared.metadata[key] = self._literal_parts(fields[name])

    def _literal_parts(self, node: Any) -> Any:
        """The literal fields of an object that is not literal as a whole (a stream's direction and
        maxBytes beside its handlers); True when nothing in it is literal."""
        obj, _ = resolve(node, self.source)
        if obj is None or obj.type != "object":
            return True
        parts = {name: self.literal_or_none(value) for name, value in self.fields(obj)[0].items() if value is not None}
        return {name: value for name, value in parts.items() if value is not None} or True

    def schema(self, node: Any, io: str, where: str, notes: list[str]) -> dict[str, Any]:
        if node is None:  # written as a method: not a schema
            notes.append(f"{where}: a method, not a Zod schema; kept as {{}}")
            return {}
        schema, schema_notes = to_json_schema(node, self.source, io, where)
        notes.extend(schema_notes)
        return schema

    def link_readers(self, read: list[Declared]) -> None:
        """Each Type's reader names a Query of the same declaration (the seed); the Query learns
        which Types it reads."""
        queries = {d.metadata["local_id"]: d for d in read if d.metadata["kind"] == "query"}
        for declared in read:
            reader = declared.metadata.get("reader_local_id")
            if declared.metadata["kind"] != "type" or reader is None:
                continue
            query = queries.get(reader)
            if query is None:
                reason = f"type {declared.metadata['local_id']!r} reader {reader!r} names no Query of this declaration"
                self.out.problems.append(Problem(self.path, f"line {declared.line}", reason))
            else:
                query.metadata.setdefault("reader_of", []).append(declared.original_id)


def _action_rules(hints: dict[str, Any], review: bool) -> list[str]:
    """The seed's startup rules an Action's literal claims break: Cloud would refuse to start the app,
    so the claims are suspect; they are kept as written."""
    broken = []
    risky = [name for name in ("destructive", "openWorld") if hints.get(name) is True]
    if risky and not review:
        broken.append(f"{' and '.join(risky)} without a review")
    if risky and "idempotency" in hints and hints["idempotency"] != "required":
        broken.append(f"{' and '.join(risky)} with idempotency {hints['idempotency']!r}, not 'required'")
    if risky and hints.get("approval") in ("rememberable", "none"):
        broken.append(f"{' and '.join(risky)} with approval {hints['approval']!r}")
    if "policy" in hints and "approval" in hints:
        broken.append("both policy and approval")
    return [f"the seed's startup rules reject this Action: {reason}" for reason in broken]


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def _plain(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] in "'\"" else text


def _errors(node: Any) -> list[Any]:
    """ERROR and MISSING nodes under `node`, outermost first (a subtree without errors is skipped)."""
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            found.append(n)
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return found


def _first_error(node: Any) -> Any:
    errors = _errors(node)
    return errors[0] if errors else node


# --- catalog JSON ---------------------------------------------------------------------------------

def _read_catalog(path: str, data: bytes) -> Imported:
    out = Imported()
    if (loaded := load_document(path, data, out)) is None:
        return out
    value, lines = loaded
    reader = _CatalogReader(path, data, lines, out)
    if isinstance(value, dict) and isinstance(value.get("apps"), list):
        for index, app in enumerate(value["apps"]):
            reader.app(app, f"/apps/{index}")
    elif isinstance(value, dict) and isinstance(value.get("manifest"), dict):
        reader.app(value, "")
    elif isinstance(value, dict) and any(isinstance(value.get(key), (list, dict)) for key in KINDS):
        reader.manifest(value, "", value.get("appId"), {})
    else:
        out.problems.append(Problem(path, "$", "neither a capability catalog page nor a manifest"))
    return out


class _CatalogReader:
    def __init__(self, path: str, data: bytes, lines: dict[str, int], out: Imported):
        self.path, self.data, self.lines, self.out = path, data, lines, out
        self.pointers = sorted(lines)
        self.source_digest = sha256(data)

    def problem(self, pointer: str, reason: str) -> None:
        self.out.problems.append(Problem(self.path, json_path(pointer), reason))

    def app(self, app: Any, here: str) -> None:
        if not isinstance(app, dict) or not isinstance(app.get("manifest"), dict):
            self.problem(here, "catalog app without a manifest object; not read")
            return
        manifest = app["manifest"]
        app_id = app.get("appId", manifest.get("appId"))
        extra = {meta: app[key] for key, meta in (("appName", "app_name"), ("appIcon", "app_icon"),
                                                  ("appDescription", "app_description")) if key in app}
        if "appId" in manifest and manifest["appId"] != app_id:
            self.problem(f"{here}/manifest/appId", f"manifest appId {manifest['appId']!r} differs from the "
                                                     f"catalog's {app_id!r}")
        self.manifest(manifest, f"{here}/manifest", app_id, extra)

    def manifest(self, manifest: dict[str, Any], here: str, app_id: Any, app_meta: dict[str, Any]) -> None:
        notes = []
        if not isinstance(app_id, str) or not app_id:
            notes.append("manifest without an appId: local ids left unqualified")
            app_id = ""
        elif not APP_ID.fullmatch(app_id):
            notes.append(f"app id {app_id!r} is not lowercase kebab-case of at most 80 characters as the seed requires")
        version = manifest.get("protocolVersion")
        if version != PROTOCOL_VERSION:
            notes.append(f"protocolVersion {version!r}; the seed describes {PROTOCOL_VERSION}, and a Cloud reader "
                         "of it reads no other")
        policies = manifest.get("policies") if isinstance(manifest.get("policies"), dict) else {}
        common = {"protocol_version": version, **({"manifest_hash": manifest["manifestHash"]}
                                                  if "manifestHash" in manifest else {}), **app_meta}
        read: list[Declared] = []
        for key, kind in KINDS.items():
            entries = manifest.get(key)
            if entries is None:
                continue
            if isinstance(entries, dict):  # tolerated: keyed by local id, as declarations are
                items = [(f"{here}/{key}/{_escape(local)}", {"localId": local, **e} if isinstance(e, dict) else e)
                         for local, e in entries.items()]
            elif isinstance(entries, list):
                items = [(f"{here}/{key}/{i}", e) for i, e in enumerate(entries)]
            else:
                self.problem(f"{here}/{key}", f"{key} is not a list; its entries are not read")
                continue
            for pointer, entry in items:
                declared = self.entry(kind, entry, pointer, app_id, notes, common, policies)
                if declared is not None:
                    read.append(declared)
        queries = {d.metadata["local_id"]: d for d in read if d.metadata["kind"] == "query"}
        for declared in read:
            reader = declared.metadata.get("reader_local_id")
            if reader is not None and reader in queries:
                queries[reader].metadata.setdefault("reader_of", []).append(declared.original_id)
        self.out.operations.extend(read)

    def entry(self, kind: str, entry: Any, pointer: str, app: str, notes: list[str], common: dict[str, Any],
              policies: dict[str, Any]) -> Declared | None:
        if not isinstance(entry, dict):
            self.problem(pointer, f"{kind} entry is not an object; not read")
            return None
        local = entry.get("localId")
        if not isinstance(local, str) or not local:
            self.problem(pointer, f"{kind} entry without a string localId; not read")
            return None
        missing = [name for name in MANIFEST_REQUIRED[kind] if name not in entry]
        if missing:
            self.problem(pointer, f"{kind} {local!r} lacks {', '.join(missing)}, which the seed requires; not read")
            return None
        notes = list(notes)
        unknown = sorted(set(entry) - MANIFEST_FIELDS[kind])
        if unknown:
            notes.append(f"fields unknown to this reader ({', '.join(unknown)}): Cloud readers leave such an entry out")
        title, description = entry["title"], entry["description"]
        declared = Declared(
            format="app", original_id=f"{app}.{local}" if app else local,
            name=title if isinstance(title, str) and title else local,
            description=description if isinstance(description, str) else "",
            path=self.path, line=self.lines.get(pointer, 1), end_line=self._end_line(pointer), pointer=pointer,
            namespace=app, source_digest=self.source_digest, declaration_digest=sha256(canonical_json(entry)),
            digest_of="canonical-json", notes=notes,
            metadata={"kind": kind, "local_id": local, **common},
        )
        if app and kind in ("query", "action"):
            declared.metadata["mcp_tool"] = f"{app}__{kind}__{local}"
        for name in HINTS:
            if name in entry:
                declared.hints[name] = entry[name]
        if kind == "action" and local in policies:
            declared.hints["policy"] = policies[local]
        for name, key in {**METADATA, "schemaHash": "schema_hash", "review": "review"}.items():
            if name in entry:
                declared.metadata[key] = entry[name]
        if kind == "type":
            declared.discovery_only = True
            if isinstance(entry.get("reader"), str):
                declared.metadata["reader"] = f"{app}.{entry['reader']}" if app else entry["reader"]
                declared.metadata["reader_local_id"] = entry["reader"]
            return declared
        declared.read_only = kind in ("query", "command")
        if kind == "command":
            declared.notes.append("a Command resolves a link to an app page; it calls no handler and changes nothing")
        for name, attr in (("inputSchema", "input_schema"), ("dataSchema", "output_schema")):
            schema = entry.get(name)
            if isinstance(schema, dict):
                setattr(declared, attr, schema)
            elif name in entry:
                self.problem(f"{pointer}/{name}", f"{name} is not an object; left out")
        if entry.get("openWorld") is True:
            declared.effects.append("network.connect")
        if kind == "action":
            declared.notes.extend(_action_rules(declared.hints, entry.get("review") is True))
        return declared

    def _end_line(self, pointer: str) -> int:
        """The line of the last value inside `pointer` (JSON pointers under it sort together)."""
        start = bisect.bisect_left(self.pointers, pointer + "/")
        end = bisect.bisect_left(self.pointers, pointer + "0")  # "0" is the character after "/"
        inner = [self.lines[p] for p in self.pointers[start:end]]
        return max([self.lines.get(pointer, 1), *inner])


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
