"""All-n arguments: induction obligations discharged by SMT, and database spaces counted symbolically.

May import: :mod:`udpm.smt`, :mod:`udpm.lp`, :mod:`udpm.core` and below.
"""
