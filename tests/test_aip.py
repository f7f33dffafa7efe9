"""miners/aip.py: AIP capability contracts read statically (fixtures in tests/fixtures/declared/aip/)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from miners import aip
from miners.declared import Declared, Imported, canonical_json, capability_id, sha256

FIXTURES = Path(__file__).parent / "fixtures" / "declared" / "aip"
BUILT_IN = {
    "filesystem.read", "filesystem.write", "network.connect", "process.spawn", "environment.read", "secrets.read",
    "database.read", "database.write", "email.send", "git.commit", "git.push",
}  # fmt: skip
CUSTOM = re.compile(r"^custom:[a-z0-9][a-z0-9._/-]*$")
CAPABILITY_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)+$")


def fixture(name: str) -> tuple[str, bytes, Imported]:
    path = str(FIXTURES / name)
    data = (FIXTURES / name).read_bytes()
    return path, data, aip.read(path, data)


def by_id(imported: Imported) -> dict[str, Declared]:
    found: dict[str, Declared] = {}
    for declared in imported.operations:
        found.setdefault(declared.original_id, declared)
    return found


def line_of(data: bytes, needle: str) -> int:
    """1-based line of the first line holding needle."""
    for number, line in enumerate(data.decode().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in fixture")


def problems(imported: Imported) -> list[tuple[str, str]]:
    return [(p.where, p.reason) for p in imported.problems]


# --- the seed's own example ------------------------------------------------------------------------


def test_the_seed_example_capability():
    path, data, imported = fixture("booking.capability.json")
    assert imported.problems == []
    [booking] = imported.operations
    value = json.loads(data)
    assert booking.format == "aip"
    assert booking.original_id == "cap:calendar:booking:create"
    assert booking.name == "Create booking"
    assert booking.namespace == "calendar/booking"
    assert capability_id(booking.namespace, "create") == "calendar/booking/create"
    assert CAPABILITY_ID.match(capability_id(booking.namespace, booking.original_id))
    assert booking.input_schema == value["input_schema"]
    assert booking.output_schema == value["output_schema"]
    # write + external_network: the write names no store, the network call is network.connect
    assert booking.effects == ["custom:aip.write", "network.connect"]
    assert booking.read_only is False
    assert booking.discovery_only is False
    assert booking.hints == {"risk": "medium"}
    assert booking.metadata == {"kind": "tool", "risk": "medium", "stability": "stable", "contract": value["contract"]}
    assert booking.metadata["contract"]["idempotency"]["key_scope"] == "tenant"
    assert booking.metadata["contract"]["data"]["sensitivity"] == "internal"
    assert booking.path == path and booking.pointer == ""
    assert booking.line == 1
    assert booking.end_line == line_of(data, '"redaction_required": true')
    assert booking.source_digest == sha256(data)
    assert booking.declaration_digest == sha256(canonical_json(value))
    assert booking.digest_of == "canonical-json"


# --- a manifest: every side effect the seed defines ------------------------------------------------


def test_the_mapping_table_covers_exactly_the_seeds_side_effects():
    seed = {"read", "write", "delete", "send_message", "financial", "identity", "medical", "legal",
            "external_network", "code_execution"}  # fmt: skip
    assert set(aip.SIDE_EFFECTS) == seed
    for effects in [*aip.SIDE_EFFECTS.values(), aip.EMAIL_SEND]:
        assert all(effect in BUILT_IN or CUSTOM.match(effect) for effect in effects)


@pytest.mark.parametrize(
    ("cid", "effects", "read_only"),
    [
        ("cap:docs:search:query", ["custom:aip.read"], True),
        ("cap:email:message:send", ["email.send", "network.connect"], False),
        ("cap:chat:message:post", ["custom:aip.send_message", "network.connect"], False),
        ("cap:billing:refund:create", ["custom:aip.write", "custom:aip.financial", "network.connect"], False),
        ("cap:iam:role:grant", ["custom:aip.identity", "custom:aip.write"], False),
        ("cap:clinic:record:annotate", ["custom:aip.medical", "custom:aip.write"], False),
        ("cap:contracts:clause:review", ["custom:aip.legal", "custom:aip.read"], False),
        ("cap:files:archive:purge", ["custom:aip.delete"], False),
        ("cap:sandbox:script:run", ["process.spawn"], False),
        ("cap:calendar:availability", [], True),  # an explicit empty list: the contract says "none"
        ("cap:weather:forecast:get", [], None),  # no contract: nothing declared, not harmless
        ("cap:crm:contact:lookup", [], None),  # side_effects omitted: AIP's default is not a declaration
        ("cap:hr:leave:approve", ["custom:aip.write"], False),
    ],
)
def test_each_side_effect_maps_to_capability_effects(cid: str, effects: list[str], read_only: bool | None):
    _, _, imported = fixture("manifest.json")
    declared = by_id(imported)[cid]
    assert declared.effects == effects
    assert declared.read_only is read_only


def test_a_manifest_yields_its_capabilities_only():
    path, data, imported = fixture("manifest.json")
    assert imported.problems == []
    ids = [d.original_id for d in imported.operations]
    assert len(ids) == 13 and "res:calendar:events" not in ids  # the Resource model is not a capability
    assert [d.pointer for d in imported.operations] == [f"/capabilities/{i}" for i in range(13)]
    assert all(d.path == path and d.source_digest == sha256(data) for d in imported.operations)


def test_send_message_is_email_only_when_the_capability_says_email():
    _, _, imported = fixture("manifest.json")
    found = by_id(imported)
    assert "email.send" in found["cap:email:message:send"].effects
    assert "email.send" not in found["cap:chat:message:post"].effects  # Slack is not email
    sms = {
        "id": "cap:sms:text:send",
        "name": "Send SMS",
        "kind": "tool",
        "input_schema": {},
        "contract": {"side_effects": ["send_message"], "idempotency": {}, "execution": {"supports_sync": True},
                     "data": {"sensitivity": "internal"}},
    }  # fmt: skip
    assert aip.read("sms.json", json.dumps(sms).encode()).operations[0].effects == ["custom:aip.send_message"]
    sms["name"] = "sendEmail"  # camelCase is split before matching words
    assert aip.read("sms.json", json.dumps(sms).encode()).operations[0].effects == ["email.send"]


def test_what_capability_has_no_field_for_is_kept_in_metadata_and_hints():
    _, data, imported = fixture("manifest.json")
    found = by_id(imported)
    raw = {c["id"]: c for c in json.loads(data)["capabilities"]}
    email = found["cap:email:message:send"]
    contract = raw["cap:email:message:send"]["contract"]
    assert email.metadata["contract"] == contract  # exactly as written
    assert email.metadata["contract"]["credentials"]["required_scopes"] == ["mail.send"]
    assert email.metadata["contract"]["execution"]["supports_async"] is True
    assert email.metadata["auth"] == {"scopes": ["mail.send"]}
    assert email.metadata["requires_human_approval"] is True
    assert email.hints == {"risk": "high", "requires_human_approval": True, "approval": contract["approval"]}
    refund = found["cap:billing:refund:create"]
    assert refund.metadata["kind"] == "workflow"
    assert refund.metadata["cost"] == {"unit": "call", "price_usd": 0.002}
    assert refund.metadata["contract"]["compensation"]["classification"] == "best_effort"
    assert refund.metadata["contract"]["data"]["sensitivity"] == "regulated"
    assert refund.hints == {"risk": "critical"}
    search = found["cap:docs:search:query"]
    assert search.metadata["bindings"] == {"mcp": {"tool_name": "search_documents"}}
    assert search.description == "Full-text search over the tenant's document index."
    assert found["cap:hr:leave:approve"].hints == {"requires_human_approval": False}


def test_resource_kinds_are_discovery_only():
    _, _, imported = fixture("manifest.json")
    only = [d.original_id for d in imported.operations if d.discovery_only]
    assert only == ["cap:calendar:availability"]


def test_unknown_guarantees_are_noted_and_a_boolean_schema_is_a_schema():
    _, _, imported = fixture("manifest.json")
    found = by_id(imported)
    weather = found["cap:weather:forecast:get"]
    assert weather.input_schema == {}  # `true` accepts everything, as {} does
    assert weather.output_schema is None
    assert "no contract" in weather.notes[0]
    assert "omits side_effects" in found["cap:crm:contact:lookup"].notes[0]


def test_lines_are_where_each_capability_is_in_the_fixture():
    _, data, imported = fixture("manifest.json")
    text = data.decode().splitlines()
    ops = imported.operations
    for declared, following in zip(ops, [*ops[1:], None], strict=True):
        assert declared.line == line_of(data, f'"id": "{declared.original_id}"') - 1
        assert text[declared.line - 1].strip() == "{"
        assert declared.line < declared.end_line
        if following is not None:
            assert declared.end_line < following.line
    search = by_id(imported)["cap:docs:search:query"]
    assert search.end_line == line_of(data, '"data": { "sensitivity": "confidential", "contains_pii": false')


def test_a_yaml_list_of_capabilities():
    _, data, imported = fixture("capabilities.yaml")
    assert imported.problems == []
    create, get = imported.operations
    assert (create.original_id, create.pointer, create.line) == (
        "cap:tickets:issue:create",
        "/0",
        line_of(data, "- id: cap:tickets:issue:create"),
    )
    assert (get.pointer, get.line, get.end_line) == (
        "/1",
        line_of(data, "- id: cap:tickets:issue:get"),
        len(data.splitlines()),
    )
    # "notify the assignee by e-mail": send_message is email here
    assert create.effects == ["custom:aip.write", "email.send", "network.connect"]
    assert get.effects == ["custom:aip.read"] and get.read_only is True
    assert create.metadata["cost"] == {"reviewed": "2024-05-01"}  # a YAML date becomes the JSON text it stands for
    assert create.metadata["stability"] == "experimental"
    assert create.declaration_digest == sha256(canonical_json(create.metadata | {
        "id": create.original_id, "name": create.name, "description": create.description,
        "input_schema": create.input_schema}))  # fmt: skip


# --- malformed input -------------------------------------------------------------------------------


def test_a_collection_with_bad_entries_reports_each_and_reads_the_rest():
    path, _, imported = fixture("mixed.json")
    assert all(p.path == path for p in imported.problems)
    assert [d.original_id for d in imported.operations] == [
        "cap:notes:note:list",
        "cap:notes:note:update",
        "cap:notes:note:export",
        "cap:notes:note:list",
        "cap:notes:note:pin",
    ]
    where = [w for w, _ in problems(imported)]
    assert where == [
        "$[1]",
        "$[2].id",
        "$[3].name",
        "$[3].kind",
        "$[3].input_schema",
        "$[3].risk",
        "$[3].requires_human_approval",
        "$[3].contract.idempotency",
        "$[3].contract.execution",
        "$[3].contract.data.sensitivity",
        "$[3].contract.data.contains_pii",
        "$[3].contract.approval",
        "$[3].contract.side_effects[1]",
        "$[3].contract.side_effects[2]",
        "$[4].contract.idempotency.requirement",
        "$[4].contract.idempotency.ttl_ms",
        "$[4].contract.execution.retry_safety",
        "$[4].contract.side_effects",
        "$[5].id",
        "$[6].contract.side_effects[1]",
    ]
    reasons = dict(problems(imported))
    assert reasons["$[1]"].startswith("a capability must be an object")
    assert reasons["$[2].id"] == "required: a non-empty string, missing"
    assert "robot" in reasons["$[3].kind"]
    assert "unknown side effect 'teleport'" in reasons["$[3].contract.side_effects[1]"]
    assert "supports none of sync, async and streaming" in reasons["$[3].contract.execution"]
    assert "duplicate capability id 'cap:notes:note:list'" in reasons["$[5].id"]


def test_bad_fields_are_dropped_from_their_places_but_kept_raw_in_metadata():
    _, _, imported = fixture("mixed.json")
    update = imported.operations[1]
    assert update.name == update.original_id  # name 5 is not a name
    assert update.input_schema is None
    assert update.hints == {}  # "extreme" and "yes" are no valid claims
    assert update.metadata["risk"] == "extreme" and update.metadata["kind"] == "robot"
    assert update.effects == ["custom:aip.write", "custom:aip.teleport"]  # an unknown consequence is still one
    assert update.read_only is False
    assert update.discovery_only is False and "kind" in update.notes[0]
    export, pin = imported.operations[2], imported.operations[4]
    assert (export.effects, export.read_only) == ([], None)  # side_effects "write" is not a list
    assert (pin.effects, pin.read_only) == (["custom:aip.read"], None)  # "read" and an unreadable null


@pytest.mark.parametrize(("name", "where"), [("broken.json", "line 6"), ("broken.yaml", "line 5")])
def test_an_unparseable_document_is_one_problem(name: str, where: str):
    path, _, imported = fixture(name)
    assert imported.operations == []
    [problem] = imported.problems
    assert (problem.path, problem.where) == (path, where)
    assert problem.reason


@pytest.mark.parametrize(
    ("data", "where", "reason"),
    [
        (b"42", "$", "expected an AIP capability, a list of them or a manifest"),
        (b'{"capabilities": {"cap:a": {}}}', "$.capabilities", "expected an array of capabilities"),
        (b'{"id": "", "name": "x"}', "$.id", "expected a non-empty string"),
        (b'\xff\xfe{"id": 1}', "line 1", "not UTF-8"),
    ],
)
def test_documents_that_are_not_capabilities(data: bytes, where: str, reason: str):
    imported = aip.read("x.json", data)
    assert imported.operations == []
    assert imported.problems[0].where == where and reason in imported.problems[0].reason


# --- digests ---------------------------------------------------------------------------------------


def test_the_digest_changes_with_its_entry_only():
    path, data, before = fixture("manifest.json")
    changed = data.replace(b'"name": "Create refund"', b'"name": "Create a refund"')
    after = aip.read(path, changed)
    old, new = by_id(before), by_id(after)
    entries = json.loads(changed)["capabilities"]
    for entry in entries:
        assert new[entry["id"]].declaration_digest == sha256(canonical_json(entry))
        if entry["id"] == "cap:billing:refund:create":
            assert new[entry["id"]].declaration_digest != old[entry["id"]].declaration_digest
        else:
            assert new[entry["id"]].declaration_digest == old[entry["id"]].declaration_digest
    assert after.operations[0].source_digest == sha256(changed) != before.operations[0].source_digest


def test_the_digest_does_not_depend_on_layout():
    path, data, before = fixture("manifest.json")
    compact = json.dumps(json.loads(data), indent=None).encode()
    after = aip.read(path, compact)
    assert [d.declaration_digest for d in after.operations] == [d.declaration_digest for d in before.operations]
    assert after.operations[0].source_digest != before.operations[0].source_digest
    assert {d.line for d in after.operations} == {1}  # one line: every entry starts on it


# --- sniff and ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["booking.capability.json", "manifest.json", "capabilities.yaml", "mixed.json"])
def test_sniff_knows_aip_documents(name: str):
    assert aip.sniff(name, (FIXTURES / name).read_bytes())


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("booking.txt", (FIXTURES / "booking.capability.json").read_bytes()),  # not a JSON/YAML file name
        ("tools.json", b'{"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}'),  # MCP
        ("cap.json", b'{"specVersion": "0.1", "id": "acme/search", "kind": "tool", "input": {}}'),  # Capability
        ("c.json", (FIXTURES.parent / "ampersand" / "time.anomaly.contract.json").read_bytes()),  # ampersand
        ("k8s.yaml", b"kind: Deployment\nspec:\n  input_schema: {}\n"),
    ],
)
def test_sniff_passes_over_other_documents(path: str, data: bytes):
    assert not aip.sniff(path, data)


@pytest.mark.parametrize(
    ("cid", "namespace"),
    [
        ("cap:calendar:booking:create", "calendar/booking"),
        ("cap:search", ""),
        ("search_web", ""),
        ("acme/crm/contact.lookup", "acme/crm"),
        ("com.acme.search", "com/acme"),
    ],
)
def test_the_namespace_is_the_ids_own(cid: str, namespace: str):
    assert aip.namespace_of(cid) == namespace
    assert CAPABILITY_ID.match(capability_id(namespace, cid))


def test_every_effect_read_is_a_capability_effect():
    for name in ("booking.capability.json", "manifest.json", "capabilities.yaml", "mixed.json"):
        for declared in fixture(name)[2].operations:
            assert all(effect in BUILT_IN or CUSTOM.match(effect) for effect in declared.effects), declared.effects
