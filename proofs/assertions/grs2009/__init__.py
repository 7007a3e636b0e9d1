"""grs2009 assertions outside the numbered results, one module per section or proof."""
