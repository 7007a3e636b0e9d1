"""gs2010 Section 3: which mechanisms derive from G, and the determinants behind it."""
