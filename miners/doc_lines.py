"""JSON and YAML documents with the line of every value, so a declaration read from a document can
be opened at its source and a problem in it reported by line as well as by JSON path.

`load(path, data)` returns (value, lines) where lines maps an RFC 6901 JSON pointer ("" for the
root, "/paths/~1pets/get") to the 1-based line where that value starts. JSON is parsed by the
json module (strictly: no NaN, no duplicate-key surprises beyond the last one winning, as
json does) and then scanned once for positions; YAML is composed by PyYAML's safe loader, whose
nodes carry their marks.
"""

from __future__ import annotations

import json
import re
from typing import Any


class DocumentError(ValueError):
    """The document cannot be parsed: `where` is "line N" and the message says why."""

    def __init__(self, where: str, reason: str):
        super().__init__(f"{where}: {reason}")
        self.where, self.reason = where, reason


def pointer(parent: str, key: str | int) -> str:
    return f"{parent}/{str(key).replace('~', '~0').replace('/', '~1')}"


def json_path(ptr: str) -> str:
    """"/paths/~1pets/get" -> "$.paths['/pets'].get": how problems name a place in a document."""
    out = "$"
    for raw in ptr.split("/")[1:] if ptr else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if re.fullmatch(r"[0-9]+", part):  # str.isdigit() would also take "²"
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_$][\w$-]*", part):
            out += f".{part}"
        else:  # quoted as schemas.documents.json_path quotes, so both kinds of problem read alike
            out += "[" + repr(part) + "]"
    return out


def is_yaml(path: str) -> bool:
    return path.lower().endswith((".yaml", ".yml"))


def load(path: str, data: bytes) -> tuple[Any, dict[str, int]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = exc.object.count(b"\n", 0, exc.start) + 1  # exc.object: the bytes after any BOM
        raise DocumentError(f"line {line}", f"not UTF-8 (byte {exc.start})") from None
    return _load_yaml(text) if is_yaml(path) else _load_json(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _load_json(text: str) -> tuple[Any, dict[str, int]]:
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise DocumentError(f"line {exc.lineno}", exc.msg) from None
    except RecursionError:
        raise DocumentError("line 1", "nested too deeply") from None
    except ValueError as exc:  # NaN, Infinity or -Infinity (_reject_constant)
        raise DocumentError(f"line {_constant_line(text)}", str(exc)) from None
    return value, _json_lines(text)


def _constant_line(text: str) -> int:
    """The line of the first bare NaN/Infinity: the text before it parsed, so its tokens are sound."""
    line = 1
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok == "\n":
            line += 1
        elif tok.startswith(("NaN", "Infinity", "-Infinity")):
            return line
    return 1


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\],:]|\n|[^\s{}\[\],:"]+')


def _json_lines(text: str) -> dict[str, int]:
    """The line of each value of a valid JSON text, by JSON pointer (one scan over its tokens)."""
    lines: dict[str, int] = {}
    stack: list[list[Any]] = []  # [kind, pointer, next index or pending key]
    line = 1
    expect_key = False
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok == "\n":
            line += 1
            continue
        if tok in ",:":
            if tok == "," and stack and stack[-1][0] == "{":
                expect_key = True
            continue
        if tok in "]}":
            stack.pop()
            expect_key = False  # `{}` ends with a key still expected
            continue
        if expect_key:  # an object's key
            stack[-1][2] = json.loads(tok)
            expect_key = False
            continue
        if not stack:
            here = ""
        elif stack[-1][0] == "{":
            here = pointer(stack[-1][1], stack[-1][2])
        else:
            here = pointer(stack[-1][1], stack[-1][2])
            stack[-1][2] += 1
        if here in lines:  # a repeated key: json keeps the last value, so its lines replace the first's
            _forget(lines, here)
        lines[here] = line
        if tok in "{[":
            stack.append([tok, here, 0 if tok == "[" else None])
            expect_key = tok == "{"
    return lines


def _forget(lines: dict[str, int], here: str) -> None:
    """Drop `here` and every pointer under it (rare: only a repeated key gets here)."""
    prefix = here + "/"
    for ptr in [p for p in lines if p == here or p.startswith(prefix)]:
        del lines[ptr]


def _load_yaml(text: str) -> tuple[Any, dict[str, int]]:
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        value = yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506 - SafeLoader: no object construction
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark is not None else "line 1"
        raise DocumentError(where, f"{exc.problem or exc.context}") from None
    except (yaml.YAMLError, RecursionError) as exc:
        raise DocumentError("line 1", str(exc).splitlines()[0] if str(exc) else "nested too deeply") from None
    lines: dict[str, int] = {}
    if node is not None:
        _yaml_lines(node, "", lines)
    return value, lines


def _yaml_lines(node: Any, here: str, lines: dict[str, int]) -> None:
    import yaml

    lines.setdefault(here, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _yaml_lines(value, pointer(here, key.value), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, value in enumerate(node.value):
            _yaml_lines(value, pointer(here, index), lines)
