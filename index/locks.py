"""Lockfiles (`lockVersion "1"`), capindex's lock sets, and verifying them against an index.

A lock is the reference's immutable selection record: the index it came from (URL and
`index.digest`), the exact package name@version and the exact capability id, version and module,
with the integrity either one carries in the index. A lock set (`lock_set_version "1"`) is
several locks resolved together, each a valid lock on its own.

A set file (`--set FILE`) lists what to resolve, in one of two forms:

- text: one capability id (`ID`, `ID@VERSION`, `ID@RANGE`) or need per line; blank lines and lines
  starting with `#` are skipped; positions are `line N`;
- JSON (the first non-blank character is `[`): an array whose items are such strings, or objects
  `{"id": ...}` or `{"need": ...}` with optional per-entry filters `effects_ceiling` (array of
  effects), `allow_opaque`, `substrates` (array), `executable_only`, `min_confidence` (0..1),
  each replacing the command line's; positions are JSON paths (`$[2]`).

Verification re-resolves each lock the way a host does (exact package name@version, then exact
capability id + version + module, then the locked integrities) and reports drift by kind:
`package-gone`, `capability-gone`, `integrity-changed` (a locked integrity the index now states
differently or no longer states), `index-digest-changed`. A newer selection by the rule is
information (`newer-version`), as is checking against another URL than the lock names
(`index-url-differs`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.documents import detect_kind, json_path, parse_json, validate
from schemas.ecma import utc_now
from schemas.errors import DocumentError

from .resolve import (
    Candidate,
    Filters,
    IndexSource,
    Request,
    Resolution,
    ResolveError,
    newer_than,
    parse_request,
    published_package,
    rank,
    resolve,
)

LOCK_KINDS = ("lock", "lockset")
DRIFT_KINDS = ("package-gone", "capability-gone", "integrity-changed", "index-digest-changed")
INFO_KINDS = ("newer-version", "index-url-differs")


class LockError(ResolveError):
    """A set or lock file that cannot be used, or entries that did not resolve; one line each."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


# -- writing ---------------------------------------------------------------------------------------


def make_lock(selection: Candidate, source: IndexSource, generated_at: str | None = None) -> dict[str, Any]:
    """The lockVersion 1 document for `selection`, in the reference README's member order."""
    package: dict[str, Any] = {"name": selection.package_name, "version": selection.package_version}
    if selection.package_integrity:
        package["integrity"] = selection.package_integrity
    capability: dict[str, Any] = {"id": selection.cap_id, "version": selection.cap_version, "module": selection.module}
    if selection.cap_integrity:
        capability["integrity"] = selection.cap_integrity
    lock = {
        "lockVersion": "1",
        "generatedAt": generated_at or utc_now(),
        "index": {"url": source.url, "digest": source.digest},
        "package": package,
        "capability": capability,
    }
    validate("lock", lock, f"the lock for {selection.label}")
    return lock


def make_lock_set(locks: list[dict[str, Any]], generated_at: str | None = None) -> dict[str, Any]:
    doc = {"lock_set_version": "1", "generated_at": generated_at or utc_now(), "locks": locks}
    validate("lockset", doc, "the lock set")
    return doc


def document_text(doc: dict[str, Any]) -> str:
    """As the reference writes a lock: JSON.stringify(lock, null, 2) and a newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write_document(path: str | Path, doc: dict[str, Any]) -> None:
    """Write beside the target, then rename: a reader never sees half a lock."""
    target = Path(path)
    if target.exists() and not target.is_file():
        raise LockError(f"{target}: exists and is not a regular file")
    tmp = target.with_name(f".{target.name}.capindex-tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(document_text(doc))
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LockError(f"{target}: cannot write ({exc.strerror or exc})") from None


# -- set files -------------------------------------------------------------------------------------

_ENTRY_FIELDS = {"id", "need", "effects_ceiling", "allow_opaque", "substrates", "executable_only", "min_confidence"}


@dataclass(frozen=True)
class SetEntry:
    position: str  # "line 3" or "$[2]"
    request: Request | None  # None when the entry could not be read
    filters: Filters
    problem: str | None = None  # why it could not be read, starting with its position


def _strings(value: Any, where: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ResolveError(f"{where}: expected an array of strings")
    return frozenset(value)


def _entry_filters(item: dict[str, Any], path: str, base: Filters) -> Filters:
    changes: dict[str, Any] = {}
    for name in ("effects_ceiling", "substrates"):
        if name in item:
            changes[name] = _strings(item[name], f"{path}.{name}")
    for name in ("allow_opaque", "executable_only"):
        if name in item:
            if not isinstance(item[name], bool):
                raise ResolveError(f"{path}.{name}: expected true or false")
            changes[name] = item[name]
    if "min_confidence" in item:
        value = item["min_confidence"]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ResolveError(f"{path}.min_confidence: expected a number")
        changes["min_confidence"] = float(value)
    filters = Filters(**{**base.__dict__, **changes})
    return filters.check(lambda name: f"{path}.{name}")


def _json_entry(item: Any, index: int, base: Filters) -> SetEntry:
    path = json_path((index,))
    if isinstance(item, str):
        return SetEntry(path, parse_request(item), base)
    if not isinstance(item, dict):
        raise ResolveError(f"{path}: expected a string or an object with \"id\" or \"need\"")
    unknown = sorted(set(item) - _ENTRY_FIELDS)
    if unknown:
        raise ResolveError(f"{json_path((index, unknown[0]))}: unknown member (allowed: {', '.join(sorted(_ENTRY_FIELDS))})")
    if ("id" in item) == ("need" in item):
        raise ResolveError(f"{path}: give exactly one of \"id\" and \"need\"")
    key = "id" if "id" in item else "need"
    text = item[key]
    if not isinstance(text, str):
        raise ResolveError(f"{path}.{key}: expected a string")
    try:
        request = parse_request(text, force_need=key == "need")
    except ResolveError as exc:
        raise ResolveError(f"{path}.{key}: {exc}") from None
    if key == "id" and request.id is None:
        raise ResolveError(f"{path}.id: {text!r} is not a capability id")
    return SetEntry(path, request, _entry_filters(item, path, base))


def read_set(path: str | Path, base: Filters) -> list[SetEntry]:
    """The entries of a set file in file order, those that could not be read with their problem
    ('<position>: <why>'); a file that cannot be read at all raises LockError."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise LockError(f"{where}: cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LockError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    entries: list[SetEntry] = []
    if text.lstrip().startswith(("[", "{")):
        try:
            data = parse_json(raw, where)
        except DocumentError as exc:
            raise LockError(str(exc)) from None
        if not isinstance(data, list):
            raise LockError(f"{where}: $: a set file is a JSON array of ids, needs or {{\"id\"|\"need\": ...}} objects")
        for i, item in enumerate(data):
            try:
                entries.append(_json_entry(item, i, base))
            except ResolveError as exc:
                problem = str(exc) if str(exc).startswith("$") else f"{json_path((i,))}: {exc}"
                entries.append(SetEntry(json_path((i,)), None, base, problem))
    else:
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            try:
                entries.append(SetEntry(f"line {number}", parse_request(stripped), base))
            except ResolveError as exc:
                entries.append(SetEntry(f"line {number}", None, base, f"line {number}: {exc}"))
    if not entries:
        raise LockError(f"{where}: lists nothing to resolve")
    return entries


def resolve_set(source: IndexSource, set_file: str | Path, base: Filters) -> tuple[list[Resolution], list[str]]:
    """Resolve every entry of a set file; (resolutions in file order, problems as
    '<file>: <position>: <why>'). A caller writes nothing unless problems is empty."""
    where = str(set_file)
    problems: list[str] = []
    resolutions: list[Resolution] = []
    for entry in read_set(set_file, base):
        if entry.request is None:
            problems.append(f"{where}: {entry.problem}")
            continue
        try:
            resolutions.append(resolve(source, entry.request, entry.filters))
        except ResolveError as exc:
            problems.append(f"{where}: {entry.position}: {exc}")
    return resolutions, problems


# -- reading locks ---------------------------------------------------------------------------------


def load_lock_file(path: str | Path) -> tuple[str, dict[str, Any]]:
    """(kind, document) of a lock or lock set file; DocumentError naming the file and JSON path."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise LockError(f"{where}: cannot read ({exc.strerror or exc})") from None
    data = parse_json(raw, where)
    kind = detect_kind(data)
    if kind not in LOCK_KINDS:
        if kind is None:
            problem = "$: not a lock (no lockVersion) nor a lock set (no lock_set_version)"
        else:
            problem = f"$: a {kind} document, not a lock or a lock set"
        raise DocumentError(where, [problem])
    validate(kind, data, where)
    return kind, data


# -- verifying -------------------------------------------------------------------------------------


@dataclass
class Finding:
    kind: str
    detail: str
    locked: Any = None
    current: Any = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "detail": self.detail, "locked": self.locked, "current": self.current}


@dataclass
class EntryReport:
    position: str  # "$" for a lock file, "$.locks[N]" in a lock set
    capability: str
    package: str
    index_url: str
    drift: list[Finding] = field(default_factory=list)
    info: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"position": self.position, "capability": self.capability, "package": self.package,
                "index_url": self.index_url, "drifted": bool(self.drift),
                "drift": [f.as_dict() for f in self.drift], "info": [f.as_dict() for f in self.info]}


@dataclass
class VerifyReport:
    file: str
    kind: str
    entries: list[EntryReport]

    @property
    def drifted(self) -> bool:
        return any(e.drift for e in self.entries)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "kind": self.kind, "drifted": self.drifted,
                "entries": [e.as_dict() for e in self.entries]}


def _integrity(subject: str, locked: str | None, current: str | None) -> Finding | None:
    if locked is None or locked == current:
        return None
    if current is None:
        return Finding("integrity-changed", f"{subject}: locked integrity {locked} is no longer stated by the index",
                       locked, None)
    return Finding("integrity-changed", f"{subject}: integrity is now {current}, locked {locked}", locked, current)


def verify_lock(source: IndexSource, lock: dict[str, Any], position: str = "$") -> EntryReport:
    """Re-resolve one lock against `source` as a host would, and say what drifted."""
    pkg, cap = lock["package"], lock["capability"]
    package_label = f"{pkg['name']}@{pkg['version']}"
    cap_label = f"{cap['id']}@{cap['version']}"
    report = EntryReport(position, cap_label, package_label, source.url)
    if lock["index"]["url"] != source.url:
        report.info.append(Finding("index-url-differs", f"checked against {source.url}, the lock names {lock['index']['url']}",
                                   lock["index"]["url"], source.url))
    if lock["index"]["digest"] != source.digest:
        report.drift.append(Finding("index-digest-changed", f"{source.url} has digest {source.digest}, locked "
                                    f"{lock['index']['digest']}", lock["index"]["digest"], source.digest))
    found = published_package(source.store, pkg["name"], pkg["version"])
    if found is None:
        report.drift.append(Finding("package-gone", f"{package_label} is no longer in {source.label}", package_label))
    else:
        integrity, caps = found
        finding = _integrity(f"package {package_label}", pkg.get("integrity"), integrity)
        if finding:
            report.drift.append(finding)
        match = next((c for c in caps if c.cap_id == cap["id"] and c.cap_version == cap["version"]
                      and c.module == cap["module"]), None)
        if match is None:
            same_id = [f"{c.cap_version} at {c.module}" for c in caps if c.cap_id == cap["id"]]
            now = f"; it lists {cap['id']} {', '.join(same_id)}" if same_id else ""
            report.drift.append(Finding("capability-gone", f"{package_label} no longer has {cap_label} at "
                                        f"{cap['module']}{now}", f"{cap_label} {cap['module']}"))
        else:
            finding = _integrity(f"capability {cap_label}", cap.get("integrity"), match.cap_integrity)
            if finding:
                report.drift.append(finding)
    newer = _newest(source, cap["id"])
    if newer is not None and (newer.cap_version, newer.package_name, newer.package_version) != (
            cap["version"], pkg["name"], pkg["version"]):
        locked = Candidate(cap["id"], cap["version"], cap["module"], None, pkg["name"], pkg["version"], None, "", (), 0)
        if newer_than(newer, locked):
            report.info.append(Finding("newer-version", f"the rule now selects {newer.label}",
                                       f"{cap_label} in {package_label}", newer.label))
    return report


def _newest(source: IndexSource, cap_id: str) -> Candidate | None:
    from .resolve import candidates

    ranked = rank(candidates(source.store, cap_id))
    return ranked[0] if ranked else None


def lock_entries(kind: str, doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(position, lock) for each lock of a lock or lock set document."""
    if kind == "lock":
        return [("$", doc)]
    return [(json_path(("locks", i)), lock) for i, lock in enumerate(doc["locks"])]


def verify_document(file: str, kind: str, doc: dict[str, Any], source_for: Callable[[str], IndexSource]) -> VerifyReport:
    """Verify a lock, or a lock set entry by entry; `source_for(url)` gives the index to check a
    lock naming `url` against."""
    return VerifyReport(file, kind, [verify_lock(source_for(lock["index"]["url"]), lock, position)
                                     for position, lock in lock_entries(kind, doc)])


def published_base_url(index_url: str, where: str) -> str:
    """The --base-url a store was published with, from the `<base>/index.json` a lock names."""
    if not index_url.endswith("/index.json"):
        raise LockError(f"{where}: the lock's index {index_url} is not a store publication (<base URL>/index.json): "
                        "verify it with --index URL|FILE")
    return index_url[: -len("/index.json")]
