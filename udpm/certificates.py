"""LP optimality certificates as JSON, and an independent checker that needs only the standard library.

    python -m udpm.certificates FILE...     # exit 0 when every certificate verifies, 1 otherwise

A certificate (format ``udpm-lp-certificate/1``) holds the LP ``minimize c·x
subject to a_k·x (<=, =, >=) b_k, x >= 0`` as exact strings, a primal point
x, a dual y (one value per constraint) and the objective value.  The
objective may be irrational: it is written as ``c = sum_t atom_t * c^(t)``
with rational vectors c^(t) and atoms ``"1"`` or ``"sqrt(m)"``; the dual is
written the same way, one rational vector y^(t) per atom (the dual is linear
in c, which is how udpm.certify computed it).

The checker verifies, with ``fractions.Fraction`` only:

1. primal feasibility: x >= 0 and every constraint holds exactly;
2. dual feasibility: y_k <= 0 on ``<=`` rows, y_k >= 0 on ``>=`` rows, and
   every reduced cost ``d_j = sum_t atom_t (c^(t)_j - sum_k a_kj y^(t)_k) >= 0``;
3. equal objectives, atom by atom: ``c^(t)·x = b·y^(t)`` (and the stated value).

By weak duality (1)-(3) prove that x is optimal.  Signs of sums
``sum_t q_t sqrt(m_t)`` are decided exactly: rigorous integer bounds
``isqrt(m 4^P) / 2^P`` with growing P, and, for a sum whose bounds never
exclude 0, the theorem that square roots of distinct square-free integers
are linearly independent over Q (so the sum is 0 iff every coefficient is).
Atoms of any other form are reported as unsupported (a failure).
The ``unique`` flag is recorded as the harness decided it; the checker does
not re-verify uniqueness.

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
    """A Certified optimum (udpm.certify) as a JSON-ready certificate with exact strings."""
    from .certify import split_coefficient

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
    }


def certificate_of(summary: dict, certs: Sequence[tuple[str, object]]) -> dict:
    """Result.certificate: a summary and a few representative certified LPs as (label, Certified) pairs."""
    return {"summary": summary, "lps": [to_certificate(c, label) for label, c in certs]}


def export_certificates(results_by_id: dict, directory: Path) -> list[Path]:
    """Write ``<claim id>.cert.json`` for each result whose ``certificate`` holds LP certificates.

    ``Result.certificate`` is ``{"summary": {...}, "lps": [certificate, ...]}`` (see
    proofs/universality.py).  Files are written atomically; names are deterministic.
    """
    from .expectations import atomic_write  # harness side only: the checker below needs the standard library alone

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


def check_certificate(cert: dict) -> None:
    """Raise Rejected (one line) unless the certificate proves optimality of its x."""
    try:
        if cert.get("format") != FORMAT:
            raise Rejected(f"unknown format {cert.get('format')!r}")
        names = cert["variables"]
        nvar = len(names)
        x = [Fraction(v) for v in cert["x"]]
        atoms = cert["atoms"]
        roots = [_atom_root(a) for a in atoms]
        if None in roots:
            raise Rejected(f"unsupported objective atom in {atoms}")
        if len(set(roots)) != len(roots):
            raise Rejected("objective atoms repeat")
        rows = cert["constraints"]
        ys = [[Fraction(v) for v in comp] for comp in cert["y"]]
        cs = [{int(j): Fraction(q) for j, q in comp} for comp in cert["objective"]]
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise Rejected(f"malformed certificate: {type(exc).__name__}: {exc}") from None
    if len(x) != nvar:
        raise Rejected(f"x has {len(x)} entries for {nvar} variables")
    if len(ys) != len(atoms) or len(cs) != len(atoms) or any(len(y) != len(rows) for y in ys):
        raise Rejected("dual or objective does not match the atoms and constraints")
    # 1. primal feasibility
    for j, v in enumerate(x):
        if v < 0:
            raise Rejected(f"x[{names[j]}] = {v} is negative")
    column: list[list[tuple[int, Fraction]]] = [[] for _ in range(nvar)]
    for k, row in enumerate(rows):
        act = Fraction(0)
        for j, a in row["coeffs"]:
            a = Fraction(a)
            act += a * x[j]
            column[j].append((k, a))
        rhs, sense = Fraction(row["rhs"]), row["sense"]
        ok = {"<=": act <= rhs, ">=": act >= rhs, "=": act == rhs}.get(sense)
        if ok is None:
            raise Rejected(f"constraint {k} has sense {sense!r}")
        if not ok:
            raise Rejected(f"primal infeasible: constraint {k} ({row.get('name', '')}) gives {act} {sense} {rhs} false")
        # 2a. dual sign constraints
        s = exact_sign([(ys[t][k], roots[t]) for t in range(len(atoms))])
        if (sense == "<=" and s > 0) or (sense == ">=" and s < 0):
            raise Rejected(f"dual infeasible: y of constraint {k} ({row.get('name', '')}) has the wrong sign")
    # 2b. reduced costs
    for j in range(nvar):
        terms = []
        for t in range(len(atoms)):
            d = cs[t].get(j, Fraction(0)) - sum((a * ys[t][k] for k, a in column[j]), Fraction(0))
            terms.append((d, roots[t]))
        if exact_sign(terms) < 0:
            raise Rejected(f"dual infeasible: reduced cost of {names[j]} is negative")
    # 3. objectives, atom by atom
    stated = cert.get("objective_value")
    for t in range(len(atoms)):
        primal = sum((q * x[j] for j, q in cs[t].items()), Fraction(0))
        dual = sum((Fraction(row["rhs"]) * ys[t][k] for k, row in enumerate(rows)), Fraction(0))
        if primal != dual:
            raise Rejected(f"objective gap: primal {primal} != dual {dual} (atom {atoms[t]})")
        if stated is not None and Fraction(stated[t]) != primal:
            raise Rejected(f"stated objective {stated[t]} != c·x = {primal} (atom {atoms[t]})")


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
    if not argv:
        print("usage: python -m udpm.certificates FILE...", file=sys.stderr)
        return 2
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
