"""gs2010 Lemma 2: the column-replacement determinants det G'(i, x) of the n x n G' (sizes as in
proofs/derivation/matrices.py: ``m`` is the matrix size).

Evidence, all exact: bounded (every size m up to N, determinants as polynomials in alpha and a symbolic x, by
fraction-free elimination), a certificate per size (G'_m Tri_m = (1 - a^2) I with Cramer's rule), and all-n
(the finitely many index cases of that identity, each a sympy identity in alpha).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import flint
import sympy as sp

from proofs.boundary.derivation import lemma2_at_boundary
from proofs.boundary.geometric import BOUNDARY, GS2010_RANGE
from proofs.derivation.lemma1 import SEARCH_M, M, det_gprime_solved
from proofs.derivation.matrices import (
    KINDS,
    OMA2,
    SYMBOLIC,
    TRI_ROW,
    Row,
    a,
    at,
    bareiss_det,
    functional_row,
    g_prime,
    g_scaled,
    is_identity,
    kms_inverse_cases,
    poly_matmul,
    poly_str,
    prove_cases,
    row_kind,
    size_bound,
    tridiagonal,
)
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks


def lemma2_power(m: int | sp.Expr) -> int | sp.Expr:
    """Lemma 2's proof: det G'(i, x) = (1 - a^2)^(n-2) x (the boundary / three-term functional), n = size."""
    return m - 2


def lemma2_functional(kind: str) -> Row:
    """Lemma 2's functionals as coefficients of (x_(i-1), x_i, x_(i+1)): x1 - a x2 (i=1), x_n - a x_(n-1) (i=n),
    (1+a^2) x_i - a (x_(i-1)+x_(i+1)) (1 < i < n)."""
    return {"first": (0, 1, -a), "interior": (-a, 1 + a**2, -a), "last": (-a, 1, 0)}[kind]


def printed_3x3_identity() -> tuple[bool, str]:
    """The proof's interior case: (1-a^2)^(n-3) |1 x_(i-1) a^2; a x_i a; a^2 x_(i+1) 1| = (1-a^2)^(n-2) (three-term)."""
    x1, x2, x3 = sp.symbols("x_im1 x_i x_ip1")
    d = sp.Matrix([[1, x1, a**2], [a, x2, a], [a**2, x3, 1]]).det()
    three = (1 + a**2) * x2 - a * (x1 + x3)
    ok = sp.expand(d - (1 - a**2) * three) == 0
    return ok, f"3x3 determinant = {sp.factor(d)}"


def _in_mpoly(poly: flint.fmpz_poly, ctx: flint.fmpz_mpoly_ctx, av: flint.fmpz_mpoly) -> flint.fmpz_mpoly:
    """A polynomial in alpha as an element of Z[a, x1..xm] (av is the generator a)."""
    return sum((int(coef) * av**k for k, coef in enumerate(poly.coeffs())), ctx.from_dict({}))


def _mpoly_det_replaced(m: int, i: int, gprime: Callable[[int], list[list[flint.fmpz_poly]]]):
    """det of gprime(m) with column i replaced by (x1..xm), over Z[a, x1..xm]."""
    ctx = flint.fmpz_mpoly_ctx.get(("a", *(f"x{k + 1}" for k in range(m))), "lex")
    gens = ctx.gens()
    av, xs = gens[0], gens[1:]
    mat = [[ctx.from_dict({}) + 0 for _ in range(m)] for _ in range(m)]
    for r, row in enumerate(gprime(m)):
        for c, e in enumerate(row):
            mat[r][c] = _in_mpoly(e, ctx, av)
    for r in range(m):
        mat[r][i] = xs[r]
    return ctx, av, xs, bareiss_det(mat)


def _det_at_half(m: int, i: int, j: int) -> Fraction:
    """det G'_m(i, e_j) at alpha = 1/2, exactly (python-flint over Q)."""
    half = Fraction(1, 2)
    rows = [[half ** abs(r - c) if c != i else Fraction(int(r == j)) for c in range(m)] for r in range(m)]
    mat = flint.fmpq_mat(m, m, [flint.fmpq(x.numerator, x.denominator) for row in rows for x in row])
    det = mat.det()
    return Fraction(int(det.p), int(det.q))


def _lemma2_all_n(power: Callable, functional: Callable[[str], Row]) -> tuple[bool | None, str]:
    """Cramer at symbolic m: det G'(i,x) = det G' (G'^-1 x)_i with det G' solved (Lemma 1's recurrence) and
    G'^-1 = Tri/(1-a^2) (the all-n cases of G' Tri = (1-a^2) I); compared row kind by row kind with the claim."""
    ok, msg = prove_cases(kms_inverse_cases())
    if not ok:
        return None, f"G' Tri = (1-a^2) I not decided: {msg}"
    solved, _ = det_gprime_solved()
    bad = []
    for kind in KINDS:
        for name, tri, got in zip(("x_(i-1)", "x_i", "x_(i+1)"), TRI_ROW[kind], functional(kind)):
            lhs = solved / (1 - a**2) * tri
            try:
                rhs = (1 - a**2) ** power(M) * got
            except TypeError:
                return None, "the claimed power does not take a symbolic size"
            if not (is_identity(lhs - rhs) or (rhs != 0 and sp.simplify(sp.powsimp(lhs / rhs, force=True)) == 1)):
                bad.append(f"{kind} row, coefficient of {name}")
    return (not bad), ("; ".join(bad) if bad else f"{msg}; Cramer with det G'_m = {sp.factor(solved)}")


def _lemma2_counterexample(power: Callable, functional: Callable[[str], Row]) -> str | None:
    """The first size m and column i where the claim differs from Cramer's formula, checked by an exact det."""
    half = Fraction(1, 2)
    for m in range(2, SEARCH_M + 1):
        for i in range(m):
            kind = row_kind(m, i)
            if int(power(m)) == m - 2 and functional(kind) == TRI_ROW[kind]:
                continue
            row = functional_row(m, i, functional)
            for j in range(m):
                got = _det_at_half(m, i, j)
                claimed = (1 - half**2) ** int(power(m)) * at(row[j], half)
                if got != claimed:
                    return (
                        f"size m={m}, column i={i + 1}, x = e_{j + 1}, alpha=1/2: det G'(i, x) = {got}, "
                        f"claimed {claimed}"
                    )
    return None


@checks("gs2010.lemma2")
def column_replacement_determinants(
    ctx: Context,
    power: Callable[[int | sp.Expr], int | sp.Expr] = lemma2_power,
    functional: Callable[[str], Row] = lemma2_functional,
    ends: Sequence[Fraction] = BOUNDARY,
    claim: str = "gs2010.lemma2",
) -> Findings:
    """gs2010 Lemma 2: for the n x n G'_{n,a}, det G'(1,x) = (1-a^2)^(n-2)(x1 - a x2), det G'(n,x) =
    (1-a^2)^(n-2)(x_n - a x_(n-1)) and, for 1 < i < n, det G'(i,x) = (1-a^2)^(n-2)((1+a^2)x_i - a(x_(i-1)+x_(i+1)));
    det G(i,x) differs by the positive factor prod_(j != i) d_j, so the sign conditions hold for G; and at the
    printed ends ``ends`` of alpha in [0, 1]."""
    rec = Findings(claim)
    n_direct = size_bound(ctx, 6, 10)
    n_cert = size_bound(ctx, 12, 32)
    with rec.deciding(
        n=None,
        alpha=SYMBOLIC,
        kind=ALL_N,
        method="Cramer at symbolic m (G'^-1 cases, Lemma 1's recurrence)",
        n_from=2,  # sizes m >= 2: Tri has distinct first and last rows, the recurrence starts at d_2
    ) as dec:
        ok, msg = _lemma2_all_n(power, functional)
        if not ok:
            cex = _lemma2_counterexample(power, functional)
            if cex:
                dec.counterexample(cex)
            else:
                dec.inconclusive(msg)
    # (1) direct: det G'_m(i, x) with symbolic x, by Bareiss over Z[a, x1..xm]
    for m in range(2, n_direct + 1):
        with rec.deciding(
            n=m, alpha=SYMBOLIC, kind=BOUNDED, method="Bareiss over Z[a, x1..xm]", covers="every column i"
        ) as dec:
            bad = _lemma2_direct(m, power, functional)
            if bad:
                dec.counterexample(bad)
    # (2) certificate for every size up to n_cert: G' Tri = (1-a^2) I  =>  G'^-1 = Tri/(1-a^2), then Cramer
    for m in range(2, n_cert + 1):
        with rec.deciding(
            n=m, alpha=SYMBOLIC, kind=BOUNDED, method="certificate G' Tri = (1-a^2) I, then Cramer"
        ) as dec:
            bad = _lemma2_certificate(m, power, functional)
            if bad:
                dec.counterexample(bad)
    ok3, msg3 = printed_3x3_identity()
    rec.value(
        **{
            "det G'(1,x)": "(1-a^2)^(n-2) (x_1 - a x_2)",
            "det G'(n,x)": "(1-a^2)^(n-2) (x_n - a x_(n-1))",
            "det G'(i,x), 1<i<n": "(1-a^2)^(n-2) ((1+a^2) x_i - a (x_(i-1) + x_(i+1)))",
            "det G(i,x)": "det G'(i,x) (1+a)^-1 ((1-a)/(1+a))^(n-2) for i in {1,n}; "
            "det G'(i,x) (1+a)^-2 ((1-a)/(1+a))^(n-3) for 1<i<n",
            "G'^-1": "Tri/(1-a^2), Tri = tridiag(-a; 1, 1+a^2, ..., 1+a^2, 1; -a)",
            "printed 3x3 step": f"{msg3}; so (1-a^2)^(n-3) x 3x3 = (1-a^2)^(n-2) x three-term: "
            f"{'consistent' if ok3 else 'INCONSISTENT'}",
        }
    )
    rec.erratum(
        "Lemma 2 (second statement), case 3",
        "(x_2 - alpha x_1) >= alpha(x_3 - alpha x_1) alpha x_2): For 2 < i < n-1",
        "(x_(i) - a x_(i-1)) >= a (x_(i+1) - a x_i), for 2 <= i <= n-1",
        "extraction damage",
        "the repeated statement is garbled; the first statement reads correctly",
    )
    rec.erratum(
        "Lemma 2, case 3 (both statements)",
        "(x_2 - alpha x_1) >= alpha(x_3 - alpha x_2)",
        "(1+a^2) x_i - a (x_(i-1) + x_(i+1)) >= 0",
        "typo",
        "indices 1,2,3 stand for i-1, i, i+1; the printed form equals the symmetric three-term "
        "condition (and Section 3's (x2 - a x3) >= a (x1 - a x2)), so nothing is asymmetric",
    )
    rec.note(
        f"all-n: the entries of G'_m Tri_m in 7 symbolic index cases give G'^-1 = Tri/(1-a^2); with det G'_m "
        f"solved from Lemma 1's recurrence, Cramer gives det G'(i,x) = (1-a^2)^(m-2) (Tri x)_i at symbolic m, "
        f"compared with the claimed power and functionals.  Bounded: direct Bareiss determinants over "
        f"Z[a, x_1..x_m] for every size 2..{n_direct} and column; certificate G'_m Tri_m = (1-a^2) I for sizes "
        f"2..{n_cert} (n in the grid is the matrix size).  Both printed powers are right: (n-3) multiplies the 3x3 "
        "determinant, which itself contains one factor (1-a^2)."
    )
    lemma2_at_boundary(rec, functional, ends)
    if 1 not in ends:
        return rec
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; at alpha = 0, det G(i, x) = x_i and every sign condition holds; at "
        "alpha = 1 the size-2 case holds (det G(1, x) = (x_1 - x_2)/2) but for size m >= 3 G has a zero column, so "
        "det G(i, x) = 0 for every x while the printed conditions depend on x"
    )
    rec.value(
        corrected_statement="Lemma 2's sign conditions for alpha in [0, 1) instead of the paper's alpha in [0, 1] "
        "(for alpha = 1 only at size 2); its proof's G' (columns scaled by (1+alpha)/(1-alpha)) is undefined at 1",
        corrected_scope="claim gs2010.lemma2.corrected",
    )
    return rec


@checks("gs2010.lemma2.corrected")
def column_replacement_below_one(ctx: Context) -> Findings:
    """gs2010 Lemma 2 as corrected: its sign conditions on det G(i, x) for alpha in [0, 1) (alpha = 1 fails)."""
    rec = column_replacement_determinants(ctx, ends=(Fraction(0),), claim="gs2010.lemma2.corrected")
    rec.errata.clear()  # the printed text's errata belong to gs2010.lemma2, not to the corrected statement
    return rec


def _lemma2_direct(m: int, power: Callable, functional: Callable[[str], Row]) -> str | None:
    for i in range(m):
        mctx, av, xs, d = _mpoly_det_replaced(m, i, g_prime)
        fl = functional_row(m, i, functional)
        lin = sum((xs[k] * _in_mpoly(f, mctx, av) for k, f in enumerate(fl)), mctx.from_dict({}))
        pw = int(power(m))
        want = (1 - av**2) ** max(pw, 0) * lin
        if d * (1 - av**2) ** max(-pw, 0) != want:  # d = (1-a^2)^pw lin, also for a negative claimed power
            x = [Fraction(int(k == i)) for k in range(m)]
            vals = [Fraction(1, 2), *x]
            return (
                f"size m={m}, column i={i + 1}: det G'(i, x) = {_mpoly_str(d)}, claimed (1-a^2)^{pw} x "
                f"{_mpoly_str(lin)}; at alpha=1/2, x = e_{i + 1}: {_eval(d, vals)} vs "
                f"{Fraction(3, 4) ** pw * _eval(lin, vals)}"
            )
        # the same for G itself: det((1+a)G)(i, x) = (1-a)^(#interior j != i) det G'(i, x)
        _, _, _, dg = _mpoly_det_replaced(m, i, g_scaled)
        interior_others = sum(1 for j in range(1, m - 1) if j != i)
        if dg != (1 - av) ** interior_others * d:
            return (
                f"size m={m}, column i={i + 1}: det (1+a)G(i,x) = {_mpoly_str(dg)}, not "
                f"(1-a)^{interior_others} det G'(i,x)"
            )
    return None


def _lemma2_certificate(m: int, power: Callable, functional: Callable[[str], Row]) -> str | None:
    prod = poly_matmul(g_prime(m), tridiagonal(m))
    for r in range(m):
        for c in range(m):
            if prod[r][c] != (OMA2 if r == c else 0):
                return f"size m={m}: (G' Tri)[{r + 1}][{c + 1}] = {poly_str(prod[r][c])}"
    tri = tridiagonal(m)
    for i in range(m):
        fl = functional_row(m, i, functional)
        if fl != tri[i] or int(power(m)) != m - 2:
            return (
                f"size m={m}, column i={i + 1}: Cramer with G'^-1 = Tri/(1-a^2) and det G' = "
                f"(1-a^2)^{m - 1} gives (1-a^2)^{m - 2} x ({_row_str(tri[i])})·x, claimed "
                f"(1-a^2)^{power(m)} x ({_row_str(fl)})·x"
            )
    return None


def _mpoly_str(e: object) -> str:
    return str(sp.factor(sp.sympify(str(e).replace("^", "**"))))


def _eval(e: object, vals: list[Fraction]) -> Fraction:
    """Evaluate an fmpz_mpoly at exact rationals (a, x1, ..., xm)."""
    total = Fraction(0)
    for exps, coef in e.to_dict().items():
        term = Fraction(int(coef))
        for v, k in zip(vals, exps):
            term *= v ** int(k)
        total += term
    return total


def _row_str(row: list[flint.fmpz_poly]) -> str:
    return ", ".join(poly_str(c) for c in row)
