"""PNGs of regenerated values where a paper shows a picture of numbers.

- gs2010 Figure 1: the alpha = 1/5 geometric distribution around query result 5;
- grs2011 Figure 3: the certified optimal mechanism as a heatmap, with its signature;
- grs2011 Figure 4: the truncated 1/2-geometric mechanism (n = 5) with its signature.

Every value drawn is an exact rational computed by the experiments (converted to float only
for drawing).  Output bytes are deterministic: Agg backend, fixed size and dpi, no metadata.

    python -m experiments.figures            # writes paper_tables/figures/*.png
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from experiments.grs2011 import FIG3_PRIOR, THREE_HALVES
from experiments.gs2010 import figure_1_values
from udpm.claims.tables import PAPER_TABLES
from udpm.core.mechanisms import truncated_geometric
from udpm.core.signatures import signature
from udpm.core.users import BayesianUser, power_loss
from udpm.lp.certify import solve
from udpm.lp.programs import bayesian_lp

FIGURES = PAPER_TABLES / "figures"
HALF = Fraction(1, 2)
STYLE = {"font.family": "DejaVu Sans", "font.size": 9, "svg.hashsalt": "udpm", "path.simplify": False}


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, format="png", metadata={"Software": None})
    plt.close(fig)
    return path


def gs2010_figure_1(directory: Path) -> Path:
    pmf = figure_1_values()
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        xs = list(pmf)
        ax.bar(xs, [float(p) for p in pmf.values()], color="#4477aa")
        for r, p in pmf.items():
            if p >= Fraction(1, 100):
                ax.annotate(str(p), (r, float(p)), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(xs)
        ax.set_xlabel("output r")
        ax.set_ylabel("Pr[output = r]")
        ax.set_title("gs2010 Figure 1: geometric mechanism, alpha = 1/5, result 5 (exact)")
        ax.set_ylim(0, 0.75)
        fig.tight_layout()
        return _save(fig, directory / "gs2010_fig1.png")


def _heatmap(x: list[list[Fraction]], sig: list[list[str]], title: str, path: Path) -> Path:
    n = len(x) - 1
    with plt.rc_context(STYLE):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.6, 4.2), gridspec_kw={"width_ratios": [1, 1]})
        ax1.imshow([[float(v) for v in row] for row in x], cmap="Blues", vmin=0, vmax=1)
        for i, row in enumerate(x):
            for j, v in enumerate(row):
                ax1.text(j, i, str(v), ha="center", va="center", fontsize=8, color="black" if v < 0.5 else "white")
        ax1.set_title("mechanism x[i][j]")
        colours = {"↓": 0.25, "↑": 0.75, "S": 0.5, "0": 0.0}
        ax2.imshow([[colours[s] for s in row] for row in sig], cmap="coolwarm", vmin=0, vmax=1)
        for i, row in enumerate(sig):
            for j, s in enumerate(row):
                ax2.text(j, i, s, ha="center", va="center", fontsize=12)
        ax2.set_title("signature (rows i, i+1)")
        for ax, rows in ((ax1, n + 1), (ax2, n)):
            ax.set_xticks(range(n + 1))
            ax.set_yticks(range(rows))
            ax.set_xlabel("output j")
            ax.set_ylabel("input i")
        fig.suptitle(title)
        fig.tight_layout()
        return _save(fig, path)


def grs2011_figure_3(directory: Path, timeout_s: float = 60.0) -> Path:
    user = BayesianUser.of(FIG3_PRIOR, power_loss(5, THREE_HALVES))
    x = solve(bayesian_lp(user, HALF), timeout_s=timeout_s).matrix(6, 6)
    title = "grs2011 Figure 3: certified optimum, n = 5, a = 1/2, prior (1/4,0,1/4,0,1/4,1/4), loss |i-j|^1.5"
    return _heatmap(x, signature(x, HALF), title, directory / "grs2011_fig3.png")


def grs2011_figure_4(directory: Path) -> Path:
    t = truncated_geometric(5, HALF)
    return _heatmap(
        t,
        signature(t, HALF),
        "grs2011 Figure 4: truncated 1/2-geometric mechanism, n = 5",
        directory / "grs2011_fig4.png",
    )


def render_all(directory: Path = FIGURES) -> list[Path]:
    """Write every figure PNG into ``directory``; returns the paths written."""
    directory = Path(directory)
    return [gs2010_figure_1(directory), grs2011_figure_3(directory), grs2011_figure_4(directory)]


if __name__ == "__main__":
    for p in render_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FIGURES):
        print(p)
