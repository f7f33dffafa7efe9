"""HTTP routes of servlets that declare the paths they serve as regex patterns (Synapse's shape):

    class EventReportsRestServlet(RestServlet):
        PATTERNS = admin_patterns("/event_reports$")

        async def on_GET(self, request): ...

A class with a `PATTERNS` attribute and `on_<METHOD>` methods serves each method at each pattern.
The patterns are `re.compile("...")` literals (or a list of them), or what a call of one of the
package's functions returns (`admin_patterns(path_regex, version="v1")`, whose body joins literal
prefixes, its parameters and the names it binds, and returns `[re.compile(admin_prefix +
path_regex)]`), evaluated with the call's literal arguments and its parameters' defaults. A body
that branches or loops (Synapse's `client_patterns`, one pattern per release and flag) is not
evaluated: those patterns are not guessed. Read in assembly, since the function is another
module's; the regexes become paths as Tornado's do (`(?P<report_id>[^/]*)` is `{report_id}`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .facts import FileFacts, ParsedFile, Surface
from .python_imports import load_module
from .python_modules import absolute, module_files
from .surfaces import _regex_paths, py_args, py_string

_VERB_METHOD = re.compile(r"on_(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)")
_MAX_BYTES = 1 << 20
Env = dict[str, Any]  # a name -> a string, or a list of strings


def add_servlet_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add the routes of each servlet class with `PATTERNS` and `on_<METHOD>` methods."""
    modules: dict[str, str] | None = None
    parsed: dict[str, tuple[ParsedFile, dict[str, str]] | None] = {}
    for path, f in facts.items():
        if f.language != "python" or not any(_VERB_METHOD.fullmatch(s.name.rpartition(".")[2]) for s in f.symbols):
            continue  # (a module with no on_<METHOD> method is not read again)
        data = read(path)
        if b"PATTERNS" not in data or b"def on_" not in data or len(data) > _MAX_BYTES:
            continue
        loaded = load_module(path, read, parsed)
        if loaded is None:
            continue
        modules = modules if modules is not None else module_files(facts)
        pf, names = loaded
        for cls in pf.tree.root_node.named_children:
            cls = cls.child_by_field_name("definition") if cls.type == "decorated_definition" else cls
            if cls is None or cls.type != "class_definition":
                continue
            verbs, patterns = _servlet(pf, cls)
            if not verbs or patterns is None:
                continue
            regexes = _patterns(pf, names, path, patterns, modules, read, parsed)
            name = pf.text(cls.child_by_field_name("name"))
            for regex in regexes or ():
                for route in _regex_paths(regex):
                    if not route.startswith("/") or " " in route:
                        continue
                    for verb, line in verbs:
                        f.surfaces.append(Surface(
                            kind="http-route", name=f"{verb} {route}", line=line, end_line=line, framework="servlet",
                            handler=f"{name}.on_{verb}",
                            detail={"method": verb, "path": route, "pattern": regex,
                                    "patterns_line": patterns.start_point[0] + 1}))


def _servlet(pf: ParsedFile, cls: Any) -> tuple[list[tuple[str, int]], Any]:
    """([(HTTP method, line) of each `on_<METHOD>`], the `PATTERNS = ...` value or None)."""
    verbs, patterns = [], None
    body = cls.child_by_field_name("body")
    for stmt in body.named_children if body is not None else ():
        node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if node is not None and node.type == "function_definition":
            found = _VERB_METHOD.fullmatch(pf.text(node.child_by_field_name("name")))
            if found:
                verbs.append((found[1], node.start_point[0] + 1))
        inner = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if inner.type == "assignment" and pf.text(inner.child_by_field_name("left")) == "PATTERNS":
            patterns = inner.child_by_field_name("right")
    return verbs, patterns


def _patterns(pf: ParsedFile, names: dict[str, str], path: str, node: Any, modules: dict[str, str],
              read: Callable[[str], bytes], parsed: dict[str, Any]) -> list[str] | None:
    """The regexes `PATTERNS` holds: literals, or what a package function called with literals returns."""
    value = _evaluate(pf, node, {})
    if value is not None:
        return value if isinstance(value, list) else [value]
    function = node.child_by_field_name("function") if node.type == "call" else None
    if function is None or function.type != "identifier":
        return None
    written = pf.text(function)
    positional, keywords = py_args(node.child_by_field_name("arguments"))
    args = [py_string(pf, a) for a in positional]
    given = {k: py_string(pf, v) for k, v in keywords.items()}
    if any(a is None for a in args) or any(v is None for v in given.values()):
        return None  # (an argument that is not a literal)
    where, defined = path, written
    if written in names:  # `from synapse.rest.admin._base import admin_patterns`
        module, _, defined = absolute(names[written], path).rpartition(".")
        where = modules.get(module)
    loaded = load_module(where, read, parsed) if where is not None else None
    if loaded is None:
        return None
    target = loaded[0]
    for stmt in target.tree.root_node.named_children:
        fn = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if fn is not None and fn.type == "function_definition" and \
                target.text(fn.child_by_field_name("name")) == defined:
            value = _call(target, fn, args, given)
            return value if isinstance(value, list) else [value] if isinstance(value, str) else None
    return None


def _call(pf: ParsedFile, fn: Any, args: list[Any], given: dict[str, Any]) -> Any:
    """What a function of straight-line assignments returns, its parameters bound to the arguments
    (or their literal defaults); None for anything else."""
    env: Env = {}
    params = fn.child_by_field_name("parameters")
    order = 0
    for param in params.named_children if params is not None else ():
        if param.type in ("identifier", "typed_parameter"):
            name = pf.text(param if param.type == "identifier" else param.named_children[0])
            default = None
        elif param.type in ("default_parameter", "typed_default_parameter"):
            name = pf.text(param.child_by_field_name("name"))
            default = py_string(pf, param.child_by_field_name("value"))
        else:
            continue  # (`*`, `*args`, `**kwargs`)
        value = args[order] if order < len(args) else given.get(name, default)
        order += 1
        if value is not None:
            env[name] = value
    body = fn.child_by_field_name("body")
    for stmt in body.named_children if body is not None else ():
        inner = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if inner.type == "string" or stmt.type == "comment":
            continue  # a docstring
        if inner.type == "assignment" and inner.child_by_field_name("left").type == "identifier":
            value = _evaluate(pf, inner.child_by_field_name("right"), env)
            if value is None:
                return None
            env[pf.text(inner.child_by_field_name("left"))] = value
        elif inner.type == "return_statement" and inner.named_children:
            return _evaluate(pf, inner.named_children[0], env)
        else:
            return None  # a branch, a loop, a call for its effect: not followed
    return None


def _evaluate(pf: ParsedFile, node: Any, env: Env) -> Any:
    """A string or a list of strings: literals, bound names, `+` of strings, `re.compile(x)`."""
    if node is None:
        return None
    if node.type == "string":
        return py_string(pf, node)
    if node.type == "identifier":
        return env.get(pf.text(node))
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _evaluate(pf, node.named_children[0], env)
    if node.type == "binary_operator" and pf.text(node.child_by_field_name("operator")) == "+":
        left, right = (_evaluate(pf, node.child_by_field_name(k), env) for k in ("left", "right"))
        return left + right if isinstance(left, str) and isinstance(right, str) else None
    if node.type in ("list", "tuple"):
        items = [_evaluate(pf, c, env) for c in node.named_children if c.type != "comment"]
        return items if items and all(isinstance(i, str) for i in items) else None
    if node.type == "call" and pf.text(node.child_by_field_name("function")) in ("re.compile", "compile"):
        positional = py_args(node.child_by_field_name("arguments"))[0]
        value = _evaluate(pf, positional[0], env) if positional else None
        return value if isinstance(value, str) else None
    return None
