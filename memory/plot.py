"""The profile as a picture: each dimension's tier and confidence, drawn with matplotlib
(Agg, imported only when a plot is asked for, so the CLI and the daemon stay light)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError
from filegram.vocab import DIM_IDS, DIMENSION_NAMES, TIER_POSITION, TIERS, UNKNOWN

PLOT_SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg")


def plot_profile(profile_dict: Mapping[str, Any], path: str | Path) -> Path:
    """Draw the six dimensions (tier and confidence) of a `Memory.profile()` to an image; the
    format follows the extension (png, svg, pdf, jpg)."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise FileGramError(f"--plot needs a .png, .svg, .pdf or .jpg file name, not {path.name}")
    try:
        import matplotlib
    except ImportError:  # matplotlib is the `plot` extra, not in the base install
        raise FileGramError("--plot needs matplotlib, which is not installed: pip install 'filegram[plot]'") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dims = profile_dict.get("dimensions") or {}
    labels, pos, confs, tiers = [], [], [], []
    for d in DIM_IDS:
        info = dims.get(d) or {}
        tier = info.get("tier") if info.get("tier") in TIERS else UNKNOWN
        labels.append(f"{d} {info.get('name') or DIMENSION_NAMES[d]}")
        tiers.append(tier)
        confs.append(float(info.get("confidence") or 0.0) if tier != UNKNOWN else 0.0)
        mp = info.get("mean_position")
        pos.append(TIER_POSITION.get(tier, float("nan")) if mp is None or tier == UNKNOWN else float(mp))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6), gridspec_kw={"width_ratios": [3, 2]})
    ys = list(range(len(labels)))[::-1]
    for y, p, t, c in zip(ys, pos, tiers, confs, strict=True):
        if t == UNKNOWN:
            ax1.text(1.0, y, "unknown", ha="center", va="center", color="#888")
            continue
        ax1.scatter([p], [y], s=80 + 320 * c, color="#2b6cb0", alpha=0.35 + 0.65 * c, zorder=3)
        ax1.text(p, y + 0.32, t, ha="center", va="bottom", fontsize=9)
    ax1.set_xlim(-0.4, 2.4)
    ax1.set_xticks([0, 1, 2], list(TIERS))
    ax1.set_yticks(ys, labels)
    ax1.set_ylim(-0.7, len(labels) - 0.2)
    ax1.grid(axis="x", alpha=0.3)
    ax1.set_title("tier (mean session position)")
    ax2.barh(ys, confs, color=["#2b6cb0" if t != UNKNOWN else "#ccc" for t in tiers])
    ax2.set_xlim(0, 1)
    ax2.set_yticks(ys, [""] * len(ys))
    ax2.set_title("confidence")
    n = profile_dict.get("sessions")
    fig.suptitle(f"FileGram working profile ({n} sessions)" if n is not None else "FileGram working profile")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
