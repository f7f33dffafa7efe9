"""Python literals read from source text: `ast.literal_eval` without its warnings. A string with an
invalid escape (`"\\d+"`, common in regexes and docstrings) makes Python warn as it compiles the
text (a SyntaxWarning, printed by default since 3.12): the code is the package's, not ours, and
mining it must not print to the user's terminal."""

from __future__ import annotations

import ast
import warnings
from typing import Any


def literal_eval(text: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(text)
