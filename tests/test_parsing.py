"""miners/parsing.py: the walks other modules rely on."""

from __future__ import annotations

import pytest

from miners import parsing

# a definition under every kind of statement that can hold one, and one after a syntax error
SOURCE = b'''
import x

@dec
class Top(Base):
    class Inner:
        def method(self):
            class Local: pass
            return [lambda: 1 for _ in ()]

if x:
    def in_if(): pass
elif y:
    class InElif: pass
else:
    def in_else(): pass

try:
    class InTry: pass
except ValueError:
    def in_except(): pass
else:
    def in_try_else(): pass
finally:
    class InFinally: pass

try:
    pass
except* OSError:
    class InExceptGroup: pass

for i in x:
    def in_for(): pass
else:
    class InForElse: pass

while x:
    @wraps(f)
    def in_while(): pass

with open(x) as f:
    class InWith: pass

async def coroutine():
    async with x:
        class InAsyncWith: pass

match command:
    case [a]:
        def in_case(): pass

def broken(:
    class AfterError: pass
'''


@pytest.mark.parametrize("kind", ["class_definition", "function_definition", "decorated_definition"])
def test_python_definitions_finds_what_a_full_walk_finds(kind: str) -> None:
    tree = parsing.parse("python", SOURCE)
    full = [n.start_byte for n in parsing.descendants(tree.root_node, kind)]
    assert len(full) >= 2
    assert [n.start_byte for n in parsing.python_definitions(tree.root_node, kind)] == full


def test_python_definitions_names_every_class() -> None:
    tree = parsing.parse("python", SOURCE)
    names = {SOURCE[n.start_byte:n.end_byte].decode() for c in parsing.python_definitions(tree.root_node, "class_definition")
             if (n := c.child_by_field_name("name")) is not None}
    assert {"Top", "Inner", "Local", "InElif", "InTry", "InFinally", "InExceptGroup", "InForElse", "InWith",
            "InAsyncWith", "AfterError"} <= names
