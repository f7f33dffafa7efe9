"""Effects and hazards: calls that show what code does to the world (Capability effects such as
`filesystem.read`, `network.connect`, `process.spawn`), and constructs that blind static analysis
(eval, dynamic imports, reflection, FFI, native addons).

Table-driven: per language, a dict from the canonical callee (the import path it resolves to,
`subprocess.run`, `fs.readFileSync`, `os/exec.Command`) to a `Rule`, and a dict from a method
name to the rules that apply when the receiver's type is unknown (gated by what the file
imports, or by a pattern on the receiver). `Rule.special` names a refinement that reads the
arguments (open()'s mode, SQL text, a spawned `git commit`, an environment variable's name).
To extend coverage, add rows; the code walks calls and never needs to change for a new API.

Which calls: a row applies only to a call whose callee chain starts with the row's head (or with a
name imported from it) or names one of its methods, so for JS/TS and Python the extractor looks only
at the calls, imports and loads it finds from where those words occur (miners/words.py), not at
every call of the query pass; bench/check_skips.py checks that this finds what every call would.

Confidence: ~0.95 for APIs that do one thing (fs.writeFileSync, subprocess.run); ~0.7-0.85 for
method calls recognised by name under an import gate (cursor.execute with sqlite3 imported);
~0.3-0.6 for what is plausible but unproven (a non-literal SQL string, a name that looks secret).
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any

from miners.effect_gate import JsGate, PyGate
from miners.facts import EffectHit, HazardHit, ParsedFile
from miners.parsing import fast_text
from miners.python_imports import python_imports
from miners.surfaces import collect_file, go_string, js_args, js_string, line_of, py_args, py_string
from miners.words import JS_CALLEES, PY_CALLEES, chain_call, nodes, present


@dataclass(frozen=True)
class Rule:
    effects: tuple[tuple[str, float], ...]
    special: str | None = None  # "open-mode", "sql", "spawn", "env-key", "dotenv-path", "path-env"
    modules: tuple[str, ...] = ()  # method rules: the file must import one of these (prefix match)
    receiver: str | None = None  # method rules: a regex the receiver's text must match (re.search)


def _r(*effects: tuple[str, float], special: str | None = None, modules: tuple[str, ...] = (),
       receiver: str | None = None) -> Rule:
    return Rule(tuple(effects), special, modules, receiver)


READ, WRITE = "filesystem.read", "filesystem.write"
NET, SPAWN, ENV, SECRET = "network.connect", "process.spawn", "environment.read", "secrets.read"
DB_READ, DB_WRITE, EMAIL = "database.read", "database.write", "email.send"
GIT_COMMIT, GIT_PUSH = "git.commit", "git.push"

FS_READ, FS_WRITE = _r((READ, 0.95)), _r((WRITE, 0.95))
FS_COPY = _r((READ, 0.9), (WRITE, 0.95))  # a copy reads its source and writes its destination
NETWORK, PROCESS = _r((NET, 0.95)), _r((SPAWN, 0.95), special="spawn")  # spawned git commit/push: see _spawn

# --- Python -----------------------------------------------------------------------------------------------
# Keys are canonical dotted names after import aliases are resolved (`import subprocess as sp` ->
# sp.run is subprocess.run). "pkg.*" matches one more lower-case segment (functions, not classes or
# exceptions: requests.get yes, requests.HTTPError no); "os.exec*" matches os.execv, os.execlp, ...

PY_CALLS: dict[str, Rule] = {
    # filesystem: open() reads unless its mode writes (see _open_mode); a literal ".env" path is a secret read
    "open": _r((READ, 0.9), special="open-mode"), "io.open": _r((READ, 0.9), special="open-mode"),
    "codecs.open": _r((READ, 0.9), special="open-mode"),
    "os.listdir": _r((READ, 0.7)), "os.scandir": _r((READ, 0.7)), "os.walk": _r((READ, 0.7)),
    "glob.glob": _r((READ, 0.6)), "glob.iglob": _r((READ, 0.6)),
    "os.remove": FS_WRITE, "os.unlink": FS_WRITE, "os.rename": FS_WRITE, "os.replace": FS_WRITE,
    "os.rmdir": FS_WRITE, "os.removedirs": FS_WRITE, "os.mkdir": FS_WRITE, "os.makedirs": FS_WRITE,
    "os.chmod": FS_WRITE, "os.chown": FS_WRITE, "os.symlink": FS_WRITE, "os.link": FS_WRITE, "os.truncate": FS_WRITE,
    "shutil.copy": FS_COPY, "shutil.copy2": FS_COPY, "shutil.copyfile": FS_COPY, "shutil.copytree": FS_COPY,
    "shutil.*": FS_WRITE,  # rmtree, move, make_archive, unpack_archive, chown...
    "tempfile.mkstemp": _r((WRITE, 0.6)), "tempfile.mkdtemp": _r((WRITE, 0.6)),
    "tempfile.NamedTemporaryFile": _r((WRITE, 0.6)), "tempfile.TemporaryDirectory": _r((WRITE, 0.6)),
    # network
    "requests.*": NETWORK, "requests.Session": _r((NET, 0.7)), "httpx.*": NETWORK,
    "httpx.Client": _r((NET, 0.8)), "httpx.AsyncClient": _r((NET, 0.8)),
    "urllib.request.urlopen": NETWORK, "urllib.request.urlretrieve": _r((NET, 0.95), (WRITE, 0.8)),
    "urllib3.request": NETWORK, "urllib3.PoolManager": _r((NET, 0.8)),
    "aiohttp.request": NETWORK, "aiohttp.ClientSession": _r((NET, 0.9)),
    "socket.create_connection": NETWORK, "socket.socket": _r((NET, 0.6)),
    "http.client.HTTPConnection": _r((NET, 0.9)), "http.client.HTTPSConnection": _r((NET, 0.9)),
    "ftplib.FTP": _r((NET, 0.9)), "websockets.connect": NETWORK, "websocket.create_connection": NETWORK,
    "paramiko.SSHClient": _r((NET, 0.8)), "grpc.insecure_channel": NETWORK, "grpc.secure_channel": NETWORK,
    # processes
    "subprocess.*": PROCESS, "subprocess.Popen": PROCESS, "os.system": PROCESS, "os.popen": PROCESS,
    "os.exec*": PROCESS, "os.spawn*": PROCESS, "os.posix_spawn": PROCESS, "os.posix_spawnp": PROCESS,
    "os.startfile": PROCESS, "pty.spawn": PROCESS, "asyncio.create_subprocess_exec": PROCESS,
    "asyncio.create_subprocess_shell": PROCESS, "sh.Command": PROCESS, "pexpect.spawn": PROCESS, "pexpect.run": PROCESS,
    "plumbum.local": _r((SPAWN, 0.7)),
    # environment (os.environ[...] is found without a call; see PyEffects.environ)
    "os.getenv": _r((ENV, 0.95), special="env-key"), "os.getenvb": _r((ENV, 0.95), special="env-key"),
    "dotenv.load_dotenv": _r((ENV, 0.8), (SECRET, 0.5), (READ, 0.8)),  # .env files usually hold credentials
    "dotenv.dotenv_values": _r((SECRET, 0.5), (READ, 0.8)),
    # secrets
    "keyring.get_password": _r((SECRET, 0.95)), "keyring.get_credential": _r((SECRET, 0.95)),
    "keyring.*": _r((SECRET, 0.7)), "getpass.getpass": _r((SECRET, 0.6)),
    # (databases: DB-API execute is a method, see PY_METHODS; execute(text("SELECT ...")) reads its verb)
    # email
    "smtplib.SMTP": _r((EMAIL, 0.6), (NET, 0.9)), "smtplib.SMTP_SSL": _r((EMAIL, 0.6), (NET, 0.9)),
    "yagmail.SMTP": _r((EMAIL, 0.7), (NET, 0.9)),
}

PY_DB_MODULES = ("sqlite3", "psycopg", "psycopg2", "pymysql", "MySQLdb", "mysql", "sqlalchemy", "asyncpg",
                 "aiosqlite", "duckdb", "databases", "pyodbc", "cx_Oracle", "oracledb", "django.db", "pymssql")
PY_GIT_MODULES = ("git", "pygit2")

# Method calls on receivers of unknown type: recognised by name, only under an import gate or a receiver pattern.
PY_METHODS: dict[str, list[Rule]] = {
    "read_text": [_r((READ, 0.8))], "read_bytes": [_r((READ, 0.8))],  # pathlib.Path
    "write_text": [_r((WRITE, 0.85))], "write_bytes": [_r((WRITE, 0.85))],
    "open": [_r((READ, 0.7), special="open-mode", modules=("pathlib",), receiver=r"(?i)path|^Path\(")],
    "mkdir": [_r((WRITE, 0.7), modules=("pathlib",))], "touch": [_r((WRITE, 0.7), modules=("pathlib",))],
    "unlink": [_r((WRITE, 0.7), modules=("pathlib",))], "rmdir": [_r((WRITE, 0.7), modules=("pathlib",))],
    "iterdir": [_r((READ, 0.6), modules=("pathlib",))],
    # DB-API: the SQL text decides read or write (see _sql)
    "execute": [_r(special="sql", modules=PY_DB_MODULES)], "executemany": [_r((DB_WRITE, 0.8), modules=PY_DB_MODULES)],
    "executescript": [_r((DB_READ, 0.4), (DB_WRITE, 0.7), modules=PY_DB_MODULES)],
    "fetch": [_r((DB_READ, 0.7), special="sql", modules=("asyncpg", "databases"))],
    "fetchrow": [_r((DB_READ, 0.8), modules=("asyncpg",))], "fetchval": [_r((DB_READ, 0.8), modules=("asyncpg",))],
    "query": [_r((DB_READ, 0.6), modules=("sqlalchemy",), receiver=r"(?i)session")],
    "scalars": [_r((DB_READ, 0.6), modules=("sqlalchemy",), receiver=r"(?i)session")],
    "add": [_r((DB_WRITE, 0.6), modules=("sqlalchemy",), receiver=r"(?i)session")],
    "delete": [_r((DB_WRITE, 0.6), modules=("sqlalchemy",), receiver=r"(?i)session")],
    # email
    "sendmail": [_r((EMAIL, 0.9), modules=("smtplib",)), _r((EMAIL, 0.6))],
    "send_message": [_r((EMAIL, 0.9), modules=("smtplib",))],
    # git: GitPython repo.index.commit / repo.git.commit / origin.push; pygit2 repo.create_commit / remote.push
    "commit": [_r((GIT_COMMIT, 0.9), modules=PY_GIT_MODULES, receiver=r"(^|\.)(index|git)$"),
               _r((DB_WRITE, 0.6), modules=("sqlalchemy", "sqlite3", "psycopg", "psycopg2", "pymysql"),
                  receiver=r"(?i)(session|conn|connection|db)$")],
    "create_commit": [_r((GIT_COMMIT, 0.9), modules=("pygit2",))],
    "push": [_r((GIT_PUSH, 0.85), (NET, 0.8), modules=PY_GIT_MODULES, receiver=r"(?i)(remote|origin|(^|\.)git$)")],
    "get_password": [_r((SECRET, 0.9), modules=("keyring",))],
}

# calls that blind static analysis: canonical name -> (hazard kind, only when the argument at index is not literal)
PY_HAZARDS: dict[str, tuple[str, int | None]] = {
    "eval": ("eval", None), "exec": ("eval", None), "compile": ("eval", None),
    "__import__": ("dynamic-import", None),
    "importlib.import_module": ("dynamic-import", 0), "importlib.__import__": ("dynamic-import", 0),
    "runpy.run_path": ("dynamic-import", None), "runpy.run_module": ("dynamic-import", 0),
    "getattr": ("reflection", 1), "setattr": ("reflection", 1), "delattr": ("reflection", 1),
    "ctypes.CDLL": ("ffi", None), "ctypes.WinDLL": ("ffi", None), "ctypes.PyDLL": ("ffi", None),
    "ctypes.cdll.LoadLibrary": ("ffi", None), "ctypes.util.find_library": ("ffi", None),
    "cffi.FFI": ("ffi", None),
}
PY_FFI_MODULES = ("ctypes", "cffi")  # importing them is itself a hazard: calls through them are opaque

# --- JavaScript / TypeScript ------------------------------------------------------------------------------
# Keys are "module.member" after require()/import bindings are resolved (`const { exec: run } =
# require("node:child_process")` -> run(...) is child_process.exec), with module names normalised
# (JS_MODULE_ALIASES). A bare module key ("axios", "execa") is the module called as a function.

JS_MODULE_ALIASES = {"fs/promises": "fs", "fs-extra": "fs", "graceful-fs": "fs", "original-fs": "fs",
                     "child_process": "child_process", "node-fetch": "fetch", "cross-fetch": "fetch",
                     "isomorphic-fetch": "fetch", "cross-spawn": "child_process.spawn"}

JS_CALLS: dict[str, Rule] = {
    "fs.readFile": FS_READ, "fs.readFileSync": FS_READ, "fs.createReadStream": FS_READ,
    "fs.readdir": _r((READ, 0.85)), "fs.readdirSync": _r((READ, 0.85)), "fs.opendir": _r((READ, 0.85)),
    "fs.readJson": FS_READ, "fs.readJsonSync": FS_READ, "fs.readlink": _r((READ, 0.7)),
    "fs.writeFile": FS_WRITE, "fs.writeFileSync": FS_WRITE, "fs.appendFile": FS_WRITE,
    "fs.appendFileSync": FS_WRITE, "fs.createWriteStream": FS_WRITE, "fs.mkdir": FS_WRITE, "fs.mkdirSync": FS_WRITE,
    "fs.mkdtemp": FS_WRITE, "fs.mkdtempSync": FS_WRITE, "fs.rm": FS_WRITE, "fs.rmSync": FS_WRITE,
    "fs.rmdir": FS_WRITE, "fs.rmdirSync": FS_WRITE, "fs.unlink": FS_WRITE, "fs.unlinkSync": FS_WRITE,
    "fs.rename": FS_WRITE, "fs.renameSync": FS_WRITE, "fs.copyFile": FS_COPY, "fs.copyFileSync": FS_COPY,
    "fs.cp": FS_COPY, "fs.cpSync": FS_COPY, "fs.symlink": FS_WRITE, "fs.symlinkSync": FS_WRITE,
    "fs.truncate": FS_WRITE, "fs.chmod": FS_WRITE, "fs.chmodSync": FS_WRITE,
    "fs.outputFile": FS_WRITE, "fs.outputJson": FS_WRITE, "fs.writeJson": FS_WRITE, "fs.writeJsonSync": FS_WRITE,
    "fs.remove": FS_WRITE, "fs.removeSync": FS_WRITE, "fs.emptyDir": FS_WRITE, "fs.ensureDir": FS_WRITE,
    "fs.ensureDirSync": FS_WRITE, "fs.copy": FS_COPY, "fs.copySync": FS_COPY, "fs.move": FS_WRITE,
    "fs.open": _r((READ, 0.5), (WRITE, 0.5)), "fs.openSync": _r((READ, 0.5), (WRITE, 0.5)),
    "rimraf": FS_WRITE, "rimraf.rimraf": FS_WRITE, "mkdirp": FS_WRITE, "mkdirp.mkdirp": FS_WRITE,
    "del.deleteAsync": FS_WRITE, "Bun.write": FS_WRITE, "Bun.file": _r((READ, 0.7)),
    "Deno.readTextFile": FS_READ, "Deno.readFile": FS_READ, "Deno.writeTextFile": FS_WRITE, "Deno.writeFile": FS_WRITE,
    # network
    "fetch": _r((NET, 0.9)), "axios": NETWORK, "axios.*": NETWORK, "axios.create": _r((NET, 0.7)),
    "http.request": NETWORK, "http.get": NETWORK, "https.request": NETWORK, "https.get": NETWORK,
    "http2.connect": NETWORK, "net.connect": NETWORK, "net.createConnection": NETWORK, "tls.connect": NETWORK,
    "dgram.createSocket": _r((NET, 0.7)), "got": NETWORK, "got.*": NETWORK, "ky": NETWORK, "ky.*": NETWORK,
    "undici.request": NETWORK, "undici.fetch": NETWORK, "superagent.*": NETWORK, "needle": NETWORK,
    "needle.*": NETWORK, "new WebSocket": _r((NET, 0.85)), "new ws": _r((NET, 0.85)),
    "new EventSource": _r((NET, 0.85)), "new XMLHttpRequest": _r((NET, 0.8)),
    # processes
    "child_process.*": PROCESS, "child_process.spawn": PROCESS, "execa": PROCESS, "execa.*": PROCESS,
    "shelljs.exec": PROCESS, "zx.$": PROCESS, "Bun.spawn": PROCESS, "Bun.spawnSync": PROCESS,
    "new Deno.Command": PROCESS, "Deno.run": PROCESS,
    # environment (process.env is found without a call; see JsEffects.environ)
    "Deno.env.get": _r((ENV, 0.95), special="env-key"), "dotenv.config": _r((ENV, 0.8), (SECRET, 0.5), (READ, 0.8)),
    # secrets
    "keytar.getPassword": _r((SECRET, 0.95)), "keytar.findCredentials": _r((SECRET, 0.95)),
    "keytar.*": _r((SECRET, 0.7)),
    # email
    "nodemailer.createTransport": _r((EMAIL, 0.5), (NET, 0.7)),
    "@sendgrid/mail.send": _r((EMAIL, 0.9), (NET, 0.9)),
    # databases: SQL tagged templates (postgres.js, @vercel/postgres, slonik) show their verb
    "sql": _r(special="sql"),
}

JS_SQL_MODULES = ("pg", "mysql", "mysql2", "better-sqlite3", "sqlite3", "sqlite", "node:sqlite", "postgres",
                  "@neondatabase/serverless", "@vercel/postgres", "@libsql/client", "@planetscale/database", "mssql",
                  "oracledb", "tedious", "bun:sqlite", "sequelize", "typeorm", "drizzle-orm", "kysely")
JS_ORM_MODULES = ("mongoose", "mongodb", "@prisma/client", "sequelize", "typeorm", "@mikro-orm/core")
JS_KNEX = ("knex",)
JS_GIT_MODULES = ("simple-git", "isomorphic-git", "nodegit")

_ORM_READ = _r((DB_READ, 0.75), modules=JS_ORM_MODULES)
_ORM_WRITE = _r((DB_WRITE, 0.75), modules=JS_ORM_MODULES)
JS_METHODS: dict[str, list[Rule]] = {
    # SQL drivers: the SQL text decides read or write (see _sql)
    "query": [_r(special="sql", modules=JS_SQL_MODULES)], "execute": [_r(special="sql", modules=JS_SQL_MODULES)],
    "prepare": [_r(special="sql", modules=JS_SQL_MODULES)], "exec": [_r(special="sql", modules=JS_SQL_MODULES)],
    "$queryRaw": [_r((DB_READ, 0.85), special="sql")], "$queryRawUnsafe": [_r((DB_READ, 0.8), special="sql")],
    "$executeRaw": [_r((DB_WRITE, 0.85), special="sql")], "$executeRawUnsafe": [_r((DB_WRITE, 0.8), special="sql")],
    # mongoose / mongodb / prisma / sequelize / typeorm models
    **{m: [_ORM_READ] for m in ("find", "findOne", "findById", "findMany", "findUnique", "findFirst",
                                "findUniqueOrThrow", "findFirstOrThrow", "findAll", "findByPk", "findOneBy",
                                "countDocuments", "aggregate", "groupBy", "distinct", "findAndCountAll")},
    **{m: [_ORM_WRITE] for m in ("insertOne", "insertMany", "updateOne", "updateMany", "deleteOne", "deleteMany",
                                 "findOneAndUpdate", "findByIdAndUpdate", "findOneAndDelete", "findByIdAndDelete",
                                 "replaceOne", "bulkWrite", "createMany", "upsert", "bulkCreate", "destroy")},
    "create": [_ORM_WRITE], "update": [_ORM_WRITE, _r((DB_WRITE, 0.7), modules=JS_KNEX)],
    "save": [_ORM_WRITE], "delete": [_ORM_WRITE],
    # knex query builder
    "select": [_r((DB_READ, 0.7), modules=JS_KNEX)], "first": [_r((DB_READ, 0.7), modules=JS_KNEX)],
    "pluck": [_r((DB_READ, 0.7), modules=JS_KNEX)], "insert": [_r((DB_WRITE, 0.75), modules=JS_KNEX)],
    "del": [_r((DB_WRITE, 0.75), modules=JS_KNEX)], "truncate": [_r((DB_WRITE, 0.75), modules=JS_KNEX)],
    "raw": [_r(special="sql", modules=JS_KNEX)],
    # email
    "sendMail": [_r((EMAIL, 0.9), (NET, 0.8), modules=("nodemailer",)), _r((EMAIL, 0.6))],
    # git libraries
    "commit": [_r((GIT_COMMIT, 0.9), modules=JS_GIT_MODULES)],
    "push": [_r((GIT_PUSH, 0.9), (NET, 0.8), modules=JS_GIT_MODULES, receiver=r"(?i)git|repo|remote")],
    # secrets
    "getPassword": [_r((SECRET, 0.9), modules=("keytar",))],
}

JS_HAZARDS: dict[str, tuple[str, int | None]] = {
    "eval": ("eval", None), "Function": ("eval", None), "new Function": ("eval", None),
    "vm.runInThisContext": ("eval", None), "vm.runInNewContext": ("eval", None), "vm.runInContext": ("eval", None),
    "vm.compileFunction": ("eval", None), "new vm.Script": ("eval", None), "new vm.SourceTextModule": ("eval", None),
    "setTimeout": ("eval", -1), "setInterval": ("eval", -1),  # -1: only with a string first argument
    "Reflect.get": ("reflection", 1), "Reflect.apply": ("reflection", None), "Reflect.construct": ("reflection", None),
    "process.dlopen": ("native-addon", None), "bindings": ("native-addon", None),
    "node-gyp-build": ("native-addon", None), "module.createRequire": ("dynamic-import", None),
}
JS_FFI_MODULES = ("ffi-napi", "ffi", "koffi", "ffi-rs", "ref-napi", "node-ffi", "@napi-ffi/ffi-napi")
JS_NATIVE_MODULES = ("bindings", "node-gyp-build", "node-addon-api", "prebuild-install")

# --- Go ---------------------------------------------------------------------------------------------------
# Keys are "<import path>.<Func>": os.ReadFile, os/exec.Command, net/http.Get.

GO_CALLS: dict[str, Rule] = {
    "os.ReadFile": FS_READ, "os.Open": FS_READ, "os.ReadDir": _r((READ, 0.85)), "io/ioutil.ReadFile": FS_READ,
    "io/ioutil.ReadDir": _r((READ, 0.85)), "os.OpenFile": _r((READ, 0.6), (WRITE, 0.7)),
    "os.WriteFile": FS_WRITE, "io/ioutil.WriteFile": FS_WRITE, "os.Create": FS_WRITE, "os.Remove": FS_WRITE,
    "os.RemoveAll": FS_WRITE, "os.Mkdir": FS_WRITE, "os.MkdirAll": FS_WRITE, "os.Rename": FS_WRITE,
    "os.Chmod": FS_WRITE, "os.Symlink": FS_WRITE, "os.MkdirTemp": FS_WRITE, "os.CreateTemp": FS_WRITE,
    "net/http.Get": NETWORK, "net/http.Post": NETWORK, "net/http.Head": NETWORK, "net/http.PostForm": NETWORK,
    "net.Dial": NETWORK, "net.DialTimeout": NETWORK, "net.DialTCP": NETWORK, "net.DialUDP": NETWORK,
    "crypto/tls.Dial": NETWORK, "google.golang.org/grpc.Dial": NETWORK, "google.golang.org/grpc.NewClient": NETWORK,
    "os/exec.Command": PROCESS, "os/exec.CommandContext": PROCESS, "syscall.Exec": PROCESS,
    "os.StartProcess": PROCESS, "syscall.ForkExec": PROCESS,
    "os.Getenv": _r((ENV, 0.95), special="env-key"), "os.LookupEnv": _r((ENV, 0.95), special="env-key"),
    "os.Environ": _r((ENV, 0.95)), "github.com/joho/godotenv.Load": _r((ENV, 0.8), (SECRET, 0.5), (READ, 0.8)),
    "net/smtp.SendMail": _r((EMAIL, 0.95), (NET, 0.9)), "net/smtp.Dial": _r((EMAIL, 0.6), (NET, 0.9)),
    "github.com/zalando/go-keyring.Get": _r((SECRET, 0.95)),
}
GO_SQL = ("database/sql", "github.com/jmoiron/sqlx", "github.com/jackc/pgx", "gorm.io/gorm")
GO_METHODS: dict[str, list[Rule]] = {
    **{m: [_r(special="sql", modules=GO_SQL)] for m in ("Query", "QueryRow", "QueryContext", "QueryRowContext",
                                                          "Exec", "ExecContext", "Prepare", "PrepareContext")},
    "Do": [_r((NET, 0.7), modules=("net/http",), receiver=r"(?i)client|http")],
    "Commit": [_r((GIT_COMMIT, 0.9), modules=("github.com/go-git/go-git",), receiver=r"(?i)tree|wt")],
    "Push": [_r((GIT_PUSH, 0.9), (NET, 0.8), modules=("github.com/go-git/go-git",), receiver=r"(?i)repo|remote")],
}
GO_HAZARDS: dict[str, tuple[str, int | None]] = {
    "plugin.Open": ("native-addon", None), "reflect.Value.MethodByName": ("reflection", 0),
}
GO_FFI_IMPORTS = {"C": "ffi", "unsafe": "ffi", "plugin": "native-addon"}  # cgo, raw memory, .so plugins


# --- shared -----------------------------------------------------------------------------------------------

SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|CREDENTIAL|ACCESS_?KEY|AUTH", re.I)
SQL_WRITE = re.compile(r"^\W*(insert|update|delete|replace|upsert|merge|create|drop|alter|truncate|grant|revoke)\b",
                       re.I)
SQL_READ = re.compile(r"^\W*(select|show|describe|explain|pragma|values)\b", re.I)
SQL_WITH = re.compile(r"^\W*with\b", re.I)


_WILDCARDS: dict[int, dict[str, list[tuple[str, Any]]]] = {}
_SQL_WRITES = re.compile(r"\b(insert|update|delete)\b", re.I)
_DOTTED = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*")
_GO_MAJOR = re.compile(r"v\d+")
_PY_STRING_PREFIX = re.compile(r"^[A-Za-z]*('''|\"\"\"|'|\")")
_RECEIVERS: dict[str, re.Pattern[str]] = {}


def identifiers(pf: ParsedFile, word: bytes) -> list[Any]:
    """The identifier nodes spelled `word`, in source order, found from where the word occurs in
    the source (cheaper than a query pattern over every node of a kind that might hold one)."""
    return [node for node in nodes(pf.source, pf.tree.root_node, word)
            if node.type in ("identifier", "property_identifier")]


def _nospace(text: str) -> str:
    """The text without whitespace, as `re.sub(r"\\s+", "", text)` gives it (str.split and `\\s` agree)."""
    if " " not in text and "\n" not in text and "\t" not in text and "\r" not in text and "\f" not in text \
            and "\v" not in text and text.isascii():
        return text  # most callees: no whitespace to take out
    return "".join(text.split())


def lookup(table: dict[str, Any], name: str) -> Any:
    """The row for `name`: exact, else the longest "prefix*" row matching one more lower-case segment."""
    if name in table:
        return table[name]
    wild = _WILDCARDS.get(id(table))
    if wild is None:  # the tables are module constants: index their "prefix*" rows once, by the part
        wild = _WILDCARDS[id(table)] = {}  # up to their last dot, longest prefix first
        for key, row in table.items():
            if key.endswith("*"):
                prefix = key[:-1]
                wild.setdefault(prefix[:prefix.rfind(".") + 1], []).append((prefix, row))
        for rows in wild.values():
            rows.sort(key=lambda r: -len(r[0]))
    if not wild:
        return None
    # a matching prefix ends after the name's last dot (the rest stays within one segment), so it
    # shares the name's head up to that dot
    rows = wild.get(name[:name.rfind(".") + 1])
    if rows is None:
        return None
    for prefix, row in rows:
        if len(prefix) < len(name) and name.startswith(prefix) and not name[len(prefix)].isupper():
            return row
    return None


def sql_effects(sql: str | None, gated: bool) -> list[tuple[str, float]]:
    """database.read/write from SQL text; unknown text -> both, low (only when a DB module is imported)."""
    if sql is not None:
        text = sql.strip()
        if SQL_WRITE.search(text):
            return [(DB_WRITE, 0.85 if gated else 0.6)]
        if SQL_WITH.search(text):
            writes = _SQL_WRITES.search(text)
            return [(DB_WRITE if writes else DB_READ, 0.8 if gated else 0.55)]
        if SQL_READ.search(text):
            return [(DB_READ, 0.85 if gated else 0.6)]
    return [(DB_READ, 0.3), (DB_WRITE, 0.3)] if gated else []


def git_effects(tokens: list[str]) -> list[tuple[str, float]]:
    """A spawned `git commit` / `git push` from the literal words of its command line."""
    out = []
    gits = [i for i, t in enumerate(tokens) if t == "git" or t.endswith("/git") or t == "git.exe"]
    if gits:
        after = tokens[gits[0] + 1:]
        if "commit" in after:
            out.append((GIT_COMMIT, 0.9))
        if "push" in after:
            out.append((GIT_PUSH, 0.9))
            out.append((NET, 0.8))
    return out


_HEADS: dict[int, tuple[frozenset[str], tuple[str, ...]]] = {}


def table_heads(*tables: dict[str, Any]) -> tuple[frozenset[str], tuple[str, ...]]:
    """(the first segment of every row's name, the dotless "prefix*" rows' prefixes): a call whose
    name starts with none of them can match no row, which rejects most calls after one lookup."""
    key = id(tables[0])
    if key not in _HEADS:
        names = [name.removeprefix("new ") for table in tables for name in table]
        _HEADS[key] = (frozenset(n.split(".", 1)[0].rstrip("*") for n in names),
                       tuple(n[:-1] for n in names if n.endswith("*") and "." not in n))
    return _HEADS[key]


_ENCODED: dict[int, frozenset[bytes]] = {}


def _encoded(names: Any) -> frozenset[bytes]:
    """A table's names (or heads) as bytes, worked out once per table."""
    key = id(names)
    if key not in _ENCODED:
        _ENCODED[key] = frozenset(name.encode() for name in names)
    return _ENCODED[key]


_source_order = operator.attrgetter("start_byte", "end_byte")  # as the query pass orders captures (surfaces.collect_file)
_PROPERTY = {"member_expression": "property", "attribute": "attribute"}
_PY_IMPORTS = ("import_statement", "import_from_statement")


def _declarator_of(load: Any) -> Any:
    """The declarator a load's value is bound by (`const fs = require("fs")`, `const { exec } =
    await import("x")`, `const e = require("x").exec`), else None."""
    node = load
    while node.parent is not None and node.parent.type in ("await_expression", "parenthesized_expression"):
        node = node.parent
    parent = node.parent
    if parent is not None and parent.type == "member_expression" and parent.child_by_field_name("object") == node:
        node, parent = parent, parent.parent
    if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
        return parent
    return None


def _modules_match(imported: set[str], wanted: tuple[str, ...]) -> bool:
    return any(m == w or m.startswith(w + ".") or m.startswith(w + "/") for m in imported for w in wanted)


class _Base:
    calls_table: dict[str, Rule]
    methods_table: dict[str, list[Rule]]
    hazards_table: dict[str, tuple[str, int | None]]

    def __init__(self, pf: ParsedFile) -> None:
        self.pf = pf
        self.modules: set[str] = set()
        self.effects: list[EffectHit] = []
        self.hazards: list[HazardHit] = []
        self.seen: set[tuple[str, int]] = set()
        self._methods: dict[str, bool] = {}

    def hit(self, effect: str, confidence: float, node: Any, call: str) -> None:
        if (effect, node.start_byte) in self.seen:
            return
        self.seen.add((effect, node.start_byte))
        self.effects.append(EffectHit(effect=effect, confidence=round(confidence, 2), line=line_of(node), call=call,
                                      start_byte=node.start_byte))

    def hazard(self, kind: str, detail: str, node: Any) -> None:
        self.hazards.append(HazardHit(kind=kind, detail=detail, line=line_of(node)))

    names: dict[str, str]  # local name -> what it was imported as

    def heads_a_row(self, raw: str) -> bool:
        """Whether a call chain's leftmost name, as written or as imported, starts some row's name."""
        heads, prefixes = table_heads(self.calls_table, self.hazards_table)
        mapped = self.names.get(raw, raw).split(".", 1)[0]
        return raw in heads or mapped in heads or bool(prefixes) and (raw.startswith(prefixes)
                                                                      or mapped.startswith(prefixes))

    def named_calls(self, member: str, callees: dict[str, str], property_type: str) -> list[Any]:
        """The calls that `may_match` can let through, found from where their names occur rather
        than by looking at every call: those whose callee chain starts with a row's head or with a
        name imported from one, and those of a method some row may apply to. In source order, as
        the query pass gives calls (nodes that start together: innermost first)."""
        heads, prefixes = table_heads(self.calls_table, self.hazards_table)
        if prefixes:
            raise ValueError("a dotless wildcard row heads names no word search can list")
        source, root = self.pf.source, self.pf.tree.root_node
        found_words = present(self.pf)  # the words the file has: only they are looked for
        words = found_words.intersection(_encoded(heads))
        words.update(local.encode() for local, name in self.names.items() if name.split(".", 1)[0] in heads)
        found: dict[int, Any] = {}
        for word in words:
            for node in nodes(source, root, word):
                if node.type == "identifier":
                    call = chain_call(node, member, callees)
                    if call is not None:
                        found[call.id] = call
        for word in found_words.intersection(_encoded(self.methods_table)):
            if not self.method_may_apply(word.decode()):
                continue
            for node in nodes(source, root, word):
                attribute = node.parent
                if node.type == property_type and attribute is not None and attribute.type == member and \
                        attribute.child_by_field_name(_PROPERTY[member]) == node:
                    call = attribute.parent
                    if call is not None and call.type in callees and call.child_by_field_name(callees[call.type]) \
                            == attribute:
                        found[call.id] = call
        return sorted(found.values(), key=_source_order)

    def method_may_apply(self, method: str) -> bool:
        """Whether some row for the method could apply in this file: most method rows need a module
        imported (`.find` is an ORM query only where the ORM is), so `[].find(...)` stops here."""
        ok = self._methods.get(method)
        if ok is None:
            ok = self._methods[method] = any(not rule.modules or _modules_match(self.modules, rule.modules)
                                             for rule in self.methods_table.get(method, ()))
        return ok

    def method_rule(self, method: str, receiver: str) -> Rule | None:
        for rule in self.methods_table.get(method, []):
            if rule.modules and not _modules_match(self.modules, rule.modules):
                continue
            if rule.receiver and not (_RECEIVERS.get(rule.receiver) or _RECEIVERS.setdefault(
                    rule.receiver, re.compile(rule.receiver))).search(receiver):
                continue
            return rule
        return None

    def apply(self, rule: Rule, call: Any, written: str, args: Any) -> None:
        effects = list(rule.effects)
        if rule.special:
            effects = self.refine(rule, call, args, effects)
        for effect, confidence in effects:
            self.hit(effect, confidence, call, written)

    def refine(self, rule: Rule, call: Any, args: Any, effects: list[tuple[str, float]]) -> list[tuple[str, float]]:
        raise NotImplementedError


# --- Python -----------------------------------------------------------------------------------------------


class _PyEffects(_Base):
    calls_table, methods_table, hazards_table = PY_CALLS, PY_METHODS, PY_HAZARDS

    def __init__(self, pf: ParsedFile) -> None:
        super().__init__(pf)
        self.names: dict[str, str] = {}  # local name -> canonical dotted name
        imports = {node.parent.id: node.parent for node in nodes(pf.source, pf.tree.root_node, b"import")
                   if node.type == "import" and node.parent is not None and node.parent.type in _PY_IMPORTS}
        for node in sorted(imports.values(), key=_source_order):
            self._import(node)

    def _import(self, node: Any) -> None:
        modules, names = python_imports(self.pf, node)
        plain = node.type == "import_statement"
        self.modules.update(modules)
        self.names.update(names)
        if not plain:
            self.modules.update(names.values())
        for module in modules:
            if module.split(".")[0] in PY_FFI_MODULES:
                self.hazard("ffi", f"import {module}" if plain else f"from {module} import ...", node)

    def canonical(self, node: Any) -> str | None:
        """`sp.run` -> "subprocess.run" for a dotted callee of identifiers; None for anything else."""
        text = _nospace(self.pf.text(node))
        if not _DOTTED.fullmatch(text):
            return None
        head, _, rest = text.partition(".")
        head = self.names.get(head, head)
        return f"{head}.{rest}" if rest else head

    def run(self) -> tuple[list[EffectHit], list[HazardHit]]:
        for call in self.named_calls("attribute", PY_CALLEES, "identifier"):
            self.call(call)
        for ident in identifiers(self.pf, b"environ"):
            parent = ident.parent
            if parent is None:
                continue
            if parent.type == "attribute" and parent.child_by_field_name("attribute") == ident:
                obj = parent.child_by_field_name("object")
                if obj is not None and self.canonical(obj) == "os":
                    self.environ(parent)  # os.environ
            elif parent.type == "subscript" and parent.child_by_field_name("value") == ident and \
                    self.names.get("environ") == "os.environ":
                self.environ(ident)  # from os import environ; environ["X"]
        return self.effects, self.hazards

    def call(self, call: Any) -> None:
        function = call.child_by_field_name("function")
        if function is None or not self.may_match(function):
            return
        args = call.child_by_field_name("arguments")
        written = _nospace(self.pf.text(function))
        name = self.canonical(function)
        if name is not None:
            self.check_hazard(name, call, args)
            rule = lookup(self.calls_table, name) or (lookup(self.calls_table, written) if written != name else None)
            if rule is not None:
                self.apply(rule, call, written, args)
                return
        if function.type == "attribute":
            method = self.pf.text(function.child_by_field_name("attribute"))
            receiver = self.pf.text(function.child_by_field_name("object"))
            rule = self.method_rule(method, receiver)
            if rule is not None:
                self.apply(rule, call, written, args)

    def may_match(self, function: Any) -> bool:
        """Whether any table row could apply to a call of `function`: its leftmost name, as written
        or as imported, heads some row, or it is a method some row names."""
        node = function
        while node.type == "attribute":
            node = node.child_by_field_name("object")
        if node.type == "identifier" and self.heads_a_row(self.pf.text(node)):
            return True
        return function.type == "attribute" and \
            self.method_may_apply(self.pf.text(function.child_by_field_name("attribute")))

    def check_hazard(self, name: str, call: Any, args: Any) -> None:
        row = self.hazards_table.get(name)
        if row is None:
            return  # (a builtin shadowed by an import resolves to the import: from re import compile -> re.compile)
        kind, literal_index = row
        positional, keywords = py_args(args)
        if literal_index is not None:
            if len(positional) <= literal_index or py_string(self.pf, positional[literal_index]) is not None:
                return  # getattr(o, "name"), import_module("json"): statically known
        detail = self.pf.text(call)
        self.hazard(kind, detail if len(detail) <= 120 else detail[:117] + "...", call)

    def refine(self, rule: Rule, call: Any, args: Any, effects: list[tuple[str, float]]) -> list[tuple[str, float]]:
        positional, keywords = py_args(args)
        if rule.special == "open-mode":
            is_method = rule.modules == ("pathlib",)  # Path.open(mode): no path argument
            index = 0 if is_method else 1
            mode_node = keywords.get("mode") or (positional[index] if len(positional) > index else None)
            out = _open_mode("r" if mode_node is None else py_string(self.pf, mode_node))
            path = self._path_literal(call) if is_method else (py_string(self.pf, positional[0]) if positional
                                                                else None)
            if path is not None and path.rsplit("/", 1)[-1].startswith(".env"):
                out.append((SECRET, 0.6))  # reading a dotenv file: credentials
            return out
        if rule.special == "sql":
            sql = self.sql_text(positional[0]) if positional else None
            if sql is None and effects:
                return effects  # the method itself says read or write (asyncpg fetch)
            return sql_effects(sql, _modules_match(self.modules, PY_DB_MODULES))
        if rule.special == "spawn":
            return effects + git_effects(self.tokens(args))
        if rule.special == "env-key":
            key = py_string(self.pf, positional[0]) if positional else None
            return effects + ([(SECRET, 0.6)] if key and SECRET_NAME.search(key) else [])
        return effects

    def _path_literal(self, call: Any) -> str | None:
        # Path(".env").open(): the literal is in the receiver's constructor call
        function = call.child_by_field_name("function")
        receiver = function.child_by_field_name("object") if function is not None else None
        if receiver is not None and receiver.type == "call":
            positional, _ = py_args(receiver.child_by_field_name("arguments"))
            return py_string(self.pf, positional[0]) if positional else None
        return None

    def sql_text(self, node: Any) -> str | None:
        """The SQL of a literal (f-strings too: the verb is before any interpolation), or of text("...")."""
        if node.type == "call":
            positional, _ = py_args(node.child_by_field_name("arguments"))
            return self.sql_text(positional[0]) if positional else None
        if node.type in ("string", "concatenated_string"):
            return _PY_STRING_PREFIX.sub("", self.pf.text(node))
        return None

    def tokens(self, args: Any) -> list[str]:
        """Words of every string literal in a call's arguments, in order ("git commit -m x" -> 4 words)."""
        out: list[str] = []
        stack = [args] if args is not None else []
        while stack:
            node = stack.pop()
            value = py_string(self.pf, node)
            if value is not None:
                out.extend(value.split())
                continue
            stack.extend(reversed(node.named_children))
        return out

    def environ(self, node: Any) -> None:
        """os.environ read: `os.environ["X"]`, `os.environ.get("X")`, `"X" in os.environ`. Writes are not reads."""
        parent = node.parent
        key = None
        if parent is not None and parent.type == "subscript" and parent.child_by_field_name("value") == node:
            grand = parent.parent
            if grand is not None and grand.type in ("assignment", "augmented_assignment") and \
                    grand.child_by_field_name("left") == parent:
                return
            if grand is not None and grand.type == "delete_statement":
                return
            key = py_string(self.pf, parent.child_by_field_name("subscript"))
        elif parent is not None and parent.type == "attribute" and parent.parent is not None and \
                parent.parent.type == "call":
            method = self.pf.text(parent.child_by_field_name("attribute"))
            if method in ("update", "pop", "clear"):
                return
            positional, _ = py_args(parent.parent.child_by_field_name("arguments"))
            key = py_string(self.pf, positional[0]) if positional else None
        written = self.pf.text(node)
        self.hit(ENV, 0.95, node, written)
        if key and SECRET_NAME.search(key):
            self.hit(SECRET, 0.6, node, written)


def _open_mode(mode: str | None) -> list[tuple[str, float]]:
    if mode is None:  # a mode that is not literal: either
        return [(READ, 0.5), (WRITE, 0.5)]
    writes = any(c in mode for c in "wax+")
    reads = "r" in mode or "+" in mode or not writes
    return ([(READ, 0.9)] if reads else []) + ([(WRITE, 0.9)] if writes else [])


# --- JavaScript / TypeScript ------------------------------------------------------------------------------


def _js_module(specifier: str) -> str:
    name = specifier.removeprefix("node:")
    return JS_MODULE_ALIASES.get(name, name)


# a call of `require` itself matches no row and no hazard (its module is what dynamic_import checks)
_REQUIRE_INERT = lookup(JS_CALLS, "require") is None and "require" not in JS_HAZARDS


class _JsEffects(_Base):
    calls_table, methods_table, hazards_table = JS_CALLS, JS_METHODS, JS_HAZARDS

    def __init__(self, pf: ParsedFile) -> None:
        super().__init__(pf)
        self.names: dict[str, str] = {}  # local binding -> canonical ("fs", "child_process.exec", "execa.execa")
        # every import and every load (`require("x")`, `import("x")`) has its word: found from there
        imports: dict[int, Any] = {}
        self.loads: dict[int, Any] = {}
        root = pf.tree.root_node
        for word in (b"import", b"require"):
            for node in nodes(pf.source, root, word):
                parent = node.parent
                if parent is None:
                    continue
                if node.type == "import" and parent.type == "import_statement":
                    imports[parent.id] = parent
                elif node.type == "import" and parent.type == "import":  # import("x"): the callee is `import`
                    call = parent.parent
                    if call is not None and call.type == "call_expression" and \
                            call.child_by_field_name("function") == parent:
                        self.loads[call.id] = call
                elif node.type == "identifier" and parent.type == "call_expression" and \
                        parent.child_by_field_name("function") == node:
                    self.loads[parent.id] = parent
        for node in sorted(imports.values(), key=_source_order):
            self._import(node)
        declarators = {d.id: d for d in map(_declarator_of, self.loads.values()) if d is not None}
        for node in sorted(declarators.values(), key=_source_order):
            self._require(node)

    def _import(self, node: Any) -> None:
        source = js_string(self.pf, node.child_by_field_name("source"))
        if source is None:
            return
        module = _js_module(source)
        self.modules.update({source, module})
        self.module_hazard(source, node)
        if source in ("dotenv/config",):
            self.hit(ENV, 0.8, node, f'import "{source}"')
            self.hit(SECRET, 0.5, node, f'import "{source}"')
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        for child in clause.named_children if clause is not None else []:
            if child.type == "identifier":  # default import
                self.names[self.pf.text(child)] = module
            elif child.type == "namespace_import":
                ident = next((c for c in child.named_children if c.type == "identifier"), None)
                if ident is not None:
                    self.names[self.pf.text(ident)] = module
            elif child.type == "named_imports":
                for spec in child.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                    imported = self.pf.text(name)
                    local = self.pf.text(alias or name)
                    self.names[local] = module if imported == "default" else f"{module}.{imported}"

    def require_of(self, node: Any) -> str | None:
        """The module of `require("x")` (also `require("x").y`, `await import("x")`)."""
        while node is not None and node.type in ("await_expression", "parenthesized_expression"):
            node = node.named_child(0) if node.named_child_count else None
        if node is None or node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "import") or self.pf.text(function) not in (
                "require", "import"):
            return None
        args = js_args(node.child_by_field_name("arguments"))
        return js_string(self.pf, args[0]) if args else None

    def _require(self, node: Any) -> None:
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            return
        member = None
        if value.type == "member_expression":  # const exec = require("child_process").exec
            member = self.pf.text(value.child_by_field_name("property"))
            value = value.child_by_field_name("object")
        source = self.require_of(value)
        if source is None:
            return
        module = _js_module(source)
        self.modules.update({source, module})
        base = f"{module}.{member}" if member else module
        if name.type == "identifier":
            self.names[self.pf.text(name)] = base
        elif name.type == "object_pattern":
            for child in name.named_children:
                if child.type == "shorthand_property_identifier_pattern":
                    self.names[self.pf.text(child)] = f"{base}.{self.pf.text(child)}"
                elif child.type == "pair_pattern":
                    key, local = child.child_by_field_name("key"), child.child_by_field_name("value")
                    if local is not None and local.type == "identifier":
                        self.names[self.pf.text(local)] = f"{base}.{self.pf.text(key)}"

    def module_hazard(self, source: str, node: Any) -> None:
        if source in JS_FFI_MODULES:
            self.hazard("ffi", f"imports {source}", node)
        elif source in JS_NATIVE_MODULES:
            self.hazard("native-addon", f"imports {source}", node)
        elif source.endswith(".node"):
            self.hazard("native-addon", f"loads {source}", node)

    def canonical(self, node: Any) -> str | None:
        """`fs.promises.readFile` -> "fs.readFile"; `require("fs").readFileSync` -> "fs.readFileSync"."""
        if node.type == "member_expression":
            obj = node.child_by_field_name("object")
            prop = self.pf.text(node.child_by_field_name("property"))
            source = self.require_of(obj)
            head = _js_module(source) if source is not None else self.canonical(obj)
            if head is None:
                return None
            if prop == "promises" and head == "fs":
                return head
            return f"{head}.{prop}"
        if node.type == "identifier":
            name = self.pf.text(node)
            return self.names.get(name, name)
        if node.type == "this":
            return "this"
        return None

    def run(self) -> tuple[list[EffectHit], list[HazardHit]]:
        # the calls may_match lets through, and the loads (dynamic ones are hazards; `require("x").y()`
        # is a call of x.y), in source order as the query pass gave them: calls first, then `new`s
        found = {c.id: c for c in self.named_calls("member_expression", JS_CALLEES, "property_identifier")}
        for load in self.loads.values():
            found[load.id] = load
            outer = chain_call(load, "member_expression", JS_CALLEES)
            if outer is not None:
                found[outer.id] = outer
        ordered = sorted(found.values(), key=_source_order)
        for call in ordered:
            if call.type == "call_expression":
                self.call(call, call.child_by_field_name("function"), "")
        for node in ordered:
            if node.type == "new_expression":
                self.call(node, node.child_by_field_name("constructor"), "new ")
        for ident in identifiers(self.pf, b"process"):
            parent = ident.parent
            if parent is not None and parent.type == "member_expression" and \
                    parent.child_by_field_name("object") == ident and \
                    self.pf.text(parent.child_by_field_name("property")) == "env":
                self.environ(parent)  # process.env
        return self.effects, self.hazards

    def call(self, call: Any, function: Any, prefix: str) -> None:
        if function is None:
            return
        dynamic = function.type == "import" or not prefix and function.type == "identifier" and \
            self.pf.text(function) == "require"
        if not dynamic and not self.may_match(function):
            return
        args = call.child_by_field_name("arguments")
        arg_nodes = js_args(args) if args is not None and args.type == "arguments" else (
            [args] if args is not None else [])
        if dynamic:
            self.dynamic_import(call, function, arg_nodes)
            if function.type == "import" or _REQUIRE_INERT and "require" not in self.names:
                return  # `require` itself heads no row: only its module mattered
        written = _nospace(self.pf.text(function))
        name = self.canonical(function)
        if name is not None:
            name = prefix + name
            self.check_hazard(name, call, arg_nodes)
            rule = lookup(self.calls_table, name) or lookup(self.calls_table, prefix + written)
            if rule is not None:
                self.apply(rule, call, prefix + written, arg_nodes)
                return
        if function.type == "member_expression" and not prefix:
            method = self.pf.text(function.child_by_field_name("property"))
            receiver = self.pf.text(function.child_by_field_name("object"))
            rule = self.method_rule(method, receiver)
            if rule is not None:
                self.apply(rule, call, written, arg_nodes)

    def may_match(self, function: Any) -> bool:
        """Whether any table row could apply to a call of `function` (see _PyEffects.may_match); a
        chain that starts with require("x") or another call is always looked at in full."""
        node = function
        while node.type == "member_expression":
            node = node.child_by_field_name("object")
        if node.type == "identifier":
            if self.heads_a_row(self.pf.text(node)):
                return True
        elif node.type not in ("this", "super", "member_expression"):
            return True  # require("fs").readFileSync(...), (await import("x")).y(...)
        return function.type == "member_expression" and \
            self.method_may_apply(self.pf.text(function.child_by_field_name("property")))

    def dynamic_import(self, call: Any, function: Any, args: list[Any]) -> None:
        kind = "import()" if function.type == "import" else "require()"
        source = js_string(self.pf, args[0]) if args else None
        if source is None:
            if args:
                self.hazard("dynamic-import", f"{kind} of {self.pf.text(args[0])[:100]}", call)
        elif source.endswith(".node"):
            self.hazard("native-addon", f"{kind} of {source}", call)
        else:
            self.module_hazard(source, call)  # require("ffi-napi"), require("bindings")("addon")

    def check_hazard(self, name: str, call: Any, args: list[Any]) -> None:
        row = self.hazards_table.get(name)
        if row is None:
            return
        kind, literal_index = row
        if literal_index == -1:  # setTimeout("code", ms): a string is evaluated
            if not args or js_string(self.pf, args[0]) is None and (
                    not args or args[0].type not in ("string", "template_string")):
                return
        elif literal_index is not None:
            if len(args) <= literal_index or js_string(self.pf, args[literal_index]) is not None:
                return
        detail = self.pf.text(call)
        self.hazard(kind, detail if len(detail) <= 120 else detail[:117] + "...", call)

    def refine(self, rule: Rule, call: Any, args: Any, effects: list[tuple[str, float]]) -> list[tuple[str, float]]:
        if rule.special == "sql":
            first = args[0] if args else None
            # the verb shows even in a template with substitutions: `SELECT * FROM t WHERE id = ${id}`
            sql = self.pf.text(first)[1:] if first is not None and first.type in ("string", "template_string") else None
            if sql is None and effects:
                return effects  # the method itself says read or write (prisma.$queryRaw)
            return sql_effects(sql, _modules_match(self.modules, JS_SQL_MODULES + JS_KNEX + ("@prisma/client",)))
        if rule.special == "spawn":
            return effects + git_effects(self.tokens(args))
        if rule.special == "env-key":
            key = js_string(self.pf, args[0]) if args else None
            return effects + ([(SECRET, 0.6)] if key and SECRET_NAME.search(key) else [])
        return effects

    def tokens(self, args: list[Any]) -> list[str]:
        out: list[str] = []
        stack = list(reversed(args))
        while stack:
            node = stack.pop()
            if node.type in ("string", "template_string"):
                text = js_string(self.pf, node)
                if text is None:  # `git commit -m ${msg}`: the literal words still show the command
                    text = " ".join(self.pf.text(c) for c in node.children if c.type == "string_fragment")
                out.extend(text.split())
                continue
            stack.extend(reversed(node.named_children))
        return out

    def environ(self, node: Any) -> None:
        """process.env reads: process.env.X, process.env["X"], const { X } = process.env; assignments are writes."""
        parent = node.parent
        key = None
        if parent is not None and parent.type in ("member_expression", "subscript_expression") and \
                parent.child_by_field_name("object") == node:
            grand = parent.parent
            if grand is not None and grand.type in ("assignment_expression", "augmented_assignment_expression") and \
                    grand.child_by_field_name("left") == parent:
                return
            if grand is not None and grand.type == "unary_expression" and self.pf.text(grand).startswith("delete"):
                return
            if parent.type == "member_expression":
                key = self.pf.text(parent.child_by_field_name("property"))
            else:
                key = js_string(self.pf, parent.child_by_field_name("index"))
        elif parent is not None and parent.type == "variable_declarator":
            pattern = parent.child_by_field_name("name")
            if pattern is not None and pattern.type == "object_pattern":
                keys = [self.pf.text(c.child_by_field_name("key") if c.type == "pair_pattern" else c)
                        for c in pattern.named_children]
                key = next((k for k in keys if SECRET_NAME.search(k)), None)
        elif parent is not None and parent.type == "assignment_expression" and \
                parent.child_by_field_name("left") == node:
            return
        self.hit(ENV, 0.95, node, "process.env")
        if key and SECRET_NAME.search(key):
            self.hit(SECRET, 0.6, node, f"process.env.{key}")


# --- Go ---------------------------------------------------------------------------------------------------


class _GoEffects(_Base):
    calls_table, methods_table, hazards_table = GO_CALLS, GO_METHODS, GO_HAZARDS

    def __init__(self, pf: ParsedFile) -> None:
        super().__init__(pf)
        self.caps = collect_file(pf, "effects")
        self.names: dict[str, str] = {}  # package name in this file -> import path
        for node in self.caps.get("import", []):
            path = go_string(pf, node.child_by_field_name("path")) or ""
            self.modules.add(path)
            alias = node.child_by_field_name("name")
            parts = path.split("/")
            default = parts[-2] if len(parts) > 1 and _GO_MAJOR.fullmatch(parts[-1]) else parts[-1]
            self.names[pf.text(alias) if alias is not None else default.removeprefix("go-")] = path
            if path in GO_FFI_IMPORTS:
                self.hazard(GO_FFI_IMPORTS[path], f'import "{path}"', node)

    def run(self) -> tuple[list[EffectHit], list[HazardHit]]:
        for call in self.caps.get("call", []):
            function = call.child_by_field_name("function")
            if function is None or function.type != "selector_expression":
                continue
            args = js_args(call.child_by_field_name("arguments"))
            operand = function.child_by_field_name("operand")
            field = self.pf.text(function.child_by_field_name("field"))
            written = _nospace(self.pf.text(function))
            package = self.names.get(self.pf.text(operand)) if operand.type == "identifier" else None
            if package is not None:
                name = f"{package}.{field}"
                if name in self.hazards_table:
                    self.hazard(self.hazards_table[name][0], self.pf.text(call)[:120], call)
                rule = lookup(self.calls_table, name)
                if rule is not None:
                    self.apply(rule, call, written, args)
                continue
            if field == "MethodByName" and args and go_string(self.pf, args[0]) is None:
                self.hazard("reflection", self.pf.text(call)[:120], call)
            rule = self.method_rule(field, self.pf.text(operand))
            if rule is not None:
                self.apply(rule, call, written, args)
        return self.effects, self.hazards

    def refine(self, rule: Rule, call: Any, args: Any, effects: list[tuple[str, float]]) -> list[tuple[str, float]]:
        if rule.special == "sql":
            sql = next((go_string(self.pf, a) for a in args if go_string(self.pf, a) is not None), None)
            return sql_effects(sql, True)
        if rule.special == "spawn":
            words: list[str] = []
            for arg in args:
                value = go_string(self.pf, arg)
                words.extend(value.split() if value is not None else [])
            return effects + git_effects(words)
        if rule.special == "env-key":
            key = go_string(self.pf, args[0]) if args else None
            return effects + ([(SECRET, 0.6)] if key and SECRET_NAME.search(key) else [])
        return effects


def extract_effects(parsed: ParsedFile) -> tuple[list[EffectHit], list[HazardHit]]:
    """Effect hits and hazards in `parsed`, each in source order. Languages without tables give ([], [])."""
    fast_text(parsed)
    extractor = {"python": _PyEffects, "javascript": _JsEffects, "typescript": _JsEffects, "tsx": _JsEffects,
                 "go": _GoEffects}.get(parsed.language)
    if extractor is None or parsed.tree is None:
        return [], []
    if extractor is _JsEffects and _JS_GATE.nothing_to_find(parsed) or \
            extractor is _PyEffects and _PY_GATE.nothing_to_find(parsed):
        return [], []  # provably nothing in the tables: most library modules end here
    effects, hazards = extractor(parsed).run()
    effects.sort(key=lambda h: (h.start_byte, h.effect))
    hazards.sort(key=lambda h: h.line)
    return effects, hazards


def _js_known_module(specifier: str) -> bool:
    """Whether loading `specifier` could matter to the JS extractor: a hazard of its own, the
    dotenv preload, a module whose bindings head a row, or one a method row is gated on."""
    module = _js_module(specifier)
    return specifier in JS_FFI_MODULES or specifier in JS_NATIVE_MODULES or specifier == "dotenv/config" or \
        module.split(".", 1)[0] in _JS_HEADS or _modules_match({specifier, module}, _JS_GATED_MODULES)


_JS_HEADS = table_heads(JS_CALLS, JS_HAZARDS)[0]
_JS_GATED_MODULES = tuple(sorted({m for rules in JS_METHODS.values() for rule in rules for m in rule.modules}))
if any(name.startswith(".") for name in (*JS_FFI_MODULES, *JS_NATIVE_MODULES, *_JS_GATED_MODULES, *JS_MODULE_ALIASES)):
    raise ValueError("a relative module in the JS tables: the effect gate takes sibling modules as unknown")
_JS_GATE = JsGate(JS_CALLS, JS_HAZARDS, JS_METHODS, _js_known_module)
_PY_GATE = PyGate(PY_CALLS, PY_HAZARDS, PY_METHODS, PY_FFI_MODULES, lambda name: lookup(PY_CALLS, name), py_string)
