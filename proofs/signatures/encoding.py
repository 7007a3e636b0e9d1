"""The z3 encoding behind proofs/signatures/optimal_mechanisms.py: optimal mechanisms and their signatures (grs2011
Section 5.3,
grs2009 Section 5), the search for a counterexample to a lemma, and its exact re-check.

For one n and one rational alpha in (0, 1), a z3 problem in linear real
arithmetic (with Booleans) describes "X is an optimal mechanism of a
full-support, strictly legal user, and its signature breaks the lemma":

* the mechanism: reals x_ij, i, j in 0..n, with the LP constraints (4)-(7);
* the signature: Booleans D/U/S/Z per entry (i, j), i < n, each tied to x by
  its definition (grs2011 Section 5.3: both positive and x_(i+1)j = a x_ij, ...);
* the user: objective C_ij = p_i l(i, j) = c_i(|i-j|).  A user has full
  support and a strictly legal loss iff each c_i is strictly increasing in the
  distance (p_i > 0 and l(i, .) = g_i(|i - .|) with g_i strictly increasing; and
  conversely p_i = 1/(n+1), l = (n+1) c).  Adding a constant to a row of l
  changes the objective by a constant (rows of X sum to 1), so c_i(0) = 0 WLOG.
  The set of such objectives is therefore described by linear constraints;
* optimality by LP duality: X is optimal iff there are duals u_i (free, for
  (6)), lam_ij >= 0 (for (4)), mu_ij >= 0 (for (5)) with reduced costs
  r_ij = C_ij - u_i - lam_ij + a lam_(i-1)j + a mu_ij - mu_(i-1)j >= 0 and
  complementary slackness (lam_ij > 0 only where (4) binds, mu_ij > 0 only
  where (5) binds, r_ij = 0 where x_ij > 0), each a linear disjunction;
* vertex (Lemmas 5.8-5.10): decided EXACTLY, never assumed.  Every model is
  checked with FLINT (rank of its binding rows = (n+1)^2, proofs/signatures/vertices.py).  A non-vertex
  model x is excluded with cuts that only remove non-vertices: for each vector
  d of a basis of the null space of x's binding rows, some constraint c with
  c.d != 0 must bind (a point whose binding rows are all orthogonal to d has d
  in its null space, so is no vertex either).  z3 is then asked again; the
  number of excluded models is returned.

Each lemma's conclusion is a :class:`Property`: its negation as a formula over the
signature Booleans and the same test in exact Python, with the lemma's hypotheses;
the lemmas' properties are proofs/signatures/lemmas.py (``PROPERTIES``).

Before any query, its premises are shown satisfiable (udpm.smt.solvers.premise_witness):
the witness is re-checked exactly (feasible, dual certificate, strictly legal
user; for vertex lemmas moved exactly to a vertex of its optimal face) and
returned as its signature, a canonical text.  Every search runs in a fresh z3
context, so its models do not depend on what the process solved before
(notes and values are the same whatever the run order, filter or --jobs).

``unsat`` for the negation is the proof for that (n, alpha); ``unknown``
raises SolverTimeout (inconclusive).  A model is a counterexample only after
an exact re-check in Fractions: feasibility, the signature recomputed by
udpm.core.signatures, the user's loss strictly legal (udpm.core.users), dual
feasibility and complementary slackness (so the mechanism is optimal), and the
vertex rank where the lemma needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import z3

from proofs.signatures.vertices import is_vertex, purify, vertex_cuts
from udpm.core import linalg
from udpm.core.signatures import DOWN, SLACK, UP, ZERO, Signature, render, signature
from udpm.core.users import Loss
from udpm.errors import SolverTimeout, VacuousPremise
from udpm.smt.solvers import decide, premise_witness

F = Fraction
CEGAR_CAP = 2000  # non-vertex models excluded before giving up (inconclusive)


# --- the encoding ------------------------------------------------------------------------------


@dataclass
class Encoding:
    """One (n, alpha) instance: the variables and the assertions shared by every lemma."""

    n: int
    a: Fraction
    optimal: bool = True
    full_support: bool = True
    strict: bool = True
    x: list = field(default_factory=list)
    D: list = field(default_factory=list)
    U: list = field(default_factory=list)
    S: list = field(default_factory=list)
    Z: list = field(default_factory=list)
    zc: list = field(default_factory=list)
    facts: list = field(default_factory=list)

    def __post_init__(self) -> None:
        n, a = self.n, z3.RealVal(str(self.a))
        N = range(n + 1)
        self.x = [[z3.Real(f"x_{i}_{j}") for j in N] for i in N]
        x, f = self.x, self.facts
        f += [x[i][j] >= 0 for i in N for j in N]
        f += [z3.Sum(x[i]) == 1 for i in N]
        for i in range(n):
            for j in N:
                f += [x[i][j] - a * x[i + 1][j] >= 0, x[i + 1][j] - a * x[i][j] >= 0]
        for name, lst in (("D", self.D), ("U", self.U), ("S", self.S), ("Z", self.Z)):
            lst.extend([[z3.Bool(f"{name}_{i}_{j}") for j in N] for i in range(n)])
        for i in range(n):
            for j in N:
                p, q = x[i][j], x[i + 1][j]
                f.append(self.D[i][j] == z3.And(p > 0, q == a * p))
                f.append(self.U[i][j] == z3.And(p > 0, p == a * q))
                f.append(self.S[i][j] == z3.And(p > 0, q > a * p, p > a * q))
                f.append(self.Z[i][j] == z3.And(p == 0, q == 0))
        self.zc = [z3.Bool(f"zc_{j}") for j in N]
        f += [self.zc[j] == (x[0][j] == 0) for j in N]
        if self.optimal:
            self._optimality()

    def _optimality(self) -> None:
        n, a, x, f = self.n, z3.RealVal(str(self.a)), self.x, self.facts
        N = range(n + 1)
        self.c = [[z3.Real(f"c_{i}_{d}") for d in N] for i in N]
        self.u = [z3.Real(f"u_{i}") for i in N]
        self.lam = [[z3.Real(f"lam_{i}_{j}") for j in N] for i in range(n)]
        self.mu = [[z3.Real(f"mu_{i}_{j}") for j in N] for i in range(n)]
        self.support = [z3.Bool(f"supp_{i}") for i in N]
        f.append(z3.Or(self.support))  # a prior is a distribution: some p_i > 0
        for i in N:
            f.append(self.c[i][0] == 0)
            if self.full_support:
                f.append(self.support[i])
            # a supported row's loss is not constant (non-strict variants stay meaningful users)
            f.append(z3.Implies(self.support[i], self.c[i][max(i, n - i)] > 0))
            for d in range(n):
                step = self.c[i][d + 1] > self.c[i][d] if self.strict else self.c[i][d + 1] >= self.c[i][d]
                # p_i = 0 makes the whole row of the objective 0.
                f.append(z3.If(self.support[i], step, self.c[i][d + 1] == 0))
        for i in range(n):
            for j in N:
                f += [self.lam[i][j] >= 0, self.mu[i][j] >= 0]
                f.append(z3.Or(self.lam[i][j] == 0, x[i][j] - a * x[i + 1][j] == 0))
                f.append(z3.Or(self.mu[i][j] == 0, x[i + 1][j] - a * x[i][j] == 0))
        for i in N:
            for j in N:
                r = self.reduced_cost(i, j)
                f += [r >= 0, z3.Or(r == 0, x[i][j] == 0)]

    def reduced_cost(self, i: int, j: int):
        a = z3.RealVal(str(self.a))
        r = self.c[i][abs(i - j)] - self.u[i]
        if i < self.n:
            r = r - self.lam[i][j] + a * self.mu[i][j]
        if i > 0:
            r = r + a * self.lam[i - 1][j] - self.mu[i - 1][j]
        return r

    # counting terms
    def n_down(self, i: int):
        return z3.Sum([z3.If(d, 1, 0) for d in self.D[i]])

    def n_slack_row(self, i: int):
        return z3.Sum([z3.If(s, 1, 0) for s in self.S[i]])

    def n_slack(self):
        return z3.Sum([self.n_slack_row(i) for i in range(self.n)])

    def n_zero_cols(self):
        return z3.Sum([z3.If(zc, 1, 0) for zc in self.zc])

    def col_count(self, lst, j: int):
        return z3.Sum([z3.If(lst[i][j], 1, 0) for i in range(self.n)])

    def s_at_most_z(self):
        """#S <= #zero columns: grs2011 Lemma 5.8's conclusion.  Asserted only by checks whose claim declares
        depends_on that lemma (Lemma 5.9 uses it, as its proof does); never by Lemma 5.8's own check."""
        return self.n_slack() <= self.n_zero_cols()

    def binding_terms(self) -> list:
        """Every constraint of (4), (5), (7) as 'binds' formulas, in a fixed order."""
        a, x, n = z3.RealVal(str(self.a)), self.x, self.n
        terms = [x[i][j] == 0 for i in range(n + 1) for j in range(n + 1)]
        for i in range(n):
            for j in range(n + 1):
                terms += [x[i][j] - a * x[i + 1][j] == 0, x[i + 1][j] - a * x[i][j] == 0]
        return terms


@dataclass(frozen=True)
class Property:
    """A lemma's conclusion: its z3 negation and the same test in exact Python, with the lemma's hypotheses.

    ``vertex``: X is a vertex, decided by the exact rank test (never by a counting condition).
    ``s_at_most_z``: the check may assume grs2011 Lemma 5.8 (#S <= #Z at optimal vertices) as a lemma; only a
    claim that declares depends_on a Lemma 5.8 sets it."""

    negation: Callable[[Encoding], object]
    holds: Callable[[Signature], bool]
    optimal: bool = True  # hypothesis: X is optimal for a full-support strictly legal user
    vertex: bool = False  # hypothesis: X is a vertex
    s_at_most_z: bool = False


def model_fraction(model, term) -> Fraction:
    v = model.eval(term, model_completion=True)
    return F(v.numerator_as_long(), v.denominator_as_long())


# --- counterexamples and witnesses, re-checked exactly -------------------------------------------


@dataclass
class Counterexample:
    n: int
    a: Fraction
    x: list[list[Fraction]]
    prior: list[Fraction] | None
    loss: list[list[Fraction]] | None
    sig: Signature

    def __str__(self) -> str:
        s = f"n={self.n}, alpha={self.a}: X={linalg.fmt_matrix(self.x)} has signature {render(self.sig)!r}"
        if self.prior is not None:
            s += (
                f", optimal (exact dual certificate) for prior {linalg.fmt_vector(self.prior)} and loss "
                f"{linalg.fmt_matrix(self.loss)}"
            )
        return s.replace("\n", "/")


def exact_user(e: Encoding, model, x: list[list[Fraction]]) -> tuple[list[Fraction], list[list[Fraction]]]:
    """Re-check in Fractions that x is optimal (dual certificate of the model) for the model's user; the user."""
    n, a = e.n, e.a
    assert all(v >= 0 for r in x for v in r) and all(sum(r) == 1 for r in x)
    signature(x, a)  # raises if x is not alpha-DP
    c = [[model_fraction(model, e.c[i][d]) for d in range(n + 1)] for i in range(n + 1)]
    u = [model_fraction(model, t) for t in e.u]
    lam = [[model_fraction(model, t) for t in r] for r in e.lam]
    mu = [[model_fraction(model, t) for t in r] for r in e.mu]
    for i in range(n):
        for j in range(n + 1):
            assert lam[i][j] >= 0 and mu[i][j] >= 0
            assert lam[i][j] == 0 or x[i][j] == a * x[i + 1][j]
            assert mu[i][j] == 0 or x[i + 1][j] == a * x[i][j]
    for i in range(n + 1):
        for j in range(n + 1):
            r = c[i][abs(i - j)] - u[i]
            if i < n:
                r += -lam[i][j] + a * mu[i][j]
            if i > 0:
                r += a * lam[i - 1][j] - mu[i - 1][j]
            assert r >= 0 and (r == 0 or x[i][j] == 0), "dual certificate fails"
    support = [z3.is_true(model.eval(t, model_completion=True)) for t in e.support]
    k = sum(support)
    prior = [F(1, k) if s else F(0) for s in support]
    loss = [[c[i][abs(i - j)] * k if support[i] else F(abs(i - j)) for j in range(n + 1)] for i in range(n + 1)]
    legal = Loss.from_matrix(loss)
    assert legal.is_legal() and (legal.is_strictly_legal() or not e.strict)
    assert all(p > 0 for p in prior) or not e.full_support
    return prior, loss


def _exact_check(e: Encoding, model, prop: Property, x: list[list[Fraction]]) -> Counterexample:
    """Re-check a model in Fractions; raise AssertionError if z3's model is not a genuine counterexample."""
    sig = signature(x, e.a)
    assert not prop.holds(sig), "z3 model satisfies the property after all"
    if prop.vertex:
        assert is_vertex(x, e.a)
    if not prop.optimal:
        assert all(v >= 0 for r in x for v in r) and all(sum(r) == 1 for r in x)
        return Counterexample(e.n, e.a, x, None, None, sig)
    prior, loss = exact_user(e, model, x)
    return Counterexample(e.n, e.a, x, prior, loss, sig)


def _x_of(e: Encoding, value: Callable) -> list[list[Fraction]]:
    return [[value(e.x[i][j]) for j in range(e.n + 1)] for i in range(e.n + 1)]


def witness(e: Encoding, prop: Property, premises: list, timeout_s: float) -> str:
    """The premises have a model (udpm.smt.solvers.premise_witness, VacuousPremise if not); re-checked exactly and, for
    a
    vertex lemma, moved exactly to a vertex of its optimal face.  Returns the witness's signature (canonical)."""
    what = f"n={e.n} alpha={e.a}"
    values = premise_witness(premises, timeout_s, what)
    x = _x_of(e, lambda t: F(values.get(str(t), "0")))
    if prop.vertex:
        x = purify(x, e.a)
        assert is_vertex(x, e.a)
    if prop.optimal:
        model = decide(
            [*premises, *[e.x[i][j] == z3.RealVal(str(x[i][j])) for i in range(e.n + 1) for j in range(e.n + 1)]],
            timeout_s,
        ).model
        if model is None:
            raise VacuousPremise(f"{what}: the purified witness is not a model of the premises")
        exact_user(e, model, x)
    return render(signature(x, e.a)).replace("\n", "/")


def constant_encoding(sig: Signature) -> Encoding:
    """An Encoding whose signature Booleans are the constants of ``sig`` (to evaluate a negation exactly)."""
    n = len(sig)
    e = Encoding(n, F(1, 2), optimal=False)
    for name, sym in (("D", DOWN), ("U", UP), ("S", SLACK), ("Z", ZERO)):
        setattr(e, name, [[z3.BoolVal(sig[i][j] == sym) for j in range(n + 1)] for i in range(n)])
    e.zc = [z3.BoolVal(all(sig[i][j] == ZERO for i in range(n))) for j in range(n + 1)]
    return e


def conclusion_of(negation: Callable[[Encoding], object]) -> Callable[[Signature], bool]:
    """The exact test of the conclusion whose negation is ``negation`` (an injected, possibly false, variant)."""
    return lambda sig: not z3.is_true(z3.simplify(negation(constant_encoding(sig))))


@dataclass
class Search:
    """The outcome of one (n, alpha) search: a counterexample or None, the non-vertex models excluded, and the
    premises' witness (a signature, canonical)."""

    counterexample: Counterexample | None
    excluded: int
    witness: str


def search(
    n: int,
    a: Fraction,
    prop: Property,
    timeout_s: float,
    *,
    optimal: bool | None = None,
    full_support: bool = True,
    strict: bool = True,
    vertex: bool | None = None,
    negation: Callable | None = None,
    premise: Callable | None = None,
) -> Search:
    """The lemma at (n, alpha): no counterexample (z3 unsat) or an exactly re-checked one.

    ``optimal``, ``full_support``, ``strict``, ``vertex`` change hypotheses and ``negation`` the conclusion (false
    variants for the tests); ``premise`` adds a hypothesis (a contradictory one must raise VacuousPremise)."""
    prop = Property(
        negation or prop.negation,
        prop.holds if negation is None else conclusion_of(negation),
        prop.optimal if optimal is None else optimal,
        prop.vertex if vertex is None else vertex,
        prop.s_at_most_z,
    )
    e = Encoding(n, a, optimal=prop.optimal, full_support=full_support, strict=strict)
    premises = list(e.facts)
    if prop.s_at_most_z and prop.vertex:
        premises.append(e.s_at_most_z())
    if premise is not None:
        premises.append(premise(e))
    seen = witness(e, prop, premises, timeout_s)
    base = z3.And([*premises, prop.negation(e)])  # one term: z3's Python layer is slow per assertion
    cuts: list = []
    terms = e.binding_terms()
    for excluded in range(CEGAR_CAP + 1):
        out = decide([base, *cuts], timeout_s)
        if out.unsat:
            return Search(None, excluded, seen)
        x = _x_of(e, lambda t, m=out.model: model_fraction(m, t))
        if prop.vertex and not is_vertex(x, a):
            cuts += vertex_cuts(x, a, terms)
            continue
        return Search(_exact_check(e, out.model, prop, x), excluded, seen)
    raise SolverTimeout(f"more than {CEGAR_CAP} non-vertex models at n={n}, alpha={a}")
