"""HTTP routes a package serves and its documentation names: `/api/v1/query` in a README's
endpoint table, `curl http://localhost:6800/schedule.json` in its usage section, `/rawhide/pkg/kernel`
as an example of `/{branch}/pkg/{package}`.

A route the code registers and the documentation names is one endpoint seen twice: the route
gains the line that names it as evidence, and the confidence of two independent sources. What
prose leaves out stays public: shipped docs often name a few examples of a larger API (httpbin's
README, glances' docs name 5 and 4 of the 50 and 38 its full docs list).

An endpoint list is another thing: lines that each begin with a method and a path (`### GET
/jobs/:id`, `- `POST /api/servers/:name/start` - Start server`, `| DELETE | /items/{id} |`,
`.. http:get:: /users`). Once such a list is shown to be this server's (most of its entries are
routes the code serves), it is the package's declared HTTP surface, as a shipped OpenAPI
document is (miners/declared_routes.py): a route it does not list, under that method, and that no
other line of the documentation names, is still reported, as internal. A changelog's lines are
history, not a list of what is served, and do not make one.

Paths are matched whatever the method, so a table that puts the method in another column, or
gives none, still names its routes; a parameter matches any one segment; a path the docs write
under a prefix the code does not know (mounted at run time) matches by its end.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

from .assets import ASSET
from .declared_routes import UNDECLARED, declared, route_key, served_paths

# a server written as a URL's start, `https://api.example.com`, `localhost:8000`
SERVER = r"(?:https?://[^/\s`'\"<>()]+|\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?)"
# a path in prose, a table, a code span or a URL; it stops where prose ends one
# (a host may be written without its scheme: `my-site.com/stripe/checkout/`, or be a shell variable
# holding the base URL: `curl -X POST $BASE/devices/batt-1/connect`, `${API}/x`)
_PATH = re.compile(r"(?:" + SERVER +
                   r"|(?<![\w$])\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"
                   r"|(?<![\w.~/\\@-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?|(?<![\w.~/\\-]))"
                   r"(/[A-Za-z0-9_{}<>:.~@$+=!*%,\-/\[\]]{0,300})")
_FOREIGN_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "pypi.org", "npmjs.com",
                            "www.npmjs.com", "registry.npmjs.org", "img.shields.io", "badge.fury.io",
                            "codecov.io", "coveralls.io", "travis-ci.org", "travis-ci.com", "ci.appveyor.com"})
_FOREIGN_SUFFIXES = (".githubusercontent.com", ".shields.io", ".readthedocs.io", ".pythonhosted.org")
_MAX_TOKENS = 5000  # distinct paths read from the documentation at most
DOCUMENTED_AND_SERVED = 0.9
_METHOD = r"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)"
# methods one after another, `GET/POST`, `GET, PUT`, `` `GET`/`POST` ``: each serves the path alike
_METHODS = _METHOD + r"(?:(?:[`*_]{0,3}[ \t]*[/|,][ \t]*[`*_]{0,3}|[ \t]+)" + _METHOD + r")*"
# a space (after a colon, maybe: `POST: /register/`), or the next cell of a table
_SEP = r"[`*_]{0,3}:?(?:[ \t]+|[ \t]*\|[ \t]*)[`*_]{0,3}"
# a path written without its leading slash, ending a code span (`keystore/cert`, `logout`)
_RELATIVE_PATH = r"[A-Za-z_][\w.-]*(?:/[^\s`]*)?`"
# a table's row opening with a cell of methods (`| GET |`, `| `GET`, `PATCH` |`)
_METHOD_CELL = r"^[ \t]*\|[ \t]*[`*_]{0,3}" + _METHODS + r"[`*_]{0,3}[ \t]*\|"
# a line that begins (after a heading's, a bullet's, a number's or a table's mark) with a method and a path
_ENTRY = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,3}[.)][ \t]+|\|[ \t]*)?[`*_]{0,3}"
                    + _METHODS + _SEP
                    + r"/|^[ \t]*\.\.[ \t]+http:(?:get|post|put|patch|delete|head|options)::[ \t]+/"
                    + r"|^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,3}[.)][ \t]+|\|[ \t]*)?`" + _METHOD
                    + r"[ \t]+(?!" + _METHOD + r"\b)" + _RELATIVE_PATH
                    + r"|" + _METHOD_CELL + r"[ \t]*`(?=" + _RELATIVE_PATH + ")",
                    re.MULTILINE)
# a code span, where an entry begins, of a method and a path written without its leading slash
# (`GET keystore/cert`, `POST logout`: relative to where the app is mounted)
_RELATIVE = re.compile(r"(`" + _METHOD + r"[ \t]+)(?!" + _METHOD + r"\b)(?=" + _RELATIVE_PATH + ")")
# a table's method cell, then a cell of code spans of such paths (`| GET | `groups/{id}/` |`,
# `| `POST` | `token/refresh/`, `logout/` |`: a reusable app's table, relative to its include)
_RELATIVE_CELL = re.compile("(" + _METHOD_CELL + r")(?P<cell>[^|\n]*)")
_RELATIVE_SPAN = re.compile(r"`(?!" + _METHOD + r"\b)(?=" + _RELATIVE_PATH + ")")
# a path with one set of alternatives, `/services/{id}/{start,shutdown,stop}/`, `/assistants/{id}/{schemas|graph}`
_ALTERNATIVES = re.compile(r"(/[^\s`'\"()|*,{]*(?:\{\w+\}[^\s`'\"()|*,{]*)*)\{(\w+(?:,\w+)+|\w+(?:\|\w+)+)\}"
                           r"([^\s`'\"()|*,]*)")
# the mark between two methods each in its own code span
_JOINED = re.compile(_METHOD + r"`[ \t]*([/|,])[ \t]*`(?=" + _METHOD + r"[`\s])")  # (`GET`/`POST /x` too)
# a path with an optional part, `/api/keys[/{id}]`
_OPTIONAL = re.compile(r"(/[^\s`'\"()|*,\[]*)\[(/[^\]\s]*)\]([^\s`'\"()|*,\[]*)")
# the same in parentheses, closing the path: `/v1/institutional/fiscal-year(/resolve)`
_OPTIONAL_END = re.compile(r"(/[^\s`'\"()|*,\[]*[^\s`'\"()|*,\[/])\((/[\w{}.:-]+(?:/[\w{}.:-]+)*)\)(?=[\s`|]|$)")
# a path whose last segment has siblings after middle dots, `/auth/login · register`
_SIBLINGS = re.compile(r"(/[^\s`'\"()|*,·]*/)([\w{}.-]+)((?:[ \t]*·[ \t]*[\w{}.-]+)+)")
# methods one after another with spaces around their marks, `GET / PATCH / DELETE` (the mark is no path)
_SPACED_MARK = re.compile(r"\b" + _METHOD + r"[ \t]+([/|,])[ \t]+(?=" + _METHOD + r"\b)")
# a path followed by single segments in code spans of their own, `/api/tasks/{id}/enable` `/disable`
# `/run`: siblings of its last segment (and, as written, paths of their own)
# a path, then ` | /segment`s: siblings of its last segment
_BAR_SIBLINGS = re.compile(r"(/(?:[^\s`'\"()|*,]*/)?)([^\s`/'\"()|*,]+)((?:[ \t]*\|[ \t]*/[\w{}.:-]+(?=[\s`|]|$))+)")
_SEGMENT_SIBLINGS = re.compile(r"(/[^\s`'\"()|*,]*/)([^\s`/'\"()|*,]+)`((?:[ \t]+`/[^\s`/'\"()|*,]+`)+)")
# a path written after an ellipsis, `…/reject/`: the rest of a path the row gave before
_ELIDED = re.compile(r"(?:…|\.\.\.)(/[^\s`'\"()|*,]*)")
# a table's row that gives the path first and the method in a later cell (`| `/health` | GET | ... |`)
_PATH_FIRST = re.compile(r"^[ \t]*\|[ \t]*[`*_]{0,3}/[^|\n]*(?:\|[^|\n]*)??\|[ \t]*[`*_]{0,3}" + _METHODS
                         + r"[`*_]{0,3}[ \t]*\|", re.MULTILINE)
# on an entry's line, a method, or a path: one without a method of its own has the last ones
# (`| `GET /api/kpis`, `/api/alerts` | ... |`)
_PAIR = re.compile(r"\b" + _METHOD + r"\b|\bhttp:([a-z]+)::"
                   r"|(?:https?://[^/\s`'\"<>()|]+|(?<![\w.~/\\-]))(/[^\s`'\"()|*,]*)")
# a heading that is a method, alone or with a word for what its section lists (`## GET Endpoints`):
# the lines of its section that begin with a path are entries of that method
_METHOD_HEADING = re.compile(r"^(#{1,6})[ \t]+[`*_]{0,3}" + _METHOD + r"[`*_]{0,3}"
                             r"(?:[ \t]+(?i:endpoints?|routes?|requests?|methods?|apis?))?[ \t]*$", re.MULTILINE)
# a heading (its level), and a line that begins with a path (where the path begins)
_HEADING_OR_PATH = re.compile(r"^(?:(#{1,6})[ \t]+|[ \t]*(?:[-*+][ \t]+|\|[ \t]*)?)[`*_]{0,3}(/)?", re.MULTILINE)
_MENTION = re.compile(r"\b" + _METHOD + r"[`*_]{0,3}[ \t]+[`*_]{0,3}(/[^\s`'\"()|*,]*)")  # `POST /endpoints`
# a table's header cell over a column of paths, and over one of methods
_PATH_COLUMNS = frozenset({"path", "paths", "url", "urls", "uri", "endpoint", "endpoints", "route", "routes"})
_METHOD_COLUMNS = frozenset({"method", "methods", "verb", "http method", "http verb"})
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
# a heading that says its section lists endpoints, and the lines that head or underline one
_LIST_TITLE = re.compile(r"(?i)\b(?:end[- ]?points?|routes?|urls?)\b")
_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*)$")
_RST_RULE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}[ \t]*$")
_BULLET = re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+")
_MENTION_METHOD = re.compile(r"\b" + _METHOD + r"\b")
# a changelog, release notes, a version history (`rest_api_version_history.rst`): history, not a list of what is served
HISTORY = re.compile(r"(?:^|/|[^/]*[._-])(?:change(?:s|log)|history|news|releases?)(?:[._-][^/]*)?$", re.IGNORECASE)
# the root, named as a path: `/` in a code span or alone in a table's cell (a server's address in
# an example names the server, not its root page)
_ROOT = re.compile(r"`/`|\|[ \t]*/[ \t]*\|")
MIN_LISTED = 3  # entries that make a list, not a mention
_MORE = re.compile(r"(?im)^\s*(?:\|\s*`?(?:\.\.\.|…)`?\s*\||[-*]\s*(?:\.\.\.|…)\s*$)"
                   r"|\b\d+\+?\s+more\s+(?:routes|endpoints)\b|\band\s+(?:many\s+)?more\s+(?:routes|endpoints)\b")
# a list that names fewer than one in this many of the routes the code serves is a selection
# (chimera-api's README names 8 of its 481), not a statement of the surface
SELECTION = 20
OPENAPI_OMITS = UNDECLARED.partition("{")[0]
UNLISTED = "served, but not among the endpoints the documentation lists ({paths})"
# FastAPI's /docs, /redoc, /openapi.json: the framework's pages about the API; public when the docs name one
FRAMEWORK_PAGE = "served by the framework itself ({}): a page about the API, not one of its operations"
# what keeps a served route internal until the documentation names it
_UNTIL_NAMED = (FRAMEWORK_PAGE.partition("(")[0], ASSET)


def documented_paths(texts: list[tuple[str, str]], skip: AbstractSet[tuple[str, int]] = frozenset(),
                     files: Callable[[str], bool] | None = None) -> dict[str, tuple[str, int]]:
    """{path as the documentation writes it (without a trailing slash or punctuation): (file, line)},
    from every line but those in `skip`, of the files `files` accepts (default: all). In a table's
    row, the first path may be a prefix column (`| Coqui | `/coqui` | `GET /api/tts` |`): the
    row's later paths are also named under it. Each file is read once per `texts` (the
    documented-mount, linking and listing passes all ask)."""
    out: dict[str, tuple[str, int]] = {}
    for path, named in _named_by_file(texts):
        if files is not None and not files(path):
            continue
        for name, line in named:
            if name not in out and (path, line) not in skip:
                out[name] = (path, line)
                if len(out) >= _MAX_TOKENS:
                    return out
    return out


# the texts last read, and their paths by file (one package at a time; replaced whole, so that a
# thread mining another package never reads one's texts with the other's paths)
_last: tuple[Any, list[tuple[str, list[tuple[str, int]]]]] = (None, [])


def _named_by_file(texts: list[tuple[str, str]]) -> list[tuple[str, list[tuple[str, int]]]]:
    global _last
    last = _last
    if last[0] is not texts:
        last = _last = (texts, [(path, _named_in(text)) for path, text in texts])
    return last[1]


def _named_in(text: str) -> list[tuple[str, int]]:
    """The paths one file names, (path, line) in order, each path once per line."""
    out: list[tuple[str, int]] = []
    if "/" not in text:
        return out
    distinct: set[str] = set()
    counted, line, row, prefix = 0, 1, 0, ""
    bases: dict[str, str] | None = None
    for m in _PATH.finditer(text):
        token = _without_brackets(m[1]).rstrip(".,:;!*]").rstrip("/") or "/"
        if len(token) <= 1 or m[0][0] not in "/$" and _foreign(m[0]):
            continue
        if m[0][0] == "$":  # under the path of the URL the docs set the variable to (`BASE=http://h/api/v1`)
            bases = _shell_bases(text) if bases is None else bases
            token = bases.get(m[0][1:len(m[0]) - len(m[1])].strip("{}"), "") + token
        line, counted = line + text.count("\n", counted, m.start()), m.start()
        named = [token]
        if line != row:  # the row's first path
            start = text.rfind("\n", 0, m.start()) + 1
            row, prefix = line, token if text[start:m.start()].lstrip().startswith("|") else ""
        elif prefix:
            named.append(prefix + token)
        for name in named:
            out.append((name, line))
            distinct.add(name)
        if len(distinct) >= _MAX_TOKENS:
            break  # (no more of them could be read)
    return out


_SHELL_BASE = re.compile(r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=["']?https?://[^/\s"']+(/[^\s"']*)?""",
                         re.MULTILINE)


def _shell_bases(text: str) -> dict[str, str]:
    """{variable: the path of the URL a shell line of the docs sets it to}, the first setting of each."""
    out: dict[str, str] = {}
    for m in _SHELL_BASE.finditer(text):
        out.setdefault(m[1], (m[2] or "").rstrip("/"))
    return out


def _foreign(url: str) -> bool:
    """Whether a URL is on a host that serves code, badges or packages, never the package's own
    routes (a README's logo on raw.githubusercontent.com names no `/assets/...` of its server)."""
    host = url.partition("://")[2] if "://" in url else url
    host = host.split("/", 1)[0].rpartition("@")[2].partition(":")[0].lower()
    return host in _FOREIGN_HOSTS or host.endswith(_FOREIGN_SUFFIXES)


def endpoint_list(texts: list[tuple[str, str]]) \
        -> tuple[dict[tuple[str, str], tuple[str, int]], set[tuple[str, int]]]:
    """({(METHOD, path): (file, line)} of the documentation's endpoint entries, {(file, line)} of
    the lines that hold them). A changelog's are left out."""
    entries: dict[tuple[str, str], tuple[str, int]] = {}
    lines: set[tuple[str, int]] = set()
    for path, text in texts:
        if HISTORY.search(path):
            continue
        counted, line = 0, 1
        for m in _ENTRY.finditer(text):
            end = text.find("\n", m.start())
            line, counted = line + text.count("\n", counted, m.start()), m.start()
            lines.add((path, line))
            methods, joined = [""], False  # `GET/POST /x`: methods one after another serve the path alike
            for pair in _pairs(text, m.start(), len(text) if end < 0 else end):
                if pair[3] is None:
                    method = (pair[1] or pair[2]).upper()
                    methods, joined = ([*methods, method] if joined else [method]), True
                    continue
                joined = False
                token = _entry_token(pair[3])
                for method in methods:
                    entries.setdefault((method, token), (path, line))
        rows: list[str] | None = None  # (the text's lines, split once for the readers that walk them)
        if "|" in text:
            _path_first_rows(path, text, entries, lines)
            rows = _rows(text)
            _path_column_rows(path, rows, entries, lines)
        if _METHOD_HEADING.search(text):
            _sections(path, text, entries, lines)
        if _LIST_TITLE.search(text):
            _endpoint_sections(path, rows if rows is not None else _rows(text), entries, lines)
    return entries, lines


def _pairs(text: str, start: int, end: int) -> list[re.Match[str]]:
    """The methods and paths of an entry's line, a path with alternatives written as the shell
    does (`/services/{id}/{start,stop}/`) as each of its paths."""
    line = _JOINED.sub(r"\1\2", text[start:end])  # `GET`/`POST`: one cell's methods, as `GET/POST`
    if "`" in line:  # `GET keystore/cert`, `| GET | `groups/` |`: the path from the root
        line = _RELATIVE.sub(r"\1/", line)
        line = _RELATIVE_CELL.sub(lambda m: m[1] + _RELATIVE_SPAN.sub("`/", m["cell"]), line, count=1)
    if " / " in line or " | " in line or " , " in line:
        while (joined := _SPACED_MARK.sub(r"\1\2", line)) != line:  # `GET / PATCH`: as `GET/PATCH`
            line = joined
    if "` `/" in line:  # `/api/tasks/{id}/enable` `/disable`: the siblings too
        line = _SEGMENT_SIBLINGS.sub(lambda m: m[0] + " " + " ".join(
            m[1] + seg.strip(" \t`/") for seg in m[3].split()), line)
    if ("," in line or "|" in line) and "{" in line:
        line = _ALTERNATIVES.sub(lambda m: " ".join(m[1] + alt + m[3] for alt in re.split(r"[,|]", m[2])), line)
    if "…/" in line or "../" in line:
        line = _elided(line)
    if "[/" in line:  # `/api/accounts[/{user}]`: the path without its optional part, and with it
        line = _OPTIONAL.sub(lambda m: f"{m[1]}{m[3]} {m[1]}{m[2]}{m[3]}", line)
    if "(/" in line:
        line = _OPTIONAL_END.sub(lambda m: f"{m[1]} {m[1]}{m[2]}", line)
    if " | /" in line and not line.lstrip().startswith("|"):  # (not a table's cells)
        # `POST /v1/uploads/{id}/refresh | /complete | /abort`, `GET /healthz | /readyz`: the last segment's siblings
        line = _BAR_SIBLINGS.sub(lambda m: " ".join(m[1] + seg for seg in [m[2], *(
            part.strip(" \t/") for part in m[3].split("|")[1:])]), line)
    if "·" in line:  # `/api/v1/auth/login · register · bootstrap`: the last segment's siblings
        line = _SIBLINGS.sub(lambda m: " ".join(m[1] + seg.strip() for seg in [m[2], *m[3].split("·")[1:]]), line)
    return list(_PAIR.finditer(line))


def _elided(line: str) -> str:
    """`/comments/{id}/approve/ …/reject/`: an elided path is the row's first path's sibling (or,
    below a one-segment path, `/notifications/ …/read-all/`, its child)."""
    first = next((m[3] for m in _PAIR.finditer(_ELIDED.sub("", line)) if m[3]), "")
    parts = [p for p in first.split("/") if p]
    if not parts:
        return line
    base = "/" + "/".join(parts if len(parts) == 1 else parts[:-1])
    return _ELIDED.sub(lambda m: base + m[1], line)


def _path_first_rows(path: str, text: str, entries: dict[tuple[str, str], tuple[str, int]],
                     lines: set[tuple[str, int]]) -> None:
    """The entries of a table that gives each row's path before its method: every method of the
    row serves each path of it."""
    counted, line = 0, 1
    for m in _PATH_FIRST.finditer(text):
        line, counted = line + text.count("\n", counted, m.start()), m.start()
        lines.add((path, line))
        pairs = _pairs(text, m.start(), m.end())
        methods = [(p[1] or p[2]).upper() for p in pairs if p[3] is None]
        for pair in pairs:
            if pair[3] is not None:
                for method in methods:
                    entries.setdefault((method, _entry_token(pair[3])), (path, line))


def _rows(text: str) -> list[str]:
    """The text's lines, a CRLF file's too."""
    return [row.rstrip("\r") for row in text.split("\n")]


def _path_column_rows(path: str, rows: list[str], entries: dict[tuple[str, str], tuple[str, int]],
                      lines: set[tuple[str, int]]) -> None:
    """The entries of a table with a column of paths and none of methods (`| Name | Path |`, `| Page
    | URL |`): a row whose cell in that column begins with a path lists it, under the methods the
    cell gives (`/store/ (POST)`), or under every method ("")."""
    column = -1
    for line, row in enumerate(rows, 1):
        if not row.lstrip().startswith("|"):
            column = -1
            continue
        raw = row.strip().strip("|").split("|")
        if line < len(rows) and _TABLE_RULE.match(rows[line]):  # a header: is it a column of paths?
            cells = [c.strip().strip("`*_").strip().lower() for c in raw]
            column = -1 if any(c in _METHOD_COLUMNS for c in cells) else \
                next((i for i, c in enumerate(cells) if c in _PATH_COLUMNS), -1)
            continue
        if column < 0 or _TABLE_RULE.match(row):
            continue
        cell = raw[column] if column < len(raw) else ""
        written = cell.strip().lstrip("`*_")
        if not written.startswith(("/", "http://", "https://")):
            continue
        pairs = _pairs(cell, 0, len(cell))
        methods = [(p[1] or p[2]).upper() for p in pairs if p[3] is None] or [""]
        tokens = [_entry_token(p[3]) for p in pairs if p[3] is not None]
        if tokens:
            lines.add((path, line))
        for token in tokens:
            for method in methods:
                entries.setdefault((method, token), (path, line))


def _endpoint_sections(path: str, rows: list[str], entries: dict[tuple[str, str], tuple[str, int]],
                       lines: set[tuple[str, int]]) -> None:
    """The entries of a section whose heading says it lists endpoints (`Key API Endpoints`, `##
    Routes`, a Markdown or reStructuredText heading): its bullets that name paths and no method
    list them under every method (""). A bullet with a method, or a table's row, is an entry read
    as such (a path listed under GET alone is not listed under DELETE)."""
    listing = False
    for line, row in enumerate(rows, 1):
        title = _MD_HEADING.match(row)
        if title is None and line < len(rows) and row.strip() and _RST_RULE.match(rows[line]) and \
                len(rows[line].strip()) >= len(row.strip()):
            title = re.match(r"()(.*)", row.strip())
        if title is not None:
            listing = _LIST_TITLE.search(title[2]) is not None
            continue
        if not listing or not _BULLET.match(row) or _MENTION_METHOD.search(row):
            continue
        tokens = [_entry_token(p[3]) for p in _pairs(row, 0, len(row)) if p[3] is not None]
        if tokens:
            lines.add((path, line))
        for token in tokens:
            entries.setdefault(("", token), (path, line))


def _sections(path: str, text: str, entries: dict[tuple[str, str], tuple[str, int]],
              lines: set[tuple[str, int]]) -> None:
    """The entries of `## GET Endpoints` sections: their lines that begin with a path."""
    method, level, counted, line = "", 0, 0, 1
    for m in _HEADING_OR_PATH.finditer(text):
        end = text.find("\n", m.start())
        if m[1] is not None and m[2] is None:  # a heading that is not a path's
            heading = _METHOD_HEADING.match(text, m.start(), len(text) if end < 0 else end)
            if heading is not None:
                method, level = heading[2], len(heading[1])
            elif len(m[1]) <= level:
                method, level = "", 0
            continue
        if not method or m[2] is None:
            continue
        line, counted = line + text.count("\n", counted, m.start()), m.start()
        lines.add((path, line))
        pair = _PAIR.search(text, m.start(2), len(text) if end < 0 else end)
        if pair is not None and pair[3] is not None:
            token = _entry_token(pair[3])
            entries.setdefault((method, token), (path, line))


def _entry_token(written: str) -> str:
    """A path an entry or a mention writes, as a token: no query string, optional parts or trailing slash."""
    return _without_brackets(written.split("?", 1)[0]).rstrip(".,:;!").rstrip("/") or "/"


def _without_brackets(path: str) -> str:
    """`/styles[/{tileSize}]/{id}.json` as the path without its optional parts."""
    while "[" in path:
        start = path.find("[")
        end = path.find("]", start)
        if end < 0:
            return path[:start]
        path = path[:start] + path[end + 1:]
    return path


Shape = tuple[str, re.Pattern[str]]  # (a literal segment the path must have, the pattern)


def path_pattern(path: str) -> Shape | None:
    """A route's path as a pattern for what the docs may write: a parameter is one segment (or a
    parameter in the docs' own syntax); the docs may write a prefix before it. None for a path
    with no literal segment (the root, a catch-all): every path would name it."""
    shape = route_key("GET", path)[1]
    literal = max((part for part in shape.split("/") if part and "{}" not in part), key=len, default="")
    if not literal:
        return None
    parts = [re.escape(p) for p in shape.split("{}")]
    return literal, re.compile(r"(?:/[^/]+)*" + r"[^/]+".join(parts) + r"/?")


def link_documented_routes(candidates: list[dict[str, Any]], texts: list[tuple[str, str]]) -> None:
    """Link, in place, the package's code routes and the paths its documentation names; when it
    has an endpoint list of this server's, the routes it neither lists nor names are internal."""
    routes = [c for c in candidates if c["kind"] == "http-route"]
    if not routes or not texts:
        return
    in_openapi = {route_key("GET", p)[1] for c in candidates if c["kind"] == "declared-operation"
                  and c["declared"]["format"] == "openapi" for found in served_paths(c["declared"]["metadata"])
                  for p in found}  # the paths the package's OpenAPI documents have, under any method
    named = documented_paths(texts)
    if not named:
        return
    paths = [route["name"].partition(" ")[2] for route in routes]
    # a path that is one route's as written names that route, not another's parameter
    # (`/api/4/config` is glances' config route, not an example of `/api/4/{plugin}`)
    names = _Names(named, {shape for path in paths if "{}" not in (shape := route_key("GET", path)[1])})
    for route, path in zip(routes, paths):
        token = names.naming(path)
        if token is not None:
            where, line = named[token]
            route["evidence"].append({"kind": "documentation", "detail": f"{where} names {token}",
                                      "path": where, "line": line})
            route["confidence"] = max(route["confidence"], DOCUMENTED_AND_SERVED)
            if _omitted(route) and route_key("GET", path)[1] not in in_openapi:
                _undo_omitted(route)  # the docs name a path the OpenAPI document has under no method
            if any(u.startswith(_UNTIL_NAMED) for u in route.get("unknowns", ())):  # the docs send readers to it
                route["visibility"] = "public"
                route["unknowns"] = [u for u in route["unknowns"] if not u.startswith(_UNTIL_NAMED)]
    _unlisted_internal(routes, paths, texts, names.literal)
    _named_with_method(routes, paths, texts, names.literal)


def _named_with_method(routes: list[dict[str, Any]], paths: list[str], texts: list[tuple[str, str]],
                       literal: set[str]) -> None:
    """A route an OpenAPI document of part of the service omits stays public when the docs name it
    with its method, in prose too (`mutating operations need a scope (`POST /endpoints`, ...)`)."""
    hidden = [(route, path) for route, path in zip(routes, paths) if _omitted(route)]
    if not hidden:
        return
    names = _by_method(((m[1], _entry_token(m[2])) for where, text in texts if not HISTORY.search(where)
                        for m in _MENTION.finditer(text)), literal)
    for route, path in hidden:
        method = route["name"].partition(" ")[0]
        if method in names and path != "/" and names[method].naming(path) is not None:
            _undo_omitted(route)


def _omitted(route: dict[str, Any]) -> bool:
    """Whether the route is internal only because the package's OpenAPI document leaves it out."""
    return route["visibility"] == "internal" and any(u.startswith(OPENAPI_OMITS) for u in route["unknowns"])


def _undo_omitted(route: dict[str, Any]) -> None:
    route["visibility"] = "public"
    route["unknowns"] = [u for u in route["unknowns"] if not u.startswith(OPENAPI_OMITS)]


def _by_method(pairs: Any, literal: set[str]) -> dict[str, _Names]:
    """{METHOD: the paths named with it} of (METHOD, path) pairs."""
    grouped: dict[str, dict[str, None]] = {}
    for method, token in pairs:
        grouped.setdefault(method, {})[token] = None
    return {method: _Names(tokens, literal) for method, tokens in grouped.items()}


def paths_by_segment(named: Any) -> dict[str, list[str]]:
    """{segment: the documented paths that have it}, each path once per segment."""
    out: dict[str, list[str]] = {}
    for token in named:
        for part in dict.fromkeys(token.split("/")):
            out.setdefault(part, []).append(token)
    return out


class _Names:
    """The documentation's paths, found by a route's literal segment and matched by its pattern
    (or, for a route of parameters only, by its shape)."""

    def __init__(self, named: dict[str, Any], literal: set[str]):
        self.literal = literal
        self.by_segment = paths_by_segment(named)  # a segment -> the named paths that have it
        self.parameters_only: dict[str, str] = {}  # `/{}/{}` -> `/:package/:version`, the first so named
        for token in named:
            if "{" in token or ":" in token or "<" in token:
                shape = route_key("GET", token)[1]
                if all(part == "{}" for part in shape.split("/")[1:]):
                    self.parameters_only.setdefault(shape, token)
        self.patterns: dict[str, Shape | None] = {}

    def naming(self, path: str) -> str | None:
        """The first named path that names the route at `path`."""
        if path not in self.patterns:
            self.patterns[path] = path_pattern(path)
        shape = self.patterns[path]
        own = route_key("GET", path)[1]
        if shape is None:  # parameters only (`/:name/:version`): named only as such, exactly
            return self.parameters_only.get(own)
        return next((token for token in self.by_segment.get(shape[0], ()) if shape[1].fullmatch(token) and (
            own in self.literal or route_key("GET", token)[1] not in self.literal)), None)


def _unlisted_internal(routes: list[dict[str, Any]], paths: list[str], texts: list[tuple[str, str]],
                       literal: set[str]) -> None:
    entries, lines = endpoint_list(texts)
    if len(entries) < MIN_LISTED:
        return
    lists = _by_method(entries, literal)

    def listed(route: dict[str, Any], path: str) -> list[tuple[str, str]]:
        """The listed paths that name the route, under its method (every method's, for a route of any)."""
        method = route["name"].partition(" ")[0]
        found = []
        for m, names in lists.items():
            if method in (m, "ANY", "*") or not m:  # (a list that gives no method lists every one)
                token = names.naming(path) if path != "/" else ("/" if "/" in names.by_segment.get("", ()) else None)
                written = route["evidence"][0].get("written") if route["evidence"] else None
                if token is None and written and written != "/":  # (served under the docs' mount, listed
                    token = names.naming(written)  # without it: `/django_drf_coy_apis/x` and `/x/<pk>`)
                if token is not None:
                    found.append((m, token))
        return found

    matches = [listed(route, path) for route, path in zip(routes, paths)]
    shapes = [route_key("GET", path)[1] for path in paths]
    bare = [path == "/" or all(part == "{}" for part in shape.split("/")[1:]) for path, shape in zip(paths, shapes)]
    if any(bare):
        # the root of an app the docs write under its mount (`/tickets/` beside `/tickets/create`),
        # and a route of parameters alone there (a DRF router's `/{pk}/` as `/api/notifications/{id}/`)
        mounts = _mounts(paths, matches)
        for i, path in enumerate(paths):
            if bare[i] and not matches[i] and mounts:
                method = routes[i]["name"].partition(" ")[0]
                wanted = mounts if path == "/" else {mount + shapes[i] for mount in mounts}
                matches[i] = [(m, token) for m, token in entries
                              if (token if path == "/" else route_key("GET", token)[1]) in wanted
                              and (not m or method in (m, "ANY", "*"))]
    served = {pair for found in matches for pair in found}
    if _elided_list(texts, lines):
        return  # `| ... | ... | 30+ more routes |`: the list says it is a part
    if 2 * len(served) < len(entries):
        return  # most of its entries are no route of this code: another server's list, or an old one
    listed = sum(bool(found) for found in matches)
    if listed * SELECTION < len({_registration(route) for route in routes}):
        return  # a few of many routes: the highlights of an API, not a statement of all it serves
    prose = _Names(documented_paths(texts, lines), literal)
    root_named = any(not HISTORY.search(where) and _ROOT.search(text) for where, text in texts)
    note = UNLISTED.format(paths=", ".join(sorted({entries[pair][0] for pair in served})))
    documented = [bool(found) or declared(route) or (root_named if path == "/" else prose.naming(path) is not None)
                  for route, path, found in zip(routes, paths, matches)]
    # the paths one written path serves (with a regex's or an Express path's optional part and
    # without) are one documented route when the list names either
    registered = {_registration(route) for route, known in zip(routes, documented) if known}
    for route, known, found in zip(routes, documented, matches):
        if route["visibility"] == "public" and not known and _registration(route) not in registered:
            route["visibility"] = "internal"
            route["unknowns"].append(note)
        elif found and _omitted(route):  # an OpenAPI document of part of the service does not hide what the list names
            _undo_omitted(route)


def _elided_list(texts: list[tuple[str, str]], lines: set[tuple[str, int]]) -> bool:
    """Whether a document holding list entries says its list goes on: a row or bullet of an
    ellipsis alone, "30+ more routes", "and more endpoints"."""
    listing = {path for path, _ in lines}
    return any(path in listing and _MORE.search(text) for path, text in texts)


def _mounts(paths: list[str], matches: list[list[tuple[str, str]]]) -> set[str]:
    """The prefixes the list writes literal routes under, when the code's own paths lack them
    (an app a host mounts: `/tickets/create_ticket` lists `/create_ticket/`)."""
    out = set()
    for path, found in zip(paths, matches):
        own = route_key("GET", path)[1]
        if path == "/" or "{}" in own:
            continue
        for _, token in found:
            shape = route_key("GET", token)[1]
            if len(shape) > len(own) and shape.endswith(own):
                out.add(shape[:-len(own)])
    return out


def _registration(route: dict[str, Any]) -> tuple[Any, ...]:
    """(method, file, line, the path as written): the same for each path one written path serves,
    under each prefix its router is mounted at (a list naming `/meetings` of the router a dev server
    mounts at `/api/meetbot-admin` names that route too)."""
    method, _, path = route["name"].partition(" ")
    source, first = route.get("source") or {}, route["evidence"][0] if route["evidence"] else {}
    mounted = first.get("mounted_at") or ""
    if mounted and path.startswith(mounted):
        path = path[len(mounted.rstrip("/")):] or "/"
    return method, source.get("path"), source.get("line"), first.get("template") or path
