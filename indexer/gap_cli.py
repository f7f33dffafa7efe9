"""`capindex gap NEED`: a few lines over index.gaps (search, composition, and a Capability gap when neither fits)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .cli import Settings, app, emit


@app.command("gap")
def gap(
    ctx: typer.Context,
    need: Annotated[str, typer.Argument(help='What the software should do, e.g. "normalize text then slugify it".')],
    ceiling: Annotated[list[str] | None, typer.Option(
        "--effects-ceiling", "--ceiling", help="An effect the software may have (repeatable, or comma-separated); "
                                               "none by default (the same option as search's). "
                          "custom:external.opaque-effects admits opaque ones.")] = None,
    allow_opaque: Annotated[bool, typer.Option("--allow-opaque", help="Admit opaque effects (adds "
                                                                       "custom:external.opaque-effects to the ceiling).")] = False,
    input_schema: Annotated[Path | None, typer.Option("--input-schema", help="JSON Schema of the input it must accept.")] = None,
    output_schema: Annotated[Path | None, typer.Option("--output-schema", help="JSON Schema its output must meet.")] = None,
    verify: Annotated[list[str] | None, typer.Option("--verify", help="A verification requirement (repeatable).")] = None,
    min_confidence: Annotated[float, typer.Option("--min-confidence", min=0.0, max=1.0)] = 0.0,
    executable_only: Annotated[bool, typer.Option("--executable-only", help="Only executable capabilities.")] = False,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="Only these kinds (repeatable): native, declared, mined, discovered, "
                                                                 "or a candidate kind.")] = None,
    substrate: Annotated[list[str] | None, typer.Option("--substrate", help="Only these substrates (repeatable): index, npm, pypi, git...")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=100, help="Results and pipelines shown.")] = 10,
) -> None:
    """Say what satisfies a need under an effects ceiling; when nothing does, store a Capability gap for it."""
    from index.compose import OPAQUE
    from index.gaps import GapError, GapRequest, evaluate, parse_effects, read_schema_file

    settings: Settings = ctx.obj
    if not need.strip():
        raise GapError("need: empty; say what the software should do")
    effects = parse_effects(ceiling or [])
    request = GapRequest(
        need=need, ceiling=effects | {OPAQUE} if allow_opaque else effects, min_confidence=min_confidence,
        executable_only=executable_only, kinds=frozenset(kind) if kind else None,
        substrates=frozenset(substrate) if substrate else None,
        input_schema=read_schema_file(input_schema, "--input-schema") if input_schema else None,
        output_schema=read_schema_file(output_schema, "--output-schema") if output_schema else None,
        verification=tuple(verify or ()), limit=limit,
    )
    with settings.store() as store:
        outcome = evaluate(store, request)
    emit(settings, outcome.as_dict(), _human(outcome))


def _human(outcome) -> str:
    ceiling = ", ".join(sorted(outcome.request.ceiling)) or "no effects"
    if outcome.satisfied:
        lines = [f"satisfied: {outcome.need!r} under {ceiling}"]
        lines += [f"  {s.label}  ({s.ref}, {s.provenance})  effects: {', '.join(s.effects) or 'none'}"
                  for s in outcome.results]
        lines += [f"  pipeline {p.describe()}  effects: {', '.join(p.effects) or 'none'}" for p in outcome.pipelines]
        return "\n".join(lines)
    gap = outcome.gap
    lines = [f"gap {gap['id']} (demand {outcome.demand}): nothing satisfies {outcome.need!r} under {ceiling}",
             f"  searched: {', '.join(gap['searched'])}"]
    for label, items in (("native", gap["evidence"]["nativeCandidates"]),
                         ("external", gap["evidence"]["externalCandidates"]),
                         ("composition", gap["evidence"]["compositionAttempts"])):
        lines += [f"  {label}: {item}" for item in items]
    lines.append("  stored; `capindex publish` writes it under gaps/")
    return "\n".join(lines)
