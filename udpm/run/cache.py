"""A cache of decided tasks: a rerun skips what is decided, an interrupted run resumes where it stopped.

One entry per task of the executor (udpm.run.executor): a planned task of a claim (one (n, alpha) of the signature
lemmas, of the every-user claims) or a whole check.  Its key hashes

* the claim, the task's descriptor and the run parameters the answer may depend on (seed, solver bound;
  quick/full and the claim bound for a whole check),
* the code that decides it: every ``.py`` of ``udpm/``, the check's module and the ``proofs``/``experiments``
  modules it imports (transitively), and the versions of the solvers and exact libraries.

A change to that code gives new keys: old entries are never read again (``--clear-cache`` removes them).
Only findings without an inconclusive decision are stored (a timeout is retried next run); pending, error and
inconclusive verdicts never are.

Each entry is one JSON file ``<dir>/<key[:2]>/<key>.json``: the payload's text and its HMAC-SHA256 under a
secret key kept outside the cache directory (:func:`secret`): ``$UDPM_CACHE_KEY`` (the hosts of a cluster that
share a cache share it), else the file ``cache.key`` in the user's configuration directory
(``$XDG_CONFIG_HOME/udpm/`` or ``~/.config/udpm/``), created with mode 0600 on first use.  An entry that is
not valid UTF-8, does not parse, names another key, or whose HMAC does not verify (truncated, corrupted,
edited, forged with a recomputed checksum, written under another secret) is reported, removed and recomputed,
never trusted.  Writes are atomic (a temporary file in the same directory, then ``os.replace``), so that several
processes, or hosts on a shared filesystem, may write the same directory.

What an entry is trusted for: that a process holding the secret decided this task, with this code and these
settings, and found these findings.  Its findings are then judged exactly as fresh ones (udpm.claims.evidence derives
the status); they are not re-decided, except what can be re-checked cheaply: every LP certificate an entry
carries is re-verified on load by the standard-library checker (:func:`udpm.lp.certificates.check_certificate`),
and an entry whose certificate fails is refused like a forged one.  Whoever can read the secret can forge the
rest of an entry: keep it private.

The directory is ``.udpm-cache/`` at the repository root, or ``$UDPM_CACHE``, or ``--cache-dir``.  In CI
(``$CI`` set, as GitHub Actions does) the cache is off unless ``--cache-dir`` is given: a CI verdict is
always recomputed.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import os
import secrets
import shutil
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from udpm.claims.findings import Findings
from udpm.claims.instances import Decision, Erratum, Instance, Kind, Outcome
from udpm.errors import HarnessError
from udpm.internal.files import atomic_write

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DIR = ROOT / ".udpm-cache"
FORMAT = 2
KEY_ENV = "UDPM_CACHE_KEY"
#: Libraries whose version may change an answer (an unknown for an unsat, a vertex order).
ENGINES = ("z3-solver", "cvc5", "sympy", "python-flint", "highspy", "numpy")


def default_dir() -> Path:
    return Path(os.environ.get("UDPM_CACHE") or DEFAULT_DIR)


class CacheKeyError(HarnessError):
    """The cache's secret key can be neither read nor created; the run goes on without the cache."""


def key_file() -> Path:
    """Where the cache's secret key lives when ``$UDPM_CACHE_KEY`` is not set: outside every cache directory."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "udpm" / "cache.key"


def secret() -> bytes:
    """The key that authenticates cache entries: ``$UDPM_CACHE_KEY``, else :func:`key_file` (made on first use)."""
    given = os.environ.get(KEY_ENV)
    if given:
        return given.encode()
    path = key_file()
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
        key = path.read_text(encoding="ascii").strip()
    except FileExistsError:  # another process made it in between
        key = path.read_text(encoding="ascii").strip()
    except (OSError, ValueError) as exc:
        raise CacheKeyError(f"the cache key {path} can be neither read nor created ({exc}); set ${KEY_ENV}") from None
    if not key:
        raise CacheKeyError(f"the cache key {path} is empty; delete it, or set ${KEY_ENV}")
    return key.encode()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


# --- the code that decides ------------------------------------------------------------------------


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@lru_cache(maxsize=1)
def _engine_versions() -> str:
    out = [f"python {sys.version_info[0]}.{sys.version_info[1]}"]
    for name in ENGINES:
        try:
            out.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name} absent")
    return "; ".join(out)


def _local_imports(path: Path, module: str) -> list[str]:
    """The proofs/experiments modules that ``module`` (at ``path``) imports, absolutely or relatively, at any
    level of the file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from .x import y, from . import x: relative to the package
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            names = ([base] if node.module else []) + [f"{base}.{a.name}" for a in node.names]
        found += [m for m in names if m.split(".", 1)[0] in ("proofs", "experiments")]
    return found


def _module_file(module: str, root: Path) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=64)
def code_hash(module: str, root: Path = ROOT) -> str:
    """sha256 over udpm/**.py, ``module`` and the proofs/experiments modules it imports, and the engines."""
    h = hashlib.sha256(_engine_versions().encode())
    for path in sorted((root / "udpm").rglob("*.py")):
        h.update(f"{path.relative_to(root)}\0{_file_digest(path)}\n".encode())
    seen: set[Path] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        path = _module_file(name, root)
        if path is None or path in seen:
            continue
        seen.add(path)
        todo += _local_imports(path, name)
    for path in sorted(seen):
        h.update(f"{path.relative_to(root)}\0{_file_digest(path)}\n".encode())
    return h.hexdigest()


# --- findings <-> JSON ----------------------------------------------------------------------------


def to_payload(found: Findings) -> dict:
    return {
        "claim": found.claim,
        "decisions": [
            {
                "claim": d.instance.claim,
                "n": d.instance.n,
                "alpha": d.instance.alpha,
                "kind": str(d.instance.kind),
                "method": d.instance.method,
                "covers": d.instance.covers,
                "params": [list(p) for p in d.instance.params],
                "region": d.instance.region,
                "n_from": d.instance.n_from,
                "outcome": str(d.outcome),
                "detail": d.detail,
                "smt": [list(q) for q in d.smt],
            }
            for d in found.decisions
        ],
        "values": found.values,
        "errata": [[e.entry, e.printed, e.correct, e.cls, e.explanation] for e in found.errata],
        "certificate": found.certificate,
        "notes": found.notes,
    }


def from_payload(p: dict) -> Findings:
    found = Findings(p["claim"])
    for d in p["decisions"]:
        inst = Instance(
            d["claim"],
            d["n"],
            d["alpha"],
            Kind(d["kind"]),
            d["method"],
            d["covers"],
            tuple((k, v) for k, v in d["params"]),
            d.get("region", ""),
            d.get("n_from"),
        )
        found.decisions.append(Decision(inst, Outcome(d["outcome"]), d["detail"], tuple((f, r) for f, r in d["smt"])))
    found.values = dict(p["values"])
    found.errata = [Erratum(*e) for e in p["errata"]]
    found.certificate = p["certificate"]
    found.notes = list(p["notes"])
    return found


def _certificates_fail(found: Findings) -> str | None:
    """Why an LP certificate the entry carries does not verify (the standard-library checker), or None."""
    from udpm.lp.certificates import Rejected, check_certificate

    lps = found.certificate.get("lps") if isinstance(found.certificate, dict) else None
    for k, cert in enumerate(lps or []):
        try:
            if not isinstance(cert, dict):
                raise Rejected("not an object")
            check_certificate(cert)
        except Rejected as exc:
            return f"its LP certificate {cert.get('label', k) if isinstance(cert, dict) else k} does not verify ({exc})"
    return None


def cacheable(found: object) -> bool:
    """Only findings whose every decision was decided (holds or a counterexample) are kept."""
    return isinstance(found, Findings) and all(d.outcome is not Outcome.INCONCLUSIVE for d in found.decisions)


# --- the store ------------------------------------------------------------------------------------


@dataclass
class Cache:
    """Entries under ``root``; ``problems`` lists every entry found corrupt (and removed) in this run.

    ``key_bytes`` authenticates the entries (default :func:`secret`)."""

    root: Path
    problems: list[str] = field(default_factory=list)
    hits: int = 0
    writes: int = 0
    #: key -> the seconds its entry took to decide when it was stored, for the entries read in this run
    decided_in: dict[str, float] = field(default_factory=dict)
    key_bytes: bytes = b""

    def __post_init__(self) -> None:
        self.key_bytes = self.key_bytes or secret()

    def key(self, claim: str, task: object, params: dict, module: str) -> str:
        blob = json.dumps([FORMAT, claim, task, params, code_hash(module)], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def _mac(self, key: str, payload: str) -> str:
        return hmac.new(self.key_bytes, f"{FORMAT}\0{key}\0{payload}".encode(), hashlib.sha256).hexdigest()

    def get(self, key: str) -> Findings | None:
        path = self._path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._corrupt(path, f"unreadable ({exc.strerror or exc})")
            return None
        try:
            entry = json.loads(data.decode("utf-8"))
            payload = entry["payload"]
            if entry.get("format") != FORMAT or entry.get("key") != key:
                self._corrupt(path, "format or key does not match its file name")
                return None
            if not hmac.compare_digest(str(entry["hmac"]), self._mac(key, payload)):
                self._corrupt(path, "not authenticated (its HMAC does not verify under this cache key)")
                return None
            stored = json.loads(payload)
            found = from_payload(stored)
            if (why := _certificates_fail(found)) is not None:
                self._corrupt(path, why)
                return None
        except UnicodeDecodeError as exc:
            self._corrupt(path, f"not UTF-8 (byte {exc.start})")
            return None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            self._corrupt(path, f"not a cache entry ({type(exc).__name__}: {exc})")
            return None
        self.hits += 1
        if isinstance(stored.get("seconds"), int | float):
            self.decided_in[key] = float(stored["seconds"])
        return found

    def _corrupt(self, path: Path, why: str) -> None:
        self.problems.append(f"cache entry {path.name}: {why}; removed and recomputed")
        try:
            path.unlink()
        except OSError:
            pass

    def put(self, key: str, found: object, seconds: float | None = None) -> bool:
        """Store ``found`` (and the ``seconds`` it took to decide) atomically when cacheable; True when written."""
        if not cacheable(found):
            return False
        timed = {} if seconds is None else {"seconds": round(seconds, 3)}
        payload = json.dumps({**to_payload(found), **timed}, sort_keys=True, ensure_ascii=False)  # type: ignore[arg-type]
        entry = {"format": FORMAT, "key": key, "hmac": self._mac(key, payload), "payload": payload}
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# udpm cache of decided tasks (udpm/run/cache.py)\n*\n")
        atomic_write(path, json.dumps(entry))
        self.writes += 1
        return True

    def clear(self) -> None:
        clear(self.root)


def clear(root: Path) -> None:
    """Remove every entry under ``root`` (no key needed: nothing is read)."""
    shutil.rmtree(root, ignore_errors=True)
