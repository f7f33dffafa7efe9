"""Read wire documents: strict JSON parsing, kind detection, validation with readable errors."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from .errors import DocumentError
from .models import DOCUMENT_MODELS, IndexPackage, Wire

# The field that names each kind's format version, used to recognise a document.
VERSION_FIELDS = {
    "indexVersion": "index",
    "capabilityDiscoveryVersion": "site",
    "specVersion": "manifest",
    "gapVersion": "gap",
    "bindingVersion": "binding",
    "bridgeVersion": "bridge",
    "lockVersion": "lock",
    "lock_set_version": "lockset",
    "report_version": "report",
    "gapListingVersion": "gaplisting",
}


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes | str, where: str) -> Any:
    """Parse JSON as a browser would accept it: no NaN/Infinity, bounded nesting."""
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise DocumentError(where, ["$: JSON is nested too deeply"]) from None
    except UnicodeDecodeError as exc:
        raise DocumentError(where, [f"$: not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    except ValueError as exc:
        raise DocumentError(where, [f"$: not JSON ({exc})"]) from None


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def json_path(loc: tuple[Any, ...]) -> str:
    """JSONPath as jsonschema writes it: `$.a[0]`, and `$['odd key']` for keys that are not identifiers."""
    parts = []
    for p in loc:
        if isinstance(p, int):
            parts.append(f"[{p}]")
        elif _IDENTIFIER.fullmatch(str(p)):
            parts.append(f".{p}")
        else:
            parts.append("[" + repr(str(p)) + "]")
    return "$" + "".join(parts)


def format_validation_error(exc: ValidationError) -> list[str]:
    """Each pydantic error as '<JSON path>: <message> [<rule>]'."""
    out = []
    for err in exc.errors(include_url=False):
        msg = err["msg"].removeprefix("Value error, ")
        out.append(f"{json_path(err['loc'])}: {msg} [{err['type']}]")
    return out


def detect_kind(data: Any) -> str | None:
    """The document kind its version field announces, or None."""
    if isinstance(data, dict):
        for field, kind in VERSION_FIELDS.items():
            if field in data:
                return kind
    return None


def _replace_lone_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_replace_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_replace_lone_surrogates(k): _replace_lone_surrogates(v) for k, v in value.items()}
    return value


def _model_validate(model: type[Wire], data: Any) -> Wire:
    """Validate like the reference does; JavaScript strings may hold lone surrogates, pydantic's may not.

    Such a string is checked as if each lone surrogate were U+FFFD (same length, matches no rule
    differently); the caller keeps the original data.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        if not any(e["type"] == "string_unicode" for e in exc.errors()):
            raise
    return model.model_validate(_replace_lone_surrogates(data))


def validate(kind: str, data: Any, where: str) -> Wire:
    """The validated model for `data` as a `kind` document; DocumentError naming every problem otherwise."""
    model = DOCUMENT_MODELS[kind]
    try:
        return _model_validate(model, data)
    except ValidationError as exc:
        raise DocumentError(where, format_validation_error(exc)) from None


def load_document(raw: bytes | str, where: str, kind: str | None = None) -> tuple[str, Any, Wire]:
    """Parse and validate one document; returns (kind, parsed JSON, model)."""
    data = parse_json(raw, where)
    found = detect_kind(data)
    if kind is None:
        if found is None:
            names = ", ".join(VERSION_FIELDS)
            raise DocumentError(where, [f"$: not a capability document (no version field: {names})"])
        kind = found
    return kind, data, validate(kind, data, where)


def package_problems(index: int, package: Any) -> list[str]:
    """Every problem of one `packages[index]` entry of an index, as 'JSON path: message [rule]'."""
    try:
        _model_validate(IndexPackage, package)
    except ValidationError as exc:
        return [p.replace("$", f"$.packages[{index}]", 1) for p in format_validation_error(exc)]
    return []


def validate_index(data: Any, where: str, max_problems: int = 50) -> Any:
    """Validate a parsed index one package at a time (no model of the whole list is ever built).

    Returns the validated header (the document with `packages` emptied); the caller keeps using
    the parsed `data["packages"]`, every entry of which has been validated.
    """
    if not isinstance(data, dict) or not isinstance(data.get("packages"), list):
        return validate("index", data, where)
    header = validate("index", {**data, "packages": []}, where)
    problems: list[str] = []
    for i, package in enumerate(data["packages"]):
        problems += package_problems(i, package)
        if len(problems) >= max_problems:
            break
    if problems:
        raise DocumentError(where, problems)
    return header
