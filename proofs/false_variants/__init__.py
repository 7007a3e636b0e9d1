"""False variants of every claim's printed statement, one module per paper (registered with
:func:`udpm.claims.variants.false_variant`; each runs the claim's own check on the changed statement)."""

from proofs.false_variants import grs2009, grs2011, gs2010, zlcn2013  # noqa: F401  (importing registers them)
