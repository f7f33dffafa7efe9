"""Capability-native declarations in a repository: the standard's own formats, read as declared.

- `package.json` whose `capability` field declares exports (the standard's "Package convention";
  the layout `indexer/npm_meta.capability_exports` reads, which judges every export here too).
  A descriptor export (package-relative module + complete inert manifest) becomes one Declared
  carrying that manifest; a legacy string-only export becomes a Declared without one, noted as a
  candidate only: it is not sufficient for safe acquisition.
- a standalone manifest file (`specVersion: "0.1"` with id, version, name, description), validated
  by the project's CapabilityManifest model.

An invalid export or manifest is a Problem naming its JSON path and the model's message; the other
exports are still read.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from indexer.npm_meta import capability_exports
from miners import doc_lines
from miners.declared import Declared, Imported, Problem, canonical_json, load_document, sha256
from miners.py_literals import literal_eval
from schemas.documents import detect_kind, validate
from schemas.errors import DocumentError

HEAD = 16 * 1024  # how much of a file sniff() looks at
_MANIFEST_MARK = re.compile(rb'"specVersion"\s*:\s*"0\.1"')
# version fields of the standard's other documents: an index or a bridge embeds manifests, but is not one
_OTHER_KINDS = (b'"indexVersion"', b'"capabilityDiscoveryVersion"', b'"bridgeVersion"', b'"bindingVersion"',
                b'"gapVersion"', b'"lockVersion"')
LEGACY_NOTE = ("legacy string-only export: it carries no inert manifest, so it is not sufficient for safe "
               "acquisition (a candidate only)")
NO_EFFECTS_NOTE = "the manifest declares no effects field: its effects are not stated"


def sniff(path: str, data: bytes) -> bool:
    name = _basename(path)
    if name == "package.json":
        # the whole file: npm keeps fields in any order and a package.json is small
        return b'"capability"' in data
    if not name.endswith(".json"):
        return False
    head = data[:HEAD]
    return _MANIFEST_MARK.search(head) is not None and not any(mark in head for mark in _OTHER_KINDS)


def read(path: str, data: bytes) -> Imported:
    out = Imported()
    if (loaded := load_document(path, data, out)) is None:
        return out
    value, lines = loaded
    if _basename(path) == "package.json":
        _read_package(path, data, value, lines, out)
    else:
        _read_manifest(path, data, value, lines, out)
    return out


# -- package.json --------------------------------------------------------------------------------


def _read_package(path: str, data: bytes, value: Any, lines: dict[str, int], out: Imported) -> None:
    if not isinstance(value, dict) or "capability" not in value:
        return
    package, version = _text(value.get("name")), _text(value.get("version"))
    exports = capability_exports(value, f"{package}@{version}" if package and version else path)
    out.problems += [_problem(path, text) for text in exports.problems]
    descriptors = {d["id"]: d for d in exports.descriptors}
    if not descriptors and not exports.legacy:
        return
    # both come from capability.exports, a dict by now: walk it for the declaration order
    keys = [key for key in value["capability"]["exports"] if key in descriptors or key in exports.legacy]
    pointers = {key: doc_lines.pointer("/capability/exports", key) for key in keys}
    ends = doc_lines.ends(lines, set(pointers.values()))
    source = sha256(data)
    for key in keys:
        here = pointers[key]
        metadata: dict[str, Any] = {"export": key, "package": package, "packageVersion": version}
        descriptor = descriptors.get(key)
        declared_value = descriptor["manifest"] if descriptor else exports.legacy[key]
        digest = _digest(declared_value)
        if digest is None:
            out.problems.append(Problem(path, doc_lines.json_path(here), _NO_UTF8))
            continue
        if descriptor:
            metadata |= {"module": descriptor["module"], "integrity": descriptor["integrity"]}
            fields = _manifest_fields(descriptor["manifest"])
        else:
            metadata |= {"module": exports.legacy[key], "legacy": True}
            fields = {"original_id": key, "name": key, "description": "", "namespace": _namespace(key),
                      "notes": [LEGACY_NOTE]}
        out.operations.append(_declared(path, lines, ends, here, source, digest, metadata=metadata, **fields))


# -- standalone manifest ---------------------------------------------------------------------------


def _read_manifest(path: str, data: bytes, value: Any, lines: dict[str, int], out: Imported) -> None:
    kind = detect_kind(value)
    if kind not in (None, "manifest"):
        return  # another document of the standard (an index, a site...): read by the indexer, not here
    if kind is None:
        out.problems.append(Problem(path, "$", 'not a Capability manifest: no specVersion'))
        return
    try:
        validate("manifest", value, path)
    except DocumentError as exc:
        out.problems += [_problem(path, text) for text in exc.problems]
        return
    digest = _digest(value)
    if digest is None:
        out.problems.append(Problem(path, "$", _NO_UTF8))
        return
    out.operations.append(_declared(path, lines, doc_lines.ends(lines, {""}), "", sha256(data), digest,
                                    **_manifest_fields(value)))


def _manifest_fields(manifest: dict[str, Any]) -> dict[str, Any]:
    """Declared fields of a validated manifest. The manifest format's behaviour (deterministic,
    idempotent, reversible) says nothing of reading only, so read_only stays None."""
    return {
        "original_id": manifest["id"],
        "name": manifest["name"],
        "description": manifest["description"],
        "namespace": _namespace(manifest["id"]),
        "input_schema": manifest.get("input"),
        "output_schema": manifest.get("output"),
        "effects": list(manifest.get("effects", [])),
        "read_only": None,
        "manifest": manifest,
        "notes": [] if "effects" in manifest else [NO_EFFECTS_NOTE],
    }


def _declared(path: str, lines: dict[str, int], ends: dict[str, int], here: str, source: str, digest: str,
              **fields: Any) -> Declared:
    return Declared(format="capability", path=path, line=lines.get(here, 1), end_line=ends[here], pointer=here,
                    source_digest=source, declaration_digest=digest, digest_of="canonical-json", **fields)


# -- shared ----------------------------------------------------------------------------------------

_NO_UTF8 = "holds text with no UTF-8 form (a lone surrogate), so it has no digest"


def _basename(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/")).lower()


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _namespace(capability_id: str) -> str:
    """text/slugify -> text: capability_id(namespace, last segment) gives the id back."""
    return capability_id.rpartition("/")[0]


def _digest(value: Any) -> str | None:
    try:
        return sha256(canonical_json(value))
    except UnicodeEncodeError:  # JSON may spell a lone surrogate (\ud800); UTF-8 cannot
        return None


# schemas.documents.json_path: `$`, then `.name`, `[0]` or `['key']` (a Python repr, so either quote)
_PATH = re.compile(r"""\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\]|\[(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\])*""")
_PART = re.compile(r"""\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]|\[('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]""")


def _problem(path: str, text: str) -> Problem:
    """A "JSON path: message [rule]" line of schemas.documents as a Problem whose place is spelled
    as doc_lines.json_path spells it, like every other declared reader's."""
    match = _PATH.match(text)
    if match is None or not text.startswith(": ", match.end()):
        return Problem(path, "$", text)
    ptr = ""
    for name, index, quoted in _PART.findall(match.group()):
        ptr = doc_lines.pointer(ptr, name or index or literal_eval(quoted))
    return Problem(path, doc_lines.json_path(ptr), text[match.end() + 2:])
