"""OpenAPI 3.0 and 3.1 documents, and Swagger 2.0 ones, read statically: each operation (a method under a
path) becomes one declared operation, its parameters and request body one input JSON Schema, its first 2xx
response the output schema. Local `$ref`s are resolved (a recursive schema is kept once, in `$defs`); remote
ones are kept as written and never fetched. Webhooks and callbacks are calls the API makes to its clients,
not operations a client calls, so they are not read.

Swagger 2.0 says the same things in other places, and is read into the same shapes: a parameter's schema
is its own `type`/`format`/`items`, the request body is the one `in: body` parameter (or the `formData`
ones, as one form object), a response's schema sits on the response, media types come from
`consumes`/`produces`, and the server is `schemes` + `host` + `basePath`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from miners.declared import Declared, Imported, Problem, canonical_json, load_document, sha256
from miners.doc_lines import json_path, pointer

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAFE_METHODS = ("get", "head", "options")
LOCATIONS = ("path", "query", "header", "cookie")
SWAGGER_LOCATIONS = ("path", "query", "header", "body", "formData")
# A Swagger 2.0 parameter's own keywords that are JSON Schema keywords (the rest, `in`, `name`, `required`... are not).
_SWAGGER_SCHEMA_KEYS = ("type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
                        "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
                        "uniqueItems", "multipleOf", "description")
SNIFF_BYTES = 4096
MAX_VALUES = 500_000  # values one operation may expand to: refs can multiply a small document many times

# Keys whose value is literal data (examples, defaults, enums, vendor extensions): a "$ref" in it is not a reference.
_LITERAL = {"example", "default", "const", "enum", "value"}
# Keys whose value maps arbitrary names to objects: the names are never keywords ("properties": {"default": ...}).
_NAME_MAPS = {
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "content",
    "responses",
    "headers",
    "encoding",
    "links",
    "callbacks",
    "examples",
    "variables",
}

_OPENAPI_3_JSON = re.compile(rb'"openapi"\s*:\s*"3\.')
_OPENAPI_3_YAML = re.compile(rb"""^['"]?openapi['"]?[ \t]*:[ \t]*['"]?3\.""", re.MULTILINE)
_SWAGGER_2_JSON = re.compile(rb'"swagger"\s*:\s*"2\.0"')
_SWAGGER_2_YAML = re.compile(rb"""^['"]?swagger['"]?[ \t]*:[ \t]*['"]?2\.0""", re.MULTILINE)
_JSON_NESTING = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[{}\[\]]')


def sniff(path: str, data: bytes) -> bool:
    """Whether a .json/.yaml/.yml file looks like OpenAPI 3.x (or Swagger 2.0, to be reported), from its first KiBs."""
    if not path.lower().endswith((".json", ".yaml", ".yml")):
        return False
    head = data[:SNIFF_BYTES]
    if _OPENAPI_3_YAML.search(head) or _SWAGGER_2_YAML.search(head):
        return True
    # A quoted key must sit in the top-level object (depth 1; 0 for YAML's block style), not in, say, dependencies.
    return any(_depth(head, m.start()) <= 1 for rx in (_OPENAPI_3_JSON, _SWAGGER_2_JSON) for m in rx.finditer(head))


def _depth(text: bytes, end: int) -> int:
    depth = 0
    for m in _JSON_NESTING.finditer(text, 0, end):
        tok = m.group()
        depth += 1 if tok in (b"{", b"[") else -1 if tok in (b"}", b"]") else 0
    return depth


def read(path: str, data: bytes, loaded: tuple[Any, dict[str, int]] | None = None) -> Imported:
    """What the document declares; `loaded` is its value and lines when already read from
    another form (an object literal of a JS module: miners/js_openapi.py)."""
    out = Imported()
    try:
        _Reader(path, data, out).read(loaded)
    except RecursionError:
        out.problems.append(Problem(path, "$", "nested too deeply to read"))
    return out


class _TooLarge(Exception):
    pass


@dataclass
class _Expander:
    """Copies one operation's values with local `$ref`s replaced by what they point to."""

    doc: dict[str, Any]
    defs: dict[str, Any] = field(default_factory=dict)  # $defs name -> the expanded recursive value
    def_names: dict[str, str] = field(default_factory=dict)  # target pointer -> its $defs name
    recursive: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (pointer, reason)
    left: int = MAX_VALUES

    def expand(self, value: Any, here: str, stack: tuple[str, ...] = ()) -> Any:
        self.left -= 1
        if self.left < 0:
            raise _TooLarge
        if isinstance(value, list):
            return [self.expand(item, pointer(here, i), stack) for i, item in enumerate(value)]
        if not isinstance(value, dict):
            return value
        if isinstance(value.get("$ref"), str):
            return self._ref(value, here, stack)
        out: dict[str, Any] = {}
        for key, item in value.items():
            at = pointer(here, key)
            if key in _LITERAL or key.startswith("x-") or (key == "examples" and isinstance(item, list)):
                out[key] = item
            elif key in _NAME_MAPS and isinstance(item, dict):
                out[key] = {name: self.expand(v, pointer(at, name), stack) for name, v in item.items()}
            else:
                out[key] = self.expand(item, at, stack)
        return out

    def _ref(self, value: dict[str, Any], here: str, stack: tuple[str, ...]) -> Any:
        ref = value["$ref"]
        where = json_path(here)
        target = _fragment(ref)
        if target is None:
            what = "remote" if not ref.startswith("#") else "non-pointer"
            self.notes.append(f"{what} $ref not followed: {ref} (at {where})")
            return dict(value)
        # Siblings of a $ref are kept over what it points to (3.1 allows them; 3.0 ones like nullable are common).
        siblings = {k: self.expand(v, pointer(here, k), stack) for k, v in value.items() if k != "$ref"}
        if target in stack or target in self.def_names:
            self.recursive.add(target)
            name = self._def_name(target)
            self.notes.append(f"recursive $ref {ref} kept as #/$defs/{name}")
            return {"$ref": f"#/$defs/{name}", **siblings}
        found, resolved = _lookup(self.doc, target)
        if not found:
            self.problems.append((pointer(here, "$ref"), f"$ref {ref} does not resolve"))
            self.notes.append(f"unresolved $ref kept opaque: {ref} (at {where})")
            return dict(value)
        expanded = self.expand(resolved, target, (*stack, target))
        if target in self.recursive:
            self.defs[self.def_names[target]] = expanded
            expanded = {"$ref": f"#/$defs/{self.def_names[target]}"}
        return {**expanded, **siblings} if siblings and isinstance(expanded, dict) else expanded

    def _def_name(self, target: str) -> str:
        if target not in self.def_names:
            base = re.sub(r"[^A-Za-z0-9._-]+", "_", _unescape(target.rsplit("/", 1)[-1])) or "def"
            name, n = base, 1
            while name in self.def_names.values():
                n += 1
                name = f"{base}-{n}"
            self.def_names[target] = name
        return self.def_names[target]

    def with_defs(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The schema with the `$defs` its recursive refs need (and only those)."""
        used: list[str] = []
        pending = _def_refs(schema)
        while pending:
            name = pending.pop()
            if name not in used and name in self.defs:
                used.append(name)
                pending.extend(_def_refs(self.defs[name]))
        if not used:
            return schema
        return {**schema, "$defs": {**schema.get("$defs", {}), **{n: self.defs[n] for n in sorted(used)}}}


def _def_refs(value: Any) -> list[str]:
    if isinstance(value, list):
        return [name for item in value for name in _def_refs(item)]
    if not isinstance(value, dict):
        return []
    ref = value.get("$ref")
    own = [ref.removeprefix("#/$defs/")] if isinstance(ref, str) and ref.startswith("#/$defs/") else []
    return own + [name for item in value.values() for name in _def_refs(item)]


def _fragment(ref: str) -> str | None:
    """The JSON pointer of a local ref ("#/components/schemas/Pet"), None for a remote or anchor ref."""
    if not ref.startswith("#"):
        return None
    frag = unquote(ref[1:])
    return frag if frag == "" or frag.startswith("/") else None


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _lookup(doc: Any, ptr: str) -> tuple[bool, Any]:
    here = doc
    for raw in ptr.split("/")[1:] if ptr else []:
        part = _unescape(raw)
        if isinstance(here, dict) and part in here:
            here = here[part]
        elif isinstance(here, list) and part.isdigit() and int(part) < len(here):
            here = here[int(part)]
        else:
            return False, None
    return True, here


def _media(content: Any) -> tuple[str, dict[str, Any]] | None:
    """The media type to read: application/json, else any JSON type (+json), else the first."""
    if not isinstance(content, dict) or not content:
        return None
    types = list(content)
    jsonish = [t for t in types if re.search(r"[/+]json\s*(;|$)", t.lower())]
    chosen = "application/json" if "application/json" in content else (jsonish or types)[0]
    media = content[chosen]
    return chosen, media if isinstance(media, dict) else {}


def _schema(value: Any) -> dict[str, Any]:
    """A schema as an object: 3.1's boolean schemas too (false: nothing is valid)."""
    return dict(value) if isinstance(value, dict) else {"not": {}} if value is False else {}


def _swagger_schema(param: dict[str, Any]) -> dict[str, Any]:
    """A Swagger 2.0 non-body parameter's JSON Schema: its own schema keywords (`type: file` is binary data)."""
    prop = {k: param[k] for k in _SWAGGER_SCHEMA_KEYS if k in param}
    if prop.get("type") == "file":
        prop.update({"type": "string", "format": "binary"})
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(prop.get(bound), bool):  # draft 4's boolean form; a number in JSON Schema 2020-12
            flag = prop.pop(bound)
            if flag and limit in prop:
                prop[bound] = prop.pop(limit)
    if "collectionFormat" in param:
        prop["x-openapi-collectionFormat"] = param["collectionFormat"]
    return prop


def _opaque(value: Any) -> str | None:
    """The ref of a value left as a bare `$ref` (unresolved or remote), else None."""
    return value["$ref"] if isinstance(value, dict) and isinstance(value.get("$ref"), str) else None


class _Reader:
    def __init__(self, path: str, data: bytes, out: Imported):
        self.path, self.data, self.out = path, data, out
        self.source_digest = sha256(data)  # once: a big document has a thousand operations
        self.seen: set[tuple[str, str]] = set()
        self.ids: dict[str, str] = {}  # operationId -> JSON path of its first use

    def problem(self, ptr: str, reason: str) -> None:
        key = (json_path(ptr), reason)
        if key not in self.seen:  # a component used by several operations is reported once
            self.seen.add(key)
            self.out.problems.append(Problem(self.path, key[0], reason))

    def read(self, loaded: tuple[Any, dict[str, int]] | None = None) -> None:
        if loaded is None and (loaded := load_document(self.path, self.data, self.out)) is None:
            return
        doc, self.lines = loaded
        self.doc = doc
        if not isinstance(doc, dict):
            return self.problem("", "not an OpenAPI document: the top level is not an object")
        self.swagger = "swagger" in doc and "openapi" not in doc
        key = "swagger" if self.swagger else "openapi"
        version = doc.get(key)
        if isinstance(version, (int, float)) and not isinstance(version, bool):
            version = str(version)  # `openapi: 3.0` unquoted in YAML
        if not isinstance(version, str) or not re.match(r"2\.0$" if self.swagger else r"3\.\d+", version):
            return self.problem(
                f"/{key}", f"{key} version {version!r} is not {'2.0' if self.swagger else '3.x'}: "
                           "only OpenAPI 3.0 and 3.1 and Swagger 2.0 are read"
            )
        self.version = version
        self.title = ""
        info = doc.get("info")
        if not isinstance(info, dict):
            self.problem("/info", "no info object: operations are read without a namespace")
        elif not isinstance(info.get("title"), str) or not info["title"].strip():
            self.problem("/info/title", "no title: operations are read without a namespace")
        else:
            self.title = info["title"].strip()
        paths = doc.get("paths")
        if paths is None:
            # 3.1 makes paths optional for a document of webhooks or components only.
            if version.startswith("3.0") or not ("webhooks" in doc or "components" in doc):
                self.problem("/paths", "no paths object: the document declares no operations")
            return
        if not isinstance(paths, dict):
            return self.problem("/paths", "paths is not an object")
        base = doc.get("basePath") if self.swagger else None
        self.base_path = base.rstrip("/") if isinstance(base, str) and base.startswith("/") else ""
        text = self.data.decode("utf-8-sig", "replace").split("\n")
        self.text = text
        self.pointers = sorted(self.lines)
        for route, item in paths.items():
            if not route.startswith("x-"):
                self.path_item(route, item, pointer("/paths", route))

    def path_item(self, route: str, item: Any, ptr: str) -> None:
        if not isinstance(item, dict):
            return self.problem(ptr, "path item is not an object")
        own = {m: ptr for m in METHODS if m in item}
        ref = _opaque(item)
        if ref is not None:  # a path item kept elsewhere (3.1 components/pathItems)
            target = _fragment(ref)
            found, resolved = _lookup(self.doc, target) if target is not None else (False, None)
            if target is None:
                self.problem(
                    pointer(ptr, "$ref"), f"path item $ref {ref} is remote: not followed, its operations not read"
                )
            elif not found or not isinstance(resolved, dict):
                self.problem(pointer(ptr, "$ref"), f"$ref {ref} does not resolve to a path item")
            else:
                own = {m: target for m in METHODS if m in resolved} | own
                item = {**resolved, **{k: v for k, v in item.items() if k != "$ref"}}
        shared = item.get("parameters", [])
        if not isinstance(shared, list):
            self.problem(pointer(ptr, "parameters"), "parameters is not a list")
            shared = []
        for method, where in own.items():
            op_ptr = pointer(where, method)
            try:
                self.operation(route, method, item[method], op_ptr, item, shared, pointer(ptr, "parameters"))
            except _TooLarge:
                self.problem(op_ptr, f"operation expands to over {MAX_VALUES} values through its $refs: not read")
            except RecursionError:
                self.problem(op_ptr, "operation nested too deeply to read")

    def operation(
        self, route: str, method: str, op: Any, ptr: str, item: dict[str, Any], shared: list[Any], shared_ptr: str
    ) -> None:
        if not isinstance(op, dict):
            return self.problem(
                ptr, f"operation is not an object but {type(op).__name__ if op is not None else 'null'}"
            )
        refs = _Expander(self.doc)
        expanded = refs.expand(op, ptr)
        notes: list[str] = []

        # Parameters: the path item's, then the operation's, which win by (name, in).
        merged: dict[Any, dict[str, Any]] = {}
        own = expanded.get("parameters", [])
        if not isinstance(own, list):
            self.problem(pointer(ptr, "parameters"), "parameters is not a list")
            own = []
        lists = [(refs.expand(shared, shared_ptr), shared_ptr), (own, pointer(ptr, "parameters"))]
        locations = SWAGGER_LOCATIONS if self.swagger else LOCATIONS
        for params, where in lists:
            for i, param in enumerate(params):
                if (ref := _opaque(param)) is not None:
                    notes.append(f"a parameter is left out of input_schema: its $ref {ref} was not followed")
                    merged[("$ref", ref)] = param
                elif (
                    not isinstance(param, dict)
                    or not isinstance(param.get("name"), str)
                    or param.get("in") not in locations
                ):
                    self.problem(pointer(where, i), f"parameter needs a name and an `in` of {', '.join(locations)}")
                else:  # header names are case-insensitive
                    name = param["name"].lower() if param["in"] == "header" else param["name"]
                    merged[(name, param["in"])] = param
        value = {**expanded, "parameters": list(merged.values())} if merged else expanded

        input_schema = self.input_schema(expanded, merged, ptr, notes)
        output_schema, response = self.output_schema(expanded.get("responses"), pointer(ptr, "responses"), notes, expanded)
        if "callbacks" in expanded:
            notes.append("callbacks are calls the API makes, not operations: not read")

        op_id = expanded.get("operationId")
        fallback = f"{method.upper()} {route}"
        if op_id is not None and not isinstance(op_id, str):
            self.problem(pointer(ptr, "operationId"), "operationId is not a string")
            op_id = None
        if op_id:
            if op_id in self.ids:
                self.problem(pointer(ptr, "operationId"), f"operationId {op_id!r} is already used at {self.ids[op_id]}")
            self.ids.setdefault(op_id, json_path(ptr))
        summary = expanded.get("summary") if isinstance(expanded.get("summary"), str) else ""
        description = expanded.get("description") if isinstance(expanded.get("description"), str) else ""
        tags = expanded.get("tags")
        metadata: dict[str, Any] = {
            "method": method.upper(),
            "path": route,  # as written: a server (Swagger's basePath among them) may put it under a prefix
            "tags": [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else [],
            "servers": self.servers(expanded, item),
            "security": self.security(expanded),
            "swagger" if self.swagger else "openapi": self.version,
        }
        if response:
            metadata["response"] = response

        for where, reason in refs.problems:
            self.problem(where, reason)
        line = self.key_line(ptr, method)
        self.out.operations.append(
            Declared(
                format="openapi",
                original_id=op_id or fallback,
                name=summary or op_id or fallback,
                description=description or summary,
                path=self.path,
                line=line,
                end_line=self.end_line(ptr, line),
                pointer=ptr,
                namespace=self.title,
                source_digest=self.source_digest,
                # The operation as resolved: a change to a component it uses changes it; another operation does not.
                declaration_digest=sha256(canonical_json(refs.with_defs(value))),
                digest_of="canonical-json",
                input_schema=refs.with_defs(input_schema),
                output_schema=refs.with_defs(output_schema) if output_schema is not None else None,
                effects=["network.connect"],
                read_only=method in SAFE_METHODS,
                hints={"deprecated": True} if expanded.get("deprecated") is True else {},
                metadata=metadata,
                notes=list(dict.fromkeys(refs.notes + notes)),
            )
        )

    def input_schema(self, op: dict[str, Any], params: dict[Any, dict[str, Any]], ptr: str, notes: list[str]) -> dict:
        properties: dict[str, Any] = {}
        required: list[str] = []
        form: dict[str, Any] = {}
        form_required: list[str] = []
        body_param: dict[str, Any] | None = None
        for (kind, where), param in params.items():
            if kind == "$ref":
                continue
            name = param["name"]
            if where == "body":
                body_param = param
                continue
            if where == "formData":
                form[name] = _swagger_schema(param)
                if param.get("required") is True:
                    form_required.append(name)
                continue
            if self.swagger:
                prop = _swagger_schema(param)
            else:
                content = _media(param.get("content"))
                prop = _schema(param["schema"] if "schema" in param else content[1].get("schema") if content else None)
            prop.update({k: param[k] for k in ("description", "deprecated") if k in param})
            prop.update({f"x-openapi-{k}": param[k] for k in ("style", "explode") if k in param})
            prop["x-openapi-in"] = where
            key = name if name not in properties else f"{where}:{name}"  # `id` in both path and query
            properties[key] = prop
            if where == "path" or param.get("required") is True:
                required.append(key)
        if self.swagger:
            self.swagger_body(op, properties, required, body_param, form, form_required)
            return {"type": "object", "properties": properties, "required": required}
        body = op.get("requestBody")
        if body is not None:
            key = "body" if "body" not in properties else "requestBody"
            if (ref := _opaque(body)) is not None:
                notes.append(f"request body kept opaque ({{}}): its $ref {ref} was not followed")
                properties[key] = {}
            elif not isinstance(body, dict):
                self.problem(pointer(ptr, "requestBody"), "requestBody is not an object")
            else:
                chosen = _media(body.get("content"))
                prop = _schema(chosen[1].get("schema") if chosen else None)
                if isinstance(body.get("description"), str):
                    prop.setdefault("description", body["description"])
                if chosen:
                    prop["x-openapi-media-type"] = chosen[0]
                else:
                    notes.append("request body has no content: its schema is unknown")
                properties[key] = prop
                if body.get("required") is True:
                    required.append(key)
        return {"type": "object", "properties": properties, "required": required}

    def swagger_body(self, op: dict[str, Any], properties: dict[str, Any], required: list[str],
                     body: dict[str, Any] | None, form: dict[str, Any], form_required: list[str]) -> None:
        """Swagger 2.0's request body: its one `in: body` parameter, else its `formData` ones as one object."""
        if body is None and not form:
            return
        key = "body" if "body" not in properties else "requestBody"
        consumes = self.media_types(op, "consumes")
        if body is not None:
            prop = _schema(body.get("schema"))
            if isinstance(body.get("description"), str):
                prop.setdefault("description", body["description"])
            jsonish = [t for t in consumes if re.search(r"[/+]json\s*(;|$)", t.lower())]
            media = jsonish[0] if jsonish else consumes[0] if consumes else "application/json"
            is_required = body.get("required") is True
        else:
            prop = {"type": "object", "properties": form, "required": form_required}
            forms = [t for t in consumes if t.startswith(("multipart/form-data", "application/x-www-form-urlencoded"))]
            media = forms[0] if forms else "application/x-www-form-urlencoded"
            is_required = bool(form_required)
        prop["x-openapi-media-type"] = media
        properties[key] = prop
        if is_required:
            required.append(key)

    def media_types(self, op: dict[str, Any], key: str) -> list[str]:
        """An operation's `consumes` or `produces` (Swagger 2.0), else the document's."""
        for holder in (op, self.doc):
            types = holder.get(key)
            if isinstance(types, list):
                return [t for t in types if isinstance(t, str)]
        return []

    def output_schema(self, responses: Any, ptr: str, notes: list[str],
                      op: dict[str, Any] | None = None) -> tuple[dict | None, dict[str, str]]:
        if responses is None:
            notes.append("no responses: output unknown")
            return None, {}
        if not isinstance(responses, dict):
            self.problem(ptr, "responses is not an object")
            return None, {}
        codes = sorted((c for c in responses if re.fullmatch(r"2\d\d", c)), key=int)
        codes += [c for c in responses if c.upper() == "2XX"]
        if not codes:
            notes.append("no 2xx response: output unknown")
            return None, {}
        code = codes[0]
        response = responses[code]
        if (ref := _opaque(response)) is not None:
            notes.append(f"output unknown: the {code} response's $ref {ref} was not followed")
            return None, {"status": code}
        if not isinstance(response, dict):
            self.problem(pointer(ptr, code), "response is not an object")
            return None, {"status": code}
        if self.swagger:
            produces = self.media_types(op or {}, "produces")
            jsonish = [t for t in produces if re.search(r"[/+]json\s*(;|$)", t.lower())]
            media = jsonish[0] if jsonish else produces[0] if produces else None
            if "schema" not in response:
                notes.append(f"{code} response has no schema: output none")
                return None, {"status": code, **({"mediaType": media} if media else {})}
            return _schema(response["schema"]), {"status": code, **({"mediaType": media} if media else {})}
        chosen = _media(response.get("content"))
        if chosen is None or "schema" not in chosen[1]:
            notes.append(f"{code} response has no schema: output none")
            return None, {"status": code, **({"mediaType": chosen[0]} if chosen else {})}
        return _schema(chosen[1]["schema"]), {"status": code, "mediaType": chosen[0]}

    def servers(self, op: dict[str, Any], item: dict[str, Any]) -> list[str]:
        if self.swagger:
            host = self.doc.get("host") if isinstance(self.doc.get("host"), str) else ""
            schemes = op.get("schemes", self.doc.get("schemes"))
            schemes = [s for s in schemes if isinstance(s, str)] if isinstance(schemes, list) and host else []
            return [f"{scheme}://{host}{self.base_path}" for scheme in schemes] or \
                   ([f"//{host}{self.base_path}"] if host else [self.base_path] if self.base_path else [])
        for holder in (op, item, self.doc):
            servers = holder.get("servers")
            if isinstance(servers, list) and servers:
                return [s["url"] for s in servers if isinstance(s, dict) and isinstance(s.get("url"), str)]
        return []

    def security(self, op: dict[str, Any]) -> list[str]:
        requirements = op["security"] if "security" in op else self.doc.get("security", [])  # [] in op: no auth
        names = [n for r in requirements if isinstance(r, dict) for n in r] if isinstance(requirements, list) else []
        return list(dict.fromkeys(names))

    def key_line(self, ptr: str, key: str) -> int:
        """The line of the operation's key (`get:`): the map gives where its value starts, a line later in YAML."""
        line = self.lines.get(ptr, 1)
        rx = re.compile(rf"""\s*['"]?{re.escape(key)}['"]?\s*:""")
        for n in range(line, max(0, line - 50), -1):
            if n <= len(self.text) and rx.match(self.text[n - 1]):
                return n
        return line

    def end_line(self, ptr: str, line: int) -> int:
        # Pointers under ptr sort together, from ptr + "/" up to ptr + "0" ("0" follows "/").
        lo = bisect.bisect_left(self.pointers, ptr + "/")
        hi = bisect.bisect_left(self.pointers, ptr + "0")
        return max([line, self.lines.get(ptr, line), *(self.lines[p] for p in self.pointers[lo:hi])])
