"""tree-sitter parsing through tree-sitter-language-pack 0.13 (grammars bundled: nothing is
downloaded at run time), and query files kept beside the code in miners/queries/."""

from __future__ import annotations

import functools
import re
import time
from pathlib import Path
from typing import Any

QUERIES = Path(__file__).resolve().parent / "queries"

# file extension -> tree-sitter-language-pack name
EXTENSIONS = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".cs": "csharp",
    ".rb": "ruby", ".php": "php", ".swift": "swift",
}


def language_of(path: str) -> str | None:
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(".d.ts"):
        return "typescript"
    dot = name.rfind(".")
    return EXTENSIONS.get(name[dot:]) if dot >= 0 else None


@functools.cache
def parser(language: str) -> Any:
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


@functools.cache
def language(name: str) -> Any:
    from tree_sitter_language_pack import get_language

    return get_language(name)  # type: ignore[arg-type]


_INHERITS = re.compile(r"^;\s*inherits:\s*([a-z_]+)\s*$", re.MULTILINE)


@functools.cache
def query_source(language_name: str, concern: str) -> str | None:
    """The text of miners/queries/<language>/<concern>.scm, with the patterns of the languages its
    `; inherits: <language>` lines name put first (a grammar that extends another, as TypeScript
    extends JavaScript, shares its patterns instead of copying them)."""
    path = QUERIES / language_name / f"{concern}.scm"
    if not path.exists():
        return None
    own = path.read_text(encoding="utf-8")
    inherited = [query_source(base, concern) for base in _INHERITS.findall(own)]
    return "\n".join([*(text for text in inherited if text), own])


def concerns(language_name: str) -> list[str]:
    folder = QUERIES / language_name
    return sorted(p.stem for p in folder.glob("*.scm")) if folder.is_dir() else []


@functools.cache
def query(language_name: str, concern: str) -> Any | None:
    """The compiled query in miners/queries/<language>/<concern>.scm (see query_source), or None."""
    from tree_sitter import Query

    source = query_source(language_name, concern)
    return None if source is None else Query(language(language_name), source)


def captures(language_name: str, concern: str, node: Any) -> dict[str, list[Any]]:
    """{capture name: [nodes]} of a query over `node` (py-tree-sitter 0.25+: QueryCursor)."""
    from tree_sitter import QueryCursor

    q = query(language_name, concern)
    if q is None:
        return {}
    return QueryCursor(q).captures(node)


def matches(language_name: str, concern: str, node: Any) -> list[tuple[int, dict[str, list[Any]]]]:
    from tree_sitter import QueryCursor

    q = query(language_name, concern)
    if q is None:
        return []
    return QueryCursor(q).matches(node)


PARSE_SECONDS = 10.0  # a file's parse may take this long: a 2 MB file, the largest mined, parses in under 1 s
_CHUNK = 1 << 18  # bytes handed to the parser per read


class ParseTimeout(Exception):
    """The parse ran past its time: the file is recorded as skipped, and mining goes on."""


def parse(language_name: str, source: bytes, seconds: float | None = None) -> Any:
    """The tree of `source`, or ParseTimeout past `seconds` (PARSE_SECONDS). The source is read
    through a callback because tree-sitter honours a progress callback only then; it is called
    every few hundred bytes, and a check of the clock there costs well under 1% of a parse."""
    budget = PARSE_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + budget
    p = parser(language_name)
    try:
        tree = p.parse(lambda at, _point: source[at:at + _CHUNK],
                       progress_callback=lambda *_: time.monotonic() > deadline)
    except ValueError:  # what py-tree-sitter raises for a parse its callback halted
        if time.monotonic() <= deadline:
            raise
        tree = None
    if tree is None:
        p.reset()  # else the next parse would resume this one
        raise ParseTimeout(f"parse timeout (over {budget:g} s)")
    return tree


# --- one query pass per file ---------------------------------------------------------------------
# Every query of a language runs as one combined query, once per parsed file: a pass over the tree
# costs about as much as a third of the parse whatever the patterns, so the extractors share it.
# Identical patterns of two concerns (`(call) @call` in declarations and surfaces) are run once.
# Patterns anchored at the root (`(module (function_definition) ...)`) run as a second query limited
# to start at the root: tree-sitter tries such a pattern at every node of the tree, which cost
# Python's combined pass nearly half its time, while the root alone finds the same matches. A
# concern gets the root query's matches after the other query's: what the extractors keep does not
# depend on that order (symbols are sorted by position, names go to sets), but for a JS file that
# mixes ESM and CommonJS, `export default x` is now read after `module.exports = y` and wins.


def _patterns(source: str) -> list[str]:
    """The top-level patterns of a query file, each with its captures, quantifiers and predicates."""
    out: list[str] = []
    depth, i, n, start = 0, 0, len(source), None
    while i < n:
        c = source[i]
        if c == ";":  # comment to the end of the line
            j = source.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c == '"':  # string: skip, escapes included
            j = i + 1
            while j < n and source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            if depth == 0 and start is None:
                start = i
            i = j + 1
            if depth == 0:
                out.append(source[start:i])
                start = None
            continue
        if c in "([":
            if depth == 0:
                start = i
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                out.append(source[start:i + 1])
                start = None
        elif depth == 0 and not c.isspace():
            # a capture or quantifier after a top-level pattern belongs to it
            j = i
            while j < n and not source[j].isspace() and source[j] not in "([;\"":
                j += 1
            if not out:
                raise ValueError(f"unexpected {source[i:j]!r} at top level")
            out[-1] += " " + source[i:j]
            i = j
            continue
        i += 1
    if depth:
        raise ValueError("unbalanced query")
    return out


@functools.cache
def root_type(language_name: str) -> str:
    """The node type of the grammar's root (`module`, `program`, `source_file`...)."""
    return parser(language_name).parse(b"").root_node.type


Combined = tuple[Any, Any, list[tuple[tuple[str, int], ...]]]


@functools.cache
def combined(language_name: str) -> Combined | None:
    """(query of every concern's patterns but the root-anchored ones, compiled at first use; query
    of those or None; per pattern index: its (concern, pattern index in the concern's own file)
    pairs), or None when the files cannot be combined. Indexes number the first query's patterns,
    then the second's."""
    from tree_sitter import Query

    names = concerns(language_name)
    if not names:
        return None
    texts: dict[str, int] = {}
    owners: list[list[tuple[str, int]]] = []
    for concern in names:
        try:
            pieces = _patterns(query_source(language_name, concern) or "")
        except ValueError:
            return None
        for local, piece in enumerate(pieces):
            index = texts.setdefault(piece, len(texts))
            if index == len(owners):
                owners.append([])
            owners[index].append((concern, local))
    anchored = f"({root_type(language_name)}"
    deep: list[tuple[int, str]] = []
    rooted: list[tuple[int, str]] = []
    for text, i in texts.items():
        (rooted if _anchored(text, anchored) else deep).append((i, text))
    order = [i for i, _ in deep] + [i for i, _ in rooted]
    # The concerns' own queries are not compiled (that would double the start-up's query cost):
    # a piece that is not exactly one pattern fails to compile here, or changes the counts.
    try:
        root_query = Query(language(language_name), "\n".join(t for _, t in rooted)) if rooted else None
    except Exception:  # noqa: BLE001 - QueryError and kin: fall back to one query per concern
        return None
    if root_query is not None and root_query.pattern_count != len(rooted):
        return None
    return _Deep(language_name, "\n".join(t for _, t in deep), len(deep)), root_query, [tuple(owners[i]) for i in order]


class _Deep:
    """The merged query of a language's patterns that are not root-anchored, compiled when a file
    first needs the pass over the whole tree: most files never do, and compiling it is most of a
    language's start-up (42 ms for TypeScript, 47 for TSX, 15 for JavaScript)."""

    def __init__(self, language_name: str, source: str, pattern_count: int):
        self.language_name, self.source, self.pattern_count = language_name, source, pattern_count

    @functools.cached_property
    def query(self) -> Any | None:
        """The compiled query, or None when it does not compile to exactly its patterns (every file
        then takes each concern's own query)."""
        from tree_sitter import Query

        try:
            compiled = Query(language(self.language_name), self.source)
        except Exception:  # noqa: BLE001 - QueryError and kin
            return None
        return compiled if compiled.pattern_count == self.pattern_count else None


def _anchored(pattern: str, anchored: str) -> bool:
    """Whether the pattern's outermost node is the root type (`(module ...`, not `(module_x ...`)."""
    if not pattern.startswith(anchored):
        return False
    after = pattern[len(anchored)]
    return not (after.isalnum() or after == "_")


_RESULTS = "_miners_query_results"


def file_matches(parsed: Any, concern: str) -> list[tuple[int, dict[str, list[Any]]]]:
    """`matches(parsed.language, concern, root)`, from the file's one combined pass. The first item
    of each match is its pattern's index in the combined queries (no caller needs the index within
    the concern's own file, and keeping the cursor's tuples saves a tuple per match). The
    root-anchored matches come after the others, each in query order."""
    cache = parsed.__dict__.get(_RESULTS)
    if cache is None:
        cache = parsed.__dict__[_RESULTS] = _run_all(parsed)
    if cache is False:
        return matches(parsed.language, concern, parsed.tree.root_node)
    return cache.get(concern, [])


@functools.cache
def split_patterns(language_name: str, concern: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the concern's patterns that are not root-anchored, those that are), as written in its query
    file, or None when the language's queries are not split."""
    if combined(language_name) is None:
        return None
    anchored = f"({root_type(language_name)}"
    pieces = _patterns(query_source(language_name, concern) or "")
    return (tuple(p for p in pieces if not _anchored(p, anchored)), tuple(p for p in pieces if _anchored(p, anchored)))


@functools.cache
def deep_captures(language_name: str, concern: str) -> frozenset[str] | None:
    """The capture names of the concern's patterns that are not root-anchored (what only the pass
    over the whole tree finds), or None when the language's queries are not split."""
    split = split_patterns(language_name, concern)
    if split is None:
        return None
    return frozenset(name for piece in split[0] for name in re.findall(r"@([\w.]+)", piece))


def has_matches(parsed: Any) -> bool:
    """Whether the file's combined pass has run (its matches cost nothing more to read)."""
    return parsed.__dict__.get(_RESULTS) is not None


def root_matches(parsed: Any, concern: str) -> list[tuple[int, dict[str, list[Any]]]] | None:
    """The matches `file_matches` gives the concern from the root-anchored patterns alone, in the
    same order and with the same indexes, without the pass over the whole tree; None when the
    language's queries are not split (the caller then needs `file_matches`)."""
    both = combined(parsed.language)
    if both is None:
        return None
    if both[1] is None:
        return []
    names, _, several, offset = _routes(parsed.language)
    k = names.index(concern) if concern in names else -1
    return [(index + offset, caps) for index, caps in _at_root(both[1], parsed.tree.root_node)
            if k in several[index + offset]]


def _at_root(query: Any, root: Any) -> list[tuple[int, dict[str, list[Any]]]]:
    """The matches of root-anchored patterns, tried at the root alone (not at every node)."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(query)
    cursor.set_max_start_depth(0)
    return cursor.matches(root)


def file_captures(parsed: Any, concern: str) -> dict[str, list[Any]]:
    """`captures(parsed.language, concern, root)` (each list in match order), from the one pass."""
    out: dict[str, list[Any]] = {}
    for _, m in file_matches(parsed, concern):
        for name, nodes in m.items():
            found = out.get(name)
            if found is None:
                out[name] = list(nodes)
            else:
                found.extend(nodes)
    return out


@functools.cache
def _routes(language_name: str) -> tuple[tuple[str, ...], list[int], list[tuple[int, ...]], int]:
    """(every concern, per combined pattern index: the one concern it serves or -1, and the
    concerns of the patterns that serve several, the index of the first root-anchored pattern)."""
    both = combined(language_name)
    owners = both[2] if both is not None else []
    per_pattern = [tuple(dict.fromkeys(concern for concern, _ in owner)) for owner in owners]
    names = tuple(dict.fromkeys(c for group in per_pattern for c in group))
    single = [names.index(group[0]) if len(group) == 1 else -1 for group in per_pattern]
    several = [tuple(names.index(c) for c in group) for group in per_pattern]
    return names, single, several, both[0].pattern_count if both is not None else 0


def _run_all(parsed: Any) -> dict[str, list[tuple[int, dict[str, list[Any]]]]] | bool:
    from tree_sitter import QueryCursor

    both = combined(parsed.language)
    deep = both[0].query if both is not None else None
    if deep is None:
        return False
    names, single, several, offset = _routes(parsed.language)
    lists: list[list[tuple[int, dict[str, list[Any]]]]] = [[] for _ in names]
    root = parsed.tree.root_node
    for item in QueryCursor(deep).matches(root):
        k = single[item[0]]
        if k >= 0:
            lists[k].append(item)
        else:
            for k in several[item[0]]:
                lists[k].append(item)
    if both[1] is not None:
        for index, caps in _at_root(both[1], root):
            item = (index + offset, caps)
            for k in several[item[0]]:
                lists[k].append(item)
    return dict(zip(names, lists, strict=True))


def fast_text(parsed: Any) -> None:
    """Give `parsed` a `text(node)` that slices a once-decoded copy of an ASCII source (the same
    string `ParsedFile.text` decodes, without a decode per call). Other sources keep the method."""
    d = parsed.__dict__
    if "text" in d:
        return
    source = parsed.source
    if isinstance(source, bytes) and source.isascii():
        decoded = source.decode("ascii")
        d["text"] = lambda node: decoded[node.start_byte:node.end_byte]


# Python's nodes that hold statements: a class or function is defined nowhere else (no expression
# holds one), so a walk for definitions need not enter the rest
_PY_STATEMENT_HOLDERS = frozenset({
    "module", "block", "decorated_definition", "class_definition", "function_definition", "if_statement",
    "elif_clause", "else_clause", "for_statement", "while_statement", "try_statement", "except_clause",
    "except_group_clause", "finally_clause", "with_statement", "match_statement", "case_clause", "ERROR"})


def python_definitions(node: Any, kind: str) -> list[Any]:
    """descendants(node, kind) for a Python definition's kind (`class_definition`,
    `function_definition`, `decorated_definition`), walking statements only."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            out.append(current)
        stack.extend(c for c in reversed(current.named_children) if c.type in _PY_STATEMENT_HOLDERS or c.type == kind)
    return out


def descendants(node: Any, kind: str | tuple[str, ...]) -> list[Any]:
    """The named nodes of type `kind` (or of any of these types) under `node`, itself included, in
    source order; without recursion (deep trees)."""
    kinds = (kind,) if isinstance(kind, str) else kind
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type in kinds:
            out.append(current)
        stack.extend(reversed(current.named_children))
    return out
