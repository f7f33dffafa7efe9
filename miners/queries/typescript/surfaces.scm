; Candidate nodes for CLI commands, HTTP routes and MCP tools/resources (typescript).
; The query only collects; miners/surfaces.py resolves receivers, constants and literals.

; app.get('/x', h), program.command('x'), server.registerTool('x', {...}, h), require('express')
(call_expression) @call

; new Command('tool'), new McpServer(...), new Hono()
(new_expression) @new

; const app = express(); const TOOL = "search"; const remote = program.command('remote')
(variable_declarator) @declarator
(assignment_expression) @assignment

(import_statement) @import

; enum Tools { SEARCH = "search" }: tool names are often enum members
(enum_declaration) @enum
