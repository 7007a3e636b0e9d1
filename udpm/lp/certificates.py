"""LP optimality certificates as JSON, and an independent checker that needs only the standard library.

    python -m udpm.lp.certificates FILE...     # exit 0 when every certificate verifies, 1 otherwise

A certificate (format ``udpm-lp-certificate/1``) holds the LP ``minimize c·x
subject to a_k·x (<=, =, >=) b_k, x >= 0`` as exact strings, a primal point
x, a dual y (one value per constraint) and the objective value.  The
objective may be irrational: it is written as ``c = sum_t atom_t * c^(t)``
with rational vectors c^(t) and atoms ``"1"`` or ``"sqrt(m)"``; the dual is
written the same way, one rational vector y^(t) per atom (the dual is linear
in c, which is how udpm.lp.certify computed it).

The checker verifies, with ``fractions.Fraction`` only, and names the failed
condition first in its one-line message:

1. primal feasibility: x >= 0 and every constraint holds exactly;
2. dual feasibility on every column, slacks included: y_k <= 0 on ``<=`` rows
   and y_k >= 0 on ``>=`` rows (the reduced costs of the slack columns), and
   every reduced cost ``d_j = sum_t atom_t (c^(t)_j - sum_k a_kj y^(t)_k) >= 0``;
3. complementary slackness: x_j = 0 where d_j > 0, and a row is tight where
   its y_k != 0;
4. equal objectives, atom by atom: ``c^(t)·x = b·y^(t)`` and the stated value;
5. uniqueness, when the certificate says ``"unique": true``: every optimal
   point lies on the face F = {z >= 0 : A z = b, z_j = 0 where d_j > 0} of the
   standard form (one slack column per inequality row).  An optional witness
   ``"uniqueness_dual"`` u (one rational per constraint, default 0) must have
   b·u = 0 and -A_j·u >= 0 on every column with d_j = 0; then every z in F has
   z_j = 0 where -A_j·u > 0, and the remaining columns with d_j = 0 must be
   linearly independent, so F is the single point x.  With u = 0 this is strict
   complementarity plus an independent support.  ``"unique": false`` (or null)
   claims nothing and is not re-checked.

By weak duality (1)-(4) prove that x is optimal.  Signs of sums
``sum_t q_t sqrt(m_t)`` are decided exactly: rigorous integer bounds
``isqrt(m 4^P) / 2^P`` with growing P, and, for a sum whose bounds never
exclude 0, the theorem that square roots of distinct square-free integers
are linearly independent over Q (so the sum is 0 iff every coefficient is).
Atoms of any other form are reported as unsupported (a failure).

A file holds one certificate or ``{"claim": ..., "certificates": [...]}``.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

FORMAT = "udpm-lp-certificate/1"


# ---------------------------------------------------------------- export (harness side)


def to_certificate(certified, label: str = "") -> dict:
    """A Certified optimum (udpm.lp.certify) as a JSON-ready certificate with exact strings."""
    from udpm.lp.certify import split_coefficient

    lp = certified.lp
    atoms = list(certified.atoms)
    comps: list[list[list]] = [[] for _ in atoms]
    for j, v in lp.objective:
        for atom, q in split_coefficient(v).items():
            t = atoms.index(str(atom))
            comps[t].append([j, str(q)])
    x = certified.x
    values = []
    for t in range(len(atoms)):
        total = Fraction(0)
        for j, q in comps[t]:
            total += Fraction(q) * x[j]
        values.append(str(total))
    return {
        "format": FORMAT,
        "label": label or lp.name,
        "lp": lp.name,
        "variables": list(lp.names),
        "constraints": [
            {"name": r.name, "coeffs": [[j, str(a)] for j, a in r.coeffs], "sense": r.sense, "rhs": str(r.rhs)}
            for r in lp.rows
        ],
        "atoms": atoms,
        "objective": comps,
        "x": [str(v) for v in x],
        "y": [[str(v) for v in comp] for comp in certified.y_components],
        "objective_value": values,
        "unique": certified.unique,
        **(
            {"uniqueness_dual": [str(v) for v in certified.extra["uniqueness_dual"]]}
            if certified.unique and certified.extra.get("uniqueness_dual") is not None
            else {}
        ),
    }


def certificate_of(summary: dict, certs: Sequence[tuple[str, object]]) -> dict:
    """Result.certificate: a summary and a few representative certified LPs as (label, Certified) pairs."""
    return {"summary": summary, "lps": [to_certificate(c, label) for label, c in certs]}


def export_certificates(results_by_id: dict, directory: Path) -> list[Path]:
    """Write ``<claim id>.cert.json`` for each result whose ``certificate`` holds LP certificates.

    ``Result.certificate`` is ``{"summary": {...}, "lps": [certificate, ...]}`` (see
    proofs/universality/scan.py).  Files are written atomically; names are deterministic.
    """
    # harness side only: the checker below needs the standard library alone
    from udpm.internal.files import atomic_write

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for cid in sorted(results_by_id):
        cert = getattr(results_by_id[cid], "certificate", None)
        if not cert or not cert.get("lps"):
            continue
        doc = {"claim": cid, "summary": cert.get("summary", {}), "certificates": cert["lps"]}
        path = directory / f"{cid}.cert.json"
        atomic_write(path, json.dumps(doc, indent=1, sort_keys=True) + "\n")
        written.append(path)
    return written


# ---------------------------------------------------------------- the independent checker (stdlib only)


class Rejected(Exception):
    """A certificate does not verify; the message is one line."""


def _atom_root(atom: str) -> int | None:
    """m for 'sqrt(m)' with m square-free > 1; 1 for '1'; None otherwise."""
    if atom == "1":
        return 1
    if atom.startswith("sqrt(") and atom.endswith(")") and atom[5:-1].isdigit():
        m = int(atom[5:-1])
        if m > 1 and all(m % (p * p) for p in range(2, math.isqrt(m) + 1)):
            return m
    return None


def exact_sign(terms: list[tuple[Fraction, int]]) -> int:
    """Sign of sum q * sqrt(m) over distinct square-free m (m = 1 for rationals), decided exactly."""
    terms = [(q, m) for q, m in terms if q]
    if not terms:
        return 0
    for bits in (64, 256, 1024, 4096):
        scale = 1 << bits
        lo = hi = Fraction(0)
        for q, m in terms:
            if m == 1:
                lo += q
                hi += q
                continue
            r = math.isqrt(m * scale * scale)
            a, b = Fraction(r, scale), Fraction(r + 1, scale)  # a < sqrt(m) < b (m is not a square)
            lo += q * a if q > 0 else q * b
            hi += q * b if q > 0 else q * a
        if lo > 0:
            return 1
        if hi < 0:
            return -1
    # Bounds straddle 0 at 4096 bits: by linear independence over Q the sum is 0 iff all q are 0,
    # which is excluded above, so the sum is nonzero but tiny; refuse rather than guess.
    raise Rejected("a reduced cost is too close to 0 to sign with 4096-bit bounds")


def _exact(v: object, what: str) -> Fraction:
    """A certificate number: an exact string such as "3/4" or a JSON integer (never a float)."""
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise Rejected(f"malformed certificate: {what} = {v!r} is not an exact string or integer")
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise Rejected(f"malformed certificate: {what} = {v!r} is not a rational number") from None


def _index(j: object, n: int, what: str) -> int:
    if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n:
        raise Rejected(f"malformed certificate: {what} refers to variable {j!r}, not one of 0..{n - 1}")
    return j


def _rank(columns: list[dict[int, Fraction]]) -> int:
    """Rank of sparse columns {row: value}, by exact Gaussian elimination."""
    pivots: dict[int, dict[int, Fraction]] = {}  # leading row -> reduced column with that leading row
    rank = 0
    for col in columns:
        v = {k: a for k, a in col.items() if a}
        while v:
            lead = min(v)
            if lead not in pivots:
                pivots[lead] = v
                rank += 1
                break
            p = pivots[lead]
            f = v[lead] / p[lead]
            for k, a in p.items():
                nv = v.get(k, Fraction(0)) - f * a
                if nv:
                    v[k] = nv
                else:
                    v.pop(k, None)
    return rank


def check_certificate(cert: dict) -> None:
    """Raise Rejected (one line, starting with the failed condition) unless the certificate proves
    optimality of its x, and uniqueness too when it claims ``"unique": true``."""
    try:
        if cert.get("format") != FORMAT:
            raise Rejected(f"unknown format {cert.get('format')!r}")
        names = cert["variables"]
        nvar = len(names)
        x = [_exact(v, f"x[{j}]") for j, v in enumerate(cert["x"])]
        atoms = cert["atoms"]
        roots = [_atom_root(a) for a in atoms]
        if None in roots:
            raise Rejected(f"unsupported objective atom in {atoms}")
        if len(set(roots)) != len(roots):
            raise Rejected("objective atoms repeat")
        rows = cert["constraints"]
        ys = [[_exact(v, "y") for v in comp] for comp in cert["y"]]
        cs = [{_index(j, nvar, "objective"): _exact(q, "objective") for j, q in comp} for comp in cert["objective"]]
        coeffs = [
            [(_index(j, nvar, f"constraint {k}"), _exact(a, f"constraint {k}")) for j, a in r["coeffs"]]
            for k, r in enumerate(rows)
        ]
        rhs = [_exact(r["rhs"], f"rhs of constraint {k}") for k, r in enumerate(rows)]
        senses = [r["sense"] for r in rows]
        stated = cert.get("objective_value")
        stated = None if stated is None else [_exact(v, "objective_value") for v in stated]
        unique = cert.get("unique")
        witness = cert.get("uniqueness_dual")
        u = None if witness is None else [_exact(v, "uniqueness_dual") for v in witness]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Rejected(f"malformed certificate: {type(exc).__name__}: {exc}") from None
    m, natoms = len(rows), len(atoms)
    if len(x) != nvar:
        raise Rejected(f"malformed certificate: x has {len(x)} entries for {nvar} variables")
    if len(ys) != natoms or len(cs) != natoms or any(len(y) != m for y in ys):
        raise Rejected("malformed certificate: dual or objective does not match the atoms and constraints")
    if stated is not None and len(stated) != natoms:
        raise Rejected("malformed certificate: objective_value does not match the atoms")
    if not (unique is None or isinstance(unique, bool)):  # 1 == True in Python: a JSON 1 is not a boolean
        raise Rejected(f"malformed certificate: unique = {unique!r}")
    if u is not None and len(u) != m:
        raise Rejected(f"malformed certificate: uniqueness_dual has {len(u)} entries for {m} constraints")
    for k, sense in enumerate(senses):
        if sense not in ("<=", "=", ">="):
            raise Rejected(f"malformed certificate: constraint {k} has sense {sense!r}")

    def row_name(k: int) -> str:
        name = rows[k].get("name") or ""
        return f"constraint {k} '{name}'" if name else f"constraint {k}"

    # 1. primal feasibility
    for j, v in enumerate(x):
        if v < 0:
            raise Rejected(f"primal feasibility: x[{names[j]}] = {v} is negative")
    column: list[list[tuple[int, Fraction]]] = [[] for _ in range(nvar)]
    act = []
    for k in range(m):
        a_x = Fraction(0)
        for j, a in coeffs[k]:
            a_x += a * x[j]
            column[j].append((k, a))
        act.append(a_x)
        ok = {"<=": a_x <= rhs[k], ">=": a_x >= rhs[k], "=": a_x == rhs[k]}[senses[k]]
        if not ok:
            raise Rejected(f"primal feasibility: {row_name(k)} gives {a_x} {senses[k]} {rhs[k]} false")
    # 2. dual feasibility: the slack columns (signs of y), then every variable's reduced cost
    y_sign = [exact_sign([(ys[t][k], roots[t]) for t in range(natoms)]) for k in range(m)]
    for k in range(m):
        if (senses[k] == "<=" and y_sign[k] > 0) or (senses[k] == ">=" and y_sign[k] < 0):
            raise Rejected(
                f"dual feasibility: y of {row_name(k)} has the wrong sign (the reduced cost of its slack is negative)"
            )
    d_sign = []
    for j in range(nvar):
        terms = []
        for t in range(natoms):
            d = cs[t].get(j, Fraction(0)) - sum((a * ys[t][k] for k, a in column[j]), Fraction(0))
            terms.append((d, roots[t]))
        d_sign.append(exact_sign(terms))
        if d_sign[j] < 0:
            raise Rejected(f"dual feasibility: reduced cost of {names[j]} is negative")
    # 3. complementary slackness
    for j in range(nvar):
        if d_sign[j] > 0 and x[j] != 0:
            raise Rejected(f"complementary slackness: {names[j]} = {x[j]} != 0 but its reduced cost is > 0")
    for k in range(m):
        if y_sign[k] != 0 and act[k] != rhs[k]:
            raise Rejected(f"complementary slackness: {row_name(k)} is not tight ({act[k]} vs {rhs[k]}) but y != 0")
    # 4. equal objectives, atom by atom
    for t in range(natoms):
        primal = sum((q * x[j] for j, q in cs[t].items()), Fraction(0))
        dual = sum((rhs[k] * ys[t][k] for k in range(m)), Fraction(0))
        if primal != dual:
            raise Rejected(f"equal objectives: primal {primal} != dual {dual} (atom {atoms[t]})")
        if stated is not None and stated[t] != primal:
            raise Rejected(f"equal objectives: stated objective {stated[t]} != c·x = {primal} (atom {atoms[t]})")
    # 5. uniqueness of the optimum, when claimed: over the standard-form columns (variables, then slacks)
    if unique is not True:
        return
    cols: list[tuple[str, dict[int, Fraction], int]] = []  # (label, column, sign of its reduced cost)
    for j in range(nvar):
        col: dict[int, Fraction] = {}
        for k, a in column[j]:
            col[k] = col.get(k, Fraction(0)) + a
        cols.append((str(names[j]), col, d_sign[j]))
    for k in range(m):
        if senses[k] != "=":
            sgn = 1 if senses[k] == "<=" else -1
            cols.append((f"slack of {row_name(k)}", {k: Fraction(sgn)}, -sgn * y_sign[k]))
    uu = u if u is not None else [Fraction(0)] * m
    bu = sum((rhs[k] * uu[k] for k in range(m)), Fraction(0))
    if bu != 0:
        raise Rejected(f"uniqueness: the witness uniqueness_dual has b·u = {bu} != 0")
    free = []
    for label, col, sgn in cols:
        if sgn != 0:
            continue
        au = sum((a * uu[k] for k, a in col.items()), Fraction(0))
        if au > 0:
            raise Rejected(f"uniqueness: the witness has -A_j·u < 0 at {label} (reduced cost 0)")
        if au == 0:
            free.append(col)
    if _rank(free) != len(free):
        raise Rejected(
            f"uniqueness: claimed but not proved: the {len(free)} columns with reduced cost 0 "
            "left free by the witness are linearly dependent (the optimum may not be unique)"
        )


def check_file(path: Path) -> list[str]:
    """One-line reasons for every certificate in the file that fails (empty when all verify)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return [f"{path}: cannot read: {exc}"]
    certs = doc.get("certificates", [doc]) if isinstance(doc, dict) else None
    if not isinstance(certs, list) or not certs:
        return [f"{path}: no certificate found"]
    failures = []
    for i, cert in enumerate(certs):
        try:
            if not isinstance(cert, dict):
                raise Rejected("certificate is not an object")
            check_certificate(cert)
        except Rejected as exc:
            label = cert.get("label", i) if isinstance(cert, dict) else i
            failures.append(f"{path}: certificate {label}: {exc}")
    return failures


def main(argv: list[str]) -> int:
    """Re-check exported certificate files with the standard library alone; 0 all verify, 1 some fail, 2 usage."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # one line, exit 2
            print(f"{self.prog}: error: {message}", file=sys.stderr)
            raise SystemExit(2)

    parser = Parser(
        prog="python -m udpm.lp.certificates",
        description="Re-check exported LP certificates (primal and dual feasibility, complementary slackness, equal "
        "objectives, uniqueness where claimed) with Python's fractions and json only.",
        epilog="exit status: 0 every certificate verifies; 1 some certificate fails or a file is unreadable (each "
        "named in one line); 2 usage",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="certificate files, e.g. build/certificates/*.json")
    try:
        argv = parser.parse_args(argv).files
    except SystemExit as exc:
        return int(exc.code or 0)
    failures = []
    count = 0
    for name in argv:
        failures += check_file(Path(name))
        count += 1
    for line in failures:
        print(line)
    if not failures:
        print(f"all certificates in {count} file(s) verify")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
