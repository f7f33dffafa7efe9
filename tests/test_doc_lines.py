"""miners/doc_lines.py: the line of every value of a JSON or YAML document, and how places are named."""

from __future__ import annotations

import json
import random
import time

import pytest

from miners.doc_lines import DocumentError, json_path, load, pointer

# -- JSON lines --------------------------------------------------------------------------------------


def test_nested_objects_and_arrays():
    text = """{
  "info": {"title": "Pets",
    "tags": ["a",
      "b"]},
  "paths": [
    {"get": 1},
    [2, 3,
     4]
  ],
  "last": null
}"""
    value, lines = load("doc.json", text.encode())
    assert value["paths"][1] == [2, 3, 4]
    assert lines == {
        "": 1,
        "/info": 2, "/info/title": 2, "/info/tags": 3, "/info/tags/0": 3, "/info/tags/1": 4,
        "/paths": 5, "/paths/0": 6, "/paths/0/get": 6, "/paths/1": 7, "/paths/1/0": 7, "/paths/1/1": 7,
        "/paths/1/2": 8,
        "/last": 10,
    }


def test_empty_containers_inside_arrays_and_objects():
    text = '[\n{},\n[],\n{"a": {}, "b": []},\n[[], {}, 1],\n"end"\n]'
    _, lines = load("x.json", text.encode())
    assert lines == {
        "": 1, "/0": 2, "/1": 3, "/2": 4, "/2/a": 4, "/2/b": 4,
        "/3": 5, "/3/0": 5, "/3/1": 5, "/3/2": 5, "/4": 6,
    }


def test_keys_with_slash_and_tilde():
    text = '{\n"/pets/{id}": {\n  "a~b": 1,\n  "~1": 2,\n  "": 3\n}\n}'
    value, lines = load("x.json", text.encode())
    assert value["/pets/{id}"]["~1"] == 2
    assert lines["/~1pets~1{id}"] == 2
    assert lines["/~1pets~1{id}/a~0b"] == 3
    assert lines["/~1pets~1{id}/~01"] == 4
    assert lines["/~1pets~1{id}/"] == 5  # the empty key
    assert pointer("/~1pets~1{id}", "a~b") == "/~1pets~1{id}/a~0b"
    assert pointer("", "~1") == "/~01"  # ~ escaped before /, so "~1" stays two characters


def test_strings_that_look_like_structure():
    # brackets, braces, colons, commas, escaped quotes and backslashes inside strings are not tokens
    text = r"""{
  "a": "[{,:}]",
  "b\"c": "say \"hi\", {then} [go]: now",
  "d": "ends with a backslash \\",
  "e": ["\\\"", "x\\"],
  "f": {"g": ",", "h": ":"},
  "i": 1
}"""
    value, lines = load("x.json", text.encode())
    assert value['b"c'] == 'say "hi", {then} [go]: now'
    assert value["d"].endswith("\\")
    assert lines == {"": 1, "/a": 2, '/b"c': 3, "/d": 4, "/e": 5, "/e/0": 5, "/e/1": 5, "/f": 6, "/f/g": 6,
                     "/f/h": 6, "/i": 7}


def test_unicode():
    text = '{\n"café": "naïve ☕",\n"\\u00e9t\\u00e9": "\\ud83d\\ude00",\n"sep": "a\u2028b",\n"next": 1\n}'
    value, lines = load("x.json", text.encode("utf-8"))
    assert value["été"] == "😀" and value["sep"] == "a\u2028b"
    assert lines == {"": 1, "/café": 2, "/été": 3, "/sep": 4, "/next": 5}


def test_bom_crlf_and_scalar_root():
    value, lines = load("x.json", b'\xef\xbb\xbf{\r\n  "a": 1,\r\n  "b": [true]\r\n}\r\n')
    assert value == {"a": 1, "b": [True]}
    assert lines == {"": 1, "/a": 2, "/b": 3, "/b/0": 3}
    assert load("x.json", b'\n\n  "just a string"') == ("just a string", {"": 3})


def test_repeated_key_takes_the_line_of_the_value_json_keeps():
    text = '{\n"a": {"x": 1, "y": 2},\n"b": 0,\n"a": {\n  "x": 3\n}\n}'
    value, lines = load("x.json", text.encode())
    assert value == {"a": {"x": 3}, "b": 0}
    assert lines == {"": 1, "/a": 4, "/a/x": 5, "/b": 3}  # no stale /a/y


def _expected_lines(value, here: str, line: int, out: dict[str, int]) -> int:
    """Where json.dumps(indent=2) puts each value: an independent oracle. Returns the value's last line."""
    out[here] = line
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else []
    if not items:
        return line
    at = line + 1
    for key, item in items:
        at = _expected_lines(item, pointer(here, key), at, out) + 1
    return at  # the closing bracket's line


_ODD = ['"', "\\", "/", "~", "{", "}", "[", "]", ",", ":", "é", "☕", "\u2028", " ", "\t", "~1", "0"]


def _random_value(rng: random.Random, depth: int):
    roll = rng.random()
    if depth > 4 or roll < 0.35:
        return rng.choice([None, True, False, 0, -1.5, 1e21, "", "".join(rng.choices(_ODD, k=rng.randint(0, 6)))])
    if roll < 0.65:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {"".join(rng.choices(_ODD, k=rng.randint(0, 4))) + str(i): _random_value(rng, depth + 1)
            for i in range(rng.randint(0, 4))}


@pytest.mark.parametrize("seed", range(40))
def test_every_value_of_generated_documents(seed):
    rng = random.Random(seed)
    value = {"root": _random_value(rng, 0), "tail": [_random_value(rng, 2)]}
    for ensure_ascii in (True, False):
        text = json.dumps(value, indent=2, ensure_ascii=ensure_ascii)
        expected: dict[str, int] = {}
        _expected_lines(value, "", 1, expected)
        assert load("gen.json", text.encode())[1] == expected
        compact = json.dumps(value, ensure_ascii=ensure_ascii)  # one line: every value on line 1
        assert load("gen.json", compact.encode())[1] == dict.fromkeys(expected, 1)


# -- JSON errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "where"), [
    (b'{\n  "a": 1\n  "b": 2\n}', "line 3"),  # a missing comma
    (b'{\n  "a": [1, 2,\n', "line 3"),  # truncated
    (b"", "line 1"),
    (b"{'a': 1}", "line 1"),  # not JSON's quotes
    (b'{\n"a": 1,\n}', "line 3"),  # trailing comma
    (b'[1]\n[2]', "line 2"),  # extra data
])
def test_syntax_errors_give_the_line(data, where):
    with pytest.raises(DocumentError) as caught:
        load("x.json", data)
    assert caught.value.where == where and caught.value.reason


@pytest.mark.parametrize(("text", "where", "name"), [
    ('{\n"a":\n NaN}', "line 3", "NaN"),
    ('[1,\n\n Infinity]', "line 3", "Infinity"),
    ('{"a": "NaN is fine in a string",\n "b": [\n -Infinity]}', "line 3", "-Infinity"),
])
def test_nan_and_infinity_are_rejected_at_their_line(text, where, name):
    with pytest.raises(DocumentError) as caught:
        load("x.json", text.encode())
    assert (caught.value.where, caught.value.reason) == (where, f"{name} is not JSON")


def test_a_string_saying_nan_is_fine():
    assert load("x.json", b'{"v": "NaN", "w": "Infinity"}')[0] == {"v": "NaN", "w": "Infinity"}


def test_not_utf8_names_the_line():
    with pytest.raises(DocumentError) as caught:
        load("x.json", b'{\n"a":\n"\xff"}')
    assert caught.value.where == "line 3" and "not UTF-8" in caught.value.reason
    with pytest.raises(DocumentError) as caught:  # the BOM is not counted as a line's text
        load("x.json", b'\xef\xbb\xbf{"a":\n"\xfe"}')
    assert caught.value.where == "line 2"


def test_nesting_too_deep_is_a_document_error():
    with pytest.raises(DocumentError) as caught:
        load("x.json", b"[" * 100_000 + b"]" * 100_000)
    assert caught.value.where == "line 1"


# -- YAML ----------------------------------------------------------------------------------------------

YAML = b"""# a comment
openapi: 3.1.0
info:
  title: Pets
  description: |
    two lines
    of text
paths:
  /pets/{id}:
    get:
      tags: [a, b]
      parameters:
        - name: id
          in: path
        - {name: limit, in: query}
"""


def test_yaml_lines():
    value, lines = load("api.yaml", YAML)
    assert value["paths"]["/pets/{id}"]["get"]["parameters"][1] == {"name": "limit", "in": "query"}
    assert lines == {
        "": 2, "/openapi": 2, "/info": 4, "/info/title": 4, "/info/description": 5,
        "/paths": 9, "/paths/~1pets~1{id}": 10, "/paths/~1pets~1{id}/get": 11,
        "/paths/~1pets~1{id}/get/tags": 11, "/paths/~1pets~1{id}/get/tags/0": 11, "/paths/~1pets~1{id}/get/tags/1": 11,
        "/paths/~1pets~1{id}/get/parameters": 13,
        "/paths/~1pets~1{id}/get/parameters/0": 13, "/paths/~1pets~1{id}/get/parameters/0/name": 13,
        "/paths/~1pets~1{id}/get/parameters/0/in": 14,
        "/paths/~1pets~1{id}/get/parameters/1": 15, "/paths/~1pets~1{id}/get/parameters/1/name": 15,
        "/paths/~1pets~1{id}/get/parameters/1/in": 15,
    }


def test_yaml_path_suffixes_and_empty_document():
    assert load("x.YML", b"a: 1\n") == ({"a": 1}, {"": 1, "/a": 1})
    assert load("x.yaml", b"# nothing\n") == (None, {})
    assert load("x.json", b"a: 1\n".replace(b"a: 1", b'{"a": 1}'))[0] == {"a": 1}


def test_yaml_repeated_key_and_aliases():
    text = b"base: &b\n  x: 1\nuse: *b\nmerged:\n  <<: *b\n  y: 2\nbase2: 0\nbase2: 3\n"
    value, lines = load("x.yaml", text)
    assert value == {"base": {"x": 1}, "use": {"x": 1}, "merged": {"x": 1, "y": 2}, "base2": 3}
    assert lines["/base2"] == 8  # the value the loader keeps
    assert lines["/merged/y"] == 6 and "/merged/<<" not in lines
    assert lines["/use"] == lines["/base"] == 1  # an alias is placed where its anchor is
    assert lines["/base/x"] == 2 and "/use/x" not in lines  # an anchor's values are walked once


def test_yaml_errors_give_the_line():
    with pytest.raises(DocumentError) as caught:
        load("x.yaml", b"a: 1\nb: [1, 2\nc: 3\n")
    assert caught.value.where.startswith("line ") and caught.value.where != "line 1"
    with pytest.raises(DocumentError) as caught:
        load("x.yaml", b"a: 1\n  b: 2\n")
    assert caught.value.where == "line 2"


@pytest.mark.parametrize("text", [b"a: &x [1, *x]\n", b"a: &x {b: *x}\n"])
def test_yaml_recursive_alias_is_a_document_error(text):
    with pytest.raises(DocumentError) as caught:
        load("x.yaml", text)
    assert "recursive" in caught.value.reason


def test_yaml_alias_bomb_is_refused_quickly():
    doc = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, 9):
        doc += f"n{level}: &n{level} [" + ", ".join([f"*{'a' if level == 1 else f'n{level - 1}'}"] * 10) + "]\n"
    started = time.monotonic()
    with pytest.raises(DocumentError) as caught:
        load("bomb.yaml", doc.encode())
    assert "aliases expand" in caught.value.reason
    assert time.monotonic() - started < 5
    # aliases that expand modestly are fine
    value, _ = load("ok.yaml", b"a: &a [1, 2]\nb: [*a, *a, *a]\n")
    assert value["b"] == [[1, 2]] * 3


# -- json_path ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ptr", "path"), [
    ("", "$"),
    ("/info/title", "$.info.title"),
    ("/paths/~1pets/get", "$.paths['/pets'].get"),
    ("/paths/~1pets/get/responses/200", "$.paths['/pets'].get.responses[200]"),
    ("/tools/0/name", "$.tools[0].name"),
    ("/a b/c", "$['a b'].c"),
    ("/it's", "$[\"it's\"]"),
    ("/a~0b", "$['a~b']"),
    ("/$ref", "$.$ref"),
    ("/x-api-key", "$.x-api-key"),
    ("/²", "$['²']"),
    ("/café", "$.café"),
    ("/", "$['']"),
    ("/capability/exports/text~1slugify/manifest", "$.capability.exports['text/slugify'].manifest"),
])
def test_json_path(ptr, path):
    assert json_path(ptr) == path


def test_json_path_spells_keys_like_the_schema_problems():
    # schemas.documents.json_path names the same place the same way, so problems read alike
    from schemas.documents import json_path as schema_path

    for loc, ptr in [(("capability", "exports", "text/x", "module"), "/capability/exports/text~1x/module"),
                     (("a b", 0, "c"), "/a b/0/c")]:
        assert json_path(ptr) == schema_path(loc)


def test_yaml_values_come_back_as_json_values():
    value, _ = load("a.yaml", b"responses:\n  200: ok\nwhen: 2024-01-02\nratio: .nan\nflag: true\n")
    assert value == {"responses": {"200": "ok"}, "when": "2024-01-02", "ratio": "nan", "flag": True}
    assert json.loads(json.dumps(value)) == value


def test_spans_are_the_exact_bytes_of_each_value():
    from miners.doc_lines import spans

    data = '{"a": [1, {"b": "x, y}"}],\n "c": {}, "é": "ü"}'.encode()
    got = spans("a.json", data)
    assert got["/a/1"] == b'{"b": "x, y}"}' and got["/a/1/b"] == b'"x, y}"' and got["/c"] == b"{}"
    assert got["/\u00e9"] == '"ü"'.encode() and got[""] == data
    assert spans("a.json", b'{"k": 1, "k": 22}')["/k"] == b"22"  # json keeps the last
    yaml_spans = spans("a.yaml", b"a:\n  b: [1, 2]\n  c: x\n")
    assert yaml_spans["/a/b"] == b"[1, 2]" and yaml_spans["/a/c"] == b"x"
    assert spans("a.json", b"\xff") == {} and spans("a.yaml", b"a: [") == {}
