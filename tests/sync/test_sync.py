"""`filegram sync`: two (or three) homes and one shared folder, real recorders, the real
command, and the shared folder read byte by byte as a sync provider would see it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from fg_helpers import FLUSH_S, leaks, wait_until
from sync_helpers import (
    actions,
    blob_hashes,
    decrypted_records,
    fg,
    open_store,
    recording,
    segments_of,
    sessions,
    set_config,
    share_key,
    shared_bytes,
    sync,
)

from filegram.config import Home
from filegram.scrub import take_backup
from filegram.store.blobs import compress, decompress

LAPTOP = '[sync]\ndevice = "laptop"\n'
DESKTOP = '[sync]\ndevice = "desktop"\n'


def trajs(sim_dir: Path, profile: str) -> list[str]:
    return [str(p) for p in sorted(sim_dir.glob(f"{profile}_*"))]


UUID = re.compile(r"\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def normalised_profile(home: Path, *extra: str) -> dict:
    """The profile without what names a session rather than describes the person: its time of
    computation and labels (an exported recorded session is labelled with its whole id when
    imported, where the recording home shows the id's first 8 digits)."""
    prof = json.loads(fg(home, "profile", "--json", *extra).stdout)
    prof.pop("updated_ms", None)
    for a in prof.get("anomalies", []):
        a.pop("label", None)
    return json.loads(UUID.sub(r"\1", json.dumps(prof)))


def test_two_devices_record_at_once_and_end_with_one_profile(tmp_path: Path, sim_dir: Path) -> None:
    a, b, union, shared = tmp_path / "laptop", tmp_path / "desktop", tmp_path / "union", tmp_path / "shared"
    shared.mkdir()
    set_config(a, LAPTOP)
    set_config(b, DESKTOP)
    fg(a, "import", *trajs(sim_dir, "p1"))
    fg(b, "import", *trajs(sim_dir, "p2"))
    root_a, root_b = tmp_path / "work-a" / "Quarterly Plans", tmp_path / "work-b" / "Desk Notes"
    secret_a, secret_b = "Zanzibar harbour expansion budget", "Okonkwo merger timeline draft"
    with recording(a, root_a) as rec_a, recording(b, root_b) as rec_b:
        for root, secret in ((root_a, secret_a), (root_b, secret_b)):
            (root / "drafts").mkdir()
            (root / "drafts" / "kickoff-notes.md").write_text(f"# Kickoff\n\n{secret}\n- first\n", encoding="utf-8")
        for root in (root_a, root_b):
            (root / "drafts" / "kickoff-notes.md").read_text(encoding="utf-8")
            with open(root / "drafts" / "kickoff-notes.md", "a", encoding="utf-8") as fh:
                fh.write("- second point\n")
            os.rename(root / "drafts" / "kickoff-notes.md", root / "kickoff-final.md")
        rec_a.flush(FLUSH_S)
        rec_b.flush(FLUSH_S)
        # both devices sync while both still record: the open sessions wait until they close
        first = sync(a, shared)
        assert first["sent"]["sessions"] == 6 and first["received"]["sessions"] == 0
        share_key(a, b)
        got = sync(b, shared)
        assert got["received"]["sessions"] == 6 and got["received"]["devices"] == ["laptop"]
        recorded = {rec_a.session_id, rec_b.session_id}
    assert None not in recorded
    # the union of both traces, built without sync: export each device's own sessions, import both
    fg(a, "export", "--format", "filegram", str(tmp_path / "exp-a"))
    fg(b, "export", "--format", "filegram", str(tmp_path / "exp-b"))
    fg(union, "import", str(tmp_path / "exp-a"), str(tmp_path / "exp-b"))
    sync(a, shared)
    sync(b, shared)
    sync(a, shared)

    sa, sb, su = sessions(a), sessions(b), sessions(union)
    assert set(sa) == set(sb) == set(su) and len(sa) == 14 and recorded <= set(sa)
    assert set(actions(a)) == set(actions(b)) == set(actions(union))
    assert blob_hashes(a) == blob_hashes(b) >= blob_hashes(union)
    rec_a_id = next(i for i in recorded if sa[i]["device"] is None)
    assert sb[rec_a_id]["device"] == "laptop" and sa[rec_a_id]["root"] == str(root_a.resolve())
    assert {sb[i]["device"] for i in sb if sb[i]["device"]} == {"laptop"}
    assert {sa[i]["device"] for i in sa if sa[i]["device"]} == {"desktop"}
    assert "laptop" in fg(b, "sessions").stdout

    prof_a, prof_b, prof_u = normalised_profile(a), normalised_profile(b), normalised_profile(union)
    assert prof_a["sessions"] == 14
    assert prof_a == prof_b == prof_u

    # what the sync provider sees: sealed files in per-device folders, nothing readable
    files = list(shared_bytes(shared))
    assert files and all(p.suffix == ".fgs" and p.parent.parent.name == "devices" for p, _ in files)
    needles = [secret_a, secret_b, "kickoff-notes", "kickoff-final", "Quarterly Plans", "Desk Notes",
               str(tmp_path), "laptop", "desktop", "file_write", "events", "session"]
    needles += [e["file_path"] for e in actions(a).values() if e.get("file_path")][:50]
    for path, data in files:
        for needle in needles:
            assert needle.encode() not in data, f"{needle!r} readable in {path}"
            assert needle.encode("utf-16-le") not in data


def test_half_copied_damaged_and_missing_segments_wait_and_nothing_is_applied_twice(
        tmp_path: Path, fixtures_dir: Path, sim_dir: Path) -> None:
    a, b, shared, seen_by_b = tmp_path / "a", tmp_path / "b", tmp_path / "shared", tmp_path / "b-view"
    shared.mkdir()
    seen_by_b.mkdir()
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    sync(a, shared)
    fg(a, "import", str(fixtures_dir / "p3_T-12"))
    sync(a, shared)
    fg(a, "import", *trajs(sim_dir, "p1")[:2])
    sync(a, shared)
    segs = segments_of(shared)
    assert [s.name for s in segs] == ["0000000001.fgs", "0000000002.fgs", "0000000003.fgs"]
    share_key(a, b)
    dev = seen_by_b / "filegram-sync" / "devices" / segs[0].parent.name
    dev.mkdir(parents=True)

    # a sync client mid-copy: segment 1 whole, segment 2 half written, segment 3 not there yet
    shutil.copy(segs[0], dev / segs[0].name)
    data2 = segs[1].read_bytes()
    (dev / segs[1].name).write_bytes(data2[: len(data2) // 2])
    out = fg(b, "sync", "--dir", str(seen_by_b))
    assert "0000000002.fgs: incomplete or damaged" in out.stderr and "trying again" in out.stderr
    assert len(sessions(b)) == 1

    # a flipped byte in the middle is the same to a reader: not applied, retried
    flipped = bytearray(data2)
    flipped[len(flipped) // 2] ^= 0xFF
    (dev / segs[1].name).write_bytes(bytes(flipped))
    assert "incomplete or damaged" in fg(b, "sync", "--dir", str(seen_by_b)).stderr
    assert len(sessions(b)) == 1

    # segment 3 arrives before 2 is complete: it waits for 2
    shutil.copy(segs[2], dev / segs[2].name)
    out = fg(b, "sync", "--dir", str(seen_by_b))
    assert "0000000002.fgs" in out.stderr and len(sessions(b)) == 1

    # the copy completes: both are picked up, in order
    shutil.copy(segs[1], dev / segs[1].name)
    got = sync(b, seen_by_b)
    assert got["received"]["segments"] == 2 and not got["warnings"]
    assert set(sessions(b)) == set(sessions(a)) and set(actions(b)) == set(actions(a))
    before = (len(actions(b)), len(blob_hashes(b)), {k: v["action_count"] for k, v in sessions(b).items()})

    # a replayed log (the reader's progress lost, the same files read again) changes nothing
    with open_store(b) as st:
        st.conn.execute("DELETE FROM state WHERE key LIKE 'sync:applied:%'")
    again = sync(b, seen_by_b)
    assert again["received"]["segments"] == 3 and again["received"]["actions"] == 0 and again["received"]["sessions"] == 0
    assert (len(actions(b)), len(blob_hashes(b)), {k: v["action_count"] for k, v in sessions(b).items()}) == before
    assert sync(b, seen_by_b)["received"]["segments"] == 0


def test_forget_propagates_purges_every_log_and_a_late_device_catches_up(
        tmp_path: Path, fixtures_dir: Path, sim_dir: Path) -> None:
    a, b, c, shared = tmp_path / "a", tmp_path / "b", tmp_path / "c", tmp_path / "shared"
    shared.mkdir()
    set_config(a, LAPTOP)
    set_config(b, DESKTOP)
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    fg(b, "import", str(fixtures_dir / "p3_T-12"), *trajs(sim_dir, "p2")[:2])
    sync(a, shared)
    share_key(a, b, c)
    sync(b, shared)
    sync(a, shared)
    assert set(actions(a)) == set(actions(b))
    fg(b, "export", "--all", str(tmp_path / "b-export"))  # B's own copies outside its database
    with open_store(b) as st:
        take_backup(st, Home(b).backup_dir, 3)

    # forget on A a file that came from B, and one of A's own
    from_b = next(e["file_path"] for e in actions(b).values()
                  if e.get("file_path") and e["session_id"] in {s for s in sessions(b) if sessions(b)[s]["device"] is None}
                  and e["event_type"] == "file_read")
    own = next(e["file_path"] for e in actions(a).values() if e.get("file_path") and e["event_type"] == "file_read"
               and sessions(a)[e["session_id"]]["device"] is None)
    name_b = Path(from_b).name
    for p in (from_b, own):
        fg(a, "forget", "--path", p)
    # what forgot is not readable in A's database either: the tombstone's scope is sealed
    assert name_b.encode() not in (a / "filegram.db").read_bytes()
    out = sync(a, shared)
    assert out["sent"]["forgets"] == 2

    def paths_in_log(home: Path) -> set[str]:
        found = set()
        for seg in segments_of(shared):
            for r in decrypted_records(home, seg):
                for ev in r.get("events", []):
                    found.update(v for k, v in ev.items() if k.endswith(("path", "_file")) and isinstance(v, str))
                if r["type"] == "blob" and r.get("original_path"):
                    found.add(r["original_path"])
        return found

    assert own not in paths_in_log(a) and from_b in paths_in_log(a)  # A purged its own log; B has not synced yet
    got = sync(b, shared)
    assert got["received"]["forgets"] == 2 and got["forgets_applied"] == 2
    for home in (a, b):
        left = [e for e in actions(home).values() if from_b in (e.get("file_path"), e.get("old_path"), e.get("new_path"))
                or own == e.get("file_path")]
        assert left == [], home
    assert set(actions(a)) == set(actions(b))
    logged = paths_in_log(a)
    assert from_b not in logged and own not in logged  # B purged its own segments too
    # byte scan, as after a forget made on B itself: its database (and WAL), its backups, logs
    # and the `export --all` it wrote, the sync state, and the shared folder (also inside any
    # zlib stream); the forgotten file's path and name are nowhere
    needles = [from_b, own]
    needles += [n for n in (name_b, Path(own).name) if sum(n in p for p in paths_in_log(a)) == 0]
    assert leaks([a, b, shared, tmp_path / "b-export"], needles) == {}

    # nothing comes back on the next rounds, and a device that joins weeks later gets the rest
    sync(a, shared)
    sync(b, shared)
    late = sync(c, shared)
    assert late["received"]["segments"] >= 3 and late["received"]["devices"] == ["desktop", "laptop"]
    assert set(actions(c)) == set(actions(a)) == set(actions(b))
    assert from_b not in {e.get("file_path") for e in actions(c).values()}


def test_a_wrong_or_missing_key_is_one_clear_line_and_stores_nothing(tmp_path: Path, fixtures_dir: Path) -> None:
    a, b, other, shared = tmp_path / "a", tmp_path / "b", tmp_path / "other", tmp_path / "shared"
    shared.mkdir()
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    sync(a, shared)

    no_key = fg(b, "sync", "--dir", str(shared), check=False)
    assert no_key.returncode == 2 and no_key.stderr.count("\n") == 1
    assert no_key.stderr.startswith("filegram: error: ") and "sync key import" in no_key.stderr
    assert not (b / "sync.key").exists()

    share_key(other, b)  # a key, but not the one A's log is sealed with
    wrong = fg(b, "sync", "--dir", str(shared), check=False)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert "sealed with another sync key" in wrong.stderr and wrong.stderr.startswith("filegram: error: ")
    assert sessions(b) == {}

    bad = fg(b, "sync", "key", "import", "fgsync1-tooshort", check=False)
    assert bad.returncode == 2 and "damaged" in bad.stderr and bad.stderr.count("\n") == 1
    garbage = fg(b, "sync", "key", "import", "hello", check=False)
    assert garbage.returncode == 2 and "not a FileGram sync key" in garbage.stderr

    share_key(a, b)  # the right key: everything arrives
    assert sync(b, shared)["received"]["sessions"] == 1
    shown = fg(a, "sync", "key", "show").stdout.splitlines()
    assert shown[-1].startswith("fgsync1-") and shown[-1] == (b / "sync.key").read_text().strip()
    assert oct((a / "sync.key").stat().st_mode & 0o777) == "0o600"


def test_a_key_change_rewrites_the_devices_own_log(tmp_path: Path, fixtures_dir: Path) -> None:
    a, b, shared = tmp_path / "a", tmp_path / "b", tmp_path / "shared"
    shared.mkdir()
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    fg(b, "import", str(fixtures_dir / "p3_T-12"))
    sync(a, shared)
    b_only = tmp_path / "b-alone"
    b_only.mkdir()
    sync(b, b_only)  # B started on its own, with its own key
    share_key(a, b)
    out = sync(b, shared)
    assert out["received"]["sessions"] == 1 and out["sent"]["sessions"] == 1  # B's log written again
    assert sync(a, shared)["received"]["sessions"] == 1
    assert set(sessions(a)) == set(sessions(b))


def test_excluded_paths_and_the_config_never_leave_the_device(tmp_path: Path, fixtures_dir: Path) -> None:
    a, b, shared = tmp_path / "a", tmp_path / "b", tmp_path / "shared"
    shared.mkdir()
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    paths = sorted({e["file_path"] for e in actions(a).values() if e.get("file_path")})
    hidden = paths[0]
    set_config(a, f'[recorder]\nexclude = ["{Path(hidden).name}"]\nroots = ["/home/someone/Private Roots"]\n\n'
                  '[llm]\nmodel = ""\napi_key_env = "MY_VERY_OWN_KEY_VAR"\n\n[sync]\ndevice = "laptop"\n')
    out = sync(a, shared)
    assert out["sent"]["withheld"] >= 1
    share_key(a, b)
    sync(b, shared)
    assert hidden not in {e.get("file_path") for e in actions(b).values()}
    assert any(e.get("file_path") == hidden for e in actions(a).values())  # still here, never sent
    for seg in segments_of(shared):
        text = json.dumps(decrypted_records(a, seg))
        assert hidden not in text and "Private Roots" not in text and "MY_VERY_OWN_KEY_VAR" not in text
    for _p, data in shared_bytes(shared):
        assert b"Private Roots" not in data and b"MY_VERY_OWN_KEY_VAR" not in data


def test_without_cryptography_sync_names_the_extra(tmp_path: Path, fixtures_dir: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'cryptography' or name.startswith('cryptography.'):\n"
            "            raise ImportError('blocked: ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from filegram.cli import main\n"
            f"sys.exit(main(['--home', {str(tmp_path / 'h')!r}, 'sync', '--dir', {str(shared)!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "filegram: error: sync needs the 'cryptography' package: pip install 'filegram[sync]'"
    assert list(shared.iterdir()) == [shared / "filegram-sync"] or not list(shared.iterdir())


def test_help_does_not_import_cryptography() -> None:
    code = ("import sys; from filegram.cli import build_parser; build_parser().format_help(); "
            "print([m for m in sys.modules if m.split('.')[0] in ('cryptography', 'ray')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_profile_per_device_shows_where_devices_differ(tmp_path: Path, sim_dir: Path) -> None:
    a, b, b_alone, shared = tmp_path / "laptop", tmp_path / "work", tmp_path / "work-alone", tmp_path / "shared"
    shared.mkdir()
    set_config(a, LAPTOP)
    set_config(b, '[sync]\ndevice = "work"\n')
    fg(a, "import", *trajs(sim_dir, "p1"))
    fg(b, "import", *trajs(sim_dir, "p2"))
    fg(b_alone, "import", *trajs(sim_dir, "p2"))
    sync(a, shared)
    share_key(a, b)
    sync(b, shared)
    sync(a, shared)
    overall = normalised_profile(a)
    work = normalised_profile(a, "--device", "work")
    alone = normalised_profile(b_alone)
    assert work.pop("device") == "work"
    differences = work.pop("differences")
    assert work == alone  # the device's profile is the profile of its sessions alone
    expected = {d: {"device": alone["dimensions"][d]["tier"], "all_devices": overall["dimensions"][d]["tier"]}
                for d in alone["dimensions"] if alone["dimensions"][d]["tier"] != overall["dimensions"][d]["tier"]}
    assert differences == expected
    text = fg(a, "profile", "--device", "laptop").stdout
    assert "device 'laptop'" in text
    # what the judge would be asked is about that device's sessions too
    asked = fg(a, "profile", "--device", "work", "--show-prompt").stdout
    assert asked == fg(b_alone, "profile", "--show-prompt").stdout
    assert asked != fg(a, "profile", "--show-prompt").stdout
    missing = fg(a, "profile", "--device", "nowhere", check=False)
    assert missing.returncode == 2 and "devices: laptop, work" in missing.stderr


def test_the_daemon_syncs_on_its_schedule(tmp_path: Path, fixtures_dir: Path) -> None:
    home, root, shared, other = tmp_path / "home", tmp_path / "root", tmp_path / "shared", tmp_path / "other"
    root.mkdir()
    shared.mkdir()
    set_config(home, f'[daemon]\ntray = false\n\n[sync]\ndir = "{shared}"\ninterval_minutes = 0.01\n')
    fg(home, "import", str(fixtures_dir / "p1_T-01"))
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    env.pop("DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-m", "filegram", "start", "--foreground", "--no-tray", "--root", str(root)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: segments_of(shared), timeout=120, what="the daemon's first sync")
        fg(home, "import", str(fixtures_dir / "p3_T-12"))
        wait_until(lambda: len(segments_of(shared)) >= 2, timeout=120, what="the daemon's next sync")
        # another device forgets a file of the daemon's: the daemon replays it (recorder paused,
        # memory held), and nothing of it is left in its home afterwards
        share_key(home, other)
        sync(other, shared)
        gone = next(e["file_path"] for e in actions(other).values()
                    if e.get("file_path") and e["event_type"] == "file_read")
        fg(other, "forget", "--path", gone)
        assert sync(other, shared)["sent"]["forgets"] == 1
        wait_until(lambda: not any(gone in (e.get("file_path"), e.get("old_path"), e.get("new_path"))
                                   for e in actions(home).values()),
                   timeout=120, what="the daemon to replay the other device's forget")
        # `filegram sync` in a terminal goes through the daemon, which replays forgets safely
        assert sync(home, shared)["through_daemon"] is True
        # and it records again after the replay
        (root / "after-the-forget.md").write_text("# still recording\n", encoding="utf-8")
        wait_until(lambda: any(str(e.get("file_path") or "").endswith("after-the-forget.md")
                               for e in actions(home).values()),
                   timeout=120, what="the daemon's recorder after the replayed forget")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
    status = json.loads(fg(home, "status", "--json").stdout)
    assert status["sync_last_run_ms"] <= time.time() * 1000 and status["sync_dir"] == str(shared)
    assert leaks([home], [gone]) == {}
    assert proc.returncode == 0


def test_what_arrives_passes_through_the_receivers_redaction(tmp_path: Path, fixtures_dir: Path) -> None:
    """A sender whose store holds a secret (an older FileGram's rules missed it) does not hand
    it to a device whose rules catch it: the receiver redacts like an import, and a blob whose
    content changed is stored under its new address with the references following it."""
    a, b, shared = tmp_path / "a", tmp_path / "b", tmp_path / "shared"
    shared.mkdir()
    fg(a, "import", str(fixtures_dir / "p1_T-01"))
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with open_store(a) as st:
        write = next(e for e in st.actions() if e["event_type"] == "file_write" and isinstance(e.get("media_ref"), dict))
        old_hash = write["media_ref"]["hash"]
        stored = st.conn.execute("SELECT content FROM blobs WHERE hash = ?", (old_hash,)).fetchone()[0]
        planted = compress(decompress(stored) + f"\ntoken {token}\n".encode())
        st.conn.execute("UPDATE blobs SET content = ? WHERE hash = ?", (planted, old_hash))
        st.conn.execute("UPDATE sessions SET label = label || ? WHERE id = ?", (f" {token}", write["session_id"]))
        st.conn.commit()
    sync(a, shared)
    share_key(a, b)
    assert sync(b, shared)["received"]["sessions"] == 1
    assert leaks([b], [token]) == {}
    got = actions(b)[write["event_id"]]
    new_hash = got["media_ref"]["hash"]
    assert new_hash != old_hash and old_hash not in blob_hashes(b) and new_hash in blob_hashes(b)
    with open_store(b) as st:
        content = decompress(st.conn.execute("SELECT content FROM blobs WHERE hash = ?", (new_hash,)).fetchone()[0])
    assert b"[REDACTED:GITHUB_TOKEN]" in content
    assert "[REDACTED:GITHUB_TOKEN]" in sessions(b)[write["session_id"]]["label"]
