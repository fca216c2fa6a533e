from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from filegram.privacy import PathFilter
from filegram.schema import TraceError
from filegram.store import Store
from filegram.trajectory import export_sessions, import_paths


def _snapshot(store: Store) -> dict:
    sessions = {s["id"]: {k: s[k] for k in ("label", "profile_id", "task_id", "metadata", "action_count")} for s in store.sessions()}
    actions = sorted(json.dumps(e, sort_keys=True) for e in store.actions())
    blobs = sorted(store.conn.execute("SELECT hash, kind, size, original_path FROM blobs").fetchall())
    contents = {h: store.get_blob(h) for (h, *_r) in blobs}
    return {"sessions": sessions, "actions": actions, "blobs": blobs, "contents": contents}


def test_import_drops_metadata_and_anonymises_paths(tmp_path, fixtures_dir):
    store = Store(tmp_path / "db.sqlite")
    results = import_paths(store, [fixtures_dir / "p1_T-01"])
    assert results[0].dropped_metadata == 5
    events = list(store.actions())
    assert len(events) == 15
    assert all(not p.startswith("/") for e in events for k, p in e.items() if k.endswith(("_path", "_file")) and isinstance(p, str))
    assert events[0]["directory_path"] == "."
    assert events[1]["file_path"] == "inputs/analyst_wang.md"
    s = store.sessions()[0]
    assert (s["label"], s["profile_id"], s["task_id"], s["closed"]) == ("p1_T-01", "p1", "T-01", True)
    # profile_id stays on the events as metadata
    assert {e["profile_id"] for e in events} == {"p1"}


def test_reimport_changes_nothing(tmp_path, fixtures_dir):
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [fixtures_dir])
    before = _snapshot(store)
    again = import_paths(store, [fixtures_dir])
    assert sum(r.actions_added for r in again) == 0
    assert _snapshot(store) == before


def test_import_export_import_is_lossless(tmp_path, fixtures_dir):
    a = Store(tmp_path / "a.sqlite")
    import_paths(a, [fixtures_dir])
    out = tmp_path / "out"
    written = export_sessions(a, out)
    assert {p.name for p in written} == {"p1_T-01", "p3_T-12", "recorded"}
    assert (out / "p3_T-12" / "perturbation.json").is_file()
    manifest = json.loads((out / "p1_T-01" / "media" / "manifest.json").read_text())
    original = json.loads((fixtures_dir / "p1_T-01" / "media" / "manifest.json").read_text())
    assert set(manifest) == set(original)
    assert all(manifest[h]["size_bytes"] == original[h]["size_bytes"] for h in manifest)
    b = Store(tmp_path / "b.sqlite")
    import_paths(b, [out])
    assert _snapshot(b) == _snapshot(a)
    out2 = tmp_path / "out2"
    export_sessions(b, out2)
    for name in ("p1_T-01", "p3_T-12", "recorded"):
        assert json.loads((out / name / "events.json").read_text()) == json.loads((out2 / name / "events.json").read_text())
        assert json.loads((out / name / "summary.json").read_text()) == json.loads((out2 / name / "summary.json").read_text())


def _broken_copy(tmp_path: Path, fixtures_dir: Path, mutate) -> Path:
    dest = tmp_path / "p1_T-01"
    shutil.copytree(fixtures_dir / "p1_T-01", dest)
    mutate(dest)
    return dest


def _edit_events(fn):
    def mutate(d: Path) -> None:
        events = json.loads((d / "events.json").read_text())
        fn(events)
        (d / "events.json").write_text(json.dumps(events))

    return mutate


@pytest.mark.parametrize(
    ("mutate", "expect"),
    [
        (lambda d: (d / "events.json").write_text((d / "events.json").read_text()[:500]), r"events.json: not valid JSON at line"),
        (_edit_events(lambda evs: evs[3].update(view_count="many")), r"events.json: event 3: file_read: field 'view_count' must be an integer"),
        (_edit_events(lambda evs: evs[5].update(event_type="file_teleport")), r"events.json: event 5: unknown event_type"),
        (lambda d: (d / "events.json").write_bytes((d / "events.json").read_bytes().replace("覆盖".encode(), b"\xff\xfe") + b""), r"events.json: not UTF-8 text"),
        (_edit_events(lambda evs: evs.__setitem__(4, {**evs[2], "files_listed": 99})),
         r"event_id .* appears twice with different content"),
        (lambda d: (d / "events.json").write_text("{\"not\": \"a list\"}"), r"must hold a JSON array"),
        (lambda d: next((d / "media" / "blobs").iterdir()).write_bytes(b"swapped"), r"media/blobs/\w+\.blob does not hold what its name says"),
        (_edit_events(lambda evs: evs[6].update(timestamp=evs[6]["timestamp"] / 1000)),
         r"event \d+: timestamp [\d.]+ is not in epoch milliseconds like the first event's"),
    ],
    ids=["truncated", "wrong-type", "unknown-type", "non-utf8", "duplicate-id", "not-array", "tampered-media", "mixed-units"],
)
def test_malformed_trajectory_stores_nothing(tmp_path, fixtures_dir, mutate, expect):
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [fixtures_dir / "p3_T-12"])
    before = _snapshot(store)
    bad = _broken_copy(tmp_path, fixtures_dir, mutate)
    with pytest.raises(TraceError, match=expect) as info:
        import_paths(store, [bad])
    assert "\n" not in str(info.value)
    assert str(bad) in str(info.value)
    assert _snapshot(store) == before


def test_missing_media_file_keeps_the_events_without_that_content(tmp_path, fixtures_dir):
    """An export that left a diff out loses that diff, not the trajectory: every event is
    stored, the dangling reference is null, and the other media arrive."""
    whole = Store(tmp_path / "whole.sqlite")
    import_paths(whole, [fixtures_dir / "p1_T-01"])
    gone = next((fixtures_dir / "p1_T-01" / "media" / "diffs").iterdir()).stem
    bad = _broken_copy(tmp_path, fixtures_dir, lambda d: (d / "media" / "diffs" / f"{gone}.diff").unlink())
    store = Store(tmp_path / "db.sqlite")
    [result] = import_paths(store, [bad])
    assert result.media_missing >= 1
    assert store.action_count() == whole.action_count()
    refs = [a.get("media_ref_diff") for a in store.actions(types=["file_edit"])]
    assert None in refs
    assert all(r is None or r["hash"] != gone for r in refs)
    assert store.get_blob(gone) is None
    kept = {a[k]["hash"] for a in store.actions() for k in ("media_ref", "media_ref_old", "media_ref_new")
            if isinstance(a.get(k), dict)}
    assert kept and all(store.get_blob(h) is not None for h in kept)


def test_media_path_traversal_is_never_followed(tmp_path, fixtures_dir):
    def mutate(d: Path) -> None:
        events = json.loads((d / "events.json").read_text())
        events[13]["media_ref"]["hash"] = "../../../etc/passwd"
        (d / "events.json").write_text(json.dumps(events))

    bad = _broken_copy(tmp_path, fixtures_dir, mutate)
    store = Store(tmp_path / "db.sqlite")
    with pytest.raises(TraceError, match="hexadecimal"):
        import_paths(store, [bad])
    assert store.action_count() == 0


def test_denied_paths_are_dropped_on_import(tmp_path, fixtures_dir):
    store = Store(tmp_path / "db.sqlite")
    filt = PathFilter(deny=["scratch_notes.txt"])
    (result,) = import_paths(store, [fixtures_dir / "p1_T-01"], path_filter=filt)
    assert result.denied == 2
    dump = "\n".join(json.dumps(e) for e in store.actions())
    assert "scratch_notes" not in dump
    assert all("scratch_notes" not in (r[0] or "") for r in store.conn.execute("SELECT original_path FROM blobs"))


def _accented_copy(tmp_path: Path, fixtures_dir: Path) -> tuple[Path, str, str]:
    """p3_T-12 with its memo renamed `Übersicht.txt`, spelt decomposed (NFD, as macOS and
    Google Drive write it) in some events and composed (NFC) in others."""
    import unicodedata

    nfc = "Übersicht.txt"
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    folder = tmp_path / "p3_T-12"
    shutil.copytree(fixtures_dir / "p3_T-12", folder)
    events = json.loads((folder / "events.json").read_text())
    for i, ev in enumerate(events):
        for k in ("file_path", "old_path", "new_path"):
            if isinstance(ev.get(k), str) and ev[k].endswith("/memo.txt"):
                ev[k] = ev[k][: -len("memo.txt")] + (nfd if i % 2 else nfc)
    (folder / "events.json").write_text(json.dumps(events, ensure_ascii=False))
    return folder, nfc, nfd


def test_a_path_spelt_in_two_unicode_forms_is_one_path(tmp_path, fixtures_dir):
    folder, nfc, nfd = _accented_copy(tmp_path, fixtures_dir)
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [folder])
    paths = [a.get("file_path") or a.get("old_path") for a in store.actions()]
    assert "docs/" + nfc in paths
    assert not any(nfd in (p or "") for p in paths)


def test_a_denied_name_typed_composed_denies_it_spelt_decomposed(tmp_path, fixtures_dir):
    folder, nfc, nfd = _accented_copy(tmp_path, fixtures_dir)
    store = Store(tmp_path / "db.sqlite")
    (result,) = import_paths(store, [folder], path_filter=PathFilter(deny=["Übersicht*"]))
    assert result.denied >= 2
    dump = "\n".join(json.dumps(e, ensure_ascii=False) for e in store.actions())
    assert nfc not in dump and nfd not in dump and "bersicht" not in dump


def test_jsonl_events_import(tmp_path, fixtures_dir):
    store = Store(tmp_path / "db.sqlite")
    (r,) = import_paths(store, [fixtures_dir / "recorded.jsonl"])
    assert r.actions_added == 4
    bad = tmp_path / "bad.jsonl"
    lines = (fixtures_dir / "recorded.jsonl").read_text().splitlines()
    lines[2] = lines[2][:40]
    bad.write_text("\n".join(lines))
    with pytest.raises(TraceError, match=r"bad.jsonl: event 2: line 3 is not valid JSON"):
        import_paths(store, [bad])


def test_a_reference_from_a_search_may_have_no_source_file(tmp_path, fixtures_dir):
    """Another producer's search_then_read names no source file (the search led there, not a
    file): it is imported, shown and exported as it came, not refused with the whole file."""
    def from_search(evs: list) -> None:
        ref = next(e for e in evs if e["event_type"] == "cross_file_reference")
        ref.update(source_file=None, reference_type="search_then_read")

    src = _broken_copy(tmp_path, fixtures_dir, _edit_events(from_search))
    store = Store(tmp_path / "db.sqlite")
    (result,) = import_paths(store, [src])
    assert result.actions_added > 0
    (ref,) = [e for e in store.actions() if e["event_type"] == "cross_file_reference"]
    assert ref["source_file"] is None and ref["reference_type"] == "search_then_read"
    assert store.conn.execute("SELECT path FROM actions WHERE event_type = 'cross_file_reference'").fetchone()[0] \
        == ref["target_file"]  # indexed under the file it led to
    from filegram.vocab import action_subject, describe_action

    assert describe_action(ref).startswith("used a search for ")
    assert action_subject(ref).startswith("- -> ")
    out = tmp_path / "out"
    export_sessions(store, out)
    exported = json.loads((out / "p1_T-01" / "events.json").read_text())
    assert [e["source_file"] for e in exported if e["event_type"] == "cross_file_reference"] == [None]


def test_a_switch_to_a_window_that_shows_no_file(tmp_path, fixtures_dir):
    """A screen recorder sees focus go to a browser or a chat: a context_switch with no
    to_file. It is imported and indexed under the file the person left, and forgetting that
    file forgets the switch."""
    def to_browser(evs: list) -> None:
        sw = next(e for e in evs if e["event_type"] == "context_switch")
        sw["to_file"] = None

    src = _broken_copy(tmp_path, fixtures_dir, _edit_events(to_browser))
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [src])
    (sw,) = [e for e in store.actions() if e["event_type"] == "context_switch"]
    assert sw["to_file"] is None
    left = sw["from_file"]
    assert store.conn.execute("SELECT COUNT(*) FROM actions WHERE event_type = 'context_switch' AND path = ?",
                              (left,)).fetchone()[0] == 1
    from filegram.forget import forget

    forget(store, path_glob=left)
    assert not [e for e in store.actions() if e["event_type"] == "context_switch"]


def test_windows_recordings_keep_their_folders(tmp_path):
    # A Windows recorder's absolute paths (C:\..., \\server\share\...) are relative to the
    # workspace like POSIX ones: before, each became external/<name>, and a move into a
    # subfolder read as a move from a file to itself.
    def ev(i: int, etype: str, **fields) -> dict:
        return {"event_id": f"00000000-0000-0000-0000-{i:012d}", "event_type": etype, "timestamp": 1.7e12 + i,
                "session_id": "w1", "profile_id": None, **fields}

    root = "C:\\Users\\ana\\Finance"
    folder = tmp_path / "w1"
    folder.mkdir()
    events = [
        ev(1, "file_read", file_path=root + "\\Inbox\\INV-1.pdf", file_type="pdf", directory_depth=1, view_count=1,
           view_range=None, content_length=10, revisit_interval_ms=None),
        ev(2, "dir_create", dir_path=root + "\\Close\\2024\\AP", depth=3, sibling_count=0),
        ev(3, "file_move", old_path=root + "\\Inbox\\INV-1.pdf", new_path=root + "\\Close\\2024\\AP\\INV-1.pdf",
           destination_directory_depth=3),
        ev(4, "file_browse", directory_path="\\\\fileserver\\shared\\Finance", files_listed=3, depth=0),
    ]
    (folder / "events.json").write_text(json.dumps(events))
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [folder])
    got = {e["event_type"]: e for e in store.actions()}
    assert got["dir_create"]["dir_path"] == "Close/2024/AP"
    assert (got["file_move"]["old_path"], got["file_move"]["new_path"]) == ("Inbox/INV-1.pdf", "Close/2024/AP/INV-1.pdf")
    assert got["file_browse"]["directory_path"] == "external/Finance"  # another machine's share: outside


def test_a_windows_path_reported_in_another_case_is_the_same_folder(tmp_path):
    """Found on a held-out model's ReadDirectoryChangesW logger: some events named the root
    `c:\\users\\yuki\\...`, the rest `C:\\Users\\Yuki\\...`. Windows folders do not differ by
    case, but the workspace root came out as no folder at all and every path of the session
    was stored as external/<name>: folders, depths and moves were gone. POSIX paths stay
    case-sensitive."""
    paths = ["C:\\Users\\Yuki\\comic\\ch01\\script.md", "c:\\users\\yuki\\comic\\ch02\\notes.md",
             "C:\\Users\\Yuki\\comic\\refs\\board.md"]
    assert _stored_paths(tmp_path, paths) == ["ch01/script.md", "ch02/notes.md", "refs/board.md"]
    from filegram.trajectory import anonymise_path

    assert anonymise_path("/Home/u/x.md", "/home/u") == "external/x.md"


def test_a_programs_file_in_the_system_temp_folder_leaves_the_workspace_root_alone(tmp_path):
    """Found on a held-out model of Blender users: the autosave in `/tmp` made the common root
    `/`, and every folder of the person's came out three levels deeper (`home/ana/Projects/...`)."""
    paths = ["/home/ana/Projects/northwind/spin/spin.blend", "/tmp/42782_autosave.blend",
             "/home/ana/Projects/northwind/notes/brief.blend"]
    assert _stored_paths(tmp_path, paths) == ["external/Temp/42782_autosave.blend", "notes/brief.blend", "spin/spin.blend"]


def test_windows_temporary_folders_are_the_systems_in_any_case(tmp_path):
    """Found on a held-out model of SAS programmers: SAS's work library in the user's %TEMP%,
    outside the workspace on S:, kept only its file names (`external/tmp.sas7bdat0`), and its
    removal on every run read as a person deleting dozens of temporary files. The recorder
    logged some of its paths lower-cased."""
    paths = ["S:\\Studies\\NRV-118\\dbl\\adsl.sas", "S:\\Studies\\NRV-118\\specs\\shells.md",
             "C:\\Users\\lrossi\\AppData\\Local\\Temp\\SAS Temporary Files\\_TD2858\\tmp.sas7bdat0",
             "c:\\users\\lrossi\\appdata\\local\\temp\\sas temporary files\\_td2858\\stat.sas7bdat1",
             "C:\\Windows\\Temp\\setup.log", "C:\\Users\\lrossi\\Documents\\todo.md"]
    assert _stored_paths(tmp_path, paths) == ["dbl/adsl.sas", "external/Temp/setup.log", "external/Temp/stat.sas7bdat1",
                                              "external/Temp/tmp.sas7bdat0", "external/todo.md", "specs/shells.md"]


def test_the_profile_every_account_shares_leaves_the_workspace_root_alone(tmp_path):
    """Found on a held-out model of accountants: QuickBooks keeps its company file and backups
    in `C:\\Users\\Public\\Documents\\Intuit\\`. Beside the person's own profile it made the
    root `C:\\Users`: every path began with the account's name, and a flat accountant's notes in
    `Documents\\Clients\\` read as filed two levels down. The programs' shared data folders
    (`C:\\ProgramData`, macOS's `/Users/Shared`) likewise."""
    paths = ["C:\\Users\\mhale\\Documents\\Clients\\Acme memo.md", "C:\\Users\\mhale\\Downloads\\statement.pdf",
             "C:\\Users\\Public\\Documents\\Intuit\\QuickBooks\\Company Files\\Acme.qbw.tlg",
             "C:\\ProgramData\\Intuit\\Entitlement Client\\v8\\EntitlementDataStore.ecml"]
    assert _stored_paths(tmp_path, paths) == ["Documents/Clients/Acme memo.md", "Downloads/statement.pdf",
                                              "external/Acme.qbw.tlg", "external/EntitlementDataStore.ecml"]
    paths = ["/Users/ana/Documents/notes.md", "/Users/Shared/Adobe/Installers/log.txt", "/Users/ana/Desktop/a.md"]
    (tmp_path / "mac").mkdir()
    assert _stored_paths(tmp_path / "mac", paths) == ["Desktop/a.md", "Documents/notes.md", "external/log.txt"]


def _stored_paths(tmp_path: Path, paths: list[str]) -> list[str]:
    """Import one session writing a file at each path; the paths as stored, sorted."""
    events = [{"event_id": f"00000000-0000-0000-0000-{i:012d}", "event_type": "file_write", "timestamp": 1.7e12 + i,
               "session_id": "p1", "profile_id": None, "file_path": path, "file_type": "md", "directory_depth": 1,
               "operation": "create", "content_length": 3} for i, path in enumerate(paths, 1)]
    folder = tmp_path / "p1"
    folder.mkdir()
    (folder / "events.json").write_text(json.dumps(events))
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [folder])
    return sorted(e["file_path"] for e in store.actions())


def test_a_recording_in_epoch_seconds_is_read_as_the_same_times(tmp_path, fixtures_dir):
    """The format's timestamps are epoch milliseconds, but a recorder that writes Python's
    time.time() gives seconds. Read as milliseconds, every session would last a couple of
    seconds in January 1970 and every gap, rate and duration would be a thousandth of what
    happened (a held-out model's 14 users: 75% of their tiers "unknown")."""
    def in_seconds(evs: list) -> None:
        for e in evs:
            e["timestamp"] = e["timestamp"] / 1000
    ms = Store(tmp_path / "ms.sqlite")
    import_paths(ms, [fixtures_dir / "p1_T-01"])
    s = Store(tmp_path / "s.sqlite")
    import_paths(s, [_broken_copy(tmp_path, fixtures_dir, _edit_events(in_seconds))])
    assert [round(e["timestamp"], 3) for e in s.actions()] == [round(e["timestamp"], 3) for e in ms.actions()]
    (a,), (b,) = ms.sessions(), s.sessions()
    assert (round(b["started_ms"], 3), round(b["ended_ms"], 3)) == (round(a["started_ms"], 3), round(a["ended_ms"], 3))


def _sessions_writing(tmp_path: Path, sessions: dict[str, list[str]]) -> Path:
    """A users folder: one trajectory per session, each writing a file at each of its paths."""
    user = tmp_path / "user"
    for n, (sid, paths) in enumerate(sessions.items()):
        events = [{"event_id": f"00000000-0000-0000-{n:04d}-{i:012d}", "event_type": "file_write",
                   "timestamp": 1.7e12 + n * 1e7 + i, "session_id": sid, "profile_id": None, "file_path": path,
                   "file_type": "md", "directory_depth": None, "operation": "create", "content_length": 3}
                  for i, path in enumerate(paths, 1)]
        (user / sid).mkdir(parents=True)
        (user / sid / "events.json").write_text(json.dumps(events))
    return user


def test_a_listing_of_the_workspace_folder_keeps_it_the_root(tmp_path):
    """Found on a held-out model of students on OneDrive: a session that listed its
    `OneDrive - University/` folder had the home above it as its root (the listed folder read
    as a file's path), and so, through the sessions imported together, had every session of
    the person: a flat person's files all lay one folder deep."""
    od = "C:\\Users\\ana\\OneDrive - Uni"
    user = _sessions_writing(tmp_path, {"s1": [f"{od}\\notes.md"], "s2": [f"{od}\\Thesis\\ch1.md"]})
    events = json.loads((user / "s1" / "events.json").read_text())
    events.insert(0, {**events[0], "event_id": "00000000-0000-0000-0000-00000000000a", "event_type": "file_browse",
                      "timestamp": events[0]["timestamp"] - 1, "directory_path": od, "files_listed": 3})
    for k in ("file_path", "file_type", "directory_depth", "operation", "content_length"):
        events[0].pop(k)
    (user / "s1" / "events.json").write_text(json.dumps(events))
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [user])
    written = sorted(e["file_path"] for e in store.actions() if e["event_type"] == "file_write")
    assert written == ["Thesis/ch1.md", "notes.md"]


def test_sessions_imported_together_share_the_workspace_they_show(tmp_path):
    """Found on a held-out model of researchers whose recorder's root is the home folder: a
    session that touched only `Work/UXR` had that folder as its root, so the folder a flat
    person keeps everything in was the root in some sessions and a folder two levels down in
    others, and their sessions could not be told to be about one folder."""
    user = _sessions_writing(tmp_path, {
        "s1": ["/home/ana/Downloads/call.vtt", "/home/ana/Work/UXR/p1_notes.md"],
        "s2": ["/home/ana/Work/UXR/p2_notes.md", "/home/ana/Work/UXR/p2_quotes.md"],
        # a workspace of its own beside the others' (a task's folder) keeps its own root
        "s3": ["/srv/tasks/t3/brief.md", "/srv/tasks/t3/out/report.md"],
    })
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [user])
    by_session = {}
    for e in store.actions():
        by_session.setdefault(store.session(e["session_id"])["label"], []).append(e["file_path"])
    assert sorted(by_session["s2"]) == ["Work/UXR/p2_notes.md", "Work/UXR/p2_quotes.md"]
    assert sorted(by_session["s1"]) == ["Downloads/call.vtt", "Work/UXR/p1_notes.md"]
    assert sorted(by_session["s3"]) == ["brief.md", "out/report.md"]
    # imported one at a time, a session knows only its own paths
    alone = Store(tmp_path / "alone.sqlite")
    import_paths(alone, [user / "s2"])
    assert sorted(e["file_path"] for e in alone.actions()) == ["p2_notes.md", "p2_quotes.md"]


def _windows_session(folder: Path, sid: str, n: int, reads: list[str], writes: list[str],
                     gap_ms: list[float] | None = None) -> None:
    """A trajectory reading at `reads`, then writing a file at each of `writes` (`gap_ms`
    after the action before it; a minute where not given)."""
    events = []
    gaps = [60_000.0] * len(reads) + (gap_ms or [60_000.0] * len(writes))
    t = 1.7e12 + n * 1e9
    for i, (etype, path) in enumerate([*(("file_read", p) for p in reads), *(("file_write", p) for p in writes)], 1):
        t += gaps[i - 1]
        ev = {"event_id": f"00000000-0000-0000-{n:04d}-{i:012d}", "event_type": etype, "timestamp": t,
              "session_id": sid, "profile_id": None, "file_path": path, "file_type": path.rsplit(".", 1)[-1],
              "directory_depth": None}
        ev.update({"operation": "create", "content_length": 3} if etype == "file_write" else
                  {"view_count": 1, "view_range": None, "content_length": 3})
        events.append(ev)
    (folder / sid).mkdir(parents=True)
    (folder / sid / "events.json").write_text(json.dumps(events))


def test_a_windows_session_is_rooted_on_the_drive_where_the_person_works(tmp_path):
    """Found on a held-out model of property assessors: each session began by reading the
    night's exports on the `S:` share and then wrote every document under
    `C:\\Users\\<u>\\Documents\\`. The first path's drive was the root, so every document kept
    only its name (`external/<name>`) and its folders were lost: flat assessors read as filing
    one level down. The root is the drive or share where the session changed most, a
    program's burst counting once (alt604: a Perforce sync of hundreds of files on `D:`)."""
    user = tmp_path / "user"
    _windows_session(user, "s1", 1, ["S:\\Assessor\\Exports\\20260122\\sales.csv", "S:\\Assessor\\Statutes\\ch35.txt"],
                     ["C:\\Users\\rd\\Documents\\appeal_4411.txt", "C:\\Users\\rd\\Documents\\memo.txt"])
    # a program's burst counts once: a sync writing files on the share within seconds is one
    # change against two of the person's at home, minutes apart
    _windows_session(user, "s2", 2, [], ["S:\\Assessor\\Sync\\a.txt", "S:\\Assessor\\Sync\\b.txt",
                                         "S:\\Assessor\\Sync\\c.txt", "C:\\Users\\rd\\Documents\\notes.txt",
                                         "C:\\Users\\rd\\Documents\\plan.txt"], gap_ms=[1, 1, 1, 300_000, 300_000])
    # and a session that only read on the share, or changed as much on each, keeps the first
    # path's drive as its root
    _windows_session(user, "s3", 3, ["S:\\Assessor\\Sales\\2026\\q1.csv", "S:\\Assessor\\Sales\\2026\\q2.csv"], [])
    _windows_session(user, "s4", 4, [], ["S:\\Assessor\\Appeals\\reply.txt", "C:\\Users\\rd\\Documents\\x.txt"],
                     gap_ms=[1, 300_000])
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [user])
    by_session: dict[str, list[str]] = {}
    for e in store.actions():
        by_session.setdefault(store.session(e["session_id"])["label"], []).append(e["file_path"])
    assert sorted(by_session["s1"]) == ["appeal_4411.txt", "external/ch35.txt", "external/sales.csv", "memo.txt"]
    assert sorted(by_session["s2"]) == ["external/a.txt", "external/b.txt", "external/c.txt", "notes.txt", "plan.txt"]
    assert sorted(by_session["s3"]) == ["q1.csv", "q2.csv"]
    assert sorted(by_session["s4"]) == ["external/x.txt", "reply.txt"]


def test_an_import_keeps_a_digest_of_the_login_its_home_paths_name_and_not_the_login(tmp_path):
    """Found on a held-out model of game designers: each files every document into
    `D:\\Perforce\\<game>\\Design\\<login>_WIP\\`, a folder named after them, and memory could
    not know it. The import keeps a digest of the login the sessions' home folders name
    (`C:\\Users\\<login>\\`), never the name; a session of the same person's batch that named no
    home (spent on the depot alone) takes the batch's."""
    from filegram.naming import owner_key

    user = tmp_path / "user"
    _windows_session(user, "s1", 1, ["D:\\Perforce\\Ember\\Design\\Shared\\spec.md"],
                     ["D:\\Perforce\\Ember\\Design\\mkowalski_WIP\\notes.md",
                      "C:\\Users\\mkowalski\\Pictures\\Screenshots\\shot.png"])
    _windows_session(user, "s2", 2, ["D:\\Perforce\\Ember\\Design\\Shared\\spec.md"],
                     ["D:\\Perforce\\Ember\\Design\\mkowalski_WIP\\brief.md"])
    store = Store(tmp_path / "db.sqlite")
    import_paths(store, [user])
    sessions = store.sessions()
    assert [s["metadata"].get("owner_key") for s in sessions] == [owner_key("mkowalski")] * 2
    assert all("mkowalski" not in json.dumps(s["metadata"]) for s in sessions)
    # a login that names a role, not a person (`/home/user/`), is no one's folder name
    other = tmp_path / "other"
    _windows_session(other, "s3", 3, [], ["/home/user/work/user-guides/notes.md"])
    store2 = Store(tmp_path / "db2.sqlite")
    import_paths(store2, [other])
    assert "owner_key" not in store2.sessions()[0]["metadata"]
