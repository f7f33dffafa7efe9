"""miners/mcp_static.py: static MCP tool and resource listings, and MCP registry server.json files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miners.declared import Declared, Problem, canonical_json, capability_id, sha256
from miners.mcp_static import MORE_PAGES, OPEN_WORLD, UNKNOWN_EFFECTS, read, server_info, sniff

FIXTURES = Path(__file__).parent / "fixtures" / "declared" / "mcp"


def fixture(name: str) -> tuple[str, bytes]:
    return name, (FIXTURES / name).read_bytes()


def line_of(data: bytes, needle: str, start_after: str | None = None) -> int:
    text = data.decode("utf-8")
    offset = text.index(start_after) if start_after else 0
    return text[: text.index(needle, offset)].count("\n") + 1


# -- tools/list results ----------------------------------------------------------------------------


def test_a_tools_list_result():
    path, data = fixture("filesystem-tools.json")
    result = read(path, data)
    assert result.problems == []
    tools = json.loads(data)["tools"]
    assert [d.original_id for d in result.operations] == [t["name"] for t in tools]
    # the display name: `title`, else `annotations.title`, else the tool name
    assert [d.name for d in result.operations] == ["Read Text File", "Write File", "List Directory",
                                                   "list_allowed_directories"]
    for declared, tool, index in zip(result.operations, tools, range(4), strict=True):
        assert declared.format == "mcp" and declared.path == path
        assert declared.description == tool["description"]
        assert declared.input_schema == tool["inputSchema"]
        assert declared.output_schema == tool.get("outputSchema")
        assert declared.pointer == f"/tools/{index}" and declared.namespace == ""
        assert declared.declaration_digest == sha256(canonical_json(tool)) and declared.digest_of == "canonical-json"
        assert declared.source_digest == sha256(data)
        assert declared.notes == [UNKNOWN_EFFECTS]
        assert declared.line == line_of(data, f'"name": "{tool["name"]}"') - 1  # the tool's `{` opens the line above
    assert result.operations[0].end_line == line_of(data, '"annotations": { "readOnlyHint": true }')


def test_annotations_are_hints_never_facts():
    path, data = fixture("filesystem-tools.json")
    read_text, write, listing, allowed = read(path, data).operations
    assert read_text.hints == {"readOnlyHint": True}
    assert write.hints == {"readOnlyHint": False, "idempotentHint": True, "destructiveHint": True}
    assert listing.hints == {"title": "List Directory", "readOnlyHint": True, "openWorldHint": False}
    # a publisher saying "read only" proves nothing, and no hint narrows (or, closed-world, removes) effects
    for declared in (read_text, write, listing, allowed):
        assert declared.read_only is None and declared.effects == []


def test_fields_mcp_has_beyond_the_record_are_kept():
    path, data = fixture("filesystem-tools.json")
    allowed = read(path, data).operations[3]
    assert allowed.metadata == {"kind": "tool", "extra": {
        "icons": [{"src": "https://example.com/folder.png", "mimeType": "image/png"}],
        "_meta": {"com.example/category": "filesystem"},
    }}
    assert allowed.hints == {} and allowed.output_schema is None


def test_a_json_rpc_response_with_an_open_world_tool_and_more_pages():
    path, data = fixture("fetch-tools-list.json")
    result = read(path, data)
    assert result.problems == []
    (fetch,) = result.operations
    assert (fetch.original_id, fetch.name) == ("fetch", "Fetch URL")
    assert fetch.pointer == "/result/tools/0" and fetch.line == line_of(data, '"name": "fetch"') - 1
    assert fetch.hints == {"title": "Fetch URL", "readOnlyHint": True, "openWorldHint": True}
    # openWorldHint may only add authority: network.connect, conservatively; readOnlyHint changes nothing
    assert fetch.effects == ["network.connect"] and fetch.read_only is None
    assert fetch.notes == [UNKNOWN_EFFECTS, OPEN_WORLD, MORE_PAGES]
    assert fetch.input_schema["required"] == ["url"]


def test_a_recorded_session_names_the_server():
    path, data = fixture("time-session.json")
    result = read(path, data)
    assert result.problems == []
    current, convert = result.operations
    assert [current.original_id, convert.original_id] == ["get_current_time", "convert_time"]
    for declared in (current, convert):
        assert declared.namespace == "mcp-time"
        assert declared.metadata == {"kind": "tool", "server": {"name": "mcp-time", "version": "1.9.4"}}
    assert current.pointer == "/4/result/tools/0" and convert.pointer == "/4/result/tools/1"
    assert capability_id(current.namespace, current.original_id) == "mcp-time/get_current_time"
    assert convert.input_schema["required"] == ["source_timezone", "time", "target_timezone"]
    assert convert.line == line_of(data, '"name": "convert_time"') - 1


def test_a_bare_array_of_tools():
    tools = [{"name": "echo", "inputSchema": {"type": "object"}}, {"name": "add", "inputSchema": {"type": "object"}}]
    data = json.dumps(tools, indent=2).encode()
    assert sniff("tools.json", data)
    result = read("tools.json", data)
    assert result.problems == [] and [d.pointer for d in result.operations] == ["/0", "/1"]


# -- resources --------------------------------------------------------------------------------------


def test_resources_and_templates():
    path, data = fixture("resources-list.json")
    result = read(path, data)
    assert result.problems == []
    readme, graph, template = result.operations
    assert (readme.original_id, readme.name, readme.description) == (
        "file:///project/README.md", "Project README", "The project's introduction")
    assert readme.metadata == {"kind": "resource", "uri": "file:///project/README.md", "mimeType": "text/markdown",
                               "extra": {"size": 2048}}
    assert readme.hints == {"audience": ["user", "assistant"], "priority": 0.8}
    assert (graph.name, graph.metadata["mimeType"], graph.hints) == ("knowledge-graph", "application/json", {})
    assert template.metadata == {"kind": "resource-template", "uriTemplate": "file:///project/{path}",
                                 "mimeType": "application/octet-stream"}
    assert template.pointer == "/resourceTemplates/0" and template.name == "A file of the project"
    for declared in result.operations:
        assert declared.read_only is None and declared.effects == [] and declared.input_schema is None
        assert declared.format == "mcp" and not declared.discovery_only


def test_a_template_without_its_uri_template_is_skipped():
    path, data = fixture("resource-templates-list.json")
    result = read(path, data)
    assert [d.original_id for d in result.operations] == ["github://repos/{owner}/{repo}/issues/{number}"]
    assert result.problems == [Problem(path, "$.result.resourceTemplates[1].uriTemplate",
                                       "is missing; the entry was skipped")]


# -- malformed listings ---------------------------------------------------------------------------------


def test_bad_tools_among_good_ones():
    path, data = fixture("malformed-tools.json")
    result = read(path, data)
    assert [d.original_id for d in result.operations] == ["search_issues", "create_issue", "ping"]
    assert [(p.where, p.reason) for p in result.problems] == [
        ("$.tools[1].name", "is missing; the entry was skipped"),
        ("$.tools[2].name", "must be a non-empty string; the entry was skipped"),
        ("$.tools[3]", "must be an object"),
        ("$.tools[4].description", "must be a string; ignored"),
        ("$.tools[4].inputSchema", "must be an object; ignored"),
        ("$.tools[4].annotations.destructiveHint", "must be a boolean; the hint was ignored"),
        ("$.tools[5].name", "'search_issues' is listed again; the first entry was kept"),
        ("$.tools[6].inputSchema", "is missing (MCP requires one)"),
    ]
    search, create, ping = result.operations
    assert search.description == "Search issues of a repository" and search.effects == ["network.connect"]
    # a wrongly typed field is dropped, the tool kept; unknown annotations stay hints
    assert (create.description, create.input_schema) == ("", None)
    assert create.hints == {"idempotentHint": False, "x-risk": "medium"}
    assert ping.input_schema is None and ping.pointer == "/tools/6"


def test_a_json_rpc_error_response():
    path, data = fixture("tools-list-error.json")
    assert sniff(path, data)
    result = read(path, data)
    assert result.operations == []
    assert result.problems == [Problem(path, "$.error", "a JSON-RPC error response (-32601: Method not found)")]


def test_an_unparseable_listing():
    path, data = fixture("truncated-tools.json")
    result = read(path, data)
    assert result.operations == []
    (problem,) = result.problems
    assert problem.where == f"line {data.decode().count(chr(10)) + 1}"


@pytest.mark.parametrize(("document", "problems"), [
    ({"jsonrpc": "2.0", "id": 1, "result": {}}, ["$"]),
    ({"jsonrpc": "2.0", "id": 1, "result": [1]}, ["$.result"]),
    ({"tools": {"echo": {}}}, ["$.tools"]),
    ({"tools": [], "nextCursor": "x"}, []),
    ([{"jsonrpc": "2.0", "id": 1, "error": "boom"}, {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}],
     ["$[0].error"]),
    ([7, {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}], ["$[0]"]),
    ({"serverInfo": {"name": "lonely", "version": "1.0.0"}, "capabilities": {}}, []),
    ("tools", ["$"]),
])
def test_listing_level_problems(document, problems):
    result = read("snapshot/tools.json", json.dumps(document).encode())
    assert result.operations == [] and [p.where for p in result.problems] == problems


def test_an_initialize_snapshot_with_its_tools_gives_the_namespace():
    snapshot = {"serverInfo": {"name": "github-mcp-server", "title": "GitHub", "version": "0.9.0"},
                "tools": [{"name": "get_me", "inputSchema": {"type": "object"}}]}
    (declared,) = read("snapshot.json", json.dumps(snapshot).encode()).operations
    assert declared.namespace == "github-mcp-server"
    assert declared.metadata["server"] == {"name": "github-mcp-server", "title": "GitHub", "version": "0.9.0"}


@pytest.mark.parametrize("annotations", [
    {}, {"openWorldHint": False}, {"readOnlyHint": True}, {"destructiveHint": True}, {"destructiveHint": False},
    {"readOnlyHint": True, "openWorldHint": True}, {"openWorldHint": "true"},
])
def test_hints_never_become_facts(annotations):
    tool = {"name": "t", "inputSchema": {"type": "object"}, "annotations": annotations}
    (declared,) = read("t.json", json.dumps({"tools": [tool]}).encode()).operations
    assert declared.read_only is None
    assert declared.effects == (["network.connect"] if annotations.get("openWorldHint") is True else [])


def test_a_lone_surrogate_is_a_problem_and_the_rest_is_read():
    data = b'{"tools": [{"name": "bad\\ud800", "inputSchema": {}}, {"name": "good", "inputSchema": {}}]}'
    result = read("t.json", data)
    assert [d.original_id for d in result.operations] == ["good"]
    assert [p.where for p in result.problems] == ["$.tools[0]"]


# -- server.json ------------------------------------------------------------------------------------------


def test_a_server_json_describes_the_server_not_its_tools():
    path, data = fixture("server.json")
    assert sniff(path, data)
    assert read(path, data).operations == [] and read(path, data).problems == []
    assert server_info(path, data) == {
        "name": "io.github.modelcontextprotocol/server-time",
        "title": None,
        "version": "0.6.2",
        "description": "MCP server providing tools for time queries and timezone conversions for LLMs",
        "packages": [{"registryType": "pypi", "identifier": "mcp-server-time", "version": "0.6.2",
                      "runtimeHint": "uvx", "transport": {"type": "stdio"}}],
        "remotes": [],
        "repository": {"url": "https://github.com/modelcontextprotocol/servers", "source": "github",
                       "subfolder": "src/time"},
        "websiteUrl": None,
    }


def test_a_first_edition_server_json():
    path, data = fixture("server-2025-07-09/server.json")
    assert read(path, data).problems == []
    info = server_info(path, data)
    assert info["name"] == "io.github.acme/weather" and info["version"] == "1.4.0"
    assert info["packages"][0]["name"] == "@acme/weather-mcp"
    assert info["remotes"] == [{"transport_type": "streamable-http", "url": "https://mcp.acme.example/weather"}]


def test_a_malformed_server_json():
    path, data = fixture("bad-server/server.json")
    assert sniff(path, data)
    result = read(path, data)
    assert result.operations == []
    assert [(p.where, p.reason) for p in result.problems] == [
        ("$.name", "is missing"),
        ("$.packages[0].identifier", "is missing"),
        ("$.packages[0].version", "'latest' is not a specific version"),
        ("$.packages[1]", "must be an object"),
        ("$.remotes[0].url", "is missing"),
    ]
    assert server_info(path, data) is None  # no name: nothing to attach


@pytest.mark.parametrize(("server", "wheres"), [
    ({"name": "weather", "description": "d", "version": "1.0.0"}, ["$.name"]),
    ({"name": "io.github.a/b", "description": 5, "version": ""}, ["$.description", "$.version"]),
    ({"name": "io.github.a/b", "description": "d", "version": "1", "packages": {}}, ["$.packages"]),
    ({"name": "io.github.a/b", "description": "d", "version": "1",
      "packages": [{"registryType": "npm", "identifier": "x", "version": "^1.2.0", "transport": "stdio"}]},
     ["$.packages[0].version", "$.packages[0].transport"]),
    ({"name": "io.github.a/b", "description": "d", "version": "1", "repository": "https://github.com/a/b"},
     ["$.repository"]),
    ({"name": "io.github.a/b", "description": "d", "version": "1",
      "packages": [{"registryType": "oci", "identifier": "ghcr.io/a/b:1.0", "transport": {"type": "stdio"}}]}, []),
])
def test_server_json_rules(server, wheres):
    document = {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", **server}
    assert [p.where for p in read("server.json", json.dumps(document).encode()).problems] == wheres


def test_server_info_is_only_for_server_json():
    for name in ("filesystem-tools.json", "time-session.json", "tools-list-error.json", "truncated-tools.json"):
        assert server_info(*fixture(name)) is None
    assert server_info("server.json", b'[{"name": "x"}]') is None


# -- sniff --------------------------------------------------------------------------------------------------


def test_sniff_accepts_every_fixture():
    for path in sorted(FIXTURES.rglob("*.json")):
        name = str(path.relative_to(FIXTURES))
        assert sniff(name, path.read_bytes()), name


@pytest.mark.parametrize(("path", "data"), [
    (".mcp.json", b'{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]}}}'),
    ("package.json", b'{"name": "x", "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}'),
    ("server.json", b'{"port": 3000, "routes": {"/api": "/"}}'),
    ("tools.yaml", b'tools:\n  - name: echo\n    inputSchema: {type: object}\n'),
    ("response.json", b'{"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "Invalid Request"}}'),
    ("openai-tools.json", b'{"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}'),
])
def test_sniff_leaves_other_files_alone(path, data):
    assert not sniff(path, data)


# -- robustness ---------------------------------------------------------------------------------------------


def _variants(data: bytes) -> list[bytes]:
    cuts = [data[:n] for n in range(0, len(data), max(1, len(data) // 23))]
    flips = [data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:] for i in range(0, len(data), max(1, len(data) // 31))]
    return cuts + flips + [data.replace(b'"', b"'", 3), data.replace(b"{", b"[", 2), b"\xff" + data]


@pytest.mark.parametrize("name", ["filesystem-tools.json", "time-session.json", "fetch-tools-list.json",
                                  "resources-list.json", "server.json", "malformed-tools.json"])
def test_read_never_raises(name):
    path, data = fixture(name)
    for variant in _variants(data):
        result = read(path, variant)
        assert all(isinstance(d, Declared) for d in result.operations)
        assert all(isinstance(p, Problem) and p.where for p in result.problems)
        info = server_info(path, variant)
        assert info is None or isinstance(info["name"], str)
