"""Read one top-level JSON object from a file, streaming the members of one array member.

An index can list hundreds of thousands of packages. Parsing it whole would hold the text
and every object at once; here each array item is parsed (by the C scanner) and handed to
the caller before the next is read, so memory stays at one chunk plus one item.
"""

from __future__ import annotations

import codecs
import io
import json
import re
from collections.abc import Iterator
from typing import IO, Any

from .errors import DocumentError

_WS = re.compile(r"[ \t\n\r]*")
_CHUNK = 1 << 20


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Reader:
    def __init__(self, fp: IO[bytes], where: str, chunk_size: int):
        self.fp = fp
        self.chunk_size = chunk_size
        self.where = where
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.scan = json.JSONDecoder(parse_constant=_reject_constant).raw_decode
        self.buf = ""
        self.pos = 0
        self.consumed = 0  # characters dropped from the front of buf, for error positions
        self.eof = False
        self.first = True

    def fail(self, why: str) -> DocumentError:
        return DocumentError(self.where, [f"$: not JSON ({why} at character {self.consumed + self.pos})"])

    def fill(self, at_least: int = 0) -> None:
        data = self.fp.read(max(at_least, self.chunk_size))
        try:
            text = self.utf8.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise DocumentError(self.where, [f"$: not UTF-8 text ({exc.reason})"]) from None
        if self.first and text:
            self.first = False
            if text.startswith("\ufeff"):  # json.loads(bytes) tolerates a UTF-8 BOM too
                text = text[1:]
        self.consumed += self.pos
        self.buf = self.buf[self.pos:] + text
        self.pos = 0
        self.eof = not data

    def skip_ws(self) -> str:
        """The next significant character ('' at the end of the input)."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if self.eof:
                return ""
            self.fill()

    def expect(self, chars: str) -> str:
        ch = self.skip_ws()
        if not ch or ch not in chars:
            raise self.fail(f"expected {' or '.join(repr(c) for c in chars)}")
        self.pos += 1
        return ch

    def value(self) -> Any:
        self.skip_ws()
        while True:
            try:
                obj, end = self.scan(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self.eof:
                    raise self.fail(exc.msg) from None
                self.fill(len(self.buf) - self.pos)  # maybe just cut short: read as much again
                continue
            except RecursionError:
                raise DocumentError(self.where, ["$: JSON is nested too deeply"]) from None
            except ValueError as exc:
                raise DocumentError(self.where, [f"$: not JSON ({exc})"]) from None
            if end == len(self.buf) and not self.eof:  # a number may go on in the next chunk
                self.fill()
                continue
            self.pos = end
            return obj


def stream_object(fp: IO[bytes], where: str, array_key: str, chunk_size: int = _CHUNK) -> Iterator[tuple[str, Any]]:
    """Yield ('item', value) for each item of the top-level member `array_key` (when it is an
    array), ('restart', None) when that key appears again (JSON keeps the last), and finally
    ('object', members) with every other member, and `array_key` mapped to [] if it was streamed.
    """
    r = _Reader(fp, where, chunk_size)
    members: dict[str, Any] = {}
    streamed = False
    if r.skip_ws() != "{":
        value = r.value()  # not an object: parse it whole for the caller's error message
        if r.skip_ws():
            raise r.fail("extra data")
        yield "object", value
        return
    r.pos += 1
    if r.skip_ws() == "}":
        r.pos += 1
    else:
        while True:
            key = r.value()
            if not isinstance(key, str):
                raise r.fail("expected a property name")
            r.expect(":")
            if key == array_key and r.skip_ws() == "[":
                if streamed:
                    yield "restart", None
                streamed = True
                r.pos += 1
                if r.skip_ws() == "]":
                    r.pos += 1
                else:
                    while True:
                        yield "item", r.value()
                        if r.expect(",]") == "]":
                            break
                members[key] = []
            else:
                if key == array_key and streamed:
                    yield "restart", None
                    streamed = False
                members[key] = r.value()
            if r.expect(",}") == "}":
                break
    if r.skip_ws():
        raise r.fail("extra data after the document")
    yield "object", members


def object_events(raw: bytes, where: str, array_key: str) -> Iterator[tuple[str, Any]]:
    """stream_object() over a document held in memory: the same events and results, parsed in one
    call of the same scanner (about a third faster). Whatever that call refuses takes
    stream_object's path, which words the error the same way for every document."""
    try:
        value = _DECODER.decode(raw.decode("utf-8").removeprefix("\ufeff"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, too deep: as stream_object says
        value = None
    if not isinstance(value, dict):
        yield from stream_object(io.BytesIO(raw), where, array_key)
        return
    items = value.get(array_key)
    if isinstance(items, list):
        for item in items:
            yield "item", item
        value[array_key] = []
    yield "object", value


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
