; Candidate nodes for effects and hazards (javascript). miners/effects.py maps each call, through
; the file's imports and require() bindings, onto its tables (JS_CALLS, JS_METHODS, JS_HAZARDS).

; every call: fs.readFileSync(p), fetch(u), execSync('git push'), eval(s), require(x), import(x), $`git commit`
(call_expression) @call

; new Function(src), new WebSocket(u), new vm.Script(s)
(new_expression) @new

; process.env.X / process.env["X"] / const { TOKEN } = process.env: found by effects.py from where
; the word "process" occurs in the source (a pattern over every member expression cost a tenth of
; the file's query pass)

; import fs from "node:fs"; import "dotenv/config"
(import_statement) @import

; const fs = require("fs"); const { exec } = require("child_process")
(variable_declarator) @declarator
