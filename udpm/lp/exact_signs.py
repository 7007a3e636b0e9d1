"""Exact signs of real numbers given as sympy expressions: rational combinations of "atoms".

An objective coefficient such as ``2*sqrt(2) + 1`` is split into ``{sqrt(2): 2, 1: 1}``
(:func:`split_coefficient`); the sign of ``sum_k q_k atom_k`` is decided by rigorous interval
arithmetic (mpmath.iv) at rising precision, with an exact zero test (``sympy.minimal_polynomial``)
when the intervals straddle 0 (:func:`sign_of`).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from udpm.errors import CertificationFailed, InvalidInput

ONE_ATOM = sympy.S.One


def split_coefficient(v: object) -> dict[sympy.Expr, Fraction]:
    """v as {atom: rational}: 3/2 -> {1: 3/2}; 2*sqrt(2) + 1 -> {sqrt(2): 2, 1: 1}."""
    if isinstance(v, (int, Fraction)):
        return {ONE_ATOM: Fraction(v)} if v else {}
    e = sympy.expand(sympy.sympify(v))
    out: dict[sympy.Expr, Fraction] = {}
    for term in sympy.Add.make_args(e):
        coeff, atom = term.as_coeff_Mul()
        if not coeff.is_Rational or not atom.is_real or atom.free_symbols:
            raise InvalidInput(f"objective coefficient {v} is not an exact real number")
        out[atom] = out.get(atom, Fraction(0)) + Fraction(int(coeff.p), int(coeff.q))
    return {a: q for a, q in out.items() if q}


def _interval(atom: sympy.Expr, prec: int):
    import mpmath

    iv = mpmath.iv
    iv.prec = prec
    if atom.is_Rational:
        return iv.mpf(int(atom.p)) / iv.mpf(int(atom.q))
    if atom.is_Pow and atom.exp.is_Rational and atom.base.is_Rational and atom.base > 0:
        base = _interval(atom.base, prec)
        e = atom.exp
        return iv.exp(iv.log(base) * iv.mpf(int(e.p)) / iv.mpf(int(e.q)))
    if atom.is_Mul:
        r = iv.mpf(1)
        for a in atom.args:
            r = r * _interval(a, prec)
        return r
    if atom.is_Add:
        r = iv.mpf(0)
        for a in atom.args:
            r = r + _interval(a, prec)
        return r
    return None


def sign_of(combo: dict[sympy.Expr, Fraction]) -> int:
    """The exact sign of sum_k q_k * atom_k (interval bounds, exact zero test when they straddle 0)."""
    combo = {a: q for a, q in combo.items() if q}
    if not combo:
        return 0
    if set(combo) == {ONE_ATOM}:
        q = combo[ONE_ATOM]
        return (q > 0) - (q < 0)
    for prec in (80, 300, 1200):
        total = None
        for atom, q in combo.items():
            iv_atom = _interval(atom, prec)
            if iv_atom is None:
                total = None
                break
            import mpmath

            term = iv_atom * (mpmath.iv.mpf(q.numerator) / mpmath.iv.mpf(q.denominator))
            total = term if total is None else total + term
        if total is None:
            break
        if total.a > 0:
            return 1
        if total.b < 0:
            return -1
    expr = sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * a for a, q in combo.items()))
    if expr == 0:
        return 0
    x = sympy.Dummy("x")
    if sympy.minimal_polynomial(expr, x) == x:
        return 0
    s = expr.is_positive
    if s is True:
        return 1
    if expr.is_negative is True:
        return -1
    raise CertificationFailed(f"could not decide the sign of {expr} exactly")


def combo_value(combo: dict[sympy.Expr, Fraction]) -> Fraction | sympy.Expr:
    """A component combination as a Fraction (rational) or a sympy number."""
    combo = {a: q for a, q in combo.items() if q}
    if set(combo) <= {ONE_ATOM}:
        return combo.get(ONE_ATOM, Fraction(0))
    return sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * a for a, q in combo.items()))


__all__ = ["ONE_ATOM", "combo_value", "sign_of", "split_coefficient"]
