"""tree-sitter parsing through tree-sitter-language-pack 0.13 (grammars bundled: nothing is
downloaded at run time), and query files kept beside the code in miners/queries/."""

from __future__ import annotations

import functools
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


@functools.cache
def query(language_name: str, concern: str) -> Any | None:
    """The compiled query in miners/queries/<language>/<concern>.scm, or None when there is none."""
    from tree_sitter import Query

    path = QUERIES / language_name / f"{concern}.scm"
    if not path.exists():
        return None
    return Query(language(language_name), path.read_text(encoding="utf-8"))


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


def parse(language_name: str, source: bytes) -> Any:
    return parser(language_name).parse(source)
