"""Zod schemas in TypeScript or JavaScript source, read statically (nothing is executed) into JSON
Schema, and the JS literal values their arguments are written with.

`to_json_schema(node, source, io)` translates the simple subset an app's capability declaration is
written in: `z.object/strictObject/looseObject`, `z.string/number/int/boolean/null/unknown/any`,
`z.enum([...])`, `z.literal(x)`, `z.array(x)` and `x.array()`, `z.email/url/uuid()`,
`z.iso.datetime/date/time()`, and the chain methods `.optional/.nullable/.nullish/.default/
.describe/.meta`, `.min/.max/.length/.nonempty`, `.regex`, `.email/.url/.uuid/.datetime/.date/.time`,
`.int/.positive/.nonnegative/.negative/.nonpositive/.gt/.gte/.lt/.lte/.multipleOf`,
`.strict/.passthrough/.loose/.strip/.extend/.partial/.required`, with same-file `const X = z...`
constants followed. The shape follows Zod 4's own `z.toJSONSchema(schema, { io })`, which is what
Cloud publishes, without its `$schema` key, the safe-integer bounds it adds to integers and the
regular expressions it adds beside formats: io "input" leaves defaulted fields out of `required`,
io "output" closes plain objects (`additionalProperties: false`) as Zod does for parsed data.
Refinements (`.refine`, `.superRefine`, `.check`, `.brand`, `.catch`, and `.transform` of input)
keep the schema they narrow, with a note; normalisations (`.trim`, `.toLowerCase`...) are left out
silently, as Zod leaves them out.

Anything else (unions, `z.custom`, records, tuples, imported schemas, a method this module does not
know) is kept opaque as `{"x-zod-source": "<source text>"}` (with the description and optionality
the chain still states) and a note names the construct and where it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPAQUE = "x-zod-source"

# Wrappers that change a value's static type, not the value: `x as const`, `x satisfies T`, `(x)`, `x!`.
_WRAPPERS = {"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"}
_IDENTIFIERS = ("identifier", "shorthand_property_identifier")


class NotLiteral(ValueError):
    """The expression is not a literal this module can read without running code."""


@dataclass
class Source:
    """One parsed file: its bytes, its same-file constants and its imported names."""

    data: bytes
    consts: dict[str, Any] = field(default_factory=dict)  # name -> value node; None when declared twice
    imports: dict[str, str] = field(default_factory=dict)  # local name -> module it is imported from
    zod_names: frozenset[str] = frozenset({"z"})  # the names Zod is imported as

    def text(self, node: Any) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def unwrap(node: Any) -> Any:
    while node is not None and (node.type in _WRAPPERS or node.type == "type_assertion"):
        named = [c for c in node.named_children if c.type != "comment"]
        if not named:
            break
        node = named[-1] if node.type == "type_assertion" else named[0]  # <T>x: the expression is last
    return node


def named(node: Any) -> list[Any]:
    """A node's named children without comments (comments are named nodes in these grammars)."""
    return [c for c in node.named_children if c.type != "comment"]


def resolve(node: Any, source: Source, seen: frozenset[str] = frozenset()) -> tuple[Any, str | None]:
    """(the expression an identifier names through same-file consts, the last const name or None)."""
    node, name = unwrap(node), None
    while node is not None and node.type in _IDENTIFIERS:
        ident = source.text(node)
        value = source.consts.get(ident)
        if value is None or ident in seen:
            break
        seen |= {ident}
        node, name = unwrap(value), ident
    return node, name


def describe_reference(node: Any, source: Source) -> str:
    """Why an identifier could not be followed: imported, declared twice, or not a const here."""
    ident = source.text(node)
    if ident in source.imports:
        return f"`{ident}` is imported from {source.imports[ident]!r}"
    if ident in source.consts:
        return f"`{ident}` is declared more than once in this file"
    return f"`{ident}` is not a const of this file"


# --- JS literals --------------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(seq: str) -> str:
    body = seq[1:]
    if body[:1] in _ESCAPES and not (body[:1] == "0" and body[1:2].isdigit()):
        return _ESCAPES[body[0]]
    if body.startswith("u{"):
        return chr(int(body[2:-1], 16))
    if body[:1] in "ux" and len(body) > 1:
        return chr(int(body[1:], 16))
    if body[:1] in "\r\n\u2028\u2029":  # a line continuation
        return ""
    return body


def _string(node: Any, source: Source) -> str:
    parts = []
    for child in node.children:
        if child.type == "template_substitution":
            raise NotLiteral("a template string with substitutions")
        if child.type == "escape_sequence":
            parts.append(_unescape(source.text(child)))
        elif child.type == "string_fragment":
            parts.append(source.text(child))
    return "".join(parts)


def _number(text: str) -> int | float:
    text = text.replace("_", "")
    lower = text.lower()
    if lower.endswith("n"):  # BigInt
        raise NotLiteral("a BigInt literal")
    if lower.startswith(("0x", "0o", "0b")):
        return int(lower, 0)
    value = float(text)
    return int(value) if value.is_integer() and not any(c in lower for c in ".e") else value


def literal(node: Any, source: Source, seen: frozenset[str] = frozenset()) -> Any:
    """The JSON value a JS expression is written as: strings, template strings without
    substitutions, numbers, true/false/null, arrays and objects of those, and same-file consts
    holding them. Raises NotLiteral for anything that needs code to run."""
    node, name = resolve(node, source, seen)
    if name is not None:
        seen |= {name}
    kind = node.type if node is not None else "nothing"
    if kind in ("string", "template_string"):
        return _string(node, source)
    if kind == "number":
        return _number(source.text(node))
    if kind == "unary_expression" and node.child_by_field_name("operator").type in ("-", "+"):
        value = literal(node.child_by_field_name("argument"), source, seen)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise NotLiteral("a sign before a non-number")
        return -value if node.child_by_field_name("operator").type == "-" else value
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "null":
        return None
    if kind == "array":
        out = []
        for item in named(node):
            if item.type == "spread_element":
                spread = literal(named(item)[0], source, seen)
                if not isinstance(spread, list):
                    raise NotLiteral("a spread of a non-array")
                out.extend(spread)
            else:
                out.append(literal(item, source, seen))
        return out
    if kind == "object":
        obj: dict[str, Any] = {}
        for item in named(node):
            if item.type == "pair":
                obj[property_name(item.child_by_field_name("key"), source)] = literal(
                    item.child_by_field_name("value"), source, seen)
            elif item.type == "spread_element":
                spread = literal(named(item)[0], source, seen)
                if not isinstance(spread, dict):
                    raise NotLiteral("a spread of a non-object")
                obj.update(spread)
            elif item.type == "shorthand_property_identifier":
                ident = source.text(item)
                value = source.consts.get(ident)
                if value is None:
                    raise NotLiteral(f"`{ident}` is not a const of this file")
                obj[ident] = literal(value, source, seen)
            else:
                raise NotLiteral(f"a {item.type.replace('_', ' ')} in an object")
        return obj
    if kind in _IDENTIFIERS:
        ident = source.text(node)
        raise NotLiteral("undefined" if ident == "undefined" else describe_reference(node, source))
    raise NotLiteral(f"a {kind.replace('_', ' ')}")


def property_name(key: Any, source: Source) -> str:
    """The name of an object key: `a`, `"a.b"`, `1`, or `[K]` with K a same-file string const."""
    if key.type in ("property_identifier", "private_property_identifier"):
        return source.text(key)
    if key.type == "computed_property_name":
        value = literal(named(key)[0], source)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise NotLiteral("a computed key that is not a string")
        return str(value)
    if key.type == "number":
        return str(_number(source.text(key)))
    return _string(key, source)


# --- Zod -----------------------------------------------------------------------------------------

_FORMATS = {"email": "email", "url": "uri", "uuid": "uuid", "datetime": "date-time", "date": "date",
            "time": "time"}
_TYPES = {"string": "string", "number": "number", "int": "integer", "boolean": "boolean", "null": "null"}
_KIND = {"string": "string", "number": "number", "int": "number", "boolean": "other", "null": "other"}
# Methods that refine or transform a value in ways JSON Schema cannot state: the translated schema
# is kept (it accepts a superset) and a note says what it leaves out.
_UNSTATED = {"refine", "superRefine", "check", "brand", "catch", "transform", "overwrite"}
# Normalisations Zod itself leaves out of JSON Schema: dropped silently, as it does.
_SILENT = {"trim", "toLowerCase", "toUpperCase", "normalize", "readonly", "finite", "strip"}
_NUMBER_BOUNDS = {"min": "minimum", "gte": "minimum", "max": "maximum", "lte": "maximum",
                  "gt": "exclusiveMinimum", "lt": "exclusiveMaximum", "multipleOf": "multipleOf",
                  "step": "multipleOf"}
_SIGNS = {"positive": ("exclusiveMinimum", 0), "nonnegative": ("minimum", 0),
          "negative": ("exclusiveMaximum", 0), "nonpositive": ("maximum", 0)}
_REGEX_FLAGS_OK = set("gyud")  # flags that do not change what a pattern matches once


class _Opaque(Exception):
    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


@dataclass
class _Out:
    schema: dict[str, Any]
    optional: bool = False  # not in its object's `required`
    kind: str = "other"  # "string", "number", "array", "object" or "other": which methods apply
    mode: str = "strip"  # objects: "strip", "strict" or "loose"


def to_json_schema(node: Any, source: Source, io: str = "input",
                   where: str = "schema") -> tuple[dict[str, Any], list[str]]:
    """(JSON Schema, notes) of the Zod expression `node`; `where` prefixes the notes ("input")."""
    translator = _Translator(source, io)
    out = translator.schema(node, where, frozenset())
    return out.schema, translator.notes


class _Translator:
    def __init__(self, source: Source, io: str):
        self.source, self.io = source, io
        self.notes: list[str] = []

    def schema(self, node: Any, where: str, seen: frozenset[str]) -> _Out:
        node = unwrap(node)
        root, calls = self._chain(node)
        try:
            out, rest = self._base(root, calls, where, seen)
            for name, args in rest:
                out = self._method(out, name, args, where, seen)
        except _Opaque as opaque:
            self.notes.append(f"{where}: {opaque.what}: not translated; kept as {OPAQUE}")
            return self._opaque(node, calls)
        return self._finish(out)

    # A chain `z.string().min(1).optional()` read inside out: the root (`z`, or a const's name) and
    # each call after it, in source order.
    def _chain(self, node: Any) -> tuple[Any, list[tuple[str, list[Any]]]]:
        calls: list[tuple[str, list[Any]]] = []
        while node is not None and node.type == "call_expression":
            function = unwrap(node.child_by_field_name("function"))
            args = node.child_by_field_name("arguments")
            if function is None or function.type != "member_expression" or args is None:
                break
            calls.append((self.source.text(function.child_by_field_name("property")), named(args)))
            node = unwrap(function.child_by_field_name("object"))
        calls.reverse()
        return node, calls

    def _base(self, root: Any, calls: list[tuple[str, list[Any]]], where: str,
              seen: frozenset[str]) -> tuple[_Out, list[tuple[str, list[Any]]]]:
        source = self.source
        if root is not None and root.type == "member_expression" and calls:  # z.iso.datetime()
            obj, prop = unwrap(root.child_by_field_name("object")), root.child_by_field_name("property")
            if obj.type == "identifier" and source.text(obj) in source.zod_names and source.text(prop) == "iso":
                name = calls[0][0]
                if name in ("datetime", "date", "time"):
                    return _Out({"type": "string", "format": _FORMATS[name]}, kind="string"), calls[1:]
                raise _Opaque(f"z.iso.{name}()")
        if root is None or root.type not in _IDENTIFIERS:
            raise _Opaque(f"`{source.text(root)}`" if root is not None else "an empty expression")
        ident = source.text(root)
        if ident in source.zod_names and calls:
            name, args = calls[0]
            return self._constructor(name, args, where, seen), calls[1:]
        value = source.consts.get(ident)
        if value is None or ident in seen:
            raise _Opaque(f"`{ident}` (a reference to itself)" if ident in seen else describe_reference(root, source))
        try:
            return self._unfinished(value, where, seen | {ident}), calls
        except _Opaque as opaque:
            raise _Opaque(f"{opaque.what} (in const `{ident}`)") from None

    def _unfinished(self, node: Any, where: str, seen: frozenset[str]) -> _Out:
        """A const's schema before `_finish`, so methods after the reference still apply."""
        node = unwrap(node)
        root, calls = self._chain(node)
        out, rest = self._base(root, calls, where, seen)
        for name, args in rest:
            out = self._method(out, name, args, where, seen)
        return out

    def _constructor(self, name: str, args: list[Any], where: str, seen: frozenset[str]) -> _Out:
        if name in _TYPES:
            return _Out({"type": _TYPES[name]}, kind=_KIND[name])
        if name in ("unknown", "any"):
            return _Out({})
        if name in ("email", "url", "uuid"):
            return _Out({"type": "string", "format": _FORMATS[name]}, kind="string")
        if name == "enum":
            values = self._literal(args[0] if args else None, "z.enum() of non-literal values")
            if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
                raise _Opaque("z.enum() of anything but a list of strings")
            return _Out({"type": "string", "enum": values})
        if name == "literal":
            value = self._literal(args[0] if args else None, "z.literal() of a non-literal value")
            if isinstance(value, (list, dict)):
                raise _Opaque("z.literal() of a non-primitive")
            return _Out({"type": _json_type(value), "const": value})
        if name == "array":
            if not args:
                raise _Opaque("z.array() without an item schema")
            items = self.schema(args[0], f"{where}[]", seen)
            return _Out({"type": "array", "items": items.schema}, kind="array")
        if name in ("object", "strictObject", "looseObject"):
            mode = {"object": "strip", "strictObject": "strict", "looseObject": "loose"}[name]
            out = _Out({"type": "object", "properties": {}}, kind="object", mode=mode)
            if args:
                self._extend(out, args[0], where, seen, f"z.{name}()")
            return out
        raise _Opaque(f"z.{name}()")

    def _extend(self, out: _Out, shape: Any, where: str, seen: frozenset[str], what: str) -> None:
        shape, _ = resolve(shape, self.source, seen)
        if shape is None or shape.type != "object":
            raise _Opaque(f"{what} of a shape that is not an object literal")
        properties = out.schema["properties"]
        required = [r for r in out.schema.get("required", []) if r]
        for item in named(shape):
            if item.type == "pair":
                try:
                    key = property_name(item.child_by_field_name("key"), self.source)
                except NotLiteral:
                    raise _Opaque(f"{what} with a computed key") from None
                value = item.child_by_field_name("value")
            elif item.type == "shorthand_property_identifier":  # `{ id }`: the const `id`
                key, value = self.source.text(item), item
            else:
                raise _Opaque(f"{what} with a {item.type.replace('_', ' ')} in its shape")
            field_where = f"{where}.{key}" if where else key
            prop = self.schema(value, field_where, seen)
            properties[key] = prop.schema
            if key in required:
                required.remove(key)
            if not prop.optional:
                required.append(key)
        out.schema["required"] = required

    def _method(self, out: _Out, name: str, args: list[Any], where: str, seen: frozenset[str]) -> _Out:
        schema = out.schema
        if name == "optional":
            out.optional = True
        elif name in ("nullable", "nullish"):
            out = _Out(_nullable(self._finish(out).schema), optional=out.optional or name == "nullish")
        elif name == "default":
            try:
                schema["default"] = literal(args[0], self.source) if args else None
            except NotLiteral as exc:
                self.notes.append(f"{where}: .default() of {exc} is not stated")
            out.optional = out.optional or self.io == "input"
        elif name == "describe":
            try:
                schema["description"] = literal(args[0], self.source) if args else ""
            except NotLiteral as exc:
                self.notes.append(f"{where}: .describe() of {exc} is not stated")
        elif name == "meta":
            meta = self._literal(args[0] if args else None, ".meta() of a non-literal object")
            if not isinstance(meta, dict):
                raise _Opaque(".meta() of a non-object")
            schema.update(meta)
        elif name == "array":
            out = _Out({"type": "array", "items": self._finish(out).schema}, kind="array")
        elif name in _SILENT:
            pass
        elif name == "transform" and self.io == "output":
            raise _Opaque(".transform() of parsed data")  # the data is whatever the function returns
        elif name in _UNSTATED:
            self.notes.append(f"{where}: .{name}() is not stated in JSON Schema")
        elif self._typed_method(out, name, args):
            pass
        elif out.kind == "object" and name in ("strict", "passthrough", "loose"):
            out.mode = "strict" if name == "strict" else "loose"
        elif out.kind == "object" and name == "extend":
            self._extend(out, args[0] if args else None, where, seen, ".extend()")
        elif out.kind == "object" and name in ("partial", "required") and not args:
            schema["required"] = list(schema["properties"]) if name == "required" else []
        else:
            raise _Opaque(f".{name}()")
        return out

    def _typed_method(self, out: _Out, name: str, args: list[Any]) -> bool:
        """A method of strings, numbers or arrays applied to `out`; False when it is none of those."""
        methods = {"string": self._string_method, "number": self._number_method, "array": self._array_method}
        method = methods.get(out.kind)
        return method is not None and method(out.schema, name, args)

    def _string_method(self, schema: dict[str, Any], name: str, args: list[Any]) -> bool:
        if name in ("min", "max", "length"):
            n = self._count(args, name)
            if name in ("min", "length"):
                schema["minLength"] = n
            if name in ("max", "length"):
                schema["maxLength"] = n
        elif name == "nonempty":
            schema["minLength"] = 1
        elif name in _FORMATS:
            schema["format"] = _FORMATS[name]
        elif name == "regex":
            regex = unwrap(args[0]) if args else None
            if regex is None or regex.type != "regex":
                raise _Opaque(".regex() of a non-literal regular expression")
            flags = regex.child_by_field_name("flags")
            extra = set(self.source.text(flags)) - _REGEX_FLAGS_OK if flags is not None else set()
            if extra:
                raise _Opaque(f".regex() with flags /{''.join(sorted(extra))}")
            pattern = self.source.text(regex.child_by_field_name("pattern"))
            if "pattern" in schema or "allOf" in schema:  # Zod states several patterns as allOf
                earlier = [{"pattern": schema.pop("pattern")}] if "pattern" in schema else []
                schema["allOf"] = [*schema.get("allOf", []), *earlier, {"pattern": pattern}]
            else:
                schema["pattern"] = pattern
        else:
            return False
        return True

    def _number_method(self, schema: dict[str, Any], name: str, args: list[Any]) -> bool:
        if name == "int":
            schema["type"] = "integer"
        elif name in _NUMBER_BOUNDS:
            value = self._literal(args[0] if args else None, f".{name}() of a non-literal bound")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise _Opaque(f".{name}() of a non-number")
            schema[_NUMBER_BOUNDS[name]] = value
        elif name in _SIGNS:
            key, value = _SIGNS[name]
            schema[key] = value
        else:
            return False
        return True

    def _array_method(self, schema: dict[str, Any], name: str, args: list[Any]) -> bool:
        if name in ("min", "max", "length"):
            n = self._count(args, name)
            if name in ("min", "length"):
                schema["minItems"] = n
            if name in ("max", "length"):
                schema["maxItems"] = n
        elif name == "nonempty":
            schema["minItems"] = 1
        else:
            return False
        return True

    def _count(self, args: list[Any], name: str) -> int:
        value = self._literal(args[0] if args else None, f".{name}() of a non-literal length")
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Opaque(f".{name}() of a non-integer")
        return value

    def _literal(self, node: Any, what: str) -> Any:
        if node is None:
            raise _Opaque(what)
        try:
            return literal(node, self.source)
        except NotLiteral:
            raise _Opaque(what) from None

    def _finish(self, out: _Out) -> _Out:
        schema = out.schema
        if out.kind == "object":
            if not schema.get("required"):
                schema.pop("required", None)
            if out.mode == "strict" or (out.mode == "strip" and self.io == "output"):
                schema["additionalProperties"] = False
            elif out.mode == "loose":
                schema["additionalProperties"] = {}
            out.kind = "done"  # `_finish` runs once per schema
        return out

    def _opaque(self, node: Any, calls: list[tuple[str, list[Any]]]) -> _Out:
        """The chain kept as source text, with what its modifiers still say for sure."""
        out = _Out({OPAQUE: self.source.text(node)})
        for name, args in calls:
            if name in ("optional", "nullish") or (name == "default" and self.io == "input"):
                out.optional = True
            elif name == "describe" and args:
                try:
                    text = literal(args[0], self.source)
                except NotLiteral:
                    continue
                if isinstance(text, str):
                    out.schema["description"] = text
        return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string"


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    # As Zod: a plain typed schema gains "null" in its type; one with values or a description of its
    # own is wrapped, so the null branch does not inherit them.
    if isinstance(schema.get("type"), str) and not ({"enum", "const", "description"} & schema.keys()):
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}

