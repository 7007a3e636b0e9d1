"""The exact mathematics: mechanisms on 0..n, alpha-DP, remaps, users and losses, signatures, exact linear algebra.

The one convention inside: alpha in (0, 1), alpha = e^-eps, results 0..n; zlcn2013's alpha > 1 crosses at
:func:`udpm.core.conventions.alpha_from_zlcn2013`.  May import: :mod:`udpm.errors`, :mod:`udpm.internal`.
"""
