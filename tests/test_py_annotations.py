"""miners/py_annotations.py: JSON Schema from annotation text, never imported."""

from __future__ import annotations

import pytest

from miners.py_annotations import annotation_schema, parameters_schema


@pytest.mark.parametrize(("text", "schema"), [
    ("int", {"type": "integer"}),
    ("str | None", {"type": ["string", "null"]}),
    ("Optional[float]", {"type": ["number", "null"]}),
    ("typing.Optional[str]", {"type": ["string", "null"]}),
    ("list[str]", {"type": "array", "items": {"type": "string"}}),
    ("dict[str, int]", {"type": "object", "additionalProperties": {"type": "integer"}}),
    ('Literal["fast", "slow"]', {"enum": ["fast", "slow"]}),
    ('Annotated[int, Field(description="How many")]', {"type": "integer", "description": "How many"}),
    ("tuple[int, ...]", {"type": "array", "items": {"type": "integer"}}),
    ("tuple[int, str]", {"type": "array"}),  # a fixed tuple: its items are not one schema
    ("list[MyModel]", {"type": "array"}),  # the package's class: its fields are not known here
    ("Union[int, MyModel]", {}),  # one member open: so is the union
    ("int | list[int]", {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]}),
    ('"int"', {"type": "integer"}),  # a forward reference
    ("MyModel", {}), ("Any", {}), ("", {}), (None, {}), ("not valid (", {}), ("x" * 10 + "[" * 200, {}),
])
def test_an_annotation_says_what_it_says_for_itself(text, schema):
    assert annotation_schema(text) == schema


def test_parameters_make_an_object_whose_required_ones_have_no_default():
    assert parameters_schema([{"name": "a", "type": "int", "required": True},
                              {"name": "b", "type": None, "required": False}]) == {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {}}, "required": ["a"]}
