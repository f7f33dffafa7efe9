"""The wire documents capindex reads and writes: JSON Schemas (shipped as data) and models.

`schemas.models` holds one pydantic model per document; the `*.schema.json` files
beside this module are the language-neutral form of the same rules, and the tests
prove both agree with each other and with the reference schemas.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

SCHEMA_FILES = {
    "manifest": "capability-manifest.schema.json",
    "index": "capability-index.schema.json",
    "site": "capability-site.schema.json",
    "gap": "capability-gap.schema.json",
    "binding": "metabolic-binding.schema.json",
    "bridge": "capability-bridge.schema.json",
    "lock": "capability-lock.schema.json",
    "lockset": "lock-set.schema.json",
    "candidate": "candidate.schema.json",
    "report": "mining-report.schema.json",
    "gaplisting": "gap-listing.schema.json",
}


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema for a document kind (a key of SCHEMA_FILES)."""
    return json.loads(resources.files(__name__).joinpath(SCHEMA_FILES[kind]).read_text("utf-8"))
