"""gs2010 Section 4.1: the multi-level release (Algorithm 1) and its collusion resistance."""
