"""The dashboard in headless Chromium (Debian's chromium over the DevTools protocol),
against a simulated user's data: the profile page shows memory's tiers, the timeline marks
the perturbed sessions and the drift memory found in them, the ask box answers, pause
works, forget removes what it says. Screenshots go to test-artifacts/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from assist_cdp import Browser, find_chromium
from assist_users import NESTED_USER
from assist_web import DashboardServer
from filegram.daemon.web.backends import LocalBackend
from filegram.daemon.web.dashboard import Dashboard
from filegram.memory import Memory

from filegram.config import Home
from filegram.forget import path_matches

TOKEN = "test-token-0123456789"


@pytest.fixture(scope="module")
def site(users: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home_dir = tmp_path_factory.mktemp("dash") / "home"
    shutil.copytree(users[NESTED_USER], home_dir)  # this module forgets things: its own copy
    home = Home.resolve(home_dir)
    store = home.open_store()
    # one session unlike p11 (who searches first, A = M): listing folders and skimming heads,
    # so the timeline has a drift flag to mark whatever memory makes of the simulated sessions
    from filegram.memory import Memory
    from filegram.memory.synth import store_session

    last = max(s["started_ms"] for s in store.sessions())
    store_session(store, {"A": "R", "B": "L", "C": "L", "D": "L", "E": "L", "F": "R"}, "T-17", seed=7,
                  start_ms=last + 3.6e6, label="p11_browsing")
    Memory(store, home.load_config()).consolidate()
    dash = Dashboard(LocalBackend(home, store, home.load_config()), TOKEN)
    with DashboardServer(dash) as srv:
        yield {"url": srv.url, "store": store, "home": home, "dash": dash}
    store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    exe = find_chromium()
    if exe is None:
        pytest.skip("no chromium here (Debian: apt-get install chromium; or set FILEGRAM_CHROMIUM)")
    b = Browser(exe)
    yield b
    b.close()


def _shot(b: Browser, artifacts: Path, name: str) -> None:
    b.screenshot(artifacts / f"dashboard-{name}.png")


def test_sign_in_then_profile_shows_memorys_tiers(site: dict[str, Any], browser: Browser, artifacts_dir: Path) -> None:
    b = browser
    b.goto(site["url"] + "/ui/")
    assert "filegram open" in b.text("main")  # no key, no data
    assert b.js("document.querySelectorAll('.card[data-dim]').length") == 0
    b.goto(site["url"] + site["dash"].signin_path())
    assert b.url() == site["url"] + "/ui/"  # the one-time code is gone from the address bar
    assert b.js("document.cookie") == ""  # HttpOnly: page scripts cannot read the key
    shown = b.js("Object.fromEntries([...document.querySelectorAll('.card[data-dim]')].map(e => [e.dataset.dim, e.dataset.tier]))")
    prof = Memory(site["store"], site["home"].load_config()).profile()
    assert shown == {d: info["tier"] for d, info in prof["dimensions"].items()}
    assert shown["C"] == "L" and shown["B"] == "L" and shown["D"] == "L"  # p11's ground truth
    # the chart draws one dot per known dimension, at its tier
    dots = b.js("Object.fromEntries([...document.querySelectorAll('#profile-chart circle')].map(e => [e.dataset.dim, e.dataset.tier]))")
    assert dots == {d: t for d, t in shown.items() if t != "unknown"}
    # each tier badge sits in its tier's column (the L/M/R tick); the mean is a separate mark
    ticks = b.js("Object.fromEntries([...document.querySelectorAll('#profile-chart line')].slice(0, 3).map((e, i) => ['LMR'[i], e.getAttribute('x1')]))")
    placed = b.js("Object.fromEntries([...document.querySelectorAll('#profile-chart circle')].map(e => [e.dataset.dim, e.getAttribute('cx')]))")
    assert placed == {d: ticks[t] for d, t in dots.items()}
    means = b.js("[...document.querySelectorAll('#profile-chart .mean-mark')].map(e => e.dataset.dim)")
    assert sorted(means) == sorted(dots)
    assert b.js("document.querySelectorAll('svg.spark').length") == 6
    assert "confidence" in b.text("#dim-C") and "gave a chance to show organization" in b.text("#dim-C")
    assert b.text("#dim-C .plain").startswith("You made ")  # the plain sentence of `filegram profile`
    _shot(b, artifacts_dir, "profile")


def test_timeline_marks_perturbed_sessions_and_drift(site: dict[str, Any], browser: Browser, artifacts_dir: Path) -> None:
    b = browser
    b.goto(site["url"] + "/ui/timeline")
    rows = b.js("""[...document.querySelectorAll('#sessions tr[data-session]')].map(r => ({
        label: r.querySelector('a').innerText, perturbed: r.dataset.perturbed, anomaly: r.dataset.anomaly,
        dims: [...r.querySelectorAll('.tag[data-dim]')].map(t => t.dataset.dim), text: r.innerText}))""")
    store = site["store"]
    truth = {s["label"]: s["metadata"]["perturbation"]["shifted_dims"] for s in store.sessions()
             if (s.get("metadata") or {}).get("perturbation")}
    assert len(rows) == 33 and len(truth) == 5
    by_label = {r["label"]: r for r in rows}
    for label, shifted in truth.items():
        for dim, ch in shifted.items():
            assert f"{dim} {ch['original']}->{ch['perturbed']}" in by_label[label]["perturbed"]
    assert all(not r["perturbed"] for r in rows if r["label"] not in truth)
    # memory's drift flags are marked with their attribution (dimension and direction)
    prof = Memory(store, site["home"].load_config()).profile()
    flagged = {a["label"]: a for a in prof["anomalies"]}
    assert {r["label"] for r in rows if r["anomaly"] == "1"} == set(flagged)
    for label, a in flagged.items():
        assert a["dimension"] in by_label[label]["dims"]
        assert f"{a['from']} \u2192 {a['to']}" in by_label[label]["text"]
    # (whether memory's flags catch the perturbed sessions is memory's quality, measured by
    # `filegram bench robust`); the browsing session is flagged on A
    assert flagged.get("p11_browsing", {}).get("dimension") == "A"
    assert b.js("!!document.querySelector('#timeline [data-anomaly]')")
    assert b.js("document.querySelectorAll('#timeline [data-perturbed]').length") == 5
    _shot(b, artifacts_dir, "timeline")


def test_ask_box_search_and_suggest(site: dict[str, Any], browser: Browser, artifacts_dir: Path) -> None:
    b = browser
    b.goto(site["url"] + "/ui/ask")
    b.submit("#ask-form", {"question": "How does this user organise their folders?"})
    answer = b.text("#answer")
    assert "Organization" in answer and "L" in answer and "nested" in answer
    _shot(b, artifacts_dir, "ask")
    b.submit("#suggest-form", {"name_for": "patent email from May", "kind": "report"})
    assert b.text("#suggestion").endswith("patent-email-may.md")
    b.submit("#search-form", {"q": "quarterly summary"})
    assert "quarterly" in b.text("#search-paths").lower()
    b.goto(site["url"] + "/ui/activity?limit=10")
    assert b.js("document.querySelectorAll('#actions tr[data-type]').length") == 10
    b.goto(site["url"] + "/ui/card")
    assert b.text("#card").startswith("# Working style card")
    _shot(b, artifacts_dir, "card")


def test_screen_gallery_and_text_search(site: dict[str, Any], browser: Browser, artifacts_dir: Path) -> None:
    screen = pytest.importorskip("filegram.recorder.screen")
    ss = pytest.importorskip("filegram.recorder.screen.store")
    import io

    from PIL import Image

    b = browser
    store = site["store"]
    b.goto(site["url"] + "/ui/screen")
    assert "Screen capture is off" in b.text("main")
    ss.ensure_tables(store)
    screen.set_enabled(store, True)
    for i, (title, text, color) in enumerate([("budget.xlsx - LibreOffice", "Q3 budget forecast 2026", "#3a7"),
                                              ("inbox - Mail", "patent filing deadline in May", "#37a")]):
        buf = io.BytesIO()
        Image.new("RGB", (320, 200), color).save(buf, "JPEG")
        ss.add_frame(store, ts=1.77e12 + i * 1000, session_id=None, monitor=0, window_title=title, app="app",
                     width=320, height=200, image=buf.getvalue(), fmt="jpeg", ocr_text=text)
    b.goto(site["url"] + "/ui/screen")
    assert b.js("document.querySelectorAll('#frames figure').length") == 2
    b.wait("[...document.querySelectorAll('#frames img')].every(i => i.complete && i.naturalWidth === 320)")
    b.goto(site["url"] + "/ui/screen?q=patent")
    assert b.js("document.querySelectorAll('#frames figure').length") == 1
    assert "inbox" in b.text("#frames")
    _shot(b, artifacts_dir, "screen")


def test_pause_and_forget_remove_what_they_say(site: dict[str, Any], browser: Browser, artifacts_dir: Path) -> None:
    b = browser
    store = site["store"]
    b.goto(site["url"] + "/ui/privacy")
    assert b.text("#rec-state") == "recording"
    b.submit("form[action='/ui/privacy/pause']")
    assert b.text("#rec-state") == "paused" and store.get_state("daemon.paused") is True
    b.submit("form[action='/ui/privacy/resume']")
    assert b.text("#rec-state") == "recording"

    glob = "docs/*"  # where the nested user's create tasks put their documents
    doomed = [a for a in store.actions() if any(path_matches(p, glob) for p in _paths(a))]
    assert doomed
    b.submit("#forget-form", {"path": glob})
    msg = b.text("#message")
    assert msg.startswith(f"Forgot {len(doomed)} action(s)"), msg
    assert not [p for p in store.paths() if p.startswith("docs/")]
    assert not [a for a in store.actions() if any(path_matches(p, glob) for p in _paths(a))]
    _shot(b, artifacts_dir, "privacy")
    # memory forgot it too: nothing under docs/ is found any more (the quarterly summary was there)
    b.goto(site["url"] + "/ui/ask?q=quarterly+summary")
    assert "docs/" not in b.text("#search-hits") + b.text("#search-paths")

    # everything: the pages still work on an empty memory
    b.goto(site["url"] + "/ui/privacy")
    b.submit("#forget-form", {"all": True})
    assert "Forgot" in b.text("#message")
    assert store.action_count() == 0 and store.sessions() == []
    b.goto(site["url"] + "/ui/")
    assert set(b.js("[...document.querySelectorAll('.card[data-dim]')].map(e => e.dataset.tier)")) == {"unknown"}
    b.goto(site["url"] + "/ui/timeline")
    assert "No sessions recorded yet" in b.text("main")


def _paths(a: dict[str, Any]) -> list[str]:
    from filegram.schema import event_paths

    return list(event_paths(a))
