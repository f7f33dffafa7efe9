"""AIP (Agent Interoperability Protocol 1.0) capability contracts, read statically: one `Declared` per capability.

A file holds one capability object, a list of them, or a manifest whose `capabilities` is that list (the
seed's admission rules speak of capability ids being unique "within a manifest"). The manifest's other
sections (profiles, resources, channels) declare no operations and are not read. A capability's `kind:
resource` is discovery-only in AIP's own admission path, so it is imported with `discovery_only=True`.

What AIP says and Capability has no field for (risk, stability, cost, auth, bindings, idempotency, execution
modes, data sensitivity, credentials, approval, the raw side effects...) is kept in `metadata`: every field of
the capability except id, name, description and the two schemas, the `contract` object exactly as written.
Risk and approval are also publisher `hints`. A declaration is not proof of behaviour (the seed says so too).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from miners.declared import Declared, Imported, Problem, canonical_json, id_segment, load_document, sha256
from miners.declared_checks import Problems, check, is_bool, is_obj, is_text, show
from miners.doc_lines import is_yaml, json_path, pointer

FORMAT = "aip"

# AIP side effect (the ten values the seed defines) -> Capability effects.
SIDE_EFFECTS: dict[str, tuple[str, ...]] = {
    # read/write/delete name no store (file, database, remote API): filesystem.* or database.* would be a guess,
    # so they stay AIP's own words; network.connect comes only from `external_network`
    "read": ("custom:aip.read",),
    "write": ("custom:aip.write",),
    "delete": ("custom:aip.delete",),
    # a "user-visible or external message" of any channel; email.send only when the capability names email
    # (see _EMAIL), since chat, SMS and push are not email
    "send_message": ("custom:aip.send_message",),
    "financial": ("custom:aip.financial",),  # money or billing state
    "identity": ("custom:aip.identity",),  # accounts, access, credentials (not secrets.read: it changes them)
    "medical": ("custom:aip.medical",),
    "legal": ("custom:aip.legal",),
    "external_network": ("network.connect",),
    # "executes code or scripts supplied at runtime": process.spawn is the nearest built-in; an in-process
    # interpreter is not told apart here (the raw value stays in metadata.contract.side_effects)
    "code_execution": ("process.spawn",),
}
EMAIL_SEND = ("email.send",)
# send_message is email when the id, name or description says so (`cap:email:message:send`, "Send an email")
_EMAIL = re.compile(r"(?<![a-z0-9])(e-?mails?|gmail|mail|smtp)(?![a-z0-9])")

KINDS = ("agent", "tool", "workflow", "channel", "resource", "human_task")
RISKS = ("low", "medium", "high", "critical")
STABILITIES = ("stable", "experimental", "deprecated")
IDEMPOTENCY = {
    "requirement": ("required", "optional", "unsupported"),
    "collision_behavior": ("return_original_result", "reject_conflict", "revalidate_input_hash"),
    "key_scope": ("action", "capability", "principal", "tenant", "external_account"),
}
MODE_FLAGS = ("supports_sync", "supports_async", "supports_streaming")  # admission wants one of them true
EXECUTION_FLAGS = (*MODE_FLAGS, "supports_cancel", "supports_retry")
EXECUTION = {
    "expected_completion": ("sync", "async", "streaming", "any"),
    "retry_safety": ("safe", "safe_with_idempotency_key", "unsafe", "unknown"),
}
SENSITIVITIES = ("public", "internal", "confidential", "restricted", "regulated", "unknown")
# the optional contract sections, named as the seed's prose names them; only their type is checked
OPTIONAL_SECTIONS = ("credentials", "approval", "service_level", "transactions", "compensation")
# the capability fields Declared has its own place for; everything else goes to metadata
_OWN_FIELDS = ("id", "name", "description", "input_schema", "output_schema")

_HEAD = 8192
_JSON_KIND = re.compile(rb'"kind"\s*:\s*"(' + b"|".join(k.encode() for k in KINDS) + rb')"')
_YAML_KIND = re.compile(rb'(?m)^[ \t-]*kind[ \t]*:[ \t]*["\']?(' + b"|".join(k.encode() for k in KINDS) + rb")\b")
_JSON_INPUT = re.compile(rb'"input_schema"\s*:')
_YAML_INPUT = re.compile(rb"(?m)^[ \t-]*input_schema[ \t]*:")


def sniff(path: str, data: bytes) -> bool:
    """An AIP capability (or a list or manifest of them) by its first bytes: an `input_schema` key and a
    `kind` that is one of AIP's six (MCP uses inputSchema, Capability manifests `input`)."""
    lower = path.lower()
    if not lower.endswith((".json", ".yaml", ".yml")):
        return False
    head = data[:_HEAD]
    if is_yaml(path):
        return bool(_YAML_INPUT.search(head) and _YAML_KIND.search(head))
    return bool(_JSON_INPUT.search(head) and _JSON_KIND.search(head))


def read(path: str, data: bytes) -> Imported:
    out = Imported()
    if (loaded := load_document(path, data, out)) is None:
        return out
    value, lines = loaded
    doc = _Doc(path, lines, out.problems, sha256(data))
    first: dict[str, str] = {}
    for ptr, entry in _entries(value, doc):
        try:
            declared = _capability(entry, ptr, doc)
        except RecursionError:
            doc.problem(ptr, "nested too deeply")
            continue
        if declared is None:
            continue
        if declared.original_id in first:  # AIP admission rejects this; both claims are still in the file
            doc.problem(
                pointer(ptr, "id"),
                f"duplicate capability id {declared.original_id!r} (also at {json_path(first[declared.original_id])})",
            )
        first.setdefault(declared.original_id, ptr)
        out.operations.append(declared)
    return out


def _local_name(aip_id: str) -> str:
    """The last part of the id, the one namespace_of() leaves out: create of cap:calendar:booking:create."""
    return "" if not namespace_of(aip_id) else [p for p in aip_id.split(_separator(aip_id)) if p.strip()][-1]


def _separator(aip_id: str) -> str:
    return next((sep for sep in (":", "/", ".") if sep in aip_id), ":")


def namespace_of(aip_id: str) -> str:
    """The AIP id's own namespace. AIP suggests `cap:<area>:<object>:<verb>` ids (`cap:calendar:booking:create`)
    without enforcing any form, so: split on the first separator the id uses (`:`, else `/`, else `.`), drop a
    leading `cap` (the convention's scheme, not an owner), keep every part but the last, joined with `/` so
    capability_id() makes one id segment per level: calendar/booking. "" when the id has one part."""
    for sep in (":", "/", "."):
        if sep in aip_id:
            parts = [part for part in aip_id.split(sep) if part.strip()]
            break
    else:
        return ""
    if parts and parts[0].lower() == "cap":
        parts = parts[1:]
    return "/".join(parts[:-1])


# --- one capability ------------------------------------------------------------------------------


@dataclass
class _Doc(Problems):
    path: str
    lines: dict[str, int]
    problems: list[Problem]
    source_digest: str
    keys: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.keys = sorted(self.lines)  # a value's descendants ("/a/...") are one run of sorted pointers

    def span(self, ptr: str) -> tuple[int, int]:
        """(first, last) line of the value at ptr: its start and the start of its last nested value."""
        start = self.lines.get(ptr, 1)
        lo, hi = bisect.bisect_left(self.keys, ptr + "/"), bisect.bisect_left(self.keys, ptr + "0")  # "0" follows "/"
        return start, max([start, *(self.lines[k] for k in self.keys[lo:hi])])


def _entries(value: Any, doc: _Doc) -> list[tuple[str, Any]]:
    if isinstance(value, list):
        return [(pointer("", i), item) for i, item in enumerate(value)]
    if isinstance(value, dict) and "capabilities" in value and "id" not in value:
        caps = value["capabilities"]
        if not isinstance(caps, list):
            doc.problem("/capabilities", f"expected an array of capabilities, found {show(caps)}")
            return []
        return [(pointer("/capabilities", i), item) for i, item in enumerate(caps)]
    if isinstance(value, dict):
        return [("", value)]
    doc.problem(
        "", f"expected an AIP capability, a list of them or a manifest with `capabilities`, found {show(value)}"
    )
    return []


def _capability(entry: Any, ptr: str, doc: _Doc) -> Declared | None:
    if not isinstance(entry, dict):
        doc.problem(ptr, f"a capability must be an object, found {show(entry)}")
        return None
    cid = check(doc, entry, ptr, "id", is_text, "a non-empty string", required=True)
    if cid is None:  # nothing to call it by: the entry is reported, not imported
        return None
    notes: list[str] = []
    name = check(doc, entry, ptr, "name", is_text, "a non-empty string", required=True)
    kind = check(doc, entry, ptr, "kind", _one_of(KINDS), _expect(KINDS), required=True)
    if kind is None:
        notes.append("kind missing or not an AIP kind: whether it is callable is unknown")
    input_schema = _schema(entry, ptr, "input_schema", doc, required=True)
    output_schema = _schema(entry, ptr, "output_schema", doc)
    description = check(doc, entry, ptr, "description", _is_str, "a string") or ""
    risk = check(doc, entry, ptr, "risk", _one_of(RISKS), _expect(RISKS))
    check(doc, entry, ptr, "stability", _one_of(STABILITIES), _expect(STABILITIES))
    approval_flag = check(doc, entry, ptr, "requires_human_approval", is_bool, "true or false")
    email = bool(_EMAIL.search(_words(cid, name or "", description)))
    effects, read_only, approval = _contract(entry, ptr, doc, notes, email)
    hints = {"risk": risk, "requires_human_approval": approval_flag, "approval": approval}
    first, last = doc.span(ptr)
    return Declared(
        format=FORMAT,
        original_id=cid,
        local_name=_local_name(cid),
        name=name or cid,
        description=description,
        path=doc.path,
        line=first,
        end_line=last,
        pointer=ptr,
        namespace=namespace_of(cid),
        source_digest=doc.source_digest,
        declaration_digest=sha256(canonical_json(entry)),
        digest_of="canonical-json",
        input_schema=input_schema,
        output_schema=output_schema,
        effects=effects,
        read_only=read_only,
        hints={k: v for k, v in hints.items() if v is not None},
        metadata={k: v for k, v in entry.items() if k not in _OWN_FIELDS},
        discovery_only=kind == "resource",
        notes=notes,
    )


def _schema(entry: dict[str, Any], ptr: str, key: str, doc: _Doc, required: bool = False) -> dict[str, Any] | None:
    """A Draft 2020-12 schema: an object, or a boolean (true/false are whole schemas: {} and {"not": {}})."""
    value = check(doc, entry, ptr, key, lambda v: isinstance(v, (dict, bool)), "a JSON Schema object", required)
    if isinstance(value, bool):
        return {} if value else {"not": {}}
    return value


def _contract(
    entry: dict[str, Any], ptr: str, doc: _Doc, notes: list[str], email: bool
) -> tuple[list[str], bool | None, dict[str, Any] | None]:
    """(effects, read_only, approval policy) from the capability's `contract`."""
    if "contract" not in entry:
        notes.append(
            "no contract: side effects, idempotency and execution are not declared (absence does not mean harmless)"
        )
        return [], None, None
    cptr = pointer(ptr, "contract")
    contract = entry["contract"]
    if not isinstance(contract, dict):
        doc.problem(cptr, f"expected a CapabilityContract object, found {show(contract)}")
        return [], None, None
    idem = check(doc, contract, cptr, "idempotency", is_obj, "an IdempotencyContract object", required=True)
    if idem is not None:
        _choices(doc, idem, pointer(cptr, "idempotency"), IDEMPOTENCY)
        check(doc, idem, pointer(cptr, "idempotency"), "ttl_ms", _is_positive, "a positive integer")
    execution = check(doc, contract, cptr, "execution", is_obj, "an ExecutionContract object", required=True)
    if execution is not None:
        _execution(execution, pointer(cptr, "execution"), doc)
    data = check(doc, contract, cptr, "data", is_obj, "a DataContract object", required=True)
    if data is not None:
        dptr = pointer(cptr, "data")
        check(doc, data, dptr, "sensitivity", _one_of(SENSITIVITIES), _expect(SENSITIVITIES), required=True)
        for flag in ("contains_pii", "redaction_required"):
            check(doc, data, dptr, flag, is_bool, "true or false")
    approval = None
    for section in OPTIONAL_SECTIONS:
        value = check(doc, contract, cptr, section, is_obj, "an object")
        approval = value if section == "approval" else approval
    effects, read_only = _side_effects(contract, cptr, doc, notes, email)
    return effects, read_only, approval


def _execution(execution: dict[str, Any], ptr: str, doc: _Doc) -> None:
    flags = {flag: check(doc, execution, ptr, flag, is_bool, "true or false") for flag in EXECUTION_FLAGS}
    _choices(doc, execution, ptr, EXECUTION)
    unreadable = any(flag in execution and flags[flag] is None for flag in MODE_FLAGS)
    if not unreadable and not any(flags[flag] for flag in MODE_FLAGS):
        doc.problem(ptr, "supports none of sync, async and streaming (AIP admission rejects this)")


def _side_effects(
    contract: dict[str, Any], cptr: str, doc: _Doc, notes: list[str], email: bool
) -> tuple[list[str], bool | None]:
    """Mapped effects, and read_only: True only for an explicit [] or only `read`."""
    if "side_effects" not in contract:
        # AIP defaults an omitted list to []; a default is not the publisher saying "none"
        notes.append("contract omits side_effects: not taken as a declaration of none")
        return [], None
    sptr = pointer(cptr, "side_effects")
    raw = contract["side_effects"]
    if not isinstance(raw, list):
        doc.problem(sptr, f"expected an array of side effects, found {show(raw)}")
        return [], None
    effects: list[str] = []
    only_read, unreadable = True, False
    for i, value in enumerate(raw):
        if not isinstance(value, str):
            doc.problem(
                pointer(sptr, i), f"expected a side effect name ({_expect(SIDE_EFFECTS)}), found {show(value)}"
            )
            unreadable = True
            continue
        if value in SIDE_EFFECTS:
            mapped = EMAIL_SEND if value == "send_message" and email else SIDE_EFFECTS[value]
        else:  # still a consequence the publisher declared: kept under AIP's prefix, never dropped
            doc.problem(pointer(sptr, i), f"unknown side effect {value!r}; AIP defines {_expect(SIDE_EFFECTS)}")
            mapped = (f"custom:aip.{id_segment(value)}",)
        only_read = only_read and value == "read"
        effects.extend(effect for effect in mapped if effect not in effects)
    if not only_read:
        return effects, False
    if unreadable:
        notes.append("a side effect could not be read: read-only is unknown")
        return effects, None
    return effects, True


# --- field checks --------------------------------------------------------------------------------


def _choices(doc: _Doc, obj: dict[str, Any], ptr: str, fields: dict[str, tuple[str, ...]]) -> None:
    for key, values in fields.items():
        check(doc, obj, ptr, key, _one_of(values), _expect(values))


def _one_of(values: tuple[str, ...]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and value in values


def _expect(values: Any) -> str:
    return "one of " + ", ".join(values)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _words(*texts: str) -> str:
    """Lower-case text with camelCase split, for whole-word matching (sendEmail -> send email)."""
    return " ".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).lower() for text in texts)
