"""Tumult core (``tmlt.core``) 0.20.0: ``measurements.noise_mechanisms.AddGeometricNoise``, exactly.

Not installable beside udpm: tmlt.core 0.20.0 requires numpy < 2 and sympy < 1.13 on Python 3.11
(its wheel's METADATA), while udpm pins numpy 2.4.6 and sympy 1.14.0.  This adapter is derived from the
source of the tmlt_core-0.20.0 wheel (read, not installed); its sampler test in tests/test_adapters.py
is skipped where ``tmlt.core`` cannot be imported.

Where the distribution is defined (``tmlt/core/...`` in the 0.20.0 wheel):

* ``measurements/noise_mechanisms.py`` line 173 ``class AddGeometricNoise(alpha)``: ``alpha`` is the noise
  *scale* (an ExactNumber), the privacy function is d_in / alpha (PureDP), and ``__call__`` (lines
  247-299) documents Pr[k] = (e^(1/alpha) - 1)/(e^(1/alpha) + 1) e^(-|k|/alpha).
* lines 287-298: ``float_scale = self.alpha.to_float(round_up=True)``; if float_scale < 10 the noise is
  ``_sample_geometric_exp_slow(x) - _sample_geometric_exp_slow(x)`` with x = 1/Fraction(float_scale),
  else ``_sample_dlaplace(float_scale)``; the result is ``int(value) + noise``, no clamping (range Z).
* ``random/discrete_gaussian.py`` lines 80-91 (``_sample_geometric_exp_slow``: Geometric(1 - e^-x),
  exact, CKS20) and 116-134 (``_sample_dlaplace``): the difference of two iid Geometric(1 - a) is
  Pr[D = d] = (1 - a)/(1 + a) a^|d|, and so is the sign/magnitude sampler; with a = e^(-1/float_scale).
* ``utils/exact_number.py`` lines 281-308 (``to_float(round_up=True)``): an integer scale is exact;
  otherwise float(evalf) nudged up by 1e-15, 1e-14, ... until it is >= the exact value.

So a = e^(-1/s) with s the float scale (>= the exact ``alpha``), irrational for every s > 0; the range
is Z, given here tail-lumped (see :mod:`udpm.auditing.adapters`).  Defaults: none (``alpha`` is required).

>>> add_geometric_noise(1, 1).alpha
exp(-1)
"""

from __future__ import annotations

from fractions import Fraction

from udpm.auditing.adapters import LibraryMechanism, exp_neg, installed_version
from udpm.errors import InvalidInput

LIBRARY = "tmlt.core"
NOT_INSTALLABLE = "tmlt.core 0.20.0 requires numpy<2 and sympy<1.13 (Python 3.11); udpm pins numpy 2.4.6, sympy 1.14.0"


def add_geometric_noise(n: int, float_scale: float | int) -> LibraryMechanism:
    """``AddGeometricNoise(alpha)`` on counts 0..n, where ``float_scale = alpha.to_float(round_up=True)``."""
    if isinstance(float_scale, bool) or not isinstance(float_scale, float | int) or not float_scale > 0:
        raise InvalidInput(f"float_scale={float_scale!r} must be a positive float or int")
    r = 1 / Fraction(float_scale)
    return LibraryMechanism.lumped(
        LIBRARY,
        "AddGeometricNoise",
        n,
        exp_neg(r),
        r,
        {"alpha (noise scale)": repr(float_scale)},
        "tmlt/core/measurements/noise_mechanisms.py lines 173, 247-299; random/discrete_gaussian.py 80-134",
    )


def version() -> str | None:
    """The installed tmlt.core's version, or None."""
    return installed_version("tmlt.core", "tmlt-core")
