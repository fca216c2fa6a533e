"""`filegram profile`, `filegram ask` and `filegram memory ...` (imports its code when run)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context

    from .core import Memory


def register(sub: Any) -> None:
    p = sub.add_parser("profile", help="how you work: six dimensions with tier, confidence and evidence, and drift")
    p.add_argument("--json", action="store_true", help="print the profile as JSON (shape in docs/memory.md)")
    p.add_argument("--plot", metavar="FILE", help="also draw the profile to an image (.png, .svg, .pdf)")
    p.add_argument("--device", metavar="NAME",
                   help="the profile from one device's sessions (see `filegram sync`), and where it differs from all devices")
    p.add_argument("--show-prompt", action="store_true",
                   help="print exactly what the optional LLM judge would be sent about uncertain dimensions")
    p.set_defaults(func=_profile)

    p = sub.add_parser("ask", help="ask memory a question (an LLM answers if one is configured)")
    p.add_argument("question")
    p.add_argument("--choices", nargs="+", metavar="CHOICE", help="multiple-choice options; the answer names one")
    p.add_argument("--session", metavar="ID_OR_LABEL", help="the session the question is about")
    p.add_argument("--show-prompt", action="store_true", help="print exactly what would be sent to the model")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.set_defaults(func=_ask)

    p = sub.add_parser("memory", help="maintain memory (FileGramOS)")
    msub = p.add_subparsers(dest="memory_command", metavar="ACTION", required=True)
    r = msub.add_parser("rebuild", help="recompute all memory from the stored trace")
    r.set_defaults(func=_rebuild)
    c = msub.add_parser("consolidate", help="ingest closed sessions not yet in memory")
    c.set_defaults(func=_consolidate)


def _memory(ctx: Context) -> Memory:
    from .core import Memory

    return Memory(ctx.store(), ctx.config)


def _profile(args: argparse.Namespace, ctx: Context) -> int:
    mem = _memory(ctx)
    mem.consolidate()
    if args.show_prompt:
        from .judge import prompts
        from .llm import configured

        shown = 0
        for dim, prompt in prompts(mem):
            print(f"--- judge prompt for {dim} ---\n{prompt}")
            shown += 1
        if not shown:
            print("no dimension is uncertain: the judge would not be asked")
        elif not configured(ctx.config):
            print("(no model is configured: nothing is sent)")
        return 0
    prof = mem.profile()
    if args.device:
        prof = device_profile(ctx, args.device, prof)
    if args.plot:
        from .plot import plot_profile

        print(f"wrote {plot_profile(prof, args.plot)}", file=sys.stderr)
    if args.json:
        json.dump(prof, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    print(render_profile(prof))
    if args.device:
        print(render_differences(prof))
    return 0


def device_profile(ctx: Context, device: str, overall: dict[str, Any]) -> dict[str, Any]:
    """Memory built from one device's sessions only (a throwaway in-memory copy), with the
    dimensions whose tier differs from the profile of all devices together."""
    from filegram.sync.devices import device_store, local_device_name

    from .core import Memory

    view = device_store(ctx.store(), device, local_device_name(ctx.config))
    try:
        mem = Memory(view, ctx.config)
        mem.consolidate()
        prof = mem.profile()
    finally:
        view.close()
    prof["device"] = device
    prof["differences"] = {
        dim: {"device": d["tier"], "all_devices": overall["dimensions"][dim]["tier"]}
        for dim, d in prof["dimensions"].items()
        if dim in overall["dimensions"] and d["tier"] != overall["dimensions"][dim]["tier"]
    }
    return prof


def render_differences(prof: dict[str, Any]) -> str:
    diffs = prof.get("differences") or {}
    if not diffs:
        return f"On device '{prof['device']}' every dimension has the tier of all devices together."
    lines = [f"Where device '{prof['device']}' differs from all devices together:"]
    for dim, d in diffs.items():
        name = prof["dimensions"][dim]["name"]
        lines.append(f"  {dim} {name}: {d['device']} here, {d['all_devices']} across all devices")
    return "\n".join(lines)


def render_profile(prof: dict[str, Any]) -> str:
    lines = [f"Profile from {prof['sessions']} session(s)"]
    for dim, d in prof["dimensions"].items():
        head = f"{dim} {d['name']:<13} {d['tier']:<8}"
        if d["tier"] != "unknown":
            head += f"{d['confidence']:.2f}  {d['description']}"
        lines.append(head)
        for e in d["evidence"][:3]:
            lines.append(f"    {e}")
    if prof["anomalies"]:
        lines.append("Drift:")
        for a in prof["anomalies"]:
            lines.append(f"  {a['label'] or a['session']}: {a['dimension']}: {a['from']} -> {a['to']} ({a['verdict']})")
    else:
        lines.append("Drift: none flagged")
    return "\n".join(lines)


def _ask(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    if not args.question.strip():
        raise FileGramError("the question is empty")
    mem = _memory(ctx)
    mem.consolidate()
    if args.show_prompt:
        model = ctx.config["llm"]["model"]
        note = f"model {model}" if model else "no model configured: nothing is sent; this is what would be"
        print(f"--- prompt ({note}) ---")
        print(mem.prompt(args.question, args.choices, session=args.session))
        print("--- end of prompt ---")
    ans = mem.ask(args.question, args.choices, session=args.session)
    for w in ans.warnings:
        print(f"filegram: warning: {w}", file=sys.stderr)
    if args.json:
        json.dump({"text": ans.text, "choice": ans.choice, "used_llm": ans.used_llm, "warnings": ans.warnings,
                   "scores": ans.scores}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(ans.text)
    return 0


def _rebuild(args: argparse.Namespace, ctx: Context) -> int:
    n = _memory(ctx).rebuild()
    print(f"memory rebuilt from {n} session(s)")
    return 0


def _consolidate(args: argparse.Namespace, ctx: Context) -> int:
    n = _memory(ctx).consolidate()
    print(f"{n} session(s) ingested")
    return 0


def status_extra(ctx: Context) -> dict[str, object]:
    try:
        store = ctx.store()
        row = store.conn.execute("SELECT COUNT(*) FROM mem_sessions").fetchone()
        return {"memory_sessions": int(row[0]), "memory_updated_ms": store.get_state("memory:last_update_ms")}
    except Exception:  # noqa: BLE001 - status must never fail because memory is not set up
        return {}
