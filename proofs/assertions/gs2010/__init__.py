"""gs2010 assertions of the discussion and the proofs that no other claim checks, one module per section or proof."""
