"""Suggestions and the style card follow the profile: two simulated users with opposite
organisation tiers (p11 nests deeply, C = L; p3 keeps files flat, C = R) and different
naming habits (kebab-case vs snake_case) get different names and folders, through the CLI,
and the card states each known tier and leaves unknown ones out."""

from __future__ import annotations

import json
from pathlib import Path

from assist_users import FLAT_USER, NESTED_USER, fg
from filegram.daemon.assist import Habits, style_card, suggest_name
from filegram.memory.plot import plot_profile

from filegram.naming import stem_style


def _suggest(home: Path, text: str, kind: str | None = None) -> dict:
    args = ["suggest", "--name-for", text, "--json"] + (["--kind", kind] if kind else [])
    return json.loads(fg(*args, home=home).stdout)


def test_suggestions_follow_organisation_and_naming(users: dict[str, Path]) -> None:
    nested = _suggest(users[NESTED_USER], "patent email from May", "report")
    flat = _suggest(users[FLAT_USER], "patent email from May", "report")
    # naming: each user's own convention
    assert nested["name"] == "patent-email-may.md", nested
    assert flat["name"] == "patent_email_may.md", flat
    assert nested["conventions"]["style"] == "kebab" and flat["conventions"]["style"] == "snake"
    # folders: the nested user files it into a subfolder of their own where similar files
    # went, the flat user keeps it at the root
    assert nested["conventions"]["organization_tier"] == "L"
    assert flat["conventions"]["organization_tier"] == "R"
    assert flat["folder"] == "." and flat["path"] == "patent_email_may.md"
    assert nested["path"].count("/") >= 2, nested
    from filegram.config import Home

    store = Home.resolve(users[NESTED_USER]).open_store(readonly=True)
    try:
        assert any(p.startswith(nested["folder"] + "/") for p in store.paths()), nested
    finally:
        store.close()
    assert any("similar files went to" in r for r in nested["reasons"])
    # the same holds for another kind of file
    n2 = _suggest(users[NESTED_USER], "trip photos from Kyoto", "image")
    f2 = _suggest(users[FLAT_USER], "trip photos from Kyoto", "image")
    assert n2["name"].endswith(".png") and "/" in n2["path"] and "photos" in n2["path"]
    assert "/" not in f2["path"]


def test_suggest_text_output_and_bad_input(users: dict[str, Path]) -> None:
    out = fg("suggest", "--name-for", "quarterly budget summary", home=users[FLAT_USER]).stdout
    assert out.splitlines()[0] == "quarterly_budget_summary.md"
    import subprocess
    import sys

    bad = subprocess.run([sys.executable, "-m", "filegram", "--home", str(users[FLAT_USER]), "suggest",
                          "--name-for", "  "], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("filegram: error: --name-for")
    bad = subprocess.run([sys.executable, "-m", "filegram", "--home", str(users[FLAT_USER]), "suggest",
                          "--name-for", "x", "--kind", "no such kind!"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown --kind" in bad.stderr


def test_date_prefix_and_version_habits(tmp_path: Path) -> None:
    """A user whose names start with ISO dates and end with versions gets both."""
    from filegram.schema import Action
    from filegram.store import Store

    store = Store(tmp_path / "db.sqlite")
    sid = store.open_session(source="test", started_ms=1.7e12)
    names = ["2026-03-02 Board Minutes v1.md", "2026-03-09 Budget Review v1.md",
             "2026-04-01 Supplier Contract v2.md", "2026-04-20 Team Offsite v1.md"]
    evs = [Action.make("file_write", sid, 1.7e12 + i, file_path=f"Work/Meetings/{n}", file_type="md",
                       directory_depth=2, operation="create", content_length=10).to_event()
           for i, n in enumerate(names)]
    store.add_actions(evs)
    import datetime as dt

    out = suggest_name(store, None, "patent email from May", "notes", today=dt.date(2026, 11, 30))
    assert out["name"] == "2026-05 Patent Email v1.md", out
    assert out["conventions"]["date_prefix"] == "YYYY-MM-DD"
    assert out["folder"] == "Work/Meetings"  # unknown organisation tier: where their files went
    store.close()


def test_stem_styles() -> None:
    assert stem_style("quarterly-summary") == "kebab"
    assert stem_style("quarterly_summary") == "snake"
    assert stem_style("quarterlySummary") == "camel"
    assert stem_style("Quarterly Summary") == "title"
    assert stem_style("appendix") is None  # one word shows no convention
    assert stem_style("季度总结") is None


def test_card_states_known_tiers_and_omits_unknown(users: dict[str, Path], tmp_path: Path) -> None:
    from filegram.memory import Memory

    from filegram.config import Home

    out = tmp_path / "agents" / "STYLE.md"
    fg("card", "--out", str(out), home=users[NESTED_USER])
    card = out.read_text()
    h = Home.resolve(users[NESTED_USER])
    store = h.open_store()
    prof = Memory(store, h.load_config()).profile()
    store.close()
    for d, info in prof["dimensions"].items():
        if info["tier"] in ("L", "M", "R"):
            assert f"({d} {info['name']}: {info['tier']}, confidence {info['confidence']:.2f})" in card
    assert "**Organises** (C Organization: L" in card  # p11 nests deeply
    assert "kebab" in card  # the file conventions section

    # a profile with unknown dimensions: those are left out entirely, the rest stated
    partial = json.loads(json.dumps(prof))
    for d in ("A", "F"):
        partial["dimensions"][d]["tier"] = "unknown"
    partial["anomalies"] = [{"session": "s1", "label": "s1", "dimension": "C", "from": "L", "to": "M",
                             "verdict": "genuine"},
                            {"session": "s2", "label": "s2", "dimension": "A", "from": "M", "to": "L",
                             "verdict": "genuine"}]
    text = style_card(partial, Habits())
    assert "Reads" not in text and "Consumption" not in text
    assert "Visuals" not in text and "Cross-modal" not in text
    for verb in ("Writes", "Organises", "Edits", "Curates"):
        assert f"**{verb}**" in text
    assert "## Recent drift" in text and "s1: Organises (C) moved L -> M" in text
    assert "s2" not in text  # drift of an unknown dimension is not stated either
    empty = style_card({"dimensions": {d: {"tier": "unknown"} for d in "ABCDEF"}, "sessions": 0})
    assert "No working style is known yet" in empty


def test_plot_profile_writes_an_image(users: dict[str, Path], artifacts_dir: Path) -> None:
    from filegram.memory import Memory

    from filegram.config import Home

    h = Home.resolve(users[NESTED_USER])
    store = h.open_store()
    prof = Memory(store, h.load_config()).profile()
    store.close()
    path = plot_profile(prof, artifacts_dir / "assist-profile-plot.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    svg = plot_profile(prof, artifacts_dir / "assist-profile-plot.svg").read_text()
    assert "<svg" in svg and "Organization" in svg


def test_absolute_path_under_the_recorded_roots(tmp_path: Path) -> None:
    from filegram.daemon.assist import absolute_path

    one = str(tmp_path / "work")
    assert absolute_path("reports/2025/a.md", [one]) == str(tmp_path / "work" / "reports/2025/a.md")
    two = [str(tmp_path / "work"), str(tmp_path / "notes")]
    assert absolute_path("notes/x/a.md", two) == str(tmp_path / "notes" / "x/a.md")
    assert absolute_path("elsewhere/a.md", two) is None
    assert absolute_path("a.md", []) is None
