"""HTTP routes of CherryPy's object tree. CherryPy serves the object handed to `cherrypy.quickstart(Root(),
"/app")` (or `cherrypy.tree.mount(Root(), "/app", conf)`, `cherrypy.Application(Root(), "/app")`)
at the script name, and walks the URL's segments through its attributes:

    class Root:
        api = Api()                      # /app/api/...

        @cherrypy.expose
        def index(self): ...             # /app/

        @cherrypy.expose
        def documents(self, *args): ...  # /app/documents, /app/documents/<anything>

        @cherrypy.expose
        @cherrypy.tools.allow(methods=["POST"])
        def upload(self, namespace): ... # POST /app/upload/{namespace}

An exposed method (`@cherrypy.expose`, `@expose` imported from cherrypy, `name.exposed = True`, or
every public method of a class with `exposed = True`) answers any HTTP method unless
`tools.allow(methods=...)` limits it; its positional parameters without a default are the segments
after its name, `*args` any more of them; `index` is the node itself and `default` whatever is
below it. A class written for the MethodDispatcher (`exposed = True` and methods named `GET`,
`POST`...) answers those methods at the node. Children are the class's attributes set to an
instance of a class of the same module (in its body or `__init__`'s `self.x = X()`), and
`root.x = X()` on the mounted object. A tree handed to something else, or a class of another
module, is not followed: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import parsing
from .facts import FileFacts, ParsedFile, Surface
from .surfaces import HTTP_VERBS, py_args, py_literal, py_string

_MAX_BYTES = 1 << 20
_DEPTH = 6  # children followed at most
_MOUNTS = (b"quickstart", b"mount", b"Application")  # what a module that mounts a tree calls
_VERB_NAMES = {v.upper() for v in HTTP_VERBS}


def add_cherrypy_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add the routes of each CherryPy object tree a module mounts."""
    for path, f in facts.items():
        if "cherrypy" not in f.reread:
            continue
        data = read(path)
        if b"cherrypy" not in data or b"expose" not in data or len(data) > _MAX_BYTES or b"RoutesDispatcher" in data \
                or not any(word in data for word in _MOUNTS):
            continue  # (a Routes mapper's dispatch, zuul's, is read as a mapper's routes: surfaces.py)
        try:
            pf = ParsedFile(path, "python", data, parsing.parse("python", data))
        except Exception:  # noqa: BLE001, S112 - analysed once already; failing here adds nothing
            continue
        tree = _Tree(pf)
        for root, instance, script, line in tree.mounts():
            tree.walk(root, script.rstrip("/"), line, (), f.surfaces, instance)


class _Tree:
    def __init__(self, pf: ParsedFile) -> None:
        self.pf = pf
        self.classes: dict[str, Any] = {}
        for stmt in pf.tree.root_node.named_children:
            node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if node is not None and node.type == "class_definition":
                self.classes[pf.text(node.child_by_field_name("name"))] = node

    def made(self, node: Any) -> str | None:
        """The class of this module a call makes (`Root()`, `Root(docstore, args)`), else None."""
        if node is None or node.type != "call":
            return None
        name = self.pf.text(node.child_by_field_name("function"))
        return name if name in self.classes else None

    def mounts(self) -> list[tuple[str, str | None, str, int]]:
        """(root class, the name of the instance handed when it is one, script name, line) of each
        quickstart / tree.mount / Application call."""
        out = []
        for call in parsing.descendants(self.pf.tree.root_node, "call"):
            function = call.child_by_field_name("function")
            text = "".join(self.pf.text(function).split()) if function is not None else ""
            if text not in ("cherrypy.quickstart", "cherrypy.tree.mount", "cherrypy.Application",
                            "tree.mount", "quickstart"):
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            root = positional[0] if positional else keywords.get("root")
            script = positional[1] if len(positional) > 1 else keywords.get("script_name")
            name, instance = self.made(root), None
            if name is None and root is not None and root.type == "identifier":
                name, instance = self.made(self.bound(root, call)), self.pf.text(root)
            prefix = py_string(self.pf, script) if script is not None else ""
            if name is not None and prefix is not None and (prefix == "" or prefix.startswith("/")):
                out.append((name, instance, prefix, call.start_point[0] + 1))
        return out

    def bound(self, name: Any, at: Any) -> Any:
        """What `name` was last assigned before `at`, in the function around it or the module."""
        scope = at.parent
        while scope is not None and scope.type not in ("function_definition", "module"):
            scope = scope.parent
        found = None
        for node in parsing.descendants(scope, "assignment") if scope is not None else ():
            left = node.child_by_field_name("left")
            if node.start_byte < at.start_byte and left is not None and left.type == "identifier" and \
                    self.pf.text(left) == self.pf.text(name):
                found = node.child_by_field_name("right")
        return found

    def walk(self, name: str, prefix: str, line: int, seen: tuple[str, ...], out: list[Surface],
             instance: str | None = None) -> None:
        if name in seen or len(seen) >= _DEPTH:
            return
        cls = self.classes[name]
        body = cls.child_by_field_name("body")
        whole = any(self._assigns(stmt, "exposed") is True for stmt in body.named_children)
        flagged = {self.pf.text(_statement(stmt).child_by_field_name("left").child_by_field_name("object"))
                   for stmt in body.named_children if self._exposes(stmt)}
        functions = [(stmt, fn) for stmt in body.named_children
                     if (fn := stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt)
                     is not None and fn.type == "function_definition"]
        resource = whole and any(self.pf.text(fn.child_by_field_name("name")) in _VERB_NAMES for _, fn in functions)
        for stmt, fn in functions:
            method = self.pf.text(fn.child_by_field_name("name"))
            decorators = [d for d in stmt.named_children if d.type == "decorator"] \
                if stmt.type == "decorated_definition" else []
            exposed = any(self._is_expose(d) for d in decorators) or method in flagged or \
                whole and not method.startswith("_")
            if resource:  # (the MethodDispatcher's: its GET, POST... answer at the node)
                if method in _VERB_NAMES:
                    self._route(out, [method], prefix or "/", self._segments(fn, decorators), name, fn, line)
            elif exposed:
                verbs = self._allowed(decorators) or ["ANY"]
                base = prefix + "/" if method == "index" else prefix + "/*" if method == "default" else \
                    f"{prefix}/{method}"
                self._route(out, verbs, base, self._segments(fn, decorators)
                            if method not in ("index", "default") else [""], name, fn, line)
        for child, child_class in self.children(cls, instance):
            self.walk(child_class, f"{prefix}/{child}", line, (*seen, name), out)

    def children(self, cls: Any, instance: str | None) -> list[tuple[str, str]]:
        """(attribute, class) of each child a class holds: `api = Api()` in its body, `self.api =
        Api(...)` in its `__init__`, or, on the instance a mount is handed (`root`), `root.api = Api()`."""
        out = []
        for node in parsing.descendants(cls, "assignment"):
            left = node.child_by_field_name("left")
            made = self.made(node.child_by_field_name("right"))
            if made is None or left is None:
                continue
            if left.type == "identifier" and _statement_parent(node) == cls.child_by_field_name("body"):
                out.append((self.pf.text(left), made))
            elif left.type == "attribute" and self.pf.text(left.child_by_field_name("object")) == "self":
                fn = node.parent
                while fn is not None and fn.type != "function_definition":
                    fn = fn.parent
                if fn is not None and self.pf.text(fn.child_by_field_name("name")) == "__init__":
                    out.append((self.pf.text(left.child_by_field_name("attribute")), made))
        for node in parsing.descendants(self.pf.tree.root_node, "assignment") if instance is not None else ():
            left = node.child_by_field_name("left")
            obj = left.child_by_field_name("object") if left is not None and left.type == "attribute" else None
            made = self.made(node.child_by_field_name("right"))
            if obj is not None and obj.type == "identifier" and made is not None and self.pf.text(obj) == instance:
                out.append((self.pf.text(left.child_by_field_name("attribute")), made))
        return list(dict.fromkeys(out))

    def _route(self, out: list[Surface], verbs: list[str], base: str, tails: list[str], cls: str, fn: Any,
               mount_line: int) -> None:
        line = fn.start_point[0] + 1
        for tail in tails:
            path = (base.rstrip("/") + tail) if tail else base
            for verb in verbs:
                out.append(Surface(kind="http-route", name=f"{verb} {path or '/'}", line=line,
                                   end_line=fn.end_point[0] + 1, framework="cherrypy",
                                   handler=f"{cls}.{self.pf.text(fn.child_by_field_name('name'))}",
                                   detail={"method": verb, "path": path or "/", "mount_line": mount_line}))

    def _segments(self, fn: Any, decorators: list[Any]) -> list[str]:
        """The paths after a handler's own: its positional parameters without a default, one
        segment each (CherryPy hands the URL's remaining segments to them in turn); with `*args`,
        none and any more (`/*`)."""
        params = fn.child_by_field_name("parameters").named_children
        static = any(self.pf.text(d.named_child(0)) == "staticmethod" for d in decorators)
        names, splat = [], False
        for param in params if static else params[1:]:  # (self)
            inner = param.named_child(0) if param.type == "typed_parameter" else param
            if param.type == "positional_separator" or param.type == "comment":
                continue
            if inner is not None and inner.type == "identifier":
                names.append(self.pf.text(inner))
            elif inner is not None and inner.type == "list_splat_pattern":
                splat = True
                break
            else:
                break  # (a default, `*`, `**kwargs`: query parameters from here on)
        fixed = "".join(f"/{{{n}}}" for n in names)
        return [fixed, fixed + "/*"] if splat else [fixed]

    def _is_expose(self, decorator: Any) -> bool:
        expr = decorator.named_child(0)
        expr = expr.child_by_field_name("function") if expr is not None and expr.type == "call" else expr
        return expr is not None and "".join(self.pf.text(expr).split()) in ("cherrypy.expose", "expose")

    def _allowed(self, decorators: list[Any]) -> list[str]:
        """The methods `@cherrypy.tools.allow(methods=["POST"])` lets through."""
        for d in decorators:
            expr = d.named_child(0)
            if expr is None or expr.type != "call" or not self.pf.text(expr.child_by_field_name("function")).endswith(
                    "tools.allow"):
                continue
            positional, keywords = py_args(expr.child_by_field_name("arguments"))
            value = py_literal(self.pf, keywords.get("methods") or (positional[0] if positional else expr))
            if isinstance(value, str):
                value = [value]
            if isinstance(value, list) and value and all(isinstance(v, str) and v.lower() in HTTP_VERBS for v in value):
                return [v.upper() for v in value]
        return []

    def _assigns(self, stmt: Any, name: str) -> Any:
        """The literal a class-body statement `name = <literal>` binds, else None."""
        node = _statement(stmt)
        if node is None or node.type != "assignment" or self.pf.text(node.child_by_field_name("left")) != name:
            return None
        value = py_literal(self.pf, node.child_by_field_name("right"))
        return value if isinstance(value, bool) else None

    def _exposes(self, stmt: Any) -> bool:
        """`handler.exposed = True` in a class body."""
        node = _statement(stmt)
        left = node.child_by_field_name("left") if node is not None and node.type == "assignment" else None
        return left is not None and left.type == "attribute" and \
            self.pf.text(left.child_by_field_name("attribute")) == "exposed" and \
            left.child_by_field_name("object").type == "identifier" and \
            py_literal(self.pf, node.child_by_field_name("right")) is True


def _statement(stmt: Any) -> Any:
    """The assignment (or expression) a statement is, with or without the grammar's
    expression_statement around it."""
    return stmt.named_child(0) if stmt.type == "expression_statement" and stmt.named_child_count else stmt


def _statement_parent(node: Any) -> Any:
    """The block a statement-level node is written in."""
    parent = node.parent
    return parent.parent if parent is not None and parent.type == "expression_statement" else parent
