"""Where words occur in a source, and the nodes they are: finding a few names from the text is
cheaper than a query pattern over every node of a kind that might hold one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# bytes that can be part of an identifier (ASCII letters, digits, _ and $; any byte of a UTF-8 sequence)
IDENT_BYTE = [chr(b).isalnum() or chr(b) in "_$" or b >= 0x80 for b in range(256)]
# every other byte becomes a space: `source.translate(WORDS_ONLY).split()` gives the source's words
WORDS_ONLY = bytes(b if IDENT_BYTE[b] else 0x20 for b in range(256))


def present(parsed: Any) -> set[bytes]:
    """The words of a parsed file's source, split once per file (the effect gate and the effect
    extractor both ask; kept on the file like its decoded text and query matches)."""
    found = parsed.__dict__.get(_PRESENT)
    if found is None:
        found = parsed.__dict__[_PRESENT] = set(parsed.source.translate(WORDS_ONLY).split())
    return found


_PRESENT = "_miners_words"


def positions(source: bytes, word: bytes) -> Iterator[int]:
    """Where `word` occurs as a whole word, in order."""
    at = source.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not IDENT_BYTE[source[at - 1]]) and (end == len(source) or not IDENT_BYTE[source[end]]):
            yield at
        at = source.find(word, end)


def nodes(source: bytes, root: Any, word: bytes) -> Iterator[Any]:
    """The nodes spanning exactly a whole-word occurrence of `word`, in order (a word inside a
    comment, a string's text or a longer token spans no node of its own and is passed over)."""
    for at in positions(source, word):
        node = root.descendant_for_byte_range(at, at + len(word))
        if node is not None and node.start_byte == at and node.end_byte == at + len(word):
            yield node


# per kind of call node, the field holding its callee (a JS `new` is a call of its constructor)
JS_CALLEES = {"call_expression": "function", "new_expression": "constructor"}
PY_CALLEES = {"call": "function"}


def chain_call(node: Any, member: str, calls: dict[str, str]) -> Any:
    """The call whose callee chain (`a.b.c`, through the objects of `member` nodes) starts at
    `node`, else None; `calls` maps each call node type to its callee's field (JS_CALLEES, PY_CALLEES)."""
    while True:
        parent = node.parent
        if parent is None:
            return None
        if parent.type == member and parent.child_by_field_name("object") == node:
            node = parent
            continue
        field = calls.get(parent.type)
        return parent if field is not None and parent.child_by_field_name(field) == node else None
