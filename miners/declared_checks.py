"""Checking the fields of a declaration read from JSON or YAML, for the contract readers (AIP,
ampersand): each problem named by its JSON path, a found value shown by its type and start, and
the rest of the declaration still read."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .declared import Problem
from .doc_lines import json_path, pointer


class Problems:
    """What a reader's document state needs to report: `path` and the `problems` list."""

    path: str
    problems: list[Problem]

    def problem(self, ptr: str, reason: str) -> None:
        self.problems.append(Problem(self.path, json_path(ptr), reason))

    def expected(self, what: str, value: Any) -> str:
        return f"expected {what}, found {show(value)}"


def check(doc: Problems, obj: dict[str, Any], ptr: str, key: str, ok: Callable[[Any], bool], expect: str,
          required: bool = False) -> Any:
    """obj[key] when it passes `ok`; otherwise None and a problem (a missing key only when required)."""
    if key not in obj:
        if required:
            doc.problem(pointer(ptr, key), f"required: {expect}, missing")
        return None
    if ok(obj[key]):
        return obj[key]
    doc.problem(pointer(ptr, key), doc.expected(expect, obj[key]))
    return None


def show(value: Any) -> str:
    """How a found value reads in a problem: its JSON type and (the start of) its JSON text."""
    if value is None:
        return "null"
    kinds = {dict: "object", list: "array", str: "string", bool: "boolean"}
    text = json.dumps(value, ensure_ascii=False, default=str)
    return f"{kinds.get(type(value), 'number')} {text if len(text) <= 40 else text[:37] + '...'}"


def is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def is_obj(value: Any) -> bool:
    return isinstance(value, dict)
