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
    c = msub.add_parser("consolidate", help="ingest closed sessions not yet in memory and fold the open one in provisionally")
    c.set_defaults(func=_consolidate)


def _memory(ctx: Context) -> Memory:
    from .core import Memory

    return Memory(ctx.store(), ctx.config)


def _profile(args: argparse.Namespace, ctx: Context) -> int:
    mem = _memory(ctx)
    mem.consolidate(live=True)
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
    if args.plot:
        from .plot import plot_profile

        print(f"wrote {plot_profile(prof, args.plot)}", file=sys.stderr)
    if args.json:
        json.dump(prof, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    print(render_profile(prof))
    return 0


def render_profile(prof: dict[str, Any]) -> str:
    lines = [f"Profile from {prof['sessions']} session(s)" + provisional_note(prof.get("provisional"))]
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


def provisional_note(live: dict[str, Any] | None) -> str:
    """", 1 of them still open (provisional: 207 actions so far)" or "" (live memory)."""
    if not live or not live.get("sessions"):
        return ""
    n = live["sessions"]
    return (f", {n} of them still open (provisional: {live['actions']} action(s) so far, "
            "replaced when the session closes)")


def _ask(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    if not args.question.strip():
        raise FileGramError("the question is empty")
    mem = _memory(ctx)
    mem.consolidate(live=True)
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
                   "scores": ans.scores, "route": ans.route, "facts": ans.facts,
                   "provisional": mem.live_status()["actions"]}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(ans.text)
        live = mem.live_status()
        if live["sessions"] and ans.route != "none":
            print(f"(memory includes the open session provisionally: {live['actions']} action(s) so far)")
    return 0


def _rebuild(args: argparse.Namespace, ctx: Context) -> int:
    n = _memory(ctx).rebuild()
    print(f"memory rebuilt from {n} session(s)")
    return 0


def _consolidate(args: argparse.Namespace, ctx: Context) -> int:
    mem = _memory(ctx)
    n = mem.consolidate(live=True)
    live = mem.live_status()
    note = (f"; {live['sessions']} open session(s) folded in provisionally ({live['actions']} action(s))"
            if live["sessions"] else "")
    print(f"{n} session(s) ingested{note}")
    return 0


def status_extra(ctx: Context) -> dict[str, object]:
    try:
        store = ctx.store()
        row = store.conn.execute("SELECT COUNT(*) FROM mem_sessions").fetchone()
        live = store.conn.execute("SELECT COUNT(*), COALESCE(SUM(actions), 0) FROM mem_live").fetchone() \
            if store.has_table("mem_live") else (0, 0)
        return {"memory_sessions": int(row[0]), "memory_updated_ms": store.get_state("memory:last_update_ms"),
                "memory_provisional": {"sessions": int(live[0]), "actions": int(live[1])}}
    except Exception:  # noqa: BLE001 - status must never fail because memory is not set up
        return {}
