"""miners/ampersand.py: ampersand capability contracts read statically, and the composition rules
(fixtures in tests/fixtures/declared/ampersand/)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from miners import ampersand
from miners.declared import Declared, Imported, canonical_json, capability_id, sha256

FIXTURES = Path(__file__).parent / "fixtures" / "declared" / "ampersand"
CUSTOM = re.compile(r"^custom:[a-z0-9][a-z0-9._/-]*$")
CAPABILITY_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)+$")


def fixture(name: str) -> tuple[str, bytes, Imported]:
    path = str(FIXTURES / name)
    data = (FIXTURES / name).read_bytes()
    return path, data, ampersand.read(path, data)


def ops(name: str) -> dict[str, Declared]:
    return {d.original_id: d for d in fixture(name)[2].operations}


def contract(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_bytes())


def line_of(data: bytes, needle: str) -> int:
    for number, line in enumerate(data.decode().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in fixture")


def where(imported: Imported) -> list[str]:
    return [p.where for p in imported.problems]


# --- the seed's contracts --------------------------------------------------------------------------


def test_the_seed_contract_one_declared_per_operation():
    path, data, imported = fixture("time.anomaly.contract.json")
    assert imported.problems == []
    value = json.loads(data)
    found = {d.original_id: d for d in imported.operations}
    assert list(found) == ["&time.anomaly#detect", "&time.anomaly#enrich", "&time.anomaly#learn"]
    detect = found["&time.anomaly#detect"]
    assert detect.format == "ampersand"
    assert detect.name == "detect"
    assert detect.namespace == "ticktickclock/time.anomaly"
    assert capability_id(detect.namespace, detect.name) == "ticktickclock/time.anomaly/detect"
    assert CAPABILITY_ID.match(capability_id(detect.namespace, detect.original_id))
    assert detect.description == "Detect anomalous events from temporal input signals."
    assert detect.metadata == {
        "capability": "&time.anomaly",
        "operation": "detect",
        "in": "stream_data",
        "out": "anomaly_set",
        "deterministic": False,
        "side_effects": False,
        "provider": "ticktickclock",
        "version": "0.1.0",
        "accepts_from": ["&memory.*", "&space.*", "raw_data", "stream_data", "context"],
        "feeds_into": ["&memory.*", "&reason.*", "&space.*", "output"],
        "a2a_skills": ["temporal-anomaly-detection"],
        "metadata": value["metadata"],
        "$schema": value["$schema"],
    }
    assert detect.input_schema is None and detect.output_schema is None  # type tokens, not schemas
    assert detect.path == path and detect.pointer == "/operations/detect"
    assert detect.source_digest == sha256(data)
    narrowed = {**value, "operations": {"detect": value["operations"]["detect"]}}
    assert detect.declaration_digest == sha256(canonical_json(narrowed))
    assert detect.digest_of == "canonical-json"


@pytest.mark.parametrize(
    ("op", "effects", "read_only"),
    [("detect", [], True), ("enrich", [], True), ("learn", ["custom:ampersand.side_effects"], False)],
)
def test_side_effects_map_to_effects_and_read_only(op: str, effects: list[str], read_only: bool):
    declared = ops("time.anomaly.contract.json")[f"&time.anomaly#{op}"]
    assert declared.effects == effects
    assert declared.read_only is read_only
    assert declared.hints == {"deterministic": False, "side_effects": not read_only}


def test_the_mapping_table_is_the_seeds_boolean():
    assert set(ampersand.SIDE_EFFECTS) == {True, False}
    assert ampersand.SIDE_EFFECTS[False] == ()
    assert all(CUSTOM.match(effect) for effect in ampersand.SIDE_EFFECTS[True])


def test_lines_are_where_each_operation_is_in_the_fixture():
    _, data, imported = fixture("time.anomaly.contract.json")
    for declared in imported.operations:
        assert declared.line == line_of(data, f'"{declared.name}": {{')
        assert declared.end_line == declared.line + 5  # in, out, description, deterministic, side_effects
    _, data, imported = fixture("space.fleet.contract.yaml")
    dispatch = imported.operations[2]
    assert dispatch.line == line_of(data, "  dispatch:")  # the key, as OpenAPI operations count it
    assert dispatch.end_line == line_of(data, "latency_budget_ms: 500")


@pytest.mark.parametrize(
    ("name", "capability", "operations"),
    [
        ("memory.graph.excerpt.json", "&memory.graph", ["recall", "store", "enrich", "topology"]),
        ("reason.deliberate.excerpt.json", "&reason.deliberate", ["deliberate", "decompose", "reconcile"]),
    ],
)
def test_the_seeds_abbreviated_examples_are_read_and_their_gaps_reported(
    name: str, capability: str, operations: list[str]
):
    path, data, imported = fixture(name)
    assert where(imported) == ["$.provider", "$.version", "$.description"]
    assert all(p.reason.startswith("required:") and p.path == path for p in imported.problems)
    assert [d.original_id for d in imported.operations] == [f"{capability}#{op}" for op in operations]
    for declared in imported.operations:
        assert declared.namespace == capability[1:]  # no provider: the capability alone
        assert declared.read_only is None and declared.effects == []  # side_effects not declared
        assert "side_effects not declared" in declared.notes[0]
        assert declared.line == line_of(data, f'"{declared.name}": {{')
        assert declared.metadata["in"] == json.loads(data)["operations"][declared.name]["in"]


def test_a_yaml_contract():
    _, _, imported = fixture("space.fleet.contract.yaml")
    assert imported.problems == []
    locate, enrich, dispatch = imported.operations
    assert locate.original_id == "&space.fleet#locate" and locate.namespace == "geofleetic/space.fleet"
    assert locate.hints == {"deterministic": True, "side_effects": False}
    assert (enrich.metadata["in"], enrich.metadata["out"]) == ("anomaly_set", "enriched_context")
    assert dispatch.effects == ["custom:ampersand.side_effects"] and dispatch.read_only is False
    assert dispatch.metadata["operation_extra"] == {"latency_budget_ms": 500}
    assert dispatch.metadata["version"] == "0.2.1"
    assert dispatch.metadata["metadata"]["regions"] == ["us-east", "us-central"]
    assert dispatch.metadata["feeds_into"] == ["&memory.*", "&reason.deliberate", "output"]


# --- malformed input -------------------------------------------------------------------------------


def test_bad_fields_are_reported_with_their_json_path_and_the_rest_is_read():
    path, _, imported = fixture("bad-fields.contract.json")
    assert where(imported) == [
        "$.provider",
        "$.version",
        "$.description",
        "$.accepts_from",
        "$.feeds_into[1]",
        "$.feeds_into[2]",
        "$.a2a_skills",
        "$.metadata",
        "$.operations.Vote",
        "$.operations.Vote.in",
        "$.operations.Vote.deterministic",
        "$.operations.Vote.side_effects",
        "$.operations.record",
        "$.operations.publish.in",
    ]
    assert all(p.path == path for p in imported.problems)
    reasons = {p.where: p.reason for p in imported.problems}
    assert reasons["$.operations.Vote.side_effects"] == 'expected true or false, found string "sometimes"'
    assert reasons["$.operations.publish.in"] == "required: a type token such as stream_data, missing"
    found = {d.name: d for d in imported.operations}
    assert list(found) == ["argue", "Vote", "publish"]  # `record` is not an object: reported, skipped
    assert found["argue"].read_only is True and found["argue"].namespace == "reason.argument"
    assert found["Vote"].metadata["in"] == 42  # kept exactly; composition ignores it
    assert found["Vote"].read_only is None and found["Vote"].hints == {}
    assert found["publish"].effects == ["custom:ampersand.side_effects"] and "in" not in found["publish"].metadata
    assert found["publish"].metadata["contract_extra"] == {"owner": "team-reasoning"}
    assert found["publish"].metadata["accepts_from"] == "&memory.*"  # the raw value, not a list


def test_a_contract_without_a_capability_yields_nothing_but_its_problem():
    _, _, imported = fixture("missing-capability.contract.json")
    assert imported.operations == []
    assert [(p.where, p.reason) for p in imported.problems] == [
        ("$.capability", "required: a capability id like &time.anomaly, missing")
    ]


def test_a_list_with_one_bad_contract_among_good_ones():
    _, data, imported = fixture("contracts.json")
    assert where(imported) == ["$[1].capability"]
    assert "memory.episodic" in imported.problems[0].reason
    assert [(d.original_id, d.pointer) for d in imported.operations] == [
        ("&memory.vector#search", "/0/operations/search"),
        ("&memory.vector#upsert", "/0/operations/upsert"),
        ("&reason.vote#vote", "/2/operations/vote"),
    ]
    upsert = imported.operations[1]
    assert upsert.description == "Similarity search over embedded context."  # the contract's, lacking its own
    assert upsert.line == line_of(data, '"upsert": {')
    assert upsert.declaration_digest == sha256(
        canonical_json({**json.loads(data)[0], "operations": {"upsert": json.loads(data)[0]["operations"]["upsert"]}})
    )


@pytest.mark.parametrize(
    ("name", "line"),
    [("broken.contract.json", "line 4"), ("broken.contract.yaml", "line 5"), ("unquoted.contract.yaml", "line 1")],
)
def test_an_unparseable_document_is_one_problem(name: str, line: str):
    path, _, imported = fixture(name)
    assert imported.operations == []
    [problem] = imported.problems
    assert (problem.path, problem.where) == (path, line) and problem.reason


def test_a_bare_ampersand_in_yaml_is_explained():
    data = b'capability: "&time.forecast"\nprovider: p\nversion: 1.0.0\ndescription: d\n'
    data += b"operations:\n  forecast: {in: stream_data, out: forecast}\naccepts_from:\n  - &memory\n  - stream_data\n"
    data += b"feeds_into: [output]\n"
    imported = ampersand.read("c.yaml", data)
    [problem] = imported.problems
    assert problem.where == "$.accepts_from[0]"
    assert "found null (in YAML quote it: a bare & starts an anchor)" in problem.reason
    assert imported.operations[0].metadata["accepts_from"] == [None, "stream_data"]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'"&time.anomaly"', ("$", "expected an ampersand capability contract object")),
        (b'[{"capability": "&a.b"}, 3]', ("$[1]", "a capability contract must be an object")),
        (b'{"capability": "&a.b", "operations": {}}', ("$.operations", "expected an object of at least one")),
    ],
)
def test_documents_that_are_not_contracts(data: bytes, problem: tuple[str, str]):
    imported = ampersand.read("x.json", data)
    assert imported.operations == []
    assert any(p.where == problem[0] and problem[1] in p.reason for p in imported.problems)


# --- digests ---------------------------------------------------------------------------------------


def test_the_digest_changes_with_the_operation_or_its_contract():
    path, data, before = fixture("time.anomaly.contract.json")
    old = {d.name: d.declaration_digest for d in before.operations}
    changed = data.replace(b"Incorporate feedback to improve detection.", b"Incorporate operator feedback.")
    after = {d.name: d for d in ampersand.read(path, changed).operations}
    assert after["learn"].declaration_digest != old["learn"]
    assert after["detect"].declaration_digest == old["detect"] and after["enrich"].declaration_digest == old["enrich"]
    assert after["learn"].source_digest == sha256(changed) != sha256(data)
    # the contract around every operation: accepts_from changes them all
    wider = data.replace(b'"&space.*", "raw_data"', b'"&space.*", "&reason.*", "raw_data"')
    assert all(d.declaration_digest != old[d.name] for d in ampersand.read(path, wider).operations)


# --- composition -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "token", "matches"),
    [  # the seed's wildcard table
        ("&memory.*", "&memory.graph", True),
        ("&memory.*", "&memory.vector", True),
        ("&memory.*", "&memory.episodic", True),
        ("&memory.*", "&reason.argument", False),
        ("&memory.*", "&time.anomaly", False),
        ("&reason.*", "&reason.argument", True),
        ("&reason.*", "&reason.deliberate", True),
        ("&reason.*", "&reason.attend", True),
        ("&reason.*", "&memory.graph", False),
        ("&time.*", "&time.anomaly", True),
        ("&time.*", "&time.forecast", True),
        ("&time.*", "&space.fleet", False),
        ("&space.*", "&space.fleet", True),
        ("&space.*", "&space.geofence", True),
        ("&space.*", "&memory.graph", False),
        # a literal type matches only itself
        ("stream_data", "stream_data", True),
        ("stream_data", "stream_data_v2", False),
        ("raw_data", "stream_data", False),
        ("output", "output", True),
        # exact otherwise, and the edges of a wildcard
        ("&memory.graph", "&memory.graph", True),
        ("&memory.graph", "&memory.vector", False),
        ("&memory.*", "&memory.*", True),
        ("&memory.*", "&memory", False),
        ("&memory.*", "&memoryx.graph", False),
        ("&memory.*", "&memory.", False),
        ("&memory.*", "memory.graph", False),
        ("stream_*", "stream_data", False),
    ],
)
def test_token_matches(pattern: str, token: str, matches: bool):
    assert ampersand.token_matches(pattern, token) is matches


def seed_ops() -> dict[str, Declared]:
    found: dict[str, Declared] = {}
    for name in ("time.anomaly.contract.json", "memory.graph.excerpt.json", "reason.deliberate.excerpt.json",
                 "space.fleet.contract.yaml", "bad-fields.contract.json"):  # fmt: skip
        found.update(ops(name))
    return found


@pytest.mark.parametrize(
    ("producer", "consumer", "feeds"),
    [
        # graph feeds &reason.*, deliberate accepts &memory.graph, topology_result flows on
        ("&memory.graph#topology", "&reason.deliberate#deliberate", True),
        ("&memory.graph#topology", "&reason.deliberate#decompose", True),
        ("&memory.graph#recall", "&reason.deliberate#deliberate", False),  # retrieval_result != topology_result
        ("&time.anomaly#detect", "&space.fleet#enrich", True),  # anomaly_set, &space.* and &time.*
        ("&time.anomaly#detect", "&reason.deliberate#deliberate", False),  # deliberate accepts &memory.* only
        ("&reason.deliberate#deliberate", "&space.fleet#dispatch", False),  # same token; deliberate feeds no &space
        ("&space.fleet#locate", "&reason.deliberate#deliberate", False),  # adjacency holds, the tokens do not
        ("&reason.deliberate#deliberate", "&memory.graph#store", False),  # deliberation_result != context
        ("&memory.graph#enrich", "&time.anomaly#enrich", False),  # enriched_context != context
        ("&reason.argument#argue", "&memory.graph#store", False),  # its accepts_from is no list
        ("&memory.graph#store", "&reason.argument#Vote", False),  # in: 42 is no type token
    ],
)
def test_can_feed_operations(producer: str, consumer: str, feeds: bool):
    found = seed_ops()
    assert ampersand.can_feed(found[producer], found[consumer]) is feeds


def test_can_feed_whole_contracts_and_mixed():
    graph, deliberate = contract("memory.graph.excerpt.json"), contract("reason.deliberate.excerpt.json")
    assert ampersand.can_feed(graph, deliberate)  # topology -> deliberate
    assert not ampersand.can_feed(deliberate, graph)  # adjacency holds, but no output of one is an input of the other
    anomaly = contract("time.anomaly.contract.json")
    assert not ampersand.can_feed(anomaly, deliberate)
    found = seed_ops()
    assert ampersand.can_feed(found["&memory.graph#topology"], deliberate)
    assert not ampersand.can_feed(found["&memory.graph#recall"], deliberate)
    assert ampersand.can_feed(graph, found["&reason.deliberate#reconcile"]) is False  # intermediate_conclusions
    # what is not an ampersand step never feeds
    other = Declared(format="aip", original_id="x", name="x", description="", path="p", metadata=found[
        "&memory.graph#topology"].metadata)  # fmt: skip
    assert not ampersand.can_feed(other, deliberate)
    assert not ampersand.can_feed({"capability": "&memory.graph"}, deliberate)  # no feeds_into: nothing allowed
    assert not ampersand.can_feed({**graph, "capability": "memory.graph"}, deliberate)


@pytest.mark.parametrize(
    ("name", "source", "accepts"),
    [
        ("time.anomaly.contract.json", "raw_data", True),
        ("time.anomaly.contract.json", "stream_data", True),
        ("time.anomaly.contract.json", "&memory.episodic", True),
        ("time.anomaly.contract.json", "&reason.plan", False),
        ("reason.deliberate.excerpt.json", "raw_data", False),
        ("reason.deliberate.excerpt.json", "&memory.vector", True),
    ],
)
def test_accepts_source(name: str, source: str, accepts: bool):
    assert ampersand.accepts_source(contract(name), source) is accepts
    assert all(ampersand.accepts_source(d, source) is accepts for d in ops(name).values())


# --- sniff -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["time.anomaly.contract.json", "memory.graph.excerpt.json", "space.fleet.contract.yaml", "contracts.json"],
)
def test_sniff_knows_contracts(name: str):
    assert ampersand.sniff(name, (FIXTURES / name).read_bytes())


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("time.anomaly.txt", (FIXTURES / "time.anomaly.contract.json").read_bytes()),
        # an ampersand.json agent declaration names capabilities, it is not a contract
        ("agent.json", b'{"agent": "InfraOperator", "capabilities": {"&time.anomaly": {"provider": "auto"}}}'),
        ("booking.json", (FIXTURES.parent / "aip" / "booking.capability.json").read_bytes()),
        ("x.json", b'{"capability": "search", "operations": {}}'),  # no & capability
    ],
)
def test_sniff_passes_over_other_documents(path: str, data: bytes):
    assert not ampersand.sniff(path, data)
