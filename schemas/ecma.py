"""ECMAScript semantics for JSON Schema `pattern` and `format`, in Python.

The reference implementation validates in JavaScript. Python's `re` differs on
details that decide real cases: `$` also matches before a trailing newline,
`\\d` matches every Unicode digit, and `\\s` is a different whitespace set. We
translate each pattern once so Python answers exactly as an ECMAScript engine.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re

# ECMAScript WhiteSpace and LineTerminator code points (what `\s` and trim() mean).
_ECMA_SPACE = "\\t\\n\\x0b\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_IN_CLASS = {"d": "0-9", "s": _ECMA_SPACE, "w": "A-Za-z0-9_"}


def _translate(pattern: str) -> str:
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            low = nxt.lower()
            if low in _IN_CLASS:
                body = _IN_CLASS[low]
                if in_class:
                    if nxt.isupper():  # a negated shorthand inside a class has no simple spelling
                        raise ValueError(f"unsupported pattern construct \\{nxt} inside a class: {pattern}")
                    out.append(body)
                else:
                    out.append(("[^" if nxt.isupper() else "[") + body + "]")
            else:
                out.append(ch + nxt)
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            # a literal ']' right after '[' or '[^' belongs to the class
            if pattern[i:i + 1] == "^":
                out.append("^")
                i += 1
            continue
        elif ch == "$":
            out.append("\\Z")
            i += 1
            continue
        elif ch == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(_translate(pattern))


def pattern_matches(pattern: str, value: str) -> bool:
    """True when `value` matches `pattern` as `new RegExp(pattern, "u").test(value)` would."""
    return compile_pattern(pattern).search(value) is not None


_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))"
)


def is_date_time(value: str) -> bool:
    """RFC 3339 `date-time`, as JSON Schema's format defines it (calendar-checked)."""
    m = _DATE_TIME.fullmatch(value)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(m.group(k)) for k in range(1, 7))
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    if hour > 23 or minute > 59 or second > 60:  # 60: a leap second
        return False
    offset = 0
    if m.group(9) is not None:
        if int(m.group(9)) > 23 or int(m.group(10)) > 59:
            return False
        offset = (int(m.group(9)) * 60 + int(m.group(10))) * (-1 if m.group(8)[0] == "-" else 1)
    # a leap second only ends the last minute of a UTC day (JSON-Schema-Test-Suite, ajv-formats)
    if second == 60 and (hour * 60 + minute - offset) % 1440 != 23 * 60 + 59:
        return False
    return True


def parse_date_time(value: str) -> _dt.datetime:
    """Parse a value `is_date_time` accepted into an aware UTC datetime."""
    text = value.upper().replace("Z", "+00:00")
    if text[17:19] == "60":  # a leap second: datetime has none, so use the second before it
        text = text[:17] + "59" + text[19:]
    moment = _dt.datetime.fromisoformat(text)
    try:
        return moment.astimezone(_dt.timezone.utc)
    except OverflowError:  # 0001-01-01T00:00:00+01:00 is before datetime.min in UTC: clamp
        return (_dt.datetime.min if moment.year == 1 else _dt.datetime.max).replace(tzinfo=_dt.timezone.utc)


# RFC 3986 URI: a scheme, then only characters a URI may hold, and well-formed %-escapes.
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*")


def is_uri(value: str) -> bool:
    """RFC 3986 absolute `uri` (a fragment allowed), as JSON Schema's format defines it."""
    if _URI.fullmatch(value) is None:
        return False
    # '#' may appear once; '[' and ']' only around an IP literal host
    rest = value.split(":", 1)[1]
    if rest.count("#") > 1:
        return False
    if "[" in rest or "]" in rest:
        return re.match(r"//([^/?#@]*@)?\[[0-9A-Fa-f:.vV]+\](:[0-9]*)?([/?#]|$)", rest) is not None and rest.count("[") == 1
    return True


def utc_now() -> str:
    """Now as JavaScript's toISOString() writes it: millisecond precision, 'Z'."""
    return iso_utc(_dt.datetime.now(_dt.timezone.utc))


def iso_utc(moment: _dt.datetime) -> str:
    m = moment.astimezone(_dt.timezone.utc)
    # by hand: strftime("%Y") drops the zero padding of years before 1000 on glibc
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}.{m.microsecond // 1000:03d}Z"
