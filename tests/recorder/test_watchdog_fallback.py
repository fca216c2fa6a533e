"""When the installed watchdog's internals are not the ones the recorder extends, the
recorder falls back to watchdog's public observer, says so once, and still records."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from rec_helpers import kinds, make_config, sh

from filegram.store import Store


def fallback_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING and "public observer" in r.getMessage()]


def test_missing_internal_falls_back_to_the_public_observer(
    root: Path, store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from watchdog.observers import inotify_move_event_grouper

    # as if a new watchdog had moved it: the public observer keeps its own reference
    monkeypatch.delattr(inotify_move_event_grouper, "PathedInotifyEvent")
    caplog.set_level(logging.WARNING, logger="filegram.recorder")
    with Recorder(store, [root], make_config()) as rec:
        sh("printf 'one\\n' > note.md", root)
        rec.flush(FLUSH_S)
        sh("cat note.md", root)
        rec.flush(FLUSH_S)
        st = rec.stats()
    assert ("file_write", "note.md", "create") in kinds(store)
    assert ("file_read", "note.md") in kinds(store)  # file opens still come through
    (warning,) = fallback_warnings(caplog)
    assert "PathedInotifyEvent" in warning
    assert st["messages"] == [warning]
    assert st["unavailable_types"] == ["file_browse"]


def test_extension_failing_when_its_first_watch_is_built_falls_back(
    root: Path, store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from filegram.recorder import watch
    from filegram.recorder.inotify import public_observer_class

    def changed_extension(on_unwatchable: object) -> type:
        class Observer(public_observer_class()):
            def schedule(self, *args: object, **kwargs: object) -> None:
                # what a renamed field does in the extended watch group's _add_callback
                raise AttributeError("'WatchGroup' object has no attribute '_active_callbacks_by_path'")

        return Observer

    monkeypatch.setattr(watch, "extended_observer_class", changed_extension)
    caplog.set_level(logging.WARNING, logger="filegram.recorder")
    with Recorder(store, [root], make_config()) as rec:
        sh("mkdir drafts && printf 'x\\n' > drafts/a.txt", root)
        rec.flush(FLUSH_S)
    assert ("dir_create", "drafts") in kinds(store)
    assert ("file_write", "drafts/a.txt", "create") in kinds(store)
    (warning,) = fallback_warnings(caplog)
    assert "_active_callbacks_by_path" in warning


def test_the_tested_watchdog_needs_no_fallback(root: Path, store: Store, caplog: pytest.LogCaptureFixture) -> None:
    from filegram.recorder.inotify import check_internals

    check_internals()  # raises InternalsChanged when a new watchdog moved things
    caplog.set_level(logging.WARNING, logger="filegram.recorder")
    with Recorder(store, [root], make_config()) as rec:
        sh("ls", root)
        rec.flush(FLUSH_S)
        st = rec.stats()
    assert fallback_warnings(caplog) == [] and st["unavailable_types"] == []
    assert ("file_browse", ".") in kinds(store)
