"""JSON and YAML documents with the line of every value, so a declaration read from a document can
be opened at its source and a problem in it reported by line as well as by JSON path.

`load(path, data)` returns (value, lines) where lines maps an RFC 6901 JSON pointer ("" for the
root, "/paths/~1pets/get") to the 1-based line where that value starts. JSON is parsed by the
json module (strictly: no NaN, no duplicate-key surprises beyond the last one winning, as
json does) and then scanned once for positions; YAML is composed by PyYAML's safe loader, whose
nodes carry their marks.
"""

from __future__ import annotations

import functools
import json
import math
import re
from datetime import date, datetime
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


def ends(lines: dict[str, int], wanted: set[str]) -> dict[str, int]:
    """The last line where a value inside each wanted pointer starts (its span's end, give or take
    the closing brackets), in one pass over every pointer's ancestors."""
    out = {ptr: lines.get(ptr, 1) for ptr in wanted}
    for ptr, line in lines.items():
        while ptr:
            ptr = ptr[: ptr.rfind("/")]
            if ptr in out and line > out[ptr]:
                out[ptr] = line
    return out


def spans(path: str, data: bytes) -> dict[str, bytes]:
    """The exact bytes of each value of a JSON or YAML document, by JSON pointer (a repeated key:
    the last one, which the parsers keep); {} when the document cannot be read. A declaration's
    digest over these bytes changes whenever its text does, spacing included."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return {}
    if is_yaml(path):
        return _yaml_spans(text)
    # a repeated key: the last value wins, as in the parsers
    return {here: text[start:end].encode("utf-8", "surrogatepass") for here, _, start, end in _json_values(text)}


@functools.lru_cache(maxsize=2)
def _yaml_compose(text: str) -> Any:
    """The YAML document's node tree (safe loader). Kept for the last texts: a reader's load and the
    exact spans of its declarations (declared_scan) read the same file one after the other."""
    import yaml

    return yaml.compose(text, Loader=yaml.SafeLoader)


def _yaml_spans(text: str) -> dict[str, bytes]:
    import yaml

    try:
        root = _yaml_compose(text)
    except (yaml.YAMLError, RecursionError):
        return {}
    out: dict[str, bytes] = {}
    stack = [(root, "")] if root is not None else []
    seen: set[int] = set()
    while stack:
        node, here = stack.pop()
        out[here] = text[node.start_mark.index:node.end_mark.index].encode("utf-8", "surrogatepass")
        if id(node) in seen:  # an alias: its anchor's text, walked once
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack += [(value, pointer(here, key.value)) for key, value in node.value]
        elif isinstance(node, yaml.SequenceNode):
            stack += [(value, pointer(here, index)) for index, value in enumerate(node.value)]
    return out


DATA_FILE = re.compile(r"\.(json|ya?ml)$", re.IGNORECASE)


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
    return value, _json_lines(text, value)


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


@functools.lru_cache(maxsize=2)
def _json_values(text: str) -> list[list[Any]]:
    """[pointer, line, start, end] of each value of a valid JSON text, in order (one scan over its
    tokens; start and end are character offsets). Kept for the last texts, as _yaml_compose is;
    callers only read it."""
    out: list[list[Any]] = []
    stack: list[list[Any]] = []  # [kind, pointer, next index or pending key, the container's entry]
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
            stack.pop()[3][3] = match.end()
            expect_key = False  # `{}` ends with a key still expected
            continue
        if expect_key:  # an object's key
            stack[-1][2] = json.loads(tok)
            expect_key = False
            continue
        if not stack:
            here = ""
        else:
            here = pointer(stack[-1][1], stack[-1][2])
            if stack[-1][0] == "[":
                stack[-1][2] += 1
        entry = [here, line, match.start(), match.end()]
        out.append(entry)
        if tok in "{[":
            stack.append([tok, here, 0 if tok == "[" else None, entry])
            expect_key = tok == "{"
    return out


def _json_lines(text: str, value: Any) -> dict[str, int]:
    """The line of each value of a valid JSON text, by JSON pointer."""
    lines: dict[str, int] = {}
    repeated = False
    for here, line, _, _ in _json_values(text):
        repeated = repeated or here in lines
        lines[here] = line  # a repeated key: json keeps the last value, so its line wins too
    if repeated:  # drop what only an overridden value had (one pass, however many keys repeat)
        kept = set(_pointers(value))
        lines = {ptr: n for ptr, n in lines.items() if ptr in kept}
    return lines


def _pointers(value: Any) -> list[str]:
    out, todo = [], [("", value)]
    while todo:
        here, item = todo.pop()
        out.append(here)
        if isinstance(item, dict):
            todo += [(pointer(here, k), v) for k, v in item.items()]
        elif isinstance(item, list):
            todo += [(pointer(here, i), v) for i, v in enumerate(item)]
    return out


# Aliases may expand a small file into an exponential value ("billion laughs"); past this many values,
# and ten times the file's own, the document is refused rather than handed to callers that walk it.
MAX_EXPANDED_VALUES = 1_000_000


def _load_yaml(text: str) -> tuple[Any, dict[str, int]]:
    import yaml

    try:
        node = _yaml_compose(text)
        if node is not None:
            _check_aliases(node)
        # values built from the one composed tree (safe constructors only): no second parse
        value = yaml.SafeLoader("").construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark is not None else "line 1"
        raise DocumentError(where, f"{exc.problem or exc.context}") from None
    except (yaml.YAMLError, RecursionError) as exc:
        raise DocumentError("line 1", str(exc).splitlines()[0] if str(exc) else "nested too deeply") from None
    lines: dict[str, int] = {}
    if node is not None:
        _yaml_lines(node, "", lines, set())
    return json_values(value), lines


def json_values(value: Any) -> Any:
    """YAML's values as JSON's, so digests and metadata stay JSON: keys as strings (`200:` is an
    int in YAML), dates as ISO text, NaN and infinity as text."""
    if isinstance(value, dict):
        return {str(k): json_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_values(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return str(value)


def _check_aliases(root: Any) -> None:
    """DocumentError for an alias inside its own anchor (a value JSON cannot hold) or aliases that
    expand past MAX_EXPANDED_VALUES."""
    sizes: dict[int, int] = {}  # id(node) -> values it expands to
    open_nodes: set[int] = set()

    def size(node: Any) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise DocumentError(f"line {node.start_mark.line + 1}", "an alias refers to its own anchor (recursive)")
        open_nodes.add(key)
        total = 1
        if isinstance(node.value, list):  # sequence items, or mapping (key, value) pairs
            for item in node.value:
                total += sum(size(n) for n in item) if isinstance(item, tuple) else size(item)
        open_nodes.discard(key)
        sizes[key] = total
        return total

    expanded = size(root)
    if expanded > MAX_EXPANDED_VALUES and expanded > 10 * len(sizes):
        raise DocumentError("line 1", f"aliases expand the document to {expanded} values")


def _yaml_lines(node: Any, here: str, lines: dict[str, int], walked: set[int]) -> None:
    import yaml

    lines[here] = node.start_mark.line + 1
    if id(node) in walked:  # an alias: its anchor's values were placed where the anchor is
        return
    walked.add(id(node))
    if isinstance(node, yaml.MappingNode):
        members = {key.value: value for key, value in node.value if key.tag != "tag:yaml.org,2002:merge"}
        for key, value in members.items():  # a repeated key keeps its last value, as the loader does
            _yaml_lines(value, pointer(here, key), lines, walked)
    elif isinstance(node, yaml.SequenceNode):
        for index, value in enumerate(node.value):
            _yaml_lines(value, pointer(here, index), lines, walked)
