"""What the papers say, as data, and the verdicts derived from it.

The printed statements and their classes (statements, catalog, assertions), the instances a check decides and
the evidence derived from them (instances, findings, coverage, evidence), printed tables and golden values, the
claim registry, and claim records.  May import: :mod:`udpm.induction`, :mod:`udpm.smt`, :mod:`udpm.lp`,
:mod:`udpm.core` and below.
"""
