"""Stage 1 procedural features: the 17-feature fingerprint and the wider raw feature set.

Everything here is a pure function of one session's event dicts (plus a blob getter for
content), so the bench's baselines and the simulator's tests can call the very same code.
Boolean features are kept as 0/1 per session and aggregated as "share of sessions" (the
published code averaged them as numbers and every such share read 0).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from filegram.naming import DATE_IN_NAME_RE, VERSION_IN_NAME_RE, looks_like_backup, looks_temporary
from filegram.schema import METADATA_TYPES, depth_of, dir_depth_of, file_type_of

from .content import (
    IMAGE_TYPES,
    STRUCTURED_TYPES,
    TEXT_TYPES,
    decode_text,
    diff_lines,
    table_rows,
    text_stats,
)

BlobGetter = Callable[[str], bytes | None]

FINGERPRINT_FEATURES: tuple[tuple[str, str], ...] = (
    ("A", "search_ratio"),
    ("A", "browse_ratio"),
    ("A", "revisit_ratio"),
    ("B", "avg_output_length"),
    ("B", "files_created"),
    ("B", "total_output_chars"),
    ("C", "dirs_created"),
    ("C", "max_dir_depth"),
    ("C", "files_moved"),
    ("D", "total_edits"),
    ("D", "avg_lines_changed"),
    ("D", "small_edit_ratio"),
    ("E", "total_deletes"),
    ("E", "delete_to_create_ratio"),
    ("F", "structured_files_created"),
    ("F", "markdown_table_rows"),
    ("F", "image_files_created"),
)
FINGERPRINT_NAMES: tuple[str, ...] = tuple(n for _, n in FINGERPRINT_FEATURES)
FEATURE_DIM: dict[str, str] = {n: d for d, n in FINGERPRINT_FEATURES}

# Action types of the produce and organise phases; every other action explores.
PRODUCE = frozenset({"file_write", "file_edit"})
ORGANISE = frozenset({"dir_create", "file_move", "file_rename", "file_delete", "file_copy"})


def clean_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Atomic actions only, in time order (stable for equal timestamps)."""
    evs = [dict(e) for e in events if isinstance(e, Mapping) and e.get("event_type") not in METADATA_TYPES]
    return sorted(evs, key=lambda e: float(e.get("timestamp") or 0.0))


def event_file_type(ev: Mapping[str, Any], path_key: str = "file_path") -> str:
    """The file type an event names (its file_type, else the path's extension)."""
    t = ev.get("file_type")
    if isinstance(t, str) and t:
        return t.lower().lstrip(".")
    return file_type_of(str(ev.get(path_key) or ""))


def _int(v: Any, default: int = 0) -> int:
    if isinstance(v, bool) or v is None:
        return default
    if isinstance(v, int | float):
        return int(v)
    if isinstance(v, list):
        return len(v)
    return default


def written_texts(evs: list[dict[str, Any]], get_blob: BlobGetter | None) -> dict[int, str]:
    """Index of write event (create or overwrite) -> its text snapshot, when stored."""
    out: dict[int, str] = {}
    if get_blob is None:
        return out
    for i, ev in enumerate(evs):
        if ev["event_type"] == "file_write":
            ref = ev.get("media_ref")
            h = ref.get("hash") if isinstance(ref, dict) else ev.get("after_hash")
            if isinstance(h, str) and h:
                text = decode_text(get_blob(h))
                if text is not None:
                    out[i] = text
    return out


def fingerprint(events: Iterable[Mapping[str, Any]], get_blob: BlobGetter | None = None) -> dict[str, float]:
    """The 17 features of filegram.md section 4, exactly by their formulas.

    markdown_table_rows needs the created content: without a blob getter it is 0.
    """
    evs = clean_events(events)
    return fingerprint_of(evs, written_texts(evs, get_blob))


def fingerprint_of(evs: list[dict[str, Any]], texts: dict[int, str]) -> dict[str, float]:
    """The 17 features of events already cleaned (clean_events) with their written texts
    (written_texts): encoding a session computes both once and shares them."""
    types = Counter(e["event_type"] for e in evs)
    reads = [e for e in evs if e["event_type"] == "file_read"]
    access = types["file_read"] + types["file_browse"] + types["file_search"]
    creates = [(i, e) for i, e in enumerate(evs) if e["event_type"] == "file_write" and e.get("operation") == "create"]
    create_lens = [_int(e.get("content_length")) for _, e in creates]
    dirs = [e for e in evs if e["event_type"] == "dir_create"]
    edits = [e for e in evs if e["event_type"] == "file_edit"]
    changed = [_int(e.get("lines_added")) + _int(e.get("lines_deleted")) for e in edits]
    deletes = types["file_delete"]
    n_creates = len(creates)
    return {
        "search_ratio": types["file_search"] / max(access, 1),
        "browse_ratio": types["file_browse"] / max(access, 1),
        "revisit_ratio": sum(1 for r in reads if _int(r.get("view_count"), 1) > 1) / max(len(reads), 1),
        "avg_output_length": (sum(create_lens) / n_creates) if n_creates else 0.0,
        "files_created": float(n_creates),
        "total_output_chars": float(sum(create_lens)),
        "dirs_created": float(len(dirs)),
        "max_dir_depth": float(max((_dir_create_depth(d) for d in dirs), default=0)),
        "files_moved": float(types["file_move"]),
        "total_edits": float(len(edits)),
        "avg_lines_changed": (sum(changed) / len(changed)) if changed else 0.0,
        "small_edit_ratio": (sum(1 for c in changed if c < 10) / len(changed)) if changed else 0.0,
        "total_deletes": float(deletes),
        "delete_to_create_ratio": deletes / max(n_creates, 1),
        "structured_files_created": float(sum(1 for _, e in creates if event_file_type(e) in STRUCTURED_TYPES)),
        "markdown_table_rows": float(sum(table_rows(texts[i]) for i, _ in creates if i in texts)),
        "image_files_created": float(sum(1 for _, e in creates if event_file_type(e) in IMAGE_TYPES)),
    }


def _dir_create_depth(ev: Mapping[str, Any]) -> int:
    d = ev.get("depth")
    if isinstance(d, int | float) and not isinstance(d, bool):
        return int(d)
    return dir_depth_of(str(ev.get("dir_path") or ""))


def _file_depth(ev: Mapping[str, Any], key: str = "file_path") -> int:
    d = ev.get("directory_depth")
    if key == "file_path" and isinstance(d, int | float) and not isinstance(d, bool):
        return int(d)
    return depth_of(str(ev.get(key) or ""))


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _naming_style(name: str) -> str:
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    if " " in stem:
        return "spaces"
    if re.search(r"[\u3400-\u9fff]", stem):
        return "cjk"
    if "_" in stem and "-" not in stem:
        return "snake"
    if "-" in stem and "_" not in stem:
        return "kebab"
    if re.search(r"[a-z][A-Z]", stem):
        return "camel"
    if "_" in stem and "-" in stem:
        return "mixed"
    return "plain"


def raw_features(events: Iterable[Mapping[str, Any]], get_blob: BlobGetter | None = None) -> dict[str, float]:
    """The fingerprint plus the wider set (naming, headings, lists, tables, backups,
    overwrites, reads and edits per file, phases). Names starting with "has_" are 0/1."""
    evs = clean_events(events)
    texts = written_texts(evs, get_blob)
    return raw_features_of(evs, texts)


def raw_features_of(evs: list[dict[str, Any]], texts: dict[int, str]) -> dict[str, float]:
    """raw_features of events already cleaned, with their written texts."""
    f: dict[str, float] = dict(fingerprint_of(evs, texts))
    types = Counter(e["event_type"] for e in evs)
    n = len(evs)
    f["actions"] = float(n)
    for t in ("file_read", "file_browse", "file_search", "file_write", "file_edit", "file_rename",
              "file_move", "dir_create", "file_delete", "file_copy", "context_switch",
              "cross_file_reference"):
        f[f"n_{t.removeprefix('file_')}"] = float(types[t])
    ts = [float(e.get("timestamp") or 0.0) for e in evs]
    f["duration_min"] = round((ts[-1] - ts[0]) / 60000.0, 4) if n > 1 else 0.0

    # A: consumption
    reads = [e for e in evs if e["event_type"] == "file_read"]
    read_paths = Counter(str(e.get("file_path")) for e in reads)
    f["files_read"] = float(len(read_paths))
    f["reads_per_file"] = len(reads) / max(len(read_paths), 1)
    ranged = [e for e in reads if isinstance(e.get("view_range"), list) and len(e["view_range"]) == 2]
    f["ranged_read_share"] = len(ranged) / max(len(reads), 1)
    f["offset_read_share"] = sum(1 for e in ranged if e["view_range"][0] > 1) / max(len(reads), 1)
    f["skim_read_share"] = sum(
        1 for e in ranged if e["view_range"][0] <= 1 and e["view_range"][1] - e["view_range"][0] + 1 <= 30
    ) / max(len(reads), 1)
    f["whole_read_share"] = 1.0 - f["ranged_read_share"] if reads else 0.0
    searches = [e for e in evs if e["event_type"] == "file_search"]
    f["search_followed_share"] = sum(1 for e in searches if e.get("files_opened_after")) / max(len(searches), 1)
    refs = Counter(e.get("reference_type") for e in evs if e["event_type"] == "cross_file_reference")
    n_refs = sum(refs.values())
    f["sequential_ref_share"] = refs["sequential_access"] / max(n_refs, 1)
    f["search_then_read_share"] = refs["search_then_read"] / max(n_refs, 1)
    f["files_listed_per_browse"] = sum(
        _int(e.get("files_listed")) for e in evs if e["event_type"] == "file_browse"
    ) / max(types["file_browse"], 1)
    access = types["file_read"] + types["file_browse"] + types["file_search"]
    first_access = [e["event_type"] for e in evs if e["event_type"] in ("file_read", "file_browse", "file_search")][:5]
    f["first_access_search_share"] = first_access.count("file_search") / max(len(first_access), 1)
    f["first_access_browse_share"] = first_access.count("file_browse") / max(len(first_access), 1)
    f["access_actions"] = float(access)

    # B: production, content structure
    create_idx = [i for i, e in enumerate(evs) if e["event_type"] == "file_write" and e.get("operation") == "create"]
    # Documents produced: the last written version of each text path (create or overwrite),
    # so a rewrite-in-place user's output counts as much as a create-new user's.
    last_write: dict[str, int] = {}
    for i, e in enumerate(evs):
        if e["event_type"] == "file_write" and event_file_type(e) in TEXT_TYPES:
            last_write[str(e.get("file_path"))] = i
    text_creates = sorted(last_write.values())
    stats = [text_stats(texts[i], n_terms=0) for i in text_creates if i in texts]
    est_lines = []
    for i in text_creates:
        if i in texts:
            est_lines.append(len(texts[i].splitlines()))
        else:  # no snapshot: estimate from the length (about 45 characters a line)
            est_lines.append(round(_int(evs[i].get("content_length")) / 45.0))
    f["text_files_written"] = float(len(text_creates))
    f["output_lines"] = float(sum(est_lines))
    f["max_file_lines"] = float(max(est_lines, default=0))
    f["avg_lines_per_file"] = sum(est_lines) / len(est_lines) if est_lines else 0.0
    f["max_heading_depth"] = float(max((s.max_heading_depth for s in stats), default=0))
    f["headings"] = float(sum(s.headings for s in stats))
    nonblank = sum(s.nonblank_lines for s in stats)
    f["list_line_share"] = sum(s.list_lines for s in stats) / max(nonblank, 1)
    f["table_row_share"] = sum(s.table_rows for s in stats) / max(nonblank, 1)
    f["code_blocks"] = float(sum(s.code_blocks for s in stats))
    sent = [s.mean_sentence_chars for s in stats if s.sentences]
    f["mean_sentence_chars"] = round(statistics.fmean(sent), 4) if sent else 0.0
    f["cjk_share"] = round(statistics.fmean(s.cjk_share for s in stats), 4) if stats else 0.0

    # C: organisation
    dirs = [e for e in evs if e["event_type"] == "dir_create"]
    placed = [_file_depth(evs[i]) for i in create_idx]
    moved = [e for e in evs if e["event_type"] == "file_move"]
    moved_depths = []
    for e in moved:
        d = e.get("destination_directory_depth")
        moved_depths.append(int(d) if isinstance(d, int | float) and not isinstance(d, bool) else depth_of(str(e.get("new_path") or "")))
    # Dir depth counts levels ("a/b/c" = 3); a file in "a/b/c/" sits at directory_depth 3.
    f["final_structure_depth"] = float(max([_dir_create_depth(d) for d in dirs] + placed + moved_depths, default=0))
    f["max_created_file_depth"] = float(max(placed, default=0))
    f["root_create_share"] = sum(1 for d in placed if d == 0) / max(len(placed), 1)
    f["moves_into_subfolders"] = float(sum(1 for d, e in zip(moved_depths, moved, strict=True) if d > depth_of(str(e.get("old_path") or ""))))
    f["n_renames"] = float(types["file_rename"])
    f["organise_actions"] = float(len(dirs) + len(moved) + types["file_rename"])

    # D: iteration
    edits = [e for e in evs if e["event_type"] == "file_edit"]
    writes = [e for e in evs if e["event_type"] == "file_write"]
    overwrites = [e for e in writes if e.get("operation") == "overwrite"]
    copies = [e for e in evs if e["event_type"] == "file_copy"]
    backups = [
        e for e in copies
        if e.get("is_backup") is True or looks_like_backup(str(e.get("dest_path") or ""))
    ]
    f["overwrites"] = float(len(overwrites))
    f["overwrite_ratio"] = len(overwrites) / max(len(overwrites) + len(edits), 1)
    f["backups"] = float(len(backups))
    edit_paths = Counter(str(e.get("file_path")) for e in edits)
    f["edits_per_file"] = len(edits) / max(len(edit_paths), 1)
    changed = [_int(e.get("lines_added")) + _int(e.get("lines_deleted")) for e in edits]
    f["medium_edit_ratio"] = sum(1 for c in changed if 10 <= c <= 30) / max(len(changed), 1)
    f["large_edit_ratio"] = sum(1 for c in changed if c > 30) / max(len(changed), 1)
    f["lines_added"] = float(sum(_int(e.get("lines_added")) for e in edits))
    f["lines_deleted"] = float(sum(_int(e.get("lines_deleted")) for e in edits))
    f["revision_actions"] = float(len(edits) + len(overwrites) + len(backups))

    # E: curation
    deletes = [e for e in evs if e["event_type"] == "file_delete"]
    f["temp_deletes"] = float(sum(
        1 for e in deletes if e.get("was_temporary") is True or looks_temporary(str(e.get("file_path") or ""))
    ))
    created_paths = {str(evs[i].get("file_path")) for i in create_idx}
    f["deletes_of_own_files"] = float(sum(1 for e in deletes if str(e.get("file_path")) in created_paths))

    # F: cross-modal
    ctypes = Counter(event_file_type(evs[i]) for i in create_idx)
    f["visual_files_created"] = f["image_files_created"] + f["structured_files_created"]
    f["figure_dirs_created"] = float(sum(
        1 for d in dirs if re.search(r"(fig|figure|chart|image|img|plot|visual|graph|图)", _name(str(d.get("dir_path") or "")), re.I)
    ))
    f["output_types"] = float(len(ctypes))

    # naming of created files and folders
    names = [_name(str(evs[i].get("file_path") or "")) for i in create_idx] + [_name(str(d.get("dir_path") or "")) for d in dirs]
    styles = Counter(_naming_style(nm) for nm in names if nm)
    total_names = max(sum(styles.values()), 1)
    for style in ("snake", "kebab", "camel", "spaces", "plain", "cjk", "mixed"):
        f[f"naming_{style}_share"] = styles[style] / total_names
    f["naming_dated_share"] = sum(1 for nm in names if DATE_IN_NAME_RE.search(nm)) / total_names
    f["naming_versioned_share"] = sum(1 for nm in names if VERSION_IN_NAME_RE.search(nm)) / total_names

    # phases
    phases = [phase_of(e["event_type"]) for e in evs]
    pc = Counter(phases)
    for ph in ("explore", "produce", "organise"):
        f[f"phase_{ph}_share"] = pc[ph] / max(n, 1)
    f["phase_switches"] = float(sum(1 for a, b in zip(phases, phases[1:], strict=False) if a != b))

    # booleans (0/1 per session; aggregated as a share of sessions)
    f["has_search"] = float(types["file_search"] > 0)
    f["has_backup"] = float(len(backups) > 0)
    f["has_overwrite"] = float(len(overwrites) > 0)
    f["has_delete"] = float(len(deletes) > 0)
    f["has_nested_dirs"] = float(f["final_structure_depth"] >= 3)
    f["has_move"] = float(len(moved) > 0)
    f["has_table"] = float(f["markdown_table_rows"] > 0)
    f["has_image"] = float(f["image_files_created"] > 0)
    f["has_structured"] = float(f["structured_files_created"] > 0)
    f["has_headings"] = float(f["headings"] > 0)
    f["has_lists"] = float(f["list_line_share"] > 0)
    return {k: float(round(v, 6)) for k, v in f.items()}


def phase_of(etype: str) -> str:
    """The phase an action type belongs to: produce, organise or explore."""
    if etype in PRODUCE:
        return "produce"
    if etype in ORGANISE:
        return "organise"
    return "explore"


def is_boolean_feature(name: str) -> bool:
    return name.startswith("has_")


def edit_diffs(evs: list[dict[str, Any]], get_blob: BlobGetter | None) -> list[tuple[str, str]]:
    """(path, diff text) of each edit whose diff is stored."""
    out = []
    if get_blob is None:
        return out
    for e in evs:
        if e["event_type"] != "file_edit":
            continue
        ref = e.get("media_ref_diff")
        if isinstance(ref, dict) and isinstance(ref.get("hash"), str):
            text = decode_text(get_blob(ref["hash"]))
            if text:
                out.append((str(e.get("file_path") or ""), text))
    return out


__all__ = [
    "FINGERPRINT_FEATURES",
    "FINGERPRINT_NAMES",
    "BlobGetter",
    "fingerprint",
    "fingerprint_of",
    "raw_features",
    "raw_features_of",
    "clean_events",
    "written_texts",
    "edit_diffs",
    "event_file_type",
    "phase_of",
    "diff_lines",
]
