"""The HTML report of a run: its document model, figures, plots and the status changes.

May import: :mod:`udpm.claims` and below.
"""
