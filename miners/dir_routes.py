"""Routes a server makes at run time from the files of one of its directories: it reads the
directory (`fs.readdir(path.join(__dirname, "module"))`) and, in a loop over what it found,
registers a route whose path is built from each file's name. NeteaseCloudMusicApi serves
`module/album_detail.js` as `/album/detail` (`/${file.replace(/\\.js$/i, "").replace(/_/g, "/")}`,
`app.use(route, handler)`); dailyhot-api serves `routes/bilibili.js` as `GET /bilibili`
(`app.basePath(`/${name}`).get("/", handler)`).

In parsing (`find_dir_routes`, from the JavaScript extractor) such a file records one route per
registration, its path a template with "{}" for the name and `detail["per_file"]` saying how the
name is made: the directory (relative to the file: a literal, `path.join(__dirname, ...)`, a
constant holding one, or what the file's own callers pass for that parameter), the `.replace()`
calls the function reading the directory makes (in order), file names an object literal of the
file maps to a path of their own, names the code leaves out, and whether it reads subdirectories.
In assembly (`expand_dir_routes`) the template becomes one route per source file of that
directory. Nothing else is guessed: a transformation that is not literal, or a directory that is
not in the tree, gives no route; and every such route says how it was made.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from typing import Any

from .facts import FileFacts, Surface
from .parsing import descendants
from .surfaces import _JS_FUNCTIONS as _FUNCTIONS
from .surfaces import js_args

_READDIR = ("readdir", "readdirSync")
_LOOPS = ("for_in_statement", "for_statement", "while_statement", "do_statement")
_SOURCES = re.compile(r"\.(?:[cm]?js|ts|tsx|jsx)$")
_VERBS = ("get", "post", "put", "delete", "patch", "head", "options", "all", "use")
_CATCH_ALL = ("*", "/*")
_DEPTH = 6  # names followed at most, resolving the directory


def find_dir_routes(js: Any) -> None:
    """Record in `js.out` the per-file routes of a JavaScript file that reads a directory
    (`js` is miners.surfaces' JavaScript extractor: its bindings and helpers)."""
    pf = js.pf
    reads = []
    for call in js.calls:
        function = call.child_by_field_name("function")
        name = pf.text(function).rsplit(".", 1)[-1] if function is not None else ""
        if name in _READDIR:
            args = _args(call)
            folder = _folder(js, args[0], 0) if args else None
            if folder is not None:
                reads.append((call, folder))
    if not reads:
        return
    call, folder = reads[0]  # (the first directory the file reads with a known path)
    reader = _enclosing(call, _FUNCTIONS)
    how = _naming(js, reader if reader is not None else call)
    if how is None:
        return  # a file name turned into a path by something not literal: its routes are not known
    name = _function_name(pf, reader) if reader is not None else None
    how.update(dir=folder, read_at=call.start_point[0] + 1,
               recursive=bool(name and any(_callee(pf, c) == name for c in descendants(reader, "call_expression"))),
               overrides=_overrides(js), excluded=_excluded(js, reader, call))
    for site, own, receiver, prop, template, tail in _registrations(js):
        framework = js.http_receiver(receiver)
        if framework is None:
            continue
        path = _join(template, tail)
        method = "ANY" if prop in ("all", "use") else prop.upper()
        member = _member(js, site)
        line = site.start_point[0] + 1
        # (the route the extractor read with the name left out: `sub.get("/")` of `app.basePath(`/${name}`)`)
        js.out = [s for s in js.out if not (s.line == line and s.detail.get("receiver") == pf.text(own))]
        js.out.append(Surface(kind="http-route", name=f"{method} {path}", line=line,
                              end_line=site.end_point[0] + 1, framework=framework,
                              detail={"method": method, "path": path, "per_file": {**how, "member": member}}))


def expand_dir_routes(facts: dict[str, FileFacts], sizes: dict[str, int]) -> None:
    """Turn each per-file route template in `facts` into a route for each file of its directory."""
    files: list[str] | None = None
    for path, f in facts.items():
        if not any("per_file" in s.detail for s in f.surfaces):
            continue
        out = []
        for surface in f.surfaces:
            if "per_file" not in surface.detail:
                out.append(surface)
                continue
            files = sorted(sizes) if files is None else files  # (once, for every template)
            out += _expanded(facts, files, path, surface)
        f.surfaces = out


def _expanded(facts: dict[str, FileFacts], files: list[str], path: str, surface: Surface) -> list[Surface]:
    how = surface.detail["per_file"]
    folder = posixpath.normpath(posixpath.join(posixpath.dirname(path), how["dir"]))
    if folder == ".." or folder.startswith(("../", "/")):
        return []
    steps = []
    for pattern, flags, into in how["replace"]:
        try:
            steps.append((re.compile(pattern, re.IGNORECASE if "i" in flags else 0), into, 0 if "g" in flags else 1))
        except re.error:
            return []  # (a JavaScript regex Python reads otherwise: the names are not known)
    method, template = surface.detail["method"], surface.detail["path"]
    seen, out = set(), []
    for other in files:
        if not other.startswith(folder + "/") or other == path:
            continue
        rel = other[len(folder) + 1:]
        base = rel.rpartition("/")[2]
        if "/" in rel and not how["recursive"] or not _SOURCES.search(base) or base.endswith(".d.ts"):
            continue
        stem = _SOURCES.sub("", rel)
        if {rel, base, stem} & set(how["excluded"]):
            continue
        value = how["overrides"].get(base)
        if value is None:
            value = rel
            for regex, into, count in steps:
                value = regex.sub(into, value, count=count)
            value = _SOURCES.sub("", value)
        route = _clean(template.replace("{}", value))
        if route in seen:
            continue  # (x.js beside x.ts)
        seen.add(route)
        handler = _handler(facts.get(other), how["member"])
        detail = {**{k: v for k, v in surface.detail.items() if k != "per_file"}, "path": route, "template": template,
                  "per_file_from": {"dir": folder, "file": other, "line": how["read_at"]}}
        if handler is not None:
            detail.update(handler_path=other, handler_line=handler.line)
        out.append(replace(surface, name=f"{method} {route}", handler=handler.name if handler else None,
                           description=handler.doc if handler else "", detail=detail))
    return out


def _handler(f: FileFacts | None, member: str) -> Any:
    """The symbol of the module file that serves the route: the export the server takes from it."""
    if f is None:
        return None
    return next((s for s in f.symbols if s.name == member and s.container is None), None)


def _clean(route: str) -> str:
    route = "/" + re.sub(r"/{2,}", "/", route).lstrip("/")
    return route.rstrip("/") or "/"


def _join(template: str, tail: str | None) -> str:
    if tail is None or tail in ("", "/"):
        return template
    return template.rstrip("/") + "/" + tail.lstrip("/")


def _args(call: Any) -> list[Any]:
    return js_args(call.child_by_field_name("arguments"))


def _unwrap(node: Any) -> Any:
    while node is not None and node.type in ("parenthesized_expression", "await_expression", "as_expression",
                                             "non_null_expression"):
        inner = [c for c in node.named_children if c.type != "comment"]
        node = inner[0] if inner else None
    return node


def _callee(pf: Any, call: Any) -> str:
    function = call.child_by_field_name("function")
    return pf.text(function) if function is not None else ""


def _enclosing(node: Any, kinds: tuple[str, ...]) -> Any:
    node = node.parent
    while node is not None and node.type not in kinds:
        node = node.parent
    return node


def _function_name(pf: Any, function: Any) -> str | None:
    """`function f() {}`, `const f = () => {}`: its name."""
    name = function.child_by_field_name("name")
    if name is None and function.parent is not None and function.parent.type == "variable_declarator":
        name = function.parent.child_by_field_name("name")
    return pf.text(name) if name is not None and name.type == "identifier" else None


def _folder(js: Any, node: Any, depth: int) -> str | None:
    """The directory an expression names, relative to the file's own: `"./routes"`,
    `path.join(__dirname, "module")`, `__dirname + "/x"`, a name bound to one, or a parameter of a
    function of this file whose callers there pass one."""
    pf, node = js.pf, _unwrap(node)
    if node is None or depth > _DEPTH:
        return None
    if node.type == "call_expression":
        callee = _callee(pf, node).rsplit(".", 1)[-1]
        args = _args(node)
        if callee not in ("join", "resolve") or not args or not _is_here(pf, args[0]):
            return None
        parts = [js.resolve(a) for a in args[1:]]
        return posixpath.normpath(posixpath.join(".", *parts)) if all(p is not None for p in parts) else None
    if node.type == "binary_expression" and _is_here(pf, node.child_by_field_name("left")):
        rest = js.resolve(node.child_by_field_name("right"))
        return posixpath.normpath("." + rest) if rest is not None and rest.startswith("/") else None
    if node.type == "template_string":
        subs = [c for c in node.children if c.type == "template_substitution"]
        if len(subs) == 1 and node.children[1] == subs[0] and _is_here(pf, subs[0].named_children[0]):
            rest = "".join(pf.text(c) for c in node.children if c.type == "string_fragment")
            return posixpath.normpath("." + rest) if rest.startswith("/") else None
    value = js.resolve(node)
    if value is not None:
        return posixpath.normpath(value) if not value.startswith("/") else None
    if node.type != "identifier":
        return None
    bound = js.local_value(node)
    if bound is not None:
        return _folder(js, bound, depth + 1)
    return _argument(js, node, depth)


def _is_here(pf: Any, node: Any) -> bool:
    return node is not None and pf.text(node) in ("__dirname", "import.meta.dirname")


def _argument(js: Any, name: Any, depth: int) -> str | None:
    """The directory the callers in this file pass for the parameter `name` of its function."""
    pf, wanted = js.pf, js.pf.text(name)
    function = _enclosing(name, _FUNCTIONS)
    while function is not None:
        params = function.child_by_field_name("parameters")
        names = [pf.text(p.child_by_field_name("left") or p) if p.type == "assignment_pattern" else pf.text(p)
                 for p in (params.named_children if params is not None else ())]
        if wanted in names:
            break
        function = _enclosing(function, _FUNCTIONS)
    called = _function_name(pf, function) if function is not None else None
    if called is None:
        return None
    index = names.index(wanted)
    for call in js.calls:
        if _callee(pf, call) == called and _enclosing(call, _FUNCTIONS) is not function:
            args = _args(call)
            found = _folder(js, args[index], depth + 1) if index < len(args) else None
            if found is not None:
                return found
    return None


def _naming(js: Any, scope: Any) -> dict[str, Any] | None:
    """{"replace": [(pattern, flags, replacement)]}: the `.replace()` calls `scope` makes, in order;
    None when one of them is not literal."""
    pf, steps = js.pf, []
    for call in descendants(scope, "call_expression"):
        function = call.child_by_field_name("function")
        prop = function.child_by_field_name("property") if function.type == "member_expression" else None
        if prop is None or pf.text(prop) not in ("replace", "replaceAll"):
            continue
        args = _args(call)
        into = js.resolve(args[1]) if len(args) == 2 else None
        what = args[0] if args else None
        if into is None or what is None:
            return None
        if what.type == "regex":
            pattern = what.child_by_field_name("pattern")
            flags = what.child_by_field_name("flags")
            steps.append((_python_regex(pf.text(pattern)), pf.text(flags) if flags is not None else "",
                          re.sub(r"\$(\d)", r"\\\1", into)))
        else:
            text = js.resolve(what)
            if text is None:
                return None
            steps.append((re.escape(text), "g" if pf.text(prop) == "replaceAll" else "", into.replace("\\", "\\\\")))
    return {"replace": steps}


def _python_regex(pattern: str) -> str:
    return pattern.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")


def _overrides(js: Any) -> dict[str, str]:
    """File names an object literal of the file maps to paths: `{'daily_signin.js': '/daily_signin'}`."""
    pf, out = js.pf, {}
    for obj in descendants(pf.tree.root_node, "object"):
        pairs = [c for c in obj.named_children if c.type != "comment"]
        taken = {}
        for pair in pairs:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            name = js.resolve(key) if key is not None and key.type == "string" else None
            value = js.resolve(pair.child_by_field_name("value")) if name is not None else None
            if name is None or value is None or not _SOURCES.search(name) or not value.startswith("/"):
                break
            taken[name] = value
        else:
            if taken:
                out.update(taken)
    return out


def _excluded(js: Any, reader: Any, read: Any) -> list[str]:
    """Names the loop leaves out: `file !== 'index.js'` where the directory is read."""
    pf, out = js.pf, []
    for node in descendants(reader if reader is not None else read, "binary_expression"):
        if pf.text(node.child_by_field_name("operator")) in ("!==", "!="):
            for side in (node.child_by_field_name("left"), node.child_by_field_name("right")):
                if side is not None and side.type == "string":
                    value = js.resolve(side)
                    if value:
                        out.append(value)
    return out


def _registrations(js: Any) -> list[tuple[Any, Any, Any, str, str, str | None]]:
    """(call, its receiver, the app it serves on, verb, path template, literal tail) of each route registered in a loop with
    a path made from a name the loop gives: `app.use(def.route, h)`, `app.get(`/${name}`, h)`, and
    `const sub = app.basePath(`/${name}`); sub.get("/", h)`."""
    pf, out, bases = js.pf, [], {}
    for call, receiver, prop in js.member_info():
        if prop == "basePath" and receiver is not None and call.parent is not None and \
                call.parent.type == "variable_declarator":
            args = _args(call)
            template = _template(js, args[0], call) if len(args) == 1 else None
            if template is not None:
                bases[pf.text(call.parent.child_by_field_name("name"))] = (template, receiver)
    for call, receiver, prop in js.member_info():
        if receiver is None or prop not in _VERBS:
            continue
        args = _args(call)
        if len(args) < 2 and not (args and pf.text(receiver) in bases):
            continue
        handler = _unwrap(args[-1])
        if handler is None or handler.type not in ("arrow_function", "function_expression", "function") and \
                (prop == "use" or handler.type not in ("identifier", "member_expression")):
            continue  # (app.use(x, router): a router mounted, not a handler)
        if pf.text(receiver) in bases and receiver.type == "identifier":
            tail = js.resolve(args[0]) if len(args) >= 2 else "/"
            template, made_on = bases[pf.text(receiver)]
            if tail is not None and tail not in _CATCH_ALL and tail.startswith("/"):
                out.append((call, receiver, made_on, prop, template, tail))
            continue
        if js.resolve(args[0]) is not None:
            continue
        template = _template(js, args[0], call)
        if template is not None:
            out.append((call, receiver, receiver, prop, template, None))
    return out


def _template(js: Any, node: Any, call: Any) -> str | None:
    """The path a registration in a loop makes of the loop's name, with "{}" for it: `/${name}`,
    `'/' + name`, `def.route`; None when it is not in a loop or names nothing the loop gives."""
    pf, node = js.pf, _unwrap(node)
    loop = call.parent
    while loop is not None and loop.type not in _LOOPS and not _callback(pf, loop):
        loop = loop.parent
    if loop is None or node is None:
        return None
    given = _loop_names(pf, loop)
    if given.isdisjoint(pf.text(n) for n in descendants(node, "identifier")):  # (the node itself among them)
        return None
    if node.type in ("identifier", "member_expression"):
        return "{}"
    if node.type == "template_string":
        parts = []
        for child in node.children:
            if child.type == "string_fragment":
                parts.append(pf.text(child))
            elif child.type == "template_substitution":
                inner = child.named_children[0] if child.named_children else None
                known = js.resolve(inner) if inner is not None else None
                parts.append(known if known is not None else "{}")
            elif child.type == "escape_sequence":
                return None
        text = "".join(parts)
        return text if text.count("{}") == 1 else None
    if node.type == "binary_expression" and pf.text(node.child_by_field_name("operator")) == "+":
        left = js.resolve(node.child_by_field_name("left"))
        right = _unwrap(node.child_by_field_name("right"))
        if left is not None and right is not None and right.type in ("identifier", "member_expression"):
            return left + "{}"
    return None


def _callback(pf: Any, node: Any) -> bool:
    """A function passed to `.forEach()` or `.map()`."""
    if node.type not in ("arrow_function", "function_expression", "function") or node.parent is None or \
            node.parent.type != "arguments":
        return False
    function = node.parent.parent.child_by_field_name("function")
    return function is not None and function.type == "member_expression" and \
        pf.text(function.child_by_field_name("property")) in ("forEach", "map")


def _loop_names(pf: Any, loop: Any) -> set[str]:
    """The names a loop binds: its variable(s), a callback's parameters, what its body declares."""
    names = set()
    if loop.type == "for_in_statement":
        left = loop.child_by_field_name("left")
        names |= {pf.text(n) for n in descendants(left, "identifier")} | (
            {pf.text(left)} if left is not None and left.type == "identifier" else set())
    elif loop.type in ("arrow_function", "function_expression", "function"):
        params = loop.child_by_field_name("parameters") or loop.child_by_field_name("parameter")
        if params is not None:
            names |= {pf.text(n) for n in descendants(params, "identifier")} | (
                {pf.text(params)} if params.type == "identifier" else set())
    for declarator in descendants(loop, "variable_declarator"):
        name = declarator.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            names.add(pf.text(name))
    return names


def _member(js: Any, site: Any) -> str:
    """The export of each file the route is served by: `const { handleRoute } = await
    import(`./routes/${name}.js`)` in the loop takes `handleRoute`; else the default export."""
    pf, scope = js.pf, site
    while scope is not None and scope.type not in _LOOPS and not _callback(pf, scope):
        scope = scope.parent
    for declarator in descendants(scope, "variable_declarator") if scope is not None else ():
        value = _unwrap(declarator.child_by_field_name("value"))
        name = declarator.child_by_field_name("name")
        if value is not None and value.type == "call_expression" and _callee(pf, value) in ("import", "require") \
                and name is not None and name.type == "object_pattern":
            for field in name.named_children:
                if field.type == "shorthand_property_identifier_pattern":
                    return pf.text(field)
    return "default"
