"""Priors over databases and averaging over databases with the same count (grs2011 Appendix C, grs2009 Section 6)."""
