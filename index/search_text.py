"""Text as search sees it: tokens, stems, stop words, identifiers split into words.

The tokens and stems are those of the store's FTS5 tables (`tokenize='porter'`: the unicode61
tokenizer, then the Porter stemmer), so what Python computes for a need or a result is what
SQLite indexed: `tests/test_search.py` checks the two agree word for word. Kept free of heavy
imports: `index.registry` uses it on every candidate it records.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# unicode61: a token is a run of letters and digits; everything else separates
_TOKEN = re.compile(r"[^\W_]+")
# identifiers: lowerUpper, UPPERLower and letter/digit boundaries
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# Words that carry no need: grammar, and how people phrase a request.
STOP_WORDS = frozenset([
    "a", "an", "the", "and", "or", "nor", "but", "of", "to", "in", "into", "onto", "on", "at", "by", "for", "from",
    "with", "without", "within", "via", "per", "as", "than", "then", "is", "are", "was", "were", "be", "been",
    "being", "am", "do", "does", "did", "done", "doing", "have", "has", "had", "having", "can", "could", "would",
    "should", "will", "shall", "may", "might", "must", "it", "its", "this", "that", "these", "those", "there",
    "here", "which", "what", "who", "whom", "whose", "when", "where", "why", "how", "i", "me", "my", "mine", "we",
    "us", "our", "you", "your", "yours", "he", "she", "they", "them", "their", "his", "her", "some", "any", "all",
    "each", "every", "no", "not", "only", "just", "also", "very", "so", "such", "too", "more", "most", "much",
    "many", "few", "other", "another", "same", "own", "out", "up", "down", "over", "under", "again", "further",
    "once", "both", "either", "neither", "whether", "if", "else", "while", "because", "about", "against",
    "between", "through", "during", "before", "after", "above", "below", "off", "want", "wants", "wanted", "need",
    "needs", "needed", "needing", "please", "something", "anything", "thing", "things", "way", "ways",
    "able", "let", "lets", "like",
])

_MAX_STEM = 64  # FTS5's porter leaves longer tokens (and shorter than 3) alone


def fold(text: str) -> str:
    """Lower case without diacritics, as unicode61 folds."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text).lower()
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(fold(text))


def identifier_words(text: str) -> str:
    """`readFileSync` -> `read File Sync`, `HTTPServer` -> `HTTP Server` (snake_case, dots and
    dashes already separate tokens)."""
    if text.islower():  # no capital, so no boundary (most Python names and signatures)
        return text
    return _CAMEL.sub(" ", text)


# -- the Porter stemmer, as SQLite's FTS5 `porter` tokenizer applies it -----------------------------


def _cons(w: str, i: int) -> bool:
    c = w[i]
    if c in "aeiou":
        return False
    if c == "y":
        return i == 0 or not _cons(w, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]."""
    n, i, length = 0, 0, len(stem)
    while i < length and _cons(stem, i):
        i += 1
    while i < length:
        while i < length and not _cons(stem, i):
            i += 1
        if i >= length:
            break
        n += 1
        while i < length and _cons(stem, i):
            i += 1
    return n


def _has_vowel(stem: str) -> bool:
    return any(not _cons(stem, i) for i in range(len(stem)))


def _double_cons(w: str) -> bool:
    return len(w) >= 2 and w[-1] == w[-2] and _cons(w, len(w) - 1)


def _cvc(w: str) -> bool:
    return (len(w) >= 3 and _cons(w, len(w) - 3) and not _cons(w, len(w) - 2) and _cons(w, len(w) - 1)
            and w[-1] not in "wxy")


_STEP2 = [("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
          ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
          ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
          ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log")]
_STEP3 = [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
          ("ness", "")]
_STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
          "ate", "iti", "ous", "ive", "ize"]


def _stem_uncached(w: str) -> str:
    if len(w) < 3 or len(w) > _MAX_STEM:
        return w
    # step 1a (a suffix never takes the whole word: "ies" -> "ie", as FTS5 does)
    if len(w) > 4 and w.endswith("sses") or len(w) > 3 and w.endswith("ies"):
        w = w[:-2]
    elif len(w) > 2 and w.endswith("ss"):
        pass
    elif w.endswith("s"):
        w = w[:-1]
    # step 1b
    extra = False
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith("ed") and _has_vowel(w[:-2]):
        w, extra = w[:-2], True
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        w, extra = w[:-3], True
    if extra:
        if w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _double_cons(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _measure(w) == 1 and _cvc(w):
            w += "e"
    # step 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    # step 2
    for suffix, repl in _STEP2:
        if w.endswith(suffix):
            if _measure(w[:-len(suffix)]) > 0:
                w = w[:-len(suffix)] + repl
            break
    # step 3
    for suffix, repl in _STEP3:
        if w.endswith(suffix):
            if _measure(w[:-len(suffix)]) > 0:
                w = w[:-len(suffix)] + repl
            break
    # step 4
    for suffix in _STEP4:
        if w.endswith(suffix):
            stem = w[:-len(suffix)]
            if _measure(stem) > 1 and (suffix != "ion" or stem.endswith(("s", "t"))):
                w = stem
            break
    # step 5a
    if w.endswith("e"):
        stem = w[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            w = stem
    # step 5b
    if w.endswith("ll") and _measure(w) > 1:
        w = w[:-1]
    return w


_STEMS: dict[str, str] = {}


def stem(word: str) -> str:
    """The Porter stem of one folded token (as FTS5's porter: other letters count as consonants)."""
    found = _STEMS.get(word)
    if found is None:
        if word.isascii():
            found = _stem_uncached(word)
        else:  # FTS5 stems UTF-8 bytes: a letter of two bytes is two consonants
            found = _stem_uncached(word.encode().decode("latin-1")).encode("latin-1").decode("utf-8", "replace")
        if len(_STEMS) < 200_000:
            _STEMS[word] = found
    return found


def stems(text: str) -> list[str]:
    return [stem(t) for t in tokens(text)]


def need_terms(need: str) -> list[tuple[str, str]]:
    """The need's words that carry meaning, in order and once each: (token, stem)."""
    out: dict[str, str] = {}
    for token in tokens(identifier_words(need)):
        if token in STOP_WORDS:
            continue
        s = stem(token)
        if s not in out.values():
            out[token] = s
    return list(out.items())


def normalise_need(need: str) -> str:
    """Lower case, stemmed, stop words dropped, each term once: 'Convert the CSV files to JSON'
    -> 'convert csv file json'. The same need phrased a little differently normalises the same."""
    return " ".join(s for _, s in need_terms(need))


# -- a small thesaurus of software words ----------------------------------------------------------------

# Words that name the same operation or thing in code and in requests: a need's word also finds
# these, at a lower weight (index/search.py). Kept to general software vocabulary.
SYNONYM_GROUPS = [
    "parse load read decode deserialize", "serialize dump stringify encode", "create make generate build",
    "delete remove erase unlink", "directory folder dir", "fetch download retrieve", "print echo display show",
    "color colour colorize", "validate verify check", "convert transform", "search find lookup locate",
    "unique uniq distinct dedupe deduplicate", "compare diff", "url uri", "id identifier", "text string str",
    "number numeric num", "email mail", "image picture photo img", "duration interval timespan",
    "environment env", "config configuration settings", "table tabular", "random rand", "zip archive",
    "argument arg args", "message msg", "password passwd", "authentication auth authenticate", "database db",
    "list array", "item element", "object dict dictionary", "copy clone", "merge combine", "split chunk",
    "timezone tz",
]


def _synonym_table() -> dict[str, list[tuple[str, str]]]:
    table: dict[str, list[tuple[str, str]]] = {}
    for group in SYNONYM_GROUPS:
        words = [(stem(w), w) for w in group.split()]
        for s, _ in words:
            table.setdefault(s, []).extend((o, w) for o, w in words if o != s and (o, w) not in table.get(s, ()))
    return table


_SYNONYMS: dict[str, list[tuple[str, str]]] | None = None


def synonyms(word_stem: str) -> list[tuple[str, str]]:
    """(stem, surface word) of the words that mean the same as `word_stem` in software."""
    global _SYNONYMS
    if _SYNONYMS is None:
        _SYNONYMS = _synonym_table()
    return _SYNONYMS.get(word_stem, [])


# -- what a candidate's record says, as search text ---------------------------------------------------


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _package_name(name: str) -> str:
    """`slugify@1.6.6#sha512-…` or `npm:slugify@1.6.6` -> `slugify` (integrity strings are no words)."""
    name = name.split("#", 1)[0]
    if ":" in name and not name.startswith(("http:", "https:")):
        name = name.split(":", 1)[1]
    head, at, _ = name.rpartition("@")
    return head if at and head else name


def candidate_text(ecosystem: str, name: str, kind: str, record: dict[str, Any]) -> tuple[str, str, str, str]:
    """The (name, description, package, context) columns of a candidate's search row, code names
    split into words (`readFileSync` is read File Sync, `safe_load` safe load, `Ajv.compile` Ajv compile).

    name: what the operation is called; description: what its record says it does; package: the
    package (or repository) and module it lives in; context: its kind, signature, keywords, and the
    declarations and routes its evidence cites (documentation mentions are not descriptions)."""
    declared = record.get("declared") if isinstance(record.get("declared"), dict) else {}
    title = _text(record.get("name")) or _text(record.get("export")) or _package_name(name)
    names = " ".join(dict.fromkeys(identifier_words(n) for n in (title, _text(declared.get("title"))) if n))
    description = _text(record.get("description"))
    package = " ".join(dict.fromkeys(identifier_words(p) for p in (_package_name(name), _text(record.get("module"))) if p))
    context = [kind, _text(declared.get("capability_id"))]
    for key in ("signature", "symbol", "export", "full_name"):
        value = _text(record.get(key))
        if value:
            context.append(identifier_words(value))
    for key in ("keywords", "topics"):
        words = record.get(key)
        if isinstance(words, list):
            context += [w for w in words if isinstance(w, str)]
    for item in record.get("evidence") or ():
        if isinstance(item, dict) and item.get("kind") in ("declaration", "route", "manifest", "schema"):
            context.append(identifier_words(_text(item.get("detail"))))
    return names, description, package, " ".join(dict.fromkeys(c for c in context if c))


def index_candidates(conn: Any, rows: list[tuple[int, str, str, str, str]]) -> None:
    """Write candidates' rows of `candidates_fts`, (candidate id, *candidate_text(...)) each, inside
    the caller's transaction; rows already there must go first (unindex_candidates)."""
    conn.executemany("INSERT INTO candidates_fts (rowid, name, description, package, context) VALUES (?, ?, ?, ?, ?)",
                     rows)


def unindex_candidates(conn: Any, ids: list[int]) -> None:
    conn.executemany("DELETE FROM candidates_fts WHERE rowid = ?", [(i,) for i in ids])
