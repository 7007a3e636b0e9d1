"""The ``udpm`` command line.

    udpm audit mechanism.json --alpha 1/2 [--eps 'ln 2'] [--prior uniform|P|FILE]
               [--loss abs|zero-one|squared|FILE ...] [--exact decimal|rationalize|estimated] [--json OUT] [--html OUT]
               [--budget S] [--no-witness]
    udpm audit --library diffprivlib:GeometricTruncated --epsilon 0.6931471805599453 --n 10 [--alpha 1/2]
    udpm check [reproduce.py's arguments]      # check every claim of the four papers (reproduce.py)
    udpm certificates FILE...                  # the independent, standard-library certificate checker

A matrix file is JSON (a list of rows, or an object with a "mechanism" list) or CSV (one row per
line).  Entries are exact: integers and fractions such as "1/3".  A decimal such as 0.25 is refused
unless ``--exact decimal`` (read the text exactly: 0.25 = 1/4) or ``--exact rationalize`` (read it
as a float and take the simplest rational within ``--tolerance``, reported).

Exit status of ``udpm audit``: 0 the audit ran (and, with ``--fail-unless``, the mechanism meets
it); 1 it ran and does not meet ``--fail-unless``; 2 bad input or an unwritable output (one line,
no traceback, before any work); 3 privacy or universal optimality not decided within ``--budget``
(inconclusive).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

from udpm.errors import HarnessError, InvalidInput, SolverTimeout
from udpm.internal.arguments import OneLineParser
from udpm.internal.files import check_file

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE = 0, 1, 2, 3
ROOT = Path(__file__).resolve().parent.parent
_DECIMAL = re.compile(r"[.eE]")


class _Decimal(str):
    """A JSON number with a fraction or an exponent, kept as its text."""


_Parser = OneLineParser


def _cell(v: object, where: str, exact: str | None) -> object:
    if isinstance(v, bool) or v is None or isinstance(v, (list, dict)):
        raise InvalidInput(f"{where}: {json.dumps(v)} is not a number")
    if isinstance(v, int) and not isinstance(v, _Decimal):
        return v
    text = str(v).strip()
    if not _DECIMAL.search(text):
        return text  # an integer or p/q: exact (validated downstream)
    if exact == "decimal":
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise InvalidInput(f"{where}: {text!r} is not a number") from None
    if exact in ("rationalize", "estimated"):
        try:
            return float(text)
        except ValueError:
            raise InvalidInput(f"{where}: {text!r} is not a number") from None
    raise InvalidInput(
        f'{where}: {text} is a decimal; write exact fractions ("1/3"), or pass --exact decimal '
        "(read decimals exactly), --exact rationalize (simplest rational within --tolerance) or --exact estimated "
        "(an empirical matrix: the verdicts are about the estimate)"
    )


def read_matrix(path: str | Path, exact: str | None = None, key: str = "mechanism") -> list[list[object]]:
    """The matrix in a JSON or CSV file, its cells as exact values (or floats under ``exact='rationalize'``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"{p}: cannot read: {exc.strerror or exc}") from None
    suffix = p.suffix.lower()
    if suffix == ".json":
        try:
            doc = json.loads(text, parse_float=_Decimal)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{p}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
        if isinstance(doc, dict):
            if key not in doc:
                raise InvalidInput(f"{p}: a JSON object needs a {key!r} entry (a list of rows)")
            doc = doc[key]
        rows = doc
    elif suffix == ".csv":
        rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r) and not r[0].startswith("#")]
    else:
        raise InvalidInput(f"{p}: unknown format {suffix or '(no suffix)'}; use a .json or .csv matrix")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise InvalidInput(f"{p}: expected a non-empty list of rows (a matrix)")
    return [[_cell(v, f"{p} [{i}][{j}]", exact) for j, v in enumerate(r)] for i, r in enumerate(rows)]


def _prior(spec: str, exact: str | None) -> object:
    """'uniform', a list 'p0,p1,...' or a file (a row or a column); decimals only with --exact decimal."""
    if spec.strip().lower() == "uniform":
        return "uniform"
    mode = "decimal" if exact == "decimal" else None
    if Path(spec).suffix.lower() in (".json", ".csv"):
        if Path(spec).suffix.lower() == ".json":
            try:
                doc = json.loads(Path(spec).read_text(encoding="utf-8"), parse_float=_Decimal)
            except (OSError, json.JSONDecodeError) as exc:
                raise InvalidInput(f"--prior {spec}: cannot read a JSON list: {exc}") from None
            doc = doc.get("prior") if isinstance(doc, dict) else doc
            if isinstance(doc, list) and doc and not isinstance(doc[0], list):
                return [_cell(v, f"{spec} [{k}]", mode) for k, v in enumerate(doc)]
        m = read_matrix(spec, mode, key="prior")
        return m[0] if len(m) == 1 else [r[0] for r in m]
    cells = [c for c in re.split(r"[,\s]+", spec.strip()) if c]
    return [_cell(c, f"--prior entry {k}", mode) for k, c in enumerate(cells)]


def _loss(spec: str) -> object:
    if Path(spec).suffix.lower() in (".json", ".csv"):
        return read_matrix(spec, None, key="loss")
    return spec


AUDIT_HELP = """\
Audit a count-query mechanism (rows = query results 0..n) at alpha = e^-eps: is it alpha-DP (and its
tightest level), is it universally optimal (grs2011 Theorem 3.2: T(n, alpha) is a remap of it), and what
each user loses against the certified optimum.  The first line printed is the verdict.

input, one of:
  MECHANISM                  a matrix file:
                               .json  a list of rows [["3/5", "2/5"], ["2/5", "3/5"]], or an object
                                      with a "mechanism" list of rows
                               .csv   one row per line, cells separated by commas; lines starting
                                      with # are comments
                             entries are exact: integers and fractions "1/3" (a decimal such as
                             0.25 only with --exact); with --exact sampled, non-negative integer
                             counts: row i = how often each output was drawn at the true count i
  --library NAME --n N (--epsilon E | --scale S)
                             a DP library's mechanism on counts 0..N, its parameter taken as the float
                             the library receives (or 'ln 2' for an exact epsilon); NAME is one of
                             {names}
--prior FILE and --loss FILE take the same formats (a prior: one row or one column).

exit status:
  0  the audit ran (and meets --fail-unless, if given)
  1  it ran and the mechanism does not meet --fail-unless
  2  bad input or an unwritable output (one line on stderr, nothing written)
  3  inconclusive: privacy or universal optimality was not decided within --budget
     (a witness user or a user's optimum out of time is reported as timeout, exit 0)
 130 interrupted
"""


def _writable(path: Path | None, flag: str) -> None:
    """Refuse, before any work, an output that cannot be created: a real probe (udpm.internal.files), not a guess."""
    check_file(path, flag)


def _write(path: Path, text: str, flag: str) -> None:
    """Write atomically (a reader sees the old file or the new one); a failure is one line."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise InvalidInput(f"{flag} {path}: cannot write ({exc.strerror or exc})") from None


def audit_main(argv: list[str]) -> int:
    from udpm.auditing.adapters.registry import NAMES, library_mechanism

    p = _Parser(
        prog="udpm audit",
        description=AUDIT_HELP.format(names=NAMES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("mechanism", type=Path, nargs="?", help="a .json or .csv matrix, rows = query results 0..n")
    p.add_argument("--library", metavar="NAME", help="a DP library's mechanism instead of a file: " + NAMES)
    p.add_argument("--epsilon", metavar="E", help="the library's epsilon, e.g. 0.6931471805599453 (with --library)")
    p.add_argument("--scale", metavar="S", help="the library's noise scale, e.g. 1.4426950408889634 (with --library)")
    p.add_argument("--n", type=int, metavar="N", help="counts 0..N (with --library)")
    p.add_argument("--alpha", help="alpha = e^-eps in (0, 1), exact: 1/2 (default with --library: the library's own)")
    p.add_argument("--eps", help="eps as c*ln(p/q), e.g. 'ln 2' (alpha = 1/2); refused where e^-eps is irrational")
    p.add_argument("--prior", default="uniform", help="uniform (default), '1/4,1/4,1/2', or a .json/.csv file")
    p.add_argument(
        "--loss", action="append", default=[], help="abs, zero-one, squared or a .json/.csv square matrix (repeatable)"
    )
    p.add_argument(
        "--exact",
        choices=("decimal", "rationalize", "estimated", "sampled"),
        help="how to read decimals (default: refuse them); estimated: an empirical matrix, verdicts about the "
        "estimate; sampled: the file holds sample counts, audited statistically at --confidence",
    )
    p.add_argument("--confidence", default="0.95", help="confidence level of --exact sampled (default 0.95)")
    p.add_argument(
        "--tolerance",
        default="1/1000000000",
        help="relative tolerance of --exact rationalize; the stated estimation error of --exact estimated",
    )
    p.add_argument("--json", type=Path, metavar="OUT", help="write the report as JSON (with its certificates)")
    p.add_argument("--html", type=Path, metavar="OUT", help="write the report as one self-contained HTML page")
    p.add_argument("--budget", type=float, metavar="S", help="seconds for the whole audit (default: no bound)")
    p.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="bound on the witness-user search (within --budget)"
    )
    p.add_argument("--no-witness", action="store_true", help="skip the search for a witness user")
    p.add_argument("--fail-unless", choices=("private", "optimal"), help="exit 1 unless M is private / optimal")
    args = p.parse_args(argv)
    if (args.mechanism is None) == (args.library is None):
        raise InvalidInput("give a mechanism file or --library NAME (not both)")
    if args.library is None and (args.epsilon or args.scale or args.n is not None):
        raise InvalidInput("--epsilon, --scale and --n go with --library")
    if args.library is None and (args.alpha is None) == (args.eps is None):
        raise InvalidInput("give exactly one of --alpha (e.g. 1/2) and --eps (e.g. 'ln 2')")
    if args.alpha is not None and args.eps is not None:
        raise InvalidInput("give exactly one of --alpha (e.g. 1/2) and --eps (e.g. 'ln 2')")
    if not args.timeout > 0:
        raise InvalidInput("--timeout must be > 0")
    if args.budget is not None and not args.budget > 0:
        raise InvalidInput("--budget must be > 0 seconds")
    _writable(args.json, "--json")
    _writable(args.html, "--html")
    from udpm.auditing.alpha_inputs import exact_alpha
    from udpm.auditing.report import audit

    if args.alpha is not None or args.eps is not None:
        exact_alpha(args.alpha, args.eps)  # a bad alpha is refused before the mechanism is read
    if args.library is not None:
        if args.n is None:
            raise InvalidInput(f"--library {args.library} needs --n (counts 0..n)")
        m = library_mechanism(args.library, args.n, epsilon=args.epsilon, scale=args.scale)
    else:
        m = read_matrix(args.mechanism, args.exact)
    prior = _prior(args.prior, args.exact)
    losses = [_loss(s) for s in (args.loss or ["abs", "zero-one", "squared"])]
    users = {
        f"{args.prior if isinstance(prior, str) else 'given prior'}, {s}": (prior, lo)
        for s, lo in zip(args.loss or ["abs", "zero-one", "squared"], losses)
    }
    progress = (lambda line: print(line, file=sys.stderr, flush=True)) if sys.stderr.isatty() else None
    report = audit(
        m,
        args.alpha,
        eps=args.eps,
        users=users,
        exact=args.exact if args.exact in ("rationalize", "estimated", "sampled") else None,
        confidence=args.confidence,
        tolerance=args.tolerance,
        timeout_s=args.timeout,
        budget=args.budget,
        witness=not args.no_witness,
        progress=progress,
    )
    if args.json:
        _write(args.json, report.to_json(), "--json")
    if args.html:
        _write(args.html, report.to_html(), "--html")
    try:
        sys.stdout.write(report.to_text())
        for path in (args.json, args.html):
            if path:
                print(f"wrote {path}")
        sys.stdout.flush()
    except BrokenPipeError:  # a reader such as `head` left early: the outputs are written, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if report.sampled is not None:
        bad = (args.fail_unless == "private" and not report.sampled.consistent_with_dp) or (
            args.fail_unless == "optimal" and report.sampled.consistent_with_reference is not True
        )
        return EXIT_FAILED if bad else EXIT_OK
    if report.universality is None and report.privacy:
        return EXIT_INCONCLUSIVE
    if args.fail_unless == "private" and not report.privacy:
        return EXIT_FAILED
    if args.fail_unless == "optimal" and not report.universality:
        return EXIT_FAILED
    return EXIT_OK


def check_main(argv: list[str]) -> int:
    """``reproduce.py``'s main, with the remaining arguments (it needs the repository checkout)."""
    path = ROOT / "reproduce.py"
    if not path.is_file():
        raise InvalidInput(f"udpm check runs the checkout's reproduce.py, which is not at {path}")
    spec = importlib.util.spec_from_file_location("reproduce", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return int(module.main(argv, prog="udpm check"))


def certificates_main(argv: list[str]) -> int:
    from udpm.lp.certificates import main as check

    return check(argv)


USAGE = """usage: udpm {audit,check,certificates} ...

  udpm audit mechanism.json --alpha 1/2   audit your own mechanism (udpm audit --help)
  udpm check [--only PATTERN ...]        check every claim of the four papers (reproduce.py --help)
  udpm certificates FILE...              re-check exported LP certificates with the standard library alone
"""

COMMANDS = {"audit": audit_main, "check": check_main, "certificates": certificates_main}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE) if argv else sys.stderr.write(USAGE)
        return EXIT_OK if argv else EXIT_BAD_INPUT
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"udpm: error: unknown command {command!r}; use audit, check or certificates", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return COMMANDS[command](rest)
    except InvalidInput as exc:
        print(f"udpm {command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SolverTimeout as exc:
        print(f"udpm {command}: inconclusive: {exc}", file=sys.stderr)
        return EXIT_INCONCLUSIVE
    except HarnessError as exc:
        print(f"udpm {command}: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"udpm {command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
