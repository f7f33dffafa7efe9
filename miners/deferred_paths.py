"""Route paths that name another module's constant: `f"/api/{self.API_VERSION}/status"` where the
class has `API_VERSION = __apiversion__` and `from glances import __apiversion__`. The file's
extractor leaves such a part as DEFERRED + "glances.__apiversion__" + DEFERRED (surfaces.py);
here, in assembly, the module is found among the tree's Python files and read: a module-level
`NAME = "literal"` (or an import of it from a module that has one) gives the text; so does a
key of a YAML or JSON file the module loads from beside it (`config["route_path"]["seg"]`). A
route whose path still has a part nobody can read is dropped, as a route without a literal path
always is. A JS route's part `js:<specifier>#<name>` (tsc's `${constants_1.PREFIX}/x`) is the
literal that module exports under that name (`exports.PREFIX = '/x'`, `export const PREFIX`),
followed through `export { PREFIX } from './y'`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import yaml

from .facts import FileFacts, Surface
from .python_modules import absolute, module_files
from .surfaces import CALL_ARGUMENT, CONFIG_FILE, DEFERRED, SETTING, _opening_paren, _regex_paths

_HOPS = 3  # imports of the constant followed at most
_CONFIG_LIMIT = 1 << 20  # a config file read for a route's path: at most this many bytes
RUN_TIME = "\x02"  # a caller's argument only run time knows: a path parameter (_run_time_value)
_FORMS = 64  # the paths one route's deferred parts may make at most (one per call of its function)


def resolve_deferred_paths(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Finish (or drop) every route in `facts` whose path has a deferred part."""
    modules: dict[str, str] | None = None
    known: dict[tuple[str, str], Any] = {}  # (file, name) -> its string value (a call argument: its values)
    for path, f in facts.items():
        if f.language == "python" and any(DEFERRED in m.prefix for m in f.mounts):
            modules = modules if modules is not None else module_files(facts)
            f.mounts = [replace(m, prefix=prefix) for m in f.mounts
                        if (prefix := _finish(m.prefix, path, modules, read, known)) is not None
                        and (not prefix or prefix.startswith("/"))]  # an unread prefix: the mount is not followed
        if f.language in _JS and any(DEFERRED in s.name for s in f.surfaces):
            f.surfaces = [s for s in (_js_finished(s, path, facts, read, known) for s in f.surfaces) if s is not None]
            continue
        if f.language != "python" or not any(DEFERRED in s.name for s in f.surfaces):
            continue
        if modules is None:
            modules = module_files(facts)
        kept: list[Surface] = []
        for surface in f.surfaces:
            if DEFERRED not in surface.name:
                kept.append(surface)
                continue
            given = _leading_argument(surface.name)
            finished = _finished(surface.name, path, modules, read, known)
            if surface.framework == "tornado":  # (a Tornado pattern is a regex: `/healthcheck/?` is /healthcheck)
                finished = [f"{method} {each}" for name in finished for method, _, regex in [name.partition(" ")]
                            for each in _regex_paths(regex) or [regex]]  # (one no path spells: as written)
            for name in finished:
                if name.partition(" ")[2].startswith("/"):
                    detail = {**surface.detail, "path": name.partition(" ")[2]}
                    if given is not None and name.partition(" ")[2] == surface.name.split(DEFERRED, 2)[2]:
                        # langserve's `add_routes(app, runnable, path="")`: under what its users pass
                        detail.setdefault("prefix_unknown", given)
                    kept.append(replace(surface, name=name, detail=detail))
        f.surfaces = kept


def _leading_argument(name: str) -> str | None:
    """"the `path` argument of add_routes()" when the route's path begins with a parameter of the
    function that registers it (a prefix its callers give), else None."""
    pieces = name.split(DEFERRED)
    if len(pieces) < 3 or not pieces[0].endswith(" ") or " " in pieces[0][:-1] or \
            not pieces[1].startswith(CALL_ARGUMENT):  # ("METHOD ", then the parameter)
        return None
    _, function, _, parameter, _, _ = _argument_ref(pieces[1])
    return f"the `{parameter}` argument of {function}()"


def _argument_ref(ref: str) -> list[str]:
    """A CALL_ARGUMENT part's fields (surfaces.py's parameter_prefix writes them): where, function,
    positional index, parameter, default, whether it has one."""
    return ref[len(CALL_ARGUMENT):].split("#")


_JS = ("javascript", "typescript", "tsx")
_JS_HOPS = 2  # `export { X } from './y'` / `exports.X = y_1.X` followed at most


def _js_finished(surface: Surface, path: str, facts: dict[str, FileFacts], read: Callable[[str], bytes],
                 known: dict[tuple[str, str], str | None]) -> Surface | None:
    """A JS route whose path has another module's constant (`js:./constants#PREFIX`, surfaces.py's
    deferred_path): its path with the constant's literal, or None (dropped) when it is not one."""
    if DEFERRED not in surface.name:
        return surface
    pieces = surface.name.split(DEFERRED)
    for i in range(1, len(pieces), 2):
        spec, _, name = pieces[i].removeprefix("js:").partition("#")
        value = _js_constant(facts, path, spec, name, read, known, _JS_HOPS)
        if value is None:
            return None
        pieces[i] = value[1:] if value.startswith("/") and pieces[i - 1].endswith("/") else value
    name = "".join(pieces)
    full = name.partition(" ")[2]
    if not full.startswith("/"):
        return None
    return replace(surface, name=name, detail={**surface.detail, "path": full})


def _js_constant(facts: dict[str, FileFacts], path: str, spec: str, name: str, read: Callable[[str], bytes],
                 known: dict[tuple[str, str], str | None], hops: int) -> str | None:
    """The string literal a module of the tree exports as `name`: `exports.NAME = '/x'` (tsc's
    output), `export const NAME = '/x'`, or a module-level `const NAME = '/x'` it exports."""
    from .js_modules import js_module_file

    there = js_module_file(facts, path, spec)
    if there is None:
        return None
    if (there, name) in known:
        return known[there, name]
    known[there, name] = None  # (a cycle reads nothing)
    text = read(there).decode("utf-8", "replace")
    pattern = re.compile(r"(?:\bexports\.|\bexport\s+const\s+|^const\s+)" + re.escape(name) +
                         r"\s*=\s*(['\"`])([^'\"`$\n\\]*)\1", re.MULTILINE)
    found = pattern.search(text)
    value = found[2] if found else None
    if value is None and hops > 0:  # `export { NAME } from './paths'`
        again = re.search(r"export\s*\{[^}]*\b" + re.escape(name) + r"\b[^}]*\}\s*from\s*['\"]([^'\"]+)['\"]", text)
        value = _js_constant(facts, there, again[1], name, read, known, hops - 1) if again else None
    known[there, name] = value
    return value


def _finish(text: str, path: str, modules: dict[str, str], read: Callable[[str], bytes],
            known: dict[tuple[str, str], Any]) -> str | None:
    """The text with its deferred parts read, when each reads as one string (a mount's prefix)."""
    found = _finished(text, path, modules, read, known)
    return found[0] if len(found) == 1 else None


def _finished(text: str, path: str, modules: dict[str, str], read: Callable[[str], bytes],
              known: dict[tuple[str, str], Any]) -> list[str]:
    """Each text the deferred parts make of `text`: none when one is not known, several when the
    callers of a function pass different literals for the parameter a part is (a route per call of
    kiapi's `register_capability_endpoints(router, name="web", base_path="/v1/web")`)."""
    pieces = text.split(DEFERRED)
    done = [pieces[0]]
    for i in range(1, len(pieces), 2):  # the odd pieces are the deferred names
        if pieces[i].startswith(CONFIG_FILE):
            value = _config_value(pieces[i], read, known)
            values = [value] if value is not None else []
        elif pieces[i].startswith(SETTING):
            value = _setting_default(pieces[i][len(SETTING):], modules, read, known)
            values = [value] if value is not None else _setting_given(pieces[i][len(SETTING):], modules, read, known)
        elif pieces[i].startswith(CALL_ARGUMENT):
            values = _call_arguments(pieces[i], modules, read, known)
            after = pieces[i + 1]
            if any(v.startswith(RUN_TIME) for v in values) and not (
                    all(head.endswith("/") for head in done) and (not after or after.startswith("/"))):
                return []  # (a run-time value stands for a whole segment, never part of one)
            values = ["{" + v[len(RUN_TIME):] + "}" if v.startswith(RUN_TIME) else v for v in values]
        else:
            value = _constant(pieces[i], path, modules, read, known, _HOPS)
            values = [value] if value is not None else []
        if not values or len(done) * len(values) > _FORMS:
            return []
        # (a router's prefix joined to a path it did not know yet: `/ca/` + `/cert` is /ca/cert, and so
        # is a prefix's `/auth/` before the `/signup` that follows it)
        after = pieces[i + 1]
        done = [head + (value[1:] if value.startswith("/") and head.endswith("/") else value) +
                (after[1:] if after.startswith("/") and value.endswith("/") else after)
                for head in done for value in values]
    return done


def _call_arguments(ref: str, modules: dict[str, str], read: Callable[[str], bytes],
                    known: dict[tuple[str, str], Any]) -> list[str]:
    """The string literals the calls of a module-level function pass for one parameter (by
    keyword or position; a call that leaves it out, and no call at all, give its default): its own
    module's calls, and those of modules that import the function or its module (CALL_ARGUMENT in
    surfaces.py); none when a caller passes anything but a literal."""
    if (ref, "") in known:
        return known[ref, ""]
    from . import parsing
    from .python_imports import python_imports
    from .surfaces import py_args, py_string

    where, function, at, parameter, default, defaulted = _argument_ref(ref)
    index = int(at)
    naming = _naming(function, modules, read)  # each file that names the function, read and parsed once
    defining = {module for module, file in modules.items() if file == where}
    defining |= _reexporting(defining, function, naming, modules)
    values: set[str | None] = set()
    for path, (data, parsed) in naming.items():
        if function.encode() + b"(" not in data:
            continue
        if parsed is None:
            values.add(None)  # a caller may be in it: what it passes is not known
            continue
        bound: dict[str, str] = {}  # local name -> the dotted name it stands for
        for statement in parsed.tree.root_node.named_children:
            if statement.type in ("import_statement", "import_from_statement"):
                imported, names = python_imports(parsed, statement)
                bound.update(names)
                bound.update((m, m) for m in imported if statement.type == "import_statement")
        for call in parsing.descendants(parsed.tree.root_node, "call"):
            callee = "".join(parsed.text(call.child_by_field_name("function")).split())
            head, _, last = callee.rpartition(".")
            if last != function or not (
                    (not head and (path == where or _absolute(bound.get(function, ""), path).rpartition(".")[0]
                                   in defining))
                    or (head and _absolute(bound.get(head, head), path) in defining)):
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            given = keywords.get(parameter) or (positional[index] if 0 <= index < len(positional) else None)
            value = py_string(parsed, given) if given is not None else default if defaulted == "1" else None
            values.add(value if value is not None or given is None else _run_time_value(parsed, given))
    if not values and defaulted == "1":
        values.add(default)  # called by the package's users alone: what a call that leaves it out gets
    found = [] if None in values else sorted(v for v in values if v is not None)
    known[ref, ""] = found
    return found


def _run_time_value(parsed: Any, given: Any) -> str | None:
    """A caller's argument that is the variable of a loop around the call over what only run time
    knows (fastapi-mongo-admin's `for collection, model_admin in site.get_registered_models().items():
    _register_model_routes(router, ..., collection, ...)`): RUN_TIME + its name, a path segment
    that stands for each of its values; else None."""
    from . import parsing

    if given.type != "identifier":
        return None
    name = parsed.text(given)
    loop = given.parent
    while loop is not None and loop.type not in ("for_statement", "function_definition", "module"):
        loop = loop.parent
    left = loop.child_by_field_name("left") if loop is not None and loop.type == "for_statement" else None
    right = loop.child_by_field_name("right") if left is not None else None
    names = [left] if left is not None and left.type == "identifier" else \
        list(left.named_children) if left is not None and left.type in ("pattern_list", "tuple_pattern") else []
    if right is None or name not in {parsed.text(n) for n in names if n.type == "identifier"} or \
            right.type in ("list", "tuple", "set", "dictionary", "string") or \
            any(n.type == "string" for n in parsing.descendants(right, "string")):
        return None  # (a literal table: its rows are literals a caller could have written)
    return RUN_TIME + name


def _naming(function: str, modules: dict[str, str], read: Callable[[str], bytes]) -> dict[str, tuple[bytes, Any]]:
    """{path: (its bytes, its parse or None when that timed out)} of the package's modules whose
    text names `function`."""
    from . import parsing
    from .facts import ParsedFile

    out: dict[str, tuple[bytes, Any]] = {}
    for path in dict.fromkeys(modules.values()):
        data = read(path)
        if function.encode() not in data:
            continue
        try:
            out[path] = (data, ParsedFile(path, "python", data, parsing.parse("python", data)))
        except parsing.ParseTimeout:
            out[path] = (data, None)
    return out


def _reexporting(defining: set[str], function: str, naming: dict[str, tuple[bytes, Any]],
                 modules: dict[str, str]) -> set[str]:
    """The package modules that import `function` from where it is defined, so that importing it
    from them is importing it (kiapi/api/__init__.py's `from ._helpers.x import x`, under
    `if TYPE_CHECKING:` for a lazy `__getattr__`): one hop."""
    from . import parsing
    from .python_imports import python_imports

    wanted = {f"{module}.{function}" for module in defining}
    out: set[str] = set()
    for path, (data, parsed) in naming.items():
        if parsed is None or b"import" not in data:
            continue
        for statement in parsing.descendants(parsed.tree.root_node, "import_from_statement"):
            bound = python_imports(parsed, statement)[1].get(function)
            if bound is not None and _absolute(bound, path) in wanted:
                out |= {module for module, file in modules.items() if file == path}
                break
    return out - defining


def _absolute(dotted: str, importer: str) -> str:
    return absolute(dotted, importer) if dotted.startswith(".") else dotted


def _setting_default(name: str, modules: dict[str, str], read: Callable[[str], bytes],
                     known: dict[tuple[str, str], Any]) -> str | None:
    """The default the package's classes give a settings field, `auth_path: str = "/auth"` in a
    config dataclass (or a plain class attribute), or a defaults table gives a setting's key
    (Flask-Security's `_default_config = {"LOGIN_URL": "/login", ...}`): the one string literal
    they all agree on, else None."""
    if ("", SETTING + name) in known:
        return known["", SETTING + name]
    field = re.compile(rb"^[ \t]+" + re.escape(name.encode()) +  # (indented: a class body's, not a module's)
                       rb"[ \t]*(?::[^=\n]+)?=[ \t]*[rRuU]?(['\"])([^'\"\n\\]*)\1[ \t]*(?:#.*)?$", re.MULTILINE)
    entry = re.compile(rb"^[ \t]+(['\"])" + re.escape(name.encode()) +  # a dict literal's entry, on its own line
                       rb"\1[ \t]*:[ \t]*[rRuU]?(['\"])([^'\"\n\\]*)\2[ \t]*,?[ \t]*(?:#.*)?$", re.MULTILINE)
    # a declaration call's (django-fingerprint-attendance's `_S("ADMS_URL_PREFIX", "iclock/", T.STR, ...)`)
    declared = re.compile(rb"\b[A-Za-z_]\w*\(\s*(['\"])" + re.escape(name.encode()) +
                          rb"\1\s*,\s*[rRuU]?(['\"])([^'\"\n\\]*)\2\s*[,)]")
    found: set[str] = set()
    for path in dict.fromkeys(modules.values()):
        data = read(path)
        if name.encode() in data:
            found.update(m[2].decode("utf-8", "replace") for m in field.finditer(data))
            if name.isupper():
                found.update(m[3].decode("utf-8", "replace") for m in entry.finditer(data))
                found.update(m[3].decode("utf-8", "replace") for m in declared.finditer(data))
    value = next(iter(found)) if len(found) == 1 else None
    known["", SETTING + name] = value
    return value


_GIVEN_PATH = re.compile(rb"""[rRuU]?(['"])(/[^'"\\\s]*)\1\s*""")


def _setting_given(name: str, modules: dict[str, str], read: Callable[[str], bytes],
                   known: dict[tuple[str, str], Any]) -> list[str]:
    """The paths the package's own calls of the class that declares a settings field with no
    default give it, by keyword (testbench-ai-service's `AgentConfig(enabled=True,
    endpoint_path="/test-case-set-reviews")` in its table of default agents): one route for each;
    none when such a call gives anything else. Another call's keyword of that name
    (`APIRouter(prefix="/users")`) gives nothing."""
    if ("", "given:" + name) in known:
        return known["", "given:" + name]
    given = re.compile(rb"[(,][ \t\r\n]*" + re.escape(name.encode()) + rb"[ \t]*=[ \t]*([^,)\n]+)")
    field = re.compile(rb"(?m)^[ \t]+" + re.escape(name.encode()) + rb"[ \t]*:[^=\n]*$")
    sources = [(path, read(path)) for path in dict.fromkeys(modules.values())]
    sources = [(path, data) for path, data in sources if name.encode() in data]
    declaring = {cls[1] for _, data in sources for m in field.finditer(data)
                 if (cls := _last_class(data, m.start())) is not None}
    found: set[str] = set()
    other = False
    for _, data in sources:
        for m in given.finditer(data):
            if _callee(data, m.start()) not in declaring:
                continue
            literal = _GIVEN_PATH.fullmatch(m[1])
            if literal is None:
                other = True
            else:
                found.add(literal[2].decode("utf-8", "replace"))
    out = [] if other or len(found) > _FORMS else sorted(found)
    known["", "given:" + name] = out
    return out


_CLASS = re.compile(rb"(?m)^[ \t]*class[ \t]+([A-Za-z_]\w*)")
_CALLEE = re.compile(rb"([A-Za-z_][\w.]*)\s*$")


def _last_class(data: bytes, before: int) -> re.Match[bytes] | None:
    """The last `class X` line before `before` (the class a field's line is in, as written)."""
    found = None
    for m in _CLASS.finditer(data, 0, before):
        found = m
    return found


def _callee(data: bytes, at: int) -> bytes | None:
    """The last name of what is called with the `(` or `,` at `at`: `AgentConfig` of
    `AgentConfig(enabled=True, endpoint_path=...)`."""
    opening = _opening_paren(data, at, 1)
    m = _CALLEE.search(data, max(0, opening - 200), opening) if opening >= 0 else None
    return m[1].rpartition(b".")[2] if m is not None else None


def _config_value(ref: str, read: Callable[[str], bytes], known: dict[tuple[str, str], str | None]) -> str | None:
    """The string at `keys` of a YAML or JSON file the package ships ("file:" + path + "#" + keys
    joined by \x1f: ltp-server's `config["route_path"]["seg"]` of its config.yml), else None."""
    file, _, keys = ref[len(CONFIG_FILE):].partition("#")
    if (file, keys) in known:
        return known[file, keys]
    value: Any = None
    try:
        data = read(file)
        if len(data) <= _CONFIG_LIMIT:
            value = json.loads(data) if file.endswith(".json") else yaml.safe_load(data)
    except Exception:  # noqa: BLE001 - a file the tree lacks, or one that does not parse: not read
        value = None
    for key in keys.split("\x1f"):
        value = value.get(key) if isinstance(value, dict) else None
    known[file, keys] = value if isinstance(value, str) else None
    return known[file, keys]


def _constant(dotted: str, importer: str, modules: dict[str, str], read: Callable[[str], bytes],
              known: dict[tuple[str, str], str | None], hops: int) -> str | None:
    """The string a module-level name of another module holds, by its dotted import name; or the
    default of an attribute of an object it makes (`app.config.settings.PREFIX`) or of its class's
    instances (`app.config.Settings().PREFIX`)."""
    dotted = absolute(dotted, importer)
    parts = dotted.replace("().", "()\0").replace(".", "\1").replace("\0", ".").split("\1")
    path, name = None, ""
    for cut in range(len(parts) - 1, 0, -1):  # the longest module path the tree has
        path = modules.get(".".join(parts[:cut]))
        if path is not None:
            name = ".".join(parts[cut:])
            break
    if path is None or not name:
        return None
    if (path, name) not in known:
        known[path, name] = None  # (a cycle of imports reads as unknown)
        known[path, name] = _read_constant(path, name, modules, read, known, hops)
    return known[path, name]


def _read_constant(path: str, name: str, modules: dict[str, str], read: Callable[[str], bytes],
                   known: dict[tuple[str, str], str | None], hops: int) -> str | None:
    from . import parsing
    from .facts import ParsedFile
    from .surfaces import _assigned, py_string

    data = read(path)
    head, _, attr = name.partition(".")
    if head.removesuffix("()").encode() not in data:
        return None
    try:
        parsed = ParsedFile(path, "python", data, parsing.parse("python", data))
    except parsing.ParseTimeout:
        return None  # (the constant is not known)
    root = parsed.tree.root_node
    if attr:
        found = _attribute_default(parsed, head, attr, path, modules, read, known, hops)
        # (a settings object whose class reads a declared table: `settings.API_URL_PREFIX` of
        # `_S("API_URL_PREFIX", "api/fingerprint/", ...)`, what the package declares its default)
        return found if found is not None or not attr.isupper() or "." in attr else \
            _setting_default(attr, modules, read, known)
    value: Any = _assigned(parsed, root, name, None)
    if value is not None:
        return py_string(parsed, value) or _fstring(parsed, value, 3) or _getattr_default(parsed, value)
    imported = _imported(parsed, name) if hops else None  # `from .version import __apiversion__`: read it there
    return _constant(imported, path, modules, read, known, hops - 1) if imported else None


def _getattr_default(parsed: Any, node: Any) -> str | None:
    """`getattr(settings, 'INVITATION_API_BASE_URL', 'invitations')`, a Django app's setting read
    with its default: the default, what the path is when the project sets nothing."""
    from .surfaces import py_args, py_string

    function = node.child_by_field_name("function") if node.type == "call" else None
    if function is not None and function.type == "attribute" and parsed.text(function.child_by_field_name(
            "attribute")) in ("strip", "rstrip", "lstrip"):
        # `getattr(settings, "API_BASE_URL", "api").strip("/")` (entirius): the default, so trimmed
        chars = py_args(node.child_by_field_name("arguments"))[0]
        trim = py_string(parsed, chars[0]) if len(chars) == 1 else None if chars else ""
        inner = _getattr_default(parsed, function.child_by_field_name("object"))
        if inner is None or trim is None:
            return None
        how = parsed.text(function.child_by_field_name("attribute"))
        return getattr(inner, how)(trim or None)
    if function is None or parsed.text(function) != "getattr":
        return None
    args = py_args(node.child_by_field_name("arguments"))[0]
    return py_string(parsed, args[2]) if len(args) == 3 and "settings" in parsed.text(args[0]).lower() else None


def _imported(parsed: Any, name: str) -> str | None:
    """The dotted name a module-level `from x import name` binds `name` to, or None."""
    from .python_imports import python_imports

    for statement in parsed.tree.root_node.named_children:
        if statement.type == "import_from_statement":
            _, names = python_imports(parsed, statement)
            if name in names:
                return names[name]
    return None


def _attribute_default(parsed: Any, head: str, attr: str, path: str, modules: dict[str, str],
                       read: Callable[[str], bytes], known: dict[tuple[str, str], str | None], hops: int) -> str | None:
    """`Settings().PREFIX` (a class of this module) or `settings.PREFIX` (`settings = Settings()` here):
    the attribute's default; `Routes.ISSUE`, a class's own; a class this module imports is read
    where it is defined."""
    from .surfaces import _assigned, class_attribute_default, py_args, py_string

    root = parsed.tree.root_node
    cls = head.removesuffix("()") if head.endswith("()") else None
    if cls is None and any(c.type == "class_definition" and parsed.text(c.child_by_field_name("name")) == head
                           for c in root.named_children):
        cls = head  # a class's own attribute: an enum's member, a class constant (`Routes.ISSUE`)
    if cls is None:  # an object: what it is made of
        made = _assigned(parsed, root, head, None)
        if made is None and hops:  # a re-export (`from .routes import Routes` in a package's __init__)
            imported = _imported(parsed, head)
            return _constant(f"{imported}.{attr}", path, modules, read, known, hops - 1) if imported else None
        function = made.child_by_field_name("function") if made is not None and made.type == "call" else None
        if function is None or function.type != "identifier":
            return None
        positional, keywords = py_args(made.child_by_field_name("arguments"))
        if attr in keywords:
            return py_string(parsed, keywords[attr])
        for arg in positional:  # made from a module-level dict of defaults (DRF's `APISettings(USER, DEFAULTS)`)
            defaults = _assigned(parsed, root, parsed.text(arg), None) if arg.type == "identifier" else None
            value = _dict_value(parsed, defaults, attr) if defaults is not None and defaults.type == "dictionary" \
                else None
            if value is not None:
                return value
        cls = parsed.text(function)
    local = next((c for c in root.named_children if c.type == "class_definition"
                  and parsed.text(c.child_by_field_name("name")) == cls), None)
    if local is not None:
        return class_attribute_default(parsed, local, attr)
    imported = _imported(parsed, cls) if hops else None  # `from .base import Settings`: read it there
    return _constant(f"{imported}().{attr}", path, modules, read, known, hops - 1) if imported else None


def _dict_value(parsed: Any, dictionary: Any, key: str) -> str | None:
    """The string a dict literal holds under the string key `key`, or None."""
    from .surfaces import py_string

    for pair in dictionary.named_children:
        if pair.type == "pair" and py_string(parsed, pair.child_by_field_name("key")) == key:
            return py_string(parsed, pair.child_by_field_name("value"))
    return None


def _fstring(parsed: Any, node: Any, depth: int) -> str | None:
    """An f-string of this module's constants, `f"/compute/{COMPUTE_API_VERSION}"`, as its text."""
    from .surfaces import _assigned, py_string

    if node is None or node.type != "string" or depth == 0:
        return None
    out = []
    for part in node.named_children:
        if part.type == "string_content":
            out.append(parsed.text(part))
        elif part.type == "interpolation":
            inner = part.named_children[0] if part.named_child_count == 1 else None
            if inner is None or inner.type != "identifier":
                return None  # a format spec, a call: not read
            value = _assigned(parsed, parsed.tree.root_node, parsed.text(inner), None)
            text = py_string(parsed, value) if value is not None else None
            text = text if text is not None else _fstring(parsed, value, depth - 1)
            if text is None:
                return None
            out.append(text)
        elif part.type not in ("string_start", "string_end"):
            return None
    return "".join(out)
