"""Search: the capabilities and candidates that may satisfy a need, ranked, each saying why.

Two kinds of thing can answer a need: native capabilities (rows of `capabilities`, declared by a
manifest in an index, executable through a host) and candidates (rows of `candidates`: operations
mined from code, operations declared by other formats, registry search results; executable only
once bound to an exact artifact, a row of `bindings` naming the candidate). Both are full-text
indexed with FTS5 (`capabilities_fts`, filled by ingestion; `candidates_fts`, filled by
`registry.record_candidate`), with the same porter tokenizer.

A search runs in two stages, so its cost does not grow with the store:

1. **Retrieval, bounded.** The need's words (stop words dropped, stemmed as FTS5 stems; each also
   standing for its agent noun, "parse" for "parser", and in code names for its synonyms,
   search_text.SYNONYM_GROUPS, and the longer words it begins, "slug" for "slugify") are counted in
   each index with a capped count (at most DF_CAP postings read; past that, the document frequency
   is extrapolated from how far into the rowids the cap was reached). Each index is asked for
   every word at once (AND); only when that finds few rows (FALLBACK_BELOW of the pool), for the
   rarest words in any combination (OR, the common ones left out once their postings would exceed
   OR_BUDGET). A query that matches at most RANK_CAP rows is ordered by FTS5's BM25 with column
   weights (`ORDER BY bm25(...) LIMIT pool`); one with more is narrowed to the short, telling
   columns (id, name, tags; a candidate's name), and when even that matches more than RANK_CAP
   rows (or would take more than NARROW_SCAN matches to find out) its first `pool` rows are taken
   unranked. FTS5 computes BM25 for every row it orders, so this bound is what keeps a common
   word from costing 100 ms at a million capabilities.
2. **Re-ranking, in Python, of the POOL rows each index retrieved.** Each is scored with BM25F over
   its fields (id, name, description, tags for a capability; name, description, package,
   context and what the registry said of its package for a candidate) with the need's document
   frequencies summed over both indexes, so a capability and a candidate are scored on one scale;
   normalised to [0, 1) by the need's total IDF and multiplied by a soft AND (0.5 + 0.5 x the share
   of the need's IDF the row covers). That relevance is blended with the result's strength, what
   it is and how well it is evidenced: a native capability 1.0, a bound candidate 0.9, a declared
   one 0.5 + 0.3 x confidence, a mined one 0.2 + 0.5 x confidence, a registry search result 0.2,
   an unbound candidate's times its prominence (a class, a method, a private name, an exception, an
   internal symbol count less than a public top-level operation). `score = relevance x (1 - w + w
   x strength)`, w = STRENGTH_WEIGHT: at equal relevance a native capability or a bound candidate
   ranks above an unbound guess; a guess that fits the need much better can still come first. The
   same operation found in several files is one result, and a capability id shows once.

Every result says what it is (kind, provenance, bound, executable, effects, confidence, package)
and why it matched (`matched`: field -> the need's words found there). Filters (effects ceiling,
kinds, substrates, executable only, minimum confidence) apply to the re-ranked rows; when they
leave fewer than `limit`, retrieval is widened and run again (up to WIDEN times).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from schemas.errors import CapindexError

from .search_text import _package_name as package_name
from .search_text import need_terms, normalise_need, stem, synonyms, tokens

if TYPE_CHECKING:
    from .store import Store

__all__ = ["CLASSES", "OPAQUE", "SearchError", "SearchFilters", "SearchResult", "normalise_need", "search"]

OPAQUE = "custom:external.opaque-effects"
CLASSES = ("native", "declared", "mined", "discovered")
EXTRA_CANDIDATE_KINDS = ("search-result", "legacy-export")

DF_CAP = 2_000  # postings read at most to count one word in one index
RANK_CAP = 1_500  # rows FTS5 may BM25-order in one query (about 2-4 us each), capabilities
RANK_CAP_CANDIDATES = 2_500  # candidates: a code name says less, so their prose is worth ordering
NARROW_SCAN = 20_000  # matches a column filter may scan (it reads every match's positions)
OR_BUDGET = 6_000  # postings an OR fallback may cover, rarest words first
WIDEN = 2  # times retrieval is widened (x4) when filters leave too few results
POOL, POOL_PER_RESULT = 50, 5  # rows each index hands the re-ranker: max(POOL, POOL_PER_RESULT x limit)
FALLBACK_BELOW = 0.4  # the OR fallback runs when AND found fewer than this share of the pool
VARIANT_WEIGHT = 0.6  # a variant ("parser" for "parse") counts this much of the word itself
PREFIX_WEIGHT = 0.5  # a longer code word it begins ("slugify" for "slug") counts this much
SYNONYM_WEIGHT = 0.5  # a word of the same meaning (search_text.SYNONYM_GROUPS: "load" for "parse")
K1 = 1.2
B = 0.6
STRENGTH_WEIGHT = 0.5  # score = relevance x (1 - w + w x strength)


class SearchError(CapindexError, ValueError):
    """A need or filter search cannot use; str() is one line."""


@dataclass(frozen=True)
class SearchFilters:
    effects_ceiling: frozenset[str] | None = None  # exclude whatever may need more
    allow_opaque: bool = False  # custom:external.opaque-effects exceeds every ceiling unless allowed
    kinds: frozenset[str] | None = None  # classes (native, declared, mined, discovered) and/or candidate kinds
    substrates: frozenset[str] | None = None  # npm, pypi, git, index, ... (where it comes from)
    executable_only: bool = False  # only native capabilities / bound candidates
    min_confidence: float = 0.0
    limit: int = 10


@dataclass
class SearchResult:
    """What a result is and why it matched."""

    ref: str  # "capability:<cap_id>@<version>" or "candidate:<candidates.id>"
    id: str
    name: str
    description: str
    kind: str  # "native", or "<provenance> <candidate kind>" (e.g. "mined function")
    provenance: str  # native, declared, mined, discovered
    bound: bool
    executable: bool
    effects: list[str]
    confidence: float
    score: float
    matched: dict[str, list[str]]  # field -> the need's words that matched there
    package: dict | None  # name, version, source
    record: dict  # the stored manifest or candidate record
    relevance: float = 0.0  # BM25F over the fields, normalised to [0, 1)
    strength: float = 0.0  # what it is and how well evidenced, [0, 1]
    substrate: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def why(self) -> str:
        """One line: the fields and the need's words that matched there."""
        return "; ".join(f"{f}: {', '.join(words)}" for f, words in self.matched.items())


# -- checking the request -----------------------------------------------------------------------------


def _effect_rules() -> tuple[frozenset[str], str]:
    from schemas import load_schema

    effect = load_schema("manifest")["$defs"]["effect"]["anyOf"]
    return frozenset(effect[0]["enum"]), effect[1]["pattern"]


def candidate_kinds() -> tuple[str, ...]:
    from schemas import load_schema

    return (*load_schema("candidate")["properties"]["kind"]["enum"], *EXTRA_CANDIDATE_KINDS)


_SUBSTRATE = re.compile(r"[a-z0-9][a-z0-9._+-]*")


def check_request(need: str, filters: SearchFilters) -> list[tuple[str, str]]:
    """The need's terms; SearchError for an empty need, an unknown effect, a bad kind or substrate."""
    if not isinstance(need, str) or not need.strip():
        raise SearchError("need: empty; say what the software should do, e.g. \"parse csv files\"")
    terms = need_terms(need)
    if not terms:
        raise SearchError(f"need {need.strip()!r}: nothing to search for once stop words and punctuation are dropped")
    if filters.effects_ceiling is not None:
        from schemas.ecma import pattern_matches

        builtin, custom = _effect_rules()
        for effect in sorted(filters.effects_ceiling):
            if effect not in builtin and not (isinstance(effect, str) and pattern_matches(custom, effect)):
                raise SearchError(f"effects ceiling: unknown effect {effect!r} (built-in: {', '.join(sorted(builtin))}; "
                                  "or custom:<namespace>)")
    if filters.kinds is not None:
        known = (*CLASSES, *candidate_kinds())
        bad = sorted(k for k in filters.kinds if k not in known)
        if bad:
            raise SearchError(f"kind {bad[0]!r}: unknown (known: {', '.join(known)})")
        if not filters.kinds:
            raise SearchError("kinds: empty set; give at least one kind, or none to allow all")
    if filters.substrates is not None:
        bad = sorted(s for s in filters.substrates if not isinstance(s, str) or not _SUBSTRATE.fullmatch(s))
        if bad:
            raise SearchError(f"substrate {bad[0]!r}: expected a lower-case name such as npm, pypi, git or index")
        if not filters.substrates:
            raise SearchError("substrates: empty set; give at least one substrate, or none to allow all")
    if not 0.0 <= filters.min_confidence <= 1.0:
        raise SearchError(f"min confidence {filters.min_confidence}: must be between 0 and 1")
    if not 1 <= filters.limit <= 1000:
        raise SearchError(f"limit {filters.limit}: must be between 1 and 1000")
    return terms


# -- the need's terms ---------------------------------------------------------------------------------


@dataclass
class Term:
    word: str  # as the need spelled it (folded)
    stem: str
    stems: dict[str, float]  # stems that count, with their weight (1.0 the word, less a variant)
    forms: list[str]  # surface words whose porter stems are `stems` (for MATCH)
    df: dict[str, int] = field(default_factory=dict)  # per index (estimated past DF_CAP)
    idf: float = 0.0
    synonyms: frozenset[str] = frozenset()  # which of `stems` are synonyms

    @property
    def prefix(self) -> bool:
        """Whether longer words that begin with this stem count too, in code names (`slug` finds
        `slugify`, `uniq` `uniqBy`): a stem of 4+ letters."""
        return len(self.stem) >= 4 and self.stem.isalpha()

    def expression(self, code: bool = False) -> str:
        """The FTS5 query for this term: in code names (`code`), longer words it begins and its
        synonyms too; in manifests, the word and its variants (their prose says what they do)."""
        pairs = [(s, f) for s, f in zip(self.stems, self.forms) if code or s not in self.synonyms]
        if code and self.prefix:
            forms = [f'"{self.word}"*', *(f'"{f}"' for s, f in pairs if not s.startswith(self.stem))]
        else:
            forms = [f'"{f}"' for _, f in pairs]
        return "(" + " OR ".join(forms) + ")" if len(forms) > 1 else forms[0]

    def weight(self, stem: str, prefix: bool) -> float:
        found = self.stems.get(stem)
        if found is not None:
            return found
        return PREFIX_WEIGHT if prefix and self.prefix and stem.startswith(self.stem) else 0.0


def _variants(word: str, base: str) -> dict[str, str]:
    """Agent nouns and their verbs, which the Porter stemmer keeps apart: parse/parser,
    compress/compressor, lint/linter. {stem: a surface form that stems to it}."""
    out: dict[str, str] = {}
    if len(base) < 3 or not base.isalpha():
        return out
    if base.endswith(("er", "or")):
        if len(base) >= 6:
            root = base[:-2]
            for form in (root + "e", root, root + "ing"):
                if stem(form) == root:
                    out[root] = form
                    break
        return out
    suffixes = ["er"] if base[-1] not in "aeiouy" else []
    if base.endswith(("ss", "it")):  # compressor, processor, editor (not react/reactor)
        suffixes.append("or")
    for suffix in suffixes:
        form = base + suffix
        if stem(form) == form:
            out[form] = form
    return out


def make_terms(pairs: list[tuple[str, str]]) -> list[Term]:
    terms = []
    for word, base in pairs:
        found = {base: (1.0, word)}
        for s, form in _variants(word, base).items():
            found.setdefault(s, (VARIANT_WEIGHT, form))
        alike = set()
        for s, form in synonyms(base):
            if s not in found:
                found[s] = (SYNONYM_WEIGHT, form)
                alike.add(s)
        terms.append(Term(word, base, {s: w for s, (w, _) in found.items()}, [f for _, f in found.values()],
                          synonyms=frozenset(alike)))
    return terms


# -- the two indexes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Index:
    name: str  # which rows: "native" or "candidates"
    fts: str
    columns: tuple[str, ...]  # as in the FTS5 table, in order
    labels: tuple[str, ...]  # how `matched` names them
    weights: tuple[float, ...]  # BM25 column weights (FTS5 and Python alike)
    title: tuple[str, ...]  # the short, telling columns a common word is narrowed to
    rows: str  # the table whose max(id) bounds the rowids
    default_lengths: tuple[float, ...]
    prefix: bool  # code names: a word also matches longer words it begins

    @property
    def rank_cap(self) -> int:
        return RANK_CAP_CANDIDATES if self.prefix else RANK_CAP


NATIVE = Index("native", "capabilities_fts", ("cap_id", "name", "description", "tags"),
               ("id", "name", "description", "tags"), (2.0, 3.0, 1.0, 2.0), ("cap_id", "name", "tags"),
               "capabilities", (3.0, 3.0, 14.0, 3.0), False)
# candidates: the four FTS5 columns, then what the registry says of the package (re-ranking only)
CANDIDATES = Index("candidates", "candidates_fts", ("name", "description", "package", "context"),
                   ("name", "description", "package", "context", "package description"), (2.5, 1.5, 1.5, 0.5, 0.5),
                   ("name",), "candidates", (3.0, 10.0, 4.0, 12.0, 10.0), True)


def _varint(data: bytes, i: int) -> tuple[int, int]:
    """SQLite's varint (as FTS5 stores its averages record)."""
    value = 0
    for n in range(9):
        byte = data[i + n]
        if n == 8:
            return (value << 8) | byte, i + 9
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, i + n + 1
    return value, i + 9


class Stats:
    """Rows and average field lengths of one FTS5 index, read from its averages record."""

    def __init__(self, conn: sqlite3.Connection, index: Index):
        self.rows = 0
        self.lengths = list(index.default_lengths)
        self.max_rowid = conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {index.rows}").fetchone()[0]
        try:
            row = conn.execute(f"SELECT block FROM {index.fts}_data WHERE id = 1").fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row and row[0]:
            try:
                data, i = row[0], 0
                self.rows, i = _varint(data, i)
                totals = []
                for _ in index.columns:
                    total, i = _varint(data, i)
                    totals.append(total)
                if self.rows:
                    self.lengths = [max(1.0, t / self.rows) for t in totals] + self.lengths[len(totals):]
            except IndexError:
                pass


# -- retrieval ----------------------------------------------------------------------------------------


class Retriever:
    def __init__(self, conn: sqlite3.Connection, index: Index, terms: list[Term]):
        self.conn = conn
        self.index = index
        self.terms = terms
        self.stats = Stats(conn, index)
        weights = ", ".join(str(w) for w in index.weights[:len(index.columns)])
        self._ranked = (f"SELECT rowid, bm25({index.fts}, {weights}) AS s FROM {index.fts} "
                        f"WHERE {index.fts} MATCH ? ORDER BY s LIMIT ?")
        self._unranked = f"SELECT rowid FROM {index.fts} WHERE {index.fts} MATCH ? LIMIT ?"
        self._count = (f"SELECT count(*), max(rowid) FROM (SELECT rowid FROM {index.fts} "
                       f"WHERE {index.fts} MATCH ? LIMIT ?)")
        self.truncated = False  # a query matched more rows than were taken

    def count(self, expression: str, cap: int) -> tuple[int, int]:
        n, last = self.conn.execute(self._count, [expression, cap]).fetchone()
        return n, last or 0

    def document_frequencies(self) -> None:
        for term in self.terms:
            n, last = self.count(term.expression(self.index.prefix), DF_CAP)
            if n >= DF_CAP and last:  # extrapolate: the rowids are spread evenly enough
                n = int(n * max(1.0, self.stats.max_rowid / last))
            term.df[self.index.name] = n

    def _stage(self, expression: str, pool: int, found: dict[int, float]) -> None:
        cap = self.index.rank_cap
        n, last = self.count(expression, cap + 1)
        if n == 0:
            return
        if n <= cap:
            rows = self.conn.execute(self._ranked, [expression, pool]).fetchall()
            self.truncated = self.truncated or n > pool
        else:
            # too many to order: narrow to where the words name the thing (id, name, tags)
            self.truncated = True
            narrowed = "{" + " ".join(self.index.title) + "} : (" + expression + ")"
            estimate = n * self.stats.max_rowid / last if last else n
            m = cap + 1 if estimate > NARROW_SCAN else self.count(narrowed, cap + 1)[0]
            if m > cap:  # still too many (words common everywhere): the first ones, unranked
                rows = [(rowid, 0.0) for (rowid,) in self.conn.execute(self._unranked, [narrowed, pool])]
            else:
                rows = self.conn.execute(self._ranked, [narrowed, pool]).fetchall()
        for rowid, bm25 in rows:
            if rowid not in found:
                found[rowid] = -bm25

    def retrieve(self, pool: int) -> dict[int, float]:
        present = sorted((t for t in self.terms if t.df.get(self.index.name)), key=lambda t: t.df[self.index.name])
        found: dict[int, float] = {}
        if not present:
            return found
        prefix = self.index.prefix
        self._stage(" AND ".join(t.expression(prefix) for t in present), pool, found)
        if len(present) > 1 and len(found) >= pool * FALLBACK_BELOW:
            self.truncated = True  # partial matches were not asked for: a widened search asks
        elif len(present) > 1:
            chosen, total = [], 0
            for term in present:
                df = term.df[self.index.name]
                if not chosen or total + df <= OR_BUDGET:
                    chosen.append(term)
                    total += df
            self._stage(" OR ".join(t.expression(prefix) for t in chosen), pool, found)
            rest = [t for t in present if t not in chosen]
            if rest and len(found) < pool:  # the common words, where they name the thing
                narrowed = "{" + " ".join(self.index.title) + "} : (" + " OR ".join(t.expression(prefix) for t in rest) + ")"
                self._stage(narrowed, pool, found)
        return found


# -- re-ranking ---------------------------------------------------------------------------------------


@dataclass
class Row:
    index: Index
    rowid: int
    fields: tuple[str, ...]
    relevance: float = 0.0
    matched: dict[str, list[str]] = field(default_factory=dict)
    strength: float = 0.0
    score: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)


class Matcher:
    """Which of the need's terms a stem counts for, and how much: built once per search."""

    def __init__(self, terms: list[Term]):
        self.terms = terms
        self.exact: dict[str, list[tuple[int, float]]] = {}
        for i, term in enumerate(terms):
            for s, w in term.stems.items():
                self.exact.setdefault(s, []).append((i, w))
        self.prefixes = [(i, t.stem) for i, t in enumerate(terms) if t.prefix]
        self.total_idf = sum(t.idf for t in terms) or 1.0

    def relevance(self, row: Row, lengths: list[float]) -> None:
        """BM25F over the row's fields, normalised by the need's total IDF, times a soft AND
        (0.5 + 0.5 x the share of the need's IDF the row covers)."""
        index, terms, exact = row.index, self.terms, self.exact
        prefixes = self.prefixes if index.prefix else ()
        accumulated = [0.0] * len(terms)
        matched: dict[str, list[str]] = {}
        for column, text in enumerate(row.fields):
            if not text:
                continue
            words = tokens(text)
            if not words:
                continue
            hits: dict[int, float] = {}
            for word in words:
                s = stem(word)
                found = exact.get(s)
                if found:
                    for i, w in found:
                        hits[i] = hits.get(i, 0.0) + w
                for i, p in prefixes:
                    if s.startswith(p) and s not in terms[i].stems:
                        hits[i] = hits.get(i, 0.0) + PREFIX_WEIGHT
            if not hits:
                continue
            scale = index.weights[column] / (1 - B + B * len(words) / lengths[column])
            label = index.labels[column]
            for i in sorted(hits):
                accumulated[i] += scale * hits[i]
                matched.setdefault(label, []).append(terms[i].word)
        bm25f = sum(t.idf * a / (K1 + a) for t, a in zip(terms, accumulated)) / self.total_idf
        coverage = sum(t.idf for t, a in zip(terms, accumulated) if a) / self.total_idf
        row.relevance = bm25f * (0.5 + 0.5 * coverage)
        row.matched = matched


# how likely a kind of candidate is the operation someone means, rather than a piece of one
KIND_PROMINENCE = {"class": 0.85, "method": 0.7, "mcp-resource": 0.85, "search-result": 0.8}


def prominence(kind: str | None, name: str, record: dict[str, Any]) -> float:
    """1.0 for a public top-level operation; less for a class, a method, a private name, or what the
    miner found internal."""
    value = KIND_PROMINENCE.get(kind or "", 1.0)
    last = name.rsplit(".", 1)[-1]
    if name.startswith("_") or last.startswith("_"):
        value *= 0.6
    if _RAISED.search(last):  # an exception or warning is raised, not called
        value *= 0.5
    if record.get("visibility") == "internal":
        value *= 0.5
    return value


_RAISED = re.compile(r"(Error|Exception|Warning)$")


def strength(provenance: str, bound: bool, confidence: float, prominence: float = 1.0) -> float:
    """What a result is and how well it is evidenced, in [0, 1]."""
    if provenance == "native":
        return 1.0
    if bound:
        return 0.9
    if provenance == "declared":
        return (0.5 + 0.3 * confidence) * prominence
    if provenance == "mined":
        return (0.2 + 0.5 * confidence) * prominence
    return 0.2 * prominence


# -- reading the rows ---------------------------------------------------------------------------------


def _in(ids: list[int]) -> str:
    return ",".join(str(int(i)) for i in ids)


def _native_rows(conn: sqlite3.Connection, ids: list[int], with_packages: bool) -> list[Row]:
    """The capabilities' rows; their packages only when a filter needs them (else for the results
    shown: a package row is a page of its own, and its entry a big one)."""
    out = []
    for cid, cap_id, version, name, description, tags, effects, package_id in conn.execute(
        f"""SELECT id, cap_id, version, name, description, tags, effects, package_id FROM capabilities
            WHERE id IN ({_in(ids)})"""
    ):
        row = Row(NATIVE, cid, (cap_id, name, description, tags))
        try:
            declared = json.loads(effects)
        except ValueError:
            declared = None
        # a manifest that declares no effects says nothing of them: opaque, as the lock resolver has it
        effect_list = [e for e in declared if isinstance(e, str)] if isinstance(declared, list) else [OPAQUE]
        row.data = {"cap_id": cap_id, "version": version, "name": name, "description": description,
                    "effects": sorted(set(effect_list)), "package": None, "package_id": package_id,
                    "provenance": "native", "kind": None, "bound": False, "confidence": 1.0, "substrates": set()}
        out.append(row)
    if with_packages:
        _add_packages(conn, out)
    return out


def _add_packages(conn: sqlite3.Connection, rows: list[Row]) -> None:
    todo = {row.data["package_id"] for row in rows if row.index is NATIVE and row.data["package"] is None}
    if not todo:
        return
    packages = {pid: {"name": name, "version": version, "source": source} for pid, name, version, source in conn.execute(
        f"SELECT id, name, version, source FROM packages WHERE id IN ({_in(sorted(todo))})")}
    for row in rows:
        if row.index is NATIVE and row.data["package"] is None:
            package = packages.get(row.data["package_id"]) or {"name": None, "version": None, "source": "index"}
            row.data["package"] = package
            row.data["substrates"] = {"index", "native", str(package["source"]).lower()}


def _candidate_confidence(record: dict[str, Any], provenance: str) -> float:
    value = record.get("confidence")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    return 0.3 if provenance == "discovered" else 0.5


def _provenance(ecosystem: str, kind: str, record: dict[str, Any]) -> str:
    value = record.get("provenance")
    if value in ("mined", "declared"):
        return value
    if kind == "legacy-export" or ecosystem.startswith("declared:"):
        return "declared"
    if ecosystem.startswith("mined:"):
        return "mined"
    return "discovered"


def _substrate(ecosystem: str) -> str:
    return ecosystem.split(":", 1)[1] if ecosystem.startswith(("mined:", "declared:")) else ecosystem


def _candidate_rows(conn: sqlite3.Connection, ids: list[int]) -> list[Row]:
    texts = {rowid: (name, description, package, context) for rowid, name, description, package, context in conn.execute(
        f"SELECT rowid, name, description, package, context FROM candidates_fts WHERE rowid IN ({_in(ids)})")}
    rows = conn.execute(f"SELECT id, ecosystem, name, version, kind, key, record FROM candidates WHERE id IN ({_in(ids)})"
                        ).fetchall()
    keys = {}
    for cid, _, _, _, _, key, text in rows:
        keys[str(cid)] = cid
        keys[f"candidate:{cid}"] = cid
        keys[key] = cid
    bound: dict[int, list[str]] = {}
    if keys:
        marks = ",".join("?" for _ in keys)
        for candidate, binding in conn.execute(
                f"SELECT candidate, binding FROM bindings WHERE candidate IN ({marks})", list(keys)):
            effects: list[str] = []
            try:
                authority = json.loads(binding).get("authority") or {}
                effects = [e for e in authority.get("effects") or () if isinstance(e, str)]
            except (ValueError, AttributeError):
                pass
            bound.setdefault(keys[candidate], []).extend(effects)
    out = []
    for cid, ecosystem, name, version, kind, key, text in rows:
        try:
            record = json.loads(text)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        provenance = _provenance(ecosystem, kind, record)
        authority = record.get("authority") if isinstance(record.get("authority"), dict) else {}
        effects = {e for e in (record.get("effects") or ()) if isinstance(e, str)}
        effects |= {e for e in (authority.get("effects") or ()) if isinstance(e, str)}
        if authority.get("complete") is not True:
            effects.add(OPAQUE)  # what a candidate does not prove stays opaque
        if cid in bound:
            effects |= set(bound[cid])
        substrate = _substrate(ecosystem)
        pname = package_name(name)
        pversion = version
        if "@" in name.split("#", 1)[0] and not pversion:
            pversion = name.split("#", 1)[0].rsplit("@", 1)[1] or None
        ident = record.get("id") if isinstance(record.get("id"), str) else key
        title = record.get("name") if isinstance(record.get("name"), str) else (record.get("export") or pname)
        description = record.get("description") if isinstance(record.get("description"), str) else ""
        row = Row(CANDIDATES, cid, (*texts.get(cid, ("", "", "", "")), ""))
        row.data = {"id": ident, "name": str(title), "description": description, "effects": sorted(effects),
                    "package": {"name": pname, "version": pversion, "source": ecosystem},
                    "provenance": provenance, "kind": kind, "bound": cid in bound,
                    "confidence": _candidate_confidence(record, provenance), "substrates": {substrate.lower()},
                    "record": record, "ecosystem": ecosystem}
        out.append(row)
    _add_package_descriptions(conn, out)
    return out


def _add_package_descriptions(conn: sqlite3.Connection, rows: list[Row]) -> None:
    """What the registry said of each candidate's package release (npm's description and keywords,
    PyPI's summary), recorded when the package was fetched or crawled: a field for re-ranking."""
    wanted: dict[tuple[str, str, str], list[Row]] = {}
    for row in rows:
        package = row.data["package"]
        ecosystem = _substrate(row.data["ecosystem"])
        if package["name"] and package["version"] and ecosystem in ("npm", "pypi"):
            wanted.setdefault((ecosystem, package["name"], package["version"]), []).append(row)
    if not wanted:
        return
    values = ",".join("(?, ?, ?)" for _ in wanted)
    try:
        found = conn.execute(
            f"""SELECT r.ecosystem, r.name, r.version, r.record FROM (VALUES {values}) AS k
                JOIN registry_releases r ON r.ecosystem = k.column1 AND r.name = k.column2 AND r.version = k.column3
                ORDER BY r.id""", [v for key in wanted for v in key]).fetchall()
    except sqlite3.DatabaseError:
        return
    for ecosystem, name, version, text in found:
        targets = wanted.pop((ecosystem, name, version), None)
        if not targets:
            continue
        try:
            release = json.loads(text)
        except ValueError:
            continue
        words = [release.get("description"), release.get("summary")]
        words += [k for k in release.get("keywords") or () if isinstance(k, str)] \
            if isinstance(release.get("keywords"), list) else []
        about = " ".join(w for w in words if isinstance(w, str))
        for row in targets:
            row.fields = (*row.fields[:4], about)


# -- filters ------------------------------------------------------------------------------------------


def _passes(row: Row, filters: SearchFilters, classes: frozenset[str], kinds: frozenset[str]) -> bool:
    d = row.data
    native = d["provenance"] == "native"
    if filters.kinds is not None:
        if native:
            if "native" not in classes:
                return False
        else:
            wanted_classes = classes - {"native"}
            if wanted_classes and d["provenance"] not in wanted_classes:
                return False
            if kinds and d["kind"] not in kinds:
                return False
            if not wanted_classes and not kinds:
                return False
    if filters.substrates is not None and not d["substrates"] & filters.substrates:
        return False
    if filters.executable_only and not (native or d["bound"]):
        return False
    if d["confidence"] < filters.min_confidence:
        return False
    if filters.effects_ceiling is not None:
        ceiling = filters.effects_ceiling
        allow_opaque = filters.allow_opaque or OPAQUE in ceiling
        for effect in d["effects"]:
            if effect == OPAQUE:
                if not allow_opaque:
                    return False
            elif effect not in ceiling:
                return False
    return True


# -- search -------------------------------------------------------------------------------------------


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [name]).fetchone() is not None


def search(store: Store, need: str, filters: SearchFilters = SearchFilters()) -> list[SearchResult]:
    """The results that best satisfy `need` under `filters`, best first (at most `filters.limit`)."""
    pairs = check_request(need, filters)
    terms = make_terms(pairs)
    conn = store.conn
    classes = frozenset(k for k in filters.kinds or () if k in CLASSES)
    kinds = frozenset(k for k in filters.kinds or () if k not in CLASSES)
    want_native = filters.kinds is None or "native" in classes
    want_candidates = (filters.kinds is None or bool(classes - {"native"}) or bool(kinds)) \
        and _has_table(conn, "candidates_fts")
    indexes = [i for i, wanted in ((NATIVE, want_native), (CANDIDATES, want_candidates)) if wanted]
    retrievers = [Retriever(conn, index, terms) for index in indexes]
    for r in retrievers:
        r.document_frequencies()
    total_rows = sum(r.stats.rows or r.stats.max_rowid for r in retrievers) or 1
    for term in terms:
        df = sum(term.df.values())
        term.idf = math.log(1 + (total_rows - df + 0.5) / (df + 0.5))
    pool = max(POOL, POOL_PER_RESULT * filters.limit)
    results: list[Row] = []
    for attempt in range(WIDEN + 1):
        rows: list[Row] = []
        for r in retrievers:
            r.truncated = False
            found = r.retrieve(pool)
            if not found:
                continue
            ids = sorted(found)
            rows += _native_rows(conn, ids, filters.substrates is not None) if r.index is NATIVE \
                else _candidate_rows(conn, ids)
        lengths = {r.index.name: r.stats.lengths for r in retrievers}
        matcher = Matcher(terms)
        results = []
        for row in rows:
            if not _passes(row, filters, classes, kinds):
                continue
            matcher.relevance(row, lengths[row.index.name])
            if row.relevance <= 0:
                continue
            d = row.data
            row.strength = strength(d["provenance"], d["bound"], d["confidence"],
                                    prominence(d["kind"], d["name"], d.get("record") or {}))
            row.score = row.relevance * (1 - STRENGTH_WEIGHT + STRENGTH_WEIGHT * row.strength)
            results.append(row)
        results = _collapse(results)
        if len(results) >= filters.limit or not any(r.truncated for r in retrievers):
            break
        pool *= 4
    results.sort(key=lambda r: (-r.score, -r.strength, r.index.name, r.rowid))
    shown = results[: filters.limit]
    _add_packages(conn, shown)
    natives = [row.rowid for row in shown if row.index is NATIVE]
    manifests = {cid: text for cid, text in conn.execute(
        f"SELECT id, manifest FROM capability_manifests WHERE id IN ({_in(natives)})")} if natives else {}
    return [_result(row, manifests.get(row.rowid)) for row in shown]


def _version_key(version: str) -> Any:
    from indexer.semver import parse_version

    parsed = parse_version(version)
    return (1, parsed) if parsed is not None else (0, version)


def _collapse(rows: list[Row]) -> list[Row]:
    """One row per native capability id (the best scored, then the newest version), and one per
    candidate operation (the same package, kind and name found in several files, a .js and its .d.ts)."""
    best: dict[tuple, Row] = {}
    for row in rows:
        d = row.data
        if row.index is NATIVE:
            key: tuple = ("native", d["cap_id"])
            rank: tuple = (row.score, _version_key(d["version"]))
        else:
            key = ("candidate", d["ecosystem"], d["package"]["name"], d["package"]["version"], d["kind"], d["name"])
            rank = (row.score, -row.rowid)
        kept = best.get(key)
        if kept is None or rank > kept.data["_rank"]:
            d["_rank"] = rank
            best[key] = row
    return list(best.values())


def _result(row: Row, manifest: str | None = None) -> SearchResult:
    d = row.data
    if row.index is NATIVE:
        record = json.loads(manifest) if manifest else {}
        return SearchResult(
            ref=f"capability:{d['cap_id']}@{d['version']}", id=d["cap_id"], name=d["name"], description=d["description"],
            kind="native", provenance="native", bound=False, executable=True, effects=d["effects"], confidence=1.0,
            score=round(row.score, 4), matched=row.matched, package=d["package"], record=record,
            relevance=round(row.relevance, 4), strength=row.strength, substrate=d["package"]["source"],
        )
    return SearchResult(
        ref=f"candidate:{row.rowid}", id=d["id"], name=d["name"], description=d["description"],
        kind=f"{d['provenance']} {d['kind']}", provenance=d["provenance"], bound=d["bound"], executable=d["bound"],
        effects=d["effects"], confidence=d["confidence"], score=round(row.score, 4), matched=row.matched,
        package=d["package"], record=d["record"], relevance=round(row.relevance, 4), strength=round(row.strength, 4),
        substrate=next(iter(d["substrates"])),
    )
