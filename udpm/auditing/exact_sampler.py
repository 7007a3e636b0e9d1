"""Exact sampling from an exact mechanism: counts of draws that follow its rational probabilities exactly.

The statistical mode of the audit (:mod:`udpm.auditing.sampled`) is tested, and its false-alarm rate measured
(``benchmarks/sampled_false_alarm.py``), on samples drawn this way.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence

import numpy as np

from udpm.core.validate import show, stochastic
from udpm.errors import InvalidInput


def exact_sample_counts(m: Sequence[Sequence[object]], draws: int, seed: int) -> list[list[int]]:
    """counts[i][r] of ``draws`` exact draws from each row of the exact row-stochastic matrix ``m``.

    Each draw is a uniform integer below the row's common denominator D (numpy's exact bounded integers
    when D < 2^63, else Python's ``random.randrange``), mapped through the integer cumulative numerators:
    the draws follow the rational probabilities exactly, with no float in between.
    """
    x = stochastic(m, "mechanism")
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 1:
        raise InvalidInput(f"draws={show(draws)} must be a positive int")
    gen = np.random.default_rng(seed)
    out = []
    for row in x:
        den = math.lcm(*(v.denominator for v in row))
        cum = list(np.cumsum([int(v * den) for v in row], dtype=object))
        if den < 2**63:
            u = gen.integers(0, den, size=draws, dtype=np.int64)
            idx = np.searchsorted(np.array(cum, dtype=np.int64), u, side="right")
        else:
            rnd = random.Random(int(gen.integers(0, 2**63)))
            idx = np.array([bisect.bisect_right(cum, rnd.randrange(den)) for _ in range(draws)])
        out.append([int(c) for c in np.bincount(idx, minlength=len(row))])
    return out


__all__ = ["exact_sample_counts"]
