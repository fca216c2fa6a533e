"""The dashboard's guard rails over plain HTTP: nothing without the key, the key never in
a cookie, no cross-site or token-less form posts, strict headers; exclusions edit the
config file without losing the user's comments; the JSON API routes for suggest and card."""

from __future__ import annotations

import http.cookiejar
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from assist_users import FLAT_USER
from assist_web import DashboardServer
from filegram.daemon.web.auth import SESSION_COOKIE as COOKIE
from filegram.daemon.web.backends import LocalBackend
from filegram.daemon.web.dashboard import Dashboard, add_exclusion
from filegram.daemon.web.rest import assistant_routes as api_routes

from filegram.config import DEFAULT_CONFIG_TEXT, Home
from filegram.errors import FileGramError

TOKEN = "http-test-token-abcdef"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kw: Any) -> None:
        return None


@pytest.fixture(scope="module")
def site(users: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home_dir = tmp_path_factory.mktemp("dash_http") / "home"
    shutil.copytree(users[FLAT_USER], home_dir)
    home = Home.resolve(home_dir)
    store = home.open_store()
    backend = LocalBackend(home, store, home.load_config())
    dash = Dashboard(backend, TOKEN)
    with DashboardServer(dash) as srv:
        yield {"url": srv.url, "dash": dash, "home": home, "backend": backend}
    store.close()


def _req(url: str, data: bytes | None = None, headers: dict[str, str] | None = None,
         opener: Any = None) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with (opener or urllib.request.build_opener(NoRedirect)).open(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def test_nothing_without_the_key(site: dict[str, Any]) -> None:
    for path in ("/ui/", "/ui/timeline", "/ui/activity", "/ui/card.md", "/ui/privacy", "/ui/frame/1"):
        status, _, body = _req(site["url"] + path)
        assert status == 401 and "filegram open" in body, path
        assert "p3_T-" not in body
    status, _, _ = _req(site["url"] + "/?code=wrong")
    assert status == 401
    status, headers, _ = _req(site["url"] + f"/?token={TOKEN}")
    assert status == 401 and "Set-Cookie" not in headers  # the token in a URL signs nobody in
    status, _, _ = _req(site["url"] + "/ui/", headers={"Cookie": f"{COOKIE}={TOKEN}"})
    assert status == 401  # the cookie holds a derived key, not the token
    status, _, body = _req(site["url"] + "/ui/", headers={"Authorization": f"Bearer {TOKEN}"})
    assert status == 200 and "How you work" in body  # scripts may use the bearer token


def test_sign_in_sets_a_strict_cookie_and_headers(site: dict[str, Any]) -> None:
    signin = site["dash"].signin_path()
    status, headers, _ = _req(site["url"] + signin)
    assert status == 303 and headers["Location"] == "/ui/"
    status, again, _ = _req(site["url"] + signin)
    assert status == 401 and "Set-Cookie" not in again  # a code works once
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert TOKEN not in cookie
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    status, headers, body = _req(site["url"] + site["dash"].signin_path(), opener=op)
    assert status == 200 and "How you work" in body
    assert "script-src" not in headers["Content-Security-Policy"]  # default-src 'none': no scripts
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"


def test_sign_in_returns_to_the_page_asked_for(site: dict[str, Any]) -> None:
    """A deep link opened before signing in: the sign-in page remembers it, and the one-time
    link (from `filegram open`) lands there, not on the front page."""
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    status, headers, body = _req(site["url"] + "/ui/activity?limit=5", opener=op)
    assert status == 401 and "filegram open" in body and "back to the page" in body
    status, headers, _ = _req(site["url"] + site["dash"].signin_path(), opener=op)
    assert status == 303 and headers["Location"] == "/ui/activity?limit=5"
    # a code on the deep link itself signs in and stays on that page (its code dropped)
    code = site["dash"].signin_path().split("code=", 1)[1]
    status, headers, _ = _req(site["url"] + f"/ui/timeline?code={code}")
    assert status == 303 and headers["Location"] == "/ui/timeline" and COOKIE in headers["Set-Cookie"]
    # never another site: a remembered target that is not a dashboard page is ignored
    code = site["dash"].signin_path().split("code=", 1)[1]
    status, headers, _ = _req(site["url"] + f"/?code={code}", headers={"Cookie": "filegram_next=//evil.example/ui/"})
    assert status == 303 and headers["Location"] == "/ui/"


@pytest.fixture(scope="module")
def opener(site: dict[str, Any]) -> Any:
    """A client signed in the way a browser is: the one-time URL, then the cookie."""
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    assert _req(site["url"] + site["dash"].signin_path(), opener=op)[0] == 200
    return op


def test_forms_need_csrf_and_same_origin(site: dict[str, Any], opener: Any) -> None:
    op = opener
    backend = site["backend"]
    csrf = site["dash"].csrf
    status, _, body = _req(site["url"] + "/ui/privacy/pause", b"csrf=nope", opener=op)
    assert status == 403 and not backend.paused()
    status, _, _ = _req(site["url"] + "/ui/privacy/pause", f"csrf={csrf}".encode(), opener=op,
                        headers={"Origin": "http://evil.example"})
    assert status == 403 and not backend.paused()
    for origin in ("null", "http://127.0.0.1:1", "https://127.0.0.1"):
        status, _, _ = _req(site["url"] + "/ui/privacy/pause", f"csrf={csrf}".encode(), opener=op,
                            headers={"Origin": origin})
        assert status == 403 and not backend.paused(), origin
    status, _, body = _req(site["url"] + "/ui/privacy/pause", f"csrf={csrf}".encode(), opener=op)
    assert status == 200 and backend.paused() and "id=rec-state>paused" in body
    _req(site["url"] + "/ui/privacy/resume", f"csrf={csrf}".encode(), opener=op)
    assert not backend.paused()
    status, _, body = _req(site["url"] + "/ui/privacy/forget", f"csrf={csrf}".encode(), opener=op)
    assert status == 400 and "say what to forget" in body
    status, _, body = _req(site["url"] + "/ui/privacy/forget", f"csrf={csrf}&since=yesterday-ish".encode(), opener=op)
    assert status == 400 and "cannot read time" in body
    status, _, _ = _req(site["url"] + "/ui/nope", opener=op)
    assert status == 404
    status, _, _ = _req(site["url"] + "/ui/timeline", b"x=1", opener=op)
    assert status == 405


def test_exclusion_keeps_the_config_and_forgets(site: dict[str, Any], opener: Any) -> None:
    op = opener
    home, backend = site["home"], site["backend"]
    cfg_path = home.config_path
    before = cfg_path.read_text()
    store = backend.store
    n_docs = sum(1 for p in store.paths() if p.startswith("documents/"))
    assert n_docs
    status, _, body = _req(site["url"] + "/ui/privacy/exclude",
                           f"csrf={site['dash'].csrf}&pattern=documents/*&forget=1".encode(), opener=op)
    assert status == 200 and "Excluded documents/*" in body and "Forgot" in body
    after = cfg_path.read_text()
    assert home.load_config()["recorder"]["exclude"] == ["documents/*"]
    # every comment and every other line of the user's file is still there
    assert [ln for ln in before.splitlines() if not ln.startswith("exclude")] == \
           [ln for ln in after.splitlines() if not ln.startswith("exclude")]
    assert not [p for p in store.paths() if p.startswith("documents/")]
    assert "<code>documents/*</code>" in _req(site["url"] + "/ui/privacy", opener=op)[2]


def test_add_exclusion_edge_cases(tmp_path: Path) -> None:
    home = Home.resolve(tmp_path / "h")
    cfg = home.load_config()  # writes the commented defaults
    assert add_exclusion(home, cfg, "a b/*.kdbx") == ["a b/*.kdbx"]
    assert add_exclusion(home, cfg, 'we"ird') == ["a b/*.kdbx", 'we"ird']
    assert add_exclusion(home, cfg, 'we"ird') == ["a b/*.kdbx", 'we"ird']  # no duplicates
    assert home.load_config()["recorder"]["exclude"] == ["a b/*.kdbx", 'we"ird']
    assert home.config_path.read_text().count("# Extra glob patterns of which nothing at all is stored") == 1
    with pytest.raises(FileGramError):
        add_exclusion(home, cfg, "")
    with pytest.raises(FileGramError):
        add_exclusion(home, cfg, "x\ny")
    # a config without a [recorder] section gets one
    home2 = Home.resolve(tmp_path / "h2")
    home2.ensure()
    home2.config_path.write_text("[memory]\nllm_judge = false\n")
    cfg2 = home2.load_config()
    add_exclusion(home2, cfg2, "secret/*")
    loaded = home2.load_config()
    assert loaded["recorder"]["exclude"] == ["secret/*"] and loaded["memory"]["llm_judge"] is False
    assert DEFAULT_CONFIG_TEXT  # the defaults text is what a first run writes


def test_api_routes_for_the_daemon(site: dict[str, Any]) -> None:
    from filegram.daemon.web.http import Request

    routes = {(m, p): h for m, p, h in api_routes(site["backend"].assistant)}
    assert set(routes) == {("GET", "/api/suggest"), ("GET", "/api/card")}
    out = routes[("GET", "/api/suggest")](Request("GET", "/api/suggest", {"name_for": ["patent email from May"],
                                                                          "kind": ["report"]}))
    assert out["path"] == "patent_email_may.md"
    with pytest.raises(FileGramError):
        routes[("GET", "/api/suggest")](Request("GET", "/api/suggest", {}))
    card = routes[("GET", "/api/card")](Request("GET", "/api/card", {}))
    assert card["markdown"].startswith("# Working style card")


def test_pages_escape_what_the_user_recorded() -> None:
    """File names and labels come from the disk: they are shown, never run."""
    from filegram.daemon.web import views as v

    evil = '<img src=x onerror=alert(1)>"\''
    acts = [{"time": "t", "type": "file_read", "detail": f"read {evil}", "session": evil}]
    html = v.activity_page(acts, evil, evil)
    sessions = [{"id": evil, "label": evil, "started_ms": 1.7e12, "ended_ms": 1.7e12 + 5, "source": evil,
                 "metadata": {"perturbation": {"shifted_dims": {"C": {"original": evil, "perturbed": "M"}}}}}]
    anomalies = [{"session": evil, "label": evil, "dimension": evil, "from": evil, "to": evil, "verdict": evil,
                  "reason": evil}]
    html += v.timeline_page(sessions, anomalies, evil)
    profile = {"dimensions": {"A": {"tier": evil, "name": evil, "evidence": [evil], "description": evil}},
               "anomalies": anomalies, "sessions": 1}
    html += v.profile_page(profile, {}, 0, evil)
    html += v.ask_page("c", evil, question=evil, answer={"text": evil, "evidence": evil, "warnings": [evil]},
                       suggestion={"path": evil, "reasons": [evil]}, hits={"memory": [{"path": evil, "text": evil}],
                                                                          "paths": [evil]}, query=evil)
    assert "<img" not in html and "onerror=alert(1)>" not in html.replace("&lt;img src=x onerror=alert(1)&gt;", "")


def test_exclude_and_forget_reaches_the_name_at_any_depth(tmp_path: Path, fixtures_dir: Path) -> None:
    """An exclusion without a folder part keeps out that name at any depth (`reports` is
    outputs/reports/... too), so "exclude and forget" must forget all of it, not only a
    top-level reports/ (forget's own --path is relative to the root)."""
    from fg_helpers import run_cli

    home = Home.resolve(tmp_path / "home")
    run_cli("import", str(fixtures_dir), home=home.root, check=True)
    store = home.open_store()
    try:
        assert any(p.startswith("outputs/reports/") for p in store.paths())
        dash = Dashboard(LocalBackend(home, store, home.load_config()), TOKEN)
        with DashboardServer(dash) as srv:
            jar = http.cookiejar.CookieJar()
            op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            assert _req(srv.url + dash.signin_path(), opener=op)[0] == 200
            status, _, body = _req(srv.url + "/ui/privacy/exclude",
                                   f"csrf={dash.csrf}&pattern=reports&forget=1".encode(), opener=op)
        assert status == 200 and "Excluded reports" in body, body
        assert not [p for p in store.paths() if "reports" in p.split("/")]
        assert "notes/todo.md" in store.paths()
    finally:
        store.close()
    raw = b"".join(p.read_bytes() for p in home.root.glob("filegram.db*"))
    assert b"overview.md" not in raw and b"outputs/reports" not in raw
