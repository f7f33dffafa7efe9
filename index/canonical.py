"""Canonical JSON: one byte string per JSON value, used for digests and published files."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 text; lone surrogates escaped as JSON.stringify does.

    orjson writes it ~10x faster than the json module; what orjson refuses (lone surrogates,
    integers past 64 bits) takes the json module's path. One content always takes the same path,
    so the text, and any digest of it, is stable.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except TypeError:
        pass
    return escape_lone_surrogates(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def escape_lone_surrogates(text: str) -> str:
    """JSON text from the json module with each lone surrogate written as JSON.stringify writes
    it (`\\udxxx`), so that the text is valid UTF-8 and reads back as the same string."""
    if _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def pretty_json_bytes(value: Any) -> bytes:
    """Indented JSON as UTF-8, for people and pipes (`--json`, `--out`): orjson writes it ~10x
    faster than the json module's indenting encoder (pure Python), and as bytes, so a big report
    is never decoded to a str and encoded again. What orjson refuses (integers past 64 bits, lone
    surrogates) takes the json module's path, lone surrogates escaped as JSON.stringify does."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        pass
    return escape_lone_surrogates(json.dumps(value, indent=2, ensure_ascii=False)).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def storable_text(value: Any) -> Any:
    """A string SQLite can store as UTF-8 text: lone surrogates become U+FFFD (other values pass)."""
    if isinstance(value, str) and _LONE_SURROGATE.search(value):
        return _LONE_SURROGATE.sub("\ufffd", value)
    return value
