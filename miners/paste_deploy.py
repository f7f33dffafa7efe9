"""Paste Deploy: a service's WSGI apps are composed in an INI file (OpenStack's api-paste.ini), and
the URL prefix an app is served under is written there, not in code:

    [composite:main]
    use = egg:Paste#urlmap
    /v2 = appv2
    [app:appv2]
    paste.app_factory = freezer_api.service:freezer_appv2_factory

Each app factory the tree defines is followed through the calls its body makes to the package's
own functions (the same file's, or another module's through the file's imports), a few hops deep;
a route registered inside a function reached from it is served under the prefix the INI gives
that app (once per prefix, when several apps reach it). A factory outside the tree (a
middleware package's), a call through an object, a composite built by code: nothing is guessed.

An app at the root behind a version-negotiation filter (heat's and senlin's `versionnegotiation`,
which takes the URL's `/v1` off before the app sees it) is served under the version its factory's
module names (`heat.api.openstack.v1:API`, else the section's `apiv1app`), with the pipeline's
line as evidence; an app section that names the real app under another key
(`heat.app_factory = heat.api.openstack.v1:API` beside a generic `paste.app_factory`) has both followed.
A router that inherits its `factory` or `__init__` has its base's followed, for the same instance
(manila's). A pipeline's filters of the package are followed too (trove's extension middleware).

OpenStack's API extensions (cinder, masakari, trove): the `ResourceExtension` routes each
extension's `get_resources()` returns are served where a reached function asks the extension
manager for them (`for resource in ext_mgr.get_resources()`), under `{project_id}/` as well when
that router maps on a ProjectMapper.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import parsing
from .coverage import set_aside
from .facts import FileFacts, ParsedFile, Surface, Symbol
from .mounts import join, under
from .python_imports import python_imports
from .python_modules import absolute, module_files
from .surfaces import project_mapper_twice

_MAX_BYTES = 256 * 1024
_DEPTH = 8  # sections followed at most (composite -> pipeline -> composite ...)
_HOPS = 5  # calls followed from a factory at most
_REACHED = 400  # functions followed from all factories at most

Where = tuple[str, int]  # (INI file, line)
_VERSION = re.compile(r"(?:^|[.:_]|api)v(\d+)(?=[.:_]|app|$)")  # heat.api.openstack.v1:API, apiv1app


def paste_files(sizes: dict[str, int], read: Callable[[str], bytes]) -> dict[str, str]:
    """{path: text} of the tree's INI files that compose apps with Paste Deploy's urlmap or put a
    version-negotiation filter before them (not a test's, an example's or a vendored package's)."""
    out = {}
    for path, size in sizes.items():
        if path.endswith(".ini") and size <= _MAX_BYTES and not set_aside(path):
            text = read(path).decode("utf-8", "replace")
            if "paste.app_factory" in text and ("/" in text or "negotiat" in text):
                out[path] = text
    return out


def app_prefixes(path: str, text: str) -> dict[str, dict[str, Where]]:
    """{"module:function" of an app factory (or a pipeline filter's): {the prefix it is served under:
    where the INI says so}}."""
    config = configparser.RawConfigParser(strict=False, interpolation=None, delimiters=("=", ":"))
    config.optionxform = str  # type: ignore[assignment,method-assign]  # keys are paths: keep their case
    try:
        config.read_string(text, source=path)
    except configparser.Error:
        return {}
    lines = text.splitlines()

    def line_of(section: str, key: str) -> int:
        inside = False
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith("["):
                inside = stripped == f"[{section}]"
            elif inside and stripped.startswith(key) and stripped[len(key):].lstrip()[:1] in ("=", ":"):
                return number
        return 0

    # (a `[server:main]` is how to serve `[composite:main]`, no part of it: monasca-log-api names both main)
    sections = {name.split(":", 1)[1].strip(): name for name in config.sections()
                if ":" in name and name.split(":", 1)[0].strip() != "server"}
    referenced: set[str] = set()  # by another section: what is not is a root (`main`)
    for name in config.sections():
        for key, value in config.items(name):
            if key.startswith("/") or key == "pipeline":
                referenced.update(v for v in value.split() if sections.get(v) != name)
    out: dict[str, dict[str, Where]] = {}

    def negotiated(filters: list[str], section: str, key: str) -> Where | None:
        """Where a pipeline puts a version-negotiation filter before its app (heat's, senlin's
        `versionnegotiation`, which takes the URL's `/v1` off before the app sees it), else None."""
        for name in filters:
            found = sections.get(name)
            values = " ".join(v for _, v in config.items(found)) if found is not None else ""
            if "negotiat" in name.lower() or "negotiat" in values.lower():
                return (path, line_of(section, key))
        return None

    def walk(name: str, prefix: str, where: Where | None, above: tuple[str, ...],
             versioned: Where | None = None) -> None:
        section = sections.get(name)
        if section is None or name in above or len(above) > _DEPTH:  # a cycle ends
            return
        above += (name,)
        kind = section.split(":", 1)[0].strip()
        items = dict(config.items(section))
        if kind == "composite" and (items.get("use", "").startswith("call:") or "paste.composite_factory" in items) \
                and not any(key.startswith("/") for key in items):
            # OpenStack's `use = call:pkg.middleware:auth_pipeline_factory` (or `paste.composite_factory =
            # heat.api:pipeline_factory`) with a pipeline per auth strategy (`noauth = cors ... app`,
            # `keystone = cors authtoken ... app`): the last is the app
            for key, value in items.items():
                if key not in ("use", "paste.composite_factory") and value.split() and value.split()[-1] in sections:
                    walk(value.split()[-1], prefix, where, above,
                         versioned or negotiated(value.split()[:-1], section, key))
        elif kind == "composite":
            for key, value in items.items():
                if key.startswith("/") and value.split():
                    walk(value.split()[0], join(prefix, key) if prefix else key,
                         (path, line_of(section, key)) if key.strip("/") else where, above, versioned)
        elif kind == "pipeline" and items.get("pipeline", "").split():
            filters = items["pipeline"].split()
            walk(filters[-1], prefix, where, above,  # the last is the app
                 versioned or negotiated(filters[:-1], section, "pipeline"))
            for name in filters[:-1]:  # a filter that serves routes of its own (trove's extensions) sees them there
                walk(name, prefix, where, above)
        elif kind == "filter" and ":" in items.get("paste.filter_factory", ""):
            factory = items["paste.filter_factory"].strip()
            at = where or (path, line_of(section, "paste.filter_factory"))
            out.setdefault(factory, {}).setdefault(prefix or "/", at)
        elif kind == "app":
            given = items.get("paste.app_factory") or items.get("use", "").removeprefix("call:")
            # heat's `paste.app_factory = heat.common.wsgi:app_factory` imports the app another key names
            # (`heat.app_factory = heat.api.openstack.v1:API`): both are followed
            factories = [("paste.app_factory" if "paste.app_factory" in items else "use", given),
                         *((k, v) for k, v in items.items() if k.endswith(".app_factory") and k != "paste.app_factory")]
            for key, factory in factories:
                if ":" not in factory or factory.startswith(("egg:", "config:")):
                    continue
                served, at = prefix or "/", where or (path, line_of(section, key))
                version = _VERSION.search(factory) or _VERSION.search(name)
                if not prefix.strip("/") and versioned is not None and version is not None:
                    served, at = f"/v{version.group(1)}", versioned  # under the version the filter takes off
                out.setdefault(factory.strip(), {}).setdefault(served, at)

    for name, section in sections.items():
        if name not in referenced and section.split(":", 1)[0].strip() in ("composite", "pipeline"):
            walk(name, "", None, ())
    return out


def apply_paste_prefixes(facts: dict[str, FileFacts], sizes: dict[str, int], read: Callable[[str], bytes]) -> None:
    """Serve the routes each Paste Deploy app reaches under the prefix its INI file gives it."""
    files = paste_files(sizes, read) if any(f.language == "python" for f in facts.values()) else {}
    factories: dict[str, dict[str, Where]] = {}
    for path, text in sorted(files.items()):
        for factory, prefixes in app_prefixes(path, text).items():
            for prefix, where in prefixes.items():
                factories.setdefault(factory, {}).setdefault(prefix, where)
    if not factories:
        return
    graph = _CallGraph(facts, read)
    served: dict[tuple[str, str], dict[str, Where]] = {}  # (file, function) -> {prefix: where}
    for factory, prefixes in factories.items():
        module, _, function = factory.partition(":")
        start = graph.modules.get(module.strip())
        if start is not None:
            reach = graph.reach(start, function.strip())
            if not reach and "." in function:  # `API.factory` a base class defines (`return cls(APIMapper())`):
                reach = graph.reach(start, function.strip().split(".")[0] + ".__init__")  # the class's own
            for reached in reach:
                for prefix, where in prefixes.items():
                    served.setdefault(reached, {}).setdefault(prefix, where)
    # OpenStack's API extensions: the routes each extension's get_resources() returns are mapped by
    # the router that asks the extension manager for them (`for resource in ext_mgr.get_resources()`)
    loaders: dict[str, Where] = {}
    for (path, function), prefixes in served.items():
        if graph.calls_method(path, function, "get_resources"):
            forms = _extension_forms(path, facts, read)
            for prefix, where in prefixes.items():
                for each in forms:
                    loaders.setdefault(join(prefix, each) if each != "/" else prefix, where)
    # a Pecan app's root controller named in a function a factory reaches: its tree's routes too
    roots: dict[str, dict[str, Where]] = {}
    for (path, function), prefixes in served.items():
        for dotted, within in facts[path].pecan_roots:
            if within == function:
                for prefix, where in prefixes.items():
                    roots.setdefault(dotted, {}).setdefault(prefix, where)
    for path, f in facts.items():
        if f.language != "python" or not any(s.kind == "http-route" for s in f.surfaces):
            continue
        routes: list[Surface] = []
        for surface in f.surfaces:
            owner = _enclosing(f.symbols, surface.line) if surface.kind == "http-route" else None
            prefixes = served.get((path, owner.name)) if owner is not None else None
            if not prefixes and surface.kind == "http-route" and "pecan_root" in surface.detail:
                prefixes = roots.get(surface.detail["pecan_root"])
            if not prefixes and surface.kind == "http-route" and surface.detail.get("extension"):
                prefixes = loaders
            if not prefixes:
                routes.append(surface)
                continue
            for prefix, where in sorted(prefixes.items()):
                routes.append(_under(surface, prefix, where))
        f.surfaces = sorted(routes, key=lambda s: (s.line, s.name))


def _extension_forms(path: str, facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> tuple[str, ...]:
    """Where the router of this file maps the extensions' resources, as it does its own: under
    `{project_id}/` when it is made with a ProjectMapper, and without it too when the package's
    ProjectMapper maps each twice; else where they are."""
    if b"ProjectMapper(" not in read(path):
        return ("/",)
    twice = any(project_mapper_twice(read(p)) for p, f in facts.items() if f.language == "python"
                and any(s.name == "ProjectMapper.resource" for s in f.symbols))
    return ("/{project_id}", "/") if twice else ("/{project_id}",)


def _under(route: Surface, prefix: str, where: Where) -> Surface:
    """The route served under a prefix (as a mount serves it), with the INI line that says so."""
    if prefix.strip("/") == "":
        return route
    served = under(route, prefix)
    return replace(served, detail={**served.detail, "prefix_from": list(where)})


def _enclosing(symbols: list[Symbol], line: int) -> Symbol | None:
    """The innermost function or method whose span holds `line`."""
    found = None
    for symbol in symbols:
        if symbol.kind != "class" and symbol.line <= line <= symbol.end_line and (
                found is None or symbol.line >= found.line):
            found = symbol
    return found


class _CallGraph:
    """The package's own functions a function calls, by name: `f()` (this file's, or imported),
    `mod.f()` (a module this file imports), a class's `__init__` by its construction, and a method's
    `self.m()`. Files are parsed again here, only those a factory reaches."""

    def __init__(self, facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
        self.facts = facts
        self.read = read
        self.modules = module_files(facts)
        self.parsed: dict[str, tuple[ParsedFile, dict[str, str]] | None] = {}

    def reach(self, path: str, function: str) -> list[tuple[str, str]]:
        seen: list[tuple[str, str]] = []
        # (file, function, hops, the class `self` is an instance of: a base's `self.m()` is its method)
        todo: list[tuple[str, str, int, tuple[str, str] | None]] = [
            (path, function, 0, (path, function.split(".")[0]) if "." in function else None)]
        while todo and len(seen) < _REACHED:
            here, name, hops, instance = todo.pop()
            if (here, name) in seen:
                continue
            if not any(s.name == name for s in self.facts[here].symbols):
                # `APIRouter.factory` (or `__init__`) the class inherits: its base's, for the same instance
                loaded = self.load(here) if "." in name and hops < _HOPS else None
                if loaded is not None:
                    cls, _, method = name.partition(".")
                    todo += [(there, inherited, hops + 1, instance)
                             for there, inherited in self.base_method(*loaded, here, cls, method)]
                continue
            seen.append((here, name))
            if hops < _HOPS:
                todo += [(there, callee, hops + 1, instance if "." in callee else None)
                         for there, callee in self.callees(here, name, instance)]
        return seen

    def function_node(self, path: str, name: str) -> tuple[ParsedFile, dict[str, str], Any] | None:
        """(parsed file, its imports, the function's definition) of a function the file has."""
        loaded = self.load(path)
        symbol = next((s for s in self.facts[path].symbols if s.name == name), None)
        if loaded is None or symbol is None or symbol.kind == "class":
            return None
        node = loaded[0].tree.root_node.descendant_for_byte_range(symbol.start_byte, symbol.end_byte)
        while node is not None and node.type not in ("function_definition", "module"):
            node = node.parent
        return (*loaded, node) if node is not None and node.type == "function_definition" else None

    def calls_method(self, path: str, name: str, method: str) -> bool:
        """Whether the function calls a method of that name on anything (`ext_mgr.get_resources()`)."""
        found = self.function_node(path, name)
        return found is not None and any(
            (function := call.child_by_field_name("function")) is not None and function.type == "attribute"
            and found[0].text(function.child_by_field_name("attribute")) == method
            for call in parsing.descendants(found[2], "call"))

    def callees(self, path: str, name: str, instance: tuple[str, str] | None = None) -> list[tuple[str, str]]:
        symbol = next((s for s in self.facts[path].symbols if s.name == name), None)
        if symbol is not None and symbol.kind == "class":  # a factory that is a class (`heat.api.openstack.v1:API`)
            return [(path, f"{name}.__init__")] if self.load(path) is not None else []  # its construction
        found = self.function_node(path, name)
        if found is None:
            return []
        pf, names, node = found
        out = []
        for call in parsing.descendants(node, "call"):
            function = call.child_by_field_name("function")
            text = "".join(pf.text(function).split()) if function is not None and function.type in (
                "identifier", "attribute") else ""
            head, _, rest = text.partition(".")
            if not text or "." in rest:
                continue
            if head.startswith("super(") and rest == "__init__" and "." in name:
                # `super(VnflcmAPIRouter, self).__init__(mapper)`: the base's, whose `self.m()` calls
                # are the instance's own class's methods (tacker's wsgi.Router calls `_setup_routes`)
                out += self.base_method(pf, names, path, name.split(".")[0], "__init__")
                continue
            if head == "self" and rest and "." in name:  # a method of the same class: `self._datastore_router(m)`
                own = f"{instance[1]}.{rest}" if instance is not None else ""
                if instance is not None and any(s.name == own for s in self.facts[instance[0]].symbols):
                    out.append((instance[0], own))
                else:
                    out.append((path, f"{name.split('.')[0]}.{rest}"))
                continue
            if head == "cls" and not rest and "." in name:  # a classmethod factory's `return cls(ProjectMapper())`
                out.append((instance[0], f"{instance[1]}.__init__") if instance is not None
                           else (path, f"{name.split('.')[0]}.__init__"))  # (the class it was called on)
                continue
            if not rest and any(s.name == head and s.kind == "function" for s in self.facts[path].symbols):
                out.append((path, head))
                continue
            if not rest and any(s.name == head and s.kind == "class" for s in self.facts[path].symbols):
                out.append((path, f"{head}.__init__"))  # trove's `return API()`: its __init__ registers
                continue
            dotted = absolute(f"{names[head]}.{rest}" if rest else names[head], path) if head in names else None
            module, _, function_name = (dotted or "").rpartition(".")
            there = self.modules.get(module)
            if there is not None:
                out.append((there, function_name))
                if any(s.name == function_name and s.kind == "class" for s in self.facts[there].symbols):
                    out.append((there, f"{function_name}.__init__"))
        return out

    def base_method(self, pf: ParsedFile, names: dict[str, str], path: str, cls: str,
                    method: str) -> list[tuple[str, str]]:
        """The method (`__init__`, say) of the first base of class `cls` of this file, the package's own."""
        for node in pf.tree.root_node.named_children:
            if node.type == "class_definition" and pf.text(node.child_by_field_name("name")) == cls:
                bases = node.child_by_field_name("superclasses")
                first = bases.named_children[0] if bases is not None and bases.named_children else None
                written = "".join(pf.text(first).split()) if first is not None and first.type in (
                    "identifier", "attribute") else ""
                head, _, rest = written.partition(".")
                if head in names:
                    module, _, base = absolute(f"{names[head]}.{rest}" if rest else names[head], path).rpartition(".")
                    there = self.modules.get(module)
                    return [(there, f"{base}.{method}")] if there is not None else []
                if written and not rest:
                    return [(path, f"{written}.{method}")]
        return []

    def load(self, path: str) -> tuple[ParsedFile, dict[str, str]] | None:
        if path not in self.parsed:
            try:
                source = self.read(path)
                pf = ParsedFile(path, "python", source, parsing.parse("python", source))
            except Exception:  # noqa: BLE001 - the file was analysed once; a failure here follows nothing
                self.parsed[path] = None
                return None
            names: dict[str, str] = {}
            for node in pf.tree.root_node.named_children:
                if node.type in ("import_statement", "import_from_statement"):
                    modules, bound = python_imports(pf, node)
                    names.update({m.split(".")[0]: m.split(".")[0] for m in modules if node.type == "import_statement"})
                    names.update(bound)
            self.parsed[path] = (pf, names)
        return self.parsed[path]
