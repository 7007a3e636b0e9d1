"""Count-range vectors (zlcn2013 Section 3.2-3.3): the printed x-hat, y-hat and Lemma 3's x and y, in the internal a.

The printed LaTeX (verbatim in paper_tables/printed/zlcn2013.json) is read in zlcn's alpha and converted by
alpha = 1/a (proofs/countrange/alpha.py).  The paper's vectors in a (A = 1/a): x-hat = (a, 1, 1, a)/(a+1),
y-hat = (a^2, a, 1, a)/(a+1), and Lemma 3's entries are a^e/(a+1), e >= 0, with the paper's formulas in A
kept beside the internal ones (proofs/countrange/lemma3.py checks that they agree).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from proofs.countrange.alpha import A_SYM, in_internal_alpha
from udpm.claims.tables import printed

Vector = Callable[[object], list]  # internal a (sympy symbol, Fraction or z3 term) -> vector


# --- printed vectors (verbatim LaTeX in paper_tables/printed/zlcn2013.json) -----------------------


def latex_to_sympy(text: str, extra: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """The small LaTeX of the printed items (\\frac, \\alpha, \\cdot, t_0) as a sympy expression in zlcn's alpha."""
    s = text.replace("\\alpha", "alpha").replace("\\cdot", "*").replace("\\left", "").replace("\\right", "")
    s = re.sub(r"t_(\d)", r"t\1", s)
    frac = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
    while frac.search(s):
        s = frac.sub(r"((\1)/(\2))", s)
    s = s.replace("{", "(").replace("}", ")").replace("^", "**")
    from sympy.parsing.sympy_parser import implicit_multiplication_application, parse_expr, standard_transformations

    names = {"alpha": A_SYM, **(extra or {})}
    return parse_expr(
        s, local_dict=names, transformations=(*standard_transformations, implicit_multiplication_application)
    )


def printed_internal(text: str, extra: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """A printed LaTeX expression as a sympy expression in the internal a."""
    return in_internal_alpha(latex_to_sympy(text, extra))


def printed_vector(key: str) -> list[sp.Expr]:
    return [printed_internal(v) for v in printed("zlcn2013", key).values]


def xhat(a: object) -> list:
    """zlcn2013 Section 3.2.1: x-hat = (1/(A+1), A/(A+1), A/(A+1), 1/(A+1)), A = 1/a: (a, 1, 1, a)/(a+1)."""
    return [a / (a + 1), 1 / (a + 1), 1 / (a + 1), a / (a + 1)]


def yhat(a: object) -> list:
    """zlcn2013 Section 3.2.2: y-hat = (1/((A+1)A), 1/(A+1), A/(A+1), 1/(A+1)), A = 1/a: (a^2, a, 1, a)/(a+1)."""
    return [a * a / (a + 1), a / (a + 1), 1 / (a + 1), a / (a + 1)]


def lemma3_k(theta1: int, theta2: int) -> int:
    """zlcn2013 before Lemma 3: k = (theta1+theta2-1)/2 if theta1+theta2 is odd, else (theta1+theta2)/2."""
    s = theta1 + theta2
    return (s - 1) // 2 if s % 2 else s // 2


# Lemma 3's entries as printed (zlcn's A), and the same in the internal a; lemma3_formula_facts checks they agree.
PAPER_LEMMA3 = {
    "x, i <= k": lambda k, i, A: 1 / (A ** (k - 1 - i) * (A + 1)),
    "x and y, j >= k+1": lambda k, i, A: 1 / (A ** (i - k - 2) * (A + 1)),
    "y, i <= k": lambda k, i, A: 1 / (A ** (k - i) * (A + 1)),
}


def x_low(k: int, i: int, a: object) -> object:
    """Lemma 3, i <= k: x_i = 1/(A^(k-1-i)(A+1)) = a^(k-i)/(a+1)."""
    return a ** (k - i) / (a + 1)


def xy_high(k: int, j: int, a: object) -> object:
    """Lemma 3, j >= k+1: x_j = y_j = 1/(A^(j-k-2)(A+1)) = a^(j-k-1)/(a+1)."""
    return a ** (j - k - 1) / (a + 1)


def y_low(k: int, i: int, a: object) -> object:
    """Lemma 3, i <= k: y_i = 1/(A^(k-i)(A+1)) = a^(k-i+1)/(a+1)."""
    return a ** (k - i + 1) / (a + 1)


INTERNAL_LEMMA3 = {"x, i <= k": x_low, "x and y, j >= k+1": xy_high, "y, i <= k": y_low}


def lemma3_x(n: int, theta1: int, theta2: int, a: object) -> list:
    """Lemma 3's x in the internal a: a^(k-i)/(a+1) for i <= k, a^(j-k-1)/(a+1) for j >= k+1."""
    k = lemma3_k(theta1, theta2)
    return [x_low(k, i, a) if i <= k else xy_high(k, i, a) for i in range(n + 1)]


def lemma3_y(n: int, theta1: int, theta2: int, a: object) -> list:
    """Lemma 3's y in the internal a: a^(k-i+1)/(a+1) for i <= k, a^(j-k-1)/(a+1) for j >= k+1."""
    k = lemma3_k(theta1, theta2)
    return [y_low(k, i, a) if i <= k else xy_high(k, i, a) for i in range(n + 1)]
