"""Streaming a big index package by package gives exactly what parsing it whole gives."""

from __future__ import annotations

import io
import json

import pytest

from conftest import EXAMPLES, index_doc, package
from schemas.documents import DocumentError
from schemas.stream import object_events, stream_object


def streamed(text: str | bytes, chunk_size: int) -> tuple[list, object]:
    raw = text.encode() if isinstance(text, str) else text
    items, restarts, result = [], 0, None
    for event, value in stream_object(io.BytesIO(raw), "doc.json", "packages", chunk_size=chunk_size):
        if event == "item":
            items.append(value)
        elif event == "restart":
            items, restarts = [], restarts + 1
        else:
            result = value
    return items, result


DOCS = [
    json.dumps(index_doc(package("a", "1.0.0", "x/a"), package("b", "2.0.0", "x/b", "x/c"))),
    json.dumps(index_doc(package("ünïcødé-😀", "1.0.0", "x/a")), ensure_ascii=False, indent=3),
    '{"packages": [], "indexVersion": "0.1"}',
    '{ "a" : [1, 2.5e-3, -0, 123456789012345678901234567890], "packages" : [ {"n": 1} , {"n": 22} ] , "z": null }',
    '{"packages": [{"n": 1}], "x": 1, "packages": [{"n": 2}, {"n": 3}]}',  # JSON keeps the last
    '{"packages": [{"n": 1}], "packages": 7}',
    '{}',
    '[1, 2]',
    '\ufeff{"packages": [1]}',
] + [p.read_text() for p in sorted(EXAMPLES.rglob("*.json"))]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 7, 64, 1 << 20])
@pytest.mark.parametrize("doc", range(len(DOCS)))
def test_streaming_matches_json_loads(doc, chunk_size):
    text = DOCS[doc]
    expected = json.loads(text.lstrip("\ufeff"))
    items, result = streamed(text, chunk_size)
    if isinstance(expected, dict) and isinstance(expected.get("packages"), list):
        assert items == expected["packages"]
        assert result == {**expected, "packages": []}
    else:
        assert items == [] and result == expected


@pytest.mark.parametrize("chunk_size", [1, 5, 1 << 20])
@pytest.mark.parametrize("bad", [
    '{"packages": [{"n": 1}, ]}',
    '{"packages": [{"n": 1}] "x": 1}',
    '{"packages": [{"n": NaN}]}',
    '{"a": 1} trailing',
    '{"a": 1',
    '{"packages": [',
    '',
    '{1: 2}',
    '{"a": "\xff"}',
])
def test_broken_json_is_one_document_error(bad, chunk_size):
    raw = bad.encode("latin-1") if "\xff" in bad else bad.encode()
    with pytest.raises(DocumentError) as err:
        streamed(raw, chunk_size)
    assert err.value.problems[0].startswith("$: not ")


def test_deep_nesting_is_a_document_error():
    deep = '{"packages": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    with pytest.raises(DocumentError, match="nested too deeply"):
        streamed(deep, 1 << 20)


def resolved(events) -> tuple[list, object]:
    items, result = [], None
    for event, value in events:
        if event == "item":
            items.append(value)
        elif event == "restart":
            items = []
        else:
            result = value
    return items, result


@pytest.mark.parametrize("doc", range(len(DOCS)))
def test_whole_document_parsing_matches_streaming(doc):
    raw = DOCS[doc].encode()
    assert resolved(object_events(raw, "doc.json", "packages")) == streamed(raw, 1 << 20)


@pytest.mark.parametrize("bad", [
    b'{"packages": [{"n": 1}, ]}', b'{"packages": [{"n": NaN}]}', b'{"a": 1} trailing', b'{"a": "\xff"}', b"",
    b'{"packages": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}",
])
def test_whole_document_parsing_fails_as_streaming_does(bad):
    with pytest.raises(DocumentError) as whole:
        resolved(object_events(bad, "doc.json", "packages"))
    with pytest.raises(DocumentError) as stream:
        streamed(bad, 1 << 20)
    assert whole.value.problems == stream.value.problems
