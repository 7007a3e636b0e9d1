"""udpm: exact core library of the harness for universally optimal DP mechanisms.

Modules are named after the papers' concepts: mechanisms, privacy, remaps,
signatures, users, programs (the LPs), certificates; claims and catalog hold
the claim registry.  alpha is always in (0, 1) with alpha = e^-eps inside;
zlcn2013's alpha > 1 enters only through conventions.alpha_from_zlcn2013.
"""
