"""Every claim the harness checks, declared once, with its id from shared/CLAIMS.md.

Each entry gives the place in the paper, a one-sentence statement, the
evidence kind the check aims for, and the claims its argument relies on
(``depends_on``: the claim's status is capped by theirs, see udpm.evidence).  The checking function is bound with
``@checks(id)`` in proofs/ or experiments/; a claim without one is pending.
"""

from __future__ import annotations

from .claims import Claim

C = Claim

CLAIMS: tuple[Claim, ...] = (
    # grs2011
    C('grs2011.ex2.1', 'Example 2.1', 'The alpha-geometric mechanism is alpha-DP.', 'all-n'),
    C('grs2011.ex2.2', 'Example 2.2', 'Truncated geometric: stated probabilities, rows sum to 1, alpha-DP, and it is a remap of the geometric.', 'all-n'),
    C('grs2011.fig1a', 'Figure 1(a)', '1/2-geometric, n=5, outputs -1..6.', 'table'),
    C('grs2011.fig1b', 'Figure 1(b)', 'Truncated 1/2-geometric, n=5.', 'table'),
    C('grs2011.ex2.3', 'Example 2.3', 'Loss 2a/(1+a) at face value, a^((n+1)/2)/(1+a) after the 0/n remap (n odd).', 'all-n, symbolic'),
    C('grs2011.bayes-remap', 'Section 2.3', 'A deterministic Bayes-posterior remap is optimal among randomized remaps.', 'all-n induction + sampled'),
    C('grs2011.lp', 'Section 5.2', 'The user-specific LP (3)-(7) captures optimal direct mechanisms.', 'definitional, tested'),
    C('grs2011.lemma5.2', 'Lemma 5.2', 'Direct mechanisms suffice.', 'all-n induction + sampled'),
    C('grs2011.lemma5.3', 'Lemma 5.3', '(a) no column mixes 0 and non-0 entries; (b) no row is all down/0 or all up/0.', 'all-n induction + bounded SMT'),
    C('grs2011.lemma5.4', 'Lemma 5.4', 'Same signature iff same binding constraints.', 'bounded'),
    C('grs2011.lemma5.5', 'Lemma 5.5', 'Optimal direct mechanisms of full-support, strictly legal users have unimodal signatures.', 'bounded, SMT'),
    C('grs2011.lemma5.6', 'Lemma 5.6', 'Rows of the signature are non-decreasing; (b) strictly unimodal rows are followed by larger or S rows.', 'bounded, SMT'),
    C('grs2011.lemma5.7', 'Lemma 5.7', 'Some optimal mechanism is a vertex.', 'bounded'),
    C('grs2011.lemma5.8', 'Lemma 5.8', 'At an optimal vertex, #S entries <= #zero columns.', 'bounded, SMT'),
    C('grs2011.lemma5.9', 'Lemma 5.9', 'P1-P3 column structure of optimal vertex signatures.', 'bounded, SMT', depends_on=('grs2011.lemma5.8',)),
    C('grs2011.lemma5.10', 'Lemma 5.10', 'Every optimal vertex is a deterministic remap of the truncated geometric mechanism.', 'bounded', depends_on=('grs2011.lemma5.9',)),
    C('grs2011.lemma5.10.converse', 'Lemma 5.10, converse (issue 11; not stated in the paper)', 'Which candidate vertices T·D are the unique optimum of some full-support strictly legal user: exactly the nondecreasing D, C(2n+1, n) of them.', 'bounded, SMT + certified unique optima'),
    C('grs2011.lemma5.11', 'Lemma 5.11', 'Extends to all priors and legal losses (limit argument).', 'bounded over every user (zeros in the prior, non-strict losses) + sampled'),
    C('grs2011.lemma5.12', 'Lemma 5.12', 'Uniform prior, loss 1+g|j-i|(g small): the truncated geometric mechanism is the unique optimal direct mechanism.', 'bounded, exact LP uniqueness'),
    C('grs2011.thm3.2', 'Theorem 3.2', 'X is universally utility-maximizing iff some remap of X is the truncated geometric mechanism.', 'bounded + sampled'),
    C('grs2011.cor3.3', 'Corollary 3.3', 'The geometric and the truncated geometric mechanisms are universally utility-maximizing.', 'bounded + sampled'),
    C('grs2011.cor3.4', 'Corollary 3.4', 'Range N: universally utility-maximizing iff a permutation of the truncated geometric mechanism.', 'bounded'),
    C('grs2011.fig3', 'Figure 3(a),(b)', 'Optimal mechanism, n=5, a=1/2, prior (1/4,0,1/4,0,1/4,1/4), loss |i-j|^1.5, and its signature.', 'table + optimality certificate'),
    C('grs2011.fig4', 'Figure 4', 'Signature of the truncated geometric mechanism, n=5.', 'table'),
    C('grs2011.prop6.1', 'Proposition 6.1', 'Averaging yields an oblivious, DP mechanism no worse under (9).', 'bounded (small D, n)'),
    C('grs2011.appC', 'Appendix C, Figure 6', 'No universally optimal mechanism for priors over databases (D={0,1}, n=3, a=1/2); Figure 6 mechanisms.', 'bounded, SMT + table'),
    C('grs2011.exA.1', 'Example A.1', 'N=1, a=1/2, uniform prior, binary loss: geometric 1/3, Laplace 1/(2 sqrt 2) ~ .35.', 'table, symbolic'),
    C('grs2011.thmA.2', 'Theorem A.2', 'Rounded Laplace pmf = (1+a)/(2 sqrt a) x geometric pmf off zero; factor 1.06 at a=0.5.', 'all-n, symbolic'),
    C('grs2011.appB', 'Appendix B, Figure 5', 'A vertex for n=3, a=1/2 that is not a remap of the truncated geometric, optimal for the illegal loss shown.', 'table + bounded'),
    # grs2009
    C('grs2009.ex2.2', 'Example 2.2', 'Post-processing example (as grs2011.ex2.3).', 'all-n'),
    C('grs2009.thm3.1', 'Theorem 3.1', "The remapped geometric mechanism minimizes every user's loss.", 'bounded + sampled'),
    C('grs2009.lemma5.4', 'Lemma 5.4', 'No constraint-matrix row is all down or all up.', 'all-n induction + bounded'),
    C('grs2009.lemma5.5', 'Lemma 5.5', 'Row pattern: downs, at most one S, ups.', 'bounded, SMT'),
    C('grs2009.lemma5.6', 'Lemma 5.6', 'Row i+1 has at least one more down than row i unless it has an S.', 'bounded, SMT'),
    C('grs2009.cor5.7', 'Corollary 5.7', '#S >= #Z-columns for optimal mechanisms (compare grs2011.lemma5.8, which says <=).', 'bounded'),
    C('grs2009.lemma5.8', 'Lemma 5.8', '#S = #Z-columns at an optimal vertex.', 'bounded'),
    C('grs2009.lemma5.9', 'Lemma 5.9', 'Column pattern of the constraint matrix.', 'bounded', depends_on=('grs2009.lemma5.8',)),
    C('grs2009.lemma5.10', 'Lemma 5.10', 'Column pattern of a deterministic remap of G.', 'all-n', depends_on=('grs2011.ex2.2',)),
    C('grs2009.lemma5.11', 'Lemma 5.11', 'A remap of G reproduces the constraint matrix.', 'bounded', depends_on=('grs2009.lemma5.8', 'grs2009.lemma5.9')),
    C('grs2009.fig2', 'Figures 2, 3, Example 5.2', 'Optimal mechanism, its constraint matrix (with Z), and the stated remap of G producing it.', 'table'),
    C('grs2009.sec6.1', 'Section 6.1', 'Geometric loss a/(1+a) vs Laplace sqrt(a)/2.', 'all-n, symbolic'),
    C('grs2009.thm6.1', 'Theorem 6.1', 'Uniqueness up to permutation among range-N mechanisms.', 'bounded'),
    C('grs2009.prop6.2', 'Proposition 6.2', 'Oblivious mechanisms suffice under (9).', 'bounded'),
    C('grs2009.thm6.3', 'Theorem 6.3, Lemma 6.4, Figures 4-5', 'Priors over databases: no simultaneously optimal mechanism.', 'bounded, SMT + table'),
    C('grs2009.fn3', 'Section 5, footnote 3', 'The row structure of optimal vertices (Lemmas 5.5-5.9) extends to priors without full support and to losses that are not strictly monotone, by perturbation and a limiting argument.', 'bounded, exact LP certificate'),
    # gs2010
    C('gs2010.def1', 'Definition 1', 'Geometric mechanism pmf sums to 1 and is alpha-DP.', 'all-n'),
    C('gs2010.fig1', 'Figure 1', 'Geometric distribution, a=0.2, result 5.', 'table'),
    C('gs2010.def4', 'Definition 4', 'Range-restricted geometric is derivable from the geometric mechanism and vice versa.', 'all-n', depends_on=('grs2011.ex2.2',)),
    C('gs2010.table1', 'Table 1(a),(b),(c)', 'N=3, a=1/4, loss |i-r|, S={0..3}: optimal mechanism, G, consumer interaction; check (a)=(b)(c) and optimality.', 'table + optimality certificate'),
    C('gs2010.table2', 'Table 2', "G and G' matrices.", 'all-n, symbolic'),
    C('gs2010.lemma1', 'Lemma 1', "Det G' = (1-a^2)^(n-1) (pin down the matrix size); det G > 0.", 'bounded symbolic, and all-n'),
    C('gs2010.lemma2', 'Lemma 2', 'Det G(i,x) for i=1, i=n, and interior i (check exponents).', 'bounded symbolic'),
    C('gs2010.lemma1.corrected', 'Lemma 1, corrected (not stated in the paper)', 'Det G > 0 for alpha in [0, 1): the printed range [0, 1] fails at alpha = 1.', 'bounded symbolic, and all-n'),
    C('gs2010.lemma2.corrected', 'Lemma 2, corrected (not stated in the paper)', 'Det G(i,x) sign conditions for alpha in [0, 1): the printed range [0, 1] fails at alpha = 1.', 'bounded symbolic, and all-n'),
    C('gs2010.thm2', 'Theorem 2', 'M derivable from G iff the three-term condition holds in every column (check boundary rows).', 'bounded, SMT', depends_on=('gs2010.lemma2.corrected',)),
    C('gs2010.lemma3', 'Lemma 3', 'G_beta = G_alpha T_{alpha,beta} with T stochastic for alpha <= beta.', 'bounded symbolic', depends_on=('gs2010.lemma2.corrected',)),
    C('gs2010.alg1', 'Algorithm 1', 'Multi-level release: each r_i is a_i-geometric.', 'bounded, exact', depends_on=('gs2010.lemma1.corrected', 'gs2010.lemma3')),
    C('gs2010.lemma4', 'Lemma 4, Theorem 1(1)', 'Collusion resistance: the joint release of a coalition is a_min-DP.', 'bounded, exact'),
    C('gs2010.lemma5', 'Lemma 5', 'Adjacent-row structure of some optimal minimax mechanism.', 'bounded'),
    C('gs2010.thm1', 'Theorem 1(2)', 'Minimax consumers: optimal interaction with G achieves the optimal loss.', 'bounded + sampled'),
    C('gs2010.lemma6', 'Lemma 6, Appendix A', 'Oblivious mechanisms suffice for minimax consumers.', 'bounded (small D, n)'),
    C('gs2010.appB', 'Appendix B', 'The 4x4 M is 1/2-DP, not derivable from G; the three-term value -0.75/9.', 'table, exact'),
    C('gs2010.randomized', 'Sections 2.7, 4.2', 'Minimax consumers need randomized post-processing: deterministic remaps are strictly worse for some consumer.', 'bounded, example'),
    # zlcn2013
    C('zlcn2013.def2', 'Definition 2, (1)', 'Legal functions and the weighted error.', 'definitional'),
    C('zlcn2013.eq2', '(2), (3) and closed forms', 'The recurrences for psi1, psi2 and the piecewise closed form of psi1 over n+1 intervals of beta1.', 'all-n, symbolic'),
    C('zlcn2013.thm1', 'Theorem 1', 'Some optimal legal function is min{psi1, psi2} satisfying (5).', 'bounded over all consumers + sampled cross-check'),
    C('zlcn2013.twovar', 'Section 3.1', 'Optimizing over (beta1, beta2) gives the LP optimum.', 'bounded over all consumers + sampled cross-check'),
    C('zlcn2013.def6', 'Definition 6, (6)', 'Range-restricted geometric in the alpha>1 convention equals the truncated geometric with 1/alpha.', 'all-n'),
    C('zlcn2013.xhat', 'Section 3.2.1', 'N=3, theta=(1,2), uniform penalty and prior: x-hat is the only optimum, and the geometric mechanism cannot derive it.', 'all-n (stated at n=3; every alpha > 1 symbolically) + bounded'),
    C('zlcn2013.yhat', 'Section 3.2.2', 'For the prior rho stated: y-hat is the only optimum.', 'all-n (stated at n=3; every alpha > 1 symbolically) + bounded'),
    C('zlcn2013.lemma1', 'Lemma 1, Corollary 1', 'Deriving (1/(a+1), a/(a+1)) forces all privacy constraints tight.', 'bounded, SMT'),
    C('zlcn2013.lemma2', 'Lemma 2', 'No DP matrix derives both x-hat and y-hat.', 'bounded, SMT (fixed and symbolic alpha)'),
    C('zlcn2013.lemma3', 'Lemma 3, Corollary 2', 'General-n vectors x, y are only optima for some consumers (find them); no DP matrix derives both.', 'bounded', depends_on=('zlcn2013.lemma2',)),
    C('zlcn2013.thm2', 'Theorem 2', 'No universally utility-maximizing mechanism for count-range queries.', 'bounded'),
    C('zlcn2013.thm3', 'Theorem 3', "No DP mechanism maximizes every consumer's utility (2x2 construction).", 'bounded, SMT'),
    C('zlcn2013.thm4', 'Theorem 4', 'The range-restricted geometric mechanism is 2-approximate; report the worst ratio found.', 'sampled + bounded search'),
    C('zlcn2013.thm5', 'Theorems 5, 6', 'Threshold queries: some optimum satisfies recurrence (2) (resp. (3)).', 'bounded over all consumers + sampled cross-check'),
    C('zlcn2013.thm7', 'Theorem 7, Corollary 3', 'Threshold queries: t = M^-1 z lies in [0,1] for every recurrence-(2) vector z.', 'bounded, symbolic alpha', depends_on=('zlcn2013.eq2',)),
    C('zlcn2013.oblivious', 'Section 4.2', 'The oblivious step function Phi is not optimal unless trivial.', 'bounded'),
    # printed items CLAIMS.md does not list (issue 5)
    C('zlcn2013.thm7.M', 'Theorem 7, proof sketch', 'The printed matrix M = (a-1)/(a+1)(...) is the range-restricted geometric mechanism (6), entry by entry, for every n and alpha > 1.', 'table, all-n symbolic'),
)
