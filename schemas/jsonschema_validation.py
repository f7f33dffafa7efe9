"""Validate documents against JSON Schemas with ECMAScript pattern and format semantics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import jsonschema
from jsonschema import validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import SCHEMA_FILES, load_schema
from .ecma import is_date_time, is_uri, pattern_matches

FORMAT_CHECKER = jsonschema.FormatChecker(formats=())
FORMAT_CHECKER.checks("date-time")(lambda v: not isinstance(v, str) or is_date_time(v))
FORMAT_CHECKER.checks("uri")(lambda v: not isinstance(v, str) or is_uri(v))


def _pattern(validator, pattern, instance, schema):
    if isinstance(instance, str) and not pattern_matches(pattern, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


EcmaValidator = validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


def make_validator(schema: Mapping[str, Any], siblings: Iterable[Mapping[str, Any]] = ()) -> Any:
    """A validator for `schema`; `siblings` resolve relative `$ref`s such as `./x.schema.json`."""
    registry: Registry = Registry()
    for doc in [schema, *siblings]:
        resource = Resource.from_contents(doc, default_specification=DRAFT202012)
        uri = doc.get("$id", "")
        registry = registry.with_resource(uri, resource)
    return EcmaValidator(schema, registry=registry, format_checker=FORMAT_CHECKER)


def capindex_validator(kind: str) -> Any:
    """A validator for one of capindex's shipped schemas, with all its siblings resolvable."""
    return make_validator(load_schema(kind), [load_schema(k) for k in SCHEMA_FILES if k != kind])


def schema_errors(kind: str, document: Any) -> list[str]:
    """Every violation as 'JSON path: rule', empty when the document is valid."""
    out = []
    for err in sorted(capindex_validator(kind).iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
        out.append(f"{err.json_path}: {err.validator} ({err.message})")
    return out
