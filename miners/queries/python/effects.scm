; Candidate nodes for effects and hazards (python). miners/effects.py maps each call, through the
; file's imports, onto its tables (PY_CALLS, PY_METHODS, PY_HAZARDS).

; every call: subprocess.run([...]), open(p, "w"), cursor.execute("SELECT ..."), eval(src), getattr(o, n)
(call) @call

; os.environ[...] / os.environ.get(...) / "X" in os.environ: reading the environment without a call
((attribute attribute: (identifier) @_environ) @environ
  (#eq? @_environ "environ"))

; `from os import environ` then environ[...]
((subscript value: (identifier) @_name) @environ_name
  (#eq? @_name "environ"))

; imports resolve aliases, gate method tables (sqlite3 imported -> .execute is SQL) and flag FFI (ctypes, cffi)
(import_statement) @import
(import_from_statement) @import
