"""miners/native_manifest.py: package.json capability exports and standalone Capability manifests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import require_reference
from miners import native_manifest
from miners.declared import Declared, Problem, canonical_json, capability_id, sha256
from miners.native_manifest import LEGACY_NOTE, NO_EFFECTS_NOTE, read, sniff
from schemas.models import CapabilityManifest

FIXTURES = Path(__file__).parent / "fixtures" / "declared" / "native"


def fixture(name: str) -> tuple[str, bytes]:
    return name, (FIXTURES / name).read_bytes()


def line_of(data: bytes, needle: str) -> int:
    """1-based line of the first occurrence of `needle` in the fixture's text."""
    text = data.decode("utf-8")
    assert needle in text, needle
    return text[: text.index(needle)].count("\n") + 1


def reference_manifests() -> list[dict]:
    index = json.loads((require_reference() / "examples" / "registry-index.json").read_text("utf-8"))
    return [c["manifest"] for c in index["packages"][0]["capabilities"]]


# -- package.json --------------------------------------------------------------------------------------


def test_the_reference_packages_declaration_reads_back_whole():
    # the reference implementation's package.json declares {specVersion, exports: {id: {module, manifest}}};
    # its public index lists the same descriptors, so the declaration is rebuilt from that document
    index = json.loads((require_reference() / "examples" / "registry-index.json").read_text("utf-8"))
    entry = index["packages"][0]
    exports = {c["manifest"]["id"]: {"module": c["module"], "manifest": c["manifest"]} for c in entry["capabilities"]}
    package = {"name": entry["name"], "version": entry["version"], "capability": {"specVersion": "0.1", "exports": exports}}
    data = json.dumps(package, indent=2).encode()
    assert sniff("package.json", data)
    result = read("package.json", data)
    assert result.problems == []
    assert [d.original_id for d in result.operations] == list(exports) and len(result.operations) == 12
    for declared, (key, export) in zip(result.operations, exports.items(), strict=True):
        manifest = export["manifest"]
        assert declared.format == "capability" and declared.manifest == manifest
        CapabilityManifest.model_validate(declared.manifest)
        assert (declared.name, declared.description) == (manifest["name"], manifest["description"])
        assert (declared.input_schema, declared.output_schema) == (manifest["input"], manifest["output"])
        assert declared.effects == [] and declared.read_only is None and declared.notes == []
        assert declared.namespace == key.split("/")[0]
        assert capability_id(declared.namespace, key.split("/")[1]) == key  # the id comes back whole
        assert declared.declaration_digest == sha256(canonical_json(manifest))
        assert declared.digest_of == "canonical-json" and declared.source_digest == sha256(data)
        assert declared.metadata == {"export": key, "package": entry["name"], "packageVersion": entry["version"],
                                     "module": export["module"], "integrity": None}
        assert declared.pointer == "/capability/exports/" + key.replace("/", "~1")


def test_descriptors_and_a_legacy_export_in_declaration_order():
    path, data = fixture("package.json")
    result = read(path, data)
    assert result.problems == []
    slugify, normalize, legacy = result.operations
    assert [d.original_id for d in result.operations] == ["text/slugify", "text/normalize", "text/reverse"]

    on_disk = json.loads(data)["capability"]["exports"]
    assert slugify.manifest == on_disk["text/slugify"]["manifest"]
    assert slugify.metadata["integrity"] == "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
    assert slugify.metadata["module"] == "./dist/capabilities/slugify.js"
    assert slugify.metadata["package"] == "@acme/text-tools" and slugify.metadata["packageVersion"] == "2.3.0"
    assert normalize.metadata["integrity"] is None

    # each export spans its own lines: it starts where its value opens, ends before the next export
    assert slugify.line == line_of(data, '"text/slugify": {')
    assert normalize.line == line_of(data, '"text/normalize": {')
    assert slugify.line < slugify.end_line < normalize.line < normalize.end_line < legacy.line

    # a legacy string-only export is a candidate: no manifest, and said to be unsafe to acquire
    assert legacy.manifest is None and LEGACY_NOTE in legacy.notes
    assert legacy.line == legacy.end_line == line_of(data, '"text/reverse"')
    assert legacy.metadata == {"export": "text/reverse", "package": "@acme/text-tools", "packageVersion": "2.3.0",
                               "module": "./dist/capabilities/reverse.js", "legacy": True}
    assert legacy.declaration_digest == sha256(canonical_json("./dist/capabilities/reverse.js"))
    assert (legacy.name, legacy.description, legacy.namespace, legacy.effects) == ("text/reverse", "", "text", [])


def test_slugify_export_ends_at_its_last_value():
    path, data = fixture("package.json")
    slugify = read(path, data).operations[0]
    # the last value inside the export is its integrity string
    assert slugify.end_line == line_of(data, '"integrity"')


def test_bad_exports_are_problems_and_the_rest_is_read():
    path, data = fixture("mixed/package.json")
    result = read(path, data)
    assert [d.original_id for d in result.operations] == ["text/slugify", "text/legacy"]
    assert result.operations[1].manifest is None
    assert [(p.where, p.reason) for p in result.problems] == [
        ("$.capability.exports['json/get'].manifest.name", "must not be blank [non_blank]"),
        ("$.capability.exports['json/get'].manifest.effects[0]",
         "'network.teleport' is neither a built-in effect nor custom:<namespace> [effect]"),
        ("$.capability.exports['data/hash'].manifest.id",
         "'data/sha256' differs from the export key 'data/hash' [export_id]"),
        ("$.capability.exports['text/escape'].module",
         "'../outside/escape.js' must start with ./ (package-relative) [package_relative_module]"),
        ("$.capability.exports['Text/Upper']", "the export key 'Text/Upper' is not a capability id [capability_id]"),
    ]
    assert all(p.path == path for p in result.problems)


def test_an_unknown_declaration_version_is_rejected_whole():
    path, data = fixture("spec-0.2/package.json")
    result = read(path, data)
    assert result.operations == []
    assert result.problems == [Problem(path, "$.capability.specVersion",
                                       "must be '0.1', not '0.2'; no export was read [spec_version]")]


@pytest.mark.parametrize(("package", "wheres"), [
    ({"name": "plain", "description": "no \"capability\" field here"}, []),
    ({"name": "x", "capability": "./capabilities.json"}, ["$.capability"]),
    ({"name": "x", "capability": {"specVersion": "0.1", "exports": ["./a.js"]}}, ["$.capability.exports"]),
    ({"name": "x", "capability": {"specVersion": "0.1", "exports": {"text/a": 7}}}, ["$.capability.exports['text/a']"]),
    ({"name": "x", "capability": {"specVersion": "0.1", "exports": {}}}, []),
    (["not", "an", "object"], []),
])
def test_declaration_level_problems(package, wheres):
    result = read("pkg/package.json", json.dumps(package).encode())
    assert result.operations == []
    assert [p.where for p in result.problems] == wheres


def test_an_unparseable_package_json_is_a_problem_with_its_line():
    result = read("package.json", b'{\n  "name": "x",\n  "capability": {\n    "specVersion": "0.1",\n')
    assert result.operations == [] and len(result.problems) == 1
    assert result.problems[0].where == "line 5"


# -- standalone manifests ----------------------------------------------------------------------------


def test_a_standalone_manifest():
    path, data = fixture("manifests/text-slugify.capability.json")
    assert sniff(path, data)
    result = read(path, data)
    assert result.problems == []
    (declared,) = result.operations
    reference = next(m for m in reference_manifests() if m["id"] == "text/slugify")
    assert declared.manifest == reference == json.loads(data)
    assert (declared.original_id, declared.name, declared.namespace) == ("text/slugify", "Slugify Text", "text")
    assert declared.pointer == "" and declared.line == 1
    assert declared.end_line == line_of(data, '"normalize"')  # its last value; the closing brackets follow
    assert declared.declaration_digest == sha256(canonical_json(reference))
    assert declared.source_digest == sha256(data)
    assert declared.input_schema == reference["input"] and declared.output_schema == reference["output"]
    assert declared.metadata == {} and declared.effects == [] and declared.read_only is None


def test_declared_effects_are_kept_and_behaviour_says_nothing_of_read_only():
    path, data = fixture("manifests/fetch-json.json")
    (declared,) = read(path, data).operations
    assert declared.effects == ["network.connect", "custom:acme.cache/write"]
    assert declared.read_only is None  # deterministic/idempotent/reversible are not "reads only"
    assert declared.namespace == "web" and declared.notes == []


def test_a_manifest_without_effects_says_they_are_not_stated():
    path, data = fixture("manifests/sha256-no-effects.json")
    (declared,) = read(path, data).operations
    assert declared.effects == [] and declared.notes == [NO_EFFECTS_NOTE]


def test_an_invalid_manifest_names_each_rule_it_breaks():
    path, data = fixture("manifests/invalid.json")
    assert sniff(path, data)
    result = read(path, data)
    assert result.operations == []
    problems = {p.where: p.reason for p in result.problems}
    assert set(problems) == {"$.id", "$.version", "$.owner"}
    assert problems["$.id"].startswith("'Text Slugify' does not match") and problems["$.id"].endswith("[capability_id]")
    assert problems["$.version"].startswith("'^1.0.0' does not match") and problems["$.version"].endswith("[semver]")
    assert problems["$.owner"] == "Extra inputs are not permitted [extra_forbidden]"


def test_wrong_types_in_a_manifest():
    path, data = fixture("manifests/wrong-types.json")
    result = read(path, data)
    assert result.operations == []
    assert sorted((p.where, p.reason.rsplit(" ", 1)[-1]) for p in result.problems) == [
        ("$.behavior.deterministic", "[bool_type]"),
        ("$.effects", "[list_type]"),
        ("$.input", "[dict_type]"),
        ("$.name", "[string_type]"),
    ]


def test_an_unparseable_manifest():
    path, data = fixture("manifests/truncated.json")
    result = read(path, data)
    assert result.operations == []
    (problem,) = result.problems
    assert problem.path == path and problem.where == f"line {data.decode().count(chr(10)) + 1}"


@pytest.mark.parametrize(("document", "problems"), [
    ([1, 2], ["$"]),
    ({"id": "text/x"}, ["$"]),
    ({"indexVersion": "0.1", "generatedAt": "2026-01-01T00:00:00Z", "packages": []}, []),  # read by the indexer
    ({"bridgeVersion": "0.1", "manifest": {"specVersion": "0.1"}}, []),
])
def test_documents_that_are_not_manifests(document, problems):
    result = read("caps/doc.json", json.dumps(document).encode())
    assert result.operations == [] and [p.where for p in result.problems] == problems


def test_a_lone_surrogate_has_no_digest_and_is_a_problem():
    # JSON can spell a lone surrogate; it validates (as the reference's JavaScript would) but has no UTF-8 bytes
    manifest = {"specVersion": "0.1", "id": "text/x", "version": "1.0.0", "name": "X", "description": "bad \\ud800"}
    data = json.dumps(manifest).replace("\\\\ud800", "\\ud800").encode()
    result = read("x.json", data)
    assert result.operations == [] and [p.where for p in result.problems] == ["$"]
    package = {"capability": {"specVersion": "0.1", "exports": {"text/x": {"module": "./x.js", "manifest": manifest},
                                                                "text/y": "./y.js"}}}
    data = json.dumps(package).replace("\\\\ud800", "\\ud800").encode()
    result = read("package.json", data)
    assert [d.original_id for d in result.operations] == ["text/y"]
    assert [p.where for p in result.problems] == ["$.capability.exports['text/x']"]


# -- sniff -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "data", "expected"), [
    ("package.json", b'{"name": "x", "capability": {"specVersion": "0.1", "exports": {}}}', True),
    ("packages/a/package.json", b'{"name": "a", "version": "1.0.0", "main": "index.js"}', False),
    ("caps/slugify.json", b'{\n  "specVersion": "0.1",\n  "id": "text/slugify"}', True),
    ("caps/slugify.yaml", b'specVersion: "0.1"\nid: text/slugify\n', False),
    ("bom.cdx.json", b'{"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1}', False),
    ("bridge.json", b'{"bridgeVersion": "0.1", "manifest": {"specVersion": "0.1", "id": "a/b"}}', False),
    ("tsconfig.json", b'{"compilerOptions": {"strict": true}}', False),
])
def test_sniff(path, data, expected):
    assert sniff(path, data) is expected


def test_sniff_leaves_the_standards_other_documents_alone():
    where = require_reference()
    for name in ("examples/registry-index.json", "examples/.well-known/capabilities.json"):
        assert not sniff(name, (where / name).read_bytes())


def test_sniff_accepts_every_fixture_it_should_read():
    for name in ("package.json", "mixed/package.json", "spec-0.2/package.json", "manifests/text-slugify.capability.json",
                 "manifests/invalid.json", "manifests/wrong-types.json", "manifests/truncated.json"):
        assert sniff(*fixture(name)), name


# -- robustness ------------------------------------------------------------------------------------------


def _variants(data: bytes) -> list[bytes]:
    cuts = [data[:n] for n in range(0, len(data), max(1, len(data) // 23))]
    flips = [data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:] for i in range(0, len(data), max(1, len(data) // 31))]
    return cuts + flips + [data.replace(b'"', b"'", 3), data.replace(b"{", b"[", 2), b"\xff" + data]


@pytest.mark.parametrize("name", ["package.json", "mixed/package.json", "manifests/text-slugify.capability.json"])
def test_read_never_raises(name):
    path, data = fixture(name)
    for variant in _variants(data):
        result = read(path, variant)
        assert all(isinstance(d, Declared) for d in result.operations)
        assert all(isinstance(p, Problem) and p.where for p in result.problems)
        assert native_manifest.sniff(path, variant) in (True, False)
