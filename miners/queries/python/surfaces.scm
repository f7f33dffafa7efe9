; Candidate nodes for CLI commands, HTTP routes and MCP tools/resources (python).
; The query only collects; miners/surfaces.py decides what each node declares, because names,
; receivers and prefixes need the file's bindings (assignments, imports) to be resolved.

; decorators: @click.command(), @app.get("/x"), @mcp.tool(), ...
(decorated_definition) @decorated

; calls: argparse add_parser, typer add_typer/run, click add_command, django path(), mcp.add_tool, Tool(...)
(call) @call

; bindings: app = FastAPI(), mcp = FastMCP(...), sub = parser.add_subparsers(), NAME = "constant"
(assignment) @assignment

(import_statement) @import
(import_from_statement) @import
