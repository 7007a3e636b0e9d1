"""Running claims: the executor (threads or Dask), the cache of decided instances, progress, shards.

May import: :mod:`udpm.outputs` and below.
"""
