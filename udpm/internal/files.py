"""Where a run writes, checked before any work, and replaced only when the run completes.

A run of ``reproduce.py`` (or ``udpm check``) writes its own files into one output directory, ``--out DIR``:

* ``DIR/certificates/<claim>.cert.json``: the exact LP certificates of the claims it decided;
* ``DIR/smt/<hash>.smt2``: the SMT queries it asked, this run's only;
* with ``--report``: ``DIR/results.json``, ``DIR/report.ipynb`` and ``DIR/report.html``.

The default is ``build/`` in the current directory for a run of every claim, and
``build/runs/<selection>/`` for a partial run (``--only``, ``--paper``, ``--shard``), so that a partial run never
replaces the full run's certificates.  ``certificates/`` and ``smt/`` are filled in staging directories beside
them and swapped in when the run completes: an interrupted or failed run leaves the previous ones whole.

Every path given on the command line (``--json``, ``--junit``, ``--out``, ``--cache-dir``) is tried for writing
at startup: an unusable one is one line and exit 2, before any claim is checked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

from udpm.errors import InvalidInput

BUILD = Path("build")


def default_out(only: list[str], paper: str | None, shard: tuple[int, int] | None) -> Path:
    """``build`` for a run of every claim; ``build/runs/<selection>`` for a partial one.

    >>> str(default_out([], None, None)), str(default_out(["gs2010.*"], None, None))
    ('build', 'build/runs/gs2010._')
    >>> str(default_out([], "grs2011", (2, 5)))
    'build/runs/paper-grs2011+shard-2of5'
    """
    parts = [*only, *([f"paper-{paper}"] if paper else []), *([f"shard-{shard[0]}of{shard[1]}"] if shard else [])]
    if not parts:
        return BUILD
    name = re.sub(r"[^A-Za-z0-9._+-]+", "_", "+".join(parts))[:120]
    return BUILD / "runs" / name


def shown(path: Path) -> str:
    """``path`` as the user can use it from the current directory: relative when it lies under it."""
    path = Path(path)
    with contextlib.suppress(ValueError):
        return str(path.resolve().relative_to(Path.cwd().resolve())) or "."
    return str(path.resolve())


def _try_write(directory: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".udpm-probe-")
    os.close(fd)
    os.unlink(tmp)


def check_dir(path: Path, flag: str) -> None:
    """Refuse, before any work, a directory that cannot be created or written (one-line InvalidInput)."""
    try:
        if path.exists() and not path.is_dir():
            raise InvalidInput(f"{flag} {path}: not a directory")
        path.mkdir(parents=True, exist_ok=True)
        _try_write(path)
    except OSError as exc:
        raise InvalidInput(f"{flag} {path}: cannot be created or written ({exc.strerror or exc})") from None


def check_file(path: Path | None, flag: str) -> None:
    """Refuse, before any work, a file path whose directory cannot take a new file (one-line InvalidInput)."""
    if path is None:
        return
    if path.is_dir():
        raise InvalidInput(f"{flag} {path}: is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidInput(f"{flag} {path}: the directory {parent} does not exist")
    try:
        _try_write(parent)
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    except OSError as exc:
        raise InvalidInput(f"{flag} {path}: cannot be written ({exc.strerror or exc})") from None


def staging(final: Path) -> Path:
    """A fresh, empty directory beside ``final`` that :func:`publish` later moves to ``final``.

    Staging directories left by a run that was killed (its process is gone) are removed first.
    """
    final.parent.mkdir(parents=True, exist_ok=True)
    for left in final.parent.glob(f".{final.name}.*-*-*"):
        pid = left.name.split("-")[-2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(left, ignore_errors=True)
    staged = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.staging-{os.getpid()}-"))
    umask = os.umask(0)
    os.umask(umask)
    staged.chmod(0o777 & ~umask)  # a directory as any other the user creates, not mkdtemp's 0700
    return staged


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def publish(staged: Path, final: Path) -> None:
    """Replace ``final`` by ``staged`` (the previous contents are removed only once the new ones are in place)."""
    old = None
    if final.exists():
        old = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old-{os.getpid()}-"))
        os.replace(final, old / final.name)
    os.replace(staged, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def discard(staged: Path) -> None:
    shutil.rmtree(staged, ignore_errors=True)


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never a mix.

    The new file keeps the mode of the file it replaces (a new file gets the umask's default),
    not mkstemp's 0600.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
