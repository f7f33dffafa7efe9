"""Resolution: an exact capability version in an exact package version, from an index the lock can name.

The standard's rule (reference README): the newest semantic capability version in the loaded
network, then the newest package version that contains it. Candidates are the native capabilities
a store would publish (the first-recorded content of each listed name@version, as
`index.publish` writes them), under the same filters as search: an effects ceiling (the opaque
marker passes only when allowed), substrates, executable-only and a minimum confidence.

Where the selection came from is an `IndexSource`: a store together with the URL of the index
document a host would load and that document's digest,

- `store_source`: the store's own published root index at `<base URL>/index.json`, its digest
  taken over the very text `capindex publish` would write for it (same base URL, shard size,
  generatedAt and metadata);
- `document_source`: one index document, a file or an http(s) URL fetched through the guarded
  client, ingested into a private in-memory store through the normal ingest path (so it is
  validated exactly as `capindex ingest` would). Its `federates` are not followed: to resolve over
  a federation, crawl it into a store.

`index_digest` is the reference's `sha256(stableStringify(document))`: keys sorted by UTF-16 code
units and re-inserted into a fresh JavaScript object (so integer-like keys come first in numeric
order, and a `__proto__` key disappears), then `JSON.stringify`'s number and string formatting.
"""

from __future__ import annotations

import gc
import hashlib
import io
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

import orjson

from schemas import load_schema
from schemas.ecma import pattern_matches
from schemas.errors import CapindexError

from .canonical import escape_lone_surrogates

if TYPE_CHECKING:
    from indexer.fetching import Limits

    from .store import Store

OPAQUE_EFFECTS = "custom:external.opaque-effects"
_MANIFEST = load_schema("manifest")
BUILTIN_EFFECTS = frozenset(_MANIFEST["$defs"]["effect"]["anyOf"][0]["enum"])
_CUSTOM_EFFECT = _MANIFEST["$defs"]["effect"]["anyOf"][1]["pattern"]
CAPABILITY_ID_PATTERN = _MANIFEST["properties"]["id"]["pattern"]
_ID_PART = CAPABILITY_ID_PATTERN.removeprefix("^").removesuffix("$").replace("(", "(?:")
_ID_REQUEST = re.compile(f"(?P<id>{_ID_PART})(?:@(?P<range>.*))?", re.ASCII | re.DOTALL)
NATIVE = "native"
_SUBSTRATE = re.compile(r"[a-z0-9][a-z0-9._+-]*")  # as index.search accepts them


class ResolveError(CapindexError, ValueError):
    """A request that resolves to nothing (or to something that cannot be locked); one line."""


# -- the reference's index digest ------------------------------------------------------------------

_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}", re.ASCII)
_MAX_ARRAY_INDEX = 2**32 - 2


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.fullmatch(key) is not None and int(key) <= _MAX_ARRAY_INDEX


def _js_key_order(keys: Iterable[str]) -> list[str]:
    """`Object.keys(o).sort()` re-inserted into a fresh object, as JSON.stringify then walks it:
    array-index keys ascending by value, then the rest in UTF-16 code unit order. Assigning
    `__proto__` sets the prototype instead of a property, so that key is not written."""
    ordered = sorted((k for k in keys if k != "__proto__"), key=lambda k: k.encode("utf-16-be", "surrogatepass"))
    indexes = sorted((k for k in ordered if _is_array_index(k)), key=int)
    return indexes + [k for k in ordered if not _is_array_index(k)]


def js_number(value: float) -> str:
    """Number.prototype.toString of the double JSON.parse would make of `value`."""
    if isinstance(value, int) and -(2**53) <= value <= 2**53:
        return str(value)
    try:
        x = float(value)
    except OverflowError:
        return "null"  # JSON.parse gives ±Infinity, which JSON.stringify writes as null
    if math.isnan(x) or math.isinf(x):
        return "null"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr is the shortest text that round-trips, as ECMAScript's Number::toString requires
    digits_tuple, exponent = Decimal(repr(abs(x))).as_tuple()[1:]
    digits = "".join(map(str, digits_tuple))
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    k, n = len(digits), len(digits) + exponent  # value = 0.digits × 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def _js_string(value: str) -> str:
    # json.dumps escapes exactly what JSON.stringify does (quote, backslash, \b\f\n\r\t, other
    # controls as lower-case \u00xx) except lone surrogates, which JSON.stringify writes as \udxxx
    return escape_lone_surrogates(json.dumps(value, ensure_ascii=False))


def _write_js(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_js_string(value))
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key in _js_key_order(value):
            if not first:
                out.append(",")
            first = False
            out.append(_js_string(key))
            out.append(":")
            _write_js(value[key], out)
        out.append("}")
    elif isinstance(value, list):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write_js(item, out)
        out.append("]")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif value is None:
        out.append("null")
    elif isinstance(value, (int, float)):
        out.append(js_number(value))
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def stable_stringify(value: Any) -> str:
    """The reference's stableStringify of a parsed JSON value."""
    out: list[str] = []
    _write_js(value, out)
    return "".join(out)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _plain_order(keys: list[str]) -> bool:
    """Whether sorting by code point gives the JavaScript order: no array-index keys, no
    `__proto__`, and no character outside the BMP (whose UTF-16 surrogates sort before U+E000)."""
    for key in keys:
        if key[:1].isdigit() or key == "__proto__":
            return False
        if not key.isascii() and _ASTRAL.search(key):
            return False
    return True


def _for_orjson(value: Any) -> Any:
    """`value` with every object's keys in JavaScript's order and every number that orjson would
    write otherwise than JSON.stringify (floats, integers past 2^53) as a pre-written fragment."""
    kind = type(value)
    if kind is dict:
        keys = sorted(value)
        if not _plain_order(keys):
            keys = _js_key_order(keys)
        return {k: _for_orjson(value[k]) for k in keys}
    if kind is list:
        return [_for_orjson(v) for v in value]
    if kind is float or (kind is int and not -(2**53) <= value <= 2**53):
        return orjson.Fragment(js_number(value).encode("ascii"))
    return value


def stable_stringify_bytes(value: Any) -> bytes:
    """stable_stringify as UTF-8, written by orjson (which escapes strings exactly as
    JSON.stringify does) over the value rewritten by _for_orjson; a lone surrogate, which orjson
    refuses, takes the pure Python path."""
    enabled = gc.isenabled()
    gc.disable()  # the rewrite makes many containers and no cycles
    try:
        return orjson.dumps(_for_orjson(value))
    except TypeError:
        return stable_stringify(value).encode("utf-8")
    finally:
        if enabled:
            gc.enable()


def index_digest(document: Any) -> str:
    """The lock's `index.digest` of a parsed index document: SHA-256 hex of stableStringify."""
    return hashlib.sha256(stable_stringify_bytes(document)).hexdigest()


# -- filters and requests --------------------------------------------------------------------------


def effect_problem(effect: str) -> str | None:
    if effect in BUILTIN_EFFECTS or pattern_matches(_CUSTOM_EFFECT, effect):
        return None
    return f"{effect!r} is neither a built-in effect nor custom:<namespace>"


@dataclass(frozen=True)
class Filters:
    """The search filters that apply to locking (see index.search.SearchFilters)."""

    effects_ceiling: frozenset[str] | None = None
    allow_opaque: bool = False
    substrates: frozenset[str] | None = None
    executable_only: bool = False
    min_confidence: float = 0.0

    def check(self, where: Callable[[str], str]) -> Filters:
        """Raise ResolveError for an unknown effect in the ceiling, a substrate that is no lower-case
        name (or none at all), or a confidence out of range; `where(field)` names where the
        value came from (an option, a JSON path)."""
        for effect in sorted(self.effects_ceiling or ()):
            problem = effect_problem(effect)
            if problem:
                raise ResolveError(f"{where('effects_ceiling')}: {problem}")
        if self.substrates is not None:
            bad = sorted(s for s in self.substrates if not _SUBSTRATE.fullmatch(s))
            if bad or not self.substrates:
                why = f"{bad[0]!r} is not a lower-case name such as npm, pypi or native" if bad else "empty"
                raise ResolveError(f"{where('substrates')}: {why}")
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ResolveError(f"{where('min_confidence')}: {self.min_confidence!r} is not between 0 and 1")
        return self

    def search_filters(self, limit: int) -> Any:
        from index.search import SearchFilters

        return SearchFilters(effects_ceiling=self.effects_ceiling, allow_opaque=self.allow_opaque,
                             substrates=self.substrates, executable_only=self.executable_only,
                             min_confidence=self.min_confidence, limit=limit)

    def refusal(self, candidate: Candidate) -> str | None:
        """Why `candidate` is outside these filters, or None. A native capability in a package is
        executable (it names its module) with confidence 1; it comes from the package's substrate
        (its `source`, e.g. npm) and counts as "native" and "index" too, as in search. A manifest that
        declares no `effects` is treated as opaque under a ceiling: nothing says what it does."""
        if self.substrates is not None and not self.substrates & {NATIVE, "index", candidate.package_source.lower()}:
            return f"substrate {candidate.package_source} is not among {', '.join(sorted(self.substrates))}"
        if self.effects_ceiling is None:
            return None
        opaque_ok = self.allow_opaque or OPAQUE_EFFECTS in self.effects_ceiling
        if candidate.effects is None:
            return None if opaque_ok else "declares no effects (opaque) and opaque effects are not allowed"
        outside = [e for e in candidate.effects if e not in self.effects_ceiling and e != OPAQUE_EFFECTS]
        if outside:
            return f"effects {', '.join(outside)} are outside the ceiling"
        if OPAQUE_EFFECTS in candidate.effects and not opaque_ok:
            return f"has {OPAQUE_EFFECTS} and opaque effects are not allowed"
        return None


@dataclass(frozen=True)
class Request:
    """What to resolve: a capability id (optionally @VERSION or @RANGE, npm range rules) or a need."""

    text: str
    id: str | None = None
    range: str | None = None
    need: str | None = None

    def __str__(self) -> str:
        return self.text


def parse_request(text: str, force_need: bool = False) -> Request:
    """An id when `text` is a capability id (`text/slugify`, `text/slugify@1.0.0`, `text/slugify@^1`),
    otherwise a free-text need; `force_need` reads it as a need whatever it looks like."""
    if not isinstance(text, str) or not text.strip():
        raise ResolveError("empty need: give a capability id or words describing the need")
    stripped = text.strip()
    if not force_need:
        m = _ID_REQUEST.fullmatch(stripped)
        if m:
            wanted = m.group("range")
            if wanted is not None:
                from indexer.semver import Range, SemverError

                try:
                    Range.parse(wanted)
                except SemverError as exc:
                    raise ResolveError(f"{stripped!r}: {exc}") from None
            return Request(text=stripped, id=m.group("id"), range=wanted)
    return Request(text=stripped, need=stripped)


# -- where a selection comes from ------------------------------------------------------------------


@dataclass
class IndexSource:
    store: Store
    url: str  # the index document a lock names
    digest: str  # index_digest of that document
    label: str  # for messages
    federates: list[str] = field(default_factory=list)
    owned: bool = False  # a private store, closed with the source
    unfollowed: int = 0  # federated indexes a document source does not follow

    def close(self) -> None:
        if self.owned:
            self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def published_root_index(store: Store, base_url: str, *, shard_size: int | None = None,
                         generated_at: str | None = None, metadata: dict[str, str] | None = None) -> tuple[str, str]:
    """(URL, text) of the root `index.json` that `index.publish.publish` writes for the same
    arguments, built with publish's own writer without touching the file system."""
    from schemas.ecma import is_date_time, iso_utc, parse_date_time

    from . import publish as pub

    base = pub._check_base_url(base_url)
    shard_size = pub.DEFAULT_SHARD_SIZE if shard_size is None else shard_size
    if shard_size < 1:
        raise pub.PublishError(f"--shard-size {shard_size}: must be at least 1")
    if generated_at is None:
        generated_at = pub.default_generated_at(store)
    elif not is_date_time(generated_at):
        raise pub.PublishError(f"--generated-at {generated_at!r}: not an RFC 3339 date-time")
    else:
        generated_at = iso_utc(parse_date_time(generated_at))
    total = store.conn.execute(f"SELECT COUNT(*) FROM ({pub._PUBLISHED_PACKAGES})").fetchone()[0]
    out = io.StringIO(newline="\n")
    if total <= shard_size:
        pub._write_index(out, generated_at, [], metadata or {}, pub._entries(store))
    else:
        count = (total + shard_size - 1) // shard_size
        shards = [f"{base}/{pub.SHARD_DIR}/index-{i:05d}.json" for i in range(1, count + 1)]
        pub._write_index(out, generated_at, shards, metadata or {}, iter(()))
    return f"{base}/index.json", out.getvalue()


def store_source(store: Store, base_url: str, *, shard_size: int | None = None, generated_at: str | None = None,
                 metadata: dict[str, str] | None = None) -> IndexSource:
    """The store as the root index `capindex publish --base-url BASE_URL` writes (same options)."""
    from schemas.documents import parse_json

    url, text = published_root_index(store, base_url, shard_size=shard_size, generated_at=generated_at,
                                     metadata=metadata)
    document = parse_json(text, url)
    return IndexSource(store=store, url=url, digest=index_digest(document), label=f"the store published at {url}",
                       federates=list(document.get("federates") or []))


def is_url(location: str) -> bool:
    return urlsplit(location).scheme in ("http", "https")


def document_source(location: str, index_url: str | None = None, limits: Limits | None = None) -> IndexSource:
    """One index document (file or http(s) URL) as a source; a file needs `index_url`, the
    http(s) URL it is served at, for the lock to name."""
    from schemas.documents import parse_json
    from schemas.models import http_url_problem

    from .ingest import ingest_bytes
    from .store import Store

    url = index_url or (location if is_url(location) else None)
    if url is None:
        raise ResolveError(f"{location}: a lock names its index by http(s) URL: give --index-url URL "
                           "(where this file is served)")
    problem = http_url_problem(url)
    if problem:
        raise ResolveError(f"--index-url {url!r}: {problem}")
    from indexer.fetching import read_location

    raw = read_location(location, limits)
    document = parse_json(raw, location)
    store = Store(":memory:")
    try:
        ingest_bytes(store, raw, location, expect="index", via="resolve")
    except BaseException:
        store.close()
        raise
    federates = list(document.get("federates") or [])
    return IndexSource(store=store, url=url, digest=index_digest(document), label=location, federates=federates,
                       owned=True, unfollowed=len(federates))


# -- selection -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One native capability in one published package."""

    cap_id: str
    cap_version: str
    module: str
    cap_integrity: str | None
    package_name: str
    package_version: str
    package_integrity: str | None
    package_source: str
    effects: tuple[str, ...] | None  # None: the manifest declares none
    position: int

    @property
    def label(self) -> str:
        return f"{self.cap_id}@{self.cap_version} in {self.package_name}@{self.package_version}"


# The store's published packages (index.publish._PUBLISHED_PACKAGES), tested row by row: a package
# row counts when it is listed by some source and is the first-recorded content of its name@version.
_PUBLISHED_ROW = """
    EXISTS (SELECT 1 FROM package_sightings s WHERE s.package_id = p.id)
    AND p.id = (SELECT MIN(p2.id) FROM packages p2
                WHERE p2.name = p.name AND p2.version = p.version
                  AND EXISTS (SELECT 1 FROM package_sightings s2 WHERE s2.package_id = p2.id))
"""
_CANDIDATE_COLUMNS = """
    c.cap_id, c.version, c.module, c.integrity, p.name, p.version, p.integrity, p.source,
    json_extract(p.entry, '$.capabilities[' || c.position || '].manifest.effects'), c.position
"""


def _candidate(row: tuple) -> Candidate:
    effects = tuple(json.loads(row[8])) if row[8] is not None else None
    return Candidate(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], effects, row[9])


def candidates(store: Store, cap_id: str) -> list[Candidate]:
    """Every published native capability with this id, in any version and package."""
    rows = store.conn.execute(
        f"""SELECT {_CANDIDATE_COLUMNS} FROM capabilities c JOIN packages p ON p.id = c.package_id
            WHERE c.cap_id = ? AND {_PUBLISHED_ROW}""",
        [cap_id],
    ).fetchall()
    return [_candidate(r) for r in rows]


def published_package(store: Store, name: str, version: str) -> tuple[str | None, list[Candidate]] | None:
    """(integrity, capabilities in position order) of the published name@version, or None."""
    row = store.conn.execute(
        f"SELECT p.id, p.integrity FROM packages p WHERE p.name = ? AND p.version = ? AND {_PUBLISHED_ROW}",
        [name, version],
    ).fetchone()
    if row is None:
        return None
    caps = store.conn.execute(
        f"""SELECT {_CANDIDATE_COLUMNS} FROM capabilities c JOIN packages p ON p.id = c.package_id
            WHERE p.id = ? ORDER BY c.position""",
        [row[0]],
    ).fetchall()
    return row[1], [_candidate(r) for r in caps]


def version_key(text: str) -> tuple:
    """Semantic precedence; a version that is not semver ranks below every one that is; the text
    itself breaks ties (build metadata), so the order is total."""
    from indexer.semver import parse_version

    parsed = parse_version(text)  # (0, text) and (1, Version, text) never compare their second items
    return (1, parsed, text) if parsed is not None else (0, text)


def rank(found: Iterable[Candidate]) -> list[Candidate]:
    """Best first by the standard's rule: newest capability version, then newest package version;
    then package name, then position, so the choice never depends on storage order."""
    ordered = sorted(found, key=lambda c: (c.package_name, c.position))
    ordered.sort(key=lambda c: version_key(c.package_version), reverse=True)
    ordered.sort(key=lambda c: version_key(c.cap_version), reverse=True)
    return ordered


def newer_than(a: Candidate, b: Candidate) -> bool:
    """Whether the rule ranks `a` strictly before `b` by versions alone."""
    ka, kb = version_key(a.cap_version), version_key(b.cap_version)
    if ka != kb:
        return ka > kb
    return version_key(a.package_version) > version_key(b.package_version)


def select(store: Store, cap_id: str, wanted: str | None, filters: Filters, label: str, unfollowed: int = 0) -> Candidate:
    """The capability `cap_id` (within the range `wanted`, npm rules) that the rule selects under
    `filters`; ResolveError saying why nothing qualifies."""
    found = candidates(store, cap_id)
    if not found:
        more = (f" (it federates to {unfollowed} more indexes, which --index does not follow: crawl them into a "
                "store and resolve from it)") if unfollowed else ""
        raise ResolveError(f"unknown capability id {cap_id!r}: {label} has no native capability with that id{more}")
    if wanted is not None:
        from indexer.semver import satisfies

        in_range = [c for c in found if satisfies(c.cap_version, wanted)]
        if not in_range:
            versions = ", ".join(sorted({c.cap_version for c in found}, key=version_key, reverse=True))
            raise ResolveError(f"{cap_id}@{wanted}: no version satisfies it in {label} (versions: {versions})")
        found = in_range
    refusals = []
    for candidate in rank(found):
        why = filters.refusal(candidate)
        if why is None:
            return candidate
        refusals.append(f"{candidate.label}: {why}")
    shown = "; ".join(refusals[:3]) + (f"; and {len(refusals) - 3} more" if len(refusals) > 3 else "")
    raise ResolveError(f"{cap_id}: no version fits the filters ({shown})")


@dataclass(frozen=True)
class Resolution:
    request: Request
    selection: Candidate
    search: dict[str, Any] | None = None  # the search result a need was resolved through


SEARCH_LIMIT = 50


def resolve(source: IndexSource, request: Request, filters: Filters) -> Resolution:
    """Resolve one request against `source` by the standard's rule, under `filters`."""
    if request.id is not None:
        return Resolution(request, select(source.store, request.id, request.range, filters, source.label,
                                          source.unfollowed))
    return _resolve_need(source, request, filters)


def _resolve_need(source: IndexSource, request: Request, filters: Filters) -> Resolution:
    try:
        from index import search as search_module
    except ImportError as exc:
        raise ResolveError(f"need {request.need!r}: search is not available in this capindex ({exc})") from None
    results = search_module.search(source.store, request.need, filters.search_filters(SEARCH_LIMIT))
    if not results:
        raise ResolveError(f"need {request.need!r}: nothing in {source.label} matches it under the filters")
    first_refusal: ResolveError | None = None
    for result in results:
        if result.provenance != NATIVE:
            continue
        try:
            selection = select(source.store, result.id, None, filters, source.label)
        except ResolveError as exc:  # the filters and the rule may still leave nothing for this id
            first_refusal = first_refusal or exc
            continue
        found = {"ref": result.ref, "id": result.id, "score": result.score, "provenance": result.provenance}
        return Resolution(request, selection, found)
    if first_refusal is not None:
        raise ResolveError(f"need {request.need!r}: {first_refusal}")
    best = results[0]
    raise ResolveError(
        f"need {request.need!r}: no native capability matches it; the best match, {best.ref} ({best.provenance}), "
        "is a candidate, and a candidate cannot be locked: a lock names a native capability in a package "
        "(bind or forge it into one first)"
    )
