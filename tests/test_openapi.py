"""miners/openapi.py: OpenAPI 3.0/3.1 documents read statically into declared operations, over real-world-shaped
fixtures in tests/fixtures/declared/openapi/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from miners.declared import Declared, Imported, canonical_json, capability_id, sha256
from miners.doc_lines import json_path, load
from miners.openapi import MAX_VALUES, read, sniff

FIXTURES = Path(__file__).parent / "fixtures" / "declared" / "openapi"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def read_fixture(name: str) -> Imported:
    return read(name, fixture(name))


def ops(result: Imported) -> dict[str, Declared]:
    return {op.original_id: op for op in result.operations}


def line_of(name: str, needle: str, after: str = "") -> int:
    """1-based line of the first `needle` in the fixture that comes after `after`."""
    text = fixture(name).decode()
    start = text.index(after) if after else 0
    return text[: text.index(needle, start)].count("\n") + 1


@pytest.fixture(scope="module")
def petstore() -> Imported:
    return read_fixture("petstore.yaml")


@pytest.fixture(scope="module")
def museum() -> Imported:
    return read_fixture("museum.json")


# -- sniff ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["petstore.yaml", "museum.json", "remote_ref.yaml", "swagger2.json", "bad.json"])
def test_sniff_recognises_openapi_3_and_swagger_2(name: str) -> None:
    assert sniff(name, fixture(name))


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("package.json", b'{"name": "x", "dependencies": {"openapi": "3.0.0"}}'),  # not the top-level key
        ("notes.txt", b"openapi: 3.0.0\n"),  # not a document kind that is read
        ("old.yaml", b"openapi: 2.5\n"),
        ("config.yaml", b"services:\n  openapi: 3.0.0\n"),  # indented: not top level
        ("late.json", b'{"padding": "' + b"x" * 5000 + b'", "openapi": "3.0.0"}'),  # beyond the first KiBs
    ],
)
def test_sniff_rejects_other_files(path: str, data: bytes) -> None:
    assert not sniff(path, data)


def test_sniff_accepts_quoted_and_unquoted_versions() -> None:
    assert sniff("a.yml", b"# spec\n'openapi': '3.1.0'\n")
    assert sniff("a.yaml", b"---\nopenapi: 3.0\n")
    assert sniff("a.json", b'{\n  "openapi" : "3.0.2",\n  "info": {}\n}')


# -- a 3.0 petstore ---------------------------------------------------------------------------------


def test_every_operation_becomes_one_declared(petstore: Imported) -> None:
    assert petstore.problems == []
    assert [op.original_id for op in petstore.operations] == [
        "listPets",
        "createPet",
        "showPetById",
        "DELETE /pets/{petId}",
        "uploadPhoto",
        "GET /categories/{id}/tree",
    ]
    by_id = ops(petstore)
    assert all(op.format == "openapi" and op.namespace == "Swagger Petstore" for op in by_id.values())
    assert all(op.effects == ["network.connect"] and op.path == "petstore.yaml" for op in by_id.values())
    assert capability_id(by_id["listPets"].namespace, "listPets") == "swagger-petstore/list-pets"
    assert capability_id("Swagger Petstore", "DELETE /pets/{petId}") == "swagger-petstore/delete-pets-pet-id"


def test_names_and_descriptions_fall_back(petstore: Imported) -> None:
    by_id = ops(petstore)
    assert (by_id["createPet"].name, by_id["createPet"].description) == ("Create a pet", "Adds a pet to the store.")
    assert (by_id["listPets"].name, by_id["listPets"].description) == ("List all pets", "List all pets")
    assert (by_id["uploadPhoto"].name, by_id["uploadPhoto"].description) == ("uploadPhoto", "")
    delete = by_id["DELETE /pets/{petId}"]
    assert (delete.name, delete.description) == ("DELETE /pets/{petId}", "Removes a pet; use archivePet instead.")


def test_read_only_follows_the_method(petstore: Imported) -> None:
    assert {op.original_id: op.read_only for op in petstore.operations} == {
        "listPets": True,
        "createPet": False,
        "showPetById": True,
        "DELETE /pets/{petId}": False,
        "uploadPhoto": False,
        "GET /categories/{id}/tree": True,
    }


def test_parameter_refs_are_resolved_into_the_input_schema(petstore: Imported) -> None:
    schema = ops(petstore)["listPets"].input_schema
    assert schema == {
        "type": "object",
        "properties": {
            "limit": {
                "type": "integer",
                "maximum": 100,
                "format": "int32",
                "description": "How many items to return at one time (max 100)",
                "x-openapi-in": "query",
            },
            "tags": {
                "type": "array",
                "items": {"type": "string"},
                "description": "tags to filter by",
                "x-openapi-style": "form",
                "x-openapi-explode": True,
                "x-openapi-in": "query",
            },
        },
        "required": [],
    }


def test_path_level_parameters_merge_and_the_operation_wins(petstore: Imported) -> None:
    show = ops(petstore)["showPetById"].input_schema
    assert list(show["properties"]) == ["petId", "X-Request-Id"]
    assert show["properties"]["petId"] == {
        "type": "integer",
        "format": "int64",
        "description": "The id of the pet",
        "x-openapi-in": "path",
    }
    # The operation's X-Request-Id replaces the path item's: required, a uuid, its own description.
    assert show["properties"]["X-Request-Id"]["format"] == "uuid"
    assert show["properties"]["X-Request-Id"]["description"] == "trace id, required here"
    assert show["required"] == ["petId", "X-Request-Id"]
    # DELETE declares no parameters: it gets the path item's, the header optional there.
    delete = ops(petstore)["DELETE /pets/{petId}"].input_schema
    assert delete["properties"]["X-Request-Id"] == {
        "type": "string",
        "description": "optional trace id",
        "x-openapi-in": "header",
    }
    assert delete["required"] == ["petId"]


def test_path_parameters_are_always_required_and_names_never_collide(petstore: Imported) -> None:
    tree = ops(petstore)["GET /categories/{id}/tree"].input_schema
    assert tree["properties"]["id"]["x-openapi-in"] == "path"  # declared without `required: true`
    assert tree["properties"]["query:id"] == {
        "type": "string",
        "description": "a second id, in the query",
        "x-openapi-in": "query",
    }
    assert tree["required"] == ["id"]


def test_request_body_ref_becomes_the_body_property(petstore: Imported) -> None:
    schema = ops(petstore)["createPet"].input_schema
    assert schema["required"] == ["body"]
    body = schema["properties"]["body"]
    assert body["description"] == "The pet to add"
    assert body["x-openapi-media-type"] == "application/json"
    assert body["required"] == ["name"]
    # NewPet's owner is itself a $ref: resolved too, 3.0's nullable kept as written.
    assert body["properties"]["owner"] == {
        "type": "object",
        "nullable": True,
        "properties": {"name": {"type": "string"}},
    }


def test_without_a_json_media_type_the_first_one_is_read(petstore: Imported) -> None:
    body = ops(petstore)["uploadPhoto"].input_schema["properties"]["body"]
    assert body == {"type": "string", "format": "binary", "x-openapi-media-type": "image/png"}


def test_literal_values_are_not_taken_for_references(petstore: Imported) -> None:
    body = ops(petstore)["createPet"].input_schema["properties"]["body"]
    assert body["properties"]["tag"]["example"] == {"$ref": "not-a-reference"}
    assert not any("not-a-reference" in note for op in petstore.operations for note in op.notes)


def test_output_is_the_first_2xx_response_preferring_json(petstore: Imported) -> None:
    by_id = ops(petstore)
    pets = by_id["listPets"].output_schema
    assert pets["type"] == "array" and pets["maxItems"] == 100
    assert pets["items"]["allOf"][1]["required"] == ["id"]
    assert by_id["listPets"].metadata["response"] == {"status": "200", "mediaType": "application/json"}
    # 201, not the `default` error response.
    assert by_id["createPet"].output_schema["allOf"][0]["properties"]["name"] == {"type": "string"}
    # application/json is chosen over the application/xml listed first.
    assert by_id["showPetById"].output_schema == by_id["createPet"].output_schema
    assert by_id["uploadPhoto"].output_schema == {"type": "object", "properties": {"url": {"type": "string"}}}
    assert by_id["uploadPhoto"].metadata["response"] == {"status": "2XX", "mediaType": "application/json"}


def test_a_response_without_content_has_no_output_and_says_so(petstore: Imported) -> None:
    delete = ops(petstore)["DELETE /pets/{petId}"]
    assert delete.output_schema is None
    assert delete.notes == ["204 response has no schema: output none"]


def test_a_recursive_schema_is_kept_once_in_defs(petstore: Imported) -> None:
    tree = ops(petstore)["GET /categories/{id}/tree"]
    assert tree.output_schema == {
        "$ref": "#/$defs/Category",
        "$defs": {
            "Category": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Category"}},
                },
            }
        },
    }
    assert "recursive $ref #/components/schemas/Category kept as #/$defs/Category" in tree.notes
    # It is a working JSON Schema: it validates a tree at any depth and rejects a bad node deep in it.
    validator = Draft202012Validator(tree.output_schema)
    good = {"name": "a", "children": [{"name": "b", "children": [{"name": "c", "children": []}]}]}
    assert validator.is_valid(good)
    assert not validator.is_valid({"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]})


def test_callbacks_are_not_operations(petstore: Imported) -> None:
    tree = ops(petstore)["GET /categories/{id}/tree"]
    assert "callbacks are calls the API makes, not operations: not read" in tree.notes
    assert len(petstore.operations) == 6  # the callback's POST is not among them


def test_metadata_hints_servers_and_security(petstore: Imported) -> None:
    by_id = ops(petstore)
    assert by_id["listPets"].metadata == {
        "method": "GET",
        "path": "/pets",
        "tags": ["pets"],
        "servers": ["https://petstore.example.com/v1"],
        "security": ["apiKey"],
        "openapi": "3.0.3",
        "response": {"status": "200", "mediaType": "application/json"},
    }
    assert by_id["createPet"].metadata["security"] == ["oauth", "apiKey"]  # the operation's own
    assert by_id["DELETE /pets/{petId}"].metadata["security"] == []  # `security: []`: no auth for this one
    assert by_id["uploadPhoto"].metadata["servers"] == ["https://uploads.petstore.example.com/v1"]  # path item's
    assert by_id["DELETE /pets/{petId}"].hints == {"deprecated": True}
    assert by_id["listPets"].hints == {}


def test_line_is_the_operation_key_and_end_line_its_last_value(petstore: Imported) -> None:
    by_id = ops(petstore)
    name = "petstore.yaml"
    assert by_id["listPets"].line == line_of(name, "    get:", after="  /pets:")
    assert by_id["createPet"].line == line_of(name, "    post:", after="  /pets:")
    assert by_id["listPets"].end_line == by_id["createPet"].line - 1
    assert by_id["showPetById"].line == line_of(name, "    get:", after="  /pets/{petId}:")
    assert by_id["DELETE /pets/{petId}"].line == line_of(name, "    delete:")
    assert by_id["DELETE /pets/{petId}"].end_line == line_of(name, "          description: Deleted")
    assert by_id["uploadPhoto"].end_line == line_of(name, "  /categories/{id}/tree:") - 1
    text = fixture(name).decode().split("\n")
    assert all(text[op.line - 1].strip() == op.pointer.rsplit("/", 1)[1] + ":" for op in petstore.operations)
    assert [op.pointer for op in petstore.operations][:3] == [
        "/paths/~1pets/get",
        "/paths/~1pets/post",
        "/paths/~1pets~1{petId}/get",
    ]


# -- digests ----------------------------------------------------------------------------------------


def test_digests_of_the_file_and_of_a_plain_operation() -> None:
    data = fixture("invalid_operations.yaml")
    health = ops(read("invalid_operations.yaml", data))["health"]
    assert health.source_digest == sha256(data)
    value, _ = load("invalid_operations.yaml", data)
    operation = value["paths"]["/health"]["get"]
    operation["responses"] = {str(k): v for k, v in operation["responses"].items()}  # YAML's `200` keys as JSON's
    assert health.declaration_digest == sha256(canonical_json(operation))
    assert health.digest_of == "canonical-json"


def test_the_digest_covers_path_level_parameters(petstore: Imported) -> None:
    value, _ = load("petstore.yaml", fixture("petstore.yaml"))
    item = value["paths"]["/pets/{petId}"]
    merged = {**item["delete"], "parameters": item["parameters"]}
    responses = {str(k): v for k, v in merged["responses"].items()}
    assert ops(petstore)["DELETE /pets/{petId}"].declaration_digest == sha256(
        canonical_json({**merged, "responses": responses})
    )


def test_a_digest_changes_with_its_operation_only(petstore: Imported) -> None:
    data = fixture("petstore.yaml")
    edited = data.replace(b"summary: List all pets", b"summary: List every pet")
    assert edited != data
    before, after = ops(petstore), ops(read("petstore.yaml", edited))
    assert after["listPets"].declaration_digest != before["listPets"].declaration_digest
    assert after["listPets"].source_digest != before["listPets"].source_digest
    for other in ("createPet", "showPetById", "DELETE /pets/{petId}", "uploadPhoto", "GET /categories/{id}/tree"):
        assert after[other].declaration_digest == before[other].declaration_digest, other


def test_a_digest_changes_with_a_component_the_operation_uses(petstore: Imported) -> None:
    data = fixture("petstore.yaml")
    edited = data.replace(b"        maximum: 100\n", b"        maximum: 500\n")  # the Limit parameter
    assert edited.count(b"maximum: 500") == 1
    before, after = ops(petstore), ops(read("petstore.yaml", edited))
    changed = {k for k in before if before[k].declaration_digest != after[k].declaration_digest}
    assert changed == {"listPets"}
    assert after["listPets"].input_schema["properties"]["limit"]["maximum"] == 500


# -- a 3.1 document ---------------------------------------------------------------------------------


def test_openapi_31_json(museum: Imported) -> None:
    assert museum.problems == []
    by_id = ops(museum)
    assert list(by_id) == ["getMuseumHours", "createSpecialEvent", "getTicketCode"]
    hours = by_id["getMuseumHours"]
    assert hours.namespace == "Redocly Museum API"
    assert hours.metadata["openapi"] == "3.1.0"
    assert hours.metadata["servers"] == ["https://{region}.museum.example.com/v1"]
    assert hours.metadata["security"] == ["MuseumPlaceholderAuth"]
    start = hours.input_schema["properties"]["startDate"]
    assert start["examples"] == ["2023-02-23"] and start["x-openapi-in"] == "query"
    # The JSON media type (+json) is read, not the text/plain listed first; 2020-12 type arrays are kept.
    assert hours.metadata["response"] == {"status": "200", "mediaType": "application/vnd.museum+json"}
    item = hours.output_schema["items"]
    assert item["properties"]["timeOpen"]["type"] == ["string", "null"]
    assert item["properties"]["timeClose"]["examples"] == ["17:30"]


def test_openapi_31_mutual_recursion_and_literal_examples(museum: Imported) -> None:
    create = ops(museum)["createSpecialEvent"]
    body = create.input_schema["properties"]["body"]
    assert body == {"$ref": "#/$defs/SpecialEvent", "x-openapi-media-type": "application/json"}
    event = create.input_schema["$defs"]["SpecialEvent"]
    assert event["properties"]["series"]["properties"]["events"]["items"] == {"$ref": "#/$defs/SpecialEvent"}
    assert create.output_schema["$defs"] == create.input_schema["$defs"]
    validator = Draft202012Validator(create.input_schema)
    assert validator.is_valid(
        {"body": {"name": "a", "location": "b", "series": {"events": [{"name": "c", "location": "d"}]}}}
    )
    assert not validator.is_valid({"body": {"name": "a", "location": "b", "series": {"events": [{"name": "c"}]}}})


def test_a_path_item_ref_reads_the_operations_where_they_are(museum: Imported) -> None:
    ticket = ops(museum)["getTicketCode"]
    assert ticket.metadata["path"] == "/tickets/{ticketId}"
    assert ticket.pointer == "/components/pathItems/Ticket/get"
    assert ticket.line == line_of("museum.json", '"get": {', after='"Ticket": {')
    assert ticket.input_schema["required"] == ["ticketId"]
    assert ticket.output_schema == {"type": "string", "contentMediaType": "image/png"}


def test_json_lines(museum: Imported) -> None:
    by_id = ops(museum)
    assert by_id["getMuseumHours"].line == line_of("museum.json", '"get": {')
    assert by_id["getMuseumHours"].end_line == line_of("museum.json", '"400": {"description": "Bad request."}')
    assert by_id["createSpecialEvent"].line == line_of("museum.json", '"post": {')


def test_webhooks_are_not_operations(museum: Imported) -> None:
    assert "publishNewTicket" not in ops(museum)
    only = read_fixture("webhooks_only.yaml")  # 3.1 allows a document without paths
    assert only.operations == [] and only.problems == []


# -- remote refs ------------------------------------------------------------------------------------


def test_remote_refs_are_kept_as_written_and_noted() -> None:
    result = read_fixture("remote_ref.yaml")
    assert result.problems == []
    by_id = ops(result)
    orders = by_id["listOrders"]
    assert orders.output_schema == {"type": "array", "items": {"$ref": "https://schemas.example.com/order.json#/Order"}}
    at = json_path("/paths/~1orders/get/responses/200/content/application~1json/schema/items")
    assert f"remote $ref not followed: https://schemas.example.com/order.json#/Order (at {at})" in orders.notes
    assert list(orders.input_schema["properties"]) == ["status"]  # the remote parameter cannot be named
    assert any("common.yaml#/components/parameters/TraceId" in note for note in orders.notes)
    place = by_id["placeOrder"]
    assert place.input_schema["properties"] == {"body": {}}
    assert place.output_schema is None
    assert any(
        n.startswith("remote $ref not followed: common.yaml#/components/requestBodies/Order") for n in place.notes
    )
    assert any("common.yaml#/components/responses/Created" in n and "output unknown" in n for n in place.notes)


# -- bad input --------------------------------------------------------------------------------------


def test_unparseable_yaml_and_json_give_one_problem_with_the_line() -> None:
    bad_yaml = read_fixture("bad.yaml")
    assert bad_yaml.operations == []
    assert [(p.path, p.where) for p in bad_yaml.problems] == [("bad.yaml", "line 8")]
    bad_json = read_fixture("bad.json")
    assert [(p.path, p.where) for p in bad_json.problems] == [("bad.json", "line 5")]


def test_swagger_2_minimal_document_is_read() -> None:
    result = read_fixture("swagger2.json")
    assert result.problems == []
    (op,) = result.operations
    assert (op.original_id, op.namespace, op.metadata["method"], op.metadata["path"]) == \
        ("listItems", "Legacy", "GET", "/items")
    assert op.metadata["swagger"] == "2.0" and "openapi" not in op.metadata
    assert op.metadata["servers"] == ["//legacy.example.com/v1"]  # no schemes: the scheme the document came by


def test_swagger_2_parameters_bodies_and_responses_take_openapi_3_shapes() -> None:
    result = read_fixture("swagger2_store.yaml")
    assert result.problems == []
    by_id = ops(result)
    assert set(by_id) == {"listKernels", "POST /kernels", "deleteKernel", "uploadFile"}
    listing = by_id["listKernels"]
    assert listing.metadata["servers"] == ["https://store.example.com/api"]  # basePath's trailing slash dropped
    assert listing.metadata["security"] == ["token"] and by_id["deleteKernel"].metadata["security"] == []
    assert listing.input_schema["properties"]["tags"] == {
        "type": "array", "items": {"type": "string"}, "x-openapi-collectionFormat": "csv", "x-openapi-in": "query"}
    # draft 4's boolean exclusiveMaximum becomes 2020-12's number
    assert listing.input_schema["properties"]["limit"] == {
        "type": "integer", "minimum": 1, "exclusiveMaximum": 100, "x-openapi-in": "query"}
    assert listing.output_schema["items"]["properties"]["spec"]["required"] == ["name"]  # refs into definitions
    assert listing.metadata["response"] == {"status": "200", "mediaType": "application/json"}
    start = by_id["POST /kernels"]
    assert start.name == "Start a kernel" and start.read_only is False
    assert start.input_schema["required"] == ["body"]
    assert start.input_schema["properties"]["body"] == {
        "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}},
        "description": "the kernel spec to start", "x-openapi-media-type": "application/json"}
    delete = by_id["deleteKernel"]  # the path item's shared parameter, through #/parameters
    assert delete.input_schema == {"type": "object", "required": ["kernel_id"], "properties": {"kernel_id": {
        "type": "string", "format": "uuid", "description": "kernel uuid", "x-openapi-in": "path"}}}
    assert delete.output_schema is None and "204 response has no schema: output none" in delete.notes
    upload = by_id["uploadFile"]
    assert upload.input_schema["properties"]["body"] == {
        "type": "object", "required": ["file"], "x-openapi-media-type": "multipart/form-data",
        "properties": {"file": {"type": "string", "format": "binary"}, "note": {"type": "string"}}}
    assert upload.input_schema["required"] == ["kernel_id", "body"]
    assert upload.output_schema == {"type": "string"} and upload.metadata["response"]["mediaType"] == "text/plain"
    assert upload.line == line_of("swagger2_store.yaml", "post:", after="/files:")
    for op in by_id.values():
        Draft202012Validator.check_schema(op.input_schema)


@pytest.mark.parametrize(("text", "where"), [(b'swagger: "1.2"\npaths: {}\n', "$.swagger"),
                                             (b'openapi: "2.0"\npaths: {}\n', "$.openapi")])
def test_other_versions_are_reported_not_read(text: bytes, where: str) -> None:
    result = read("api.yaml", text)
    assert result.operations == []
    assert [p.where for p in result.problems] == [where]
    assert "only OpenAPI 3.0 and 3.1 and Swagger 2.0 are read" in result.problems[0].reason


def test_missing_paths_is_a_problem() -> None:
    result = read_fixture("missing_paths.yaml")
    assert result.operations == []
    assert [p.where for p in result.problems] == ["$.paths"]


def test_an_invalid_operation_is_a_problem_and_the_others_are_read() -> None:
    result = read_fixture("invalid_operations.yaml")
    wheres = [p.where for p in result.problems]
    assert wheres == [
        "$.info",
        json_path("/paths/~1status/get"),
        json_path("/paths/~1status/post/parameters/0"),
        json_path("/paths/~1status/post/parameters/1"),
    ]
    assert wheres[1] in ("$.paths['/status'].get", '$.paths["/status"].get')
    assert "not an object" in result.problems[1].reason
    by_id = ops(result)
    assert list(by_id) == ["setStatus", "health"]
    assert list(by_id["setStatus"].input_schema["properties"]) == ["force"]
    assert by_id["health"].namespace == ""  # no info: the integration's default namespace applies
    assert by_id["health"].output_schema == {"type": "object"}


def test_a_dangling_ref_is_a_problem_and_the_operation_stays_opaque_there() -> None:
    result = read_fixture("dangling_ref.yaml")
    assert [(p.where, p.reason) for p in result.problems] == [
        (
            json_path("/paths/~1users~1{id}/get/parameters/0/$ref"),
            "$ref #/components/parameters/UserId does not resolve",
        ),
        ("$.components.schemas.User.properties.manager.$ref", "$ref #/components/schemas/Manager does not resolve"),
    ]
    by_id = ops(result)
    user = by_id["getUser"]
    assert user.output_schema["properties"]["manager"] == {"$ref": "#/components/schemas/Manager"}
    assert user.output_schema["properties"]["id"] == {"type": "string"}
    assert (
        "unresolved $ref kept opaque: #/components/schemas/Manager (at $.components.schemas.User.properties.manager)"
        in (user.notes)
    )
    assert by_id["listUsers"].output_schema["items"]["properties"] == {"id": {"type": "string"}}
    assert by_id["listUsers"].notes == []


def test_refs_that_multiply_stop_at_a_bound() -> None:
    # Each schema uses the next twice: 2**24 copies if expanded blindly.
    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {
                "a": {"$ref": f"#/components/schemas/S{i + 1}"},
                "b": {"$ref": f"#/components/schemas/S{i + 1}"},
            },
        }
        for i in range(24)
    }
    schemas["S24"] = {"type": "string"}
    json_schema = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "Bomb", "version": "1"},
        "paths": {
            "/bomb": {"get": {"responses": {"200": {"description": "x", **json_schema}}}},
            "/fine": {"get": {"operationId": "fine", "responses": {"204": {"description": "none"}}}},
        },
        "components": {"schemas": schemas},
    }
    result = read("bomb.json", json.dumps(doc).encode())
    assert [p.where for p in result.problems] == [json_path("/paths/~1bomb/get")]
    assert str(MAX_VALUES) in result.problems[0].reason
    assert [op.original_id for op in result.operations] == ["fine"]


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (b"[1, 2]", "$"),
        (b'"openapi"', "$"),
        (b'{"openapi": "2.0", "paths": {}}', "$.openapi"),
        (b'{"openapi": "3.0.0", "info": {"title": "t"}, "paths": []}', "$.paths"),
        (b'{"openapi": "3.0.0", "info": {"title": "t"}, "paths": {"/a": 7}}', json_path("/paths/~1a")),
        (
            b'{"openapi": "3.0.0", "info": {"title": "t"}, "paths": {"/a": {"$ref": "other.json#/a"}}}',
            json_path("/paths/~1a/$ref"),
        ),
    ],
)
def test_bad_documents_are_problems(data: bytes, where: str) -> None:
    result = read("doc.json", data)
    assert result.operations == []
    assert [p.where for p in result.problems] == [where]


def test_bytes_that_are_not_utf8_are_a_problem() -> None:
    result = read("doc.yaml", b'openapi: 3.0.0\ninfo: {title: "caf\xe9"}\n')
    assert result.operations == []
    assert len(result.problems) == 1 and "UTF-8" in result.problems[0].reason


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()))
def test_never_raises_on_any_truncation(name: str) -> None:
    data = fixture(name)
    for end in range(0, len(data), 53):
        result = read(name, data[:end])
        assert isinstance(result, Imported)
        assert result.operations or result.problems or end == 0 or name.startswith("webhooks")
