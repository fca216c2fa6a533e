"""The FileGram trace format: 12 atomic action types, the event envelope, validation.

FileGram event dicts are the lingua franca between recorder, simulator, store, memory and
bench, so the field names here are exactly those of the published format. Typed records
(`Action`) exist so that producers cannot misspell a field; consumers mostly read dicts.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import FileGramError

# ---------------------------------------------------------------------------------------
# Field kinds. Each field has a kind and whether null is allowed; "required" fields must be
# present in the dict (with a non-null value unless nullable).

STR, INT, NUM, BOOL, INT_PAIR, STR_LIST, COUNT, MEDIA_REF = (
    "str",
    "int",
    "number",
    "bool",
    "[int, int]",
    "list of str",
    "int or list of str",
    "media reference",
)


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str
    required: bool = True
    nullable: bool = False


def _f(name: str, kind: str, required: bool = True, nullable: bool = False) -> FieldSpec:
    return FieldSpec(name, kind, required, nullable)


ENVELOPE_FIELDS: tuple[FieldSpec, ...] = (
    _f("event_id", STR),
    _f("event_type", STR),
    _f("timestamp", NUM),
    _f("session_id", STR),
    _f("profile_id", STR, required=False, nullable=True),
    _f("message_id", STR, required=False, nullable=True),
    _f("model_provider", STR, required=False, nullable=True),
    _f("model_name", STR, required=False, nullable=True),
)
ENVELOPE_NAMES = tuple(f.name for f in ENVELOPE_FIELDS)

ACTION_SPECS: dict[str, tuple[FieldSpec, ...]] = {
    "file_read": (
        _f("file_path", STR),
        _f("file_type", STR, required=False, nullable=True),
        _f("directory_depth", INT, required=False, nullable=True),
        _f("view_count", INT, required=False, nullable=True),
        _f("view_range", INT_PAIR, required=False, nullable=True),
        _f("content_length", INT, required=False, nullable=True),
        _f("revisit_interval_ms", NUM, required=False, nullable=True),
    ),
    "file_browse": (
        _f("directory_path", STR),
        _f("files_listed", COUNT, required=False, nullable=True),
        _f("depth", INT, required=False, nullable=True),
    ),
    "file_search": (
        _f("search_type", STR),
        _f("query", STR, required=False, nullable=True),
        _f("files_matched", COUNT, required=False, nullable=True),
        _f("files_opened_after", STR_LIST, required=False, nullable=True),
        _f("search_scope", STR_LIST, required=False, nullable=True),
    ),
    "file_write": (
        _f("file_path", STR),
        _f("file_type", STR, required=False, nullable=True),
        _f("directory_depth", INT, required=False, nullable=True),
        _f("operation", STR),
        _f("content_length", INT, required=False, nullable=True),
        _f("before_hash", STR, required=False, nullable=True),
        _f("after_hash", STR, required=False, nullable=True),
        _f("media_ref", MEDIA_REF, required=False, nullable=True),
    ),
    "file_edit": (
        _f("file_path", STR),
        _f("file_type", STR, required=False, nullable=True),
        _f("edit_tool", STR, required=False, nullable=True),
        _f("lines_added", INT, required=False, nullable=True),
        _f("lines_deleted", INT, required=False, nullable=True),
        _f("lines_modified", INT, required=False, nullable=True),
        _f("diff_summary", STR, required=False, nullable=True),
        _f("before_hash", STR, required=False, nullable=True),
        _f("after_hash", STR, required=False, nullable=True),
        _f("media_ref_old", MEDIA_REF, required=False, nullable=True),
        _f("media_ref_new", MEDIA_REF, required=False, nullable=True),
        _f("media_ref_diff", MEDIA_REF, required=False, nullable=True),
    ),
    "file_rename": (
        _f("old_path", STR),
        _f("new_path", STR),
        _f("naming_pattern_change", STR, required=False, nullable=True),
    ),
    "file_move": (
        _f("old_path", STR),
        _f("new_path", STR),
        _f("destination_directory_depth", INT, required=False, nullable=True),
    ),
    "dir_create": (
        _f("dir_path", STR),
        _f("depth", INT, required=False, nullable=True),
        _f("sibling_count", INT, required=False, nullable=True),
    ),
    "file_delete": (
        _f("file_path", STR),
        _f("file_age_ms", NUM, required=False, nullable=True),
        _f("was_temporary", BOOL, required=False, nullable=True),
    ),
    "file_copy": (
        _f("source_path", STR),
        _f("dest_path", STR),
        _f("is_backup", BOOL, required=False, nullable=True),
    ),
    "context_switch": (
        _f("from_file", STR, required=False, nullable=True),
        # null when focus went to a window that shows no file (a browser, a chat): a screen
        # recorder sees the person leave the file without a file to name
        _f("to_file", STR, required=False, nullable=True),
        _f("trigger", STR, required=False, nullable=True),
        _f("switch_count", INT, required=False, nullable=True),
    ),
    "cross_file_reference": (
        # null when nothing names the source: a search_then_read whose producer did not
        # say which file led there (the search is the source, not a file)
        _f("source_file", STR, required=False, nullable=True),
        _f("target_file", STR),
        _f("reference_type", STR, required=False, nullable=True),
        _f("interval_ms", NUM, required=False, nullable=True),
    ),
}

ACTION_TYPES: tuple[str, ...] = tuple(ACTION_SPECS)

# Optional fields any action type may carry (the recorder sets them; imported FileGram
# trajectories and the simulator's traces do not). Absent "authored" means authored.
#   program: the program that did it ("vim", "tar", "git", "cp", "python3" ...), null when unknown
#   authored: false for a tool's work (archives, version control, packages, builds,
#             indexers), a script's burst of new files, an interpreter's read of its own
#             script and a download, true for the person's own acts
#   bulk, bulk_count: a summary of many files (one action for a whole operation)
#   command: the program and its sub-command ("git checkout", "tar x"), never arguments
#   program_kind: the program's row in the recorder's table (archive, vcs, editor ...), or
#                 what the recorder inferred: "script" (new files written back to back by a
#                 program the table does not list), "download" (a file a browser saved; see
#                 docs/recorder.md)
#   text_extracted: true when the snapshot, diff, content_length and line counts are the text
#                   extracted from an office document (.docx, .odt, .pptx, .odp, .rtf), not its
#                   bytes; its before_hash/after_hash are still of the bytes on disk
COMMON_FIELDS: tuple[FieldSpec, ...] = (
    _f("program", STR, required=False, nullable=True),
    _f("authored", BOOL, required=False, nullable=True),
    _f("bulk", BOOL, required=False, nullable=True),
    _f("bulk_count", INT, required=False, nullable=True),
    _f("command", STR, required=False, nullable=True),
    _f("program_kind", STR, required=False, nullable=True),
    _f("text_extracted", BOOL, required=False, nullable=True),
)
COMMON_NAMES = tuple(f.name for f in COMMON_FIELDS)
# Office documents whose text a recorder may extract and keep as their snapshot
# (`text_extracted`): the recorder extracts it, memory counts such a document as writing
# only when the snapshot is that text.
OFFICE_TYPES: frozenset[str] = frozenset({"docx", "odt", "pptx", "odp", "rtf"})

METADATA_TYPES: frozenset[str] = frozenset(
    {
        "tool_call",
        "llm_response",
        "compaction_triggered",
        "session_start",
        "session_end",
        "iteration_start",
        "iteration_end",
        "error_encounter",
        "error_response",
        "fs_snapshot",
    }
)

WRITE_OPERATIONS = ("create", "overwrite")
NAMING_PATTERN_CHANGES = ("snake_to_kebab", "kebab_to_snake", "case_change", "mixed_to_other", "other")
REFERENCE_TYPES = ("read_then_edit", "sequential_access", "search_then_read")

# Fields that hold paths, per action type: anonymisation and forgetting rewrite these.
PATH_FIELDS: dict[str, tuple[str, ...]] = {
    "file_read": ("file_path",),
    "file_browse": ("directory_path",),
    "file_search": (),
    "file_write": ("file_path",),
    "file_edit": ("file_path",),
    "file_rename": ("old_path", "new_path"),
    "file_move": ("old_path", "new_path"),
    "dir_create": ("dir_path",),
    "file_delete": ("file_path",),
    "file_copy": ("source_path", "dest_path"),
    "context_switch": ("from_file", "to_file"),
    "cross_file_reference": ("source_file", "target_file"),
}
# A search's scope (the folders or files it was run over) is a path like any other: forget
# --path reaches the search through it, and the deny list and anonymisation see it.
PATH_LIST_FIELDS: dict[str, tuple[str, ...]] = {"file_search": ("files_opened_after", "search_scope")}
MEDIA_FIELDS: dict[str, tuple[str, ...]] = {
    "file_write": ("media_ref",),
    "file_edit": ("media_ref_old", "media_ref_new", "media_ref_diff"),
}

# Nesting and size limits: hostile input is refused with a clear message, not a crash.
MAX_STRING = 1 << 20
MAX_LIST = 100_000


class TraceError(FileGramError, ValueError):
    """An event or trajectory that does not follow the FileGram format.

    The message is one line that names the file and event index when known.
    """

    def __init__(self, message: str, *, source: str | None = None, index: int | None = None):
        message = message.replace("\r", "\\r").replace("\n", "\\n")  # always one line
        self.reason = message
        self.source = source
        self.index = index
        where = []
        if source:
            where.append(source)
        if index is not None:
            where.append(f"event {index}")
        super().__init__(f"{': '.join(where)}: {message}" if where else message)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return {dict: "object", list: "array", str: "str", int: "int", float: "number"}.get(
        type(value), type(value).__name__
    )


def is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def field_error(name: str, kind: str, value: Any) -> str | None:
    """Return an error message if value is not of kind, else None."""
    if kind == STR:
        if not isinstance(value, str):
            return f"field '{name}' must be a string, got {_type_name(value)}"
        if len(value) > MAX_STRING:
            return f"field '{name}' is longer than {MAX_STRING} characters"
        if "\x00" in value:
            return f"field '{name}' contains a NUL character"
        if not value.isascii() and not is_unicode(value):
            return f"field '{name}' is not valid Unicode text"
        return None
    if kind == INT:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer() and math.isfinite(value):
                return None
            return f"field '{name}' must be an integer, got {_type_name(value)}"
        return None
    if kind == NUM:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"field '{name}' must be a number, got {_type_name(value)}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"field '{name}' must be a finite number"
        return None
    if kind == BOOL:
        if not isinstance(value, bool):
            return f"field '{name}' must be true or false, got {_type_name(value)}"
        return None
    if kind == INT_PAIR:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            return f"field '{name}' must be a [first, last] pair of integers"
        return None
    if kind == STR_LIST:
        if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
            return f"field '{name}' must be a list of strings"
        if len(value) > MAX_LIST:
            return f"field '{name}' has more than {MAX_LIST} items"
        return None
    if kind == COUNT:
        if isinstance(value, int) and not isinstance(value, bool):
            return None if value >= 0 else f"field '{name}' must not be negative"
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return None if len(value) <= MAX_LIST else f"field '{name}' is too long"
        return f"field '{name}' must be a count or a list of paths, got {_type_name(value)}"
    if kind == MEDIA_REF:
        if not isinstance(value, dict):
            return f"field '{name}' must be an object {{type, hash, path}}, got {_type_name(value)}"
        h = value.get("hash")
        if not isinstance(h, str) or not h:
            return f"field '{name}.hash' must be a non-empty string"
        if not all(c in "0123456789abcdef" for c in h.lower()) or len(h) > 64:
            return f"field '{name}.hash' must be hexadecimal"
        for key in ("type", "path"):
            if key in value and value[key] is not None and not isinstance(value[key], str):
                return f"field '{name}.{key}' must be a string"
        return None
    raise AssertionError(kind)


def validate_event(event: Any, *, source: str | None = None, index: int | None = None) -> dict[str, Any]:
    """Check one FileGram event dict of an atomic action type and return a normalised copy.

    Integers given as integral floats become ints; everything else is kept as given, so a
    validated event exports back to the same JSON. Raises TraceError with a precise message.
    """

    def fail(msg: str) -> TraceError:
        return TraceError(msg, source=source, index=index)

    if not isinstance(event, dict):
        raise fail(f"event must be a JSON object, got {_type_name(event)}")
    etype = event.get("event_type")
    if not isinstance(etype, str):
        raise fail("missing or non-string 'event_type'")
    if etype in METADATA_TYPES:
        raise fail(f"'{etype}' is simulation metadata, not an atomic action")
    specs = ACTION_SPECS.get(etype)
    if specs is None:
        raise fail(f"unknown event_type '{etype[:60]}'")
    out: dict[str, Any] = {}
    for spec in ENVELOPE_FIELDS + specs + COMMON_FIELDS:
        if spec.name not in event:
            if spec.required:
                raise fail(f"{etype} is missing required field '{spec.name}'")
            continue
        value = event[spec.name]
        if value is None:
            if not spec.nullable:
                raise fail(f"field '{spec.name}' of {etype} must not be null")
            out[spec.name] = None
            continue
        err = field_error(spec.name, spec.kind, value)
        if err:
            raise fail(f"{etype}: {err}")
        if spec.kind == INT and isinstance(value, float):
            value = int(value)
        out[spec.name] = value
    for name in ("event_id", "session_id"):
        if not out[name]:
            raise fail(f"{etype}: field '{name}' must not be empty")
    if etype == "context_switch" and out.get("from_file") is None and out.get("to_file") is None:
        raise fail("context_switch: needs 'from_file' or 'to_file' (a switch between two windows that show no file says nothing)")
    if etype == "file_write" and out["operation"] not in WRITE_OPERATIONS:
        raise fail(f"file_write: field 'operation' must be 'create' or 'overwrite', got '{out['operation'][:40]}'")
    # Keep unknown extra fields (lossless round trip), if they are plain JSON.
    for key, value in event.items():
        if key not in out and key not in {s.name for s in ENVELOPE_FIELDS + specs + COMMON_FIELDS}:
            if not isinstance(key, str) or len(key) > 200:
                raise fail("extra field names must be short strings")
            check_extra_value(value, fail)
            out[key] = value
    return out


def check_extra_value(value: Any, fail: Any, depth: int = 0) -> None:
    if depth > 32:
        raise fail("extra field nests deeper than 32 levels")
    if isinstance(value, dict):
        for v in value.values():
            check_extra_value(v, fail, depth + 1)
    elif isinstance(value, list):
        if len(value) > MAX_LIST:
            raise fail("extra field list is too long")
        for v in value:
            check_extra_value(v, fail, depth + 1)
    elif isinstance(value, str):
        if len(value) > MAX_STRING:
            raise fail("extra field string is too long")
        if not value.isascii() and not is_unicode(value):
            raise fail("extra field is not valid Unicode text")


def is_metadata_event(event: Any) -> bool:
    """True for the engine's simulation-metadata events (dropped on import)."""
    return isinstance(event, dict) and isinstance(event.get("event_type"), str) and event["event_type"] in METADATA_TYPES


def new_event_id() -> str:
    return str(uuid.uuid4())


@dataclass
class Action:
    """A typed atomic action. `fields` holds the type-specific FileGram fields by name.

    Construct with `Action.make("file_read", session_id, ts_ms, file_path=..., ...)`: unknown
    field names are rejected at once, so a producer cannot drift from the format.
    """

    event_type: str
    session_id: str
    timestamp: float
    fields: dict[str, Any] = field(default_factory=dict)
    event_id: str = field(default_factory=new_event_id)
    profile_id: str | None = None
    message_id: str | None = None
    model_provider: str | None = None
    model_name: str | None = None

    @classmethod
    def make(cls, event_type: str, session_id: str, timestamp: float, **fields: Any) -> Action:
        specs = ACTION_SPECS.get(event_type)
        if specs is None:
            raise TraceError(f"unknown event_type '{event_type}'")
        known = {s.name for s in specs} | set(COMMON_NAMES)
        extra = set(fields) - known
        if extra:
            raise TraceError(f"{event_type} has no field(s) {', '.join(sorted(extra))}")
        full = {s.name: fields.get(s.name) for s in specs}
        full.update({k: fields[k] for k in COMMON_NAMES if k in fields})
        return cls(event_type, session_id, float(timestamp), full)

    def to_event(self) -> dict[str, Any]:
        """The FileGram event dict (envelope first, then the type's fields)."""
        d: dict[str, Any] = {
            "event_id": self.event_id,
            "event_type": self.event_type,
            "timestamp": self.timestamp,
            "session_id": self.session_id,
            "profile_id": self.profile_id,
            "message_id": self.message_id,
            "model_provider": self.model_provider,
            "model_name": self.model_name,
        }
        d.update(self.fields)
        return d

    @classmethod
    def from_event(cls, event: Mapping[str, Any]) -> Action:
        ev = validate_event(dict(event))
        fields = {k: v for k, v in ev.items() if k not in ENVELOPE_NAMES}
        return cls(
            event_type=ev["event_type"],
            session_id=ev["session_id"],
            timestamp=float(ev["timestamp"]),
            fields=fields,
            event_id=ev["event_id"],
            profile_id=ev.get("profile_id"),
            message_id=ev.get("message_id"),
            model_provider=ev.get("model_provider"),
            model_name=ev.get("model_name"),
        )


PRIMARY_PATH_ORDER: dict[str, tuple[str, ...]] = {
    **PATH_FIELDS,
    "file_rename": ("new_path", "old_path"),
    "file_move": ("new_path", "old_path"),
    "file_copy": ("dest_path", "source_path"),
    "context_switch": ("to_file", "from_file"),
}


def primary_path(event: Mapping[str, Any]) -> str | None:
    """The path an action is mostly about (indexed in the store; used by forget --path)."""
    for name in PRIMARY_PATH_ORDER.get(event.get("event_type", ""), ()):
        value = event.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def event_paths(event: Mapping[str, Any]) -> list[str]:
    """Every path an action names (for exclusion checks and forgetting)."""
    etype = event.get("event_type", "")
    out = [event[n] for n in PATH_FIELDS.get(etype, ()) if isinstance(event.get(n), str)]
    for n in PATH_LIST_FIELDS.get(etype, ()):
        vals = event.get(n)
        if isinstance(vals, list):
            out.extend(v for v in vals if isinstance(v, str))
    if etype == "file_search":
        for n in ("files_matched",):
            vals = event.get(n)
            if isinstance(vals, list):
                out.extend(v for v in vals if isinstance(v, str))
    return out


PATH_NAMES = frozenset(n for names in PATH_FIELDS.values() for n in names)
# Where a stored path outside the workspace root lies: the importer keeps such a path by its
# name alone (`external/<name>`, `external/Temp/<name>` for the system's temp folders).
EXTERNAL_PREFIX = "external"
PATH_LIST_NAMES = frozenset(n for names in PATH_LIST_FIELDS.values() for n in names) | {"files_matched"}


def named_paths(event: Mapping[str, Any]) -> list[str]:
    """Every path an event names under a path field's name, whether or not its type has that
    field: a producer that writes `file_path` beside a folder's `dir_path` names a path too,
    and what names a path is anonymised and checked against the deny list like any other."""
    out = [v for n, v in event.items() if n in PATH_NAMES and isinstance(v, str)]
    for n, vals in event.items():
        if n in PATH_LIST_NAMES and isinstance(vals, list):
            out.extend(v for v in vals if isinstance(v, str))
    return out


def media_hashes(event: Mapping[str, Any]) -> list[str]:
    out = []
    for n in MEDIA_FIELDS.get(event.get("event_type", ""), ()):
        ref = event.get(n)
        if isinstance(ref, dict) and isinstance(ref.get("hash"), str):
            out.append(ref["hash"])
    return out


def file_type_of(path: str) -> str:
    """FileGram's file_type: the extension without the dot, lower-case ('' when none)."""
    name = path.rsplit("/", 1)[-1]
    if "." not in name.lstrip("."):
        return ""
    return name.rsplit(".", 1)[-1].lower()


def depth_of(rel_path: str) -> int:
    """Directory depth of a path relative to the workspace root (0 = at the root)."""
    parts = [p for p in rel_path.strip("/").split("/") if p and p != "."]
    return max(len(parts) - 1, 0)


def dir_depth_of(rel_dir: str) -> int:
    """Depth of a directory relative to the workspace root: 'a' is 1, 'a/b/c' is 3, root is 0.

    dir_create.depth and the C dimension's "3+ levels" use this convention.
    """
    return len([p for p in rel_dir.strip("/").split("/") if p and p != "."])
