"""A corpus of defects that DP libraries have shipped or nearly shipped, each an exact count-query mechanism.

Every :class:`Defect` names its source of inspiration (a library issue, a paper), builds the exact matrix
of the defective mechanism, and states, as data, the diagnosis the public API must make of it
(:class:`Diagnosis`): private at the claimed alpha or not, the tightest alpha at which it is private,
universally optimal or not, and the exact utility gap for a stated user.  :func:`diagnose` derives the
same diagnosis with :func:`udpm.auditing.report.audit` and :mod:`udpm.auditing.questions`; tests/test_defect_corpus.py
checks that the two agree for every fixture.  :func:`render_page` writes docs/defect_corpus.md from the data.

One fixture is a sampler rather than a formula: a textbook floating-point geometric sampler that draws a
fixed number of random bits from a source passed in (:func:`udpm.auditing.defect_mechanisms.textbook_geometric_sample`).
Its exact output distribution is computed by running it on every value of that source
(:func:`udpm.auditing.defect_mechanisms.enumerated_matrix`).

>>> d = CORPUS_BY_KEY["eps-doubled"]
>>> d.claimed_alpha, d.expected.private, d.expected.tightest_alpha
(Fraction(1, 2), False, Fraction(1, 4))
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from udpm.auditing.defect_mechanisms import (
    ALPHA_LN3_FLOAT,
    ALPHA_LN5_FLOAT,
    ALPHA_TWO_THIRDS_NEAREST,
    MIRONOV_BITS,
    censored_noise_unclamped_input,
    clamp_noise,
    enumerated_matrix,
    folded_geometric,
    geometric_noise,
    k_ary_randomized_response,
    rounded_laplace_quarter,
    rounded_laplace_quarter_tail,
    textbook_geometric_sample,
)
from udpm.core.mechanisms import truncated_geometric
from udpm.core.validate import Matrix

# ---------------------------------------------------------------- fixtures


@dataclass(frozen=True)
class Diagnosis:
    """What the public API says of a mechanism at its claimed alpha, for its stated user.

    ``tightest_alpha`` is the largest alpha at which it is alpha-DP (the smallest epsilon), None when no alpha
    works (an output possible from one count and impossible from the adjacent one).  ``optimal_at_tightest`` is
    grs2011 Theorem 3.2 decided at that alpha.  ``loss_gap`` is the user's loss with M (under its best remap)
    minus the certified optimum among claimed-alpha-DP mechanisms: > 0 is utility lost, < 0 is possible only
    for a mechanism that is not private at the claimed alpha.
    """

    private: bool
    tightest_alpha: Fraction | None
    universally_optimal: bool
    optimal_at_tightest: bool | None
    loss_gap: Fraction


@dataclass(frozen=True)
class Defect:
    """One fixture: the defect, its source of inspiration, its construction and its expected diagnosis."""

    key: str
    title: str
    inspiration: str
    construction: str
    n: int
    claimed_alpha: Fraction
    claimed: str
    user: str
    build: Callable[[], Matrix]
    expected: Diagnosis

    def matrix(self) -> Matrix:
        return self.build()


def _half(n: int) -> Matrix:
    return truncated_geometric(n, Fraction(1, 2))


CORPUS: tuple[Defect, ...] = (
    Defect(
        "rounded-laplace",
        "rounded Laplace posing as a geometric mechanism",
        "grs2011 Appendix A (Theorem A.2: the rounded Laplace mechanism is not universally optimal); "
        "world-federation-of-advertisers/cardinality_estimation_evaluation_framework PR 97 "
        "(a 'geometric noiser' implemented by rounding Laplace noise)",
        "clamp(i + round(L), 0, n), L ~ Laplace(1/eps), eps = ln 4",
        3,
        Fraction(1, 4),
        "eps = ln 4 (alpha = 1/4)",
        "uniform prior, loss abs(i - j)",
        lambda: clamp_noise(3, rounded_laplace_quarter, rounded_laplace_quarter_tail, 0, 3),
        Diagnosis(True, Fraction(1, 4), False, False, Fraction(57, 640)),
    ),
    Defect(
        "tail-bin-inside",
        "censored noise whose tail bin falls inside the output range",
        "opendp/smartnoise-core issue 358, item 2: the input must be clamped so that the tail bin of the "
        "censored geometric stays outside the output domain (bounds tighter than the data)",
        "clamp(i + Z, 0, 2), Z geometric(1/2) censored at +-2, counts i = 0..3 not clamped to [0, 2]",
        3,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: censored_noise_unclamped_input(3, Fraction(1, 2), 2),
        Diagnosis(False, None, False, None, Fraction(0)),
    ),
    Defect(
        "clamped-before-noise",
        "noise added after clamping the count to bounds tighter than the data",
        "opendp/smartnoise-core issue 358 and PR 318 (the input clamped to the sampling bounds): private, "
        "but every count above the bound is reported alike",
        "clamp(min(i, 2) + Z, 0, 3), Z geometric(1/2), counts i = 0..3",
        3,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: clamp_noise(3, *geometric_noise(Fraction(1, 2)), 0, 3, inputs=2),
        Diagnosis(True, Fraction(1, 2), False, False, Fraction(1, 12)),
    ),
    Defect(
        "folded",
        "folded instead of truncated geometric",
        "diffprivlib 0.6.6 mechanisms/geometric.py GeometricFolded and mechanisms/base.py "
        "TruncationAndFoldingMixin._fold (values outside the bounds reflected back)",
        "i + Z reflected about -1/2 and n + 1/2, Z geometric(1/2) (GeometricFolded(lower=-0.5, upper=n+0.5))",
        3,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: folded_geometric(3, Fraction(1, 2)),
        Diagnosis(True, Fraction(22, 43), False, False, Fraction(163, 2040)),
    ),
    Defect(
        "alpha-rounded-nearest",
        "alpha rounded to nearest instead of up",
        "opendp/opendp issue 343 (make_base_geometric: the scale transformation can round down; it must "
        "round conservatively); Mironov 2012 on floating-point noise",
        "T(n, fl(2/3)), fl the binary64 round-to-nearest, which is below 2/3",
        3,
        Fraction(2, 3),
        "eps = ln(3/2) (alpha = 2/3)",
        "uniform prior, loss abs(i - j)",
        lambda: truncated_geometric(3, ALPHA_TWO_THIRDS_NEAREST),
        Diagnosis(False, ALPHA_TWO_THIRDS_NEAREST, False, True, Fraction(-1, 54043195528445952)),
    ),
    Defect(
        "eps-doubled",
        "epsilon off by a factor 2: half the noise",
        "sensitivity under-estimated by a factor 2 (e.g. a histogram under change-one neighbours given the "
        "add/remove sensitivity); Casacuberta et al. 2022 survey sensitivity under-estimates in DP libraries",
        "T(n, alpha^2) claimed alpha-DP",
        3,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: truncated_geometric(3, Fraction(1, 4)),
        Diagnosis(False, Fraction(1, 4), False, True, Fraction(-169, 480)),
    ),
    Defect(
        "eps-halved",
        "epsilon off by a factor 2: twice the noise",
        "the same factor 2 in the safe direction (change-one sensitivity 2 used where 1 holds)",
        "T(n, alpha^(1/2)) run for alpha = 1/4",
        3,
        Fraction(1, 4),
        "eps = ln 4 (alpha = 1/4)",
        "uniform prior, loss abs(i - j)",
        lambda: _half(3),
        Diagnosis(True, Fraction(1, 2), False, True, Fraction(169, 480)),
    ),
    Defect(
        "rr-lie-may-be-truth",
        "randomized response with the wrong probability (the lie may be the truth)",
        "opendp/opendp issue 480 (make_randomized_response_bool: Pr[X | X] = p + (1 - p) p, not p)",
        "a bit: keep it with p = 1/(1 + alpha), else report a fresh Bernoulli(p) draw of it",
        1,
        Fraction(1, 2),
        "eps = ln 2 (p = 2/3)",
        "uniform prior, loss abs(i - j)",
        lambda: [[Fraction(8, 9), Fraction(1, 9)], [Fraction(1, 9), Fraction(8, 9)]],
        Diagnosis(False, Fraction(1, 8), False, True, Fraction(-2, 9)),
    ),
    Defect(
        "rr-binary-formula",
        "k-ary randomized response with the binary probability",
        "generalized randomized response keeps the truth with e^eps / (e^eps + k - 1) (Wang et al. 2017, "
        "USENIX Security); the binary e^eps / (e^eps + 1) used for k = n + 1 > 2 values",
        "report i with p = 1/(1 + alpha), each other count with (1 - p)/n",
        3,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: k_ary_randomized_response(3, Fraction(2, 3)),
        Diagnosis(False, Fraction(1, 6), False, False, Fraction(-11, 72)),
    ),
    Defect(
        "float-parameter-ln3",
        "geometric parameter computed in floating point (below the claim)",
        "IBM/differential-privacy-library issue 19 and Mironov 2012 (floating-point noise); alpha computed as "
        "math.exp(-math.log(3)) in binary64",
        "T(n, fl(exp(-fl(ln 3)))), which is below 1/3",
        3,
        Fraction(1, 3),
        "eps = ln 3",
        "uniform prior, loss abs(i - j)",
        lambda: truncated_geometric(3, ALPHA_LN3_FLOAT),
        Diagnosis(
            False,
            ALPHA_LN3_FLOAT,
            False,
            True,
            Fraction("-3623790515852431728368713367988907/140304157183766678200442421990202809188033400668160"),
        ),
    ),
    Defect(
        "float-parameter-ln5",
        "geometric parameter computed in floating point (above the claim)",
        "as above, with math.exp(-math.log(5)): private, and a tiny utility loss that only an exact audit sees",
        "T(n, fl(exp(-fl(ln 5)))), which is above 1/5",
        3,
        Fraction(1, 5),
        "eps = ln 5",
        "uniform prior, loss abs(i - j)",
        lambda: truncated_geometric(3, ALPHA_LN5_FLOAT),
        Diagnosis(
            True,
            ALPHA_LN5_FLOAT,
            False,
            True,
            Fraction("16290831393653021825026740606887527/1052281178878250110842209689308525577646952048230400"),
        ),
    ),
    Defect(
        "textbook-float-sampler",
        "textbook floating-point geometric sampler with few random bits",
        "Mironov 2012, 'On significance of the least significant bits for differential privacy' (CCS): a "
        "floating-point sampler reaches only some outputs; here with 5 random bits, enumerated exactly",
        f"textbook_geometric_sample(i, 6, 0.5, bits, {MIRONOV_BITS}) on every {MIRONOV_BITS}-bit value",
        6,
        Fraction(1, 2),
        "eps = ln 2",
        "uniform prior, loss abs(i - j)",
        lambda: enumerated_matrix(
            lambda i, bits: textbook_geometric_sample(i, 6, 0.5, bits, MIRONOV_BITS), 6, MIRONOV_BITS
        ),
        Diagnosis(False, None, False, None, Fraction(1, 112)),
    ),
)
CORPUS_BY_KEY = {d.key: d for d in CORPUS}


# ---------------------------------------------------------------- diagnosis through the public API


def diagnose(d: Defect) -> Diagnosis:
    """The diagnosis of ``d``'s mechanism by the public API (audit, privacy_level, is_private, optimality)."""
    from udpm.auditing.privacy_level import privacy_level
    from udpm.auditing.questions import is_private, is_universally_optimal
    from udpm.auditing.report import audit

    m = d.matrix()
    report = audit(m, d.claimed_alpha, users="abs")
    level = privacy_level(m).alpha
    assert isinstance(level, Fraction)  # an exact matrix has a rational level
    tight = level or None  # 0: no alpha > 0 works
    at_tight = None
    if tight is not None and tight < 1:
        assert is_private(m, tight)  # the bound is attained: private there, by the public API
        at_tight = bool(is_universally_optimal(m, tight, witness=False))
    return Diagnosis(report.privacy.private, tight, bool(report.universality), at_tight, Fraction(report.users[0].gap))


# ---------------------------------------------------------------- the documentation page


def _alpha_text(a: Fraction | None) -> str:
    if a is None:
        return "none (an output with probability 0 next to > 0)"
    eps = math.log(1 / a)
    exact = str(a) if a.denominator < 10**6 else f"{a.numerator}/2^{a.denominator.bit_length() - 1}"
    return f"{exact} (eps = {eps:.6g})"


def _gap_text(g: Fraction) -> str:
    if g == 0:
        return "0"
    exact = str(g) if len(str(g)) <= 24 else f"{str(g)[:10]}…"
    return f"{float(g):.3g} (exactly {exact})"


def _yes(b: bool | None) -> str:
    return "n/a" if b is None else ("yes" if b else "no")


def render_page() -> str:
    """docs/defect_corpus.md, generated from :data:`CORPUS` (``python -m udpm.auditing.defect_corpus --write``)."""
    lines = [
        "# A corpus of DP defects, audited exactly",
        "",
        "<!-- generated by `python -m udpm.auditing.defect_corpus --write`;"
        " tests/test_defect_corpus.py checks that it is current -->",
        "",
        "Each row is a fixture of `udpm/auditing/defect_corpus.py`: an exact count-query mechanism with a "
        "defect that DP",
        "libraries have shipped or nearly shipped.  The diagnosis is data in the fixture, and",
        "tests/test_defect_corpus.py checks that the public API (`udpm.auditing.report.audit`,",
        "`udpm.auditing.privacy_level.privacy_level`, `udpm.auditing.questions.is_private`, "
        "`is_universally_optimal`) derives",
        "exactly it.  *Private* is at the claimed",
        "alpha; *tightest alpha* is the largest alpha (smallest epsilon) at which the mechanism is alpha-DP;",
        "*optimal* is grs2011 Theorem 3.2 at the claimed alpha and at the tightest one; the *loss gap* is the",
        "stated user's loss with the mechanism (under its best remap) minus the certified optimum among",
        "mechanisms private at the claimed alpha.  A negative gap is possible only for a mechanism that is not",
        "private at the claimed alpha: it beats the optimum by breaking the bound.",
        "",
        "| fixture | defect | n | claimed | private | tightest alpha | optimal (claimed / tightest) "
        "| user | loss gap |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for d in CORPUS:
        e = d.expected
        lines.append(
            f"| `{d.key}` | {d.title} | {d.n} | {d.claimed} | {_yes(e.private)} | {_alpha_text(e.tightest_alpha)} "
            f"| {_yes(e.universally_optimal)} / {_yes(e.optimal_at_tightest)} | {d.user} | {_gap_text(e.loss_gap)} |"
        )
    lines += ["", "## Sources and constructions", ""]
    for d in CORPUS:
        lines.append(f"- `{d.key}`: {d.construction}. Inspired by: {d.inspiration}.")
    lines += [
        "",
        "## Exact output distributions by enumerating the randomness",
        "",
        "Where a sampler draws a bounded number of random bits from a source that Python can replace, its",
        "exact output distribution is the count of source values giving each output, divided by 2^bits: a",
        "conformance check with no false alarm (`udpm.auditing.defect_mechanisms.enumerated_matrix`, used by the",
        "`textbook-float-sampler` fixture).  For the libraries of `udpm/auditing/adapters/`:",
        "",
        "- **diffprivlib** 0.6.6: the randomness source is exposed (`random_state`, a NumPy `RandomState`), but",
        "  each draw of `Geometric`, `GeometricTruncated` and `GeometricFolded` consumes one 53-bit uniform",
        "  (`random()`): 2^53 values per input, too many to enumerate.  Enumeration is possible only for a",
        "  reduced-width source, which is no longer the library's sampler; its samplers are checked",
        "  statistically instead (`udpm.auditing.sampled`, tests/test_adapters.py).",
        "- **OpenDP** 0.16.0: the samplers run in compiled Rust and draw from a cryptographic generator inside",
        "  the library; Python cannot replace the source, and the CKS20 samplers of `make_geometric` without",
        "  bounds use an unbounded number of bits (rejection loops).  Not possible.",
        "- **Tumult** (`tmlt.core` 0.20.0): not installable beside udpm's pins (see "
        "`udpm/auditing/adapters/tumult.py`);",
        "  its `_sample_geometric_exp_slow` and `_sample_dlaplace` are CKS20 rejection samplers with an",
        "  unbounded number of random bits.  Not possible.",
        "",
    ]
    return "\n".join(lines)


PAGE = "docs/defect_corpus.md"


def main(argv: list[str] | None = None) -> int:
    """``python -m udpm.auditing.defect_corpus [--write]``: print the page, or write docs/defect_corpus.md."""
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    text = render_page()
    if args == ["--write"]:
        path = Path(__file__).resolve().parents[2] / PAGE
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_suffix(".md.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)  # atomic: never a half-written page
        return 0
    if args:
        print("usage: python -m udpm.auditing.defect_corpus [--write]", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())


__all__ = [
    "CORPUS",
    "CORPUS_BY_KEY",
    "Defect",
    "Diagnosis",
    "diagnose",
    "render_page",
]
