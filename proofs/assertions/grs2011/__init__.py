"""grs2011 assertions outside the numbered results, one module per section, proof or appendix."""
