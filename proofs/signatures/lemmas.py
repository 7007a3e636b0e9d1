"""The signature lemmas' conclusions (grs2011 Lemmas 5.3, 5.5, 5.6, 5.8, 5.9; grs2009 Lemmas 5.4-5.6, 5.8, 5.9,
Corollary 5.7): each as a z3 negation over the signature Booleans of :class:`proofs.signatures.encoding.Encoding`
and as the same test in exact Python (to re-check every model), with the lemma's hypotheses (``PROPERTIES``).

The signature symbols are grs2011 Section 5.3's: down, up, S(lack) and 0 per entry (i, j), i < n (grs2009
Section 5 calls the same matrix the constraint matrix).  The checks that decide these properties per (n, alpha)
are proofs/signatures/optimal_mechanisms.py.
"""

from __future__ import annotations

import z3

from proofs.signatures.encoding import Encoding, Property
from udpm.core.signatures import (
    DOWN,
    SLACK,
    UP,
    ZERO,
    Signature,
    count,
    downs,
    is_unimodal,
    is_unimodal_row,
    satisfies_p1,
    satisfies_p2,
    satisfies_p3,
    zero_columns,
)

# --- lemma negations, as formulas over the signature Booleans -----------------------------------


def row_not_unimodal(e: Encoding, h: int):
    """Row h has columns k < m with sigma_hk in {S, up} and sigma_hm in {S, down} (grs2011 Lemma 5.5 proof)."""
    cols = range(e.n + 1)
    return z3.Or(
        [z3.And(z3.Or(e.S[h][k], e.U[h][k]), z3.Or(e.S[h][m], e.D[h][m])) for k in cols for m in cols if k < m]
    )


def not_unimodal(e: Encoding):
    return z3.Or([row_not_unimodal(e, h) for h in range(e.n)])


def lemma53_negation(e: Encoding):
    """grs2011 Lemma 5.3: (a) a column mixing 0 and non-0 entries, or (b) a row all down/0 or all up/0."""
    n = e.n
    mixed = [z3.And(e.Z[i][j], z3.Not(e.Z[k][j])) for j in range(n + 1) for i in range(n) for k in range(n)]
    rows = [
        z3.Or(
            z3.And([z3.Or(e.D[i][j], e.Z[i][j]) for j in range(n + 1)]),
            z3.And([z3.Or(e.U[i][j], e.Z[i][j]) for j in range(n + 1)]),
        )
        for i in range(n)
    ]
    return z3.Or(mixed + rows)


def grs2009_54_negation(e: Encoding):
    """grs2009 Lemma 5.4: a row whose non-Z entries are all down, or all up."""
    n = e.n
    return z3.Or(
        [
            z3.Or(
                z3.And([z3.Or(e.D[i][j], e.Z[i][j]) for j in range(n + 1)]),
                z3.And([z3.Or(e.U[i][j], e.Z[i][j]) for j in range(n + 1)]),
            )
            for i in range(n)
        ]
    )


def lemma56_negation(e: Encoding):
    """grs2011 Lemma 5.6: (a) a row with fewer downs than the previous one, or (b) a strictly unimodal
    row i < n-1 followed by a row with no S and not more downs."""
    n = e.n
    a = [e.n_down(i + 1) < e.n_down(i) for i in range(n - 1)]
    b = [
        z3.And(
            z3.Not(row_not_unimodal(e, i)),
            e.n_slack_row(i) == 0,
            e.n_slack_row(i + 1) == 0,
            e.n_down(i + 1) <= e.n_down(i),
        )
        for i in range(n - 1)
    ]
    return z3.Or(a + b + [z3.BoolVal(False)])


def grs2009_56_negation(e: Encoding):
    """grs2009 Lemma 5.6: row i+1 without S has fewer than downs(i)+1 downs, or with an S fewer than downs(i)."""
    n = e.n
    bad = []
    for i in range(n - 1):
        has_s = e.n_slack_row(i + 1) > 0
        bad.append(z3.If(has_s, e.n_down(i + 1) < e.n_down(i), e.n_down(i + 1) < e.n_down(i) + 1))
    return z3.Or([*bad, z3.BoolVal(False)])


def s_below_z(e: Encoding):
    """grs2009 Corollary 5.7's negation: fewer S entries than Z-columns."""
    return e.n_slack() < e.n_zero_cols()


def s_above_z(e: Encoding):
    """grs2011 Lemma 5.8's negation: more S entries than zero columns."""
    return e.n_slack() > e.n_zero_cols()


def s_not_z(e: Encoding):
    """grs2009 Lemma 5.8's negation."""
    return e.n_slack() != e.n_zero_cols()


def not_single_peaked(e: Encoding, j: int):
    rows = range(e.n)
    return z3.Or(
        [
            z3.Or(z3.And(z3.Or(e.S[i][j], e.D[i][j]), e.U[k][j]), z3.And(e.D[i][j], e.S[k][j]))
            for i in rows
            for k in rows
            if i < k
        ]
        + [z3.BoolVal(False)]
    )


def p1_p3_negation(e: Encoding):
    """grs2011 Lemma 5.9's negation: (P1), (P2) or (P3) fails.

    Under (P1) the incline of a column is a prefix of the rows and incline
    union peak is a longer prefix, so (P3) for consecutive non-zero columns
    j < j' is #up(j') = #up(j) + #S(j) + 1; where (P1) fails the negation
    holds anyway, so the count form of (P3) is equivalent inside the negation.
    """
    n, nz = e.n, [z3.Not(zc) for zc in e.zc]
    cols = range(n + 1)
    bad = [z3.And(nz[j], not_single_peaked(e, j)) for j in cols]
    for j in cols:
        first = z3.And([nz[j]] + [e.zc[k] for k in range(j)])
        last = z3.And([nz[j]] + [e.zc[k] for k in range(j + 1, n + 1)])
        bad.append(z3.And(first, z3.Or([e.U[i][j] for i in range(n)])))
        bad.append(z3.And(last, z3.Or([e.D[i][j] for i in range(n)])))
        for k in range(j + 1, n + 1):
            consecutive = z3.And([nz[j], nz[k]] + [e.zc[m] for m in range(j + 1, k)])
            bad.append(z3.And(consecutive, e.col_count(e.U, k) != e.col_count(e.U, j) + e.col_count(e.S, j) + 1))
    return z3.Or(bad)


def grs2009_59_negation(e: Encoding):
    """grs2009 Lemma 5.9's negation: the i-th non-Z column is not up^(i+S_(i-1)) S^(s_i) down^rest."""
    n, nz = e.n, [z3.Not(zc) for zc in e.zc]
    bad = []
    for j in range(n + 1):
        index = z3.Sum([z3.If(nz[k], 1, 0) for k in range(j)] + [z3.IntVal(0)])
        s_before = z3.Sum([e.col_count(e.S, k) for k in range(j)] + [z3.IntVal(0)])
        bad.append(z3.And(nz[j], z3.Or(not_single_peaked(e, j), e.col_count(e.U, j) != index + s_before)))
    return z3.Or(bad)


# --- the same properties in exact Python, to re-check every model -------------------------------


def grs2009_column_form(sig: Signature) -> bool:
    """grs2009 Lemma 5.9: the i-th non-Z column has up in rows 0..i-1+S_(i-1), then s_i S's, then downs."""
    n = len(sig)
    cols = [[sig[i][j] for i in range(n)] for j in range(n + 1)]
    k, s_before = 0, 0
    for j in range(n + 1):
        col = cols[j]
        if all(s == ZERO for s in col):
            continue
        s_j = col.count(SLACK)
        want = [UP] * (k + s_before) + [SLACK] * s_j
        want += [DOWN] * (n - len(want))
        if col != want[:n] or len(want) != n:
            return False
        k, s_before = k + 1, s_before + s_j
    return True


def grs2011_56(sig: Signature) -> bool:
    n = len(sig)
    ok_a = all(downs(sig[i + 1]) >= downs(sig[i]) for i in range(n - 1))
    ok_b = all(
        not (is_unimodal_row(sig[i]) and SLACK not in sig[i])
        or SLACK in sig[i + 1]
        or downs(sig[i + 1]) > downs(sig[i])
        for i in range(n - 1)
    )
    return ok_a and ok_b


def grs2009_56(sig: Signature) -> bool:
    n = len(sig)
    return all(downs(sig[i + 1]) >= downs(sig[i]) + (0 if SLACK in sig[i + 1] else 1) for i in range(n - 1))


def no_all_down_or_up(sig: Signature) -> bool:
    return all(not all(s in (DOWN, ZERO) for s in r) and not all(s in (UP, ZERO) for s in r) for r in sig)


def lemma53(sig: Signature) -> bool:
    cols = [[r[j] for r in sig] for j in range(len(sig[0]))]
    return all(all(s == ZERO for s in c) or ZERO not in c for c in cols) and no_all_down_or_up(sig)


def p1_p3(sig: Signature) -> bool:
    return satisfies_p1(sig) and satisfies_p2(sig) and satisfies_p3(sig)


PROPERTIES: dict[str, Property] = {
    "grs2011.lemma5.3": Property(lemma53_negation, lemma53, optimal=False),
    "grs2009.lemma5.4": Property(grs2009_54_negation, no_all_down_or_up, optimal=False),
    "grs2011.lemma5.5": Property(not_unimodal, is_unimodal),
    "grs2009.lemma5.5": Property(not_unimodal, is_unimodal),
    "grs2011.lemma5.6": Property(lemma56_negation, grs2011_56),
    "grs2009.lemma5.6": Property(grs2009_56_negation, grs2009_56),
    "grs2009.cor5.7": Property(s_below_z, lambda s: count(s, SLACK) >= len(zero_columns(s))),
    "grs2011.lemma5.8": Property(s_above_z, lambda s: count(s, SLACK) <= len(zero_columns(s)), vertex=True),
    "grs2009.lemma5.8": Property(s_not_z, lambda s: count(s, SLACK) == len(zero_columns(s)), vertex=True),
    "grs2011.lemma5.9": Property(p1_p3_negation, p1_p3, vertex=True, s_at_most_z=True),
    "grs2009.lemma5.9": Property(grs2009_59_negation, grs2009_column_form, vertex=True, s_at_most_z=True),
}
