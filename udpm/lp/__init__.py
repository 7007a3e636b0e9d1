"""The papers' linear programs and their exact solution: programs, HiGHS proposals certified in exact rationals.

May import: :mod:`udpm.core` and below.
"""
