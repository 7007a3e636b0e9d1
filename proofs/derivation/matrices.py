"""gs2010 Section 3's matrices, exactly: G'_m, (1+a) G_m and Tri_m = (1 - a^2) G'_m^-1 as polynomial matrices in
alpha (python-flint), Definition 4's entries (sympy), and the finitely many index cases of the all-n identities.

Shared by Table 2 (proofs/derivation/table2.py), Lemma 1 (proofs/derivation/lemma1.py) and Lemma 2
(proofs/derivation/column_replacement.py).

Sizes.  gs2010 writes G_{n,alpha} for two different matrices: Definition 4's
range-restricted mechanism on results {0..n}, which is (n+1) x (n+1), and the
matrix of Table 2 and Lemmas 1-2, which is n x n (entries up to a^(n-1),
columns "1 and n").  Here ``m`` is always the matrix size; the printed
formulas of Lemmas 1-2 hold with n = m, i.e. for Definition 4's G_{m-1,a}.

The all-n cases: the entries of G'_m Tri_m (the certificate G'_m Tri_m = (1 - a^2) I, Tri_m tridiagonal with
diagonal (1, 1+a^2, ..., 1+a^2, 1) and off-diagonal -a) and Lemma 1's column operation C1 <- C1 - a C2 split
into finitely many index cases (distance p >= 0 a symbol), each a sympy identity in alpha.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import flint
import sympy as sp

from udpm.claims.registry import Context

a = sp.Symbol("alpha", positive=True)
p = sp.Symbol("p", integer=True, nonnegative=True)
SYMBOLIC = "symbolic alpha in (0,1)"
RATIONAL_ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(9, 10), Fraction(1, 100))

# --- exact polynomial matrices in alpha (python-flint) -------------------------------------

A = flint.fmpz_poly([0, 1])  # the polynomial alpha
ONE = flint.fmpz_poly([1])


def apow(d: int) -> flint.fmpz_poly:
    return A**d


def bareiss_det(m: Sequence[Sequence[object]]) -> object:
    """Determinant over an integral domain (fmpz_poly, fmpz_mpoly) by fraction-free elimination."""
    rows = [list(r) for r in m]
    size = len(rows)
    if size == 0:
        raise ValueError("empty matrix")
    one = rows[0][0] * 0 + 1
    sign, prev = 1, one
    for k in range(size - 1):
        if rows[k][k] == 0:
            swap = next((r for r in range(k + 1, size) if rows[r][k] != 0), None)
            if swap is None:
                return rows[0][0] * 0
            rows[k], rows[swap] = rows[swap], rows[k]
            sign = -sign
        for i in range(k + 1, size):
            for j in range(k + 1, size):
                rows[i][j] = (rows[i][j] * rows[k][k] - rows[i][k] * rows[k][j]) // prev
        prev = rows[k][k]
    return rows[size - 1][size - 1] * sign


def g_prime(m: int) -> list[list[flint.fmpz_poly]]:
    """gs2010 Table 2's G'_{m,a}: entries a^|i-j| (m x m)."""
    return [[apow(abs(i - j)) for j in range(m)] for i in range(m)]


def g_scaled(m: int) -> list[list[flint.fmpz_poly]]:
    """(1 + a) G_{m,a}: columns 1 and m are a^|i-j|, the others (1 - a) a^|i-j| (a polynomial matrix)."""
    return [[apow(abs(i - j)) * (ONE if j in (0, m - 1) else ONE - A) for j in range(m)] for i in range(m)]


#: The rows of Tri = (1 - a^2) G'^-1 as coefficients of (x_(i-1), x_i, x_(i+1)), by the kind of row.
TRI_ROW = {"first": (0, 1, -a), "interior": (-a, 1 + a**2, -a), "last": (-a, 1, 0)}


Row = tuple[sp.Expr, sp.Expr, sp.Expr]  # coefficients of (x_(i-1), x_i, x_(i+1))
KINDS = ("first", "interior", "last")


def row_kind(m: int, i: int) -> str:
    """Which functional row i of an m x m matrix takes: first, interior or last."""
    return "first" if i == 0 else ("last" if i == m - 1 else "interior")


def _fmpz(e: object) -> flint.fmpz_poly:
    coeffs = sp.Poly(sp.expand(sp.sympify(e)), a).all_coeffs()
    return flint.fmpz_poly([int(c) for c in reversed(coeffs)])


def functional_row(m: int, i: int, functional: Callable[[str], Row]) -> list[flint.fmpz_poly]:
    """Row i of the m x m matrix whose rows are the functionals (as polynomials in alpha)."""
    row = [flint.fmpz_poly([0]) for _ in range(m)]
    for off, coef in zip((-1, 0, 1), functional(row_kind(m, i))):
        if 0 <= i + off < m:
            row[i + off] = _fmpz(coef)
        elif sp.sympify(coef) != 0:
            raise ValueError(f"functional {row_kind(m, i)} has a coefficient outside the matrix")
    return row


def tridiagonal(m: int) -> list[list[flint.fmpz_poly]]:
    """(1 - a^2) G'_m^-1: diagonal (1, 1+a^2, ..., 1+a^2, 1), off-diagonal -a (the rows of TRI_ROW)."""
    return [functional_row(m, i, TRI_ROW.__getitem__) for i in range(m)]


def poly_matmul(x: Sequence[Sequence[object]], y: Sequence[Sequence[object]]) -> list[list[object]]:
    return [
        [sum((x[i][k] * y[k][j] for k in range(len(y))), x[0][0] * 0) for j in range(len(y[0]))] for i in range(len(x))
    ]


def poly_str(e: object) -> str:
    return str(sp.factor(sp.sympify(str(e).replace("^", "**")).subs(sp.Symbol("x"), a)))


def at(poly: flint.fmpz_poly, al: Fraction) -> Fraction:
    coeffs = [int(c) for c in poly.coeffs()]
    return sum((Fraction(c) * al**k for k, c in enumerate(coeffs)), Fraction(0))


OMA2 = ONE - A**2  # 1 - a^2


# --- symbolic all-n cases ------------------------------------------------------------------


def is_identity(e: sp.Expr) -> bool:
    return sp.simplify(sp.powsimp(sp.expand(e), force=True)) == 0


def kms_inverse_cases() -> list[tuple[str, sp.Expr, sp.Expr]]:
    """Every entry (G'_m Tri_m)[i][j], m >= 2, in finitely many cases; p = distance - 1 >= 0.

    Returns (case, computed entry, expected entry).
    """
    g = lambda d: a**d  # noqa: E731  G'[i][k] at distance d = |i - k|
    (_, f0, f1), (i0, i1, i2), (l0, l1, _) = TRI_ROW["first"], TRI_ROW["interior"], TRI_ROW["last"]
    return [  # Tri is symmetric: its column j has the coefficients of its row j
        ("column j interior, row i = j-1-p", i0 * g(p) + i1 * g(p + 1) + i2 * g(p + 2), sp.Integer(0)),
        ("column j interior, row i = j", i0 * g(1) + i1 * g(0) + i2 * g(1), 1 - a**2),
        ("column j interior, row i = j+1+p", i0 * g(p + 2) + i1 * g(p + 1) + i2 * g(p), sp.Integer(0)),
        ("column 1, row 1", f0 * g(0) + f1 * g(1), 1 - a**2),
        ("column 1, row 2+p", f0 * g(p + 1) + f1 * g(p), sp.Integer(0)),
        ("column m, row m", l1 * g(0) + l0 * g(1), 1 - a**2),
        ("column m, row m-1-p", l1 * g(p + 1) + l0 * g(p), sp.Integer(0)),
    ]


def lemma1_column_op_cases() -> list[tuple[str, sp.Expr, sp.Expr]]:
    """Lemma 1's C1 <- C1 - a C2 on G'_m: row 1 becomes 1 - a^2, row 2+p becomes 0; the (1,1) minor is G'_{m-1}."""
    return [
        ("(C1 - a C2) at row 1", a**0 - a * a**1, 1 - a**2),
        ("(C1 - a C2) at row 2+p", a ** (p + 1) - a * a**p, sp.Integer(0)),
        (
            "minor: G'_m[1+i][1+j] vs G'_{m-1}[i][j], i >= j (by symmetry also i < j)",
            a ** sp.Abs((p + 1) - 1),
            a ** sp.Abs(p),
        ),
    ]


def prove_cases(cases: list[tuple[str, sp.Expr, sp.Expr]]) -> tuple[bool, str]:
    bad = [c for c, got, want in cases if not is_identity(got - want)]
    return (not bad, "; ".join(bad) if bad else f"{len(cases)} symbolic cases hold")


def definition4(d: sp.Expr, boundary: bool) -> sp.Expr:
    """gs2010 Definition 4 at distance d = |z - k|: a^d/(1+a) in columns {0, n}, (1-a)/(1+a) a^d inside."""
    return (1 if boundary else (1 - a)) / (1 + a) * a**d


def size_bound(ctx: Context, quick: int, full: int) -> int:
    return quick if ctx.quick else full
