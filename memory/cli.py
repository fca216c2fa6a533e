"""`filegram profile`, `filegram ask` and `filegram memory ...` (imports its code when run)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
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
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also print every evidence line and the raw statistics (mean, sd, min, max)")
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
        if args.device:  # what the judge would be asked about that device's profile
            with _device_memory(ctx, args.device) as dev:
                return _show_prompts(dev, ctx)
        return _show_prompts(mem, ctx)
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
    print(render_profile(prof, verbose=args.verbose))
    if args.device:
        print(render_differences(prof))
    return 0


def _show_prompts(mem: Memory, ctx: Context) -> int:
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


@contextlib.contextmanager
def _device_memory(ctx: Context, device: str) -> Iterator[Memory]:
    """Memory built from one device's sessions only, over a throwaway in-memory copy."""
    from filegram.sync.devices import device_store, local_device_name

    from .core import Memory

    view = device_store(ctx.store(), device, local_device_name(ctx.config))
    try:
        mem = Memory(view, ctx.config)
        mem.consolidate()
        yield mem
    finally:
        view.close()


def device_profile(ctx: Context, device: str, overall: dict[str, Any]) -> dict[str, Any]:
    """The profile of one device's sessions, with the dimensions whose tier differs from
    the profile of all devices together."""
    with _device_memory(ctx, device) as mem:
        prof = mem.profile()
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


def _n(x: float) -> str:
    """A count or amount for people: 1,234 / 12 / 3.5."""
    return f"{x:,.0f}" if abs(x) >= 10 or float(x).is_integer() else f"{x:.1f}"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _total(feats: dict[str, Any], name: str) -> float:
    f = feats.get(name) or {}
    return float(f.get("mean") or 0.0) * float(f.get("n") or 0)


def _mean(feats: dict[str, Any], name: str) -> float:
    return float((feats.get(name) or {}).get("mean") or 0.0)


def summary_sentence(dim: str, feats: dict[str, Any]) -> str:
    """What the numbers behind a dimension say, as one sentence a person reads at a glance
    (the raw statistics stay in `--verbose` and in `--json`)."""
    if not feats:
        return ""
    if dim == "A":
        return (f"You searched in {_pct(_mean(feats, 'search_ratio'))} and listed folders in "
                f"{_pct(_mean(feats, 'browse_ratio'))} of your reading, and went back to "
                f"{_pct(_mean(feats, 'revisit_ratio'))} of what you read.")
    if dim == "B":
        docs = _total(feats, "files_created")
        chars = _mean(feats, "avg_output_length")
        return (f"You wrote {_n(docs)} new document(s), about {_n(chars)} characters "
                f"(~{_n(chars / 6)} words) each on average.") if docs else "You wrote no new documents."
    if dim == "C":
        depth = float((feats.get("max_dir_depth") or {}).get("max") or 0)
        return (f"You made {_n(_total(feats, 'dirs_created'))} folder(s), up to {_n(depth)} level(s) deep, "
                f"and moved {_n(_total(feats, 'files_moved'))} file(s).")
    if dim == "D":
        edits = _total(feats, "total_edits")
        if not edits:
            return "You made no edits to existing files."
        return (f"You edited files {_n(edits)} time(s), changing about {_n(_mean(feats, 'avg_lines_changed'))} "
                f"line(s) per edit; {_pct(_mean(feats, 'small_edit_ratio'))} of edits were small.")
    if dim == "E":
        return (f"You deleted {_n(_total(feats, 'total_deletes'))} file(s), "
                f"{_n(_mean(feats, 'delete_to_create_ratio'))} for every file you created.")
    if dim == "F":
        return (f"You made {_n(_total(feats, 'image_files_created'))} image(s) or chart(s), "
                f"{_n(_total(feats, 'structured_files_created'))} data file(s) and "
                f"{_n(_total(feats, 'markdown_table_rows'))} table row(s).")
    return ""


def render_profile(prof: dict[str, Any], *, verbose: bool = False, width: int | None = None) -> str:
    """The profile for a terminal: per dimension the tier in words, one plain sentence of what
    it rests on, wrapped to the width (never cut mid-number); `verbose` adds the evidence lines
    and the raw statistics (mean, sd, min, max per feature)."""
    import shutil
    import textwrap

    width = width or max(shutil.get_terminal_size((80, 24)).columns, 40)

    def wrap(text: str, indent: str) -> list[str]:
        return textwrap.wrap(text, width - 1, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False, break_long_words=False)

    lines = [f"Profile from {prof['sessions']} session(s)" + provisional_note(prof.get("provisional"))]
    for dim, d in prof["dimensions"].items():
        if d["tier"] == "unknown":
            ev = d.get("evidence") or []
            why = next((e.split(": ", 1)[1] for e in ev if e.startswith("unknown: ")), "not enough evidence")
            why = why.split(" (")[0]
            lines.append(f"{dim} {d['name']:<13} unknown ({why})")
        else:
            lines.append(f"{dim} {d['name']:<13} {d['tier']}  {_pct(d['confidence'])} sure")
            lines.extend(wrap(d["description"][:1].upper() + d["description"][1:] + ".", "    "))
        sentence = summary_sentence(dim, d.get("features") or {})
        if sentence and d.get("sessions"):
            lines.extend(wrap(f"{sentence} ({d['sessions']} session(s) gave a chance to show it.)", "    "))
        elif d["tier"] != "unknown":  # called without chances of its own: E read from the working sessions
            lines.extend(wrap(f"{sentence} (Read from your working sessions: too few left leftovers in sight.)".lstrip(),
                              "    "))
        elif not d.get("sessions"):
            lines.extend(wrap("No session gave a chance to show it yet.", "    "))
        if verbose:
            for e in d["evidence"]:
                lines.extend(wrap(e, "      "))
            for name, st in (d.get("features") or {}).items():
                stats = ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in st.items())
                lines.extend(wrap(f"{name}: {stats}", "      "))
    if prof["anomalies"]:
        lines.append("Drift (sessions unlike your usual):")
        for a in prof["anomalies"]:
            head = (f"{a['label'] or a['session'][:8]}: {a['dimension']} looked {a['to']} "
                    f"instead of {a['from']} ({a['verdict']})")
            lines.extend(wrap(head, "  "))
            if a.get("reason"):
                lines.extend(wrap(str(a["reason"]), "      "))
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
    import sqlite3
    import time

    from filegram.commands import progress_bar

    store = ctx.store()
    total = len(store.sessions(closed=True))
    started = time.monotonic()
    reader: sqlite3.Connection | None = None

    def rebuilt() -> int:
        """Sessions committed so far, read on a connection of its own (WAL: readers see each
        committed batch while the rebuild writes the next)."""
        nonlocal reader
        if reader is None:
            reader = sqlite3.connect(f"file:{ctx.home.db_path}?mode=ro", uri=True, check_same_thread=False)
        return int(reader.execute("SELECT COUNT(*) FROM mem_sessions").fetchone()[0])

    try:
        with progress_bar("memory rebuild", total, count=rebuilt):
            n = _memory(ctx).rebuild()
    finally:
        if reader is not None:
            reader.close()
    print(f"memory rebuilt from {n} session(s) in {time.monotonic() - started:.1f} s")
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
