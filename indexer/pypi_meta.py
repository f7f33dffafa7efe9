"""PyPI metadata as pure functions: which release a request means, what a release holds, and the entry
points a wheel or sdist declares. Nothing here does HTTP (the caller fetches through the guarded client)
and nothing here runs, imports or extracts package code: archives are read as text, member by member.

- `resolve(project_json, request)` picks a version from https://pypi.org/pypi/NAME/json (or
  /pypi/NAME/VERSION/json). `None` means the latest: the project's `info.version` unless that release is
  yanked or has no files, else the highest PEP 440 version that has files, is not yanked and is not a
  pre-release. `"==V"`, `"V"`, `"===V"` or `"NAME==V"` ask for one version. An exact request for a
  yanked release is allowed (PEP 592: a yanked release stays installable when pinned exactly) and
  flagged (`yanked`, `yanked_reason`, and `how` says so); "latest" never picks a yanked release.
- `release_record(project_json, version)` is one release as a JSON-serialisable dict (keys below).
- `entry_points_from_wheel(path, filename=None)` / `entry_points_from_sdist(path, filename=None)` read
  `*.dist-info/entry_points.txt` and `METADATA`, or an sdist's top-level `pyproject.toml` and `setup.cfg`.
  An sdist whose entry points only `setup.py` could declare is reported as unknown: `setup.py` is never run.
- `verify_sha256(path, expected_hex)` hashes a file as a stream.

Versions are ordered by PEP 440 (implemented here; `packaging` is not a dependency of capindex).
"""

from __future__ import annotations

import configparser
import email.parser
import hashlib
import re
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from schemas.errors import CapindexError

MAX_MEMBER_BYTES = 1024 * 1024  # a metadata member bigger than this is refused, never read whole
MAX_MEMBERS = 100_000  # archive members looked at before giving up
MAX_SCAN_BYTES = 512 * 1024 * 1024  # a tar's declared member sizes streamed past before giving up
HASH_CHUNK = 1024 * 1024

SOURCE_WHEEL = "wheel entry_points.txt"
SOURCE_PYPROJECT = "pyproject.toml"
SOURCE_SETUP_CFG = "setup.cfg"
SOURCE_PYPROJECT_AND_SETUP_CFG = "pyproject.toml + setup.cfg"
SOURCE_SETUP_PY_ONLY = "unknown: setup.py only"
SOURCE_NO_METADATA = "unknown: no pyproject.toml, setup.cfg or setup.py"
SOURCE_NOT_DECLARED = "unknown: not declared statically"

_SCRIPT_GROUPS = ("console_scripts", "gui_scripts")
_METADATA_KEYS = ("name", "version", "requires_python", "summary")  # always all four, None when not stated
_TARGET = re.compile(r"^[A-Za-z_][\w.]*(\s*:\s*[A-Za-z_][\w.]*)?(\s*\[[^\]]*\])?$")
_SHA256 = re.compile(r"^[0-9a-fA-F]{64}$")
_NAME = re.compile(r"^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$", re.IGNORECASE)  # PEP 508


class PypiError(CapindexError, ValueError):
    """PyPI data or an archive that cannot be used; str() is one line naming what and why."""


def _q(text: object, limit: int = 120) -> str:
    """Untrusted text quoted for a one-line message."""
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _show(text: object) -> str:
    """A version as it is when it is plain (printable, no spaces, short), else quoted."""
    plain = isinstance(text, str) and text.isprintable() and " " not in text and 0 < len(text) <= 100
    return str(text) if plain else _q(text)


# --- names and versions -------------------------------------------------------------------------------------------

def normalize_name(name: str) -> str:
    """PEP 503: runs of '-', '_' and '.' become one '-', lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


_VERSION = re.compile(
    r"""^\s*v?
    (?:(?P<epoch>[0-9]+)!)?
    (?P<release>[0-9]+(?:\.[0-9]+)*)
    (?P<pre>[-_.]?(?P<pre_l>alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?P<pre_n>[0-9]+)?)?
    (?P<post>(?:-(?P<post_n1>[0-9]+))|(?:[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]+)?))?
    (?P<dev>[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


@dataclass(frozen=True)
class Version:
    """A parsed PEP 440 version; `key` orders and compares as PEP 440 (and `packaging`) do."""

    text: str
    key: tuple
    is_prerelease: bool

    def __lt__(self, other: Version) -> bool:
        return self.key < other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def parse_version(text: str) -> Version | None:
    """The PEP 440 version `text` spells, or None when it is not one (legacy versions sort nowhere)."""
    m = _VERSION.match(text)
    if not m:
        return None
    release = tuple(int(p) for p in m["release"].split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    pre = (_PRE_RANK[m["pre_l"].lower()], int(m["pre_n"] or 0)) if m["pre_l"] else None
    post_n = m["post_n1"] or m["post_n2"]
    post = int(post_n or 0) if m["post"] else None
    dev = int(m["dev_n"] or 0) if m["dev_l"] else None
    # A dev release of a final version sorts before its pre-releases: 1.0.dev0 < 1.0a0 < 1.0.
    pre_key = (1, *pre) if pre else ((0,) if post is None and dev is not None else (2,))
    post_key = (0,) if post is None else (1, post)
    dev_key = (1,) if dev is None else (0, dev)
    local_key: tuple = (0,)
    if m["local"]:
        parts = re.split(r"[-_.]", m["local"].lower())
        local_key = (1, tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in parts))
    key = (int(m["epoch"] or 0), release, pre_key, post_key, dev_key, local_key)
    return Version(text, key, pre is not None or dev is not None)


# --- resolving a request ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resolution:
    requested: str | None  # the request as given; None for "latest"
    version: str  # as the project JSON spells it (a key of `releases`)
    how: str  # one line: "latest: ...", "exact: ..."
    name: str = ""  # PEP 503 normalised project name
    yanked: bool = False  # only ever True for an exact request
    yanked_reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"requested": self.requested, "version": self.version, "how": self.how, "name": self.name,
                "yanked": self.yanked, "yanked_reason": self.yanked_reason}


def _info(project_json: Any) -> dict:
    info = project_json.get("info") if isinstance(project_json, dict) else None
    if not isinstance(info, dict) or not isinstance(info.get("name"), str) or not info["name"]:
        message = project_json.get("message") if isinstance(project_json, dict) else None
        why = f" (PyPI said {_q(message)})" if isinstance(message, str) else ""
        raise PypiError(f"unknown project: the PyPI response has no info.name{why}")
    if not _NAME.match(info["name"]):
        raise PypiError(f"the PyPI response names project {_q(info['name'])}, which is not a valid project name")
    return info


def _releases(project_json: dict) -> dict[str, list[dict]]:
    """version -> files. A /pypi/NAME/VERSION/json response has no `releases`: its `urls` are info.version's files."""
    info = _info(project_json)
    releases = project_json.get("releases")
    if releases is None:
        version = info.get("version")
        if not isinstance(version, str) or not version:
            raise PypiError(f"{info['name']}: the PyPI response names no version")
        releases = {version: project_json.get("urls") or []}
    if not isinstance(releases, dict):
        raise PypiError(f"{info['name']}: 'releases' is not an object")
    out: dict[str, list[dict]] = {}
    for version, files in releases.items():
        if not isinstance(files, list) or not all(isinstance(f, dict) for f in files):
            raise PypiError(f"{info['name']}: the files of release {_q(version)} are not a list of objects")
        out[version] = files
    return out


def _release_yank(info: dict, version: str, files: list[dict]) -> tuple[bool, str | None]:
    """A release is yanked when all its files are (PyPI yanks whole releases), or info says so for its version."""
    reasons = [f.get("yanked_reason") for f in files if f.get("yanked") and f.get("yanked_reason")]
    yanked = bool(files) and all(f.get("yanked") is True for f in files)
    if info.get("version") == version and info.get("yanked") is True:
        yanked = True
        reasons.append(info.get("yanked_reason"))
    reason = next((r for r in reasons if isinstance(r, str) and r), None)
    return yanked, reason if yanked else None


_REQUEST = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)?\s*(?P<op>===|==|~=|!=|<=|>=|<|>)\s*(?P<v>\S+)$")
_OPERATOR_CHARS = set("<>=~,;* ")


def resolve(project_json: dict, request: str | None) -> Resolution:
    """The release `request` means: None for the latest (never a yanked one), or one exact version."""
    info = _info(project_json)
    name = normalize_name(info["name"])
    releases = _releases(project_json)
    if request is None or not request.strip():
        return _latest(info, name, releases, request)

    text = request.strip()
    m = _REQUEST.match(text)
    if m:
        op, wanted, asked_name = m["op"], m["v"], m["name"]
    elif not _OPERATOR_CHARS & set(text):  # a bare version
        op, wanted, asked_name = None, text, None
    else:
        op, wanted, asked_name = None, "", None
    if not wanted or op not in (None, "==", "===") or _OPERATOR_CHARS & set(wanted):
        raise PypiError(f"{name}: {_q(request)} is not an exact version request (use ==VERSION or VERSION)")
    if asked_name and normalize_name(asked_name) != name:
        raise PypiError(f"{name}: the request names project {_q(asked_name)}, not {name}")

    if op == "===":  # arbitrary equality: the string as written
        matches = [v for v in releases if v == wanted]
    elif wanted in releases:
        matches = [wanted]
    else:
        parsed = parse_version(wanted)
        if parsed is None:
            raise PypiError(f"{name}: {_q(wanted)} is not a PEP 440 version and no release is spelled that way")
        matches = [v for v in releases if parse_version(v) == parsed]
    if not matches:
        raise PypiError(f"{name}: no release {_q(wanted)} (info.version is {_q(info.get('version'))})")
    if len(matches) > 1:
        several = ", ".join(_show(v) for v in sorted(matches))
        raise PypiError(f"{name}: {_q(wanted)} matches several releases: {several}")
    version = matches[0]
    files = releases[version]
    yanked, reason = _release_yank(info, version, files)
    how = "exact" if version == wanted else f"exact: {_q(wanted)} is release {_show(version)} by PEP 440"
    if yanked:
        how += f"; yanked release{f' ({reason})' if reason else ''}, allowed because pinned exactly (PEP 592)"
    if not files:
        how += "; the release has no files"
    return Resolution(request, version, how, name, yanked, reason)


def _latest(info: dict, name: str, releases: dict[str, list[dict]], request: str | None) -> Resolution:
    current = info.get("version")
    if isinstance(current, str) and current in releases:
        files = releases[current]
        yanked, _ = _release_yank(info, current, files)
        if files and not yanked:
            return Resolution(request, current, "latest: info.version", name)
        why = f"info.version {_show(current)} " + ("is yanked" if yanked else "has no files")
    else:
        why = f"info.version {_q(current)} is not among the releases"
    candidates = []
    for version, files in releases.items():
        parsed = parse_version(version)
        if parsed and not parsed.is_prerelease and files and not _release_yank(info, version, files)[0]:
            candidates.append(parsed)
    if not candidates:
        raise PypiError(f"{name}: {why} and no other release has files, is not yanked and is not a pre-release")
    best = max(candidates)
    return Resolution(request, best.text, f"latest: {why}; highest non-yanked final release", name)


# --- one release as a record ----------------------------------------------------------------------------------------

def _https_problem(url: object) -> str | None:
    if not isinstance(url, str) or not url:
        return "no url"
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return "url is malformed"
    if parts.scheme != "https" or not parts.hostname:
        return "url is not an absolute https URL"
    return None


def _file_record(f: dict) -> dict[str, Any]:
    digests = f.get("digests") if isinstance(f.get("digests"), dict) else {}
    sha256 = digests.get("sha256")
    filename = f.get("filename")
    problems = []
    if not isinstance(filename, str) or not filename or "/" in filename or "\\" in filename or filename in (".", ".."):
        problems.append("filename is not a plain file name")
    url_problem = _https_problem(f.get("url"))
    if url_problem:
        problems.append(url_problem)
    if not isinstance(sha256, str) or not _SHA256.match(sha256):
        problems.append("no valid sha256 digest")
    size = f.get("size")
    return {
        "filename": filename,
        "url": f.get("url"),
        "packagetype": f.get("packagetype"),
        "size": size if isinstance(size, int) and not isinstance(size, bool) else None,
        "sha256": sha256.lower() if isinstance(sha256, str) and _SHA256.match(sha256) else None,
        "requires_python": f.get("requires_python") or None,
        "yanked": f.get("yanked") is True,
        "yanked_reason": (f.get("yanked_reason") or None) if f.get("yanked") is True else None,
        "upload_time": f.get("upload_time_iso_8601") or f.get("upload_time"),
        "refused": "; ".join(problems) or None,
    }


def release_record(project_json: dict, version: str) -> dict[str, Any]:
    """One release, JSON-serialisable, always these keys in this order:

    name (as PyPI displays it), normalized_name (PEP 503), version, info_version (the version the
    project-level fields describe: PyPI's `info` is about info.version only), summary, requires_python,
    home_page, project_urls ({label: url}, sorted by label), license, license_expression (these six are
    None unless version == info_version: the project JSON holds no other release's metadata), yanked,
    yanked_reason, files (sorted by filename), notes (one-line strings).

    Each file: filename, url, packagetype ("bdist_wheel", "sdist", or an older kind as PyPI says),
    size, sha256 (lower-case hex from digests.sha256), requires_python, yanked, yanked_reason,
    upload_time (ISO 8601), refused (None, or why the file must not be downloaded: a url that is not
    absolute https, a filename with a path in it, no valid sha256; the metadata is untrusted).
    """
    info = _info(project_json)
    releases = _releases(project_json)
    if version not in releases:
        raise PypiError(f"{normalize_name(info['name'])}: no release {_q(version)}")
    files = sorted((_file_record(f) for f in releases[version]), key=lambda r: str(r["filename"]))
    yanked, reason = _release_yank(info, version, releases[version])
    described = info.get("version") == version
    notes = []
    if not described:
        notes.append(f"project-level fields are None: PyPI's info describes {_show(info.get('version'))}, "
                     f"fetch /pypi/{info['name']}/{_show(version)}/json for this release's")
    if not files:
        notes.append("the release has no files")
    partly = [r["filename"] for r in files if r["yanked"]]
    if partly and not yanked:
        notes.append(f"{len(partly)} of {len(files)} files are yanked")
    refused = [r for r in files if r["refused"]]
    if refused:
        notes.append(f"{len(refused)} of {len(files)} files refused (untrusted metadata)")

    def described_field(key: str) -> Any:
        value = info.get(key) if described else None
        return value if value not in ("", "UNKNOWN") else None

    urls = described_field("project_urls")
    project_urls = {str(k): str(v) for k, v in sorted(urls.items())} if isinstance(urls, dict) else None
    return {
        "name": info["name"],
        "normalized_name": normalize_name(info["name"]),
        "version": version,
        "info_version": info.get("version"),
        "summary": described_field("summary"),
        "requires_python": described_field("requires_python"),
        "home_page": described_field("home_page"),
        "project_urls": project_urls,
        "license": described_field("license"),
        "license_expression": described_field("license_expression"),
        "yanked": yanked,
        "yanked_reason": reason,
        "files": files,
        "notes": notes,
    }


# --- reading archives -----------------------------------------------------------------------------------------------

def _unsafe(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return (name.startswith(("/", "\\")) or bool(re.match(r"^[A-Za-z]:", name)) or ".." in parts or "\0" in name)


def _refuse_unsafe(archive: str, name: str) -> None:
    if _unsafe(name):
        raise PypiError(f"{archive}: member {_q(name)} has an unsafe path (absolute or '..'); archive refused")


def _read_capped(archive: str, name: str, stream, declared: int | None) -> bytes:
    """A member's bytes, refused past MAX_MEMBER_BYTES. A core-metadata member (METADATA) may be longer as
    long as its headers end within the cap: the description after them is dropped unread."""
    headers_only = name.endswith("/METADATA")
    if declared is not None and declared > MAX_MEMBER_BYTES and not headers_only:
        raise PypiError(f"{archive}: member {_q(name)} is {declared} bytes, over the {MAX_MEMBER_BYTES}-byte cap")
    data = stream.read(MAX_MEMBER_BYTES + 1)
    if len(data) > MAX_MEMBER_BYTES:
        end = data.replace(b"\r\n", b"\n").find(b"\n\n") if headers_only else -1
        if end < 0 or end > MAX_MEMBER_BYTES:
            raise PypiError(f"{archive}: member {_q(name)} is over the {MAX_MEMBER_BYTES}-byte cap")
        data = data.replace(b"\r\n", b"\n")[: end + 2]
    return data


def _zip_members(path: Path, archive: str, wanted) -> tuple[dict[str, bytes], list[str]]:
    """The members `wanted(name)` accepts, read (capped) from a zip opened read-only, and every member name
    (each checked: an unsafe one refuses the archive)."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise PypiError(f"{archive}: not a readable zip archive ({exc})") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise PypiError(f"{archive}: {len(infos)} members, over the {MAX_MEMBERS} cap")
        found: dict[str, bytes] = {}
        for zi in infos:
            _refuse_unsafe(archive, zi.filename)
        for zi in infos:
            if zi.is_dir() or not wanted(zi.filename):
                continue
            if zi.filename in found:
                raise PypiError(f"{archive}: member {_q(zi.filename)} appears twice")
            try:
                with zf.open(zi) as stream:
                    found[zi.filename] = _read_capped(archive, zi.filename, stream, zi.file_size)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:
                raise PypiError(f"{archive}: cannot read member {_q(zi.filename)} ({exc})") from None
        return found, [zi.filename for zi in infos]


def _tar_members(path: Path, archive: str, wanted) -> tuple[dict[str, bytes], list[str]]:
    """Like _zip_members, for a (compressed) tar read as one stream."""
    found: dict[str, bytes] = {}
    names: list[str] = []
    scanned = 0
    try:
        with tarfile.open(path, mode="r|*") as tf:
            for member in tf:
                _refuse_unsafe(archive, member.name)
                names.append(member.name)
                scanned += max(member.size, 0)
                if len(names) > MAX_MEMBERS or scanned > MAX_SCAN_BYTES:
                    raise PypiError(f"{archive}: too big to scan (over {MAX_MEMBERS} members or "
                                    f"{MAX_SCAN_BYTES} bytes)")
                if not wanted(member.name):
                    continue
                if not member.isfile():
                    raise PypiError(f"{archive}: member {_q(member.name)} is not a regular file (a link?); refused")
                if member.name in found:
                    raise PypiError(f"{archive}: member {_q(member.name)} appears twice")
                stream = tf.extractfile(member)
                found[member.name] = _read_capped(archive, member.name, stream, member.size)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise PypiError(f"{archive}: not a readable tar archive ({exc})") from None
    return found, names


def _text(archive: str, name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PypiError(f"{archive}: member {_q(name)} is not UTF-8 ({exc.reason} at byte {exc.start})") from None


# --- entry points ---------------------------------------------------------------------------------------------------

@dataclass
class EntryPoints:
    """What an archive declares. console_scripts and gui_scripts are {name: "module:attr"}; groups holds
    every other group ({group: {name: target}}, e.g. "distutils.commands"). `known` is False when the
    archive's static metadata cannot say (`source` then starts "unknown:", and anything listed is only
    what pyproject.toml declared statically beside fields it left dynamic). `metadata` always has the keys
    name, version, requires_python, summary (None when not stated); `members` lists the members read."""

    archive: str
    source: str
    known: bool = True
    console_scripts: dict[str, str] = field(default_factory=dict)
    gui_scripts: dict[str, str] = field(default_factory=dict)
    groups: dict[str, dict[str, str]] = field(default_factory=dict)
    metadata: dict[str, str | None] = field(default_factory=lambda: dict.fromkeys(_METADATA_KEYS))
    members: list[str] = field(default_factory=list)  # the archive members read, in order
    notes: list[str] = field(default_factory=list)
    top: str | None = None  # an sdist's one top-level directory ("name-1.0"), which unpacking strips

    def add(self, group: str, name: str, target: str, where: str) -> None:
        table = getattr(self, group) if group in _SCRIPT_GROUPS else self.groups.setdefault(group, {})
        if name in table and table[name] != target:
            self.notes.append(f"{where}: {group} {_q(name)} declared again as {_q(target)}; kept {_q(table[name])}")
            return
        table.setdefault(name, target)
        if not _TARGET.match(target):
            self.notes.append(f"{where}: {group} {_q(name)} target {_q(target)} is not module:attr")

    def as_dict(self) -> dict[str, Any]:
        return {
            "archive": self.archive,
            "source": self.source,
            "known": self.known,
            "console_scripts": dict(sorted(self.console_scripts.items())),
            "gui_scripts": dict(sorted(self.gui_scripts.items())),
            "groups": {g: dict(sorted(eps.items())) for g, eps in sorted(self.groups.items())},
            "metadata": dict(self.metadata),
            "members": list(self.members),
            "notes": list(self.notes),
        }


def _ini(archive: str, member: str, text: str, delimiters: tuple[str, ...]) -> configparser.RawConfigParser:
    # No [DEFAULT] section: its keys would otherwise appear in every group.
    parser = configparser.RawConfigParser(delimiters=delimiters, strict=True, default_section="\0no default")
    parser.optionxform = str  # type: ignore[assignment, method-assign]  # names are case-sensitive
    try:
        parser.read_string(text, source=member)
    except configparser.Error as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PypiError(f"{archive}: {member} is not valid INI ({first})") from None
    return parser


def _dist_info(archive: str, names: list[str]) -> str:
    """The wheel's one top-level *.dist-info directory (the one named after the wheel when several are)."""
    dirs = sorted({n.split("/")[0] for n in names if n.count("/") == 1 and n.split("/")[0].endswith(".dist-info")})
    if len(dirs) > 1:
        stem = "-".join(archive.split("-")[:2]).lower()
        dirs = [d for d in dirs if d.removesuffix(".dist-info").lower() == stem] or dirs
    if len(dirs) != 1:
        found = ", ".join(dirs) or "none"
        raise PypiError(f"{archive}: expected one top-level *.dist-info directory, found {found}")
    return dirs[0]


def entry_points_from_wheel(path: str | Path, filename: str | None = None) -> EntryPoints:
    """Entry points from `*.dist-info/entry_points.txt`, name/version/summary from `*.dist-info/METADATA`.
    `filename` is the archive's real name when `path` is a temporary file (messages and checks use it)."""
    path = Path(path)
    archive = filename or path.name
    picked, _ = _zip_members(path, archive, lambda n: n.count("/") == 1 and n.endswith((".dist-info/entry_points.txt",
                                                                                ".dist-info/METADATA")))
    dist_info = _dist_info(archive, list(picked))
    metadata_name, ep_name = f"{dist_info}/METADATA", f"{dist_info}/entry_points.txt"
    if metadata_name not in picked:
        raise PypiError(f"{archive}: no {metadata_name}; not a wheel")
    result = EntryPoints(archive, SOURCE_WHEEL)
    headers = email.parser.HeaderParser().parsestr(_text(archive, metadata_name, picked[metadata_name]))
    result.members.append(metadata_name)
    result.metadata = {"name": headers.get("Name"), "version": headers.get("Version"),
                       "requires_python": headers.get("Requires-Python"), "summary": headers.get("Summary")}
    if not result.metadata["name"] or not result.metadata["version"]:
        raise PypiError(f"{archive}: {metadata_name} has no Name or Version header")
    expected = f"{result.metadata['name']}-{result.metadata['version']}"
    if normalize_name(dist_info.removesuffix(".dist-info")) != normalize_name(expected):
        result.notes.append(f"{dist_info} does not match METADATA {expected}")
    if ep_name not in picked:
        result.notes.append("no entry_points.txt: the wheel declares no entry points")
        return result
    result.members.append(ep_name)
    parser = _ini(archive, ep_name, _text(archive, ep_name, picked[ep_name]), ("=",))
    for group in parser.sections():
        for name, target in parser.items(group):
            result.add(group, name.strip(), " ".join(target.split()), "entry_points.txt")
    return result


def _sdist_top(archive: str, names: list[str]) -> str:
    tops = {n.removeprefix("./").split("/")[0] for n in names if n.removeprefix("./").strip("/") not in ("", ".")}
    if len(tops) != 1:
        raise PypiError(f"{archive}: an sdist has one top-level directory, this has {len(tops)}")
    return tops.pop()


@dataclass
class _Pyproject:
    pending: set[str]  # of console_scripts, gui_scripts, groups: what pyproject.toml leaves to the build backend
    declared: bool  # whether pyproject.toml declared any entry-point field statically (even as empty)
    backend: str | None


def entry_points_from_sdist(path: str | Path, filename: str | None = None) -> EntryPoints:
    """Entry points an sdist (.tar.gz, other tars, or .zip) declares statically, from its top-level
    pyproject.toml and setup.cfg only:

    - pyproject.toml `[project]`: `scripts`, `gui-scripts` and `entry-points.*` not listed in `dynamic` are
      authoritative (PEP 621: even when absent, meaning none). `[tool.poetry.scripts]` and
      `[tool.poetry.plugins.*]` are read too; without `[project]`, a `[tool.poetry]` table is the whole
      declaration.
    - setup.cfg `[options.entry_points]` fills what pyproject.toml left dynamic (or everything, without
      `[project]`). A setuptools project whose setup.cfg has no such section and no setup.py declares none.
    - Otherwise, when setup.py exists, the entry points are unknown (source "unknown: setup.py only"):
      setup.py is read as text to note whether it mentions entry_points, and is never run.

    `filename` is the archive's real name when `path` is a temporary file (messages and checks use it).
    """
    path = Path(path)
    archive = filename or path.name

    def is_wanted(name: str) -> bool:
        parts = name.removeprefix("./").split("/")
        return len(parts) == 2 and parts[1] in ("pyproject.toml", "setup.cfg", "setup.py")

    if zipfile.is_zipfile(path):
        picked, names = _zip_members(path, archive, is_wanted)
    else:
        picked, names = _tar_members(path, archive, is_wanted)
    top = _sdist_top(archive, names)
    files = {name.removeprefix("./").split("/")[1]: (name, data) for name, data in picked.items()}
    result = EntryPoints(archive, SOURCE_NO_METADATA, known=False, top=top)
    stem = re.sub(r"\.(tar\.gz|tgz|tar\.bz2|tar\.xz|tar|zip)$", "", archive, flags=re.IGNORECASE)
    if normalize_name(top) != normalize_name(stem):
        result.notes.append(f"top-level directory {_q(top)} does not match the archive name")

    py = _Pyproject(set(_SCRIPT_GROUPS) | {"groups"}, False, None)
    if "pyproject.toml" in files:
        member, data = files["pyproject.toml"]
        result.members.append(member)
        py = _read_pyproject(result, archive, member, _text(archive, member, data))
    setuptools = py.backend is None or py.backend.startswith("setuptools")
    has_setup_py = "setup.py" in files
    from_setup_cfg = False
    if py.pending and "setup.cfg" in files and setuptools:
        member, data = files["setup.cfg"]
        result.members.append(member)
        from_setup_cfg = _read_setup_cfg(result, archive, member, _text(archive, member, data), py.pending)

    if not py.pending:
        result.known, result.source = True, SOURCE_PYPROJECT
    elif from_setup_cfg or ("setup.cfg" in files and setuptools and not has_setup_py):
        result.known = True
        result.source = SOURCE_PYPROJECT_AND_SETUP_CFG if py.declared else SOURCE_SETUP_CFG
        if has_setup_py:
            result.notes.append("setup.py is present and may change entry points when run (it is not run)")
    elif has_setup_py:
        result.source = SOURCE_SETUP_PY_ONLY
        result.notes.append("entry points could only come from running setup.py, which is never run")
        member, data = files["setup.py"]
        result.members.append(member)
        lines = [i for i, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1) if "entry_points" in line]
        if lines:
            result.notes.append(f"setup.py mentions entry_points as text (line {', '.join(map(str, lines[:5]))}); "
                                "not evaluated")
    elif "pyproject.toml" in files:
        result.source = SOURCE_NOT_DECLARED
        result.notes.append("pyproject.toml leaves entry points to its build backend "
                            f"({py.backend or 'none named'}) and no setup.cfg or setup.py declares them")
    return result


def _table(archive: str, member: str, doc: dict, dotted: str) -> dict | None:
    node: Any = doc
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    if not isinstance(node, dict):
        raise PypiError(f"{archive}: {member}: [{dotted}] is not a table")
    return node


def _strings(archive: str, member: str, table: dict, where: str) -> Iterator[tuple[str, str]]:
    for name, target in table.items():
        if not isinstance(target, str):
            raise PypiError(f"{archive}: {member}: [{where}] {_q(name)} is not a string")
        yield name, target.strip()


def _read_pyproject(result: EntryPoints, archive: str, member: str, text: str) -> _Pyproject:
    """Fill `result` from pyproject.toml; return what it left undeclared, whether it declared any, its backend."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PypiError(f"{archive}: {member} is not valid TOML ({exc})") from None
    where = "pyproject.toml"
    pending = set(_SCRIPT_GROUPS) | {"groups"}
    declared = False
    project = _table(archive, member, doc, "project")
    if project is not None:
        dynamic = project.get("dynamic", [])
        if not isinstance(dynamic, list):
            raise PypiError(f"{archive}: {member}: project.dynamic is not an array")
        for key, group in (("scripts", "console_scripts"), ("gui-scripts", "gui_scripts"), ("entry-points", "groups")):
            if key in dynamic:
                result.notes.append(f"pyproject.toml lists {key} as dynamic")
                continue
            pending.discard(group)
            declared = True
            table = _table(archive, member, doc, f"project.{key}") or {}
            if key != "entry-points":
                for name, target in _strings(archive, member, table, f"project.{key}"):
                    result.add(group, name, target, where)
                continue
            for ep_group, eps in table.items():
                if ep_group in _SCRIPT_GROUPS:  # PEP 621: backends must reject these
                    raise PypiError(f"{archive}: {member}: [project.entry-points.{ep_group}] is not allowed "
                                    "(use [project.scripts] / [project.gui-scripts])")
                if not isinstance(eps, dict):
                    raise PypiError(f"{archive}: {member}: [project.entry-points.{ep_group}] is not a table")
                for name, target in _strings(archive, member, eps, f"project.entry-points.{ep_group}"):
                    result.add(ep_group, name, target, where)
        for k in ("name", "version", "requires-python", "description"):
            value = project.get(k)
            if isinstance(value, str):
                result.metadata[{"requires-python": "requires_python", "description": "summary"}.get(k, k)] = value
    poetry = _table(archive, member, doc, "tool.poetry")
    if poetry is not None:
        if project is None:  # a Poetry project without [project]: [tool.poetry] is the whole declaration
            pending.clear()
            declared = True
        scripts = _table(archive, member, doc, "tool.poetry.scripts") or {}
        for name, spec in scripts.items():
            if isinstance(spec, str):
                target = spec
            elif isinstance(spec, dict) and isinstance(spec.get("callable"), str):
                target = spec["callable"]
            elif isinstance(spec, dict) and spec.get("type", "console") == "console" and isinstance(
                    spec.get("reference"), str):
                target = spec["reference"]
            elif isinstance(spec, dict) and spec.get("type") == "file":
                result.notes.append(f"tool.poetry.scripts {_q(name)} is a file script, not an entry point")
                continue
            else:
                raise PypiError(f"{archive}: {member}: [tool.poetry.scripts] {_q(name)} is neither a string nor "
                                "a {callable|reference} table")
            result.add("console_scripts", name, target.strip(), "pyproject.toml [tool.poetry.scripts]")
            declared = True
        plugins = _table(archive, member, doc, "tool.poetry.plugins") or {}
        for group, eps in plugins.items():
            if not isinstance(eps, dict):
                raise PypiError(f"{archive}: {member}: [tool.poetry.plugins.{group}] is not a table")
            for name, target in _strings(archive, member, eps, f"tool.poetry.plugins.{group}"):
                result.add(group, name, target, "pyproject.toml [tool.poetry.plugins]")
                declared = True
        for k in ("name", "version", "description"):
            if isinstance(poetry.get(k), str):
                key = "summary" if k == "description" else k
                result.metadata[key] = result.metadata.get(key) or poetry[k]
    build = _table(archive, member, doc, "build-system") or {}
    backend = build.get("build-backend") if isinstance(build.get("build-backend"), str) else None
    return _Pyproject(pending, declared, backend)


def _read_setup_cfg(result: EntryPoints, archive: str, member: str, text: str, pending: set[str]) -> bool:
    """Fill `result` from setup.cfg's [options.entry_points], for the fields in `pending` (those pyproject.toml
    did not declare statically); returns whether that section exists."""
    parser = _ini(archive, member, text, ("=", ":"))
    if parser.has_option("options", "entry_points"):
        result.notes.append(f"setup.cfg [options] entry_points = {_q(parser.get('options', 'entry_points'))} "
                            "is not followed")
    if not parser.has_section("options.entry_points"):
        return False
    for group, block in parser.items("options.entry_points"):
        if (group if group in _SCRIPT_GROUPS else "groups") not in pending:
            result.notes.append(f"setup.cfg {group} ignored: pyproject.toml [project] declares it statically")
            continue
        for line in block.splitlines():
            line = line.strip()
            if not line:
                continue
            name, sep, target = line.partition("=")
            if not sep or not name.strip() or not target.strip():
                raise PypiError(f"{archive}: {member}: [options.entry_points] {group}: {_q(line)} is not "
                                "'name = target'")
            result.add(group, name.strip(), " ".join(target.split()), "setup.cfg")
    return True


# --- digests --------------------------------------------------------------------------------------------------------

def verify_sha256(path: str | Path, expected_hex: str) -> None:
    """Raise PypiError unless the file's SHA-256 is `expected_hex` (hashed in 1 MiB chunks)."""
    if not isinstance(expected_hex, str) or not _SHA256.match(expected_hex):
        raise PypiError(f"{Path(path).name}: expected sha256 {_q(expected_hex)} is not 64 hex digits")
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fp:
            while chunk := fp.read(HASH_CHUNK):
                digest.update(chunk)
    except OSError as exc:
        raise PypiError(f"{Path(path).name}: cannot read ({exc.strerror or exc})") from None
    if digest.hexdigest() != expected_hex.lower():
        raise PypiError(f"{Path(path).name}: sha256 mismatch: expected {expected_hex.lower()}, "
                        f"got {digest.hexdigest()}")
