"""Routes a package's own Blueprint subclass registers under more than one path. sahara's
`class Rest(flask.Blueprint)` overrides `route(self, rule, **options)`: its decorator calls
`self.add_url_rule(rule, ...)`, then with `rule + '.json'`, with `f_rule = "/<tenant_id>" + rule`
and with `f_rule + '.json'`. A view decorated `@rest.get("/clusters")` on an instance of that class
is served at each path its `route()` makes of the rule.

Per file (`rule_forms`): each class whose `route` method passes its rule parameter to
`self.add_url_rule`, alone or joined to string literals (directly or through a name the method
binds): the (prefix, suffix) pairs, ("", "") being the rule as given. A class without a `route`
of its own takes its same-file base's. When any registration's path is not made so, the class
gives nothing: its routes stay as written. A `route()` that registers nothing so but rewrites its
rule before it keeps it (roundup's `Routing.route`: `rule.strip('/')`, then `'^rest/' + rule +
'$'`, then `re.compile`) has the one form that rewrite makes, a regex's anchors dropped.

In assembly (`expand_rule_forms`), a route on a module-level instance of such a class, or on the
class itself (detail["receiver_class"], the dotted name the constructor was imported as, or a
same-file class name), becomes one route per distinct prefix. A form that only appends a suffix to another
(".json") is another spelling of the same operation, not another one: the route says it is also
served so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .facts import FileFacts, ParsedFile, Surface
from .python_modules import absolute, find_through_reexports, module_files

Forms = tuple[tuple[str, str], ...]
_BASE_HOPS = 3  # same-file bases followed for a class without its own route()

RULE_FORM = "{cls}.route() ({where}:{line}) registers each rule at {forms}"
ALSO_SERVED = "also served with {} appended to the path (the same operation)"


def rule_forms(parsed: ParsedFile) -> dict[str, tuple[Forms, int]]:
    """Class name -> (its route()'s path forms, the method's line), for the classes of this file
    whose `route(self, rule, ...)` registers the rule under other paths too (cheap: words first)."""
    source = parsed.source
    if b"def route" not in source or b"add_url_rule" not in source and b"rule = " not in source:
        return {}
    own: dict[str, tuple[Forms, int]] = {}
    bases: dict[str, list[str]] = {}
    for stmt in parsed.tree.root_node.named_children:
        cls = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if cls is None or cls.type != "class_definition":
            continue
        name = parsed.text(cls.child_by_field_name("name"))
        supers = cls.child_by_field_name("superclasses")
        bases[name] = [parsed.text(b).rsplit(".", 1)[-1] for b in supers.named_children
                       if b.type in ("identifier", "attribute")] if supers is not None else []
        body = cls.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            fn = member.child_by_field_name("definition") if member.type == "decorated_definition" else member
            if fn is not None and fn.type == "function_definition" and parsed.text(fn.child_by_field_name("name")) == "route":
                forms = _route_forms(parsed, fn)
                if forms:
                    own[name] = (forms, fn.start_point[0] + 1)
    out = dict(own)
    for name in bases:
        seen, current = 0, name
        while name not in out and seen < _BASE_HOPS:
            parent = next((b for b in bases.get(current, ()) if b in bases), None)
            if parent is None:
                break
            if parent in own:
                out[name] = own[parent]
            current, seen = parent, seen + 1
    return out


def _route_forms(parsed: ParsedFile, fn: Any) -> Forms | None:
    params = [p for p in fn.child_by_field_name("parameters").named_children
              if p.type in ("identifier", "typed_parameter", "default_parameter", "typed_default_parameter")]
    if len(params) < 2:
        return None
    rule_node = params[1] if params[1].type == "identifier" else params[1].child_by_field_name("name") or \
        (params[1].named_children[0] if params[1].named_children else None)
    if rule_node is None or rule_node.type != "identifier":
        return None
    rule = parsed.text(rule_node)
    bound: dict[str, Any] = {}
    calls: list[Any] = []
    stack = [fn.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                name = parsed.text(left)
                bound[name] = None if name in bound else node.child_by_field_name("right")  # bound twice: unknown
        elif node.type == "call":
            function = node.child_by_field_name("function")
            if function is not None and function.type == "attribute" and \
                    parsed.text(function.child_by_field_name("attribute")) == "add_url_rule" and \
                    parsed.text(function.child_by_field_name("object")) == "self":
                calls.append(node)
        stack.extend(node.named_children)
    if not calls:
        return _rewritten(parsed, fn.child_by_field_name("body"), rule)
    forms: list[tuple[str, str]] = []
    for call in sorted(calls, key=lambda c: c.start_byte):
        args = call.child_by_field_name("arguments")
        first = next((a for a in args.named_children if a.type != "comment"), None) if args is not None else None
        if first is not None and first.type == "keyword_argument":
            first = first.child_by_field_name("value") if parsed.text(first.child_by_field_name("name")) == "rule" else None
        form = _form(parsed, first, rule, bound, 0)
        if form is None:
            return None  # a registration made of something else: nothing is guessed
        forms.append(form)
    unique = tuple(dict.fromkeys(forms))
    return unique if any(form != ("", "") for form in unique) else None


def _rewritten(parsed: ParsedFile, body: Any, rule: str) -> Forms | None:
    """The one form of a route() that rewrites its rule before it keeps it (roundup's
    `rule = rule.strip('/')`, then `rule = '^rest/' + rule + '$'` under `if not
    rule.startswith('rest/')`, then `rule = re.compile(...)` of it): the literals joined to it, a
    regex's anchors dropped; None when the rule is rewritten any other way, or not at all."""
    stripped, prefix, suffix, changed = False, "", "", False
    stack = list(reversed(body.named_children)) if body is not None else []
    while stack:
        stmt = stack.pop()
        if stmt.type == "if_statement":  # (a condition on the rule: the case its rewrite is for)
            block = stmt.child_by_field_name("consequence")
            stack.extend(reversed(block.named_children) if block is not None else ())
            continue
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if node.type != "assignment" or parsed.text(node.child_by_field_name("left")) != rule:
            continue
        right = node.child_by_field_name("right")
        function = right.child_by_field_name("function") if right is not None and right.type == "call" else None
        if function is not None and function.type == "attribute" and \
                parsed.text(function.child_by_field_name("object")) == rule and \
                parsed.text(function.child_by_field_name("attribute")) in ("strip", "lstrip") and \
                parsed.text(right.child_by_field_name("arguments")) in ("('/')", '("/")'):
            stripped, changed = True, True
            continue
        if function is not None and parsed.text(function) == "re.compile":
            break  # the rule made the regex it is matched by (its parameters as groups): the path as it stands
        form = _form(parsed, right, rule, {}, 0)
        if form is None:
            return None
        prefix, suffix, changed = form[0] + prefix, suffix + form[1], True
    if not changed:
        return None
    head = prefix.removeprefix("^").strip("/") if stripped else prefix.removeprefix("^").rstrip("/")
    form = ("/" + head if head else "", suffix.removesuffix("$"))
    return (form,) if form != ("", "") else None


def _form(parsed: ParsedFile, node: Any, rule: str, bound: dict[str, Any], depth: int) -> tuple[str, str] | None:
    if node is None or depth > 8:
        return None
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _form(parsed, node.named_children[0], rule, bound, depth + 1)
    if node.type == "identifier":
        name = parsed.text(node)
        if name == rule:
            return "", ""
        return _form(parsed, bound.get(name), rule, bound, depth + 1)
    if node.type == "binary_operator" and parsed.text(node.child_by_field_name("operator")) == "+":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        text = _literal(parsed, left)
        if text is not None:
            inner = _form(parsed, right, rule, bound, depth + 1)
            return (text + inner[0], inner[1]) if inner is not None else None
        text = _literal(parsed, right)
        if text is not None:
            inner = _form(parsed, left, rule, bound, depth + 1)
            return (inner[0], inner[1] + text) if inner is not None else None
    return None


def _literal(parsed: ParsedFile, node: Any) -> str | None:
    """A plain string literal (no f-string interpolation), else None."""
    if node is None or node.type != "string" or any(c.type == "interpolation" for c in node.named_children):
        return None
    content = [c for c in node.named_children if c.type == "string_content"]
    text = parsed.text(node)
    quote = text.lstrip("rRbBuU")[:1]
    if not quote or text[:1] in "bB" or "\\" in "".join(parsed.text(c) for c in content):
        return None
    return "".join(parsed.text(c) for c in content)


def expand_rule_forms(facts: dict[str, FileFacts]) -> None:
    """Routes on an instance of a class whose route() registers each rule under several paths:
    one route per path it makes, each saying which class made it (in place; before mounts apply)."""
    if not any(f.rule_forms for f in facts.values()):
        return
    modules = module_files(facts)
    for path, f in facts.items():
        if not any("receiver_class" in s.detail for s in f.surfaces):
            continue
        out = []
        for surface in f.surfaces:
            made = surface.detail.get("receiver_class")
            found = _class_forms(facts, modules, path, made) if made else None
            if found is None or surface.kind != "http-route" or "\0" in surface.detail.get("path", "\0"):
                out.append(surface)
                continue
            out += _expanded(surface, *found)
        f.surfaces = out


def _class_forms(facts: dict[str, FileFacts], modules: dict[str, str], path: str,
                 made: str) -> tuple[str, Forms, int, str] | None:
    """(class name, forms, line, its file) of the class a receiver was made by."""
    if "." not in made:
        local = facts[path].rule_forms.get(made)
        return (made, *local, path) if local else None

    def lookup(where: str, name: str) -> tuple[str, Forms, int, str] | None:
        known = facts[where].rule_forms.get(name)
        return (name, *known, where) if known else None

    return find_through_reexports(facts, modules, absolute(made, path), lookup)


def _expanded(surface: Surface, cls: str, forms: Forms, line: int, where: str) -> list[Surface]:
    method, full = surface.detail.get("method", surface.name.split(" ", 1)[0]), surface.detail["path"]
    prefix = surface.detail.get("prefix", "")
    rule = full[len(prefix.rstrip("/")):] if prefix and full.startswith(prefix.rstrip("/")) else full
    by_prefix: dict[str, list[str]] = {}
    for before, after in forms:
        by_prefix.setdefault(before, []).append(after)
    spelled = [repr(b + "<rule>" + a) if b or a else "the rule itself" for b, a in forms]
    written = ", ".join(spelled[:-1]) + " and " + spelled[-1] if len(spelled) > 1 else spelled[0]
    out = []
    for before, suffixes in by_prefix.items():
        suffixes = sorted(suffixes, key=len)
        path = prefix.rstrip("/") + before + rule + suffixes[0]
        detail = {**surface.detail, "path": path,
                  "rule_form": {"class": cls, "path": where, "line": line,
                                "note": RULE_FORM.format(cls=cls, where=where, line=line, forms=written)}}
        if len(suffixes) > 1:
            detail["rule_form"]["also"] = ALSO_SERVED.format(" or ".join(repr(s) for s in suffixes[1:]))
        out.append(replace(surface, name=f"{method} {path}", detail=detail))
    return out
