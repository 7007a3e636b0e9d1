"""Where the checks run: in this process, or on a Dask cluster (a LocalCluster, or a scheduler's address).

The unit of work is the task: one (claim, descriptor) of a check's :class:`~udpm.claims.registry.Plan` (the signature
lemmas and the every-user claims: one task per (n, alpha)), then the claim's assembly, which runs the check
itself with the tasks' findings supplied (:func:`udpm.claims.registry.supplied`), so that the record is built by the
same code, in the same order, as in a serial run.  A claim without a plan is one task.  The records are
therefore byte-identical whatever the number of workers and the completion order.

* A timeout stays per instance (a SolverTimeout inside a deciding block is an inconclusive decision); a task
  that runs past the claim's wall-clock bound is inconclusive, on a worker thread too; the bound stops it at a
  safe point, never inside z3 (:mod:`udpm.internal.deadline`).
* A worker that dies loses nothing: the scheduler gives its tasks to another worker (Dask's own retry, up to
  ``distributed.scheduler.allowed-failures`` times); no task is ever passed without being decided.
* The cache (:mod:`udpm.run.cache`) is read and written by this process only: tasks already decided are not
  submitted, and every decided task is stored as it completes, so that an interrupted run resumes.

Dask is imported here only: replacing it touches this file.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict

from udpm.claims import registry as claims
from udpm.claims.evidence import Result, Status, unresolved
from udpm.claims.findings import Findings
from udpm.claims.registry import Context, plan_of, run_check
from udpm.errors import CheckTimeout, HarnessError, SolverTimeout
from udpm.internal.deadline import bound
from udpm.run.cache import Cache

Found = tuple[object, float]  # (Findings | Result, seconds)

_LOADED = False


def _ensure_loaded() -> None:
    global _LOADED
    if not _LOADED:
        claims.load_checkers()
        _LOADED = True


def decide_task(claim_id: str, task: tuple, ctx: Context) -> Found:
    """One planned task of ``claim_id`` (run on a worker): its findings, or an inconclusive/error verdict."""
    _ensure_loaded()
    start = time.perf_counter()
    try:
        with bound(ctx.claim_timeout):
            found = plan_of(claim_id).decide(ctx, task)  # type: ignore[union-attr]
    except (CheckTimeout, SolverTimeout) as exc:
        found = unresolved(Status.INCONCLUSIVE, f"no answer within the bound: {exc}")
    except Exception as exc:
        found = unresolved(Status.ERROR, f"{type(exc).__name__}: {exc} (task {task} of {claim_id})")
    return found, time.perf_counter() - start


def check_task(claim_id: str, ctx: Context, parts: dict | None = None) -> Found:
    """The check of ``claim_id``, with its planned tasks' findings supplied (the assembly), or whole."""
    _ensure_loaded()
    parts = parts or {}
    for found, _ in parts.values():
        if isinstance(found, Result):  # a task that timed out or failed as a whole: so does its claim
            return found, sum(s for _, s in parts.values())
    supplied = {(claim_id, task): found for task, (found, _) in parts.items()}
    start = time.perf_counter()
    with claims.supplied(supplied):
        if _main_thread():
            found, _ = run_check(claim_id, ctx)  # which bounds the check itself
        else:
            try:
                with bound(ctx.claim_timeout):
                    found, _ = run_check(claim_id, ctx)
            except CheckTimeout as exc:
                found = unresolved(Status.INCONCLUSIVE, f"no answer within the bound: {exc}")
    return found, time.perf_counter() - start + sum(s for _, s in parts.values())


# --- the cache keys -------------------------------------------------------------------------------


def _module(claim_id: str) -> str:
    fn = claims._CHECKERS.get(claim_id)
    return fn.__module__ if fn is not None else "udpm"


def task_key(cache: Cache, claim_id: str, task: tuple, ctx: Context) -> str:
    # a task's answer does not depend on quick/full (the descriptor fixes the instance) nor on the claim bound
    return cache.key(claim_id, list(task), {"seed": ctx.seed, "solver_timeout": ctx.solver_timeout}, _module(claim_id))


def claim_key(cache: Cache, claim_id: str, ctx: Context) -> str:
    return cache.key(claim_id, None, asdict(ctx), _module(claim_id))


# --- the runs -------------------------------------------------------------------------------------


class Listener:
    """What an executor reports (udpm.run.progress draws it): totals, each decided task, each finished claim."""

    def start(self, totals: dict[str, int], dashboard: str | None) -> None: ...

    def task_done(self, claim_id: str, cached: bool) -> None: ...

    def claim_done(self, claim_id: str, seconds: float, cached: bool) -> None: ...

    def close(self) -> None: ...


def _totals(order: list[str], ctx: Context) -> dict[str, list[tuple] | None]:
    return {cid: (p.tasks(ctx) if (p := plan_of(cid)) is not None else None) for cid in order}


def _begin(order: list[str], ctx: Context, listener: Listener, dashboard: str | None) -> dict[str, list[tuple] | None]:
    """Every claim's plan (None: one task), announced to the progress listener."""
    plans = _totals(order, ctx)
    listener.start({cid: len(t) if t is not None else 1 for cid, t in plans.items()}, dashboard)
    return plans


def _from_cache(cache: Cache | None, cid: str, ctx: Context, out: dict[str, Found], listener: Listener) -> bool:
    """The claim's whole record from the cache into ``out``, when it is there."""
    key = claim_key(cache, cid, ctx) if cache is not None else ""
    if cache is None or (hit := cache.get(key)) is None:
        return False
    seconds = cache.decided_in.get(key, 0.0)  # the time it took to decide, when it was stored
    out[cid] = (hit, seconds)
    listener.claim_done(cid, seconds, True)
    return True


def run_serial(order: list[str], ctx: Context, cache: Cache | None, listener: Listener) -> dict[str, Found]:
    plans = _begin(order, ctx, listener, None)
    out: dict[str, Found] = {}
    for cid in order:
        if _from_cache(cache, cid, ctx, out, listener):
            continue
        tasks = plans[cid]
        if tasks is None:
            found, seconds = run_check(cid, ctx)
        else:
            parts: dict[tuple, Found] = {}
            for task in tasks:
                got = cache.get(task_key(cache, cid, task, ctx)) if cache is not None else None
                if got is not None:
                    parts[task] = (got, 0.0)
                else:
                    parts[task] = decide_task(cid, task, ctx)
                    if cache is not None:
                        cache.put(task_key(cache, cid, task, ctx), parts[task][0])
                listener.task_done(cid, got is not None)
            found, seconds = check_task(cid, ctx, parts)
        if cache is not None:
            cache.put(claim_key(cache, cid, ctx), found, seconds)
        out[cid] = (found, seconds)
        listener.claim_done(cid, seconds, False)
    return out


def _worker_code_hash(modules: list[str]) -> str:
    from udpm.run.cache import code_hash

    return json.dumps({m: code_hash(m) for m in modules})


@contextlib.contextmanager
def dask_client(jobs: int = 1, scheduler: str | None = None) -> Iterator[object]:
    """A distributed.Client on ``scheduler``, or on a LocalCluster of ``jobs`` single-threaded worker processes."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise HarnessError(f"--scheduler {scheduler}: no Dask scheduler answers ({exc})") from None
        try:
            yield client
        except BaseException:
            _quiet_dask()
            raise
        finally:
            with contextlib.suppress(BaseException):
                client.close(timeout=CLOSE_TIMEOUT_S)
        return
    # The workers ignore SIGINT (inherited by the processes the cluster starts): Ctrl-C on a terminal reaches the
    # whole process group, and only this process handles it, by closing the cluster.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
    try:
        cluster = LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    try:
        yield client
    except BaseException:
        _quiet_dask()  # an interrupt or a failure: the one line the run prints, not the cluster's shutdown noise
        _kill_workers(cluster)  # their tasks are abandoned: nothing to wait for (a z3 call may run for minutes)
        raise
    finally:
        with contextlib.suppress(BaseException):
            client.close(timeout=CLOSE_TIMEOUT_S)
        with contextlib.suppress(BaseException):
            cluster.close(timeout=CLOSE_TIMEOUT_S)


#: Seconds the client and the cluster are given to close (an interrupted run ends within seconds).
CLOSE_TIMEOUT_S = 3


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _kill_workers(cluster: object) -> None:
    """SIGKILL the worker processes of a LocalCluster (each Nanny's process), so that closing it does not wait."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _quiet_dask() -> None:
    """Silence distributed's and tornado's loggers: what they say while a cluster is torn down is no news."""
    import logging

    for name in ("distributed", "tornado", "asyncio", "bokeh"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def dashboard_of(client: object) -> str | None:
    try:
        return client.dashboard_link  # type: ignore[attr-defined]
    except Exception:
        return None


def task_priority(task: tuple) -> int:
    """Dask priority of a plan's task: its instance size n (a descriptor's leading int), so the largest start first.

    A task's cost grows geometrically in n, so the largest of a claim's tasks is its critical path; starting it
    first (longest processing time first) keeps it from starting last on an otherwise idle cluster (the quick
    grs2011 run with --jobs 2: 59 s, was 69 s in submission order).  The order of the records does not depend on
    it: claims are assembled in plan order.

    >>> task_priority((6, "1/2")), task_priority(("x",))
    (6, 0)
    """
    return task[0] if task and isinstance(task[0], int) else 0


def run_dask(
    order: list[str], ctx: Context, client: object, cache: Cache | None, listener: Listener
) -> dict[str, Found]:
    """Every check of ``order`` on ``client``'s cluster; tasks submitted at once, claims assembled as they finish."""
    from distributed import as_completed

    modules = sorted({_module(cid) for cid in order})
    mine = _worker_code_hash(modules)
    theirs = set(client.run(_worker_code_hash, modules).values())  # type: ignore[attr-defined]
    if theirs - {mine}:
        raise HarnessError(
            "the Dask workers run other code than this checkout (udpm/ or a check module differs); "
            "start them from the same commit"
        )
    plans = _begin(order, ctx, listener, dashboard_of(client))
    out: dict[str, Found] = {}
    what: dict[object, tuple[str, tuple | None]] = {}  # future -> (claim, task or None for the claim)
    token = f"{time.time_ns():x}"
    for cid in order:
        if _from_cache(cache, cid, ctx, out, listener):
            continue
        tasks = plans[cid]
        if tasks is None:
            fut = client.submit(check_task, cid, ctx, key=f"check-{cid}-{token}", pure=False)  # type: ignore[attr-defined]
            what[fut] = (cid, None)
            continue
        parts: dict[tuple, object] = {}
        for task in tasks:
            got = cache.get(task_key(cache, cid, task, ctx)) if cache is not None else None
            if got is not None:
                parts[task] = (got, 0.0)
                listener.task_done(cid, True)
            else:
                fut = client.submit(  # type: ignore[attr-defined]
                    decide_task,
                    cid,
                    task,
                    ctx,
                    key=f"task-{cid}-{'-'.join(map(str, task))}-{token}",
                    pure=False,
                    priority=task_priority(task),
                )
                what[fut] = (cid, task)
                parts[task] = fut
        fut = client.submit(check_task, cid, ctx, parts, key=f"check-{cid}-{token}", pure=False)  # type: ignore[attr-defined]
        what[fut] = (cid, None)
    for fut in as_completed(list(what)):
        cid, task = what[fut]
        found, seconds = fut.result()
        if task is not None:
            if cache is not None:
                cache.put(task_key(cache, cid, task, ctx), found)
            listener.task_done(cid, False)
            continue
        if cache is not None:
            cache.put(claim_key(cache, cid, ctx), found, seconds)
        out[cid] = (found, seconds)
        listener.claim_done(cid, seconds, False)
    return {cid: out[cid] for cid in order}


def run(
    order: list[str],
    ctx: Context,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    cache: Cache | None = None,
    listener: Listener | None = None,
    on_client: Callable[[object], None] | None = None,
) -> dict[str, Found]:
    """Every check of ``order``: serially when jobs == 1 and no scheduler, else on Dask.  A claim decided by
    restriction of a printed claim's check (:func:`udpm.claims.registry.restricted`) is derived from that claim's
    findings,
    which the run decides once."""
    from udpm.claims.registry import restrict, restricted_from

    listener = listener or Listener()
    derived = {cid: p for cid in order if (p := restricted_from(cid))}
    direct = list(dict.fromkeys([*(c for c in order if c not in derived), *derived.values()]))
    try:
        if jobs == 1 and not scheduler:
            found = run_serial(direct, ctx, cache, listener)
        else:
            with dask_client(jobs, scheduler) as client:
                if on_client is not None:
                    on_client(client)
                found = run_dask(direct, ctx, client, cache, listener)
    finally:
        listener.close()
    for cid, printed in derived.items():
        f, _ = found[printed]
        found[cid] = (restrict(cid, f) if isinstance(f, Findings) else f, 0.0)
    return found
