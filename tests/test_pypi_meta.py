"""PyPI metadata: resolving requests, release records, entry points read from archives, sha256 checks.

Real PyPI responses and archives are in tests/fixtures/pypi (see its README); edge cases are built in tmp_path.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.version import InvalidVersion
from packaging.version import Version as PackagingVersion

from indexer.pypi_meta import (
    MAX_MEMBER_BYTES,
    SOURCE_NO_METADATA,
    SOURCE_NOT_DECLARED,
    SOURCE_PYPROJECT,
    SOURCE_PYPROJECT_AND_SETUP_CFG,
    SOURCE_SETUP_CFG,
    SOURCE_SETUP_PY_ONLY,
    SOURCE_WHEEL,
    PypiError,
    entry_points_from_sdist,
    entry_points_from_wheel,
    normalize_name,
    parse_version,
    release_record,
    resolve,
    verify_sha256,
)
from schemas.errors import CapindexError

FIXTURES = Path(__file__).parent / "fixtures" / "pypi"
ARCHIVES = {  # fixture archive -> the project JSON that lists it
    "pyflakes-4.1.0-py2.py3-none-any.whl": "pyflakes.json",
    "pyflakes-4.1.0.tar.gz": "pyflakes.json",
    "wheel-0.48.0-py3-none-any.whl": "wheel.json",
    "wheel-0.48.0.tar.gz": "wheel.json",
}


def project(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))


def listed_file(json_name: str, filename: str) -> dict:
    for files in json.loads((FIXTURES / json_name).read_text("utf-8"))["releases"].values():
        for f in files:
            if f["filename"] == filename:
                return f
    raise AssertionError(f"{filename} is not listed in {json_name}")


def make_tar(path: Path, members: dict[str, bytes | tuple[str, str]], mode: str = "w:gz") -> Path:
    """A tar with regular files (bytes) and links (("symlink", target))."""
    with tarfile.open(path, mode) as tf:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            if isinstance(content, tuple):
                info.type, info.linkname = tarfile.SYMTYPE, content[1]
                tf.addfile(info)
            else:
                info.size = len(content)
                tf.addfile(info, io.BytesIO(content))
    return path


def make_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            zf.writestr(zipfile.ZipInfo(name), content, zipfile.ZIP_DEFLATED)
    return path


def sdist(tmp_path: Path, files: dict[str, str | bytes], top: str = "demo-1.0", kind: str = "tar.gz") -> Path:
    members = {f"{top}/{name}" if not name.startswith("//") else name[2:]: (c.encode() if isinstance(c, str) else c)
               for name, c in files.items()}
    members.setdefault(f"{top}/PKG-INFO", b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n")
    if kind == "zip":
        return make_zip(tmp_path / f"{top}.zip", members)
    return make_tar(tmp_path / f"{top}.tar.gz", members)


METADATA = "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nSummary: A demo\nRequires-Python: >=3.9\n\nBody\n"


def wheel(tmp_path: Path, entry_points: str | None, extra: dict[str, bytes] | None = None,
          metadata: str = METADATA) -> Path:
    members = {"demo/__init__.py": b"raise SystemExit('imported')\n", "demo-1.0.dist-info/METADATA": metadata.encode()}
    if entry_points is not None:
        members["demo-1.0.dist-info/entry_points.txt"] = entry_points.encode()
    members.update(extra or {})
    return make_zip(tmp_path / "demo-1.0-py3-none-any.whl", members)


# --- fixtures are what the JSON says they are ------------------------------------------------------------------------

@pytest.mark.parametrize("filename", sorted(ARCHIVES))
def test_fixture_archives_match_the_recorded_sha256_and_size(filename):
    path = FIXTURES / filename
    listed = listed_file(ARCHIVES[filename], filename)
    verify_sha256(path, listed["digests"]["sha256"])
    assert hashlib.sha256(path.read_bytes()).hexdigest() == listed["digests"]["sha256"]
    assert path.stat().st_size == listed["size"]
    version = filename.split("-")[1].removesuffix(".tar.gz")
    record = release_record(project(ARCHIVES[filename].removesuffix(".json")), version)
    [entry] = [f for f in record["files"] if f["filename"] == filename]
    assert entry["sha256"] == listed["digests"]["sha256"] and entry["size"] == path.stat().st_size


def test_fixtures_stay_small():
    assert sum(p.stat().st_size for p in FIXTURES.iterdir()) < 1024 * 1024


# --- verify_sha256 ---------------------------------------------------------------------------------------------------

def test_verify_sha256_mismatch_names_both_digests():
    path = FIXTURES / "wheel-0.48.0-py3-none-any.whl"
    good = listed_file("wheel.json", path.name)["digests"]["sha256"]
    bad = ("0" if good[0] != "0" else "1") + good[1:]
    with pytest.raises(PypiError, match=f"sha256 mismatch: expected {bad}, got {good}") as err:
        verify_sha256(path, bad)
    assert isinstance(err.value, CapindexError) and "\n" not in str(err.value)
    verify_sha256(path, good.upper())  # hex case does not matter


def test_verify_sha256_streams_a_file_bigger_than_one_chunk(tmp_path):
    path = tmp_path / "big.bin"
    data = bytes(range(256)) * (3 * 4096 + 1)  # a little over 3 MiB
    path.write_bytes(data)
    verify_sha256(path, hashlib.sha256(data).hexdigest())
    with pytest.raises(PypiError, match="mismatch"):
        verify_sha256(path, hashlib.sha256(data[:-1]).hexdigest())


@pytest.mark.parametrize("expected", ["", "abc", "g" * 64, "0" * 63, None])
def test_verify_sha256_refuses_a_malformed_expected_digest(tmp_path, expected):
    (tmp_path / "f").write_bytes(b"x")
    with pytest.raises(PypiError, match="not 64 hex digits"):
        verify_sha256(tmp_path / "f", expected)


def test_verify_sha256_on_a_missing_file(tmp_path):
    with pytest.raises(PypiError, match="nope.whl: cannot read"):
        verify_sha256(tmp_path / "nope.whl", "0" * 64)


# --- versions and names ----------------------------------------------------------------------------------------------

TRICKY = ["1.0", "1.0.0", "1.0.post1", "1.0.dev0", "1.0a1", "1.0a1.dev2", "1.0b2.post3", "1.0rc1", "1.0c2",
          "1!0.1", "1.0+local.7", "1.0+local.abc", "1.0+5", "1.0.post1.dev1", "2.0", "v2.0.1", "1.0-1", "1.0alpha2",
          "1.0-preview-3", "1.0.RC4", "0.9.9999", "1.0.0.0.1", "1.0_r5", "1.0.dev", "1.0-beta", "10.0", "1.10"]


def all_fixture_versions() -> list[str]:
    return sorted({v for name in ("six", "pyflakes", "wheel") for v in project(name)["releases"]})


def test_version_ordering_agrees_with_packaging():
    texts = all_fixture_versions() + TRICKY
    ours = sorted(texts, key=lambda t: parse_version(t).key)
    theirs = sorted(texts, key=PackagingVersion)
    assert [str(PackagingVersion(t)) for t in ours] == [str(PackagingVersion(t)) for t in theirs]
    for a in texts:
        assert parse_version(a).is_prerelease == PackagingVersion(a).is_prerelease, a
        for b in TRICKY:
            assert (parse_version(a) == parse_version(b)) == (PackagingVersion(a) == PackagingVersion(b)), (a, b)
            assert (parse_version(a) < parse_version(b)) == (PackagingVersion(a) < PackagingVersion(b)), (a, b)


@pytest.mark.parametrize("text", ["", "latest", "1.0-foo", "1..0", "1.0+", "=1.0", "1.0 2"])
def test_invalid_versions_are_invalid_for_packaging_too(text):
    assert parse_version(text) is None
    with pytest.raises(InvalidVersion):
        PackagingVersion(text)


@pytest.mark.parametrize("name, normal", [("Six", "six"), ("zope.interface", "zope-interface"),
                                          ("Foo__Bar-.baz", "foo-bar-baz"), ("ruamel.yaml.clib", "ruamel-yaml-clib")])
def test_normalize_name_is_pep_503(name, normal):
    assert normalize_name(name) == normal


# --- resolve ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, latest", [("six", "1.17.0"), ("pyflakes", "4.1.0"), ("wheel", "0.48.0")])
def test_latest_is_info_version(name, latest):
    res = resolve(project(name), None)
    assert (res.version, res.how, res.yanked, res.requested, res.name) == (latest, "latest: info.version", False,
                                                                           None, name)
    assert json.loads(json.dumps(res.as_dict())) == res.as_dict()


def test_exact_yanked_release_is_allowed_and_flagged():
    res = resolve(project("wheel"), "==0.46.0")
    assert res.version == "0.46.0" and res.yanked
    assert res.yanked_reason == "Causes problems with setuptools on macOS"
    assert "yanked" in res.how and "PEP 592" in res.how
    assert resolve(project("wheel"), "0.45.1").yanked is False


def test_latest_never_picks_a_yanked_release():
    # wheel as it stood when 0.46.1 was newest: 0.46.1 and 0.46.0 yanked, so the latest is 0.45.1.
    doc = project("wheel")
    newest = parse_version("0.46.1")
    doc["releases"] = {v: f for v, f in doc["releases"].items() if not parse_version(v) > newest}
    doc["info"]["version"] = "0.46.1"
    res = resolve(doc, None)
    assert res.version == "0.45.1" and not res.yanked
    assert res.how == "latest: info.version 0.46.1 is yanked; highest non-yanked final release"


def file_entry(version: str, yanked: bool = False) -> dict:
    return {"filename": f"demo-{version}.tar.gz", "url": f"https://files.example/demo-{version}.tar.gz",
            "packagetype": "sdist", "size": 10, "digests": {"sha256": "a" * 64}, "yanked": yanked,
            "yanked_reason": "bad" if yanked else None, "requires_python": None, "upload_time": "2024-01-01T00:00:00"}


def synthetic(info_version: str, releases: dict[str, list[dict]]) -> dict:
    return {"info": {"name": "Demo_Pkg", "version": info_version, "yanked": False, "yanked_reason": None},
            "releases": releases}


def test_latest_fallback_skips_prereleases_empty_releases_and_orders_by_pep_440():
    doc = synthetic("3.0", {
        "3.0": [file_entry("3.0", yanked=True)],
        "2.10": [file_entry("2.10")], "2.9": [file_entry("2.9")],  # 2.10 > 2.9, not as strings
        "2.11rc1": [file_entry("2.11rc1")], "2.11.dev0": [file_entry("2.11.dev0")],
        "2.12": [],  # no files
        "2.10.post1": [file_entry("2.10.post1")],  # a post-release is final
    })
    res = resolve(doc, None)
    assert res.version == "2.10.post1" and res.name == "demo-pkg"
    del doc["releases"]["2.10.post1"]
    assert resolve(doc, None).version == "2.10"


def test_latest_when_info_version_has_no_files():
    doc = synthetic("2.0", {"2.0": [], "1.0": [file_entry("1.0")]})
    res = resolve(doc, None)
    assert res.version == "1.0" and "has no files" in res.how


def test_latest_fails_when_only_yanked_or_prereleases_remain():
    doc = synthetic("2.0", {"2.0": [file_entry("2.0", yanked=True)], "2.1a1": [file_entry("2.1a1")]})
    with pytest.raises(PypiError, match=r"^demo-pkg: info.version 2.0 is yanked and no other release"):
        resolve(doc, None)


@pytest.mark.parametrize("request_, version, how", [
    ("1.17.0", "1.17.0", "exact"),
    ("==1.17.0", "1.17.0", "exact"),
    (" == 1.17.0 ", "1.17.0", "exact"),
    ("SIX==1.17.0", "1.17.0", "exact"),
    ("v1.17", "1.17.0", "exact: 'v1.17' is release 1.17.0 by PEP 440"),
    ("==1.0.0-beta1", "1.0b1", "exact: '1.0.0-beta1' is release 1.0b1 by PEP 440"),
    ("===1.0b1", "1.0b1", "exact"),
])
def test_exact_requests(request_, version, how):
    res = resolve(project("six"), request_)
    assert (res.requested, res.version, res.how, res.yanked) == (request_, version, how, False)


@pytest.mark.parametrize("request_, message", [
    ("==9.9", "six: no release '9.9' (info.version is '1.17.0')"),
    ("===1.0.0b1", "six: no release '1.0.0b1'"),  # arbitrary equality compares strings
    (">=1.0", "six: '>=1.0' is not an exact version request"),
    ("~=1.16", "is not an exact version request"),
    ("==1.*", "is not an exact version request"),
    ("==1.0,!=1.1", "is not an exact version request"),
    ("six 1.17.0", "is not an exact version request"),
    ("wheel==1.17.0", "six: the request names project 'wheel', not six"),
    ("latest", "six: 'latest' is not a PEP 440 version and no release is spelled that way"),
])
def test_bad_requests(request_, message):
    with pytest.raises(PypiError) as err:
        resolve(project("six"), request_)
    assert str(err.value).startswith("six: ") and message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("doc", [{"message": "Not Found"}, {}, {"info": {}}, [], {"info": {"name": ""}}])
def test_unknown_project(doc):
    with pytest.raises(PypiError, match="unknown project") as err:
        resolve(doc, None)
    if isinstance(doc, dict) and "message" in doc:
        assert "PyPI said 'Not Found'" in str(err.value)


def version_json(doc: dict, version: str) -> dict:
    """The /pypi/NAME/VERSION/json shape (info for that version, its files in `urls`, no `releases`), made
    from the recorded project JSON: pypi.org answered 404 for version URLs through this environment's gateway."""
    files = doc["releases"][version]
    info = dict(doc["info"], version=version, yanked=all(f["yanked"] for f in files),
                yanked_reason=next((f["yanked_reason"] for f in files if f["yanked_reason"]), None))
    return {"info": info, "urls": files, "last_serial": doc["last_serial"]}


def test_version_json_shape():
    doc = version_json(project("wheel"), "0.46.1")
    assert resolve(doc, "0.46.1").yanked
    with pytest.raises(PypiError, match="info.version 0.46.1 is yanked"):
        resolve(doc, None)
    with pytest.raises(PypiError, match="no release '0.48.0'"):
        resolve(doc, "0.48.0")
    record = release_record(doc, "0.46.1")
    assert record["yanked"] and record["info_version"] == "0.46.1" and record["summary"] is not None
    assert [f["filename"] for f in record["files"]] == ["wheel-0.46.1-py3-none-any.whl", "wheel-0.46.1.tar.gz"]


# --- release_record --------------------------------------------------------------------------------------------------

RECORD_KEYS = ["name", "normalized_name", "version", "info_version", "summary", "requires_python", "home_page",
               "project_urls", "license", "license_expression", "yanked", "yanked_reason", "files", "notes"]
FILE_KEYS = ["filename", "url", "packagetype", "size", "sha256", "requires_python", "yanked", "yanked_reason",
             "upload_time", "refused"]


def test_release_record_of_the_latest_release():
    doc = project("wheel")
    record = release_record(doc, "0.48.0")
    assert list(record) == RECORD_KEYS
    assert json.loads(json.dumps(record)) == record
    assert record["summary"] == "Command line tool for manipulating wheel files"
    assert record["requires_python"] == ">=3.9" and record["license_expression"] == "MIT"
    assert record["license"] is None and record["home_page"] is None
    assert list(record["project_urls"]) == ["Changelog", "Documentation", "Issue Tracker", "Source"]
    assert record["project_urls"]["Source"] == "https://github.com/pypa/wheel"
    assert (record["yanked"], record["yanked_reason"], record["notes"]) == (False, None, [])
    assert [f["filename"] for f in record["files"]] == ["wheel-0.48.0-py3-none-any.whl", "wheel-0.48.0.tar.gz"]
    whl, tgz = record["files"]
    assert list(whl) == FILE_KEYS
    assert whl == {
        "filename": "wheel-0.48.0-py3-none-any.whl",
        "url": "https://files.pythonhosted.org/packages/2e/29/69cfbb602cd91690c55d38ba9fe53e6a7e76a6fa647bf38f19c138d2"
               "5449/wheel-0.48.0-py3-none-any.whl",
        "packagetype": "bdist_wheel", "size": 33320,
        "sha256": "3217dcc807155e45db462d7ef2431f5ddda0d7273b700d05a67b271ceb1287ab",
        "requires_python": ">=3.9", "yanked": False, "yanked_reason": None,
        "upload_time": "2026-08-11T22:02:26.100721Z", "refused": None,
    }
    assert tgz["packagetype"] == "sdist" and tgz["refused"] is None


def test_release_record_of_an_older_yanked_release_has_no_project_fields():
    record = release_record(project("wheel"), "0.38.0")
    assert record["yanked"] and record["yanked_reason"] == "Circular dependency with setuptools on --no-binary=:all:"
    assert all(record[k] is None for k in ("summary", "requires_python", "home_page", "project_urls", "license"))
    assert record["info_version"] == "0.48.0" and "info describes 0.48.0" in record["notes"][0]
    assert all(f["yanked"] and f["refused"] is None for f in record["files"])


def test_release_record_of_six_with_home_page_and_license():
    record = release_record(project("six"), "1.17.0")
    assert record["home_page"] == "https://github.com/benjaminp/six" and record["license"] == "MIT"
    assert record["project_urls"] == {"Homepage": "https://github.com/benjaminp/six"}


def test_release_record_refuses_files_with_relative_urls_as_recorded():
    # pyflakes.json arrived through this environment's registry gateway with relative file URLs (see README).
    record = release_record(project("pyflakes"), "4.1.0")
    assert [f["refused"] for f in record["files"]] == ["url is not an absolute https URL"] * 2
    assert record["files"][0]["url"].startswith("../")
    assert "2 of 2 files refused (untrusted metadata)" in record["notes"]


def test_release_record_of_a_release_without_files():
    record = release_record(project("pyflakes"), "0.2.0")
    assert record["files"] == [] and record["yanked"] is False and "the release has no files" in record["notes"]


@pytest.mark.parametrize("change, reason", [
    ({"url": "http://files.pythonhosted.org/packages/demo-1.0.tar.gz"}, "url is not an absolute https URL"),
    ({"url": "file:///etc/passwd"}, "url is not an absolute https URL"),
    ({"url": "https:///nohost"}, "url is not an absolute https URL"),
    ({"url": "https://host:99999/x"}, "url is malformed"),
    ({"url": None}, "no url"),
    ({"filename": "../../demo-1.0.tar.gz"}, "filename is not a plain file name"),
    ({"digests": {"sha256": "zz"}}, "no valid sha256 digest"),
    ({"digests": {"md5": "0" * 32}}, "no valid sha256 digest"),
])
def test_untrusted_file_metadata_is_marked_refused(change, reason):
    doc = synthetic("1.0", {"1.0": [dict(file_entry("1.0"), **change), file_entry("1.0") | {"filename": "z.whl"}]})
    record = release_record(doc, "1.0")
    refused = [f["refused"] for f in record["files"]]
    assert refused[0] == reason and refused[1] is None
    assert record["files"][0]["sha256"] is None or reason != "no valid sha256 digest"


def test_partly_yanked_release_is_not_yanked_but_noted():
    doc = synthetic("1.0", {"1.0": [file_entry("1.0", yanked=True), file_entry("1.0") | {"filename": "b.whl"}]})
    record = release_record(doc, "1.0")
    assert record["yanked"] is False and "1 of 2 files are yanked" in record["notes"]


def test_release_record_unknown_version():
    with pytest.raises(PypiError, match=r"^six: no release '9.9'$"):
        release_record(project("six"), "9.9")


def test_release_record_does_not_change_its_input():
    doc = project("wheel")
    before = copy.deepcopy(doc)
    release_record(doc, "0.48.0")
    resolve(doc, None)
    assert doc == before


# --- entry points: real archives -------------------------------------------------------------------------------------

def test_entry_points_of_the_real_wheel_wheel():
    eps = entry_points_from_wheel(FIXTURES / "wheel-0.48.0-py3-none-any.whl")
    assert eps.as_dict() == {
        "archive": "wheel-0.48.0-py3-none-any.whl",
        "source": SOURCE_WHEEL,
        "known": True,
        "console_scripts": {"wheel": "wheel._commands:main"},
        "gui_scripts": {},
        "groups": {"distutils.commands": {"bdist_wheel": "wheel.bdist_wheel:bdist_wheel"}},
        "metadata": {"name": "wheel", "version": "0.48.0", "requires_python": ">=3.9",
                     "summary": "Command line tool for manipulating wheel files"},
        "members": ["wheel-0.48.0.dist-info/METADATA", "wheel-0.48.0.dist-info/entry_points.txt"],
        "notes": [],
    }


def test_entry_points_of_the_real_pyflakes_wheel():
    eps = entry_points_from_wheel(FIXTURES / "pyflakes-4.1.0-py2.py3-none-any.whl")
    assert eps.console_scripts == {"pyflakes": "pyflakes.api:main"} and eps.groups == {} and eps.known
    assert eps.metadata == {"name": "pyflakes", "version": "4.1.0", "requires_python": ">=3.11",
                            "summary": "passive checker of Python programs"}


def test_entry_points_of_the_real_wheel_sdist_from_pyproject():
    eps = entry_points_from_sdist(FIXTURES / "wheel-0.48.0.tar.gz")
    assert (eps.source, eps.known) == (SOURCE_PYPROJECT, True)
    assert eps.console_scripts == {"wheel": "wheel._commands:main"}
    assert eps.groups == {"distutils.commands": {"bdist_wheel": "wheel.bdist_wheel:bdist_wheel"}}
    assert eps.metadata == {"name": "wheel", "version": None, "requires_python": ">=3.9",
                            "summary": "Command line tool for manipulating wheel files"}  # version is dynamic
    assert eps.members == ["wheel-0.48.0/pyproject.toml"]


def test_entry_points_of_the_real_pyflakes_sdist_are_unknown(tmp_path):
    # pyflakes declares its console script in setup.py only; its setup.cfg has no [options.entry_points].
    archive = tmp_path / "pyflakes-4.1.0.tar.gz"
    archive.write_bytes((FIXTURES / archive.name).read_bytes())
    eps = entry_points_from_sdist(archive)
    assert (eps.source, eps.known) == (SOURCE_SETUP_PY_ONLY, False)
    assert eps.console_scripts == {} and eps.gui_scripts == {} and eps.groups == {}
    assert eps.members == ["pyflakes-4.1.0/setup.cfg", "pyflakes-4.1.0/setup.py"]
    assert "never run" in eps.notes[0] and "mentions entry_points as text (line 14); not evaluated" in eps.notes[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == [archive.name]  # nothing extracted


# --- entry points: synthetic sdists ----------------------------------------------------------------------------------

def test_setup_py_only_is_unknown_and_never_run(tmp_path):
    marker = tmp_path / "setup-py-ran"
    setup_py = (f"open({str(marker)!r}, 'w').close()\n"
                "from setuptools import setup\n"
                "setup(name='demo', entry_points={'console_scripts': ['demo = demo.cli:main']})\n")
    eps = entry_points_from_sdist(sdist(tmp_path, {"setup.py": setup_py}))
    assert (eps.source, eps.known, eps.console_scripts) == (SOURCE_SETUP_PY_ONLY, False, {})
    assert any("line 3" in n and "not evaluated" in n for n in eps.notes)
    assert not marker.exists()


def test_setup_cfg_multi_line_entry_points(tmp_path):
    cfg = """[metadata]
name = demo

[options.entry_points]
console_scripts =
    demo = demo.cli:main
    # a comment line inside the value

    demo-admin=demo.admin : run [extra]
gui_scripts =
    demo-gui = demo.gui:start
Demo.Plugins =
    First = demo.plugins.first:Plugin
"""
    eps = entry_points_from_sdist(sdist(tmp_path, {"setup.cfg": cfg, "setup.py": "from setuptools import setup\n"}))
    assert (eps.source, eps.known) == (SOURCE_SETUP_CFG, True)
    assert eps.console_scripts == {"demo": "demo.cli:main", "demo-admin": "demo.admin : run [extra]"}
    assert eps.gui_scripts == {"demo-gui": "demo.gui:start"}
    assert eps.groups == {"Demo.Plugins": {"First": "demo.plugins.first:Plugin"}}  # case kept
    assert any("setup.py is present" in n for n in eps.notes)
    assert eps.members == ["demo-1.0/setup.cfg"]  # setup.py is not read when setup.cfg answers


def test_setup_cfg_without_entry_points_and_without_setup_py_declares_none(tmp_path):
    eps = entry_points_from_sdist(sdist(tmp_path, {
        "setup.cfg": "[metadata]\nname = demo\n",
        "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'}))
    assert (eps.source, eps.known, eps.console_scripts, eps.groups) == (SOURCE_SETUP_CFG, True, {}, {})


def test_setup_cfg_line_without_equals_is_an_error(tmp_path):
    cfg = "[options.entry_points]\nconsole_scripts =\n    demo demo.cli:main\n"
    with pytest.raises(PypiError, match=r"^demo-1.0.tar.gz: demo-1.0/setup.cfg: \[options.entry_points\] "
                                        r"console_scripts: 'demo demo.cli:main' is not 'name = target'$"):
        entry_points_from_sdist(sdist(tmp_path, {"setup.cfg": cfg}))


@pytest.mark.parametrize("cfg", ["console_scripts = demo\n[x]\n", "[a]\nk = 1\n[a]\nk = 2\n", "[a]\nk=1\nk=2\n"])
def test_malformed_setup_cfg_names_archive_and_member(tmp_path, cfg):
    with pytest.raises(PypiError, match=r"^demo-1.0.tar.gz: demo-1.0/setup.cfg is not valid INI \(.+\)$"):
        entry_points_from_sdist(sdist(tmp_path, {"setup.cfg": cfg, "setup.py": ""}))


def test_pyproject_project_tables(tmp_path):
    toml = """
[project]
name = "demo"
version = "1.0"
description = "A demo"
requires-python = ">=3.10"

[project.scripts]
demo = "demo.cli:main"
weird = "not a target!"

[project.gui-scripts]
demo-gui = "demo.gui:main"

[project.entry-points."demo.plugins"]
one = "demo.plugins:one"
"""
    # setup.cfg would add a script, but [project] declares them statically: it is not read.
    cfg = "[options.entry_points]\nconsole_scripts =\n    other = other:main\n"
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml, "setup.cfg": cfg, "setup.py": ""}))
    assert (eps.source, eps.known) == (SOURCE_PYPROJECT, True)
    assert eps.console_scripts == {"demo": "demo.cli:main", "weird": "not a target!"}
    assert eps.gui_scripts == {"demo-gui": "demo.gui:main"}
    assert eps.groups == {"demo.plugins": {"one": "demo.plugins:one"}}
    assert eps.metadata == {"name": "demo", "version": "1.0", "requires_python": ">=3.10", "summary": "A demo"}
    assert eps.members == ["demo-1.0/pyproject.toml"]
    assert eps.notes == ["pyproject.toml: console_scripts 'weird' target 'not a target!' is not module:attr"]


def test_project_without_scripts_declares_none_even_with_setup_py(tmp_path):
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": '[project]\nname = "demo"\nversion = "1"\n',
                                                   "setup.py": "setup(entry_points={})"}))
    assert (eps.source, eps.known, eps.console_scripts) == (SOURCE_PYPROJECT, True, {})


def test_dynamic_scripts_come_from_setup_cfg(tmp_path):
    toml = ('[project]\nname = "demo"\ndynamic = ["scripts", "version"]\n'
            '[project.entry-points.grp]\nx = "demo:x"\n')
    cfg = ("[options.entry_points]\nconsole_scripts =\n    demo = demo.cli:main\n"
           "grp =\n    y = demo:y\n")
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml, "setup.cfg": cfg}))
    assert (eps.source, eps.known) == (SOURCE_PYPROJECT_AND_SETUP_CFG, True)
    assert eps.console_scripts == {"demo": "demo.cli:main"}
    assert eps.groups == {"grp": {"x": "demo:x"}}  # entry-points are static in pyproject: setup.cfg's is ignored
    assert "pyproject.toml lists scripts as dynamic" in eps.notes
    assert any("setup.cfg grp ignored" in n for n in eps.notes)


def test_dynamic_scripts_with_only_setup_py_are_unknown(tmp_path):
    toml = '[project]\nname = "demo"\nversion = "1"\ndynamic = ["scripts"]\n[project.gui-scripts]\ng = "demo:g"\n'
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml, "setup.py": ""}))
    assert (eps.source, eps.known) == (SOURCE_SETUP_PY_ONLY, False)
    assert eps.gui_scripts == {"g": "demo:g"}  # what was declared statically is still listed


def test_dynamic_scripts_left_to_another_backend_are_unknown(tmp_path):
    toml = ('[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
            '[project]\nname = "demo"\nversion = "1"\ndynamic = ["scripts"]\n')
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml, "setup.cfg": "[flake8]\nx = 1\n"}))
    assert (eps.source, eps.known) == (SOURCE_NOT_DECLARED, False)
    assert "hatchling.build" in eps.notes[-1] and eps.members == ["demo-1.0/pyproject.toml"]


def test_poetry_scripts_and_plugins(tmp_path):
    toml = """
[tool.poetry]
name = "demo"
version = "1.0"
description = "Poetry demo"

[tool.poetry.scripts]
demo = "demo.cli:main"
demo-test = { callable = "demo:test.run", extras = ["test"] }
demo-ref = { reference = "demo.ref:main", type = "console" }
demo-sh = { reference = "bin/demo.sh", type = "file" }

[tool.poetry.plugins."demo.plugins"]
one = "demo.plugins:one"

[build-system]
requires = ["poetry-core"]
build-backend = "poetry.core.masonry.api"
"""
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml}))
    assert (eps.source, eps.known) == (SOURCE_PYPROJECT, True)
    assert eps.console_scripts == {"demo": "demo.cli:main", "demo-test": "demo:test.run", "demo-ref": "demo.ref:main"}
    assert eps.groups == {"demo.plugins": {"one": "demo.plugins:one"}}
    assert eps.metadata == {"name": "demo", "version": "1.0", "requires_python": None, "summary": "Poetry demo"}
    assert any("'demo-sh' is a file script" in n for n in eps.notes)


def test_poetry_without_scripts_declares_none(tmp_path):
    eps = entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": '[tool.poetry]\nname = "demo"\n',
                                                   "setup.py": ""}))
    assert (eps.source, eps.known, eps.console_scripts) == (SOURCE_PYPROJECT, True, {})


@pytest.mark.parametrize("toml, message", [
    ('[project\nname = "demo"\n', r"demo-1.0/pyproject.toml is not valid TOML \(.+line 1.+\)$"),
    ('[project]\nname = "a"\nname = "b"\n', r"demo-1.0/pyproject.toml is not valid TOML"),
    ('[project.scripts]\ndemo = 1\n', r"demo-1.0/pyproject.toml: \[project.scripts\] 'demo' is not a string$"),
    ('[project]\nscripts = "demo"\n', r"demo-1.0/pyproject.toml: \[project.scripts\] is not a table$"),
    ('[project]\ndynamic = "scripts"\n', r"demo-1.0/pyproject.toml: project.dynamic is not an array$"),
    ('[project.entry-points.console_scripts]\nx = "a:b"\n', (
        r"demo-1.0/pyproject.toml: \[project.entry-points.console_scripts\] is not allowed "
        r"\(use \[project.scripts\] / \[project.gui-scripts\]\)")),
    ('[tool.poetry.scripts]\nx = { type = "console" }\n',
     r"demo-1.0/pyproject.toml: \[tool.poetry.scripts\] 'x' is neither a string nor"),
    ('[tool.poetry.plugins]\ngrp = "x"\n', r"demo-1.0/pyproject.toml: \[tool.poetry.plugins.grp\] is not a table$"),
])
def test_malformed_pyproject_names_archive_and_member(tmp_path, toml, message):
    with pytest.raises(PypiError, match=r"^demo-1.0.tar.gz: " + message) as err:
        entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": toml}))
    assert "\n" not in str(err.value)


def test_not_utf8_pyproject(tmp_path):
    with pytest.raises(PypiError, match=r"^demo-1.0.tar.gz: member 'demo-1.0/pyproject.toml' is not UTF-8"):
        entry_points_from_sdist(sdist(tmp_path, {"pyproject.toml": b"[project]\nname = '\xff'\n"}))


def test_only_top_level_members_are_read(tmp_path):
    nested = '[project]\nname = "x"\n[project.scripts]\nx = "x:main"\n'
    oversized = "#" * (MAX_MEMBER_BYTES + 1)  # read, it would be refused
    eps = entry_points_from_sdist(sdist(tmp_path, {"tests/data/pyproject.toml": nested, "README": "hi",
                                                   "docs/setup.cfg": oversized, "docs/setup.py": oversized}))
    assert (eps.source, eps.known, eps.console_scripts, eps.members) == (SOURCE_NO_METADATA, False, {}, [])


def test_zip_sdist_and_dot_slash_tar_names(tmp_path):
    cfg = "[options.entry_points]\nconsole_scripts =\n    demo = demo.cli:main\n"
    eps = entry_points_from_sdist(sdist(tmp_path, {"setup.cfg": cfg}, kind="zip"))
    assert (eps.archive, eps.source) == ("demo-1.0.zip", SOURCE_SETUP_CFG)
    assert eps.console_scripts == {"demo": "demo.cli:main"}
    tar = make_tar(tmp_path / "dot-1.0.tar.gz", {".": b"", "./dot-1.0/setup.cfg": cfg.encode()})
    assert entry_points_from_sdist(tar).console_scripts == {"demo": "demo.cli:main"}


def test_sdist_with_two_top_level_directories(tmp_path):
    with pytest.raises(PypiError, match="has 2"):
        entry_points_from_sdist(sdist(tmp_path, {"//other-1.0/setup.cfg": "[metadata]\n"}))


def test_top_level_directory_unlike_the_archive_name_is_noted(tmp_path):
    path = make_tar(tmp_path / "demo-1.0.tar.gz", {"Something-Else-2/setup.cfg": b"[metadata]\n"})
    assert any("does not match the archive name" in n for n in entry_points_from_sdist(path).notes)


@pytest.mark.parametrize("bad", ["demo-1.0/../evil.py", "../demo-1.0/setup.cfg", "/etc/demo", "demo-1.0/a/../../x",
                                 "C:/evil", "demo-1.0\\..\\evil"])
@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_sdist_member_with_an_unsafe_path_refuses_the_archive(tmp_path, bad, kind):
    path = sdist(tmp_path, {"setup.cfg": "[metadata]\n", "//" + bad: "x"}, kind=kind)
    if kind == "zip":
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    else:
        with tarfile.open(path) as tf:
            names = tf.getnames()
    assert bad in names  # the archive really holds the name
    with pytest.raises(PypiError, match=r"has an unsafe path \(absolute or '\.\.'\); archive refused$") as err:
        entry_points_from_sdist(path)
    assert repr(bad) in str(err.value)


@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_oversized_member_is_refused(tmp_path, kind):
    big = "[project]\nname = 'demo'\n" + "#" * MAX_MEMBER_BYTES
    path = sdist(tmp_path, {"pyproject.toml": big}, kind=kind)
    assert path.stat().st_size < 64 * 1024
    with pytest.raises(PypiError, match=r"member 'demo-1.0/pyproject.toml' is .*over the 1048576-byte cap"):
        entry_points_from_sdist(path)


def test_member_that_is_a_symlink_is_refused(tmp_path):
    path = make_tar(tmp_path / "demo-1.0.tar.gz", {"demo-1.0/setup.cfg": ("symlink", "/etc/passwd")})
    with pytest.raises(PypiError, match="is not a regular file"):
        entry_points_from_sdist(path)


@pytest.mark.parametrize("content", [b"not an archive at all", b""])
def test_unreadable_sdist(tmp_path, content):
    path = tmp_path / "demo-1.0.tar.gz"
    path.write_bytes(content)
    with pytest.raises(PypiError, match=r"^demo-1.0.tar.gz: not a readable tar archive"):
        entry_points_from_sdist(path)


# --- entry points: synthetic wheels ----------------------------------------------------------------------------------

def test_wheel_groups_and_notes(tmp_path):
    text = """[console_scripts]
demo = demo.cli:main
Demo-Upper=demo.cli:upper

[gui_scripts]
demo-gui = demo.gui : main

[pytest11]
demo = demo.pytest_plugin
bad = demo:
"""
    eps = entry_points_from_wheel(wheel(tmp_path, text))
    assert eps.console_scripts == {"demo": "demo.cli:main", "Demo-Upper": "demo.cli:upper"}
    assert eps.gui_scripts == {"demo-gui": "demo.gui : main"}
    assert eps.groups == {"pytest11": {"demo": "demo.pytest_plugin", "bad": "demo:"}}
    assert eps.notes == ["entry_points.txt: pytest11 'bad' target 'demo:' is not module:attr"]
    assert eps.metadata == {"name": "demo", "version": "1.0", "requires_python": ">=3.9", "summary": "A demo"}
    assert list(eps.as_dict()) == ["archive", "source", "known", "console_scripts", "gui_scripts", "groups",
                                   "metadata", "members", "notes"]


def test_wheel_default_section_does_not_leak_into_groups(tmp_path):
    eps = entry_points_from_wheel(wheel(tmp_path, "[DEFAULT]\nx = a:b\n[console_scripts]\ndemo = demo:main\n"))
    assert eps.console_scripts == {"demo": "demo:main"} and eps.groups == {"DEFAULT": {"x": "a:b"}}


def test_wheel_without_entry_points_declares_none(tmp_path):
    eps = entry_points_from_wheel(wheel(tmp_path, None))
    assert (eps.source, eps.known, eps.console_scripts, eps.groups) == (SOURCE_WHEEL, True, {}, {})
    assert eps.notes == ["no entry_points.txt: the wheel declares no entry points"]


@pytest.mark.parametrize("text", ["demo = demo:main\n", "[console_scripts]\ndemo = a:b\ndemo = c:d\n",
                                  "[console_scripts]\n[console_scripts]\n", "[console_scripts\nx = y\n"])
def test_malformed_entry_points_txt_names_archive_and_member(tmp_path, text):
    with pytest.raises(PypiError, match=r"^demo-1.0-py3-none-any.whl: demo-1.0.dist-info/entry_points.txt is not "
                                        r"valid INI \(.+\)$"):
        entry_points_from_wheel(wheel(tmp_path, text))


def test_wheel_without_metadata(tmp_path):
    path = make_zip(tmp_path / "demo-1.0-py3-none-any.whl", {"demo-1.0.dist-info/entry_points.txt": b"[x]\n"})
    with pytest.raises(PypiError, match=r"no demo-1.0.dist-info/METADATA; not a wheel"):
        entry_points_from_wheel(path)
    path = make_zip(tmp_path / "demo-1.0-py3-none-any.whl", {"demo/__init__.py": b""})
    with pytest.raises(PypiError, match=r"expected one top-level \*.dist-info directory, found none"):
        entry_points_from_wheel(path)


def test_wheel_metadata_without_name(tmp_path):
    with pytest.raises(PypiError, match="has no Name or Version header"):
        entry_points_from_wheel(wheel(tmp_path, None, metadata="Metadata-Version: 2.1\nVersion: 1.0\n"))


def test_wheel_metadata_mismatch_is_noted(tmp_path):
    eps = entry_points_from_wheel(wheel(tmp_path, None, metadata=METADATA.replace("Name: demo", "Name: other")))
    assert "demo-1.0.dist-info does not match METADATA other-1.0" in eps.notes


def test_wheel_long_description_past_the_cap_is_fine_but_long_headers_are_not(tmp_path):
    eps = entry_points_from_wheel(wheel(tmp_path, "[console_scripts]\nd = d:m\n",
                                        metadata=METADATA + "x" * (2 * MAX_MEMBER_BYTES)))
    assert eps.metadata["summary"] == "A demo" and eps.console_scripts == {"d": "d:m"}
    headers = METADATA.replace("\n\n", "\nKeywords: " + "k" * MAX_MEMBER_BYTES + "\n\n")
    with pytest.raises(PypiError, match="METADATA' is over the 1048576-byte cap"):
        entry_points_from_wheel(wheel(tmp_path, None, metadata=headers))


def test_wheel_oversized_entry_points_txt(tmp_path):
    text = "[console_scripts]\n" + "# padding\n" * (MAX_MEMBER_BYTES // 10 + 1)
    with pytest.raises(PypiError, match=r"entry_points.txt' is \d+ bytes, over the 1048576-byte cap"):
        entry_points_from_wheel(wheel(tmp_path, text))


@pytest.mark.parametrize("bad", ["../evil.py", "/abs/evil.py", "demo/../../evil.py"])
def test_wheel_member_with_an_unsafe_path_refuses_the_archive(tmp_path, bad):
    path = wheel(tmp_path, "[console_scripts]\nd = d:m\n", extra={bad: b"x"})
    with zipfile.ZipFile(path) as zf:
        assert bad in zf.namelist()
    with pytest.raises(PypiError, match="unsafe path"):
        entry_points_from_wheel(path)


def test_wheel_duplicate_member_is_refused(tmp_path):
    path = wheel(tmp_path, "[console_scripts]\nd = d:m\n")
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(path, "a") as zf:
        zf.writestr("demo-1.0.dist-info/entry_points.txt", "[console_scripts]\nd = evil:m\n")
    with pytest.raises(PypiError, match="appears twice"):
        entry_points_from_wheel(path)


def test_wheel_that_is_not_a_zip(tmp_path):
    path = tmp_path / "demo-1.0-py3-none-any.whl"
    path.write_bytes((FIXTURES / "wheel-0.48.0.tar.gz").read_bytes())
    with pytest.raises(PypiError, match=r"^demo-1.0-py3-none-any.whl: not a readable zip archive"):
        entry_points_from_wheel(path)


def test_reading_a_wheel_never_imports_its_code(tmp_path):
    # demo/__init__.py raises SystemExit when imported; reading entry points must not get there.
    eps = entry_points_from_wheel(wheel(tmp_path, "[console_scripts]\ndemo = demo:main\n"))
    assert eps.console_scripts == {"demo": "demo:main"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo-1.0-py3-none-any.whl"]


def test_a_spooled_temporary_file_is_named_by_filename(tmp_path):
    # A caller that downloads to a temporary file passes the archive's real name.
    spool = tmp_path / "tmpk2j4.tar.gz"
    spool.write_bytes((FIXTURES / "wheel-0.48.0.tar.gz").read_bytes())
    assert any("does not match the archive name" in n for n in entry_points_from_sdist(spool).notes)
    eps = entry_points_from_sdist(spool, filename="wheel-0.48.0.tar.gz")
    assert (eps.archive, eps.notes) == ("wheel-0.48.0.tar.gz", [])
    bad = tmp_path / "tmp9x.whl"
    bad.write_bytes(b"junk")
    with pytest.raises(PypiError, match=r"^demo-1.0-py3-none-any.whl: not a readable zip archive"):
        entry_points_from_wheel(bad, filename="demo-1.0-py3-none-any.whl")


def test_untrusted_names_and_versions_stay_on_one_line():
    doc = synthetic("1.0\nINJECTED", {"1.0\nINJECTED": [], "1.0": [file_entry("1.0")]})
    res = resolve(doc, None)
    assert res.version == "1.0" and res.how.startswith("latest: info.version '1.0\\nINJECTED' has no files")
    assert "\n" not in release_record(doc, "1.0")["notes"][0]
    doc["info"]["name"] = "demo\nINJECTED"
    with pytest.raises(PypiError, match=r"names project 'demo\\nINJECTED', which is not a valid project name$"):
        resolve(doc, None)


def test_a_request_equal_to_two_spellings_is_ambiguous():
    doc = synthetic("1.0", {"1.0": [file_entry("1.0")], "1.0.0": [file_entry("1.0.0")]})
    assert resolve(doc, "1.0.0").version == "1.0.0"  # the exact spelling wins
    with pytest.raises(PypiError, match=r"^demo-pkg: '1' matches several releases: 1.0, 1.0.0$"):
        resolve(doc, "==1")
