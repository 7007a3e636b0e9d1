"""Universal optimality for Bayesian users: the characterization, optimal vertices, remaps and post-processing."""
