"""Safe unpacking of downloaded archives: npm tarballs, wheels, sdists and GitHub tarballs.

Anyone can publish a package, so an archive is hostile until proven otherwise. Members are streamed one by
one (never `extractall`) and checked first: names must stay inside the target once normalised, symlinks must
resolve inside the tree, hardlinks become copies of files already written, devices and fifos are refused,
and the caps count the bytes actually written, not what headers claim. Everything lands in a temporary
directory beside the target that is renamed into place only once the whole archive has passed, so a refused
archive leaves nothing behind.
"""

from __future__ import annotations

import errno
import lzma
import os
import posixpath
import re
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, BinaryIO, Self

from schemas.errors import CapindexError

__all__ = ["ArchiveError", "ArchiveLimits", "UnpackReport", "read_members", "unpack"]

MiB = 1024 * 1024
_CHUNK = MiB
_MAX_EXTENDED_HEADER = 64 * 1024  # a pax record or GNU long name: tarfile reads each whole into memory
_HEADER_ALLOWANCE = 4096  # decompressed bytes per entry beyond its data: header blocks, pax records, padding
_MAX_LINK_HOPS = 40  # as Linux, before ELOOP
_DRIVE = re.compile(r"[A-Za-z]:")
_WRITABLE = ("file", "dir", "symlink", "hardlink")  # any other kind is refused, worded as "is <kind>"
_EXTENDED = (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE, tarfile.GNUTYPE_LONGNAME,
             tarfile.GNUTYPE_LONGLINK)
_TAR_KINDS = {tarfile.REGTYPE: "file", tarfile.AREGTYPE: "file", tarfile.DIRTYPE: "dir",
              tarfile.SYMTYPE: "symlink", tarfile.LNKTYPE: "hardlink", tarfile.CHRTYPE: "a character device",
              tarfile.BLKTYPE: "a block device", tarfile.FIFOTYPE: "a fifo", tarfile.CONTTYPE: "a contiguous file",
              tarfile.GNUTYPE_SPARSE: "a sparse file"}
_ZIP_KINDS = {stat.S_IFLNK: "symlink", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
              stat.S_IFIFO: "a fifo", stat.S_IFSOCK: "a socket"}
_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
# What a damaged archive (or a full disk) makes the standard library raise; reported as an ArchiveError.
_READ_ERRORS = (tarfile.TarError, zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error,
                lzma.LZMAError, RecursionError, UnicodeDecodeError)
# ... except these, which are this machine's trouble, not the archive's: they propagate as they are
_ENVIRONMENT = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO, errno.EMFILE, errno.ENFILE,
                errno.EACCES, errno.EPERM}


@dataclass(frozen=True)
class ArchiveLimits:
    max_total_bytes: int = 512 * MiB  # bytes written, all files together
    max_files: int = 20_000  # entries created: files, directories (implied ones too), symlinks
    max_file_bytes: int = 128 * MiB
    max_path_length: int = 1024  # characters in a member name or a link target


@dataclass(frozen=True)
class UnpackReport:
    files: int  # regular files, hardlinks (written as copies) included
    bytes: int
    symlinks: int
    target: Path


class ArchiveError(CapindexError, ValueError):
    """An archive refused as unsafe, over a cap, or unreadable. One line: the archive, the member, why."""

    def __init__(self, archive: str, reason: str, member: str | None = None):
        self.archive, self.reason, self.member = archive, reason, member
        subject = "archive" if member is None else f"member {_show(member)}"
        super().__init__(f"{_show(archive)}: {subject} {reason}")

    def __reduce__(self):  # crosses process boundaries (the crawl worker) intact
        return (ArchiveError, (self.archive, self.reason, self.member))


def unpack(archive: str | Path, target: str | Path, limits: ArchiveLimits = ArchiveLimits(), *,
           strip_prefix: str | None = None) -> UnpackReport:
    """Unpack a tar (plain, gz, bz2, xz) or zip archive, told apart by content, into `target`, which must not
    exist or be an empty directory (FileExistsError otherwise) in an existing parent. `strip_prefix` (npm's
    "package/") is removed from every name; a member outside it is refused, not dropped, so the tree is never
    quietly missing what the publisher shipped. Raises ArchiveError, leaving nothing behind."""
    archive, target = Path(archive), Path(target)
    if os.path.lexists(target) and (target.is_symlink() or not target.is_dir() or any(target.iterdir())):
        raise FileExistsError(f"{target}: unpack target exists and is not an empty directory")
    with open(archive, "rb") as f:
        # beside the target, so the final rename is atomic; hidden, so a crawler listing the parent skips it
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".unpacking", dir=target.parent))
        try:
            with _Context(archive, "unpacked") as context:
                tree = _Tree(tmp, limits, strip_prefix)
                for member in _members(f, limits):
                    context.member = member.name
                    tree.add(member)
                    context.member = None
                tree.finish()
            os.rename(tmp, target)  # replaces an empty directory; fails if one appeared meanwhile
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return UnpackReport(files=tree.files, bytes=tree.bytes, symlinks=len(tree.links), target=target)


def read_members(archive: str | Path, wanted: Callable[[str], bool], *, max_member_bytes: int = MiB,
                 limits: ArchiveLimits = ArchiveLimits()) -> dict[str, bytes]:
    """The regular-file members whose normalised name satisfies `wanted`, read without extracting anything.
    Links are never followed: a wanted name that is a link is absent. Every member passes the same name, kind
    and duplicate checks as in `unpack`, so both give an archive the same verdict."""
    archive = Path(archive)
    found: dict[str, bytes] = {}
    seen: set[str] = set()
    count = total = 0
    with open(archive, "rb") as f, _Context(archive, "read") as context:
        for member in _members(f, limits):
            context.member = member.name
            count += 1
            if count > limits.max_files:
                raise _Refused(f"takes the archive over max_files={limits.max_files}")
            if member.kind not in _WRITABLE:
                raise _Refused(f"is {member.kind}")
            name = _normalise(member.name, limits)
            if member.kind != "dir":
                if name in seen:
                    raise _Refused("appears twice")
                seen.add(name)
            if member.kind == "file" and wanted(name):
                with member.open() as stream:
                    data = stream.read(max_member_bytes + 1)
                if len(data) > max_member_bytes:
                    raise _Refused(f"is larger than max_member_bytes={max_member_bytes}")
                total += len(data)
                if total > limits.max_total_bytes:
                    raise _Refused(f"takes the archive over max_total_bytes={limits.max_total_bytes}")
                found[name] = data
            elif member.kind == "file" and member.size > limits.max_file_bytes:
                # skipped unread, but skipping decompresses it all: the claim is enough to refuse
                raise _Refused(f"declares {member.size} bytes, over max_file_bytes={limits.max_file_bytes}")
            context.member = None
    return found


class _Refused(Exception):
    """Why a member (or, without one, the archive) is refused; `_Context` makes it an ArchiveError."""

    def __init__(self, reason: str, member: str | None = None):
        super().__init__(reason)
        self.reason, self.member = reason, member


class _Context:
    """Turns whatever goes wrong while reading an archive into one ArchiveError naming the member at hand."""

    def __init__(self, archive: Path, action: str):
        self.archive, self.action, self.member = archive.name, action, None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind, exc, traceback) -> None:
        if isinstance(exc, _Refused):
            raise ArchiveError(self.archive, exc.reason, self.member if exc.member is None else exc.member) from None
        if isinstance(exc, _READ_ERRORS) and getattr(exc, "errno", None) not in _ENVIRONMENT:
            why = " ".join(str(exc).split()) or type(exc).__name__  # one line, whatever the library said
            raise ArchiveError(self.archive, f"could not be {self.action}: {why}", self.member) from exc


@dataclass
class _Member:
    name: str  # as stored in the archive: checked and normalised by the caller
    kind: str  # one of _WRITABLE, or what it is, to be refused: "a fifo"
    executable: bool
    size: int  # as declared: only ever used to refuse, never trusted as a bound
    link: str | None  # a tar link's target; a zip symlink keeps its target as its data
    open: Callable[[], IO[bytes]]

    def link_target(self, limits: ArchiveLimits) -> str:
        if self.link is not None:
            return self.link
        with self.open() as stream:
            return stream.read(limits.max_path_length + 1).decode("utf-8", "surrogateescape")


def _members(f: BinaryIO, limits: ArchiveLimits) -> Iterator[_Member]:
    magic = f.read(4)
    f.seek(0)
    return _zip_members(f, limits) if magic in (b"PK\x03\x04", b"PK\x05\x06") else _tar_members(f, limits)


class _Header(tarfile.TarInfo):
    """tarfile's header parsing, made strict where a hostile archive could abuse its leniency."""

    @classmethod
    def frombuf(cls, buf, encoding, errors):
        info = super().frombuf(buf, encoding, errors)
        if info.type in _EXTENDED and info.size > _MAX_EXTENDED_HEADER:  # refused before tarfile reads it
            raise _Refused(f"has a {info.size}-byte extended header, over {_MAX_EXTENDED_HEADER}")
        return info

    @classmethod
    def fromtarfile(cls, tar):
        try:
            return super().fromtarfile(tar)
        except (tarfile.InvalidHeaderError, tarfile.TruncatedHeaderError):
            # past the first header, tarfile takes a damaged one for the end of the archive and quietly drops
            # the rest: that is also how a member whose header understates its size would look
            if tar.offset == 0:
                raise  # not a tar at all: tarfile.open tries the next compression
            raise _Refused(f"has a damaged header after byte {tar.offset}") from None


def _open_tar(f: BinaryIO) -> tarfile.TarFile:
    try:
        return tarfile.open(fileobj=f, mode="r:*", tarinfo=_Header)
    except tarfile.ReadError:
        raise _Refused("is neither a zip nor a tar (plain, gz, bz2 or xz), or is damaged") from None


def _tar_members(f: BinaryIO, limits: ArchiveLimits) -> Iterator[_Member]:
    # bounds the decompression spent on headers, which the byte caps do not see
    budget = limits.max_total_bytes + limits.max_files * _HEADER_ALLOWANCE
    with _open_tar(f) as tar:
        for info in tar:
            if info.offset_data > budget:
                raise _Refused(f"has over {budget} bytes of headers and data", info.name)
            kind = _TAR_KINDS.get(info.type, f"an entry of unknown type {info.type!r}")
            yield _Member(info.name, kind, bool(info.mode & 0o111), info.size, info.linkname,
                          partial(tar.extractfile, info))


def _zip_members(f: BinaryIO, limits: ArchiveLimits) -> Iterator[_Member]:
    with zipfile.ZipFile(f) as zf:
        infos = zf.infolist()
        if len(infos) > limits.max_files:  # the central directory tells, before anything is decompressed
            raise _Refused(f"has {len(infos)} members, over max_files={limits.max_files}")
        for info in infos:
            mode = info.external_attr >> 16  # unix mode, when the zip was made on unix
            fmt = stat.S_IFMT(mode)
            if info.flag_bits & 0x1:
                kind = "an encrypted file"
            elif info.compress_type not in _ZIP_METHODS:
                kind = f"compressed with unsupported method {info.compress_type}"
            elif fmt in (0, stat.S_IFREG, stat.S_IFDIR):
                kind = "dir" if info.is_dir() else "file"
            else:
                kind = _ZIP_KINDS.get(fmt, f"an entry of unknown type {fmt:o}")
            # zipfile cuts a name at its first NUL; the name as stored shows the trick
            name = info.orig_filename if "\0" in info.orig_filename else info.filename
            yield _Member(name, kind, bool(mode & 0o111), info.file_size, None, partial(zf.open, info))


def _check_text(name: str, limits: ArchiveLimits) -> None:
    """Refuse what no normalisation makes safe, in a member name or a symlink target."""
    if not name:
        raise _Refused("has an empty name")
    if "\0" in name:
        raise _Refused("has a NUL byte in its name")
    if "\\" in name:  # a separator on Windows: "..\\..\\x" escapes there
        raise _Refused("has a backslash in its name")
    if len(name) > limits.max_path_length:
        raise _Refused(f"has a name longer than max_path_length={limits.max_path_length}")
    if name.startswith("/") or _DRIVE.match(name):
        raise _Refused("is an absolute path")


def _normalise(name: str, limits: ArchiveLimits) -> str:
    """`name` relative to the target ("" for the target itself), or _Refused."""
    _check_text(name, limits)
    path = posixpath.normpath(name)
    if path == ".." or path.startswith("../"):
        raise _Refused("escapes the target")
    return "" if path == "." else path


class _Tree:
    """What has been written under `root`, so that no write replaces an entry or goes through a symlink.
    Symlinks are only recorded until `finish`: none exists on disk while files are written."""

    def __init__(self, root: Path, limits: ArchiveLimits, strip_prefix: str | None):
        self.root, self.limits = root, limits
        self.prefix = None if strip_prefix is None else posixpath.normpath(strip_prefix)
        if self.prefix is not None and (self.prefix in (".", "..") or self.prefix.startswith(("/", "../"))):
            raise ValueError(f"strip_prefix {strip_prefix!r} is not a relative directory")
        self.kinds: dict[str, str] = {"": "dir"}  # path -> "dir" | "file" | "symlink"
        self.links: dict[str, tuple[str, str]] = {}  # path -> (member name, target)
        self.resolved: dict[str, list[str]] = {}  # symlink path -> where it leads, as the prefixes of that path
        self.entries = self.files = self.bytes = 0

    def place(self, name: str) -> str:
        path = _normalise(name, self.limits)
        if self.prefix is None:
            return path
        if path in (self.prefix, ""):  # the prefix's directory, or the archive's own root (`./`)
            return ""
        if not path.startswith(self.prefix + "/"):
            raise _Refused(f"is outside {self.prefix}/")
        return path[len(self.prefix) + 1:]

    def add(self, member: _Member) -> None:
        if member.kind not in _WRITABLE:
            raise _Refused(f"is {member.kind}")
        path = self.place(member.name)
        if not path:
            if member.kind == "dir":
                return
            raise _Refused("names the target directory itself")
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            kind = self.kinds.get(parent)
            if kind is None:
                self._mkdir(parent)
            elif kind != "dir":
                raise _Refused(f"goes through the {kind} {_show(parent)}")
        if path in self.kinds:
            if member.kind == "dir" == self.kinds[path]:
                return
            raise _Refused(f"would replace an earlier {self.kinds[path]} of the same name")
        if member.kind == "dir":
            self._mkdir(path)
        elif member.kind == "symlink":
            target = member.link_target(self.limits)
            try:
                _check_text(target, self.limits)
            except _Refused as refused:
                raise _Refused(f"is a symlink to {_show(target)}, which {refused.reason}") from None
            self._count()
            self.kinds[path] = "symlink"
            self.links[path] = (member.name, target)
        elif member.kind == "hardlink":
            link = member.link or ""
            try:
                source = self.place(link)
            except _Refused as refused:
                raise _Refused(f"is a hardlink to {_show(link)}, which {refused.reason}") from None
            if self.kinds.get(source) != "file":
                raise _Refused(f"is a hardlink to {_show(link)}, which is not a file extracted before it")
            with open(self.root / source, "rb") as stream:  # a copy: no inode shared with anything
                self._write(path, stream, bool(os.fstat(stream.fileno()).st_mode & 0o100))
        else:
            with member.open() as stream:
                self._write(path, stream, member.executable)

    def finish(self) -> None:
        """Check every symlink against the final tree, then create them: a later link can change where an
        earlier one leads (`d/a -> b/..`, then `d/b -> ..`), so none can be judged on its own."""
        for path in self.links:
            self._resolve(path, 0)
        for path, (_, target) in self.links.items():
            os.symlink(target, self.root / path)

    def _resolve(self, link: str, hops: int) -> list[str]:
        """Where `link` leads, following the tree's links as the OS would; refused if it leaves the tree.
        A missing component is walked lexically: the OS would fail there, so this only errs towards refusing."""
        if link in self.resolved:
            return self.resolved[link]
        name, target = self.links[link]
        if hops > _MAX_LINK_HOPS:
            raise _Refused(f"is a symlink to {_show(target)}, in a loop or a chain too long to follow", name)
        parts = link.split("/")
        here = ["/".join(parts[:i]) for i in range(1, len(parts))]  # the link's directory, as its path's prefixes
        for part in target.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if not here:
                    raise _Refused(f"is a symlink to {_show(target)}, which escapes the target", name)
                here.pop()
                continue
            here.append(f"{here[-1]}/{part}" if here else part)
            if self.kinds.get(here[-1]) == "symlink":
                here = list(self._resolve(here[-1], hops + 1))
        self.resolved[link] = here
        return here

    def _count(self) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise _Refused(f"takes the archive over max_files={self.limits.max_files}")

    def _mkdir(self, path: str) -> None:
        self._count()
        os.mkdir(self.root / path, 0o755)  # never exist_ok: something already there is a collision
        self.kinds[path] = "dir"

    def _write(self, path: str, stream: IO[bytes], executable: bool) -> None:
        self._count()
        self.kinds[path] = "file"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        # the executable bit is all that is kept: never setuid, setgid, sticky or world-writable
        with os.fdopen(os.open(self.root / path, flags, 0o755 if executable else 0o644), "wb") as out:
            size = 0
            while chunk := stream.read(_CHUNK):  # counted as decompressed: headers can lie, zip bombs don't
                size += len(chunk)
                self.bytes += len(chunk)
                if size > self.limits.max_file_bytes:
                    raise _Refused(f"is larger than max_file_bytes={self.limits.max_file_bytes}")
                if self.bytes > self.limits.max_total_bytes:
                    raise _Refused(f"takes the archive over max_total_bytes={self.limits.max_total_bytes}")
                out.write(chunk)
        self.files += 1


def _show(name: str) -> str:
    """A name as it can stand in a one-line message: quoted when empty or holding control characters."""
    shown = name if name and name.isprintable() else repr(name)
    return shown if len(shown) <= 200 else f"{shown[:200]}..."
