"""Declarations in Go, Rust, Java, Kotlin, C#, Ruby, PHP and Swift: functions, classes and methods,
whether each is public by its language's own rules, their signatures, doc comments and the names
their bodies call, and what a module re-exports (Rust `pub use`).

The queries in miners/queries/<language>/ find the nodes; this module reads everything else off
them. Capture names shared by every language's declarations.scm:
  @function   a function, method, constructor, or an interface/protocol method spec
  @class      a named type that is a symbol: class, struct, interface, trait, enum, record, object
  @container  a block that only lends a type's name to the methods inside (Rust impl, Swift extension)
  @opaque     an anonymous class or object literal: what is declared inside belongs to no named type
  @name, @body, @receiver (Go method receivers, Ruby `def obj.m`)
and by calls.scm: @callee, where a callee starts (and ends, unless @callee.end marks the end).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .facts import ModuleSurface, ParsedFile, Symbol
from .parsing import fast_text, file_matches

Node = Any  # tree_sitter.Node


@dataclass(frozen=True)
class Rules:
    """What differs between the languages beyond their queries."""

    public: Callable[[_File, _Decl], bool]  # the declaration's own visibility (enclosing types are checked apart)
    doc_line: re.Pattern[str] | None = None  # a line comment that is documentation; group 1 is its text
    doc_block: str | None = None  # the opener of a documentation block comment ("/**")
    annotations: frozenset[str] = frozenset()  # node types left out of signatures (@Override, [Attr], #[attr])
    attribute_line: re.Pattern[str] | None = None  # lines allowed between a doc comment and its item
    implicit_self: bool = False  # a bare call inside a class may be one of its own methods
    unnamed: tuple[tuple[str, str], ...] = ()  # node types with no name node, and the name they go by
    default_container_public: Callable[[str], bool] = lambda name: True  # a type declared in another file
    declarative: frozenset[str] = frozenset()  # calls that declare rather than act (Ruby `private :m`)


@dataclass(eq=False)
class _Decl:
    role: str  # "function", "class", "container" or "opaque"
    node: Node
    name: str
    body: Node | None = None
    receiver: Node | None = None
    parent: _Decl | None = None  # the nearest enclosing declaration
    local: bool = False  # inside a function or an anonymous class: not addressable from outside
    container: str | None = None  # functions: the type they are a method of
    notes: list[str] = field(default_factory=list)


@dataclass
class _File:
    parsed: ParsedFile
    rules: Rules
    decls: list[_Decl]
    types: dict[str, _Decl]  # class symbols by name, for methods declared apart from their type
    exported: dict[int, bool] = field(default_factory=dict)
    ruby_bodies: dict[tuple[int, int], tuple[list[tuple[int, str]], dict[str, str]]] = field(default_factory=dict)

    def text(self, node: Node | None) -> str:
        return self.parsed.text(node) if node is not None else ""


def extract_declarations(parsed: ParsedFile, calls: bool = True) -> tuple[list[Symbol], ModuleSurface]:
    fast_text(parsed)
    rules = RULES.get(parsed.language)
    if rules is None:
        return [], ModuleSurface()
    root = parsed.tree.root_node
    decls, extra = _collect(parsed, rules, root)
    types: dict[str, _Decl] = {}
    for d in decls:
        if d.role == "class" and not d.local:
            types.setdefault(d.name, d)
    f = _File(parsed, rules, decls, types)
    surface = ModuleSurface()
    main_package = parsed.language == "go" and any(f.text(n) == "main" for n in extra.get("package", []))
    symbols: list[Symbol] = []
    for d in decls:
        if d.role not in ("function", "class") or d.local:
            continue
        symbol = _symbol(f, d)
        if main_package and symbol.name == "main" and symbol.kind == "function":
            symbol.notes.append("main package")
        symbols.append(symbol)
    if calls:
        _attach_calls(f, symbols, root)
    if parsed.language == "rust":
        for use in extra.get("reexport", []):
            if _text_visibility(f, use) == "pub":
                _rust_use(f, use.child_by_field_name("argument"), "", surface)
    if main_package:
        surface.names = None  # a program: nothing in it can be imported
    else:
        surface.names = {s.name for s in symbols if s.exported and s.kind != "method" and "nested" not in s.notes}
        surface.names |= {name for name, _ in surface.reexports}
    return symbols, surface


# -- finding declarations -------------------------------------------------------------------------


def _collect(parsed: ParsedFile, rules: Rules, root: Node) -> tuple[list[_Decl], dict[str, list[Node]]]:
    by_node: dict[tuple[int, int, str], _Decl] = {}
    extra: dict[str, list[Node]] = {}
    unnamed = dict(rules.unnamed)
    for _, caps in file_matches(parsed, "declarations"):
        role = next((r for r in ("function", "class", "container", "opaque") if r in caps), None)
        if role is None:
            for key, nodes in caps.items():
                extra.setdefault(key, []).extend(nodes)
            continue
        node = caps[role][0]
        name_node = (caps.get("name") or [None])[0]
        if name_node is None:
            name = unnamed.get(node.type, "")
        elif role == "function":  # as written: Ruby's `[]`, `<=>`, `empty?`
            name = parsed.text(name_node)
        else:  # a type: `Foo::Bar` -> Bar, `Wrapper<T>` -> Wrapper
            name = _simple_name(parsed.text(name_node))
        if not name and role != "opaque":
            continue  # a declaration broken by a syntax error
        key = (node.start_byte, node.end_byte, node.type)
        if key not in by_node:
            by_node[key] = _Decl(role, node, name, (caps.get("body") or [None])[0], (caps.get("receiver") or [None])[0])
    decls = sorted(by_node.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte))
    for d in decls:
        p = d.node.parent
        while p is not None and d.parent is None:
            d.parent = by_node.get((p.start_byte, p.end_byte, p.type))
            p = p.parent
        # decls are in document order, so the parent's own locality is already settled
        d.local = d.parent is not None and (d.parent.role in ("function", "opaque") or d.parent.local)
        if d.role == "function":
            d.container = _container(parsed, d)
        elif d.role == "class" and d.parent is not None and d.parent.role in ("class", "container"):
            d.notes.append("nested")
    return decls, extra


def _container(parsed: ParsedFile, d: _Decl) -> str | None:
    """The type a function is a method of: its receiver's (Go, Ruby `def Foo.m`), else the enclosing type's."""
    if d.receiver is not None:
        if d.receiver.type == "parameter_list":  # Go: (s *Server)
            param = next(iter(d.receiver.named_children), None)
            kind = param.child_by_field_name("type") if param is not None else None
            return _simple_name(parsed.text(kind or d.receiver)) or None
        if d.receiver.type in ("constant", "scope_resolution"):  # Ruby: def Foo.m
            return _simple_name(parsed.text(d.receiver))
    if d.parent is not None and d.parent.role in ("class", "container"):
        return d.parent.name
    return None


def _simple_name(text: str) -> str:
    """A type's bare name: `*Stack[T]` -> Stack, `Wrapper<T>` -> Wrapper, `Foo::Bar` -> Bar."""
    for _ in range(3):  # nested generics
        text = re.sub(r"<[^<>]*>|\[[^\[\]]*\]", "", text)
    text = re.sub(r"'\w+|\bmut\b|\bdyn\b", "", text).strip().lstrip("*&( ").rstrip(") ")
    return re.split(r"::|\.|\\", text)[-1].strip()


# -- symbols ----------------------------------------------------------------------------------------

_KINDS = ("struct", "interface", "trait", "enum", "record", "object", "protocol", "module", "actor", "union")
_CONSTRUCTORS = {"constructor_declaration", "compact_constructor_declaration", "secondary_constructor",
                 "init_declaration"}


def _symbol(f: _File, d: _Decl) -> Symbol:
    head = _head_start(d.node, f.rules.annotations)
    span = d.body or d.node
    method = d.role == "function" and d.container is not None
    exported = _exported(f, d)  # first: Ruby's rules note "singleton" and "module_function"
    notes = list(d.notes)
    if d.role == "class":
        kind = _type_kind(d.node)
        if kind:
            notes.insert(0, kind)
    elif d.node.type in _CONSTRUCTORS or d.name in ("__construct", "initialize"):
        notes.append("constructor")
    return Symbol(
        kind="method" if method else "class" if d.role == "class" else "function",
        name=f"{d.container}.{d.name}" if method else d.name,
        line=head.start_point[0] + 1,
        end_line=d.node.end_point[0] + 1,
        signature=_signature(f, d, head),
        doc=_doc(f, d.node),
        exported=exported,
        container=d.container if method else None,
        start_byte=span.start_byte,
        end_byte=span.end_byte,
        notes=notes,
    )


def _type_kind(node: Node) -> str | None:
    if node.type == "type_spec":  # Go
        underlying = node.child_by_field_name("type")
        return {"struct_type": "struct", "interface_type": "interface"}.get(underlying.type if underlying else "")
    for word in _KINDS:
        if node.type.startswith(word):  # struct_item, interface_declaration, module, ...
            return word
    for child in node.children:  # Kotlin and Swift spell it with a keyword: `enum class`, `struct`
        if not child.is_named and child.type in _KINDS:
            return child.type
    return None


def _head_start(node: Node, annotations: frozenset[str]) -> Node:
    """The declaration's first token after its annotations/attributes: where its signature begins."""
    for child in node.children:
        if child.type in annotations or "comment" in child.type:
            continue
        if child.type == "modifiers":  # Java, Kotlin, Swift: annotations sit among the modifiers
            for mod in child.children:
                if mod.type not in annotations and "comment" not in mod.type:
                    return mod
            continue
        return child
    return node


def _signature(f: _File, d: _Decl, head: Node) -> str:
    node, src = d.node, f.parsed.source
    if node.type == "type_spec":  # Go: `type Server struct`, `type Celsius float64`
        underlying = node.child_by_field_name("type")
        if underlying is not None and underlying.type in ("struct_type", "interface_type"):
            return f"type {d.name} {underlying.type.removesuffix('_type')}"
        return "type " + " ".join(f.text(node).split())
    if d.body is not None:
        end = d.body.start_byte
    elif f.parsed.language == "ruby":  # `def helper; end`: the head is its name and parameters
        parts = [node.child_by_field_name(n) for n in ("name", "parameters", "superclass")]
        end = max((p.end_byte for p in parts if p is not None), default=node.end_byte)
    else:
        end = node.end_byte
    cuts = [(c.start_byte, c.end_byte) for c in _annotation_nodes(node, f.rules.annotations)
            if head.start_byte <= c.start_byte < end]
    pieces, at = [], head.start_byte
    for start, stop in sorted(cuts):
        pieces.append(src[at:start])
        at = stop
    pieces.append(src[at:end])
    text = " ".join(b"".join(pieces).decode("utf-8", "replace").split())
    # what opens the body, or ends a bodiless declaration: `{`, `=`, `=>`, `;`, an empty `{ }`
    return re.sub(r"\s*(\{\s*\}|\{|=>|=|;)\s*$", "", text)


def _annotation_nodes(node: Node, annotations: frozenset[str]) -> list[Node]:
    out = []
    for child in node.children:
        if child.type in annotations:
            out.append(child)
        elif child.type == "modifiers":
            out += [m for m in child.children if m.type in annotations]
    return out


# -- doc comments -----------------------------------------------------------------------------------


def _doc(f: _File, node: Node) -> str:
    """The comment just above a declaration (no blank line between), first paragraph. Read from the
    source text rather than sibling nodes: some grammars attach a comment to the preceding node
    (Kotlin puts the KDoc after an import inside the import list)."""
    rules, src = f.rules, f.parsed.source
    line_start = src.rfind(b"\n", 0, node.start_byte) + 1
    prefix = src[line_start:node.start_byte].decode("utf-8", "replace")
    if not re.fullmatch(r"[\w\s]*", prefix):  # only keywords may precede it (Go `type`, Ruby `private`)
        return ""
    above = _lines_above(src, line_start)
    line = next(above, None)
    while line is not None and rules.attribute_line is not None and rules.attribute_line.match(line):
        line = next(above, None)
    if line is None:
        return ""
    if rules.doc_block and line.rstrip().endswith("*/"):
        block = [line]
        while "/*" not in block[-1]:
            more = next(above, None)
            if more is None:
                return ""
            block.append(more)
        text = "\n".join(reversed(block)).strip()
        if not text.startswith(rules.doc_block) or text.startswith("/**/"):
            return ""
        inner = text[len(rules.doc_block):-2]
        return _first_paragraph([re.sub(r"^\s*\*? ?", "", ln) for ln in inner.split("\n")],
                                f.parsed.language == "csharp")
    found: list[str] = []
    while line is not None and rules.doc_line is not None and (m := rules.doc_line.match(line)):
        found.append(m.group(1)[1:] if m.group(1).startswith(" ") else m.group(1))
        line = next(above, None)
    found.reverse()
    if f.parsed.language == "go":  # `//go:generate`, `//nolint`: directives, not documentation
        found = [ln for ln in found if not re.match(r"(go|nolint|lint):?\w*", ln)]
    return _first_paragraph(found, f.parsed.language == "csharp")


def _lines_above(src: bytes, line_start: int) -> Iterator[str]:
    """The lines above the one starting at line_start, nearest first (never the whole file decoded)."""
    end = line_start
    while end > 0:
        start = src.rfind(b"\n", 0, end - 1) + 1
        yield src[start:end - 1].decode("utf-8", "replace").rstrip("\r")
        end = start


def _first_paragraph(lines: list[str], xml: bool) -> str:
    text = "\n".join(lines)
    if xml:  # C# XML doc: the <summary>, tags dropped, <see cref="X"/> and <paramref name="x"/> kept as X, x
        summary = re.search(r"<summary>(.*?)</summary>", text, re.S)
        text = summary.group(1) if summary else text
        text = re.sub(r"<\w+\s+(?:cref|name|langword)=\"([^\"]*)\"\s*/>", r"\1", text)
        text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\{@\w+\s+([^}]*)\}", r"\1", text)  # Javadoc {@code x}, {@link Y}
    para: list[str] = []
    for line in text.split("\n"):
        s = line.strip()
        if not s or s.lower() == "<p>":
            if para:
                break
            continue
        if s.startswith("@"):  # Javadoc/KDoc/PHPDoc/YARD tags end the description
            break
        para.append(s)
    return " ".join(para)


# -- visibility -------------------------------------------------------------------------------------


def _exported(f: _File, d: _Decl) -> bool:
    """Public by its own rule, and every type around it public too."""
    key = id(d)
    if key in f.exported:
        return f.exported[key]
    f.exported[key] = False  # a guard against cycles through types looked up by name
    result = d.role == "container" or f.rules.public(f, d)
    if result and d.role == "container":
        result = _type_public(f, d.name)
    elif result and d.parent is not None and d.parent.role in ("class", "container"):
        result = _exported(f, d.parent)
    elif result and d.role == "function" and d.container is not None:  # Go receivers, Ruby `def Foo.m`
        result = _type_public(f, d.container)
    f.exported[key] = result
    return result


def _type_public(f: _File, name: str) -> bool:
    declared = f.types.get(name)
    if declared is not None:
        return _exported(f, declared)
    return f.rules.default_container_public(name)


def _words(f: _File, node: Node) -> set[str]:
    """The modifier keywords written on a declaration: public, private, static, internal, open..."""
    out: set[str] = set()
    for child in node.children:
        if child.type == "modifiers":  # Java, Kotlin, Swift
            for mod in child.children:
                out.update(f.text(mod).split())
        elif child.type in ("modifier", "visibility_modifier"):  # C#, PHP, Rust
            out.add("".join(f.text(child).split()))
    return out


def _parent_type(d: _Decl) -> str:
    return d.parent.node.type if d.parent is not None else ""


def _go_public(f: _File, d: _Decl) -> bool:
    return d.name[:1].isupper()


def _text_visibility(f: _File, node: Node) -> str:
    mod = next((c for c in node.children if c.type == "visibility_modifier"), None)
    return "".join(f.text(mod).split())


def _rust_public(f: _File, d: _Decl) -> bool:
    # an inline `mod` that is not `pub` hides everything in it
    p = d.node.parent
    while p is not None:
        if p.type == "mod_item" and _text_visibility(f, p) != "pub":
            return False
        p = p.parent
    parent = d.parent
    if d.role == "function" and parent is not None:
        if parent.node.type == "trait_item":  # trait items share the trait's visibility
            return True
        if parent.node.type == "impl_item" and parent.node.child_by_field_name("trait") is not None:
            return True  # a trait impl's methods are as public as the type
    return _text_visibility(f, d.node) == "pub"  # pub(crate), pub(super), pub(in ...) stay inside the crate


def _java_public(f: _File, d: _Decl) -> bool:
    words = _words(f, d.node)
    if _parent_type(d) in ("interface_declaration", "annotation_type_declaration"):
        return "private" not in words  # interface members are public unless declared private
    return "public" in words


def _csharp_public(f: _File, d: _Decl) -> bool:
    words = _words(f, d.node)
    if _parent_type(d) == "interface_declaration":
        return not words & {"private", "protected", "internal"}
    return "public" in words  # types default to internal, members to private


def _kotlin_public(f: _File, d: _Decl) -> bool:
    return not _words(f, d.node) & {"private", "internal", "protected"}


def _php_public(f: _File, d: _Decl) -> bool:
    return not _words(f, d.node) & {"private", "protected"}


def _swift_public(f: _File, d: _Decl) -> bool:
    words = _words(f, d.node)
    if words & {"public", "open"}:
        return True
    if words & {"private", "fileprivate", "internal"}:
        return False
    if _parent_type(d) == "protocol_declaration":
        return True  # requirements are as public as the protocol
    # `public extension Foo { func f() }`: members take the extension's access level
    return d.parent is not None and d.parent.role == "container" and bool(_words(f, d.parent.node) & {"public", "open"})


_RUBY_SECTIONS = {"private", "protected", "public", "module_function"}


def _ruby_public(f: _File, d: _Decl) -> bool:
    """Ruby: classes are public; a method is public unless a bare `private`/`protected` section above
    it, `private def m`, `private :m` or (for `def self.m`) `private_class_method :m` says otherwise.
    `module_function` makes the module's methods callable as Module.m."""
    if d.role != "function":
        return True
    node, stmt = d.node, d.node
    singleton = node.type == "singleton_method"
    if singleton:
        d.notes.append("singleton")
    elif d.node.parent is not None and d.node.parent.parent is not None \
            and d.node.parent.parent.type == "singleton_class":
        d.notes.append("singleton")
    parent = node.parent
    if parent is not None and parent.type == "argument_list" and parent.parent is not None \
            and parent.parent.type == "call":  # `private def m`
        word = f.text(parent.parent.child_by_field_name("method"))
        if word in ("private", "protected", "private_class_method"):
            return False
        if word == "module_function":
            d.notes.append("module_function")
            return True
        stmt = parent.parent
    body = stmt.parent
    if body is None:
        return True
    sections, named = _ruby_sections(f, body)
    at = bisect.bisect_left(sections, (stmt.start_byte,))
    section = sections[at - 1][1] if at else "public"
    word = named.get(d.name)
    if singleton:  # sections do not reach `def self.m`
        return word != "private_class_method"
    word = word or section
    if word == "module_function":
        d.notes.append("module_function")
    return word not in ("private", "protected")


def _ruby_sections(f: _File, body: Node) -> tuple[list[tuple[int, str]], dict[str, str]]:
    """A class body's bare visibility keywords (position, word) and its `private :m` forms (m -> word),
    read once per body."""
    key = (body.start_byte, body.end_byte)
    if key not in f.ruby_bodies:
        sections, named = [], {}
        for sib in body.named_children:
            if sib.type == "identifier" and f.text(sib) in _RUBY_SECTIONS:
                sections.append((sib.start_byte, f.text(sib)))
            elif sib.type == "call" and sib.child_by_field_name("receiver") is None:
                word = f.text(sib.child_by_field_name("method"))
                args = sib.child_by_field_name("arguments")
                if args is not None and word in _RUBY_SECTIONS | {"private_class_method", "public_class_method"}:
                    for arg in args.named_children:
                        if arg.type in ("simple_symbol", "string"):
                            named[f.text(arg).strip(":\"'")] = word
        f.ruby_bodies[key] = (sections, named)
    return f.ruby_bodies[key]


# -- calls ------------------------------------------------------------------------------------------

_SELF = {"self", "this", "$this", "Self", "static"}


def _attach_calls(f: _File, symbols: list[Symbol], root: Node) -> None:
    """Each call goes to the innermost symbol whose body holds it (a class keeps the calls in its
    body outside its methods). Calls through self/this (and, where the language allows it, bare
    calls) to a method of the same type are named "Type.method", as that symbol is named."""
    src, lang = f.parsed.source, f.parsed.language
    found = []
    for _, caps in file_matches(f.parsed, "calls"):
        start = caps["callee"][0]
        end = (caps.get("callee.end") or [start])[0]
        if end.end_byte <= start.start_byte or f.text(end) in f.rules.declarative:
            continue
        callee = _callee(src[start.start_byte:end.end_byte], lang)
        if "{" not in callee and not callee.startswith(("(", "[")):  # `func(){...}()`, `(f)()`: no name
            found.append((start.start_byte, callee))
    found.sort()
    positions = [pos for pos, _ in found]
    claimed = [False] * len(found)
    known = {s.name for s in symbols}
    receivers = _go_receivers(f) if lang == "go" else {}
    for symbol in sorted(symbols, key=lambda s: s.end_byte - s.start_byte):
        lo = bisect.bisect_left(positions, symbol.start_byte)
        hi = bisect.bisect_left(positions, symbol.end_byte)
        names: list[str] = []
        for i in range(lo, hi):
            if claimed[i]:
                continue
            claimed[i] = True
            name = _resolve(found[i][1], symbol, known, receivers.get(symbol.start_byte), f.rules.implicit_self)
            if name not in names:
                names.append(name)
        symbol.calls = names


def _go_receivers(f: _File) -> dict[int, str]:
    """Go methods' receiver variable (the `s` of `func (s *Server)`), by body start."""
    out = {}
    for d in f.decls:
        if d.receiver is not None and d.receiver.type == "parameter_list" and d.body is not None:
            param = next(iter(d.receiver.named_children), None)
            var = param.child_by_field_name("name") if param is not None else None
            if var is not None:
                out[d.body.start_byte] = f.text(var)
    return out


def _callee(raw: bytes, lang: str) -> str:
    text = "".join(raw.decode("utf-8", "replace").split())
    out, depth = [], 0  # argument lists and blocks of chained calls: a.b(x).c -> a.b().c
    for ch in text:
        if ch in "([{":
            if depth == 0:
                out.append(ch)
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
            if depth == 0:
                out.append(ch)
        elif depth == 0:
            out.append(ch)
    text = "".join(out)
    if lang in ("rust", "java", "csharp"):  # helper::<u8>, List<int>, Collections.<T>empty
        for _ in range(3):
            text = re.sub(r"(::|\.)?<[^<>]*>", lambda m: "." if m.group(1) == "." else "", text)
    return text.lstrip("\\") if lang == "php" else text


def _resolve(call: str, symbol: Symbol, known: set[str], receiver: str | None, implicit_self: bool) -> str:
    container = symbol.container if symbol.kind == "method" else symbol.name if symbol.kind == "class" else None
    m = re.fullmatch(r"(?:(\$?\w+)(?:\.|::|->|\?\.|&\.))?(\w+[!?]?)", call)
    if m is None:
        return call
    head, member = m.groups()
    if head is None:
        if implicit_self and container and f"{container}.{member}" in known and member not in known:
            return f"{container}.{member}"
        return call
    if container and (head in _SELF or head == receiver):
        return f"{container}.{member}"
    return f"{head}.{member}" if f"{head}.{member}" in known else call


# -- Rust re-exports --------------------------------------------------------------------------------


def _rust_use(f: _File, node: Node | None, prefix: str, surface: ModuleSurface) -> None:
    """`pub use a::b::{C, D as E, f::*}` -> reexports (C, a::b), (E, a::b); export_all_from a::b::f."""
    if node is None:
        return

    def join(*parts: str) -> str:
        return "::".join(p for p in parts if p)

    def split(path: str) -> tuple[str, str]:
        parent, _, last = path.rpartition("::")
        return parent, last

    kind = node.type
    if kind in ("scoped_identifier", "identifier", "crate", "self", "super"):
        full = join(prefix, f.text(node))
        parent, last = split(full)
        if last == "self":  # `pub use a::b::{self}` re-exports b
            parent, last = split(parent)
        surface.reexports.append((last, parent or last))
    elif kind == "use_as_clause":
        parent, _ = split(join(prefix, f.text(node.child_by_field_name("path"))))
        alias = f.text(node.child_by_field_name("alias"))
        surface.reexports.append((alias, parent or alias))
    elif kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        inner = join(prefix, f.text(path)) if path is not None else prefix
        for child in (node.child_by_field_name("list") or node).named_children:
            _rust_use(f, child, inner, surface)
    elif kind == "use_list":
        for child in node.named_children:
            _rust_use(f, child, prefix, surface)
    elif kind == "use_wildcard":
        path = next(iter(node.named_children), None)
        surface.export_all_from.append(join(prefix, f.text(path)) if path is not None else prefix)


# -- the languages ----------------------------------------------------------------------------------

RULES: dict[str, Rules] = {
    "go": Rules(_go_public, doc_line=re.compile(r"\s*//(.*)$"), doc_block="/*",
                default_container_public=lambda name: name[:1].isupper()),
    "rust": Rules(_rust_public, doc_line=re.compile(r"\s*///(?!/)(.*)$"), doc_block="/**",
                  attribute_line=re.compile(r"\s*#\[")),
    "java": Rules(_java_public, doc_block="/**", annotations=frozenset({"marker_annotation", "annotation"}),
                  implicit_self=True),
    "kotlin": Rules(_kotlin_public, doc_block="/**", annotations=frozenset({"annotation"}), implicit_self=True,
                    unnamed=(("secondary_constructor", "constructor"),)),
    "csharp": Rules(_csharp_public, doc_line=re.compile(r"\s*///(?!/)(.*)$"), doc_block="/**",
                    annotations=frozenset({"attribute_list"}), implicit_self=True),
    "ruby": Rules(_ruby_public, doc_line=re.compile(r"\s*#(?![!{])(.*)$"), implicit_self=True,
                  declarative=frozenset({*_RUBY_SECTIONS, "private_class_method", "public_class_method",
                                         "attr_reader", "attr_writer", "attr_accessor", "include", "extend"})),
    "php": Rules(_php_public, doc_block="/**", annotations=frozenset({"attribute_list"})),
    "swift": Rules(_swift_public, doc_line=re.compile(r"\s*///(?!/)(.*)$"), doc_block="/**",
                   annotations=frozenset({"attribute"}), implicit_self=True,
                   unnamed=(("init_declaration", "init"),)),
}
