"""The geometric and Laplace mechanisms: all-n symbolic proofs, their noise, and the approximation guarantee."""
