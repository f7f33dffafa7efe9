"""The text of a `/** ... */` doc comment (JSDoc, Javadoc, KDoc) as a candidate's description."""

from __future__ import annotations


def doc_comment_text(comment: str) -> str:
    """Its first paragraph, `@tags` left out ("" for a comment that is no doc comment)."""
    if not comment.startswith("/**"):
        return ""
    lines = [line.strip().removeprefix("*").strip() for line in comment[3:].removesuffix("*/").split("\n")]
    text = "\n".join(line for line in lines if not line.startswith("@")).strip()
    return text.split("\n\n", 1)[0].replace("\n", " ").strip()
