"""A real Dask cluster: `dask scheduler` and two `dask worker` processes on 127.0.0.1, started and stopped here.

reproduce.py --scheduler runs a filtered sweep on it (a planned claim, one task per (n, alpha), and a whole
one); its claim records equal a serial run's byte for byte.  About 30 s on 2 cores (not marked slow: it
runs in CI); everything is bounded
(each process is killed at the end, whatever happened)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from udpm.claims.records import load, merge

ROOT = Path(__file__).resolve().parent.parent
ONLY = ["--only", "grs2011.lemma5.5", "--only", "grs2011.ex2.1"]
DASK = Path(sys.executable).parent / "dask"
BOUND = 150  # seconds, the whole test


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _reproduce(*args: str, timeout: float) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    out = tempfile.mkdtemp(prefix="udpm-test-out-")  # the checkout's build/ is the main job's
    cmd = [sys.executable, "reproduce.py", *ONLY, "--no-cache", "--out", out, *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(not DASK.exists() and shutil.which("dask") is None, reason="the dask command is not installed")
def test_a_real_scheduler_and_two_workers_give_the_serial_records(tmp_path):
    start = time.monotonic()
    dask = str(DASK) if DASK.exists() else shutil.which("dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env["UDPM_SMT_DIR"] = str(tmp_path / "smt")  # where the workers export their queries
    logs = [open(tmp_path / f"{name}.log", "w") for name in ("scheduler", "worker1", "worker2")]
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
            cwd=ROOT,
            env=env,
            stdout=logs[0],
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    ]
    try:
        for k in (1, 2):
            procs.append(
                subprocess.Popen(
                    [
                        dask,
                        "worker",
                        address,
                        "--nthreads",
                        "1",
                        "--nworkers",
                        "1",
                        "--no-dashboard",
                        "--local-directory",
                        str(tmp_path / f"w{k}"),
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=logs[k],
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        # wait for both workers to register
        deadline = start + 60
        while time.monotonic() < deadline:
            text = "".join((tmp_path / f"worker{k}.log").read_text() for k in (1, 2))
            if len(re.findall(r"Registered to", text)) >= 2:
                break
            time.sleep(0.3)
        else:
            pytest.fail("the two dask workers did not register within 60 s")
        left = BOUND - (time.monotonic() - start)
        cluster = _reproduce("--scheduler", address, "--json", str(tmp_path / "cluster.json"), timeout=left)
        assert cluster.returncode in (0, 1, 3), cluster.stderr[-2000:]
        left = BOUND - (time.monotonic() - start)
        serial = _reproduce("--json", str(tmp_path / "serial.json"), timeout=left)
        assert serial.returncode == cluster.returncode, serial.stderr[-2000:]
        a, b = merge([load(tmp_path / "serial.json")]), merge([load(tmp_path / "cluster.json")])
        assert set(a) == {"grs2011.lemma5.5", "grs2011.ex2.1"}
        assert a == b
    finally:
        for p in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)
        for f in logs:
            f.close()
    assert time.monotonic() - start < BOUND + 30
