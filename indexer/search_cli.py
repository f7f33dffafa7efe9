"""`capindex search NEED`: a few lines over index.search."""

from __future__ import annotations

from typing import Annotated

import typer

from .cli import Settings, app, emit


def _ceiling(values: list[str] | None) -> frozenset[str] | None:
    """Repeated and/or comma-separated effects; given but empty (`--effects-ceiling ''`) allows none."""
    if values is None:
        return None
    return frozenset(item.strip() for value in values for item in value.split(",") if item.strip())


@app.command("search")
def search_command(
    ctx: typer.Context,
    need: Annotated[str, typer.Argument(help='What the software should do, e.g. "parse csv files".')],
    effects_ceiling: Annotated[list[str] | None, typer.Option(
        "--effects-ceiling", help="Effects a result may need (comma-separated or repeated; '' allows none). "
                                  "Whatever may need more is left out.")] = None,
    allow_opaque: Annotated[bool, typer.Option(
        "--allow-opaque", help="Admit custom:external.opaque-effects under the ceiling.")] = False,
    kind: Annotated[list[str] | None, typer.Option(
        "--kind", help="native, declared, mined, discovered, or a candidate kind (function, cli-command, "
                       "mcp-tool, ...); repeatable.")] = None,
    substrate: Annotated[list[str] | None, typer.Option(
        "--substrate", help="Where it comes from: npm, pypi, git, index, ... (repeatable).")] = None,
    executable_only: Annotated[bool, typer.Option(
        "--executable-only", help="Only native capabilities and bound candidates.")] = False,
    min_confidence: Annotated[float, typer.Option("--min-confidence", help="0 to 1.")] = 0.0,
    limit: Annotated[int, typer.Option("--limit", help="Results shown (1-1000).")] = 10,
) -> None:
    """Capabilities and candidates that may satisfy a need, best first, each with why it matched."""
    from index.search import SearchFilters, search

    settings: Settings = ctx.obj
    filters = SearchFilters(
        effects_ceiling=_ceiling(effects_ceiling), allow_opaque=allow_opaque,
        kinds=frozenset(kind) if kind else None, substrates=frozenset(s.lower() for s in substrate) if substrate else None,
        executable_only=executable_only, min_confidence=min_confidence, limit=limit,
    )
    with settings.store() as store:
        results = search(store, need, filters)
    lines = []
    for n, r in enumerate(results, 1):
        package = r.package or {}
        where = f"{package.get('name')}@{package.get('version')}" if package.get("version") else str(package.get("name"))
        state = "executable" if r.executable else "not bound"
        lines.append(f"{n:>2}. {r.score:.3f}  {r.name}  [{r.kind}, {state}]  {r.ref}")
        lines.append(f"      {where} ({r.substrate}); effects: {', '.join(r.effects) or 'none'}; "
                     f"confidence {r.confidence:.2f}")
        if r.description:
            lines.append(f"      {r.description[:150]}")
        lines.append(f"      matched {r.why()}")
    emit(settings, {"need": need, "results": [r.as_dict() for r in results]}, "\n".join(lines) or "no results")
