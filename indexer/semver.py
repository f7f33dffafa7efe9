"""npm's version and range semantics (node-semver, default options), in pure Python.

The npm registry and every package.json speak node-semver, not bare semver 2.0: ranges have
tilde, caret, X- and hyphen forms, and a prerelease version only satisfies a range that opts in
to prereleases of that exact [major, minor, patch]. To pick the version npm would pick, we
reproduce node-semver's own algorithm as of 7.8 (checked against the copy npm bundles): a range is
desugared into comparator sets exactly as node-semver's `Range` does (`str(Range.parse("^1.2.3"))`
is node's `'>=1.2.3 <2.0.0-0'`; node writes "any" as an empty string, we write `*`), then each set
is tested with its prerelease rule.

- `Version.parse(text)`: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]; leading `v`, `=` and white
  space are accepted as npm does (node-semver's loose prefix); numbers take no leading zeros and
  stay within JavaScript's safe integers. Build metadata is kept but ignored by comparisons,
  equality and hashing (semver 2.0 precedence).
- `Range.parse(text)`: comparators `<`, `<=`, `>`, `>=`, `=` (or none), space-joined AND, `||` OR,
  hyphen ranges, X-ranges (`1.x`, `1.2.*`, `*`, empty), tilde and caret. `satisfied_by(v)`.
- `max_satisfying(versions, range_text)`: the highest version that satisfies, as given.

Not supported (node-semver options npm does not use for resolution): `loose` parsing of malformed
versions (`01.2.3`, `1.2.3beta`) and `includePrerelease`. Errors are `SemverError`, one line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from schemas.errors import CapindexError

MAX_LENGTH = 256  # node-semver refuses longer version strings
MAX_RANGE_LENGTH = 4096  # ours: far beyond real ranges, bounds the work on hostile input
MAX_SAFE_INTEGER = 2**53 - 1  # node-semver refuses larger major/minor/patch numbers

# ECMAScript white space: what node-semver's `\s` and String.prototype.trim() mean. Python's
# `\s` and str.strip() differ (they include U+001C-U+001F, not U+FEFF).
_WS = "[\t\n\x0b\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_WS_RUN = re.compile(_WS + "+")


class SemverError(CapindexError, ValueError):
    """A version or range that node-semver would refuse; str() is one line."""


def _q(text: object, limit: int = 80) -> str:
    """Untrusted text quoted for a one-line message."""
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _trim(text: str) -> str:
    return re.sub(f"^{_WS}+|{_WS}+$", "", text)


# -- node-semver's grammar (re.js), strict forms, written once as Python patterns -----------------
# Compiled with re.ASCII so `\d` means 0-9 as in JavaScript; anchored matches use fullmatch()
# because Python's `$` also matches before a trailing newline.

_NUM = r"0|[1-9]\d*"
_NONNUM = r"\d*[a-zA-Z-][a-zA-Z0-9-]*"
_MAIN = rf"({_NUM})\.({_NUM})\.({_NUM})"
_PRID = rf"(?:{_NUM}|{_NONNUM})"
_PRERELEASE = rf"(?:-({_PRID}(?:\.{_PRID})*))"
_BUILDID = r"[a-zA-Z0-9-]+"
_BUILD = rf"(?:\+({_BUILDID}(?:\.{_BUILDID})*))"
_FULLPLAIN = rf"v?{_MAIN}{_PRERELEASE}?{_BUILD}?"
_GTLT = r"((?:<|>)?=?)"
_XID = rf"{_NUM}|x|X|\*"
_XRANGEPLAIN = rf"[v={_WS[1:-1]}]*({_XID})(?:\.({_XID})(?:\.({_XID})(?:{_PRERELEASE})?{_BUILD}?)?)?"
# node-semver trims "> = 1.2.3"-style gaps with its loose version pattern; only the gap matters here
_LOOSEPLAIN = rf"[v={_WS[1:-1]}]*(?:\d+)\.(?:\d+)\.(?:\d+)(?:-?(?:\d+|{_NONNUM})(?:\.(?:\d+|{_NONNUM}))*)?{_BUILD}?"

_VERSION_RE = re.compile(rf"[v={_WS[1:-1]}]*{_MAIN}{_PRERELEASE}?{_BUILD}?", re.ASCII)
_COMPARATOR_RE = re.compile(rf"{_GTLT}{_WS}*({_FULLPLAIN})", re.ASCII)
_XRANGE_RE = re.compile(rf"{_GTLT}{_WS}*{_XRANGEPLAIN}", re.ASCII)
_TILDE_RE = re.compile(rf"(?:~>?){_XRANGEPLAIN}", re.ASCII)
_CARET_RE = re.compile(rf"\^{_XRANGEPLAIN}", re.ASCII)
_HYPHEN_RE = re.compile(rf"{_WS}*({_XRANGEPLAIN}){_WS}+-{_WS}+({_XRANGEPLAIN}){_WS}*", re.ASCII)
_COMPARATOR_TRIM_RE = re.compile(rf"({_WS}*){_GTLT}{_WS}*((?:{_LOOSEPLAIN})|(?:{_XRANGEPLAIN}))", re.ASCII)
_TILDE_TRIM_RE = re.compile(rf"({_WS}*)~>?{_WS}+", re.ASCII)
_CARET_TRIM_RE = re.compile(rf"({_WS}*)\^{_WS}+", re.ASCII)
_STAR_RE = re.compile(rf"(<|>)?=?{_WS}*\*", re.ASCII)
_BUILD_STRIP_RE = re.compile(_BUILD, re.ASCII)
_GTE0 = ">=0.0.0"
_NULL_SET = "<0.0.0-0"  # what node-semver writes for a comparator nothing satisfies


# -- versions ------------------------------------------------------------------------------------


def _prerelease_key(ids: tuple[int | str, ...]) -> tuple[tuple[int, int | str], ...]:
    # semver 2.0 §11: numeric identifiers sort numerically and below alphanumeric ones (ASCII order)
    return tuple((0, i) if isinstance(i, int) else (1, i) for i in ids)


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    major: int
    minor: int
    patch: int
    prerelease: tuple[int | str, ...] = ()
    build: tuple[str, ...] = ()  # kept for display; never part of precedence, equality or hash

    @classmethod
    def parse(cls, text: str) -> Version:
        if not isinstance(text, str):
            raise SemverError(f"invalid version {_q(text)}: not a string")
        if len(text) > MAX_LENGTH:
            raise SemverError(f"invalid version {_q(text)}: longer than {MAX_LENGTH} characters")
        m = _VERSION_RE.fullmatch(_trim(text))
        if m is None:
            raise SemverError(f"invalid version {_q(text)}: expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]")
        numbers = []
        for part, value in zip(("major", "minor", "patch"), m.group(1, 2, 3)):
            number = int(value)
            if number > MAX_SAFE_INTEGER:
                raise SemverError(f"invalid version {_q(text)}: {part} {value} is larger than {MAX_SAFE_INTEGER}")
            numbers.append(number)
        pre = tuple(int(i) if i.isdigit() else i for i in m.group(4).split(".")) if m.group(4) else ()
        build = tuple(m.group(5).split(".")) if m.group(5) else ()
        return cls(numbers[0], numbers[1], numbers[2], pre, build)

    @property
    def is_prerelease(self) -> bool:
        return bool(self.prerelease)

    def _key(self) -> tuple:
        # a release ranks above every prerelease of the same [major, minor, patch]
        pre = (1, ()) if not self.prerelease else (0, _prerelease_key(self.prerelease))
        return (self.major, self.minor, self.patch, pre)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        """node-semver's `version`: no build metadata, no prefix."""
        text = f"{self.major}.{self.minor}.{self.patch}"
        return text + "-" + ".".join(str(i) for i in self.prerelease) if self.prerelease else text


def parse_version(text: str) -> Version | None:
    """The version, or None when `text` is not one (node-semver's `valid`, as an object)."""
    try:
        return Version.parse(text)
    except SemverError:
        return None


# -- comparators and ranges ----------------------------------------------------------------------


@dataclass(frozen=True)
class Comparator:
    operator: str  # "", "<", "<=", ">", ">=" ("=" is stored as "")
    version: Version | None  # None: matches anything (node-semver's ANY)

    def test(self, version: Version) -> bool:
        if self.version is None:
            return True
        op, v = self.operator, self.version
        if op == "":
            return version == v
        if op == "<":
            return version < v
        if op == "<=":
            return version <= v
        if op == ">":
            return version > v
        return version >= v

    def __str__(self) -> str:
        return "" if self.version is None else f"{self.operator}{self.version}"


def _is_x(part: str | None) -> bool:
    return not part or part.lower() == "x" or part == "*"


def _replace_tilde(comp: str) -> str:
    m = _TILDE_RE.fullmatch(comp)
    if m is None:
        return comp
    major, minor, patch, pre = m.group(1, 2, 3, 4)
    if _is_x(major):
        return ""
    if _is_x(minor):
        return f">={major}.0.0 <{int(major) + 1}.0.0-0"
    if _is_x(patch):
        return f">={major}.{minor}.0 <{major}.{int(minor) + 1}.0-0"
    if pre:
        return f">={major}.{minor}.{patch}-{pre} <{major}.{int(minor) + 1}.0-0"
    return f">={major}.{minor}.{patch} <{major}.{int(minor) + 1}.0-0"


def _replace_caret(comp: str) -> str:
    m = _CARET_RE.fullmatch(comp)
    if m is None:
        return comp
    major, minor, patch, pre = m.group(1, 2, 3, 4)
    if _is_x(major):
        return ""
    if _is_x(minor):
        return f">={major}.0.0 <{int(major) + 1}.0.0-0"
    if _is_x(patch):
        if major == "0":
            return f">={major}.{minor}.0 <{major}.{int(minor) + 1}.0-0"
        return f">={major}.{minor}.0 <{int(major) + 1}.0.0-0"
    low = f">={major}.{minor}.{patch}" + (f"-{pre}" if pre else "")
    # caret allows changes that do not modify the left-most non-zero part
    if major == "0":
        if minor == "0":
            return f"{low} <{major}.{minor}.{int(patch) + 1}-0"
        return f"{low} <{major}.{int(minor) + 1}.0-0"
    return f"{low} <{int(major) + 1}.0.0-0"


def _replace_xrange(comp: str) -> str:
    m = _XRANGE_RE.fullmatch(comp)
    if m is None:
        return comp
    op, major, minor, patch = m.group(1, 2, 3, 4)
    if (_is_x(major) and not _is_x(minor)) or (_is_x(minor) and patch and not _is_x(patch)):
        return comp  # "*.2" or "1.x.3": a number after a wildcard means nothing (node-semver >= 7.7 refuses it)
    x_major = _is_x(major)
    x_minor = x_major or _is_x(minor)
    x_patch = x_minor or _is_x(patch)
    if op == "=" and x_patch:
        op = ""
    if x_major:
        return _NULL_SET if op in (">", "<") else "*"
    if op and x_patch:
        # a partial version after an operator: fill in zeros, then move the bound past the gap
        major_n, minor_n, patch_n = int(major), 0 if x_minor else int(minor), 0
        pre = ""
        if op == ">":
            op = ">="  # >1 means >=2.0.0, >1.2 means >=1.3.0
            if x_minor:
                major_n, minor_n = major_n + 1, 0
            else:
                minor_n += 1
        elif op == "<=":
            op = "<"  # <=0.7.x means <0.8.0-0
            if x_minor:
                major_n += 1
            else:
                minor_n += 1
        if op == "<":
            pre = "-0"  # below every prerelease of the bound too
        return f"{op}{major_n}.{minor_n}.{patch_n}{pre}"
    if x_minor:
        return f">={major}.0.0 <{int(major) + 1}.0.0-0"
    if x_patch:
        return f">={major}.{minor}.0 <{major}.{int(minor) + 1}.0-0"
    return comp


def _hyphen_replace(m: re.Match[str]) -> str:
    # groups: 1 whole "from", 2-4 its parts, 5 prerelease, 6 build; 7 whole "to", 8-10, 11, 12
    from_text, f_major, f_minor, f_patch = m.group(1, 2, 3, 4)  # a "from" prerelease stays in from_text
    to_text, t_major, t_minor, t_patch, t_pre = m.group(7, 8, 9, 10, 11)
    if _is_x(f_major):
        low = ""
    elif _is_x(f_minor):
        low = f">={f_major}.0.0"
    elif _is_x(f_patch):
        low = f">={f_major}.{f_minor}.0"
    else:
        low = f">={_trim(from_text)}"
    if _is_x(t_major):
        high = ""
    elif _is_x(t_minor):
        high = f"<{int(t_major) + 1}.0.0-0"
    elif _is_x(t_patch):
        high = f"<{t_major}.{int(t_minor) + 1}.0-0"
    elif t_pre:
        high = f"<={t_major}.{t_minor}.{t_patch}-{t_pre}"
    else:
        high = f"<={_trim(to_text)}"
    return f"{low} {high}".strip()


def _parse_comparator(text: str, whole: str) -> Comparator:
    if text == "":
        return Comparator("", None)
    m = _COMPARATOR_RE.fullmatch(text)
    if m is None:
        raise SemverError(f"invalid range {_q(whole)}: {_q(text)} is not a comparator")
    op = m.group(1)
    try:
        version = Version.parse(m.group(2))
    except SemverError as exc:
        raise SemverError(f"invalid range {_q(whole)}: {exc}") from None
    return Comparator("" if op == "=" else op, version)


def _parse_set(text: str, whole: str) -> tuple[Comparator, ...]:
    """One `||` alternative as node-semver's Range.parseRange desugars it."""
    text = _BUILD_STRIP_RE.sub("", text)  # build metadata never takes part in a comparison
    hyphen = _HYPHEN_RE.fullmatch(text)
    if hyphen is not None:
        text = _hyphen_replace(hyphen)
    text = _COMPARATOR_TRIM_RE.sub(lambda m: m.group(1) + m.group(2) + m.group(3), text)
    text = _TILDE_TRIM_RE.sub(lambda m: m.group(1) + "~", text)
    text = _CARET_TRIM_RE.sub(lambda m: m.group(1) + "^", text)
    parts: list[str] = []
    for comp in text.split(" "):
        comp = " ".join(_replace_caret(c) for c in _WS_RUN.split(_trim(comp)))
        comp = " ".join(_replace_tilde(c) for c in _WS_RUN.split(_trim(comp)))
        comp = " ".join(_replace_xrange(c) for c in _WS_RUN.split(_trim(comp)))
        comp = _STAR_RE.sub("", _trim(comp), count=1)
        parts.append(comp)
    # every comparator is parsed (an invalid one fails the range) before a null set short-cuts the rest
    parsed = [_parse_comparator("" if _trim(p) == _GTE0 else p, whole) for p in _WS_RUN.split(" ".join(parts))]
    comparators: dict[str, Comparator] = {}  # keyed by text: node-semver drops duplicates, keeps order
    for comp in parsed:
        if str(comp) == _NULL_SET:
            return (comp,)
        comparators.setdefault(str(comp), comp)
    if len(comparators) > 1:
        comparators.pop("", None)  # "any" adds nothing beside another comparator
    return tuple(comparators.values())


def _test_set(comparators: tuple[Comparator, ...], version: Version) -> bool:
    if not all(c.test(version) for c in comparators):
        return False
    if not version.prerelease:
        return True
    # A prerelease satisfies only a set that names a prerelease of the same [major, minor, patch]:
    # asking for ^1.2.3-beta.1 opts in to 1.2.3's prereleases, never to 1.9.0-alpha's.
    for c in comparators:
        v = c.version
        if v is not None and v.prerelease and (v.major, v.minor, v.patch) == (
            version.major, version.minor, version.patch
        ):
            return True
    return False


@dataclass(frozen=True)
class Range:
    raw: str
    sets: tuple[tuple[Comparator, ...], ...]  # OR of ANDs

    @classmethod
    def parse(cls, text: str) -> Range:
        if not isinstance(text, str):
            raise SemverError(f"invalid range {_q(text)}: not a string")
        if len(text) > MAX_RANGE_LENGTH:
            raise SemverError(f"invalid range {_q(text)}: longer than {MAX_RANGE_LENGTH} characters")
        raw = " ".join(p for p in _WS_RUN.split(_trim(text)) if p)
        sets = [_parse_set(_trim(alternative), text) for alternative in raw.split("||")]
        if len(sets) > 1:
            # node-semver: drop alternatives nothing satisfies (unless all are), and an "any"
            # alternative makes the whole range "any"
            useful = [s for s in sets if str(s[0]) != _NULL_SET]
            sets = useful or sets[:1]
            for s in sets:
                if len(s) == 1 and s[0].version is None:
                    sets = [s]
                    break
        return cls(raw, tuple(sets))

    def satisfied_by(self, version: Version | str) -> bool:
        """node-semver's `satisfies`: False for a string that is not a version."""
        if isinstance(version, str):
            parsed = parse_version(version)
            if parsed is None:
                return False
            version = parsed
        return any(_test_set(s, version) for s in self.sets)

    def __str__(self) -> str:
        """The desugared range as node-semver's `range.range` writes it, but `*` (not "") for any."""
        text = "||".join(" ".join(str(c) for c in s).strip() for s in self.sets)
        return text or "*"


def satisfies(version: Version | str, range_text: str) -> bool:
    """True when `version` satisfies `range_text`; SemverError when the range is invalid."""
    return Range.parse(range_text).satisfied_by(version)


def max_satisfying(versions: Iterable[str], range_text: str) -> str | None:
    """The highest of `versions` (returned as given) that satisfies the range, or None.

    Strings that are not versions are skipped, as node-semver does. Unlike node-semver, an invalid
    range raises SemverError rather than returning None: a typo must not read as "no match".
    Of versions equal in precedence (differing only in build metadata) the first one wins.
    """
    rng = Range.parse(range_text)
    best: tuple[Version, str] | None = None
    for text in versions:
        version = parse_version(text)
        if version is not None and rng.satisfied_by(version) and (best is None or best[0] < version):
            best = (version, text)
    return None if best is None else best[1]
