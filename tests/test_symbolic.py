"""grs2011 Example 2.3 / grs2009 Example 2.2, grs2011 Theorem A.2, grs2009 Section 6.1: real statements are
proved, false variants are refuted with a concrete counterexample."""

from __future__ import annotations

import sympy as sp

from proofs import symbolic as sy
from udpm.claims import Context, Status

CTX = Context(quick=True)


def test_latex_reader():
    assert sy.latex_expr("\\frac{1+\\alpha}{2\\sqrt{\\alpha}}") == (1 + sy.a) / (2 * sp.sqrt(sy.a))
    e = sy.latex_expr("\\alpha^{(n+1)/2}/(1 + \\alpha)")
    assert e.subs({sy.a: sp.Rational(1, 2), sy.nn: 3}) == sp.Rational(1, 6)


def test_ex23_and_ex22_proved():
    assert sy.post_processing_grs2011(CTX).status is Status.PROVED
    assert sy.post_processing_grs2009(CTX).status is Status.PROVED


def test_ex23_wrong_exponent_refuted():
    r = sy.post_processing_grs2011(CTX, remapped=lambda al, n: al ** ((n - 1) / 2) / (1 + al))
    assert r.status is Status.REFUTED and "n=1" in r.counterexample


def test_ex22_wrong_face_value_refuted():
    r = sy.post_processing_grs2009(CTX, face=lambda al, n: al / (1 + al))
    assert r.status is Status.REFUTED and "face value" in r.counterexample


def test_thmA2_proved_and_printed_factor_matches():
    r = sy.rounded_laplace(CTX)
    assert r.status is Status.PROVED and "matches" in r.values["factor at alpha=1/2"]


def test_thmA2_wrong_factor_refuted():
    r = sy.rounded_laplace(CTX, factor=lambda al: (1 + al) / (2 * al))
    assert r.status is Status.REFUTED and "alpha=1/2" in r.counterexample


def test_sec61_proved():
    r = sy.laplace_vs_geometric(CTX)
    assert r.status is Status.PROVED and r.values["Laplace, optimal remap (threshold 1/2)"] == "sqrt(alpha)/2"


def test_sec61_face_value_laplace_refuted():
    r = sy.laplace_vs_geometric(CTX, laplace_loss=lambda al: sp.sqrt(al))
    assert r.status is Status.REFUTED and "alpha=1/4" in r.counterexample


def test_sec61_wrong_geometric_refuted():
    r = sy.laplace_vs_geometric(CTX, geometric_loss=lambda al: 2 * al / (1 + al))
    assert r.status is Status.REFUTED
