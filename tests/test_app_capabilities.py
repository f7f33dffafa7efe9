"""miners/app_capabilities.py and miners/zod_schema.py: app capability declarations read statically
from TypeScript/JavaScript source (`defineCapabilities`) and from the live catalog JSON.

Fixtures are in tests/fixtures/declared/app/: src/capabilities.ts, src/config.ts, seed_commands.ts,
seed_presentation.ts and seed_transfer.ts are the seed document's own examples, copied unchanged
(seed_transfer_completed.ts fills in the fields that last one elides); catalog.json was generated
with Zod 4's z.toJSONSchema and Cloud's hash rule, as a live catalog page is.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from miners import app_capabilities as app
from miners.declared import Declared, Imported, canonical_json, sha256

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "declared" / "app"
OPAQUE = "x-zod-source"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def read(name: str, data: bytes | None = None, app_id: str | None = None) -> Imported:
    return app.read(f"fixtures/{name}", fixture(name) if data is None else data, app_id=app_id)


def by_id(imported: Imported) -> dict[str, Declared]:
    out = {d.original_id: d for d in imported.operations}
    assert len(out) == len(imported.operations), [d.original_id for d in imported.operations]
    return out


def line_of(name: str, needle: str, start: int = 0) -> int:
    """1-based line of the first `needle` in a fixture at or after character `start`."""
    text = fixture(name).decode()
    return text[:text.index(needle, start)].count("\n") + 1


def at(name: str, needle: str, after: str | None = None) -> str:
    """Where a problem at the first `needle` (after the text `after`) of a fixture is reported."""
    start = fixture(name).decode().index(after) if after else 0
    return f"line {line_of(name, needle, start)}"


def problems(imported: Imported) -> list[tuple[str, str]]:
    return [(p.where, p.reason) for p in imported.problems]


# --- sniff --------------------------------------------------------------------------------------

def test_sniff_takes_declaring_sources_and_catalogs_only():
    assert app.sniff("src/capabilities.ts", fixture("src/capabilities.ts"))
    assert app.sniff("web/mail_app.tsx", fixture("mail_app.tsx"))
    assert app.sniff("capabilities.mjs", fixture("capabilities.mjs"))
    assert app.sniff("catalog.json", fixture("catalog.json"))
    manifest = json.loads(fixture("catalog.json"))["apps"][0]["manifest"]
    assert app.sniff("inventory.manifest.json", json.dumps(manifest, indent=2).encode())

    assert not app.sniff("src/config.ts", fixture("src/config.ts"))  # defineApp only
    assert not app.sniff("notes.py", b"defineCapabilities({})")  # not a JS-family source
    assert not app.sniff("types.d.ts", b"export declare function defineCapabilities(x: unknown): void;")
    assert not app.sniff("package.json", b'{"name": "inventory", "apps": ["a"], "dependencies": {}}')
    assert not app.sniff("list.json", b'[{"appId": "x", "manifest": {}}]')
    assert not app.sniff("openapi.json", b'{"openapi": "3.1.0", "paths": {"/x": {"get": {"operationId": "x"}}}}')


# --- the seed's example, src/capabilities.ts and src/config.ts ----------------------------------

SEED = "src/capabilities.ts"

ITEM_READ_INPUT = {
    "type": "object",
    "properties": {"id": {"type": "string", "pattern": "^[A-Za-z0-9]{6}$", "description": "Stable inventory item ID."}},
    "required": ["id"],
    "additionalProperties": False,
}
ITEM_RENAME_INPUT = {
    "type": "object",
    "properties": {
        "itemId": {"type": "string", "pattern": "^[A-Za-z0-9]{6}$", "description": "Stable inventory item ID."},
        "name": {"type": "string", "minLength": 1, "maxLength": 120, "description": "New item name."},
    },
    "required": ["itemId", "name"],
    "additionalProperties": False,
}


def test_seed_example_without_define_app_keeps_local_ids_and_says_so():
    imported = read(SEED)
    assert problems(imported) == []
    ops = by_id(imported)
    assert list(ops) == ["item", "item.read", "item.rename"]
    for declared in ops.values():
        assert declared.format == "app"
        assert declared.namespace == ""
        assert "no defineApp({ id }) in this file: local ids left unqualified" in declared.notes
        assert "mcp_tool" not in declared.metadata  # no app id: no tool name to derive


def test_seed_example_qualified_with_the_app_id_of_its_config():
    assert app.app_ids("src/config.ts", fixture("src/config.ts")) == ["inventory"]
    ops = by_id(read(SEED, app_id="inventory"))
    assert list(ops) == ["inventory.item", "inventory.item.read", "inventory.item.rename"]

    item, query, action = ops.values()
    assert (item.name, item.description) == ("Inventory item", "One item in the inventory catalog.")
    assert item.discovery_only and item.read_only is None and item.input_schema is None
    assert item.metadata == {"kind": "type", "local_id": "item", "protocol_version": 2, "icon": "ti ti-package",
                             "reader": "inventory.item.read", "reader_local_id": "item.read"}
    assert (item.line, item.end_line) == (line_of(SEED, "    item: {"), line_of(SEED, "reader: \"item.read\"") + 1)

    assert query.namespace == "inventory"
    assert (query.name, query.description) == ("Read inventory item", "Read one visible inventory item by stable ID.")
    assert query.read_only is True and not query.discovery_only
    assert query.effects == []
    assert query.hints == {"openWorld": False}
    assert query.metadata == {"kind": "query", "local_id": "item.read", "protocol_version": 2,
                              "mcp_tool": "inventory__query__item.read", "reader_of": ["inventory.item"]}
    assert query.line == line_of(SEED, '    "item.read": {')
    assert query.end_line == line_of(SEED, "  actions: {") - 2  # its closing `},` before the queries map's
    assert query.notes == []

    assert action.read_only is False
    assert action.hints == {"destructive": True, "openWorld": False, "idempotency": "none", "approval": "rememberable"}
    assert action.metadata["review"] is True and action.metadata["mcp_tool"] == "inventory__action__item.rename"
    assert action.effects == []  # destructive is a hint, not an effect; closed-world: no network.connect


def test_seed_example_zod_schemas_translate_exactly():
    ops = by_id(read(SEED, app_id="inventory"))
    assert ops["inventory.item.read"].input_schema == ITEM_READ_INPUT
    assert ops["inventory.item.read"].output_schema == {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[A-Za-z0-9]{6}$"},
            "name": {"type": "string"},
            "quantity": {"type": "integer"},
        },
        "required": ["id", "name", "quantity"],
        "additionalProperties": False,
    }
    assert ops["inventory.item.rename"].input_schema == ITEM_RENAME_INPUT  # .trim() states nothing, as in Zod
    assert ops["inventory.item.rename"].output_schema == {
        "type": "object",
        "properties": {"id": {"type": "string", "pattern": "^[A-Za-z0-9]{6}$"}, "name": {"type": "string"}},
        "required": ["id", "name"],
        "additionalProperties": False,
    }


def test_seed_example_action_breaks_the_seeds_own_startup_rules_and_the_notes_say_so():
    action = by_id(read(SEED))["item.rename"]
    rejected = "the seed's startup rules reject this Action: "
    assert f"{rejected}destructive with idempotency 'none', not 'required'" in action.notes
    assert f"{rejected}destructive with approval 'rememberable'" in action.notes
    assert by_id(read(SEED))["item.read"].notes == ["no defineApp({ id }) in this file: local ids left unqualified"]


def test_source_digests_are_the_entry_bytes_and_move_only_with_their_entry():
    data = fixture(SEED)
    ops = by_id(app.read(SEED, data))
    for declared in ops.values():
        assert declared.digest_of == "bytes"
        assert declared.source_digest == sha256(data)
    start = data.index(b'"item.read": {')
    end = data.index(b"\n    },\n  },\n  actions", start) + len(b"\n    }")
    assert ops["item.read"].declaration_digest == sha256(data[start:end])

    renamed = data.replace(b'title: "Rename inventory item"', b'title: "Rename an inventory item"')
    assert renamed != data
    after = by_id(app.read(SEED, renamed))
    assert after["item.rename"].declaration_digest != ops["item.rename"].declaration_digest
    assert after["item.rename"].name == "Rename an inventory item"
    assert after["item.read"].declaration_digest == ops["item.read"].declaration_digest
    assert after["item"].declaration_digest == ops["item"].declaration_digest
    assert after["item.read"].source_digest != ops["item.read"].source_digest
    assert (after["item.rename"].line, after["item.rename"].end_line) == (ops["item.rename"].line,
                                                                        ops["item.rename"].end_line)


def test_static_schemas_match_what_cloud_publishes_for_the_same_declaration():
    # catalog.json holds Zod 4's own projection of the seed's schemas: the static reading gives the
    # same input schemas (Zod adds only "$schema").
    catalog = by_id(read("catalog.json"))
    static = by_id(read(SEED, app_id="inventory"))
    for local in ("item.read", "item.rename"):
        published = dict(catalog[f"inventory.{local}"].input_schema)
        assert published.pop("$schema") == "https://json-schema.org/draft/2020-12/schema"
        assert static[f"inventory.{local}"].input_schema == published


# --- the seed's other examples ------------------------------------------------------------------

def test_seed_commands_example_follows_the_input_const():
    ops = by_id(read("seed_commands.ts"))
    assert problems(read("seed_commands.ts")) == []
    command = ops["task.compose"]
    assert command.input_schema == {
        "type": "object",
        "properties": {"spaceId": {"type": "string", "description": "Optional destination Space ID."}},
        "additionalProperties": False,
    }
    assert command.output_schema is None
    assert command.read_only is True and command.effects == [] and command.hints == {}
    assert command.metadata == {"kind": "command", "local_id": "task.compose", "protocol_version": 2,
                                "icon": "ti ti-checkbox", "keywords": ["todo"], "path": "/app/spaces"}
    assert command.notes == ["no defineApp({ id }) in this file: local ids left unqualified",
                             "a Command resolves a link to an app page; it calls no handler and changes nothing"]
    assert (command.line, command.end_line) == (line_of("seed_commands.ts", '"task.compose"'),
                                                line_of("seed_commands.ts", 'path: "/app/spaces"') + 1)


def test_seed_presentation_example_declares_nothing_and_is_no_problem():
    imported = read("seed_presentation.ts")
    assert imported.operations == [] and imported.problems == []


def test_seed_transfer_example_with_elided_fields_is_a_problem_at_its_line():
    imported = read("seed_transfer.ts")
    assert imported.operations == []
    where = at("seed_transfer.ts", '"item.transfer": {', after="\n  actions: {")  # not a presentation key
    assert problems(imported) == [
        (where, "action 'item.transfer' lacks destructive, openWorld, idempotency, which the seed requires; not read"),
    ]


def test_seed_transfer_example_completed_translates_nested_objects():
    action = by_id(read("seed_transfer_completed.ts"))["item.transfer"]
    assert action.input_schema == {
        "type": "object",
        "properties": {
            "itemName": {"type": "string", "maxLength": 200, "description": "Item name."},
            "quantity": {"type": "integer", "exclusiveMinimum": 0, "description": "Quantity."},
            "recipient": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 200, "description": "Display name."},
                    "email": {"type": "string", "maxLength": 320, "description": "Email address."},
                },
                "required": ["name", "email"],
                "additionalProperties": False,
                "description": "Recipient.",
            },
        },
        "required": ["itemName", "quantity", "recipient"],
        "additionalProperties": False,
    }
    assert action.output_schema == {
        "type": "object",
        "properties": {"transferredAt": {"type": "string", "format": "date-time"}},
        "required": ["transferredAt"],
        "additionalProperties": False,
    }
    assert action.hints == {"destructive": False, "openWorld": False, "idempotency": "required",
                            "policy": {"ask": "involves_people"}}
    assert not [n for n in action.notes if "startup rules" in n]


# --- a .tsx app that names itself -----------------------------------------------------------------

def test_tsx_app_qualifies_ids_from_its_own_define_app():
    imported = read("mail_app.tsx")
    assert problems(imported) == []
    ops = by_id(imported)
    assert list(ops) == ["mail.message", "mail.mailbox.list", "mail.message.read", "mail.message.search",
                         "mail.message.send", "mail.message.flag", "mail.draft.compose"]
    assert {d.namespace for d in ops.values()} == {"mail"}  # defineApp({ id: MAIL_APP_ID }), a same-file const
    assert app.app_ids("mail_app.tsx", fixture("mail_app.tsx")) == ["mail"]
    assert ops["mail.message"].metadata["reader"] == "mail.message.read"
    assert ops["mail.message.read"].metadata["reader_of"] == ["mail.message"]


def test_tsx_open_world_action_claims_network_and_keeps_its_hints():
    send = by_id(read("mail_app.tsx"))["mail.message.send"]  # declared under [SEND_ACTION]
    assert send.read_only is False
    assert send.effects == ["network.connect"]
    assert send.hints == {"destructive": True, "openWorld": True, "idempotency": "required", "policy": {"ask": "sends"}}
    assert send.metadata["review"] is True
    assert not [n for n in send.notes if "startup rules" in n]
    assert send.input_schema == {
        "type": "object",
        "properties": {
            "draftId": {"type": "string", "format": "uuid", "description": "Draft ID returned by Create draft."},
            "to": {"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 1, "maxItems": 50,
                   "description": "Recipients."},
            "cc": {"type": "array", "items": {"type": "string", "format": "email"}, "maxItems": 50,
                   "description": "Copy recipients."},
            "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal",
                         "description": "Delivery priority."},
            "sendAt": {"type": ["string", "null"], "format": "date-time",
                       "description": "Scheduled send time, or null to send now."},
            "tracking": {"type": "boolean", "const": False, "description": "Read receipts are never requested."},
        },
        "required": ["draftId", "to", "sendAt", "tracking"],  # optional cc, defaulted priority
        "additionalProperties": False,  # z.strictObject
    }


def test_tsx_entries_by_reference_streams_search_and_imported_schemas():
    ops = by_id(read("mail_app.tsx"))
    flag = ops["mail.message.flag"]  # "message.flag": flagAction
    assert flag.line == line_of("mail_app.tsx", "const flagAction = {")
    assert flag.end_line == line_of("mail_app.tsx", "ok({ data: await mailService.flag(input, context) })") + 1
    data = fixture("mail_app.tsx")
    start = data.index(b"{\n  title: \"Flag message\"")
    assert flag.declaration_digest == sha256(data[start:data.index(b"\n};", start) + 2])
    assert flag.input_schema["properties"]["id"] == {"type": "string", "pattern": "^[A-Za-z0-9_-]{10}$",
                                                     "description": "Message ID returned by Search mail."}

    read_message = ops["mail.message.read"]
    assert read_message.metadata["stream"] == {"direction": "read", "maxBytes": 10485760}
    assert read_message.output_schema["properties"]["body"] == {"type": ["string", "null"]}
    assert read_message.output_schema["properties"]["from"] == {"type": "string", "format": "email"}

    search = ops["mail.message.search"]
    assert search.metadata["universal_search"] == {
        "tags": [{"tag": "mail", "title": "Mail", "description": "Show mail only.", "aliases": ["email"]}]}
    assert search.input_schema == {OPAQUE: "SearchInputSchema"}
    assert "input: `SearchInputSchema` is imported from './contracts': not translated; kept as x-zod-source" \
        in search.notes
    assert search.output_schema == {
        "type": "array", "maxItems": 100,
        "items": {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}},
                  "required": ["id", "title"], "additionalProperties": False},
    }

    mailboxes = ops["mail.mailbox.list"]
    assert mailboxes.input_schema == {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 25,
                      "description": "Maximum mailboxes to return."},
            "cursor": {"type": "string", "maxLength": 2048, "description": "Cursor from the previous page."},
        },
        "additionalProperties": False,  # nothing required: one field defaulted, one optional
    }
    # MailboxSchema is a plain z.object: as data (Zod's "output" io) it is closed
    assert mailboxes.output_schema["properties"]["items"]["items"]["additionalProperties"] is False

    compose = ops["mail.draft.compose"]
    assert compose.read_only is True and compose.output_schema is None
    assert compose.metadata["keywords"] == ["mail", "email", "nachricht"]


def test_javascript_module_open_world_query_is_read_only_with_network():
    query = by_id(read("capabilities.mjs"))["weather.forecast.read"]
    assert query.read_only is True
    assert query.effects == ["network.connect"]
    assert query.hints == {"openWorld": True}


# --- malformed declarations ---------------------------------------------------------------------

def test_malformed_entries_are_problems_by_line_and_the_rest_is_read():
    name = "malformed_entries.ts"
    imported = read(name)
    first_read = at(name, '"task.read": {')
    assert problems(imported) == [
        (at(name, "[dynamicId()]"), "queries: id is not a literal (a call expression); entry not read"),
        (at(name, '"task.count"'), "queries 'task.count' is not an object (a call expression); not read"),
        (at(name, '"task.list"'), "query 'task.list' lacks title, which the seed requires; not read"),
        (at(name, '"task.complete"'), "action 'task.complete' lacks idempotency, which the seed requires; not read"),
        (at(name, '"task.read": {', after="  commands: {"),
         f"local id 'task.read' is declared more than once (first at {first_read})"),
        (at(name, "board: {"), "type 'board' reader 'board.read' names no Query of this declaration"),
    ]
    ops = imported.operations
    assert [(d.original_id, d.metadata["kind"]) for d in ops] == [
        ("tasks.task", "type"), ("tasks.board", "type"), ("tasks.task.read", "query"),
        ("tasks.task.export", "query"),  # [EXPORT_ID]: a same-file string const is a literal id
        ("tasks.task.delete", "action"), ("tasks.task.read", "command"),
    ]
    delete = ops[4]
    assert delete.hints == {"destructive": True, "openWorld": False, "idempotency": "required"}
    assert delete.input_schema["properties"]["id"] == {"type": "string", "minLength": 1, "maxLength": 40,
                                                       "description": "Task ID."}


def test_syntax_error_in_one_entry_leaves_the_others_readable():
    name = "malformed_syntax.ts"
    imported = read(name)
    assert problems(imported) == [(at(name, '"note.read"'), "queries 'note.read': syntax error in the entry; not read")]
    assert [d.original_id for d in imported.operations] == ["notes.note.list"]
    assert imported.operations[0].input_schema == {
        "type": "object",
        "properties": {"limit": {"type": "integer", "maximum": 50, "description": "Page size."}},
        "additionalProperties": False,
    }


def test_a_declaration_cut_short_is_a_problem_not_an_exception():
    data = fixture(SEED)
    cut = data[:data.index(b'  actions: {')]
    imported = app.read(SEED, cut)
    assert imported.operations == []
    assert [p.reason for p in imported.problems] == ["syntax error: no defineCapabilities call could be read"]


def test_unsupported_zod_is_kept_opaque_with_notes_naming_the_construct():
    ops = by_id(read("unsupported_zod.ts"))
    find = ops["contacts.contact.find"]
    assert find.input_schema == {
        "type": "object",
        "properties": {
            "query": {OPAQUE: 'z.union([z.string(), z.number()]).describe("Name, email or phone.")',
                      "description": "Name, email or phone."},
            "match": {OPAQUE: 'z.string().regex(/^(exact|prefix)$/i).optional().describe("Match mode.")',
                      "description": "Match mode."},
            "limit": {"type": "integer", "maximum": 50, "description": "Page size."},
        },
        "required": ["query", "limit"],  # the opaque `match` is still known to be optional
        "additionalProperties": False,
    }
    assert find.output_schema["properties"]["items"] == {
        "type": "array", "items": {OPAQUE: "z.custom<Contact>((value) => isContact(value))"}}
    assert "input.query: z.union(): not translated; kept as x-zod-source" in find.notes
    assert "input.match: .regex() with flags /i: not translated; kept as x-zod-source" in find.notes
    assert "data.items[]: z.custom(): not translated; kept as x-zod-source" in find.notes
    # openWorld: isExternal: unknown, so neither a hint nor the network effect is claimed
    assert "openWorld" not in find.hints and find.effects == []
    assert "openWorld is not a literal (a binary expression); its claim is unknown" in find.notes

    read_contact = ops["contacts.contact.read"]
    assert read_contact.name == "contact.read" and "title is not a literal string" in read_contact.notes
    assert read_contact.input_schema["properties"]["id"] == {
        OPAQUE: 'z.string().startsWith("c_").describe("Contact ID.")', "description": "Contact ID."}
    assert read_contact.output_schema["properties"]["address"] == {OPAQUE: "AddressSchema"}
    assert read_contact.output_schema["properties"]["tags"] == {OPAQUE: "z.record(z.string(), z.string())"}
    assert "data.address: `AddressSchema` is imported from './contracts': not translated; kept as x-zod-source" \
        in read_contact.notes
    assert "data.tags: z.record(): not translated; kept as x-zod-source" in read_contact.notes

    check = ops["contacts.contact.check"]  # .refine() keeps the schema it narrows, and says so
    assert check.input_schema["properties"]["email"] == {"type": "string", "format": "email",
                                                         "description": "Email address."}
    assert check.notes == ["input.email: .refine() is not stated in JSON Schema"]


def test_another_librarys_define_capabilities_is_not_this_format():
    data = fixture("other_library.ts")
    assert app.sniff("other_library.ts", data)  # the cheap byte test cannot tell
    imported = app.read("other_library.ts", data)
    assert imported.operations == [] and imported.problems == []


def test_define_app_ids_that_cannot_qualify():
    body = 'defineCapabilities({ protocolVersion: 2, types: { a: { title: "A", description: "An a." } } });'
    two = app.read("x.ts", f'defineApp({{ id: "one" }}); defineApp({{ id: "two" }}); {body}'.encode())
    assert two.operations[0].original_id == "a" and two.operations[0].namespace == ""
    assert "several defineApp ids in this file (one, two): local ids left unqualified" in two.operations[0].notes
    dynamic = app.read("x.ts", f"defineApp({{ id: process.env.APP_ID }}); {body}".encode(), app_id="given")
    assert dynamic.operations[0].original_id == "given.a"  # the caller's id stands in
    assert "defineApp id at line 1 is not literal (a member expression)" in dynamic.operations[0].notes
    upper = app.read("x.ts", f'defineApp({{ id: "Inventory" }}); {body}'.encode())
    assert upper.operations[0].original_id == "Inventory.a"
    assert "app id 'Inventory' is not lowercase kebab-case of at most 80 characters as the seed requires" \
        in upper.operations[0].notes


def test_bad_input_never_raises():
    for path in ("x.ts", "x.tsx", "x.mjs", "x.json"):
        for data in (b"", b"\x00\xff\xfe defineCapabilities(", b"defineCapabilities({ queries: { ...x, [y]: 1 } })",
                     b'{"apps": [1, {"manifest": []}]}', b"defineCapabilities(" * 2000):
            assert isinstance(app.read(path, data), Imported)
    deep = b'defineCapabilities({ protocolVersion: 2, queries: { q: { input: ' + b"z.array(" * 3000 + b")" * 3000
    assert app.read("deep.ts", deep + b" } } });").problems


# --- the catalog JSON ---------------------------------------------------------------------------

def test_catalog_page_operations_with_pointers_lines_and_digests():
    data = fixture("catalog.json")
    page = json.loads(data)
    imported = read("catalog.json")
    assert problems(imported) == []
    ops = by_id(imported)
    assert list(ops) == ["inventory.item", "inventory.item.read", "inventory.item.rename", "inventory.item.compose",
                         "mail.message", "mail.message.read", "mail.message.send"]

    query = ops["inventory.item.read"]
    entry = page["apps"][0]["manifest"]["queries"][0]
    assert query.pointer == "/apps/0/manifest/queries/0"
    assert query.digest_of == "canonical-json"
    assert query.declaration_digest == sha256(canonical_json(entry))
    assert query.source_digest == sha256(data)
    assert query.line == line_of("catalog.json", '"localId": "item.read"') - 1  # the entry's `{`
    assert query.end_line == line_of("catalog.json", '"openWorld": false')
    assert query.input_schema == entry["inputSchema"] and query.output_schema == entry["dataSchema"]
    assert query.read_only is True and query.hints == {"openWorld": False}
    assert query.metadata["schema_hash"] == entry["schemaHash"]
    assert query.metadata["manifest_hash"] == page["apps"][0]["manifest"]["manifestHash"]
    assert query.metadata["app_name"] == "Inventory"
    assert query.metadata["reader_of"] == ["inventory.item"]

    send = ops["mail.message.send"]
    assert send.namespace == "mail" and send.read_only is False
    assert send.effects == ["network.connect"]
    assert send.hints == {"destructive": True, "openWorld": True, "idempotency": "required",
                          "policy": {"ask": "sends"}}  # from the manifest's top-level policies map
    assert ops["inventory.item"].discovery_only is True
    assert ops["inventory.item.compose"].read_only is True and ops["inventory.item.compose"].output_schema is None


def test_catalog_digest_moves_only_with_its_entry():
    data = fixture("catalog.json")
    before = by_id(app.read("catalog.json", data))
    changed = data.replace(b'"title": "Rename inventory item"', b'"title": "Rename an item"')
    assert changed != data
    after = by_id(app.read("catalog.json", changed))
    assert after["inventory.item.rename"].declaration_digest != before["inventory.item.rename"].declaration_digest
    assert after["inventory.item.read"].declaration_digest == before["inventory.item.read"].declaration_digest
    reformatted = json.dumps(json.loads(data)).encode()  # one line: positions move, digests do not
    flat = by_id(app.read("catalog.json", reformatted))
    assert flat["inventory.item.read"].declaration_digest == before["inventory.item.read"].declaration_digest
    assert flat["inventory.item.read"].line == 1


def test_catalog_problems_by_json_path_and_the_rest_read():
    imported = read("catalog_malformed.json")
    assert problems(imported) == [
        ("$.apps[0].manifest.queries[0]", "query 'folder.list' lacks openWorld, which the seed requires; not read"),
        ("$.apps[0].manifest.queries[1]", "query entry is not an object; not read"),
        ("$.apps[0].manifest.queries[2]", "query entry without a string localId; not read"),
        ("$.apps[1].manifest.actions", "actions is not a list; its entries are not read"),
    ]
    ops = by_id(imported)
    assert list(ops) == ["files.file.stat", "files.file.share", "legacy.record.read"]
    unknown = "fields unknown to this reader (audience): Cloud readers leave such an entry out"
    assert unknown in ops["files.file.share"].notes
    assert "protocolVersion 1; the seed describes 2, and a Cloud reader of it reads no other" \
        in ops["legacy.record.read"].notes


def test_invalid_catalog_json_is_a_problem_with_its_line():
    imported = app.read("catalog.json", b'{\n  "protocolVersion": 2,\n  "apps": [\n    {"appId": }\n  ]\n}\n')
    assert imported.operations == []
    assert problems(imported) == [("line 4", "Expecting value")]
    assert problems(app.read("catalog.json", b'["not", "a", "catalog"]')) == [
        ("$", "neither a capability catalog page nor a manifest")]


# --- Zod translation details (through a one-query declaration) ------------------------------------

def schema(expr: str, prelude: str = "", io: str = "input") -> tuple[dict, list[str]]:
    field = "input" if io == "input" else "data"
    other = "data" if io == "input" else "input"
    source = textwrap.dedent(f"""
        import {{ z }} from "zod";
        {prelude}
        export const c = defineCapabilities({{
          protocolVersion: 2,
          queries: {{
            q: {{ title: "Q", description: "A query.", openWorld: false, {other}: z.object({{}}), {field}: {expr} }},
          }},
        }});
        """).encode()
    imported = app.read("q.ts", source, app_id="t")
    assert imported.problems == []
    declared = imported.operations[0]
    return (declared.input_schema if io == "input" else declared.output_schema), declared.notes


def test_zod_nullable_optional_and_default_follow_zod():
    out, notes = schema("""z.object({
        a: z.string().nullable(),
        b: z.enum(["x", "y"]).nullable(),
        c: z.string().describe("d").nullable(),
        d: z.string().nullish(),
        e: z.number().default(3),
    })""")
    assert out == {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"anyOf": [{"type": "string", "enum": ["x", "y"]}, {"type": "null"}]},
            "c": {"anyOf": [{"type": "string", "description": "d"}, {"type": "null"}]},
            "d": {"type": ["string", "null"]},
            "e": {"type": "number", "default": 3},
        },
        "required": ["a", "b", "c"],
    }
    assert notes == []
    data, _ = schema("z.object({ e: z.number().default(3), f: z.object({ g: z.string() }).passthrough() })",
                     io="output")
    assert data == {  # data is what parsing returns: defaulted fields present, plain objects closed
        "type": "object",
        "properties": {"e": {"type": "number", "default": 3},
                       "f": {"type": "object", "properties": {"g": {"type": "string"}}, "required": ["g"],
                             "additionalProperties": {}}},
        "required": ["e", "f"],
        "additionalProperties": False,
    }


def test_zod_bounds_formats_literals_and_arrays():
    out, _ = schema("""z.object({
        a: z.number().gt(1).lt(5).multipleOf(2),
        b: z.number().int().nonnegative(),
        c: z.string().length(4),
        d: z.array(z.number()).nonempty(),
        e: z.string().array().max(3),
        f: z.literal(3),
        g: z.literal(null),
        h: z.string().url(),
        i: z.string().regex(/a/).regex(/b/),
        j: z.unknown(),
        k: z.iso.date(),
        l: z.string().meta({ title: "T", description: "m" }),
    }).strict()""")
    assert out["properties"] == {
        "a": {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 5, "multipleOf": 2},
        "b": {"type": "integer", "minimum": 0},
        "c": {"type": "string", "minLength": 4, "maxLength": 4},
        "d": {"type": "array", "items": {"type": "number"}, "minItems": 1},
        "e": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "f": {"type": "number", "const": 3},
        "g": {"type": "null", "const": None},
        "h": {"type": "string", "format": "uri"},
        "i": {"type": "string", "allOf": [{"pattern": "a"}, {"pattern": "b"}]},
        "j": {},
        "k": {"type": "string", "format": "date"},
        "l": {"type": "string", "title": "T", "description": "m"},
    }
    assert out["additionalProperties"] is False and len(out["required"]) == 12


def test_zod_consts_extend_partial_and_cycles():
    prelude = """
        const Base = z.object({ id: z.string().describe("ID."), rev: z.number().int() });
        const Loop = Loop.optional();
        const LIMIT = 20;
    """
    out, _ = schema("Base.extend({ note: z.string().max(LIMIT).optional() }).strict()", prelude)
    assert out == {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "ID."}, "rev": {"type": "integer"},
                       "note": {"type": "string", "maxLength": 20}},
        "required": ["id", "rev"],
        "additionalProperties": False,
    }
    partial, _ = schema("Base.partial()", prelude)
    assert "required" not in partial and set(partial["properties"]) == {"id", "rev"}
    loop, notes = schema("z.object({ x: Loop })", prelude)
    assert loop["properties"]["x"] == {OPAQUE: "Loop"}
    assert notes == ["input.x: `Loop` (a reference to itself) (in const `Loop`): not translated; kept as x-zod-source"]


def test_zod_refinements_narrow_input_but_a_transform_hides_the_data():
    out, notes = schema('z.object({ n: z.string().transform((s) => s.length) })')
    assert out["properties"]["n"] == {"type": "string"}
    assert notes == ["input.n: .transform() is not stated in JSON Schema"]
    data, notes = schema('z.object({ n: z.string().transform((s) => s.length) })', io="output")
    assert data["properties"]["n"] == {OPAQUE: "z.string().transform((s) => s.length)"}
    assert notes == ["data.n: .transform() of parsed data: not translated; kept as x-zod-source"]


def test_spreads_of_same_file_consts_are_followed():
    source = textwrap.dedent("""
        import { z } from "zod";
        import { imported } from "./elsewhere";
        const closedWorld = { openWorld: false, data: z.object({}) };
        const readQueries = {
          "a.read": { ...closedWorld, title: "Read A", description: "Read one A.", input: z.object({}).strict() },
        };
        const Loop = { ...Loop };
        defineApp({ id: "demo" });
        defineCapabilities({
          protocolVersion: 2,
          queries: {
            ...readQueries,
            ...Loop,
            "b.read": { ...imported, title: "Read B", description: "Read one B.", input: z.object({}).strict() },
          },
        });
        """).encode()
    imported = app.read("spread.ts", source)
    assert [d.original_id for d in imported.operations] == ["demo.a.read"]
    assert imported.operations[0].hints == {"openWorld": False}
    reason = "query 'b.read' lacks data, openWorld, which the seed requires (the unresolved spread imported may hold"
    assert problems(imported) == [("line 15", f"{reason} them); not read")]
