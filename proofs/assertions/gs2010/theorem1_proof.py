"""gs2010 Theorem 1: the algebra of its printed proof, equation (4) and the chain after it.

- ``gs2010.thm1.algebra``: each printed step is a sympy identity or an exact sign test in alpha.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.assertions.gs2010.common import ALPHA, INTERIOR, sign_inside
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings, checks

F = Fraction
B, B1, B2 = sp.symbols("b bp bpp", real=True)
X = sp.symbols("x1 x2 x3", real=True)  # x_{i,j}, x_{i+1,j}, x_{i+2,j}


def printed_algebra(a: sp.Expr) -> dict[str, sp.Expr]:
    """Theorem 1's proof as printed: the two rewritings of (2) (as "value < 0"), (4) and the two rewritings of
    alpha^2 a + b'' + c / alpha^2."""
    x1, x2, x3 = X
    return {
        "(2), first rewriting": (x2 - a * x3) - a * (x1 - a * x2),
        "(2), second rewriting": (x2 - a * x1) - a * (x3 - a * x2),
        "a": (1 - B - a + B1 * a) / (1 - a**2),
        "c": (a - a**2 + B * a**2 - B1 * a) / (1 - a**2),
        "second": (a**3 - B * a**3 - a**4 + B1 * a**4 + B2 * a - B2 * a**3 + 1 - a - B1 + B * a) / (a * (1 - a**2)),
        "first summand": (1 - a + a**2) / a,
        "second summand": ((B + B2) * a - B1 * (1 + a**2)) / a,
    }


@checks("gs2010.thm1.algebra")
def theorem1_algebra(ctx: Context, printed: Callable[[sp.Expr], dict] = printed_algebra) -> Findings:
    """gs2010 Theorem 1, proof: (2), (1 + a^2) x2 - a (x1 + x3) < 0, rewritten as (x2 - a x3) < a (x1 - a x2) and
    as (x2 - a x1) < a (x3 - a x2) (so x1 > a x2, resp. x3 > a x2, for a > 0 by privacy's 0 <= left side);
    from a + b + c = 1 and alpha a + b' + c/alpha = 1, equation (4) gives a and c;
    then alpha^2 a + b'' + c/alpha^2 equals the printed fraction and the printed sum of two summands, the first
    "always at least 1" and the second "strictly positive by Equation (3)", i.e. a positive multiple of
    -((1 + a^2) b' - a (b + b'')).  Sympy identities for symbolic alpha in (0, 1); at alpha = 1 the two row
    equations no longer determine a (exact witness), and at alpha = 0 the printed equations divide by zero."""
    rec = Findings("gs2010.thm1.algebra")
    a, c = sp.symbols("a_ c_")
    p = printed(ALPHA)
    sol = sp.solve([a + B + c - 1, ALPHA * a + B1 + c / ALPHA - 1], [a, c], dict=True)[0]
    chain = ALPHA**2 * sol[a] + B2 + sol[c] / ALPHA**2
    two = (1 + ALPHA**2) * X[1] - ALPHA * (X[0] + X[2])  # (2): this value < 0
    checks_ = {
        "(2), first rewriting": sp.expand(two - p["(2), first rewriting"]),
        "(2), second rewriting": sp.expand(two - p["(2), second rewriting"]),
        "(4): a": sp.simplify(sol[a] - p["a"]),
        "(4): c": sp.simplify(sol[c] - p["c"]),
        "alpha^2 a + b'' + c/alpha^2 = the printed fraction": sp.simplify(chain - p["second"]),
        "= first summand + second summand": sp.simplify(chain - p["first summand"] - p["second summand"]),
        "second summand = -((1+a^2) b' - a (b + b'')) / alpha": sp.simplify(
            p["second summand"] + ((1 + ALPHA**2) * B1 - ALPHA * (B + B2)) / ALPHA
        ),
    }
    first_minus_one = sp.factor(sp.simplify(p["first summand"] - 1) * ALPHA)
    with rec.deciding(
        n=None,
        alpha=INTERIOR,
        kind=ALL_N,
        method="sympy identities, exact real-root isolation",
        covers="every alpha in (0,1) and every b, b', b''",
        n_from=2,
    ) as d:  # rows i, i+1, i+2
        wrong = [k for k, v in checks_.items() if v != 0]
        if wrong:
            point = {
                ALPHA: sp.Rational(1, 2),
                B: sp.Rational(1, 3),
                B1: sp.Rational(1, 5),
                B2: sp.Rational(1, 7),
                X[0]: sp.Rational(1, 2),
                X[1]: sp.Rational(1, 3),
                X[2]: sp.Rational(1, 4),
            }
            first = wrong[0]
            d.counterexample(
                f"{first} fails: at alpha = 1/2, b = 1/3, b' = 1/5, b'' = 1/7, x = (1/2, 1/3, 1/4) the "
                f"difference is "
                f"{checks_[first].subs(point)}"
            )
        elif sign_inside(first_minus_one) not in ("0", "+"):
            d.counterexample(f"the first summand minus 1 is {first_minus_one}/alpha, negative somewhere in (0, 1)")
    rec.value(**{"first summand - 1": f"{first_minus_one}/alpha"})
    with rec.deciding(
        n=None,
        alpha=1,
        kind=ALL_N,
        method="exact solutions of the two row equations",
        covers="every b, b' at alpha = 1",
        n_from=2,
    ) as d:
        # alpha = 1: a + b + c = 1 and a + b' + c = 1; with b = b' = 0 both (a, c) = (1, 0) and (0, 1) solve them
        sols = [(F(1), F(0)), (F(0), F(1))]
        if all(av + cv == 1 for av, cv in sols) and sp.denom(sp.together(p["a"])).subs(ALPHA, 1) == 0:
            d.counterexample(
                "alpha = 1, b = b' = 0: the row equations a + b + c = 1 and 1 a + b' + c/1 = 1 are "
                "solved by (a, c) = (1, 0) and by (0, 1), so (4) does not follow; its denominator "
                "1 - alpha^2 is 0"
            )
    with rec.deciding(
        n=None,
        alpha=0,
        kind=ALL_N,
        method="the printed expressions at alpha = 0",
        covers="every b, b', b'' at alpha = 0",
        n_from=2,
    ) as d:
        if sp.denom(sp.together(p["first summand"])).subs(ALPHA, 0) == 0:
            d.counterexample(
                "alpha = 0: the row equation alpha a + b' + c/alpha = 1 and the first summand "
                "(1 - alpha + alpha^2)/alpha divide by alpha = 0; the printed chain has no value"
            )
    rec.note("Theorem 1(2) itself is checked at alpha in {0, 1} by gs2010.thm1; this claim is the printed algebra")
    return rec
