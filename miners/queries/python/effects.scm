; Candidate nodes for effects and hazards (python). miners/effects.py maps each call, through the
; file's imports, onto its tables (PY_CALLS, PY_METHODS, PY_HAZARDS).

; every call: subprocess.run([...]), open(p, "w"), cursor.execute("SELECT ..."), eval(src), getattr(o, n)
(call) @call

; os.environ[...], os.environ.get(...), `from os import environ` then environ[...]: found by effects.py
; from where the word "environ" occurs in the source, since a pattern over every attribute node
; cost a tenth of the file's query pass

; imports resolve aliases, gate method tables (sqlite3 imported -> .execute is SQL) and flag FFI (ctypes, cffi)
(import_statement) @import
(import_from_statement) @import
