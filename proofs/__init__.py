"""SMT and symbolic proofs of the papers' lemmas for bounded n (and all-n where a symbolic argument exists)."""
