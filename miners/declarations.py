"""Functions, classes and methods a file declares, and what its module makes public: Python,
JavaScript, TypeScript (.d.ts included) and TSX. Other languages go to miners/declarations_other.py.

The tree-sitter queries in miners/queries/<language>/declarations.scm find the nodes; this module
reads them: names, head-of-declaration signatures, first doc paragraphs, the calls in each body
(for same-file effect propagation), and the language's rules for what is exported. One parse
(the caller's) and one query run per file; a file with syntax errors yields what tree-sitter
recovered, never an exception.
"""

from __future__ import annotations

import bisect
import inspect
import re
from typing import Any

from miners.facts import ModuleSurface, ParsedFile, Symbol
from miners.js_outline import declaration_matches
from miners.parsing import deep_captures, fast_text, file_matches, has_matches, root_matches
from miners.py_literals import literal_eval
from miners.words import positions

JS_FAMILY = ("javascript", "typescript", "tsx")

# Dunders that say how a class is used, so they belong to its public surface: __init__ carries the
# constructor's parameters (the class's call signature), __call__ makes instances callable. Other
# dunders (__repr__, __eq__, __enter__...) are protocol plumbing: recorded, not exported.
PUBLIC_DUNDERS = frozenset({"__init__", "__call__"})


def extract_declarations(parsed: ParsedFile, calls: bool = True,
                         effects_at: list[int] | None = None) -> tuple[list[Symbol], ModuleSurface]:
    """(symbols in source order, module surface) of one parsed file. The names each symbol calls
    serve only to carry effects between same-file symbols: `calls=False` (a file without effect
    hits) skips finding them. With `effects_at` (the start bytes of the file's effect hits, in
    order), Python and JS/TS symbols list only the calls that can carry one: of the file's symbols
    that have an effect in their span, found from where their names occur rather than from the
    query pass over every call (what mining reads is the same)."""
    fast_text(parsed)
    if parsed.language in ("python", *JS_FAMILY):
        targeted = calls and effects_at is not None
        symbols, surface = (_python if parsed.language == "python" else _javascript)(parsed, calls and not targeted)
        if targeted:
            _attribute_calls(symbols, _effect_carrying_calls(parsed, symbols, effects_at or []))
        return symbols, surface
    # Dispatch point for every other language (Go, Rust, Java...): a sibling module owns them.
    try:
        from miners import declarations_other
    except ModuleNotFoundError as exc:
        if exc.name != "miners.declarations_other":
            raise  # a real import failure inside that module must not pass for "not written yet"
        return [], ModuleSurface()
    return declarations_other.extract_declarations(parsed, calls)


# --- shared -------------------------------------------------------------------------------------

_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]*")  # SCREAMING_CASE
_TRAILING_COMMA = re.compile(r",\s*\n\s*([)\]>])")
_AFTER_OPEN = re.compile(r"([(\[<]) ")
_BEFORE_CLOSE = re.compile(r" ([)\]>])")


def _head(parsed: ParsedFile, node: Any, end: int, start: int | None = None) -> str:
    """Source from `start` (the node's start) to `end`, comments removed, whitespace normalised."""
    start = node.start_byte if start is None else start
    raw = parsed.source[start:end]
    # the walk for comment nodes only when the text could hold one (most heads cannot)
    maybe = b"#" in raw or b"//" in raw or b"/*" in raw
    cuts = sorted((c.start_byte, c.end_byte) for c in _comments(node, start, end)) if maybe else []
    parts, at = [], start
    for a, b in cuts:
        parts.append(parsed.source[at:a])
        at = b
    parts.append(parsed.source[at:end])
    text = b"".join(parts).decode("utf-8", "replace")
    if "\n" in text:  # (each substitution only when its text can occur: most heads are one plain line)
        text = _TRAILING_COMMA.sub(r"\1", text)  # a multi-line list's trailing comma
    text = " ".join(text.split())
    if "( " in text or "[ " in text or "< " in text:
        text = _AFTER_OPEN.sub(r"\1", text)
    if " )" in text or " ]" in text or " >" in text:
        text = _BEFORE_CLOSE.sub(r"\1", text)
    return text.rstrip(";").rstrip()


def _comments(node: Any, start: int, end: int) -> list[Any]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            found.append(n)
        stack.extend(c for c in n.children if c.start_byte < end and c.end_byte > start)
    return found


def _first_paragraph(text: str) -> str:
    """The first paragraph of `inspect.cleandoc(text)`, its lines stripped and joined by spaces.
    Read without cleandoc when that changes nothing: cleandoc's margin only decides whether a
    whitespace-only line ends the paragraph, and its tabs and other line breaks only matter inside
    the paragraph, so a first paragraph of plain, non-blank lines up to an empty one is the same
    (a third of docstrings are one plain line; cleandoc reads the whole docstring)."""
    if text.isprintable():
        return text.strip()
    plain = text.strip()
    cut = plain.find("\n\n")
    lines = (plain if cut < 0 else plain[:cut]).split("\n")
    if all(line.isprintable() and not line.isspace() for line in lines):  # (no tab, no other break, no blank)
        return " ".join(line.strip() for line in lines)
    para = inspect.cleandoc(text).strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in para.splitlines()).strip()


def _symbol(parsed: ParsedFile, kind: str, name: str, node: Any, signature: str, **extra: Any) -> Symbol:
    sym = Symbol(kind=kind, name=name, line=node.start_point.row + 1, end_line=node.end_point.row + 1,
                 signature=signature, start_byte=node.start_byte, end_byte=node.end_byte, **extra)
    if node.has_error:
        sym.notes.append("parse-error")
    return sym


def _finish(symbols: list[Symbol], calls: list[tuple[int, str]]) -> list[Symbol]:
    """Merge repeated declarations of one name (overloads, get/set pairs) into the first, spanning
    all of them; attach to each symbol the callee names inside its span; sort by position."""
    merged: dict[tuple[str, str, str | None], Symbol] = {}
    for sym in sorted(symbols, key=lambda s: s.start_byte):
        first = merged.setdefault((sym.kind, sym.name, sym.container), sym)
        if first is not sym:
            first.end_line, first.end_byte = max(first.end_line, sym.end_line), max(first.end_byte, sym.end_byte)
            first.exported = first.exported or sym.exported
            first.doc = first.doc or sym.doc
            if "overloaded" not in first.notes:
                first.notes.append("overloaded")
    out = list(merged.values())
    _attribute_calls(out, calls)
    return out


def _attribute_calls(symbols: list[Symbol], calls: list[tuple[int, str]]) -> None:
    """Each symbol's callee names: after those it has (a bound method's), those of the (callee
    start, name) calls in its span, in order, once."""
    calls.sort()
    starts = [at for at, _ in calls]
    for sym in symbols:
        lo, hi = bisect.bisect_left(starts, sym.start_byte), bisect.bisect_left(starts, sym.end_byte)
        sym.calls = list(dict.fromkeys([*sym.calls, *(name for _, name in calls[lo:hi])]))


# the node kinds a callee is the callee of, and the field that holds it (a JS `new` calls its
# constructor; a JSX element whose name starts with a capital calls that component)
_CALLEE_FIELDS = {"call": "function", "call_expression": "function", "new_expression": "constructor",
                  "jsx_opening_element": "name", "jsx_self_closing_element": "name"}
_MEMBERS = {"attribute": "attribute", "member_expression": "property"}  # a dotted name's node: its last part's field


def _effect_carrying_calls(parsed: ParsedFile, symbols: list[Symbol], effects_at: list[int]) -> list[tuple[int, str]]:
    """The (callee start, name) of every call of a same-file symbol that has an effect hit in its
    span: the calls mining reads (mine.py carries a callee's effects to its callers), as the query
    pass's calls give them, found from where the callee's last name occurs."""
    wanted = {s.name for s in symbols
              if bisect.bisect_left(effects_at, s.start_byte) < bisect.bisect_left(effects_at, s.end_byte)}
    if not wanted:
        return []
    source, root = parsed.source, parsed.tree.root_node
    jsx = parsed.language != "python" and parsed.language != "typescript"  # (the JSX patterns' languages)
    out: list[tuple[int, str]] = []
    for name in wanted:
        last = name.rsplit(".", 1)[-1].encode()
        for at in positions(source, last):
            node = root.descendant_for_byte_range(at, at + len(last))
            if node is None or node.start_byte != at or node.end_byte != at + len(last) or node.type not in (
                    "identifier", "property_identifier"):
                continue
            callee = node
            while (parent := callee.parent) is not None and parent.type in _MEMBERS and \
                    parent.child_by_field_name(_MEMBERS[parent.type]) == callee:
                callee = parent
            parent = callee.parent
            field = _CALLEE_FIELDS.get(parent.type) if parent is not None else None
            if field is None or parent.child_by_field_name(field) != callee or callee.type not in (
                    "identifier", "attribute", "member_expression"):
                continue
            if field == "name" and not (jsx and parsed.text(callee)[:1].isupper() and parsed.text(callee)[:1].isascii()):
                continue
            if _dotted(parsed, callee) == name:
                out.append((callee.start_byte, name))
    return out


def _dotted(parsed: ParsedFile, node: Any) -> str | None:
    """`a.b.c` for a plain chain of names (self/this included), else None: calls on call results
    or subscripts name nothing another symbol in the file could be."""
    if node.type in ("identifier", "this", "super", "property_identifier", "private_property_identifier"):
        return parsed.text(node)
    if node.type in ("attribute", "member_expression"):
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("attribute") or node.child_by_field_name("property")
        base = _dotted(parsed, obj) if obj is not None else None
        return f"{base}.{parsed.text(prop)}" if base and prop is not None else None
    return None


# --- Python -------------------------------------------------------------------------------------

class _NotLiteral(Exception):
    pass


def _python_methods(parsed: ParsedFile, cls: Any, name: str) -> list[tuple[str, Any, str, str | None]]:
    """The defs directly in a class body, decorated or not: its methods."""
    body = cls.child_by_field_name("body")
    out = []
    for child in body.named_children if body is not None else ():
        if child.type == "decorated_definition":
            child = child.child_by_field_name("definition")
        if child is not None and child.type == "function_definition":
            ident = child.child_by_field_name("name")
            if ident is not None:
                out.append(("method", child, parsed.text(ident), name))
    return out


def _python(parsed: ParsedFile, with_calls: bool) -> tuple[list[Symbol], ModuleSurface]:
    found: list[tuple[str, Any, str, str | None]] = []  # (kind, node, name, container)
    calls: list[tuple[int, str]] = []
    all_values: list[Any] = []
    imports: list[Any] = []
    # every pattern but the calls is anchored at the module: without calls to find, and when no
    # other concern has run the file's query pass, the root query alone gives the same matches
    matches = root_matches(parsed, "declarations") if not with_calls and not has_matches(parsed) and \
        deep_captures("python", "declarations") == {"call"} else None
    for _, m in file_matches(parsed, "declarations") if matches is None else matches:
        if "call" in m:
            if not with_calls:
                continue
            function = m["call"][0].child_by_field_name("function")
            name = _dotted(parsed, function) if function is not None else None
            if name:
                calls.append((function.start_byte, name))
        elif "all.value" in m:
            all_values.append(m["all.value"][0])
        elif "import" in m:
            imports.append(m["import"][0])
        else:
            kind = "function" if "function" in m else "class"
            name = parsed.text(m["name"][0])
            found.append((kind, m[kind][0], name, None))
            if kind == "class":
                found += _python_methods(parsed, m["class"][0], name)

    surface = ModuleSurface(names=_python_all(parsed, all_values))
    public = (lambda n: n in surface.names) if surface.names is not None else (lambda n: not n.startswith("_"))
    exported_classes = {name for kind, _, name, _ in found if kind == "class" and public(name)}
    symbols = []
    for kind, node, name, container in found:
        if kind == "method":
            exported = container in exported_classes and (not name.startswith("_") or name in PUBLIC_DUNDERS)
            symbols.append(_symbol(parsed, "method", f"{container}.{name}", node, _python_head(parsed, node),
                                   doc=_python_doc(parsed, node), exported=exported, container=container))
        else:
            symbols.append(_symbol(parsed, kind, name, node, _python_head(parsed, node),
                                   doc=_python_doc(parsed, node), exported=public(name)))
    _python_imports(parsed, imports, surface)
    symbols = _finish(symbols, calls)
    if _BOUND_METHOD.search(parsed.source) is not None:
        bound = _python_bound_methods(parsed, symbols, public)
        if bound:
            symbols = sorted(symbols + bound, key=lambda s: s.start_byte)
    return symbols, surface


# `encode = _jwt_global_obj.encode` on a line of its own (PyJWT's, random's module functions); the
# line starts after a "\n" (not `^`: a literal to look for is five times faster, and the instance
# is made on an earlier line anyway)
_BOUND_METHOD = re.compile(rb"\n([A-Za-z]\w*)[ \t]*=[ \t]*([A-Za-z_]\w*)\.([A-Za-z_]\w*)[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


def _python_bound_methods(parsed: ParsedFile, symbols: list[Symbol], public: Any) -> list[Symbol]:
    """Module functions that are a module-level instance's methods: `_inst = PyJWT()` then
    `encode = _inst.encode`, with PyJWT and its `encode` defined in the file. Called as
    `jwt.encode(...)`; the method's parameters (after `self`), doc and effects are the function's."""
    by_name = {s.name: s for s in symbols}
    classes: dict[bytes, str | None] = {}  # instance name -> its class, once looked up
    out: list[Symbol] = []
    source, root = parsed.source, parsed.tree.root_node
    for m in _BOUND_METHOD.finditer(source):
        name, instance, attr = m[1].decode(), m[2], m[3].decode()
        if instance not in classes:
            made = re.search(rb"^" + re.escape(instance) + rb"[ \t]*=[ \t]*([A-Za-z_]\w*)[ \t]*\(", source, re.MULTILINE)
            classes[instance] = made[1].decode() if made is not None and _at_module_level(root, made.start()) else None
        cls = classes[instance]
        method = by_name.get(f"{cls}.{attr}") if cls is not None and cls in by_name else None
        at = m.start(1)
        if method is None or method.kind != "method" or not _at_module_level(root, at):
            continue
        head = re.sub(r"\(\s*self\s*(?:,\s*|(?=\)))", "(", method.signature, count=1)
        sym = _symbol(parsed, "function", name, _statement_at(root, at), head.replace(f"def {attr}(", f"def {name}(", 1),
                      doc=method.doc, exported=public(name), notes=[f"bound method {cls}.{attr} of a module-level instance"])
        sym.calls = [method.name]  # its effects are the method's
        out.append(sym)
    return out


def _statement_at(root: Any, at: int) -> Any:
    node = root.descendant_for_byte_range(at, at)
    while node.parent is not None and node.parent != root:
        node = node.parent
    return node


def _at_module_level(root: Any, at: int) -> bool:
    """Whether the assignment starting at byte `at` is a statement of the module itself (not one
    inside a string, a class or a function that a line break put at column 0)."""
    node = root.descendant_for_byte_range(at, at)
    if node is None or node.type != "identifier" or node.start_byte != at:
        return False
    assignment = node.parent
    if assignment is None or assignment.type != "assignment" or assignment.child_by_field_name("left") != node:
        return False
    statement = assignment.parent  # the statement node, in grammars that keep it visible
    return statement == root or statement is not None and statement.type == "expression_statement" and \
        statement.parent == root


def _python_head(parsed: ParsedFile, node: Any) -> str:
    """`def` / `class` line(s) up to the colon; decorators are not part of it."""
    fields = ("return_type", "parameters") if node.type == "function_definition" else ("superclasses",)
    end = next((f.end_byte for f in map(node.child_by_field_name, (*fields, "type_parameters", "name")) if f), None)
    return _head(parsed, node, end if end is not None else node.end_byte)


def _python_doc(parsed: ParsedFile, node: Any) -> str:
    body = node.child_by_field_name("body")
    first = body.named_child(0) if body is not None and body.named_child_count else None
    if first is not None and first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)  # grammars that keep the statement node visible
    if first is None or first.type != "string":
        return ""
    text = parsed.text(first)
    quote = text[:3]
    if quote in ('"""', "'''") and len(text) >= 6 and text.endswith(quote) and "\\" not in text and "\r" not in text:
        return _first_paragraph(text[3:-3])  # a plain docstring: no escapes to interpret, no parser needed
    try:
        value = literal_eval(text)
    except (ValueError, SyntaxError):
        value = "".join(parsed.text(c) for c in first.named_children if c.type == "string_content")
    return _first_paragraph(value) if isinstance(value, str) else ""


def _python_strings(parsed: ParsedFile, node: Any) -> list[str]:
    """The strings of a literal list/tuple/set (or `+` of them, or one string); _NotLiteral otherwise."""
    if node.type == "string":
        try:
            value = literal_eval(parsed.text(node))
        except (ValueError, SyntaxError):
            raise _NotLiteral from None
        if isinstance(value, str):
            return [value]
    elif node.type in ("list", "tuple", "set", "parenthesized_expression"):
        return [s for c in node.named_children if c.type != "comment" for s in _python_strings(parsed, c)]
    elif node.type == "binary_operator" and parsed.text(node.child_by_field_name("operator")) == "+":
        return _python_strings(parsed, node.child_by_field_name("left")) + _python_strings(
            parsed, node.child_by_field_name("right"))
    raise _NotLiteral


def _python_all(parsed: ParsedFile, values: list[Any]) -> set[str] | None:
    """`__all__` as a set, or None when absent or not literal (computed lists say nothing we can
    read, so the module falls back to "every public-looking name")."""
    if not values:
        return None
    try:
        return {s for v in values for s in _python_strings(parsed, v)}
    except _NotLiteral:
        return None


def _python_imports(parsed: ParsedFile, imports: list[Any], surface: ModuleSurface) -> None:
    """Re-exports: a name `__all__` lists, an explicit `import x as x` (the typing convention for
    re-export), or, in a package `__init__` without `__all__`, a public name imported from inside
    the package (relative, or from a module named like one of the path's directories)."""
    parts = parsed.path.split("/")
    is_init = parts[-1] in ("__init__.py", "__init__.pyi")
    package_dirs = set(parts[:-1])
    for stmt in imports:
        module_node = stmt.child_by_field_name("module_name")
        module = "".join(parsed.text(module_node).split()) if module_node is not None else ""
        local = module.startswith(".") or module.split(".")[0] in package_dirs
        if any(c.type == "wildcard_import" for c in stmt.children):
            if local:
                surface.export_all_from.append(module)
            continue
        for i, child in enumerate(stmt.children):
            if stmt.field_name_for_child(i) != "name":
                continue
            if child.type == "aliased_import":
                imported = parsed.text(child.child_by_field_name("name"))
                bound = parsed.text(child.child_by_field_name("alias"))
            elif stmt.type == "import_statement":
                continue  # `import a.b` binds `a`: a dependency, not a re-export
            else:
                imported = bound = parsed.text(child)
            listed = surface.names is not None and bound in surface.names
            implicit = is_init and surface.names is None and local and not bound.startswith("_")
            if listed or (imported == bound and child.type == "aliased_import") or (implicit and module):
                source = module if stmt.type == "import_from_statement" else imported
                surface.reexports.append((bound, source))
                if imported != bound and stmt.type == "import_from_statement":  # `router as system_router`
                    surface.renamed[bound] = imported


# --- JavaScript / TypeScript / TSX --------------------------------------------------------------

# Nodes a module-level declaration may sit in: what `_js_scope` walks up through to the program.
_JS_WRAPPERS = frozenset({"export_statement", "ambient_declaration", "lexical_declaration",
                          "variable_declaration", "expression_statement"})
_NAMESPACES = frozenset({"internal_module", "module"})
_FUNCTIONS = frozenset({"function_expression", "arrow_function", "generator_function"})


def _javascript(parsed: ParsedFile, with_calls: bool) -> tuple[list[Symbol], ModuleSurface]:
    root = parsed.tree.root_node
    # TypeScript exports every top-level name of a .d.ts that has no export *declaration*
    # (`export {...}`, `export =`), `export` modifiers or not (microsoft/TypeScript#38592, #51338);
    # without any import/export the names are globals, reachable by name all the same.
    dts_implicit = parsed.path.endswith((".d.ts", ".d.mts", ".d.cts")) and not any(
        c.type == "export_statement" and any(k.type in ("export_clause", "=") for k in c.children)
        for c in root.children)
    surface = ModuleSurface(names=set())
    symbols: list[Symbol] = []
    classes: dict[int, Symbol] = {}  # class node id -> its symbol, for methods
    methods: list[tuple[Any, str, Any]] = []  # (method node, name, class node)
    calls: list[tuple[int, str]] = []
    local_exports: set[str] = set()  # module-level names made public by `export {}`, module.exports...
    aliases: dict[str, str] = {}  # local name -> the name it is exported as (`export { _parse as parse }`)
    members: list[tuple[Any, Any, Any]] = []  # (owner, property, function) of `owner.property = function`

    # without calls to find, and when no other concern has run the file's query pass, the
    # definitions are read from the module level down instead (miners/js_outline.py)
    matches = declaration_matches(parsed) if not with_calls and not has_matches(parsed) else None
    for _, m in file_matches(parsed, "declarations") if matches is None else matches:
        if "call" in m or "new" in m:
            if not with_calls:
                continue
            callee = _js_callee(m["call" if "call" in m else "new"][0])
            name = _dotted(parsed, callee) if callee is not None else None
            if name:
                calls.append((callee.start_byte, name))
        elif "declarator" in m:
            node = m["declarator"][0]
            name_node, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name_node is None or value is None or name_node.type != "identifier" or value.type not in _FUNCTIONS:
                continue
            _js_definition(parsed, "function", node, name_node, dts_implicit, surface, symbols, classes)
        elif "method" in m:
            node = m["method"][0]
            name = _member_name(parsed, m["name"][0])
            if name is not None:
                methods.append((node, name, node.parent.parent))
        elif "member.value" in m:
            members.append((m["member.owner"][0], m["member.name"][0], m["member.value"][0]))
        elif "function" in m or "class" in m:
            kind = "function" if "function" in m else "class"
            node = m[kind][0]
            name_node = m["name"][0] if "name" in m else node.child_by_field_name("name")
            _js_definition(parsed, kind, node, name_node, dts_implicit, surface, symbols, classes)
        elif "export.name" in m:
            if not _is_default(m["export.name"][0].parent.parent):
                surface.names.add(parsed.text(m["export.name"][0]))
        elif "export.default" in m:
            surface.default_export = parsed.text(m["export.default"][0])
            local_exports.add(surface.default_export)
        elif "export.local" in m:
            local, exported_as = _specifier(parsed, m["export.local"][0])
            local_exports.add(local)
            if exported_as == "default":
                surface.default_export = local
            else:
                surface.names.add(exported_as)
                if exported_as != local:
                    aliases.setdefault(local, exported_as)
        elif "export.from" in m:
            surface.reexports.append((_specifier(parsed, m["export.from"][0])[1], parsed.text(m["source"][0])))
        elif "export.all" in m:
            surface.export_all_from.append(parsed.text(m["export.all"][0]))
        elif "cjs.default" in m:
            _commonjs_default(parsed, m["cjs.default"][0], surface, symbols, local_exports, aliases)
        elif "cjs.name" in m:
            _commonjs_name(parsed, parsed.text(m["cjs.name"][0]), m["cjs.value"][0], surface, symbols,
                           local_exports, aliases)

    for sym in symbols:  # declared without `export`, made public later (the lodash pattern among them)
        if sym.container is None and sym.name in local_exports:
            sym.exported = True
    symbols += _bound_exports(parsed, root, local_exports - {s.name for s in symbols if s.container is None},
                              surface, aliases)
    # by their names before any renaming; `N.f` for a function of namespace N
    owners = {s.name: s for s in symbols if s.kind in ("function", "class")} if members else {}
    for sym in symbols:  # a bundle's `export { _Renderer as Renderer }`: users know it by the exported name
        if sym.container is None and sym.name in aliases and sym.name not in surface.names:
            sym.notes.append(f"declared as {sym.name}")
            sym.name = aliases[sym.name]
    symbols += _member_functions(parsed, members, owners, dts_implicit)
    for node, name, class_node in methods:
        owner = classes.get(class_node.id)
        if owner is None:
            continue  # a class expression or nested class: not a declaration of this module
        symbols.append(_symbol(parsed, "method", f"{owner.name}.{name}", node, _js_head(parsed, node),
                               doc=_js_doc(parsed, node), exported=owner.exported and _js_public(parsed, node, name),
                               container=owner.name))
    return _finish(symbols, calls), surface


def _member_name(parsed: ParsedFile, node: Any) -> str | None:
    """A class member's name as code calls it: its identifier, or its string (`"x-y"() {}`,
    `["x-y"]() {}`); None for a computed one (`[Symbol.iterator]`, a bundler's `[(_a = new WeakMap(),
    ...)]`), which no caller writes as a name."""
    if node.type == "computed_property_name":
        inner = node.named_children[0] if node.named_child_count == 1 else None
        return _member_name(parsed, inner) if inner is not None and inner.type == "string" else None
    if node.type == "string":
        text = "".join(parsed.text(c) for c in node.named_children if c.type == "string_fragment")
        return text or None
    return parsed.text(node)


def _member_functions(parsed: ParsedFile, members: list[tuple[Any, Any, Any]], owners: dict[str, Symbol],
                      dts_implicit: bool) -> list[Symbol]:
    """`picomatch.isMatch = (str, patterns) => ...` at module level, where `picomatch` is a function
    (or class) the file defines: called as `picomatch.isMatch(...)`, public when its owner is."""
    out: list[Symbol] = []
    for owner_node, prop, value in members:
        assignment = value.parent
        scope = _js_scope(assignment, dts_implicit)
        if scope is None:
            continue  # inside a function or a block: not part of the module's surface
        owner = owners.get(".".join([*scope[0], parsed.text(owner_node)]))
        if owner is None:
            continue  # `exports.x = ...` and properties of objects are read as CommonJS exports, or not at all
        static = owner.kind == "class"  # a static method assigned after the class
        out.append(_symbol(parsed, "method" if static else "function", f"{owner.name}.{parsed.text(prop)}", value,
                           _js_head(parsed, value, assignment.start_byte), doc=_js_doc(parsed, value),
                           exported=owner.exported, container=owner.name if static else owner.container))
    return out


def _js_callee(node: Any) -> Any:
    """What a call, `new` or JSX element names: `f` of f(x), `a.B` of new a.B(), `Button` of <Button/>;
    None for callees that name nothing in the file (calls of calls, subscripts, super)."""
    if node.type == "call_expression":
        node = node.child_by_field_name("function")
    elif node.type == "new_expression":
        node = node.child_by_field_name("constructor")
    return node if node is not None and node.type in ("identifier", "member_expression") else None


def _js_definition(parsed: ParsedFile, kind: str, node: Any, name_node: Any, dts_implicit: bool,
                   surface: ModuleSurface, symbols: list[Symbol], classes: dict[int, Symbol]) -> None:
    """A function or class definition: a symbol when it is at module level (or in a namespace)."""
    scope = _js_scope(node, dts_implicit)
    if scope is None:
        return  # nested in code: part of its enclosing symbol
    path, exported, default, module_spec = scope
    name = parsed.text(name_node) if name_node is not None else "default"
    sym = _symbol(parsed, kind, ".".join([*path, name]), node, _js_head(parsed, node),
                  doc=_js_doc(parsed, node), exported=exported, container=".".join(path) or module_spec)
    symbols.append(sym)
    if kind == "class":
        classes[node.id] = sym
    if default:
        surface.default_export = name
    elif exported:
        surface.names.add((path or [name])[0])


def _bound_exports(parsed: ParsedFile, root: Any, names: set[str], surface: ModuleSurface | None = None,
                   aliases: dict[str, str] | None = None) -> list[Symbol]:
    """Exported module-level names bound to a value rather than a function literal, e.g. lodash's
    `var add = createMathOperation(...)` then `module.exports = add`: callables in all likelihood,
    recorded as functions whose signature is not known. One bound to a sibling module (`const
    canned = require('./canned'); module.exports = { canned }`) is also that module re-exported."""
    out: list[Symbol] = []
    if not names:
        return out
    for statement in root.children:
        if statement.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in statement.children:
            if declarator.type != "variable_declarator":
                continue
            name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
            if name is None or value is None or name.type != "identifier" or parsed.text(name) not in names:
                continue
            if value.type not in ("call_expression", "member_expression", "identifier", "new_expression"):
                continue
            spec = require_specifier(parsed, value) if surface is not None else None
            if spec is not None and spec.startswith(".") and (local := parsed.text(name)) != "default":
                exported = (aliases or {}).get(local, local)
                if exported in (surface.names or ()) and (exported, spec) not in surface.reexports:
                    surface.reexports.append((exported, spec))
            if _CONSTANT.fullmatch(parsed.text(name)):
                continue  # DEFAULT_SCHEMA = require('./schema/default'): a constant by its name, not a callable
            sym = _symbol(parsed, "function", parsed.text(name), statement, " ".join(parsed.text(declarator).split())[:200],
                          doc=_js_doc(parsed, statement), exported=True, container=None)
            sym.notes.append("bound to a value, not a function literal: its parameters are not known")
            out.append(sym)
    return out


def _js_scope(node: Any, dts_implicit: bool) -> tuple[list[str], bool, bool, str | None] | None:
    """Where a definition sits: (namespace path, exported, is `export default`, ambient module
    specifier), or None when it is inside a function, class or block rather than at module level.
    Exported means every level is: its own `export`, or implied by a `declare`d namespace, a
    `declare module "x"` / `declare global` body, or a .d.ts exporting all its top-level names."""
    path: list[str] = []
    levels: list[bool] = []  # innermost first: does each level make the name visible to the next?
    own = default = ambient_body = False
    module_spec = None
    n = node
    while (p := n.parent) is not None and p.type != "program":
        if p.type == "export_statement":
            own = True
            default = default or (not levels and _is_default(p))
        elif p.type == "ambient_declaration":
            levels = [True] * len(levels)  # every level inside `declare` is implicitly exported
        elif p.type == "statement_block" and p.parent is not None and (
                p.parent.type in _NAMESPACES or p.parent.type == "ambient_declaration"):
            levels.append(own)
            own = False
            name = p.parent.child_by_field_name("name")
            if name is None or name.type == "string":  # declare global {...} / declare module "x" {...}
                ambient_body = True
                module_spec = name and name.text.decode("utf-8", "replace").strip("'\"")
            else:
                path.insert(0, name.text.decode("utf-8", "replace"))
        elif p.type not in _JS_WRAPPERS and p.type not in _NAMESPACES:
            return None
        n = p
    top = own or ambient_body or dts_implicit
    return path, all(levels) and top, default, module_spec


def _is_default(node: Any) -> bool:
    return node is not None and node.type == "export_statement" and any(c.type == "default" for c in node.children)


def _js_public(parsed: ParsedFile, node: Any, name: str) -> bool:
    """Not `#private`, not TypeScript `private`/`protected`."""
    if name.startswith("#"):
        return False
    return not any(c.type == "accessibility_modifier" and parsed.text(c) in ("private", "protected")
                   for c in node.children)


def _js_head(parsed: ParsedFile, node: Any, start: int | None = None) -> str:
    """The declaration as written up to its body: `function slugify(text, options = {})`,
    `const f = async (a: T): Promise<T> =>`, `class C<T> extends B`, `private m(x: number): void`."""
    target = node
    if node.type in ("variable_declarator", "field_definition", "public_field_definition"):
        target = node.child_by_field_name("value")
    body = target.child_by_field_name("body") if target is not None else None
    end = body.start_byte if body is not None else node.end_byte
    if start is None:  # skip leading decorators; a declarator gets its const/let/var
        start = next((c.start_byte for c in node.children if c.type not in ("decorator", "comment")), node.start_byte)
        if node.type == "variable_declarator" and node.parent is not None and node.parent.children:
            keyword = parsed.text(node.parent.children[0])
            return f"{keyword} {_head(parsed, node, end, start)}"
    return _head(parsed, node, end, start)


def _js_doc(parsed: ParsedFile, node: Any) -> str:
    """First paragraph of the comment right above the declaration (or above its export/const)."""
    stmt = node
    while stmt.parent is not None and stmt.parent.type in (*_JS_WRAPPERS, "assignment_expression", "pair"):
        stmt = stmt.parent
    lines: list[str] = []
    prev, row = stmt.prev_sibling, stmt.start_point.row
    while prev is not None and prev.type == "comment" and (prev.end_point.row >= row - 1 or _spaced_jsdoc(
            parsed, prev, row, lines)):
        text = parsed.text(prev)
        if text.startswith("//"):
            lines.insert(0, text[2:].lstrip("/"))
            prev, row = prev.prev_sibling, prev.start_point.row
            continue
        if not lines:
            lines = []
            for line in _comment_body(text).splitlines():  # up to the first JSDoc tag: the prose is over there
                line = line.lstrip()
                if line[:1] == "*":  # a JSDoc line's leading star
                    line = line[1:]
                if line.strip().startswith("@"):
                    return _first_paragraph("\n".join(lines))
                lines.append(line)
        break
    kept = []
    for line in lines:
        if line.strip().startswith("@"):  # JSDoc tags: the prose is over
            break
        kept.append(line)
    return _first_paragraph("\n".join(kept))


_FILE_TAGS = re.compile(rb"@(?:module|file|fileoverview|overview|packageDocumentation|license)\b")


def _spaced_jsdoc(parsed: ParsedFile, comment: Any, row: int, lines: list[str]) -> bool:
    """A `/** ... */` block one blank line above a declaration still documents it (picomatch's
    style; TypeScript reads it so), unless it is the file's own: the file's first node, or tagged
    `@module`, `@file`..."""
    return not lines and comment.end_point.row == row - 2 and comment.prev_sibling is not None and \
        parsed.source.startswith(b"/**", comment.start_byte) and \
        _FILE_TAGS.search(parsed.source, comment.start_byte, comment.end_byte) is None


def _comment_body(text: str) -> str:
    """A block comment without its leading `/**` and trailing `*/`, as the regex `^/[*]+|[*]+/$` takes
    them off (its `$` also matches before a final newline), by slicing: most declarations have one."""
    start = 0
    if text.startswith("/*"):
        start = 2
        while start < len(text) and text[start] == "*":
            start += 1
    end = len(text) - 1 if text.endswith("\n") else len(text)
    if end - start >= 2 and text[end - 1] == "/" and text[end - 2] == "*":
        cut = end - 2
        while cut > start and text[cut - 1] == "*":
            cut -= 1
        return text[start:cut] + text[end:]
    return text[start:]


def _specifier(parsed: ParsedFile, node: Any) -> tuple[str, str]:
    """(local name, exported name) of `a` / `a as b` / the `ns` of `* as ns`."""
    if node.type != "export_specifier":
        return parsed.text(node), parsed.text(node)
    name, alias = node.child_by_field_name("name"), node.child_by_field_name("alias")
    local = parsed.text(name).strip("'\"")
    return local, parsed.text(alias).strip("'\"") if alias is not None else local


def require_specifier(parsed: ParsedFile, node: Any) -> str | None:
    """'./m' of `require('./m')`."""
    if node.type != "call_expression" or parsed.text(node.child_by_field_name("function")) != "require":
        return None
    args = [a for a in node.child_by_field_name("arguments").named_children if a.type == "string"]
    return parsed.text(args[0]).strip("'\"`") if args else None


def _commonjs_default(parsed: ParsedFile, value: Any, surface: ModuleSurface, symbols: list[Symbol],
                      local_exports: set[str], aliases: dict[str, str]) -> None:
    """module.exports = x | {a, b: c} | function name() {} | class {} | require('./m')."""
    if value.type == "identifier":
        surface.default_export = parsed.text(value)
        local_exports.add(surface.default_export)
    elif value.type == "object":
        for prop in value.named_children:
            if prop.type == "shorthand_property_identifier":
                surface.names.add(parsed.text(prop))
                local_exports.add(parsed.text(prop))
            elif prop.type == "pair":
                key = parsed.text(prop.child_by_field_name("key")).strip("'\"")
                _commonjs_name(parsed, key, prop.child_by_field_name("value"), surface, symbols, local_exports,
                               aliases)
            elif prop.type == "method_definition":
                name = parsed.text(prop.child_by_field_name("name"))
                surface.names.add(name)
                symbols.append(_symbol(parsed, "function", name, prop, _js_head(parsed, prop),
                                       doc=_js_doc(parsed, prop), exported=True))
    elif value.type in _FUNCTIONS or value.type == "class":
        name_node = value.child_by_field_name("name")
        name = parsed.text(name_node) if name_node is not None else "default"
        surface.default_export = name
        kind = "class" if value.type == "class" else "function"
        symbols.append(_symbol(parsed, kind, name, value, _js_head(parsed, value, value.parent.start_byte),
                               doc=_js_doc(parsed, value), exported=True))
    elif (spec := require_specifier(parsed, value)) is not None:
        surface.export_all_from.append(spec)
    else:
        surface.default_export = _dotted(parsed, value)


def _commonjs_name(parsed: ParsedFile, name: str, value: Any, surface: ModuleSurface, symbols: list[Symbol],
                   local_exports: set[str], aliases: dict[str, str]) -> None:
    """exports.name = value / module.exports.name = value / module.exports = {name: value}."""
    surface.names.add(name)
    if value is None:
        return
    if value.type == "identifier":
        local = parsed.text(value)
        local_exports.add(local)
        # exports.default = X is the default export, not a name, unless X is Babel's placeholder for an
        # anonymous one (`var _default = ...; exports.default = _default`): then the default's own naming applies
        if local != name and (name != "default" or local == "_default"):
            aliases.setdefault(local, name)
    elif value.type in _FUNCTIONS:
        start = value.parent.start_byte if value.parent.type in ("assignment_expression", "pair") else None
        symbols.append(_symbol(parsed, "function", name, value, _js_head(parsed, value, start),
                               doc=_js_doc(parsed, value), exported=True))
    elif (spec := require_specifier(parsed, value)) is not None:
        surface.reexports.append((name, spec))
