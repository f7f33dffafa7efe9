; Candidate nodes for effects and hazards (go). miners/effects.py maps each call, through the
; file's import paths, onto its tables (GO_CALLS, GO_METHODS).

; os.ReadFile(p), exec.Command("git", "push"), http.Get(u), db.Query("SELECT ..."), plugin.Open(p)
(call_expression) @call

; import "C" (cgo), import "plugin", import "os/exec"
(import_spec) @import
