"""Signatures of optimal mechanisms and the vertices of the DP polytope (grs2011 Section 5, grs2009 Section 5)."""
