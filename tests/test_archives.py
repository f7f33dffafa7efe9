"""indexer.archives: real archives built in tmp_path, hostile ones by hand where tarfile/zipfile won't."""

from __future__ import annotations

import io
import os
import pickle
import stat
import struct
import tarfile
import zipfile
from pathlib import Path

import pytest

from indexer.archives import ArchiveError, ArchiveLimits, UnpackReport, read_members, unpack
from schemas.errors import CapindexError

MiB = 1024 * 1024


# --- building archives -------------------------------------------------------------------------------------


def entry(name: str, data: bytes = b"", mode: int = 0o644, **attrs) -> tuple[tarfile.TarInfo, bytes | None]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    for key, value in attrs.items():
        setattr(info, key, value)
    return info, data


def symlink(name: str, target: str):
    return entry(name, type=tarfile.SYMTYPE, linkname=target)


def hardlink(name: str, target: str):
    return entry(name, type=tarfile.LNKTYPE, linkname=target)


def directory(name: str):
    return entry(name, mode=0o755, type=tarfile.DIRTYPE)


def make_tar(path: Path, entries, mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode, format=tarfile.PAX_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return path


def zip_entry(name: str, data: bytes | str = b"", unix_mode: int | None = None) -> tuple[zipfile.ZipInfo, bytes | str]:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    if unix_mode is not None:
        info.create_system, info.external_attr = 3, unix_mode << 16
    return info, data


def make_zip(path: Path, entries) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for info, data in entries:
            zf.writestr(info, data)
    return path


@pytest.fixture
def src(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    return tmp_path / "src"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """The parent of every target, with a bystander in it."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "bystander.txt").write_text("keep")
    return tmp_path / "out"


def refused(archive: Path, out: Path, match: str | None = None, **kwargs) -> ArchiveError:
    """Unpack must refuse `archive`, leaving the target absent and no temporary directory behind."""
    before = sorted(os.listdir(out))
    target = out / "pkg"
    with pytest.raises(ArchiveError, match=match) as caught:
        unpack(archive, target, **kwargs)
    assert not os.path.lexists(target)
    assert sorted(os.listdir(out)) == before
    assert "\n" not in str(caught.value) and str(caught.value).startswith(f"{archive.name}: ")
    return caught.value


# --- what unpacks ------------------------------------------------------------------------------------------


def test_npm_tarball_unpacks_with_strip_prefix(src, out):
    archive = make_tar(src / "pkg-1.0.0.tgz", [
        directory("package"),
        entry("package/package.json", b'{"name": "pkg", "bin": "bin/cli.js"}'),
        entry("package/index.js", b"module.exports = 1;\n"),
        entry("package/bin/cli.js", b"#!/usr/bin/env node\n", mode=0o755),
        directory("package/lib/"),
        entry("package/lib/util.js", b"exports.u = 2;\n"),
        symlink("package/bin/pkg", "cli.js"),
    ])
    report = unpack(archive, out / "pkg", strip_prefix="package/")
    root = out / "pkg"
    assert report == UnpackReport(files=4, bytes=36 + 20 + 20 + 15, symlinks=1, target=root)
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "bin", "bin/cli.js", "bin/pkg", "index.js", "lib", "lib/util.js", "package.json"]
    assert (root / "package.json").read_bytes() == b'{"name": "pkg", "bin": "bin/cli.js"}'
    assert os.readlink(root / "bin" / "pkg") == "cli.js"
    assert (root / "bin" / "pkg").read_bytes() == b"#!/usr/bin/env node\n"
    assert os.stat(root / "bin" / "cli.js").st_mode & 0o100
    assert not os.stat(root / "index.js").st_mode & 0o111
    assert sorted(os.listdir(out)) == ["bystander.txt", "pkg"]  # no temporary directory left


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_any_tar_compression_is_recognised_by_content(src, out, mode):
    archive = make_tar(src / "download.bin", [entry("repo-abc/README.md", b"hello")], mode=mode)
    report = unpack(archive, out / "pkg")
    assert (out / "pkg" / "repo-abc" / "README.md").read_bytes() == b"hello"
    assert (report.files, report.bytes) == (1, 5)


def test_wheel_unpacks(src, out):
    archive = make_zip(src / "pkg-1.0-py3-none-any.whl", [
        zip_entry("pkg/__init__.py", "VERSION = '1.0'\n"),
        zip_entry("pkg/data/", unix_mode=stat.S_IFDIR | 0o755),
        zip_entry("pkg/tool.sh", "#!/bin/sh\n", unix_mode=stat.S_IFREG | 0o755),
        zip_entry("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n"),
    ])
    report = unpack(archive, out / "pkg")
    root = out / "pkg"
    assert (report.files, report.symlinks) == (3, 0)
    assert (root / "pkg" / "data").is_dir()
    assert (root / "pkg-1.0.dist-info" / "METADATA").read_text() == "Name: pkg\nVersion: 1.0\n"
    assert os.stat(root / "pkg" / "tool.sh").st_mode & 0o100
    assert not os.stat(root / "pkg" / "__init__.py").st_mode & 0o111


def test_permissions_keep_only_the_executable_bit(src, out):
    archive = make_tar(src / "p.tgz", [entry("suid", b"x", mode=0o6777), entry("sticky", b"y", mode=0o1666)])
    unpack(archive, out / "pkg")
    suid, sticky = os.stat(out / "pkg" / "suid").st_mode, os.stat(out / "pkg" / "sticky").st_mode
    assert suid & 0o7000 == 0 and suid & 0o100 and not suid & 0o022
    assert sticky & 0o7000 == 0 and not sticky & 0o111 and not sticky & 0o022


def test_target_may_be_an_empty_directory_but_nothing_else(src, out):
    archive = make_tar(src / "p.tgz", [entry("a.txt", b"a")])
    (out / "pkg").mkdir()
    unpack(archive, out / "pkg")
    assert (out / "pkg" / "a.txt").read_bytes() == b"a"
    with pytest.raises(FileExistsError):
        unpack(archive, out / "pkg")
    assert os.listdir(out / "pkg") == ["a.txt"]
    assert sorted(os.listdir(out)) == ["bystander.txt", "pkg"]


def test_symlinks_inside_the_tree_are_kept(src, out):
    archive = make_tar(src / "p.tgz", [
        entry("lib/real.js", b"real"),
        symlink("docs", "lib"),  # to a directory
        symlink("lib/again.js", "../docs/real.js"),  # through another link, still inside
        symlink("dangling", "not/there"),  # dangling but inside: harmless
        symlink("self", "."),
    ])
    report = unpack(archive, out / "pkg")
    root = out / "pkg"
    assert report.symlinks == 4
    assert (root / "lib" / "again.js").read_bytes() == b"real"
    assert (root / "docs" / "real.js").read_bytes() == b"real"
    assert os.readlink(root / "dangling") == "not/there"


def test_hardlink_to_an_earlier_file_becomes_a_copy(src, out):
    archive = make_tar(src / "p.tgz", [
        entry("package/bin/a.js", b"same bytes", mode=0o755),
        hardlink("package/bin/b.js", "package/bin/a.js"),
    ])
    report = unpack(archive, out / "pkg", strip_prefix="package")
    a, b = out / "pkg" / "bin" / "a.js", out / "pkg" / "bin" / "b.js"
    assert b.read_bytes() == b"same bytes" and os.stat(b).st_mode & 0o100
    assert os.stat(a).st_ino != os.stat(b).st_ino and os.stat(a).st_nlink == 1
    assert (report.files, report.bytes) == (2, 20)


# --- names -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, why", [
    ("/etc/passwd", "is an absolute path"),
    ("../x", "escapes the target"),
    ("package/../../x", "escapes the target"),
    ("a/../../x", "escapes the target"),
    ("", "has an empty name"),
    ("C:/Windows/x", "is an absolute path"),
    ("..\\..\\x", "has a backslash"),
    ("x" * 1100, "longer than max_path_length=1024"),
])
def test_bad_names_are_refused(src, out, name, why):
    archive = make_tar(src / "p.tgz", [entry("fine.txt", b"ok"), entry(name, b"bad")])
    error = refused(archive, out, match=why)
    assert error.member == name


def test_a_nul_byte_hidden_in_a_pax_name_is_refused(src, out):
    info, data = entry("innocent", b"bad")
    info.pax_headers = {"path": "evil\0.txt"}
    refused(make_tar(src / "p.tgz", [(info, data)]), out, match="NUL byte")


def test_a_nul_byte_hidden_in_a_zip_name_is_refused(src, out):
    archive = make_zip(src / "p.zip", [zip_entry("evilXtxt", b"bad")])
    raw = archive.read_bytes()
    archive.write_bytes(raw.replace(b"evilXtxt", b"evil\0txt"))  # zipfile itself would cut the name at the NUL
    refused(archive, out, match="NUL byte")


def test_the_message_names_the_archive_and_the_member(src, out):
    archive = make_tar(src / "evil-1.0.0.tgz", [entry("package/../../etc/passwd", b"root::0:0")])
    error = refused(archive, out, strip_prefix="package/")
    assert str(error) == "evil-1.0.0.tgz: member package/../../etc/passwd escapes the target"
    assert (error.archive, error.member) == ("evil-1.0.0.tgz", "package/../../etc/passwd")
    assert isinstance(error, CapindexError) and isinstance(error, ValueError)
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_an_archive_root_entry_is_not_outside_the_strip_prefix(src, out):
    # `tar czf demo-1.0.tar.gz ./demo-1.0` writes a member for "./" itself
    archive = make_tar(src / "demo-1.0.tar.gz", [directory("./"), directory("./demo-1.0"),
                                                 entry("./demo-1.0/setup.py", b"x")])
    unpack(archive, out / "demo", strip_prefix="demo-1.0/")
    assert [p.name for p in (out / "demo").iterdir()] == ["setup.py"]
    refused(make_tar(src / "f.tgz", [entry("./", b"x")]), out, match="names the target directory itself",
            strip_prefix="demo-1.0/")


def test_members_outside_the_strip_prefix_are_refused(src, out):
    archive = make_tar(src / "p.tgz", [entry("package/index.js", b"1"), entry("other/index.js", b"2")])
    refused(archive, out, match="member other/index.js is outside package/", strip_prefix="package/")


def test_duplicate_files_are_refused(src, out):
    archive = make_tar(src / "p.tgz", [entry("a.txt", b"first"), entry("a.txt", b"second")])
    refused(archive, out, match="member a.txt would replace an earlier file")


# --- links -------------------------------------------------------------------------------------------------


def test_symlink_to_etc_passwd_is_refused(src, out):
    archive = make_tar(src / "p.tgz", [symlink("passwd", "/etc/passwd")])
    refused(archive, out, match="member passwd is a symlink to /etc/passwd, which is an absolute path")


def test_relative_symlink_out_of_the_tree_is_refused(src, out):
    archive = make_tar(src / "p.tgz", [entry("package/a", b"a"), symlink("package/up", "../../../../etc/passwd")])
    refused(archive, out, match="member package/up is a symlink to ../../../../etc/passwd, which escapes")


def test_zip_symlink_to_etc_passwd_is_refused(src, out):
    archive = make_zip(src / "p.whl", [zip_entry("pkg/passwd", "/etc/passwd", unix_mode=stat.S_IFLNK | 0o777)])
    refused(archive, out, match="member pkg/passwd is a symlink to /etc/passwd")


def test_zip_symlink_inside_the_tree_is_kept(src, out):
    archive = make_zip(src / "p.zip", [
        zip_entry("pkg/real.py", "x = 1\n"), zip_entry("pkg/alias.py", "real.py", unix_mode=stat.S_IFLNK | 0o777)])
    assert unpack(archive, out / "pkg").symlinks == 1
    assert (out / "pkg" / "pkg" / "alias.py").read_text() == "x = 1\n"


@pytest.mark.parametrize("order", ["link-first", "target-first"])
def test_symlink_chain_that_escapes_is_refused(src, out, order):
    # each link alone stays inside (d/b -> .. is the root; d/a -> b/.. reads as d), but d/b/.. is above the root
    links = [symlink("d/a", "b/.."), symlink("d/b", "..")]
    entries = [entry("d/file", b"f"), *(links if order == "link-first" else links[::-1])]
    refused(make_tar(src / "p.tgz", entries), out, match="member d/a is a symlink to b/.., which escapes the target")


def test_symlink_loop_is_refused(src, out):
    refused(make_tar(src / "p.tgz", [symlink("a", "b"), symlink("b", "a")]), out, match="loop")


@pytest.mark.parametrize("escape", ["../outside", "../../out/pkg-evil"])
def test_writing_through_an_escaping_symlink_is_refused(src, out, tmp_path, escape):
    (tmp_path / "outside").mkdir()
    archive = make_tar(src / "p.tgz", [symlink("a", escape), entry("a/x", b"pwned")])
    refused(archive, out, match="member a/x goes through the symlink a")
    assert os.listdir(tmp_path / "outside") == []


def test_writing_through_a_symlink_inside_the_tree_is_refused(src, out):
    archive = make_tar(src / "p.tgz", [directory("sub"), symlink("a", "sub"), entry("a/x", b"x")])
    refused(archive, out, match="member a/x goes through the symlink a")


def test_a_file_replacing_a_symlink_is_refused(src, out):
    archive = make_tar(src / "p.tgz", [symlink("a", "b"), entry("a", b"x")])
    refused(archive, out, match="member a would replace an earlier symlink")


@pytest.mark.parametrize("link, why", [
    ("../../etc/passwd", "escapes the target"),
    ("/etc/passwd", "is an absolute path"),
    ("later.txt", "is not a file extracted before it"),
    ("link", "is not a file extracted before it"),  # a symlink, not a file
])
def test_bad_hardlinks_are_refused(src, out, link, why):
    archive = make_tar(src / "p.tgz", [symlink("link", "later.txt"), hardlink("h", link), entry("later.txt", b"x")])
    refused(archive, out, match=f"member h is a hardlink to {link}, which {why}")


# --- kinds -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, words", [
    (tarfile.CHRTYPE, "a character device"),
    (tarfile.BLKTYPE, "a block device"),
    (tarfile.FIFOTYPE, "a fifo"),
    (tarfile.CONTTYPE, "a contiguous file"),
])
def test_devices_fifos_and_other_kinds_are_refused(src, out, kind, words):
    archive = make_tar(src / "p.tgz", [entry("ok.txt", b"ok"), entry("dev/thing", type=kind, devmajor=1, devminor=3)])
    refused(archive, out, match=f"member dev/thing is {words}$")


def test_zip_fifo_is_refused(src, out):
    archive = make_zip(src / "p.zip", [zip_entry("pipe", b"", unix_mode=stat.S_IFIFO | 0o644)])
    refused(archive, out, match="member pipe is a fifo")


def test_a_file_that_is_not_an_archive_is_refused(src, out):
    archive = src / "p.tgz"
    archive.write_bytes(b"<html>Not Found</html>" * 40)
    refused(archive, out, match=r"p.tgz: archive is neither a zip nor a tar")


# --- headers that lie --------------------------------------------------------------------------------------


def test_tar_header_claiming_more_data_than_there_is(src, out):
    info = tarfile.TarInfo("big.bin")
    info.size = 10 * MiB
    archive = src / "p.tar"
    archive.write_bytes(info.tobuf(tarfile.USTAR_FORMAT) + b"x" * 100)  # then the file just ends
    refused(archive, out, match="member big.bin could not be unpacked: unexpected end of data")


def test_tar_header_claiming_less_data_than_there_is(src, out):
    info = tarfile.TarInfo("small.txt")
    info.size = 10
    payload = b"y" * 10 + b"\0" * 502 + b"z" * 2048  # the rest of the real data, where a header should be
    archive = src / "p.tar"
    archive.write_bytes(info.tobuf(tarfile.USTAR_FORMAT) + payload + b"\0" * 1024)
    refused(archive, out, match="archive has a damaged header after byte 1024")  # not a quiet early end


def test_oversized_pax_header_is_refused_before_it_is_read(src, out):
    refused(make_tar(src / "p.tgz", [entry("a" * 100_000, b"x")]), out, match="extended header")


def test_zip_header_understating_the_size(src, out):
    archive = make_zip(src / "p.zip", [zip_entry("bomb.bin", b"\0" * 4 * MiB)])
    raw = bytearray(archive.read_bytes())
    central = raw.index(b"PK\x01\x02")
    struct.pack_into("<I", raw, 22, 100)  # local header: uncompressed size
    struct.pack_into("<I", raw, central + 24, 100)  # central directory: uncompressed size
    archive.write_bytes(bytes(raw))
    assert zipfile.ZipFile(archive).getinfo("bomb.bin").file_size == 100
    refused(archive, out, match="member bomb.bin could not be unpacked")


# --- caps --------------------------------------------------------------------------------------------------


def test_total_bytes_cap(src, out):
    entries = [entry(f"f{i}", b"x" * 400) for i in range(3)]
    limits = ArchiveLimits(max_total_bytes=1200)
    assert unpack(make_tar(src / "exact.tgz", entries), out / "exact", limits).bytes == 1200
    error = refused(make_tar(src / "p.tgz", entries), out, limits=ArchiveLimits(max_total_bytes=1199))
    assert str(error) == "p.tgz: member f2 takes the archive over max_total_bytes=1199"


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_file_count_cap(src, out, kind):
    names = [f"f{i}" for i in range(6)]
    if kind == "tar":
        archive = make_tar(src / "p.tgz", [entry(name, b"x") for name in names])
    else:
        archive = make_zip(src / "p.zip", [zip_entry(name, b"x") for name in names])
    assert unpack(archive, out / "exact", ArchiveLimits(max_files=6)).files == 6
    # a zip's central directory tells the count before anything is decompressed; a tar's is counted as it goes
    why = "archive has 6 members, over max_files=5" if kind == "zip" else "member f5 takes the archive over max_files=5"
    refused(archive, out, match=why, limits=ArchiveLimits(max_files=5))


def test_implied_directories_count_as_files(src, out):
    archive = make_tar(src / "p.tgz", [entry("a/b/c/d.txt", b"x")])  # four entries: three directories, a file
    refused(archive, out, match="max_files=3", limits=ArchiveLimits(max_files=3))


def test_single_file_cap(src, out):
    archive = make_tar(src / "p.tgz", [entry("small", b"x" * 10), entry("big", b"x" * 1001)])
    limits = ArchiveLimits(max_file_bytes=1000)
    refused(archive, out, match="member big is larger than max_file_bytes=1000", limits=limits)


def test_zip_bomb_is_stopped_by_the_bytes_written(src, out):
    archive = make_zip(src / "bomb.zip", [zip_entry("zeros.bin", b"\0" * 64 * MiB)])
    assert archive.stat().st_size < MiB  # highly compressible: the archive is small, its content is not
    limits = ArchiveLimits(max_file_bytes=MiB)
    refused(archive, out, match="member zeros.bin is larger than max_file_bytes", limits=limits)


def test_many_small_zip_members_are_stopped_by_the_total(src, out):
    archive = make_zip(src / "bomb.zip", [zip_entry(f"z{i}", b"\0" * MiB) for i in range(8)])
    refused(archive, out, match="max_total_bytes", limits=ArchiveLimits(max_total_bytes=5 * MiB))


# --- read_members ------------------------------------------------------------------------------------------


def test_read_members_from_a_wheel(src):
    archive = make_zip(src / "pkg-1.0-py3-none-any.whl", [
        zip_entry("pkg/__init__.py", "x = 1\n"),
        zip_entry("pkg-1.0.dist-info/METADATA", "Name: pkg\n"),
        zip_entry("pkg-1.0.dist-info/entry_points.txt", "[capability]\ncap = pkg:cap\n"),
    ])
    found = read_members(archive, lambda name: name.endswith((".dist-info/METADATA", ".dist-info/entry_points.txt")))
    assert found == {"pkg-1.0.dist-info/METADATA": b"Name: pkg\n",
                     "pkg-1.0.dist-info/entry_points.txt": b"[capability]\ncap = pkg:cap\n"}


def test_read_members_from_a_tarball_does_not_follow_links(src, tmp_path):
    archive = make_tar(src / "pkg-1.0.tar.gz", [
        entry("./pkg-1.0/pyproject.toml", b"[project]\nname = 'pkg'\n"),
        entry("pkg-1.0/big.bin", b"\0" * 4096),
        symlink("pkg-1.0/setup.cfg", "pyproject.toml"),
        entry("package/package.json", b'{"name": "pkg"}'),
    ])
    wanted = {"pyproject.toml", "setup.cfg", "package.json"}
    found = read_members(archive, lambda name: name.rsplit("/", 1)[-1] in wanted)
    assert found == {"pkg-1.0/pyproject.toml": b"[project]\nname = 'pkg'\n", "package/package.json": b'{"name": "pkg"}'}
    assert sorted(os.listdir(tmp_path)) == ["src"]  # nothing extracted


def test_read_members_caps_each_member(src):
    archive = make_tar(src / "p.tgz", [entry("package/package.json", b"{" + b" " * 2000 + b"}")])
    with pytest.raises(ArchiveError, match="member package/package.json is larger than max_member_bytes=1000"):
        read_members(archive, lambda name: True, max_member_bytes=1000)
    found = read_members(archive, lambda name: True, max_member_bytes=2002)
    assert found == {"package/package.json": b"{" + b" " * 2000 + b"}"}


@pytest.mark.parametrize("entries, why", [
    ([entry("../../etc/passwd", b"x")], "escapes the target"),
    ([entry("dev", type=tarfile.CHRTYPE)], "is a character device"),
    ([entry("setup.cfg", b"a"), entry("setup.cfg", b"b")], "appears twice"),
    ([entry("skipped.bin", b"x" * 2000)], "declares 2000 bytes, over max_file_bytes=1000"),
])
def test_read_members_applies_the_same_checks(src, entries, why):
    archive = make_tar(src / "p.tgz", entries)
    with pytest.raises(ArchiveError, match=why):
        read_members(archive, lambda name: name == "setup.cfg", limits=ArchiveLimits(max_file_bytes=1000))
