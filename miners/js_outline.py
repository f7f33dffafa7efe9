"""The matches of a JS/TS file's declarations query that the declarations reader keeps, found
without the query's pass over the whole tree: for a file no other concern needs that pass for (no
effect to find, no surface declared), reading it costs a third of the parse again.

The reader (miners/declarations.py, `_javascript`) keeps a definition only when it sits at module
level or in a namespace: every node between it and the program is an export, a declaration, an
expression statement, a namespace or `declare` body (`_js_scope`). So the definitions are found by
descending from the program through those nodes alone; the methods it keeps are those of the
classes found so; the CommonJS assignments (`module.exports = x`, `exports.x = y`), which may sit
anywhere, are found from where the word `exports` occurs. The root-anchored patterns (`export`
forms) come from their own query, as in the combined pass. Each match is a dict of capture name
to nodes, like the cursor's, with the same capture names, in the order the pass would give them
(by the node that completes the match, then the root-anchored ones). Calls are not found: the
reader wants them only when the file has effects, and then the pass has run.
"""

from __future__ import annotations

import functools
from typing import Any

from miners.parsing import root_matches, root_type, split_patterns
from miners.words import nodes, positions

Match = tuple[int, dict[str, list[Any]]]

# nodes the reader's scope walk passes through (declarations._JS_WRAPPERS and _NAMESPACES); a
# statement block only as a namespace's or a `declare`'s body
_THROUGH = frozenset({"export_statement", "ambient_declaration", "lexical_declaration", "variable_declaration",
                      "expression_statement", "internal_module", "module"})
_BLOCK_OWNERS = frozenset({"internal_module", "module", "ambient_declaration"})
_FUNCTION_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration", "function_signature"})
_CLASS_DECLARATIONS = frozenset({"class_declaration", "abstract_class_declaration"})
_EXPORTED_FUNCTIONS = frozenset({"function_expression", "generator_function", "arrow_function"})
_METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
_FIELDS = {"javascript": ("field_definition", "property")}  # the field member holding a function, and its name's field
_TS_FIELD = ("public_field_definition", "name")
_FIELD_VALUES = frozenset({"arrow_function", "function_expression"})

_NO_INDEX = -1  # the pattern index: the reader never reads it


def declaration_matches(parsed: Any) -> list[Match] | None:
    """The declarations query's matches the reader keeps, or None when this file's language has
    no split query (the caller then runs the pass)."""
    if next(positions(parsed.source, b"export"), None) is not None or not _only_exports(parsed.language):
        rooted = root_matches(parsed, "declarations")
        if rooted is None:
            return None
    else:
        rooted = []  # every root-anchored pattern is an `export` statement, and the file has none
    root = parsed.tree.root_node
    found: list[tuple[int, int, dict[str, list[Any]]]] = []  # (completing byte, order, match)
    stack = [root]
    while stack:
        parent = stack.pop()
        for child in parent.named_children:
            kind = child.type
            if kind in _THROUGH or kind == "statement_block" and parent.type in _BLOCK_OWNERS:
                stack.append(child)
            if kind in _FUNCTION_DECLARATIONS or kind in _CLASS_DECLARATIONS:
                name = child.child_by_field_name("name")
                if name is not None and (name.type == "identifier" or kind in _CLASS_DECLARATIONS and (
                        parsed.language != "javascript" or name.type == "identifier")) and name.is_named:
                    capture = "function" if kind in _FUNCTION_DECLARATIONS else "class"
                    found.append((name.start_byte, len(found), {capture: [child], "name": [name]}))
                    if capture == "class":
                        _methods(parsed, child, found)
            elif kind == "variable_declarator":
                found.append((child.start_byte, len(found), {"declarator": [child]}))
            elif kind == "assignment_expression" and parent.type == "expression_statement":
                member = _member_function(child)
                if member is not None:
                    found.append((member["member.value"][0].start_byte, len(found), member))
            elif parent.type == "export_statement" and parent.child_by_field_name("value") == child:
                if kind in _EXPORTED_FUNCTIONS:
                    found.append((child.start_byte, len(found), {"function": [child]}))
                elif kind == "class":
                    found.append((child.start_byte, len(found), {"class": [child]}))
                    _methods(parsed, child, found)
    _commonjs(parsed, root, found)
    found.sort(key=lambda item: (item[0], item[1]))
    return [(_NO_INDEX, m) for _, _, m in found] + rooted


@functools.cache
def _only_exports(language: str) -> bool:
    """Whether every root-anchored declarations pattern of the language matches an export statement."""
    split = split_patterns(language, "declarations")
    return split is not None and all(p.startswith(f"({root_type(language)} (export_statement") for p in split[1])


def _methods(parsed: Any, cls: Any, found: list[tuple[int, int, dict[str, list[Any]]]]) -> None:
    """A class body's callable members, as `(class_body [...] @method)` matches them."""
    body = cls.child_by_field_name("body")
    if body is None or body.type != "class_body":
        return
    field, name_field = _FIELDS.get(parsed.language, _TS_FIELD)
    methods = ("method_definition",) if parsed.language == "javascript" else _METHODS
    for member in body.named_children:
        if member.type in methods:
            name = member.child_by_field_name("name")
            if name is not None and name.is_named:
                found.append((name.start_byte, len(found), {"method": [member], "name": [name]}))
        elif member.type == field:
            name, value = member.child_by_field_name(name_field), member.child_by_field_name("value")
            if name is not None and name.is_named and value is not None and value.type in _FIELD_VALUES:
                found.append((value.start_byte, len(found), {"method": [member], "name": [name]}))


def _member_function(assignment: Any) -> dict[str, list[Any]] | None:
    """`owner.name = function` as the `member.*` pattern matches it."""
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or right is None or left.type != "member_expression" or right.type not in _EXPORTED_FUNCTIONS:
        return None
    owner, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
    if owner is None or prop is None or owner.type != "identifier" or prop.type != "property_identifier":
        return None
    return {"member.owner": [owner], "member.name": [prop], "member.value": [right]}


def _commonjs(parsed: Any, root: Any, found: list[tuple[int, int, dict[str, list[Any]]]]) -> None:
    """`module.exports = v`, `module.exports.n = v`, `exports.n = v`, wherever they are."""
    for node in nodes(parsed.source, root, b"exports"):
        match = _commonjs_match(parsed, node)
        if match is not None:
            found.append((match[0], len(found), match[1]))


def _commonjs_match(parsed: Any, node: Any) -> tuple[int, dict[str, list[Any]]] | None:
    member = node.parent
    if member is None or member.type != "member_expression":
        return None
    if node.type == "identifier":  # exports.n = v
        if member.child_by_field_name("object") != node:
            return None
        return _assigned(member, member.child_by_field_name("property"), "cjs.name")
    if node.type != "property_identifier" or member.child_by_field_name("property") != node:
        return None
    obj = member.child_by_field_name("object")
    if obj is None or obj.type != "identifier" or parsed.source[obj.start_byte:obj.end_byte] != b"module":
        return None
    outer = member.parent
    if outer is not None and outer.type == "assignment_expression":  # module.exports = v
        return _assigned(member, None, "cjs.default")
    if outer is not None and outer.type == "member_expression" and outer.child_by_field_name("object") == member:
        return _assigned(outer, outer.child_by_field_name("property"), "cjs.name")  # module.exports.n = v
    return None


def _assigned(left: Any, prop: Any, capture: str) -> tuple[int, dict[str, list[Any]]] | None:
    """The match when `left` is the left side of an assignment (and `prop`, if wanted, a plain name)."""
    assignment = left.parent
    if assignment is None or assignment.type != "assignment_expression" or \
            assignment.child_by_field_name("left") != left:
        return None
    right = assignment.child_by_field_name("right")
    if right is None or not right.is_named:
        return None
    if capture == "cjs.default":
        return right.start_byte, {"cjs.default": [right]}
    if prop is None or prop.type != "property_identifier":
        return None
    return right.start_byte, {"cjs.name": [prop], "cjs.value": [right]}
