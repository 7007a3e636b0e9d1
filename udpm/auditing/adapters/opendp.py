"""OpenDP 0.16.0: ``measurements.make_geometric`` (with and without ``bounds``) and ``make_laplace`` on integers.

The Python package wraps a compiled Rust library; the lines cited are from the Rust source of the
opendp/opendp repository (paths under ``rust/src/``), read at the commit whose samplers the installed
0.16.0 wheel runs (checked statistically in tests/test_adapters.py).

**Without bounds** (``make_geometric(..., bounds=None)`` and ``make_laplace`` on an integer atom domain are
the same measurement: ``measurements/noise/distribution/geometric/mod.rs`` ``make_geometric`` calls
``DiscreteLaplace { scale, k: None }``):

* ``measurements/noise/nature/integer/mod.rs`` (``IntExpFamily`` vector impl): the scale becomes
  ``integerize_scale(scale, 0)``, i.e. ``RBig::try_from(scale)``: the *exact* rational value s of the
  binary64 scale (``nature/float/utilities/mod.rs`` ``integerize_scale``); the result is saturating-cast
  back to the integer type (only outputs beyond the type's range move, inside the lumped tails).
* ``measurements/noise/mod.rs`` ``impl Sample for ZExpFamily<1>``: shift + ``sample_discrete_laplace(s)``.
* ``traits/samplers/cks20/mod.rs`` ``sample_discrete_laplace``: a fair sign and a magnitude from
  ``sample_geometric_exp_fast(1/s)`` (Geometric(1 - e^(-1/s)), exact, CKS20), rejecting (negative, 0);
  its docstring states Pr[X = x] = (1 - e^(-1/s))/(1 + e^(-1/s)) e^(-|x|/s).  So a = e^(-1/s), irrational
  for every float scale (Lindemann), range Z: given here tail-lumped (see :mod:`udpm.auditing.adapters`).
* privacy map (``distribution/laplace/mod.rs``, ``NoisePrivacyMap for ZExpFamily<1>``): eps = d_in / s
  rounded up.

**With bounds = (lower, upper)** (``ConstantTimeGeometric``, ``geometric/mod.rs``), on an integer atom:

* ``traits/samplers/geometric/mod.rs`` ``sample_discrete_laplace_linear``: the input is clamped to
  [lower, upper]; trials = upper - lower - 1; ``prob = 1.neg_inf_sub((-scale.recip()).inf_exp())``, i.e.
  p = RD(1 - RU(e^(-fl(1/s)))) in binary64 (``traits/arithmetic/mod.rs`` ``InfExp for f64``: dashu's
  exp at 53 bits rounded up; 1 - q is exact for q >= 1/2); then repeatedly: a fair direction and
  ``sample_geometric_linear(shift, direction, prob, trials)``, rejecting (negative, no step); the result
  is clamped to [lower, upper].
* ``sample_geometric_linear`` with ``trials = Some(t)`` runs exactly t + 1 Bernoulli(p) trials and steps
  once per failure before the first success: K = min(G, t + 1) with G ~ Geometric(p) (failures).
  ``sample_bernoulli_float`` (``traits/samplers/bernoulli/mod.rs``) is exact for the binary64 p.
* So with q = 1 - p and m = upper - lower: Pr[Z = k] = (1 - q)/(1 + q) q^|k| for |k| < m and
  Pr[Z = +-m] = q^m/(1 + q), the geometric censored at +-m; since i is in [lower, upper], i +- m is
  beyond the far end, and clamping gives exactly the clamped geometric: with bounds = (0, n) the matrix
  is T(n, q), q an exact dyadic rational (conservatively >= e^(-1/s)).  :func:`scale_for_alpha` finds a
  binary64 scale with q = alpha exactly (alpha = 1/2: q is exactly 1/2).

The correct rounding of dashu's ``FBig<Up>::exp`` is assumed (a 1-ulp difference in q cannot be seen
by sampling); :func:`bounded_ratio` computes RU(e^(-fl(1/s))) with arb balls.

Defaults: none; ``scale`` is required.  The documentation's example uses scale = 1.0.

>>> from fractions import Fraction as F
>>> s = scale_for_alpha(F(1, 2)); bounded_ratio(s)
Fraction(1, 2)
>>> from udpm.core.mechanisms import truncated_geometric
>>> geometric_bounded(5, s).matrix == truncated_geometric(5, F(1, 2))
True
>>> discrete_laplace(2, 1.0).alpha
exp(-1)
"""

from __future__ import annotations

import math
from fractions import Fraction

from udpm.auditing.adapters import LibraryMechanism, exp_neg, installed_version
from udpm.errors import InvalidInput

LIBRARY = "opendp"
#: No default exists; this is the scale of the documentation's example.
DOCS_EXAMPLE_SCALE = 1.0


def _round_up_exp_neg(x: float) -> float:
    """RU(e^-x) in binary64, decided with arb balls (e^-x is never a dyadic for x != 0)."""
    import flint

    old = flint.ctx.prec
    try:
        flint.ctx.prec = 256
        y = (-flint.arb(x)).exp()
        c = float(y.mid())
        for _ in range(8):  # the smallest double c with y <= c
            if flint.arb(c) < y:
                c = math.nextafter(c, math.inf)
            elif flint.arb(math.nextafter(c, -math.inf)) >= y:
                c = math.nextafter(c, -math.inf)
            elif flint.arb(c) > y and flint.arb(math.nextafter(c, -math.inf)) < y:
                return c
            else:  # pragma: no cover (ball too wide; impossible at 256 bits for a double x)
                break
    finally:
        flint.ctx.prec = old
    raise InvalidInput(f"could not round e^-{x} up to a double")  # pragma: no cover


def bounded_ratio(scale: float) -> Fraction:
    """q = 1 - p for ``ConstantTimeGeometric``'s p = RD(1 - RU(e^(-fl(1/scale)))), exactly."""
    if not (isinstance(scale, float) and math.isfinite(scale) and scale > 0):
        raise InvalidInput(f"scale={scale!r} must be a positive finite float")
    q_up = Fraction(_round_up_exp_neg(1.0 / scale))  # -scale.recip(): binary64 division, then exp rounded up
    exact = 1 - q_up
    p = float(exact)  # nearest; neg_inf_sub rounds down
    if Fraction(p) > exact:
        p = math.nextafter(p, -math.inf)
    if not 0 <= p <= 1:
        raise InvalidInput(f"p={p} out of [0, 1]")  # pragma: no cover
    return 1 - Fraction(p)


def scale_for_alpha(alpha: Fraction) -> float:
    """A binary64 scale whose bounded geometric has q = alpha exactly (alpha a double in (0, 1))."""
    import flint

    if not 0 < alpha < 1:
        raise InvalidInput(f"alpha={alpha} must be in (0, 1)")
    old = flint.ctx.prec
    try:
        flint.ctx.prec = 256
        ln = (flint.arb(alpha.denominator) / alpha.numerator).log()
        x = float(ln.mid())
        while flint.arb(x) < ln:  # the smallest double >= ln(1/alpha)
            x = math.nextafter(x, math.inf)
        while flint.arb(math.nextafter(x, -math.inf)) >= ln:
            x = math.nextafter(x, -math.inf)  # pragma: no cover
    finally:
        flint.ctx.prec = old
    s = 1.0 / x
    for _ in range(64):
        for cand in (s, math.nextafter(s, math.inf), math.nextafter(s, -math.inf)):
            if 1.0 / cand == x and bounded_ratio(cand) == alpha:
                return cand
        s = math.nextafter(s, math.inf)
    raise InvalidInput(f"no binary64 scale gives q = {alpha} exactly")


def geometric_bounded(n: int, scale: float, *, lower: int = 0, upper: int | None = None) -> LibraryMechanism:
    """``make_geometric(atom_domain(T=int), absolute_distance(T=int), scale, bounds=(lower, upper))`` on 0..n."""
    upper = n if upper is None else upper
    q = bounded_ratio(scale)
    return LibraryMechanism.clamped(
        LIBRARY,
        "make_geometric(bounds)",
        n,
        q,
        None,
        (lower, upper),
        {"scale": repr(scale), "bounds": [lower, upper]},
        "rust/src/traits/samplers/geometric/mod.rs sample_discrete_laplace_linear, sample_geometric_linear",
    )


def discrete_laplace(n: int, scale: float) -> LibraryMechanism:
    """``make_laplace`` / ``make_geometric(bounds=None)`` on an integer atom, counts 0..n, tails lumped."""
    if not (isinstance(scale, float | int | Fraction) and scale > 0 and math.isfinite(scale)):
        raise InvalidInput(f"scale={scale!r} must be positive and finite")
    r = 1 / Fraction(scale)
    return LibraryMechanism.lumped(
        LIBRARY,
        "make_laplace / make_geometric (integers)",
        n,
        exp_neg(r),
        r,
        {"scale": repr(scale)},
        "rust/src/traits/samplers/cks20/mod.rs sample_discrete_laplace; .../nature/integer/mod.rs",
    )


def version() -> str | None:
    """The installed opendp's version, or None."""
    return installed_version("opendp")
