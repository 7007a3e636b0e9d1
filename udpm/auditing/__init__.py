"""The public API for your own mechanism: the papers' questions, exact inputs, the audit and its reports, adapters.

:func:`udpm.audit` and the other names of :mod:`udpm` come from here.  May import: :mod:`udpm.claims`,
:mod:`udpm.induction`, :mod:`udpm.smt`, :mod:`udpm.lp`, :mod:`udpm.core` and below; never the runner or outputs.
"""
