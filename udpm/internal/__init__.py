"""Plumbing every layer may use: safe-point deadlines, atomic output files, one-line argument errors.

May import: the standard library and :mod:`udpm.errors`.
"""
