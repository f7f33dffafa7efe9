"""Whether a JavaScript/TypeScript or Python file provably shows no effect and no hazard, decided
from where a few words occur in its source instead of from every call the query pass finds.

Most files of a library (lodash's thousand modules, most of rich or flask) call nothing in the
effect tables, and the effect extractor looks at each of their calls in Python only to reject it.
What it can find is bounded by words, because the extractor (miners/effects.py) reaches a row
only through names written in the code:

- a call matches a row or a hazard by its canonical name: the leftmost identifier of its callee
  chain as written (`fs` of `fs.promises.readFile(...)`, `open` of `open(p)`, `WebSocket` of
  `new WebSocket(u)`), or the module an import bound that identifier to; so unless a binding says
  otherwise, a row applies only where its head is written as the head of a callee, and only when
  what follows the head (`os.path`, `module.exports`) can continue one of its rows;
- a method row applies by the method's name, and all but a few need a module imported (`find` is
  a query only where an ORM is): the few are triggers wherever their name is written, the others
  only where one of their modules is named too;
- modules and bindings come only from imports (and, in JS, `require()` and `import()`): in JS a
  load of a module no table knows (a relative path, `lodash`, `react`) binds nothing that heads a
  row; in Python an import names its module in the code, so a head inside an import statement is
  a trigger, unless it is a plain `import os`, which binds `os` to itself;
- `process.env` and `os.environ` are found from the words `process` and `environ`; hazards of
  loads (`require(x)` with x not a literal, FFI and native-addon modules) come from the load.

So a file where none of these holds yields nothing, and is skipped. Everything the rules do not
cover counts as a trigger: the gate may only be cautious. A word inside a comment or a string's
text spans no node of its own (or only a string's content) and is passed over.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from miners.words import JS_CALLEES, PY_CALLEES, chain_call, positions, present

# Text shapes that prove an occurrence inert without looking at the tree: whatever they sit in
# (code, a comment, a string), they load the module they name or continue the head they follow.
_LITERAL = rb"""(['"])([^'"\\\n]*)\1"""
_LOAD_CALL = re.compile(rb"\s*\(\s*" + _LITERAL + rb"\s*\)")  # after `require` / `import`
_IMPORT_FROM = re.compile(  # after `import`: `x from "m"`, `{ a, b } from "m"`, `* as ns from "m"`, `"m"`
    rb"""\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:[\w$]+\s+|\{[^}'"/]*\}\s*|\*\s*as\s+[\w$]+\s+)from\s*"""
    + _LITERAL + rb"|\s*" + _LITERAL.replace(rb"\1", rb"\3"))
_MEMBER = re.compile(rb"\s*\??\.\s*([A-Za-z_$][\w$]*)")

Continued = tuple[frozenset[bytes], tuple[bytes, ...]]  # the names that continue a head, the prefixes that do


def _continuations(rows: list[str], heads: set[str], extra: tuple[str, ...] = ()) -> dict[bytes, Continued]:
    """Per head, the properties after it that may continue one of its rows: a second segment as
    written (`fs.readFileSync`), or any name a wildcard's prefix starts (`os.exec*`, `child_process.*`)."""
    out: dict[bytes, Continued] = {}
    for head in heads:
        seconds = {row.split(".")[1] for row in rows if row.startswith(head + ".")} | set(extra)
        out[head.encode()] = (frozenset(p.encode() for p in seconds if "*" not in p),
                              tuple(p.split("*", 1)[0].encode() for p in seconds if "*" in p))
    return out


def _continues(continued: Continued, name: bytes) -> bool:
    return name in continued[0] or name.startswith(continued[1])


class JsGate:
    """The trigger words of the JS effect tables (see the module docstring).

    `calls`, `hazards`, `methods`: the tables; `known_module(specifier)`: whether loading the
    module could matter (an FFI or native module, a table's module, an alias of one)."""

    def __init__(self, calls: dict[str, Any], hazards: dict[str, tuple[str, int | None]],
                 methods: dict[str, list[Any]], known_module: Callable[[str], bool]) -> None:
        rows = [name.removeprefix("new ") for table in (calls, hazards) for name in table]
        heads = {row.split(".", 1)[0] for row in rows} | {"process"}  # process.env is found from the word
        if any(not h or h.startswith(".") or "*" in h for h in heads):
            raise ValueError("the gate's reasoning needs whole-word heads, none relative")
        self.heads = frozenset(h.encode() for h in heads)
        # `promises` may continue any head (fs.promises.readFile is read as fs.readFile), `env` process
        self.continued = _continuations(rows, heads, ("promises", "env"))
        # heads whose only rows are hazards of a string first argument (setTimeout("code", ms))
        self.string_only = frozenset(h.encode() for h in heads if h != "process" and all(
            row not in calls and hazards.get(row, (None, None))[1] == -1
            for row in [n for n in (*calls, *hazards) if n.removeprefix("new ").split(".", 1)[0] == h]))
        self.methods = frozenset(m.encode() for m, rules in methods.items() if any(not r.modules for r in rules))
        self.words = self.heads | self.methods | {b"require", b"import"}
        self.known_module = known_module
        self._known: dict[bytes, bool] = {}
        if any(known_module(spec) for spec in ("./x", "../x", ".", "..")):
            raise ValueError("the gate's reasoning needs relative modules to be unknown to the tables")

    def nothing_to_find(self, pf: Any) -> bool:
        """True only when the effect extractor provably finds no effect and no hazard in the file."""
        source, root = pf.source, pf.tree.root_node
        for word in sorted(self.words.intersection(present(pf))):
            for at in positions(source, word):
                end = at + len(word)
                if self._inert_text(source, word, end):
                    continue
                node = root.descendant_for_byte_range(at, end)
                if node is None or node.start_byte != at or node.end_byte != end:
                    continue  # inside a comment, a string's text or a longer token
                if not self._inert_node(source, word, node):
                    return False
        return True

    def _inert_text(self, source: bytes, word: bytes, end: int) -> bool:
        if word == b"require":
            m = _LOAD_CALL.match(source, end)
            return m is not None and self._inert_name(m[2])
        if word == b"import":
            m = _IMPORT_FROM.match(source, end)
            if m is not None:
                return self._inert_name(m[2] if m[2] is not None else m[4])
            m = _LOAD_CALL.match(source, end)
            return m is not None and self._inert_name(m[2])
        continued = self.continued.get(word)
        if continued is None:
            return False
        m = _MEMBER.match(source, end)
        return m is not None and not _continues(continued, m[1])

    def _inert_name(self, value: bytes | None) -> bool:
        """Whether loading the module `value` names binds nothing a table knows."""
        if value is None or value.endswith(b".node"):
            return False
        if value.startswith(b"."):
            return True  # a sibling module: no table names a path (checked when the gate is built)
        known = self._known.get(value)
        if known is None:
            known = self._known[value] = self.known_module(value.decode("utf-8", "replace"))
        return not known

    def _inert_node(self, source: bytes, word: bytes, node: Any) -> bool:
        if word == b"require":
            return node.type != "identifier" or _callee(node) is None or self._inert_load(source, node.parent)
        if word == b"import":
            return self._inert_import(source, node)
        if word in self.methods:
            return node.type == "string_fragment"
        if node.type != "identifier":
            return True  # `x.fetch` (the chain's head is x), a type, a string's text
        if word == b"process" and _member_property(source, node) == b"env":
            return False
        call = chain_call(node, "member_expression", JS_CALLEES)
        if call is None:
            return True  # a reference, not the head of a callee: no row applies to it
        return word in self.string_only and call.type == "call_expression" and \
            call.child_by_field_name("function") == node and not _string_first(call)  # setTimeout(fn, ms)

    def _inert_load(self, source: bytes, call: Any) -> bool:
        """`require("x")` / `import("x")` of a single literal naming a module no table knows."""
        args = call.child_by_field_name("arguments")
        named = args.named_children if args is not None and args.type == "arguments" else []
        return len(named) == 1 and self._inert_specifier(source, named[0])

    def _inert_import(self, source: bytes, node: Any) -> bool:
        parent = node.parent
        if node.type == "string_fragment" or parent is None:
            return node.type == "string_fragment"
        if node.type == "import" and parent.type == "import_statement":
            spec = parent.child_by_field_name("source")  # none: `import x = require("y")`, which binds nothing
            return spec is None or self._inert_specifier(source, spec)
        if node.type == "import" and parent.type == "import":  # import("x"): the call's function is `import`
            call = parent.parent
            return call is not None and call.type == "call_expression" and \
                call.child_by_field_name("function") == parent and self._inert_load(source, call)
        if node.type == "import" and parent.type == "meta_property":
            return True  # import.meta loads nothing
        return node.type not in ("identifier", "import")  # a property named import, a type...

    def _inert_specifier(self, source: bytes, node: Any) -> bool:
        """A plain string literal naming a module no table knows and no native addon."""
        if node.type != "string":
            return False
        parts = node.named_children
        if len(parts) != 1 or parts[0].type != "string_fragment":
            return False  # escapes, or empty: not worth reading as the extractor would
        return self._inert_name(source[parts[0].start_byte:parts[0].end_byte])


class PyGate:
    """The trigger words of the Python effect tables (see the module docstring).

    `calls`, `hazards`, `methods`: the tables; `ffi`: the modules whose import is a hazard;
    `row_of(name)`: the calls table's row for a canonical name (wildcards included), or None;
    `literal(pf, node)`: the value of a str literal node, or None (what the extractor reads)."""

    def __init__(self, calls: dict[str, Any], hazards: dict[str, tuple[str, int | None]],
                 methods: dict[str, list[Any]], ffi: tuple[str, ...], row_of: Callable[[str], Any],
                 literal: Callable[[Any, Any], str | None]) -> None:
        rows = list(calls) + list(hazards)
        heads = {row.split(".", 1)[0] for row in rows} | set(ffi)
        if any(not h or h.startswith(".") or "*" in h for h in heads):
            raise ValueError("the gate's reasoning needs whole-word heads, none relative")
        self.heads = frozenset(h.encode() for h in heads)
        self.ffi = frozenset(m.encode() for m in ffi)
        self.continued = _continuations(rows, heads)
        # hazards that a str literal at a known position makes inert (getattr(o, "name")), when no row applies too
        self.literal_hazards = {row.encode(): index for row, (_, index) in hazards.items()
                                if index is not None and index >= 0 and row_of(row) is None}
        self.methods = frozenset(m.encode() for m, rules in methods.items() if any(not r.modules for r in rules))
        # a gated method's modules, by their first segment: one of them must be named for it to apply
        self.gated = {m.encode(): frozenset(mod.split(".", 1)[0].encode() for r in rules for mod in r.modules)
                      for m, rules in methods.items() if all(r.modules for r in rules)}
        self.words = self.heads | self.methods | frozenset(self.gated) | {b"environ"}
        self.literal = literal

    def nothing_to_find(self, pf: Any) -> bool:
        """True only when the effect extractor provably finds no effect and no hazard in the file."""
        source, root = pf.source, pf.tree.root_node
        tokens = present(pf)
        for word in sorted(self.words.intersection(tokens)):
            gate = self.gated.get(word)
            if gate is not None and gate.isdisjoint(tokens) and word not in self.heads:
                continue  # a method whose modules the file never names
            for at in positions(source, word):
                end = at + len(word)
                continued = self.continued.get(word)
                if continued is not None and word not in self.ffi:
                    # `os.path`, `io.StringIO`: no row goes on that way, and what an import binds from
                    # there (`from os.path import join`) is named so too
                    m = _MEMBER.match(source, end)
                    if m is not None and not _continues(continued, m[1]):
                        continue
                node = root.descendant_for_byte_range(at, end)
                if node is None or node.start_byte != at or node.end_byte != end or node.type == "string_content":
                    continue  # inside a comment, a string or a longer token
                if not self._inert_node(pf, word, node, gate is not None and not gate.isdisjoint(tokens)):
                    return False
        return True

    def _inert_node(self, pf: Any, word: bytes, node: Any, gated_method: bool) -> bool:
        if node.type != "identifier":
            return True  # a keyword (`exec` of Python 2), a string's content
        if word == b"environ" or word in self.methods or gated_method:
            return False
        statement = _py_import(node)
        if statement is not None:  # `from os import remove`, `import os.path as p`: bindings to the head
            plain = node.parent is not None and node.parent.type == "dotted_name" and \
                node.parent.parent == statement and statement.type == "import_statement" and \
                node.parent.named_child(0) == node
            return plain and word not in self.ffi  # `import os` binds os to itself (ctypes is a hazard)
        call = chain_call(node, "attribute", PY_CALLEES)
        if call is None:
            return True  # a reference, a definition's name, an argument: not the head of a callee
        index = self.literal_hazards.get(b"".join(_text(pf.source, call.child_by_field_name("function")).split()))
        if index is None:
            return False
        args = call.child_by_field_name("arguments")
        positional = [c for c in args.named_children if c.type not in ("comment", "keyword_argument", "list_splat",
                                                                       "dictionary_splat")] if args is not None else []
        return len(positional) > index and self.literal(pf, positional[index]) is not None


def _py_import(node: Any) -> Any:
    """The import statement a name is part of, else None."""
    n = node.parent
    while n is not None and n.type in ("dotted_name", "aliased_import", "relative_import"):
        n = n.parent
    return n if n is not None and n.type in ("import_statement", "import_from_statement",
                                             "future_import_statement") else None


def _text(source: bytes, node: Any) -> bytes:
    return source[node.start_byte:node.end_byte] if node is not None else b""


def _callee(node: Any) -> Any:
    """The call whose function is `node` itself, else None."""
    parent = node.parent
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return parent
    return None


def _member_property(source: bytes, node: Any) -> bytes | None:
    """`env` of `process.env`: the property when `node` is a member expression's object."""
    parent = node.parent
    if parent is None or parent.type != "member_expression" or parent.child_by_field_name("object") != node:
        return None
    prop = parent.child_by_field_name("property")
    return source[prop.start_byte:prop.end_byte] if prop is not None else None


def _string_first(call: Any) -> bool:
    """Whether a call's first argument may be a string (what setTimeout evaluates): anything but a
    function, a name or a member read may be one, once unwrapped as the extractor unwraps it."""
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "arguments":
        return True  # setTimeout`code`
    named = [c for c in args.named_children if c.type != "comment"]
    return bool(named) and named[0].type not in _NOT_STRINGS


_NOT_STRINGS = frozenset({"identifier", "arrow_function", "function_expression", "function", "member_expression"})
