"""z3 and cvc5 behind one interface: every query bounded, exported, and answered by both solvers.

May import: :mod:`udpm.core` and below.
"""
