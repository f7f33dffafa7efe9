"""indexer.npm_meta over real registry answers (tests/fixtures/npm, see its README) and small
packuments written here for what those answers lack (other dist-tags, deprecation, signatures,
attestations, legacy field forms). Capability declarations are synthetic: no real npm package
declares `capability` yet, apart from the reference implementation, whose declaration is rebuilt
from its published index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import manifest, require_reference
from indexer.npm_meta import (
    RECORD_KEYS,
    SEARCH_KEYS,
    NpmError,
    Resolution,
    capability_exports,
    module_problem,
    normalize_repository,
    resolve,
    search_results,
    version_record,
)
from schemas.errors import CapindexError
from schemas.models import IndexCapability

FIXTURES = Path(__file__).parent / "fixtures" / "npm"
PACKUMENTS = ("is-number", "chalk", "left-pad", "semver", "sindresorhus-slugify")


def packument(name: str) -> dict:
    return json.loads((FIXTURES / f"packument-{name}.json").read_bytes())


def synthetic(versions: dict[str, dict], tags: dict[str, str], name: str = "@acme/tool", **extra) -> dict:
    docs = {v: {"name": name, "version": v, "dist": {"tarball": f"https://registry.example/{v}.tgz"}, **doc}
            for v, doc in versions.items()}
    return {"name": name, "dist-tags": tags, "versions": docs, **extra}


# -- resolve -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fixture", "request_", "expected"), [
    ("is-number", None, Resolution("latest", "7.0.0", "tag")),
    ("is-number", "", Resolution("latest", "7.0.0", "tag")),
    ("is-number", "latest", Resolution("latest", "7.0.0", "tag")),
    ("is-number", "3.0.0", Resolution("3.0.0", "3.0.0", "exact")),
    ("is-number", " 3.0.0 ", Resolution("3.0.0", "3.0.0", "exact")),
    ("is-number", "v3.0.0", Resolution("v3.0.0", "3.0.0", "exact")),
    ("is-number", "=3.0.0", Resolution("=3.0.0", "3.0.0", "exact")),
    ("is-number", "3.0.0+build.7", Resolution("3.0.0+build.7", "3.0.0", "exact")),
    ("is-number", "^6.0.0", Resolution("^6.0.0", "6.0.0", "range")),
    ("is-number", "2", Resolution("2", "2.1.0", "range")),
    ("is-number", "~2.0.0", Resolution("~2.0.0", "2.0.2", "range")),
    ("is-number", "1.x || 2.0.x", Resolution("1.x || 2.0.x", "2.0.2", "range")),
    ("is-number", "<7", Resolution("<7", "6.0.0", "range")),
    ("is-number", ">=3", Resolution(">=3", "7.0.0", "range")),
    ("is-number", "*", Resolution("*", "7.0.0", "range")),
    ("is-number", "v2", Resolution("v2", "2.1.0", "range")),  # a valid range is never read as a tag
    ("is-number", "0.1.0 - 1.1", Resolution("0.1.0 - 1.1", "1.1.2", "range")),
    ("chalk", "^3.0.0-beta.1", Resolution("^3.0.0-beta.1", "3.0.0", "range")),
    ("chalk", ">=3.0.0-beta.1 <3.0.0", Resolution(">=3.0.0-beta.1 <3.0.0", "3.0.0-beta.2", "range")),
    ("chalk", "3", Resolution("3", "3.0.0", "range")),
    ("chalk", "3.0.0-beta.1", Resolution("3.0.0-beta.1", "3.0.0-beta.1", "exact")),
    ("chalk", "^5.0.0", Resolution("^5.0.0", "5.6.2", "range")),
    ("semver", "~5.7", Resolution("~5.7", "5.7.3", "range")),
    ("semver", "^7.0.0", Resolution("^7.0.0", "7.8.6", "range")),
    ("sindresorhus-slugify", "^2", Resolution("^2", "2.2.1", "range")),
])
def test_resolve_real_packuments(fixture, request_, expected):
    assert resolve(packument(fixture), request_) == expected


TAGGED = synthetic(
    {"1.0.0": {}, "1.5.0": {}, "2.0.0": {}, "2.1.0-beta.1": {}, "3.0.0-rc.1": {}},
    {"latest": "1.5.0", "next": "2.1.0-beta.1", "canary": "3.0.0-rc.1"},
)


@pytest.mark.parametrize(("request_", "expected"), [
    ("next", Resolution("next", "2.1.0-beta.1", "tag")),
    ("canary", Resolution("canary", "3.0.0-rc.1", "tag")),
    (None, Resolution("latest", "1.5.0", "tag")),
    (">=1", Resolution(">=1", "1.5.0", "range")),  # latest satisfies: npm prefers it to the higher 2.0.0
    ("^1.0.0", Resolution("^1.0.0", "1.5.0", "range")),
    ("^2", Resolution("^2", "2.0.0", "range")),  # latest does not satisfy: the highest that does
    ("^2.1.0-beta.0", Resolution("^2.1.0-beta.0", "2.1.0-beta.1", "range")),
    (">1.5.0", Resolution(">1.5.0", "2.0.0", "range")),
    ("2.1.0-beta.1", Resolution("2.1.0-beta.1", "2.1.0-beta.1", "exact")),
])
def test_resolve_tags_and_the_latest_preference(request_, expected):
    assert resolve(TAGGED, request_) == expected


def test_star_takes_a_prerelease_latest_as_npm_does():
    pkg = synthetic({"1.0.0": {}, "2.0.0-rc.1": {}}, {"latest": "2.0.0-rc.1"})
    assert resolve(pkg, "*") == Resolution("*", "2.0.0-rc.1", "range")
    # any other spelling is an ordinary range, which leaves prereleases out
    assert resolve(pkg, "x") == Resolution("x", "1.0.0", "range")
    assert resolve(pkg, ">=1") == Resolution(">=1", "1.0.0", "range")


@pytest.mark.parametrize(("pkg", "request_", "message"), [
    (packument("is-number"), "8.0.0", "is-number: no version '8.0.0'; latest is 7.0.0"),
    (packument("is-number"), "next",
     "is-number: 'next' is neither a version, a range nor a dist-tag (dist-tags: 'latest')"),
    (packument("is-number"), "^8", "is-number: no version satisfies '^8' (>=8.0.0 <9.0.0-0); latest is 7.0.0"),
    (packument("is-number"), "github:jonschlinkert/is-number", "is neither a version, a range nor a dist-tag"),
    (packument("chalk"), "3.0.0-beta.3", "chalk: no version '3.0.0-beta.3'"),
    (packument("chalk"), ">3.0.0-beta.2 <3.0.0", "chalk: no version satisfies"),
    (synthetic({"1.0.0": {}}, {"latest": "1.0.0", "next": "2.0.0"}), "next",
     "@acme/tool: dist-tag 'next' names '2.0.0', which the packument does not list"),
    (synthetic({"1.0.0": {}}, {}), None, "'latest' is neither a version, a range nor a dist-tag (dist-tags: none)"),
    ({"name": "x", "dist-tags": {"latest": "1.0.0"}}, None, "x: the packument has no versions object"),
    ({"name": "x", "versions": []}, "1.0.0", "x: the packument has no versions object"),
    (["not", "a", "packument"], None, "the packument is not a JSON object"),
])
def test_resolve_errors(pkg, request_, message):
    with pytest.raises(NpmError) as caught:
        resolve(pkg, request_)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, CapindexError) and isinstance(caught.value, ValueError)


def test_resolve_error_messages_quote_untrusted_text_on_one_line():
    pkg = synthetic({"1.0.0": {}}, {"latest": "1.0.0", "evil\ntag": "1.0.0"})
    with pytest.raises(NpmError) as caught:
        resolve(pkg, "no\nsuch\ttag")
    assert "\n" not in str(caught.value) and "'no\\nsuch\\ttag'" in str(caught.value)


# -- version_record ------------------------------------------------------------------------------


def test_version_record_is_number_7():
    assert version_record(packument("is-number"), "7.0.0") == {
        "name": "is-number",
        "version": "7.0.0",
        "description": "Returns true if a number or string value is a finite number. "
                       "Useful for regex matches, parsing, user input, etc.",
        "integrity": "sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==",
        "shasum": "7535345b896734d5f80c4d06c50955527a14f12b",
        "tarball": "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz",
        "gitHead": None,
        "repository": "https://github.com/jonschlinkert/is-number",
        "repositoryRaw": "jonschlinkert/is-number",
        "repositoryDirectory": None,
        "homepage": "https://github.com/jonschlinkert/is-number",
        "bin": {},
        "main": "index.js",
        "exports": None,
        "types": None,
        "keywords": ["cast", "check", "coerce", "coercion", "finite", "integer", "is", "isnan", "is-nan", "is-num",
                     "is-number", "isnumber", "isfinite", "istype", "kind", "math", "nan", "num", "number", "numeric",
                     "parseFloat", "parseInt", "test", "type", "typeof", "value"],
        "license": "MIT",
        "deprecated": None,
        "hasAttestations": False,
        "provenancePredicateType": None,
        "signatureCount": 0,
        "engines": {"node": ">=0.12.0"},
        "publishedAt": "2024-02-27T16:27:13.411000+00:00",
        "declaresCapability": False,
    }


@pytest.mark.parametrize(("fixture", "version", "expected"), [
    # legacy `licenses` array and git:// repository
    ("is-number", "0.1.0", {"license": "MIT", "repository": "https://github.com/jonschlinkert/is-number",
                            "repositoryRaw": "git://github.com/jonschlinkert/is-number.git",
                            "engines": {"node": ">=0.10.0"}, "publishedAt": "2026-03-29T08:50:05.148000+00:00"}),
    ("is-number", "1.0.0", {"license": "MIT"}),  # legacy {type, url} object
    ("left-pad", "1.3.0", {"repository": "https://github.com/stevemao/left-pad",
                           "repositoryRaw": "git@github.com:stevemao/left-pad.git", "types": "index.d.ts",
                           "license": "WTFPL", "main": "index.js",
                           "integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQGinBN9yTQT3bFlCBy/"
                                        "aVx2HrNcqQGsdot8ghrjyrvMCoEA=="}),
    ("semver", "7.8.6", {"bin": {"semver": "bin/semver.js"}, "engines": {"node": ">=10"}, "license": "ISC",
                         "repository": "https://github.com/npm/node-semver",
                         "repositoryRaw": "git+https://github.com/npm/node-semver.git",
                         "shasum": "67c0cda133a3ceb6f70b803e67625bf969000424"}),
    ("sindresorhus-slugify", "3.0.1", {"name": "@sindresorhus/slugify", "main": None,
                                       "exports": {"types": "./index.d.ts", "default": "./index.js"},
                                       "repository": "https://github.com/sindresorhus/slugify",
                                       "tarball": "https://registry.npmjs.org/@sindresorhus/slugify/-/slugify-3.0.1.tgz"}),
    ("chalk", "3.0.0-beta.1", {"version": "3.0.0-beta.1", "name": "chalk"}),
])
def test_version_record_fields_from_real_packuments(fixture, version, expected):
    record = version_record(packument(fixture), version)
    assert {k: record[k] for k in expected} == expected


@pytest.mark.parametrize("fixture", PACKUMENTS)
def test_every_recorded_version_gives_a_stable_json_record(fixture):
    pkg = packument(fixture)
    for version in pkg["versions"]:
        record = version_record(pkg, version)
        assert tuple(record) == RECORD_KEYS
        assert json.loads(json.dumps(record, allow_nan=False)) == record
        assert record["version"] == version and record["integrity"].startswith("sha")


def test_version_record_does_not_share_state_with_the_packument():
    pkg = packument("sindresorhus-slugify")
    record = version_record(pkg, "3.0.1")
    record["exports"]["default"] = "./evil.js"
    assert pkg["versions"]["3.0.1"]["exports"]["default"] == "./index.js"


def test_version_record_fields_the_recorded_registry_left_out():
    pkg = synthetic({"2.0.0": {
        "description": "",
        "gitHead": "0123456789abcdef0123456789abcdef01234567",
        "bin": "./cli.js",
        "typings": "types/index.d.ts",
        "keywords": "slug, url,text",
        "licenses": [{"type": "MIT", "url": "https://x"}, {"type": "Apache-2.0"}, {"type": "MIT"}],
        "repository": {"type": "git", "url": "git+ssh://git@github.com/acme/mono.git", "directory": "packages/tool"},
        "deprecated": "use @acme/tool2",
        "engines": {"node": ">=18", "npm": 9},
        "capability": {"specVersion": "0.1", "exports": {}},
        "dist": {
            "integrity": "sha512-AAAA", "shasum": "ab" * 20, "tarball": "https://registry.example/tool-2.0.0.tgz",
            "attestations": {"url": "https://registry.example/-/npm/v1/attestations/@acme/tool@2.0.0",
                             "provenance": {"predicateType": "https://slsa.dev/provenance/v1"}},
            "signatures": [{"keyid": "SHA256:abc", "sig": "MEUCIQ"}, {"keyid": "SHA256:def", "sig": "MEQCIA"},
                           {"keyid": "SHA256:broken"}, "junk"],
        },
    }}, {"latest": "2.0.0"}, time={"2.0.0": "2026-01-02T03:04:05.678Z", "created": "2025-01-01T00:00:00.000Z"})
    record = version_record(pkg, "2.0.0")
    assert {k: record[k] for k in (
        "description", "gitHead", "bin", "types", "keywords", "license", "repository", "repositoryRaw",
        "repositoryDirectory", "deprecated", "engines", "hasAttestations", "provenancePredicateType",
        "signatureCount", "publishedAt", "declaresCapability", "integrity",
    )} == {
        "description": None,
        "gitHead": "0123456789abcdef0123456789abcdef01234567",
        "bin": {"tool": "./cli.js"},  # a string bin is named after the package, without its scope
        "types": "types/index.d.ts",
        "keywords": ["slug", "url,text"],  # split as normalize-package-data does: on ", " only
        "license": "(MIT OR Apache-2.0)",
        "repository": "https://github.com/acme/mono",
        "repositoryRaw": "git+ssh://git@github.com/acme/mono.git",
        "repositoryDirectory": "packages/tool",
        "deprecated": "use @acme/tool2",
        "engines": {"node": ">=18"},
        "hasAttestations": True,
        "provenancePredicateType": "https://slsa.dev/provenance/v1",
        "signatureCount": 2,
        "publishedAt": "2026-01-02T03:04:05.678Z",
        "declaresCapability": True,
        "integrity": "sha512-AAAA",
    }


@pytest.mark.parametrize(("doc", "key", "value"), [
    ({"deprecated": ""}, "deprecated", None),  # npm un-deprecates with an empty message
    ({"deprecated": True}, "deprecated", "(deprecated without a message)"),
    ({"deprecated": False}, "deprecated", None),
    ({"license": "  (MIT OR GPL-3.0-only) "}, "license", "(MIT OR GPL-3.0-only)"),
    ({"license": ["MIT", {"type": "BSD-2-Clause"}]}, "license", "(MIT OR BSD-2-Clause)"),
    ({"license": {"url": "https://x"}}, "license", None),
    ({"license": "", "licenses": {"type": "ISC"}}, "license", "ISC"),
    ({"bin": {"a": "./a.js", "b": 5, "": "./x.js"}}, "bin", {"a": "./a.js"}),
    ({"bin": ["./a.js"]}, "bin", {}),
    ({"types": "a.d.ts", "typings": "b.d.ts"}, "types", "a.d.ts"),
    ({"keywords": ["a", 3, " ", " b "]}, "keywords", ["a", "b"]),
    ({"dist": "nonsense"}, "integrity", None),
    ({"dist": {"attestations": {}, "signatures": "x"}}, "hasAttestations", True),
    ({"dist": {"signatures": {"keyid": "k", "sig": "s"}}}, "signatureCount", 0),
    ({"repository": {"type": "svn", "url": "svn://svn.example/x"}}, "repository", None),
    ({"repository": {"type": "git", "url": "svn://svn.example/x"}}, "repositoryRaw", "svn://svn.example/x"),
])
def test_version_record_legacy_and_odd_forms(doc, key, value):
    assert version_record(synthetic({"1.0.0": doc}, {"latest": "1.0.0"}), "1.0.0")[key] == value


def test_version_record_without_time_or_dist():
    pkg = {"name": "bare", "versions": {"0.0.1": {"name": "bare", "version": "0.0.1"}}}
    record = version_record(pkg, "0.0.1")
    assert [record[k] for k in ("publishedAt", "integrity", "tarball", "signatureCount")] == [None, None, None, 0]


@pytest.mark.parametrize(("pkg", "version", "message"), [
    (packument("is-number"), "9.9.9", "is-number: no version '9.9.9'"),
    (synthetic({"1.0.0": {"name": "other-package"}}, {}), "1.0.0",
     "@acme/tool@1.0.0: the version document names package 'other-package'"),
    (synthetic({"1.0.0": {"version": "6.6.6"}}, {}), "1.0.0",
     "@acme/tool@1.0.0: the version document says version '6.6.6'"),
    ({"name": "x", "versions": {"1.0.0": "not an object"}}, "1.0.0", "x: no version '1.0.0'"),
])
def test_version_record_refuses_mismatched_identity(pkg, version, message):
    with pytest.raises(NpmError) as caught:
        version_record(pkg, version)
    assert message in str(caught.value)


@pytest.mark.parametrize(("value", "url"), [
    ("git://github.com/jonschlinkert/is-number.git", "https://github.com/jonschlinkert/is-number"),
    ("git+https://github.com/npm/node-semver.git", "https://github.com/npm/node-semver"),
    ({"type": "git", "url": "https://github.com/a/b.git"}, "https://github.com/a/b"),
    ("jonschlinkert/is-number", "https://github.com/jonschlinkert/is-number"),
    ("github:a/b", "https://github.com/a/b"),
    ("gitlab:group/project", "https://gitlab.com/group/project"),
    ("bitbucket:team/repo", "https://bitbucket.org/team/repo"),
    ("gist:11081aaa281", "https://gist.github.com/11081aaa281"),
    ("git@github.com:stevemao/left-pad.git", "https://github.com/stevemao/left-pad"),
    ("git+ssh://git@github.com/a/b.git", "https://github.com/a/b"),
    ("git+ssh://git@github.com:a/b.git", "https://github.com/a/b"),  # a common broken form
    ("ssh://git@gitlab.com:2222/g/p.git", "https://gitlab.com/g/p"),
    ("https://user:secret-token@github.com/a/b#readme", "https://github.com/a/b"),  # never keep credentials
    ("http://git.example.org:8080/r/", "http://git.example.org:8080/r"),
    ("github.com/a/b", "https://github.com/a/b"),
    ("svn://svn.example/x", None),
    ("file:../local", None),
    ("https://github.com", None),
    ("../a/b", None),
    ("a/b/c", None),
    ("https://exa mple.com/x", None),
    ("", None),
    (None, None),
    (42, None),
    ({"url": 42}, None),
])
def test_normalize_repository(value, url):
    assert normalize_repository(value) == url


# -- capability_exports --------------------------------------------------------------------------


def declaration(exports: dict, **extra) -> dict:
    return {"name": "@acme/caps", "version": "1.0.0", "capability": {"specVersion": "0.1", "exports": exports, **extra}}


def test_reference_implementation_declaration_reads_back_whole():
    # the reference's package.json declares {specVersion, exports: {id: {module, manifest}}}; its
    # public index lists the same descriptors, so the declaration is rebuilt from that document
    index = json.loads((require_reference() / "examples" / "registry-index.json").read_text("utf-8"))
    entry = index["packages"][0]
    exports = {c["manifest"]["id"]: {"module": c["module"], "manifest": c["manifest"]} for c in entry["capabilities"]}
    out = capability_exports(declaration(exports), f"{entry['name']}@{entry['version']}")
    assert out.problems == [] and out.legacy == {}
    assert [d["id"] for d in out.descriptors] == list(exports) and len(out.descriptors) == 12
    assert out.descriptors[1] == {"id": "text/slugify", "module": "./dist/builtins/text-slugify.js",
                                  "manifest": exports["text/slugify"]["manifest"], "integrity": None}


def test_descriptors_legacy_and_problems_side_by_side():
    slugify = manifest("text/slugify")
    exports = {
        "text/slugify": {"module": "./dist/slugify.js", "manifest": slugify, "integrity": "sha256-" + "A" * 43 + "="},
        "text/upper": {"module": "./dist/./upper.js", "manifest": manifest("text/upper"), "note": "ignored"},
        "text/legacy": "./dist/legacy.js",
        "text/broken": {"module": "dist/broken.js", "manifest": manifest("text/broken")},
    }
    out = capability_exports(declaration(exports), "@acme/caps@1.0.0")
    assert out.descriptors == [
        {"id": "text/slugify", "module": "./dist/slugify.js", "manifest": slugify,
         "integrity": "sha256-" + "A" * 43 + "="},
        {"id": "text/upper", "module": "./dist/./upper.js", "manifest": manifest("text/upper"), "integrity": None},
    ]
    assert out.descriptors[0]["manifest"] is slugify  # as declared, for a byte-for-byte comparison later
    assert out.legacy == {"text/legacy": "./dist/legacy.js"}
    assert out.problems == [
        "$.capability.exports['text/broken'].module: 'dist/broken.js' must start with ./ (package-relative) "
        "[package_relative_module]",
    ]
    for d in out.descriptors:  # what indexer/npm.py writes into an index entry validates as one
        IndexCapability.model_validate({k: v for k, v in d.items() if k != "id" and v is not None})


@pytest.mark.parametrize(("entry", "problem"), [
    ({"module": "./dist/x.js", "manifest": manifest("text/other")},
     "$.capability.exports['text/x'].manifest.id: 'text/other' differs from the export key 'text/x' [export_id]"),
    ({"module": "./dist/../../../etc/passwd", "manifest": manifest("text/x")},
     "$.capability.exports['text/x'].module: './dist/../../../etc/passwd' escapes the package "
     "[package_relative_module]"),
    ({"module": "./..", "manifest": manifest("text/x")}, "'./..' escapes the package"),
    ({"module": "./", "manifest": manifest("text/x")}, "'./' names the package root, not a module"),
    ({"module": "./a/..", "manifest": manifest("text/x")}, "'./a/..' names the package root, not a module"),
    ({"module": "./a\\..\\..\\x.js", "manifest": manifest("text/x")}, "must use / separators and no NUL"),
    ({"module": "/etc/passwd", "manifest": manifest("text/x")}, "'/etc/passwd' must start with ./"),
    ({"module": "../x.js", "manifest": manifest("text/x")}, "'../x.js' must start with ./"),
    ({"module": 7, "manifest": manifest("text/x")},
     "$.capability.exports['text/x'].module: must be a string (a ./ path) [package_relative_module]"),
    ({"manifest": manifest("text/x")}, "$.capability.exports['text/x'].module: is missing [package_relative_module]"),
    ({"module": "./x.js"},
     "$.capability.exports['text/x'].manifest: is missing: a descriptor carries the complete inert manifest "
     "[required]"),
    ({"module": "./x.js", "manifest": "text/x"},
     "$.capability.exports['text/x'].manifest: must be an object (the complete inert manifest) [type]"),
    ({"module": "./x.js", "manifest": {k: v for k, v in manifest("text/x").items() if k != "name"}},
     "$.capability.exports['text/x'].manifest.name: Field required [missing]"),
    ({"module": "./x.js", "manifest": manifest("text/x", effects=["network.teleport"])},
     "$.capability.exports['text/x'].manifest.effects[0]: 'network.teleport' is neither a built-in effect"),
    ({"module": "./x.js", "manifest": manifest("text/x", version="^1.0.0")},
     "$.capability.exports['text/x'].manifest.version: '^1.0.0' does not match"),
    ({"module": "./x.js", "manifest": manifest("text/x", specVersion="0.2")},
     "$.capability.exports['text/x'].manifest.specVersion:"),
    ({"module": "./x.js", "manifest": manifest("text/x"), "integrity": 5},
     "$.capability.exports['text/x'].integrity: must be a non-empty string when present [type]"),
    ({"module": "./x.js", "manifest": manifest("text/x"), "integrity": ""},
     "$.capability.exports['text/x'].integrity: must be a non-empty string when present [type]"),
    (["./x.js"], "$.capability.exports['text/x']: must be a module path or a descriptor {module, manifest, integrity} "
                 "[type]"),
    (None, "$.capability.exports['text/x']: must be a module path or a descriptor"),
    ("x.js", "$.capability.exports['text/x']: 'x.js' must start with ./ (package-relative) [package_relative_module]"),
    ("./../x.js", "$.capability.exports['text/x']: './../x.js' escapes the package [package_relative_module]"),
])
def test_rejected_exports(entry, problem):
    out = capability_exports(declaration({"text/x": entry, "text/ok": "./ok.js"}), "@acme/caps@1.0.0")
    assert out.descriptors == []
    assert out.legacy == {"text/ok": "./ok.js"}  # one bad export leaves the others alone
    assert any(problem in p for p in out.problems), out.problems
    assert all(p.startswith("$.capability.exports['text/x']") and "\n" not in p for p in out.problems)


@pytest.mark.parametrize("key", ["Slugify", "slugify", "text/", "/text", "text//x", "Text/X", "text/x y"])
def test_export_keys_must_be_capability_ids(key):
    entry = {"module": "./x.js", "manifest": manifest("text/x")}
    out = capability_exports(declaration({key: entry, "text/y": "./y.js"}), "w")
    assert out.descriptors == [] and out.legacy == {"text/y": "./y.js"}
    assert any("is not a capability id [capability_id]" in p for p in out.problems)
    out = capability_exports(declaration({key: "./legacy.js"}), "w")
    assert out.legacy == {} and len(out.problems) == 1


def test_every_problem_of_one_export_is_reported():
    entry = {"module": "dist/x.js", "manifest": manifest("text/other", name=" "), "integrity": 1}
    out = capability_exports(declaration({"text/x": entry}), "w")
    assert [p.split(":")[0] for p in out.problems] == [
        "$.capability.exports['text/x'].module",
        "$.capability.exports['text/x'].manifest.name",
        "$.capability.exports['text/x'].manifest.id",
        "$.capability.exports['text/x'].integrity",
    ]


@pytest.mark.parametrize(("package_json", "problems"), [
    ({"name": "plain"}, []),
    ({"name": "plain", "capability": "./caps.json"},
     ["$.capability: must be an object {specVersion, exports} [type]"]),
    ({"capability": {"exports": {"text/x": "./x.js"}}},
     ["$.capability.specVersion: must be '0.1', not 'None'; no export was read [spec_version]"]),
    ({"capability": {"specVersion": "0.2",
                     "exports": {"text/x": {"module": "./x.js", "manifest": manifest("text/x")}}}},
     ["$.capability.specVersion: must be '0.1', not '0.2'; no export was read [spec_version]"]),
    ({"capability": {"specVersion": "0.1"}},
     ["$.capability.exports: must be an object mapping capability ids to exports [type]"]),
    ({"capability": {"specVersion": "0.1", "exports": [{"module": "./x.js"}]}},
     ["$.capability.exports: must be an object mapping capability ids to exports [type]"]),
    ({"capability": {"specVersion": "0.1", "exports": {}}}, []),
    ("not an object", []),
])
def test_declaration_level_problems(package_json, problems):
    out = capability_exports(package_json, "w")
    assert (out.descriptors, out.legacy, out.problems) == ([], {}, problems)


@pytest.mark.parametrize("fixture", PACKUMENTS)
def test_real_packages_declare_no_capabilities(fixture):
    pkg = packument(fixture)
    doc = pkg["versions"][pkg["dist-tags"]["latest"]]
    out = capability_exports(doc, f"{fixture}@latest")
    assert (out.descriptors, out.legacy, out.problems) == ([], {}, [])


@pytest.mark.parametrize(("module", "ok"), [
    ("./index.js", True), ("./dist/a/b.mjs", True), ("./a/../b.js", True), ("./.hidden.js", True),
    ("./..hidden.js", True), ("./a/../../b.js", False), (".//b.js", True), ("./a\x00.js", False), ("index.js", False),
    ("", False), (".", False), ("./.", False),
])
def test_module_problem(module, ok):
    assert (module_problem(module) is None) == ok


# -- search_results ------------------------------------------------------------------------------


def test_search_results_from_the_search_answer():
    answer = json.loads((FIXTURES / "search-slugify.synthetic.json").read_bytes())
    results = search_results(answer)
    assert [r["name"] for r in results] == ["slugify", "@sindresorhus/slugify", "slug", "url-slug"]
    assert all(tuple(r) == SEARCH_KEYS for r in results)
    assert results[0] == {
        "name": "slugify",
        "version": "1.6.9",
        "description": "Slugifies a String",
        "keywords": ["slugify", "slug", "url", "urlify"],
        "links": {"homepage": "https://github.com/simov/slugify",
                  "repository": "git+https://github.com/simov/slugify.git",
                  "bugs": "https://github.com/simov/slugify/issues",
                  "npm": "https://www.npmjs.com/package/slugify"},
        "repository": "https://github.com/simov/slugify",
        "publisher": "simov",
        "date": "2026-04-02T00:01:57.726Z",
        "score": 0.9123,
        "searchScore": 1790.51,
        "rank": 1,
    }
    assert results[2]["repository"] == "https://github.com/Trott/slug"  # from git://
    assert "homepage" not in results[3]["links"] and results[3]["rank"] == 4
    text = json.dumps(results, allow_nan=False)
    assert "example.invalid" not in text  # publishers' e-mail addresses are not kept
    # candidates only: nothing in a result claims to be a capability or executable
    assert not any({"capabilities", "manifest", "executable"} & set(r) for r in results)


def test_search_results_skip_unusable_entries():
    answer = {"objects": [
        {"package": {"name": "good", "version": "1.0.0"}, "score": {"final": 0.5}, "searchScore": float("nan")},
        {"package": {"version": "1.0.0"}},
        {"package": {"name": ""}},
        "junk",
        {"package": {"name": "good", "version": "9.9.9"}},
        {"package": {"name": "second", "keywords": "a, b", "links": {"npm": 5, "homepage": "https://h"},
                     "publisher": "not-an-object"},
         "score": {"final": True}},
    ], "total": 6}
    results = search_results(answer)
    assert [(r["name"], r["version"], r["rank"]) for r in results] == [("good", "1.0.0", 1), ("second", None, 2)]
    assert (results[0]["score"], results[0]["searchScore"]) == (0.5, None)
    assert results[1]["keywords"] == ["a", "b"] and results[1]["links"] == {"homepage": "https://h"}
    assert (results[1]["publisher"], results[1]["score"]) == (None, None)
    json.dumps(results, allow_nan=False)


@pytest.mark.parametrize("answer", [{}, {"objects": {}}, {"objects": None}, [], "error"])
def test_search_results_refuse_an_answer_without_objects(answer):
    with pytest.raises(NpmError, match="the search answer has no objects list"):
        search_results(answer)


def test_search_results_empty_answer():
    assert search_results({"objects": [], "total": 0, "time": "2026-11-30T00:00:00.000Z"}) == []
