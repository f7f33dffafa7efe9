"""index/compose.py: schema compatibility (pure), ampersand token joins, and pipelines over a real store
(fixtures in tests/fixtures/compose/, stored through the project's ingest and candidate paths)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index import registry
from index.compose import (
    MAX_STEPS,
    OPAQUE,
    Step,
    Tokens,
    check_schemas,
    check_tokens,
    compose_steps,
    join,
    split_need,
)
from index.ingest import ingest_bytes
from index.store import Store
from miners import ampersand
from miners.declared import candidate
from schemas.documents import validate

FIXTURES = Path(__file__).parent / "fixtures" / "compose"



# -- the store -----------------------------------------------------------------------------------


def build_store(path: Path) -> Store:
    """The fixture index ingested, and the fixture ampersand contracts stored as declared candidates, through
    the paths `capindex ingest` and `capindex mine` use."""
    store = Store(path)
    index = FIXTURES / "index.json"
    ingest_bytes(store, index.read_bytes(), str(index))
    for contract in sorted((FIXTURES / "ampersand").glob("*.json")):
        imported = ampersand.read(f"contracts/{contract.name}", contract.read_bytes())
        assert imported.problems == []
        for declared in imported.operations:
            record = candidate(declared, "fixtures/compose", None)
            validate("candidate", record, contract.name)
            registry.record_candidate(store, "mined:directory", "compose-fixtures", None, record["kind"],
                                      record["id"], record)
    return store


@pytest.fixture
def store(tmp_path):
    with build_store(tmp_path / "capindex.db") as opened:
        yield opened


def native_steps(store: Store) -> dict[str, Step]:
    """Every stored capability as a step, by capability id (what search gives, read from the store directly)."""
    out = {}
    for cap_id, manifest, name, version in store.conn.execute(
        """SELECT m.cap_id, m.manifest, p.name, p.version FROM capability_manifests m
           JOIN packages p ON p.id = m.package_id"""
    ):
        out[cap_id] = Step.from_record(json.loads(manifest), ref=f"native:{name}@{version}#{cap_id}",
                                       provenance="native", package=f"{name}@{version}", bound=True, executable=True)
    return out


def candidate_steps(store: Store) -> dict[str, Step]:
    """Every stored candidate as a step, by its declared original id (&domain.name#operation)."""
    return {c["record"]["name"]: Step.from_record(c["record"], ref=f"{c['ecosystem']}:{c['key']}",
                                                  provenance=c["record"]["provenance"])
            for c in registry.candidates(store)}


def ids(pipeline) -> list[str]:
    return [s.id for s in pipeline.steps]


def attempts(outcome) -> str:
    return "\n".join(outcome.described_attempts())


# -- splitting a need ----------------------------------------------------------------------------


@pytest.mark.parametrize(("need", "parts"), [
    ("normalize text then slugify it", ["normalize text", "slugify it"]),
    ("read a pdf, normalize it and then slugify it", ["read a pdf", "normalize it", "slugify it"]),
    ("trim; lowercase -> reverse and count", ["trim", "lowercase", "reverse", "count"]),
    ("First detect anomalies → then index them", ["detect anomalies", "index them"]),
    ("slugify a phrase", ["slugify a phrase"]),
    ("  then , ; ", []),
    ("Thenardier's brand", ["Thenardier's brand"]),  # `then` only as a word
])
def test_split_need(need, parts):
    assert split_need(need) == parts


# -- schema compatibility (pure) -----------------------------------------------------------------

S, I, N = {"type": "string"}, {"type": "integer"}, {"type": "number"}


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


COMPATIBLE = [
    ("same object", obj(["text"], text=S), obj(["text"], text=S)),
    ("extra output fields", obj(["text", "lang"], text=S, lang=S), obj(["text"], text=S)),
    ("optional input field not produced", obj(["text"], text=S), obj(["text"], text=S, form=S)),
    ("integer into number", I, N),
    ("type list subset", {"type": "string"}, {"type": ["string", "null"]}),
    ("enum subset", {"type": "string", "enum": ["a"]}, {"type": "string", "enum": ["a", "b"]}),
    ("const into enum", {"const": "NFC"}, {"enum": ["NFC", "NFKC"]}),
    ("enum values fit a type", {"enum": [1, 2]}, I),
    ("nested", obj(["a"], a=obj(["b"], b=I)), obj(["a"], a=obj(["b"], b=N))),
    ("array items", {"type": "array", "items": I}, {"type": "array", "items": N}),
    ("input accepts anything", S, {}),
    ("input true", obj(), True),
    ("input has no type", S, {"description": "anything"}),
    ("required only constrains objects", S, {"required": ["x"]}),
    ("closed input, closed output", {**obj(["a"], a=S), "additionalProperties": False},
     {**obj(["a"], a=S), "additionalProperties": False}),
]


@pytest.mark.parametrize(("label", "output", "input"), COMPATIBLE, ids=[c[0] for c in COMPATIBLE])
def test_compatible_schemas(label, output, input):
    verdict = check_schemas(output, input)
    assert verdict.status == "compatible" and verdict.ok, verdict
    assert verdict.reasons == ()


CONTRADICTIONS = [
    ("string into required integer", obj(["count"], count=S), obj(["count"], count=I),
     "$.count: output type string but input requires integer"),
    ("top-level type", S, I, "$: output type string but input requires integer"),
    ("missing required field", obj(["slug"], slug=S), obj(["value"], value={}),
     "$: output object lacks required input field 'value'"),
    ("object into array", obj(), {"type": "array"}, "$: output type object but input requires array"),
    ("enum disjoint", {"enum": ["x", "y"]}, {"enum": ["a", "b"]}, '$: output values ["x", "y"] are none of ["a", "b"]'),
    ("true is not 1", {"const": True}, {"enum": [1]}, "$: output type boolean but input requires integer"),
    ("items", {"type": "array", "items": S}, {"type": "array", "items": I},
     "$[*]: output type string but input requires integer"),
    ("deep field", obj(["a"], a=obj(["b"], b={"type": "boolean"})), obj(["a"], a=obj(["b"], b=S)),
     "$.a.b: output type boolean but input requires string"),
    ("closed input", obj(["text", "extra"], text=S, extra=S), {**obj(["text"], text=S), "additionalProperties": False},
     "$.extra: output always has this field, input accepts no such field"),
    ("input false", S, False, "$: the input accepts no value"),
    ("odd key", obj(["a b"], **{"a b": S}), obj(["a b"], **{"a b": I}), "$['a b']: output type string"),
]


@pytest.mark.parametrize(("label", "output", "input", "reason"), CONTRADICTIONS, ids=[c[0] for c in CONTRADICTIONS])
def test_known_contradictions_are_rejected_with_their_reason(label, output, input, reason):
    verdict = check_schemas(output, input)
    assert verdict.status == "contradiction" and not verdict.ok, verdict
    assert any(r.startswith(reason) for r in verdict.reasons), verdict.reasons


UNKNOWN = [
    ("no output schema", None, obj(), "no output schema declared"),
    ("no input schema", obj(), None, "no input schema declared"),
    ("$ref not followed", obj(["a"], a=S), {"$ref": "#/$defs/x"}, "$: input uses $ref ($ref not followed)"),
    ("$ref in output", {"$ref": "other.json"}, S, "$: output uses $ref"),
    ("anyOf", {"anyOf": [S, I]}, S, "$: output uses anyOf"),
    ("output type not declared", {}, I, "$: output type not declared, input requires integer"),
    ("number into integer", N, I, "$: output may be number, input requires integer"),
    ("nullable into string", {"type": ["string", "null"]}, S, "$: output may be null, input requires string"),
    ("optional output field", obj([], text=S), obj(["text"], text=S), "$.text: input requires it, output may omit it"),
    ("enum partly outside", {"enum": ["a", "z"]}, {"enum": ["a", "b"]}, '$: output may be ["z"]'),
    ("enum not limited", S, {"type": "string", "enum": ["a"]}, '$: input accepts only ["a"]'),
    ("object without fields", {"type": "object"}, obj(["a"], a=S), "$: output object declares no fields"),
    ("items not declared", {"type": "array"}, {"type": "array", "items": I}, "$: output items not declared"),
    ("open output, closed input", obj(["a"], a=S), {**obj(["a"], a=S), "additionalProperties": False},
     "$: output may have other fields"),
]


@pytest.mark.parametrize(("label", "output", "input", "reason"), UNKNOWN, ids=[c[0] for c in UNKNOWN])
def test_what_cannot_be_shown_is_unknown_not_compatible(label, output, input, reason):
    verdict = check_schemas(output, input)
    assert verdict.status == "unknown" and not verdict.ok, verdict
    assert any(r.startswith(reason) for r in verdict.reasons), verdict.reasons


def test_a_contradiction_outranks_an_unknown_and_every_reason_is_kept():
    verdict = check_schemas(obj(["a"], a=S, b=N), obj(["a", "b", "c"], a=I, b=I, c=S))
    assert verdict.status == "contradiction"
    assert verdict.reasons[0] == "$: output object lacks required input field 'c'"
    assert "$.a: output type string but input requires integer" in verdict.reasons
    assert "$.b: input requires it, output may omit it" in verdict.reasons


def test_value_facets_are_listed_as_unchecked_not_judged():
    verdict = check_schemas(obj(["a"], a=S), obj(["a"], a={"type": "string", "minLength": 3, "pattern": "^x"}))
    assert verdict.ok
    assert verdict.unchecked == ("$.a: minLength", "$.a: pattern")


def test_deep_nesting_is_unknown_not_a_crash():
    deep_out, deep_in = S, I
    for _ in range(40):
        deep_out, deep_in = obj(["x"], x=deep_out), obj(["x"], x=deep_in)
    verdict = check_schemas(deep_out, deep_in)
    assert verdict.status == "unknown" and "nested too deeply" in verdict.reasons[0]


def test_check_schemas_is_pure():
    output, input_ = obj(["count"], count=S), obj(["count"], count=I)
    before = json.dumps([output, input_], sort_keys=True)
    assert check_schemas(output, input_) == check_schemas(output, input_)
    assert json.dumps([output, input_], sort_keys=True) == before


# -- ampersand type tokens -----------------------------------------------------------------------


def test_token_joins_follow_wildcards_both_ways(store):
    steps = candidate_steps(store)
    detect, index, embed = steps["&time.anomaly#detect"], steps["&memory.graph#index"], steps["&memory.vector#embed"]
    deliberate, track = steps["&reason.deliberate#deliberate"], steps["&space.fleet#track"]
    # &time.anomaly feeds_into &memory.*; &memory.graph accepts_from &time.*; anomaly_set out and in
    assert check_tokens(detect.tokens, index.tokens).ok
    assert check_tokens(index.tokens, deliberate.tokens).ok  # &reason.* and &memory.*
    assert join(detect, index)[1] == "tokens"
    fleet = check_tokens(detect.tokens, track.tokens)
    assert fleet.status == "contradiction"
    assert fleet.reasons == ("&space.fleet accepts_from ['&reason.*'] does not name &time.anomaly",)
    vector = check_tokens(detect.tokens, embed.tokens)
    assert vector.reasons == ("type token 'anomaly_set' out, 'context' in",)
    backwards = check_tokens(deliberate.tokens, detect.tokens)
    assert "&reason.deliberate feeds_into ['output'] does not name &time.anomaly" in backwards.reasons


def test_a_wildcard_names_subtypes_only():
    bare = Tokens("&memory", "x", "y", ("&time.*",), ("&reason.*",))
    producer = Tokens("&time.anomaly", "a", "x", (), ("&memory.*",))
    assert not check_tokens(producer, bare).ok  # &memory.* does not match the bare domain
    assert check_tokens(producer, Tokens("&memory.graph", "x", "y", ("&time.*",), ())).ok
    assert not check_tokens(producer, Tokens("&memoryx.graph", "x", "y", ("&time.*",), ())).ok


def test_a_schema_contradiction_is_never_papered_over_by_tokens(store):
    steps = native_steps(store)
    count, square = steps["words/count"], steps["numbers/square"]
    agreeing = Tokens("&text.count", "n", "n", ("&text.*",), ("&text.*",))
    verdict, via = join(Step(**{**count.__dict__, "tokens": agreeing}), Step(**{**square.__dict__, "tokens": agreeing}))
    assert verdict.status == "contradiction" and via == "schema"
    assert verdict.reasons == ("$.count: output type string but input requires integer",)


# -- pipelines over the store --------------------------------------------------------------------


def test_two_step_pipeline_from_schemas(store):
    steps = native_steps(store)
    outcome = compose_steps(["normalize text", "slugify it"],
                            [[steps["words/normalize"], steps["words/count"]], [steps["words/slugify"], steps["hashing/digest"]]])
    assert [ids(p) for p in outcome.pipelines] == [["words/normalize", "words/slugify"]]
    pipeline = outcome.pipelines[0]
    assert [j.via for j in pipeline.joins] == ["schema"]
    assert pipeline.effects == [] and pipeline.authority_complete and pipeline.executable
    text = attempts(outcome)
    assert "words/normalize@1.0.0 -> hashing/digest@1.0.0: rejected: $: output object lacks required input field 'value'" in text
    assert "words/count@1.0.0 -> words/slugify@1.0.0: rejected: $: output object lacks required input field 'text'" in text


def test_three_step_pipeline_declares_the_union_of_effects_and_keeps_each_step(store):
    steps = native_steps(store)
    parts = ["read a pdf", "normalize it", "slugify it"]
    layers = [[steps["docs/read-pdf"], steps["docs/fetch-page"]], [steps["words/normalize"]], [steps["words/slugify"]]]
    outcome = compose_steps(parts, layers, ceiling=frozenset({"filesystem.read", "network.connect"}))
    assert sorted(ids(p) for p in outcome.pipelines) == [
        ["docs/fetch-page", "words/normalize", "words/slugify"], ["docs/read-pdf", "words/normalize", "words/slugify"]]
    pdf = next(p for p in outcome.pipelines if p.steps[0].id == "docs/read-pdf")
    assert pdf.effects == ["filesystem.read"]
    shown = pdf.as_dict()
    assert shown["effects"] == shown["authority"]["effects"] == ["filesystem.read"]
    first = shown["steps"][0]
    assert first["ref"] == "native:docs-io@1.0.0#docs/read-pdf" and first["version"] == "1.0.0"
    assert first["package"] == "docs-io@1.0.0" and first["provenance"] == "native" and first["part"] == "read a pdf"
    assert first["authority"] == {"complete": True, "effects": ["filesystem.read"]}
    assert [s["id"] for s in shown["steps"]] == ["docs/read-pdf", "words/normalize", "words/slugify"]

    # under a narrower ceiling the step that connects is left out, and said so
    narrow = compose_steps(parts, layers, ceiling=frozenset({"filesystem.read"}))
    assert [ids(p) for p in narrow.pipelines] == [["docs/read-pdf", "words/normalize", "words/slugify"]]
    assert "docs/fetch-page@1.0.0: step for part 1 ('read a pdf'): over the effects ceiling: network.connect" in attempts(narrow)
    nothing = compose_steps(parts, layers, ceiling=frozenset())
    assert nothing.pipelines == []
    assert "part 1 ('read a pdf'): no candidate under the filters" in attempts(nothing)


def test_a_contradiction_rejects_the_pipeline_with_its_reason(store):
    steps = native_steps(store)
    outcome = compose_steps(["count the words", "square the count"], [[steps["words/count"]], [steps["numbers/square"]]])
    assert outcome.pipelines == []
    assert outcome.described_attempts() == [
        "words/count@1.0.0 -> numbers/square@1.0.0: rejected: $.count: output type string but input requires integer",
        "no chain of compatible steps joins all 2 parts",
    ]


def test_ampersand_pipeline_by_type_tokens_keeps_opaque_authority(store):
    steps = candidate_steps(store)
    parts = ["detect anomalies", "index into a graph", "deliberate"]
    layers = [[steps["&time.anomaly#detect"]], [steps["&memory.graph#index"], steps["&memory.vector#embed"],
                                                 steps["&space.fleet#track"]], [steps["&reason.deliberate#deliberate"]]]
    ceiling = frozenset({"custom:ampersand.side_effects"})
    outcome = compose_steps(parts, layers, ceiling=ceiling, allow_opaque=True)
    assert [[s.tokens.capability for s in p.steps] for p in outcome.pipelines] == [
        ["&time.anomaly", "&memory.graph", "&reason.deliberate"]]
    pipeline = outcome.pipelines[0]
    assert [j.via for j in pipeline.joins] == ["tokens", "tokens"]
    assert pipeline.effects == ["custom:ampersand.side_effects", OPAQUE]  # memory.graph#index modifies state
    assert not pipeline.authority_complete and pipeline.opaque and not pipeline.bound and not pipeline.executable
    assert all(s.provenance == "declared" and s.version == "0.1.0" for s in pipeline.steps)
    assert pipeline.steps[0].id == "ticktickclock/time.anomaly/detect"
    text = attempts(outcome)
    assert "type token 'anomaly_set' out, 'context' in" in text
    assert "&space.fleet accepts_from ['&reason.*'] does not name &time.anomaly" in text

    # the same candidates, opaque effects not admitted: nothing
    closed = compose_steps(parts, layers, ceiling=ceiling)
    assert closed.pipelines == [] and "opaque effects: authority incomplete" in attempts(closed)
    # and a ceiling without the side effect keeps &memory.graph#index out
    pure = compose_steps(parts, layers, ceiling=frozenset(), allow_opaque=True)
    assert pure.pipelines == [] and "over the effects ceiling: custom:ampersand.side_effects" in attempts(pure)


def test_a_native_step_and_a_token_only_step_cannot_be_checked(store):
    native, declared = native_steps(store), candidate_steps(store)
    outcome = compose_steps(["slugify", "detect"], [[native["words/slugify"]], [declared["&time.anomaly#detect"]]],
                            allow_opaque=True)
    assert outcome.pipelines == []
    assert ("words/slugify@1.0.0 -> ticktickclock/time.anomaly/detect@0.1.0 &time.anomaly#detect: cannot be checked: "
            "ticktickclock/time.anomaly/detect@0.1.0 &time.anomaly#detect declares no input schema") in attempts(outcome)


def test_at_most_four_steps(store):
    steps = native_steps(store)
    chain = [steps[f"words/{name}"] for name in ("trim", "lowercase", "unaccent", "reverse", "normalize")]
    four = compose_steps(["trim", "lowercase", "unaccent", "reverse"], [[s] for s in chain[:4]])
    assert [ids(p) for p in four.pipelines] == [[s.id for s in chain[:4]]]
    assert len(four.pipelines[0].joins) == 3
    five = compose_steps(["trim", "lowercase", "unaccent", "reverse", "normalize"], [[s] for s in chain])
    assert five.pipelines == []
    assert five.described_attempts() == [f"the need has 5 parts; a pipeline has at most {MAX_STEPS} steps"]
    one = compose_steps(["trim"], [[chain[0]]])
    assert one.pipelines == [] and one.described_attempts() == ["the need has one part: there is nothing to compose"]


def test_the_need_s_own_schemas_bound_both_ends(store):
    steps = native_steps(store)
    layers = [[steps["words/normalize"]], [steps["words/slugify"]]]
    fits = compose_steps(["a", "b"], layers, input_schema=obj(["text"], text=S), output_schema=obj(["slug"], slug=S))
    assert len(fits.pipelines) == 1
    wrong_in = compose_steps(["a", "b"], layers, input_schema=obj(["path"], path=S))
    assert wrong_in.pipelines == []
    assert ("words/normalize@1.0.0: the required input does not fit its input (contradiction: "
            "$: output object lacks required input field 'text')") in attempts(wrong_in)
    wrong_out = compose_steps(["a", "b"], layers, output_schema=obj(["slug"], slug=I))
    assert wrong_out.pipelines == []
    assert "$.slug: output type string but input requires integer" in attempts(wrong_out)


def test_pipelines_are_ranked_and_limited(store):
    steps = native_steps(store)
    firsts = [steps[f"words/{n}"] for n in ("trim", "lowercase", "unaccent", "reverse", "normalize")]
    firsts = [Step(**{**s.__dict__, "score": score}) for s, score in zip(firsts, (0.1, 0.9, 0.5, 0.3, 0.7), strict=True)]
    outcome = compose_steps(["x", "slugify"], [firsts, [steps["words/slugify"]]], limit=3)
    assert [p.steps[0].id for p in outcome.pipelines] == ["words/lowercase", "words/normalize", "words/unaccent"]


# -- compose() over index.search -----------------------------------------------------------------


def test_compose_searches_each_part_and_finds_the_pipeline(store):
    from index.compose import compose
    from index.search import SearchFilters

    outcome = compose(store, "normalize unicode then slugify a phrase and then do it", SearchFilters())
    assert outcome.parts == ["normalize unicode", "slugify a phrase"]  # "do it" says nothing
    assert ["words/normalize", "words/slugify"] in [ids(p) for p in outcome.pipelines]
    assert ids(outcome.pipelines[0]) == ["words/normalize", "words/slugify"]


def test_compose_over_search_finds_the_ampersand_pipeline(store):
    from index.compose import compose
    from index.search import SearchFilters

    filters = SearchFilters(effects_ceiling=frozenset({"custom:ampersand.side_effects"}), allow_opaque=True)
    outcome = compose(store, "detect anomalous events then index anomalies into a knowledge graph "
                             "then deliberate over a graph topology", filters)
    found = [[s.tokens.capability if s.tokens else s.id for s in p.steps] for p in outcome.pipelines]
    assert ["&time.anomaly", "&memory.graph", "&reason.deliberate"] in found
    without_opaque = compose(store, "count the words then square an integer count", SearchFilters())
    assert not any(ids(p) == ["words/count", "numbers/square"] for p in without_opaque.pipelines)
    assert "$.count: output type string but input requires integer" in attempts(without_opaque)
