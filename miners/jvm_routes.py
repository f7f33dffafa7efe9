"""HTTP routes of Java and Kotlin classes, from their annotations: Spring MVC (`@RequestMapping`
on a class is the prefix; `@GetMapping`, `@PostMapping`..., `@RequestMapping(method = ...)` on a
method are its routes) and JAX-RS (`@Path` on the class and the method, `@GET`, `@POST`... on
the method). Paths are read where they are literal: a string, an array of them, a same-file
constant (`static final String`, `const val`) or a `+` of those; a path variable's regex
(`{id:\\d+}`) is dropped from the name. Only files that import the framework are read, and a
`@RequestMapping` naming no method serves every one (`ANY`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .doc_comments import doc_comment_text
from .facts import ParsedFile, Surface
from .parsing import descendants

SPRING = {"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT", "DeleteMapping": "DELETE",
          "PatchMapping": "PATCH", "RequestMapping": None}
JAX_RS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
_VARIABLE_REGEX = re.compile(r"\{([A-Za-z_]\w*):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")  # {id:\d+} -> {id}

Annotation = tuple[str, list[tuple[str | None, Any]]]  # (last name, [(key or None, value node)])


def extract(parsed: ParsedFile) -> list[Surface]:
    source = parsed.source
    spring = b"org.springframework" in source and b"Mapping" in source
    jax_rs = (b"javax.ws.rs" in source or b"jakarta.ws.rs" in source) and b"@Path" in source
    if not (spring or jax_rs) or parsed.tree is None:
        return []
    reader = _Kotlin(parsed) if parsed.language == "kotlin" else _Java(parsed)
    out: list[Surface] = []
    for cls, name in reader.classes(parsed.tree.root_node):
        annotations = reader.annotations(cls)
        if spring:
            prefixes = _spring_paths(reader, annotations.get("RequestMapping")) if "RequestMapping" in annotations \
                else [""]
        else:
            prefixes = reader.strings(_value(annotations["Path"])) or [""] if "Path" in annotations else [""]
        for method, method_name in reader.methods(cls):
            found = reader.annotations(method)
            routes: list[tuple[str, str]] = []  # (HTTP method, path)
            if spring:
                for annotation, verb in SPRING.items():
                    if annotation not in found:
                        continue
                    verbs = [verb] if verb else reader.members(_keyed(found[annotation], "method")) or ["ANY"]
                    routes += [(v, p) for v in verbs for p in _spring_paths(reader, found[annotation])]
            else:
                verbs = [v for v in JAX_RS if v in found]
                paths = reader.strings(_value(found["Path"])) if "Path" in found else [""]
                routes += [(v, p) for v in verbs for p in paths or []]
            for verb, path in dict.fromkeys(routes):
                for prefix in prefixes:
                    full = _VARIABLE_REGEX.sub(r"{\1}", "/" + "/".join(
                        part.strip("/") for part in (prefix, path) if part.strip("/")))
                    out.append(Surface(kind="http-route", name=f"{verb} {full}", line=method.start_point[0] + 1,
                                       end_line=method.end_point[0] + 1,
                                       framework="spring" if spring else "jax-rs", handler=f"{name}.{method_name}",
                                       description=reader.doc(method), detail={"method": verb, "path": full}))
    return out


def _spring_paths(reader: Any, annotation: list[tuple[str | None, Any]] | None) -> list[str]:
    """A mapping's paths: its unnamed value, `value` or `path`; none written is the class's own."""
    if annotation is None:
        return [""]
    node = _keyed(annotation, "value") or _keyed(annotation, "path") or _value(annotation)
    if node is None:
        return [""]
    return reader.strings(node)  # [] when not literal: no route rather than a wrong one


def _value(args: list[tuple[str | None, Any]] | None) -> Any:
    return next((v for k, v in args or [] if k is None), None)


def _keyed(args: list[tuple[str | None, Any]] | None, key: str) -> Any:
    return next((v for k, v in args or [] if k == key), None)


class _Java:
    ARRAY = "element_value_array_initializer"  # {"/a", "/b"}
    MEMBERS = ("field_access", "identifier")  # RequestMethod.GET

    def __init__(self, parsed: ParsedFile) -> None:
        self.pf = parsed
        self.constants: dict[str, str] = {}
        for node in descendants(parsed.tree.root_node, "field_declaration"):
            for declarator in (c for c in node.named_children if c.type == "variable_declarator"):
                name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
                if name is not None and value is not None and value.type == "string_literal":
                    self.constants[self.pf.text(name)] = self._string(value)

    def classes(self, root: Any) -> Iterator[tuple[Any, str]]:
        for node in descendants(root, ("class_declaration", "interface_declaration")):
            name = node.child_by_field_name("name")
            if name is not None:
                yield node, self.pf.text(name)

    def methods(self, cls: Any) -> Iterator[tuple[Any, str]]:
        body = cls.child_by_field_name("body")
        for node in body.named_children if body is not None else []:
            if node.type == "method_declaration" and (name := node.child_by_field_name("name")) is not None:
                yield node, self.pf.text(name)

    def annotations(self, node: Any) -> dict[str, list[tuple[str | None, Any]]]:
        out: dict[str, list[tuple[str | None, Any]]] = {}
        for modifiers in (c for c in node.named_children if c.type == "modifiers"):
            for annotation in modifiers.named_children:
                if annotation.type not in ("annotation", "marker_annotation"):
                    continue
                name = self.pf.text(annotation.child_by_field_name("name")).rsplit(".", 1)[-1]
                args = annotation.child_by_field_name("arguments")
                out[name] = [(self.pf.text(a.child_by_field_name("key")), a.child_by_field_name("value"))
                             if a.type == "element_value_pair" else (None, a)
                             for a in (args.named_children if args is not None else []) if a.type != "block_comment"]
        return out

    def strings(self, node: Any) -> list[str]:
        if node is None:
            return []
        if node.type == self.ARRAY:
            return [s for item in node.named_children for s in self.strings(item)]
        value = self._text_value(node, 0)
        return [value] if value is not None else []

    def _text_value(self, node: Any, depth: int) -> str | None:
        if depth > 8:
            return None
        if node.type == "string_literal":
            return self._string(node)
        if node.type in ("identifier", "field_access"):
            name = self.pf.text(node).rsplit(".", 1)[-1]
            return self.constants.get(name)
        if node.type == "binary_expression" and self.pf.text(node.child_by_field_name("operator")) == "+":
            left = self._text_value(node.child_by_field_name("left"), depth + 1)
            right = self._text_value(node.child_by_field_name("right"), depth + 1)
            return left + right if left is not None and right is not None else None
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            return self._text_value(node.named_children[0], depth + 1)
        return None

    def _string(self, node: Any) -> str:
        return "".join(self.pf.text(c) for c in node.named_children if c.type == "string_fragment")

    def members(self, node: Any) -> list[str]:
        """RequestMethod.GET, {RequestMethod.GET, RequestMethod.POST}: the constants' names."""
        if node is None:
            return []
        items = node.named_children if node.type == self.ARRAY else [node]
        return [self.pf.text(i).rsplit(".", 1)[-1] for i in items if i.type in self.MEMBERS]

    def doc(self, node: Any) -> str:
        return _javadoc(self.pf, node, "block_comment")


class _Kotlin(_Java):
    ARRAY = "collection_literal"  # ["/a", "/b"]
    MEMBERS = ("navigation_expression", "simple_identifier")
    def __init__(self, parsed: ParsedFile) -> None:  # (not Java's: Kotlin's constants are other nodes)
        self.pf = parsed
        self.constants = {}
        for node in descendants(parsed.tree.root_node, "property_declaration"):
            name = next((c for c in descendants(node, "simple_identifier")), None)
            value = next((c for c in node.named_children if c.type == "string_literal"), None)
            if name is not None and value is not None:
                self.constants[self.pf.text(name)] = self._string(value)

    def classes(self, root: Any) -> Iterator[tuple[Any, str]]:
        for node in descendants(root, ("class_declaration", "object_declaration")):
            name = next((c for c in node.named_children if c.type == "type_identifier"), None)
            if name is not None:
                yield node, self.pf.text(name)

    def methods(self, cls: Any) -> Iterator[tuple[Any, str]]:
        body = next((c for c in cls.named_children if c.type == "class_body"), None)
        for node in body.named_children if body is not None else []:
            name = next((c for c in node.named_children if c.type == "simple_identifier"), None)
            if node.type == "function_declaration" and name is not None:
                yield node, self.pf.text(name)

    def annotations(self, node: Any) -> dict[str, list[tuple[str | None, Any]]]:
        out: dict[str, list[tuple[str | None, Any]]] = {}
        for modifiers in (c for c in node.named_children if c.type == "modifiers"):
            for annotation in (a for a in modifiers.named_children if a.type == "annotation"):
                head = annotation.named_children[0] if annotation.named_children else None
                if head is None:
                    continue
                kind = head if head.type == "user_type" else next(
                    (c for c in head.named_children if c.type == "user_type"), None)
                if kind is None:
                    continue
                args = next((c for c in head.named_children if c.type == "value_arguments"), None)
                parsed_args = []
                for arg in (a for a in (args.named_children if args is not None else []) if a.type == "value_argument"):
                    parts = arg.named_children
                    if len(parts) == 2 and parts[0].type == "simple_identifier":
                        parsed_args.append((self.pf.text(parts[0]), parts[1]))
                    elif parts:
                        parsed_args.append((None, parts[-1]))
                out[self.pf.text(kind).rsplit(".", 1)[-1]] = parsed_args
        return out

    def _text_value(self, node: Any, depth: int) -> str | None:
        if depth > 8:
            return None
        if node.type == "string_literal":
            if any(c.type != "string_content" for c in node.named_children):
                return None  # a template ("$x"): not literal
            return self._string(node)
        if node.type in ("simple_identifier", "navigation_expression"):
            return self.constants.get(self.pf.text(node).rsplit(".", 1)[-1])
        if node.type == "additive_expression" and node.named_child_count == 2:
            left, right = (self._text_value(c, depth + 1) for c in node.named_children)
            return left + right if left is not None and right is not None else None
        return None

    def _string(self, node: Any) -> str:
        return "".join(self.pf.text(c) for c in node.named_children if c.type == "string_content")

    def doc(self, node: Any) -> str:
        return _javadoc(self.pf, node, "multiline_comment")


def _javadoc(pf: ParsedFile, node: Any, comment: str) -> str:
    prev = node.prev_named_sibling
    return doc_comment_text(pf.text(prev)) if prev is not None and prev.type == comment else ""
