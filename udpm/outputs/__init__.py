"""What a run shows and writes: the results document, the console, JUnit, annotations, the README block, the notebook.

May import: :mod:`udpm.report`, :mod:`udpm.claims` and below.
"""
